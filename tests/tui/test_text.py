"""Text on screen (`tui.text`): an `unbroken` phrase ("⏱ 17 s", "to 500", "Bot 2", "57 %")
is never split across lines, at any width, and is drawn with ordinary spaces — never with
the Braille blank that keeps it together while a line is laid out (a copy, a screen reader
and a browser seat's font must get a space). Every scene is checked for that blank too:
`tests/clipping.py`, with the cuts."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.visual import Visual
from textual.widgets import Static

from tui.text import UNBROKEN_SPACE, drawn, unbroken
from tui.widgets import put

PHRASES = ("⏱ 17 s", "to 500", "Bot 2", "57 %", "до 1000", "⏱ 0:53")
"""Every kind of phrase the games keep whole: a countdown, the target, a bot's name, a
Russian percentage (tallyup hand, words, pieces; trex hand)."""

LEAD = "Голосуйте: кто лучший Тирекс? Нажмите его номер. Press it now:  "
"""Words before the phrase, so that a line breaks near it at every width."""


class _Line(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(id="line")


def _drawn_lines(widget: Static, width: int) -> list[str]:
    strips = Visual.to_strips(widget, widget._render(), width, None, widget.visual_style)
    return [strip.text.rstrip() for strip in strips]


@pytest.mark.timeout(60)
async def test_a_phrase_is_never_split_and_is_drawn_with_spaces():
    app = _Line()
    async with app.run_test(size=(60, 30)) as pilot:
        line = app.query_one("#line", Static)
        for phrase in PHRASES:
            text = Text(LEAD, style="bold") + Text("  " + unbroken(phrase), style="dim")
            put(line, text)
            for width in range(len(phrase), 45):  # down to the phrase's own width
                lines = _drawn_lines(line, width)
                assert any(phrase in row for row in lines), (phrase, width, lines)
                assert not any(UNBROKEN_SPACE in row for row in lines), (phrase, width, lines)
        # and on the screen itself, at the width the app lays it out with
        line.styles.width = len("Bot 2") + 1
        put(line, Text("Winner: " + unbroken("Bot 2") + ", " + unbroken("Bot 10")))
        await pilot.pause()
        rows = [strip.text for strip in app.screen._compositor.render_strips()]
        assert any("Bot 2" in row for row in rows) and any("Bot 10" in row for row in rows)
        assert not any(UNBROKEN_SPACE in row for row in rows), rows
        # what a selection copies: spaces too
        assert str(line.render()) == "Winner: Bot 2, Bot 10"


def test_a_plain_text_is_drawn_as_it_is():
    """Only a text holding a phrase is laid out the unbroken way: the rest as before."""
    plain = Text("Round 5  to 1000")
    assert drawn(plain) is plain
    assert drawn("") == ""
    kept = drawn(Text("Round 5  " + unbroken("to 1000"), style="dim"))
    assert str(kept) == "Round 5  to 1000" and drawn(kept) is kept


def test_no_snapshot_has_a_braille_blank():
    """The snapshots are the screens as drawn (the snapshot tests keep them so)."""
    folder = Path(__file__).parent / "__snapshots__"
    found = [svg.name for svg in folder.rglob("*.svg") if UNBROKEN_SPACE in svg.read_text()]
    assert not found, f"{len(found)} snapshots draw U+2800: {found[:5]}"
