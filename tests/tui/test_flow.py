"""The host app and a player app in one event loop, over real sockets, driven by keys only."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from net.discovery import HostInfo
from net.protocol import PROTOCOL_VERSION
from net.room import Room
from tui.client.app import ClientApp
from tui.client.screens import FindScreen, GameScreen, GoneScreen, JoinScreen, WaitScreen
from tui.host.app import HostApp
from tui.host.screens import LobbyScreen, ResultsScreen, TableScreen
from tui.i18n import set_lang
from tui.waiting import until
from tui.widgets import TypeAhead


def burst(app, *typed: str) -> None:
    """Keys the way a typist faster than the app sends them (tmux, a paste, a good typist on
    a busy laptop): all of them queued before the app has read the first. Pilot's `press`
    waits for the app to settle after each key, which no keyboard does."""
    for key in typed:
        char = {"enter": "\r", "ctrl+j": "\n"}.get(key, key)
        app.post_message(events.Key(key, char))


def screen_text(app) -> str:
    return "\n".join(
        str(widget.render()) for widget in app.screen.query("Static") if widget.display
    )


async def test_join_by_keys_start_play_and_back_to_lobby(peek, state_dir):
    set_lang("en")
    room = Room("Friday", game_id="peek", code="KQXM", save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        player = ClientApp(("127.0.0.1", host.server.port), discover=False)
        async with player.run_test(size=(100, 30)) as pp:
            await until(lambda: isinstance(player.screen, JoinScreen), pp)
            await pp.press(*"Ann", "enter")
            await pp.press(*"kqxm", "enter")
            await until(lambda: isinstance(player.screen, WaitScreen) and player.room, pp)
            await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)
            assert room.seats[0].connected
            await hp.press("b")  # a bot joins
            await until(lambda: len(player.room["seats"]) == 2, pp)
            await hp.press("s")  # start
            await until(lambda: isinstance(player.screen, GameScreen), pp)
            await until(lambda: isinstance(host.screen, TableScreen), hp)
            card = room.state["hands"][0]
            await until(lambda: player.game and player.game.get("card") == card, pp)
            # the table screen never shows a card before it is revealed
            assert card not in screen_text(host)
            # Ann plays through the app's own path; the bot answers; the game ends
            player.act({"type": "reveal"})
            await until(lambda: room.phase == "over", hp, timeout=5)
            await until(lambda: isinstance(host.screen, ResultsScreen), hp)
            assert player.latencies  # the view caused by her key arrived (how fast: tools/)
            await hp.press("enter")  # back to the lobby, everybody still seated
            await until(lambda: isinstance(host.screen, LobbyScreen), hp)
            await until(lambda: isinstance(player.screen, WaitScreen), pp)
            assert [s.name for s in room.seats] == ["Ann", "Bot 1"]


async def test_wrong_code_keeps_the_player_on_the_join_screen(peek):
    room = Room("Friday", game_id="peek", code="KQXM")
    async with joining(room) as (_host, hp, player, pp):
        await pp.press(*"Ann", "enter", *"ABCD", "enter")
        await until(lambda: isinstance(player.screen, JoinScreen) and player.screen.error, pp)
        assert "not the room code" in screen_text(player)
        assert room.seats == []
        await hp.pause()


async def test_the_old_code_of_a_lengthened_table_says_look_at_its_screen(peek):
    """Someone guessed from many addresses, so the code is 6 letters now: the 4 a player saw
    earlier get told so, and the field takes the 6 of the table's screen."""
    room = Room("Friday", game_id="peek", code="KQXM")
    room.lengthen_code("KQXMTB")
    async with joining(room) as (_host, hp, player, pp):
        await pp.press(*"Ann", "enter", *"kqxm", "enter")
        await until(lambda: "has changed: it has 6 letters now" in screen_text(player), pp)
        code = player.screen.query_one("#code", Input)
        assert code.placeholder == "6 letters" and player.focused is code
        await pp.press(*"kqxmtb", "enter")
        await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)


