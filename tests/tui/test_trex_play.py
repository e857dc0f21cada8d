"""T-Rex through the real apps over real sockets: three players offer, answer and skip by
keys; the table tells the match; nobody's card reaches another screen."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack

import pytest

from net.client import TokenStore
from net.room import Room
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp
from tui.client.screens import GameScreen
from tui.host.app import HostApp
from tui.host.screens import TableScreen
from tui.i18n import set_lang, t
from tui.waiting import until


async def test_offer_accept_skip_by_keys(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="trex", open_room=True, rng=random.Random(5))
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        port = host.server.port
        players, pilots = [], []
        for who in ("Ann", "Bob", "Cid"):
            tokens = TokenStore(state_dir / f"{who}.json")  # every player on their own laptop
            app = ClientApp(("127.0.0.1", port), name=who, discover=False, tokens=tokens)
            pilots.append(await stack.enter_async_context(app.run_test(size=(100, 30))))
            players.append(app)
            seated = len(players)
            await until(lambda n=seated: len(room.seats) == n, hp)
        _ann, bob, cid = players
        pa, pb, pc = pilots
        await until(lambda: all(s.connected for s in room.seats), hp)
        await hp.press("s")
        for app, pilot in zip(players, pilots, strict=True):
            await until(lambda a=app: isinstance(a.screen, GameScreen) and a.game, pilot)
        await until(lambda: isinstance(host.screen, TableScreen), hp)
        # each sees their own card (action text and level), nobody else's
        for seat, app in enumerate(players):
            card = room.game_view(seat)["card"]
            await until(lambda a=app, c=card: a.game.get("card") == c, pilots[seat])
            assert room.game_view(None)["actions"][card["colour"]] in screen_text(app)

        await pa.press("2")  # Ann offers her card to Bob (seat 2 on the keys)
        await until(lambda: (bob.game.get("offers") or {}).get("in") == [0], pb)
        assert "Ann offers you their card" in screen_text(bob)
        assert (cid.game.get("offers") or {}).get("in") == []
        levels = [room.game_view(s)["card"]["level"] for s in (0, 1)]
        await pb.press("a")  # Bob accepts
        await until(lambda: room.game_view(None)["last_match"] is not None, hp)
        await hp.pause(0.05)
        banner = f"Ann ⇄ Bob: {levels[0]} and {levels[1]}"
        assert banner in screen_text(host)
        await until(lambda: f"your {levels[1]}, their {levels[0]}" in screen_text(bob), pb)

        before = room.game_view(2)["card"]
        await pc.press("s")  # Cid skips
        await until(lambda: any(e.get("type") == "skipped" for e in room.state["last_events"]), hp)
        assert room.state["good"][2] == 0 and room.game_view(2)["card"] is not None
        assert len(room.state["number_discard"]) >= 3 or room.game_view(2)["card"] != before

        await pa.press("3")  # Ann offers her new card to Cid, who declines it
        await until(lambda: (cid.game.get("offers") or {}).get("in") == [0], pc)
        assert "Ann offers you their card" in screen_text(cid)
        await pc.press("x")
        await until(lambda: (cid.game.get("offers") or {}).get("in") == [], pc)
        await pc.pause()
        assert "Ann offers you their card" not in screen_text(cid)  # it went with the offer


def test_on_a_tv_the_match_shows_whose_two_levels_in_big_letters():
    """From the sofa: "ANN 7   BOB 10" in big letters above the sentence (the play-test: big
    digits with no names); the levels alone where the names do not fit or the font lacks a
    letter; the two-player game's levels alone."""
    from tui.bigtext import big
    from tui.games.trex import match_banner

    match = {"outcome": "exact", "a": 0, "b": 1, "level_a": 7, "level_b": 10}
    small = match_banner(match, ["Ann", "Bob"]).plain
    large = match_banner(match, ["Ann", "Bob"], large=150).plain.split("\n")
    assert "\n" not in small and "7" in small  # a sentence, as ever
    assert large[-1] == small and large[:-1] == big("Ann 7   Bob 10", 2)
    narrow = match_banner(match, ["Ann", "Bob"], large=40).plain.split("\n")
    assert narrow[:-1] == big("7  10", 2)  # (the names at either scale are wider than 40)
    odd = match_banner(match, ["Ann", "Bob☺"], large=150).plain.split("\n")
    assert odd[:-1] == big("7  10", 2)
    coop = {**match, "right": True, "moved": 2}
    assert match_banner(coop, ["Ann", "Bob"], large=150).plain.split("\n")[:-1] == big("7  10", 2)


