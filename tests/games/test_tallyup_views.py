"""What each seat sees: the keys screens rely on, and sealed choices kept secret to the byte."""

from __future__ import annotations

import pytest

from games import CHANCE, GAMES, HOST
from games.testing import assert_hidden_from_others, assert_plain, replay, view_bytes

GAME = GAMES["tallyup"]
PLAYERS = ["Ann", "Bob", "Cy"]

CHOOSE = (0, {"type": "choose_dice", "dice": ["red", "orange", "yellow"]})
ROLL = (0, {"type": "roll"})
PLAIN_130 = (CHANCE, {"type": "chance", "outcome": [3, 3, 2]})  # 50, 60, 20
CIRCLED_130 = (CHANCE, {"type": "chance", "outcome": [4, 3, 2]})  # (50), 60, 20
TO_CHOICE = [CHOOSE, ROLL, PLAIN_130]


def token(seat: int, side: str) -> tuple[int, dict]:
    return seat, {"type": "token", "side": side}


PUBLIC_KEYS = {
    "scores", "over", "running_total", "active", "dice", "phase", "players", "target", "round",
    "last_roll", "up_die", "bonus", "out", "locked", "shout", "history", "last_events", "result",
}  # fmt: skip


def test_the_views_have_what_screens_rely_on():
    state = replay(GAME, PLAYERS, None, [*TO_CHOICE, token(1, "out")])
    table = GAME.view(state, None)
    assert set(table) >= PUBLIC_KEYS
    assert "token" not in table and "legal" not in table
    mine = GAME.view(state, 1)
    assert {**mine, "token": None, "seat": None, "legal": None} == {
        **table, "token": None, "seat": None, "legal": None,
    }  # fmt: skip
    assert (mine["token"], mine["seat"], mine["legal"]) == ("out", 1, ["token"])
    assert table["locked"] == [False, True, False]  # who has locked in, never the side
    assert table["dice"] == ["red", "orange", "yellow"] and table["running_total"] == 130
    assert table["last_roll"][0] == {
        "colour": "red", "face": 3, "label": "50", "points": 50, "star": False, "circle": False,
    }  # fmt: skip
    assert table["last_events"] == [{"type": "locked", "seat": 1}]


def test_the_table_shows_the_history_and_the_result():
    everyone_out = [token(0, "out"), token(1, "out"), token(2, "out")]
    tie = [CHOOSE, ROLL, PLAIN_130, *everyone_out]  # a three-way tie over the target
    state = replay(GAME, PLAYERS, {"target": 100}, tie)
    table = GAME.view(state, None)
    assert table["history"] == [[130, 130, 130]]
    assert table["extra_round"] == 1 and not table["over"] and table["result"] is None
    extra = [(1, CHOOSE[1]), (1, {"type": "roll"}), PLAIN_130]
    extra += [token(0, "in"), token(1, "in"), token(2, "out")]  # Cy banks 130 more
    extra += [(1, {"type": "roll"}), (CHANCE, {"type": "chance", "outcome": [0, 0, 2]})]  # bust
    state = replay(GAME, PLAYERS, {"target": 100}, [*tie, *extra])
    table = GAME.view(state, 0)
    assert table["history"] == [[130, 130, 130], [130, 130, 260]]
    assert table["over"] and table["phase"] == "over" and table["legal"] == []
    assert table["result"] == GAME.result(state)
    assert table["result"]["winners"] == [2] and table["result"]["scores"] == [130, 130, 260]


def test_a_view_is_a_copy():
    for log in ([*TO_CHOICE], [*TO_CHOICE, token(1, "out")]):
        state = replay(GAME, PLAYERS, None, log)
        before = view_bytes(GAME, state, None)
        for seat in (None, 1):
            view = GAME.view(state, seat)
            view["scores"][0] = 999
            view["last_roll"][0]["points"] = 999
            view["last_events"][0]["seat"] = 999
            for event in view["last_events"]:
                for die in event.get("dice", []):
                    die["face"] = 5
            view["dice"].append("blue")
        assert view_bytes(GAME, state, None) == before


def test_no_view_for_a_seat_that_is_not_at_the_table():
    state = GAME.setup(PLAYERS)
    with pytest.raises(ValueError):
        GAME.view(state, 3)


def test_the_state_is_plain_data():
    state = replay(GAME, PLAYERS, None, [*TO_CHOICE, token(1, "out")])
    assert_plain(state)


SECRETS = {
    "first lock": ([*TO_CHOICE], [token(1, "in")], [token(1, "out")]),
    "lock after others": (
        [*TO_CHOICE, token(0, "out")],
        [token(1, "in")],
        [token(1, "out")],
    ),
    "change of mind": ([*TO_CHOICE], [token(1, "out"), token(1, "in")],
                       [token(1, "in"), token(1, "out")]),
    "before the up die": ([CHOOSE, ROLL, CIRCLED_130], [token(2, "in")], [token(2, "out")]),
    "the active player": ([*TO_CHOICE], [token(0, "out")], [token(0, "in")]),
    "after a back": (
        [*TO_CHOICE, (HOST, {"type": "away", "seat": 1}), (HOST, {"type": "back", "seat": 1})],
        [token(1, "out")],
        [token(1, "in")],
    ),
}  # fmt: skip


SECRET_CASES = [
    (name, high_stakes)
    for name in SECRETS
    for high_stakes in (False, True)
    if not (high_stakes and name == "before the up die")  # high stakes has no such choice
]


@pytest.mark.parametrize("name, high_stakes", SECRET_CASES)
def test_a_sealed_side_reaches_no_other_seat_and_not_the_table(name, high_stakes):
    before, a, b = SECRETS[name]
    options = {"high_stakes": high_stakes}
    seat = a[-1][0]
    assert_hidden_from_others(GAME, PLAYERS, options, [*before, *a], [*before, *b], seat)


def test_the_side_becomes_public_at_the_reveal():
    log = [*TO_CHOICE, token(1, "out"), token(0, "in")]
    state = replay(GAME, PLAYERS, None, [*log, token(2, "in")])
    assert GAME.view(state, None)["out"] == [False, True, False]
    assert GAME.view(state, None)["last_events"][-1]["out"] == [1]
