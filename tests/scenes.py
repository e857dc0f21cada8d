"""The app scenes: every screen of both apps in a fixed, deterministic state.

They are the one place the app states are built: the snapshot tests
(`tests/tui/test_snapshots.py`), the play tests and the screenshot tool
(`tools/screenshots.py`) all take them from here, so a screenshot and its snapshot always show
the same thing. Every scene is deterministic: a fixed room code, room name and id, seeded
randomness, no zeroconf, no clocks or bots running, the shown address and port fixed, no
blinking cursor and no notification toasts.

Host scenes build a real `Room` and play it forward with real actions *before* the app starts
(no event loop yet, so no timers or bot moves get armed), then hand the room's events to the
app through its own `RoomChanged` message so the feed is narrated the real way. Player scenes
feed a `ClientApp` the frames the host would send (`view`, `kicked`) and the link states its
connection reports, through the app's own messages — no sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import msgpack
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from games import GAMES
from games.trex.stacked import byebye, stack
from net.discovery import HostInfo
from net.protocol import DEFAULT_PORT, PROTOCOL_VERSION
from net.room import Room
from tests.waiting import until
from tui.client.app import ClientApp
from tui.host.app import HostApp
from tui.i18n import lang

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


# --- the game on the table ----------------------------------------------------------------


def table_game_id() -> str:
    """The real Tally Up! when it is installed, else the tests' tiny Peek game."""
    return "tallyup" if "tallyup" in GAMES else "peek"


@contextlib.contextmanager
def table_game() -> Iterator[str]:
    """Registers Peek for the duration if Tally Up! is missing (and only then: another game in
    the registry would change the lobby's footer)."""
    if "tallyup" in GAMES:
        yield "tallyup"
        return
    from games.base import register
    from tests.fakegame import PEEK

    register(PEEK)
    try:
        yield "peek"
    finally:
        GAMES.pop("peek", None)


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
            game_id=game_id or table_game_id(),
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

    def choose(self, seat: int, *dice: str) -> None:
        self.act(seat, {"type": "choose_dice", "dice": list(dice)})

    def roll(self, seat: int, *faces: int) -> None:
        """The Main Roll with these faces (one per chosen die, in table order), or the Up Die
        with one face."""
        self.act(seat, {"type": "roll"}, faces)

    def seal(self, seat: int, side: str) -> None:
        self.act(seat, {"type": "token", "side": side})

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


def lobby_table() -> Table:
    """Three seats: a name full of brackets, a player who is away, a bot."""
    table = Table()
    table.seat(ODD_NAME)
    table.seat("Boris", here=False)
    if table.room.game and table.room.game.bots:
        table.room.add_bot("normal" if "normal" in table.room.game.bots else None)
    else:
        table.seat("Vera")
    return table


def full_lobby_table() -> Table:
    """Every seat taken (12, more than the game seats: the host must send some away), a long
    name, one away; the last seat is the player's."""
    table = Table()
    for number, name in enumerate([*FULL_NAMES, "Ilya", "Kira", "Lev", "Mila"]):
        table.seat(name, here=number != 1)
    return table


FULL_NAMES = ["Anastasia-Maria", "Boris", "Vera", "Gleb", "Darya", "Yegor", "Zhenya", "Zoya"]


def full_game_table(game_id: str = "tallyup", phase: str | None = None) -> Table:
    """As many players as the game seats (Tally Up! and Tesauro 10, T-Rex 8), a few moves
    into a game: the seat lists and the players' boxes at their longest."""
    table = Table(game_id=game_id)
    game = table.room.game
    assert game is not None
    for name in [*FULL_NAMES, "Ilya", "Kira"][: game.max_players]:
        table.seat(name)
    table.room.start(lang=lang())
    if phase is not None:
        table.play(lambda v: v["phase"] == phase)
    elif game_id == "tallyup":
        table.play(lambda v: v["round"] >= 2 and v["phase"] == "choice" and v["running_total"] > 0)
    else:
        moves = itertools.count()
        table.play(lambda v: next(moves) >= 12)
    return table


def playing_table() -> Table:
    """A game under way: a few rounds in, a sealed choice open, someone already locked in."""
    table = lobby_table()
    table.room.connected(1, returning=True)
    table.room.start(lang=lang())
    if table.room.game_id == "tallyup":
        table.play(
            lambda v: (
                v["round"] >= 2
                and v["phase"] == "choice"
                and v["running_total"] > 0
                and any(v["locked"])
            )
        )
    return table


def finished_table() -> Table:
    """A short game played to its end; then Boris closes his laptop."""
    table = lobby_table()
    table.room.connected(1, returning=True)
    if table.room.game_id == "tallyup":
        table.room.set_option("target", 500)
    table.room.start(lang=lang())
    table.play(lambda v: False)
    if table.room.game_id != "tallyup":
        for seat in range(table.room.players):
            with contextlib.suppress(Exception):
                table.room.act(seat, {"type": "reveal"})
    assert table.room.phase == "over", table.room.phase
    table.room.disconnected(1)
    return table


def away_table() -> Table:
    """A game under way whose sealed choice waits for Boris, whose laptop went to sleep 12 s
    ago: a bot plays for him in 8 s."""
    table = playing_table()
    room = table.room
    if room.game_id == "tallyup":
        table.play(lambda v: v["phase"] == "choice" and not v["locked"][BORIS])
    room.disconnected(BORIS)
    now = room.clock()
    room.seats[BORIS].away_since = now - 12
    room.graces.due[BORIS] = now + 8
    room.summary()
    return table


def claimed_table() -> Table:
    """A game under way; Boris's laptop is gone, and someone asks for his seat by name."""
    table = playing_table()
    table.room.disconnected(BORIS)
    table.room.claim("Boris", CODE, "192.168.1.77:51234", lambda token: None)
    return table


def at_the_door(app: HostApp) -> None:
    """A stranger guessed the room code nine times."""
    for _ in range(9):
        app.server.doorman.wrong_code("192.168.1.66")


def browser_pages(app: HostApp) -> None:
    """Four browser pages open at the table: one seated (as its app would be, through its
    relay key), one watching, one from a long IPv6 address with no seat yet, one old."""
    import time
    from pathlib import Path

    from aiohttp import web

    from tests.webseats import Door
    from tui.web.gateway import Page, WebSeats

    door = Door()
    seats = WebSeats(("127.0.0.1", PORT), limit=16, state_root=Path("/nonexistent"), door=door)
    now = time.monotonic()
    for n, (address, place, minutes) in enumerate(
        (
            ("192.168.1.33", ("seat", "Wendy"), 12),
            ("192.168.1.34", ("watching", ""), 3),
            ("2001:db8:85a3:1234:5678:8a2e:370:7334", None, 0),
            ("192.168.1.66", None, 2),
        )
    ):
        page = Page(f"{n:032x}", address, web.WebSocketResponse(), door.page_key())
        page.opened = page.held = now - minutes * 60 - 5
        if place is not None:
            door.places[page.key] = place
        seats.pages[page.session] = page
    app.web = seats


