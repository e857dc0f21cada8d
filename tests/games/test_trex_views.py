"""What each seat sees: the keys screens rely on, and every secret kept to the byte.

A secret is checked on the serialised views, never on the dicts: two games that differ only in
something one seat (or two) may know must give every other seat and the table byte-identical
views and events.
"""

from __future__ import annotations

import copy

import pytest

from games import HOST
from games.testing import assert_hidden_from_others, assert_plain, replay, view_bytes
from games.trex import TREX
from games.trex.stacked import byebye, chance_move, deal

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def offer(seat: int, to: int) -> tuple[int, dict]:
    return seat, {"type": "offer", "to": to}


def accept(seat: int, offerer: int) -> tuple[int, dict]:
    return seat, {"type": "accept", "from": offerer}


def skip(seat: int) -> tuple[int, dict]:
    return seat, {"type": "skip"}


def dealt(hands, then=(), players=PLAYERS, options=None) -> list:
    return deal(TREX, players, options, hands, then)


PUBLIC_KEYS = {
    "game", "phase", "over", "players", "mode", "lang", "vote_seconds", "scores", "good", "bad",
    "pool", "tokens", "colours", "symbols", "actions", "decks", "away", "left", "last_match",
    "tie_break", "coop", "last_events", "result",
}  # fmt: skip
PRIVATE_KEYS = {"seat", "card", "offers", "legal", "vote", "call", "news"}


def test_the_views_have_what_screens_rely_on():
    log = [*dealt([5, 6, 7, 8]), offer(2, 1)]
    state = replay(TREX, PLAYERS, None, log)
    table = TREX.view(state, None)
    assert set(table) == PUBLIC_KEYS
    assert table["symbols"] == {"red": "★", "blue": "☾", "yellow": "☼"}
    assert table["colours"] == ["red", "blue", "yellow"]
    assert set(table["actions"]) == {"red", "blue", "yellow"}
    assert all(isinstance(text, str) and text for text in table["actions"].values())
    mine = TREX.view(state, 1)
    assert set(mine) == PUBLIC_KEYS | PRIVATE_KEYS
    assert {k: v for k, v in mine.items() if k in PUBLIC_KEYS} == table
    assert mine["seat"] == 1 and mine["card"] == {"colour": "red", "level": 6}
    assert mine["offers"] == {"out": None, "in": [2]}
    assert mine["legal"] == ["offer", "skip", "accept", "decline"]
    assert mine["vote"] is None and mine["call"] is None
    assert mine["news"] == {"id": 1, "type": "offered", "from": 2}
    assert TREX.view(state, 2)["offers"] == {"out": 1, "in": []}


def test_the_table_shows_the_last_match_and_the_result():
    log = [*dealt([1, 10, 7], then=[1, 10, 2, 9, 3, 8], players=PLAYERS[:3])]
    for _ in range(4):
        log += [offer(0, 1), accept(1, 0)]
    state = replay(TREX, PLAYERS[:3], None, log)
    table = TREX.view(state, None)
    assert table["last_match"] == {
        "a": 0, "b": 1, "level_a": 3, "level_b": 8, "outcome": "far", "good": 0, "bad": 1,
    }  # fmt: skip
    assert table["over"] and table["result"] == TREX.result(state)
    assert table["result"]["winners"] == [2]
    assert TREX.view(state, 0)["legal"] == []


def test_a_view_is_a_copy():
    log = [*dealt([5, 5, 7, 8]), offer(2, 1), offer(0, 1), accept(1, 0)]
    state = replay(TREX, PLAYERS, None, log)
    before = [view_bytes(TREX, state, seat) for seat in (None, 0, 1, 2)]
    for seat in (None, 0, 1):
        view = TREX.view(state, seat)
        view["scores"][0] = 99
        view["pool"]["good"] = 99
        view["actions"]["red"] = "x"
        view["last_match"]["a"] = 99
        view["last_events"][0]["a"] = 99
        view["decks"]["actions"]["red"] = 99
        if seat is not None:
            view["card"]["level"] = 99
            view["offers"]["in"].append(3)
            view["news"]["mine"]["level"] = 99
    assert [view_bytes(TREX, state, seat) for seat in (None, 0, 1, 2)] == before


