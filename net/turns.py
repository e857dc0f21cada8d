"""The turn clock: a player who is there but does not act must not stall the table.

Two countdowns run on the room's one clock (`net.countdown.Countdown`) when the game's own
timer does not: a seat's **turn time** (`GameBase.turn`: the seat and its seconds, a lobby
option of the game) and the host's **nudge** (NUDGE_SECONDS for every seat the table waits on
now). When one runs out, the game's bot makes one move for each of its seats that the table
still waits on (`bot_move`); the players keep their seats and make their next moves.

The clock's action is the room's own, never a game's (it has no `type`, it has `turn`), so
it is journalled and resumed like the game's timer: the same action goes on with the time it
had, a new one starts afresh. A turn time's action names the log's length: every move starts
it again. A nudge's names the version it was given at and its seats; a nudged seat that acts
itself is taken off it, the others keep their time.

It knows no room: the room asks for the spec after every change and says who is there."""

from __future__ import annotations

import logging
import random
from typing import Any

from games.base import GameBase, State

log = logging.getLogger(__name__)

NUDGE_SECONDS = 20.0
"""The host's nudge: this long, then a bot moves for the seats the table waits on."""

Action = dict[str, Any]


def is_turn(action: Action | None) -> bool:
    """Whether a countdown's action is the turn clock's (not the game's own timer)."""
    return action is not None and "turn" in action and "type" not in action


class Turns:
    def __init__(self) -> None:
        self.nudge: tuple[Action, float] | None = None
        """The host's nudge now on: its action and the seconds it was given."""

    def spec(
        self,
        game: GameBase,
        state: State,
        waiting: list[int],
        here: list[int],
        moves: int,
        left: float | None,
    ) -> tuple[float, Action] | None:
        """The countdown the turn clock wants now, if the game's own timer does not run:
        `waiting` are the seats the table waits on that a person plays, `here` those of them
        whose player is connected (an away one is the grace time's), `moves` the log's
        length, `left` the seconds the running countdown has."""
        if self.nudge is not None:
            action, seconds = self.nudge
            seats = [s for s in action["seats"] if s in waiting]
            if not seats:
                self.nudge = None
            else:
                if seats != action["seats"]:  # one of them is done: the others keep their time
                    action = {**action, "seats": seats}
                    self.nudge = (action, left if left is not None else seconds)
                if not set(seats) & set(here):
                    return None  # nobody of it here: the grace times run, the nudge waits
                return self.nudge[1], action
        turn = game.turn(state) if game.bots else None
        if turn is None:
            return None
        seat, seconds = turn
        if not seconds or seat not in here:
            return None
        return float(seconds), {"turn": "time", "seats": [seat], "move": moves}

    def nudged(self, seats: list[int], version: int, left: float | None) -> Action:
        """The host nudges `seats`: NUDGE_SECONDS, or what a turn time has left if less."""
        seconds = NUDGE_SECONDS if left is None else min(NUDGE_SECONDS, left)
        action = {"turn": "nudge", "seats": list(seats), "at": version}
        self.nudge = (action, seconds)
        return action

    def acted(self, seat: int, left: float | None) -> None:
        """`seat` made a move itself: it is there, so the nudge is off for it; the others
        keep the `left` seconds it had."""
        if self.nudge is not None and seat in self.nudge[0]["seats"]:
            action, seconds = self.nudge
            seats = [s for s in action["seats"] if s != seat]
            self.nudge = ({**action, "seats": seats}, left if left is not None else seconds)

    def resumed(self, action: Action | None, left: float) -> None:
        """A resumed room's saved countdown: a nudge it had goes on."""
        if is_turn(action) and action.get("turn") == "nudge":  # type: ignore[union-attr]
            self.nudge = (dict(action), left)  # type: ignore[arg-type]

    def clear(self) -> None:
        self.nudge = None


def bot_move(
    game: GameBase, state: State, seat: int, strength: str, rng: random.Random
) -> Action | None:
    """The move the game's bot would make for `seat` now (a fresh bot: it plays one move).
    Its view says `turn_clock`: it moves for a player who is at the table, only slow (a
    game's bot may then make the least of moves: Tesauro's speaker, heard aloud, is done)."""
    bot = game.bots[strength]()
    try:
        plan = bot.act({**game.bot_view(state, seat), "turn_clock": True}, seat, rng)
    except Exception:  # a bot's bug must not stop the clock's others
        log.exception("the %s bot failed to move for seat %s", game.id, seat)
        return None
    return plan[1] if plan is not None else None


__all__ = ["NUDGE_SECONDS", "Turns", "bot_move", "is_turn"]