async def test_kicked_player_is_told(peek):
    set_lang("en")
    room = Room("Friday", game_id="peek", open_room=True)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        player = ClientApp(("127.0.0.1", host.server.port), name="Ann", discover=False)
        async with player.run_test(size=(100, 30)) as pp:
            await until(lambda: len(room.seats) == 1 and room.seats[0].connected, hp)
            await hp.press("k")  # the highlighted player
            await hp.press("y")
            await until(lambda: isinstance(player.screen, GoneScreen), pp)
            assert room.seats == []


async def test_player_comes_back_after_the_host_restarts(peek, state_dir):
    set_lang("en")
    save = state_dir / "t.save"
    room = Room("Friday", game_id="peek", open_room=True, save_path=save)
    room.add_bot()
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    player = None
    async with host.run_test(size=(100, 30)) as hp:
        port = host.server.port
        player = ClientApp(("127.0.0.1", port), name="Ann", discover=False)
        async with player.run_test(size=(100, 30)) as pp:
            await until(lambda: len(room.seats) == 2 and room.seats[1].connected, hp)
            room.set_option("turn_seconds", 30.0)
            await hp.press("s")
            await until(lambda: isinstance(player.screen, GameScreen), pp)
            card = room.state["hands"][1]
            await hp.app.server.close()  # the host dies
            room.flush()  # (what was saved before it died)
            await until(lambda: player.link == "reconnecting", pp)
            again = HostApp(Room.resume(save), host="127.0.0.1", port=port, advertise=False)
            async with again.run_test(size=(100, 30)) as hp2:
                await until(lambda: player.link == "connected", pp, timeout=8)
                await until(lambda: again.room.seats[1].connected, hp2)
                await until(lambda: player.game and player.game.get("card") == card, pp)
                assert isinstance(player.screen, GameScreen)
            # the host quits mid-game on purpose: the player is told it can be resumed
            await until(lambda: isinstance(player.screen, GoneScreen), pp)
            await until(lambda: "can be resumed" in screen_text(player), pp)


@contextlib.asynccontextmanager
async def finding(room: Room) -> AsyncIterator[tuple[HostApp, Pilot, ClientApp, Pilot]]:
    """The host app on `room`, in its lobby, and a player app on the find screen."""
    set_lang("en")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        player = ClientApp(None, discover=False)
        async with player.run_test(size=(100, 30)) as pp:
            yield host, hp, player, pp


@contextlib.asynccontextmanager
async def joining(room: Room) -> AsyncIterator[tuple[HostApp, Pilot, ClientApp, Pilot]]:
    """The host app on `room`, and a player app given its address: on the join form."""
    set_lang("en")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        player = ClientApp(("127.0.0.1", host.server.port), discover=False)
        async with player.run_test(size=(100, 30)) as pp:
            await until(lambda: isinstance(player.screen, JoinScreen), pp)
            yield host, hp, player, pp


async def test_a_typed_address_joins(peek, state_dir):
    room = Room("Friday", game_id="peek", open_room=True)
    async with finding(room) as (host, hp, player, pp):
        await pp.press("a", *f"127.0.0.1:{host.server.port}", "enter")
        await until(lambda: isinstance(player.screen, JoinScreen), pp)
        await pp.press(*"Ann", "enter", "enter")  # no code: this table is open
        await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)


async def test_keys_typed_ahead_go_where_each_enter_sends_them(peek, state_dir):
    """The address, Enter, the name, Enter, the code, Enter — queued all at once: each part
    lands in its own field (not the name glued to the address, nor the code to the name)."""
    room = Room("Friday", game_id="peek", code="KQXM")
    async with finding(room) as (host, hp, player, pp):
        await pp.press("a")
        address = f"127.0.0.1:{host.server.port}"
        burst(player, *address, "enter", *"Ann", "enter", *"kqxm", "enter")
        await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)
        await until(lambda: isinstance(player.screen, WaitScreen), pp)
        await until(lambda: player.screen.is_mounted, pp)  # not torn down mid-mount
        assert player.player_code == "KQXM"


