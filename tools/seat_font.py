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

The other symbols the screens draw are not in Roboto Mono either — the seats' ● ▲ ■ ◆ ♥ …,
Tally Up!'s ★, the clock's ⏱, ✔, the arrows, the boxes' lines and corners, ░ — and a device's
own fonts drew them wider than the cell (half a ◆ on a phone, the next cell over the rest:
"◂ Бот 2"; every ★ of a die cut in half) or not at all (⏱, blank). So the font has them too,
each inside its cell:

- the box-drawing lines and corners (─ │ ┌ ╭ ━ ┃ ┏ …) and the shades (░ ▒ ▓) drawn here, like
  the blocks: a line through the middle of the cell (the middle of Roboto Mono's line), its
  ends past the cell's edges, so a box's sides meet from row to row whatever its height;
- the stopwatch ⏱ drawn here (no free monospace font has it);
- the rest taken from DejaVu Sans Mono (Debian's fonts-dejavu-core; its licence, Bitstream
  Vera's with the DejaVu changes in the public domain, is in the font's name table, and the
  font has another name, as that licence asks), each scaled down about its middle if it is
  wider than the cell would leave room for a gap between two.

`GLYPHS` and `DRAWN` list every character; the page's `unicode-range` (tui/web/page.html) is
the one `python tools/seat_font.py` prints.

The file is committed: the product does not need fontTools. `tests/tui/test_web_seats.py`
checks the file against Roboto Mono and every glyph the screens draw (the snapshots), and
`tests/e2e/test_browser_glyphs.py` that Chromium draws each inside its cell.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tui" / "web" / "blocks.ttf"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")

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


MIDDLE = y_at(H)  # the middle of the line, where a box's lines run
CENTRE = ADVANCE // 2
LIGHT, HEAVY = 140, 280  # a line's width: light, heavy
Polygon = list[tuple[float, float]]

# the box-drawing characters the screens draw, and those beside them: each one's arms
# (left, right, up, down), 0 none, 1 light, 2 heavy
BOX: dict[int, tuple[int, int, int, int]] = {}
for light, heavy, arms in (
    ("─", "━", (1, 1, 0, 0)), ("│", "┃", (0, 0, 1, 1)), ("┌", "┏", (0, 1, 0, 1)),
    ("┐", "┓", (1, 0, 0, 1)), ("└", "┗", (0, 1, 1, 0)), ("┘", "┛", (1, 0, 1, 0)),
    ("├", "┣", (0, 1, 1, 1)), ("┤", "┫", (1, 0, 1, 1)), ("┬", "┳", (1, 1, 0, 1)),
    ("┴", "┻", (1, 1, 1, 0)), ("┼", "╋", (1, 1, 1, 1)), ("╴", "╸", (1, 0, 0, 0)),
    ("╵", "╹", (0, 0, 1, 0)), ("╶", "╺", (0, 1, 0, 0)), ("╷", "╻", (0, 0, 0, 1)),
):  # fmt: skip
    BOX[ord(light)] = arms
    BOX[ord(heavy)] = tuple(2 * arm for arm in arms)  # type: ignore[assignment]
ARCS = {"╭": (1, -1), "╮": (-1, -1), "╯": (-1, 1), "╰": (1, 1)}
"""A rounded corner: the way its horizontal arm goes (right 1, left -1), and its vertical
one (up 1, down -1)."""
SHADES = {"░": 1, "▒": 2, "▓": 3}  # quarters of the cell inked
FROM_DEJAVU = "←↑→↓⇄⏎■□▣▮▲▶▼◀◆◉○●◂▸★☆☼☾♠♣♥♦⚑✎✓✔✗✖✚"
"""Taken from DejaVu Sans Mono: the seats' symbols, Tally Up!'s stars, marks and arrows."""
EMPTY = "\u2800"  # the braille blank some screens pad with: one cell, nothing drawn
STOPWATCH = "⏱"
GAP = 80  # what a glyph from DejaVu leaves free at each side of the cell at least


def rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return [(x0, y0), (x0, y1), (x1, y1), (x1, y0)]  # clockwise: an outer contour


