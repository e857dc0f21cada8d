"""The game's countdown on the event loop: the action the HOST seat applies when a game's
time runs out (`Game.timer`), and the time left, journalled as it runs so that a resumed host
goes on where it was.

It knows no room: the room arms it after every change with what the game says now, and is
called back when the time is up (`on_expire`) and every CLOCK_EVERY seconds while it runs
(`on_tick`, to journal the time left)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

CLOCK_EVERY = 1.0
"""While a countdown runs, its time left is journalled this often: a resumed one goes on
from where it was, within this much."""

Action = dict[str, Any]


class Countdown:
    def __init__(
        self, on_expire: Callable[[Action], None], on_tick: Callable[[Action, float], None]
    ) -> None:
        self.on_expire = on_expire
        self.on_tick = on_tick
        self.action: Action | None = None
        """The action this countdown ends with (None: none runs)."""
        self.deadline: float | None = None
        """The loop time it ends."""
        self.resumed: tuple[Action, float] | None = None
        """A saved countdown (its action, the seconds it had left) that has not gone on yet:
        after a crash it waits for its players, whose apps take seconds to find the table."""
        self._handle: asyncio.TimerHandle | None = None
        self._tick: asyncio.TimerHandle | None = None

    def seconds_left(self) -> float | None:
        if self.deadline is None:
            return None
        with contextlib.suppress(RuntimeError):
            return max(0.0, self.deadline - asyncio.get_running_loop().time())
        return None

    def arm(self, spec: tuple[float, Action] | None, *, players_back: bool) -> None:
        """What the game says now: (seconds, action), or None. The same action goes on with
        the time it had; a new one starts afresh. A resumed countdown goes on where it was,
        once a player is back (`players_back`). Without a running loop (a synchronous test)
        nothing is armed: timers are applied by hand."""
        if spec is None:
            self.cancel()
            return
        seconds, action = spec
        if self._handle is not None and action == self.action:
            return  # the same countdown goes on
        self.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self.resumed is not None:
            if not players_back:
                return
            saved, left = self.resumed
            self.resumed = None
            if saved == action:
                seconds = min(seconds, left)
        self.action = action
        self._handle = loop.call_later(seconds, self._expired, action)
        self.deadline = loop.time() + seconds
        self._told()

    def _told(self) -> None:
        """The time left, to the journal: now, and every CLOCK_EVERY seconds while it runs."""
        self._tick = None
        left = self.seconds_left()
        if self._handle is None or left is None or self.action is None:
            return
        self.on_tick(self.action, left)
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            self._tick = loop.call_later(min(CLOCK_EVERY, left), self._told)

    def _expired(self, action: Action) -> None:
        self.cancel()
        self.on_expire(action)

    def expire(self) -> None:
        """Its time is up now, without waiting (a test's)."""
        if self.action is not None:
            self._expired(self.action)

    def cancel(self) -> None:
        for handle in (self._handle, self._tick):
            if handle is not None:
                handle.cancel()
        self._handle = self._tick = None
        self.action = None
        self.deadline = None

    def saved(self) -> dict[str, Any] | None:
        """What the save file keeps of it: `{"for": action, "left": seconds}`, or None."""
        if self.action is not None and (left := self.seconds_left()) is not None:
            return {"for": self.action, "left": left}
        if self.resumed is not None:  # still waiting for its players: as it was
            return {"for": self.resumed[0], "left": self.resumed[1]}
        return None
