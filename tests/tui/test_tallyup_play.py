"""Tally Up! through the real apps: a player driven by keys only, two bots, real sockets,
from the lobby to the end of the game."""

from __future__ import annotations

import asyncio
import random
import statistics

import pytest

from games.tallyup import main_roll_odds
from net.room import Room
from tests.tui.test_flow import screen_text
from tui.client.app import ClientApp
from tui.client.screens import GameScreen, PlayerResultsScreen
from tui.games.tallyup import TallyHand, TallyTable, percent
from tui.host.app import HostApp
from tui.host.screens import ResultsScreen, TableScreen
from tui.i18n import set_lang, t
from tui.waiting import until


async def next_key(player: ClientApp) -> list[str]:
    """The keys a cautious human presses for what the hand offers now."""
    view = player.game or {}
    legal = set(view.get("legal", []))
    if view.get("phase") == "shout" and (view.get("shout") or {}).get("open"):
        return ["space"]
    if "choose_dice" in legal:
        return ["5", "6", "4", "enter"]  # blue, purple, green
    if "bonus_dice" in legal:
        return [*["1", "2"][: view["bonus_count"]], "enter"]
    if "roll" in legal:
        return ["r"]
    if "token" in legal and view.get("token") is None:
        return ["o" if view["running_total"] >= 150 else "i"]
    return []


async def test_a_whole_game_with_two_bots_by_keys_only(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="tallyup", open_room=True, rng=random.Random(7), bot_pace=0.02)
    room.set_option("target", 500)
    room.set_option("shout_seconds", 5)
    room.set_option("choice_seconds", 10)
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp:
        player = ClientApp(("127.0.0.1", host.server.port), name="Ann", discover=False)
        async with player.run_test(size=(120, 40)) as pp:
            await until(lambda: len(room.seats) == 1 and room.seats[0].connected, hp)
            await hp.press("b", "enter", "b", "enter", "s")  # two normal bots, then start
            await until(lambda: isinstance(player.screen, GameScreen), pp)
            await until(lambda: isinstance(host.screen, TableScreen), hp)
            # the choice of dice shows the exact odds of the dice picked so far
            if "choose_dice" in player.game["legal"]:
                await pp.press("5", "6", "4")
                odds = main_roll_odds(["blue", "purple", "green"])
                assert f"Bust {percent(odds.bust)}" in screen_text(player)
                await pp.press("4", "6", "5")  # unpick again
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while room.phase != "over":
                assert loop.time() < deadline, room.game_view(None)
                keys = await next_key(player)
                if keys:
                    await pp.press(*keys)
                await pp.pause(0.02)
                await hp.pause(0)
            await until(lambda: isinstance(host.screen, ResultsScreen), hp)
            await until(lambda: isinstance(player.screen, PlayerResultsScreen), pp)
            result = room.result()
            assert max(result["scores"]) >= 500 or room.state["extra_rounds"]
            names = [s.name for s in room.seats]
            assert all(names[w] in screen_text(player) for w in result["winners"])
            # the round-by-round chart is on the table
            table = host.screen.query_one(TallyTable)
            chart = str(table.query_one(".tu-chart-text").render())
            rounds = len(room.state["history"])
            for seat, who in enumerate(names):
                row = next(line for line in chart.splitlines() if line.startswith(who))
                assert str(result["scores"][seat]) in row and len(row.split()[-1]) == rounds
    # a key press on a laptop reached the host and came back as a new view quickly
    assert player.latencies
    print(
        f"\nlatency action->view: median {statistics.median(player.latencies) * 1000:.1f} ms,"
        f" max {max(player.latencies) * 1000:.1f} ms over {len(player.latencies)} actions"
    )


