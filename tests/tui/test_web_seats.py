"""The web seats' server (tui/web/gateway.py), with a stand-in for the player app
(tests/webseats.py): what a page may start, how many, and how a browser finds its own state
directory again. Its door against strangers: tests/tui/test_web_door.py."""

from __future__ import annotations

import html
import re
import struct
from pathlib import Path

import aiohttp
import pytest

from tests.webseats import (
    Door,
    StandInSeats,
    browser,
    closed,
    drawn_symbols,
    session_of,
    started,
)
from tui import bigtext
from tui.bigtext import big
from tui.games.tallyup.pieces import BARS
from tui.i18n import catalogue
from tui.waiting import until
from tui.web import gateway
from tui.web.gateway import WebSeats, browser_lang, clamp
from tui.web.sessions import COOKIE, KEEP, MAX_AGE, SessionDirs

OUTSIDE = re.compile(r"https?://|[\"'(]//")
"""An address of another host in a page: a URL with a scheme, or scheme-relative."""


@pytest.fixture
async def seats(tmp_path):
    server = StandInSeats(("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web")
    await server.start("127.0.0.1", 0)
    yield server
    await server.close()


async def test_a_page_runs_only_this_tables_player_app(seats):
    async with browser(seats, "ru-RU,ru;q=0.9,en;q=0.8") as ann:
        page = await ann.get("/?cmd=sh&address=10.0.0.1:1")
        assert page.status == 200
        assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
        session = page.cookies[COOKIE].value
        body = await page.text()
        assert not OUTSIDE.search(body)  # nothing from another host
        async with ann.ws_connect("/ws?width=99999&height=-5&cmd=sh") as socket:
            seen = await started(seats, session)
            await socket.close()
    assert seen["argv"] == [
        "join", "127.0.0.1:47470", "--no-zeroconf", "--only-this-table", "--lang", "ru",
    ]  # fmt: skip
    assert (seen["columns"], seen["rows"]) == ("300", "10")  # clamped


async def test_the_page_and_its_files_come_from_the_package(seats):
    async with browser(seats) as ann:
        body = await (await ann.get("/")).text()
        for path in ("/static/js/textual.js", "/static/css/xterm.css",
                     "/static/fonts/RobotoMono-VariableFont_wght.ttf"):  # fmt: skip
            assert path in body
            assert (await ann.get(path)).status == 200
        assert (await ann.get("/static/../gateway.py")).status in (403, 404)
        assert (await ann.get("/static/")).status in (403, 404)  # no listing
        script = await ann.get("/seat.js")  # the page's own: before textual.js, from here
        assert script.status == 200 and script.content_type == "application/javascript"
        assert body.index("/seat.js") < body.index("/static/js/textual.js")


def font_tables(data: bytes) -> dict[str, bytes]:
    """A TrueType file's tables by tag."""
    (count,) = struct.unpack(">H", data[4:6])
    tables = {}
    for entry in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * entry : 28 + 16 * entry])
        tables[tag.decode()] = data[offset : offset + length]
    return tables


def font_metrics(data: bytes) -> dict[str, int]:
    """What places a glyph in a line: units per em, ascent and descent (hhea, typo, win), the
    widest advance."""
    tables = font_tables(data)
    hhea, os2 = tables["hhea"], tables["OS/2"]
    (upem,) = struct.unpack(">H", tables["head"][18:20])
    ascent, descent, gap, widest = struct.unpack(">hhhH", hhea[4:12])
    typo = struct.unpack(">hhh", os2[68:74])
    win = struct.unpack(">HH", os2[74:78])
    return {"upem": upem, "hhea": (ascent, descent, gap), "typo": typo, "win": win,
            "advance": widest}  # fmt: skip


def font_characters(data: bytes) -> set[str]:
    """The characters a TrueType file maps (its Unicode BMP cmap, format 4)."""
    cmap = font_tables(data)["cmap"]
    (count,) = struct.unpack(">H", cmap[2:4])
    for entry in range(count):
        platform, encoding, offset = struct.unpack(">HHI", cmap[4 + 8 * entry : 12 + 8 * entry])
        if (platform, encoding) in ((3, 1), (0, 3)):
            table = cmap[offset:]
            assert struct.unpack(">H", table[:2])[0] == 4
            (segments,) = struct.unpack(">H", table[6:8])
            segments //= 2
            ends = struct.unpack(f">{segments}H", table[14 : 14 + 2 * segments])
            starts = struct.unpack(f">{segments}H", table[16 + 2 * segments : 16 + 4 * segments])
            return {chr(c) for s, e in zip(starts, ends, strict=True) for c in range(s, e + 1)
                    if c != 0xFFFF}  # fmt: skip
    raise AssertionError("no Unicode cmap")


