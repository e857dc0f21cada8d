"""Tally Up! on screen: the table (dice, the running total, the reveal as a moment, the end
chart), a player's hand (dice choice with exact odds, the sealed IN/OUT, the shout) and the
narrator that says in plain words what just happened and why."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Digits, Static

from games.tallyup import COLOURS, dice_table, main_roll_odds
from games.tallyup.dice import face_dict
from games.tallyup.odds import bonus_bust_chance
from tui.bigtext import big
from tui.games import GameUI, GameWidget, HandWidget, register_ui
from tui.i18n import t
from tui.text import marked, name
from tui.widgets import keys, put

DIE_STYLE = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "green": "bold green3",
    "blue": "bold dodger_blue1",
    "purple": "bold medium_purple1",
    "up": "bold bright_white",  # the Up Die
}
REVEAL_BEATS = ("1…", "2…", "3…!")
BANNER_SECONDS = 4.0
NEWS = ("bust", "tally_up", "shout", "shout_closed", "revealed", "up_die")
BEAT_SECONDS = 0.45
TOTAL_WIDTH = 26  # the running total's box (games.tcss)


def colour_name(colour: str) -> str:
    return t("tallyup.up_die_name") if colour == "up" else t(f"tallyup.colour.{colour}")


def face_label(die: dict[str, Any]) -> str:
    """`★`, `(50)` or `50` for a die given as {colour, face} or with its face spelled out."""
    if "star" not in die:
        die = face_dict(die["colour"], die["face"])
    if die["star"]:
        return "★"
    return f"({die['points']})" if die["circle"] else str(die["points"])


def dice_art(dice: list[dict[str, Any]], *, width: int = 10, large: bool = False) -> Text:
    """Rolled dice drawn as dice, each in its colour, its colour's name underneath; `large`
    (a TV): the faces in big digits, to be read from across the room."""
    if not dice:
        return Text()
    if large:
        width = LARGE_DIE
    inner = width - 2
    rows = [Text() for _ in range(6 if large else 4)]
    for die in dice:
        style = DIE_STYLE[die["colour"]]
        label = up_label(die["label"]) if die["colour"] == "up" else face_label(die)
        face_style = "bold reverse " + style if label == "★" else style
        face = [label]
        if large:  # the font has X and -, not × and −; a star stays a star, three lines tall
            face = big(label.replace("×", "X").replace("−", "-")) or ["", label, ""]
        rows[0].append("╭" + "─" * inner + "╮ ", style=style)
        for number, line in enumerate(face, start=1):
            rows[number].append("│", style=style)
            rows[number].append(line.center(inner), style=face_style)
            rows[number].append("│ ", style=style)
        rows[len(face) + 1].append("╰" + "─" * inner + "╯ ", style=style)
        rows[len(face) + 2].append(
            colour_name(die["colour"])[:width].center(width) + " ", style=style
        )
    return Text("\n").join(rows)


LARGE_DIE = 17
"""A die's width on a TV: its widest face (the Up Die's −100) in big digits, and a border."""


def up_label(label: str) -> str:
    """The Up Die's face as printed: ×2, −100 (a real minus sign)."""
    return label.replace("x", "×").replace("-", "−")


def colour_chip(colour: str, *, dim: bool = False, width: int = 0) -> Text:
    chip = Text(f"● {colour_name(colour)}", style="dim" if dim else DIE_STYLE[colour])
    if width:
        chip.truncate(width, pad=True)
    return chip


def faces_text(colour: str) -> str:
    faces = next(d for d in dice_table() if d["colour"] == colour)["faces"]
    return " ".join(face_label(f).rjust(4) for f in faces)


def names_of(seats: list[int], names: list[str]) -> str:
    return ", ".join(names[s] if s < len(names) else "?" for s in seats)


def percent(fraction: Any) -> str:
    value = float(fraction) * 100
    return f"{value:.0f}%" if value >= 10 or value == 0 else f"{value:.1f}%"


