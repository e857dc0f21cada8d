"""Builds `tui/web/blocks.ttf`, the web seat's font for the block elements (▀ ▄ █, the eighths
▁…▇ and ▏…▉, the quadrants): each glyph a rectangle of the terminal's cell, so big letters,
Tally Up!'s bars and the like are whole in a browser as in a terminal.

Why: the page's terminal (xterm.js, its DOM renderer) draws each line as text in Roboto Mono,
which has no block elements, so the browser took them from whatever monospace font the device
has. Such a glyph is that font's size, set on Roboto Mono's baseline: it starts below the top
of xterm's cell or sticks out of it, where the line (overflow hidden) cuts it — the top row of
a word in big letters cut or striped, depending on the device.

These glyphs have Roboto Mono's vertical metrics (so they share its baseline and the middle of
the line) and its advance. A half block splits the cell at the middle of Roboto Mono's line,
which is the middle of xterm's row whatever its height: the outer edges go on past the cell
(the row clips them), so a row taller or shorter than the font's own line is filled all the
same, and a block ends where the next line's begins.

    python tools/seat_font.py   # needs fontTools: pip install fonttools (a venv of its own)

The file is committed: the product does not need fontTools. `tests/tui/test_web_seats.py`
checks the file against Roboto Mono and the glyphs the screens draw.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tui" / "web" / "blocks.ttf"

UPEM = 2048
ASCENT, DESCENT = 2146, 555  # Roboto Mono's (hhea, typo and win alike), in its 2048 units
ADVANCE = 1229  # Roboto Mono's: 0.6 em
PAST = 512  # how far an outer edge goes past the cell (a row up to half an em taller)
SIDE = 24  # and past its sides: no seam between two cells at a fractional place

# each glyph: rectangles (left, bottom, right, top) in eighths of the cell, from its
# bottom-left corner (the descent) to its top-right (the ascent and the advance)
H = 4  # a half
QUADRANTS = {"ul": (0, H, H, 8), "ur": (H, H, 8, 8), "ll": (0, 0, H, H), "lr": (H, 0, 8, H)}
GLYPHS: dict[int, list[tuple[int, int, int, int]]] = {
    0x2580: [(0, H, 8, 8)],  # ▀ upper half
    **{0x2580 + n: [(0, 0, 8, n)] for n in range(1, 9)},  # ▁ ▂ ▃ ▄ ▅ ▆ ▇ █ lower eighths
    **{0x2588 + n: [(0, 0, 8 - n, 8)] for n in range(1, 8)},  # ▉ ▊ ▋ ▌ ▍ ▎ ▏ left eighths
    0x2590: [(H, 0, 8, 8)],  # ▐ right half
    0x2594: [(0, 7, 8, 8)],  # ▔ upper eighth
    0x2595: [(7, 0, 8, 8)],  # ▕ right eighth
}
for code, parts in {
    0x2596: "ll", 0x2597: "lr", 0x2598: "ul", 0x2599: "ul ll lr", 0x259A: "ul lr",
    0x259B: "ul ur ll", 0x259C: "ul ur lr", 0x259D: "ur", 0x259E: "ur ll", 0x259F: "ur ll lr",
}.items():  # fmt: skip
    GLYPHS[code] = [QUADRANTS[q] for q in parts.split()]


def x_at(eighth: int) -> int:
    return {0: -SIDE, 8: ADVANCE + SIDE}.get(eighth, round(ADVANCE * eighth / 8))


def y_at(eighth: int) -> int:
    # the middle (4) is the middle of the line: (ascent - descent) / 2 above the baseline
    edge = {0: -DESCENT - PAST, 8: ASCENT + PAST}
    return edge.get(eighth, round(-DESCENT + (ASCENT + DESCENT) * eighth / 8))


def glyph(rects: list[tuple[int, int, int, int]]):
    pen = TTGlyphPen(None)
    for left, bottom, right, top in rects:
        x0, y0, x1, y1 = x_at(left), y_at(bottom), x_at(right), y_at(top)
        pen.moveTo((x0, y0))  # clockwise: an outer contour in TrueType
        pen.lineTo((x0, y1))
        pen.lineTo((x1, y1))
        pen.lineTo((x1, y0))
        pen.closePath()
    return pen.glyph()


def build() -> TTFont:
    names = [".notdef", "space"] + [f"uni{code:04X}" for code in sorted(GLYPHS)]
    builder = FontBuilder(UPEM, isTTF=True)
    builder.setupGlyphOrder(names)
    cmap = {0x20: "space", **{code: f"uni{code:04X}" for code in GLYPHS}}
    builder.setupCharacterMap(cmap)
    glyphs = {".notdef": TTGlyphPen(None).glyph(), "space": TTGlyphPen(None).glyph()}
    glyphs.update({f"uni{code:04X}": glyph(rects) for code, rects in GLYPHS.items()})
    builder.setupGlyf(glyphs)
    metrics = {name: (ADVANCE, 0) for name in names}
    for code, rects in GLYPHS.items():
        metrics[f"uni{code:04X}"] = (ADVANCE, min(x_at(r[0]) for r in rects))
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=ASCENT, descent=-DESCENT, lineGap=0)
    builder.setupNameTable({"familyName": "hubbub blocks", "styleName": "Regular"})
    builder.setupOS2(
        sTypoAscender=ASCENT, sTypoDescender=-DESCENT, sTypoLineGap=0,
        usWinAscent=ASCENT, usWinDescent=DESCENT, achVendID="HBBB",
        xAvgCharWidth=ADVANCE, fsSelection=0x40,  # regular
    )  # fmt: skip
    builder.setupPost(isFixedPitch=1)
    font = builder.font
    font["head"].created = font["head"].modified = 0  # the same file every time
    font.recalcTimestamp = False
    return font


def main() -> int:
    build().save(OUT)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(GLYPHS)} glyphs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
