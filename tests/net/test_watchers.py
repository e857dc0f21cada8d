"""An audience: connections that watch the table without a seat (`hello` with `watch`).

Fifty watchers, each from an address of its own on the loopback (as fifty laptops would be),
follow a game of Peek to its end: every one of them receives every version of the public
table, and never a byte of a card still hidden in a player's hand.
"""

from __future__ import annotations

import asyncio

import pytest

from net.protocol import PROTOCOL_VERSION
from net.room import Room
from net.server import MAX_WATCHERS, WATCHERS_PER_ADDRESS, Server
from tests.fakegame import CARDS
from tests.net.test_server import seated
from tests.wire import Wire
from tui.waiting import until

pytestmark = pytest.mark.timeout(60)


async def watcher(port: int, code: str | None, *, source: str = "127.0.0.1", **hello) -> Wire:
    """A watcher's connection from `source` (any 127.x.y.z is this machine's loopback)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    wire = Wire(reader, writer)
    message = {"type": "hello", "protocol": PROTOCOL_VERSION, "watch": True, **hello}
    if code is not None:
        message["code"] = code
    await wire.send(message)
    return wire


async def test_fifty_watchers_receive_every_version_of_the_table_and_no_secret(table):
    room = table.room
    ann, bob, cid = [await seated(table, name) for name in ("Ann", "Bob", "Cid")]
    audience = [await watcher(table.port, room.code, source=f"127.0.1.{n + 1}") for n in range(50)]
    for wire in audience:
        assert (await wire.expect("watching"))["room"]["name"] == "Friday"
        first = await wire.expect("view")
        assert first["room"]["you"] is None and first["game"] is None  # the lobby
    assert len(table.watchers) == 50
    versions = [room.version]

    def remember(events) -> None:
        versions.append(room.version)

    room.subscribe(remember)
    room.start()
    players = [ann, bob, cid]
    for turn, wire in enumerate(players):
        await wire.view_where(
            lambda v, turn=turn: v["game"] is not None and v["game"]["turn"] == turn
        )
        await wire.send({"type": "action", "action": {"type": "reveal" if turn else "pass"}})
    await ann.view_where(lambda v: v["game"] is not None and v["game"]["over"])
    final = room.version
    hidden = room.state["hands"][0].encode()  # Ann passed: her card was never shown

    for wire in audience:
        await wire.view_where(lambda v, final=final: v["version"] == final)
        seen = [v["version"] for v in wire.views]
        assert set(versions) <= set(seen)  # every change of the table, none missed
        assert seen == sorted(set(seen))  # in order, each once
        for view in wire.views:
            assert view["room"]["you"] is None
            if view["game"] is not None:
                assert "card" not in view["game"]  # the table's view, not a player's
        assert wire.views[-1]["game"] == room.game_view(None)
        assert hidden not in wire.raw
        for card in CARDS:  # only the two revealed cards ever crossed a watcher's wire
            if card.encode() in wire.raw:
                assert card in room.state["revealed"]


async def test_a_watcher_needs_the_room_code_and_wrong_codes_count(table):
    wire = await watcher(table.port, "ZZZZ")
    error = await wire.expect("error")
    assert error["code"] == "bad_code"
    assert table.doorman.knocks["127.0.0.1"].tried == 1  # a guess, like a player's
    assert not table.watchers


async def test_a_watcher_plays_nothing_and_holds_no_seat(table):
    ann = await seated(table, "Ann")
    wire = await watcher(table.port, table.room.code, name="Ann", token="x" * 32)
    welcome = await wire.expect("watching")
    assert "token" not in welcome and "seat" not in welcome
    await wire.expect("view")
    assert [s.name for s in table.room.seats] == ["Ann"]  # the name took no seat
    table.room.start()
    view = await wire.view_where(lambda v: v["game"] is not None)
    await wire.send({"type": "action", "action": {"type": "reveal"}, "version": view["version"]})
    error = await wire.expect("error")
    assert error["code"] == "watching"
    await ann.view_where(lambda v: v["game"] is not None)
    await ann.send({"type": "action", "action": {"type": "reveal"}})  # Ann still plays
    await wire.view_where(lambda v: v["game"]["revealed"][0] is not None)


async def test_a_watcher_is_welcome_when_every_seat_is_taken(peek, state_dir, monkeypatch):
    monkeypatch.setattr("net.lobby.MAX_SEATS", 1)
    room = Room("Full", game_id="peek", save_path=state_dir / "full.save")
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    try:
        await seated(server, "Ann")
        late = await Wire.join(server.port, "Bob", code=room.code)
        assert (await late.expect("error"))["code"] == "room_full"
        wire = await watcher(server.port, room.code)
        await wire.expect("watching")
        assert (await wire.expect("view"))["room"]["seats"][0]["name"] == "Ann"
    finally:
        await server.close()
        room.close()


async def test_the_audience_is_bounded(table, monkeypatch):
    monkeypatch.setattr("net.server.MAX_WATCHERS", 2)
    audience = [await watcher(table.port, table.room.code, source=f"127.0.2.{n}") for n in (1, 2)]
    for wire in audience:
        await wire.expect("watching")
    one_more = await watcher(table.port, table.room.code, source="127.0.2.9")
    assert (await one_more.expect("error"))["code"] == "audience_full"
    assert MAX_WATCHERS >= 50


async def test_one_address_cannot_take_the_whole_audience(table):
    """One stranger used to fill all 64 places in 22 s (the hello budget's pace) and hold them:
    an address watches WATCHERS_PER_ADDRESS times at most, told why, and another laptop (or a
    browser, by its relayed address) still gets in."""
    code = table.room.code
    mine = [
        await watcher(table.port, code, source="127.0.3.1") for _ in range(WATCHERS_PER_ADDRESS)
    ]
    for wire in mine:
        await wire.expect("watching")
    refused = await watcher(table.port, code, source="127.0.3.1")
    error = await refused.expect("error")
    assert error["code"] == "audience_full" and "from one address" in error["message"]
    assert await refused.closed()
    other = await watcher(table.port, code, source="127.0.3.2")
    await other.expect("watching")
    assert len(table.watchers) == WATCHERS_PER_ADDRESS + 1 < MAX_WATCHERS


async def test_watchers_that_go_leave_the_table_as_it_was(table):
    ann = await seated(table, "Ann")
    wire = await watcher(table.port, table.room.code)
    await wire.expect("watching")
    await wire.send({"type": "bye"})
    await until(lambda: not table.watchers)
    other = await watcher(table.port, table.room.code)
    await other.expect("watching")
    other.close()
    await until(lambda: not table.watchers)
    assert [s.name for s in table.room.seats] == ["Ann"] and table.room.seats[0].connected
    assert ann.views[-1]["room"]["seats"][0]["connected"]


async def test_blocking_an_address_sends_its_watchers_away(table):
    wire = await watcher(table.port, table.room.code, source="127.0.3.1")
    await wire.expect("watching")
    table.block("127.0.3.1")
    assert (await wire.expect("error"))["code"] == "blocked"
    await until(lambda: not table.watchers)


async def test_closing_the_table_tells_the_audience(table):
    wire = await watcher(table.port, table.room.code)
    await wire.expect("watching")
    await table.close("closed")
    assert (await wire.expect("kicked"))["reason"] == "closed"
