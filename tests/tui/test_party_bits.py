"""Little things a party expects, through the real apps: the host picks a bot's strength,
plays the same game again from the results, and a player's terminal rings once when the
table starts waiting for them (unless they turned it off)."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest

from net.room import Room
from tests.fakegame import PeekBot
from tests.tui.test_accidents import Party, finish, reach
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp, starts_waiting_on_you
from tui.client.screens import GameScreen
from tui.host.app import HostApp
from tui.host.screens import BotScreen, LobbyScreen, ResultsScreen, TableScreen
from tui.i18n import set_lang, t
from tui.text import sentence
from tui.waiting import until

# --- the bot's strength ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_host_picks_a_bot_s_strength(lang):
    set_lang(lang)
    try:
        room = Room("Friday", game_id="tallyup", open_room=True)
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
        async with host.run_test(size=(100, 30)) as hp:
            await until(lambda: isinstance(host.screen, LobbyScreen), hp)
            await hp.press("b")
            await until(lambda: isinstance(host.screen, BotScreen), hp)
            shown = screen_text(host)
            assert ("bold" if lang == "en" else "дерзкий") in shown  # its name, in its language
            await hp.press("3")  # easy, normal, bold: the third
            await until(lambda: len(room.seats) == 1, hp)
            await hp.press("b")
            await until(lambda: isinstance(host.screen, BotScreen), hp)
            await hp.press("enter")  # the usual one
            await until(lambda: len(room.seats) == 2, hp)
            await hp.press("b" if lang == "en" else "и")  # `b` on the Russian layout too
            await until(lambda: isinstance(host.screen, BotScreen), hp)
            await hp.press("escape")  # no bot after all
            await until(lambda: isinstance(host.screen, LobbyScreen), hp)
            assert [s.bot for s in room.seats] == ["bold", "normal"]
            await until(lambda: ("bot (bold)" if lang == "en" else "бот (дерзкий)") in (
                str(host.screen.query_one("#players").get_option_at_index(0).prompt)
            ), hp)  # fmt: skip
    finally:
        set_lang("en")


async def test_a_game_with_one_strength_of_bot_adds_it_at_once(peek):
    set_lang("en")
    room = Room("Friday", game_id="peek", open_room=True)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        await hp.press("b")
        await until(lambda: len(room.seats) == 1, hp)
        assert isinstance(host.screen, LobbyScreen) and room.seats[0].bot == "plain"


# --- the lobby's arrows -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_lobby_s_arrows_move_the_seat_k_takes_or_say_why_they_cannot(lang):
    """↑↓ in the host's lobby move the lit seat (`k` takes it); with one seat, or none, they
    did nothing and said nothing."""
    set_lang(lang)
    try:
        room = Room("Friday", game_id="trex", open_room=True)
        host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
        async with host.run_test(size=(100, 30)) as hp:
            await until(lambda: isinstance(host.screen, LobbyScreen), hp)

            def said() -> list[str]:
                return [str(n.message) for n in host._notifications]

            await hp.press("down")
            await until(lambda: t("lobby.arrows_none") in " ".join(said()), hp)
            room.join("cat", None)
            await until(lambda: host.screen.query_one("#players").option_count == 1, hp)
            await hp.press("up")
            await until(lambda: t("lobby.arrows_one", name="cat") in " ".join(said()), hp)
            room.join("Ann", None)
            players = host.screen.query_one("#players")
            await until(lambda: players.option_count == 2, hp)
            await hp.press("down")
            await until(lambda: players.highlighted == 1, hp)
            await hp.press("down")  # (round again)
            await until(lambda: players.highlighted == 0, hp)
            await hp.press("up", "k")
            await until(lambda: "Ann" in screen_text(host) and len(host.screen_stack) > 2, hp)
            await hp.press("y")
            await until(lambda: [s.name for s in room.seats] == ["cat"], hp)
            options = host.screen.query_one("#options")
            await hp.press("tab")  # the options focused (tab): ↑↓ walk them, as `o` does
            await until(lambda: host.screen.focused is options, hp)
            await hp.press("down")
            await until(lambda: options.highlighted == 1, hp)
    finally:
        set_lang("en")


# --- each game's options, for the evening --------------------------------------------------


async def test_a_game_s_options_are_kept_while_g_goes_round_the_games(state_dir):
    """Tesauro's "Words: Russian" went back to "in the table's language" once `g` went round
    to Tally Up! and T-Rex and back; now each game keeps its options for the evening — and a
    table resumed (`--resume`) has them too."""
    set_lang("en")
    save = state_dir / "t.save"
    room = Room("Friday", game_id="tesauro", open_room=True, save_path=save)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        room.set_option("words", "ru")
        room.set_option("rounds", 2)
        await hp.press("g")
        await until(lambda: room.game_id != "tesauro", hp)
        while room.game_id != "tesauro":
            await hp.press("g")
            await until(lambda: room.game_id is not None, hp)
        options = host.screen.query_one("#options")

        def shown() -> str:
            return " ".join(
                str(options.get_option_at_index(i).prompt) for i in range(options.option_count)
            )

        await until(lambda: t("option.tesauro.words_ru") in shown(), hp)
        assert room.options["words"] == "ru" and room.options["rounds"] == 2
        await hp.press("g")
        await until(lambda: room.game_id != "tesauro", hp)
        kept = dict(room.kept_options)
        room.flush()
    room.close()
    again = Room.resume(save)
    assert again.kept_options == kept and again.kept_options["tesauro"]["words"] == "ru"
    again.choose_game("tesauro")
    assert again.options["words"] == "ru" and again.options["rounds"] == 2
    again.close()


# --- a game without bots sends them away --------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_game_without_bots_says_it_sent_them_away_not_the_host(state_dir, lang):
    """`g` to T-Rex (no bots) takes the bots' seats: the story said "The host took Bot 2's
    seat." — the host did not, the game change did. One line says so, on every screen."""
    set_lang(lang)
    try:
        async with AsyncExitStack() as stack:
            party = await Party(stack, state_dir, game_id="tallyup").open("cat")
            room, host = party.room, party.host
            for _ in range(2):
                room.add_bot(name_prefix=t("bot.name"))
            bots = [s.name for s in room.seats[1:]]
            await party.hp.press("g")
            await until(lambda: room.game_id == "trex" and len(room.seats) == 1, party.hp)
            gone = t("room_event.bots_gone", game=t("game.trex.name"),
                     names=", ".join(bots), n=2)  # fmt: skip
            cat = party.players["cat"]
            await until(lambda: gone in host.story.lines, party.hp)
            await until(lambda: gone in cat.story.lines, party.pilots["cat"])
            for app in (host, cat):
                lines = app.story.lines
                assert lines.index(gone) == lines.index(sentence(t("room_event.game_chosen",
                       game=t("game.trex.name")))) + 1  # fmt: skip
                for bot in bots:
                    assert t("room_event.kicked", name=bot) not in lines
    finally:
        set_lang("en")


