"""File handles: the host takes all it may at start, and its web seats keep off the last ones.

Every connection costs the host a file handle, and a process has a limit (`ulimit -n`: often
1,024 on Linux, 256 on macOS) under a hard limit it may raise itself to. A host that runs out
accepts nobody — the player coming back with his token included. So `hubbub host` raises its
own soft limit to the hard one at start (`raise_file_limit`), and the web seats, which anyone
on the Wi-Fi can reach with no room code, refuse a new connection when fewer than the table's
reserve are left (`Handles`): port 47471 can fill up, port 47470 cannot be starved by it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

try:
    import resource
except ImportError:  # Windows: no such limit to raise, nor a way to count
    resource = None  # type: ignore[assignment]

FILE_LIMIT_CAP = 10240
"""The highest soft limit the host asks for (macOS's OPEN_MAX, where the hard limit says
"unlimited"): far more than a table needs, and no large tables sized by it in the kernel."""
COUNT_EVERY = 0.1
"""Seconds a count of the open handles is trusted (a count costs ~0.4 ms at 1,000 handles);
in between, every connection let in is added to it."""
_FD_DIRS = ("/proc/self/fd", "/dev/fd")


def raise_file_limit(cap: int = FILE_LIMIT_CAP) -> int:
    """Raise this process's soft limit of open files to its hard limit (at most `cap`); the
    limit it has now (or 0 where there is none to raise)."""
    if resource is None:
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = cap if hard == resource.RLIM_INFINITY else min(hard, cap)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):  # refused (a sandbox): the table lives with what it has
        return soft
    return wanted


def file_limit() -> int | None:
    """This process's soft limit of open files (None: no limit, or no way to know)."""
    if resource is None:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def open_handles() -> int | None:
    """How many file handles this process has open now (None: no way to count here)."""
    for folder in _FD_DIRS:
        try:
            return len(os.listdir(folder)) - 1  # (listing the folder opened one)
        except OSError:
            continue
    return None


class Handles:
    """Whether this process still has `reserve` file handles free: counted for real at most
    every COUNT_EVERY seconds, with each handle `took` since added, so a flood of connections
    costs a count ten times a second, not one per connection."""

    def __init__(
        self,
        reserve: int,
        *,
        count: Callable[[], int | None] = open_handles,
        limit: Callable[[], int | None] = file_limit,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reserve = reserve
        self._count = count
        self._limit = limit
        self._clock = clock
        self._counted_at = -COUNT_EVERY
        self._open: int | None = None
        self._since = 0

    def free(self) -> int | None:
        """Handles free now, near enough (None: no limit, or no way to count)."""
        now = self._clock()
        if now - self._counted_at >= COUNT_EVERY:
            self._open, self._since, self._counted_at = self._count(), 0, now
        limit = self._limit()
        if limit is None or self._open is None:
            return None
        return limit - self._open - self._since

    def short(self, needs: int = 1) -> bool:
        """True when taking `needs` more handles would leave fewer than the reserve."""
        free = self.free()
        return free is not None and free - needs < self.reserve

    def took(self, n: int = 1) -> None:
        """`n` handles were just opened (counted until the next real count)."""
        self._since += n