async def test_a_bye_bye_goes_under_the_match_it_followed_and_a_leaver_is_marked():
    """The bye-bye took the match's place on the banner at once (the room never saw the
    match); the scoreboard kept a player who left as if they still played."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import host_scene

    set_lang("en")
    for moment in ("byebye", "left"):
        app, run_before = host_scene(trex_at(moment), last_apart=True)()
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            banner = str(app.screen.query_one("#tr-banner").render())
            assert "Ann ⇄ Bob: 7 and 7" in banner and "Bye-bye" in banner, banner
            board = str(app.screen.query_one("#tr-scores").render())
            cid = next(line for line in board.splitlines() if "Cid" in line)
            assert (f"({t('trex.left_tag')})" in cid) == (moment == "left"), board


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_leaver_s_name_is_whole_on_the_scoreboard(lang):
    """ru 80×24: "◆ Да… (вне игры)" — the tag took the name's room."""
    from tui.games.trex.pieces import scoreboard

    set_lang(lang)
    try:
        view = {"mode": "compete", "players": ["Ann", "Bob", "Даниил"],
                "left": [False, False, True], "good": [1, 2, 3], "bad": [0, 1, 2],
                "scores": [2, 3, 4]}  # fmt: skip
        leaver = scoreboard(view).plain.splitlines()[3]
        assert "Даниил" in leaver and f"({t('trex.left_tag')})" in leaver, leaver
    finally:
        set_lang("en")


LONG = "Александр Константинович"  # (24: the longest name a seat may have)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_leaver_s_long_name_is_whole_on_a_player_s_screens(monkeypatch, lang):
    """The player's Table panel cut a leaver's name ("3 ■ Даниил…  не в игре"), and the
    watched table's scoreboard did on a phone: now the name is whole (what is said of the
    seat, and the numbers, go under it), at 80×24 and 40×30."""
    from tests.clipping import clipped
    from tui.games.trex import scenes
    from tui.scenes import player_scene

    monkeypatch.setattr(scenes, "TREX_NAMES", ("Ann", "Bob", LONG, "Dana"))
    set_lang(lang)
    try:
        shown = [
            ("GameScreen", (80, 24), "#seats", t("seat.left")),
            ("WatchScreen", (80, 24), "#tr-scores", f"({t('trex.left_tag')})"),
            ("WatchScreen", (40, 30), "#tr-scores", f"({t('trex.left_tag')})"),
        ]
        for screen, size, where, tag in shown:
            watch = screen == "WatchScreen"
            make = player_scene(scenes.trex_at("left"), screen=screen, watch=watch)
            app, run_before = make()
            async with app.run_test(size=size) as pilot:
                await run_before(pilot)
                panel = app.screen.query_one(where)
                text = str(panel.render())
                said = text[text.index("Александр") :]
                assert said.split()[:2] == LONG.split(), (screen, size, text)
                assert "…" not in text and tag in said, (screen, size, text)
                assert clipped(app) == [], (screen, size)
    finally:
        set_lang("en")


def test_a_seat_line_says_its_status_under_a_name_too_long_to_share_the_line():
    from tui.widgets import seat_line, seat_lines

    set_lang("ru")
    try:
        seat = {"name": LONG, "connected": False, "leaving": True, "mark": 2}
        for width in (22, 30):
            lines = seat_line(2, seat, playing=True, compact=True, width=width).plain
            assert all(len(line) <= width for line in lines.splitlines()), lines
            assert lines.split()[2:] == [*LONG.split(), *t("seat.left").split()], lines
        short = {"name": "Ann", "connected": False, "leaving": True, "mark": 0}  # (one line)
        assert seat_line(0, short, playing=True, compact=True, width=22).plain == (
            f" 1 ● Ann  {t('seat.left')}"
        )
        # two rows to spare: the leaver's name whole, yours shortened (a crowded list never
        # grows past its box: with none, every name is shortened as before)
        you = {"name": "Anastasia-Maria", "connected": True, "mark": 0}
        here = {"name": "Bob", "connected": True, "mark": 1}
        room = {"seats": [you, here, seat], "players": 3, "phase": "playing"}
        shown = seat_lines(room, you=0, width=22, rows=5).plain.splitlines()
        assert shown[0].startswith(" 1 ● Anastasia-M…") and shown[2:] == [
            " 3 ■ Александр",
            "     Константинович",
            f"     {t('seat.left')}",
        ], shown
        assert len(seat_lines(room, you=0, width=22, rows=3).plain.splitlines()) == 3
    finally:
        set_lang("en")


