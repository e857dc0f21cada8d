"""Random Tesauro games end, keep every card, replay exactly — and keep every secret, byte for
byte: roles, the card aside, the entry (from the Sapiente and the table), the other word of the
card, typed definitions before the reveal, and the bots' pool."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

import msgpack
import pytest

from games import CHANCE, HOST
from games.base import sample_chance
from games.tesauro import TESAURO, rules, views
from games.tesauro.deck import Dictionary, Entry, load_dictionary
from games.tesauro.stacked import deal_outcome, dictionary_outcome
from games.testing import (
    assert_hidden_from_others,
    assert_plain,
    legal_moves,
    random_playout,
    replay,
    view_bytes,
)

WORDS = str(Path(__file__).parent / "data" / "tesauro_words.toml")
VARIANTS = {
    "typed": {"deck": WORDS},
    "typed_no_timer": {"deck": WORDS, "think_seconds": 0},
    "spoken": {"deck": WORDS, "mode": "spoken", "rounds": 2},
    "spoken_no_timer": {"deck": WORDS, "mode": "spoken", "think_seconds": 0},
    "ru": {"lang": "ru", "rounds": 2},
}


def assert_cards_accounted_for(state) -> None:
    """At the end every card is in exactly one place: the deck, the pool or someone's pile."""
    places = state["deck"] + state["pool"] + [card for won in state["won"] for card in won]
    assert sorted(places) == list(range(len(state["cards"])))


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_end_and_replay_exactly(variant):
    options = VARIANTS[variant]
    seen: Counter[str] = Counter()
    for n in range(60):
        rng = random.Random(f"{variant}-{n}")
        players = [f"P{s}" for s in range(2 + n % 9)]
        state, log = random_playout(TESAURO, players, options, rng)
        assert replay(TESAURO, players, options, log) == state, f"{variant}-{n}"
        assert_plain(state)
        assert_cards_accounted_for(state)
        result = TESAURO.result(state)
        assert sum(result["scores"]) == sum(len(w) for w in state["won"])
        seen.update(action["type"] for _, action in log)
    assert {"choose", "tile", "pick", "crazy"} <= set(seen)
    assert ("define" if "typed" in variant or variant == "ru" else "done") in seen


def test_random_games_with_players_dropping_and_coming_back():
    for n in range(80):
        rng = random.Random(f"away-{n}")
        players = [f"P{s}" for s in range(2 + n % 6)]
        options = {
            "deck": WORDS,
            "think_seconds": rng.choice([0, 60]),
            "mode": rng.choice(["typed", "spoken"]),
        }
        state = TESAURO.setup(players, copy.deepcopy(options))
        log = []
        for _ in range(3000):
            if TESAURO.result(state) is not None:
                break
            if (spec := TESAURO.chance(state)) is not None:
                move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            elif rng.random() < 0.08:
                seat = rng.randrange(len(players))
                kind = "back" if state["away"][seat] else "away"
                move = (HOST, {"type": kind, "seat": seat})
            else:
                moves = legal_moves(TESAURO, state, len(players))
                if not moves:  # everyone who could move is away
                    seat = state["away"].index(True)
                    move = (HOST, {"type": "back", "seat": seat})
                else:
                    move = rng.choice(moves)
            TESAURO.apply(state, move[0], copy.deepcopy(move[1]))
            log.append(move)
        assert TESAURO.result(state) is not None, f"away-{n} did not end"
        assert replay(TESAURO, players, options, log) == state


# --- secrets, byte for byte ------------------------------------------------------------------


def opening(n: int, brillante: int | None) -> list:
    """The setup shuffle and a deal with the Brillante card where chosen."""
    state = TESAURO.setup([f"P{s}" for s in range(n)], {"deck": WORDS})
    log = [(CHANCE, {"type": "chance", "outcome": dictionary_outcome(12)})]
    TESAURO.apply(state, *log[0])
    log.append((CHANCE, {"type": "chance", "outcome": deal_outcome(state, brillante)}))
    return log


def writing_log(n: int, brillante: int | None, texts: dict[int, str]) -> list:
    """Opening, the reader chooses word0 (food), the scholars listed in `texts` take tiles in
    seat order and type their texts."""
    log = [*opening(n, brillante), (1, {"type": "choose", "entry": 0})]
    free = iter(["earth", "health", "zoology", "botany", "society", "concepts", "humanities"])
    for seat in texts:
        tile = "food" if seat == brillante else next(free)
        log.append((seat, {"type": "tile", "category": tile}))
    for seat, text in texts.items():
        log.append((seat, {"type": "define", "text": text}))
    return log


PLAYERS = [f"P{s}" for s in range(5)]
OPTIONS = {"deck": WORDS}


def test_a_role_is_known_only_to_its_holder():
    # seat 2 is the Brillante in one game and seat 3 in the other: the two of them can tell
    a = [*opening(5, 2), (1, {"type": "choose", "entry": 0})]
    b = [*opening(5, 3), (1, {"type": "choose", "entry": 0})]
    assert_hidden_from_others(TESAURO, PLAYERS, OPTIONS, a, b, 2, knowers=(3,))


