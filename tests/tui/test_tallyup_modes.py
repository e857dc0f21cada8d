"""Tally Up! screens in "Everyone rolls once" (a scene at 80×24 with a seat asked for at the
door: nothing cut; no screen names a target the mode ignores) and the score chart of a TV
(each player's bars in their own rows)."""

from __future__ import annotations

import pytest

from tests.clipping import clipped
from tests.scenes import SCENES
from tui.i18n import set_lang, t
from tui.scenes import reach


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
