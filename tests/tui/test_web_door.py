"""The door of the web port (tui/web/gateway.py): anyone on the Wi-Fi reaches it with no room
code, so every attack of the new-user test is here — idle and slow connections, many
connections or made-up cookies from one address, pages that hold a place and never sit down,
junk terminal sizes — each against the real server with a stand-in player app
(tests/webseats.py), an honest browser from another address getting in meanwhile. The same
attacks on a whole host with its file limit lowered: tests/net/test_door.py."""

from __future__ import annotations

import asyncio
import json
import secrets

import aiohttp
import pytest

from net.handles import Handles
from tests.webseats import (
    Door,
    StandInSeats,
    browser,
    closed,
    session_of,
    stand_in,
    started,
)
from tui.waiting import until
from tui.web import gateway
from tui.web.gateway import COLUMNS, LINES, clamp
from tui.web.sessions import COOKIE

pytestmark = pytest.mark.timeout(60)

HONEST = "127.0.0.2"
"""Another browser's address (all of 127.0.0.0/8 is this machine)."""


@pytest.fixture
async def seats(tmp_path):
    server = StandInSeats(("127.0.0.1", 47470), limit=16, state_root=tmp_path / "web", door=Door())
    await server.start("127.0.0.1", 0)
    yield server
    await server.close()


async def gone(reader: asyncio.StreamReader) -> None:
    """Read until the server closes the connection (its end, or a reset)."""
    try:
        while await asyncio.wait_for(reader.read(4096), 10):
            pass
    except ConnectionResetError:
        pass


async def honest_page(seats) -> int:
    """An honest browser from another address asks for the page: its HTTP status."""
    async with browser(seats, address=HONEST) as guest:
        return (await guest.get("/")).status


def made_up(seats, cookie: str | None = None, address: str = "127.0.0.1") -> aiohttp.ClientSession:
    """A script's browser: a cookie of its own making, never the page."""
    guest = browser(seats, address=address)
    guest.cookie_jar.update_cookies({COOKIE: cookie or secrets.token_hex(16)})
    return guest


async def test_a_silent_or_slow_connection_is_closed_within_seconds(monkeypatch, tmp_path):
    monkeypatch.setattr(gateway, "HTTP_IDLE", 0.5)  # (5 s for real)
    seats = StandInSeats(("127.0.0.1", 47470), limit=4, state_root=tmp_path / "web")
    await seats.start("127.0.0.1", 0)
    try:
        silent, _ = await asyncio.open_connection("127.0.0.1", seats.port)
        reader, slow = await asyncio.open_connection("127.0.0.1", seats.port)
        request = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 400

        async def a_byte_at_a_time() -> int:
            for sent, byte in enumerate(request):
                if slow.is_closing() or reader.at_eof():
                    return sent
                slow.write(bytes([byte]))
                await asyncio.sleep(0.02)
            return len(request)

        sent = asyncio.create_task(a_byte_at_a_time())
        await gone(silent)
        await gone(reader)
        assert await sent < len(request)  # cut off before its headers were in
        assert await honest_page(seats) == 200
        async with browser(seats) as ann:  # a page's keep-alive connection is closed too
            await ann.get("/")
            await until(lambda: not seats.open)
    finally:
        await seats.close()


