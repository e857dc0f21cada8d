"""The evening as it really goes, through the real apps: a dialog open when the table moves
on, keys typed too fast, keys that do nothing, people who leave, a host that quits.

The host app and the players' apps run in one event loop over real sockets, driven by keys.
"""

from __future__ import annotations

import asyncio
import math
from contextlib import AsyncExitStack

import pytest

from net.client import TokenStore
from net.room import Room
from tests.tui.test_flow import burst, screen_text
from tests.wire import Wire
from tui.client.app import ClientApp
from tui.client.screens import (
    GameScreen,
    GoneScreen,
    JoinScreen,
    PlayerResultsScreen,
    WaitScreen,
)
from tui.host.app import HostApp
from tui.host.screens import KickScreen, LobbyScreen, ResultsScreen, TableScreen
from tui.i18n import set_lang, t
from tui.waiting import until
from tui.widgets import ConfirmScreen, HelpScreen, TypeAhead, TypingGuard

PLAYER_SCREEN = {"lobby": WaitScreen, "playing": GameScreen, "over": PlayerResultsScreen}
HOST_SCREEN = {"lobby": LobbyScreen, "playing": TableScreen, "over": ResultsScreen}


class Party:
    """A host app and player apps (Peek: a tiny game), each with its own token file."""

    def __init__(self, stack: AsyncExitStack, state_dir, **room: object) -> None:
        self.stack = stack
        self.state_dir = state_dir
        self.room = Room("Friday", game_id=room.pop("game_id", "peek"), open_room=True, **room)
        self.host = HostApp(self.room, host="127.0.0.1", port=0, advertise=False)
        self.players: dict[str, ClientApp] = {}
        self.pilots: dict[str, object] = {}

    async def open(self, *names: str) -> Party:
        # the host app runs in a task of its own: `run_test` sets Textual's active app in the
        # context it is entered from, and a host that ends before its players would otherwise
        # reset the test's context to no app at all (a player's timers then fail at teardown)
        ready, self._host_done = asyncio.Event(), asyncio.Event()
        self._host_task = asyncio.create_task(self._hold_host(ready))
        self.stack.push_async_callback(self.close_host)
        await asyncio.wait({self._host_task, asyncio.create_task(ready.wait())}, timeout=30,
                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        if self._host_task.done():
            self._host_task.result()  # the host did not start: say why
        assert ready.is_set(), "the host app did not start"
        await until(lambda: isinstance(self.host.screen, LobbyScreen), self.hp)
        for name in names:
            await self.sit(name)
        return self

    async def _hold_host(self, ready: asyncio.Event) -> None:
        async with self.host.run_test(size=(100, 30)) as pilot:
            self.hp = pilot
            ready.set()
            await self._host_done.wait()

    async def close_host(self) -> None:
        """The host app ends (its `run_test` shuts it down)."""
        self._host_done.set()
        await self._host_task

    async def sit(self, name: str) -> ClientApp:
        tokens = TokenStore(self.state_dir / f"{name}.json")
        app = ClientApp(
            ("127.0.0.1", self.host.server.port), name=name, discover=False, tokens=tokens
        )
        self.pilots[name] = await self.stack.enter_async_context(app.run_test(size=(100, 30)))
        self.players[name] = app
        await until(lambda: any(s.name == name and s.connected for s in self.room.seats), self.hp)
        await until(lambda: isinstance(app.screen, WaitScreen) and app.room, self.pilots[name])
        return app

    async def settle(self) -> None:
        """Every screen follows the room: wait until each shows the phase it is in."""
        phase = self.room.phase
        await until(lambda: isinstance(self.host.screen, HOST_SCREEN[phase]), self.hp, 8)
        for name, app in self.players.items():
            await until(lambda a=app: a.room and a.room["phase"] == phase, self.pilots[name], 8)


def start(party: Party) -> None:
    party.room.start(lang="en")


def finish(party: Party) -> None:
    """Everyone reveals in turn: Peek is over."""
    room = party.room
    while room.phase == "playing":
        room.act(room.state["turn"], {"type": "reveal"})


def end(party: Party) -> None:
    party.room.end()


TRANSITIONS = {
    "lobby": [("start", start)],
    "playing": [("end", end), ("finish", finish)],
    "over": [("to the lobby", end)],
}
PLAYER_DIALOGS = {  # key that opens it, the dialog, the key that closes it
    "lobby": [("question_mark", HelpScreen, "escape")],
    "playing": [("question_mark", HelpScreen, "escape"), ("q", ConfirmScreen, "n")],
    "over": [("question_mark", HelpScreen, "escape")],
}
HOST_DIALOGS = {
    "lobby": [
        ("question_mark", HelpScreen, "escape"),
        ("q", ConfirmScreen, "n"),  # players are seated: quitting asks
        ("k", ConfirmScreen, "escape"),
    ],
    "playing": [
        ("question_mark", HelpScreen, "escape"),
        ("q", ConfirmScreen, "escape"),
        ("e", ConfirmScreen, "n"),
        ("k", KickScreen, "escape"),
    ],
    "over": [("question_mark", HelpScreen, "escape"), ("q", ConfirmScreen, "n")],
}


def cases(dialogs: dict) -> list:
    return [
        pytest.param(phase, key, dialog, close, change, id=f"{phase}-{key}-{name}")
        for phase, opened in dialogs.items()
        for key, dialog, close in opened
        for name, change in TRANSITIONS[phase]
    ]


async def reach(party: Party, phase: str) -> None:
    if phase in ("playing", "over"):
        start(party)
    if phase == "over":
        finish(party)
    await party.settle()


@pytest.mark.parametrize(("phase", "key", "dialog", "close", "change"), cases(PLAYER_DIALOGS))
async def test_a_player_s_dialog_open_while_the_table_moves_on(
    peek, state_dir, phase, key, dialog, close, change
):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann")
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, phase)
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        await pa.press(key)
        await until(lambda: isinstance(ann.screen, dialog), pa)
        waited = 0 in party.room.waiting_for()
        change(party)
        await until(lambda: ann.room["phase"] == party.room.phase, pa)
        if dialog.GIVES_WAY and not waited and 0 in party.room.waiting_for():
            # the table waits for her now: a dialog that only shows something gives way
            await until(lambda: not isinstance(ann.screen, dialog), pa)
            told = t("client.your_move")
            await until(lambda: any(n.message == told for n in ann._notifications), pa)
        else:
            assert isinstance(ann.screen, dialog)  # it stays until its player closes it
            await pa.press(close)
        wanted = PLAYER_SCREEN[party.room.phase]
        await until(lambda: isinstance(ann.screen, wanted), pa)
        assert party.room.seats[0].connected  # nothing was answered by accident


