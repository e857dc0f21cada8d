"""Discovery over real zeroconf, confined to the loopback interface.

Every zeroconf instance here is opened with ``interface="127.0.0.1"``: the mDNS packets go to
224.0.0.251 on ``lo`` only, so nothing leaves the machine. Other zeroconf users on the same
machine (a parallel CI job, another test module) may advertise on ``lo`` too, so the tests pick
out their own hosts by a random room id and never assert on the whole host list.

Waiting is done by polling with a deadline (5 s, as DESIGN.md allows for a cross-process
browse); on loopback the answers normally arrive within a few tens of milliseconds.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import pytest
import pytest_asyncio
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net import discovery
from net.discovery import SERVICE_TYPE, Advertiser, Browser, HostInfo, local_addresses
from net.room import Room

# Real mDNS on the loopback: every test that advertises or browses there runs in one process,
# one after another (`--dist loadgroup`), so no test sees another's table in its list.
MDNS = pytest.mark.xdist_group("mdns")
pytestmark = MDNS

LOOPBACK = "127.0.0.1"
PROTOCOL = 3
DEADLINE_S = 5.0
POLL_S = 0.02

T = TypeVar("T")


async def eventually(probe: Callable[[], T | None], what: str, timeout: float = DEADLINE_S) -> T:
    """Poll ``probe`` until it returns something truthy; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(POLL_S)


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Recorder:
    """An ``on_change`` callback that remembers every snapshot it was given."""

    snapshots: list[dict[str, HostInfo]]

    def __call__(self, hosts: dict[str, HostInfo]) -> None:
        self.snapshots.append(hosts)

    @property
    def last(self) -> dict[str, HostInfo]:
        return self.snapshots[-1] if self.snapshots else {}


def with_id(browser: Browser, room_id: str) -> HostInfo | None:
    """The browser's host for one room id (None if absent; fails if there are several)."""
    found = [h for h in browser.hosts.values() if h.room_id == room_id]
    assert len(found) <= 1, found
    return found[0] if found else None


@dataclass
class Net:
    """Factories for loopback-only advertisers and browsers, all closed after the test."""

    advertisers: list[Advertiser]
    browsers: list[Browser]
    zeroconfs: list[AsyncZeroconf]

    async def advertise(self, **overrides: object) -> Advertiser:
        kwargs: dict[str, object] = {
            "room_name": "Кухня",
            "port": 40_000,
            "protocol": PROTOCOL,
            "game": "trex",
            "players": 2,
            "needs_code": True,
            "room_id": new_id(),
            "interface": LOOPBACK,
            "fast": True,
        }
        kwargs.update(overrides)
        adv = Advertiser(**kwargs)  # type: ignore[arg-type]
        self.advertisers.append(adv)
        await adv.start()
        return adv

    async def browse(
        self, on_change: Callable[[dict[str, HostInfo]], None] | None = None
    ) -> Browser:
        browser = Browser(on_change or Recorder([]), interface=LOOPBACK)
        self.browsers.append(browser)
        await browser.start()
        return browser

    async def raw_zeroconf(self) -> AsyncZeroconf:
        """A bare zeroconf on loopback, for publishing TXT that Advertiser would never send."""
        aiozc = AsyncZeroconf(interfaces=[LOOPBACK])
        self.zeroconfs.append(aiozc)
        return aiozc


@pytest_asyncio.fixture
async def net() -> AsyncIterator[Net]:
    state = Net([], [], [])
    try:
        yield state
    finally:
        closers: list[Awaitable[None]] = [a.close() for a in state.advertisers]
        closers += [b.close() for b in state.browsers]
        closers += [z.async_close() for z in state.zeroconfs]
        await asyncio.gather(*closers)


# --------------------------------------------------------------------------------------------
# Over the (loopback) network
# --------------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_advertised_host_is_discovered_with_port_and_txt(net: Net) -> None:
    recorder = Recorder([])
    browser = await net.browse(recorder)
    room_id = new_id()
    started = time.monotonic()
    adv = await net.advertise(room_name="Кухня", port=40_101, room_id=room_id, game="tesauro")

    host = await eventually(lambda: with_id(browser, room_id), "the advertised host")
    print(f"discovered in {time.monotonic() - started:.2f} s")

    assert host.name == "Кухня"
    assert host.addresses == (LOOPBACK,)
    assert host.address == LOOPBACK
    assert host.port == 40_101
    assert host.protocol == PROTOCOL
    assert host.game == "tesauro"
    assert host.players == 2
    assert host.needs_code is True
    assert host.compatible(PROTOCOL)
    assert not host.compatible(PROTOCOL + 1)
    assert adv.service_name is not None
    assert host.key == adv.service_name.lower()
    assert host.key in browser.hosts
    # on_change got a copy, not the live dict.
    assert recorder.last[host.key] == host
    assert recorder.last is not browser.hosts


