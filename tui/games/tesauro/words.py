"""The small words of Tesauro's screens, for the table and the hands alike: how a seat, a
tile, a role and the time left are said, and the sizes both screens go by."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from games.tesauro import CATEGORIES
from net.protocol import clean_text
from tui.i18n import t

SPANISH = {"sapiente": "Sapiente", "brillante": "Brillante", "orate": "Orate"}
"""The published game's role names, shown beside ours in both languages."""

MAX_TEXT = 300
HURRY_SECONDS = 10  # the clock turns red
BIG_HEIGHT = 30  # a table this tall shows everything at once


def span(text: str, style: str = "") -> Text:
    """A Text whose style covers only itself: what is appended to it keeps its own."""
    out = Text()
    out.append(text, style=style)
    return out


def who(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def joined(names: list[str], seats: list[int]) -> str:
    return ", ".join(who(names, s) for s in seats)


def category_name(category: Any) -> str:
    return t(f"tesauro.category.{category}") if category in CATEGORIES else "—"


def role_name(role: Any) -> str:
    return t(f"tesauro.role.{role}") if role in SPANISH else ""


def clock(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def hurried(seconds: float) -> bool:
    """The last seconds: from the moment the clock shows 0:10."""
    return max(0, round(seconds)) <= HURRY_SECONDS


def quoted(text: Any, limit: int = MAX_TEXT) -> str:
    """A dictionary word or a player's text, cleaned for a sentence (the feed shows it as is)."""
    return clean_text(str(text), limit)
