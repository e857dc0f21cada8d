"""The host's web seats relay their browser's address (`hello.relay`), so the door slows and
blocks one phone, not every browser guest at once — and nobody else can claim an address."""

from __future__ import annotations

import pytest

from net.protocol import PROTOCOL_VERSION
from net.room import Room
from net.server import Server
from tests.wire import Wire
from tui.waiting import until

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
async def table(peek, state_dir):
    room = Room("Friday", game_id="peek", code="KQXM", save_path=state_dir / "table.save")
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    yield server
    await server.close()
    room.close()


async def browser(table: Server, address: str, key: str | None = None, **hello) -> Wire:
    """A web seat's player app: on this machine, naming its browser's address."""
    wire = await Wire.connect(table.port)
    relay = {"key": table.page_key() if key is None else key, "address": address}
    await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION, "relay": relay, **hello})
    return wire


async def test_wrong_codes_from_one_phone_slow_that_phone_only(table):
    for _ in range(6):  # five free tries, then the waits begin — for this phone
        wire = await browser(table, "192.168.1.33", name="Mallory", code="ZZZZ")
        assert (await wire.expect("error"))["code"] == "bad_code"
    assert table.doorman.code_wait("192.168.1.33") > 0
    assert table.doorman.code_wait("127.0.0.1") == 0  # the gateway's own address is not slowed
    ann = await browser(table, "192.168.1.40", name="Ann", code="KQXM")
    assert (await ann.expect("welcome"))["seat"] == 0  # another phone joins at once


async def test_blocking_a_phone_spares_the_other_browsers(table):
    ann = await browser(table, "192.168.1.40", name="Ann", code="KQXM")
    await ann.expect("welcome")
    table.block("192.168.1.33")
    mallory = await browser(table, "192.168.1.33", name="Mallory", code="KQXM")
    assert (await mallory.expect("error"))["code"] == "blocked"
    bob = await browser(table, "192.168.1.41", name="Bob", code="KQXM")
    assert (await bob.expect("welcome"))["seat"] == 1
    assert [s.name for s in table.room.seats] == ["Ann", "Bob"]


@pytest.mark.parametrize(
    "relay",
    [
        {"key": "not-the-key", "address": "192.168.1.33"},
        {"address": "192.168.1.33"},
        {"key": None, "address": "not an address"},
        {"key": None, "address": 7},
    ],
)
async def test_only_this_hosts_web_seats_may_relay_an_address(table, relay):
    if relay.get("key", "") is None:
        relay = {**relay, "key": table.page_key()}
    wire = await Wire.connect(table.port)
    await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION, "relay": relay,
                     "name": "Ann", "code": "KQXM"})  # fmt: skip
    assert (await wire.expect("error"))["code"] == "bad_relay"
    assert not table.room.seats


async def test_a_relay_from_another_machine_is_refused(table, monkeypatch):
    monkeypatch.setattr("net.server._is_loopback", lambda address: False)
    wire = await browser(table, "192.168.1.40", name="Ann", code="KQXM")
    assert (await wire.expect("error"))["code"] == "bad_relay"


async def test_a_page_key_tells_the_gateway_where_its_page_is(table):
    """Each browser page has a key of its own: the gateway learns from it whether the page's
    app holds a seat or watches, and a forgotten key (the page closed) relays nothing."""
    ann_key, bob_key = table.page_key(), table.page_key()
    assert ann_key != bob_key and table.page_place(ann_key) is None
    ann = await browser(table, "192.168.1.40", ann_key, name="Ann", code="KQXM")
    await ann.expect("welcome")
    bob = await browser(table, "192.168.1.41", bob_key, watch=True, code="KQXM")
    await bob.expect("watching")
    assert table.page_place(ann_key) == ("seat", "Ann")
    assert table.page_place(bob_key) == ("watching", "")
    ann.close()
    await until(lambda: table.page_place(ann_key) is None)
    table.forget_page(ann_key)
    again = await browser(table, "192.168.1.40", ann_key, name="Ann", code="KQXM")
    assert (await again.expect("error"))["code"] == "bad_relay"
