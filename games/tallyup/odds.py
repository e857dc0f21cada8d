"""Exact odds of Tally Up! rolls, from the face table — for the screens and for the bots.

The box's reference cards only print the faces; hubbub also tells a player the real chance
that the chosen dice bust, bring a Tally Up! or call the Up Die. The numbers are exact
fractions: the distribution of (stars, any circle, points) is folded die by die, so nothing is
sampled and the result is the same on every machine. Pure functions, importable by the UI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from games.tallyup.dice import COLOURS, TALLY_DICE, in_table_order

_Bucket = tuple[int, bool]
"""(stars showing, whether any circle shows)."""

_Predicate = Callable[[int, bool], bool]
"""Which (stars, any circle) buckets of a roll count."""


@dataclass(frozen=True)
class MainRollOdds:
    """What a Main Roll of three chosen dice may bring."""

    bust: Fraction
    """Exactly two stars: everyone still IN loses the running total."""
    tally_up: Fraction
    """Three stars: the shout, +200 / +100."""
    up_die: Fraction
    """At most one star and at least one circle: the Up Die is due."""
    expected_points: Fraction
    """Points the roll adds to the running total, on average (a bust or Tally Up! adds 0)."""


@dataclass(frozen=True)
class BonusRollOdds:
    """What a Bonus Roll may bring, given the stars already showing on the Main Roll."""

    bust: Fraction
    """Main Roll stars and bonus stars together make two or more."""
    expected_points: Fraction
    """Points the roll adds to the running total, on average (a bust adds 0)."""


def main_roll_odds(dice: Sequence[str]) -> MainRollOdds:
    _check_main(dice)
    return _main_roll_odds(_key(dice))


def bust_chance(dice: Sequence[str]) -> Fraction:
    """Chance that a Main Roll of these three dice shows exactly two stars."""
    return main_roll_odds(dice).bust


def tally_up_chance(dice: Sequence[str]) -> Fraction:
    """Chance that a Main Roll of these three dice shows three stars."""
    return main_roll_odds(dice).tally_up


def up_die_chance(dice: Sequence[str]) -> Fraction:
    """Chance that a Main Roll of these three dice calls the Up Die (≤ 1 star, ≥ 1 circle)."""
    return main_roll_odds(dice).up_die


def expected_main_points(dice: Sequence[str]) -> Fraction:
    """Average points a Main Roll of these dice adds to the running total."""
    return main_roll_odds(dice).expected_points


def bonus_roll_odds(dice: Sequence[str], main_stars: int) -> BonusRollOdds:
    """What a Bonus Roll of `dice` may bring after a Main Roll showing `main_stars` stars.

    The rule counts the Main Roll's stars and the bonus stars together: with one star on the
    Main Roll, any bonus star busts.
    """
    _check(dice)
    return _bonus_roll_odds(_key(dice), main_stars)


def bonus_bust_chance(dice: Sequence[str], main_stars: int) -> Fraction:
    """Chance that a Bonus Roll of `dice` busts, given the stars the Main Roll already shows."""
    return bonus_roll_odds(dice, main_stars).bust


def expected_bonus_points(dice: Sequence[str], main_stars: int) -> Fraction:
    """Average points a Bonus Roll adds (0 when it busts), given the Main Roll's stars."""
    return bonus_roll_odds(dice, main_stars).expected_points


def up_die_bust_range(unused: Sequence[str], main_stars: int) -> tuple[Fraction, Fraction]:
    """Chance that rolling the Up Die ends in a bust: (safest, riskiest) choice of bonus dice.

    The Up Die calls +1, +2 or +3 bonus dice, one face in six each; for +1 and +2 the active
    player chooses which unused dice, so the chance depends on that choice — hence a range.
    """
    _check(unused)
    return _up_die_bust_range(_key(unused), main_stars)


# Few sets of dice exist (20 for a Main Roll, 41 for a bonus), so every answer is cached:
# bots ask on every decision, and exact fractions are not cheap to add up.


@cache
def _main_roll_odds(dice: tuple[str, ...]) -> MainRollOdds:
    return MainRollOdds(
        bust=_chance(dice, lambda stars, _circle: stars == 2),
        tally_up=_chance(dice, lambda stars, _circle: stars == 3),
        up_die=_chance(dice, lambda stars, circle: stars <= 1 and circle),
        expected_points=_points(dice, lambda stars, _circle: stars <= 1),
    )


@cache
def _bonus_roll_odds(dice: tuple[str, ...], main_stars: int) -> BonusRollOdds:
    return BonusRollOdds(
        bust=_chance(dice, lambda stars, _circle: stars + main_stars >= 2),
        expected_points=_points(dice, lambda stars, _circle: stars + main_stars < 2),
    )


@cache
def _up_die_bust_range(unused: tuple[str, ...], main_stars: int) -> tuple[Fraction, Fraction]:
    low = high = Fraction(0)
    for count in range(1, len(unused) + 1):
        chances = [bonus_bust_chance(pick, main_stars) for pick in combinations(unused, count)]
        low += min(chances) / 6
        high += max(chances) / 6
    return low, high


def _key(dice: Sequence[str]) -> tuple[str, ...]:
    """The order of the dice changes no odds: one cache entry per set."""
    return tuple(in_table_order(list(dice)))


def _chance(dice: Sequence[str], counts: _Predicate) -> Fraction:
    return _summed(dice, counts)[0]


def _points(dice: Sequence[str], counts: _Predicate) -> Fraction:
    return _summed(dice, counts)[1]


def _summed(dice: Sequence[str], counts: _Predicate) -> tuple[Fraction, Fraction]:
    """(chance, expected-points mass) of the rolls whose (stars, any circle) `counts`."""
    chance = points = Fraction(0)
    for (stars, circle), (bucket_chance, bucket_points) in _distribution(tuple(dice)).items():
        if counts(stars, circle):
            chance += bucket_chance
            points += bucket_points
    return chance, points


@cache
def _distribution(dice: tuple[str, ...]) -> dict[_Bucket, tuple[Fraction, Fraction]]:
    """(stars, any circle) -> (chance, expected-points mass) over all rolls of `dice`.

    The mass is the sum of chance × points over the rolls in that bucket, so summing masses
    over buckets gives an expectation. Folding die by die keeps it 6·k steps, not 6**k.
    """
    buckets: dict[_Bucket, tuple[Fraction, Fraction]] = {(0, False): (Fraction(1), Fraction(0))}
    sixth = Fraction(1, 6)
    for colour in dice:
        folded: dict[_Bucket, tuple[Fraction, Fraction]] = {}
        for (stars, circle), (chance, mass) in buckets.items():
            for face in TALLY_DICE[colour]:
                key = (stars + face.star, circle or face.circle)
                old_chance, old_mass = folded.get(key, (Fraction(0), Fraction(0)))
                folded[key] = (
                    old_chance + chance * sixth,
                    old_mass + (mass + chance * face.points) * sixth,
                )
        buckets = folded
    return buckets


def _check(dice: Sequence[str]) -> None:
    if any(colour not in COLOURS for colour in dice) or len(set(dice)) != len(dice):
        raise ValueError(f"not a set of distinct Tally Dice: {list(dice)!r}")


def _check_main(dice: Sequence[str]) -> None:
    _check(dice)
    if len(dice) != 3:
        raise ValueError(f"a Main Roll uses three dice, not {len(dice)}")