def test_a_card_s_colour_mark_is_no_seat_s_mark():
    """Players took a seat's mark for a card's colour: the cards had ▲ ● ■, the first three
    seats' marks. Now no card symbol has a shape of a seat's (by the Unicode name: a hollow
    triangle would be as confusing as a filled one), and the three differ from each other."""
    import unicodedata

    from games.trex import SYMBOLS
    from tui.text import SEAT_SYMBOLS

    plain = {"BLACK", "WHITE", "HEAVY", "SUIT", "WITH", "LARGE", "SMALL", "MEDIUM"}

    def shapes(char: str) -> set[str]:
        return set(unicodedata.name(char).replace("-", " ").split()) - plain

    seats = set().union(*(shapes(mark) for mark in SEAT_SYMBOLS))
    cards = list(SYMBOLS.values())
    assert len(set(cards)) == 3 and all(len(mark) == 1 for mark in cards)
    for mark in cards:
        assert not shapes(mark) & seats, (mark, unicodedata.name(mark))
        assert mark not in SEAT_SYMBOLS


@pytest.mark.timeout(90)
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_an_offer_s_answer_is_awaited_on_its_players_screens_not_the_table_s(lang):
    """The table said "Anyone may act now: nobody to wait for" while an offer waited for its
    answer. Offers are secret (the rules: nobody else learns of them; the table's view has
    none), so the table's line says, the same with or without one, where an offer is
    answered; the player it waits for is told first thing that it waits for their answer, and
    the offerer whose answer it waits for. Cid offers Ann, Ann offers Bob; Dana is in none."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import host_scene, player_scene

    set_lang(lang)
    try:
        lines = []
        for moment in ("fresh", "offer"):
            app, run_before = host_scene(trex_at(moment))()
            async with app.run_test(size=(80, 24)) as pilot:
                await run_before(pilot)
                lines.append(str(app.screen.query_one("#waiting").render()))
        assert lines == [t("trex.waiting_nobody")] * 2, lines
        waits = t("trex.answer_now", n=1)
        told = {
            0: (waits, t("trex.your_offer", name="Bob")),
            1: (waits, None),
            2: (t("trex.perform_now"), t("trex.your_offer", name="Ann")),
            3: (t("trex.perform_now"), None),
        }
        for you, (status, offer) in told.items():
            app, run_before = player_scene(trex_at("offer"), screen="GameScreen", you=you)()
            async with app.run_test(size=(80, 24)) as pilot:
                await run_before(pilot)
                assert str(app.screen.query_one("#tr-status").render()) == status, you
                offers = str(app.screen.query_one("#tr-offers").render())
                assert offer is None or offer in offers, (you, offers)
    finally:
        set_lang("en")


def test_the_two_player_game_a_partner_left_does_not_say_a_wrong_call_ended_it():
    from tui.games.trex import end_banner

    set_lang("en")
    view = {"mode": "coop", "coop": {"moved": 3}, "result": {"winners": [], "left": [1],
            "coop": True, "ranking": [0]}}  # fmt: skip
    said = end_banner(view, ["Ann", "Bob"]).plain
    assert t("trex.ended_coop", name="Bob") in said and "wrong call" not in said


async def test_the_voter_sees_the_vote_s_countdown():
    """The vote's time counted only on the table: a voter (and a tied player) sees it beside
    the prompt on their own screen (the play-test's voter let it run out unawares)."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import player_scene
    from tui.text import UNBROKEN_SPACE

    set_lang("en")
    app, run_before = player_scene(trex_at("vote"), screen="GameScreen", timer=42.0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        status = app.screen.query_one("#tr-status")
        shown = lambda: str(status.render()).replace(UNBROKEN_SPACE, " ")  # noqa: E731
        await until(lambda: "⏱ 0:4" in shown(), pilot, what="the countdown")
        assert t("trex.vote_now") in str(status.render())


async def test_a_voter_s_idle_key_and_own_number_say_why():
    """The play-test: Ann's own number did nothing and said nothing, and `z` told her the
    table waits for Bob — while it waited for her vote too."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(trex_at("vote"), screen="GameScreen")()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        assert app.room["you"] in app.room["waiting"]
        await pilot.press(str(app.room["you"] + 1), "z")
        said = [str(n.message) for n in app._notifications]
        assert t("trex.not_yourself") in said
        assert any("‘z’" in s and t("client.your_move") in s for s in said), said


async def test_a_bye_bye_that_changes_your_card_is_said_to_you():
    """Dana's skip draws a bye-bye for red: Ann holds a red card — her screen says its new
    action (only the story did, and the play-tester performed the old one)."""
    from tui.games.trex.scenes import DANA, trex_at
    from tui.scenes import built, player_scene, wire

    set_lang("en")
    table = built(trex_at("match"))
    app, run_before = player_scene(lambda: table, screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        assert app.game["card"]["colour"] == "red"
        table.act(DANA, {"type": "skip"})
        came = table.room.game_view(None)["actions"]["red"]
        view = {"type": "view", "version": table.room.version,
                "room": table.room.summary() | {"you": 0}, "game": table.room.game_view(0),
                "events": list(table.room.state["last_events"])}  # fmt: skip
        app.post_message(ClientApp.told(wire(view)))
        said = t("trex.byebye_yours", came=came)
        await until(lambda: said in [str(n.message) for n in app._notifications], pilot)


async def test_a_bye_bye_toast_goes_when_the_card_it_speaks_of_is_gone():
    """On a phone "Bye-bye! Your card's action is now: …" stayed up for seconds over the
    next card. It goes as the card does; a newer bye-bye replaces it; and one that came
    with a new card of another colour is not said at all."""
    from tui.games.trex.scenes import DANA, trex_at
    from tui.scenes import built, player_scene, wire

    set_lang("en")
    table = built(trex_at("match"))
    app, run_before = player_scene(lambda: table, screen="GameScreen", you=0)()
    async with app.run_test(size=(40, 30)) as pilot:
        await run_before(pilot)
        red = app.game["card"]
        assert red["colour"] == "red"
        table.act(DANA, {"type": "skip"})
        game = table.room.game_view(0)
        came = game["actions"]["red"]
        byebye = list(table.room.state["last_events"])
        version = [table.room.version]

        def send(game: dict, events: list) -> None:
            version[0] += 1
            room = table.room.summary() | {"you": 0}
            view = {"type": "view", "version": version[0], "room": room, "game": game,
                    "events": events}  # fmt: skip
            app.post_message(ClientApp.told(wire(view)))

        def toasts() -> list[str]:
            return [str(n.message) for n in app._notifications]

        said = t("trex.byebye_yours", came=came)
        send(game, byebye)
        await until(lambda: said in toasts(), pilot)
        send(dict(game, news=None), [])  # nothing about the card: it stays
        await pilot.pause()
        assert said in toasts()
        blue = dict(game, card={"colour": "blue", "level": 3})
        send(blue, [])  # a new card: the toast about the red one goes
        await until(lambda: said not in toasts(), pilot, what="the stale toast gone")
        send(game, [])  # red again, its action as the toast said: (it is not said again)
        newer = dict(game, actions={**game["actions"], "red": "Hop"})
        event = {**next(e for e in byebye if e["type"] == "byebye"), "came": "Hop"}
        send(game, byebye)
        await until(lambda: said in toasts(), pilot)
        send(newer, [event])  # a newer bye-bye of red: it replaces the one before
        hop = t("trex.byebye_yours", came="Hop")
        await until(lambda: hop in toasts() and said not in toasts(), pilot)
        send(dict(blue, actions=newer["actions"] | {"red": "Spin"}), [{**event, "came": "Spin"}])
        await until(lambda: hop not in toasts(), pilot)  # came with a blue card: not said
        await pilot.pause()
        assert t("trex.byebye_yours", came="Spin") not in toasts()


async def test_on_a_tv_a_short_one_keeps_the_big_board_with_the_levels_a_size_smaller():
    """The play-test's TV switched the scoreboard to small type (and cut a name) whenever a
    match's levels were up, big again after the next event: where the board fits only with
    the levels a size smaller, they are smaller."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import host_scene

    set_lang("en")
    app, run_before = host_scene(trex_at("match"), last_apart=True)()
    async with app.run_test(size=(160, 43)) as pilot:
        await run_before(pilot)
        board = str(app.screen.query_one("#tr-scores").render())
        banner = str(app.screen.query_one("#tr-banner").render()).splitlines()
        assert "good 2" in board  # the big board: its tokens beside each big name
        assert len(banner) == 4  # the names and levels at scale 1 (three rows), the sentence


async def test_a_player_sees_their_own_score():
    """Only the table showed the scores: a player at the kitchen door never knew theirs."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(trex_at("match"), screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        card = app.screen.query_one("#tr-card")
        assert card.border_subtitle == t("trex.your_score", score=2, good=2, bad=0)


def test_a_game_again_with_two_left_says_it_is_the_two_player_game():
    """After leavers, `r` with two players starts the cooperative game: the story said "the
    same game, the same table"."""
    from tui.games import describe

    set_lang("en")
    again = {"type": "game_ended", "again": True}
    assert describe("trex", again, ["Ann", "Bob"]) == t("trex.again_coop")
    assert describe("trex", again, ["Ann", "Bob", "Cid"]) == t("room_event.game_again")
    assert describe("tallyup", again, ["Ann", "Bob"]) == t("room_event.game_again")


async def test_an_offer_withdrawn_and_made_again_in_one_burst_is_kept_in_order(monkeypatch):
    """ "2 w 3" in one send-keys: the `3` was taken at once (refused: "your offer is
    already out") while the `w`, looked at twice, went after it and withdrew the first offer
    — no offer out at all. The keys behind a move wait for its answer, in the order typed
    (the answers come only when the test sends them: no race decides it)."""
    from tests.handlink import HandLink
    from tests.tui.test_flow import burst
    from tui.games.trex.scenes import trex_at
    from tui.scenes import built, player_scene, wire
    from tui.widgets import TypeAhead

    # the answers come when the test sends them, however slow the machine: no hold lets go
    # of its keys by the clock (HOLD_LIMIT) before the answer it waits for
    monkeypatch.setattr(TypeAhead, "HOLD_LIMIT", 3600.0)
    set_lang("en")
    table = built(trex_at("fresh"))
    app, run_before = player_scene(lambda: table, screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        app.client = link = HandLink()

        async def answer(n: int) -> None:  # the table takes move n and sends its view
            await until(lambda: len(link.sent) >= n, pilot, what=f"move {n} sent")
            await pilot.pause()
            assert len(link.sent) == n, link.sent  # the keys after it wait for its answer
            table.room.act(0, link.sent[n - 1])
            view = {"type": "view", "version": table.room.version,
                    "room": table.room.summary() | {"you": 0},
                    "game": table.room.game_view(0), "events": []}  # fmt: skip
            app.post_message(ClientApp.told(wire(view)))

        burst(app, "2", "w", "3")  # as a terminal hands them on: all at once
        for n in (1, 2, 3):
            await answer(n)
        assert [a["type"] for a in link.sent] == ["offer", "withdraw", "offer"]
        assert link.sent[2]["to"] == 2
        await until(lambda: table.room.state["offers"][0] == 2, pilot)
        said = [str(n.message) for n in app._notifications]
        assert not any("already out" in line for line in said), said


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_host_s_help_in_t_rex_promises_no_bot_and_no_turn_time(lang):
    """The host's `?` during T-Rex said a bot plays an away seat, that a turn time runs out
    and that `n` nudges — T-Rex has none of them."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import host_scene
    from tui.widgets import HelpScreen

    set_lang(lang)
    try:
        app, run_before = host_scene(trex_at("fresh"))()
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            await pilot.press("question_mark")
            await until(lambda: isinstance(app.screen, HelpScreen), pilot)
            body = app.screen.body
            assert body.startswith(t("help.host_table.body_no_bots"))
            for promise in ("bot plays", "game's turn time", "n nudges", "ходит бот", "n торопит"):
                assert promise not in body, promise
    finally:
        set_lang("en")


async def test_a_player_whose_seat_sits_out_is_marked_away_in_the_offer_list():
    """Dan's seat sat out, yet Ann's list read "2 Bob 3 Cid 4 Dan" as ever, and `4` was
    refused: "That player is away right now"."""
    from tui.games.trex.scenes import trex_at
    from tui.scenes import built, player_scene

    set_lang("en")
    table = built(trex_at("fresh"))
    table.room.play.told("away", 3)  # (as the room tells the game once the grace is over)
    app, run_before = player_scene(lambda: table, screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        shown = " ".join(screen_text(app).split())
        assert (
            f"4 Dana ({t('trex.away_tag')})" in shown
            and f"2 Bob ({t('trex.away_tag')})" not in shown
        )


@pytest.mark.parametrize("won", [True, False])
def test_the_two_player_game_s_results_are_a_team_s_not_a_ranking(won):
    """The results ranked the team as rivals: "1. ● Ann 1 / 1. ▲ Bob 1"."""
    from tui.games import ui_for
    from tui.host.screens import results_text

    set_lang("en")
    result = {"scores": [9, 9], "winners": [0, 1] if won else [], "ranking": [0, 1],
              "left": [], "coop": True, "won": won, "moved": 9}  # fmt: skip
    assert ui_for("trex").together(result) and not ui_for("tallyup").together(result)
    said = results_text(result, ["Ann", "Bob"], team=True).plain
    assert " 1. " not in said and said.count("9") == 1, said
    assert t("results.team_won" if won else "results.team") in said
    assert t("results.team_score", score="9") in said and "Ann" in said and "Bob" in said


def test_a_wrong_call_says_who_called_what():
    """ "5 and 10: wrong — the game ends" after Ann called MATCH and Bob, rightly, NO
    MATCH: who ended the game was nowhere."""
    from tui.games.trex.narrate import narrate

    set_lang("en")
    event = {"type": "coop_revealed", "a": 0, "b": 1, "level_a": 5, "level_b": 10,
             "outcome": "far", "calls": [True, False], "right": False, "moved": 0}  # fmt: skip
    said = narrate(event, ["Ann", "Bob"])
    assert "Ann called MATCH" in said and "Bob called NO MATCH" in said
    assert "called" not in narrate({**event, "calls": [False, False], "right": True,
                                    "moved": 1}, ["Ann", "Bob"])  # fmt: skip


def test_the_waiting_line_with_an_away_note_says_the_note_alone():
    """80×24, T-Rex with an away seat: "Anyone may act now: nobody to wait for." before the
    note took the line that pushed the scoreboard's border off the table."""
    from rich.text import Text

    from tui.table import waiting_line

    set_lang("en")
    summary = {"phase": "playing", "waiting": [], "seats": []}
    assert waiting_line(summary).plain == t("table.waiting_nobody")
    assert waiting_line(summary, Text("Away: Dana.")).plain == "Away: Dana."


async def test_a_player_app_started_again_does_not_say_old_news_again():
    """A player's app killed and started again said "Dan: the offer to you is off." — an
    offer withdrawn minutes before: the first view's news is old; the next one's is news."""
    from tui.games.trex import TRexHand
    from tui.games.trex.scenes import trex_at
    from tui.scenes import built, player_scene

    set_lang("en")
    table = built(trex_at("offer"))  # Cid's offer to Ann is out
    table.act(2, {"type": "withdraw"})  # …and withdrawn: Ann's news says so
    assert table.room.game_view(0).get("news")
    app, run_before = player_scene(lambda: table, screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        hand = app.screen.query_one(TRexHand)
        assert str(hand.query_one("#tr-news").render()).strip() == ""
        hand.present({**hand.view, "news": {**hand.view["news"], "id": -1}}, hand.room, [])
        assert str(hand.query_one("#tr-news").render()).strip() != ""  # (a new one: said)
