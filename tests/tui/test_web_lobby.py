"""The web seats as the host and the player apps show them: the lobby's address, its QR code
(decoded back to the address shown), a busy port that costs the web seats only, and a player
app kept to this table."""

from __future__ import annotations

import ctypes.util
import socket

import aiohttp
import pytest

from net.room import Room
from net.seats import HostSettings
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp
from tui.client.screens import GoneScreen, JoinScreen
from tui.host.app import HostApp
from tui.host.screens import LobbyScreen
from tui.host.web_dialog import WebSeatScreen
from tui.i18n import set_lang, t
from tui.waiting import until
from tui.web.qr import QUIET, matrix, read_lines


def shown_qr(app) -> tuple[str, list[str]]:
    """The address and the code's lines, as the dialog draws them."""
    url = str(app.screen.query_one("#web-url").render())
    lines = str(app.screen.query_one("#web-qr").render()).split("\n")
    return url, lines


async def test_the_lobby_shows_the_web_address_and_w_its_qr_code(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False, web_port=0)
    async with host.run_test(size=(80, 24)) as pilot:
        await until(lambda: isinstance(host.screen, LobbyScreen), pilot)
        url = f"http://127.0.0.1:{host.web.port}"
        assert host.web_url == url
        await until(lambda: url in screen_text(host), pilot)  # once the lobby is drawn
        assert "Or in a browser (w: QR code):" in screen_text(host)
        await pilot.press("w")
        await until(lambda: isinstance(host.screen, WebSeatScreen), pilot)
        shown, lines = shown_qr(host)
        assert shown == url
        assert len(lines) <= 17 and max(len(line) for line in lines) <= 33  # fits 80×24
        size = len(matrix(shown))
        assert read_lines(lines)[:size] == matrix(shown)  # the code of the shown address
        region = host.screen.query_one("#web-qr").region
        assert region.bottom <= 24 and region.right <= 80  # not clipped
        await pilot.press("escape")
        await until(lambda: isinstance(host.screen, LobbyScreen), pilot)


@pytest.mark.parametrize(("chosen", "spoken"), [("ru", "ru"), (None, "en")])
async def test_the_web_page_speaks_the_hosts_chosen_language(state_dir, chosen, spoken):
    """A host started with `--lang ru`: the page (and its player app, the join form) speaks
    Russian to a browser that asks for English — the table, its cards and its words are
    Russian. Without `--lang` (the host's locale guessed Russian), the browser's English."""
    set_lang("ru")
    try:
        room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save",
                    settings=HostSettings(lang=chosen))  # fmt: skip
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False, web_port=0)
        async with host.run_test(size=(80, 24)) as pilot:
            await until(lambda: host.web is not None, pilot)
            headers = {"Accept-Language": "en-US,en;q=0.9"}
            async with aiohttp.ClientSession(headers=headers) as guest:
                page = await guest.get(f"http://127.0.0.1:{host.web.port}/")
                assert f'lang="{spoken}"' in await page.text()
    finally:
        set_lang("en")


def zbar_reads(lines: list[str]) -> list[str]:
    """What zbar reads in the drawn code (its modules as pixels, 4 per module)."""
    if ctypes.util.find_library("zbar") is None:
        pytest.skip("libzbar0 is not installed (apt-get install libzbar0)")
    pyzbar = pytest.importorskip("pyzbar.pyzbar", reason="pyzbar is not installed")
    modules, scale = read_lines(lines), 4
    pixels = bytearray()
    for row in modules:
        pixels += bytes(0 if dark else 255 for dark in row for _ in range(scale)) * scale
    found = pyzbar.decode((bytes(pixels), len(modules[0]) * scale, len(modules) * scale))
    return [code.data.decode() for code in found]


async def test_the_dialogs_qr_code_decodes_to_the_address_shown(state_dir):
    set_lang("ru")
    try:
        room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save")
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False, web_port=0)
        async with host.run_test(size=(80, 24)) as pilot:
            await until(lambda: isinstance(host.screen, LobbyScreen), pilot)
            host.web_url = "http://192.168.100.200:47471"  # a long LAN address: version 3
            await pilot.press("w")
            await until(lambda: isinstance(host.screen, WebSeatScreen), pilot)
            shown, lines = shown_qr(host)
    finally:
        set_lang("en")
    assert zbar_reads(lines) == [shown] == ["http://192.168.100.200:47471"]
    assert QUIET >= 2


async def test_a_busy_web_port_costs_the_web_seats_only(state_dir):
    set_lang("en")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save")
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False, web_port=port)
        async with host.run_test(size=(80, 24)) as pilot:
            await until(lambda: isinstance(host.screen, LobbyScreen), pilot)
            assert host.web is None and host.web_url is None
            await until(
                lambda: f"No browser seats: port {port} is in use" in screen_text(host), pilot
            )
            assert host.server.port  # the table listens all the same
            await pilot.press("w")  # no dialog to open
            assert isinstance(host.screen, LobbyScreen)


async def test_a_web_seats_player_app_stays_at_its_table(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="tallyup", code="KQXM", save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(80, 24)) as hp:
        address = ("127.0.0.1", host.server.port)
        player = ClientApp(address, discover=False, only_this_table=True)
        async with player.run_test(size=(80, 24)) as pp:
            await until(lambda: "Your name" in screen_text(player), pp)  # the form is drawn
            assert "Esc" not in screen_text(player)
            await pp.press("escape")  # no way back to a list of tables
            await pp.pause()
            assert isinstance(player.screen, JoinScreen)
            await pp.press(*"Ann", "enter")
            await pp.press(*"kqxm", "enter")
            await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)
            host.server.kick(0)
            await until(lambda: isinstance(player.screen, GoneScreen), pp)
            await until(lambda: "join this table again" in screen_text(player), pp)
            await pp.press("enter")  # this table's join form again, not the LAN's list
            await until(lambda: isinstance(player.screen, JoinScreen), pp)
            assert player.screen.host_address == "127.0.0.1"


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_phone_coming_back_to_the_lobby_sees_the_game_and_its_options(state_dir, language):
    """A reload in the lobby: the page's new app comes up on its wait screen before the
    table's first word, and the game's box, as tall as what it shows on a phone, was sized
    for nothing — so it showed the game's name only, for good ("Tally Up!", a blank line,
    the seats), however the host changed the options."""
    from net.client import TokenStore

    set_lang(language)
    try:
        room = Room("Friday", game_id="tallyup", open_room=True)
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
        async with host.run_test(size=(80, 24)) as hp:
            address = ("127.0.0.1", host.server.port)
            tokens = TokenStore(state_dir / "phone.json")
            tagline = t("game.tallyup.tagline")[:20]
            for _ in range(2):  # the first page, then the page reloaded (its seat taken back)
                player = ClientApp(address, name="Ann", discover=False, only_this_table=True,
                                   tokens=tokens)  # fmt: skip
                async with player.run_test(size=(40, 37)) as pp:
                    await until(lambda: [s.connected for s in room.seats] == [True], hp)
                    await until(lambda p=player: (p.room or {}).get("you") == 0, pp)
                    target = t("option.tallyup.target")
                    await until(lambda p=player: tagline in " ".join(screen_text(p).split()),
                                pp, what="the game's tagline")  # fmt: skip
                    assert target in screen_text(player)
                await until(lambda: not room.seats[0].connected, hp)
    finally:
        set_lang("en")
