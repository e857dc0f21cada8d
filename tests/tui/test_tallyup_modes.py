"""Tally Up! screens in "Everyone rolls once" (a scene at 80×24 with a seat asked for at the
door: nothing cut; no screen names a target the mode ignores) and the score chart of a TV
(each player's bars in their own rows)."""

from __future__ import annotations

import pytest
from rich.text import Text

from tests.clipping import clipped
from tests.scenes import SCENES
from tests.tui.test_flow import screen_text
from tui.games import ui_for
from tui.games.tallyup import BARS, players_table, score_chart
from tui.games.tallyup.pieces import NAME_WIDTH
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


def _bars(row: str) -> str:
    return row[NAME_WIDTH + 7 :]


@pytest.mark.parametrize("rows", [2, 3, 4])
def test_each_player_s_bars_stay_in_their_own_rows(rows):
    """TV 160×45, after a few rounds: "▁▁▁▁" under "Bot 1 0" was Bot 1's lowest bar hanging
    under its name, over the next player's; and a tall bar rose into the row above. Each
    player: `rows` rows, the name on the bottom one (the bars stand on it), a blank row
    between two players; every column's height in eighths is the player's score's."""
    scores = [[0, 300, 40], [120, 0, 40], [610, 0, 40], [900, 20, 1000]]  # four rounds
    view = {"players": ["Ann", "Bot 1", "Vera"], "scores": scores[-1], "history": scores}
    lines = score_chart(view, rows).plain.split("\n")
    assert len(lines) == 3 * rows + 2
    steps = len(BARS) * rows
    for seat, player in enumerate(view["players"]):
        block = lines[seat * (rows + 1) : seat * (rows + 1) + rows]
        assert block[-1].startswith(player), block  # the name on the bottom row
        assert all(not row.startswith(player) for row in block[:-1])
        if seat:
            assert not lines[seat * (rows + 1) - 1].strip(), "a blank row between two players"
        for column, round_scores in enumerate(scores):
            heights = []
            for row in block:
                bar = _bars(row).ljust(2 * len(scores))[2 * column]
                heights.append(0 if bar == " " else BARS.index(bar) + 1)
            # the bottom rows full up to the top one: one bar, from the name row up
            filled = [h for h in reversed(heights)]
            assert all(h == len(BARS) for h in filled[: sum(1 for h in filled if h) - 1])
            level = round(round_scores[seat] / 1000 * (steps - 1)) + 1
            assert sum(heights) == level, (player, column, heights)


def test_a_chart_of_one_row_each_is_a_line_a_player():
    view = {"players": ["Ann", "Bob"], "scores": [300, 0], "history": [[100, 0], [300, 0]]}
    lines = score_chart(view).plain.split("\n")
    assert [line.split()[0] for line in lines] == ["Ann", "Bob"]
    assert isinstance(score_chart(view), Text)


@pytest.mark.parametrize(("colour", "width"), [(None, 24), ("red", 27)])
async def test_a_bot_s_name_stays_on_one_line_in_the_headline(colour, width):
    """80×24, the 24 columns beside the running total: "Остаются IN: Бот 1, Бот" over "2." —
    a name and its number stay together there, drawn with plain spaces."""
    from textual.app import App
    from textual.widgets import Static

    from tui.games.tallyup.table import Headline
    from tui.text import UNBROKEN_SPACE
    from tui.widgets import put

    class One(App[None]):
        CSS = f"Static {{ width: {width}; }}"  # (a moment's line: two columns padded each side)

        def compose(self):
            yield Static(id="banner")

    app = One()
    async with app.run_test(size=(40, 6)) as pilot:
        headline = Headline("", "Остаются IN: Бот 1, Бот 2.", colour=colour)
        put(app.query_one("#banner", Static), headline.small())
        await pilot.pause()
        banner = app.query_one("#banner", Static)
        strips = banner.render_lines(banner.region.reset_offset)
        rows = [strip.text.strip() for strip in strips if strip.text.strip()]
        assert not any(row.endswith("Бот") for row in rows), rows
        assert any("Бот 2." in row for row in rows), rows
        assert UNBROKEN_SPACE not in "".join(rows)
