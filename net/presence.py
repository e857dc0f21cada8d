"""Grace times: an away player's seat waits this long (a room option, default 20 s; 0 = wait
for them) before the game goes on without them, and nothing else changes meanwhile: a blip
costs no decision. When it is over, a game with bots has its bot play the seat (a *stand-in*)
until the player is back; a game without bots (T-Rex) is told `away {seat}` and goes on
without them, and `back` when they return. A player who leaves mid-game (`bye`) or is kicked
gives the seat to a bot for the rest of the game (or, without bots, sits it out); such a seat
goes when the table returns to the lobby.

It knows no room: the room starts a seat's grace when its player's link drops mid-game and
cancels it when they are back; `on_over(seat)` is called when the time is up. `Comings` tells
the links' comings and goings to the table, a few together."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Callable
from typing import Any


class Graces:
    def __init__(self, clock: Callable[[], float], on_over: Callable[[int], None]) -> None:
        self.clock = clock
        self.on_over = on_over
        self._waiting: dict[int, tuple[float, asyncio.TimerHandle | None]] = {}
        """seat -> when its grace is over (`clock` time) and the timer that says so (None:
        no loop ran to arm one)."""

    def start(self, seat: int, seconds: float) -> None:
        """`seat` waits `seconds` for its player (0: for as long as it takes). Without a
        running loop (a synchronous test) only the time it is due is noted."""
        self.cancel(seat)
        if not seconds:
            return
        handle = None
        with contextlib.suppress(RuntimeError):
            handle = asyncio.get_running_loop().call_later(seconds, self._over, seat)
        self._waiting[seat] = (self.clock() + seconds, handle)

    def due(self, seat: int) -> float | None:
        """When `seat`'s grace is over (`clock` time), or None: the seat's summary says how
        long is left."""
        waiting = self._waiting.get(seat)
        return waiting[0] if waiting is not None else None

    def _over(self, seat: int) -> None:
        self._waiting.pop(seat, None)
        self.on_over(seat)

    def cancel(self, seat: int) -> None:
        _, handle = self._waiting.pop(seat, (None, None))
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for seat in list(self._waiting):
            self.cancel(seat)


PRESENCE_DELAY = 0.25
"""Comings and goings of links are told to the table at most this late, together."""


class Comings:
    """Someone's link came or went: the first in a while is told at once (a player who joins
    or comes back is on every screen straight away); after it, the others are told within
    PRESENCE_DELAY, in one view for however many there were (a laptop in a reconnect loop
    costs the table a few views a second, not one per connect and one per drop). `tell()`
    makes the room's change, which `take`s the events waiting."""

    def __init__(self, clock: Callable[[], float], tell: Callable[[], None]) -> None:
        self.clock = clock
        self.tell = tell
        self._waiting: list[dict[str, Any]] = []
        self._flush: asyncio.TimerHandle | None = None
        self._told = -math.inf  # clock() of the last presence-only view

    def add(self, events: list[dict[str, Any]]) -> None:
        self._waiting += events
        if self._flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.tell()  # no loop (a synchronous test): at once
            return
        wait = self._told + PRESENCE_DELAY - self.clock()
        if wait <= 0:
            self._tell_now()
        else:
            self._flush = loop.call_later(wait, self._tell_now)

    def _tell_now(self) -> None:
        self._told = self.clock()
        self.tell()

    def take(self) -> list[dict[str, Any]]:
        """The events waiting (a change is being told: they go with it)."""
        self.cancel()
        waiting, self._waiting = self._waiting, []
        return waiting

    def cancel(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
