"""Tesauro's table, the host's big screen: the word, who judges and who reads, the tiles
while they think, the definitions as they come (one by one after a reveal), the answer in the
fullest form that fits, the cards won, the tie-break and the end.

It renders the public view only: it never holds a role, the entry's definition or category,
or a typed definition before the reveal."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui.bigtext import big
from tui.games import GameWidget
from tui.games.tesauro.pieces import (
    clocked_seats,
    definitions,
    last_line,
    progress,
    reveal,
    scoreboard,
    tie_banner,
    turn_line,
)
from tui.games.tesauro.widgets import BigWord, Flow, TileGrid
from tui.games.tesauro.words import BIG_HEIGHT, MAX_TEXT, clock, hurried, joined, role_name, who
from tui.i18n import t
from tui.text import marks_of, name
from tui.widgets import Beats, after_refresh, put

STAGE_SECONDS = 1.2  # the table shows the revealed definitions one by one, this far apart
HOLD_SECONDS = 15.0  # a small table keeps a fresh reveal up this long into the next turn
SCORES_ROWS = 3  # the cards won, with their box: rows a small table gives the definitions


class TesauroTable(GameWidget):
    """The big screen: the word, the tiles while they think, the definitions as they come,
    the reveal, the cards won."""

    def compose(self) -> ComposeResult:
        with Vertical(id="ts-word-box"):
            yield BigWord(id="ts-word")
            yield Static(id="ts-roles")
        yield Static(id="ts-banner")
        yield Flow(id="ts-progress", gap=2)
        yield Static(id="ts-intro")
        with Vertical(id="ts-tiles-box", classes="box"):
            yield TileGrid(id="ts-tiles")
        yield Static(id="ts-defs", classes="box")
        yield Static(id="ts-reveal", classes="box")
        yield Static(id="ts-last")
        with Vertical(id="ts-scores", classes="box"):
            yield Flow(id="ts-score-flow")

    def on_mount(self) -> None:
        self.query_one("#ts-tiles-box").border_title = t("tesauro.tiles_title")
        self.query_one("#ts-defs").border_title = t("tesauro.defs_title")
        self.query_one("#ts-scores").border_title = t("tesauro.scores_title")
        # staging the definitions: `beat` is the last one shown
        self.beats = Beats(self, STAGE_SECONDS, self._redraw, self._last_staged)
        self._judged_seen = False
        self._hold_until = 0.0
        self._reveal_form = 0  # how much of the answer fits (see _reveal_forms)
        self._fit_key: tuple[Any, ...] | None = None  # the moment and size it was found for
        self._full_reveal = False
        self._last_row = 0  # the last turn's line takes a row under the definitions
        self._defs_cut = False  # the definitions drawn cut short: `l` has them whole
        self._every_forms = 0  # the first answer forms with every definition (`_reveal_forms`)
        self._ticker = self.set_interval(0.5, self._tick)

    # following the room

    def happened(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "revealed":
                mode = self.view.get("mode")
                if mode != "spoken" and len(event.get("defs") or []) > 1:
                    self.beats.start()
            elif kind == "judged":
                self._judged_seen = True

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        if view["phase"] != "judge":
            self.beats.stop()
        if self._judged_seen:  # a judgement just now: its reveal stays up for a while
            self._judged_seen = False
            if view["phase"] in ("dealing", "choose"):
                self._hold_until = time.monotonic() + HOLD_SECONDS
                self.set_timer(HOLD_SECONDS + 0.1, self._redraw)
        self._redraw()

    def redraw(self) -> None:
        self._redraw()

    def _tick(self) -> None:
        view = self.view
        if view and view["phase"] == "write" and self.seconds_left() is not None:
            self._draw_banner(view, view["players"])

    def _last_staged(self) -> int:
        """The last definition staged on its own: after it, all of them are up."""
        return len(self.view.get("defs") or []) - 2

    # drawing

    def _big(self) -> bool:
        return self.size.height >= BIG_HEIGHT

    def crowned(self) -> bool:
        return bool(self.view and self.view["over"])  # (the word's box has the winners)

    def _defs_rows(self, defs: list[dict[str, Any]], rows: int = 0) -> tuple[int, int]:
        """The definitions' room in rows (with `rows` more than the layout gives them: the
        cards won's, when those make way), and about the rows they take whole."""
        width = max(20, self.size.width - 10)
        # the word, the banner, the box's borders, the cards won (a small table: 4 + 1 + 2 +
        # 3); and the last turn's line under the box when it is shown (a row held for it
        # while the Sage judged, when it never is, left a row empty under definitions cut)
        room = self.size.height - (16 if self._big() else 10) + rows - self._last_row
        if self.has_class("-crowded"):  # the cards won make way: the word, banner, the box
            room = self.size.height - 7 - self._last_row
        room -= getattr(self, "_banner_rows", 1) - 1  # a banner of more than a line
        needed = sum(2 + len(d.get("text") or "") // width for d in defs)
        return room, needed

    def _text_limit(self, view: dict[str, Any], rows: int = 0) -> int:
        """How much of each definition the table has room for (below 1: one line each): the
        longest cut whose definitions, wrapped as drawn, fit the rows (a cut worked out from
        their lengths alone left rows empty under a definition cut short)."""
        defs = view["defs"]
        room, needed = self._defs_rows(defs, rows)
        if needed <= room or not defs:
            return MAX_TEXT
        inner = self.query_one("#ts-defs").content_size.width or self.size.width - 4
        console = self.app.console
        options = console.options.update_width(max(10, inner))

        def fits(limit: int) -> bool:
            drawn = definitions(view, view["players"], limit=limit, clocked=clocked)
            return len(console.render_lines(drawn, options, pad=False)) <= room

        clocked = clocked_seats(self.app, view, view["turn"])
        if fits(MAX_TEXT):
            return MAX_TEXT
        low, high = 0, MAX_TEXT  # the longest cut that fits
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if fits(middle) else (low, middle - 1)
        return low if low >= inner // 2 else 0  # (less than half a line each: a line each)

    def _spacious(self, defs: list[dict[str, Any]]) -> bool:
        """On a TV with the rows for it: the definitions a line apart, in bold — read from
        across the room (they sat in small type over twenty empty rows)."""
        room, needed = self._defs_rows(defs)
        return self.app.has_class("-tv") and needed + len(defs) <= room

    def _redraw(self) -> None:
        view = self.view
        if not view:
            return
        names = view["players"]
        phase = view["phase"]
        big = self._big()
        self.set_class(big, "-big")
        self.mark_crowded(len(names))
        self._draw_word(view, names)
        self._draw_banner(view, names)
        progress_line = self.query_one("#ts-progress", Flow)
        progress_line.display = phase == "write"
        if phase == "write":
            progress_line.show(progress(view, names))
        last = view.get("last_turn")
        intro = self.query_one("#ts-intro", Static)
        intro.display = not last and phase in ("dealing", "choose")
        intro.update(Text(t("tesauro.table_intro"), style="dim"))
        fresh = time.monotonic() < self._hold_until
        full_reveal = bool(last) and (
            phase in ("dealing", "choose", "over") or (phase != "judge" and (big or fresh))
        )
        tiles = self.query_one("#ts-tiles-box")
        # the tiles while they think, always: a fresh answer held into the thinking time
        # goes under them in the form that fits (it hid them on a small table, mid-thinking)
        tiles.display = phase == "write"
        if tiles.display:
            self.query_one("#ts-tiles", TileGrid).show(view)
        defs = self.query_one("#ts-defs", Static)
        defs.display = phase in ("speak", "judge") and bool(view["defs"] or phase == "speak")
        self._last_row = int(bool(last) and not full_reveal and phase != "judge")  # (#ts-last)
        scores_give_way = False
        if defs.display:
            shown = None if self.beats.beat is None else self.beats.beat + 1
            limit = self._text_limit(view)
            if limit < MAX_TEXT and not big:  # cut short on a small screen: the cards won
                roomier = self._text_limit(view, SCORES_ROWS)  # give them their rows
                scores_give_way = roomier > max(limit, 0)
                limit = max(limit, roomier)
            one_line = limit < 1
            limit = MAX_TEXT if one_line else limit
            spaced = not one_line and self._spacious(view["defs"])
            clocked = clocked_seats(self.app, view, view["turn"])
            defs.update(
                definitions(
                    view,
                    names,
                    shown,
                    one_line=one_line,
                    limit=limit,
                    spaced=spaced,
                    clocked=clocked,
                )
            )
            defs.set_class(one_line, "-abridged")  # each to a line: whole in every hand
        self._defs_cut = defs.display and limit < MAX_TEXT
        defs.border_subtitle = t("tesauro.whole_hint") if self._defs_cut else ""
        self._full_reveal = full_reveal
        self._draw_reveal()
        self.query_one("#ts-score-flow", Flow).show(scoreboard(view, marks_of(self.room)))
        # many definitions on a small screen: the cards won (unchanged while they are read
        # and judged) give them their rows
        crowded_defs = self.has_class("-crowded") and phase in ("speak", "judge")
        self.query_one("#ts-scores").display = not (crowded_defs or scores_give_way)
        if full_reveal:
            after_refresh(self, self._refit_reveal)

    def _reveal_forms(self, width: int) -> list[RenderableType | None]:
        """The answer, from the most to the least: every definition with its role (a big
        table), the answer alone, the answer with its true definition cut to a line (every
        hand has it whole: a Russian 80×24 tie-break left seven rows empty over a one-line
        answer, for want of one row); None: one line below."""
        assert self.view
        last, names = self.view["last_turn"], self.view["players"]
        forms: list[RenderableType | None] = [
            reveal(last, names),
            reveal(last, names, short=True),
            reveal(last, names, short=True, cut=True),
        ]
        clocked = clocked_seats(self.app, self.view, last["turn"])
        if self._big():
            forms.insert(0, reveal(last, names, every=True, clocked=clocked))
        letters = big(last["word"]) if self.app.has_class("-tv") else None
        if letters and len(letters[0]) <= width:  # on a TV, the word of the answer large
            word = Text("\n".join(letters), style="bold")
            forms.insert(0, Group(word, reveal(last, names, every=True, clocked=clocked)))
        self._every_forms = len(forms) - 3  # (those with every definition: not cut)
        return [*forms, None]

    def _reveal_room(self) -> int | None:
        """Rows the answer's box may take down to the cards won (None: not laid out yet)."""
        box, scores = self.query_one("#ts-reveal"), self.query_one("#ts-scores")
        if not box.display or not box.region.height or not scores.region.height:
            return None
        return scores.region.y - box.region.y

    def _fitting(self) -> int:
        """The first form of the answer that fits whole (nothing cut by the cards won)."""
        box = self.query_one("#ts-reveal")
        width = box.content_size.width or max(20, self.size.width - 4)
        room = self._reveal_room()
        forms = self._reveal_forms(width)
        if room is None:
            return 0
        console = self.app.console
        options = console.options.update_width(width)
        for index, form in enumerate(forms):
            if form is None or len(console.render_lines(form, options, pad=False)) + 2 <= room:
                return index
        return len(forms) - 1

    def _draw_reveal(self) -> None:
        """The answer in the form that fits: the one found last for this moment and size, or
        from the fullest at a new one (`_refit_reveal` then finds the one that fits)."""
        view = self.view
        assert view
        last = view.get("last_turn")
        key = (last or {}).get("turn"), view["phase"], self.size, self._big()
        if key != self._fit_key:
            self._fit_key, self._reveal_form = key, 0
        elif self._full_reveal and self.query_one("#ts-reveal").display:
            self._reveal_form = self._fitting()
        self._show_reveal()

    def _show_reveal(self) -> None:
        view = self.view
        assert view
        last = view.get("last_turn")
        box = self.query_one("#ts-reveal", Static)
        form, cut = None, False
        if self._full_reveal:
            forms = self._reveal_forms(box.content_size.width or max(20, self.size.width - 4))
            form = forms[min(self._reveal_form, len(forms) - 1)]
            cut = form is not None and form is forms[-2]  # the true definition cut to a line
        box.display = form is not None
        box.set_class(cut, "-abridged")  # cut on purpose: whole on every player's screen
        if form is not None:
            box.border_title = t("tesauro.reveal_title", turn=last["turn"])
            box.border_subtitle = t("tesauro.whole_hint") if self._reveal_cut() else ""
            box.update(form)
        line = self.query_one("#ts-last", Static)
        line.display = bool(last) and form is None and view["phase"] != "judge"
        if line.display:
            line.update(last_line(last, names=view["players"]))

    def _reveal_cut(self) -> bool:
        """Whether the answer shows less than every definition with its role (the answer
        alone, cut to a line, or a line under the definitions)."""
        last = self.view.get("last_turn")
        if not last or not self._full_reveal:
            return bool(last) and self.view["phase"] != "judge"  # (a line: `#ts-last`)
        return self._reveal_form >= self._every_forms

    def whole(self) -> tuple[str, RenderableType] | None:
        """The definitions, or the last answer with every definition and its role, when the
        table draws them cut short (a watcher's 80×24 had five definitions a line each)."""
        view = self.view
        if not view:
            return None
        names = view["players"]
        if self._defs_cut:
            clocked = clocked_seats(self.app, view, view["turn"])
            return t("tesauro.defs_title"), definitions(view, names, clocked=clocked)
        last = view.get("last_turn")
        if last and self._reveal_cut():
            clocked = clocked_seats(self.app, view, last["turn"])
            title = t("tesauro.reveal_title", turn=last["turn"])
            return title, reveal(last, names, every=True, clocked=clocked)
        return None

    def _refit_reveal(self) -> None:
        """Laid out: if the answer is cut by the cards won, a shorter form."""
        if not self.view or not self._full_reveal:
            return
        if not self.query_one("#ts-reveal").display:
            return
        fitting = self._fitting()
        if fitting != self._reveal_form:
            self._reveal_form = fitting
            self._show_reveal()

    def _draw_word(self, view: dict[str, Any], names: list[str]) -> None:
        """The word, large, with who judges and who reads; at the end, the winners."""
        box = self.query_one("#ts-word-box")
        box.border_title = turn_line(view) if not view["over"] else t("tesauro.over_title")
        box.border_subtitle = t("tesauro.deck_left", n=view["deck"])
        word = self.query_one("#ts-word", BigWord)
        roles = Text()
        if view["over"]:
            result = view.get("result") or {}
            winners = result.get("winners", [])
            word.show(joined(names, winners) or "—", Text(), large=self._big())
            cards = view["scores"][winners[0]] if winners else 0
            key = "tesauro.win_shared" if len(winners) > 1 else "tesauro.win_alone"
            roles.append(t(key, n=cards), style="bold green")
            if result.get("reason") == "deck_empty":
                roles.append("  " + t("tesauro.deck_ran_out"), style="dim")
            put(self.query_one("#ts-roles", Static), roles)
            return
        phase = view["phase"]
        reader = who(names, view["reader"])
        if phase == "dealing":
            note = Text(t("tesauro.dealing"), style="dim")
        else:
            note = Text(t("tesauro.choosing", name=reader), style="dim italic")
        word.show(view["word"], note, large=self._big())
        if view["sapiente"] is not None:
            roles.append(role_name("sapiente") + ": ", style="bold yellow")
            roles.append_text(name(who(names, view["sapiente"]), style="bold"))
            roles.append("   ·   " + t("tesauro.reads") + ": ", style="dim")
            roles.append_text(name(reader, style="bold"))
        put(self.query_one("#ts-roles", Static), roles)

    def _draw_banner(self, view: dict[str, Any], names: list[str]) -> None:
        """The tie-break, if one is on; the time left and how many have given theirs; who
        speaks; who judges."""
        phase = view["phase"]
        banner = self.query_one("#ts-banner", Static)
        text = Text()
        if view.get("tie_break") and not view["over"]:
            text.append_text(tie_banner(view, names))
            text.append("\n")
        if phase == "write":
            given = sum(1 for s in view["order"] if view["given"][s])
            if (left := self.seconds_left()) is not None:
                text.append(
                    f" ⏱ {clock(left)} ",
                    style="bold white on red" if hurried(left) else "bold reverse",
                )
                text.append(" ")
            key = "tesauro.writing" if view["mode"] == "typed" else "tesauro.thinking"
            text.append(t(key, n=given, of=len(view["order"])), style="bold")
        elif phase == "speak":
            speaker = view.get("speaker")
            text.append(
                " " + t("tesauro.speaking", name=who(names, speaker)) + " ", style="bold reverse"
            )
        elif phase == "judge":
            text.append(
                t("tesauro.judging", name=who(names, view["sapiente"]), crazy=t("tesauro.crazy")),
                style="bold",
            )
        text.rstrip()
        banner.display = bool(text.plain)
        banner.update(text)
        # (a tie-break's line over the judge's, each wrapped on a small screen, take rows
        # the definitions' room was counted without: `_text_limit`)
        # (its width is the table's but its padding: «Ann судит…» wrapped in 50 columns, not
        # in the 52 it was counted in, and the definitions ran a row under the cards won)
        width = banner.content_size.width or self.size.width - 2
        self._banner_rows = len(text.wrap(self.app.console, max(1, width))) or 1
