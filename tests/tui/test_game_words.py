"""A game phrases its own refusals and rules (`tui.games.GameUI`): the shell knows no game's
fields — which of a refusal's parameters name a seat, what a tile is called, which rules the
help shows."""

from __future__ import annotations

import copy
import random
import re

import pytest

from games import GAMES
from games.base import game_entries
from games.testing import random_playout
from tui.client.app import ClientApp
from tui.games import ui_for
from tui.games.tesauro.scenes import tesauro_at
from tui.i18n import set_lang, t
from tui.scenes import ANN, player_scene
from tui.waiting import until

NAMES = ["Ann", "Bob", "Cid"]


@pytest.fixture(autouse=True)
def english():
    set_lang("en")
    yield
    set_lang("en")


@pytest.mark.parametrize(
    ("game", "params", "said"),
    [
        ("tallyup", {"winner": 1}, {"winner": "Bob"}),
        ("tesauro", {"reader": 2}, {"reader": "Cid"}),
        ("tesauro", {"sapiente": 0}, {"sapiente": "Ann"}),
        ("tesauro", {"category": "food"}, {"category": "Food"}),
        ("tesauro", {"category": "no-such-tile"}, {"category": "no-such-tile"}),
        ("trex", {"seat": 1}, {"seat": "Bob"}),  # the rulebook's, for every game
        ("trex", {"seat": 7}, {"seat": 7}),  # no such seat: as it came
        ("tallyup", {"winner": True}, {"winner": True}),  # a bool is no seat
        ("tallyup", {"reader": 1}, {"reader": 1}),  # another game's field: not Tally Up!'s
        ("peek", {"seat": 0, "step": 2}, {"seat": "Ann", "step": 2}),  # a game with no words
    ],
)
def test_a_game_says_its_refusal_s_parameters_its_own_way(game, params, said):
    assert ui_for(game).phrased(params, NAMES) == said


def test_a_game_chooses_the_rules_its_help_shows():
    assert ui_for("trex").rules("trex", {"mode": "coop"}) == t("trex.rules_coop")
    assert ui_for("trex").rules("trex", {"mode": "scale"}) == t("trex.rules")
    assert ui_for("tallyup").rules("tallyup", {"mode": "coop"}) == t("tallyup.rules")


async def test_the_player_reads_a_refusal_in_the_game_s_words():
    """Bob is the reader; Ann tries to choose the word: the app names Bob, not seat 1."""
    refusal = {"type": "error", "code": "not_reader", "key": "illegal.not_reader",
               "params": {"reader": 1}, "message": "not the reader"}  # fmt: skip
    app, run_before = player_scene(tesauro_at("choose"), you=ANN)()
    async with app.run_test(size=(100, 30)) as pilot:
        await run_before(pilot)  # (a scene clears its toasts: the refusal comes after)
        app.post_message(ClientApp.told(refusal))
        said = t("tesauro.illegal.not_reader", reader="Bob")
        await until(lambda: any(n.message == said for n in app._notifications), pilot)


def test_a_refusal_that_names_its_own_player_says_you():
    """Ann won the shout and pressed Space again: "Too late: Ann shouted first." to Ann."""
    ui = ui_for("tallyup")
    key, params = "illegal.too_late", {"winner": 0}
    assert ui.refusal("tallyup", key, params, NAMES, you=0) == t("tallyup.illegal.too_late_you")
    assert ui.refusal("tallyup", key, params, NAMES, you=1) == t(
        "tallyup.illegal.too_late", winner=NAMES[0]
    )


KEY_LIKE = re.compile(r"\b[a-z_]+\.[a-z_]+(\.[a-z_0-9]+)*\b")


@pytest.mark.parametrize("code", ["en", "ru"])
@pytest.mark.parametrize("game_id", sorted(game_entries()))
def test_every_event_of_a_game_is_told_in_both_languages(game_id, code):
    """Every event a game's random play-outs make is narrated by its screens in both
    languages without an error (`describe` would only log one), and what is said has no
    word missing: no catalogue key shown for its text, no placeholder left unfilled. (An
    event may be told by nothing but its view: None.)"""
    game = GAMES[game_id]
    players = [f"P{n}" for n in range(max(game.min_players, 3))][: game.max_players]
    set_lang(code)
    ui = ui_for(game_id)
    told: set[str] = set()
    for seed in range(2):
        _, log = random_playout(game, players, None, random.Random(seed))
        state = game.setup(list(players), None)
        for seat, action in log:
            for event in game.apply(state, seat, copy.deepcopy(action)):
                said = ui.narrate(event, players)
                assert said is None or isinstance(said, str), event
                if said:
                    told.add(event["type"])
                    assert "{" not in said and not KEY_LIKE.search(said), (event, said)
    assert told, f"{game_id} tells nothing of its game in the feed"
