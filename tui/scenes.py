"""The app scenes' kit: the apps in a fixed, deterministic state, for pictures and tests.

A scene is one screen of an app at one moment (`Scene`). The shell's scenes are in
`tests/scenes.py`; each game's are in its own package (`tui/games/<game>/scenes.py`, a
`SCENES` tuple, found by `game_scenes`). The snapshot tests (`tests/tui/test_snapshots.py`),
the clipping check, the play tests and the screenshot tool (`tools/screenshots.py`) all take
them from there, so a screenshot and its snapshot always show the same thing. Every scene is
deterministic: a fixed room code, room name and id, seeded randomness, no zeroconf, no clocks
or bots running, the shown address and port fixed, no blinking cursor and no notification
toasts.

Host scenes build a real `Room` and play it forward with real actions *before* the app starts
(where no event loop runs, so no timers or bot moves get armed: `built`), then hand the room's
events to the app through its own `RoomChanged` message so the feed is narrated the real way.
Player scenes feed a `ClientApp` the frames the host would send (`view`, `kicked`) and the link
states its connection reports, through the app's own messages — no sockets.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import msgpack
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from games import GAMES
from net.discovery import HostInfo
from net.protocol import DEFAULT_PORT
from net.room import Room
from tui.client.app import ClientApp
from tui.host.app import HostApp
from tui.i18n import lang
from tui.waiting import until
from tui.widgets import Timed

SMALL = (80, 24)  # the required minimum
BIG = (120, 40)  # "looks good at 120x40"
TV = (160, 45)  # a TV across the room
PHONE = (40, 30)
"""A phone held upright in a browser seat (every player scene): 390x664 CSS pixels, Safari
with its bars shown, at the page's 16 px type (40x37 with the bars hidden)."""
LANGS = ("en", "ru")
SIZES = (SMALL, BIG, TV, PHONE)  # every size a scene may have

ROOM_NAME = "Friday night"
CODE = "KQXM"
ADDRESSES = ["192.168.1.20", "10.8.0.3"]  # what the lobby shows instead of this machine's
PORT = DEFAULT_PORT
WEB_URL = f"http://{ADDRESSES[0]}:47471"
ODD_NAME = "[bold]Ann"  # must show literally, brackets and all

RunBefore = Callable[[Pilot], Awaitable[None]]


@dataclass(frozen=True)
class Scene:
    name: str  # file stem, e.g. "host-lobby"
    title: str  # one line for the README
    build: Callable[[], tuple[App[Any], RunBefore]]  # call after set_lang(); the app + run_before
    press: tuple[str, ...] = ()  # keys pressed after run_before
    big: bool = False  # also at 120x40
    # False: a screenshot only, no snapshot test (keeps the tests fast); or only the cases
    # named, e.g. ("en-80x24",). A phone's picture is a snapshot only where named here or
    # in `phone`.
    snapshot: bool | tuple[str, ...] = True
    phone: tuple[str, ...] = ()  # the languages whose phone picture (40x30) is a snapshot too
    phone_only: bool = False  # a moment only a phone has (its keys)

    @property
    def sizes(self) -> tuple[tuple[int, int], ...]:
        """80x24; the main screens also at 120x40; the host's (the big screen) also on a TV;
        every player's screen also on a phone."""
        if self.name.startswith("host-"):
            return (SMALL, BIG, TV) if self.big else (SMALL,)
        if self.phone_only:
            return (PHONE,)
        return (SMALL, BIG, PHONE) if self.big else (SMALL, PHONE)


# --- rooms, played forward with real actions ----------------------------------------------