async def test_the_sealed_choice_never_reaches_the_table(state_dir):
    set_lang("en")
    # the bot stays slow so that only Ann locks in; the seeded dice don't bust her first roll
    room = Room("Friday", game_id="tallyup", open_room=True, bot_pace=100, rng=random.Random(3))
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp:
        player = ClientApp(("127.0.0.1", host.server.port), name="Ann", discover=False)
        async with player.run_test(size=(120, 40)) as pp:
            await until(lambda: len(room.seats) == 1 and room.seats[0].connected, hp)
            await hp.press("b", "enter", "s")  # a normal bot, then start
            await until(lambda: isinstance(player.screen, GameScreen), pp)
            await pp.press("4", "5", "6", "enter", "r")
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 20
            while "token" not in (player.game or {}).get("legal", []):
                assert loop.time() < deadline
                if "roll" in player.game.get("legal", []):
                    await pp.press("r")
                await pp.pause(0.05)
            await pp.press("o")
            await until(lambda: player.game.get("token") == "out", pp)
            assert "◀ sealed" in screen_text(player)
            await hp.pause(0.1)
            assert room.game_view(None)["locked"][0] is True
            players = str(host.screen.query_one("#tu-players").render())
            ann = next(line for line in players.splitlines() if "Ann" in line)
            assert t("tallyup.locked") in ann and "OUT" not in ann and " IN " not in ann
            hand = player.screen.query_one(TallyHand)
            assert hand.check_action("side", ("in",)) is True


def test_on_a_tv_every_face_is_drawn_in_big_digits_inside_its_die():
    """The dice are what the table looks at: on a TV each face, the Up Die's included, is in
    big digits (a star stays a star), and every one fits its die."""
    from games.tallyup import UP_DIE, dice_table
    from tui.games.tallyup import LARGE_DIE, dice_art

    dice = [{"colour": d["colour"], "face": n} for d in dice_table() for n in range(6)]
    dice += [{"colour": "up", "label": label} for label in UP_DIE]
    for die in dice:
        lines = dice_art([die], large=True).plain.split("\n")
        assert len(lines) == 6 and {len(line) for line in lines} == {LARGE_DIE + 1}, die
        face = "".join(lines[1:4])
        assert "★" in face or set(face) & set("▀▄█"), f"{die}: not in big digits"
        assert not any(ch.isdigit() for ch in face), f"{die}: a digit left small"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("large", [True, False], ids=["tv", "small"])
def test_every_face_keeps_a_blank_column_from_its_dies_border(large):
    """On a TV the Up Die's +100 and −100 (15 columns in big digits) touched both sides of
    their die: every face now has at least a blank column inside each side of its border."""
    from games.tallyup import UP_DIE, dice_table
    from tui.games.tallyup import dice_art

    dice = [{"colour": d["colour"], "face": n} for d in dice_table() for n in range(6)]
    dice += [{"colour": "up", "label": label} for label in UP_DIE]
    for die in dice:
        lines = dice_art([die], large=large).plain.split("\n")
        inside = [line.rstrip()[1:-1] for line in lines if line.startswith("│")]
        assert inside, die
        assert all(row[0] == " " and row[-1] == " " for row in inside), (die, inside)


