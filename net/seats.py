"""The parts of a table that outlive a game and a host: its seats, the host's settings, the
room code, the room's own options and the limits a save file is checked against."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import Option
from net.protocol import CODE_LENGTH, DEFAULT_WEB_PORT

MAX_SEATS = 12
MAX_BLOCKED = 256
"""Addresses a save file may keep blocked (a host blocks a stranger or two)."""
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: they read as 1 and 0
HISTORY_KEEP = 200
"""Public events the room remembers (and saves) for the table's "what happened"."""
GRACE = Option("grace", 20, (0, 10, 20, 30, 60, 120))
"""Seconds an away player's seat waits before a bot plays it (0: wait for them)."""
ROOM_OPTIONS: tuple[Option, ...] = (GRACE,)
"""Options of the room itself, beside the game's own; shown in the lobby the same way."""

LANGS = ("ru", "en")


@dataclass
class Seat:
    name: str
    token: str
    bot: str | None = None  # the bot's strength, for a seat the host plays itself
    connected: bool = False
    leaving: bool = False  # left or kicked mid-game: the seat goes when the table is a lobby again
    standin: bool = False  # its player is away past the grace time: the game's bot plays it
    away_since: float | None = None  # monotonic time the connection dropped
    mark: int = 0
    """Its symbol and colour on every screen (0..MAX_SEATS-1), the seat's for the evening: a
    seat removed before it, or a new game, does not change it (the seat's index may)."""

    @property
    def human(self) -> bool:
        return self.bot is None

    def summary(self, now: float, standin_at: float | None) -> dict[str, Any]:
        """The seat as everybody may see it (not its token); `standin_at`: when its grace
        time is over, if it waits for its player."""
        away = self.away_since is not None and not self.connected and self.human
        return {
            "name": self.name,
            "connected": self.connected,
            "bot": self.bot,
            "standin": self.standin,
            "leaving": self.leaving,
            "away_for": round(now - self.away_since, 1) if away else None,
            "standin_in": round(max(0.0, standin_at - now), 1) if standin_at is not None else None,
            "mark": self.mark,
        }


def free_mark(seats: list[Seat]) -> int:
    """The mark a new seat gets: the first no seat at the table has."""
    taken = {seat.mark for seat in seats}
    return next(mark for mark in range(MAX_SEATS) if mark not in taken)  # (a new seat: < 12)


@dataclass
class HostSettings:
    """How the host was started; saved so that `--resume` comes back the same way."""

    port: int | None = None
    interface: str | None = None
    lang: str | None = None
    """The language the host chose (`--lang`); None: the host machine's locale's, guessed —
    then a browser seat speaks its browser's language (`tui.web.gateway`)."""
    advertise: bool = True
    web_port: int | None = DEFAULT_WEB_PORT
    """The browser seats' HTTP port; None: no browser seats (`--no-web`)."""
    blocked: list[str] = field(default_factory=list)
    """The addresses the host turned away (`net.doorman.address_key`): a stranger blocked
    before a crash is still blocked after `--resume`."""


@dataclass
class Claim:
    """Somebody without the seat's token asks for an away seat by its name; the host decides."""

    id: int
    seat: int
    peer: str
    resolve: Callable[[str | None], None] = field(repr=False)
    """Called once with the seat's new token (approved) or None (refused, or gone)."""


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(length))
