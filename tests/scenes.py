"""The shell's scenes: every screen of both apps that belongs to no one game — lobby, table,
results, joining, waiting — in a fixed, deterministic state, with the table's game Tally Up!
(or, where it is not installed, the tests' Peek). The games' own scenes are in their packages;
the kit they are all written with, and what makes them deterministic, is `tui.scenes`. `SCENES`
is every scene of both: what the snapshot tests, the clipping check and the screenshot tool
(`tools/screenshots.py`) take.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from games import GAMES
from net.discovery import HostInfo
from net.protocol import PROTOCOL_VERSION
from tui import scenes as kit
from tui.host.app import HostApp
from tui.i18n import lang
from tui.scenes import (
    ADDRESSES,
    BORIS,
    CODE,
    LANGS,
    PHONE,
    PORT,
    ROOM_NAME,
    TV,
    Scene,
    Table,
    host_scene,
    player_scene,
)

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


def lobby_table() -> Table:
    """`tui.scenes.lobby_table` of the table's game."""
    return kit.lobby_table(table_game_id())


def empty_table() -> Table:
    """The table's game chosen, nobody seated yet."""
    return Table(table_game_id())


def full_lobby_table() -> Table:
    """Every seat taken (12, more than the game seats: the host must send some away), a long
    name, one away; the last seat is the player's."""
    table = Table(table_game_id())
    for number, name in enumerate([*kit.FULL_NAMES, "Ilya", "Kira", "Lev", "Mila"]):
        table.seat(name, here=number != 1)
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


def finished_full_table(players: int = 8) -> Table:
    """A game of eight (or `players`) played to its end (the most a results screen shows at
    80×24 is its rows: the winner, the ranking, the scores round by round)."""
    table = Table(table_game_id())
    for name in kit.FULL_NAMES[:players]:
        table.seat(name)
    if table.room.game_id == "tallyup":
        table.room.set_option("target", 500)
    table.room.start(lang=lang())
    table.play(lambda v: False)
    assert table.room.phase == "over", table.room.phase
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
    room.graces.start(BORIS, 8)  # (no loop runs here: only the time it is due is noted)
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


SCENES: tuple[Scene, ...] = (
    # the host: the table on the big screen
    Scene("host-lobby-empty", "Host lobby, nobody seated yet", host_scene(empty_table)),
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
        "host-results-full",
        "Results of a finished game of eight",
        host_scene(finished_full_table),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-results-five",
        "Results of a finished game of five (not yet crowded: every part of the table shown)",
        host_scene(lambda: finished_full_table(5)),
        snapshot=False,
    ),
    Scene(
        "player-results-full",
        "A player's results of a finished game of eight",
        player_scene(finished_full_table),
        snapshot=False,
    ),
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
)
SCENES += kit.game_scenes()


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