async def test_dice_picked_in_one_round_are_not_picked_in_the_next():
    """Picks belong to the moment they were made in: a view of another phase clears them (a
    phone that tapped two dice, then saw the round end, found them still ticked and its
    next taps un-ticking them)."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    app, run_before = player_scene(tallyup_at("choose-dice"), screen="GameScreen")()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        hand = app.screen.query_one("#hand", TallyHand)
        choosing, room = dict(hand.view), dict(hand.room)
        await pilot.press("1", "3")
        assert hand._picked == ["red", "yellow"]
        hand.present({**choosing, "phase": "roll", "legal": ["roll"]}, room, [])
        hand.present(choosing, room, [])  # the next round's choice
        assert hand._picked == []
        await pilot.press("2")
        assert hand._picked == ["orange"]


@pytest.mark.parametrize("size", [(40, 30), (80, 24), (120, 40)])
async def test_a_player_sees_the_bonus_roll_and_every_die_whole(size):
    """The bonus dice were only in the story on a player's screen; and four dice (the Up Die
    rolled) on a phone were boxes broken across lines: now the bonus roll is shown, and dice
    that do not fit side by side are a line of chips."""
    from rich.cells import cell_len

    from tests.scenes import SCENES
    from tui.scenes import reach

    set_lang("en")
    scene = next(s for s in SCENES if s.name == "player-tallyup-bonus")
    app, run_before = scene.build()
    async with app.run_test(size=size) as pilot:
        await reach(scene, run_before, pilot)
        hand = app.screen.query_one("#hand")
        shown = str(app.screen.query_one("#th-main").render())
        assert app.game["bonus"] and t("tallyup.bonus_roll") in shown
        room = hand.scrollable_content_region.width
        assert all(cell_len(line) <= room for line in shown.split("\n")), shown


async def test_a_roll_typed_straight_after_the_dice_s_enter_is_not_lost(monkeypatch):
    """ "1 2 3 Enter r" in one burst: `r` reached the screen before the table's answer to the
    dice, and was refused ("'r' does nothing now") while the screen said "press r". A key
    pressed while the player's move is on its way waits for the answer (here it comes only
    when the test sends it: no race decides it)."""
    from tests.handlink import HandLink
    from tests.tui.test_flow import burst
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import built, player_scene, wire
    from tui.widgets import TypeAhead

    # the answers come when the test sends them, however slow the machine: no hold lets go
    # of its keys by the clock (HOLD_LIMIT) before the answer it waits for
    monkeypatch.setattr(TypeAhead, "HOLD_LIMIT", 3600.0)
    set_lang("en")
    table = built(tallyup_at("choose-dice"))
    app, run_before = player_scene(
        lambda: table, screen="GameScreen", you=table.room.state["active"]
    )()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        app.client = link = HandLink()
        burst(app, "1", "2", "3", "enter", "r")  # as a terminal hands them on: all at once
        await until(lambda: link.sent, pilot, what="the dice sent")
        await pilot.pause()
        assert [a["type"] for a in link.sent] == ["choose_dice"]  # the roll waits for the answer
        said = [str(n.message) for n in app._notifications]
        assert not any("does nothing" in line for line in said), said
        you = table.room.state["active"]
        table.room.act(you, link.sent[0])
        view = {"type": "view", "version": table.room.version,
                "room": table.room.summary() | {"you": you},
                "game": table.room.game_view(you), "events": []}  # fmt: skip
        app.post_message(ClientApp.told(wire(view)))
        await until(lambda: [a["type"] for a in link.sent] == ["choose_dice", "roll"], pilot)


async def test_the_last_round_s_roll_is_labelled_and_goes_when_the_next_dice_are_chosen():
    """At 80×24 the bot's dice of the round before stayed up, unlabelled, after Ann had
    chosen hers — as if they were hers."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import built, host_scene

    set_lang("en")
    table = built(tallyup_at("choose-dice"))
    app, run_before = host_scene(lambda: table, last_apart=True)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        roll = app.screen.query_one("#tu-roll")
        assert str(roll.render()).startswith(t("tallyup.last_roll"))
        you = table.room.state["active"]
        table.room.act(you, {"type": "choose_dice", "dice": ["red", "yellow", "blue"]})
        app.post_message(HostApp.RoomChanged(list(table.room.state["last_events"])))
        await until(lambda: not str(roll.render()).strip(), pilot, what="the old roll gone")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_six_dice_are_one_line_at_a_round_s_start(lang):
    """Russian, 80×24: «фиолетовая» wrapped onto a line of its own before any die was
    chosen (the short form only shortened dice beside chosen ones)."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang(lang)
    try:
        app, run_before = host_scene(tallyup_at("choose-dice"))()
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            dice = app.screen.query_one("#tu-dice")
            assert dice.size.height == 1, str(dice.render())
    finally:
        set_lang("en")


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_six_dice_are_above_the_roll_never_under_its_dice_names(size):
    """80×24: the roll's dice drawn with their names beneath them, then at once the six dice
    ("red yellow blue" over "▶red orange ▶yellow…"): the names read as the row's."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang("en")
    app, run_before = host_scene(tallyup_at("sealed"))()
    async with app.run_test(size=size) as pilot:
        await run_before(pilot)
        dice, roll = (app.screen.query_one(f"#tu-{part}") for part in ("dice", "roll"))
        assert str(roll.render()).strip(), "the scene has a roll"
        assert dice.region.bottom <= roll.region.y, (dice.region, roll.region)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_on_a_phone_after_a_bust_all_six_dice_to_choose_are_in_sight(lang):
    """A phone, 40×30: the bust's news over the dice to choose scrolled the last of them
    (purple) out of sight; an empty news line and the score's frame took rows too."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import PHONE, player_scene

    set_lang(lang)
    try:
        app, run_before = player_scene(tallyup_at("bust"), screen="GameScreen", you=1)()
        async with app.run_test(size=PHONE) as pilot:
            await run_before(pilot)
            hand = app.screen.query_one(TallyHand)
            assert "choose_dice" in hand.legal()
            bust = {"type": "bust", "stage": "main", "lost": [0, 2], "amount": 80}
            hand.happened([bust])
            hand.show(hand.view, hand.room)
            await pilot.pause()
            main = app.screen.query_one("#th-main")
            lines = str(main.render()).splitlines()
            purple = next(i for i, line in enumerate(lines) if t("tallyup.colour.purple") in line)
            faces = main.region.y + purple + 1  # (the faces under the name)
            assert faces < hand.region.bottom and hand.scroll_y == 0, (main.region, hand.region)
            assert not hand.max_scroll_y, "nothing of the hand out of sight"
    finally:
        set_lang("en")


def test_a_tie_break_round_takes_no_more_rows_than_a_round():
    """Host 80×24, a tie-break round: "Tie-break round 2" on a line of its own beside the
    target pushed a tied player off the players' panel. The target is reached then: the
    tie-break takes its line."""
    from tui.games.tallyup.pieces import round_line

    set_lang("en")
    view = {"round": 7, "extra_round": 0, "once_each": False, "target": 500, "high_stakes": False}
    usual = round_line(view, [], narrow=True).plain.splitlines()
    tie = round_line({**view, "extra_round": 2}, [], narrow=True).plain.splitlines()
    assert len(tie) == len(usual) == 2
    assert tie[1] == t("tallyup.extra_round", n=2) and "500" not in " ".join(tie)


async def test_the_player_s_running_total_has_a_real_minus():
    """ "Running total: -20" on the player's screen beside the story's "−20"."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(tallyup_at("sealed"), screen="GameScreen", you=1)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        hand = app.screen.query_one("#hand", TallyHand)
        view = {**hand.view, "running_total": -20, "legal": [], "phase": "roll"}
        hand.present(view, hand.room, [])
        shown = str(app.screen.query_one("#th-main").render())
        assert "−20" in shown and "-20" not in shown, shown


