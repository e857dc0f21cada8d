"""Untrusted text on screen: shown literally, never as markup, never with control characters."""

from __future__ import annotations

from rich.text import Text

from net.protocol import NAME_MAX, clean_text


def literal(text: str, limit: int = 300, style: str = "") -> Text:
    """A Rich Text that renders `text` exactly as typed: `[bold]x` stays `[bold]x`."""
    return Text(clean_text(str(text), limit), style=style)


def name(text: str, style: str = "") -> Text:
    return literal(text, NAME_MAX, style)
