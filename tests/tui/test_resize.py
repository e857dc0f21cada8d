"""A terminal resized mid-evening (a window maximised, a TV plugged in, a phone turned) shows
what one started at that size shows: the size classes follow the new size (`classify_size`
is given it: the app's own is still the old one when its subclass hears of the resize), and
every screen drawn for the old size is drawn again."""

from __future__ import annotations

import re

import pytest

from tests.scenes import SCENES
from tui.i18n import set_lang
from tui.scenes import reach

CASES = [
    ("host-lobby", (80, 24), (160, 45)),
    ("host-tallyup-reveal", (80, 24), (160, 45)),
    ("host-tesauro-judge", (80, 24), (160, 45)),
    ("host-trex-match", (160, 45), (80, 24)),
    ("host-trex-fresh", (80, 24), (160, 45)),  # the big scoreboard, the side story
    ("player-tallyup-choose-dice", (80, 24), (120, 40)),
    ("player-tesauro-judge", (120, 40), (40, 30)),
]


async def shown(name: str, start: tuple[int, int], end: tuple[int, int]) -> list[str]:
    scene = next(s for s in SCENES if s.name == name)
    app, run_before = scene.build()
    async with app.run_test(size=start) as pilot:
        await reach(scene, run_before, pilot)
        if end != start:
            await pilot.resize_terminal(*end)
            await pilot.wait_for_scheduled_animations()
            for _ in range(3):  # the resize, the classes' layout, the screens drawn again
                await pilot.pause()
        svg = app.export_screenshot()
    return re.findall(r">([^<>]+)</text>", svg)[1:]  # (the title names the scene)


@pytest.mark.parametrize(("name", "start", "end"), CASES)
async def test_a_resized_terminal_shows_what_one_started_at_that_size_shows(name, start, end):
    set_lang("en")
    assert await shown(name, start, end) == await shown(name, end, end)