def test_no_view_for_a_seat_that_is_not_at_the_table():
    state = replay(TREX, PLAYERS, None, dealt([5, 6, 7, 8]))
    with pytest.raises(ValueError):
        TREX.view(state, 4)


def test_the_state_is_plain_data():
    log = [*dealt([5, 5, 7, 8]), offer(2, 3), offer(0, 1), accept(1, 0)]
    assert_plain(replay(TREX, PLAYERS, None, log))


# --- secrets ------------------------------------------------------------------------------------

# Two deals that differ only in seat 1's card (swapped with a card deep in the deck).
CARD_A = [5, ("blue", 3), 7, 8]
CARD_B = [5, ("yellow", 9), 7, 8]


@pytest.mark.parametrize(
    "after",
    [
        [],
        [skip(0)],  # others move
        [offer(0, 2), (2, {"type": "decline", "from": 0})],
        [offer(1, 3)],  # the secret card's owner offers it
        [offer(2, 1)],  # and is offered a card
        [offer(0, 2), accept(2, 0)],  # a match elsewhere
        [(HOST, {"type": "away", "seat": 1}), (HOST, {"type": "back", "seat": 1})],
    ],
)
def test_a_card_in_hand_reaches_no_other_seat_and_not_the_table(after):
    """Even the players seat 1 offers to, or who offer to seat 1, see nothing of its card."""
    log_a, log_b = dealt(CARD_A, then=[6, 6]), dealt(CARD_B, then=[6, 6])
    assert_hidden_from_others(TREX, PLAYERS, None, [*log_a, *after], [*log_b, *after], 1)


def test_a_new_card_after_a_skip_stays_secret():
    before = dealt([5, 6, 7, 8], then=[("red", 4)])
    after_b = dealt([5, 6, 7, 8], then=[("blue", 10)])
    assert_hidden_from_others(TREX, PLAYERS, None, [*before, skip(3)], [*after_b, skip(3)], 3)


def test_a_new_card_after_a_match_stays_secret():
    log_a = [*dealt([5, 5, 7, 8], then=[1, 2]), offer(0, 1), accept(1, 0)]
    log_b = [*dealt([5, 5, 7, 8], then=[1, 9]), offer(0, 1), accept(1, 0)]
    assert_hidden_from_others(TREX, PLAYERS, None, log_a, log_b, 1)


def test_who_an_offer_goes_to_is_known_only_to_the_two_players():
    log = dealt([5, 6, 7, 8])
    # to 1 or to 2: only 0, 1 and 2 can tell
    assert_hidden_from_others(TREX, PLAYERS, None, [*log, offer(0, 1)], [*log, offer(0, 2)], 0,
                              knowers=(1, 2))  # fmt: skip


def assert_same_for(state_a, state_b, seats) -> None:
    for seat in seats:
        assert view_bytes(TREX, state_a, seat) == view_bytes(TREX, state_b, seat), seat


@pytest.mark.parametrize(
    "private",
    [
        [offer(0, 1)],
        [offer(0, 1), offer(3, 1)],
        [offer(0, 1), (0, {"type": "withdraw"})],
        [offer(0, 1), (1, {"type": "decline", "from": 0})],
    ],
)
def test_an_offer_leaves_the_table_and_the_other_players_as_if_nothing_happened(private):
    log = [*dealt([5, 6, 7, 8], then=[1, 1]), skip(2)]
    with_offer = replay(TREX, PLAYERS, None, [*log, *private])
    without = replay(TREX, PLAYERS, None, log)
    involved = {seat for seat, _ in private} | {a["to"] for _, a in private if "to" in a}
    assert_same_for(with_offer, without, [None, *(s for s in range(4) if s not in involved)])
    assert all(TREX.apply(copy.deepcopy(without), s, a) == [] for s, a in private[:1])
    # ... and after a public move on top of it
    both = [skip(2)]
    assert_same_for(
        replay(TREX, PLAYERS, None, [*log, *private, *both]),
        replay(TREX, PLAYERS, None, [*log, *both]),
        [None, *(s for s in range(4) if s not in involved)],
    )