@pytest.mark.parametrize(("phase", "key", "dialog", "close", "change"), cases(HOST_DIALOGS))
async def test_a_host_dialog_open_while_the_table_moves_on(
    peek, state_dir, phase, key, dialog, close, change
):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann")
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, phase)
        host, hp = party.host, party.hp
        await hp.press(key)
        await until(lambda: isinstance(host.screen, dialog), hp)
        change(party)
        await hp.pause()
        await hp.press(close)
        wanted = HOST_SCREEN[party.room.phase]
        await until(lambda: isinstance(host.screen, wanted), hp)
        assert [s.name for s in party.room.seats] == ["Ann"]  # no kick by accident


async def test_a_confirmation_needs_a_deliberate_key(peek, state_dir, monkeypatch):
    """ "quickly yields" typed where no field takes it: `q` asks "Leave?", and the `y` that
    follows a moment later in the same burst does not answer it. (No pause ends the burst
    here, however long the machine takes between two keys: the test goes by states, never by
    the clock.)"""
    monkeypatch.setattr(ConfirmScreen, "PAUSE", math.inf)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, "playing")
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        await pa.press("q", *"uickly yields")
        assert isinstance(ann.screen, ConfirmScreen) and ann.is_running
        assert "Typing?" in screen_text(ann)
        ann.screen._last_key -= ConfirmScreen.PAUSE  # she stops, reads the question…
        await pa.press("n")  # …and answers it
        await until(lambda: isinstance(ann.screen, GameScreen), pa)
        assert party.room.seats[0].connected and not party.room.seats[0].leaving


async def scholar_in_the_field(stack: AsyncExitStack, state_dir):
    """A Tesauro game of Ann and Bob with a minute to think: Bob, the reader, has chosen the
    word and taken a tile; his definition's field has the keys."""
    party = await Party(stack, state_dir, game_id="tesauro").open("Ann", "Bob")
    party.room.set_option("think_seconds", 60)
    await reach(party, "playing")
    bob, pb = party.players["Bob"], party.pilots["Bob"]
    await until(lambda: "choose" in (bob.game or {}).get("legal", []), pb)
    await pb.press("1")
    await until(lambda: "tile" in (bob.game or {}).get("legal", []), pb)
    await pb.press(str(1 + ["food", "botany", "society", "concepts", "humanities",
                            "engineering", "earth", "health", "zoology"]
                       .index(bob.game["allowed"][0])))  # fmt: skip
    field = bob.screen.query_one("#tsh-text")
    await until(lambda: field.has_focus, pb)
    return party, bob, pb, field


async def test_letters_typed_on_after_a_field_closed_are_not_commands(state_dir, monkeypatch):
    """A Tesauro scholar types; the thinking time runs out under the typing; the letters
    that follow (`q`, `y`…) stay text, not keys of the screen. (No pause ends the burst
    here, however long the machine takes between two keys: the test goes by states, never by
    the clock.)"""
    monkeypatch.setattr(TypingGuard, "PAUSE", math.inf)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb, field = await scholar_in_the_field(stack, state_dir)
        await pb.press(*"A kind of")
        room = party.room
        room.countdown.expire()  # the thinking time ends under the typist
        await until(lambda: not field.display, pb)
        await pb.press(*" quickly yields")
        assert isinstance(bob.screen, GameScreen) and bob.is_running


async def test_a_key_straight_after_a_definition_is_sent_is_a_command(state_dir, monkeypatch):
    """The burst of typing ends with the Enter that sent it: the field did its work, so the
    very next key is the screen's (a typist's `?` opens the help at once, however fast it
    follows). No pause ends the burst here: only the Enter can."""
    monkeypatch.setattr(TypingGuard, "PAUSE", math.inf)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb, _ = await scholar_in_the_field(stack, state_dir)
        await pb.press(*"A kind of stool", "enter", "question_mark")
        await until(lambda: isinstance(bob.screen, HelpScreen), pb)
        assert party.room.state["texts"][1] == "A kind of stool"


async def at_the_join_form(stack: AsyncExitStack, state_dir):
    """Zoe's player app on the join form of a table with a code (Ann is seated there)."""
    party = await Party(stack, state_dir).open("Ann")
    party.room.code = "KQXM"
    app = ClientApp(
        ("127.0.0.1", party.host.server.port),
        discover=False,
        tokens=TokenStore(state_dir / "Zoe.json"),
    )
    pilot = await stack.enter_async_context(app.run_test(size=(100, 30)))
    await until(lambda: isinstance(app.screen, JoinScreen) and app.screen.is_mounted, pilot)
    return app, pilot


async def test_the_first_key_after_joining_by_the_form_is_a_command(state_dir, monkeypatch):
    """A player types the name, the code, Enter, and at once the game's key: the code's
    field did its work (the seat is taken), so the key is the screen's, not swallowed as
    more typing (the browser test lost Wendy's `i` this way, one run in two)."""
    monkeypatch.setattr(TypingGuard, "PAUSE", math.inf)
    set_lang("en")
    async with AsyncExitStack() as stack:
        app, pilot = await at_the_join_form(stack, state_dir)
        await pilot.press(*"Zoe", "enter", *"kqxm", "enter")
        await until(lambda: isinstance(app.screen, WaitScreen), pilot)
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)


async def test_a_key_that_does_nothing_says_why(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="tallyup").open("Ann", "Bob")
        await reach(party, "playing")
        bob, pb = party.players["Bob"], party.pilots["Bob"]
        await until(lambda: bob.game and bob.game.get("active") == 0, pb)
        await pb.press("r")  # Ann rolls, not Bob: the key is greyed, and says so
        said = [str(n.message) for n in bob._notifications]
        assert any("‘r’ does nothing now." in s and "The table waits for Ann" in s for s in said)
        await pb.press("z")
        said = [str(n.message) for n in bob._notifications]
        assert any("does nothing" in s and "‘z’" in s for s in said)
        await pb.press("к")  # `r` on a Russian layout: the same key, quoted as pressed
        said = [str(n.message) for n in bob._notifications]
        assert any("‘к’ does nothing now." in s and "The table waits for Ann" in s for s in said)
        assert party.room.state["phase"] == "choose_dice"


async def test_a_greyed_t_rex_key_says_why(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="trex").open("Ann", "Bob", "Cy")
        await reach(party, "playing")
        bob, pb = party.players["Bob"], party.pilots["Bob"]
        await until(lambda: "offer" in (bob.game or {}).get("legal", []), pb)

        async def said_after(key: str) -> list[str]:
            bob._notifications.clear()
            await pb.press(key)
            return [str(n.message) for n in bob._notifications]

        assert any("Nobody has offered you their card." in s for s in await said_after("a"))
        assert any("You have no offer out" in s for s in await said_after("w"))
        await pb.press("1")  # an offer to Ann
        await until(lambda: (bob.game.get("offers") or {}).get("out") == 0, pb)
        assert any("offered to Ann: w withdraws" in s for s in await said_after("s"))
        assert any("offered to Ann" in s for s in await said_after("3"))
        assert party.room.state["offers"][1] == 0  # nothing the greyed keys did


async def test_a_keymap_file_moves_a_key(state_dir, tmp_path):
    """A player's ~/.config/hubbub/keys.toml: T-Rex's skip on `z`; `s` no longer skips."""
    keymap = tmp_path / "config" / "hubbub" / "keys.toml"  # (conftest points XDG here)
    keymap.parent.mkdir(parents=True)
    keymap.write_text('[keys]\n"trex.hand.skip" = "z"\n', encoding="utf-8")
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="trex").open("Ann", "Bob", "Cy")
        await reach(party, "playing")
        bob, pb = party.players["Bob"], party.pilots["Bob"]
        await until(lambda: "skip" in (bob.game or {}).get("legal", []), pb)
        await pb.press("s")
        assert any("‘s’ does nothing" in str(n.message) for n in bob._notifications)
        await pb.press("z")
        skipped = lambda: any(e.get("type") == "skipped" for e in party.room.state["last_events"])  # noqa: E731
        await until(skipped, pb)


async def test_a_keymap_file_moves_a_tesauro_key(state_dir, tmp_path):
    """Tesauro's keys have ids too: the reader's second word on `x`; `2` no longer takes it."""
    keymap = tmp_path / "config" / "hubbub" / "keys.toml"
    keymap.parent.mkdir(parents=True)
    keymap.write_text('[keys]\n"tesauro.hand.choose_1" = "x"\n', encoding="utf-8")
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="tesauro").open("Ann", "Bob")
        await reach(party, "playing")
        bob, pb = party.players["Bob"], party.pilots["Bob"]  # the reader
        await until(lambda: "choose" in (bob.game or {}).get("legal", []), pb)
        await pb.press("2")
        assert any("‘2’ does nothing" in str(n.message) for n in bob._notifications)
        await pb.press("x")
        await until(lambda: party.room.state["phase"] == "write", pb)
        assert party.room.state["entry"] == 1


def test_hubbub_keys_lists_the_ids_and_catches_a_typo(tmp_path, capsys):
    from tui.cli import main

    assert main(["keys", "--lang", "en"]) == 0
    listed = capsys.readouterr().out
    assert "trex.hand.skip" in listed and "tallyup.hand.roll" in listed
    assert "tesauro.hand.tile_8" in listed and "tesauro.field.submit" in listed
    keymap = tmp_path / "config" / "hubbub" / "keys.toml"
    keymap.parent.mkdir(parents=True)
    keymap.write_text('[keys]\n"trex.hand.skp" = "z"\n', encoding="utf-8")
    assert main(["keys"]) == 1
    assert "no key is called 'trex.hand.skp'" in capsys.readouterr().err


async def test_q_in_the_lobby_frees_the_seat(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        await pa.press("q")
        await until(lambda: [s.name for s in party.room.seats] == ["Bob"], party.hp)
        address = f"127.0.0.1:{party.host.server.port}"
        await until(lambda: not ann.is_running, pa)
        assert TokenStore(state_dir / "Ann.json").names(address) == []  # not her seat now


async def test_q_mid_game_asks_then_hands_the_seat_to_a_bot(state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="tallyup").open("Ann", "Bob")
        await reach(party, "playing")
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        await pa.press("q")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        assert "A bot plays your seat" in screen_text(ann)
        await pa.press("y")
        await until(lambda: party.room.seats[0].bot == "normal", party.hp)
        assert party.room.seats[0].leaving

        def chose() -> bool:  # a log entry stays; a phase may come round again at once
            return any(seat == 0 and a["type"] == "choose_dice" for seat, a in party.room.log)

        await until(chose, party.hp)  # it plays


async def test_the_host_lets_a_lost_laptop_back_into_its_seat_with_one_key(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        party.room.room_options["grace"] = 0  # wait for her: nobody stands in
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, "playing")
        party.players["Ann"].exit()  # her laptop's battery is flat
        await until(lambda: not party.room.seats[0].connected, party.hp)
        laptop = await Wire.join(party.host.server.port, "Ann")  # another laptop, no token
        await laptop.expect("pending")
        await until(lambda: "asks for Ann's seat" in screen_text(party.host), party.hp)
        await party.hp.press("a")
        assert (await laptop.expect("welcome"))["seat"] == 0
        await until(lambda: party.room.seats[0].connected, party.hp)


async def test_a_host_app_dying_on_an_error_leaves_the_players_waiting(peek, state_dir):
    """An error that ends the host app is a crash, not a closing: the players are not told
    the table closed (they would stop coming back), they keep reconnecting until
    `hubbub host --resume` brings it back — before, they were told "closed" for good."""
    set_lang("en")
    room = Room("Friday", game_id="peek", open_room=True, save_path=state_dir / "t.save")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    up, ended = asyncio.Event(), asyncio.Event()

    async def hold_host() -> None:  # in a task of its own, as Party's host is
        async with host.run_test(size=(100, 30)):
            up.set()
            await ended.wait()

    def boom() -> None:
        raise RuntimeError("a bug in a screen")

    running = asyncio.create_task(hold_host())
    await asyncio.wait_for(up.wait(), 30)
    player = ClientApp(("127.0.0.1", host.server.port), name="Ann", discover=False)
    async with player.run_test(size=(100, 30)) as pp:
        await until(lambda: isinstance(player.screen, WaitScreen), pp)
        host.call_later(boom)
        await until(lambda: host.return_code == 1, pp)
        ended.set()  # the app shuts down, as `app.run()` would after the error
        with pytest.raises(RuntimeError, match="a bug in a screen"):
            await running
        await until(lambda: player.link == "reconnecting", pp)
        assert not isinstance(player.screen, GoneScreen)


async def test_a_host_that_quits_mid_game_says_the_table_can_be_resumed(peek, state_dir):
    set_lang("en")
    save = state_dir / "t.save"
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, save_path=save).open("Ann", "Bob")
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, "playing")
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        port = party.host.server.port
        said: list[object] = []
        real_exit = party.host.exit

        def exit_saying(*args, **kwargs):  # what the host's terminal shows once the app ends
            said.append(kwargs.get("message"))
            real_exit(*args, **kwargs)

        party.host.exit = exit_saying
        await party.hp.press("q")
        await until(lambda: isinstance(party.host.screen, ConfirmScreen), party.hp)
        await party.hp.press("y")
        assert said == [t("host.closed_resume_hint")]
        await party.close_host()
        await until(lambda: isinstance(ann.screen, GoneScreen), pa)
        await until(lambda: "can be resumed" in screen_text(ann), pa)
        again = HostApp(Room.resume(save), host="127.0.0.1", port=port, advertise=False)
        async with again.run_test(size=(100, 30)) as hp2:
            await until(lambda: isinstance(ann.screen, GameScreen), pa, timeout=12)
            await until(lambda: again.room.seats[0].connected, hp2)
        await until(lambda: "can be resumed" in screen_text(ann), pa)  # (closed once more)


