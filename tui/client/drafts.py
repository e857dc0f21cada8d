"""What a player has typed or chosen and not sent yet, kept on disk for the next player app.

A laptop's player app lives through a lost table: when the host is killed and resumed, its
link comes back and the hand is as it was — a Tesauro definition half typed, the Sage's
question still open, Tally Up! dice picked and not confirmed. A browser seat's player app is
the host's child and goes with it; the page's new app, on the same browser's state directory
(`tui.web.sessions`), would come back to an empty hand. So a web seat's app keeps that
unsent state in one small file of its own directory (0600, in a 0700 directory no other
browser's app reads), written a moment after it changes, and the next app of that browser
reads it back once, when it is at the very same moment of the same game: the same table,
room and seat (checked here), the same turn and card (checked by the hand,
`HandWidget.restore`). Sent, or the moment gone (a new turn, the lobby, the results), the
file goes. Nothing of it is logged or sent anywhere.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

from net.savefile import write_atomically

FILE = "draft.json"
DELAY = 0.3
"""Seconds after a change at which it is written: a typist writes once a pause, not a key."""
MAX_AGE = 12 * 3600
"""A draft older than this is never restored (a browser's directory lives as long)."""
MAX_BYTES = 16 * 1024
"""A draft file larger than this is not ours: never read."""


class Drafts:
    """One seat's unsent state, in `path` (a web seat's own state directory's FILE)."""

    def __init__(self, path: Path, clock=time.time) -> None:
        self.path = path
        self.clock = clock

    def load(self) -> dict[str, Any] | None:
        """The record kept, or None (none, unreadable, or too old)."""
        try:
            if self.path.stat().st_size > MAX_BYTES:
                return None
            record = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(record, dict) or not isinstance(record.get("at"), (int, float)):
            return None
        if not 0 <= self.clock() - record["at"] <= MAX_AGE:
            return None
        return record

    def save(self, record: dict[str, Any] | None) -> None:
        """Keep `record` (None: forget what was kept)."""
        if record is None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            return
        data = json.dumps({**record, "at": self.clock()}, ensure_ascii=False).encode("utf-8")
        if len(data) > MAX_BYTES:
            return
        with contextlib.suppress(OSError):
            write_atomically(self.path, data, mode=0o600, sync=False)


def matches(record: dict[str, Any] | None, place: dict[str, Any]) -> dict[str, Any] | None:
    """The hand's part of `record` if it was kept at `place` (table, room, seat, game), else
    None."""
    if record is None or any(record.get(key) != value for key, value in place.items()):
        return None
    hand = record.get("hand")
    return hand if isinstance(hand, dict) else None