def unicode_range(text: str) -> set[str]:
    """The characters of a CSS unicode-range (`U+2580-2590, U+2594`)."""
    chars = set()
    for part in text.split(","):
        first, _, last = part.strip().removeprefix("U+").partition("-")
        chars |= {chr(c) for c in range(int(first, 16), int(last or first, 16) + 1)}
    return chars


async def test_the_page_draws_block_elements_with_its_own_font(seats):
    """Big letters are whole in a browser (the play-test: "the top row of BABBLER is cut"):
    Roboto Mono has no block elements, and a device's own font drew them off xterm's cell. The
    page serves a font of its own for them (tools/seat_font.py), in the terminal's family with
    Roboto Mono's descriptors (a face that differs in them is never used for these characters),
    its glyphs placed by Roboto Mono's metrics; it has every block the screens draw. How they
    look in Chromium: tests/e2e/test_browser_glyphs.py."""
    async with browser(seats) as ann:
        body = await (await ann.get("/")).text()
        served = await ann.get("/blocks.ttf")
        assert served.status == 200 and served.content_type == "font/ttf"
        blocks = await served.read()
    assert blocks == (Path(gateway.__file__).parent / "blocks.ttf").read_bytes()
    faces = [dict(re.findall(r"([a-z-]+):\s*([^;]+);", face))
             for face in re.findall(r"@font-face\s*{([^}]*)}", body)]  # fmt: skip
    roboto = {f["font-style"]: f for f in faces if "RobotoMono" in f["src"]}
    ours = [f for f in faces if "/blocks.ttf" in f["src"]]
    assert {f["font-style"] for f in ours} == set(roboto) == {"normal"}  # no italic face:
    # the upright one slanted, as wide as a cell (tests/e2e/test_browser_glyphs.py)
    covered = font_characters(blocks) - {" "}
    for face in ours:
        assert face["font-family"] == roboto[face["font-style"]]["font-family"]
        assert face["font-weight"] == roboto[face["font-style"]]["font-weight"]
        assert unicode_range(face["unicode-range"]) == covered
    assert max(faces.index(f) for f in roboto.values()) < min(map(faces.index, ours))  # last
    roboto_font = (gateway.STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf").read_bytes()
    assert font_metrics(blocks) == font_metrics(roboto_font)
    drawn = {c for word in bigtext.FONT for scale in (1, 2) for c in "".join(big(word, scale))}
    assert drawn - {" "} <= covered, "big letters drawn with a block the page's font lacks"
    assert set(BARS) <= covered  # Tally Up!'s dice chart
    # every other symbol a screen draws that Roboto Mono lacks (a device's own font drew
    # them wider than the cell, or not at all: half a ◆, half of every ★, no ⏱)
    lacking = drawn_symbols() - font_characters(roboto_font)
    assert {"◆", "★", "⏱", "✔", "╭", "─"} <= lacking  # (what the play-test saw cut)
    assert lacking <= covered, f"the page's font lacks {''.join(sorted(lacking - covered))}"


async def test_the_page_speaks_the_browsers_language(seats):
    """Every word the page's script may say — the link lost, the table closed, a page ended
    and why, JavaScript turned off — comes in the browser's language, and the link's words
    are the player app's own."""
    async with browser(seats, "ru-RU,ru;q=0.9") as olga:
        body = await (await olga.get("/")).text()
    words = catalogue("ru")
    for key in ("link.reconnecting", "link.closed_resumable", "web.ended", "web.idle",
                "web.closed_by_host", "web.blocked", "web.replaced", "web.no_script"):  # fmt: skip
        assert html.escape(words[key]) in body, key
    assert 'lang="ru"' in body


async def test_a_host_that_chose_its_language_speaks_it_to_every_browser(tmp_path):
    """`hubbub host --lang ru`: the page and its player app (the join form) are Russian for
    a browser that asks for English — a guest joins the table in its language (its cards, its
    words). Without the host's choice, the browser's language (above)."""
    server = StandInSeats(
        ("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web", lang="ru", lang_chosen=True
    )
    await server.start("127.0.0.1", 0)
    try:
        async with browser(server, "en-US,en;q=0.9") as ann:
            page = await ann.get("/")
            body = await page.text()
            assert 'lang="ru"' in body
            assert html.escape(catalogue("ru")["link.reconnecting"]) in body
            async with ann.ws_connect("/ws") as socket:
                seen = await started(server, page.cookies[COOKIE].value)
                await socket.close()
        assert seen["argv"][-2:] == ["--lang", "ru"]
    finally:
        await server.close()


async def test_pages_are_bounded_and_a_reload_replaces_its_page(seats):
    async with browser(seats) as ann, browser(seats) as boris, browser(seats) as cleo:
        for guest in (ann, boris, cleo):
            await guest.get("/")
        one = await ann.ws_connect("/ws")
        await until(lambda: len(seats.pages) == 1)
        two = await boris.ws_connect("/ws")
        await until(lambda: len(seats.pages) == 2)

        full = await cleo.get("/")  # the third browser is told, in words
        assert full.status == 503
        assert "2" in await full.text() and "hubbub join" in await full.text()
        refused = await cleo.ws_connect("/ws")  # accepted, and closed with a code it reads
        assert await closed(refused) == gateway.FULL[0] == 4004

        again = await ann.ws_connect("/ws")  # Ann reloads: her page is replaced, not added
        assert await closed(one) == gateway.REPLACED[0]  # the old tab knows not to come back
        assert len(seats.pages) == 2
        assert seats.pages[session_of(ann)].socket is not None
        await again.close()
        await until(lambda: len(seats.pages) == 1)
        assert (await cleo.get("/")).status == 200  # a seat freed: the next one gets it
        await two.close()


async def test_a_socket_without_the_pages_cookie_is_refused(seats):
    async with aiohttp.ClientSession(f"http://127.0.0.1:{seats.port}") as stranger:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await stranger.ws_connect("/ws", headers={"Cookie": f"{COOKIE}=../../etc"})
        assert refused.value.status == 403
    assert seats.pages == {}


async def test_a_browser_keeps_its_state_directory(seats):
    async with browser(seats) as ann, browser(seats) as boris:
        await ann.get("/")
        await boris.get("/")
        a = next(c.value for c in ann.cookie_jar if c.key == COOKIE)
        b = next(c.value for c in boris.cookie_jar if c.key == COOKIE)
        assert a != b and len(a) == 32
        await ann.get("/")  # a reload keeps the id
        assert next(c.value for c in ann.cookie_jar if c.key == COOKIE) == a
        async with ann.ws_connect("/ws") as socket:
            await started(seats, a)
            await socket.close()
    assert seats.dirs.path(a).is_dir() and not seats.dirs.path(b).exists()
    assert a not in str(seats.dirs.path(a))  # named by a hash: a listing hands out no seat


async def test_the_player_apps_quit_when_the_host_closes(tmp_path):
    server = StandInSeats(("127.0.0.1", 47470), limit=3, state_root=tmp_path / "web")
    await server.start("127.0.0.1", 0)
    async with browser(server) as ann:
        await ann.get("/")
        socket = await ann.ws_connect("/ws")
        await until(lambda: server.pages and next(iter(server.pages.values())).process)
        process = next(iter(server.pages.values())).process
        await until(lambda: process.pid is not None)
        await server.close()
        assert process._process.returncode is not None
        assert await closed(socket) == gateway.HOST_CLOSED[0]  # the page waits for a resume


async def test_a_port_in_use_is_an_os_error(tmp_path, seats):
    other = WebSeats(("127.0.0.1", 47470), limit=1, state_root=tmp_path / "other")
    with pytest.raises(OSError):
        await other.start("127.0.0.1", seats.port)


def test_state_directories_are_forgotten_after_an_evening(tmp_path):
    now = [1_000_000.0]
    dirs = SessionDirs(tmp_path, clock=lambda: now[0])
    old = dirs.open("a" * 32)
    now[0] += MAX_AGE + 1
    fresh = dirs.open("b" * 32)
    assert fresh.is_dir() and not old.exists()
    for n in range(KEEP + 5):
        now[0] += 1
        dirs.open(f"{n:032x}")
    assert len(list(tmp_path.iterdir())) == KEEP


def test_small_parsers():
    assert browser_lang("ru-RU,ru;q=0.9,en-US;q=0.8", "en") == "ru"
    assert browser_lang("de-DE,en;q=0.5,ru;q=0.4", "ru") == "en"
    assert browser_lang("de, fr;q=x", "ru") == "ru"
    assert browser_lang("", "en") == "en"
    assert clamp("12", (20, 300), 80) == 20
    assert clamp(None, (20, 300), 80) == 80
    assert clamp("1e9", (20, 300), 80) == 80
    assert gateway.STATIC.joinpath("js", "textual.js").exists()


def test_the_page_fetches_nothing_from_outside():
    for name in ("page", "full"):
        text = (Path(gateway.__file__).parent / f"{name}.html").read_text()
        assert not OUTSIDE.search(text), name


async def test_a_page_tells_the_table_its_browsers_address_and_a_blocked_one_gets_none(tmp_path):
    door = Door()
    seats = StandInSeats(("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web", door=door)
    await seats.start("127.0.0.1", 0)
    try:
        async with browser(seats) as ann:
            page = await ann.get("/")
            session = page.cookies[COOKIE].value
            socket = await ann.ws_connect("/ws")
            seen = await started(seats, session)
            assert seen["relay"] == [door.keys[0], "127.0.0.1"]  # its page's key, where Ann is
            door.block("127.0.0.1")  # the host pressed ! for her address: her page ends
            assert await closed(socket) == gateway.BLOCKED[0]
            await until(lambda: not seats.pages)
            assert (await ann.get("/")).status == 403
            again = await ann.ws_connect("/ws")
            assert await closed(again) == 4003 and not seats.pages
    finally:
        await seats.close()


def test_a_web_seats_app_relays_what_its_page_was_given(monkeypatch):
    from tui.cli import web_relay

    monkeypatch.delenv("HUBBUB_RELAY_KEY", raising=False)
    monkeypatch.setenv("HUBBUB_RELAY_ADDRESS", "192.168.1.33")
    assert web_relay() is None  # no key: nothing to relay
    monkeypatch.setenv("HUBBUB_RELAY_KEY", "k" * 32)
    assert web_relay() == {"key": "k" * 32, "address": "192.168.1.33"}


@pytest.mark.parametrize(
    ("host", "shown"),
    [
        ("192.0.2.2:47471", "192.0.2.2:47471"),
        ("friday.local:47471", "friday.local:47471"),
        ("[fd00::2]:47471", "[fd00::2]:47471"),
        ("evil<b>:1", None),  # not an address: nothing shown
    ],
)
async def test_a_pages_app_knows_the_address_its_browser_reached(seats, host, shown):
    """The page's app connects to the table on loopback; its join form names the address
    the guest's browser used (the page's Host), never 127.0.0.1."""
    async with browser(seats) as ann:
        page = await ann.get("/", headers={"Host": host})
        async with ann.ws_connect("/ws", headers={"Host": host}):
            assert (await started(seats, page.cookies[COOKIE].value))["shown"] == shown


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(
    ("reached", "table"),
    [
        ("192.0.2.2:47471", "192.0.2.2:9"),
        ("kitchen.local", "kitchen.local:9"),
        ("[fe80::1]:47471", "[fe80::1]:9"),
    ],
)
async def test_the_join_form_names_the_address_the_guest_used(language, reached, table):
    """The host the browser reached (not the seat's loopback), with the table's port: what
    `hubbub join` takes (the page's port is the web seats', and two play-testers copied it)."""
    from tui.client.app import ClientApp
    from tui.client.screens import JoinScreen
    from tui.i18n import set_lang, t

    set_lang(language)
    try:
        app = ClientApp(
            ("127.0.0.1", 9), discover=False, only_this_table=True, shown_address=reached
        )
        async with app.run_test(size=(40, 37)) as pilot:
            await until(lambda: isinstance(app.screen, JoinScreen), pilot)
            await pilot.pause()
            shown = str(app.screen.query_one("#join-where").render())
            assert shown == f"{t('join.where')} {table}"
            assert "127.0.0.1" not in str(app.screen.query_one("#join-where").render())
    finally:
        set_lang("en")
