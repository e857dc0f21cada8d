"""What a screen cuts off: text a person at the table would never see whole.

`clipped(app)` looks at the screen on top, as drawn, and returns one line per thing cut:

- a widget whose box reaches past its container (its container cannot scroll to the rest);
- two widgets of one container drawn over each other (a box docked to the bottom over the
  end of the one above it, when there is not room for both);
- a widget drawn smaller than its content: text taller than its box, or wider and not
  wrapping (a footer that drops a key, a title cut short);
- text that lost something on the way to its width: a word broken in two, letters cropped,
  an ellipsis Textual or Rich put in. Each widget's content is laid out once at the width it
  has and once at a width where nothing needs to give; the words (runs without spaces) must
  be the same in both, each as often — wrapping may move a word to the next line, never cut
  or lose it.

A box (a widget with a border) is whole: no line of it holds a character terminals draw at
another width than Textual reckons it (an emoji's variation selector, a skin tone: "❤️" is
one cell to Textual and two to a terminal), which moves the box's right side on that line in
a terminal and leaves the box broken. (A browser seat's font drew italic narrower than its
cells, and each italic line moved the box's side the same way: what a font does, only a
browser shows — `tests/e2e/test_browser_glyphs.py`.)

A container that scrolls (it shows its scrollbar) may hold more than it shows; text in it is
still checked, for its width. And no Braille blank (U+2800, `tui.text.UNBROKEN_SPACE`: it only
keeps a phrase on one line while it is laid out) is ever drawn: a copy, a screen reader and a
browser seat's font must get ordinary spaces.

A widget with the class `-abridged` cuts its text on purpose (Tesauro's table puts each of
nine definitions on a line of a small screen; every player's own screen has them whole): only
its place is checked. Widgets built to show only part of what they hold (a text field, a list
that scrolls, a scrollbar) are checked only for their place.

The scenes of `tests/scenes.py` are checked with it in `tests/tui/test_clipping.py`, and
`tools/screenshots.py` says what it finds in each picture.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from textual.app import App
from textual.errors import NoWidget
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Input, OptionList

from tui.text import UNBROKEN_SPACE

WIDE = 1000
"""A width no line of the apps needs."""

_BOX_DRAWING = re.compile("[\u2500-\u259f]")
"""Borders and rules: drawn to the width, so more of them at a wider width."""

_PARTIAL = (Input, OptionList, ScrollBar, ScrollBarCorner)
"""Widgets that show a window on what they hold by design (they scroll themselves)."""


def words(lines: list[str]) -> Counter[str]:
    text = _BOX_DRAWING.sub(" ", "\n".join(lines))
    return Counter(text.split())


def _label(widget: Widget) -> str:
    name = type(widget).__name__
    return f"{name}#{widget.id}" if widget.id else name


def _path(widget: Widget) -> str:
    """The widget and its nearest ancestors with an id, for a readable failure."""
    parts = [_label(widget)]
    node = widget.parent
    while isinstance(node, Widget) and len(parts) < 3:
        if node.id:
            parts.append(_label(node))
        node = node.parent
    return " < ".join(parts)


def _scrolls(widget: Widget) -> bool:
    """Whether `widget` or an ancestor scrolls (shows a scrollbar): what it hides, a person
    can bring into view."""
    node: Any = widget
    while isinstance(node, Widget):
        if node.allow_vertical_scroll or node.allow_horizontal_scroll:
            return True
        node = node.parent
    return False


def _lines(widget: Widget, visual: Visual, width: int) -> list[str]:
    strips = Visual.to_strips(widget, visual, width, None, widget.visual_style)
    return [strip.text.rstrip() for strip in strips]


def _text_problems(widget: Widget, region: Region) -> list[str]:
    if isinstance(widget, _PARTIAL) or widget.is_container or widget.has_class("-abridged"):
        return []
    if type(widget).render_line is not Widget.render_line:  # draws itself line by line
        return []
    content = widget.content_region
    width, height = content.width, content.height
    if width <= 0 or height <= 0:
        return []
    visual = widget._render()
    narrow = _lines(widget, visual, width)
    wide = _lines(widget, visual, WIDE)
    problems = []
    shown, whole = words(narrow), words(wide)
    if shown != whole:
        lost = sorted((whole - shown).elements())
        cut = sorted((shown - whole).elements())
        problems.append(f"text cut at width {width}: lost {lost[:6]}, shows {cut[:6]}")
    longest = max((len(line) for line in narrow), default=0)
    if longest > width:  # (never, as strips are cropped; kept for a renderable that isn't)
        problems.append(f"a line {longest} wide in {width}")
    if len(narrow) > height and not _scrolls(widget):
        problems.append(f"{len(narrow)} lines of text in {height}: {narrow[height:][:2]}")
    return problems


def clipped(app: App[Any]) -> list[str]:
    """Everything cut off on the screen on top of `app`, one line each (empty: nothing)."""
    screen = app.screen
    problems: list[str] = []
    placed = screen._compositor.full_map
    for widget, geometry in placed.items():
        if widget is screen or not widget.display or not widget.visible:
            continue
        region, clip = geometry.region, geometry.clip
        if not region:
            continue
        shown = region.intersection(clip)
        if shown != region and not _scrolls(widget.parent):  # type: ignore[arg-type]
            problems.append(
                f"{_path(widget)}: {region.width}x{region.height} cut to "
                f"{shown.width}x{shown.height} by its container"
            )
            continue
        problems.extend(f"{_path(widget)}: {p}" for p in _text_problems(widget, region))
    problems.extend(_overlaps(placed))
    strips = list(screen._compositor.render_strips())
    problems.extend(_broken_sides(app, placed, strips))
    for row, strip in enumerate(strips):
        if UNBROKEN_SPACE in strip.text:
            shown = strip.text.replace(UNBROKEN_SPACE, "⣿").strip()
            problems.append(f"a Braille blank (U+2800) drawn on row {row}: {shown!r}")
    for widget in screen.walk_children(Widget):
        if widget in placed or not widget.display or not widget.visible:
            continue
        if any(not node.display for node in widget.ancestors if isinstance(node, Widget)):
            continue
        if isinstance(widget, _PARTIAL) or widget.is_container:
            continue
        visual = widget._render()
        if any(line.strip() for line in _lines(widget, visual, WIDE)):
            problems.append(f"{_path(widget)}: has text and no room at all")
    return problems


def _overlaps(placed: Any) -> list[str]:
    """Siblings in one layer whose boxes share cells (each pair once). In a container that
    scrolls, what lies under a docked line can be scrolled out from under it."""
    by_parent: dict[Any, list[tuple[Widget, Region]]] = {}
    for widget, geometry in placed.items():
        if isinstance(widget, _PARTIAL) or not widget.display or not widget.visible:
            continue
        parent = widget.parent
        if geometry.region and isinstance(parent, Widget) and not _scrolls(parent):
            by_parent.setdefault(parent, []).append((widget, geometry.region))
    problems = []
    for siblings in by_parent.values():
        for number, (one, first) in enumerate(siblings):
            for other, second in siblings[number + 1 :]:
                if one.styles.layer != other.styles.layer or one.styles.overlay == "screen":
                    continue
                if other.styles.overlay == "screen":
                    continue
                shared = first.intersection(second)
                if shared:
                    problems.append(
                        f"{_path(one)} and {_label(other)}: drawn over each other "
                        f"({shared.width}x{shared.height} cells)"
                    )
    return problems


_NO_SIDE = ("", "none", "hidden", "blank", "hkey")
"""Borders that draw no line at a box's sides."""

