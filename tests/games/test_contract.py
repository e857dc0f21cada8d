"""What every registered game owes the host, checked the same way for each: it plays to an
end by random legal moves (its state plain data, every view encodable, an illegal move
harmless), its log replays to the same state, and every chance it asks for is one the host
draws without knowing the game."""

from __future__ import annotations

import random

import pytest

from games import GAMES
from games.base import sample_chance
from games.testing import assert_general_chance, random_playout, replay


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


@pytest.mark.parametrize("seed", range(3))
def test_a_random_game_ends_and_its_log_replays_to_the_same_state(game, seed):
    players = [f"P{n}" for n in range(max(game.min_players, 3))][: game.max_players]
    state, log = random_playout(game, players, None, random.Random(seed))
    assert game.result(state) is not None
    assert replay(game, players, None, log) == state


@pytest.mark.parametrize(
    ("spec", "check"),
    [
        ({"kind": "shuffle", "size": 5}, lambda o: sorted(o) == [0, 1, 2, 3, 4]),
        ({"kind": "dice", "dice": ["a", "b", "c"], "faces": 6},
         lambda o: len(o) == 3 and all(0 <= f < 6 for f in o)),
        ({"kind": "die", "faces": 6, "die": "up"}, lambda o: isinstance(o, int) and 0 <= o < 6),
        ({"kind": "die", "faces": 1}, lambda o: o == 0),
    ],
)  # fmt: skip
def test_the_host_draws_for_a_general_chance(spec, check):
    assert_general_chance(spec)
    rng = random.Random(7)
    assert all(check(sample_chance(spec, rng)) for _ in range(50))


def test_a_chance_of_a_game_s_own_kind_is_refused():
    with pytest.raises(AssertionError):
        assert_general_chance({"kind": "up_die"})
    with pytest.raises(ValueError, match="up_die"):
        sample_chance({"kind": "up_die"}, random.Random(1))
