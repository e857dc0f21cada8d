"""Big letters are whole in a browser: the web seat's page (the real gateway, page and
textual.js, in Debian's Chromium) draws the block elements ▀ ▄ █ each filling its part of the
cell, as a terminal does — on a phone (touch, device scale 3) and on a laptop (no touch: its
terminal, here, measures its cells before Roboto Mono has loaded, rows of 18 px, not 21).

The play-test's "the top row of BABBLER is cut": Roboto Mono has no block elements, so the
browser took them from the device's own monospace font, whose glyphs are that font's height
on Roboto Mono's baseline — off the cell, the row (overflow hidden) cutting what sticks out,
and a stripe of background above each line of big letters. The page has a font of its own for
them now (`tui/web/blocks.ttf`, `tools/seat_font.py`).

The player app is a stand-in that paints a screen (a bar, then BABBLER in big letters on a
panel, as Tesauro's role banner draws it), so the test needs no table and no tmux.
"""

from __future__ import annotations

import asyncio
import base64
import math
import sys
import time

import pytest

from tests.e2e.browser import CHROMIUM, PHONE, WAIT, Page, chromium, png_pixels
from tui.bigtext import big
from tui.web.gateway import WebSeats

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
    pytest.mark.timeout(90),
]

INK, PAPER, BAR = (255, 255, 255), (0, 36, 82), (36, 47, 56)  # the role banner's colours
WORD = "BABBLER"

PAINTER = """
import base64, os, sys
screen = base64.b64decode(sys.argv[1])
sys.stdout.buffer.write(b"__GANGLION__\\n")
sys.stdout.buffer.write(b"D" + len(screen).to_bytes(4, "big") + screen)
sys.stdout.buffer.flush()
while True:
    data = os.read(0, 4096)
    if not data or b'"quit"' in data:
        break
"""


def screen() -> bytes:
    """A bar (the header), then the word in big letters, bold, ink on paper, a plain line."""

    def colour(kind: int, rgb: tuple[int, int, int]) -> str:
        return f"\x1b[{kind};2;{rgb[0]};{rgb[1]};{rgb[2]}m"

    bar = colour(48, BAR) + colour(38, INK) + "  hubbub".ljust(40) + "\x1b[0m"
    panel = colour(48, PAPER) + colour(38, INK) + "\x1b[1m"
    lines = [f"{panel} {line.ljust(39)}\x1b[0m" for line in big(WORD) or []]
    body = "\r\n".join([bar, *lines, f"{panel} Invent a definition.".ljust(40) + "\x1b[0m"])
    return ("\x1b[?25l\x1b[2J\x1b[H" + body).encode()


async def until(test, what: str) -> None:
    """Until `test()` (awaited) is true, for WAIT seconds at most."""
    deadline = time.monotonic() + WAIT
    while not await test():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


class PaintedSeats(WebSeats):
    """The real server; the player app it starts paints `screen()` and waits."""

    def argv(self, lang: str) -> list[str]:
        return [sys.executable, "-c", PAINTER, base64.b64encode(screen()).decode()]


LAPTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 2}


@pytest.mark.parametrize("device", ["phone", "laptop"])
async def test_big_letters_fill_their_cells_in_the_browser(device, tmp_path):
    seats = PaintedSeats(("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web")
    port = await seats.start("127.0.0.1", 0)
    try:
        async with chromium() as browser:
            context = await browser.new_context(**(PHONE if device == "phone" else LAPTOP))
            page = await Page.open(context, f"http://127.0.0.1:{port}")
            top = big(WORD)[0]  # type: ignore[index]
            await page.wait_text(top)
            await until(lambda: page.page.evaluate(SHOWN), "the terminal faded in (0.3 s)")
            await page.page.evaluate(SETTLED)
            lines = await page.lines()
            row = next(i for i, line in enumerate(lines) if top in line)
            shots = tmp_path / "shots"
            shots.mkdir()
            await page.page.screenshot(path=str(shots / f"{device}.png"))
            wrong = []
            for line in (row, row + 1, row + 2):  # every line of the word, the top one first
                for glyph in "█▀▄":
                    if glyph in lines[line]:
                        column = lines[line].index(glyph)
                        wrong += await cell_faults(page, line, column, glyph)
            said = "\n".join(wrong)
            assert not wrong, f"{device}: block elements off their cells ({shots}):\n{said}"
            assert page.outside == [] and page.errors == [], page.outside + page.errors
    finally:
        await seats.close()


SHOWN = "() => getComputedStyle(document.getElementById('terminal')).opacity === '1'"

SETTLED = """async () => {
  await document.fonts.load("bold 16px 'Roboto Mono'", "▀▄█");  // whatever face has them
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""
"""The page's fonts loaded, whichever draws the blocks, and a frame painted with them."""

CELL_BOX = """([row, column]) => {
  const line = document.querySelectorAll('#terminal .xterm-rows > div')[row];
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  let left = column;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (left < node.length) {
      const range = document.createRange();
      range.setStart(node, left);
      range.setEnd(node, left + 1);
      const cell = range.getBoundingClientRect(), box = line.getBoundingClientRect();
      return [cell.left, box.top, cell.width, box.height];
    }
    left -= node.length;
  }
  throw new Error("no such column");
}"""
"""A cell of the terminal, as the page lays it out: its character's left and width, its row's
top and height."""

INKED = {"█": (0.0, 1.0), "▀": (0.0, 0.5), "▄": (0.5, 1.0)}
"""The part of the cell's height each glyph covers, from its top."""


async def cell_faults(page: Page, row: int, column: int, glyph: str) -> list[str]:
    """Where the cell's middle column is not what `glyph` draws in a terminal: ink over
    exactly its part of the cell (a CSS pixel's leeway at each edge), paper elsewhere."""
    box = await page.page.evaluate(CELL_BOX, [row, column])
    clip = dict(zip(("x", "y", "width", "height"), box, strict=True))
    width, height, pixels = png_pixels(await page.page.screenshot(clip=clip, scale="device"))
    scale = height / clip["height"]
    start, end = (edge * height for edge in INKED[glyph])
    column_x = width // 2
    faults = []
    for y in range(height):
        inked = math.dist(pixels[y][column_x], INK) < math.dist(pixels[y][column_x], PAPER)
        centre = y + 0.5
        if abs(centre - start) < scale or abs(centre - end) < scale:
            continue  # an edge's own pixel, maybe half covered
        if inked != (start <= centre < end):
            faults.append(y)
    if not faults:
        return []
    return [f"line {row} {glyph!r} (column {column}): device pixels {faults} of {height} "
            f"are {'paper' if (start <= faults[0] + 0.5 < end) else 'ink'}"]  # fmt: skip


def test_the_painted_screen_is_the_role_banners_glyphs():
    """The stand-in's word is drawn with the glyphs the test checks (and nothing else)."""
    lines = big(WORD) or []
    assert {c for line in lines for c in line} <= set(INKED) | {" "}
    assert all(glyph in lines[0] for glyph in INKED)  # the top line has all three


INK_SLACK = 1.5
"""CSS pixels a glyph's ink may reach past its cell's side: the ink's box comes in whole
pixels, and lines and blocks reach a hair past the cell on purpose (no seam between two)."""
BLANK = {"\u00a0", "\u2800"}
"""Symbols that draw nothing (a no-break space, the braille blank): one cell, no ink."""


def symbols_screen(symbols: str) -> bytes:
    """Every symbol, each with a space after it, 20 to a line, white on the panel's blue."""
    panel = "\x1b[48;2;0;36;82m\x1b[38;2;255;255;255m"
    lines = [" ".join(symbols[i : i + 20]) for i in range(0, len(symbols), 20)]
    body = "\r\n".join(f"{panel}{line.ljust(40)}\x1b[0m" for line in lines)
    return ("\x1b[?25l\x1b[2J\x1b[H" + body).encode()


class SymbolSeats(WebSeats):
    """The real server; the player app paints every symbol the screens draw."""

    def __init__(self, *args, symbols: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.symbols = symbols

    def argv(self, lang: str) -> list[str]:
        painted = base64.b64encode(symbols_screen(self.symbols)).decode()
        return [sys.executable, "-c", PAINTER, painted]


INK_BOX = """([row, column]) => {
  const line = document.querySelectorAll('#terminal .xterm-rows > div')[row];
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  let left = column, node = walker.nextNode();
  while (node && left >= node.length) { left -= node.length; node = walker.nextNode(); }
  const range = document.createRange();
  range.setStart(node, left);
  range.setEnd(node, left + 1);
  const cell = range.getBoundingClientRect();
  const style = getComputedStyle(node.parentElement);
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const m = canvas.measureText(node.data[left]), cellWidth = canvas.measureText('M').width;
  return {advance: m.width, cell: cellWidth, laid: cell.width,
          left: -m.actualBoundingBoxLeft, right: m.actualBoundingBoxRight,
          ascent: m.actualBoundingBoxAscent, descent: m.actualBoundingBoxDescent};
}"""
"""How the page's font draws one character of the terminal: its advance against a cell's (an
`M`'s), and its ink's box from the pen's place (left, right) and the baseline."""


@pytest.mark.parametrize("device", ["phone", "laptop"])
async def test_every_symbol_the_screens_draw_is_whole_in_its_cell(device, tmp_path):
    """The play-test on a phone: seat 4's ◆ drawn as half a diamond ("◂ Бот 2"), every ★ of
    Tally Up!'s dice a half star, the ⏱ before a timer blank — the device's fonts drew them
    wider than a cell, or not at all. Every symbol the screens draw (the snapshots' own, every
    seat's) is one cell wide, with its ink inside the cell, and drawn (not blank)."""
    from tests.webseats import drawn_symbols

    symbols = "".join(sorted(drawn_symbols()))
    seats = SymbolSeats(("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web", symbols=symbols)
    port = await seats.start("127.0.0.1", 0)
    try:
        async with chromium() as browser:
            context = await browser.new_context(**(PHONE if device == "phone" else LAPTOP))
            page = await Page.open(context, f"http://127.0.0.1:{port}")
            await page.wait_text(symbols[-1])  # the last line drawn
            await until(lambda: page.page.evaluate(SHOWN), "the terminal faded in (0.3 s)")
            await page.page.evaluate(SETTLED_ALL, symbols)
            await page.page.screenshot(path=str(tmp_path / f"symbols-{device}.png"))
            wrong = []
            for index, symbol in enumerate(symbols):
                row, column = divmod(index, 20)
                box = await page.page.evaluate(INK_BOX, [row, column * 2])
                cell = box["cell"]
                if abs(box["advance"] - cell) > cell * 0.02:
                    wrong.append(f"{symbol!r} is {box['advance'] / cell:.2f} cells wide")
                elif box["left"] < -INK_SLACK or box["right"] > cell + INK_SLACK:
                    wrong.append(f"{symbol!r} inks {box['left']:.1f}..{box['right']:.1f} "
                                 f"of a cell 0..{cell:.1f}")  # fmt: skip
                elif symbol not in BLANK and box["right"] - box["left"] <= 0:
                    wrong.append(f"{symbol!r} is blank")
            said = "\n".join(wrong)
            assert not wrong, f"{device}: symbols not whole in their cells ({tmp_path}):\n{said}"
            assert page.outside == [] and page.errors == [], page.outside + page.errors
    finally:
        await seats.close()


SETTLED_ALL = """async (symbols) => {
  await document.fonts.load("16px 'Roboto Mono'", symbols);
  await document.fonts.load("bold 16px 'Roboto Mono'", symbols);
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


BOXED = [
    ("Сладкая наливка или ликёр на", False),
    ("Иначе говоря: ", "Домашняя сладкая"),
    ("", "выпивка из выжатых ягод или"),
    ("", "плодов, крепкая и подслащённая."),
    ("In other words: ", "Warm milk split"),
    ("", "into soft lumps with beer or wine,"),
]
"""The lines of a card drawn in a box, as Tesauro's Genius sees it on a phone: plain, then
part or all of the line in italic (the card in other words)."""


def boxed_screen() -> bytes:
    """A box 38 cells wide holding `BOXED`, each line's italic part in italic."""
    line = "\x1b[38;2;0;100;200m│\x1b[0m"
    rows = ["╭" + "─" * 36 + "╮"]
    for plain, italic in BOXED:
        italic = italic or ""
        pad = " " * (34 - len(plain) - len(italic))
        rows.append(f"{line} {plain}\x1b[3m{italic}\x1b[23m{pad} {line}")
    rows.append("╰" + "─" * 36 + "╯")
    return ("\x1b[?25l\x1b[2J\x1b[H" + "\r\n".join(rows)).encode()


class BoxedSeats(WebSeats):
    """The real server; the player app paints `boxed_screen()`."""

    def argv(self, lang: str) -> list[str]:
        return [sys.executable, "-c", PAINTER, base64.b64encode(boxed_screen()).decode()]


SETTLED_ITALIC = """async () => {
  for (const face of ["", "bold ", "italic ", "bold italic "]) {
    await document.fonts.load(`${face}16px 'Roboto Mono'`, "aаж│");
  }
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


@pytest.mark.parametrize("device", ["phone", "laptop"])
async def test_italic_keeps_to_the_cells_in_the_browser(device, tmp_path):
    """A phone: every italic line of the Genius's card drew the box's right side further left,
    the box broken. Roboto Mono's italic is 0.587 em wide, its upright 0.6 em; xterm's DOM
    renderer spaces out a narrower face only when it measured it loaded, and the italic face
    loads when italic text first asks for it. The page has no italic face of its own: the
    browser slants the upright one, as wide as every cell. The box's right side is in one
    place on every line (a tenth of a cell's leeway)."""
    seats = BoxedSeats(("127.0.0.1", 47470), limit=2, state_root=tmp_path / "web")
    port = await seats.start("127.0.0.1", 0)
    try:
        async with chromium() as browser:
            context = await browser.new_context(**(PHONE if device == "phone" else LAPTOP))
            page = await Page.open(context, f"http://127.0.0.1:{port}")
            await page.wait_text(BOXED[-1][1])
            await until(lambda: page.page.evaluate(SHOWN), "the terminal faded in (0.3 s)")
            await page.page.evaluate(SETTLED_ITALIC)
            await page.page.screenshot(path=str(tmp_path / f"italic-{device}.png"))
            lines = await page.lines()
            top = next(i for i, line in enumerate(lines) if line.startswith("╭"))
            sides = {}
            for row in range(top, top + len(BOXED) + 2):
                assert lines[row][37] in "╮│╯", lines[row]
                sides[row] = (await page.page.evaluate(CELL_BOX, [row, 37]))[0]
            cell = (await page.page.evaluate(CELL_BOX, [top, 0]))[2]
            apart = max(sides.values()) - min(sides.values())
            assert apart < cell / 10, f"{device}: the box's right side at {sides} ({tmp_path})"
            assert page.outside == [] and page.errors == [], page.outside + page.errors
    finally:
        await seats.close()
