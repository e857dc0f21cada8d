"""Screenshots of every screen of both apps, in English and Russian, at 80x24 and 120x40, the
host's main screens (the big screen) also at 160x45, a TV, and every player's screen at 40x30,
a phone held upright in a browser seat.

    .venv/bin/python tools/screenshots.py            # every scene -> screenshots/*.svg + README.md
    .venv/bin/python tools/screenshots.py lobby join # only scenes whose name contains a word

Files are named `<scene>-<lang>-<cols>x<rows>.svg`, e.g. `host-lobby-en-80x24.svg`,
`player-join-ru-80x24.svg`; `screenshots/README.md` lists them. To look at one as a picture:
`rsvg-convert -w 1000 screenshots/host-lobby-en-80x24.svg -o /tmp/lobby.png`.

The scenes are the shell's (`tests/scenes.py`) and each game's (`tui/games/<game>/scenes.py`,
written with `tui.scenes`), shared with the snapshot tests.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python tools/screenshots.py` from anywhere
    sys.path.insert(0, str(ROOT))

from textual.pilot import Pilot  # noqa: E402

from tests.scenes import SCENES, case_name, cases, table_game  # noqa: E402
from tui.i18n import set_lang  # noqa: E402
from tui.scenes import LANGS, Scene, reach  # noqa: E402

# --- the command ----------------------------------------------------------------------------


def render(scene: Scene, code: str, size: tuple[int, int]) -> str:
    """The scene as an SVG, the way `snap_compare` takes it."""
    set_lang(code)
    try:
        app, run_before = scene.build()

        async def auto_pilot(pilot: Pilot) -> None:
            await reach(scene, run_before, pilot)
            await pilot.wait_for_scheduled_animations()
            pilot.app.exit(pilot.app.export_screenshot(title=f"hubbub — {scene.name}"))

        svg = app.run(headless=True, size=size, auto_pilot=auto_pilot)
        assert isinstance(svg, str), f"{scene.name}: the app ended without a screenshot"
        return keep_spaces(svg)
    finally:
        set_lang("en")


def keep_spaces(svg: str) -> str:
    """An SVG viewer drops the spaces a run of text begins with ("Round 5  to 1000" drawn
    as "Round 5to 1000") unless the picture says to keep them."""
    return svg.replace("<svg ", '<svg xml:space="preserve" ', 1)


class _Unique(logging.Handler):
    """The apps' warnings, each said once at the end instead of once per screenshot."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: dict[str, None] = {}

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.setdefault(f"{record.levelname} {record.name}: {record.getMessage()}")


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    out = ROOT / "screenshots"
    out.mkdir(exist_ok=True)
    warnings = _Unique()
    logging.getLogger().addHandler(warnings)
    with tempfile.TemporaryDirectory() as state, table_game():
        os.environ["HUBBUB_STATE_DIR"] = state  # no tokens of a real user are read or written
        for scene, code, size in cases():
            name = case_name(scene, code, size)
            if words and not any(word in name for word in words):
                continue
            (out / f"{name}.svg").write_text(render(scene, code, size), encoding="utf-8")
            print(f"screenshots/{name}.svg")
    write_readme(out)
    for line in warnings.seen:
        print(line, file=sys.stderr)
    return 0


def write_readme(out: Path) -> None:
    lines = [
        "# Screenshots",
        "",
        "Every screen of `hubbub host` and `hubbub join`, in English and Russian, at 80×24 (the",
        "minimum), the main ones at 120×40, the host's main ones at 160×45 (a TV across the",
        "room) and every player's screen at 40×30 (a phone held upright, in a browser seat).",
        "Every one of them is checked for cut text by `tests/tui/test_clipping.py`.",
        "Made from the real apps by",
        "`.venv/bin/python tools/screenshots.py`; do not edit by hand. The snapshot tests in",
        "`tests/tui/test_snapshots.py` are made from the same scenes (most of them, not all).",
        "`browser-player-en.png` is a real Chromium at the host's web seat, taken by",
        "`tests/e2e/test_browser.py` (Wendy has just sealed a Tally Up! choice).",
        "",
        "The `*-tallyup-*` screens follow one scripted game of Tally Up! to 1000 with every die's",
        "face chosen (`tallyup_table` in `tests/scenes.py`), stopped at each phase: the table",
        "(`host-`) and Ann's laptop (`player-`). The table gets the events of the action that",
        "brought each moment on their own, as in play, so its banners are the real ones. The",
        "sealed choice before anyone locked in is also `host-table` and `player-game`.",
        "",
        "The `*-trex-*` screens follow one scripted game of T-Rex for four (Ann, Bob, Cid,",
        "Dana) with every shuffle's top cards chosen (`trex_table` in `tests/scenes.py`):",
        "the deal, an offer, a match, a bye-bye, the sudden-death vote and the end, on the table",
        "(`host-`) and Ann's laptop (`player-`); `*-trex-coop` is a two-player game of its own.",
        "Offers are private, so the table has no picture of the offer: it looks as when dealt.",
        "",
        "The `*-tesauro-*` screens follow one scripted game of Tesauro for four (Ann, Bob, Cid,",
        "Dana) with every deal and the words chosen (`tesauro_table` in `tests/scenes.py`,",
        "the shipped dictionaries): the reader choosing, the thinking time (tiles taken, a",
        "half-typed definition), the definitions appearing one by one, the Sage's judgement, the",
        "reveal with the Genius and with the Genius card aside, the tie-break and the end, on the",
        "table (`host-`) and the laptops of the players acting in each moment (`player-`);",
        "`*-tesauro-speak` is a spoken game of its own, `*-tesauro-judge-long` one with",
        "definitions as long as allowed, and `*-tesauro-timed-out` / `*-silent-genius` one whose",
        "Genius let the time run out.",
        "",
        "| Screen | English | Russian |",
        "| --- | --- | --- |",
    ]
    for scene in SCENES:
        for size in scene.sizes:
            cells = []
            for code in LANGS:
                name = case_name(scene, code, size)
                cells.append(f"[{name}.svg]({name}.svg)")
            lines.append(
                f"| {scene.title.replace('|', '/')} ({size[0]}×{size[1]}) | "
                + " | ".join(cells)
                + " |"
            )
    (out / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
