"""A stranger on the Wi-Fi cannot break the table: over real sockets on loopback.

Wrong room codes are slowed per address and shown to the host, who can block the address; a
client that stops reading or answering is shown away within seconds while the others play; a
seat reconnecting in a loop costs the others a few views a second; connections that never say
hello cannot use up the host's file handles; odd tokens and junk arguments are refused with
their codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net import doorman as door
from net.doorman import Doorman, address_key, seconds_to_try_every_code
from net.presence import PRESENCE_DELAY
from net.protocol import PROTOCOL_VERSION
from net.room import Room
from net.savefile import read_records
from net.server import Server
from tests.wire import Wire
from tui.waiting import until

WEEK = 7 * 24 * 3600
LOOP_SECONDS = 1.5


@pytest.fixture
async def table(peek):
    room = Room("Door", game_id="peek", code="KXMT")
    server = Server(room, host="127.0.0.1", port=0)
    alerts: list[tuple[str, dict]] = []
    server.alerts.append(lambda kind, details: alerts.append((kind, details)))
    await server.start()
    server.seen_alerts = alerts
    yield server
    await server.close()
    room.close()


def test_guessing_every_code_from_one_laptop_takes_more_than_a_week():
    assert seconds_to_try_every_code() > WEEK
    clock = [0.0]
    doorman = Doorman(clock=lambda: clock[0])
    waits = [doorman.wrong_code("10.0.0.9") for _ in range(12)]
    assert waits[: door.FREE_TRIES] == [0.0] * door.FREE_TRIES  # typos are free
    assert waits[door.FREE_TRIES :] == [1, 2, 4, 8, 16, 32, 60]  # then twice as long, to 60 s
    assert doorman.code_wait("10.0.0.9") == 60
    clock[0] += 60
    doorman.right_code("10.0.0.9")  # the right code forgives the address
    assert doorman.code_wait("10.0.0.9") == 0 and doorman.wrong_code("10.0.0.9") == 0


def test_a_guesser_quiet_for_five_minutes_is_no_longer_a_suspect():
    """The host's banner about a stranger guessing the code (and its `!` key) goes once the
    address has tried nothing for `QUIET_AFTER`; it comes back, with every try counted, if
    the guessing starts again. A guesser at the longest wait never goes quiet that long."""
    clock = [0.0]
    doorman = Doorman(clock=lambda: clock[0])
    for _ in range(door.FREE_TRIES + 3):
        doorman.wrong_code("10.0.0.9")
        clock[0] += door.MAX_WAIT  # every try after the longest wait
    assert [a for a, _ in doorman.suspects()] == ["10.0.0.9"]
    clock[0] += door.QUIET_AFTER - door.MAX_WAIT - 1
    assert [a for a, _ in doorman.suspects()] == ["10.0.0.9"]
    clock[0] += 1
    assert doorman.suspects() == []
    doorman.wrong_code("10.0.0.9")
    assert [(a, k.tried) for a, k in doorman.suspects()] == [("10.0.0.9", door.FREE_TRIES + 4)]


def test_a_guest_who_mistyped_and_then_sat_down_is_no_suspect():
    """Eight wrong codes, then the right one from the same laptop: the host's banner ("Wrong
    room codes from …: 8 tries") stayed all game, and `!` offered to close the guest's own
    seat. The right code forgives the address; more wrong codes after it make it a suspect
    again, every try counted."""
    clock = [0.0]
    doorman = Doorman(clock=lambda: clock[0])
    for _ in range(door.FREE_TRIES + 3):
        doorman.wrong_code("10.0.0.9")
        clock[0] += door.MAX_WAIT
    assert [a for a, _ in doorman.suspects()] == ["10.0.0.9"]
    doorman.right_code("10.0.0.9")
    assert doorman.suspects() == []
    for _ in range(door.FREE_TRIES):
        doorman.wrong_code("10.0.0.9")
    assert doorman.suspects() == []  # the free tries again
    doorman.wrong_code("10.0.0.9")
    assert [(a, k.tried) for a, k in doorman.suspects()] == [("10.0.0.9", 2 * door.FREE_TRIES + 4)]


def test_an_ipv6_laptop_counts_by_its_64():
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1234") == "2001:db8::/64"
    assert address_key("::ffff:10.0.0.9") == "10.0.0.9"


async def test_wrong_codes_are_slowed_shown_and_the_address_can_be_blocked(table):
    for attempt in range(door.FREE_TRIES + 1):
        wire = await Wire.join(table.port, f"Guess{attempt}", code="ZZZZ")
        error = await wire.expect("error")
        assert error["code"] == "bad_code"
    assert error["params"]["retry_after"] == 1  # the first wait after the free tries
    wire = await Wire.join(table.port, "Guesser", code="KXMT")  # even the right one waits
    error = await wire.expect("error")
    assert error["code"] == "slow_down" and error["params"]["retry_after"] > 0
    assert table.room.seats == []
    kind, details = table.seen_alerts[-1]
    assert kind == "wrong_code" and details["address"] == "127.0.0.1"
    assert details["tried"] == door.FREE_TRIES + 1
    assert table.doorman.suspects()[0][0] == "127.0.0.1"
    table.block("127.0.0.1")
    wire = await Wire.join(table.port, "Again", code="KXMT")
    assert (await wire.expect("error"))["code"] == "blocked"
    assert await wire.closed()


async def test_a_blocked_address_is_still_blocked_after_a_crash_and_resume(peek, state_dir):
    save = state_dir / "door.save"
    room = Room("Door", game_id="peek", code="KXMT", save_path=save)
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    ann = await Wire.join(server.port, "Ann", code="KXMT")
    await ann.expect("welcome")
    server.block("127.0.0.1")
    room.flush()
    await server.close()  # the host is killed: nothing more is written
    resumed = Room.resume(save)
    assert resumed.settings.blocked == ["127.0.0.1"]
    server = Server(resumed, host="127.0.0.1", port=0)
    await server.start()
    wire = await Wire.join(server.port, "Stranger", code="KXMT")
    assert (await wire.expect("error"))["code"] == "blocked"
    await server.close()
    resumed.close()


async def test_a_hello_without_a_code_is_no_guess(table):
    """A player's app asks first without a code (to learn the table wants one): however many
    honest players join, the table sees no stranger."""
    for attempt in range(door.FREE_TRIES + 3):
        wire = await Wire.join(table.port, f"Player{attempt}", code=None if attempt % 2 else " ")
        error = await wire.expect("error")
        assert error["code"] == "bad_code" and error["params"] == {"letters": 4}  # no wait
    assert table.seen_alerts == [] and table.doorman.suspects() == []
    assert table.doorman.wrong_codes == 0  # nor the table a guess
    wire = await Wire.join(table.port, "Ann", code="KXMT")  # not slowed down
    assert (await wire.expect("welcome"))["seat"] == 0


async def test_a_token_that_is_not_ascii_is_just_unknown(table):
    wire = await Wire.connect(table.port)
    await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "токен-💥"})
    assert (await wire.expect("error"))["code"] == "unknown_token"


async def test_junk_arguments_are_refused_and_never_logged(table):
    table.room.code = None  # open, for this one
    ann = await Wire.join(table.port, "Ann")
    await ann.expect("welcome")
    table.room.start()
    await ann.view_where(lambda v: v["game"] is not None)
    junk = {"type": "reveal", "payload": "x" * 900}
    await ann.send({"type": "action", "action": junk, "ref": 1})
    error = await ann.expect("error")
    assert error["code"] == "unknown_field" and error["params"] == {"field": "payload"}
    assert all(action.get("payload") is None for _, action in table.room.log)


async def test_a_client_that_stops_answering_is_away_within_seconds(table, monkeypatch):
    """The host's own pings find it (here ten times faster than the real 2 s / 7 s)."""
    monkeypatch.setattr("net.server.PING_EVERY", 0.2)
    monkeypatch.setattr("net.server.DEAD_AFTER", 0.7)
    table.room.code = None
    frozen = await Wire.join(table.port, "Frozen")  # it will never read or answer again
    await frozen.expect("welcome")
    bob = await Wire.join(table.port, "Bob")  # Bob reads, so he answers the pings
    await bob.expect("welcome")
    both = [True, True]
    await bob.view_where(lambda v: [s["connected"] for s in v["room"]["seats"]] == both)
    view = await bob.view_where(lambda v: v["room"]["seats"][0]["connected"] is False)
    assert view["room"]["seats"][1]["connected"]  # Bob, who answers, stays
    assert frozen.views == []  # (it never read a thing)