# --- narration ----------------------------------------------------------------------------


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    """One plain sentence for a public event, or None for the ones the table shows itself."""
    kind = event.get("type")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if kind == "round_start":
        return t("tallyup.ev.round_start", round=event["round"], name=names[event["active"]])
    if kind == "dice_chosen":
        dice = ", ".join(colour_name(c) for c in event["dice"])
        return t("tallyup.ev.dice_chosen", name=who, dice=dice)
    if kind in ("rolled", "bonus_rolled"):
        shown = ", ".join(f"{colour_name(d['colour'])} {face_label(d)}" for d in event["dice"])
        key = "tallyup.ev.rolled" if kind == "rolled" else "tallyup.ev.bonus_rolled"
        line = t(key, name=who, dice=shown, points=event["points"], total=event["running_total"])
        if event.get("up_die_due"):
            line += " " + t("tallyup.ev.up_die_due")
        return line
    if kind == "bust":
        key = "tallyup.ev.bust_bonus" if event["stage"] == "bonus" else "tallyup.ev.bust"
        if not event["lost"] or not event["amount"]:
            return t(key + "_nobody")
        return t(key, names=names_of(event["lost"], names), amount=event["amount"])
    if kind == "tally_up":
        return t("tallyup.ev.tally_up")
    if kind == "shout":
        return t("tallyup.ev.shout", name=who, points=event["points"])
    if kind == "shout_closed":
        return t("tallyup.ev.shout_closed")
    if kind == "tally_bonus":
        if not event["seats"]:
            return None
        return t("tallyup.ev.tally_bonus", names=names_of(event["seats"], names))
    if kind == "choice_open":
        return t(f"tallyup.ev.choice_open_{event['for']}")
    if kind == "revealed":
        return reveal_sentence(event, names)
    if kind == "up_die":
        label = up_label(event["label"])
        if "bonus" in event:
            key = (
                "tallyup.ev.up_die_bonus_one" if event["bonus"] == 1 else "tallyup.ev.up_die_bonus"
            )
            return t(key, label=label, n=event["bonus"])
        return t("tallyup.ev.up_die", label=label, total=event["running_total"])
    if kind == "bonus_dice":
        dice = ", ".join(colour_name(c) for c in event["dice"])
        return t("tallyup.ev.bonus_dice", name=who, dice=dice)
    if kind == "round_end":
        return t("tallyup.ev.round_end", round=event["round"])
    if kind == "extra_round":
        return t(
            "tallyup.ev.extra_round", number=event["number"], names=names_of(event["tied"], names)
        )
    return None  # game_over: the room announces the winners


def reveal_sentence(event: dict[str, Any], names: list[str]) -> str:
    parts = []
    if event["out"]:
        key = "tallyup.ev.out_one" if len(event["out"]) == 1 else "tallyup.ev.out"
        parts.append(t(key, names=names_of(event["out"], names), amount=event["banked"]))
    if event["stay"]:
        parts.append(t("tallyup.ev.stay", names=names_of(event["stay"], names)))
    line = t("tallyup.ev.reveal") + " " + " ".join(parts)
    if event.get("timeout"):
        line += " " + t("tallyup.ev.reveal_timeout")
    return line


# --- the table ----------------------------------------------------------------------------