LONG_CODE = "KQXMTB"


def under_attack(app: HostApp) -> None:
    """Fifty addresses guessed the code twice each: the table made its code longer (the
    scene's fixed one, where the server draws it)."""
    doorman = app.server.doorman
    for number in range(50):
        for _ in range(2):
            doorman.wrong_code(f"192.168.7.{number + 1}")
    assert doorman.under_attack
    app.room.lengthen_code(LONG_CODE)


ANN, BORIS, BOT = 0, 1, 2  # the seats of lobby_table(); the player's scenes are Ann's

TALLYUP_MOMENTS = (
    "tally-up",
    "choose-dice",
    "sealed",
    "reveal",
    "bust",
    "up-die",
    "end",
)


def tallyup_table(moment: str) -> Table:
    """One scripted game of Tally Up! to 1000, every die's face chosen, stopped at `moment`
    (one of TALLYUP_MOMENTS, in the order the game reaches them). Its last action is the one
    that brought the moment: host scenes hand its events to the table on their own.

    Round 1 (Ann): 220, Boris OUT; 90 more, Ann and Bot 1 OUT. Round 2 (Boris): 120, Bot 1
    OUT; bust, Ann and Boris lose 120. Round 3 (Bot 1): three stars, Ann shouts. Round 4
    (Ann): chooses, 80, Ann seals IN, Boris OUT, Bot 1 IN; bust. Round 5 (Boris): circles,
    the Up Die ×2, then everyone OUT in turn. Round 6 (Bot 1): Ann banks 240 and wins."""
    assert moment in TALLYUP_MOMENTS, moment
    assert "tallyup" in GAMES, "these scenes need Tally Up!"
    table = lobby_table()
    room = table.room
    room.connected(BORIS, returning=True)
    room.set_option("target", 1000)
    room.start(lang=lang())
    t = table
    # round 1: Ann
    t.choose(ANN, "red", "yellow", "blue")
    t.roll(ANN, 5, 5, 5)  # 100 + 70 + 50
    t.seal(ANN, "in")
    t.seal(BORIS, "out")
    t.seal(BOT, "in")
    t.roll(ANN, 3, 2, 4)  # 50 + 20 + 20: 310
    t.seal(ANN, "out")
    t.seal(BOT, "out")
    # round 2: Boris
    t.choose(BORIS, "orange", "green", "purple")
    t.roll(BORIS, 3, 4, 3)  # 60 + 40 + 20
    t.seal(ANN, "in")
    t.seal(BORIS, "in")
    t.seal(BOT, "out")
    t.roll(BORIS, 5, 0, 0)  # two stars: Ann and Boris lose 120
    # round 3: Bot 1
    t.choose(BOT, "red", "orange", "yellow")
    t.roll(BOT, 0, 0, 0)  # three stars
    if moment == "tally-up":
        return t
    t.act(ANN, {"type": "shout"})
    for seat in (ANN, BORIS, BOT):
        t.seal(seat, "out")
    # round 4: Ann
    if moment == "choose-dice":
        return t
    t.choose(ANN, "red", "yellow", "blue")
    t.roll(ANN, 3, 2, 3)  # 50 + 20 + 10
    t.seal(BORIS, "out")
    t.seal(ANN, "in")
    if moment == "sealed":
        return t
    t.seal(BOT, "in")  # the reveal: Boris banks 80
    if moment == "reveal":
        return t
    t.roll(ANN, 0, 0, 5)  # two stars: Ann and Bot 1 lose 80
    if moment == "bust":
        return t
    # round 5: Boris
    t.choose(BORIS, "orange", "green", "purple")
    t.roll(BORIS, 4, 3, 3)  # (70) + (40) + 20: circles, the Up Die is due
    t.seal(ANN, "in")
    t.seal(BORIS, "in")
    t.seal(BOT, "out")
    t.roll(BORIS, 5)  # the Up Die: ×2, 260
    if moment == "up-die":
        return t
    t.seal(ANN, "out")
    t.seal(BORIS, "in")
    t.roll(BORIS, 3, 5, 4)  # 60 + 40 + 20
    t.seal(BORIS, "out")
    # round 6: Bot 1
    t.choose(BOT, "red", "orange", "yellow")
    t.roll(BOT, 5, 5, 5)  # 100 + 70 + 70
    t.seal(ANN, "out")  # 1010: past the target
    t.seal(BORIS, "in")
    t.seal(BOT, "in")
    t.roll(BOT, 0, 0, 3)  # two stars: Boris and Bot 1 lose 240, the game is over
    assert room.phase == "over", room.game_view(None)
    return t


def tallyup_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return tallyup_table(moment)

    make.__name__ = f"tallyup_{moment.replace('-', '_')}"
    return make


# --- T-Rex: one scripted game, every shuffle's top cards chosen -----------------------------


