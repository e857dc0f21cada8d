"""T-Rex's table, the host's big screen: the three actions to perform, large (in big letters
on a TV); the banner (the last match, a bye-bye, the tie-break vote or the end); the token
piles emptying; the scoreboard; and the T-Rex at the end."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tui.bigtext import big_lines
from tui.games import GameWidget
from tui.games.trex.narrate import narrate
from tui.games.trex.pieces import (
    TREX,
    end_banner,
    match_banner,
    piles_picture,
    scoreboard,
    tie_text,
)
from tui.games.trex.words import COLOUR_STYLE, colour_label
from tui.i18n import t
from tui.text import literal, marks_of
from tui.widgets import put


class TRexTable(GameWidget):
    """Three actions, large; the piles as a picture; the scoreboard; the tie-break; the end."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="tr-actions"):
            for colour in COLOUR_STYLE:
                yield Static(id=f"tr-action-{colour}", classes=f"tr-action -{colour}")
        yield Static(id="tr-banner")
        yield Static(id="tr-piles", classes="box")
        yield Static(id="tr-scores", classes="box")
        yield Static(id="tr-end")

    def on_mount(self) -> None:
        self.query_one("#tr-piles").border_title = t("trex.piles_title")
        self.query_one("#tr-scores").border_title = t("trex.scores_title")
        self._byebye: Text | None = None

    def happened(self, events: list[dict[str, Any]]) -> None:
        """A bye-bye is news for the whole room: it stays on the banner until the next match."""
        for event in events:
            if event.get("type") == "byebye":
                line = narrate(event, [])
                self._byebye = Text(f" {line} ", style="bold black on bright_white")
            elif event.get("type") in ("match", "coop_revealed"):
                self._byebye = None

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        names = view["players"]
        symbols = view["symbols"]
        tie = view.get("tie_break")
        for colour in COLOUR_STYLE:
            box = self.query_one(f"#tr-action-{colour}", Static)
            box.border_title = colour_label(colour, symbols).plain
            text = view["actions"].get(colour) or "—"
            room = box.content_region.width
            letters = big_lines(text, room) if self.app.has_class("-tv") and room else None
            if letters:  # on a TV, in big letters when the font has them all
                put(box, Text("\n".join(letters), style=COLOUR_STYLE[colour]))
            else:
                put(box, literal(text, 80, style="bold"))
        banner = self.query_one("#tr-banner", Static)
        if tie and view["phase"] == "vote":
            put(banner, tie_text(tie, names))
        elif view["over"]:
            put(banner, end_banner(view, names))
        elif self._byebye is not None:
            put(banner, self._byebye)
        elif view.get("last_match"):
            large = self.app.has_class("-tv")
            put(banner, match_banner(view["last_match"], names, large=large))
        else:
            key = "trex.perform_coop" if view["mode"] == "coop" else "trex.perform"
            put(self.query_one("#tr-banner", Static), Text(t(key), style="bold"))
        piles = self.query_one("#tr-piles", Static)
        # at the end the T-Rex takes their place; on a small screen, the vote does
        voting = bool(tie) and view["phase"] == "vote" and self.app.has_class("-small")
        piles.display = not view["over"] and not voting
        put(piles, piles_picture(view, piles.content_size.width))
        self.mark_crowded(len(names))
        put(self.query_one("#tr-scores", Static), scoreboard(view, marks_of(self.room)))
        end = self.query_one("#tr-end", Static)
        end.display = bool(view["over"])
        if view["over"]:
            put(end, Text(TREX.strip("\n"), style="bold green"))
