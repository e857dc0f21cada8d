"""The table, the big screen: the running total, large; the round; the dice chosen and
rolled; every player; what matters now — the phase, or a moment (a bust, a Tally Up!, the
reveal's count of 1… 2… 3…!) held up long enough to be seen, in big letters on a TV; and at
the end the score chart."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Digits, Static

from tui.bigtext import big, big_lines
from tui.games import GameWidget
from tui.games.tallyup.dice import dice_art, dice_chips
from tui.games.tallyup.narrate import bust_reason, narrate, reveal_outcome
from tui.games.tallyup.pieces import (
    dice_overview,
    phase_line,
    players_table,
    round_line,
    score_chart,
)
from tui.i18n import t
from tui.text import marks_of, numbers_kept
from tui.widgets import Beats, after_refresh, put

REVEAL_BEATS = ("1…", "2…", "3…!")
BANNER_SECONDS = 4.0
BEAT_SECONDS = 0.45
TOTAL_WIDTH = 26  # the running total's box (styles.tcss)


@dataclass(frozen=True)
class Headline:
    """What matters now, at the top of the table: `word`, in big letters on a TV where they
    fit, and `line`, what it means — under the word there, after it on a smaller screen.
    Each said once ("BUST!" and why; not "BUST! Two stars — bust!"). `colour`: a moment's
    (its word in that colour, its line in `ink` on it); None: the phase's, plain. `scales`:
    the sizes of big letters to try, largest first."""

    word: str
    line: str = ""
    colour: str | None = None
    ink: str = "white"
    scales: tuple[int, ...] = (2, 1)

    def small(self) -> Text:
        """In a line, as a screen smaller than a TV shows it (a name and its number on one
        line: "Бот 1, Бот" over "2." in the 24 columns beside the total; `put` draws it)."""
        line = numbers_kept(self.line)
        if self.colour is None:
            return Text(f"{self.word} {line}".strip(), style="bold")
        said = f"{self.word}  {line}" if line else self.word
        return Text(f"  {said}  ", style=f"bold {self.ink} on {self.colour}")

    def under(self) -> Text:
        """The line under the word in big letters (empty: none)."""
        if not self.line:
            return Text()
        line = numbers_kept(self.line)
        if self.colour is None:
            return Text(line, style="bold")
        return Text(f" {line} ", style=f"bold {self.ink} on {self.colour}")


def drawable(words: str) -> str:
    """`words` in the big font's characters: an ellipsis as three dots, a dash as a hyphen."""
    return words.replace("…", "...").replace("—", "-").replace("–", "-")