class Shuffles(random.Random):
    """T-Rex's randomness: the room still shuffles every pile itself (and the rules check the
    permutation), but the cards a scene queued come up on top (`games.trex.stacked.stack`), the
    rest of the pile keeping its order beneath them; with nothing queued, seeded chance."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.room: Room | None = None
        self.queued: list[Sequence[Any]] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if not self.queued:
            super().shuffle(x)
            return
        assert self.room is not None and self.room.state is not None
        x[:] = stack(self.room.state, self.queued.pop(0))


class TRexTable(Table):
    """A T-Rex room of people (T-Rex has no bots) whose every shuffle brings up named cards."""

    def __init__(self, *names: str) -> None:
        self.cards = Shuffles(1)
        super().__init__("trex", rng=self.cards)
        self.cards.room = self.room
        for player in names:
            self.seat(player)

    def start(self, *tops: Sequence[Any]) -> None:
        """The game begins; `tops` are the cards each setup shuffle puts on top, in the order
        the room shuffles: the red, blue and yellow actions (an index into the colour's texts;
        the first is turned up), then the number deck (the hands, seat 0 first, then every
        later draw in order: it is not shuffled again unless it runs out)."""
        self.cards.queued = list(tops)
        self.room.start(lang=lang())
        assert not self.cards.queued, f"start: shuffles left over {self.cards.queued}"

    def act(self, seat: int, action: dict[str, Any], tops: Sequence[Sequence[Any]] = ()) -> None:
        """A real action of `seat`; `tops`: the top cards of the shuffles it sets off, if any."""
        self.cards.queued = list(tops)
        self.room.act(seat, action)
        assert not self.cards.queued, f"{action}: shuffles left over {self.cards.queued}"

    def offer(self, seat: int, to: int) -> None:
        self.act(seat, {"type": "offer", "to": to})

    def accept(self, seat: int, offerer: int, tops: Sequence[Sequence[Any]] = ()) -> None:
        self.act(seat, {"type": "accept", "from": offerer}, tops)

    def match(self, offerer: int, accepter: int, tops: Sequence[Sequence[Any]] = ()) -> None:
        self.offer(offerer, accepter)
        self.accept(accepter, offerer, tops)

    def call(self, seat: int, match: bool) -> None:
        self.act(seat, {"type": "call", "match": match})


BOB, CID, DANA = 1, 2, 3  # the seats of the T-Rex game (Ann is seat 0 here too)
TREX_NAMES = ("Ann", "Bob", "Cid", "Dana")
TREX_ACTIONS = ([1], [0], [7])
"""The red, blue and yellow actions turned up (indexes into each language's texts: some of the
longest of both decks, and the blue one is "Be a T-Rex making its bed")."""

TREX_MOMENTS = ("fresh", "offer", "match", "byebye", "vote", "end", "coop")


def trex_table(moment: str) -> TRexTable:
    """One scripted game of T-Rex for four (20 good tokens, 10 bad), every card chosen, stopped
    at `moment` (one of TREX_MOMENTS); "coop" is a game of two of its own (`trex_coop_table`).

    Dealt: Ann blue 7, Bob yellow 7, Cid red 3, Dana red 9. Ann offers Bob; Cid offers Ann.
    Bob accepts: 7 and 7, exact. Dana skips and draws a bye-bye: the red action (Ann's colour
    now) changes. Ann accepts Cid's offer: 3 and 8, far. Dana ⇄ Cid 5 and 5; Bob ⇄ Dana 6 and
    6; Ann ⇄ Cid 2 and 3; Dana ⇄ Bob 10 and 10; Ann ⇄ Cid 5 and 4 empties the good pile with
    Bob and Dana tied on 6: sudden death in blue. Cid votes Dana; then Ann votes Dana, the
    T-Rex."""
    assert moment in TREX_MOMENTS, moment
    if moment == "coop":
        return trex_coop_table()
    t = TRexTable(*TREX_NAMES)
    t.start(
        *TREX_ACTIONS,
        [
            *[("blue", 7), ("yellow", 7), ("red", 3), ("red", 9)],  # the hands
            *[("red", 8), ("blue", 6)],  # Ann, Bob after their match
            *[byebye("red"), ("yellow", 5)],  # Dana's skip: a bye-bye, then a card
            *[("blue", 5), ("yellow", 2)],  # Cid, Ann
            *[("red", 6), ("yellow", 3)],  # Dana, Cid
            *[("yellow", 10), ("blue", 10)],  # Bob, Dana
            *[("red", 5), ("blue", 4)],  # Ann, Cid
            *[("red", 4), ("blue", 3)],  # Dana, Bob
        ],
    )
    if moment == "fresh":
        return t
    t.offer(ANN, BOB)
    t.offer(CID, ANN)
    if moment == "offer":
        return t
    t.accept(BOB, ANN)  # 7 and 7: exact, +2 each
    if moment == "match":
        return t
    t.act(DANA, {"type": "skip"})  # the red action changes
    if moment == "byebye":
        return t
    t.accept(ANN, CID)  # 3 and 8: far, a bad token each
    t.match(DANA, CID)  # 5 and 5
    t.match(BOB, DANA)  # 6 and 6
    t.match(ANN, CID)  # 2 and 3: close
    t.match(DANA, BOB)  # 10 and 10
    t.match(ANN, CID, tops=[["blue"]])  # 5 and 4: the good pile is empty, sudden death in blue
    t.act(CID, {"type": "vote", "for": DANA})
    if moment == "vote":
        return t
    t.act(ANN, {"type": "vote", "for": DANA})
    assert t.room.phase == "over", t.room.game_view(None)
    return t


def trex_coop_table() -> TRexTable:
    """The two-player game: Ann red 5, Bob yellow 6, both call MATCH (right: one token to the
    box); then Ann blue 8, Bob red 3, and Bob has called."""
    t = TRexTable(*TREX_NAMES[:2])
    t.start(*TREX_ACTIONS, [("red", 5), ("yellow", 6), ("blue", 8), ("red", 3)])
    t.call(ANN, True)
    t.call(BOB, True)
    t.call(BOB, False)
    return t


def trex_two_offers() -> Table:
    """The offer moment, and Dana offers Ann her card too: two offers wait for Ann."""
    t = trex_table("offer")
    t.offer(DANA, ANN)
    return t


def trex_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return trex_table(moment)

    make.__name__ = f"trex_{moment}"
    return make


# --- Tesauro: one scripted game, every deal chosen --------------------------------------------


class Deals(random.Random):
    """Tesauro's randomness: the room still shuffles (and the rules check the permutation), but
    the dictionary comes up with the chosen cards on top (`games.tesauro.stacked`) and each
    turn's Genius card goes to the seat queued for it (None: the card aside)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.room: Room | None = None
        self.cards: list[int] = []
        self.genius: list[int | None] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        from games.tesauro.stacked import deal_outcome, dictionary_outcome

        assert self.room is not None and self.room.state is not None
        state = self.room.state
        if state["chance"]["deck"] == "dictionary":
            x[:] = dictionary_outcome(len(x), self.cards)
        else:
            x[:] = deal_outcome(state, self.genius.pop(0) if self.genius else None)