async def test_keys_typed_ahead_wait_for_the_form_however_slow_the_app(
    peek, state_dir, monkeypatch
):
    """A web seat's app runs on the host's machine, beside every other guest's: on a busy
    host an Enter's work (the focus moved to the code) can take longer than any clock. The
    keys typed behind it wait for that work, not for a clock — with the clock's limit at
    nothing here, the code went into the name ("Wendyje", refused as a wrong code) when the
    app was slower than the clock (the browser test, once under load)."""
    monkeypatch.setattr(TypeAhead, "HOLD_LIMIT", 0.001)  # the clock lets go at once
    room = Room("Friday", game_id="peek", code="KQXM")
    async with joining(room) as (_host, hp, player, pp):
        await until(lambda: player.focused is player.screen.query_one("#name"), pp)  # seen
        burst(player, *"Wendy", "enter", *"kqxm", "enter")
        await until(lambda: [s.name for s in room.seats] == ["Wendy"], hp)
        assert player.player_code == "KQXM"
        await until(lambda: isinstance(player.screen, WaitScreen), pp)
        await until(lambda: player.screen.is_mounted, pp)  # not torn down mid-mount


async def test_a_name_typed_before_the_join_form_is_up_goes_into_it(peek, state_dir):
    """Enter on a host in the list, and the name typed at once: the form that comes up
    has it all. (Textual mounts a form pushed by a key before it reads the next key, so
    this passes without the hold too: it keeps the hold from losing keys on this path.)"""
    room = Room("Friday", game_id="peek", open_room=True)
    async with finding(room) as (host, hp, player, pp):
        find = player.screen
        friday = HostInfo(
            name="Friday",
            addresses=("127.0.0.1",),
            port=host.server.port,
            protocol=PROTOCOL_VERSION,
            game="peek",
            players=0,
            needs_code=False,
            room_id="friday",
        )
        find.hosts = {friday.key: friday}
        find._show_hosts()
        await pp.pause()
        burst(player, "enter", *"Ann", "enter")
        await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)
        await until(lambda: isinstance(player.screen, WaitScreen), pp)
        await until(lambda: player.screen.is_mounted, pp)  # not torn down mid-mount


@pytest.mark.parametrize("how", ["burst", "press"])
async def test_down_and_enter_typed_at_once_join_the_table_down_moved_to(how):
    """Two tables in the list, Down and Enter typed back to back: the Enter joins the one
    Down moved to (it used to run first — a priority binding — and join the one before)."""
    set_lang("en")

    def table(name: str, port: int) -> HostInfo:
        return HostInfo(
            name=name,
            addresses=("127.0.0.1",),
            port=port,
            protocol=PROTOCOL_VERSION,
            game="peek",
            players=0,
            needs_code=False,
            room_id=name.lower(),
            service_name=f"{name}._hubbub._tcp.local.",
        )

    player = ClientApp(None, discover=False)
    async with player.run_test(size=(100, 30)) as pp:
        await until(lambda: isinstance(player.screen, FindScreen), pp)
        find = player.screen
        find.hosts = {h.key: h for h in (table("Alpha", 4001), table("Beta", 4002))}
        find._show_hosts()
        await pp.pause()
        if how == "burst":
            burst(player, "down", "enter")
        else:
            await pp.press("down", "enter")
        await until(lambda: isinstance(player.screen, JoinScreen), pp)
        assert player.screen.port == 4002
        await pp.press("escape")  # back to the list: Enter there joins what is highlighted
        await until(lambda: isinstance(player.screen, FindScreen), pp)
        burst(player, "up", "enter")
        await until(lambda: isinstance(player.screen, JoinScreen), pp)
        assert player.screen.port == 4001


async def test_f2_after_a_refused_name_opens_a_clean_watch_form(peek, state_dir):
    """ "That name is taken … or F2 to watch": F2's form does not keep the name's refusal."""
    room = Room("Friday", game_id="peek", code="KQXM")
    room.connected(room.join("Ann", "KQXM"), returning=False)
    async with finding(room) as (host, _hp, player, pp):
        await pp.press("a", *f"127.0.0.1:{host.server.port}", "enter")
        await until(lambda: isinstance(player.screen, JoinScreen), pp)
        await pp.press(*"Ann", "enter", *"kqxm", "enter")
        await until(lambda: "already has that name" in screen_text(player), pp)
        await pp.press("f2")
        await until(lambda: player.screen.watching, pp)
        assert "already has that name" not in screen_text(player)


