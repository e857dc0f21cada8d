"""Tesauro on screen: the table (the word, large; who judges and who reads; the nine tiles; the
thinking time; the definitions appearing one by one; the reveal; the cards won; the tie-break
and the end), a player's hand (the role; the reader's two words; the scholar's entry, tile and
definition; the spoken turns; the Sage's judgement), the narrator of the public events, and
the epilogue: the last answer on a player's results screen.

The table renders the public view only: it never holds a role, the entry's definition or
category, or a typed definition before the reveal. Words from the dictionary and texts from
players are shown literally (`tui.text.literal`).
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Resize
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from games.tesauro import CATEGORIES
from net.protocol import clean_text
from tui.bigtext import big
from tui.games import GameUI, GameWidget, HandWidget, register_ui
from tui.i18n import quote, t
from tui.text import literal, name
from tui.widgets import ConfirmScreen, TextField, put

SPANISH = {"sapiente": "Sapiente", "brillante": "Brillante", "orate": "Orate"}
"""The published game's role names, shown beside ours in both languages."""

ROLE_STYLE = {
    "sapiente": "bold black on yellow",
    "brillante": "bold black on green3",
    "orate": "bold white on medium_purple3",
}
MAX_TEXT = 300
STAGE_SECONDS = 1.2  # the table shows the revealed definitions one by one, this far apart
HOLD_SECONDS = 15.0  # a small table keeps a fresh reveal up this long into the next turn
HURRY_SECONDS = 10  # the clock turns red
BIG_HEIGHT = 30  # a table this tall shows everything at once


def span(text: str, style: str = "") -> Text:
    """A Text whose style covers only itself: what is appended to it keeps its own."""
    out = Text()
    out.append(text, style=style)
    return out