@pytest.mark.parametrize("trex", [False, True], ids=["peek", "trex"])
async def test_a_host_s_quit_is_not_told_as_the_players_drops(peek, state_dir, trex):
    """The host quits (`q`, `y`) and resumes: the links close as the table shuts, and the
    story read "Ann lost the connection; the seat waits." on `--resume` — their laptops were
    fine, only the host quit. A closing table records no drops."""
    set_lang("en")
    save = state_dir / "t.save"
    async with AsyncExitStack() as stack:
        game = {"game_id": "trex"} if trex else {}
        party = await Party(stack, state_dir, save_path=save, **game).open("Ann", "Bob")
        await reach(party, "playing")
        server = party.host.server
        real_close = server.close

        async def close_as_on_3_12(*args, **kwargs):  # `wait_closed` waits for every link:
            await real_close(*args, **kwargs)  # the players' links end before the room closes
            while server._all:
                await asyncio.sleep(0.01)

        server.close = close_as_on_3_12
        await party.hp.press("q")
        await until(lambda: isinstance(party.host.screen, ConfirmScreen), party.hp)
        await party.hp.press("y")
        await party.close_host()
        for name in ("Ann", "Bob"):
            await until(lambda a=party.players[name]: a.link != "connected", party.pilots[name])
        room = Room.resume(save)
        assert not [e for e in room.history if e["type"] == "away"], list(room.history)
        again = HostApp(room, host="127.0.0.1", port=0, advertise=False)
        dropped = {t("room_event.away", name=name) for name in ("Ann", "Bob")}
        assert not dropped & set(again.story.lines), again.story.lines
        room.close()


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_resumed_table_says_once_who_is_back(peek, state_dir, lang):
    """After `hubbub host --resume` every seat starts away: the story said "Ann is back",
    "Bob is back"… for each player's first return, as if each had left. Now it says once that
    the table is back and whom it waits for, and once who came back."""
    set_lang(lang)
    save = state_dir / "t.save"
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, save_path=save).open("Ann", "Bob")
        party.room.set_option("turn_seconds", 30.0)
        await reach(party, "playing")
        port = party.host.server.port
        await party.host.server.close("closed", resumable=True)
        party.room.flush()
        await party.close_host()
        for name in ("Ann", "Bob"):
            await until(lambda a=party.players[name]: a.link != "connected", party.pilots[name])
        room = Room.resume(save)
        again = HostApp(room, host="127.0.0.1", port=port, advertise=False)
        async with again.run_test(size=(100, 30)) as hp2:
            waiting = t("host.resumed", names="Ann, Bob")
            assert again.story.lines[-1] == waiting
            await until(lambda: all(s.connected for s in room.seats), hp2, timeout=20)
            rejoined = t("host.rejoined", names="Ann, Bob")
            await until(lambda: rejoined in again.story.lines, hp2)
            new = again.story.lines[again.story.lines.index(waiting) :]
            assert new == [waiting, rejoined]  # no "… is back" for each
            ann, bob = party.players["Ann"], party.players["Bob"]  # nor on the players' screens
            # (the one back first hears the other come back, once; the last finds all there)
            await until(
                lambda: (
                    t("host.rejoined", names="Bob") in ann.story.lines
                    or t("host.rejoined", names="Ann") in bob.story.lines
                ),
                hp2,
                what="one player's 'Back at the table'",
            )
            for app, other in ((ann, "Bob"), (bob, "Ann")):
                assert t("room_event.back", name=other) not in app.story.lines, app.story.lines
            room.disconnected(0)  # a later drop and return is news again
            room.connected(0, returning=True)
            await until(lambda: t("room_event.back", name="Ann") in again.story.lines, hp2)
            await until(lambda: t("room_event.back", name="Ann") in bob.story.lines, hp2)
            assert room.phase == "playing"


