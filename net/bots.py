"""The bots' moves at a table: each seat a bot plays has its move on the event loop at the time
its bot chose (times the room's pace), planned again after every change.

The scheduler knows no room: the room says which seats a bot plays and with what strength, and
how a move is made (`act`); a move the rules refuse is planned again by the room."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.base import Bot, GameBase, State

Move = tuple[dict[str, Any], asyncio.TimerHandle, float]
"""A bot's next move: the action, its handle on the loop, and the loop time it is due."""


class BotScheduler:
    def __init__(self, rng: random.Random, pace: float = 1.0) -> None:
        self.rng = rng
        self.pace = pace
        """Multiplies the bots' human-like delays (tests speed them up)."""
        self.moves: dict[int, Move] = {}
        self._bots: dict[int, Bot] = {}

    def plan(
        self,
        game: GameBase,
        state: State,
        strengths: Mapping[int, str | None],
        act: Callable[[int, dict[str, Any]], None],
    ) -> None:
        """Every seat of `strengths` (None: no bot plays it now) asks its bot what next; a new
        move is put on the loop, a move the bot still wants keeps its time — unless it now
        comes sooner by half a (paced) second: the bot need not wait for what it was waiting
        for any more."""
        loop = asyncio.get_running_loop()
        for seat, strength in strengths.items():
            if strength is None:
                self.cancel(seat)
                continue
            bot = self._bots.get(seat)
            if bot is None:
                bot = self._bots[seat] = game.bots[strength]()
            # a game may tell its bots more than the seat's view (never sent anywhere)
            plan = bot.act(game.bot_view(state, seat), seat, self.rng)
            if plan is None:
                self.cancel(seat)
                continue
            delay = plan[0] * self.pace
            due = loop.time() + delay
            scheduled = self.moves.get(seat)
            sooner = due < scheduled[2] - 0.5 * self.pace if scheduled else False
            if scheduled is None or scheduled[0] != plan[1] or sooner:
                self.cancel(seat)
                handle = loop.call_later(delay, self._due, seat, plan[1], act)
                self.moves[seat] = (plan[1], handle, due)

    def _due(self, seat: int, action: dict[str, Any], act: Callable) -> None:
        self.moves.pop(seat, None)
        act(seat, action)

    def cancel(self, seat: int) -> None:
        """The seat's next move is off (its bot is kept: it may remember the game)."""
        move = self.moves.pop(seat, None)
        if move is not None:
            move[1].cancel()

    def forget(self, seat: int) -> None:
        """The seat's bot is gone (its player is back): its move too."""
        self.cancel(seat)
        self._bots.pop(seat, None)

    def forget_all(self) -> None:
        """Every bot goes (the seats were renumbered, or the game ended)."""
        for seat in list(self.moves):
            self.cancel(seat)
        self._bots.clear()