class Dice(random.Random):
    """The room's randomness: the faces a scene queued come up first, then seeded chance.
    The room still rolls (and checks) every die itself: a scene only chooses the outcome."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.queued: list[int] = []

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        if self.queued:
            return self.queued.pop(0)
        return super().randrange(*args, **kwargs)


class Table:
    """A room and every event it announced, built without an event loop."""

    def __init__(self, game_id: str | None = None, rng: random.Random | None = None) -> None:
        self.dice = Dice(1)
        self.room = Room(
            ROOM_NAME,
            game_id=game_id,  # None: the first game of the lobby
            code=CODE,
            room_id="fixed",
            rng=rng or self.dice,
            clock=lambda: 1000.0,  # away times stand still in a picture
        )
        self.events: list[dict[str, Any]] = []
        self.batches: list[list[dict[str, Any]]] = []  # the events, as each change told them
        self.room.subscribe(self.events.extend)
        self.room.subscribe(self.batches.append)
        # the app would arm timers and bots on mount: a screenshot wants neither
        self.room.start_clocks = lambda: None  # type: ignore[method-assign]

    def seat(self, name: str, *, here: bool = True) -> int:
        seat = self.room.join(name, CODE)
        self.room.connected(seat, returning=False)
        if not here:
            self.room.disconnected(seat)
        return seat

    def act(self, seat: int, action: dict[str, Any], faces: tuple[int, ...] = ()) -> None:
        """A real action of `seat`; `faces` are the CHANCE outcomes (face indexes, index 0 a
        star on every Tally Die) of the dice it sets rolling, in the order the room rolls them."""
        self.dice.queued = list(faces)
        self.room.act(seat, action)
        assert not self.dice.queued, f"{action}: faces left over {self.dice.queued}"

    def history(self) -> list[dict[str, Any]]:
        """Every event before the last change's."""
        return [event for batch in self.batches[:-1] for event in batch]

    def play(self, until: Callable[[dict[str, Any]], bool], max_steps: int = 5000) -> None:
        """Legal moves chosen by a seeded coin, bots' seats included, until `until(view)`."""
        room = self.room
        game = room.game
        assert game is not None
        coin = random.Random(2)
        for _ in range(max_steps):
            view = room.game_view(None) or {}
            if room.phase != "playing" or until(view):
                return
            locked = view.get("locked") or []
            moves = [
                (seat, action)
                for seat in range(room.players)
                for action in game.legal_actions(room.state, seat)
                # a sealed side sent once is enough: re-sending it only wastes moves
                if not (action["type"] == "token" and seat < len(locked) and locked[seat])
            ]
            if not moves:
                return
            seat, action = coin.choice(moves)
            room.act(seat, action)
        raise AssertionError("the game did not reach the wanted state")


ANN, BORIS, BOT = 0, 1, 2  # the seats of lobby_table(); the player's scenes are Ann's
BOB, CID, DANA = 1, 2, 3  # the seats of a game of four: Ann, Bob, Cid and Dana


def turn_clock(make: Callable[[], Table], *, nudged: bool = False) -> Callable[[], Table]:
    """`make()`'s table with the turn clock running for the seats it waits on (the host's
    nudge, with `nudged`): the room says so in its summary (`turn`); the scene's `timer` is
    the time it shows left."""

    def made() -> Table:
        table = make()
        room = table.room
        seats = room.waiting_for()
        kind = {"turn": "nudge", "at": room.version} if nudged else {"turn": "time"}
        room.countdown.action = {**kind, "seats": seats, "move": len(room.log)}
        if nudged:
            room.turns.nudge = (room.countdown.action, 20.0)
        return table

    made.__name__ = f"{make.__name__}_turn"
    return made


def lobby_table(game_id: str | None = None, kind: type[Table] = Table) -> Table:
    """Three seats: a name full of brackets, a player who is away, a bot (a game without bots:
    a third player)."""
    table = kind(game_id)
    table.seat(ODD_NAME)
    table.seat("Boris", here=False)
    if table.room.game and table.room.game.bots:
        table.room.add_bot("normal" if "normal" in table.room.game.bots else None)
    else:
        table.seat("Vera")
    return table


FULL_NAMES = ["Anastasia-Maria", "Boris", "Vera", "Gleb", "Darya", "Yegor", "Zhenya", "Zoya"]


def full_game_table(
    game_id: str, phase: str | None = None, reached: Callable[[dict[str, Any]], bool] | None = None
) -> Table:
    """As many players as the game seats, a few moves into a game — to `phase`, to the view
    `reached` looks for, or 12 moves in: the seat lists and the players' boxes at their
    longest."""
    table = Table(game_id=game_id)
    game = table.room.game
    assert game is not None
    for name in [*FULL_NAMES, "Ilya", "Kira"][: game.max_players]:
        table.seat(name)
    table.room.start(lang=lang())
    if phase is not None:
        table.play(lambda v: v["phase"] == phase)
    elif reached is not None:
        table.play(reached)
    else:
        moves = itertools.count()
        table.play(lambda v: next(moves) >= 12)
    return table


def then(build: Callable[[], tuple[App[Any], RunBefore]], step: RunBefore):
    """A scene's build with one more step after its own run_before."""

    def built() -> tuple[App[Any], RunBefore]:
        app, run_before = build()

        async def both(pilot: Pilot) -> None:
            await run_before(pilot)
            await pilot.pause()
            await step(pilot)

        return app, both

    return built


