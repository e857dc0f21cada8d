"""The web seat's address as a QR code drawn in text, so a phone's camera can read it off the
table's screen.

Two modules per character cell, one above the other (the half blocks ▀ ▄ █ and a space):
terminal cells are about twice as tall as wide, so a module comes out square, and the code of
a LAN address (version 2 or 3) with its quiet zone takes at most 33 columns by 17 lines — it
fits a dialog at 80×24. The colours
are fixed black on white, whatever the theme: a scanner wants dark modules on a light ground,
and the quiet zone must be light too (the screen around it is dark).
"""

from __future__ import annotations

import segno
from rich.style import Style
from rich.text import Text

QUIET = 2
"""Light modules around the code. The standard asks for 4; 2 is what phones and zbar need in
practice, and it keeps the dialog inside 24 lines."""

_CELLS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
"""(top dark, bottom dark) -> the character drawn in black on white."""
INK = Style(color="#000000", bgcolor="#ffffff")


def matrix(address: str, quiet: int = QUIET) -> list[list[bool]]:
    """The code's modules, row by row (True: dark), with the quiet zone around them. Error
    correction M at least (segno raises it while the version stays the same): a screen seen
    at an angle, with a glare, still reads."""
    code = segno.make(address, error="m", micro=False)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=quiet)]


def qr_lines(address: str, quiet: int = QUIET) -> list[str]:
    """The code as lines of half blocks, two module rows per line (an odd last row pairs with
    a light one)."""
    rows = matrix(address, quiet)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return [
        "".join(_CELLS[top, bottom] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(rows[::2], rows[1::2], strict=True)
    ]


def qr_text(address: str, quiet: int = QUIET) -> Text:
    """The code, ready for a Static."""
    return Text("\n".join(qr_lines(address, quiet)), style=INK, no_wrap=True, end="")


def read_lines(lines: list[str]) -> list[list[bool]]:
    """The modules back from drawn lines: what a test compares with `matrix`."""
    cells = {char: dark for dark, char in _CELLS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [cells[char] for char in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows
