"""SVG snapshots of every screen of both apps, in English and Russian, at 80x24 and 120x40,
every table scene of the host at 160x45 (a TV) in both languages, and a few of the player's
on a phone held upright (40x30: the scenes' `phone`; every one of them is checked for cuts).

The scenes (app states) are built in `tests/scenes.py`; `tools/screenshots.py` writes the same
pictures to `screenshots/`. After an intended change of the look:

    .venv/bin/pytest tests/tui/test_snapshots.py --snapshot-update
    .venv/bin/python tools/screenshots.py

and look at the diff (`snapshot_report.html` shows failures side by side).
"""

from __future__ import annotations

import pytest

from tests.clipping import clipped
from tests.scenes import case_name, cases, table_game
from tui.i18n import set_lang
from tui.scenes import reach

CASES = cases(snapshots_only=True)


@pytest.fixture
def game_on_table():
    with table_game() as game_id:
        yield game_id


@pytest.mark.parametrize(("scene", "lang", "size"), CASES, ids=[case_name(*case) for case in CASES])
def test_screen(scene, lang, size, snap_compare, game_on_table):
    """The screen as its snapshot has it — and, drawn once for both, nothing on it cut
    (`tests/clipping.py`; `tests/tui/test_clipping.py` checks the scenes without a snapshot)."""
    set_lang(lang)
    cuts: list[str] = []
    try:
        app, run_before = scene.build()

        async def then_check(pilot) -> None:
            await reach(scene, run_before, pilot)
            cuts.extend(clipped(app))

        assert snap_compare(app, terminal_size=size, run_before=then_check)
        assert not cuts, f"{case_name(scene, lang, size)} cuts text:\n" + "\n".join(cuts)
    finally:
        set_lang("en")