UNSURE_WIDTH = re.compile("[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff\U0001f1e6-\U0001f1ff\u200d]")
"""Characters whose width a terminal does not reckon as Textual does: the variation selectors
(text, emoji: "❤️" is one cell to Textual, two to a terminal), the skin tones (a thumb and its
tone are four cells to Textual, two to a terminal), the regional indicators (a flag is two
of them) and the zero-width joiner (a family of three faces is drawn as one)."""


def _broken_sides(app: App[Any], placed: Any, strips: list[Strip]) -> list[str]:
    """The boxes with a line a terminal draws wider or narrower than Textual reckons it, which
    moves the box's right side on it (`UNSURE_WIDTH`; a cell covered by something on top of
    the box is not its)."""
    screen = app.screen
    problems = []
    for widget, geometry in placed.items():
        if widget is screen or not widget.display or not widget.visible:
            continue
        region = geometry.region
        shown = region.intersection(geometry.clip)
        x = region.right - 1
        if widget.styles.border_right[0] in _NO_SIDE or not shown.x <= x < shown.right:
            continue
        for y in range(shown.y, min(shown.bottom, len(strips))):
            inside = strips[y].crop(region.x, region.right).text
            unsure = UNSURE_WIDTH.findall(inside)
            if unsure and _on_top(screen, x, y) is widget:
                codes = " ".join(sorted({f"U+{ord(c):04X}" for c in unsure}))
                problems.append(
                    f"{_path(widget)}: its right side moves on row {y} in a terminal "
                    f"({codes}: not the width Textual reckons): {inside!r}"
                )
    return problems


def _on_top(screen: Any, x: int, y: int) -> Widget | None:
    """The widget drawn at the cell (x, y) of the screen."""
    try:
        return screen.get_widget_at(x, y)[0]
    except NoWidget:
        return None
