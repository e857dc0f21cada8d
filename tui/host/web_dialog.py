"""`w`: the web seats. The address as a QR code, big enough for a phone's camera from across
the table (a dialog of its own: the code needs 17 lines, the lobby has none to spare at
80×24), and with `p` the browser pages open now — where each one is at the table, how long
it has been open — so the host can close one, or block its address."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from net.doorman import address_key
from tui.i18n import t
from tui.web.qr import qr_text
from tui.widgets import ConfirmScreen, Footer, HelpScreen, binding_help, keys

if TYPE_CHECKING:
    from tui.host.app import HostApp
    from tui.web.gateway import Page

ADDRESS_WIDTH, PLACE_WIDTH = 26, 22
"""Columns of the page list (an IPv6 address longer than that is cut with …)."""


class WebSeatScreen(ModalScreen[None]):
    BINDINGS = keys(
        "host.web",
        [
            Binding("escape,w,enter", "app.pop_screen", "key.close", key_display="Esc"),
            Binding("p", "pages", "key.web_pages"),
        ],
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
                yield Static(id="web-count")

    def on_mount(self) -> None:
        self._count()
        self.set_interval(1.0, self._count)

    def _count(self) -> None:
        web = getattr(self.app, "web", None)
        n = len(web.pages) if web is not None else 0
        said = t("web.pages_open", n=n) if n else t("web.pages_none")
        self.query_one("#web-count", Static).update(Text(said, style="bold"))

    def action_pages(self) -> None:
        if getattr(self.app, "web", None) is not None:
            self.app.push_screen(WebPagesScreen())


class WebPagesScreen(ModalScreen[None]):
    """The browser pages open now, one line each: the browser's address, its seat's name (or
    watching, or none yet), how long it has been open. `c` closes the highlighted page, `!`
    blocks its address. Redrawn every second: pages come, sit down and go by themselves."""

    BINDINGS = keys(
        "host.pages",
        [
            Binding("c", "close_page", "key.close_page"),
            Binding("exclamation_mark", "block_page", "key.block", key_display="!"),
            Binding("question_mark", "help", "key.help", key_display="?"),
            Binding("escape,p", "app.pop_screen", "key.back", key_display="Esc"),
        ],
    )

    @property
    def host(self) -> HostApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(id="pages-box", classes="box"):
            yield Static(id="pages-head", classes="dim")
            yield OptionList(id="pages")
            yield Static(t("web.pages_note"), id="pages-note", classes="dim")
        yield Footer()

    def on_mount(self) -> None:
        self.shown: list[Page] = []
        self.query_one("#pages-head", Static).update(row(
            t("web.pages_address"), t("web.pages_place"), t("web.pages_age")
        ))  # fmt: skip
        self.show_pages()
        self.set_interval(1.0, self.show_pages)
        self.query_one("#pages", OptionList).focus()

    def show_pages(self) -> None:
        web = self.host.web
        pages = list(web.pages.values()) if web is not None else []
        box = self.query_one("#pages-box")
        box.border_title = t("web.pages_title", n=len(pages), limit=web.limit if web else 0)
        listing = self.query_one("#pages", OptionList)
        lit = (
            self.shown[listing.highlighted]
            if self.shown and listing.highlighted is not None
            else None
        )
        now = time.monotonic()
        self.shown = pages
        if not pages:
            listing.set_options([Option(Text(t("web.pages_none"), style="dim"), disabled=True)])
        else:
            listing.set_options(
                Option(row(page.address, *self._place_and_age(page, now))) for page in pages
            )
            listing.highlighted = pages.index(lit) if lit in pages else 0
        self.refresh_bindings()

    def _place_and_age(self, page: Page, now: float) -> tuple[Text, str]:
        place = self.host.web.place(page)
        if place is None:
            said = Text(t("web.pages_no_seat"), style="dim")
        elif place[0] == "watching":
            said = Text(t("web.pages_watching"), style="italic")
        else:
            said = Text(place[1], style="bold")  # a name is shown as typed, never as markup
        minutes = int(now - page.opened) // 60
        age = t("web.pages_minutes", n=minutes) if minutes else t("web.pages_new")
        return said, age

    def _lit(self) -> Page | None:
        index = self.query_one("#pages", OptionList).highlighted
        return self.shown[index] if index is not None and index < len(self.shown) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("close_page", "block_page"):
            return True if self._lit() is not None else None  # shown, dim: no page
        return True

    def action_close_page(self) -> None:
        page = self._lit()
        if page is not None and self.host.web is not None:
            self.host.web.close_page(page)
            self.notify(t("web.page_closed", address=page.address), timeout=3, markup=False)
            self.show_pages()

    def action_block_page(self) -> None:
        page = self._lit()
        if page is None:
            return
        address = address_key(page.address)

        def block(answer: bool | None) -> None:
            if answer:
                self.host.server.block(address)  # its pages end too (the gateway hears it)

        self.app.push_screen(ConfirmScreen(t("host.block_confirm", address=address)), block)

    def action_help(self) -> None:
        body = t("help.host_pages.body")
        self.app.push_screen(HelpScreen(t("help.host_pages.title"), body, binding_help(self)))


def row(address: str, place: Text | str, age: str) -> Text:
    """One line of the page list: three columns, each cut to its width."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append_text(_cell(address, ADDRESS_WIDTH))
    line.append_text(_cell(place, PLACE_WIDTH))
    line.append(age)
    return line


def _cell(value: Text | str, width: int) -> Text:
    cell = value.copy() if isinstance(value, Text) else Text(value)
    if cell.cell_len > width - 1:
        cell.truncate(width - 2)
        cell.append("…")
    cell.pad_right(width - cell.cell_len)
    return cell
