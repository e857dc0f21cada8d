"""Watching through the real apps: F2 on the join form (or `hubbub join --watch`) gets the
public table on a player's laptop, no seat taken; the host's table counts its audience."""

from __future__ import annotations

import pytest

from net.client import TokenStore
from net.room import Room
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp
from tui.client.screens import (
    GoneScreen,
    JoinScreen,
    PlayerResultsScreen,
    WaitScreen,
    WatchScreen,
    aged,
)
from tui.host.app import HostApp
from tui.host.screens import LobbyScreen
from tui.i18n import set_lang, t
from tui.waiting import until

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_f2_on_the_join_form_watches_a_game_to_its_end(peek, state_dir, lang):
    set_lang(lang)
    try:
        room = Room("Friday", game_id="peek", code="KQXM", save_path=state_dir / "t.save")
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
        async with host.run_test(size=(100, 30)) as hp:
            await until(lambda: isinstance(host.screen, LobbyScreen), hp)
            port = host.server.port
            ann = ClientApp(
                ("127.0.0.1", port), name="Ann", discover=False,
                tokens=TokenStore(state_dir / "ann.json"),
            )  # fmt: skip
            eve = ClientApp(
                ("127.0.0.1", port), discover=False, tokens=TokenStore(state_dir / "eve.json")
            )
            async with ann.run_test(size=(100, 30)) as ap, eve.run_test(size=(100, 30)) as ep:
                await until(lambda: isinstance(ann.screen, JoinScreen), ap)
                await until(lambda: ann.screen.focused is ann.screen.query_one("#code"), ap)
                await ap.press(*"kqxm", "enter")  # her name is in: the code is asked
                await until(lambda: len(room.seats) == 1 and room.seats[0].connected, hp)

                await until(lambda: isinstance(eve.screen, JoinScreen), ep)
                await ep.press("f2")  # watch instead: the form asks for the code only
                assert not eve.screen.query_one("#name").display
                assert eve.screen.focused is eve.screen.query_one("#code")
                await ep.press(*"kqxm", "enter")
                await until(lambda: len(host.server.watchers) == 1, hp)
                said = "1 watching" if lang == "en" else "зрителей: 1"
                seats = host.screen.query_one("#players-box")
                await until(lambda: seats.border_subtitle == said, hp)  # the host sees them
                await until(lambda: isinstance(eve.screen, WaitScreen) and eve.room, ep)
                assert ("Watching" if lang == "en" else "Вы зритель") in screen_text(eve)
                assert [s.name for s in room.seats] == ["Ann"]  # no seat for the audience

                room.start(lang=lang)
                await until(lambda: isinstance(eve.screen, WatchScreen), ep)
                await until(lambda: eve.game is not None and ann.game is not None, ep)
                assert "card" in ann.game and "card" not in eve.game  # the table's view only
                ann.act({"type": "reveal"})
                await until(lambda: room.phase == "over", hp)
                await until(lambda: isinstance(eve.screen, PlayerResultsScreen), ep)
                assert eve.game["revealed"][0] == room.state["hands"][0]  # shown, once public
                await until(lambda: "Ann" in screen_text(eve), ep)  # the winner, once drawn
                # still a watcher: said in the title and the words, `q` named for it
                assert eve.screen.sub_title.endswith(t("watch.sub_title", game="").strip())
                assert t("wait.over_watching") in screen_text(eve)
                assert eve.screen.active_bindings["q"].binding.action == "stop_watching"

                await ep.press("q")  # she stops watching: the app ends, the table plays on
                await until(lambda: not host.server.watchers, hp)
                assert [s.name for s in room.seats] == ["Ann"] and room.seats[0].connected
    finally:
        set_lang("en")


async def test_join_watch_goes_straight_to_the_table_and_a_full_table_offers_it(
    peek, state_dir, monkeypatch
):
    set_lang("en")
    monkeypatch.setattr("net.lobby.MAX_SEATS", 1)
    room = Room("Friday", game_id="peek", open_room=True)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        room.add_bot()
        address = ("127.0.0.1", host.server.port)
        watcher = ClientApp(address, discover=False, watch=True)  # `hubbub join --watch`
        late = ClientApp(address, name="Bob", discover=False)
        async with watcher.run_test(size=(80, 24)) as wp, late.run_test(size=(80, 24)) as lp:
            await until(lambda: isinstance(watcher.screen, WaitScreen) and watcher.room, wp)
            assert watcher.room["you"] is None and watcher.watching
            await until(lambda: isinstance(late.screen, JoinScreen) and late.screen.error, lp)
            assert "F2" in screen_text(late)  # the table is full: watching is offered
            await lp.press("f2", "enter")  # the code only (this table has none: Enter)
            await until(lambda: len(host.server.watchers) == 2, hp)
            await until(lambda: isinstance(late.screen, WaitScreen) and late.room, lp)
            assert len(room.seats) == 1
            await wp.press("q")  # the lobby's q, for a watcher: stop watching
            await until(lambda: len(host.server.watchers) == 1, hp)


async def test_a_browser_page_can_watch_its_table_too(peek, state_dir):
    """A web seat's app (`--only-this-table`) offers F2 on its join form like any other."""
    set_lang("en")
    room = Room("Friday", game_id="peek", code="KQXM", save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        page = ClientApp(("127.0.0.1", host.server.port), discover=False, only_this_table=True)
        async with page.run_test(size=(80, 24)) as pp:
            await until(lambda: isinstance(page.screen, JoinScreen), pp)
            await pp.press("f2")
            assert "Enter: watch   F2: play instead" in screen_text(page)
            await pp.press(*"KQXM", "enter")
            await until(lambda: len(host.server.watchers) == 1, hp)
            await until(lambda: isinstance(page.screen, WaitScreen) and page.room, pp)
            assert not room.seats


def test_a_watchers_away_times_go_on_counting_between_views():
    room = {"phase": "playing", "seats": [
        {"name": "Ann", "away_for": 3.0, "standin_in": 5.0},
        {"name": "Bob", "away_for": None, "standin_in": None},
    ]}  # fmt: skip
    later = aged(room, 7.5)
    assert later["seats"][0]["away_for"] == 10.5 and later["seats"][0]["standin_in"] == 0.0
    assert later["seats"][1] == room["seats"][1] and room["seats"][0]["away_for"] == 3.0


async def test_a_watcher_whose_host_quits_is_told_so(peek, state_dir):
    """The host quits: a watcher is told the table is closed (the gone screen), as a player
    is — not dropped on the code form with no word."""
    set_lang("en")
    room = Room("Friday", game_id="peek", code="KQXM")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        watcher = ClientApp(("127.0.0.1", host.server.port), discover=False, watch=True)
        async with watcher.run_test(size=(80, 24)) as wp:
            await until(lambda: isinstance(watcher.screen, JoinScreen), wp)
            await wp.press(*"kqxm", "enter")
            await until(lambda: isinstance(watcher.screen, WaitScreen) and watcher.room, wp)
            await host.server.close("closed")
            await until(lambda: isinstance(watcher.screen, GoneScreen), wp, what="told")
            await until(lambda: t("gone.closed") in screen_text(watcher), wp)