TESAURO_NAMES = ("Ann", "Bob", "Cid", "Dana")
TESAURO_WORDS = {
    # the word each turn plays (its card is put on top of the deck, in this order); the
    # spoken game plays the last one
    "en": ("posset", "clerihew", "schlimazel", "lahar", "frangipane", "bornite",
           "hamartia", "swivet"),
    "ru": ("ратафия", "офеня", "бламанже", "майорат", "шаньга", "взвар", "буза", "повилика"),
}  # fmt: skip
TESAURO_BLUFFS = {
    "en": (
        "A [bold]fancy[/bold] knot that sailors use to join two ropes of different sizes.",
        "A small wading bird of salt marshes, known for its laughing call at dusk.",
        "An old word for a clumsy dancer.",
        "A copper cooking pot with a long handle, used for sugar work.",
        "A tax once paid on every window of a house.",
        "The part of a harp that holds the strings' upper ends.",
        "A folk remedy for hiccups made of vinegar and honey.",
        "A gathering of neighbours to bring in one farmer's hay.",
    ),
    "ru": (
        "Морской [bold]узел[/bold], которым связывают два троса разной толщины.",
        "Маленькая болотная птица, которая по вечерам кричит, будто смеётся.",
        "Старинное название неуклюжего танцора.",
        "Медная кастрюля с длинной ручкой для варки сахара.",
        "Налог, который когда-то платили за каждое окно в доме.",
        "Часть арфы, держащая верхние концы струн.",
        "Народное средство от икоты из уксуса и мёда.",
        "Сбор соседей, чтобы помочь одному хозяину убрать сено.",
    ),
}
TESAURO_LONG_BLUFFS = {
    # as long as a definition may be (300 characters): the Sage's list overflows at 80x24
    "en": (
        "A narrow wooden trough, lined with pitch, in which the fishermen of the northern "
        "coast salted their herring for the winter; also the shed where such troughs were "
        "kept, and, by extension, the whole season of salting, which began on the first "
        "frost and ended when the last barrel was sealed.",
        "In old card games, a hand holding no court cards at all, which the player could "
        "show at once to take a small payment from every other player before the deal went "
        "on; a lucky fool's hand, so that the word came to mean any stroke of luck that "
        "rewards a person for having nothing of worth.",
    ),
    "ru": (
        "Узкое деревянное корыто, просмолённое изнутри, в котором рыбаки северного берега "
        "солили на зиму сельдь; также сарай, где держали такие корыта, и вообще вся пора "
        "засолки, что начиналась с первыми заморозками и кончалась, когда закрывали "
        "последнюю бочку.",
        "В старинных карточных играх — рука без единой фигуры, которую игрок мог сразу "
        "показать и взять с каждого понемногу, прежде чем сдача шла дальше; рука "
        "счастливого дурака, и потому так стали называть любую удачу, что награждает "
        "человека за то, что у него ничего нет.",
    ),
}
TESAURO_MOMENTS = (
    "choose",
    "write",
    "typing",
    "judge",
    "judge-long",
    "reveal",
    "next-write",
    "timed-out",
    "silent-genius",
    "aside",
    "tie-break",
    "end",
    "speak",
)


class TesauroTable(Table):
    """A Tesauro room of four people (the game's bots stay home), every deal chosen."""

    def __init__(self, *, spoken: bool = False, long: bool = False) -> None:
        from games.tesauro.deck import load_dictionary

        self.deals = Deals(1)
        super().__init__("tesauro", rng=self.deals)
        self.deals.room = self.room
        for player in TESAURO_NAMES:
            self.seat(player)
        self.lang = lang()
        self.dictionary = load_dictionary(self.lang)
        self.bluffs = list((TESAURO_LONG_BLUFFS if long else TESAURO_BLUFFS)[self.lang])
        words = TESAURO_WORDS[self.lang]
        self.words = [words[-1]] if spoken else list(words[:-1])
        if spoken:
            self.room.set_option("mode", "spoken")

    def card_of(self, word: str) -> int:
        """The card holding `word` (a deck without it: its first cards, in order)."""
        for index, card in enumerate(self.dictionary.cards):
            if any(entry.word == word for entry in card):
                return index
        return self.words.index(word)

    def start(self, *genius: int | None) -> None:
        self.deals.cards = [self.card_of(word) for word in self.words]
        self.deals.genius = list(genius)
        self.room.start(lang=self.lang)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view = self.room.game_view(seat)
        assert view is not None
        return view

    def choose(self) -> None:
        """The reader plays this turn's word."""
        state = self.room.state
        card = self.dictionary.cards[state["card"]]
        word = self.words[state["turn"] - 1]
        entry = next((i for i, e in enumerate(card) if e.word == word), 0)
        self.room.act(state["reader"], {"type": "choose", "entry": entry})

    def tile(self, seat: int, nth: int = 0) -> None:
        """`seat` takes the true tile (the Genius) or the `nth` tile allowed (a Babbler)."""
        allowed = self.view(seat)["allowed"]
        self.room.act(seat, {"type": "tile", "category": allowed[min(nth, len(allowed) - 1)]})

    def define(self, seat: int) -> None:
        view = self.view(seat)
        if view["role"] == "brillante":
            text = view["entry"]["definition"]
        else:
            text = self.bluffs.pop(0)
            self.bluffs.append(text)  # a long game tells the old bluffs again
        self.room.act(seat, {"type": "define", "text": text})

    def give(self, *seats: int) -> None:
        for seat in seats:
            if self.view(seat)["tile"] is None:
                self.tile(seat, nth=seat)
            self.define(seat)

    def judge(self, pick: int | None) -> None:
        sapiente = self.room.state["sapiente"]
        action = {"type": "crazy"} if pick is None else {"type": "pick", "seat": pick}
        self.room.act(sapiente, action)

    def time_out(self) -> None:
        """The thinking time runs out: the host's move, as the room's clock makes it."""
        game = self.room.game
        assert game is not None
        spec = game.timer(self.room.state)
        assert spec is not None, "no clock is running"
        self.room._timeout(spec[1])


def tesauro_table(moment: str) -> TesauroTable:
    """One scripted game of Tesauro for four (typed definitions, one round), every deal chosen,
    stopped at `moment` (one of TESAURO_MOMENTS); "speak" is a spoken game of its own.

    Turn 1: Ann is the Sage, Bob reads, Cid the Genius; Cid and Dana take tiles, Dana gives
    hers; Bob takes his and types (a half-typed definition is the player's scene). Ann picks
    Dana's bluff: Dana takes the card. Turn 2: Bob the Sage, the Genius card aside; Bob declares
    everyone crazy: right, his card. Turn 3: Cid the Sage, Ann the Genius; Cid finds her. Turn 4:
    Dana the Sage, Bob the Genius; Dana declares everyone crazy: wrong, the card goes under.
    Bob, Cid and Dana are tied on 1: tie-break turns with each as the Sage. Bob picks Dana's
    bluff, Cid declares everyone crazy (right: the card was aside), Dana finds the Genius Bob:
    Dana wins with 3."""
    assert moment in TESAURO_MOMENTS, moment
    if moment == "speak":
        return tesauro_spoken_table()
    if moment in ("timed-out", "silent-genius"):
        return tesauro_silent_table(moment)
    t = TesauroTable(long=moment == "judge-long")
    t.start(CID, None, ANN, BOB, CID, None, BOB)
    if moment == "choose":
        return t
    t.choose()
    t.tile(CID)
    t.tile(DANA, nth=7)
    t.define(DANA)
    if moment == "write":
        return t
    t.tile(BOB, nth=4)
    if moment == "typing":
        return t
    t.define(BOB)
    t.define(CID)
    if moment in ("judge", "judge-long"):
        return t
    t.judge(DANA)
    if moment == "reveal":
        return t
    t.choose()
    if moment == "next-write":
        t.tile(CID, nth=2)
        t.tile(DANA, nth=3)
        t.define(DANA)
        return t
    t.give(CID, DANA, ANN)
    t.judge(None)
    if moment == "aside":
        return t
    t.choose()
    t.give(DANA, ANN, BOB)
    t.judge(ANN)
    t.choose()
    t.give(ANN, BOB, CID)
    t.judge(None)
    if moment == "tie-break":
        return t
    t.choose()
    t.give(CID, DANA, ANN)
    t.judge(DANA)
    t.choose()
    t.give(DANA, ANN, BOB)
    t.judge(None)
    t.choose()
    t.give(ANN, BOB, CID)
    t.judge(BOB)
    assert t.room.phase == "over", t.view()
    return t


