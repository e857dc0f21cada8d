"""The public table as the room sees it on the big screen: the game's own table, whom it waits
for, the countdown, the seats, and a short ticker of what just happened (the whole story on a
key, `StoryScreen`; on a TV, the story runs down the side column beneath the seats instead,
where a TV has room to spare).

`PublicTable` is drawn from plain data only — the room summary, the table's game view, the
events and a `Story` — never from the host's `Room`: whatever gets those over the wire (a
watcher's screen) can show the very same table.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from tui.bigtext import big
from tui.games import GameWidget, ui_for
from tui.i18n import has, lang, t
from tui.text import marked, marks_of
from tui.widgets import (
    Dialog,
    Feed,
    Footer,
    SeatList,
    Story,
    Timed,
    absence,
    after_refresh,
    clock,
    keys,
    put,
)

TOAST_RACK = "#textual-toastrack"
"""Textual's rack of toasts on each screen (`textual.widgets._toast.ToastRack`)."""

TV = (150, 42)
"""A terminal at least this large is a TV across the room: the largest type."""
ROOMY = (110, 34)
"""At least this large: the ticker gets a line more, the countdown its box."""
NARROW = 80
"""Narrower than this is a phone held upright (a browser seat gets 40 columns and more): one
column, the private hand first and full width (checked from 40 columns up). The side-by-side
layout is made for 80 columns and more, the apps' minimum: below it the side panel keeps its
26 columns and the hand gets under 40 — at 66x24 its lines run into each other, where the one
column cuts nothing. A phone turned sideways (90 columns and more) gets the side-by-side."""


def size_class(width: int, height: int) -> str:
    """`-tv`, `-roomy` or `-small`: the class an app of this size gets, for the styles."""
    if width >= TV[0] and height >= TV[1]:
        return "-tv"
    if width >= ROOMY[0] and height >= ROOMY[1]:
        return "-roomy"
    return "-small"


def classify_size(app: Any, size: Any = None) -> None:
    """Give `app` the class of its terminal's size (each app calls it on mount and resize):
    `.-tv #x` in a style sheet, `app.has_class("-tv")` in code. A narrow one (a phone held
    upright) is `-small` and `-narrow` too: what a small screen gives up, it gives up as well.
    `size`: the new one a Resize brings (the app's own is still the old one while its
    subclass hears of it: a host started at 80×24 and then maximised kept its small layout)."""
    width, height = size or app.size
    size = size_class(width, height)
    for name in ("-tv", "-roomy", "-small"):
        app.set_class(name == size, name)
    app.set_class(is_narrow(width), "-narrow")


def is_narrow(width: int) -> bool:
    """Whether a terminal `width` columns wide gets the one-column layout (`-narrow`)."""
    return width < NARROW


class Countdown(Timed, Static):
    """A running timer in large digits (`0:42`), counting down on its own between changes of
    the room. Hidden while no timer runs."""

    HURRY = 10.0  # seconds: the last ones are drawn in the warning colour

    def on_mount(self) -> None:
        self.display = False
        self.set_interval(0.5, self._draw)

    def start(self, seconds: float | None) -> None:
        self.follow_timer(seconds)
        self._draw()

    def _draw(self) -> None:
        left = self.seconds_left()
        if left is None:
            self.display = False
            self._make_way()
            return
        shown = clock(left)
        lines = big(shown, 2 if self.app.has_class("-tv") else 1) or [shown]
        self.set_class(left <= self.HURRY, "-hurry")
        self.display = True
        put(self, Text("\n".join(lines), style="bold"))
        self._make_way()

    def _make_way(self) -> None:
        """Toasts beneath the countdown while it runs: they are docked at the top right, in
        the side column (common.tcss), and over it they hid its first rows for their 3–5 s
        (at 80x24 the whole of its top line). Measured once the screen is laid out."""
        after_refresh(self, self._toasts_below)

    def _toasts_below(self) -> None:
        racks = self.screen.query(TOAST_RACK)
        if not racks:
            return
        rack = racks.first()
        below = 0  # (the rack is docked at the screen's top: toasts begin on the title row)
        if self.display and self.region and not self.app.has_class("-narrow"):
            # (a phone's countdown is beneath the game's table, far from the toasts)
            below = self.region.bottom
        if rack.styles.margin.top != below:
            rack.styles.margin = (below, 0, 0, 0)


