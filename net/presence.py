"""Grace times: an away player's seat waits this long (a room option) before the game goes
on without them — a stand-in bot plays it, or, in a game without bots, it sits out. A blip
costs no decision.

It knows no room: the room starts a seat's grace when its player's link drops mid-game and
cancels it when they are back; `on_over(seat)` is called when the time is up."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable


class Graces:
    def __init__(self, clock: Callable[[], float], on_over: Callable[[int], None]) -> None:
        self.clock = clock
        self.on_over = on_over
        self.due: dict[int, float] = {}
        """When each waiting seat's grace is over (`clock` time): the seat's summary says how
        long is left."""
        self._handles: dict[int, asyncio.TimerHandle] = {}

    def start(self, seat: int, seconds: float) -> None:
        """`seat` waits `seconds` for its player (0: for as long as it takes). Without a
        running loop (a synchronous test) only the time it is due is noted."""
        self.cancel(seat)
        if not seconds:
            return
        self.due[seat] = self.clock() + seconds
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            self._handles[seat] = loop.call_later(seconds, self._over, seat)

    def _over(self, seat: int) -> None:
        self.due.pop(seat, None)
        self._handles.pop(seat, None)
        self.on_over(seat)

    def cancel(self, seat: int) -> None:
        self.due.pop(seat, None)
        handle = self._handles.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for seat in [*self.due, *self._handles]:
            self.cancel(seat)