async def test_a_seat_reconnecting_in_a_loop_costs_the_others_a_few_views_a_second(table):
    table.room.code = None
    ann = await Wire.join(table.port, "Ann")
    await ann.expect("welcome")
    loop_seat = await Wire.join(table.port, "Loop")
    token = (await loop_seat.expect("welcome"))["token"]
    loop_seat.close()
    await until(lambda: not table.room.seats[1].connected)
    await ann.view_where(loop_seat_away)  # the drop told; from here Ann's views are counted
    ann.views.clear()
    counting = asyncio.create_task(drain(ann))
    started = time.monotonic()
    tries = refused = 0
    while time.monotonic() - started < LOOP_SECONDS:  # as fast as it can: hello, drop, again
        wire = await Wire.join(table.port, "", token=token)
        reply = await wire.recv()
        tries += 1
        refused += reply["type"] == "error" and reply["code"] == "slow_down"
        wire.close()
    await until(lambda: not table.room.seats[1].connected)
    await until(lambda: ann.views and loop_seat_away(ann.views[-1]))  # the last drop told
    counting.cancel()
    assert refused >= tries - door.SEAT_BURST - 2  # a few reconnects, then it must wait
    # the comings and goings reach Ann together, at most every PRESENCE_DELAY
    bound = (LOOP_SECONDS + 0.3) / PRESENCE_DELAY + 1
    assert len(ann.views) <= bound, f"{len(ann.views)} views for {tries} reconnects"