class TallyTable(GameWidget):
    """The big screen: the running total, large; the dice; every player; the moment."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="tu-top"):
            with Vertical(id="tu-total-box", classes="box"):
                yield Digits("0", id="tu-total")
                yield Static(id="tu-total-big")  # on a TV: twice as large
                yield Static(id="tu-round")
            yield Static(id="tu-banner")
        yield Static(id="tu-roll")
        yield Static(id="tu-dice")
        yield Static(id="tu-players", classes="box")
        yield VerticalScroll(id="tu-chart", classes="box")

    def on_mount(self) -> None:
        self.query_one("#tu-total-box").border_title = t("tallyup.running_total")
        self.query_one("#tu-players").border_title = t("tallyup.players_title")
        self.query_one("#tu-chart").border_title = t("tallyup.chart_title")
        self.query_one("#tu-chart").display = False
        self._view: dict[str, Any] | None = None
        self._room: dict[str, Any] | None = None
        self._reveal_beat: int | None = None
        self._beat_timer: Timer | None = None
        self._banner_until = 0.0
        self._kept_bonus: list[dict[str, Any]] = []
        self._banner: Text | None = None
        self._kept_roll: list[dict[str, Any]] = []  # a bust's dice stay up into the next round

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        self._view, self._room = view, room
        if self._reveal_beat is None:
            self._redraw()

    def happened(self, events: list[dict[str, Any]]) -> bool:
        names = [s["name"] for s in (self._room or {}).get("seats", [])]
        kinds = {event.get("type") for event in events}
        for event in events:
            kind = event.get("type")
            if kind in ("revealed", "bust", "tally_up", "shout"):
                # a moment stays up long enough to be seen, however fast the next roll comes
                self._banner_until = time.monotonic() + BANNER_SECONDS
            if kind == "revealed":
                self._banner = Text(reveal_sentence(event, names), style="bold")
                self._start_reveal()
            elif kind == "bust":
                self._banner = Text(
                    "  " + t("tallyup.bust_banner") + "  " + (narrate(event, names) or ""),
                    style="bold white on red",
                )
            elif kind == "tally_up":
                self._banner = Text(
                    "  " + t("tallyup.tally_banner") + "  ", style="bold black on yellow"
                )
            elif kind == "shout":
                self._banner = Text(
                    "  " + (narrate(event, names) or "") + "  ", style="bold black on yellow"
                )
            elif kind == "rolled":
                self._kept_roll, self._kept_bonus = list(event["dice"]), []
            elif kind == "bonus_rolled":
                self._kept_bonus = list(event["dice"])
            elif kind in ("rolling", "dice_chosen"):
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
        if self._view is not None and self._reveal_beat is None:
            self._redraw()

    def _start_reveal(self) -> None:
        """1… 2… 3…! — the tokens turn on the last beat. A reveal hard on the heels of the
        last one starts the count again."""
        if self._beat_timer is not None:
            self._beat_timer.stop()
        self._reveal_beat = 0
        self._render_beat()
        if self._view is not None and self._room is not None:
            # everyone still IN has chosen by now (the last choice is what set this off)
            sealed = dict(self._view, locked=[not out for out in self._view["out"]])
            put(self.query_one("#tu-players", Static), players_table(sealed, self._room))
        self._beat_timer = self.set_interval(BEAT_SECONDS, self._next_beat)

    def _next_beat(self) -> None:
        beat = (self._reveal_beat or 0) + 1
        if beat < len(REVEAL_BEATS):
            self._reveal_beat = beat
            self._render_beat()
            return
        if self._beat_timer is not None:
            self._beat_timer.stop()
        self._beat_timer = None
        self._reveal_beat = None
        self._redraw()

    def _render_beat(self) -> None:
        beats = REVEAL_BEATS[: self._reveal_beat + 1]
        if not self.app.has_class("-small"):  # in big letters where there is room
            letters = big("  ".join(b.replace("…", "..") for b in beats))
            if letters:
                put(self.query_one("#tu-banner", Static), Text("\n".join(letters), style="bold"))
                return
        beat = Text("  ".join(beats), style="bold reverse")
        put(self.query_one("#tu-banner", Static), Text("  ") + beat)

    def _redraw(self) -> None:
        view, room = self._view, self._room
        if view is None or room is None:
            return
        names = view["players"]
        total = view["running_total"]
        put(self.query_one("#tu-total", Digits), str(total))
        put(self.query_one("#tu-total-big", Static), Text("\n".join(big(str(total), 2) or [])))
        line = round_line(view, names)
        box = self.query_one("#tu-total-box").size.width or TOTAL_WIDTH
        if line.cell_len > box - 4:  # the box's border and padding
            line = round_line(view, names, narrow=True)
        put(self.query_one("#tu-round", Static), line)
        dice = dice_overview(view)
        room = self.query_one("#tu-dice").content_size.width or self.size.width - 2
        if dice.cell_len > room:  # one line, never two: the unused dice without their names
            dice = dice_overview(view, short=True)
        put(self.query_one("#tu-dice", Static), dice)
        put(self.query_one("#tu-banner", Static), self._banner or phase_line(view, names))
        roll = Text()
        if view["last_roll"] or self._kept_roll:
            if not self.app.has_class("-small"):  # (the dice say it themselves)
                roll.append(t("tallyup.last_roll") + "\n", style="dim")
            dice = list(view["last_roll"] or self._kept_roll)
            if view["up_die_label"] is not None:
                dice.append({"colour": "up", "label": view["up_die_label"]})
            roll.append_text(dice_art(dice, large=self.app.has_class("-tv")))
        bonus = view["bonus"] or self._kept_bonus
        if bonus:
            roll.append("\n" + t("tallyup.bonus_roll") + "\n", style="dim")
            roll.append_text(dice_art(bonus, large=self.app.has_class("-tv")))
        put(self.query_one("#tu-roll", Static), roll)
        put(self.query_one("#tu-players", Static), players_table(view, room))
        chart = self.query_one("#tu-chart", VerticalScroll)
        if view["over"] and not chart.display:
            chart.display = True
            self._draw_chart(view)

    def _draw_chart(self, view: dict[str, Any]) -> None:
        chart = self.query_one("#tu-chart", VerticalScroll)
        chart.mount(Static(score_chart(view), classes="tu-chart-text"))


BARS = "▁▂▃▄▅▆▇█"


def score_chart(view: dict[str, Any]) -> Text:
    """Every player's score after each round, one row each, all on the same scale."""
    history = view["history"]
    top = max([1, *(max(scores) for scores in history)]) if history else 1
    low = min([0, *(min(scores) for scores in history)]) if history else 0
    span = max(1, top - low)
    text = Text()
    for seat, player in enumerate(view["players"]):
        label = name(player)
        label.truncate(14, overflow="ellipsis", pad=True)
        text.append_text(label)
        text.append(f"{view['scores'][seat]:>6} ", style="bold")
        for scores in history:
            level = round((scores[seat] - low) / span * (len(BARS) - 1))
            text.append(BARS[level], style="green")
        text.append("\n")
    text.rstrip()
    return text