def test_the_card_aside_is_known_to_nobody_until_the_reveal():
    # the Brillante is aside in one game and seat 4's in the other: only seat 4 can tell,
    # through the tiles they are allowed and all definitions given and revealed
    texts = {1: "One.", 2: "Two.", 3: "Three."}
    a = writing_log(5, None, texts)
    b = writing_log(5, 4, texts)
    assert_hidden_from_others(TESAURO, PLAYERS, OPTIONS, a, b, 4)


def test_a_typed_definition_is_sealed_until_all_are_in():
    a = writing_log(5, 2, {1: "Reader's bluff.", 3: "A secret text."})
    b = writing_log(5, 2, {1: "Reader's bluff.", 3: "Another secret."})
    assert_hidden_from_others(TESAURO, PLAYERS, OPTIONS, a, b, 3)
    state = replay(TESAURO, PLAYERS, OPTIONS, a)
    for seat in (None, 0, 1, 2, 4):
        assert b"A secret text." not in view_bytes(TESAURO, state, seat)


def with_entry(d: Dictionary, card: int, side: int, entry: Entry) -> Dictionary:
    cards = list(d.cards)
    pair = list(cards[card])
    pair[side] = entry
    cards[card] = (pair[0], pair[1])
    return Dictionary(tuple(cards), d.lang, d.name, d.source, d.license)


def twin_states(change: Entry, card: int, side: int, log: list) -> tuple:
    base = load_dictionary(path=WORDS)
    states = []
    for d in (base, with_entry(base, card, side, change)):
        state = rules.setup(list(PLAYERS), {"deck": WORDS}, 2, 10, d)
        events = [TESAURO.apply(state, s, copy.deepcopy(a)) for s, a in log]
        states.append((state, msgpack.packb(events)))
    return states


def test_the_entry_in_play_is_hidden_from_the_sapiente_and_the_table():
    log = [*opening(5, 2), (1, {"type": "choose", "entry": 0})]
    other = Entry("word0", "health", "A different meaning altogether.")
    (a, events_a), (b, events_b) = twin_states(other, 0, 0, log)
    assert events_a == events_b
    for seat in (None, 0):
        assert view_bytes(TESAURO, a, seat) == view_bytes(TESAURO, b, seat)
    for seat in (1, 2, 3, 4):
        assert view_bytes(TESAURO, a, seat) != view_bytes(TESAURO, b, seat)


def test_the_word_not_chosen_is_the_readers_alone():
    other = Entry("zzyzx", "earth", "Something nobody else may learn.")
    before = opening(5, 2)
    (a, _), (b, _) = twin_states(other, 0, 1, before)
    for seat in (None, 0, 2, 3, 4):
        assert view_bytes(TESAURO, a, seat) == view_bytes(TESAURO, b, seat)
    assert view_bytes(TESAURO, a, 1) != view_bytes(TESAURO, b, 1)
    after = [*before, (1, {"type": "choose", "entry": 0})]
    (a, ea), (b, eb) = twin_states(other, 0, 1, after)
    assert ea == eb
    for seat in (None, 0, 1, 2, 3, 4):
        assert view_bytes(TESAURO, a, seat) == view_bytes(TESAURO, b, seat)


def test_the_pool_reaches_no_view_and_no_event_only_the_bots():
    rng = random.Random("pool")
    _, log = random_playout(TESAURO, PLAYERS, OPTIONS, rng)
    pool_card = 11  # dictionary_outcome keeps the file order: the last cards are the pool
    assert log[0][1]["outcome"] != dictionary_outcome(12)  # the random game shuffled …
    log[0] = (CHANCE, {"type": "chance", "outcome": dictionary_outcome(12)})  # … we don't
    secret = Entry("hushword", "earth", "A meaning no player may ever see.")
    head = log[:6]
    (a, ea), (b, eb) = twin_states(secret, pool_card, 0, head)
    assert ea == eb
    assert 11 in a["pool"]
    for seat in (None, *range(5)):
        assert view_bytes(TESAURO, a, seat) == view_bytes(TESAURO, b, seat)
    assert views.bot_view(a, 1)["vocabulary"] != views.bot_view(b, 1)["vocabulary"]


def test_the_true_definition_stays_off_the_table_until_the_judgement():
    for n in range(40):
        rng = random.Random(f"truth-{n}")
        players = [f"P{s}" for s in range(3 + n % 6)]
        state = TESAURO.setup(players, {"deck": WORDS})
        revealed: set[str] = set()
        while TESAURO.result(state) is None:
            if (spec := TESAURO.chance(state)) is not None:
                move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            else:
                move = rng.choice(legal_moves(TESAURO, state, len(players)))
            events = TESAURO.apply(state, *copy.deepcopy(move))
            revealed |= {e["word"] for e in events if e["type"] == "judged"}
            entry = rules.current_entry(state)
            if entry is None or state["phase"] == "over" or entry["word"] in revealed:
                continue  # a card that went under the deck comes back already revealed
            secret = entry["definition"].encode()
            for seat in (None, state["sapiente"]):
                assert secret not in view_bytes(TESAURO, state, seat)
            judged = any(e["type"] == "judged" for e in events)
            assert judged or secret not in msgpack.packb(events)
