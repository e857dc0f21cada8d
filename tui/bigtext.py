"""Words in large letters for a screen seen from across the room: a 5-pixel-high font, Latin
and Cyrillic capitals, drawn with half blocks in three lines of text.

Every letter and digit is five pixels high and stands on the bottom row, its baseline: the
font has no row below it for a descender, so Д, Ц and Щ show theirs as a foot wider than the
letter (drawn on a row above, they stood a row off the line). `tests/tui/test_bigtext.py`
holds every glyph to that.

`big(word)` gives the three lines, or None when the word has a character the font lacks (the
caller then shows it in plain letters); `big(word, scale=2)` the same twice as large (five
lines, each pixel two columns wide) for a TV-sized terminal.
"""

from __future__ import annotations

_GLYPHS = """
A .#. #.# ### #.# #.#
B ##. #.# ##. #.# ##.
C .## #.. #.. #.. .##
D ##. #.# #.# #.# ##.
E ### #.. ##. #.. ###
F ### #.. ##. #.. #..
G .## #.. #.# #.# .##
H #.# #.# ### #.# #.#
I ### .#. .#. .#. ###
J ..# ..# ..# #.# .#.
K #.# #.# ##. #.# #.#
L #.. #.. #.. #.. ###
M #...# ##.## #.#.# #...# #...#
N #...# ##..# #.#.# #..## #...#
O .#. #.# #.# #.# .#.
P ##. #.# ##. #.. #..
Q .#.. #.#. #.#. #.#. .#.#
R ##. #.# ##. #.# #.#
S .## #.. .#. ..# ##.
T ### .#. .#. .#. .#.
U #.# #.# #.# #.# ###
V #.# #.# #.# #.# .#.
W #...# #...# #.#.# ##.## #...#
X #.# #.# .#. #.# #.#
Y #.# #.# .#. .#. .#.
Z ### ..# .#. #.. ###
Б ### #.. ##. #.# ##.
Г ### #.. #.. #.. #..
Д .###. .#.#. .#.#. .#.#. #####
Ж #.#.# #.#.# .###. #.#.# #.#.#
З ##. ..# .#. ..# ##.
И #...# #..## #.#.# ##..# #...#
Й .###. #...# #..## #.#.# ##..#
Л .## #.# #.# #.# #.#
П ### #.# #.# #.# #.#
У #.# #.# .## ..# ##.
Ф .###. #.#.# #.#.# .###. ..#..
Ц #.#. #.#. #.#. #.#. ####
Ч #.# #.# .## ..# ..#
Ш #.#.# #.#.# #.#.# #.#.# #####
Щ #.#.#. #.#.#. #.#.#. #.#.#. ######
Ъ ##.. .#.. .##. .#.# .##.
Ы #...# #...# ##..# #.#.# ##..#
Ь #.. #.. ##. #.# ##.
Э ##. ..# .## ..# ##.
Ю #..#. #.#.# ###.# #.#.# #..#.
Я .## #.# .## #.# #.#
- ... ... ### ... ...
' # # . . .
. . . . . #
, . . . # #
? ##. ..# .#. ... .#.
0 ### #.# #.# #.# ###
1 .#. ##. .#. .#. ###
2 ##. ..# .#. #.. ###
3 ##. ..# .#. ..# ##.
4 #.# #.# ### ..# ..#
5 ### #.. ##. ..# ##.
6 .## #.. ##. #.# .#.
7 ### ..# .#. .#. .#.
8 .#. #.# .#. #.# .#.
9 .#. #.# .## ..# ##.
: . # . # .
! # # # . #
( .# #. #. #. .#
+ ... .#. ### .#. ...
) #. .# .# .# #.
"""

_SAME = {"А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
         "Р": "P", "С": "C", "Т": "T", "Х": "X", "’": "'"}  # fmt: skip


def _font() -> dict[str, list[str]]:
    font = {}
    for line in _GLYPHS.strip().splitlines():
        char, *rows = line.split()
        font[char] = rows
    for char, same in _SAME.items():
        font[char] = font[same]
    font[" "] = [".."] * 5
    return font


FONT = _font()
HEIGHT = 3


def big(word: str, scale: int = 1) -> list[str] | None:
    """Lines of half blocks spelling `word` in capitals: three at scale 1, five at scale 2
    (None: a character it lacks)."""
    glyphs = []
    for char in word.upper():
        glyph = FONT.get(char)
        if glyph is None:
            return None
        glyphs.append(glyph)
    if not glyphs:
        return None
    pixels = [".".join(glyph[row] for glyph in glyphs) for row in range(5)]
    if scale > 1:  # each pixel `scale` wide and tall
        pixels = ["".join(p * scale for p in row) for row in pixels for _ in range(scale)]
    if len(pixels) % 2:
        pixels.append("." * len(pixels[0]))
    lines = []
    for top, bottom in zip(pixels[0::2], pixels[1::2], strict=True):
        line = ""
        for up, down in zip(top, bottom, strict=True):
            line += {("#", "#"): "█", ("#", "."): "▀", (".", "#"): "▄"}.get((up, down), " ")
        lines.append(line)
    return lines


def width(word: str, scale: int = 1) -> int:
    """The columns `big(word, scale)` takes (0: it cannot draw the word)."""
    lines = big(word, scale)
    return len(lines[0]) if lines else 0


VOWELS = set("AEIOUYАЕЁИОУЫЭЮЯ")


def _hyphen_at(word: str, room: int, scale: int) -> int:
    """Where to break a word too wide for a line (0: nowhere): the most letters that fit with
    the hyphen, at least three left for the next line, after a vowel if it can be (ЗАСТИ-ЛАЕТ,
    not ЗАСТИЛА-ЕТ); else any place that fits."""
    fits = [n for n in range(2, len(word)) if width(word[:n] + "-", scale) <= room]
    roomy = [n for n in fits if len(word) - n >= 3]
    after_vowel = [n for n in roomy if word[n - 1].upper() in VOWELS]
    return max(after_vowel or roomy or fits, default=0)


def big_lines(text: str, room: int, scale: int = 1) -> list[str] | None:
    """`text` in big letters, its words wrapped to lines no wider than `room` columns, a word
    too long for a line broken with a hyphen (None: a character the font lacks, or a room
    too narrow for two letters) — so one long card is big beside the others, not small."""
    rows: list[str] = []
    line = ""
    words: list[str] = []
    for word in text.split():
        if not width(word, scale):
            return None
        while width(word, scale) > room:  # a word wider than a line: its parts, hyphenated
            cut = _hyphen_at(word, room, scale)
            if not cut:
                return None
            words.append(word[:cut] + "-")
            word = word[cut:]
        words.append(word)
    for word in words:
        joined = f"{line} {word}" if line else word
        if width(joined, scale) <= room:
            line = joined
            continue
        if not line or width(word, scale) > room:
            return None
        rows.extend(big(line, scale) or [])
        line = word
    if line:
        rows.extend(big(line, scale) or [])
    return rows or None