def round_line(view: dict[str, Any], names: list[str], narrow: bool = False) -> Text:
    line = Text()
    line.append(t("tallyup.round", n=view["round"]), style="bold")
    parts = []
    if view["extra_round"]:
        parts.append((t("tallyup.extra_round", n=view["extra_round"]), "bold yellow"))
    if view["once_each"]:
        parts.append((t("tallyup.once_each_short"), "dim"))
    else:
        parts.append((t("tallyup.target", n=view["target"]), "dim"))
    if view["high_stakes"]:
        parts.append((t("tallyup.high_stakes_short"), "dim"))
    for part, style in parts:  # one per line in a narrow box: none cut
        line.append("\n" if narrow else "  ")  # (unstyled: see seat_line)
        line.append(part, style=style)
    return line


def dice_overview(view: dict[str, Any], short: bool = False) -> Text:
    """The six dice as coloured blocks with their names: the chosen three solid and marked,
    the unused ones dim (`short`: the unused ones as a dot each, where the names don't fit on
    a line). (Their faces are on every player's dice chart, `d`.)"""
    text = Text()
    chosen = set(view["dice"])
    for colour in COLOURS:
        label = f"\u00a0{colour_name(colour)}\u00a0"  # no-break spaces: a chip never splits
        if short and chosen and colour not in chosen:
            label = "\u00a0●"
        if colour in chosen:
            text.append("▶", style="bold")
            text.append(label, style="reverse " + DIE_STYLE[colour])
        else:
            text.append(" " + label, style="dim" if chosen else DIE_STYLE[colour])
    return text


