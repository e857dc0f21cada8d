"""A table that lies: a fake host on the LAN sends a real player's app views of the wrong
types and texts with terminal escapes. The app refuses what does not fit (it drops the link and
connects again, as for any broken link), never shows a traceback, never lets an escape reach the
terminal — and plays on with the next honest view."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgpack
import pytest

from net.client import TokenStore
from net.protocol import PROTOCOL_VERSION, frame_of, read_message
from net.room import Room
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp
from tui.i18n import set_lang
from tui.waiting import until

pytestmark = pytest.mark.timeout(60)

OSC52 = "\x1b]52;c;aGVsbG8=\x07"  # "write 'hello' to the clipboard"


def welcome() -> dict[str, Any]:
    return {
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "seat": 0,
        "token": "A" * 32,
        "room": {"name": "Evil", "id": "0123456789ab"},
        "story": [],
    }


def lobby_view(version: int, *, rival: str = "Ben") -> dict[str, Any]:
    room = Room("Evil", game_id="trex", open_room=True)
    for name in ("Ann", "Cid"):
        room.join(name, None)
    summary = room.summary() | {"you": 0}
    summary["seats"][1]["name"] = rival
    return {"type": "view", "version": version, "room": summary, "game": None, "events": []}


def playing_view(version: int) -> dict[str, Any]:
    room = Room("Evil", game_id="trex", open_room=True)
    for name in ("Ann", "Ben", "Cid"):
        room.join(name, None)
    room.start("en")
    return {
        "type": "view",
        "version": version,
        "room": room.summary() | {"you": 0},
        "game": room.game_view(0),
        "events": [],
    }


def lies() -> list[tuple[str, dict[str, Any]]]:
    """Views a hostile table sends, each wrong in one way that crashed or steered the app."""
    seats = lobby_view(2)
    seats["room"]["seats"] = "everyone"
    card = playing_view(3)
    card["game"]["card"] = "a card"
    legal = playing_view(4)
    legal["game"]["legal"] = 7
    deep = lobby_view(5)
    nested: Any = 1
    for _ in range(20):
        nested = {"x": nested}
    deep["events"] = [{"type": "joined", "seat": 0, "name": "x", "more": nested}]
    return [("room.seats", seats), ("card", card), ("legal", legal), ("deep", deep)]


@pytest.mark.parametrize("lie", [name for name, _ in lies()])
async def test_a_lying_table_cannot_crash_the_app_nor_reach_the_terminal(lie, tmp_path):
    set_lang("en")
    bad = dict(lies())[lie]
    connections: list[int] = []

    async def table(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        await read_message(reader)  # the hello
        frames = [welcome(), bad] if len(connections) == 1 else [welcome()]
        frames.append(lobby_view(10 + len(connections), rival=f"Ben{OSC52}"))
        for frame in frames:  # as a liar writes them: past every check of the real host
            writer.write(frame_of(msgpack.packb(frame)))
        await writer.drain()
        with contextlib.suppress(Exception):
            await reader.read()  # hold the link until the app drops it

    server = await asyncio.start_server(table, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    tokens = TokenStore(tmp_path / "tokens.json")
    app = ClientApp(("127.0.0.1", port), name="Ann", discover=False, tokens=tokens)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            # the lie is refused: the link is dropped and made again, and the honest view
            # that follows is shown — with the escape gone from the rival's name
            await until(lambda: len(connections) >= 2 and app.version >= 12, pilot)
            await until(lambda: "Ben]52;c;aGVsbG8=" in screen_text(app), pilot)
            said = [str(n.message) for n in app._notifications]
            assert any("cannot read (bad_message)" in line for line in said), said
            assert isinstance(app.room["seats"], list)
            assert app.game is None  # the lying game view never reached the app
            shown = screen_text(app)
            assert "\x1b" not in shown and "\x07" not in shown
            assert all("\x1b" not in s["name"] for s in app.room["seats"])
    finally:
        server.close()


async def test_a_table_that_floods_views_leaves_the_app_on_the_newest(tmp_path):
    """Views as fast as a socket takes them (a view every millisecond is slow beside this):
    the app keeps up, ends on the newest, and still answers a key."""
    set_lang("en")
    flood = 300

    async def table(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_message(reader)
        writer.write(frame_of(msgpack.packb(welcome())))
        for version in range(1, flood + 1):
            writer.write(frame_of(msgpack.packb(lobby_view(version, rival=f"Ben{version}"))))
            if version % 50 == 0:
                await writer.drain()
        await writer.drain()
        with contextlib.suppress(Exception):
            await reader.read()

    server = await asyncio.start_server(table, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    tokens = TokenStore(tmp_path / "tokens.json")
    app = ClientApp(("127.0.0.1", port), name="Ann", discover=False, tokens=tokens)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: app.version == flood, pilot, timeout=30)
            await until(lambda: f"Ben{flood}" in screen_text(app), pilot)
            await pilot.press("question_mark")  # the help comes up: the app is not stuck
            await until(lambda: app.screen.is_modal, pilot)
    finally:
        server.close()