# --- playing again ----------------------------------------------------------------------------


@pytest.fixture
def strengths(peek, monkeypatch):
    monkeypatch.setattr(type(peek), "bots", {"plain": PeekBot, "bold": PeekBot})
    return peek


async def test_r_on_the_results_plays_the_same_game_again(strengths, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        room, host, hp = party.room, party.host, party.hp
        room.add_bot("bold")
        room.set_option("turn_seconds", 30.0)
        await reach(party, "playing")
        await party.players["Bob"].leave()  # Bob goes home mid-game
        await until(lambda: room.seats[1].leaving, hp)
        finish(party)
        await until(lambda: isinstance(host.screen, ResultsScreen), hp)
        ann, pa = party.players["Ann"], party.pilots["Ann"]
        await hp.press("r")
        await until(lambda: isinstance(host.screen, TableScreen), hp)
        assert [(s.name, s.bot) for s in room.seats] == [("Ann", None), ("Bot 1", "bold")]
        assert room.options["turn_seconds"] == 30.0 and room.players == 2
        await until(lambda: isinstance(ann.screen, GameScreen), pa)
        await until(lambda: ann.game and ann.game.get("card") == room.state["hands"][0], pa)
        await until(lambda: "Once more" in "\n".join(host.story.lines), hp)


async def test_r_says_why_when_too_few_would_stay(strengths, state_dir, monkeypatch):
    set_lang("en")
    monkeypatch.setattr(type(strengths), "min_players", 2)
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        room, host, hp = party.room, party.host, party.hp
        room.set_option("turn_seconds", 30.0)
        await reach(party, "over")
        await party.players["Bob"].leave()  # after the game: his seat goes with the lobby
        await until(lambda: room.seats[1].leaving, hp)
        await hp.press("r")  # greyed out: it says why
        await until(lambda: any("1 would stay" in str(n.message) for n in host._notifications), hp)
        assert room.phase == "over" and isinstance(host.screen, ResultsScreen)
        await hp.press("enter")  # the lobby, to find another player
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        assert [s.name for s in room.seats] == ["Ann"]


# --- the bell -----------------------------------------------------------------------------------


def count_bells(app: ClientApp) -> list[int]:
    rung: list[int] = []
    app.bell = lambda: rung.append(app.version)  # type: ignore[method-assign]
    return rung


async def test_the_bell_rings_once_when_the_table_starts_waiting_for_you(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob")
        room = party.room
        room.set_option("turn_seconds", 30.0)
        ann, bob = party.players["Ann"], party.players["Bob"]
        pa, pb = party.pilots["Ann"], party.pilots["Bob"]
        ann_bells, bob_bells = count_bells(ann), count_bells(bob)
        await reach(party, "playing")  # Peek: Ann's turn first
        await until(lambda: ann.room["waiting"] == [0] and bob.room["waiting"] == [0], pa)
        assert len(ann_bells) == 1 and bob_bells == []
        # a late joiner: a new view for everyone, the table still waiting for Ann
        cid_bells = count_bells(await party.sit("Cid"))
        await until(lambda: len(ann.room["seats"]) == 3, pa)
        assert len(ann_bells) == 1
        room.act(0, {"type": "reveal"})  # Bob's turn
        await until(lambda: bob.room["waiting"] == [1], pb)
        await until(lambda: ann.room["waiting"] == [1], pa)
        await until(lambda: party.players["Cid"].room["waiting"] == [1], party.pilots["Cid"])
        assert len(ann_bells) == 1 and len(bob_bells) == 1
        assert cid_bells == []  # Cid plays the next game, not this one


async def test_ctrl_g_turns_the_bell_off_and_on(peek, state_dir):
    set_lang("en")
    async with AsyncExitStack() as stack:
        party = await Party(stack, state_dir).open("Ann", "Bob", "Cid")
        room = party.room
        room.set_option("turn_seconds", 30.0)
        bob, pb = party.players["Bob"], party.pilots["Bob"]
        bells = count_bells(bob)
        await reach(party, "playing")
        await until(lambda: isinstance(bob.screen, GameScreen), pb)
        await pb.press("ctrl+g")
        await until(lambda: any("Bell off" in str(n.message) for n in bob._notifications), pb)
        assert bob.bell_on is False
        room.act(0, {"type": "reveal"})  # Bob's turn, in silence
        await until(lambda: bob.room["waiting"] == [1], pb)
        await pb.press("ctrl+g")
        await until(lambda: any("Bell on" in str(n.message) for n in bob._notifications), pb)
        room.act(1, {"type": "reveal"})  # Cid's turn: nothing for Bob either way
        await until(lambda: bob.room["waiting"] == [2], pb)
        assert bells == []


async def test_no_bell_starts_with_it_off(peek):
    set_lang("en")
    room = Room("Friday", game_id="peek", open_room=True)
    room.set_option("turn_seconds", 30.0)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        ann = ClientApp(("127.0.0.1", host.server.port), name="Ann", discover=False, bell=False)
        bells = count_bells(ann)
        async with ann.run_test(size=(100, 30)) as pa:
            await until(lambda: room.seats and room.seats[0].connected, hp)
            await hp.press("s")
            await until(lambda: ann.room and ann.room["waiting"] == [0], pa)
            assert bells == [] and isinstance(ann.screen, GameScreen)


def test_no_bell_is_a_join_flag(monkeypatch):
    from tui import cli

    made: list[dict] = []

    class Recorder:
        return_code = 0

        def __init__(self, address, **options) -> None:
            made.append(options)

        def run(self) -> None:
            pass

    monkeypatch.setattr("tui.client.app.ClientApp", Recorder)
    assert cli.main(["join", "127.0.0.1:47470", "--no-bell", "--no-zeroconf"]) == 0
    assert cli.main(["join", "127.0.0.1:47470", "--no-zeroconf"]) == 0
    assert [m["bell"] for m in made] == [False, True]


def seat(**kw) -> dict:
    return {"name": "x", "connected": True, "bot": None, "standin": False} | kw


@pytest.mark.parametrize(
    ("before", "now", "rings"),
    [
        (None, {"waiting": [0]}, True),  # the first view of a game that waits for you
        ({"phase": "over", "waiting": []}, {"waiting": [0]}, True),  # played again
        ({"waiting": [1]}, {"waiting": [0]}, True),
        ({"waiting": [0]}, {"waiting": [0, 1]}, False),  # still waiting: said already
        ({"waiting": [0]}, {"waiting": [1]}, False),
        ({"waiting": [1]}, {"waiting": [0], "you": 3}, False),  # not seated in this game
        ({"waiting": [1]}, {"waiting": [0], "you": None}, False),
        ({"waiting": [1]}, {"waiting": [0], "seats": [seat(bot="normal"), seat()]}, False),
        ({"waiting": [1]}, {"waiting": [0], "phase": "over"}, False),
    ],
)
def test_when_the_bell_rings(before, now, rings):
    base = {"phase": "playing", "you": 0, "players": 2, "seats": [seat(), seat()]}
    assert starts_waiting_on_you(before and base | before, base | now) is rings


# --- a host told to stop by a signal ----------------------------------------------------------


async def test_a_signal_closes_the_host_and_a_hang_cannot_keep_it(peek, monkeypatch):
    """SIGTERM/SIGHUP close the table as `q` would, with a watchdog that ends the process if
    closing hangs (a vanished terminal once left Textual's output thread stuck: an orphaned
    host held its port for good)."""
    import tui.host.app as host_app

    timers = []

    class Timer:
        def __init__(self, interval, function, args) -> None:
            self.interval, self.function, self.args, self.daemon = interval, function, args, False
            timers.append(self)

        def start(self) -> None:
            self.started = True

    monkeypatch.setattr(host_app.threading, "Timer", Timer)
    room = Room("Friday", game_id="peek", open_room=True)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        host._on_sigterm()
        await hp.pause()
    assert host.return_code == 0  # it closed by itself
    (watchdog,) = timers
    assert watchdog.started and watchdog.daemon
    assert watchdog.interval == host_app.SHUTDOWN_LIMIT and watchdog.function is host_app.os._exit


@pytest.mark.parametrize(("code", "hint"), [(1, True), (0, False)])
def test_a_host_that_died_on_an_error_says_the_table_can_come_back(
    monkeypatch, state_dir, capsys, code, hint
):
    """After the traceback, the host's terminal says what the players are waiting for."""
    from tui import cli

    class Ended:
        return_code = code

        def __init__(self, room, **options) -> None:
            pass

        def run(self) -> None:
            pass

    monkeypatch.setattr("tui.host.app.HostApp", Ended)
    assert cli.main(["host", "--no-zeroconf", "--no-web", "--lang", "en"]) == code
    assert ("`hubbub host --resume` brings it back" in capsys.readouterr().err) == hint


@pytest.mark.parametrize(
    ("first", "web_port"), [(["--web-port", "48999"], 48999), (["--no-web"], None)]
)
def test_resume_comes_back_with_the_browser_seats_and_the_blocks_it_had(
    monkeypatch, state_dir, first, web_port
):
    """`hubbub host --resume` keeps what the table was started with: the browser seats'
    port (or none), and the strangers it turned away — before, both were forgotten."""
    from tui import cli

    started: list[tuple] = []

    class Host:
        return_code = 0

        def __init__(self, room, **options) -> None:
            self.room = room
            started.append((room, options))

        def run(self) -> None:
            if len(started) == 1:  # the first table: a stranger blocked, then a crash
                self.room.settings.blocked.append("10.0.0.9")
                self.room.add_bot()
                self.room.flush()

    monkeypatch.setattr("tui.host.app.HostApp", Host)
    assert cli.main(["host", "--game", "tallyup", "--no-zeroconf", "--lang", "en", *first]) == 0
    assert started[0][1]["web_port"] == web_port
    assert cli.main(["host", "--resume", "--no-zeroconf"]) == 0
    room, options = started[1]
    assert options["web_port"] == web_port
    assert room.settings.blocked == ["10.0.0.9"]


@pytest.mark.parametrize(("given", "kept"), [(["--lang", "ru"], "ru"), ([], None)])
def test_the_host_keeps_whether_it_chose_its_language(monkeypatch, state_dir, given, kept):
    """`--lang` is the host's choice, kept for `--resume` (the browser seats speak it to every
    browser); without it the language is the locale's, a guess (a browser's own wins)."""
    from tui import cli

    started = []

    class Host:
        return_code = 0

        def __init__(self, room, **options) -> None:
            started.append(room)

        def run(self) -> None:
            started[-1].flush()

    monkeypatch.setattr("tui.host.app.HostApp", Host)
    assert cli.main(["host", "--game", "tallyup", "--no-zeroconf", *given]) == 0
    assert cli.main(["host", "--resume", "--no-zeroconf"]) == 0
    assert [room.settings.lang for room in started] == [kept, kept]


async def test_a_refit_after_the_refresh_skips_a_widget_on_its_way_out():
    """The Tesauro table's refit ran after the refresh on a table being pruned — still
    attached, its children gone — and the host app died with NoMatches at the end of a game
    (seen on a busy machine). A node Textual prunes is not called back."""
    from textual.app import App
    from textual.containers import Vertical
    from textual.widgets import Static

    from tui.widgets import after_refresh

    class Two(App[None]):
        def compose(self):
            with Vertical(id="box"):
                yield Static("a", id="a")

    called: list[str] = []
    app = Two()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        after_refresh(box, lambda: called.append("kept"))
        await pilot.pause()
        after_refresh(box, lambda: called.append("pruned"))
        box._pruning = True  # as App._prune marks a subtree before it removes it
        await pilot.pause()
        box._pruning = False
    assert called == ["kept"]


def test_no_screen_calls_back_after_a_refresh_but_through_after_refresh():
    """Tally Up!'s chart was drawn again after the refresh with Textual's own
    `call_after_refresh`: at a game's end on a TV the table was gone by then, and the host
    app died with NoMatches ('#tu-chart'), 2 games in 3 in the play-test."""
    from pathlib import Path

    import tui

    root = Path(tui.__file__).parent
    raw = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if ".call_after_refresh(" in line and not line.lstrip().startswith(('"', "node."))
    ]
    assert raw == [], raw


async def test_the_banner_about_a_guesser_goes_when_the_guessing_stops():
    """Not all evening: five quiet minutes after the last wrong code, the banner and its `!`
    key go, with no change of the room needed (the screens look again every few seconds)."""
    from net import doorman as door

    set_lang("en")
    room = Room("Friday", game_id="tallyup", code="KQXM")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    clock = [1000.0]
    async with host.run_test(size=(100, 30)) as hp:
        await until(lambda: isinstance(host.screen, LobbyScreen), hp)
        doorman = host.server.doorman
        doorman.clock = lambda: clock[0]
        for _ in range(door.FREE_TRIES + 2):
            doorman.wrong_code("10.0.0.9")
        host.follow()  # as the door's alert does
        banner = host.screen.query_one("#alerts")
        await until(lambda: banner.display and "10.0.0.9" in str(banner.render()), hp)
        assert host.screen.check_action("block", ())
        clock[0] += door.QUIET_AFTER
        host.screen._alerts_age()  # (every 5 s)
        await until(lambda: not banner.display, hp)
        assert not host.screen.check_action("block", ())


def test_every_screen_marks_a_seat_by_its_mark_not_its_index():
    """A seat's symbol and colour come from its `mark`, which it keeps for the evening: the
    seat list, the results and each game's scores draw Cid (seat 1 now that Bob went, mark 2)
    with mark 2's ■, never seat 1's ▲."""
    from tui.games.tesauro.pieces import scoreboard as tesauro_scores
    from tui.games.trex.pieces import scoreboard as trex_scores
    from tui.host.screens import results_text
    from tui.text import SEAT_SYMBOLS, marks_of
    from tui.widgets import seat_lines

    seat = {"connected": True, "bot": None, "standin": False, "leaving": False,
            "away_for": None, "standin_in": None}  # fmt: skip
    room = {"seats": [{**seat, "name": "Ann", "mark": 0}, {**seat, "name": "Cid", "mark": 2}],
            "players": 2, "phase": "playing"}  # fmt: skip
    marks = marks_of(room)
    assert marks == [0, 2]
    cid = f"{SEAT_SYMBOLS[2]} Cid"
    assert cid in seat_lines(room, you=0).plain
    assert (
        cid in results_text({"scores": [1, 2], "winners": [1]}, ["Ann", "Cid"], False, marks).plain
    )
    players = ["Ann", "Cid"]
    trex = {"players": players, "mode": "competitive", "good": [0, 1], "bad": [0, 0],
            "scores": [0, 1]}  # fmt: skip
    assert cid in trex_scores(trex, marks).plain
    tesauro = {"players": players, "scores": [1, 2], "over": True}
    assert any(cid in piece.plain for piece in tesauro_scores(tesauro, marks))
    assert SEAT_SYMBOLS[1] not in seat_lines(room, you=0).plain


def test_a_long_name_in_the_results_is_cut_to_the_panel_never_its_score_sent_below():
    """At 80×24 "Anastasia-Maria" pushed her 390 onto a line of its own."""
    from tui.host.screens import results_text

    result = {"scores": [390, 670], "winners": [1]}
    names = ["Anastasia-Maria Konstantinopolskaya", "Boris"]
    lines = results_text(result, names, width=24).plain.splitlines()
    assert all(len(line) <= 24 for line in lines), lines
    assert any(line.endswith("…  390") for line in lines), lines
    boris = next(line for line in lines if line.startswith(" 1. ▲ Boris"))
    assert boris.endswith("  670") and len(boris) == len(lines[-1]), lines  # (one column)
    assert "Anastasia-Maria Konstant  390" in results_text(result, names).plain  # (any width)


def test_a_winner_whose_player_left_says_a_bot_finished_the_game():
    """Tally Up!: Cat left, a bot played her seat and won — "Winner: Cat", as if she had."""
    from tui.host.screens import results_text

    set_lang("en")
    result = {"scores": [900, 400], "winners": [0]}
    said = results_text(result, ["Cat", "Dan"], gone={0}, width=26).plain.splitlines()
    cat = next(i for i, line in enumerate(said) if line.startswith(" 1.") and "Cat" in line)
    assert said[cat].endswith("Cat  900")
    assert said[cat + 1].strip() == f"({t('results.bot_played')})"
    apart = results_text({**result, "left": [0]}, ["Cat", "Dan"], gone={0}).plain
    assert t("results.bot_played") not in apart  # (T-Rex's leaver: listed apart, no bot)


@pytest.mark.parametrize("size", [(80, 24), (40, 30)])
async def test_a_toast_covers_only_the_title_row_never_the_countdown_or_the_story(size):
    """A toast at the bottom right hid the story's newest lines (T-Rex) and the end of the
    turn's countdown (Tally Up!); on a phone, half the width, it hid the prompt."""
    from textual.widgets._toast import Toast

    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(tallyup_at("sealed"), screen="GameScreen")()
    async with app.run_test(size=size, notifications=True) as pilot:
        await run_before(pilot)
        app.notify(t("keys.not_now", pressed="r"), severity="warning")
        await until(lambda: list(app.screen.query(Toast)), pilot, what="the toast")
        await pilot.pause()
        [toast] = app.screen.query(Toast)
        assert toast.region.y == 0 and toast.region.height == 1, toast.region


@pytest.mark.parametrize(("scene", "crowns"), [
    ("host-tesauro-end", True), ("host-trex-end", True), ("host-results", False),
])  # fmt: skip
async def test_on_a_tv_the_winner_s_name_is_large_once(scene, crowns):
    """160×45: Tesauro's table and T-Rex's banner name the winner in big letters, and the
    results beside them did it again (with a third and fourth time in small type)."""
    from tests.scenes import SCENES
    from tui.scenes import reach

    set_lang("en")
    found = next(s for s in SCENES if s.name == scene)
    app, run_before = found.build()
    async with app.run_test(size=(160, 45)) as pilot:
        await reach(found, run_before, pilot)
        await pilot.pause()
        table = app.screen.query_one("#game-table")
        assert table.crowned() == crowns
        results = str(app.screen.query_one("#results").render())
        assert bool(set(results) & set("█▀▄")) != crowns, results  # (the big font's blocks)
        if scene == "host-trex-end":
            banner = str(table.query_one("#tr-banner").render())
            assert t("trex.the_trex", names="Dana") not in banner, "said again in small type"


def test_the_results_scores_stand_in_a_column():
    """ "1. ● Аня  3" over "2. ▲ Боря  −1": the scores followed each name's length."""
    from tui.host.screens import results_text

    lines = results_text({"scores": [3, -1, 120], "winners": [2]}, ["Аня", "Боря", "Bot 1"])
    ranked = [line for line in lines.plain.splitlines() if line[:3].strip().endswith(".")]
    assert len(ranked) == 3 and len({len(line.rstrip()) for line in ranked}) == 1, ranked
