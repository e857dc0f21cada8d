"""The player's connection: tokens kept per host, refusals reported, drops mended."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from net.client import Client, EarlyLink, TokenStore, greeting, parse_address
from net.protocol import PROTOCOL_VERSION
from net.room import Room
from net.server import Server
from tui.cli import early_link
from tui.waiting import until


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.0.0.5", ("10.0.0.5", 47470)),
        ("10.0.0.5:9000", ("10.0.0.5", 9000)),
        (" host.local:1 ", ("host.local", 1)),
        ("[fe80::1%eth0]:9000", ("fe80::1%eth0", 9000)),
        ("fe80::1", ("fe80::1", 47470)),
    ],
)
def test_addresses(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["", ":", "host:", "host:abc", "host:70000", "[::1]:x"])
def test_bad_addresses(text):
    with pytest.raises(ValueError):
        parse_address(text)


def test_token_store_is_private_and_survives_garbage(state_dir):
    store = TokenStore()
    store.put("h:1", "Ann", token="t0k")
    assert store.get("h:1", "ann")["token"] == "t0k"  # a name is the same name in any case
    assert (store.path.stat().st_mode & 0o777) == 0o600
    store.path.write_text("{not json")
    assert store.get("h:1", "Ann") is None
    store.put("h:2", "B", token="x")
    store.forget("h:2", "B")
    assert store.get("h:2", "B") is None


def test_tokens_are_kept_per_host_and_name(state_dir):
    """Two players on one account are two seats; the latest name comes first."""
    store = TokenStore()
    store.put("h:1", "Ann", token="a")
    store.put("h:1", "Bob", token="b")
    store.put("h:2", "Ann", token="c")
    assert store.get("h:1", "Ann")["token"] == "a" and store.get("h:1", "Bob")["token"] == "b"
    assert store.names("h:1") == ["Bob", "Ann"] and store.names("h:2") == ["Ann"]
    assert not [p for p in store.path.parent.iterdir() if p.name.endswith(".tmp")]


class Recorder:
    def __init__(self) -> None:
        self.statuses: list[tuple[str, dict | None]] = []
        self.messages: list[dict] = []

    def status(self, status, info):
        self.statuses.append((status, info))

    def message(self, message):
        self.messages.append(message)

    async def wait(self, test, timeout=6.0):
        try:
            await until(test, timeout=timeout)
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}: {self.statuses} {self.messages[-3:]}") from None


async def serve(room: Room, port: int = 0) -> Server:
    server = Server(room, host="127.0.0.1", port=port)
    await server.start()
    return server


async def test_refusal_is_reported_and_not_retried(peek):
    server = await serve(Room("R", game_id="peek", code="ABCD"))
    seen = Recorder()
    client = Client("127.0.0.1", server.port, name="Ann", code="XXXX", on_status=seen.status)
    await asyncio.wait_for(client.run(), 5)
    assert seen.statuses[-1][0] == "refused"
    assert seen.statuses[-1][1]["code"] == "bad_code"
    await server.close()


async def test_client_reconnects_after_the_host_restarts(peek, state_dir):
    save = state_dir / "r.save"
    room = Room("R", game_id="peek", open_room=True, save_path=save)
    server = await serve(room)
    port = server.port
    seen = Recorder()
    client = Client("127.0.0.1", port, name="Ann", on_status=seen.status, on_message=seen.message)
    task = asyncio.create_task(client.run())
    await seen.wait(lambda: client.status == "connected")
    token = client.saved["token"]
    room.start()
    await seen.wait(lambda: any(m["type"] == "view" and m["game"] for m in seen.messages))
    await server.close()
    await seen.wait(lambda: client.status == "reconnecting")
    # a failed attempt while the host is down (the first try after the loss is attempt 1)
    await seen.wait(lambda: seen.statuses[-1][1].get("attempt", 0) >= 2)
    server = await serve(Room.resume(save), port)
    seen.messages.clear()
    await seen.wait(lambda: client.status == "connected")
    await seen.wait(lambda: any(m["type"] == "view" and m["game"] for m in seen.messages))
    view = [m for m in seen.messages if m["type"] == "view"][-1]
    assert view["room"]["you"] == 0 and "card" in view["game"]
    assert client.saved["token"] == token  # the same seat, the same token
    await client.close()
    await asyncio.wait_for(task, 3)
    await server.close()


async def test_a_host_that_falls_silent_is_left_and_called_again(monkeypatch, state_dir):
    """A host that says nothing for `SILENCE_LIMIT` (a laptop asleep, a cable out: the TCP
    link may stay up for minutes) is taken for gone, and the client dials again."""
    monkeypatch.setattr("net.client.SILENCE_LIMIT", 0.3)
    calls: list[bytes] = []
    ended = asyncio.Event()

    async def silent_host(reader, writer):
        calls.append(await reader.read(1024))  # the hello, never answered
        await reader.read(1024)  # b"": the client hung up
        ended.set()
        writer.close()

    host = await asyncio.start_server(silent_host, "127.0.0.1", 0)
    port = host.sockets[0].getsockname()[1]
    seen = Recorder()
    client = Client("127.0.0.1", port, name="Ann", on_status=seen.status)
    task = asyncio.create_task(client.run())
    await asyncio.wait_for(ended.wait(), 5)
    await seen.wait(lambda: client.status == "reconnecting")
    assert seen.statuses[-1][1]["attempt"] == 1 and calls[0].find(b"hello") > 0
    await client.close()
    await asyncio.wait_for(task, 5)
    host.close()


async def test_a_stale_token_of_a_name_joins_anew(peek, state_dir):
    """A token a new table does not know (a fresh host) costs nothing: the name joins."""
    room = Room("R", game_id="peek", open_room=True)
    server = await serve(room)
    address = f"127.0.0.1:{server.port}"
    store = TokenStore()
    store.put(address, "Ann", token="stale-token-of-another-table")
    seen = Recorder()
    client = Client("127.0.0.1", server.port, name="Ann", tokens=store, on_status=seen.status)
    task = asyncio.create_task(client.run())
    await seen.wait(lambda: client.status == "connected")
    assert store.get(address, "Ann")["token"] == room.seats[0].token
    await client.close()
    await asyncio.wait_for(task, 3)
    await server.close()


# --- the early link: `hubbub join` connects while the app loads ------------------------------


@contextlib.asynccontextmanager
async def running(client: Client):
    """The client's `run()` for the block, then closed and awaited."""
    task = asyncio.create_task(client.run())
    try:
        yield
    finally:
        await client.close()
        await asyncio.wait_for(task, 3)