def phase_line(view: dict[str, Any], names: list[str]) -> Text:
    active = names[view["active"]] if view["active"] is not None else ""
    phase = view["phase"]
    if view["over"]:
        winners = (view.get("result") or {}).get("winners", [])
        return Text(
            "  " + t("tallyup.ev.game_over", names=names_of(winners, names)) + "  ",
            style="bold black on green",
        )
    key = f"tallyup.phase.{phase}"
    if phase == "choice":
        key = f"tallyup.phase.choice_{view['choice_for']}"
    return Text(t(key, name=active), style="bold")


def players_table(view: dict[str, Any], room: dict[str, Any]) -> Text:
    """Every player: score and progress to the target, IN/OUT as revealed, who locked in."""
    text = Text()
    target = max(1, view["target"])
    width = 8
    best = max(view["scores"], default=0)
    for seat, player in enumerate(view["players"]):
        score = view["scores"][seat]
        active = seat == view["active"]
        text.append("▶ " if active else "  ", style="bold")
        shown = marked(seat, player, style="bold" if score == best else "")
        shown.truncate(16, overflow="ellipsis", pad=True)
        text.append_text(shown)
        text.append(f"{score:>6} ", style="bold")
        filled = max(0, min(width, round(width * score / target)))
        text.append("█" * filled, style="green")
        text.append("░" * (width - filled), style="dim")
        out = view["out"][seat]
        text.append("  OUT " if out else "  IN  ", style="bold cyan" if out else "bold")
        if view["phase"] == "choice" and not out:
            if view["locked"][seat]:
                text.append(t("tallyup.locked"), style="green")
            elif view["away"][seat]:
                text.append(t("tallyup.away"), style="yellow")
            else:
                text.append(t("tallyup.thinking"), style="dim")
        text.append("\n")
    text.rstrip()
    return text


