"""T-Rex's table, the host's big screen: the three actions to perform, large (in big letters
on a TV); the banner (the last match, a bye-bye, the tie-break vote or the end); the token
piles emptying; the scoreboard (names and scores in big letters on a TV, when the rest leaves
them the room); and the T-Rex at the end."""

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
    crown,
    end_banner,
    large_scoreboard,
    large_tie_text,
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
        """A bye-bye is news for the whole room: it stays on the banner, under the match it
        followed, until the next match."""
        for event in events:
            if event.get("type") == "byebye":
                line = narrate(event, [])
                self._byebye = Text(f" {line} ", style="bold black on bright_white")
            elif event.get("type") in ("match", "coop_revealed"):
                self._byebye = None

    def _tv_width(self) -> int:
        """The banner's width for big letters: on a TV only (0: none)."""
        return self.content_size.width - 2 if self.app.has_class("-tv") else 0

    def crowned(self) -> bool:
        return bool(self.view and crown(self.view, self.view["players"], self._tv_width()))

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        names = view["players"]
        symbols = view["symbols"]
        tie = view.get("tie_break")
        tv = self.app.has_class("-tv")
        card_rows = 0
        for colour in COLOUR_STYLE:
            box = self.query_one(f"#tr-action-{colour}", Static)
            box.border_title = colour_label(colour, symbols).plain
            text = view["actions"].get(colour) or "—"
            room = box.content_region.width
            letters = big_lines(text, room) if tv and room else None
            if letters:  # on a TV, in big letters when the font has them all
                card = Text("\n".join(letters), style=COLOUR_STYLE[colour])
            else:
                card = literal(text, 80, style="bold")
            put(box, card)
            card_rows = max(card_rows, self._rows(card, room))
        voting = bool(tie) and view["phase"] == "vote"
        # on a TV the round's cards make way for what matters now: the tied players' actions
        # in sudden death, the T-Rex at the end
        actions = self.query_one("#tr-actions")
        actions.display = not (tv and (voting or view["over"]))
        if voting:
            large_tie = large_tie_text(tie, names, self.content_size.width - 2) if tv else None
            banner = large_tie or tie_text(tie, names)
        elif view["over"]:
            banner = end_banner(view, names, self._tv_width())
        elif view.get("last_match"):  # a bye-bye drawn after it goes under it
            wide = self.content_size.width - 2 if tv else 0
            banner = match_banner(view["last_match"], names, large=wide)
            if self._byebye is not None:
                banner = banner + Text("\n") + self._byebye
        elif self._byebye is not None:
            banner = self._byebye
        else:
            key = "trex.perform_coop" if view["mode"] == "coop" else "trex.perform"
            banner = Text(t(key), style="bold")
        put(self.query_one("#tr-banner", Static), banner)
        piles = self.query_one("#tr-piles", Static)
        # at the end the T-Rex takes their place; on a small screen, the vote does
        piles.display = not view["over"] and not (voting and self.app.has_class("-small"))
        pile_rows = piles_picture(view, piles.content_size.width)
        put(piles, pile_rows)
        self.mark_crowded(len(names))
        end = self.query_one("#tr-end", Static)
        end.display = bool(view["over"])
        trex = Text(TREX.strip("\n"), style="bold green")
        if view["over"]:
            put(end, trex)
        scores = self.query_one("#tr-scores", Static)
        board = scoreboard(view, marks_of(self.room), scores.content_size.width)
        if tv:  # names and scores in big letters, if the rest leaves them the room
            width = scores.content_size.width or self.content_size.width - 4
            large = large_scoreboard(view, marks_of(self.room), width)
            cards = max(3, card_rows) + 2 if actions.display else 0
            taken = [cards, 1 + self._rows(banner, width), 2]  # (2: the scores box's border)
            if piles.display:
                taken.append(2 + self._rows(pile_rows, width))
            if end.display:
                taken.append(self._rows(trex, width))

            def fits(used: list[int]) -> bool:
                rows = sum(used) + self._rows(large, width) if large is not None else None
                return rows is not None and rows <= self.size.height

            late = voting or view["over"]  # (the banner is the vote's or the end's then)
            if large is not None and not fits(taken) and view.get("last_match") and not late:
                smaller = match_banner(view["last_match"], names, large=width, scales=(1,))
                if self._byebye is not None:
                    smaller = smaller + Text("\n") + self._byebye
                if fits([taken[0], 1 + self._rows(smaller, width), *taken[2:]]):
                    banner = smaller  # the levels a size smaller: the big board stays big
                    put(self.query_one("#tr-banner", Static), banner)
                    taken[1] = 1 + self._rows(banner, width)
            if fits(taken):
                board = large
        put(scores, board)

    def _rows(self, text: Text, width: int) -> int:
        """The lines `text` takes wrapped to `width` columns."""
        return len(text.wrap(self.app.console, max(1, width)))
