"""The Dice Roll Card, a player's help screen (`d` on the hand): every die's faces and risk,
what circles and stars do, and the Up Die's faces."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from games.tallyup import dice_table
from tui.games.tallyup.dice import colour_chip, faces_text
from tui.i18n import t
from tui.widgets import Dialog, Footer, close_line, keys


class DiceChartScreen(Dialog, ModalScreen[None]):
    """The box's Dice Roll Card: every die's faces and risk, plus what circles and stars do.
    Esc, `d`, a tap on its last line or beside it closes it."""

    GIVES_WAY = True

    BINDINGS = keys(
        "tallyup.dice_chart", [Binding("escape,d,q", "dismiss", "key.close", key_display="Esc")]
    )

    def compose(self) -> ComposeResult:
        text = Text(t("tallyup.chart_heading") + "\n\n", style="bold")
        apart = self.app.has_class("-narrow")  # a phone held upright: the faces on a line
        for die in dice_table():
            risk = Text(t("tallyup.risk." + die["risk"]), style="dim")
            if apart:
                text.append_text(colour_chip(die["colour"]) + "  " + risk)
                text.append("\n  " + faces_text(die["colour"]) + "\n")
                continue
            text.append_text(colour_chip(die["colour"], width=13))
            text.append(faces_text(die["colour"]) + "  ")
            text.append_text(risk)
            text.append("\n")
        text.append("\n" + t("tallyup.chart_rules"), style="")
        text.append("\n\n" + t("tallyup.up_die_faces"), style="bold")
        text.append("\n\n")
        text.append_text(close_line(self.app, "tallyup.chart_close"))
        with VerticalScroll(id="help"):
            yield Static(text)
        yield Footer()

    def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(None)