async def test_the_join_form_explains_and_replaces(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open()
        tokens = TokenStore(state_dir / "Zoe.json")
        tokens.put(f"127.0.0.1:{party.host.server.port}", "Zoe", token="from-another-table")
        player = ClientApp(None, discover=False, tokens=tokens)
        pp = await stack.enter_async_context(player.run_test(size=(100, 30)))
        player.push_screen(JoinScreen("127.0.0.1", party.host.server.port, needs_code=False))
        await until(lambda: isinstance(player.screen, JoinScreen), pp)
        await pp.pause()
        assert not player.screen.query_one("#code").display  # an open table: no code field
        field = player.screen.query_one("#name")
        assert field.value == "Zoe" and field.placeholder == t("join.name_placeholder")
        await pp.press(*"Ann")  # a pre-filled name is replaced, not appended to
        assert field.value == "Ann"
        field.value = ""
        await pp.press("enter")
        assert t("join.name_missing") in screen_text(player)
        await pp.press(*"Ann", "enter")
        await until(lambda: [s.name for s in party.room.seats] == ["Ann"], party.hp)


async def test_players_leaving_while_the_host_app_closes_change_nothing(peek, state_dir):
    """Players' byes can arrive while the host app is closing: its screens have gone by then
    (seen in the latency tool: a traceback on quitting)."""
    app = HostApp(Room("Friday", game_id="peek", open_room=True), host="127.0.0.1", port=0,
                  advertise=False)  # fmt: skip
    async with app.run_test(size=(100, 30)):
        pass
    assert not app.screen_stack
    app.follow([{"type": "left", "seat": 0, "name": "Ann"}])  # no screen to put up: nothing


async def test_a_player_back_from_a_drop_hears_what_happened_meanwhile(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        bob, pb = party.players["Bob"], party.pilots["Bob"]
        await until(lambda: "Bob sat down." in bob.story.lines, pb)
        version = party.room.version
        party.host.server.connections[1].abort()  # Bob's Wi-Fi drops…
        party.room.add_bot(name_prefix="Bot")  # …while a bot sits down
        await until(lambda: bob.version > version and party.room.seats[1].connected, pb)
        await until(lambda: "Bot 1 sat down." in bob.story.lines, pb)
        assert bob.story.lines.count("Bot 1 sat down.") == 1
        assert bob.story.lines.count("Ann sat down.") == 1  # what it had heard, not again


async def test_a_key_typed_while_the_join_form_gives_way_reaches_the_next_screen(
    state_dir, monkeypatch
):
    """The code, Enter and `?` typed in one go: the `?` comes while the table is still being
    asked, with the code's field full — it waits, and opens the help of the screen the join
    brings up (the lobby), rather than vanish into the form. (No clock lets go of the keys
    here, however long the machine takes to join: only the next screen can.)"""
    monkeypatch.setattr(TypingGuard, "PAUSE", math.inf)
    monkeypatch.setattr(TypeAhead, "HOLD_LIMIT", 600.0)
    set_lang("en")
    async with AsyncExitStack() as stack:
        app, pilot = await at_the_join_form(stack, state_dir)
        burst(app, *"Zoe", "enter", *"kqxm", "enter", "question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        assert isinstance(app.screen_stack[-2], WaitScreen)


async def test_the_help_open_when_the_table_starts_waiting_for_you_gives_way():
    """`?` open as the phase turns to the player's move: the help closes and says why, so the
    prompt and its countdown are not hidden (it used to cover a sealed choice until its timer
    ran out); a question being asked (Leave?) stays."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import ANN, player_scene, wire

    set_lang("en")
    app, run_before = player_scene(tallyup_at("choose-dice"), screen="GameScreen")()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        view = {"type": "view", "room": dict(app.room), "game": app.game, "events": []}
        assert ANN in view["room"]["waiting"]
        busy = dict(view, version=app.version + 1, room=dict(view["room"], waiting=[]))
        app.post_message(ClientApp.told(wire(busy)))
        await pilot.pause()
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        app.post_message(ClientApp.told(wire(dict(view, version=app.version + 1))))
        await until(lambda: not isinstance(app.screen, HelpScreen), pilot, what="the help closed")
        told = t("client.your_move")
        await until(lambda: any(n.message == told for n in app._notifications), pilot)
        app.post_message(ClientApp.told(wire(dict(busy, version=app.version + 1))))
        await pilot.pause()
        await pilot.press("q")  # Leave? — a question: the next wait leaves it open
        await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        app.post_message(ClientApp.told(wire(dict(view, version=app.version + 1))))
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)


async def test_the_help_opened_during_your_move_gives_way_as_its_time_runs_out():
    """The play-test: `?` opened *during* a sealed choice stayed over the prompt and its
    countdown until "time ran out: the undecided stay IN". With HURRY seconds left it
    closes by itself and says the table waits; with more left, and while the link is down
    (no countdown runs), it stays."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(tallyup_at("choose-dice"), screen="GameScreen")()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        now = await thirty_seconds_on_ann(app, pilot)
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        now[0] += 30.0 - ClientApp.HURRY - 5  # 15 s left: it stays
        app._hurry()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        app.link = "reconnecting"  # the table not heard: no countdown runs here
        now[0] += 10.0
        app._hurry()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        app.link = "connected"
        app._hurry()
        await until(lambda: not isinstance(app.screen, HelpScreen), pilot, what="it gave way")
        told = t("client.your_move")
        await until(lambda: any(n.message == told for n in app._notifications), pilot)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_leave_question_gives_way_as_no_when_your_time_runs_out(monkeypatch, lang):
    """The play-test: `q` pressed, then Tally Up!'s sealed choice came; "Leave the game?"
    stayed over it until "the undecided stay IN". A question is not closed by the table
    starting to wait (it was asked on purpose), but with HURRY seconds left of the player's
    own countdown it closes as "no, stay", saying so — the seat is kept, the prompt is back."""
    from tui.client.screens import LeaveScreen
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0.0)
    set_lang(lang)
    app, run_before = player_scene(tallyup_at("choose-dice"), screen="GameScreen")()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        now = await thirty_seconds_on_ann(app, pilot)
        await pilot.press("q")
        await until(lambda: isinstance(app.screen, LeaveScreen), pilot)
        await pilot.press("i")  # a game key: how to answer is said, the question stays
        first = t("client.leave_answer_first")
        await until(lambda: any(n.message == first for n in app._notifications), pilot)
        assert isinstance(app.screen, LeaveScreen)
        now[0] += 30.0 - ClientApp.HURRY - 5  # 15 s left: the question stays
        app._hurry()
        await pilot.pause()
        assert isinstance(app.screen, LeaveScreen)
        now[0] += 5.0
        app._hurry()
        await until(lambda: isinstance(app.screen, GameScreen), pilot, what="it gave way")
        told = t("client.leave_hurried", seconds=10)
        assert "10" in told
        await until(lambda: any(n.message == told for n in app._notifications), pilot)
        assert all(n.message != first for n in app._notifications)  # (no question now)
        assert app.client is None and app.is_running  # (a scene: no link) — not left
        await pilot.press("i")  # the prompt's keys are the prompt's again
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_a_game_key_under_the_leave_question_is_told_how_to_answer_it(state_dir, monkeypatch):
    """The play-test: T-Rex's sudden-death vote began under "Leave the game?"; `4` did
    nothing and said nothing. A key the question has no use for leaves it open (an answer
    is deliberate) and says how to answer it; `n` then stays, and the vote's key votes."""
    from tui.client.screens import LeaveScreen

    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0.0)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb = await trex_for_bob(stack, state_dir)
        await pb.press("q")
        await until(lambda: isinstance(bob.screen, LeaveScreen), pb)
        party.room.act(0, {"type": "offer", "to": 1})
        await until(lambda: "accept" in (bob.game or {}).get("legal", []), pb, what="the offer")
        await pb.press("a")
        told = t("client.leave_answer_first")
        await until(lambda: any(n.message == told for n in bob._notifications), pb)
        assert isinstance(bob.screen, LeaveScreen)
        assert party.room.state["last_match"] is None
        await pb.press("x")  # again: said once, not stacked
        await pb.pause()
        assert [n.message for n in bob._notifications].count(told) == 1
        await pb.press("n")
        await until(lambda: isinstance(bob.screen, GameScreen), pb)
        # the word about a question no longer there goes with it
        await until(lambda: all(n.message != told for n in bob._notifications), pb)
        await pb.press("a")
        await until(lambda: party.room.state["last_match"] is not None, pb, what="the match")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("which", ["confirm", "offers"])
async def test_every_question_says_how_to_answer_it_to_a_key_it_has_no_use_for(
    monkeypatch, lang, which
):
    """Not the leave question only: any yes/no question (Tesauro's "is definition 3 the
    true one?", the host's) and T-Rex's offer picker say so, in both languages."""
    from textual.app import App

    from tui.games.trex.offer import PickOfferScreen

    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0.0)
    set_lang(lang)
    if which == "confirm":
        dialog, said = ConfirmScreen("Sure?"), "confirm.answer_first"
    else:
        dialog = PickOfferScreen("accept", [(0, "Ann"), (2, "Cid")])
        said = "trex.pick_first"
    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(dialog)
        await pilot.pause()
        await pilot.press("x")
        told = t(said)
        await until(lambda: any(n.message == told for n in app._notifications), pilot)
        assert app.screen is dialog  # still asked


