"""The picker a player's hand opens when several offers are waiting: whose to accept (or
decline), chosen by seat number, or Esc for none."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.i18n import t
from tui.text import name
from tui.widgets import Dialog, Footer, keys, tap_target


class PickOfferScreen(Dialog, ModalScreen[int | None]):
    """Several offers are waiting: whose to accept (or decline)? Their seat number says — or
    a tap on the offer; Esc, or a tap beside the box, is none."""

    BESIDE = "pick(-1)"
    ANSWER_FIRST = "trex.pick_first"
    BINDINGS = keys(
        "trex.pick_offer",
        [
            *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 9)],
            Binding("escape", "pick(-1)", "key.back", key_display="Esc"),
        ],
    )

    def __init__(self, verb: str, offers: list[tuple[int, str]]) -> None:
        super().__init__()
        self.verb = verb
        self.offers = offers
        self.seats = [seat for seat, _ in offers]

    def compose(self) -> ComposeResult:
        text = Text(t(f"trex.pick_{self.verb}") + "\n\n", style="bold")
        for seat, player in self.offers:
            row = Text()
            row.append(f" {seat + 1} ", style="bold reverse")
            row.append(" ")
            row.append_text(name(player))
            text.append_text(tap_target(row, f"pick({seat})"))
            text.append("\n")
        text.append("\n")
        text.append_text(tap_target(Text(t("trex.pick_hint"), style="dim"), "pick(-1)"))
        with Vertical(id="confirm"):
            yield Static(text)
        yield Footer()

    def action_pick(self, index: int) -> None:
        self.dismiss(index if index in self.seats else None)
