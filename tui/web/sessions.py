"""Which browser is which: a random id in a cookie, and a state directory of its own for each.

The player app keeps its reconnect token in its state directory (`net.client.TokenStore`).
Each browser gets one, named after its cookie, so the token lives with that browser: a reload,
a phone's tab brought back, or the same QR code scanned again opens the player app on the same
directory, and it takes the seat back by itself. Two browsers are two directories, so two
guests never share a seat, and a guest never sees the host's own tokens.

The directory is named by a hash of the cookie, not the cookie itself: a listing of the
host's state directory does not hand out seats. Directories not used for `MAX_AGE` go, and
there are never more than `KEEP` of them (someone making up cookies fills no disk).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
import time
from pathlib import Path

COOKIE = "hubbub_seat"
MAX_AGE = 12 * 3600
"""Seconds a browser keeps its id, and its directory is kept unused: an evening."""
KEEP = 100
"""Directories kept at most, the most recently used."""
_ID = re.compile(r"[0-9a-f]{32}")


def new_id() -> str:
    return secrets.token_hex(16)  # 128 bits, like the table's own tokens


def valid_id(value: str | None) -> str | None:
    """The cookie's id if it is one of ours in shape, else None."""
    return value if value is not None and _ID.fullmatch(value) else None


class SessionDirs:
    """The browsers' state directories, under one root (the host's state dir)."""

    def __init__(self, root: Path, clock=time.time) -> None:
        self.root = root
        self.clock = clock

    def path(self, session: str) -> Path:
        return self.root / hashlib.sha256(session.encode()).hexdigest()[:32]

    def open(self, session: str) -> Path:
        """The directory of `session`, made if new and marked as used now."""
        path = self.path(session)
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        now = self.clock()
        with contextlib.suppress(OSError):
            os.utime(path, (now, now))
        self.prune(keep=path)
        return path

    def prune(self, keep: Path | None = None) -> None:
        """Forget directories unused for `MAX_AGE`, and all but the `KEEP` newest."""
        try:
            found = [p for p in self.root.iterdir() if p.is_dir()]
        except OSError:
            return
        found.sort(key=_used_at, reverse=True)
        now = self.clock()
        for index, path in enumerate(found):
            if path == keep:
                continue
            if index >= KEEP or now - _used_at(path) > MAX_AGE:
                shutil.rmtree(path, ignore_errors=True)


def _used_at(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
