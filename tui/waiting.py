"""Waiting for a state, never for a time: the one `until` of the tests, the scenes and the tools."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def until(
    test: Callable[[], Any],
    pilot: Pilot | None = None,
    timeout: float = 10.0,
    *,
    what: str = "the state the test waits for",
    wake: asyncio.Event | None = None,
) -> Any:
    """Poll `test` until it is true and return what it returned; fail (an AssertionError
    naming `what`) after `timeout` seconds, which only a broken state should ever reach.

    Between two polls the world moves on: an app's `pilot` pauses (its messages handled, its
    screen refreshed); `wake`, an event set on every change a test can see (a message read),
    is awaited; otherwise a short sleep lets the event loop run."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (result := test()):
        left = deadline - loop.time()
        if left <= 0:
            where = f" (the app on {pilot.app.screen!r})" if pilot is not None else ""
            raise AssertionError(f"never got to {what} in {timeout} s{where}")
        if pilot is not None:
            await pilot.pause(0.01)
        elif wake is not None:
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), min(left, 0.5))
        else:
            await asyncio.sleep(0.005)
    return result