class TallyTable(GameWidget):
    """The big screen: the running total, large; the dice; every player; the moment."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="tu-top"):
            with Vertical(id="tu-total-box", classes="box"):
                yield Digits("0", id="tu-total")
                yield Static(id="tu-total-big")  # on a TV: twice as large
                yield Static(id="tu-round")
            yield Static(id="tu-banner")
        yield Static(id="tu-dice")  # (above the roll: under it, the roll's dice names read as its)
        yield Static(id="tu-roll")
        yield Static(id="tu-players", classes="box")
        yield VerticalScroll(id="tu-chart", classes="box")

    def on_mount(self) -> None:
        self.query_one("#tu-total-box").border_title = t("tallyup.running_total")
        self.query_one("#tu-players").border_title = t("tallyup.players_title")
        self.query_one("#tu-chart").border_title = t("tallyup.chart_title")
        self.query_one("#tu-chart").display = False
        self.beats = Beats(self, BEAT_SECONDS, self._beat, lambda: len(REVEAL_BEATS) - 1)
        self._banner_until = 0.0
        self._kept_bonus: list[dict[str, Any]] = []
        self._banner: Headline | None = None  # a moment's, while it is held up
        self._kept_roll: list[dict[str, Any]] = []  # a bust's dice stay up into the next round
        self._roll_chips = False  # the roll drawn as chips on a line (dice boxes did not fit)

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        if self.beats.beat is None:
            self._redraw()

    def happened(self, events: list[dict[str, Any]]) -> bool:
        names = [s["name"] for s in self.room.get("seats", [])]
        kinds = {event.get("type") for event in events}
        for event in events:
            kind = event.get("type")
            if kind in ("revealed", "bust", "tally_up", "shout"):
                # a moment stays up long enough to be seen, however fast the next roll comes
                self._banner_until = time.monotonic() + BANNER_SECONDS
            if kind == "revealed":  # (the count's size throughout: its beats' — `_render_beat`)
                outcome = reveal_outcome(event, names)
                self._banner = Headline(t("tallyup.ev.reveal"), outcome, scales=(1,))
                self._start_reveal()
            elif kind == "bust":
                reason = bust_reason(event, names)
                self._banner = Headline(t("tallyup.bust_banner"), reason, "red")
            elif kind == "tally_up":
                shout = t("tallyup.tally_shout")
                self._banner = Headline(t("tallyup.tally_banner"), shout, "yellow", "black")
            elif kind == "shout":
                said = narrate(event, names) or ""
                self._banner = Headline(said, colour="yellow", ink="black")
            elif kind == "rolled":
                self._kept_roll, self._kept_bonus = list(event["dice"]), []
            elif kind == "bonus_rolled":
                self._kept_bonus = list(event["dice"])
            elif kind in ("rolling", "dice_chosen"):
                if kind == "dice_chosen":  # the next player's dice: the last round's roll goes
                    self._kept_roll, self._kept_bonus = [], []
                self._move_on()
        # (the view of the change comes next, with `show`: it draws)
        shown = {"revealed", "bust", "tally_up", "shout", "rolled", "bonus_rolled", "rolling"}
        return bool(kinds & (shown | {"dice_chosen"}))

    def _move_on(self) -> None:
        """The next roll is coming: the last moment goes — once it has been up long enough."""
        left = self._banner_until - time.monotonic()
        if left > 0:
            self.set_timer(left, self._move_on)
            return
        self._banner = None
        if self.view and self.beats.beat is None:
            self._redraw()

    def _start_reveal(self) -> None:
        """1… 2… 3…! — the tokens turn on the last beat. A reveal hard on the heels of the
        last one starts the count again."""
        self.beats.start()
        self._render_beat()
        if self.view and self.room:
            # everyone still IN has chosen by now (the last choice is what set this off)
            sealed = dict(self.view, locked=[not out for out in self.view["out"]])
            put(self.query_one("#tu-players", Static), players_table(sealed, self.room))

    def _beat(self) -> None:
        """The count's next beat; after the last, the tokens turn."""
        if self.beats.beat is None:
            self._redraw()
        else:
            self._render_beat()

    def _render_beat(self) -> None:
        beats = REVEAL_BEATS[: (self.beats.beat or 0) + 1]
        if self._banner is not None:  # on a TV: as large as the whole count will be
            large = self._large(self._banner, shown=" ".join(beats))
            if large is not None:
                put(self.query_one("#tu-banner", Static), large)
                return
        if not self.app.has_class("-small"):  # in big letters where there is room
            letters = big("  ".join(b.replace("…", "..") for b in beats))
            if letters:
                put(self.query_one("#tu-banner", Static), Text("\n".join(letters), style="bold"))
                return
        beat = Text("  ".join(beats), style="bold reverse")
        put(self.query_one("#tu-banner", Static), Text("  ") + beat)

    def _redraw(self) -> None:
        view, room = self.view, self.room
        if not view or not room:
            return
        names = view["players"]
        total = view["running_total"]
        put(self.query_one("#tu-total", Digits), str(total))
        put(self.query_one("#tu-total-big", Static), Text("\n".join(big(str(total), 2) or [])))
        crowded = self.mark_crowded(len(names))
        self.set_class(bool(view["over"]), "-over")
        line = round_line(view, names, total=total if crowded else None)
        inner = self.query_one("#tu-total-box").content_size.width or TOTAL_WIDTH - 4
        if line.cell_len > inner:  # (the box's border and padding are not in its content)
            line = round_line(view, names, narrow=True, total=total if crowded else None)
        put(self.query_one("#tu-round", Static), line)
        dice = dice_overview(view)
        across = self.query_one("#tu-dice").content_size.width
        if not across:  # not laid out yet: drawn again once it is (its width is the test)
            after_refresh(self, self._redraw)
            across = self.size.width - 2
        if dice.cell_len > across:  # one line, never two: the unused dice without their names
            dice = dice_overview(view, short=True)
        put(self.query_one("#tu-dice", Static), dice)
        put(self.query_one("#tu-banner", Static), self._headline(view, names))
        bonus = view["bonus"] or self._kept_bonus
        # the dice as chips on a line: a crowded table, or a small one with a bonus roll too
        # (two rows of dice boxes left the players one row), or one whose rows other lines
        # took (a host's alert over two, a footer on two, a round line on two)
        chips = crowded or (bool(bonus) and self.app.has_class("-small"))
        roll = self._roll(view, bonus, chips)
        if not chips and not self._roll_fits(roll):
            chips, roll = True, self._roll(view, bonus, chips=True)
        self._roll_chips = chips
        put(self.query_one("#tu-roll", Static), roll)
        put(self.query_one("#tu-players", Static), players_table(view, room))
        chart = self.query_one("#tu-chart", VerticalScroll)
        # the scores round by round: at the end; on a TV all game long (it has the room)
        chart.display = bool(view["over"] or (self.app.has_class("-tv") and view["history"]))
        if chart.display:
            self._draw_chart(view)
        # (the rows the others take are known once they are laid out: measured again then)
        after_refresh(self, self._check_fit)

    def _roll_fits(self, roll: Text) -> bool:
        """Whether `roll` (dice drawn as dice) leaves the rest of the table its rows: the
        rows the table has, less those its other parts take as laid out now."""
        height = self.content_size.height
        across = self.query_one("#tu-roll").content_size.width
        if not height or not across:
            return True  # not laid out yet (measured again once it is)
        taken = sum(
            child.outer_size.height
            for child in self.children
            if child.display and child.id not in ("tu-roll", "tu-chart")
        )
        return taken + len(roll.wrap(self.app.console, across)) <= height

    def _check_fit(self) -> None:
        """Laid out: draw again if the roll drawn now is not the one that fits."""
        if not self.view or not self.room or self.beats.beat is not None:
            return
        bonus = self.view["bonus"] or self._kept_bonus
        crowded = self.has_class("-crowded")
        chips = crowded or (bool(bonus) and self.app.has_class("-small"))
        if chips:
            return
        fits = self._roll_fits(self._roll(self.view, bonus, chips=False))
        if fits == self._roll_chips:
            self._redraw()

    def _roll(self, view: dict[str, Any], bonus: list[dict[str, Any]], chips: bool) -> Text:
        """The last roll (and the bonus roll): as dice, or as `chips` on a line."""
        roll = Text()
        if view["last_roll"] or self._kept_roll:
            # (on a small screen this round's dice say it themselves; the last round's not)
            if not self.app.has_class("-small") or not view["last_roll"]:
                roll.append(t("tallyup.last_roll") + "\n", style="dim")
            dice = list(view["last_roll"] or self._kept_roll)
            if view["up_die_label"] is not None:
                dice.append({"colour": "up", "label": view["up_die_label"]})
            roll.append_text(
                dice_chips(dice) if chips else dice_art(dice, large=self.app.has_class("-tv"))
            )
        if bonus and chips:
            roll.append(" " + t("tallyup.bonus_short") + " ", style="dim")  # (one line: ru)
            roll.append_text(dice_chips(bonus))
        elif bonus:
            roll.append("\n" + t("tallyup.bonus_roll") + "\n", style="dim")
            roll.append_text(dice_art(bonus, large=self.app.has_class("-tv")))
        return roll

    def _headline(self, view: dict[str, Any], names: list[str]) -> Text:
        """The moment held up, else the phase: on a TV in big letters where they fit. (The
        end stays in a line: the results beside the table name the winner large.)"""
        if self._banner is None and view["over"]:
            return phase_line(view, names)
        headline = self._banner or Headline(phase_line(view, names).plain)
        large = self._large(headline)
        return headline.small() if large is None else large

    def _large(self, headline: Headline, shown: str | None = None) -> Text | None:
        """On a TV, `headline`'s word in big letters with its line under it, at the largest
        of its scales that leaves it beside the running total — no taller than that box, so
        nothing below moves (None: not a TV, or a character the font lacks, or no size fits).
        `shown`: a part of the word (the count's beats so far), drawn as large as the whole."""
        if not self.app.has_class("-tv"):
            return None
        room = self.query_one("#tu-banner", Static).content_size.width
        rows = self.query_one("#tu-total-box").outer_size.height - 1  # (the banner's padding)
        if room <= 0 or rows <= 0:
            return None  # not laid out yet (`_redraw` draws again once it is)
        under = headline.under()
        taken = len(under.wrap(self.app.console, room)) if under else 0
        for scale in headline.scales:
            letters = big_lines(drawable(headline.word), room, scale)
            if letters is None or len(letters) + taken > rows:
                continue
            if shown is not None:
                letters = big_lines(drawable(shown), room, scale) or letters
                under = Text()
            text = Text()  # (the letters a span, as the line is: one shade of the colour)
            text.append("\n".join(letters), style=f"bold {headline.colour or ''}".strip())
            if under:
                text.append("\n")
                text.append_text(under)
            return text
        return None

    def _draw_chart(self, view: dict[str, Any], again: bool = True) -> None:
        """The chart; on a TV drawn `again` once laid out (its height is known then)."""
        chart = self.query_one("#tu-chart", VerticalScroll)
        rows = 1
        if self.app.has_class("-tv"):  # the chart takes the rows left: bars as tall as fit
            height, players = chart.scrollable_content_region.height, len(view["players"])
            rows = max(1, min(4, (height + 1) // players - 1))  # (a row between two players)
        drawn = score_chart(view, rows, marks_of(self.room))
        if shown := list(chart.query(".tu-chart-text")):
            put(shown[0], drawn)
        else:
            chart.mount(Static(drawn, classes="tu-chart-text"))
        if again and self.app.has_class("-tv"):
            after_refresh(self, self._chart_laid_out)  # (the table may be gone by then)

    def _chart_laid_out(self) -> None:
        if self.view and self.query_one("#tu-chart").display:
            self._draw_chart(self.view, again=False)