async def test_the_first_coming_after_a_quiet_spell_is_told_at_once_the_next_together(peek):
    """A join or a return is on every screen at once; after it, comings and goings wait for
    PRESENCE_DELAY (on the room's clock) and are told in one view however many they were."""
    now = [1000.0]
    room = Room("Door", game_id="peek", open_room=True, clock=lambda: now[0])
    told: list[list[dict]] = []
    room.subscribe(told.append)
    ann, bob = room.join("Ann", None), room.join("Bob", None)
    told.clear()
    room.connected(ann, returning=False)
    assert len(told) == 1 and room.seats[ann].connected  # told in the same call
    room.connected(bob, returning=False)
    room.disconnected(ann)
    assert len(told) == 1  # both wait for the quarter second
    await until(lambda: len(told) == 2, timeout=10)
    assert told[1] == [{"type": "away", "seat": ann}]
    now[0] += PRESENCE_DELAY  # a quiet spell (on the room's clock)
    room.connected(ann, returning=True)
    assert len(told) == 3 and told[2] == [{"type": "back", "seat": ann}]
    room.close()


def loop_seat_away(view: dict) -> bool:
    seats = view["room"]["seats"]
    return len(seats) == 2 and not seats[1]["connected"]


async def drain(wire: Wire) -> None:
    while True:
        await wire.recv(timeout=30)