def test_offers_withdrawn_by_a_departure_leave_no_trace_for_the_others():
    log = dealt([5, 6, 7, 8])
    away = (HOST, {"type": "away", "seat": 1})
    with_offers = replay(TREX, PLAYERS, None, [*log, offer(0, 1), offer(1, 2), away])
    without = replay(TREX, PLAYERS, None, [*log, away])
    assert_same_for(with_offers, without, [None, 3])


def voting_log(players=("A", "B", "C", "D", "E")) -> list:
    """5 players: 0 and 1 match exactly, then 2 and 3 empty the bad pile (12); 0 and 1 tie on
    2, and 2, 3 and 4 vote."""
    then = [6, 6, 1, 10, 2, 9, 3, 8, 4, 7, 1, 10]
    log = dealt([5, 5, 1, 10, 3], then=then, players=list(players))
    log += [offer(0, 1), accept(1, 0)]
    for _ in range(6):
        log += [offer(2, 3), accept(3, 2)]
    return log


def test_a_vote_is_secret_until_the_vote_closes():
    players = ["A", "B", "C", "D", "E"]
    log = voting_log(players)
    state = replay(TREX, players, None, log)
    assert TREX.chance(state)["deck"] == "colour"
    log.append(chance_move(state, ["red"]))
    vote_0 = (2, {"type": "vote", "for": 0})
    vote_1 = (2, {"type": "vote", "for": 1})
    assert_hidden_from_others(TREX, players, None, [*log, vote_0], [*log, vote_1], 2)
    more = [(3, {"type": "vote", "for": 0})]
    assert_hidden_from_others(TREX, players, None, [*log, vote_0, *more],
                              [*log, vote_1, *more], 2, knowers=())  # fmt: skip
    closed = replay(TREX, players, None, [*log, vote_1, *more, (4, {"type": "vote", "for": 1})])
    tie = TREX.view(closed, None)["tie_break"]
    assert tie["tally"] == [1, 2, 0, 0, 0] and tie["winners"] == [1]
    assert tie["voted"] == [2, 3, 4]


def test_a_coop_call_is_secret_until_both_have_called():
    players = ["A", "B"]
    log = dealt([5, 5], then=[3, 3], players=players)
    call = [(0, {"type": "call", "match": True})]
    other = [(0, {"type": "call", "match": False})]
    assert_hidden_from_others(TREX, players, None, [*log, *call], [*log, *other], 0)
    state = replay(TREX, players, None, [*log, *call])
    assert TREX.view(state, None)["coop"]["called"] == [True, False]
    assert TREX.view(state, 1)["call"] is None and TREX.view(state, 0)["call"] is True


def test_coop_cards_are_secret_until_the_reveal():
    players = ["A", "B"]
    log_a = dealt([5, ("red", 5)], players=players)
    log_b = dealt([5, ("blue", 9)], players=players)
    call = [(0, {"type": "call", "match": True})]
    assert_hidden_from_others(TREX, players, None, [*log_a, *call], [*log_b, *call], 1)


def test_a_byebye_at_the_deal_is_not_told():
    """A bye-bye dealt at setup goes back unseen: the table only sees the deal done."""
    state = TREX.setup(PLAYERS)
    while TREX.chance(state)["deck"] != "numbers":
        TREX.apply(state, *chance_move(state))
    TREX.apply(state, *chance_move(state, [5, byebye("red")]))
    assert TREX.chance(state) == {"kind": "shuffle", "deck": "numbers", "size": 65}
    events = TREX.apply(state, *chance_move(state))
    assert events == [{"type": "dealt", "phase": "play"}]