def who(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def joined(names: list[str], seats: list[int]) -> str:
    return ", ".join(who(names, s) for s in seats)


def category_name(category: Any) -> str:
    return t(f"tesauro.category.{category}") if category in CATEGORIES else "—"


def role_name(role: Any) -> str:
    return t(f"tesauro.role.{role}") if role in SPANISH else ""


def clock(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def hurried(seconds: float) -> bool:
    """The last seconds: from the moment the clock shows 0:10."""
    return max(0, round(seconds)) <= HURRY_SECONDS


def quoted(text: Any, limit: int = MAX_TEXT) -> str:
    """A dictionary word or a player's text, cleaned for a sentence (the feed shows it as is)."""
    return clean_text(str(text), limit)


# --- narration ----------------------------------------------------------------------------


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    """One plain sentence for a public event (never a role, nor anything secret: events
    carry nothing secret)."""
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "shuffled":
        return t("tesauro.ev.shuffled")
    if kind == "turn":
        key = "tesauro.ev.turn_tie" if event.get("tie_break") else "tesauro.ev.turn"
        return t(
            key,
            turn=event["turn"],
            sapiente=who(names, event["sapiente"]),
            reader=who(names, event["reader"]),
        )
    if kind == "word":
        key = "tesauro.ev.word_auto" if event.get("auto") else "tesauro.ev.word"
        return t(key, name=who(names, seat), word=quoted(event["word"], 60))
    if kind == "tile":
        if event.get("released"):
            return t(
                "tesauro.ev.tile_swap",
                name=who(names, seat),
                category=category_name(event["category"]),
                released=category_name(event["released"]),
            )
        return t(
            "tesauro.ev.tile", name=who(names, seat), category=category_name(event["category"])
        )
    if kind in ("given", "ready"):
        return t(f"tesauro.ev.{kind}", name=who(names, seat))
    if kind == "thought":
        return t("tesauro.ev.thought_timeout" if event.get("timeout") else "tesauro.ev.thought")
    if kind == "speaking":
        return t("tesauro.ev.speaking", name=who(names, seat))
    if kind == "spoke":
        category = category_name(event.get("tile"))
        if event.get("text") is None:
            return t("tesauro.ev.spoke", name=who(names, seat), category=category)
        return t(
            "tesauro.ev.spoke_text",
            name=who(names, seat),
            category=category,
            text=quoted(event["text"]),
        )
    if kind == "revealed":
        n = len(event.get("defs") or [])
        key = "tesauro.ev.revealed_timeout" if event.get("timeout") else "tesauro.ev.revealed"
        return t(key, n=n)
    if kind == "judged":
        return t("tesauro.ev.judged", word=quoted(event["word"], 60)) + " " + verdict(event, names)
    if kind == "tie_break":
        return t("tesauro.ev.tie_break", round=event["round"], names=joined(names, event["tied"]))
    if kind == "deck_empty":
        return t("tesauro.ev.deck_empty")
    if kind == "game_over":
        scores = event.get("scores") or []
        count = ", ".join(f"{who(names, s)} {n}" for s, n in enumerate(scores))
        return t("tesauro.ev.final_count", count=count)
    return None  # away / back: the room says those


def verdict(last: dict[str, Any], names: list[str]) -> str:
    """What the Sage's judgement did, and who the Genius was: "Ann believed Cid: Cid takes
    the card. The Genius was Bob." """
    sapiente = who(names, last["sapiente"])
    brillante = last.get("brillante")
    if last.get("crazy"):
        if last.get("right"):
            return t("tesauro.verdict.crazy_right", sapiente=sapiente)
        key = "crazy_silent" if silent_genius(last) else "crazy_wrong"
        return t(f"tesauro.verdict.{key}", sapiente=sapiente, brillante=who(names, brillante))
    picked = who(names, last.get("pick"))
    if last.get("right"):
        return t("tesauro.verdict.right", sapiente=sapiente, brillante=picked)
    line = t("tesauro.verdict.fooled", sapiente=sapiente, picked=picked, n=pick_number(last))
    if brillante is None:
        return line + " " + t("tesauro.verdict.aside")
    if silent_genius(last):
        return line + " " + t("tesauro.verdict.silent", brillante=who(names, brillante))
    return line + " " + t("tesauro.verdict.genius_was", brillante=who(names, brillante))


def silent_genius(last: dict[str, Any]) -> bool:
    """A Genius played this turn and gave no definition (time ran out, or away)."""
    brillante = last.get("brillante")
    return brillante is not None and all(
        entry.get("seat") != brillante for entry in last.get("defs") or []
    )


def pick_number(last: dict[str, Any]) -> int | str:
    """The number the Sage pressed: the place of the picked definition."""
    for index, entry in enumerate(last.get("defs") or []):
        if entry.get("seat") == last.get("pick"):
            return index + 1
    return "?"


# --- pieces both screens draw ---------------------------------------------------------------


def numbered(rows: list[tuple[Text, Text]], one_line: bool = False) -> Table:
    """Rows of (key, text): the text's wrapped lines hang under its first, past the key (or,
    `one_line`, each text is cut to its line)."""
    grid = Table.grid(padding=(0, 1, 0, 0))
    keys = max((key.cell_len for key, _ in rows), default=1)
    grid.add_column(no_wrap=True, min_width=keys)
    grid.add_column(ratio=1, no_wrap=one_line, overflow="ellipsis" if one_line else "fold")
    for key, text in rows:
        grid.add_row(key, text)
    return grid


def chip(label: str, style: str = "bold reverse") -> Text:
    return Text(f" {label} ", style=style)


def definition_text(
    entry: dict[str, Any],
    names: list[str],
    one_line: bool = False,
    limit: int = MAX_TEXT,
    inline: bool = False,
) -> Text:
    """A definition given: who, on which tile, and the text (or that it was said aloud),
    cut to `limit` characters; the text on a line of its own, or `inline` after the tile."""
    text = Text()
    text.append_text(name(who(names, entry["seat"]), style="bold"))
    text.append(f" · {category_name(entry.get('tile'))}", style="cyan")
    text.append(": " if one_line or inline else "\n")
    if entry.get("text") is None:
        text.append(t("tesauro.said_aloud"), style="dim italic")
    else:
        said = literal(entry["text"], MAX_TEXT)
        if len(said) > limit:
            said.truncate(max(1, limit - 1))
            said.append("…")
        text.append_text(said)
    if one_line:
        text.no_wrap, text.overflow = True, "ellipsis"
    return text


def definitions(
    view: dict[str, Any],
    names: list[str],
    shown: int | None = None,
    numbered_keys: bool = True,
    one_line: bool = False,
    limit: int = MAX_TEXT,
    inline: bool = False,
) -> Table:
    """The definitions given, in turn order from the reader, each with its name and tile,
    numbered as the Sage picks them; in the speaking phase also who speaks now and who is
    still to speak. `one_line`: each cut to a line, for many on a small screen; `inline`:
    each text goes on after its tile instead of on a line of its own."""
    defs = view.get("defs") or []
    if shown is not None:
        defs = defs[:shown]
    rows = []
    for index, entry in enumerate(defs):
        key = chip(str(index + 1)) if numbered_keys else Text(" ✔", style="green")
        rows.append((key, definition_text(entry, names, one_line, limit, inline)))
    if view.get("phase") == "speak":
        for seat in view.get("speakers") or []:
            now = seat == view.get("speaker")
            line = Text()
            line.append_text(name(who(names, seat), style="bold" if now else "dim"))
            line.append(
                f" · {category_name(view['categories'][seat])}", style="cyan" if now else "dim"
            )
            line.append(
                f"  {t('tesauro.speaking_now') if now else t('tesauro.to_speak')}",
                style="bold yellow" if now else "dim",
            )
            rows.append((Text(" ▶" if now else "  ", style="bold yellow"), line))
    return numbered(rows, one_line)


def reveal(
    last: dict[str, Any], names: list[str], every: bool = False, short: bool = False
) -> RenderableType:
    """The turn just judged: the word, its true definition and category, who was the Genius
    (or that the card was aside, or that the Genius gave nothing), whom the Sage believed,
    where the card went; with `every`, also each definition given with its author's role;
    `short`, the true definition cut to its first line and not the one believed."""
    head = literal(last["word"], 60, style="bold")
    head.append(f" · {category_name(last['category'])}", style="cyan")
    definition = literal(last["definition"], MAX_TEXT, style="italic")
    if short:
        definition.no_wrap, definition.overflow = True, "ellipsis"
    text = Text()
    brillante = last.get("brillante")
    silent = silent_genius(last)
    if brillante is None:
        text.append(t("tesauro.aside_line") + "\n", style="bold magenta")
    elif silent:
        text.append(t("tesauro.genius_silent", name=who(names, brillante)), style="bold green")
        text.append("\n")
    else:
        text.append(role_name("brillante") + ": ", style="bold green")
        text.append_text(name(who(names, brillante), style="bold"))
        text.append("\n")
    sapiente = who(names, last["sapiente"])
    if last.get("crazy"):
        text.append(quote(t("tesauro.crazy")) + " ", style="bold")
        key = "tesauro.crazy_right" if last.get("right") else "tesauro.crazy_wrong"
        if silent and not last.get("right"):
            key = "tesauro.crazy_silent"
        text.append(t(key, sapiente=sapiente))
    elif last.get("right"):
        text.append(t("tesauro.picked_right", sapiente=sapiente))
    else:
        text.append(
            t(
                "tesauro.picked_wrong",
                sapiente=sapiente,
                picked=who(names, last["pick"]),
                n=pick_number(last),
            )
        )
        picked = next((d for d in last.get("defs", []) if d["seat"] == last["pick"]), None)
        if picked and picked.get("text") and not every and not short:
            opening, closing = quote("|").split("|")
            text.append(f" {opening}", style="dim")
            text.append_text(literal(picked["text"], MAX_TEXT, style="dim italic"))
            text.append(closing, style="dim")
    text.append("\n")
    if last.get("under"):
        text.append("→ " + t("tesauro.card_under"), style="bold")
    else:
        text.append("→ " + t("tesauro.card_to", name=who(names, last.get("taker"))), style="bold")
    answer = Group(head, definition, text)
    if not every or not last.get("defs"):
        return answer
    rows = []
    roles = last.get("roles") or []
    for entry in last["defs"]:
        role = roles[entry["seat"]] if entry["seat"] < len(roles) else None
        key = Text(role_name(role), style="bold green" if role == "brillante" else "magenta")
        line = definition_text(entry, names)
        if entry["seat"] == last.get("pick"):
            line.append("  ◀ " + t("tesauro.believed"), style="bold yellow")
        rows.append((key, line))
    return Group(answer, Text(), numbered(rows))


def last_line(last: dict[str, Any], names: list[str]) -> Text:
    """The turn just judged, in one line: the word and where its card went."""
    text = span(t("tesauro.last_turn") + " ", style="dim")
    text.append_text(literal(last["word"], 60, style="bold"))
    if last.get("under"):
        text.append(" → " + t("tesauro.card_under"))
    else:
        text.append(" → " + t("tesauro.card_to", name=who(names, last.get("taker"))))
    return text


def turn_line(view: dict[str, Any]) -> str:
    tie = view.get("tie_break")
    if tie:
        return t("tesauro.turn_tie", round=tie["round"], turn=view["turn"])
    rounds = view.get("rounds") or 1
    line = t("tesauro.turn", turn=view["turn"], turns=view["turns"])
    if rounds > 1 and view.get("round"):
        line += " · " + t("tesauro.round", round=view["round"], rounds=rounds)
    return line


def tie_banner(view: dict[str, Any], names: list[str]) -> Text:
    tie = view["tie_break"]
    return Text(
        f" {t('tesauro.tie_banner', round=tie['round'], names=joined(names, tie['tied']))} ",
        style="bold black on yellow",
    )


def scoreboard(view: dict[str, Any]) -> list[Text]:
    """Cards won, a piece each: the leaders bold, the tied (in a tie-break) marked."""
    won = view["scores"]
    best = max(won, default=0)
    tied = set() if view["over"] else set((view.get("tie_break") or {}).get("tied", []))
    pieces = []
    for seat, player in enumerate(view["players"]):
        piece = Text()
        piece.append_text(name(player, style="bold" if won[seat] == best and best else ""))
        piece.append(" ")
        if won[seat]:
            dots = "●" * min(won[seat], 5) + ("+" if won[seat] > 5 else "")
            piece.append(dots + " ", style="green")
        piece.append(str(won[seat]), style="bold")
        if seat in tied:
            piece.append(" ⚑", style="bold yellow")
        pieces.append(piece)
    return pieces


def progress(view: dict[str, Any], names: list[str]) -> list[Text]:
    """The thinking time, scholar by scholar: given / ready, still writing, away."""
    typed = view["mode"] == "typed"
    pieces = []
    for seat in view["order"]:
        if view["given"][seat]:
            piece = span("✔ ", style="bold green")
            piece.append_text(name(who(names, seat)))
        elif view["away"][seat]:
            piece = span("✗ ", style="yellow")
            piece.append_text(name(who(names, seat), style="yellow"))
        else:
            piece = span("✎ " if typed else "… ", style="dim")
            piece.append_text(name(who(names, seat), style="dim"))
        pieces.append(piece)
    return pieces


class Flow(Widget):
    """Short pieces of text side by side, wrapping between pieces, never inside one."""

    DEFAULT_CSS = "Flow { height: auto; }"

    def __init__(self, gap: int = 3, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gap = gap
        self._pieces: list[Text] = []

    def show(self, pieces: list[Text]) -> None:
        self._pieces = pieces
        self.refresh(layout=True)

    def render(self) -> Text:
        width = self.content_size.width or 80
        lines = [Text()]
        for piece in self._pieces:
            line = lines[-1]
            if line.cell_len and line.cell_len + self.gap + piece.cell_len > width:
                line = Text()
                lines.append(line)
            if line.cell_len:
                line.append(" " * self.gap)
            line.append_text(piece)
        text = Text("\n").join(lines)
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text


class BigWord(Widget):
    """The word in play as large as the screen allows: in big letters on a tall table, else
    in capitals, spaced when the line is wide enough. Without a word, a line saying what is
    happening instead."""

    DEFAULT_CSS = "BigWord { height: auto; width: 1fr; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._word: str | None = None
        self._note = Text()
        self.large = False

    def show(self, word: str | None, note: Text, large: bool = False) -> None:
        self._word, self._note, self.large = word, note, large
        self.refresh(layout=True)

    def render(self) -> Text:
        if not self._word:
            return self._note.copy()
        word = quoted(self._word, 60).upper()
        width = self.content_size.width or 40
        if self.large:
            lines = big(word)
            if lines and max(len(line) for line in lines) <= width:
                return Text("\n".join(lines), style="bold")
        spaced = " ".join(word)
        return Text(spaced if len(spaced) <= width else word, style="bold")


class TileGrid(Widget):
    """The nine tiles in three columns: each its category and who holds it."""

    DEFAULT_CSS = "TileGrid { height: auto; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._view: dict[str, Any] | None = None

    def show(self, view: dict[str, Any]) -> None:
        self._view = view
        self.refresh(layout=True)

    def render(self) -> Text:
        view = self._view
        if view is None:
            return Text()
        names = view["players"]
        holder = {tile: seat for seat, tile in enumerate(view["categories"]) if tile is not None}
        cell = max(10, (self.content_size.width or 60) // 3)
        full = max(len(category_name(c)) for c in CATEGORIES) < cell
        rows = []
        for start in range(0, 9, 3):
            top, bottom = Text(), Text()
            for category in CATEGORIES[start : start + 3]:
                seat = holder.get(category)
                label = Text(
                    category_name(category) if full else t(f"tesauro.category_short.{category}"),
                    style="bold cyan" if seat is not None else "dim",
                )
                label.truncate(cell - 1, overflow="ellipsis", pad=True)
                top.append_text(label)
                top.append(" ")
                if seat is None:
                    below = Text("□ " + t("tesauro.free"), style="dim")
                else:
                    below = span("■ ", style="bold cyan")
                    below.append_text(name(who(names, seat)))
                    if view["given"][seat]:
                        below.append(" ✔", style="bold green")
                below.truncate(cell - 1, overflow="ellipsis", pad=True)
                bottom.append_text(below)
                bottom.append(" ")
            rows.extend([top, bottom])
        return Text("\n").join(rows)


# --- the table ----------------------------------------------------------------------------


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
        self._view: dict[str, Any] | None = None
        self._room: dict[str, Any] = {}
        self._deadline: float | None = None
        self._reveal_beat: int | None = None  # staging the definitions: the last one shown
        self._beat_timer: Timer | None = None
        self._judged_seen = False
        self._hold_until = 0.0
        self._reveal_form = 0  # how much of the answer fits (see _reveal_forms)
        self._fit_key: tuple[Any, ...] | None = None  # the moment and size it was found for
        self._full_reveal = False
        self._ticker = self.set_interval(0.5, self._tick)
        self.now = time.monotonic  # the clock the countdown reads (screenshots stop it)

    # following the room

    def happened(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            kind = event.get("type")
            if kind == "revealed":
                mode = (self._view or {}).get("mode")
                if mode != "spoken" and len(event.get("defs") or []) > 1:
                    self._start_staging()
            elif kind == "judged":
                self._judged_seen = True

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        self._view, self._room = view, room
        seconds = room.get("timer_seconds")
        self._deadline = self.now() + seconds if seconds is not None else None
        if view["phase"] != "judge":
            self._stop_staging()
        if self._judged_seen:  # a judgement just now: its reveal stays up for a while
            self._judged_seen = False
            if view["phase"] in ("dealing", "choose"):
                self._hold_until = time.monotonic() + HOLD_SECONDS
                self.set_timer(HOLD_SECONDS + 0.1, self._redraw)
        self._redraw()

    def on_resize(self, event: Resize) -> None:
        self._redraw()

    def _tick(self) -> None:
        if self._view is not None and self._view["phase"] == "write" and self._deadline:
            self._draw_banner()

    def _start_staging(self) -> None:
        self._stop_staging()
        self._reveal_beat = 0
        self._beat_timer = self.set_interval(STAGE_SECONDS, self._next_beat)

    def _stop_staging(self) -> None:
        if self._beat_timer is not None:
            self._beat_timer.stop()
        self._beat_timer = None
        self._reveal_beat = None

    def _next_beat(self) -> None:
        total = len((self._view or {}).get("defs") or [])
        beat = (self._reveal_beat or 0) + 1
        if beat >= total - 1:
            self._stop_staging()
        else:
            self._reveal_beat = beat
        self._redraw()

    # drawing

    def _big(self) -> bool:
        return self.size.height >= BIG_HEIGHT

    def _text_limit(self, defs: list[dict[str, Any]]) -> int:
        """How much of each definition the table has room for (below 1: one line each)."""
        width = max(20, self.size.width - 10)
        room = self.size.height - (17 if self._big() else 11)  # the word, the banner, scores
        needed = sum(2 + len(d.get("text") or "") // width for d in defs)
        if needed <= room or not defs:
            return MAX_TEXT
        lines = room // len(defs) - 1  # a line for the name and the tile
        return lines * width - 1 if lines >= 1 else 0

    def _redraw(self) -> None:
        view = self._view
        if view is None:
            return
        names = view["players"]
        phase = view["phase"]
        big = self._big()
        self.set_class(big, "-big")
        self._draw_word(view, names)
        self._draw_banner()
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
        tiles.display = phase == "write" and (big or not full_reveal)
        if tiles.display:
            self.query_one("#ts-tiles", TileGrid).show(view)
        defs = self.query_one("#ts-defs", Static)
        defs.display = phase in ("speak", "judge") and bool(view["defs"] or phase == "speak")
        if defs.display:
            shown = None if self._reveal_beat is None else self._reveal_beat + 1
            limit = self._text_limit(view["defs"])
            one_line = limit < 1
            limit = MAX_TEXT if one_line else limit
            defs.update(definitions(view, names, shown, one_line=one_line, limit=limit))
        self._full_reveal = full_reveal
        self._draw_reveal()
        self.query_one("#ts-score-flow", Flow).show(scoreboard(view))
        if full_reveal:
            self.call_after_refresh(self._refit_reveal)

    def _reveal_forms(self, width: int) -> list[RenderableType | None]:
        """The answer, from the most to the least: every definition with its role (a big
        table), the answer alone, the answer cut to one line a piece; None: one line below."""
        assert self._view is not None
        last, names = self._view["last_turn"], self._view["players"]
        forms: list[RenderableType | None] = [reveal(last, names), reveal(last, names, short=True)]
        if self._big():
            forms.insert(0, reveal(last, names, every=True))
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
        view = self._view
        assert view is not None
        last = view.get("last_turn")
        key = (last or {}).get("turn"), view["phase"], self.size, self._big()
        if key != self._fit_key:
            self._fit_key, self._reveal_form = key, 0
        elif self._full_reveal and self.query_one("#ts-reveal").display:
            self._reveal_form = self._fitting()
        self._show_reveal()

    def _show_reveal(self) -> None:
        view = self._view
        assert view is not None
        last = view.get("last_turn")
        box = self.query_one("#ts-reveal", Static)
        form = None
        if self._full_reveal:
            forms = self._reveal_forms(box.content_size.width or max(20, self.size.width - 4))
            form = forms[min(self._reveal_form, len(forms) - 1)]
        box.display = form is not None
        if form is not None:
            box.border_title = t("tesauro.reveal_title", turn=last["turn"])
            box.update(form)
        line = self.query_one("#ts-last", Static)
        line.display = bool(last) and form is None and view["phase"] != "judge"
        if line.display:
            line.update(last_line(last, names=view["players"]))

    def _refit_reveal(self) -> None:
        """Laid out: if the answer is cut by the cards won, a shorter form."""
        if self._view is None or not self._full_reveal:
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

    def _draw_banner(self) -> None:
        view = self._view
        if view is None:
            return
        names = view["players"]
        phase = view["phase"]
        banner = self.query_one("#ts-banner", Static)
        text = Text()
        if view.get("tie_break") and not view["over"]:
            text.append_text(tie_banner(view, names))
            text.append("\n")
        if phase == "write":
            given = sum(1 for s in view["order"] if view["given"][s])
            if self._deadline is not None:
                left = self._deadline - self.now()
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


# --- a player's hand ----------------------------------------------------------------------


TILE_REFUSALS = ("tile_taken", "category_reserved", "brillante_tile", "bad_category", "no_tile")
"""Refusal codes that mean the tile asked for is not ours."""


class DefinitionInput(TextField):
    """The definition field: one line, 300 characters at most. Enter sends (the footer says
    so while it has the keys). Coming back to it keeps the draft with the cursor at its end:
    it never selects the draft (Textual's default), which the next key would replace."""

    BINDINGS = [Binding("enter", "submit", "tesauro.key.send", key_display="Enter")]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(select_on_focus=False, **kwargs)


class TesauroHand(HandWidget):
    """Your role, big; then what your role does now. Typing a definition: pick a tile with
    its number and the field opens and takes every key (digits too) until Enter sends or Esc
    goes back to the tiles, keeping the draft; F1 is the help there. A small screen shows the
    definitions compactly and says when there is more below."""

    BINDINGS = [
        Binding("1", "choose(0)", "tesauro.key.choose", key_display="1 2"),
        Binding("2", "choose(1)", "tesauro.key.choose", show=False),
        Binding("1", "tile(0)", "tesauro.key.tile", key_display="1–9"),
        *[Binding(str(n), f"tile({n - 1})", "tesauro.key.tile", show=False) for n in range(2, 10)],
        Binding("1", "pick(0)", "tesauro.key.pick", key_display="1–9"),
        *[Binding(str(n), f"pick({n - 1})", "tesauro.key.pick", show=False) for n in range(2, 10)],
        Binding("c,0", "crazy", "tesauro.key.crazy", key_display="c/0"),
        Binding("enter", "write", "tesauro.key.write", key_display="Enter"),
        Binding("space,enter", "ready", "tesauro.key.ready", key_display="Space"),
        Binding("space,enter", "said", "tesauro.key.said", key_display="Space"),
        Binding("escape", "tiles", "tesauro.key.change_tile", key_display="Esc"),
        Binding("escape", "back", "tesauro.key.back", key_display="Esc"),
        Binding("f1", "help", "key.help", key_display="F1"),
        Binding("up", "scroll_up", show=False),
        Binding("down", "scroll_down", show=False),
        Binding("pageup", "page_up", show=False),
        Binding("pagedown", "page_down", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(id="tsh-role")
        yield Static(id="tsh-status")
        yield Static(id="tsh-entry", classes="box")
        yield Static(id="tsh-main")
        yield DefinitionInput(
            id="tsh-text", max_length=MAX_TEXT, placeholder=t("tesauro.placeholder")
        )
        yield Static(id="tsh-count")
        yield Static(id="tsh-draft")
        yield Static(id="tsh-me")

    def on_mount(self) -> None:
        self._view: dict[str, Any] = {}
        self._room: dict[str, Any] = {}
        self._deadline: float | None = None
        self._turn: int | None = None
        self._wanted_tile: str | None = None  # asked for; the field opens when it is ours
        self._field_open = False
        self._told_timeout: int | None = None  # the turn whose time-out was told
        self.query_one("#tsh-text").display = False
        self._ticker = self.set_interval(0.5, self._tick)
        self.watch(self, "scroll_y", self._scrolled, init=False)
        # laid out again (the definitions took more or less room): is there more below now?
        self.watch(self, "virtual_size", self._scrolled, init=False)
        self.watch(self, "size", self._scrolled, init=False)
        self.now = time.monotonic  # the clock the countdown reads (screenshots stop it)

    # following the room

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        self._view, self._room = view, room
        seconds = room.get("timer_seconds")
        self._deadline = self.now() + seconds if seconds is not None else None
        field = self.query_one("#tsh-text", DefinitionInput)
        if view.get("turn") != self._turn:  # a new turn: a new definition
            self._turn = view.get("turn")
            self._wanted_tile = None
            field.value = ""
        if self._wanted_tile is not None and view.get("tile") == self._wanted_tile:
            self._wanted_tile = None  # the tile asked for is ours: the field was open already
        if not self._may_write():
            self._field_open = False
        if self._timed_out() and self._told_timeout != view.get("turn"):
            self._told_timeout = view.get("turn")
            self.notify(t("tesauro.timed_out"), severity="warning")
        self._place_field()
        self._redraw()
        self.refresh_bindings()

    def _legal(self) -> set[str]:
        return set(self._view.get("legal") or [])

    def _may_type(self) -> bool:
        """A scholar holding a tile, in the thinking time of the typed game, not yet given."""
        view = self._view
        return (
            view.get("mode") == "typed"
            and "define" in self._legal()
            and view.get("tile") is not None
            and view.get("phase") == "write"
        )

    def _may_write(self) -> bool:
        """A scholar of the typed game in the thinking time who has not given theirs: the
        field may be open, even while the tile asked for is on its way (or was refused)."""
        view = self._view
        me = view.get("seat")
        return (
            view.get("mode") == "typed"
            and view.get("phase") == "write"
            and view.get("role") in ("brillante", "orate")
            and isinstance(me, int)
            and not view["given"][me]
        )

    def refused(self, code: str) -> None:
        """The host refused an action of ours: a tile asked for is not coming. The field
        stays open with the draft (what is typed after a refused key stays text)."""
        if self._wanted_tile is not None and code in TILE_REFUSALS:
            self._wanted_tile = None
            self._redraw()
            self.refresh_bindings()

    def _timed_out(self) -> bool:
        """The thinking time of the typed game ran out before this scholar sent theirs."""
        view = self._view
        me = view.get("seat")
        return (
            view.get("mode") == "typed"
            and view.get("phase") == "judge"
            and view.get("role") in ("brillante", "orate")
            and isinstance(me, int)
            and not view["given"][me]
        )

    def _compact(self) -> bool:
        """A small screen (80x24): fewer lines for the role and the word."""
        return self.size.height < BIG_HEIGHT

    def _place_field(self) -> None:
        """The field is shown (and has the keys) exactly while it is open."""
        field = self.query_one("#tsh-text", DefinitionInput)
        if self._field_open:
            field.display = True
            if not field.has_focus:
                field.focus()
        else:
            if field.has_focus or self.app.focused is None:
                self.focus()
            field.display = False

    def _open_field(self) -> None:
        self._field_open = self._may_write()
        self._place_field()
        if self._field_open:  # back to the draft: go on where it ends
            field = self.query_one("#tsh-text", DefinitionInput)
            field.cursor_position = len(field.value)
        self._redraw()
        self.refresh_bindings()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._draw_count()
        self._draw_draft()
        self.call_after_refresh(self._draw_me)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = " ".join(event.value.split())
        if not text:
            self.notify(t("tesauro.write_first"), severity="warning")
            return
        if self._may_type():
            self.act({"type": "define", "text": text})
        elif self._may_write():  # no tile yet (refused, or still on its way): the text stays
            self.notify(t("tesauro.tile_first_field"), severity="warning")

    # keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of this phase: usable (True) or greyed (None: pressing one says why), as
        in every game. A number key means one thing per phase — the reader's word, a tile, a
        definition to pick — so the meanings of other phases are hidden (False)."""
        legal = self._legal()
        phase = self._view.get("phase")
        typing = self._field_open
        genius = self._view.get("role") == "brillante"
        scholar = self._view.get("role") in ("brillante", "orate")
        if action == "choose":
            return True if "choose" in legal else (None if phase == "choose" else False)
        if action == "tile":
            if typing:
                return False  # the digits go into the text
            return True if "tile" in legal else (None if phase == "write" and scholar else False)
        if action == "pick":
            return True if "pick" in legal else (None if phase == "judge" else False)
        if action == "crazy":
            return True if "crazy" in legal else (None if phase == "judge" else False)
        if action == "write":
            return self._may_type() and not typing
        if action == "ready":
            return "done" in legal and phase == "write"
        if action == "said":
            return "done" in legal and phase == "speak"
        if action == "tiles":
            return typing and not genius  # a Genius can't change tile: Esc is "Back"
        if action == "back":
            return typing and genius
        if action == "help":
            return typing  # F1 while `?` goes into the field; else the screen's own F1
        return True

    def key_display_for(self, action: str) -> str | None:
        """The footer's keys as they are now: "1–4" for four definitions."""
        if action.startswith("pick("):
            count = len(self._view.get("defs") or [])
            return "1" if count == 1 else f"1–{count}" if count else None
        return None

    def action_choose(self, entry: int) -> None:
        self.act({"type": "choose", "entry": entry})

    def action_tile(self, index: int) -> None:
        category = CATEGORIES[index]
        if category == self._view.get("tile"):  # yours already: back to the definition
            self._open_field()
            return
        self._wanted_tile = category
        self.act({"type": "tile", "category": category})
        if self._may_write():  # the field opens at once: typing ahead goes into the draft
            self._open_field()

    def action_pick(self, index: int) -> None:
        defs = self._view.get("defs") or []
        if index >= len(defs):
            self.notify(t("tesauro.only_defs", n=len(defs)), severity="warning")
            return
        entry = defs[index]
        names = self._view["players"]
        question = t(
            "tesauro.confirm_pick",
            n=index + 1,
            name=who(names, entry["seat"]),
            category=category_name(entry.get("tile")),
        )
        seat = entry["seat"]

        def pick(answer: bool | None) -> None:
            if answer and "pick" in self._legal():
                self.act({"type": "pick", "seat": seat})

        self.app.push_screen(ConfirmScreen(question), pick)

    def action_crazy(self) -> None:
        def crazy(answer: bool | None) -> None:
            if answer and "crazy" in self._legal():
                self.act({"type": "crazy"})

        question = t("tesauro.confirm_crazy", crazy=t("tesauro.crazy"))
        self.app.push_screen(ConfirmScreen(question), crazy)

    def action_write(self) -> None:
        self._open_field()

    def action_ready(self) -> None:
        self.act({"type": "done"})

    def action_said(self) -> None:
        self.act({"type": "done"})

    def action_tiles(self) -> None:
        """Esc in the field: back to the tiles (the draft stays)."""
        self._field_open = False
        self._place_field()
        self._redraw()
        self.refresh_bindings()

    def action_back(self) -> None:
        """Esc in the Genius's field: out of it (the draft stays)."""
        self.action_tiles()

    def action_help(self) -> None:
        self.screen.action_help()  # type: ignore[attr-defined]

    # drawing

    def _tick(self) -> None:
        if self._view and self._view.get("phase") == "write" and self._deadline is not None:
            self._draw_status()
            self._draw_count()

    def _left(self) -> float | None:
        return None if self._deadline is None else self._deadline - self.now()

    def _redraw(self) -> None:
        if not self._view:
            return
        self._draw_role()
        self._draw_status()
        self._draw_entry()
        put(self.query_one("#tsh-main", Static), self._main())
        self._draw_count()
        self._draw_draft()
        self._draw_me()
        self.call_after_refresh(self._draw_me)  # laid out: is there more below?

    def _draw_role(self) -> None:
        role = self._view.get("role")
        box = self.query_one("#tsh-role", Static)
        for known in SPANISH:
            box.set_class(role == known, f"-{known}")
        if role not in SPANISH:
            box.update(Text(t("tesauro.dealing"), style="dim"))
            return
        text = Text()
        letters = big(role_name(role)) if self.size.height >= BIG_HEIGHT else None
        if letters:
            text.append("\n".join(letters), style="bold")
            text.append(f"  {SPANISH[role]}\n", style="italic")
        else:
            text.append(" ".join(role_name(role).upper()), style="bold")
            text.append(f"  {SPANISH[role]}  ", style="italic")
        busy = self._view.get("phase") in ("speak", "judge") or self._field_open
        if not (self._compact() and busy):  # known by now: room for the definitions
            text.append(t(f"tesauro.role_hint.{role}"))
        text.rstrip()
        box.update(text)

    def _draw_status(self) -> None:
        view = self._view
        names = view["players"]
        phase = view.get("phase")
        legal = self._legal()
        me = view.get("seat")
        status = Text()
        if phase == "dealing":
            status.append(t("tesauro.dealing"), style="dim")
        elif phase == "choose":
            if "choose" in legal:
                status.append(" " + t("tesauro.you_choose") + " ", style="bold reverse")
            else:
                status.append(t("tesauro.choosing", name=who(names, view["reader"])), style="dim")
        elif phase == "write":
            left = self._left()
            if left is not None:
                hurry = hurried(left)
                status.append(
                    f" ⏱ {clock(left)} ", style="bold white on red" if hurry else "bold reverse"
                )
                status.append(" ")
            status.append(self._write_status(), style="bold")
        elif phase == "speak":
            if view.get("speaker") == me:
                status.append(
                    " " + t("tesauro.your_turn_to_speak") + " ", style="bold black on yellow"
                )
            else:
                speaker = who(names, view.get("speaker"))
                status.append(t("tesauro.speaking", name=speaker), style="bold")
        elif phase == "judge":
            if view.get("role") == "sapiente":
                status.append(" " + t("tesauro.judge_now") + " ", style="bold reverse")
            else:
                sapiente = who(names, view["sapiente"])
                status.append(t("tesauro.judging_short", name=sapiente), style="bold")
        put(self.query_one("#tsh-status", Static), status)

    def _waiting_others(self) -> int:
        view = self._view
        me = view.get("seat")
        return sum(1 for s in view["order"] if s != me and not view["given"][s])

    def _write_status(self) -> str:
        view = self._view
        me = view.get("seat")
        if view.get("role") == "sapiente":
            spoken = view["mode"] == "spoken"
            key = "tesauro.sage_waits_spoken" if spoken else "tesauro.sage_waits"
            return t(key, n=self._waiting_others())
        if view["given"][me]:
            key = "tesauro.sent_waiting" if view["mode"] == "typed" else "tesauro.ready_waiting"
            return t(key, n=self._waiting_others())
        if view.get("tile") is None:
            if self._field_open:
                return t("tesauro.tile_coming" if self._wanted_tile else "tesauro.tile_first_field")
            return t("tesauro.take_tile")
        if view["mode"] == "spoken":
            return t("tesauro.think_then_ready")
        if self._field_open:
            return t("tesauro.type_now")
        return t("tesauro.back_to_text")

    def _draw_entry(self) -> None:
        """The entry you know (a scholar), or the two words to choose from (the reader); on a
        small screen, while the definitions are heard or judged, the word in a line."""
        view = self._view
        box = self.query_one("#tsh-entry", Static)
        choices = view.get("choices")
        entry = view.get("entry")
        flat = self._compact() and view.get("phase") in ("speak", "judge")
        box.display = True
        box.set_class(flat, "-flat")
        if choices:
            box.border_title = t("tesauro.your_card")
            box.border_subtitle = ""
            rows = []
            for index, choice in enumerate(choices):
                text = Text()
                text.append_text(literal(choice["word"], 60, style="bold"))
                text.append(f" · {category_name(choice['category'])}\n", style="cyan")
                text.append_text(literal(choice["definition"], MAX_TEXT))
                rows.append((chip(str(index + 1)), text))
            box.update(numbered(rows))
        elif entry and view.get("phase") in ("write", "speak", "judge"):
            box.border_title = "" if flat else literal(entry["word"], 60).plain
            box.border_subtitle = "" if flat else category_name(entry["category"])
            if flat:
                line = literal(entry["word"], 60, style="bold")
                line.append(f" · {category_name(entry['category'])}\n", style="cyan")
                line.append_text(literal(entry["definition"], MAX_TEXT, style="dim"))
                box.update(line)
            else:
                box.update(literal(entry["definition"], MAX_TEXT))
        elif view.get("word") and view.get("role") == "sapiente":
            box.border_title = "" if flat else t("tesauro.the_word")
            box.border_subtitle = ""
            if flat:
                line = span(t("tesauro.the_word") + ": ", style="dim")
                line.append_text(literal(view["word"], 60, style="bold"))
                box.update(line)
            else:
                box.update(literal(view["word"], 60, style="bold"))
        else:
            box.display = False

    def _main(self) -> RenderableType:
        view = self._view
        phase = view.get("phase")
        names = view["players"]
        role = view.get("role")
        me = view.get("seat")
        if phase == "write":
            if role == "sapiente":
                blind = (
                    "tesauro.sage_blind_spoken"
                    if view["mode"] == "spoken"
                    else "tesauro.sage_blind"
                )
                text = span(t(blind) + "\n", style="dim")
                text.append_text(Text("  ").join(progress(view, names)))
                if view.get("last_turn"):
                    text.append("\n\n")
                    text.append_text(last_line(view["last_turn"], names))
                return text
            if view["given"][me]:
                if view["mode"] == "typed" and view.get("text"):
                    text = span(t("tesauro.your_definition") + "\n", style="dim")
                    text.append_text(literal(view["text"], MAX_TEXT, style="bold"))
                    return text
                return self._tile_line()
            if self._field_open or (role == "brillante" and view.get("tile")):
                return self._tile_line()
            return self._tile_list()
        compact = self._compact()
        if phase == "speak":
            return definitions(view, names, numbered_keys=False, inline=compact)
        if phase == "judge":
            shown = definitions(view, names, inline=compact)
            if self._timed_out():
                return Group(Text(t("tesauro.timed_out"), style="bold red"), shown)
            return shown
        last = view.get("last_turn")
        if last and phase in ("dealing", "choose"):
            return self._news(last)
        return Text()

    def _tile_line(self) -> Text:
        view = self._view
        tile = view.get("tile") or self._wanted_tile
        text = span(t("tesauro.your_tile") + " ", style="dim")
        if tile is None:  # refused: the field stays, the tile is to choose again
            text.append(t("tesauro.tile_first_field"), style="bold yellow")
            return text
        text.append(f" {CATEGORIES.index(tile) + 1} ", style="bold reverse")
        text.append(f" {category_name(tile)}", style="bold cyan")
        if view.get("tile") is None:
            text.append(" …", style="dim")  # asked for, not yet confirmed
        if not view["given"][view["seat"]] and view.get("role") != "brillante":
            key = "tesauro.esc_change" if self._field_open else "tesauro.number_change"
            text.append("   " + t(key), style="dim")
        return text

    def _tile_list(self) -> Text:
        """The nine tiles by number: yours, free, taken (by whom), not for you (and why)."""
        view = self._view
        names = view["players"]
        me = view["seat"]
        allowed = set(view.get("allowed") or [])
        holder = {tile: seat for seat, tile in enumerate(view["categories"]) if tile is not None}
        true_category = (view.get("entry") or {}).get("category")
        genius = view.get("role") == "brillante"
        key = "tesauro.tiles_hint_genius" if genius else "tesauro.tiles_hint_babbler"
        text = span(t(key, category=category_name(true_category)) + "\n", style="dim")
        width = max(len(category_name(c)) for c in CATEGORIES) + 2
        for index, category in enumerate(CATEGORIES):
            seat = holder.get(category)
            free = category in allowed
            label = Text(category_name(category).ljust(width))
            text.append(f" {index + 1} ", style="bold reverse" if free else "dim reverse")
            text.append(" ")
            if seat == me:
                label.stylize("bold cyan")
                text.append_text(label)
                text.append("◀ " + t("tesauro.yours"), style="bold cyan")
            elif seat is not None:
                label.stylize("dim")
                text.append_text(label)
                text.append("— ", style="dim")
                text.append_text(name(who(names, seat), style="dim"))
            elif free:
                label.stylize("bold")
                text.append_text(label)
            else:
                label.stylize("dim")
                text.append_text(label)
                if category == true_category and not genius:
                    text.append("✗ " + t("tesauro.kept_for_genius"), style="dim")
            text.append("\n")
        text.rstrip()
        return text

    def _news(self, last: dict[str, Any]) -> Group:
        """What the last judgement did, in words, with your part in it."""
        names = self._view["players"]
        me = self._view.get("seat")
        parts: list[RenderableType] = [
            Text(t("tesauro.last_turn"), style="dim"),
            reveal(last, names),
        ]
        if last.get("taker") == me:
            parts.append(Text(t("tesauro.you_took"), style="bold green"))
        return Group(*parts)

    def _draw_count(self) -> None:
        """Under the field, one line: how much is typed (red at the limit, which takes no
        more), and the time left; in its last seconds, while yours is not sent, a red bar
        with the time and what is lost (the same line: nothing below it moves)."""
        line = self.query_one("#tsh-count", Static)
        field = self.query_one("#tsh-text", DefinitionInput)
        left = self._left()
        hurry = left is not None and hurried(left) and self._may_type()
        line.display = self._field_open or hurry
        line.set_class(hurry, "-hurry")
        if not line.display:
            return
        if hurry and left is not None:  # the time left and what is lost, not the count
            text = Text(f" ⏱ {clock(left)}  {t('tesauro.hurry')}")
        else:
            count = len(field.value)
            full = count >= MAX_TEXT
            style = "bold red" if full else "bold yellow" if count >= MAX_TEXT - 30 else "bold"
            text = span(f"{count}/{MAX_TEXT}", style=style)
            if full:
                text.append(" " + t("tesauro.at_limit"), style="bold red")
            if left is not None:
                text.append(f"   ⏱ {clock(left)}")
        text.no_wrap, text.overflow = True, "ellipsis"
        line.update(text)

    def _draw_draft(self) -> None:
        """The whole draft, wrapped, once the one-line field shows only a part of it."""
        box = self.query_one("#tsh-draft", Static)
        field = self.query_one("#tsh-text", DefinitionInput)
        room = field.content_size.width or 40
        box.display = self._field_open and len(field.value) >= room - 1
        if box.display:
            box.update(literal(field.value, MAX_TEXT, style="italic"))

    def _scrolled(self, _old: float, _new: float) -> None:
        self._draw_me()

    def _draw_me(self) -> None:
        view = self._view
        if not view:
            return
        me = view.get("seat")
        won = view["scores"]
        text = span(t("tesauro.you_have", n=won[me]), style="bold")
        text.append("   " + turn_line(view), style="dim")
        if self.max_scroll_y > 0 and self.scroll_y < self.max_scroll_y:
            text.append("   " + t("tesauro.more"), style="bold black on yellow")
        put(self.query_one("#tsh-me", Static), text)


def epilogue(view: dict[str, Any], names: list[str]) -> tuple[str, list[RenderableType]] | None:
    """A player's results screen: the last turn's answer (the true definition, the Genius,
    where the card went); on a small screen cut to a line a definition, or to the word and
    where its card went."""
    last = view.get("last_turn")
    if not last:
        return None
    forms = [reveal(last, names), reveal(last, names, short=True), last_line(last, names)]
    return t("tesauro.reveal_title", turn=last["turn"]), forms


register_ui("tesauro", GameUI(TesauroTable, TesauroHand, narrate, epilogue))
