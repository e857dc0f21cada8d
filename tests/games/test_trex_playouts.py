"""Hundreds of random games: each ends, keeps every card and token accounted for, and replays
from its log.

`random_playout` already checks on every step that the state stays plain data, that every view
encodes, and that junk actions are refused without a trace. Random offers and accepts are
enough to empty a token pile, so every game ends; a second kind of play-out has players drop
and come back at random, which withdraws offers under everyone's feet.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from games import CHANCE, HOST
from games.base import sample_chance
from games.testing import assert_plain, legal_moves, random_playout, replay
from games.trex import TREX

SIZES = (2, 3, 4, 5, 6, 7, 8)
VARIANTS = ("plain", "no_vote_timer", "ru", "tiny_deck")
GAMES_PER_VARIANT = 140
TINY_DECK = """
[actions]
red = ["Juggle invisible eggs"]
blue = ["Tiptoe past a dragon", "Sneeze like a volcano"]
yellow = ["Surf a wobbly wave", "Open a stuck jar", "Meet a ghost"]

[numbers]
copies_per_level = 1
byebye_per_colour = 4
"""
"""Thirty number cards and twelve bye-byes: reshuffles and action refills all the time."""


def options_of(variant: str, tmp_path) -> dict:
    if variant == "tiny_deck":
        path = tmp_path / "tiny.toml"
        path.write_text(TINY_DECK, encoding="utf-8")
        return {"deck": str(path)}
    return {"plain": {}, "no_vote_timer": {"vote_seconds": 0}, "ru": {"lang": "ru"}}[variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_end_and_replay_exactly(variant, tmp_path):
    options = options_of(variant, tmp_path)
    seen: Counter[str] = Counter()
    for n in range(GAMES_PER_VARIANT):
        rng = random.Random(f"{variant}-{n}")
        players = [f"P{seat}" for seat in range(SIZES[n % len(SIZES)])]
        state, log = random_playout(TREX, players, options, rng)
        replayed, events = replay_with_events(players, options, log)
        assert replayed == state, f"seed {variant}-{n}"
        assert_plain(state)
        assert_invariants(state)
        seen.update(event["type"] for event in events)
        seen.update(event["deck"] for event in events if event["type"] == "reshuffled")
    # the rare paths are played, not only written
    assert seen["tie_break"] and seen["vote_result"] and seen["byebye"] and seen["skipped"]
    if variant == "tiny_deck":
        assert seen["numbers"] and seen["red_actions"] and seen["yellow_actions"]


def test_a_team_that_always_calls_right_moves_all_15_tokens(tmp_path):
    """The cooperative variant to the end, through reshuffles of a tiny deck."""
    for n, options in enumerate([{}, options_of("tiny_deck", tmp_path)] * 20):
        rng = random.Random(f"coop-{n}")
        state = TREX.setup(["A", "B"], dict(options))
        log = []
        while TREX.result(state) is None:
            if (spec := TREX.chance(state)) is not None:
                move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            else:
                seat = rng.choice([s for s in (0, 1) if state["coop"]["calls"][s] is None])
                levels = [TREX.view(state, s)["card"]["level"] for s in (0, 1)]
                move = (seat, {"type": "call", "match": abs(levels[0] - levels[1]) <= 1})
            TREX.apply(state, *move)
            log.append(move)
        assert TREX.result(state)["won"] and TREX.result(state)["moved"] == 15
        assert replay(TREX, ["A", "B"], options, log) == state
        assert_invariants(state)


def replay_with_events(players: list[str], options: dict, log: list) -> tuple[dict, list]:
    state = TREX.setup(list(players), copy.deepcopy(options))
    events = []
    for seat, action in log:
        events += TREX.apply(state, seat, copy.deepcopy(action))
    return state, events


def test_random_games_with_players_dropping_out_and_back():
    for n in range(120):
        rng = random.Random(f"away-{n}")
        players = [f"P{seat}" for seat in range(SIZES[n % len(SIZES)])]
        options = {"vote_seconds": rng.choice((0, 60))}
        state, log = playout_with_departures(players, options, rng)
        assert replay(TREX, players, options, log) == state, f"seed away-{n}"
        assert_invariants(state)


def playout_with_departures(players: list[str], options: dict, rng: random.Random):
    state = TREX.setup(list(players), dict(options))
    log: list = []
    n = len(players)
    for _ in range(20_000):
        if TREX.result(state) is not None:
            return state, log
        if (spec := TREX.chance(state)) is not None:
            move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
        else:
            moves = legal_moves(TREX, state, n)
            away = [s for s in range(n) if state["away"][s]]
            if rng.random() < 0.05 or not moves:
                seat = rng.randrange(n) if moves else rng.choice(away)
                kind = "back" if state["away"][seat] else "away"
                move = (HOST, {"type": kind, "seat": seat})
            else:
                move = rng.choice(moves)
        TREX.apply(state, *move)
        log.append(move)
        for seat in (s for s in range(n) if state["away"][s]):
            assert state["offers"][seat] is None and seat not in state["offers"]
    raise AssertionError("no end")


def assert_invariants(state: dict) -> None:
    result = TREX.result(state)
    n = len(state["players"])
    scores = result["scores"]
    view = TREX.view(state, None)
    assert view["over"] and view["scores"] == scores
    # every number card is somewhere, once
    held = [card for card in state["hands"] if card is not None]
    cards = state["numbers"] + state["number_discard"] + held
    assert sorted(cards) == list(range(len(state["cards"])))
    assert all(state["cards"][card]["level"] is not None for card in held)
    # every action card is somewhere, at most once (tie-break draws left their deck)
    for colour, texts in state["texts"].items():
        places = [*state["action_decks"][colour], *state["action_discards"][colour]]
        places.append(state["active"][colour])
        assert len(places) == len(set(places)) <= len(texts)
        if state["tie"] is None:
            assert sorted(places) == list(range(len(texts)))
    pool, tokens = state["pool"], state["tokens"]
    if state["coop"] is not None:
        assert n == 2 and result["coop"]
        assert pool["good"] + result["moved"] == tokens["good"] == 15
        assert result["won"] == (result["moved"] == 15) == (result["winners"] == [0, 1])
        assert scores == [result["moved"]] * 2
        return
    assert n >= 3 and not result["coop"]
    for pile in ("good", "bad"):
        assert pool[pile] == max(0, tokens[pile] - sum(state[pile]))
    assert pool["good"] == 0 or pool["bad"] == 0
    assert scores == [g - b for g, b in zip(state["good"], state["bad"], strict=True)]
    top = [s for s in range(n) if scores[s] == max(scores)]
    assert set(result["winners"]) <= set(top)
    assert result["shared"] == (len(result["winners"]) > 1)
    assert sorted(result["ranking"]) == list(range(n))
    assert [scores[s] for s in result["ranking"]] == sorted(scores, reverse=True)
    tie = state["tie"]
    if tie is None:
        assert result["winners"] == top and not result["tie_break"]
        assert len(top) == 1 or len(top) == n
    else:
        assert tie["tied"] == top and result["tie_break"] and 1 < len(top) < n
        assert len(tie["actions"]) == len(top) and tie["colour"] in state["texts"]
        votes = [v for v in tie["votes"] if v is not None]
        assert all(v in top for v in votes) and sum(tie["tally"]) == len(votes)
        assert all(tie["votes"][s] is None for s in top)
        most = max(tie["tally"][s] for s in top)
        assert result["winners"] == [s for s in top if tie["tally"][s] == most]
