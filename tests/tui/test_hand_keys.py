"""A hand's keys follow its view: a game declares which keys need which legal action
(`HandWidget.LEGAL_KEYS`) — greyed while the view does not allow them, hidden only where a
game says the key has no meaning — and every new view refreshes the footer."""

from __future__ import annotations

import pytest

from tests.scenes import ANN, built, player_scene, tallyup_at, trex_at
from tests.waiting import until
from tui.games.tallyup import TallyHand
from tui.games.trex import TRexHand


@pytest.mark.parametrize(
    ("moment", "usable", "greyed"),
    [
        ("choose-dice", {"pick", "confirm", "shout", "chart"}, {"roll", "side"}),
        ("sealed", {"side", "shout", "chart"}, {"pick", "confirm", "roll"}),
    ],
)
async def test_tally_up_s_keys_follow_its_legal_actions(moment, usable, greyed):
    table = await built(tallyup_at(moment))
    app, run_before = player_scene(lambda: table, you=ANN)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        hand = (await until(lambda: app.screen.query(TallyHand), pilot)).first()
        said = {a: hand.check_action(a, ()) for a in (*usable, *greyed)}
        assert {a for a, s in said.items() if s is True} == usable
        assert {a for a, s in said.items() if s is None} == greyed  # greyed, not hidden


async def test_t_rex_hides_the_keys_its_mode_has_no_use_for():
    table = await built(trex_at("coop"))
    app, run_before = player_scene(lambda: table, you=ANN)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        hand = (await until(lambda: app.screen.query(TRexHand), pilot)).first()
        assert hand.check_action("skip", ()) is False  # the two-player game has no offers
        assert hand.check_action("withdraw", ()) is False
        assert hand.check_action("call", ()) in (True, None)  # its own: usable or greyed