def test_a_player_away_in_a_sealed_choice_is_not_thinking():
    """Host 80×24: Катя's laptop was gone ("away 0:14, a bot in 0:06" at the bottom) while
    her row said "thinking…"."""
    from tui.games.tallyup.pieces import players_table

    set_lang("en")
    view = {"players": ["Ann", "Bob"], "scores": [0, 0], "target": 500, "active": 0,
            "out": [False, False], "locked": [False, False], "away": [False, False],
            "phase": "choice"}  # fmt: skip
    room = {"seats": [{"name": "Ann"}, {"name": "Bob", "away_for": 14.0}]}
    rows = players_table(view, room).plain.splitlines()
    assert t("tallyup.thinking") in rows[0] and t("tallyup.away") in rows[1], rows


async def test_the_host_s_n_in_a_sealed_choice_says_it_has_its_own_countdown():
    """ "‘n’ does nothing now. The table waits for Bob." — naming exactly whom the host
    wanted to nudge, and not why."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang("en")
    app, run_before = host_scene(tallyup_at("sealed"), timer=30.0)()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await run_before(pilot)
        await pilot.press("n")
        told = t("host.no_nudge_timer")
        await until(lambda: any(told in str(n.message) for n in app._notifications), pilot)


async def test_one_die_too_many_puts_the_first_back_and_says_so():
    """Bonus dice, pick 2: "1 2 3 Enter" took orange and yellow, with no word that red went."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import player_scene

    set_lang("en")
    app, run_before = player_scene(tallyup_at("choose-dice"), screen="GameScreen", you=0)()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await run_before(pilot)
        hand = app.screen.query_one(TallyHand)
        assert "choose_dice" in hand.legal()
        await pilot.press("1", "2", "3", "4")
        said = t("tallyup.pick_swapped", die=t("tallyup.colour.red"), n=3)
        await until(lambda: any(said == str(n.message) for n in app._notifications), pilot)