async def test_an_early_link_seats_the_player_before_the_app_and_hands_its_line_over(
    peek, state_dir, monkeypatch
):
    """The table sees the player at once; the app's client then takes the very same
    connection over, with what the host said meanwhile (pings answered, the rest kept)."""
    monkeypatch.setattr("net.server.PING_EVERY", 0.02)  # pings while the app "loads"
    room = Room("R", game_id="peek", open_room=True)
    server = await serve(room)
    early = EarlyLink("127.0.0.1", server.port, greeting(name="Ann"))
    await until(lambda: room.seats and room.seats[0].connected)
    await until(lambda: early.pings >= 5)  # the host's pings got their pongs: still seated
    assert room.seats[0].connected and len(server._all) == 1
    seen = Recorder()
    client = Client(
        "127.0.0.1", server.port, name="Ann", early=early,
        on_status=seen.status, on_message=seen.message,
    )  # fmt: skip
    async with running(client):
        await seen.wait(lambda: any(m["type"] == "view" for m in seen.messages))
        assert seen.messages[0]["type"] == "welcome" and client.seat == 0  # read from the line
        assert client.saved["token"] == room.seats[0].token
        assert not [m for m in seen.messages if m["type"] == "ping"]  # answered by the link
        assert len(server._all) == 1 and room.seats[0].connected  # no second connection
        room.start()
        await seen.wait(lambda: any(m["type"] == "view" and m["game"] for m in seen.messages))
    await server.close()


async def test_an_early_link_that_said_another_hello_is_let_go(peek, state_dir):
    room = Room("R", game_id="peek", open_room=True)
    server = await serve(room)
    early = EarlyLink("127.0.0.1", server.port, greeting(name="Ann"))
    await until(lambda: room.seats and room.seats[0].connected)
    seen = Recorder()
    client = Client("127.0.0.1", server.port, name="Bob", early=early, on_status=seen.status)
    async with running(client):
        await seen.wait(lambda: client.status == "connected")
        await until(lambda: not room.seats[0].connected)  # Ann's line was closed
        assert [s.name for s in room.seats] == ["Ann", "Bob"] and room.seats[1].connected
    await server.close()


async def test_an_early_link_that_could_not_connect_costs_nothing(peek, state_dir):
    room = Room("R", game_id="peek", open_room=True)
    server = await serve(room)
    port = server.port
    await server.close()  # nobody listens when the early link tries
    early = EarlyLink("127.0.0.1", port, greeting(name="Ann"))
    await until(lambda: not early._thread.is_alive())  # it gave up: connection refused
    server = await serve(room, port)  # the host is up when the app is
    seen = Recorder()
    client = Client("127.0.0.1", port, name="Ann", early=early, on_status=seen.status)
    async with running(client):
        await seen.wait(lambda: client.status == "connected")  # it connected by itself
        assert room.seats[0].connected and len(server._all) == 1
    assert seen.statuses[0][0] == "connected"  # at its first try: no attempt was lost
    await server.close()


async def test_an_app_closed_before_it_connected_lets_its_early_link_go(peek, state_dir):
    room = Room("R", game_id="peek", open_room=True)
    server = await serve(room)
    early = EarlyLink("127.0.0.1", server.port, greeting(name="Ann"))
    await until(lambda: room.seats and room.seats[0].connected)
    client = Client("127.0.0.1", server.port, name="Ann", early=early)
    await client.close()  # its run() never started
    await until(lambda: not room.seats[0].connected)
    await server.close()


def test_hubbub_join_opens_an_early_link_only_when_the_command_says_the_whole_hello(state_dir):
    """An address and a name, one saved seat there, or --watch: the hello is known. Without
    an address, or with several saved seats and no name, the app has to ask first."""
    tokens = TokenStore()
    address = ("127.0.0.1", 9)  # the discard port: nothing answers, nothing is needed
    relay = {"key": "k", "address": "10.0.0.7"}

    def hello(**how):
        link = early_link(
            how.pop("at", address), tokens, **({"name": "", "watch": False, "relay": None} | how)
        )
        if link is None:
            return None
        asyncio.run(link.close())
        return link.hello

    base = {"type": "hello", "protocol": PROTOCOL_VERSION}
    assert hello(at=None, name="Ann") is None
    assert hello() is None  # no name, no seat saved here: the join form asks
    assert hello(name="Ann") == base | {"name": "Ann"}
    assert hello(watch=True, relay=relay) == base | {"watch": True, "relay": relay}
    tokens.put("127.0.0.1:9", "Ann", token="t-ann")
    assert hello() == base | {"name": "Ann", "token": "t-ann"}  # her one seat here
    tokens.put("127.0.0.1:9", "Bob", token="t-bob")
    assert hello() is None  # which of the two? the form asks
    assert hello(name="bob") == base | {"name": "bob", "token": "t-bob"}