async def trex_for_bob(stack: AsyncExitStack, state_dir) -> tuple[Party, ClientApp, object]:
    """A game of T-Rex begun for Ann, Bob and Cid; Bob's app and pilot."""
    party = await Party(stack, state_dir, game_id="trex").open("Ann", "Bob", "Cid")
    party.room.start(lang="en")
    await party.settle()
    return party, party.players["Bob"], party.pilots["Bob"]


async def test_a_key_for_the_screen_beneath_the_help_closes_it_and_does_its_work(state_dir):
    """T-Rex: Bob reads the help; Ann offers him her card; his `a` must not be swallowed
    (the play-test: nothing happened and nothing said why) — nor accept an offer he has not
    seen (the next play-test: "accepted unseen"). It closes the help and says the table moved
    on; his next `a` accepts. With nothing new beneath, a key closes the help and does its
    work at once. The help's own keys (scrolling, Esc) stay the help's."""
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb = await trex_for_bob(stack, state_dir)
        await pb.press("question_mark")
        await until(lambda: isinstance(bob.screen, HelpScreen), pb)
        await pb.press("down", "pagedown")  # scrolling the help is the help's
        assert isinstance(bob.screen, HelpScreen)
        party.room.act(0, {"type": "offer", "to": 1})
        await until(lambda: "accept" in (bob.game or {}).get("legal", []), pb, what="the offer")
        assert isinstance(bob.screen, HelpScreen)  # (nobody waits on Bob: it stays up)
        assert party.room.state["last_match"] is None
        await pb.press("a")
        await until(lambda: not isinstance(bob.screen, HelpScreen), pb, what="the help closed")
        told = t("keys.moved_on", pressed="a")
        await until(lambda: any(n.message == told for n in bob._notifications), pb)
        await pb.pause()
        assert party.room.state["last_match"] is None and party.room.state["offers"][0] == 1
        await pb.press("question_mark")  # the help again, nothing new beneath: `a` acts
        await until(lambda: isinstance(bob.screen, HelpScreen), pb)
        await pb.press("a")
        await until(lambda: party.room.state["last_match"] is not None, pb, what="the match")
        assert not isinstance(bob.screen, HelpScreen)


async def test_a_key_behind_the_help_acts_when_what_changed_beneath_is_not_its_players(
    state_dir,
):
    """The play-test: a phone's `o` pressed with the help open during a sealed choice was
    only "the table moved on": another player had sealed theirs — the view's version moved,
    nothing the key answers did. T-Rex: Ann offers her card to Cid while Bob reads the help;
    Bob's `1` (offer his card) closes the help and offers, at once."""
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb = await trex_for_bob(stack, state_dir)
        await pb.press("question_mark")
        await until(lambda: isinstance(bob.screen, HelpScreen), pb)
        version = bob.version
        party.room.act(0, {"type": "offer", "to": 2})
        await until(lambda: bob.version > version, pb, what="Ann's offer, seen by Bob")
        assert isinstance(bob.screen, HelpScreen)
        await pb.press("1")
        await until(lambda: party.room.state["offers"][1] is not None, pb, what="Bob's offer")
        assert not isinstance(bob.screen, HelpScreen)
        moved_on = t("keys.moved_on", pressed="1")
        assert not any(n.message == moved_on for n in bob._notifications)


