"""Bots for Tally Up!: they play a seat from that seat's view alone, like a person at the table.

A bot weighs the one decision that matters — stay IN or bank — as a person at the table would:
what one more step is expected to add, against the running total that a bust would take (the
exact odds of `odds`), scaled by its nerve and by the race (its score, the leader's, the
target); and it banks at once when banking wins the game. Strengths
differ in nerve, in how carefully they pick dice, in how often they simply guess, and in how
fast their hands and voice are. They only ever pick among the `legal` kinds in their view, so
they cannot make an illegal move; their randomness is the `rng` they are handed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from itertools import combinations

from games.base import Action, Bot
from games.tallyup.dice import COLOURS
from games.tallyup.odds import (
    bonus_bust_chance,
    expected_bonus_points,
    main_roll_odds,
    up_die_bust_range,
)
from games.tallyup.rules import AFTER_ROLL, BEFORE_UP_DIE, SHOUT_POINTS, TALLY_POINTS

Seconds = tuple[float, float]


@dataclass(frozen=True)
class Temperament:
    """What makes one strength of bot play differently from another."""

    think: Seconds
    """Range of seconds before a move: long enough that people can follow the bot."""
    reflex: Seconds
    """Range of seconds before shouting "Tally Up!", as a person's: from the three stars
    landing to the shout. People need a fair chance to win it: a player who shouts within a
    second always beats every bot, and even the boldest bot is no quicker than a quick
    person."""
    nerve: float
    """Weight of the expected gain against the risk: above 1 pushes luck, below 1 banks early."""
    guess: float
    """Chance that an IN/OUT choice is a coin toss rather than a thought."""
    dice_style: str
    """How the dice are chosen: "random", "steady" (few busts) or "bold" (big rolls)."""


TEMPERAMENTS: dict[str, Temperament] = {
    "easy": Temperament(
        think=(1.5, 3.0), reflex=(3.0, 4.5), nerve=0.85, guess=0.25, dice_style="random"
    ),
    "normal": Temperament(
        think=(0.8, 2.0), reflex=(2.0, 4.0), nerve=1.2, guess=0.05, dice_style="steady"
    ),
    "bold": Temperament(
        think=(0.6, 1.5), reflex=(1.2, 2.5), nerve=1.5, guess=0.05, dice_style="bold"
    ),
}
"""The shout's reaction times (`reflex`) are a person's: easy 3–4.5 s, normal 2–4 s, bold
1.2–2.5 s; a human shouting within a second wins the +200. Every range ends inside the
shortest shout window a host can set (`shout_seconds`: 5 s), half a second to spare: the
rules let a shout be missed, but a bot that does not shout looks broken, not slow (easy was
3–6 s, and missed a 5 s window one time in three)."""


class TallyBot:
    def __init__(self, temperament: Temperament) -> None:
        self.temperament = temperament

    def act(self, view: dict, seat: int, rng: random.Random) -> tuple[float, Action] | None:
        legal = view.get("legal", [])
        if "shout" in legal:
            return rng.uniform(*self.temperament.reflex), {"type": "shout"}
        if "choose_dice" in legal:
            return self._thinking(rng), {"type": "choose_dice", "dice": self._dice(rng)}
        if "roll" in legal:
            return self._thinking(rng), {"type": "roll"}
        if "bonus_dice" in legal:
            return self._thinking(rng), {"type": "bonus_dice", "dice": self._bonus(view, seat, rng)}
        if "token" in legal and view["token"] is None:
            side = "in" if self._stays_in(view, seat, rng) else "out"
            return self._thinking(rng), {"type": "token", "side": side}
        return None

    def _thinking(self, rng: random.Random) -> float:
        return rng.uniform(*self.temperament.think)

    # --- dice ------------------------------------------------------------------------------

    def _dice(self, rng: random.Random) -> list[str]:
        style = self.temperament.dice_style
        if style == "random":
            return sorted(rng.sample(COLOURS, 3), key=COLOURS.index)
        scorer = _steady_dice if style == "steady" else _bold_dice
        # A pinch of noise so equally good sets take turns, as a person's favourites would.
        ranked = sorted(combinations(COLOURS, 3), key=lambda pick: scorer(pick) + rng.random())
        return list(ranked[-1])

    def _bonus(self, view: dict, seat: int, rng: random.Random) -> list[str]:
        picks = list(combinations(view["unused"], view["bonus_count"]))
        if self.temperament.dice_style == "random" or view["out"][seat]:
            return list(rng.choice(picks))
        stars = view["main_stars"]
        if self.temperament.dice_style == "bold":
            return list(max(picks, key=lambda pick: expected_bonus_points(pick, stars)))
        return list(min(picks, key=lambda pick: bonus_bust_chance(pick, stars)))

    # --- IN or OUT -------------------------------------------------------------------------

    def _stays_in(self, view: dict, seat: int, rng: random.Random) -> bool:
        if view["running_total"] <= 0:
            return True  # banking nothing, or a loss, is never better than hoping
        if rng.random() < self.temperament.guess:
            return rng.random() < 0.5
        if _banking_wins(view, seat):
            return False
        gain, loss = _next_step(view)
        return gain * self.temperament.nerve * _urgency(view, seat) > loss


def _next_step(view: dict) -> tuple[float, float]:
    """(expected gain, expected loss) of the running total over one more step for who stays.

    Before the Up Die the step is the Up Die; otherwise it is the next Main Roll — and in high
    stakes that roll's Up Die too, since there is no reveal in between. A bust loses the
    whole total: that is the risk a bot's nerve weighs the gain against.
    """
    total = float(view["running_total"])
    if view["choice_for"] == BEFORE_UP_DIE:
        bonus_points, bonus_bust = _bonus_outlook(tuple(view["unused"]), view["main_stars"])
        gain = 100 + total + bonus_points  # +100, x2 and the bonus rolls
        loss = 100 + bonus_bust * total  # -100 and a bonus bust
        return gain / 6, loss / 6
    assert view["choice_for"] == AFTER_ROLL
    gain, bust = _main_roll_outlook(tuple(view["dice"]), view["high_stakes"])
    return gain, bust * total


@cache
def _main_roll_outlook(dice: tuple[str, ...], high_stakes: bool) -> tuple[float, float]:
    """Expected points of one more Main Roll, and the chance it loses the total."""
    odds = main_roll_odds(dice)
    # A Tally Up! is worth +100 to an IN player, more with a quick shout: call it halfway.
    gain = odds.expected_points + odds.tally_up * (TALLY_POINTS + SHOUT_POINTS) / 2
    bust = odds.bust
    if high_stakes:  # the Up Die that may follow, with an average choice of bonus dice
        unused = [colour for colour in COLOURS if colour not in dice]
        low, high = up_die_bust_range(unused, main_stars=0)
        bust += odds.up_die * (low + high) / 2
    return float(gain), float(bust)


@cache
def _bonus_outlook(unused: tuple[str, ...], main_stars: int) -> tuple[float, float]:
    """Bonus points and bust chance over the +1, +2 and +3 faces together, averaging over
    which dice the active player picks."""
    points = bust = 0.0
    for count in range(1, len(unused) + 1):
        picks = list(combinations(unused, count))
        points += sum(float(expected_bonus_points(pick, main_stars)) for pick in picks) / len(picks)
        bust += sum(float(bonus_bust_chance(pick, main_stars)) for pick in picks) / len(picks)
    return points, bust


def _banking_wins(view: dict, seat: int) -> bool:
    """Banking now would reach the target with the lead: take the game rather than the risk."""
    if view["once_each"] or view["extra_round"]:
        return False
    banked = view["scores"][seat] + view["running_total"]
    rivals = [score for other, score in enumerate(view["scores"]) if other != seat]
    return banked >= view["target"] and banked > max(rivals)


def _urgency(view: dict, seat: int) -> float:
    """Push harder when a rival is close to the end and we are well behind."""
    rivals = [score for other, score in enumerate(view["scores"]) if other != seat]
    leader = max(rivals)
    behind = leader - view["scores"][seat]
    if view["once_each"]:
        last_rounds = view["round"] >= len(view["players"]) - 1
        return 1.2 if last_rounds and behind > view["running_total"] else 1.0
    if leader >= 0.75 * view["target"] and behind > view["running_total"]:
        return 1.25
    return 1.0


def _steady_dice(pick: Sequence[str]) -> float:
    odds = main_roll_odds(pick)
    return float(odds.expected_points - 150 * odds.bust)


def _bold_dice(pick: Sequence[str]) -> float:
    odds = main_roll_odds(pick)
    return float(odds.expected_points + 300 * odds.tally_up - 50 * odds.bust)


BOTS: dict[str, Callable[[], Bot]] = {
    name: partial(TallyBot, temperament) for name, temperament in TEMPERAMENTS.items()
}
"""Bot factories by strength, as `Game.bots` lists them."""
