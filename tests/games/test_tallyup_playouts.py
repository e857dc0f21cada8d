"""Thousands of random games: each ends, obeys the invariants, and replays from its log.

`random_playout` already checks on every step that the state stays plain data, that every
view encodes, and that junk actions are refused without a trace. Small tables dominate (a
random game's cost grows with the square of the players), but every size and every variant
is played many times.
"""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.testing import assert_plain, random_playout, replay

GAME = GAMES["tallyup"]
SIZES = (2,) * 24 + (3,) * 12 + (4,) * 8 + (5,) * 3 + (6,) * 3 + (7, 8, 9, 10)
VARIANTS = {
    "plain": {},
    "once_each": {"once_each": True},
    "high_stakes": {"high_stakes": True},
    "no_timer": {"choice_seconds": 0, "high_stakes": True},
}
GAMES_PER_VARIANT = 500


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_games_end_and_replay_exactly(variant):
    for n in range(GAMES_PER_VARIANT):
        rng = random.Random(f"{variant}-{n}")
        players = [f"P{seat}" for seat in range(SIZES[n % len(SIZES)])]
        options = {"target": rng.choice((200, 300, 500)), **VARIANTS[variant]}
        state, log = random_playout(GAME, players, options, rng)
        assert replay(GAME, players, options, log) == state, f"seed {variant}-{n}"
        assert_plain(state)
        assert_invariants(state, options)


def assert_invariants(state: dict, options: dict) -> None:
    result = GAME.result(state)
    scores = result["scores"]
    n = len(scores)
    assert result["winners"] == [s for s in range(n) if scores[s] == max(scores)]
    assert result["shared"] == (len(result["winners"]) > 1)
    assert result["extra_rounds"] <= 3
    assert not result["shared"] or result["extra_rounds"] == 3
    assert sorted(result["ranking"]) == list(range(n))
    assert [scores[s] for s in result["ranking"]] == sorted(scores, reverse=True)
    history = GAME.view(state, None)["history"]
    assert len(history) == result["rounds"] and history[-1] == scores
    normal_rounds = result["rounds"] - result["extra_rounds"]
    if options.get("once_each"):
        assert normal_rounds == n  # each player active once, then only tie-breaks
    else:
        before_last = history[normal_rounds - 2] if normal_rounds > 1 else [0] * n
        assert max(before_last) < options["target"] <= max(history[normal_rounds - 1])