async def test_a_name_and_code_typed_while_the_app_starts_join(peek, state_dir):
    """Typed before the app took the terminal, each Enter comes as a line feed (ctrl+j: the
    terminal's line mode turned the carriage return into one): it is an Enter all the same —
    before, "Zoe⏎ZAMT⏎" typed at `hubbub join HOST` gave a player named "ZoeZAMT"."""
    room = Room("Friday", game_id="peek", code="KQXM")
    async with joining(room) as (_host, hp, player, pp):
        burst(player, *"Zoe", "ctrl+j", *"kqxm", "ctrl+j")
        await until(lambda: [s.name for s in room.seats] == ["Zoe"], hp)
        await until(lambda: isinstance(player.screen, WaitScreen), pp)
        await until(lambda: player.screen.is_mounted, pp)  # not torn down mid-mount


async def test_a_hold_lets_go_only_for_what_it_waits_for(peek, state_dir):
    """A form's mount told late (keys typed at start-up were read first) is not what an
    Enter's hold waits for: it lets nothing go; the Enter's own work done does. Before, the
    late mount released the code onto the name field ("ZoeZAMT", seen in tmux)."""
    room = Room("Friday", game_id="peek", code="KQXM")
    async with joining(room) as (_host, _hp, player, pp):
        held = player._hold("enter")
        held.append(events.Key("k", "k"))
        player.release_keys("form")  # a late mount: not this hold's
        assert player._held == held
        player.release_keys("enter")  # the Enter's work is done
        assert player._held is None
        await until(lambda: player.screen.query_one("#name", Input).value == "k", pp)


async def test_with_a_name_known_the_form_waits_for_the_code(state_dir):
    """`hubbub join --name Ben`, a table picked from the list: the name is filled in and the
    focus is on the code — typing the code used to replace the name."""
    set_lang("en")
    app = ClientApp(("127.0.0.1", 9), discover=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(lambda: isinstance(app.screen, JoinScreen), pilot)
        app.player_name = "Ben"
        app.switch_screen(JoinScreen("127.0.0.1", 9, needs_code=True))
        await until(lambda: app.focused is not None and app.focused.id == "code", pilot)
        await pilot.press(*"kqxm")
        assert app.screen.query_one("#name", Input).value == "Ben"
        assert app.screen.query_one("#code", Input).value.upper() == "KQXM"
        app.screen.query_one("#code", Input).value = ""
        await pilot.press(*"h v x b")  # as the host shows it, spaced: the letters are the code
        assert app.screen.query_one("#code", Input).value == "hvxb"


async def test_the_host_nudges_a_player_who_does_not_move_and_the_bot_moves_for_them(state_dir):
    """Tally Up! without turn time: the active player does nothing. `n` on the table hurries
    them (their screen counts it down and says so), and when it runs out the game's bot makes
    that one move; the seat stays theirs and their screen says so."""
    from tui.client.screens import TurnBar

    room = Room("Friday", game_id="tallyup", open_room=True)
    room.set_option("turn_seconds", 0)
    async with joining(room) as (host, hp, player, pp):
        await pp.press(*"Ann", "enter", "enter")
        await until(lambda: [s.name for s in room.seats] == ["Ann"], hp)
        await hp.press("b", "enter")  # a bot, of the strength offered first
        await until(lambda: len(room.seats) == 2, hp)
        await hp.press("s")
        await until(lambda: isinstance(host.screen, TableScreen), hp)
        await until(lambda: isinstance(player.screen, GameScreen), pp)
        assert room.waiting_for() == [0] and room.summary()["turn"] is None
        bar = player.screen.query_one(TurnBar)
        assert not bar.display  # no turn time: nothing counts down
        await hp.press("n")
        await until(lambda: (player.room.get("turn") or {}).get("nudged"), pp)
        await until(lambda: bar.display and "hurrying" in str(bar.render()), pp)
        said = [str(n.message) for n in player._notifications]
        assert not any("hurrying" in line for line in said)  # (a toast hid the line's end)
        room.countdown.expire()  # its 20 s are up
        await until(lambda: any(e["type"] == "played_for" for e in room.history), hp)
        assert room.seats[0].bot is None and room.log[0][0] == 0  # Ann's seat, Ann's move
        await until(lambda: not bar.display, pp)
        await hp.press("n")  # once more: the next move is Ann's, and she may be hurried again
        await until(lambda: room.summary()["turn"] is not None, hp)
