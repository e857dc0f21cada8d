"""A hand's keys follow its view: a game declares which keys need which legal action
(`HandWidget.LEGAL_KEYS`) — greyed while the view does not allow them, hidden only where a
game says the key has no meaning — and every new view refreshes the footer."""

from __future__ import annotations

import pytest

from tui.client.app import ClientApp
from tui.games.tallyup import TallyHand
from tui.games.tallyup.scenes import tallyup_at
from tui.games.tesauro import TesauroHand
from tui.games.tesauro.scenes import tesauro_at
from tui.games.trex import TRexHand
from tui.games.trex.scenes import trex_at
from tui.i18n import t
from tui.scenes import ANN, BOB, CID, built, player_scene
from tui.scenes import wire as wire_form
from tui.waiting import until
from tui.widgets import Footer


@pytest.mark.parametrize(
    ("moment", "usable", "greyed"),
    [
        ("choose-dice", {"pick", "confirm", "shout", "chart"}, {"roll", "side"}),
        ("sealed", {"side", "shout", "chart"}, {"pick", "confirm", "roll"}),
    ],
)
async def test_tally_up_s_keys_follow_its_legal_actions(moment, usable, greyed):
    app, run_before = player_scene(tallyup_at(moment), you=ANN)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        hand = (await until(lambda: app.screen.query(TallyHand), pilot)).first()
        said = {a: hand.check_action(a, ()) for a in (*usable, *greyed)}
        assert {a for a, s in said.items() if s is True} == usable
        assert {a for a, s in said.items() if s is None} == greyed  # greyed, not hidden


async def test_t_rex_hides_the_keys_its_mode_has_no_use_for():
    app, run_before = player_scene(trex_at("coop"), you=ANN)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        hand = (await until(lambda: app.screen.query(TRexHand), pilot)).first()
        assert hand.check_action("skip", ()) is False  # the two-player game has no offers
        assert hand.check_action("withdraw", ()) is False
        assert hand.check_action("call", ()) in (True, None)  # its own: usable or greyed


@pytest.mark.parametrize(
    ("seat", "choose", "pick"),
    [(BOB, True, False), (ANN, False, False), (CID, False, False)],
)  # fmt: skip
async def test_tesauro_s_keys_belong_to_one_player_at_a_time(seat, choose, pick):
    """Bob reads this turn: the word is his to choose — hidden from the Sage and the others,
    not greyed; nobody's judgement keys show before the definitions are in."""
    app, run_before = player_scene(tesauro_at("choose"), you=seat)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        hand = (await until(lambda: app.screen.query(TesauroHand), pilot)).first()
        assert hand.check_action("choose", ()) is choose
        assert hand.check_action("pick", ()) is pick
        assert hand.check_action("tile", ()) is False  # no tile in this phase, for anybody


async def test_the_footer_follows_the_next_view_by_itself():
    """Ann chooses her dice: the next view lets her roll, and the footer's Roll is lit without
    a key pressed (the keys refresh with every view the hand presents)."""
    table = built(tallyup_at("choose-dice"))
    app, run_before = player_scene(lambda: table, you=ANN)()
    async with app.run_test(size=(100, 40)) as pilot:
        await run_before(pilot)
        footer = app.screen.query_one(Footer)

        def roll_lit() -> bool:
            roll = next(k for k in footer._keys_shown if k.described == t("tallyup.key.roll"))
            return roll.enabled

        assert not roll_lit()
        room = table.room
        room.act(ANN, {"type": "choose_dice", "dice": ["red", "yellow", "blue"]})
        view = {
            "type": "view",
            "version": room.version,
            "room": room.summary() | {"you": ANN, "timer_seconds": None},
            "game": room.game_view(ANN),
            "events": [],
        }
        app.post_message(ClientApp.told(wire_form(view)))
        await until(roll_lit, pilot, what="Roll lit in the footer")


async def test_a_paste_of_several_lines_is_one_line_of_text():
    """A definition pasted in two lines kept only its first ("Refusing to pay"), and that
    was sent — without a word."""
    from textual import events
    from textual.app import App

    from tui.widgets import TextField

    class Pasting(App[None]):
        def compose(self):
            yield TextField(id="field")

    app = Pasting()
    async with app.run_test() as pilot:
        field = app.query_one(TextField)
        field.focus()
        await pilot.press(*"Tax: ")
        field.post_message(events.Paste("Refusing to pay\r\nthe tax on salt,\n a crime\n"))
        await until(lambda: field.value.endswith("crime"), pilot, what="the paste")
        assert field.value == "Tax: Refusing to pay the tax on salt, a crime"
        field.post_message(events.Paste("one line  as it is"))  # (Input's own)
        await until(lambda: field.value.endswith("is"), pilot)
        assert field.value.endswith("crimeone line  as it is")
