"""No screen cuts off text: every scene of `tests/scenes.py`, in both languages, at every size
it has (80x24, 120x40, 160x45), checked by `tests/clipping.py`.

A failure names each scene and each cut in it: the widget (with the ids around it) and what
was lost, e.g. `Footer: text cut at width 80: lost ['q', 'Выход'], shows []`.

The scenes of one language and size are drawn side by side in one event loop (most of a
scene's time is its reveal counting on the clock), a few at a time.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.clipping import clipped
from tests.scenes import LANGS, SIZES, Scene, case_name, cases, table_game
from tui.i18n import set_lang

AT_ONCE = 8


async def problems_in(scene: Scene, size: tuple[int, int]) -> list[str]:
    """The scene drawn the way its screenshot is taken (in the language set), and what it
    cuts off."""
    app, run_before = scene.build()
    async with app.run_test(size=size) as pilot:
        await run_before(pilot)
        await pilot.pause()
        await pilot.press(*scene.press)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        await pilot.pause()
        return clipped(app)


async def cuts(
    lang: str, size: tuple[int, int], words: tuple[str, ...] = ()
) -> dict[str, list[str]]:
    """Every scene of `lang` at `size` (or those whose name holds one of `words`) and its cuts."""
    chosen = [
        (scene, code, at)
        for scene, code, at in cases()
        if code == lang and at == size and (not words or any(w in scene.name for w in words))
    ]
    limit = asyncio.Semaphore(AT_ONCE)

    async def one(scene: Scene) -> tuple[str, list[str]]:
        async with limit:
            return case_name(scene, lang, size), await problems_in(scene, size)

    set_lang(lang)
    try:
        with table_game():
            found = await asyncio.gather(*(one(scene) for scene, _, _ in chosen))
    finally:
        set_lang("en")
    assert found, f"no scene at {size} in {lang}"
    return {name: problems for name, problems in found if problems}


@pytest.mark.timeout(400)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", LANGS)
async def test_nothing_cut(lang, size):
    found = await cuts(lang, size)
    report = [f"{name}:\n" + "\n".join(f"    {p}" for p in found[name]) for name in sorted(found)]
    assert not found, f"{len(found)} scenes cut text:\n" + "\n".join(report)