async def test_a_question_closed_under_the_player_does_not_turn_its_answer_into_a_move(
    state_dir, monkeypatch
):
    """T-Rex: Ann and Cid offer to Bob; `a` asks whose to accept; Ann withdraws and the
    question closes. Bob's `1`, meant for "accept Ann", must not offer his card to Ann (the
    play-test: "Your offer is out to Ann"): it is refused, and the question said it closed.
    No pause ends the moment here: the test goes by states."""
    from tui.games import HandWidget
    from tui.games.trex import PickOfferScreen

    monkeypatch.setattr(HandWidget, "PASSED_PAUSE", math.inf)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party, bob, pb = await trex_for_bob(stack, state_dir)
        party.room.act(0, {"type": "offer", "to": 1})
        party.room.act(2, {"type": "offer", "to": 1})
        offers = lambda: (bob.game or {}).get("offers", {}).get("in")  # noqa: E731
        await until(lambda: offers() == [0, 2], pb, what="two offers")
        await pb.press("a")
        await until(lambda: isinstance(bob.screen, PickOfferScreen), pb)
        party.room.act(0, {"type": "withdraw"})
        await until(lambda: not isinstance(bob.screen, PickOfferScreen), pb, what="closed")
        await pb.press("1")
        said = [str(n.message) for n in bob._notifications]
        assert t("client.question_passed") in said and t("illegal.stale") in said
        await party.settle()
        assert party.room.state["offers"][1] is None  # Bob offered nothing
        assert party.room.state["offers"][2] == 1  # Cid's offer still stands
        await pb.press("3")  # the next key is his, meant for the screen as it is now: his
        match = lambda: party.room.state["last_match"]  # noqa: E731 (offer to Cid, who offered)
        await until(lambda: match() is not None, pb, what="Bob and Cid matched")


async def test_a_t_rex_player_whose_leaving_ends_the_game_is_told_and_so_is_everyone(
    state_dir, monkeypatch
):
    """Three in a T-Rex game: Cid's leave question says it ends the game for everyone (it
    said only that nobody plays his seat); once he leaves, the table's results, Ann's and the
    story say why it ended (they said only who won, as if a pile had run out)."""
    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="trex").open("Ann", "Bob", "Cid")
        party.room.start(lang="en")
        await party.settle()
        ann, cid, pc = party.players["Ann"], party.players["Cid"], party.pilots["Cid"]
        await until(lambda: cid.game, pc)
        await pc.press("q")
        await until(lambda: isinstance(cid.screen, ConfirmScreen), pc)
        assert t("client.leave_ends_game") in cid.screen.question
        await pc.press("y")
        await until(lambda: party.room.phase == "over", party.hp, what="the game over")
        await until(lambda: not cid.is_running, pc)
        assert cid._exit_renderables == [t("client.left_ended")]  # (what it says on leaving)
        del party.players["Cid"]
        await party.settle()
        why = t("trex.ended_too_few")
        for app in (party.host, ann):
            await until(lambda a=app: why in screen_text(a), party.hp, what=f"why on {app}")
        said = next(line for line in party.host.story.lines if why in line)
        assert said.endswith(why), said  # who won first: a line cut short keeps it


def test_the_leave_question_warns_only_where_leaving_ends_the_t_rex_game():
    from tui.games import ui_for

    ends = ui_for("trex").would_end
    four = {"mode": "compete", "over": False, "left": [False] * 4}
    assert not ends(four)
    assert ends({**four, "left": [False, True, False, False]})
    assert not ends({**four, "over": True, "left": [False, True, False, False]})
    assert ends({"mode": "coop", "over": False, "left": [False, False]})
    assert not ui_for("tallyup").would_end({"over": False})  # (a bot plays a seat given up)


async def test_the_host_s_kick_that_ends_a_t_rex_game_asks_first_and_a_leaver_is_no_choice(
    state_dir, monkeypatch
):
    """The play-test: `k`, `3` ended a game of three at once (the players' leave question
    warns); the list offered a player who had left, and said a bot would play the seat."""
    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0)
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir, game_id="trex").open("Ann", "Bob", "Cid", "Dan")
        party.room.start(lang="en")
        await party.settle()
        host, hp = party.host, party.hp
        party.room.leave(3)  # Dan leaves: three are left
        await until(lambda: party.room.game_view(None)["left"][3], hp)
        await hp.press("k")
        await until(lambda: isinstance(host.screen, KickScreen), hp)
        assert t("host.kick_pick_no_bots") in screen_text(host)
        await hp.press("4")  # Dan: gone already
        said = [str(n.message) for n in host._notifications]
        assert t("host.kick_gone", name="Dan") in said and party.room.phase == "playing"
        await hp.press("2")  # Bob: the game would end — asked first
        await until(lambda: isinstance(host.screen, ConfirmScreen), hp)
        assert host.screen.question == t("host.kick_ends_game", name="Bob")
        await hp.press("n")
        await until(lambda: isinstance(host.screen, KickScreen), hp)
        assert party.room.phase == "playing" and not party.room.seats[1].leaving
        # the list still up, Cid leaves: the game ends, and the list (the game's seats) goes
        await hp.press("2")
        await until(lambda: isinstance(host.screen, ConfirmScreen), hp)
        party.room.leave(2)
        await until(lambda: isinstance(host.screen, ResultsScreen), hp, what="the results")
        assert not any(isinstance(s, (KickScreen, ConfirmScreen)) for s in host.screen_stack)


async def thirty_seconds_on_ann(app: ClientApp, pilot) -> list[float]:
    """Ann's Tally Up! screen, told her move has 30 s on the clock; the app's clock, held
    (`now[0]`, moved by the test)."""
    from tui.scenes import ANN, wire

    now = [1000.0]
    app.clock = lambda: now[0]
    room = dict(app.room, timer_seconds=30.0)
    assert ANN in room["waiting"]
    view = {"type": "view", "room": room, "game": app.game, "events": []}
    app.post_message(ClientApp.told(wire(dict(view, version=app.version + 1))))
    await until(lambda: app.room.get("timer_seconds") == 30.0, pilot)
    return now
