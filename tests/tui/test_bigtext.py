"""The big font's glyphs keep one rule, so a word in big letters stands on one line: «ДА»'s Д
had its foot a row up (a descender, and the font has no row for one) and stood off the line."""

from __future__ import annotations

import re

import pytest

from tui.bigtext import FONT, big

pytestmark = pytest.mark.timeout(30)

ROWS = 5
PUNCTUATION = set("-'’.,:!?()+ ")
"""Characters with a place of their own in the rows (a dash in the middle, a comma at the
bottom): only the grid's rule holds them."""


def _lifted(above: str, bottom: str) -> bool:
    """Whether a stroke of three or more pixels on the row above the baseline is the letter's
    floor lifted off the line: the bottom row neither continues it as a foot (a stroke at
    least as long) nor as a stem from its middle (Ф), only at its ends or beyond (Д's legs,
    Ц's tail: descenders, drawn a row too high)."""
    foot = max((len(m) for m in re.findall("#+", bottom)), default=0)
    for stroke in re.finditer("#{3,}", above):
        first, last = stroke.start(), stroke.end() - 1
        stem = any(bottom[i] == "#" for i in range(first + 1, last))
        if foot < last - first + 1 and not stem:
            return True
    return False


@pytest.mark.parametrize("char", sorted(FONT))
def test_every_glyph_keeps_the_font_s_grid(char):
    rows = FONT[char]
    assert len(rows) == ROWS, f"{char!r}: {len(rows)} rows"
    assert len({len(row) for row in rows}) == 1 and rows[0], f"{char!r}: ragged rows {rows}"
    assert set("".join(rows)) <= {"#", "."}, f"{char!r}: {rows}"


@pytest.mark.parametrize("char", sorted(set(FONT) - PUNCTUATION))
def test_every_letter_and_digit_stands_on_the_baseline(char):
    """Five pixels high, top row to bottom row; no empty column at an edge (the gap between
    letters is `big`'s); and its floor on the baseline, not a row above it (`_lifted`)."""
    rows = FONT[char]
    assert "#" in rows[0] and "#" in rows[-1], f"{char!r} is not {ROWS} pixels high: {rows}"
    columns = ["".join(row[i] for row in rows) for i in range(len(rows[0]))]
    assert "#" in columns[0] and "#" in columns[-1], f"{char!r}: an empty edge column {rows}"
    assert not _lifted(rows[-2], rows[-1]), f"{char!r} stands a row off the line: {rows}"


def test_da_stands_on_one_line():
    """The bottom line of «ДА» is where both letters end: Д's foot beside А's legs."""
    lines = big("ДА")
    assert lines is not None
    da, a = lines[-1][:5], lines[-1][6:]
    assert da == "▀▀▀▀▀" and a == "▀ ▀", lines


@pytest.mark.parametrize(("char", "rising"), [("N", False), ("И", True), ("Й", True)])
def test_a_diagonal_runs_over_three_rows(char, rising):
    """N, И and Й are told from H/Н by their diagonal alone: drawn over two rows in the middle,
    it merged into Н's crossbar, and «ГЕНИЙ» read «ГЕННА» across the room. Between the stems
    it takes three rows or more, one pixel a column, rising to the right for И and Й (the
    mirror of N)."""
    rows = FONT[char]
    top = next(r for r, row in enumerate(rows) if row[0] == "#")  # below Й's breve
    inner = [
        [r for r, row in enumerate(rows) if r >= top and row[c] == "#"]
        for c in range(1, len(rows[0]) - 1)
    ]
    assert all(len(col) == 1 for col in inner), f"{char!r}: {rows}"
    path = [col[0] for col in inner]
    assert len(set(path)) >= 3, f"{char!r}: the diagonal takes rows {path}"
    assert path == sorted(path, reverse=rising), f"{char!r}: the diagonal {path}"
