"""Untrusted text on screen: shown literally, never as markup, never with control characters."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.segment import Segment
from rich.text import Text
from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions

from net.protocol import NAME_MAX, clean_text


def literal(text: str, limit: int = 300, style: str = "") -> Text:
    """A Rich Text that renders `text` exactly as typed: `[bold]x` stays `[bold]x`."""
    return Text(clean_text(str(text), limit), style=style)


def name(text: str, style: str = "") -> Text:
    return literal(text, NAME_MAX, style)


SEAT_COLOURS = (
    "#ff5f5f",  # red
    "#5fafff",  # blue
    "#ffd75f",  # yellow
    "#5fd75f",  # green
    "#d787ff",  # violet
    "#ff9f3f",  # orange
    "#5fe0e0",  # cyan
    "#ff87c7",  # pink
    "#b5e61d",  # lime
    "#d7af87",  # tan
    "#9f9fff",  # periwinkle
    "#f0f0f0",  # white
)
SEAT_SYMBOLS = ("●", "▲", "■", "◆", "♥", "♣", "♠", "✚", "▼", "✖", "◉", "♦")
"""Each seat's own colour and symbol, the same on every screen: both come from the seat's
number alone, so the host, every player and every watcher draw the same ones without being
told. Never colour alone: the symbol tells seats apart for a colour-blind eye and on a
monochrome terminal. Twelve of each: a room has at most twelve seats."""


def marks_of(room: dict[str, Any] | None) -> list[int]:
    """Each seat's mark (its symbol and colour, kept for the evening: the room's `mark`), by
    the seat's index now."""
    seats = (room or {}).get("seats") or []
    return [seat.get("mark", index) for index, seat in enumerate(seats)]


def _mark(seat: int, marks: Sequence[int] | None) -> int:
    """The seat's mark (`marks`, by seat index: `marks_of(room)`), or without them its index."""
    if marks is not None and 0 <= seat < len(marks):
        seat = marks[seat]
    return seat % len(SEAT_SYMBOLS) if seat >= 0 else 0


def seat_colour(seat: int, marks: Sequence[int] | None = None) -> str:
    """The seat's colour — its mark's."""
    return SEAT_COLOURS[_mark(seat, marks)]


def seat_mark(seat: int, marks: Sequence[int] | None = None) -> Text:
    """The seat's symbol in its colour, e.g. a red ● — its mark's."""
    index = _mark(seat, marks)
    mark = Text()
    mark.append(SEAT_SYMBOLS[index], style=f"bold {SEAT_COLOURS[index]}")
    return mark


def marked(seat: int, text: str, style: str = "", marks: Sequence[int] | None = None) -> Text:
    """The seat's mark and then its player's name (literal), e.g. "▲ Boris"."""
    out = seat_mark(seat, marks)
    out.append(" ")
    out.append_text(name(text, style))
    return out


def hanging(text: Text, width: int, indent: int) -> Text:
    """`text` wrapped to `width` columns, every line after the first `indent` columns in (a
    name shown whole beside its mark, its second line under its first)."""
    from rich.console import Console  # (only a name too long for its line comes here)

    lines = [line.rstrip() or line for line in text.wrap(Console(), max(1, width))]
    return Text("\n" + " " * indent).join(lines)


UNBROKEN_SPACE = "\u2800"
"""The blank inside an `unbroken` phrase while a line is laid out, never drawn: Rich and
Textual wrap at every Unicode space, the no-break space too, and never at this Braille blank,
which is no space to them. A widget draws it as an ordinary space (`drawn`; `put` does it for
every screen), so a copy, a screen reader and a browser seat's font get a plain space."""


def unbroken(text: str) -> str:
    """`text` kept on one line where a line wraps ("⏱ 17 s", "to 500", "Bot 2"): its spaces
    made `UNBROKEN_SPACE`s, which `drawn` shows as spaces again."""
    return text.replace(" ", UNBROKEN_SPACE)


_NUMBERED = re.compile(r"(\S+) (\d+)\b")


def numbers_kept(text: str) -> str:
    """`text` with each word and the number after it `unbroken` ("Bot 1", "turn 3", "to
    500"): a line of names wrapped "Остаются IN: Бот 1, Бот" over "2." at 80×24."""
    return _NUMBERED.sub(rf"\1{UNBROKEN_SPACE}\2", text)


def _spaced(strip: Strip) -> Strip:
    if UNBROKEN_SPACE not in strip.text:
        return strip
    segments = [
        Segment(segment.text.replace(UNBROKEN_SPACE, " "), segment.style, segment.control)
        for segment in strip
    ]
    return Strip(segments, strip.cell_length)


class Unbroken(Content):
    """Content with `unbroken` phrases: laid out with each phrase as one word (a line breaks
    before it or after it, never inside), drawn — and copied — with ordinary spaces."""

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        return [_spaced(strip) for strip in super().render_strips(width, height, style, options)]

    def __str__(self) -> str:  # (what a selection copies)
        return self.plain.replace(UNBROKEN_SPACE, " ")


def drawn(content: Any) -> Any:
    """`content` as a widget is to draw it: a Text (or Content) holding an `unbroken` phrase
    as `Unbroken` content; anything else as it is."""
    if isinstance(content, Unbroken):
        return content
    if isinstance(content, Text) and UNBROKEN_SPACE in content.plain:
        content = Content.from_rich_text(content)
    if isinstance(content, Content) and UNBROKEN_SPACE in content.plain:
        return Unbroken(content.plain, list(content.spans), content.cell_length)
    return content


def number(value: Any) -> str:
    """A number as printed: a negative one with a real minus sign (−30, as the Up Die's
    −100 and every text of the catalogues say it), not a hyphen."""
    if type(value) in (int, float) and value < 0:
        return "\u2212" + str(-value)
    return str(value)


def sentence(text: str) -> str:
    """A line for the story, ended as a sentence: "The game is T-Rex." but "… Tally Up!"."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."