def box_glyph(arms: tuple[int, int, int, int]) -> list[Polygon]:
    left, right, up, down = arms
    widest = max(arms)
    half = (LIGHT if widest == 1 else HEAVY) / 2  # the arms meet over the widest one's width
    parts = []
    for arm, x0, x1 in ((left, -SIDE, CENTRE + half), (right, CENTRE - half, ADVANCE + SIDE)):
        if arm:
            w = (LIGHT if arm == 1 else HEAVY) / 2
            parts.append(rect(x0, MIDDLE - w, x1, MIDDLE + w))
    for arm, y0, y1 in ((up, MIDDLE - half, ASCENT + PAST), (down, -DESCENT - PAST, MIDDLE + half)):
        if arm:
            w = (LIGHT if arm == 1 else HEAVY) / 2
            parts.append(rect(CENTRE - w, y0, CENTRE + w, y1))
    return parts


def arc_glyph(across: int, along: int) -> list[Polygon]:
    """A light rounded corner: a quarter circle of radius half the cell from the middle of its
    vertical arm's side to the middle of its horizontal arm's, and the arms on to the edges."""
    radius, w = ADVANCE / 2, LIGHT / 2
    cx, cy = CENTRE + across * radius, MIDDLE + along * radius  # the circle's centre
    steps = 12
    start = math.atan2(0.0, -across)  # at the vertical arm: (CENTRE, cy)
    end = math.atan2(-along, 0.0)  # at the horizontal arm: (cx, MIDDLE)
    if end - start > math.pi:
        end -= 2 * math.pi
    elif start - end > math.pi:
        end += 2 * math.pi
    angles = [start + (end - start) * i / steps for i in range(steps + 1)]
    outer = [(cx + (radius + w) * math.cos(a), cy + (radius + w) * math.sin(a)) for a in angles]
    inner = [(cx + (radius - w) * math.cos(a), cy + (radius - w) * math.sin(a)) for a in angles]
    ring = outer + inner[::-1]
    edge = ADVANCE + SIDE if across > 0 else -SIDE
    far = -DESCENT - PAST if along < 0 else ASCENT + PAST
    arms = [
        rect(min(cx, edge), MIDDLE - w, max(cx, edge), MIDDLE + w),
        rect(CENTRE - w, min(cy, far), CENTRE + w, max(cy, far)),
    ]
    return [clockwise(ring), *arms]


def shade_glyph(quarters: int) -> list[Polygon]:
    """░ ▒ ▓: a pattern of squares over the whole cell, a quarter, a half or three quarters."""
    columns, rows = 4, 8
    width, height = ADVANCE / columns, (ASCENT + DESCENT) / rows
    parts = []
    for row in range(rows):
        for column in range(columns):
            x, y = column * width, -DESCENT + row * height
            sparse = row % 2 == 0 and column % 2 == row // 2 % 2  # a quarter of the squares
            inked = {1: sparse, 2: (row + column) % 2 == 0, 3: not sparse}[quarters]
            if inked:
                parts.append(rect(x, y, x + width, y + height))
    return parts


def stopwatch_glyph() -> list[Polygon]:
    """⏱: a ring, its button on top, and its hand."""
    radius, w = ADVANCE * 0.4, 120
    cx, cy = CENTRE, 520  # the middle of DejaVu's ● (the seats' symbols sit alike)
    steps = 32
    around = [2 * math.pi * i / steps for i in range(steps)]
    outer = [(cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in around]
    inner = [(cx + (radius - w) * math.cos(a), cy + (radius - w) * math.sin(a)) for a in around]
    top = cy + radius
    return [
        clockwise(outer),
        clockwise(inner)[::-1],  # counter-clockwise: the hole
        rect(cx - 70, top - 10, cx + 70, top + 110),  # the stem
        rect(cx - 180, top + 110, cx + 180, top + 200),  # the button
        rect(cx - 55, cy - 40, cx + 55, cy + radius - w - 60),  # the hand, at twelve
    ]


def clockwise(points: Polygon) -> Polygon:
    pairs = zip(points, points[1:] + points[:1], strict=True)
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs)
    return points if area < 0 else points[::-1]


def polygons(parts: list[Polygon]):
    pen = TTGlyphPen(None)
    for part in parts:
        pen.moveTo((round(part[0][0]), round(part[0][1])))
        for x, y in part[1:]:
            pen.lineTo((round(x), round(y)))
        pen.closePath()
    return pen.glyph()


def from_dejavu(dejavu: TTFont, char: str):
    """DejaVu Sans Mono's glyph for `char`, inside the cell: as it is if it leaves GAP free
    at each side, else scaled down about its middle until it does."""
    glyphs = dejavu.getGlyphSet()
    name = dejavu.getBestCmap()[ord(char)]
    bounds = BoundsPen(glyphs)
    glyphs[name].draw(bounds)
    assert bounds.bounds is not None, char
    x0, y0, x1, y1 = bounds.bounds
    scale = min(1.0, (ADVANCE - 2 * GAP) / (x1 - x0))
    middle_x, middle_y = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = CENTRE - middle_x * scale, middle_y * (1 - scale)
    recorded = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(recorded)
    pen = TTGlyphPen(None)
    recorded.replay(TransformPen(pen, (scale, 0, 0, scale, dx, dy)))
    return pen.glyph()


def drawn() -> dict[int, object]:
    """Every glyph but the blocks: code point → glyph."""
    out: dict[int, object] = {}
    for code, arms in BOX.items():
        out[code] = polygons(box_glyph(arms))
    for char, (across, along) in ARCS.items():
        out[ord(char)] = polygons(arc_glyph(across, along))
    for char, quarters in SHADES.items():
        out[ord(char)] = polygons(shade_glyph(quarters))
    out[ord(STOPWATCH)] = polygons(stopwatch_glyph())
    out[ord(EMPTY)] = TTGlyphPen(None).glyph()
    if not DEJAVU.exists():
        raise SystemExit(f"{DEJAVU} is missing: apt-get install fonts-dejavu-core")
    dejavu = TTFont(DEJAVU)
    for char in FROM_DEJAVU:
        out[ord(char)] = from_dejavu(dejavu, char)
    return out


def unicode_range(codes: list[int]) -> str:
    """The CSS unicode-range of `codes`: runs joined (U+2580-2590)."""
    runs: list[list[int]] = []
    for code in sorted(codes):
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return ", ".join(f"U+{a:04X}" + (f"-{b:04X}" if b != a else "") for a, b in runs)


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
    others = drawn()
    codes = sorted({*GLYPHS, *others})
    names = [".notdef", "space"] + [f"uni{code:04X}" for code in codes]
    builder = FontBuilder(UPEM, isTTF=True)
    builder.setupGlyphOrder(names)
    cmap = {0x20: "space", **{code: f"uni{code:04X}" for code in codes}}
    builder.setupCharacterMap(cmap)
    glyphs = {".notdef": TTGlyphPen(None).glyph(), "space": TTGlyphPen(None).glyph()}
    glyphs.update({f"uni{code:04X}": glyph(rects) for code, rects in GLYPHS.items()})
    glyphs.update({f"uni{code:04X}": made for code, made in others.items()})
    builder.setupGlyf(glyphs)
    metrics = {}
    for name in names:
        made = builder.font["glyf"][name]
        made.recalcBounds(builder.font["glyf"])
        metrics[name] = (ADVANCE, getattr(made, "xMin", 0))
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=ASCENT, descent=-DESCENT, lineGap=0)
    dejavu = TTFont(DEJAVU)["name"]
    builder.setupNameTable(
        {
            "familyName": "hubbub blocks",
            "styleName": "Regular",
            "copyright": "Glyphs of DejaVu Sans Mono: " + (dejavu.getDebugName(0) or ""),
            "licenseDescription": dejavu.getDebugName(13) or "",
            "licenseInfoURL": dejavu.getDebugName(14) or "",
        }
    )
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
    font = build()
    font.save(OUT)
    codes = [code for code in font.getBestCmap() if code != 0x20]
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, {len(codes)} glyphs")
    print(f"unicode-range: {unicode_range(codes)};")
    return 0


if __name__ == "__main__":
    sys.exit(main())