@pytest.mark.asyncio
async def test_browser_is_running_before_it_handles_events(net: Net) -> None:
    """Regression: a resolve task cancelled while zeroconf was still starting up cancelled
    zeroconf's shared start-up future and left the browser deaf for good (seen under CI load
    with other hosts already advertising). start() now returns only once zeroconf runs."""
    browser = await net.browse()
    assert browser._aiozc is not None
    assert browser._aiozc.zeroconf.started


@pytest.mark.asyncio
async def test_browser_started_later_finds_existing_host(net: Net) -> None:
    room_id = new_id()
    await net.advertise(room_id=room_id, needs_code=False, players=0)
    browser = await net.browse()
    host = await eventually(lambda: with_id(browser, room_id), "a host advertised before browsing")
    assert host.needs_code is False
    assert host.players == 0


@pytest.mark.asyncio
async def test_update_reaches_the_browser_including_going_back(net: Net) -> None:
    browser = await net.browse()
    room_id = new_id()
    adv = await net.advertise(room_id=room_id, players=2, game="")

    await eventually(lambda: with_id(browser, room_id), "the host")
    await adv.update(players=3)
    await eventually(
        lambda: (h := with_id(browser, room_id)) is not None and h.players == 3, "players=3"
    )
    # Back to an earlier TXT: the case that needs the `rev` counter (see Advertiser.update).
    await adv.update(players=2, game="tallyup")
    host = await eventually(
        lambda: (h := with_id(browser, room_id)) is not None and h.players == 2 and h, "players=2"
    )
    assert host.game == "tallyup"
    await adv.update(needs_code=False)
    await eventually(
        lambda: (h := with_id(browser, room_id)) is not None and not h.needs_code, "open room"
    )
    assert len([h for h in browser.hosts.values() if h.room_id == room_id]) == 1


@pytest.mark.asyncio
async def test_an_update_that_changes_nothing_sends_nothing(net: Net) -> None:
    adv = await net.advertise(players=2, game="tallyup", needs_code=True)
    await adv.update(players=2, game="tallyup", needs_code=True)  # a move: nothing it says
    assert adv.announcements == 0
    await adv.update(players=3, game="tallyup", needs_code=True)
    assert adv.announcements == 1


async def test_the_table_re_announces_only_what_changes_it(peek, state_dir):
    """Every move of a game passes through the host app; only a seat, the game or the code
    changes the advertisement."""
    from tui.host.app import HostApp

    class Counting:
        updates = 0

        async def update(self, **changes):
            Counting.updates += 1

        async def close(self):
            pass

    room = Room("Quiet", game_id="peek", open_room=True)
    room.room_options["grace"] = 0
    app = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with app.run_test() as pilot:
        app.advertiser = Counting()
        for name in ("Ann", "Bob"):
            room.connected(room.join(name, None), returning=False)
        room.set_option("turn_seconds", 30.0)
        await pilot.pause()
        before = Counting.updates
        assert before >= 1  # the seats changed what it says
        room.start()
        for seat in (0, 1):
            room.act(seat, {"type": "reveal"})
        await pilot.pause()
        assert room.phase == "over" and Counting.updates == before


@pytest.mark.asyncio
async def test_the_records_of_a_crashed_host_run_out_within_two_minutes(net: Net) -> None:
    """A crashed host sends no goodbye: its records must expire in the players' caches."""
    adv = await net.advertise()
    records = [*adv._info.dns_addresses(), adv._info.dns_pointer(), adv._info.dns_text()]
    records.append(adv._info.dns_service())
    assert records and all(record.ttl <= 120 for record in records)


@pytest.mark.asyncio
async def test_update_rejects_unknown_fields_and_is_a_noop_after_close(net: Net) -> None:
    adv = await net.advertise()
    with pytest.raises(TypeError):
        await adv.update(code="ABCD")
    await adv.close()
    await adv.update(players=5)  # a late player count from a closing room must not raise