@pytest.mark.parametrize("nofile", [256, 30])
def test_idle_connections_cannot_use_up_the_host_s_file_handles(tmp_path, nofile):
    """400 connections that never say hello, to a host allowed 256 open files (the macOS
    default), or so few that it runs out: newcomers still join, the save file stays current,
    and running out is said once."""
    save = tmp_path / "nofile.save"
    hostd = Path(__file__).resolve().parents[2] / "tools" / "hostd.py"
    host = subprocess.Popen(
        [sys.executable, str(hostd), "--game", "tallyup", "--open", "--save", str(save),
         "--nofile", str(nofile)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        port = json.loads(host.stdout.readline())["ready"]

        async def attack() -> None:
            idle = []
            for _ in range(400):
                idle.append(await asyncio.open_connection("127.0.0.1", port))
            ann = await Wire.join(port, "Ann")
            assert (await ann.expect("welcome", timeout=15))["seat"] == 0
            bob = await Wire.join(port, "Bob")
            assert (await bob.expect("welcome", timeout=15))["seat"] == 1
            for _, writer in idle:
                writer.close()

        asyncio.run(attack())
        snapshot, _ = read_records(save)
        names = [s["name"] for s in snapshot["seats"]]
        assert names == ["Ann", "Bob"]
    finally:
        host.kill()
        _, said = host.communicate(timeout=5)
    assert said.count("out of file handles") <= 1, said


WEB_ATTACKS = {
    "one address": (256, 1, 400),  # nofile, addresses, idle connections from each
    "many addresses": (1024, 40, 30),  # more than the web port may have: the reserve holds
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("attack", list(WEB_ATTACKS))
def test_idle_connections_to_the_web_port_keep_no_player_out(tmp_path, attack):
    """Hundreds of connections to the web port that never send a byte, to a host whose file
    limit is lowered (and which raises its soft limit to it at start, as `hubbub host` does):
    the host never runs out of file handles (the web port leaves the table's reserve alone),
    a seated player coming back with his token and a newcomer join the table, and a browser
    from another address still gets its page (from many addresses: the oldest connection of
    the address holding the most makes way for it)."""
    nofile, addresses, each = WEB_ATTACKS[attack]
    hostd = Path(__file__).resolve().parents[2] / "tools" / "hostd.py"
    host = subprocess.Popen(
        [sys.executable, str(hostd), "--game", "tallyup", "--open", "--nofile", str(nofile),
         "--web", str(tmp_path / "web")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        ready = json.loads(host.stdout.readline())
        port, web_port = ready["ready"], ready["web"]
        assert ready["nofile"] == nofile  # raised from 64 at start, to the hard limit

        async def attack_then_join() -> None:
            ann = await Wire.join(port, "Ann")
            token = (await ann.expect("welcome"))["token"]
            ann.close()  # a blip: she will come back with her token
            idle = []
            for n in range(addresses):
                for _ in range(each):
                    with contextlib.suppress(OSError):
                        idle.append(await asyncio.open_connection(
                            "127.0.0.1", web_port, local_addr=(f"127.0.4.{n + 1}", 0)))  # fmt: skip
            back = await Wire.join(port, "", token=token)
            assert (await back.expect("welcome", timeout=15))["seat"] == 0
            bob = await Wire.join(port, "Bob")
            assert (await bob.expect("welcome", timeout=15))["seat"] == 1
            assert await web_page(web_port, "127.0.5.1") == 200  # in: an idle one made way
            for _, writer in idle:
                writer.close()

        asyncio.run(attack_then_join())
    finally:
        host.kill()
        _, said = host.communicate(timeout=5)
    assert "Traceback" not in said, said
    assert "out of file handles" not in said, said  # the web port never took the last ones


async def web_page(port: int, source: str) -> int:
    """The web seats' page, asked for by a browser at `source`: its HTTP status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(b"GET / HTTP/1.1\r\nHost: table\r\nConnection: close\r\n\r\n")
    status = await asyncio.wait_for(reader.readline(), 15)
    writer.close()
    return int(status.split()[1])