BIG_INK = set("█▀▄")
"""The big font's blocks: a word drawn in big letters on the table."""


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("stage", ["main", "bonus"])
@pytest.mark.parametrize(("lost", "amount"), [([0, 2], 80), ([], 0)])
def test_a_bust_s_reason_does_not_say_bust(lang, stage, lost, amount):
    """The banner said "BUST!  Two stars — bust! …": its reason, after (on a TV under) the
    word, says why and what it cost, not the word again."""
    from tui.games.tallyup.narrate import bust_reason

    set_lang(lang)
    try:
        word = t("tallyup.bust_banner").rstrip("!").casefold()  # bust, провал
        event = {"type": "bust", "stage": stage, "lost": lost, "amount": amount}
        reason = bust_reason(event, ["Ann", "Boris", "Bot 1"])
        assert reason and word not in reason.casefold(), reason
    finally:
        set_lang("en")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_table_says_bust_once(lang, size):
    """Once: in words ("BUST!  Two stars. Ann, Bot 1: the round's 80 is lost."), or on a TV
    in big letters over the reason in words."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang(lang)
    try:
        word = t("tallyup.bust_banner").rstrip("!").casefold()
        app, run_before = host_scene(tallyup_at("bust"), last_apart=True)()
        async with app.run_test(size=size) as pilot:
            await run_before(pilot)
            banner = str(app.screen.query_one("#tu-banner").render())
            said = banner.casefold().count(word) + bool(set(banner) & BIG_INK)
            assert said == 1, banner
    finally:
        set_lang("en")


async def _table_at(moment: str, pilot, expired: bool) -> TallyTable:
    """The host's table of the scripted game at `moment`; `expired`: as it is once the moment
    held up there has been seen (the scenes take their picture within its seconds)."""
    table = pilot.app.screen.query_one(TallyTable)
    if expired:
        table._banner_until = 0
        table._move_on()
        await pilot.pause()
    return table


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(160, 45), (200, 55)])
@pytest.mark.parametrize(
    ("moment", "expired", "under"),
    [("tally-up", False, "tallyup.tally_shout"), ("bust", False, None), ("sealed", True, None)],
)
async def test_on_a_tv_what_matters_now_is_in_big_letters(lang, size, moment, expired, under):
    """T-Rex's cards and Tesauro's word are in big letters on a TV; Tally Up!'s headline —
    TALLY UP!, BUST!, "Sealed choice: IN or OUT?" — was in small type. It is large now, its
    meaning in a line under it, all beside the running total: the rows below do not move."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang(lang)
    try:
        app, run_before = host_scene(tallyup_at(moment), last_apart=True)()
        async with app.run_test(size=size) as pilot:
            await run_before(pilot)
            table = await _table_at(moment, pilot, expired)
            banner = table.query_one("#tu-banner")
            shown = str(banner.render())
            assert set(shown) & BIG_INK, shown
            if under:
                assert t(under) in shown
            if expired:  # the phase in words is not said again in small type
                assert t("tallyup.phase.choice_reveal") not in shown
            box = table.query_one("#tu-total-box")
            assert banner.region.bottom <= box.region.bottom, (banner.region, box.region)
            assert table.query_one("#tu-top").region.height == box.outer_size.height
    finally:
        set_lang("en")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_smaller_table_keeps_its_headline_in_a_line(size):
    from tui.games.tallyup.scenes import tallyup_at
    from tui.scenes import host_scene

    set_lang("en")
    app, run_before = host_scene(tallyup_at("tally-up"), last_apart=True)()
    async with app.run_test(size=size) as pilot:
        await run_before(pilot)
        shown = str(app.screen.query_one("#tu-banner").render())
        assert not set(shown) & BIG_INK
        assert f"{t('tallyup.tally_banner')}  {t('tallyup.tally_shout')}" in shown


async def test_on_a_tv_a_headline_that_does_not_fit_is_in_a_line():
    """Big letters only where they fit: a name with a character the font lacks, or a phase
    too long for the rows beside the running total, is said in a line."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.games.tallyup.table import Headline
    from tui.scenes import host_scene

    set_lang("en")
    app, run_before = host_scene(tallyup_at("choose-dice"), last_apart=True)()
    async with app.run_test(size=(160, 45)) as pilot:
        await run_before(pilot)
        table = await _table_at("choose-dice", pilot, expired=True)
        shown = str(table.query_one("#tu-banner").render())
        assert shown == t("tallyup.phase.choose_dice", name="[bold]Ann"), shown
        long = Headline(t("tallyup.phase.choice_up_die"))  # three lines of big letters
        assert table._large(long) is None
        assert table._large(Headline(t("tallyup.phase.choice_reveal"))) is not None
        await pilot.resize_terminal(200, 55)
        await pilot.pause()
        assert table._large(long) is not None  # (two lines, 118 columns wide)