class PublicTable(Widget):
    """Everything the big screen shows while a game is on (see the module's docstring)."""

    DEFAULT_CSS = "PublicTable { layout: vertical; height: 1fr; }"

    def __init__(self, game_id: str | None, story: Story, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game_id = game_id
        self.story = story

    def compose(self) -> ComposeResult:
        with Horizontal(id="table-main"):
            yield ui_for(self.game_id).table(id="game-table")
            with Vertical(id="table-side"):
                yield Countdown(id="countdown")
                yield SeatList(id="seats", classes="box")
                yield Feed(id="side-story", classes="box")  # a TV's: the story, tall
        yield Static(id="waiting")
        yield Feed(id="ticker")

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = t("table.seats_title")
        side = self.query_one("#side-story", Feed)
        side.border_title = t("story.title")
        side.lines = self.query_one("#ticker", Feed).lines  # one story, two places to show it
        self._summary: dict[str, Any] | None = None
        self._note: Text | None = None

    @property
    def game(self) -> GameWidget:
        return self.query_one("#game-table", GameWidget)

    def show(
        self,
        summary: dict[str, Any],
        view: dict[str, Any] | None,
        events: list[dict[str, Any]],
        note: Text | None = None,
    ) -> None:
        """A change of the room: its summary, the table's game view and the change's events.
        `note`: what the screen adds to the line of whom the table waits for (the host: what
        it can do about a player who is away)."""
        self._summary, self._note = summary, note
        for line in self.story.since(getattr(self, "_story_seen", None), fresh=8):
            self.query_one("#ticker", Feed).say(line)
        self.query_one("#side-story", Feed).refresh()
        self._story_seen = self.story.total
        self.query_one("#countdown", Countdown).start(summary.get("timer_seconds"))
        self.query_one("#seats", SeatList).show(summary)
        self.show_waiting(summary, note)
        if view is not None:  # the events first: a reveal holds the new view back
            self.game.present(view, summary, events)

    def show_waiting(self, summary: dict[str, Any], note: Text | None = None) -> None:
        """The line of whom the table waits for (redrawn every second: away times count)."""
        seen = (lang(), *(summary.get(k) for k in ("phase", "waiting", "seats", "standins")), note)
        if seen != getattr(self, "_waiting_seen", None):  # a move seldom changes whom it waits for
            self._waiting_seen = seen
            put(self.query_one("#waiting", Static), waiting_line(summary, note))


def waiting_line(summary: dict[str, Any], note: Text | None = None) -> Text:
    """ "Waiting for: ● Ann, ▲ Boris (away 0:12, a bot plays for them in 0:08)" — each with
    their mark — or, when the game waits for nobody, that anyone may act (in the game's words
    `<game>.waiting_nobody` where it has them), unless `note` says what the host can do
    about a seat: that alone, then."""
    seats = summary.get("seats", [])
    waiting = [s for s in summary.get("waiting", []) if 0 <= s < len(seats)]
    line = Text()
    if summary.get("phase") != "playing":
        pass
    elif waiting:
        line.append(t("table.waiting_for") + " ", style="bold")
        for number, seat in enumerate(waiting):
            if number:
                line.append(", ")
            line.append_text(marked(seat, seats[seat]["name"], "bold", marks_of(summary)))
            if (away := absence(seats[seat], summary.get("standins", True))) is not None:
                line.append(f" ({away})", style="yellow")
    elif not note:  # (with a note about an away seat, the note says enough: rows are few)
        own = f"{summary.get('game')}.waiting_nobody"  # (a game's own words for it, if any)
        line.append(t(own) if has(own) else t("table.waiting_nobody"), style="bold")
    if note:
        line.append("  " if line else "")
        line.append_text(note)
    return line


class StoryScreen(Dialog, ModalScreen[None]):
    """The whole story of the table, oldest first, scrollable; Escape closes it, or a tap on
    its footer's key or beside it. With `seats` (a phone's game screen, which has no room
    for them beside the hand): the seats above the story. With `whole` (a title and what
    the game's table draws cut short, `GameWidget.whole`): that first, whole, then the
    story."""

    GIVES_WAY = True

    BINDINGS = keys(
        "story",
        [Binding("escape,l,q", "dismiss", "key.close", key_display="Esc")],
    )

    def __init__(
        self,
        story: Story,
        seats: Text | None = None,
        whole: tuple[str, RenderableType] | None = None,
    ) -> None:
        super().__init__()
        self.story = story
        self.seats = seats
        self.whole = whole

    def compose(self) -> ComposeResult:
        text = Text("\n").join(Text(line) for line in self.story.lines)
        if self.seats is not None:  # above the story, which scrolls to its newest lines
            self.add_class("-seats")
            yield Static(self.seats, id="story-seats", classes="box")
        with VerticalScroll(id="story", classes="box"):
            if self.whole is not None:  # read first: the scroll starts at its top
                yield Static(self.whole[1], id="story-whole")  # (its title: the box's)
                yield Static(Text(t("story.title"), style="bold"), classes="story-head")
            yield Static(text or Text(t("story.empty"), style="dim"), id="story-text")
        yield Footer()

    def on_mount(self) -> None:
        box = self.query_one("#story")
        box.border_title = t("story.title") if self.whole is None else self.whole[0]
        box.border_subtitle = t("story.close")
        if self.whole is None:
            box.scroll_end(animate=False)
        box.focus()
        if self.seats is not None:
            self.query_one("#story-seats").border_title = t("table.seats_title")

    def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(None)