@pytest.mark.asyncio
async def test_host_disappears_when_advertiser_closes(net: Net) -> None:
    recorder = Recorder([])
    browser = await net.browse(recorder)
    room_id, other_id = new_id(), new_id()
    adv = await net.advertise(room_id=room_id, port=40_201)
    await net.advertise(room_id=other_id, port=40_202)
    await eventually(lambda: with_id(browser, room_id) and with_id(browser, other_id), "both hosts")

    await adv.close()
    await adv.close()  # idempotent
    await eventually(lambda: with_id(browser, room_id) is None, "the closed host to go away")
    assert with_id(browser, other_id) is not None
    assert all(h.room_id != room_id for h in recorder.last.values())


@pytest.mark.asyncio
async def test_two_hosts_with_the_same_room_name_both_appear(net: Net) -> None:
    browser = await net.browse()
    first, second = new_id(), new_id()
    adv1 = await net.advertise(room_name="Гостиная", room_id=first, port=40_301)
    adv2 = await net.advertise(room_name="Гостиная", room_id=second, port=40_302)

    hosts = await eventually(
        lambda: (a := with_id(browser, first)) and (b := with_id(browser, second)) and (a, b),
        "both same-named hosts",
    )
    assert adv1.service_name != adv2.service_name
    assert {h.name for h in hosts} == {"Гостиная"}
    assert {h.port for h in hosts} == {40_301, 40_302}
    assert hosts[0].key != hosts[1].key


@pytest.mark.asyncio
async def test_room_code_is_never_advertised(net: Net) -> None:
    code = "QZXW"
    room_id = new_id()
    adv = await net.advertise(room_name="Тайная комната", room_id=room_id, needs_code=True)
    await adv.update(players=4)
    assert adv.service_name is not None

    # Read the TXT as a stranger on the network would: raw bytes from a separate zeroconf.
    aiozc = await net.raw_zeroconf()
    info = AsyncServiceInfo(SERVICE_TYPE, adv.service_name)
    assert await info.async_request(aiozc.zeroconf, 3000)
    assert info.properties[b"players"] == b"4"

    assert code.encode() not in info.text
    assert code.lower().encode() not in info.text.lower()
    assert set(info.properties) == {b"proto", b"game", b"players", b"room", b"code", b"id", b"rev"}
    assert info.properties[b"code"] == b"1"
    assert info.properties[b"room"] == "Тайная комната".encode()
    assert info.properties[b"id"] == room_id.encode()
    # The Advertiser has no way to be handed the code in the first place.
    with pytest.raises(TypeError):
        Advertiser(  # type: ignore[call-arg]
            room_name="x",
            port=1,
            protocol=1,
            game="",
            players=0,
            needs_code=True,
            room_id="r",
            code=code,
        )


@pytest.mark.asyncio
async def test_older_protocol_is_listed_but_incompatible(net: Net) -> None:
    browser = await net.browse()
    old_id, new_id_ = new_id(), new_id()
    await net.advertise(room_id=old_id, protocol=PROTOCOL - 1, port=40_401)
    await net.advertise(room_id=new_id_, protocol=PROTOCOL, port=40_402)

    old = await eventually(lambda: with_id(browser, old_id), "the old-protocol host")
    current = await eventually(lambda: with_id(browser, new_id_), "the current host")
    assert old.protocol == PROTOCOL - 1
    assert not old.compatible(PROTOCOL)
    assert current.compatible(PROTOCOL)


@pytest.mark.asyncio
async def test_garbage_txt_is_listed_as_protocol_zero(net: Net) -> None:
    browser = await net.browse()
    aiozc = await net.raw_zeroconf()
    label = f"Мусор {new_id()[:8]}"
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"{label}.{SERVICE_TYPE}",
        port=40_501,
        properties={b"proto": b"\xff\xfe", b"players": b"many", b"flag": None, b"room": b""},
        server="garbage-test.local.",
        parsed_addresses=[LOOPBACK],
    )
    await aiozc.async_register_service(info, cooperating_responders=True)

    key = info.name.lower()
    host = await eventually(lambda: browser.hosts.get(key), "the garbage host")
    assert host.protocol == 0
    assert not host.compatible(PROTOCOL)
    assert host.name == label  # no room in TXT: falls back to the instance label
    assert host.players == 0
    assert host.port == 40_501


