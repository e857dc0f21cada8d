"""A player's hand: what they may do now, with the numbers that make it a decision — the
dice to pick with their faces and exact odds, the sealed IN/OUT, the shout, the latest big
moment in words, and the Dice Roll Card a key away."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from games.tallyup import COLOURS, main_roll_odds
from games.tallyup.odds import bonus_bust_chance
from tui.games import HandWidget
from tui.games.tallyup.chart import DiceChartScreen
from tui.games.tallyup.dice import colour_chip, dice_art, dice_chips, faces_text
from tui.games.tallyup.narrate import NEWS, narrate
from tui.games.tallyup.pieces import phase_line
from tui.games.tallyup.words import colour_name, percent
from tui.i18n import t
from tui.text import number, unbroken
from tui.widgets import keys, put, tap_target


class TallyHand(HandWidget):
    """Your screen: what you may do now, with the numbers that make it a decision."""

    BINDINGS = keys(
        "tallyup.hand",
        [
            *[
                Binding(str(n), f"pick({n - 1})", "tallyup.key.pick", show=False)
                for n in range(1, 7)
            ],
            Binding("enter", "confirm", "tallyup.key.confirm"),
            Binding("r", "roll", "tallyup.key.roll"),
            Binding("i", "side('in')", "tallyup.key.in"),
            Binding("o", "side('out')", "tallyup.key.out"),
            Binding("space", "shout", "tallyup.key.shout", key_display="Space"),
            Binding("d", "chart", "tallyup.key.chart"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield Static(id="th-status")
        yield Static(id="th-news")
        yield Static(id="th-main")
        yield Static(id="th-odds")
        yield Static(id="th-me", classes="box")

    def on_mount(self) -> None:
        self._picked: list[str] = []
        self._phase: str | None = None  # of the view shown last: the picks are for it
        self._news = ""
        self._kept_roll: list[dict[str, Any]] = []
        self.set_interval(0.5, self._tick)

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        if view.get("phase") != self._phase:  # a new moment: no die picked for it yet
            self._phase = view.get("phase")
            self._picked = []
        self._redraw()

    def happened(self, events: list[dict[str, Any]]) -> bool:
        """The latest big moment (a bust, a Tally Up!, a reveal, the Up Die) stays in words
        on this screen, so nobody has to look up at the table to know what happened."""
        names = self.view.get("players", [])
        fresh = False  # news from this very batch (a bust ends a round and starts the next)
        kinds = {event.get("type") for event in events}
        for event in events:
            kind = event.get("type")
            if kind in NEWS:
                self._news, fresh = narrate(event, names) or "", True
            elif kind == "round_start" and not fresh:
                self._news, self._kept_roll = "", []
            elif kind == "rolled":
                self._kept_roll = list(event["dice"])
            elif kind in ("rolling", "dice_chosen"):
                self._news, self._kept_roll = "", []
        # (the view of the change comes next, with `show`: it draws)
        return bool(kinds & {*NEWS, "round_start", "rolled", "rolling", "dice_chosen"})

    # what may be done now

    LEGAL_KEYS: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "pick": ("choose_dice", "bonus_dice"),
        "confirm": ("choose_dice", "bonus_dice"),
        "roll": ("roll",),
        "side": ("token",),
    }  # the shout is always there: a race must not wait for a key

    def _choices(self) -> list[str]:
        """The dice the number keys pick from now: all six, or the unused ones for a bonus."""
        if "bonus_dice" in self.legal():
            return list(self.view.get("unused", []))
        return list(COLOURS)

    def _needed(self) -> int:
        return self.view.get("bonus_count", 0) if "bonus_dice" in self.legal() else 3

    def action_pick(self, index: int) -> None:
        choices = self._choices()
        if index >= len(choices):
            return
        colour = choices[index]
        if colour in self._picked:
            self._picked.remove(colour)
        elif len(self._picked) < self._needed():
            self._picked.append(colour)
        else:  # one too many: the first picked goes back, and that is said
            dropped, self._picked = self._picked[0], [*self._picked[1:], colour]
            said = t("tallyup.pick_swapped", die=colour_name(dropped), n=self._needed())
            self.notify(said, timeout=3)
        self._redraw()
        self.keep_unsent()

    # what is unsent, for a web seat's next app (`HandWidget.unsent`)

    def _moment(self) -> dict[str, Any]:
        view = self.view
        keys = ("phase", "round", "extra_round", "active", "scores", "unused", "bonus_count")
        return {key: view.get(key) for key in keys}

    def unsent(self) -> dict[str, Any] | None:
        """The dice picked and not yet confirmed."""
        if not self._picked or not self.legal() & {"choose_dice", "bonus_dice"}:
            return None
        return {**self._moment(), "picked": list(self._picked)}

    def restore(self, kept: dict[str, Any]) -> None:
        """The dice picked back, in the very moment they were picked in."""
        picked = kept.get("picked")
        if any(kept.get(key) != value for key, value in self._moment().items()):
            return
        if not self.legal() & {"choose_dice", "bonus_dice"} or not isinstance(picked, list):
            return
        choices = self._choices()
        self._picked = [c for c in dict.fromkeys(picked) if c in choices][: self._needed()]
        self._redraw()

    def action_confirm(self) -> None:
        if len(self._picked) != self._needed():
            self.notify(t("tallyup.pick_n", n=self._needed()), severity="warning")
            return
        kind = "bonus_dice" if "bonus_dice" in self.legal() else "choose_dice"
        self.act({"type": kind, "dice": list(self._picked)})

    def action_roll(self) -> None:
        self.act({"type": "roll"})

    def action_side(self, side: str) -> None:
        self.act({"type": "token", "side": side})

    def action_shout(self) -> None:
        self.act({"type": "shout"})

    def action_chart(self) -> None:
        self.app.push_screen(DiceChartScreen())

    # drawing

    def _tick(self) -> None:
        if self.seconds_left() is not None and self.view.get("phase") in ("choice", "shout"):
            self._render_status()

    def _seconds_left(self) -> int | None:
        left = self.seconds_left()
        return None if left is None else round(left)

    def _redraw(self) -> None:
        if not self.view:
            return
        self._render_status()
        news = self.query_one("#th-news", Static)
        news.display = bool(self._news)  # (an empty line is a row a phone does not have)
        put(news, Text(self._news, style="bold"))
        put(self.query_one("#th-main", Static), self._main_text())
        put(self.query_one("#th-odds", Static), self._odds_text())
        put(self.query_one("#th-me", Static), self._me_text())

    def _render_status(self) -> None:
        view = self.view
        names = view["players"]
        me = view["seat"]
        legal = self.legal()
        left = self._seconds_left()
        clock = "  " + unbroken(f"⏱ {t('tallyup.seconds', n=left)}") if left is not None else ""
        if view["phase"] == "shout" and view.get("shout") and view["shout"].get("open"):
            status = Text(f"{t('tallyup.shout_now')}{clock}")
        elif "token" in legal:
            key = (
                "tallyup.your_choice_up_die"
                if view["choice_for"] == "up_die"
                else "tallyup.your_choice"
            )
            status = Text(t(key) + clock, style="bold reverse")
        elif "choose_dice" in legal:
            status = Text(t("tallyup.your_dice"), style="bold reverse")
        elif "roll" in legal:
            key = "tallyup.your_up_die" if view["phase"] == "up_die" else "tallyup.your_roll"
            status = Text(t(key), style="bold reverse")
        elif "bonus_dice" in legal:
            status = Text(t("tallyup.your_bonus", n=view["bonus_count"]), style="bold reverse")
        else:
            status = phase_line(view, names)
            if view["phase"] == "choice" and view["out"][me]:
                status = Text(t("tallyup.you_are_out"), style="bold cyan")
        status_box = self.query_one("#th-status", Static)
        status_box.set_class(view["phase"] == "shout", "-shout")
        put(status_box, status)

    def _main_text(self) -> Text:
        view = self.view
        legal = self.legal()
        text = Text()
        if "choose_dice" in legal or "bonus_dice" in legal:
            text.append(t("tallyup.pick_hint", n=self._needed()) + "\n", style="dim")
            # a phone held upright: each die's faces on a line of their own, under its name
            faces_apart = self.app.has_class("-narrow")
            for index, colour in enumerate(self._choices()):
                picked = colour in self._picked
                row = Text()
                row.append(f" {index + 1} ", style="bold reverse")
                row.append(" ✔ " if picked else "   ", style="bold green")
                row.append_text(colour_chip(colour, width=0 if faces_apart else 13))
                row.append(("\n" + " " * 5 if faces_apart else "") + faces_text(colour))
                text.append_text(tap_target(row, f"pick({index})"))
                text.append("\n")
            return text
        if "token" in legal:
            total = number(view["running_total"])
            mine = view.get("token")
            text.append(t("tallyup.out_banks", amount=total) + "\n", style="bold")
            text.append(t("tallyup.in_risks") + "\n\n", style="dim")
            for side in ("in", "out"):
                chosen = mine == side
                row = Text()
                row.append(f" {side[0]} ", style="bold reverse")
                row.append(
                    f" {side.upper()} {'◀ ' + t('tallyup.sealed') if chosen else ''}",
                    style="bold green" if chosen else "",
                )
                text.append_text(tap_target(row, f"side('{side}')"))
                text.append("\n")
            return text + Text("\n") + self._roll_art()
        total = number(view["running_total"])
        text.append(t("tallyup.running_total") + f": {total}\n", style="bold")
        return text + self._roll_art()

    def _roll_art(self) -> Text:
        """The dice of the last roll, with the Up Die beside them once it has rolled, and the
        bonus dice once they have (on a small screen on a line of chips: its rows are few)."""
        view = self.view
        dice = list(view["last_roll"] or self._kept_roll)
        if dice and view["up_die_label"] is not None:
            dice.append({"colour": "up", "label": view["up_die_label"]})
        art = dice_art(dice)
        room = self.scrollable_content_region.width
        if room and max((line.cell_len for line in art.split()), default=0) > room:
            art = dice_chips(dice)  # four dice on a phone: a line of chips, not boxes in pieces
        if bonus := view.get("bonus"):
            if self.app.has_class("-small"):
                art.append("\n" + t("tallyup.bonus_roll") + " ", style="dim")
                art.append_text(dice_chips(bonus))
            else:
                art.append("\n" + t("tallyup.bonus_roll") + "\n", style="dim")
                art.append_text(dice_art(bonus))
        return art

    def _odds_text(self) -> Text:
        view = self.view
        legal = self.legal()
        dice = self._picked if "choose_dice" in legal else view["dice"]
        if "bonus_dice" in legal:
            if len(self._picked) != self._needed():
                return Text()
            chance = bonus_bust_chance(self._picked, view["main_stars"])
            return Text(t("tallyup.bonus_odds", bust=percent(chance)), style="bold")
        if len(dice) != 3 or view["over"]:
            return Text()
        odds = main_roll_odds(dice)
        line = t(
            "tallyup.odds",
            bust=percent(odds.bust),
            tally=percent(odds.tally_up),
            up=percent(odds.up_die),
            points=round(float(odds.expected_points)),
        )
        return Text(line, style="bold" if "choose_dice" in legal or "token" in legal else "dim")

    def _me_text(self) -> Text:
        view = self.view
        me = view["seat"]
        scores = view["scores"]
        rank = 1 + sum(1 for s in scores if s > scores[me])
        text = Text()
        text.append(t("tallyup.you", score=scores[me], rank=rank, n=len(scores)), style="bold")
        text.append("  " + ("OUT" if view["out"][me] else "IN"), style="bold cyan")
        goal = t("tallyup.target", n=view["target"])
        if view["once_each"]:  # (the mode ignores the target)
            goal = t("tallyup.once_each_short")
        text.append("   " + unbroken(goal), style="dim")
        return text