# --- driving an app -------------------------------------------------------------------------


async def settle(pilot: Pilot) -> None:
    """No toasts, no blinking cursor: the same picture every time."""
    await pilot.pause()
    app = pilot.app
    app.clear_notifications()
    for screen in app.screen_stack:
        for field in screen.query(Input):
            field.cursor_blink = False
    await pilot.pause()


def built(make: Callable[[], Table]) -> Table:
    """A scene's table, played forward where no event loop runs, even when a test in one
    builds it: no bot and no countdown of its room moves it on while the test looks (on a
    busy machine a bot did, between the table being built and the scene's view of it — a
    phone test's sealed choice was over before it was tapped)."""
    with ThreadPoolExecutor(max_workers=1) as builder:
        return builder.submit(make).result()


def counting(app: App[Any]) -> int | None:
    """Which beat of the reveal's 1… 2… 3…! the game's table is on (None: not counting)."""
    for table in app.screen.query("#game-table"):
        beats = getattr(table, "beats", None)
        if beats is not None and beats.beat is not None:
            return beats.beat
    return None


def freeze_clocks(app: App[Any], timer: float | None = None) -> None:
    """Every countdown on the app's screens stops where it is: the app's one clock (`clock`,
    which every `tui.widgets.Timed` reads) stands still. With `timer` (the seconds the view
    gave), it stops at the moment the countdown's deadline was set, showing exactly `timer`
    left: however long a busy machine took between the view and this call (a second lost
    there showed 0:41 for 0:42). A scene's timer is never on a half second, where the shown
    seconds round either way."""
    timed = [w for w in app.screen.query("*") if isinstance(w, Timed)]
    deadlines = [w.deadline for w in timed if w.deadline is not None]
    stopped = deadlines[0] - timer if timer is not None and deadlines else app.clock()  # type: ignore[attr-defined]
    app.clock = lambda: stopped  # type: ignore[attr-defined]
    for widget in timed:
        if timer is not None and widget.deadline is not None:
            # every countdown shows exactly `timer`: two widgets told by views a moment apart
            # (one redrawn, one skipping an unchanged view) showed 0:41 beside 0:42
            widget.deadline = stopped + timer
        # drawn again at once: its last tick, before the clock stopped, may have drawn a
        # second less (a busy machine: 0:41 for 0:42 until the next tick)
        redraw = getattr(widget, "_tick", None) or getattr(widget, "_draw", None)
        if callable(redraw):
            redraw()


REVEALS = 30.0
"""Seconds a scene may wait for a table's reveals to be over (nine definitions, one by one)."""


def host_scene(
    make: Callable[[], Table],
    *,
    last_apart: bool = False,
    beat: int | None = None,
    timer: float | None = None,
    prepare: Callable[[HostApp], None] | None = None,
) -> Callable[[], tuple[App[Any], RunBefore]]:
    """The host app on `make()`'s room. `prepare(app)` runs once the app is up (the door's
    alerts live in its server). With `last_apart`, the events of the room's last change
    reach the table in a message of their own once the history has been told (and its reveal
    count is over), as they would in play: the table's banners show the real way. With `beat`,
    the picture is taken on that beat of a reveal's count (0: "1…") instead of after it. With
    `timer`, the room's countdown shows that many seconds left, and stands still."""

    def build() -> tuple[App[Any], RunBefore]:
        table = built(make)
        table.room.history.clear()  # told below, the way the app hears it in play
        app = HostApp(table.room, host="127.0.0.1", port=0, advertise=False)
        history = table.history() if last_apart else list(table.events)

        async def run_before(pilot: Pilot) -> None:
            await until(lambda: hasattr(app.screen, "refresh_room"), pilot)
            if timer is not None:
                table.room.countdown.deadline = asyncio.get_running_loop().time() + timer
                # every view tells exactly `timer` left, however long a busy machine takes to
                # tell it (the room's own clock ran on: 0:40 was shown for 0:42)
                table.room.countdown.seconds_left = lambda: timer  # type: ignore[method-assign]
                freeze_clocks(app)
            app.addresses = list(ADDRESSES)
            app.server.port = PORT  # shown only; the real socket listens elsewhere
            app.web_url = WEB_URL  # shown only: the scenes serve no web seats
            if prepare is not None:
                prepare(app)
            app.post_message(HostApp.RoomChanged(history))
            await pilot.pause()
            await until(lambda: counting(app) is None, pilot, REVEALS)
            if last_apart:
                if beat is not None:  # the count waits for the scene: it steps it to `beat`
                    counter: Any = app.screen.query_one("#game-table")
                    counter.beats.paused = True
                app.post_message(HostApp.RoomChanged(list(table.batches[-1])))
                await pilot.pause()
                if beat is None:
                    await until(lambda: counting(app) is None, pilot, REVEALS)
                else:  # (a busy machine's poll could miss a beat of a count that ran on)
                    await until(lambda: counting(app) == 0, pilot)
                    for _ in range(beat):
                        counter.beats.step()
            await settle(pilot)

        return app, run_before

    return build


