"""`w` in the lobby: the web seats' address as a QR code, big enough for a phone's camera
from across the table. A dialog of its own: the code needs 17 lines, the lobby has none to
spare at 80×24."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.i18n import t
from tui.web.qr import qr_text
from tui.widgets import keys


class WebSeatScreen(ModalScreen[None]):
    BINDINGS = keys(
        "host.web",
        [Binding("escape,w,enter", "app.pop_screen", "key.close", key_display="Esc")],
    )

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url

    def compose(self) -> ComposeResult:
        with Horizontal(id="web-box"):
            yield Static(qr_text(self.url), id="web-qr")
            with Vertical(id="web-words"):
                yield Static(Text(t("web.title"), style="bold"))
                yield Static(Text(self.url, style="bold"), id="web-url")
                yield Static(t("web.hint"), classes="dim")