@pytest.mark.asyncio
async def test_failing_on_change_does_not_stop_discovery(net: Net) -> None:
    calls: list[int] = []

    def broken(hosts: dict[str, HostInfo]) -> None:
        calls.append(len(hosts))
        raise RuntimeError("UI bug")

    browser = await net.browse(broken)
    room_id = new_id()
    adv = await net.advertise(room_id=room_id)
    await eventually(lambda: with_id(browser, room_id), "the host despite the callback")
    await adv.update(players=7)
    await eventually(lambda: (h := with_id(browser, room_id)) and h.players == 7, "the update")
    assert len(calls) >= 2


@pytest.mark.asyncio
async def test_long_russian_room_name_fits_dns_limits(net: Net) -> None:
    browser = await net.browse()
    room_id = new_id()
    name = "Очень длинное название комнаты для вечеринки " * 3
    adv = await net.advertise(room_name=name, room_id=room_id)
    assert adv.service_name is not None
    label = adv.service_name[: -len(SERVICE_TYPE) - 1]
    assert len(label.encode()) <= 63

    host = await eventually(lambda: with_id(browser, room_id), "the long-named host")
    assert host.name == " ".join(name.split())[: discovery.MAX_TEXT_CHARS]


@pytest.mark.asyncio
async def test_close_is_idempotent_concurrent_and_safe_before_start(net: Net) -> None:
    adv = await net.advertise()
    browser = await net.browse()
    await asyncio.gather(adv.close(), adv.close(), browser.close(), browser.close())
    assert adv.closed and browser.closed
    await adv.close()
    await browser.close()

    never_started = Advertiser(
        room_name="x",
        port=1,
        protocol=1,
        game="",
        players=0,
        needs_code=False,
        room_id="r",
        interface=LOOPBACK,
    )
    await never_started.close()
    with pytest.raises(RuntimeError):
        await never_started.start()
    await Browser(lambda hosts: None, interface=LOOPBACK).close()


@pytest.mark.asyncio
async def test_close_from_a_signal_style_task(net: Net) -> None:
    """SIGTERM handlers schedule close() as a task; it must finish and send goodbyes."""
    browser = await net.browse()
    room_id = new_id()
    adv = await net.advertise(room_id=room_id)
    await eventually(lambda: with_id(browser, room_id), "the host")

    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = []
    loop.call_soon(lambda: tasks.append(loop.create_task(adv.close())))
    loop.call_soon(lambda: tasks.append(loop.create_task(adv.close())))
    await eventually(lambda: len(tasks) == 2, "the close tasks")
    await asyncio.wait_for(asyncio.gather(*tasks), DEADLINE_S)
    await eventually(lambda: with_id(browser, room_id) is None, "the goodbye")


# --------------------------------------------------------------------------------------------
# No network
# --------------------------------------------------------------------------------------------


def test_interface_must_be_an_address() -> None:
    with pytest.raises(ValueError, match="interface"):
        Advertiser(
            room_name="x",
            port=1,
            protocol=1,
            game="",
            players=0,
            needs_code=False,
            room_id="r",
            interface="eth0",
        )
    with pytest.raises(ValueError, match="interface"):
        Browser(lambda hosts: None, interface="localhost")


def test_loopback_advertiser_advertises_only_loopback() -> None:
    adv = Advertiser(
        room_name="x",
        port=1,
        protocol=1,
        game="",
        players=0,
        needs_code=False,
        room_id="r",
        interface=LOOPBACK,
    )
    assert adv.addresses == [LOOPBACK]


def _info(properties: dict[bytes, bytes | None], name: str = "Зал (ab12)") -> AsyncServiceInfo:
    return AsyncServiceInfo(
        SERVICE_TYPE,
        f"{name}.{SERVICE_TYPE}",
        port=4242,
        properties=properties,
        server="h.local.",
        parsed_addresses=["fe80::1", "10.0.0.7"],
    )


GOOD = {
    b"proto": b"3",
    b"game": b"trex",
    b"players": b"2",
    b"room": "Зал".encode(),
    b"code": b"0",
    b"id": b"abc",
    b"rev": b"0",
}