# --- a player's hand ----------------------------------------------------------------------


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
        self._view: dict[str, Any] = {}
        self._room: dict[str, Any] = {}
        self._picked: list[str] = []
        self._deadline: float | None = None
        self._news = ""
        self._kept_roll: list[dict[str, Any]] = []
        self.set_interval(0.5, self._tick)

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        phase_changed = view.get("phase") != self._view.get("phase")
        self._view, self._room = view, room
        seconds = room.get("timer_seconds")
        self._deadline = time.monotonic() + seconds if seconds is not None else None
        if phase_changed:
            self._picked = []
        self._redraw()
        self.refresh_bindings()

    def happened(self, events: list[dict[str, Any]]) -> bool:
        """The latest big moment (a bust, a Tally Up!, a reveal, the Up Die) stays in words
        on this screen, so nobody has to look up at the table to know what happened."""
        names = self._view.get("players", [])
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

    def _legal(self) -> set[str]:
        return set(self._view.get("legal", []))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key of the game that does nothing now is shown greyed (None), never hidden: the
        keys stay where the hand expects them, and pressing one says why."""
        legal = self._legal()
        picking = "choose_dice" in legal or "bonus_dice" in legal
        enabled = {
            "pick": picking,
            "confirm": picking,
            "roll": "roll" in legal,
            "side": "token" in legal,
        }.get(action, True)  # the shout is always there: a race must not wait for a key
        return True if enabled else None

    def _choices(self) -> list[str]:
        """The dice the number keys pick from now: all six, or the unused ones for a bonus."""
        if "bonus_dice" in self._legal():
            return list(self._view.get("unused", []))
        return list(COLOURS)

    def _needed(self) -> int:
        return self._view.get("bonus_count", 0) if "bonus_dice" in self._legal() else 3

    def action_pick(self, index: int) -> None:
        choices = self._choices()
        if index >= len(choices):
            return
        colour = choices[index]
        if colour in self._picked:
            self._picked.remove(colour)
        elif len(self._picked) < self._needed():
            self._picked.append(colour)
        else:
            self._picked = [*self._picked[1:], colour]
        self._redraw()

    def action_confirm(self) -> None:
        if len(self._picked) != self._needed():
            self.notify(t("tallyup.pick_n", n=self._needed()), severity="warning")
            return
        kind = "bonus_dice" if "bonus_dice" in self._legal() else "choose_dice"
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
        if self._deadline is not None and self._view.get("phase") in ("choice", "shout"):
            self._render_status()

    def _seconds_left(self) -> int | None:
        if self._deadline is None:
            return None
        return max(0, round(self._deadline - time.monotonic()))

    def _redraw(self) -> None:
        if not self._view:
            return
        self._render_status()
        put(self.query_one("#th-news", Static), Text(self._news, style="bold"))
        put(self.query_one("#th-main", Static), self._main_text())
        put(self.query_one("#th-odds", Static), self._odds_text())
        put(self.query_one("#th-me", Static), self._me_text())

    def _render_status(self) -> None:
        view = self._view
        names = view["players"]
        me = view["seat"]
        legal = self._legal()
        left = self._seconds_left()
        clock = f"  ⏱ {t('tallyup.seconds', n=left)}" if left is not None else ""
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
        view = self._view
        legal = self._legal()
        text = Text()
        if "choose_dice" in legal or "bonus_dice" in legal:
            text.append(t("tallyup.pick_hint", n=self._needed()) + "\n", style="dim")
            for index, colour in enumerate(self._choices()):
                picked = colour in self._picked
                text.append(f" {index + 1} ", style="bold reverse")
                text.append(" ✔ " if picked else "   ", style="bold green")
                text.append_text(colour_chip(colour, width=13))
                text.append(faces_text(colour) + "\n")
            return text
        if "token" in legal:
            total = view["running_total"]
            mine = view.get("token")
            text.append(t("tallyup.out_banks", amount=total) + "\n", style="bold")
            text.append(t("tallyup.in_risks") + "\n\n", style="dim")
            for side in ("in", "out"):
                chosen = mine == side
                text.append(f" {side[0]} ", style="bold reverse")
                text.append(
                    f" {side.upper()} {'◀ ' + t('tallyup.sealed') if chosen else ''}\n",
                    style="bold green" if chosen else "",
                )
            return text + Text("\n") + self._roll_art()
        text.append(t("tallyup.running_total") + f": {view['running_total']}\n", style="bold")
        return text + self._roll_art()

    def _roll_art(self) -> Text:
        """The dice of the last roll, with the Up Die beside them once it has rolled."""
        view = self._view
        dice = list(view["last_roll"] or self._kept_roll)
        if dice and view["up_die_label"] is not None:
            dice.append({"colour": "up", "label": view["up_die_label"]})
        return dice_art(dice)

    def _odds_text(self) -> Text:
        view = self._view
        legal = self._legal()
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
        view = self._view
        me = view["seat"]
        scores = view["scores"]
        rank = 1 + sum(1 for s in scores if s > scores[me])
        text = Text()
        text.append(t("tallyup.you", score=scores[me], rank=rank, n=len(scores)), style="bold")
        text.append("  " + ("OUT" if view["out"][me] else "IN"), style="bold cyan")
        text.append("   " + t("tallyup.target", n=view["target"]), style="dim")
        return text


class DiceChartScreen(ModalScreen[None]):
    """The box's Dice Roll Card: every die's faces and risk, plus what circles and stars do."""

    BINDINGS = keys(
        "tallyup.dice_chart", [Binding("escape,d,q", "dismiss", "key.close", key_display="Esc")]
    )

    def compose(self) -> ComposeResult:
        text = Text(t("tallyup.chart_heading") + "\n\n", style="bold")
        for die in dice_table():
            text.append_text(colour_chip(die["colour"], width=13))
            text.append(faces_text(die["colour"]))
            text.append(f"  {t('tallyup.risk.' + die['risk'])}\n", style="dim")
        text.append("\n" + t("tallyup.chart_rules"), style="")
        text.append("\n\n" + t("tallyup.up_die_faces"), style="bold")
        with VerticalScroll(id="help"):
            yield Static(text)

    def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(None)


register_ui("tallyup", GameUI(TallyTable, TallyHand, narrate))
