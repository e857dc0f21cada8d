"""Tally Up! screens in "Everyone rolls once" (a scene at 80×24 with a seat asked for at the
door: nothing cut; no screen names a target the mode ignores) and the score chart of a TV
(each player's bars in their own rows)."""

from __future__ import annotations

import pytest

from tests.clipping import clipped
from tests.scenes import SCENES
from tests.tui.test_flow import screen_text
from tui.games import ui_for
from tui.games.tallyup import players_table
from tui.host.screens import option_value
from tui.i18n import set_lang, t
from tui.scenes import reach
from tui.widgets import HelpScreen


def scene(name: str):
    return next(s for s in SCENES if s.name == name)


@pytest.fixture(params=["en", "ru"])
def lang(request):
    set_lang(request.param)
    yield request.param
    set_lang("en")


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_everyone_rolls_once_at_the_door_cuts_nothing(lang, size):
    """The play-test, ru 80×24: the round's box read "каждый бросает один ра", the players'
    box lost its bottom border to the join prompt and a footer on two lines."""
    shown = scene("host-tallyup-once-each")
    app, run_before = shown.build()
    async with app.run_test(size=size) as pilot:
        await reach(shown, run_before, pilot)
        assert app.room.claims, "the scene has a seat asked for"
        assert clipped(app) == []
        players = app.screen.query_one("#tu-players")
        table = app.screen.query_one("#game-table")
        assert players.region.bottom <= table.region.bottom  # its bottom border in sight
        said = str(app.screen.query_one("#tu-round").render())
        assert t("tallyup.once_each_short") in " ".join(said.split())


async def test_everyone_rolls_once_names_no_target_on_a_player_s_screen(lang):
    """A player's status read "You: 0 points, #1 of 5 IN to 2500": the mode has no target."""
    shown = scene("player-tallyup-once-each")
    app, run_before = shown.build()
    async with app.run_test(size=(80, 24)) as pilot:
        await reach(shown, run_before, pilot)
        me = str(app.screen.query_one("#th-me").render())
        assert "2500" not in me and t("tallyup.once_each_short") in me
        assert "2500" not in screen_text(app)
        await pilot.press("question_mark")  # the help's rules: how this game ends
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rules = screen_text(app)
        assert t("tallyup.rules").splitlines()[-2] not in rules


async def test_everyone_rolls_once_names_no_target_on_the_table_or_its_help(lang):
    shown = scene("host-tallyup-once-each")
    app, run_before = shown.build()
    async with app.run_test(size=(120, 40)) as pilot:
        await reach(shown, run_before, pilot)
        assert "2500" not in screen_text(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rules = screen_text(app)
        assert t("tallyup.rules").splitlines()[-2] not in rules
        assert t("tallyup.rules_once_each").splitlines()[-2][:40] in " ".join(rules.split())


def test_the_lobby_says_the_target_is_not_used_when_everyone_rolls_once(lang):
    assert option_value("tallyup", "target", 2500, {"once_each": False}) == "2500"
    said = option_value("tallyup", "target", 2500, {"once_each": True, "target": 2500})
    assert said == t("option.tallyup.target_unused", value=2500) and said != "2500"
    assert ui_for("tallyup").rules("tallyup", {"once_each": True}) == t("tallyup.rules_once_each")
    assert ui_for("tallyup").rules("tallyup", {}) == t("tallyup.rules")


def test_everyone_rolls_once_measures_the_players_against_the_top_score():
    """The players' bars were the way to a target of 2500 the mode ignores."""
    view = {
        "players": ["Ann", "Bob"],
        "scores": [400, 200],
        "target": 2500,
        "once_each": True,
        "active": 0,
        "out": [False, False],
        "locked": [False, False],
        "away": [False, False],
        "phase": "roll",
    }
    rows = players_table(view, {}).plain.splitlines()
    assert rows[0].count("█") == 8 and rows[1].count("█") == 4
    rows = players_table({**view, "once_each": False}, {}).plain.splitlines()
    assert rows[0].count("█") == 1  # 400 of 2500