async def test_a_websocket_that_answers_no_ping_is_closed_an_open_page_is_not(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(gateway, "HEARTBEAT", 0.3)  # (5 s for real)
    seats = StandInSeats(("127.0.0.1", 47470), limit=4, state_root=tmp_path / "web")
    await seats.start("127.0.0.1", 0)
    try:
        async with browser(seats) as ann, made_up(seats, address=HONEST) as mute:
            await ann.get("/")
            page = await ann.ws_connect("/ws", autoping=False)
            pings = 0

            async def answer() -> None:  # as a browser does, by itself
                nonlocal pings
                while (message := await page.receive()).type != aiohttp.WSMsgType.CLOSED:
                    if message.type == aiohttp.WSMsgType.PING:
                        await page.pong(message.data)
                        pings += 1

            answering = asyncio.create_task(answer())
            silent = await mute.ws_connect("/ws", autoping=False)  # reads and answers nothing
            await started(seats, session_of(mute))
            await until(lambda: session_of(mute) not in seats.pages)  # the silent one went
            await until(lambda: pings >= 5)  # five heartbeats later, the page is still open
            assert list(seats.pages) == [session_of(ann)]
            answering.cancel()
            await silent.close()
            await page.close()
    finally:
        await seats.close()


async def test_connections_from_one_address_are_capped(seats):
    held = []
    for _ in range(gateway.CONNECTIONS_PER_ADDRESS + 20):
        held.append(await asyncio.open_connection("127.0.0.1", seats.port))
    await until(lambda: seats.dropped >= 20)
    assert len(seats.open["127.0.0.1"]) == gateway.CONNECTIONS_PER_ADDRESS
    assert await honest_page(seats) == 200  # another address: in at once
    for _, writer in held:
        writer.close()


async def test_when_handles_run_short_the_biggest_holder_makes_way(tmp_path):
    """The host has handles for 20 web connections beyond the table's reserve (as if its
    limit were low, or many addresses held them): one address holding them all keeps its
    newest, and a browser from another address still gets in — an idle one made way."""
    seats = StandInSeats(("127.0.0.1", 47470), limit=4, state_root=tmp_path / "web")
    opened = lambda: sum(len(mine) for mine in seats.open.values())  # noqa: E731
    seats.handles = Handles(10, count=opened, limit=lambda: 30)
    await seats.start("127.0.0.1", 0)
    try:
        held = [await asyncio.open_connection("127.0.0.1", seats.port) for _ in range(25)]
        await until(lambda: seats.dropped >= 5)
        assert len(seats.open["127.0.0.1"]) <= 20
        assert await honest_page(seats) == 200
        assert seats.dropped >= 6  # one of the idle ones gave way
        for _, writer in held:
            writer.close()
    finally:
        await seats.close()


async def test_made_up_cookies_from_one_address_start_a_few_apps_and_hold_no_seat(seats):
    """16 websockets with cookies of their own making, from one address: PAGES_PER_ADDRESS
    player apps start, the others are told 4004; a browser from another address still gets
    its page, and the page asked for from the crowded address says why it gets none."""
    guests = [made_up(seats) for _ in range(16)]
    try:
        sockets = [await guest.ws_connect("/ws") for guest in guests]
        codes = []
        for socket in sockets[gateway.PAGES_PER_ADDRESS :]:
            codes.append(await closed(socket))
        assert codes == [gateway.CROWDED[0]] * (16 - gateway.PAGES_PER_ADDRESS)
        assert len(seats.pages) == gateway.PAGES_PER_ADDRESS
        assert await honest_page(seats) == 200
        async with browser(seats) as another:
            full = await another.get("/")
            assert full.status == 503
            assert f"already has {gateway.PAGES_PER_ADDRESS} pages" in await full.text()
    finally:
        for guest in guests:
            await guest.close()


async def test_page_starts_from_one_address_are_paced(seats):
    """A reload replaces its page, but a script reloading in a loop starts a player app each
    time: after PAGE_STARTS in a row, the address must wait."""
    async with made_up(seats) as looper:
        for _ in range(gateway.PAGE_STARTS):
            socket = await looper.ws_connect("/ws")
            await until(lambda: len(seats.pages) == 1)
            await socket.close()
            await until(lambda: not seats.pages)
        refused = await looper.ws_connect("/ws")
        assert await closed(refused) == gateway.CROWDED[0]
    assert await honest_page(seats) == 200


async def test_a_page_without_a_seat_is_closed_a_seated_one_is_not(seats, monkeypatch):
    monkeypatch.setattr(gateway, "PAGE_IDLE", 0.0)  # (3 minutes for real; checked by hand)
    door = seats.door
    async with browser(seats) as ann, browser(seats) as bob, browser(seats) as cleo:
        sockets = {}
        for guest in (ann, bob, cleo):
            await guest.get("/")
            sockets[session_of(guest)] = await guest.ws_connect("/ws")
        await until(lambda: len(seats.pages) == 3)
        key = {session: page.key for session, page in seats.pages.items()}
        door.places[key[session_of(ann)]] = ("seat", "Ann")
        door.places[key[session_of(bob)]] = ("watching", "")
        seats.check_pages()
        assert await closed(sockets[session_of(cleo)]) == gateway.IDLE[0]  # 4001
        assert set(seats.pages) == {session_of(ann), session_of(bob)}
        del door.places[key[session_of(ann)]]  # Ann left her seat (q): her page idles now
        seats.check_pages()
        assert await closed(sockets[session_of(ann)]) == 4001
        assert set(seats.pages) == {session_of(bob)}
        await until(lambda: key[session_of(cleo)] not in door.places)


async def test_the_host_closes_a_page_and_it_is_told(seats):
    async with browser(seats) as ann:
        await ann.get("/")
        socket = await ann.ws_connect("/ws")
        await until(lambda: seats.pages and next(iter(seats.pages.values())).process)
        page = next(iter(seats.pages.values()))
        await until(lambda: page.process.pid is not None)
        seats.close_page(page)
        assert await closed(socket) == gateway.CLOSED[0]  # 4002
        await until(lambda: page.process._process.returncode is not None)
        assert not seats.pages


async def test_junk_terminal_sizes_are_clamped_not_fatal(seats):
    async with browser(seats) as ann:
        await ann.get("/")
        session = session_of(ann)
        async with ann.ws_connect("/ws?width=1e999&height=nan") as socket:
            seen = await started(seats, session)
            assert (seen["columns"], seen["rows"]) == ("80", "24")
            junk = [
                '["resize", {"width": 1e999, "height": 1e999}]',
                '["resize", {"width": -1e999, "height": NaN}]',
                '["resize", {"width": Infinity, "height": -Infinity}]',
                '["resize", {"width": 1e300, "height": -7}]',
                '["resize", {"width": "wide", "height": [1, 2]}]',
                '["resize", {"width": true, "height": {"a": 1}}]',
                '["resize", {"width": ' + "9" * 5000 + ', "height": 1}]',
                '["resize", {"width": 100, "height": 30}]',  # the last: a real one
            ]
            for message in junk:
                await socket.send_str(message)
            sizes = seats.dirs.path(session) / "sizes.txt"
            await until(lambda: sizes.exists() and b"100" in sizes.read_bytes())
            page = seats.pages[session]
            assert page.process._process.returncode is None  # alive: nothing was fatal
            told = [json.loads(line[line.index(b"{") :]) for line in _packets(sizes)]
            for size in told:
                assert COLUMNS[0] <= size["width"] <= COLUMNS[1]
                assert LINES[0] <= size["height"] <= LINES[1]
            assert told[-1]["width"] == 100 and told[-1]["height"] == 30


def _packets(path) -> list[bytes]:
    """The resize packets the stand-in was sent (textual-serve's meta packets are JSON)."""
    data = path.read_bytes()
    found, start = [], 0
    while (at := data.find(b'{"type": "resize"', start)) >= 0 or (
        at := data.find(b'{"type":"resize"', start)
    ) >= 0:
        end = data.index(b"}", at) + 1
        found.append(data[at:end])
        start = end
    return found


def test_clamp_takes_whatever_a_page_sends():
    for junk in (float("inf"), float("-inf"), float("nan"), "1e999", "wide", None, [1], {}):
        assert clamp(junk, (20, 300), 80) == 80
    assert clamp(True, (20, 300), 80) == 80
    assert clamp(1e300, (20, 300), 80) == 300
    assert clamp(-5, (20, 300), 80) == 20
    assert clamp("120", (20, 300), 80) == 120


def options_text(app) -> list[str]:
    """The lines of the page list as drawn."""
    listing = app.screen.query_one("#pages")
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def test_the_host_sees_the_pages_closes_one_and_blocks_another(state_dir, monkeypatch):
    """`w`, then `p` on the host's screen: every page with its address and where it sits (a
    seat's name comes through the page's relay key, as its app would send it); `c` closes the
    highlighted page (told 4002), `!` and `y` block its address (told 4003, no page again)."""
    from net.protocol import PROTOCOL_VERSION
    from net.room import Room
    from tests.wire import Wire
    from tui.host.app import HostApp
    from tui.host.web_dialog import WebPagesScreen, WebSeatScreen
    from tui.i18n import set_lang
    from tui.waiting import until as pilot_until

    real = gateway.WebSeats.argv
    monkeypatch.setattr(gateway.WebSeats, "argv", lambda seats, lang: stand_in(real(seats, lang)))
    set_lang("en")
    room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False, web_port=0)
    async with host.run_test(size=(80, 24)) as pilot:
        await pilot_until(lambda: host.web is not None and host.web.port, pilot)
        seats = host.web
        wendy, mallory = browser(seats, address="127.0.0.2"), browser(seats, address="127.0.0.3")
        async with wendy, mallory:
            sockets = []
            for guest in (wendy, mallory):
                await guest.get("/")
                sockets.append(await guest.ws_connect("/ws"))
                await until(lambda guest=guest: session_of(guest) in seats.pages)
            key = seats.pages[session_of(wendy)].key
            app_link = await Wire.connect(host.server.port)  # Wendy's app takes a seat
            relay = {"key": key, "address": "127.0.0.2"}
            await app_link.send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": "Wendy",
                                 "code": "KQXM", "relay": relay})  # fmt: skip
            await app_link.expect("welcome")
            await pilot.press("w")
            await pilot_until(lambda: isinstance(host.screen, WebSeatScreen), pilot)
            await pilot.press("p")
            await pilot_until(lambda: isinstance(host.screen, WebPagesScreen), pilot)
            await pilot_until(lambda: "Wendy" in " ".join(options_text(host)), pilot)
            lines = options_text(host)
            assert lines[0].startswith("127.0.0.2") and "Wendy" in lines[0]
            assert lines[1].startswith("127.0.0.3") and "no seat yet" in lines[1]
            await pilot.press("c")  # Wendy's page, the highlighted one
            assert await closed(sockets[0]) == gateway.CLOSED[0]
            await pilot_until(lambda: len(options_text(host)) == 1, pilot)
            await pilot.press("exclamation_mark")
            await pilot.press("y")
            assert await closed(sockets[1]) == gateway.BLOCKED[0]
            assert host.server.is_blocked("127.0.0.3")
            assert (await mallory.get("/")).status == 403
            await pilot_until(lambda: "No browser page" in " ".join(options_text(host)), pilot)
            app_link.close()