def wire(data: Any) -> Any:
    """As the client gets it: through msgpack."""
    return msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False, strict_map_key=False)


def player_scene(
    make: Callable[[], Table] | None = None,
    *,
    you: int = 0,
    link: str = "connected",
    frames: tuple[dict[str, Any], ...] = (),
    link_info: dict[str, Any] | None = None,
    address: tuple[str, int] | None = None,
    name: str = "",  # the name the player typed before (shown again after a refusal)
    screen: str | None = None,
    hosts: tuple[HostInfo, ...] = (),
    timer: float | None = None,
    open_table: bool = False,
    watch: bool = False,
) -> Callable[[], tuple[App[Any], RunBefore]]:
    """A player app, told what the host would tell it: views and events of `make()`'s room,
    then `frames`, then the link state `link`. With `timer`, the room's countdown shows that
    many seconds left, and stands still."""

    def build() -> tuple[App[Any], RunBefore]:
        table = built(make) if make is not None else None
        app = ClientApp(address, discover=False)  # a name would make it connect at once
        app.watching = watch  # in the audience: the table's view, no seat

        async def run_before(pilot: Pilot) -> None:
            await until(lambda: hasattr(app.screen, "show_link"), pilot)
            app.player_name = name or app.player_name
            if open_table and address is not None:  # as the host list shows an open table
                from tui.client.screens import JoinScreen

                app.switch_screen(JoinScreen(*address, needs_code=False))
                await until(lambda: app.screen.query("#code"), pilot)
            if table is not None:
                room = table.room
                app.post_message(ClientApp.LinkChanged("connected", None))
                view = {
                    "type": "view",
                    "version": room.version,
                    "room": room.summary()
                    | {"you": None if watch else you, "timer_seconds": timer},
                    "game": room.game_view(None if watch else you),
                    "events": table.events,
                }
                app.post_message(ClientApp.told(wire(view)))
            for frame in frames:
                app.post_message(ClientApp.told(wire(frame)))
            if link != "connected" or link_info is not None:
                app.post_message(ClientApp.LinkChanged(link, link_info))
            await pilot.pause()
            if screen is not None:
                await until(lambda: type(app.screen).__name__ == screen, pilot)
            if timer is not None:
                await until(lambda: bool(app.screen.query("#hand")), pilot)
                freeze_clocks(app, timer)
            if hosts:
                find = app.screen
                find.hosts = {h.key: h for h in hosts}  # type: ignore[attr-defined]
                find._show_hosts()  # type: ignore[attr-defined]
            await settle(pilot)

        return app, run_before

    return build


async def reach(scene: Scene, run_before: RunBefore, pilot: Pilot) -> None:
    """Bring a scene's app to the moment its picture shows: its own set-up, its keys, and the
    screen settled (what the snapshots, the clipping check and the screenshots all look at)."""
    await run_before(pilot)
    await pilot.pause()
    await pilot.press(*scene.press)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()


def game_scenes() -> tuple[Scene, ...]:
    """Every game's scenes: the `SCENES` of a `scenes` module beside its screens (a game
    without one has none), in the lobby's order of the games."""
    import importlib
    import importlib.util

    from games.base import found_in
    from tui.games import SCREENS_GROUP

    order = {game_id: number for number, game_id in enumerate(GAMES)}
    packages = found_in(SCREENS_GROUP, "tui.games")
    found: list[Scene] = []
    for name in sorted(packages, key=lambda name: order.get(name, len(order))):
        module = f"{packages[name].partition(':')[0]}.scenes"
        if importlib.util.find_spec(module) is not None:
            found += importlib.import_module(module).SCENES
    return tuple(found)