@pytest.mark.parametrize(
    ("changes", "protocol"),
    [
        ({}, 3),
        ({b"proto": None}, 0),
        ({b"proto": b"three"}, 0),
        ({b"proto": b"-3"}, 0),
        ({b"proto": b"+3"}, 0),
        ({b"proto": "٣".encode()}, 0),  # an Arabic-Indic digit is isdigit() but not ours
        ({b"proto": b"9" * 50}, 0),
        ({b"proto": b"0"}, 0),
        ({b"players": b"lots"}, 0),
        ({b"code": b"maybe"}, 0),
        ({b"game": None}, 0),
        ({b"room": b"\xff\xfe"}, 3),  # undecodable room name: shown with U+FFFD, not fatal
        ({b"extra": b"ignored"}, 3),
    ],
)
def test_txt_parsing_never_raises(changes: dict[bytes, bytes | None], protocol: int) -> None:
    props = {k: v for k, v in {**GOOD, **changes}.items() if v is not None}  # None: key absent
    host = HostInfo.from_service_info(_info(props))
    assert host.protocol == protocol
    assert host.port == 4242
    assert host.addresses == ("10.0.0.7", "fe80::1")  # IPv4 first


def test_txt_keys_are_case_insensitive_and_text_is_cleaned() -> None:
    props = {
        b"PROTO": b"3",
        b"Game": b"trex",
        b"players": b"5",
        b"room": "Зал\x1b[31m \u202eevil\n".encode(),
        b"code": b"1",
        b"id": b"abc",
    }
    host = HostInfo.from_service_info(_info(props))
    assert host.protocol == 3
    assert host.compatible(3)
    assert host.name == "Зал[31m evil"
    assert host.needs_code


def test_missing_room_falls_back_to_the_label_and_missing_code_means_ask() -> None:
    host = HostInfo.from_service_info(_info({b"proto": b"3"}, name="Спальня (ffff)"))
    assert host.name == "Спальня (ffff)"
    assert host.needs_code
    assert host.protocol == 0


def test_addresses_on_an_attached_network_come_first() -> None:
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"x.{SERVICE_TYPE}",
        port=1,
        properties=GOOD,
        server="h.local.",
        parsed_addresses=["fd00::9", "172.17.0.1", "192.168.1.20"],
    )
    lan = [ipaddress.ip_network("192.168.1.0/24"), ipaddress.ip_network("fd00::/64")]
    host = HostInfo.from_service_info(info, lan)
    assert host.addresses == ("192.168.1.20", "172.17.0.1", "fd00::9")
    assert host.address == "192.168.1.20"


def _adapter(name: str, *ips: str | tuple[str, int, int]) -> object:
    import ifaddr

    return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips])


def test_local_addresses_orders_and_filters(monkeypatch: pytest.MonkeyPatch) -> None:
    adapters = [
        _adapter("lo", "127.0.0.1", ("::1", 0, 0)),
        _adapter("docker0", "172.17.0.1"),
        _adapter("wlan0", "169.254.3.4", "192.168.1.23", ("fe80::1", 0, 3), ("2001:db8::5", 0, 0)),
        _adapter("eth0", "10.0.0.5", ("fd00::2", 0, 0)),
    ]
    monkeypatch.setattr(discovery.ifaddr, "get_adapters", lambda: adapters)
    assert local_addresses() == [
        "192.168.1.23",
        "10.0.0.5",
        "169.254.3.4",
        "172.17.0.1",
        "2001:db8::5",
        "fd00::2",
    ]

    assert ipaddress.ip_network("192.168.1.0/24") in discovery.local_networks()
    assert ipaddress.ip_network("127.0.0.0/24") in discovery.local_networks()

    monkeypatch.setattr(discovery.ifaddr, "get_adapters", lambda: adapters[:1])
    assert local_addresses() == ["127.0.0.1"]

    wildcard = Advertiser(
        room_name="x",
        port=1,
        protocol=1,
        game="",
        players=0,
        needs_code=False,
        room_id="r",
    )
    assert wildcard.addresses == ["127.0.0.1"]


def test_local_addresses_on_this_machine() -> None:
    addresses = local_addresses()
    assert addresses
    parsed = [ipaddress.ip_address(a) for a in addresses]
    if parsed != [ipaddress.ip_address("127.0.0.1")]:
        assert not any(a.is_loopback or (a.is_link_local and a.version == 6) for a in parsed)
    versions = [a.version for a in parsed]
    assert versions == sorted(versions)  # IPv4 before IPv6
