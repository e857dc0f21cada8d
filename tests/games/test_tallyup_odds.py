"""The odds helpers against brute force: every face of every die, every combination.

The helpers fold a distribution die by die; here every one of the 6**k rolls is listed and
the rule applied to it directly, so a slip in either the folding or a rule shows up.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest

from games.tallyup import (
    COLOURS,
    TALLY_DICE,
    UP_DIE,
    bonus_bust_chance,
    bust_chance,
    dice_table,
    expected_bonus_points,
    expected_main_points,
    main_roll_odds,
    tally_up_chance,
    up_die_bust_range,
    up_die_chance,
)

TRIPLES = list(combinations(COLOURS, 3))
BONUS_PICKS = [pick for n in (1, 2, 3) for pick in combinations(COLOURS, n)]


def rolls(dice):
    """Every roll of `dice`, each equally likely: (stars, points, any circle)."""
    for faces in product(*(TALLY_DICE[colour] for colour in dice)):
        yield (
            sum(f.star for f in faces),
            sum(f.points for f in faces),
            any(f.circle for f in faces),
        )


def brute(dice, counts, value=lambda stars, points, circle: 1):
    every = list(rolls(dice))
    return Fraction(sum(value(*r) for r in every if counts(*r)), len(every))


@pytest.mark.parametrize("dice", TRIPLES, ids="-".join)
def test_main_roll_odds_match_every_roll(dice):
    assert bust_chance(dice) == brute(dice, lambda s, p, c: s == 2)
    assert tally_up_chance(dice) == brute(dice, lambda s, p, c: s == 3)
    assert up_die_chance(dice) == brute(dice, lambda s, p, c: s <= 1 and c)
    assert expected_main_points(dice) == brute(dice, lambda s, p, c: s <= 1, lambda s, p, c: p)
    odds = main_roll_odds(dice)
    assert (odds.bust, odds.tally_up, odds.up_die) == (
        bust_chance(dice),
        tally_up_chance(dice),
        up_die_chance(dice),
    )


@pytest.mark.parametrize("main_stars", [0, 1])
@pytest.mark.parametrize("dice", BONUS_PICKS, ids="-".join)
def test_bonus_odds_count_the_main_roll_stars(dice, main_stars):
    assert bonus_bust_chance(dice, main_stars) == brute(dice, lambda s, p, c: s + main_stars >= 2)
    assert expected_bonus_points(dice, main_stars) == brute(
        dice, lambda s, p, c: s + main_stars < 2, lambda s, p, c: p
    )


@pytest.mark.parametrize("main_stars", [0, 1])
def test_the_up_die_bust_range_spans_the_choice_of_bonus_dice(main_stars):
    unused = ("green", "blue", "purple")
    per_count = [
        [brute(pick, lambda s, p, c: s + main_stars >= 2) for pick in combinations(unused, n)]
        for n in (1, 2, 3)
    ]
    low = sum(min(chances) for chances in per_count) / 6
    high = sum(max(chances) for chances in per_count) / 6
    assert up_die_bust_range(unused, main_stars) == (low, high)
    assert UP_DIE[:3] == ("+1", "+2", "+3")  # the three faces in six that roll bonus dice


def test_some_odds_worked_by_hand():
    # red, orange: a star on half their faces; yellow on a third.
    assert bust_chance(["red", "orange", "yellow"]) == Fraction(1, 3)
    assert tally_up_chance(["red", "orange", "yellow"]) == Fraction(1, 12)
    # One star on each low die, two on green: 1/6 * 1/6 * 1/3.
    assert tally_up_chance(["green", "blue", "purple"]) == Fraction(1, 108)
    # With a star already on the Main Roll, any star on the bonus die busts.
    assert bonus_bust_chance(["blue"], 1) == Fraction(1, 6)
    assert bonus_bust_chance(["blue"], 0) == 0


@pytest.mark.parametrize("dice", [["red", "orange"], ["red", "red", "blue"], ["red", "x", "blue"]])
def test_a_main_roll_takes_three_distinct_dice(dice):
    with pytest.raises(ValueError):
        bust_chance(dice)


def test_the_reference_table_is_the_printed_one():
    table = {row["colour"]: row for row in dice_table()}
    printed = {
        "red": "* * * 50 (50) 100",
        "orange": "* * * 60 (70) 70",
        "yellow": "* * 20 20 (40) 70",
        "green": "* * 30 (40) 40 40",
        "blue": "* (10) (10) 10 20 50",
        "purple": "* (20) (20) 20 20 20",
    }
    assert list(table) == list(printed)
    for colour, faces in printed.items():
        assert " ".join(face["label"] for face in table[colour]["faces"]) == faces
    sums = {colour: row["points_sum"] for colour, row in table.items()}
    assert sums == {
        "red": 200,
        "orange": 200,
        "yellow": 150,
        "green": 150,
        "blue": 100,
        "purple": 100,
    }
    assert [table[c]["risk"] for c in printed] == ["high", "high", "medium", "medium", "low", "low"]
