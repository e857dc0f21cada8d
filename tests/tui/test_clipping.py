"""No screen cuts off text: every scene of `tests/scenes.py`, in both languages, at every size
it has (80x24, 120x40, 160x45; every player scene on a phone, 40x30), checked by
`tests/clipping.py` — the scenes with a snapshot in `tests/tui/test_snapshots.py` (drawn once
for both), the others here.

A failure names each scene and each cut in it: the widget (with the ids around it) and what
was lost, e.g. `Footer: text cut at width 80: lost ['q', 'Выход'], shows []`.

The scenes of one language and size are drawn side by side in one event loop (most of a
scene's time is its reveal counting on the clock), a few at a time.
"""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text
from textual.app import App
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from tests.clipping import clipped
from tests.scenes import case_name, cases, table_game
from tui.i18n import set_lang
from tui.scenes import LANGS, SIZES, Scene, reach
from tui.widgets import Footer

AT_ONCE = 8


async def problems_in(scene: Scene, size: tuple[int, int]) -> list[str]:
    """The scene drawn the way its screenshot is taken (in the language set), and what it
    cuts off."""
    app, run_before = scene.build()
    async with app.run_test(size=size) as pilot:
        await reach(scene, run_before, pilot)
        return clipped(app)


async def cuts(
    lang: str, size: tuple[int, int], words: tuple[str, ...] = ()
) -> dict[str, list[str]]:
    """Every scene of `lang` at `size` (or those whose name holds one of `words`) and its cuts."""
    snapshotted = {case_name(*case) for case in cases(snapshots_only=True)}
    chosen = [
        (scene, code, at)
        for scene, code, at in cases()
        if code == lang
        and at == size
        and (not words or any(w in scene.name for w in words))
        and (words or case_name(scene, code, at) not in snapshotted)
    ]
    if not chosen:
        pytest.skip(f"every scene at {size} in {lang} has a snapshot: test_snapshots checks it")
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


@pytest.mark.timeout(900)  # about 100 scenes; a loaded machine is slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", LANGS)
async def test_nothing_cut(lang, size):
    found = await cuts(lang, size)
    report = [f"{name}:\n" + "\n".join(f"    {p}" for p in found[name]) for name in sorted(found)]
    assert not found, f"{len(found)} scenes cut text:\n" + "\n".join(report)


# --- the check itself: it sees each kind of cut, and passes what is whole ----------------------


class _Cuts(App[None]):
    """One screen with one kind of cut (or none)."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def compose(self):
        words = "Round 1  everyone rolls once"
        if self.kind == "too-tall":  # three lines of text in a box of one
            yield Static("one two three four five six seven eight")
        elif self.kind == "cropped":  # an auto-width line in a narrow box
            with Vertical(id="box"):
                yield Static(words, id="line")
        elif self.kind == "ellipsis":  # as Textual's header cuts a title
            yield Static(words, id="line")
        elif self.kind == "word-cut":
            yield Static("фиолетовая", id="line")
        elif self.kind == "footer":
            yield Footer()
        elif self.kind == "braille":  # an unbroken phrase drawn without `put`: its blank shows
            yield Static(Text("Round 1  to\u28001000"), id="line")
        elif self.kind == "overlap":  # a line docked below, over the end of a box of four
            with Vertical(id="box"):
                yield Static("one\ntwo\nthree\nfour", id="line")
                yield Static("docked", id="docked")
        elif self.kind == "box-side":  # a player's "❤️": two cells to a terminal, one here
            yield Static("A hot drink ❤️ of milk", id="line")
        elif self.kind == "boxed":  # wide letters and accents: as wide as reckoned
            yield Static("ラタフィア ликёр é\u0301", id="line")
        else:
            yield Static(words, id="line")

    def on_mount(self) -> None:
        if self.kind == "too-tall":
            line = self.query_one(Static)
            line.styles.height = 1
            line.styles.width = 12
        elif self.kind == "cropped":
            self.query_one("#box").styles.width = 12
            self.query_one("#box").styles.height = 3
            self.query_one("#line").styles.width = "auto"
            self.query_one("#line").styles.text_wrap = "nowrap"
        elif self.kind == "overlap":
            self.query_one("#box").styles.height = 4
            self.query_one("#docked").styles.dock = "bottom"
        elif self.kind in ("box-side", "boxed"):
            self.query_one("#line").styles.border = ("round", "white")
        elif self.kind in ("ellipsis", "word-cut"):
            self.query_one("#line").styles.width = 8
            if self.kind == "ellipsis":
                self.query_one("#line").styles.text_wrap = "nowrap"
                self.query_one("#line").styles.text_overflow = "ellipsis"


class _Keys(Screen[None]):
    BINDINGS = [Binding(key, f"act_{key}", "key.end_game") for key in "abcdefghij"]


@pytest.mark.parametrize(
    "kind",
    ["too-tall", "cropped", "ellipsis", "word-cut", "footer", "overlap", "braille", "box-side"],
)
async def test_the_check_sees_each_kind_of_cut(kind):
    app = _Cuts(kind)
    async with app.run_test(size=(30, 10)) as pilot:
        if kind == "footer":  # ten keys with long descriptions on 30 columns, on one line
            app.query_one(Footer).styles.max_height = 1
            app.query_one(Footer).styles.height = 1
            await app.push_screen(_Keys())
            await app.screen.mount(Footer())
            app.screen.query_one(Footer).styles.height = 1
        await pilot.pause()
        found = clipped(app)
        assert found, f"{kind}: not seen"
        assert kind != "overlap" or any("drawn over each other" in p for p in found), found
        assert kind != "braille" or any("U+2800" in p for p in found), found
        assert kind != "box-side" or any("U+FE0F" in p for p in found), found


@pytest.mark.parametrize("kind", ["whole", "boxed"])
async def test_the_check_passes_what_is_whole(kind):
    app = _Cuts(kind)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert clipped(app) == []
