"""A toast never hides the running countdown of the public table (the host's big screen, a
watcher's): toasts are docked at the top right, where the countdown is, and at 80x24 one
hid its whole top line for 3–5 s in the play-test. On the public table they keep to the side
column, beneath the countdown while it runs (`tui.table.Countdown`, common.tcss) — in every
game, since the countdown and the styles are shared."""

from __future__ import annotations

import pytest

from tests.scenes import SCENES, table_game
from tui.i18n import set_lang, t
from tui.scenes import reach
from tui.table import Countdown
from tui.waiting import until

LINES = ("room_event.away", "host.nothing_to_nudge", "room_event.back")
"""What the host's table says in toasts while a game is on: a player away and back (the
story's own line, 3 s) and a refusal of a key — the longest at 80x24 takes four rows."""

CASES = [
    ("host-tallyup-turn-time", "en"),
    ("host-tallyup-sealed", "ru"),  # (its countdown started here: the scene's has none)
    ("host-tesauro-write", "ru"),
    ("host-trex-vote", "en"),
    ("player-watch-tallyup-sealed", "en"),  # a watcher's public table: the same
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 45)], ids=["80x24", "120x40", "tv"])
@pytest.mark.parametrize(("name", "lang"), CASES, ids=[name for name, _ in CASES])
async def test_a_toast_never_hides_the_countdown(name, lang, size):
    scene = next(scene for scene in SCENES if scene.name == name)
    set_lang(lang)
    try:
        with table_game():
            app, run_before = scene.build()
            async with app.run_test(size=size, notifications=True) as pilot:
                await reach(scene, run_before, pilot)
                countdown = app.screen.query_one(Countdown)
                if not countdown.display:
                    countdown.start(42)
                for key in LINES:
                    app.notify(t(key, name="Boris"), timeout=60, markup=False)

                def toasts() -> list:
                    return [toast.region for toast in app.screen.query("Toast")]

                def clear() -> bool:  # every toast laid out, none over the countdown
                    shown = toasts()
                    return len(shown) == len(LINES) and all(
                        region and not region.overlaps(countdown.region) for region in shown
                    )

                await until(clear, pilot, what=f"toasts clear of {countdown.region}: {toasts()}")
                assert countdown.display and countdown.region
    finally:
        set_lang("en")


PLAYER_CASES = [
    ("player-tallyup-sealed", "en"),
    ("player-game-full-tesauro", "ru"),
    ("player-trex-vote", "en"),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("dialog", [False, True], ids=["", "help-open"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (160, 45)], ids=["80x24", "120x40", "tv"])
@pytest.mark.parametrize(("name", "lang"), PLAYER_CASES, ids=[n for n, _ in PLAYER_CASES])
async def test_a_player_s_toast_keeps_off_the_prompt(name, lang, size, dialog):
    """The play-test: "Your time was up: the bot made that move for you…" (6 s) hid "Your
    sealed choice: IN or OUT?  ⏱ 18 s" beneath the title. On a player's game screen a toast
    keeps to the side column: the hand's left half is never under one — nor, with the help
    open over it (a toast is drawn again on the dialog), the dialog's own first lines."""
    from tui.games import HandWidget

    scene = next(scene for scene in SCENES if scene.name == name)
    set_lang(lang)
    try:
        app, run_before = scene.build()
        async with app.run_test(size=size, notifications=True) as pilot:
            await reach(scene, run_before, pilot)
            hand = app.screen.query_one("#hand", HandWidget).region
            left = hand._replace(width=hand.width // 2)
            if dialog:
                await pilot.press("question_mark")
                await until(lambda: app.screen.is_modal, pilot, what="the help")
            app.notify(t("client.played_for_you"), timeout=60, markup=False)

            def clear() -> bool:
                shown = [toast.region for toast in app.screen.query("Toast")]
                return bool(shown) and all(r and not r.overlaps(left) for r in shown)

            await until(clear, pilot, what=f"a toast clear of the hand's left half {left}")
    finally:
        set_lang("en")