def tesauro_silent_table(moment: str) -> TesauroTable:
    """The Genius who gave nothing: Ann the Sage, Bob reads, Cid the Genius takes his tile
    and never sends; Bob and Dana send theirs; the time runs out ("timed-out"). Ann declares
    everyone crazy: wrong, a Genius was playing — the card goes under ("silent-genius")."""
    t = TesauroTable()
    t.start(CID)
    t.choose()
    t.tile(CID)
    t.tile(DANA, nth=7)
    t.define(DANA)
    t.tile(BOB, nth=4)
    t.define(BOB)
    t.time_out()
    if moment == "timed-out":
        return t
    t.judge(None)
    return t


def tesauro_spoken_table() -> TesauroTable:
    """The spoken game: Ann the Sage, Bob reads, Dana the Genius; all ready; Bob has spoken and
    Cid speaks now."""
    t = TesauroTable(spoken=True)
    t.start(DANA)
    t.choose()
    for seat in (BOB, CID, DANA):
        t.tile(seat, nth=seat)
        t.room.act(seat, {"type": "done"})
    t.room.act(BOB, {"type": "done"})
    return t


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


def paste(text: str) -> RunBefore:
    """Open the definition field and fill it with `text` as typing would (the field keeps the
    first 300 characters) — 300 key presses take 30 s."""

    async def step(pilot: Pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        field = pilot.app.screen.query_one("#tsh-text", Input)
        field.value = text[: field.max_length]
        field.cursor_position = len(field.value)
        await pilot.pause()

    return step


LONG_DRAFT = (
    "A small three-legged stool that milkmaids carried from cow to cow, so low that the "
    "pail stood between their knees; later any low seat without a back, and in the north "
    "a joking word for a short and sturdy person who will not be moved from an argument "
    "once they have sat down in it, whatever the others say"
)  # 304 characters: the field takes 300


def tesauro_lobby() -> Table:
    """Four seated, Tesauro chosen, without a time limit, two rounds."""
    t = Table("tesauro")
    for player in TESAURO_NAMES:
        t.seat(player)
    t.room.set_option("think_seconds", 0)
    t.room.set_option("rounds", 2)
    return t


def tesauro_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return tesauro_table(moment)

    make.__name__ = f"tesauro_{moment.replace('-', '_')}"
    return make


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


def _counting(app: App[Any]) -> int | None:
    """Which beat of the reveal's 1… 2… 3…! the game's table is on (None: not counting)."""
    for table in app.screen.query("#game-table"):
        beats = getattr(table, "beats", None)
        if beats is not None and beats.beat is not None:
            return beats.beat
    return None


def freeze_clocks(app: App[Any], timer: float | None = None) -> None:
    """A countdown on a game's screen stops where it is: a game widget with a `now` clock
    reads a stopped one. With `timer` (the seconds the view gave), it stops at the moment
    its deadline was set, showing exactly `timer` left: however long a busy machine took
    between the view and this call (a second lost there showed 0:41 for 0:42). A scene's
    timer is never on a half second, where the shown seconds round either way."""
    for widget in app.screen.query("#game-table, #hand, #countdown"):
        if callable(getattr(widget, "now", None)):
            deadline = getattr(widget, "_deadline", None)
            stopped = deadline - timer if timer is not None and deadline else widget.now()
            widget.now = lambda stopped=stopped: stopped  # type: ignore[attr-defined]
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
            await until(lambda: _counting(app) is None, pilot, REVEALS)
            if last_apart:
                if beat is not None:  # the count waits for the scene: it steps it to `beat`
                    counter: Any = app.screen.query_one("#game-table")
                    counter.beats.paused = True
                app.post_message(HostApp.RoomChanged(list(table.batches[-1])))
                await pilot.pause()
                if beat is None:
                    await until(lambda: _counting(app) is None, pilot, REVEALS)
                else:  # (a busy machine's poll could miss a beat of a count that ran on)
                    await until(lambda: _counting(app) == 0, pilot)
                    for _ in range(beat):
                        counter.beats.step()
            await settle(pilot)

        return app, run_before

    return build


def _wire(data: Any) -> Any:
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
                app.post_message(ClientApp.told(_wire(view)))
            for frame in frames:
                app.post_message(ClientApp.told(_wire(frame)))
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


def lan_hosts() -> tuple[HostInfo, ...]:
    """What the host list may hold: a normal table, an open one with a long odd name, and one
    that speaks another protocol version."""

    def host(name: str, address: str, *, protocol: int = PROTOCOL_VERSION, **kw: Any) -> HostInfo:
        values: dict[str, Any] = {
            "game": table_game_id(),
            "players": 3,
            "needs_code": True,
            "room_id": name.lower().replace(" ", "-"),
        }
        values.update(kw)
        return HostInfo(
            name=name,
            addresses=(address,),
            port=PORT,
            protocol=protocol,
            service_name=f"{values['room_id']}._hubbub._tcp.local.",
            **values,
        )

    return (
        host(ROOM_NAME, "192.168.1.20"),
        host(
            "[red]Kitchen table with a very long name indeed",
            "192.168.1.31",
            players=7,
            needs_code=False,
        ),
        host("Old laptop", "192.168.1.44", protocol=PROTOCOL_VERSION + 1, players=0),
    )


# --- every scene ------------------------------------------------------------------------------

SCENES: tuple[Scene, ...] = (
    # the host: the table on the big screen
    Scene("host-lobby-empty", "Host lobby, nobody seated yet", host_scene(Table)),
    Scene(
        "host-lobby",
        "Host lobby: a player named [bold]Ann (shown literally), one away, a bot",
        host_scene(lobby_table),
        big=True,
    ),
    Scene("host-lobby-help", "Help of the lobby (?)", host_scene(lobby_table), ("question_mark",)),
    Scene(
        "host-lobby-web",
        "The browser seats' address as a QR code, for a phone's camera (w on the lobby)",
        host_scene(lobby_table),
        ("w",),
    ),
    Scene(
        "host-web-pages",
        "The browser pages open at the table: where each sits, how long it has been open (p on w)",
        host_scene(lobby_table, prepare=browser_pages),
        ("w", "p"),
    ),
    Scene(
        "host-web-pages-help",
        "Help of the browser pages (?)",
        host_scene(lobby_table, prepare=browser_pages),
        ("w", "p", "question_mark"),
    ),
    Scene(
        "host-lobby-kick-confirm",
        "Kick confirmation (k on the lobby)",
        host_scene(lobby_table),
        ("k",),
    ),
    Scene(
        "host-lobby-bot",
        "How strong a bot? (b on the lobby of a game with bots of several strengths)",
        host_scene(lobby_table),
        ("b",),
        big=True,
    ),
    Scene("host-table", "The table while a game is on", host_scene(playing_table), big=True),
    Scene(
        "host-table-help", "Help of the table (?)", host_scene(playing_table), ("question_mark",)
    ),
    Scene(
        "host-table-kick", "Pick a seat to kick (k on the table)", host_scene(playing_table), ("k",)
    ),
    Scene(
        "host-table-end-confirm",
        "End-the-game confirmation (e on the table)",
        host_scene(playing_table),
        ("e",),
        snapshot=False,
    ),
    Scene(
        "host-table-away",
        "The table waits for a player who is away, and says when a bot steps in",
        host_scene(away_table),
        big=True,
    ),
    Scene(
        "host-table-door",
        "At the door: a seat asked for by name, a stranger guessing the code",
        host_scene(claimed_table, prepare=at_the_door),
        big=True,
    ),
    Scene(
        "host-lobby-attack",
        "Many addresses guessed the room code: it is 6 letters now, and the lobby says why",
        host_scene(lobby_table, prepare=under_attack),
        big=True,
    ),
    Scene(
        "host-table-attack",
        "Mid-game, the code made longer against many guessers: the new code, for late comers",
        host_scene(playing_table, prepare=under_attack),
        big=True,
    ),
    Scene(
        "host-lobby-quit",
        "Quitting with players seated asks first",
        host_scene(lobby_table),
        ("q",),
    ),
    Scene("host-results", "Results of a finished game", host_scene(finished_table), big=True),
    Scene(
        "host-results-help",
        "Help of the results (?)",
        host_scene(finished_table),
        ("question_mark",),
        snapshot=False,
    ),
    # the player: one laptop each
    Scene("player-find", "Find a table: discovery off, nothing found", player_scene()),
    Scene(
        "player-find-hosts",
        "Find a table: three tables found, one of another version",
        player_scene(hosts=lan_hosts()),
        big=True,
    ),
    Scene(
        "player-find-help",
        "Help of the host list (?)",
        player_scene(),
        ("question_mark",),
        snapshot=False,
    ),
    Scene(
        "player-join",
        "Join: name and room code",
        player_scene(address=(ADDRESSES[0], PORT)),
        big=True,
        phone=("en",),
    ),
    Scene(
        "player-join-watch",
        "Join to watch (F2): the room code only, no seat",
        player_scene(address=(ADDRESSES[0], PORT)),
        ("f2",),
    ),
    Scene(
        "player-join-bad-code",
        "Join refused: wrong room code",
        player_scene(
            address=(ADDRESSES[0], PORT),
            name="Ann",
            link="refused",
            link_info={"code": "bad_code", "message": "the room code is wrong"},
        ),
    ),
    Scene(
        "player-join-name-taken",
        "Join refused: the name is taken (maybe by the seat its player left mid-game)",
        player_scene(
            address=(ADDRESSES[0], PORT),
            name="Ann",
            link="refused",
            link_info={"code": "name_taken", "message": "that name is taken"},
        ),
        snapshot=False,
    ),
    Scene(
        "player-join-open",
        "Join an open table: no code to type; a name typed replaces the one offered",
        player_scene(address=(ADDRESSES[0], PORT), open_table=True),
    ),
    Scene(
        "player-wait-claim",
        "A lost laptop's seat, asked for by name: waiting for the host to agree",
        player_scene(
            lobby_table,
            screen="WaitScreen",
            you=BORIS,
            link="pending",
            link_info={"type": "pending", "reason": "claim", "seat": BORIS},
            name="Boris",
        ),
    ),
    Scene(
        "player-game-leave",
        "q mid-game asks first: a bot plays the seat to the end",
        player_scene(playing_table, screen="GameScreen"),
        ("q",),
    ),
    Scene(
        "player-gone-resumable",
        "The host closed the table mid-game: it can be resumed, and the app waits for it",
        player_scene(
            playing_table,
            screen="GoneScreen",
            frames=({"type": "kicked", "reason": "closed", "resumable": True},),
        ),
    ),
    Scene(
        "player-join-help",
        "Help of the join screen (F1)",
        player_scene(address=(ADDRESSES[0], PORT)),
        ("f1",),
    ),
    Scene(
        "player-wait",
        "Seated in the lobby, waiting for the host",
        player_scene(lobby_table, screen="WaitScreen"),
        big=True,
        phone=("ru",),
    ),
    Scene(
        "player-wait-full",
        "Seated in a full lobby (12 seats), the player's own the last",
        player_scene(full_lobby_table, screen="WaitScreen", you=11),
        snapshot=False,
    ),
    Scene(
        "player-game-full",
        "Playing at a table of ten, the player's own seat the last",
        player_scene(full_game_table, screen="GameScreen", you=9),
        snapshot=False,
    ),
    Scene(
        "host-table-full",
        "The table of a game of ten: the total and the roll on a line each",
        host_scene(full_game_table),
        snapshot=False,
    ),
    Scene(
        "host-table-full-trex",
        "On a Scale of One to T-Rex with eight players (its most)",
        host_scene(lambda: full_game_table("trex")),
        snapshot=False,
    ),
    Scene(
        "host-table-full-tesauro",
        "Tesauro with ten players (its most)",
        host_scene(lambda: full_game_table("tesauro")),
        snapshot=False,
    ),
    Scene(
        "host-table-full-tesauro-judge",
        "Tesauro with ten players: the nine definitions read out, the Sage to judge",
        host_scene(lambda: full_game_table("tesauro", phase="judge")),
        snapshot=False,
    ),
    Scene(
        "player-game-full-tesauro-judge",
        "The Sage's hand at a Tesauro table of ten: nine definitions to judge",
        player_scene(lambda: full_game_table("tesauro", phase="judge"), screen="GameScreen"),
        snapshot=False,
    ),
    Scene(
        "player-game-full-trex",
        "A player's hand at a T-Rex table of eight",
        player_scene(lambda: full_game_table("trex"), screen="GameScreen", you=7),
        snapshot=False,
    ),
    Scene(
        "player-game-full-tesauro",
        "A player's hand at a Tesauro table of ten",
        player_scene(lambda: full_game_table("tesauro"), screen="GameScreen", you=9),
        snapshot=False,
    ),
    Scene(
        "host-lobby-full",
        "The host's lobby with every seat taken (12)",
        host_scene(full_lobby_table),
        snapshot=False,
    ),
    Scene(
        "player-wait-help",
        "Help of the waiting screen (?)",
        player_scene(lobby_table, screen="WaitScreen"),
        ("question_mark",),
        snapshot=False,
    ),
    Scene(
        "player-game",
        "Playing: the player's private screen",
        player_scene(playing_table, screen="GameScreen"),
        big=True,
    ),
    Scene(
        "player-game-reconnecting",
        "Playing, the link lost: the reconnecting bar",
        player_scene(playing_table, screen="GameScreen", link="reconnecting"),
    ),
    Scene(
        "player-game-help",
        "Help of the game screen (?)",
        player_scene(playing_table, screen="GameScreen"),
        ("question_mark",),
        phone=("en",),
    ),
    Scene(
        "player-results",
        "The results on a player's screen",
        player_scene(finished_table, screen="PlayerResultsScreen"),
        big=True,
    ),
    Scene(
        "player-results-help",
        "Help of the results (?)",
        player_scene(finished_table, screen="PlayerResultsScreen"),
        ("question_mark",),
        snapshot=False,
    ),
    Scene(
        "player-gone",
        "Kicked by the host",
        player_scene(frames=({"type": "kicked", "reason": "kicked"},), screen="GoneScreen"),
    ),
    # Tally Up! in every phase, one scripted game (tallyup_table), the table and Ann's laptop
    Scene(
        "host-tallyup-choose-dice",
        "Tally Up! table: the active player chooses dice",
        host_scene(tallyup_at("choose-dice"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-choose-dice",
        "Tally Up! player: choosing dice, three picked with number keys (1 3 5), the odds",
        player_scene(tallyup_at("choose-dice"), screen="GameScreen"),
        ("1", "3", "5"),
        big=True,
        snapshot=("en-80x24",),
        phone=("en",),
    ),
    Scene(
        "host-tallyup-sealed",
        "Tally Up! table: the sealed choice, two of three locked in",
        host_scene(tallyup_at("sealed"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-sealed",
        "Tally Up! player: the sealed choice, IN sealed",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-watch-tallyup-sealed",
        "Tally Up! watched from a laptop (join --watch): the public table, nobody's side",
        player_scene(tallyup_at("sealed"), screen="WatchScreen", watch=True),
        big=True,
    ),
    Scene(
        "player-tallyup-chart",
        "Tally Up! player: the Dice Roll Card (d), every die's faces and risk",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        ("d",),
        snapshot=False,
    ),
    Scene(
        "player-game-story",
        "Playing on a phone: the seats and the whole story (l), which have no room beside the hand",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        ("l",),
        snapshot=False,
        phone_only=True,
    ),
    Scene(
        "host-tallyup-reveal-beat",
        "Tally Up! table: the reveal's count, on 3…!",
        host_scene(tallyup_at("reveal"), last_apart=True, beat=2),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-reveal",
        "Tally Up! table: right after the reveal, Boris OUT and banked",
        host_scene(tallyup_at("reveal"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-reveal",
        "Tally Up! player: right after the reveal, still IN and to roll",
        player_scene(tallyup_at("reveal"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-bust",
        "Tally Up! table: right after a bust (the next round has begun)",
        host_scene(tallyup_at("bust"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tallyup-bust",
        "Tally Up! player: right after a bust",
        player_scene(tallyup_at("bust"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-tally-up",
        "Tally Up! table: three stars, TALLY UP!",
        host_scene(tallyup_at("tally-up"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-tally-up",
        "Tally Up! player: three stars, press Space",
        player_scene(tallyup_at("tally-up"), screen="GameScreen"),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tallyup-up-die",
        "Tally Up! table: the Up Die rolled (×2) beside the last roll",
        host_scene(tallyup_at("up-die"), last_apart=True),
        big=True,
        snapshot=("ru-120x40",),
    ),
    Scene(
        "player-tallyup-up-die",
        "Tally Up! player: the sealed choice after the Up Die",
        player_scene(tallyup_at("up-die"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-end",
        "Tally Up! table: the end, results and the round-by-round chart",
        host_scene(tallyup_at("end")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-end",
        "Tally Up! player: the end",
        player_scene(tallyup_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=False,
    ),
    # T-Rex in every moment, one scripted game for four (trex_table), the table and Ann's laptop
    Scene(
        "host-trex-fresh",
        "T-Rex table: a fresh game for four, the three actions, the piles full",
        host_scene(trex_at("fresh"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-card",
        "T-Rex player: the card to perform (its action, the level big and on a 1..10 scale)",
        player_scene(trex_at("fresh"), screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-trex-offer",
        "T-Rex player: Cid offers Ann his card (a accept, x decline); her own offer is out to Bob",
        player_scene(trex_at("offer"), screen="GameScreen"),
        big=True,
        snapshot=("ru-80x24",),
        phone=("ru",),
    ),
    Scene(
        "player-trex-pick-offer",
        "T-Rex player: two offers wait, `a` asks whose to accept (its number, or a tap)",
        player_scene(trex_two_offers, screen="GameScreen"),
        ("a",),
        snapshot=False,
    ),
    Scene(
        "player-watch-trex-vote",
        "T-Rex watched (join --watch): the sudden-death vote on the public table",
        player_scene(trex_at("vote"), screen="WatchScreen", watch=True),
        snapshot=False,
    ),
    Scene(
        "host-trex-match",
        "T-Rex table: Bob accepted Ann's offer, 7 and 7, exact",
        host_scene(trex_at("match"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-trex-match",
        "T-Rex player: after the match, both cards told, a new card",
        player_scene(trex_at("match"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-byebye",
        "T-Rex table: Dana skipped and drew a bye-bye, the red action changed",
        host_scene(trex_at("byebye"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-byebye",
        "T-Rex player: the bye-bye changed the action of Ann's card",
        player_scene(trex_at("byebye"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-vote",
        "T-Rex table: sudden death, Bob and Dana tied, their new actions at level 10, one vote in",
        host_scene(trex_at("vote"), last_apart=True),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "player-trex-vote",
        "T-Rex player: Ann votes for a tied player by number",
        player_scene(trex_at("vote"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-end",
        "T-Rex table: the end, the T-Rex and the results",
        host_scene(trex_at("end")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-end",
        "T-Rex player: the end",
        player_scene(trex_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-coop",
        "T-Rex table: the two-player game, a round called right, Bob has called again",
        host_scene(trex_at("coop"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-coop",
        "T-Rex player: the two-player game, call m MATCH or n NO MATCH",
        player_scene(trex_at("coop"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    # Tesauro in every phase, one scripted game for four (tesauro_table), the table and the
    # laptops of the players who act in each moment
    Scene(
        "host-lobby-tesauro",
        "Host lobby with Tesauro chosen: its options (thinking time, typed or spoken, rounds)",
        host_scene(tesauro_lobby),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-lobby-tesauro-help",
        "Host lobby, ? help: what Tesauro's options do",
        host_scene(tesauro_lobby),
        ("question_mark",),
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-help",
        "Tesauro player: help (?) with the rules and every key",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("question_mark",),
        snapshot=False,
    ),
    Scene(
        "host-tesauro-choose",
        "Tesauro table: the first turn, Bob the reader is choosing a word",
        host_scene(tesauro_at("choose"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-choose",
        "Tesauro player: Bob reads, the card's two words to choose from (1 or 2)",
        player_scene(tesauro_at("choose"), you=BOB, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "host-tesauro-write",
        "Tesauro table: the thinking time, the word, two tiles taken, Dana's definition in",
        host_scene(tesauro_at("write"), last_apart=True, timer=42.3),
        big=True,
        snapshot=("en-80x24", "ru-120x40"),
    ),
    Scene(
        "player-tesauro-tiles",
        "Tesauro player: Bob, a Babbler, picks a tile by number (two taken, one the Genius's)",
        player_scene(tesauro_at("write"), you=BOB, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=("en-80x24",),
        phone=("ru",),
    ),
    Scene(
        "player-tesauro-genius",
        "Tesauro player: Cid, the Genius, holding the true tile",
        player_scene(tesauro_at("write"), you=CID, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-typing",
        "Tesauro player: Bob typing his definition (digits go into the field), the count",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
        ("enter", *"A 3-legged stool [b]"),
        big=True,
        snapshot=("en-80x24", "ru-80x24"),
    ),
    Scene(
        "player-tesauro-limit",
        "Tesauro player: Bob pasted past 300 characters: the count at the limit, the whole draft",
        then(
            player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
            paste(LONG_DRAFT),
        ),
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-hurry",
        "Tesauro player: the last seconds, Bob's draft not sent yet: what is lost at time-out",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=7.3),
        ("enter", *"A 3-legged stool"),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "player-tesauro-typing-help",
        "Tesauro player: F1 while typing: the help (? goes into the field)",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
        ("enter", *"A 3-legged stool?", "f1"),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-sent",
        "Tesauro player: Dana's definition is sent, waiting for the others",
        player_scene(tesauro_at("typing"), you=DANA, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-sage-waits",
        "Tesauro player: Ann, the Sage, waits without seeing the definition",
        player_scene(tesauro_at("typing"), you=ANN, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-judge-beat",
        "Tesauro table: the definitions appear one by one (the first)",
        host_scene(tesauro_at("judge"), last_apart=True, beat=0),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-judge",
        "Tesauro table: all three definitions, the Sage judges",
        host_scene(tesauro_at("judge"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-judge",
        "Tesauro player: Ann, the Sage, picks by number or c",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
        phone=("en",),
    ),
    Scene(
        "player-watch-tesauro-judge",
        "Tesauro watched (join --watch): the definitions read out, the Sage to judge",
        player_scene(tesauro_at("judge"), screen="WatchScreen", watch=True),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-long",
        "Tesauro player: Ann, the Sage, with long definitions: more below (PgDn)",
        player_scene(tesauro_at("judge-long"), you=ANN, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-judge-nine",
        "Tesauro player: Ann pressed 9 with three definitions: there are three",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("9",),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-pick",
        "Tesauro player: Ann pressed 2: the confirmation",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("2",),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-crazy",
        "Tesauro player: Ann pressed c: «Everyone's crazy!», to confirm",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("c",),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-reveal",
        "Tesauro table: the reveal, Ann believed Dana (the Genius was Cid); the next turn begins",
        host_scene(tesauro_at("reveal"), last_apart=True),
        big=True,
        snapshot=("en-80x24", "ru-80x24"),
    ),
    Scene(
        "player-tesauro-reveal",
        "Tesauro player: Dana fooled the Sage and took the card",
        player_scene(tesauro_at("reveal"), you=DANA, screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-next-write",
        "Tesauro table: the next turn's thinking time, the last answer still up beside the tiles",
        host_scene(tesauro_at("next-write"), last_apart=True, timer=42.3),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "player-tesauro-timed-out",
        "Tesauro player: Cid, the Genius, did not send in time: his definition was not sent",
        player_scene(tesauro_at("timed-out"), you=CID, screen="GameScreen"),
        snapshot=("en-80x24",),
    ),
    Scene(
        "host-tesauro-silent-genius",
        "Tesauro table: the Genius gave no definition, «Everyone's crazy!» is wrong all the same",
        host_scene(tesauro_at("silent-genius"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-silent-genius",
        "Tesauro player: the reveal of a turn whose Genius gave no definition",
        player_scene(tesauro_at("silent-genius"), you=DANA, screen="GameScreen"),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-aside",
        "Tesauro table: «Everyone's crazy!» — right, the Genius card was aside",
        host_scene(tesauro_at("aside"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-tie-break",
        "Tesauro table: a card under the deck, three tied: the tie-break begins",
        host_scene(tesauro_at("tie-break"), last_apart=True),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "player-tesauro-tie-break",
        "Tesauro player: Cid reads in the tie-break",
        player_scene(tesauro_at("tie-break"), you=CID, screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-end",
        "Tesauro table: the end, Dana wins after the tie-break",
        host_scene(tesauro_at("end")),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-end",
        "Tesauro player: the end, with the last turn's answer",
        player_scene(tesauro_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-speak",
        "Tesauro table, spoken game: Bob has spoken, Cid speaks now, Dana is next",
        host_scene(tesauro_at("speak"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-speak",
        "Tesauro player, spoken game: Cid's turn to speak (Space when done)",
        player_scene(tesauro_at("speak"), you=CID, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
)


async def reach(scene: Scene, run_before: RunBefore, pilot: Pilot) -> None:
    """Bring a scene's app to the moment its picture shows: its own set-up, its keys, and the
    screen settled (what the snapshots, the clipping check and the screenshots all look at)."""
    await run_before(pilot)
    await pilot.pause()
    await pilot.press(*scene.press)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    await pilot.pause()


def cases(snapshots_only: bool = False) -> list[tuple[Scene, str, tuple[int, int]]]:
    """Every (scene, language, size) that gets a screenshot (and, if `scene.snapshot`, a
    snapshot test)."""
    return [
        (scene, code, size)
        for scene in SCENES
        for code in LANGS
        for size in scene.sizes
        if not snapshots_only
        or (scene.snapshot is True and size != PHONE)
        or (size == PHONE and code in scene.phone)
        or size == TV  # the big screen on a TV: every table scene, both languages
        or (isinstance(scene.snapshot, tuple) and f"{code}-{size[0]}x{size[1]}" in scene.snapshot)
    ]


def case_name(scene: Scene, code: str, size: tuple[int, int]) -> str:
    return f"{scene.name}-{code}-{size[0]}x{size[1]}"
