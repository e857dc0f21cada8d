"""A phone is a seat: on a terminal 40 columns wide every player screen is one column, and
what the keys do a tap does — every footer key, every dialog's answer, every row a number
key picks — tapped with `pilot.click` in the real player app, as a phone's browser seat
sends a tap (a click).

That nothing on a phone's screen is cut is `tests/tui/test_clipping.py`'s, over every player
scene at `PHONE`; this file is about what a tap does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App
from textual.css.query import NoMatches
from textual.geometry import Offset, Region
from textual.widget import Widget

from tests.scenes import table_game
from tui.client.screens import JoinScreen, WatchScreen
from tui.games.tallyup.chart import DiceChartScreen
from tui.games.tallyup.scenes import tallyup_at
from tui.games.tallyup.words import colour_name
from tui.games.tesauro.scenes import tesauro_at
from tui.games.tesauro.words import category_name
from tui.games.trex.offer import PickOfferScreen
from tui.games.trex.scenes import trex_at, trex_two_offers
from tui.i18n import set_lang, t
from tui.scenes import ADDRESSES, ANN, PHONE, PORT, SMALL, player_scene, reach
from tui.scenes import Scene as _Scene
from tui.table import NARROW, StoryScreen, is_narrow, size_class
from tui.waiting import until
from tui.widgets import ConfirmScreen, Footer, HelpScreen, press


def scene(build, press: tuple[str, ...] = ()) -> _Scene:
    return _Scene("player-phone", "a phone", build, press)


async def started(pilot, shown: _Scene, run_before) -> None:
    with table_game():
        await reach(shown, run_before, pilot)


def on_screen(app: App[Any]) -> list[str]:
    """The screen's lines as drawn now (a dialog over what is beneath it)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def where(app: App[Any], text: str, within: Widget | None = None) -> Offset:
    """The screen offset of the middle of `text` as drawn (inside `within`'s box, if given)."""
    box = within.region if within is not None else Region(0, 0, *app.size)
    for y, line in enumerate(on_screen(app)):
        if not box.y <= y < box.bottom:
            continue
        x = line.find(text, box.x, box.right)
        if x >= 0:
            return Offset(x + len(text) // 2, y)
    raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(on_screen(app)))


async def tap(pilot, text: str, within: Widget | Callable[[], Widget] | None = None) -> None:
    """A finger on `text` where the screen shows it — once it does (the screen it is on may
    still be on its way: a busy machine draws late). `within`: a widget, or how to find it."""
    spot: list[Offset] = []

    def shown() -> bool:
        try:
            box = within() if callable(within) else within
            spot[:] = [where(pilot.app, text, box)]
        except (AssertionError, NoMatches):
            return False
        return True

    await until(shown, pilot)
    await pilot.click(offset=spot[0])
    await pilot.pause()


async def tap_key(pilot, key: str, does: str) -> None:
    """A finger on a key of the footer of the screen on top: `key` as shown, `does` the
    catalogue key of what it does."""
    await tap(pilot, f"{key} {t(does)}", lambda: pilot.app.screen.query_one(Footer))


def sent(app: Any) -> list[dict[str, Any]]:
    """What the hand sends the table, kept instead (the scenes have no table)."""
    actions: list[dict[str, Any]] = []
    app.act = lambda action, made_at=None: actions.append(action)
    return actions


def toasts(app: App[Any]) -> list[str]:
    return [str(n.message) for n in app._notifications]


# --- the size classes ---------------------------------------------------------------------


def test_a_phone_held_upright_is_narrow_and_small():
    assert is_narrow(PHONE[0]) and size_class(*PHONE) == "-small"
    assert is_narrow(NARROW - 1)
    assert not is_narrow(SMALL[0]), "80x24, the desktop minimum, keeps its two columns"
    assert not is_narrow(96), "a phone turned sideways gets the desktop layout"


async def test_the_app_is_narrow_on_a_phone_and_not_on_a_laptop():
    for size, narrow in ((PHONE, True), (SMALL, False)):
        shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
        app, run_before = shown.build()
        async with app.run_test(size=size) as pilot:
            await started(pilot, shown, run_before)
            assert app.has_class("-narrow") is narrow
            hand = app.screen.query_one("#hand").region.width
            assert (hand == size[0]) is narrow, "on a phone the hand is the screen's width"


# --- the footer: a tap is the key ----------------------------------------------------------


async def test_a_tap_on_the_join_forms_keys_is_the_key():
    """F2 (watch instead, play instead) and F1 (help), which a phone's keyboard lacks."""
    shown = scene(player_scene(address=(ADDRESSES[0], PORT)))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        form = app.screen
        assert isinstance(form, JoinScreen) and not form.watching
        await tap_key(pilot, "F2", "key.watch")
        await until(lambda: form.watching, pilot)
        assert form.query_one("#join").border_title == t("join.title_watch")
        await tap_key(pilot, "F2", "key.play")
        await until(lambda: not form.watching, pilot)
        await tap_key(pilot, "F1", "key.help")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)


async def test_a_tap_on_every_footer_key_of_the_hand_acts():
    """Tally Up!'s sealed choice on a phone: i and o seal a side, Space shouts, d shows the
    dice chart (and its own footer's Esc closes it), ? the help."""
    shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        await tap_key(pilot, "i", "tallyup.key.in")
        await tap_key(pilot, "o", "tallyup.key.out")
        await tap_key(pilot, "Space", "tallyup.key.shout")
        await until(lambda: len(actions) >= 3, pilot)  # a tap's action: a few messages on
        assert actions == [
            {"type": "token", "side": "in"},
            {"type": "token", "side": "out"},
            {"type": "shout"},
        ]
        await tap_key(pilot, "d", "tallyup.key.chart")
        await until(lambda: isinstance(app.screen, DiceChartScreen), pilot)
        await tap_key(pilot, "Esc", "key.close")
        await until(lambda: not isinstance(app.screen, DiceChartScreen), pilot)
        await tap_key(pilot, "?", "key.help")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)


async def test_a_tap_on_a_greyed_key_says_why_as_the_key_would():
    shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        await tap_key(pilot, "r", "tallyup.key.roll")  # the roll: not Ann's to roll now
        assert actions == []
        await until(lambda: t("keys.not_now", pressed="r") in " ".join(toasts(app)), pilot)


async def test_a_tap_acts_on_what_a_key_does_now_not_on_the_footer_as_drawn():
    """A tap that comes with the view that enables a key, before the footer has followed it
    (the footer still draws it greyed), is that key: the table waits for nobody's second
    tap (the phone test lost a sealed choice this way, one run in ten)."""
    shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        footer = app.screen.query_one(Footer)
        out = next(k for k in footer._keys_shown if k.described == t("tallyup.key.out"))
        await press(app.screen, dataclasses.replace(out, enabled=False))  # drawn before
        await pilot.pause()
        await until(lambda: len(actions) >= 1, pilot)  # a tap's action: a few messages on
        assert actions == [{"type": "token", "side": "out"}]


async def test_every_key_is_in_a_phones_footer_on_lines_of_its_own():
    """Ten keys and long Russian words on 40 columns: every key shown whole."""
    set_lang("ru")
    try:
        shown = scene(player_scene(tallyup_at("choose-dice"), screen="GameScreen"))
        app, run_before = shown.build()
        async with app.run_test(size=PHONE) as pilot:
            await started(pilot, shown, run_before)
            footer = app.screen.query_one(Footer)
            drawn = " ".join(on_screen(app)[footer.region.y : footer.region.bottom])
            assert footer.size.height >= 2
            for key in footer._keys_shown:
                assert f"{key.shown} {key.described}" in drawn, key
    finally:
        set_lang("en")


# --- the story and the seats: behind `l` on a phone --------------------------------------


async def test_l_shows_the_seats_and_the_story_on_a_phone_only():
    for size in (PHONE, SMALL):
        shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
        app, run_before = shown.build()
        async with app.run_test(size=size) as pilot:
            await started(pilot, shown, run_before)
            keys = [key.shown for key in app.screen.query_one(Footer)._keys_shown]
            if size == SMALL:  # the seats and the story are beside the hand
                assert "l" not in keys
                continue
            await tap_key(pilot, "l", "key.story")
            await until(lambda app=app: isinstance(app.screen, StoryScreen), pilot)
            seats = app.screen.query_one("#story-seats").render_str
            assert "Boris" in "\n".join(on_screen(app)) and seats
            await tap_key(pilot, "Esc", "key.close")
            await until(lambda app=app: not isinstance(app.screen, StoryScreen), pilot)


async def test_a_watcher_on_a_phone_sees_the_seats_behind_l():
    shown = scene(player_scene(tallyup_at("sealed"), screen="WatchScreen", watch=True))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        await until(lambda: isinstance(app.screen, WatchScreen), pilot)
        assert not app.screen.query_one("#seats").display  # no room beside the table
        await tap_key(pilot, "l", "key.story")
        await until(lambda: isinstance(app.screen, StoryScreen), pilot)
        assert app.screen.seats is not None


# --- dialogs: closed and answered by a tap ---------------------------------------------------


async def test_help_closes_with_a_tap_on_its_last_line_or_beside_it():
    shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"), ("question_mark",))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        app.screen.query_one("#help").scroll_end(animate=False)
        await pilot.pause()
        await tap(pilot, t("help.close_tap")[:12])  # (its first words: it wraps)
        await until(lambda: not isinstance(app.screen, HelpScreen), pilot)
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        await pilot.click(offset=(0, 0))  # beside the box: the screen dimmed behind it
        await pilot.pause()
        await until(lambda: not isinstance(app.screen, HelpScreen), pilot)
        await pilot.press("question_mark")
        await tap_key(pilot, "Esc", "key.close")  # a phone's help has a footer of its own
        await until(lambda: not isinstance(app.screen, HelpScreen), pilot)


async def test_leaving_is_answered_by_a_tap_on_no_or_yes():
    shown = scene(player_scene(tallyup_at("sealed"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        left: list[bool] = []

        async def leave(ends_game: bool = False) -> None:
            left.append(True)

        app.leave = leave  # type: ignore[method-assign]
        await tap_key(pilot, "q", "key.leave")
        await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        await tap(pilot, t("confirm.hint_no"))
        await until(lambda: not isinstance(app.screen, ConfirmScreen), pilot)
        assert not left
        await tap_key(pilot, "q", "key.leave")
        await pilot.click(offset=(0, 0))  # beside it: no, as Esc
        await pilot.pause()
        await until(lambda: not isinstance(app.screen, ConfirmScreen), pilot)
        assert not left
        await tap_key(pilot, "q", "key.leave")
        await tap_key(pilot, "n/Esc", "key.no")  # its footer on a phone
        await until(lambda: not isinstance(app.screen, ConfirmScreen), pilot)
        assert not left
        await tap_key(pilot, "q", "key.leave")
        await tap(pilot, t("confirm.hint_yes"))
        await until(lambda: left == [True], pilot)


# --- the rows a number key picks: tapped ------------------------------------------------------


async def test_a_tap_on_a_die_picks_it():
    shown = scene(player_scene(tallyup_at("choose-dice"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        hand: Any = app.screen.query_one("#hand")
        await tap(pilot, colour_name("orange"), hand)
        await tap(pilot, colour_name("blue"), hand)
        assert hand._picked == ["orange", "blue"]
        await tap(pilot, colour_name("orange"), hand)
        assert hand._picked == ["blue"]


async def test_the_sage_taps_a_definition_and_the_confirmation():
    shown = scene(player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        view: Any = app.game
        second = view["defs"][1]
        author = view["players"][second["seat"]]
        await tap_key(
            pilot, "1–3", "tesauro.key.pick"
        )  # which one? the definitions say, tapped themselves
        await until(lambda: t("keys.tap_one", keys="1–3") in toasts(app), pilot)
        await tap(pilot, author, app.screen.query_one("#hand"))
        await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
        category = category_name(second.get("tile"))
        assert app.screen.question == t("tesauro.confirm_pick", n=2, name=author, category=category)
        await tap(pilot, t("confirm.hint_yes"))
        await until(lambda: len(actions) >= 1, pilot)  # a tap's action: a few messages on
        assert actions == [{"type": "pick", "seat": second["seat"]}]


async def test_a_tap_on_a_player_offers_them_the_card():
    shown = scene(player_scene(trex_at("fresh"), screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        await tap(pilot, "Cid", app.screen.query_one("#tr-offers"))
        await until(lambda: len(actions) >= 1, pilot)  # a tap's action: a few messages on
        assert actions == [{"type": "offer", "to": 2}]


async def test_two_offers_a_tap_picks_whose_to_accept():
    shown = scene(player_scene(trex_two_offers, screen="GameScreen"), ("a",))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        actions = sent(app)
        await until(lambda: isinstance(app.screen, PickOfferScreen), pilot)
        await tap(pilot, "Dana", app.screen.query_one("#confirm"))
        await until(lambda: len(actions) >= 1, pilot)  # a tap's action: a few messages on
        assert actions == [{"type": "accept", "from": 3}]
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, PickOfferScreen), pilot)
        await tap_key(pilot, "Esc", "key.back")  # its own footer: none of them
        await until(lambda: not isinstance(app.screen, PickOfferScreen), pilot)
        await until(lambda: len(actions) >= 1, pilot)  # a tap's action: a few messages on
        assert actions == [{"type": "accept", "from": 3}]


async def test_a_tap_on_more_below_is_page_down():
    """Long definitions: the hand says there is more below, and a tap there scrolls to it."""
    shown = scene(player_scene(tesauro_at("judge-long"), you=ANN, screen="GameScreen"))
    app, run_before = shown.build()
    async with app.run_test(size=PHONE) as pilot:
        await started(pilot, shown, run_before)
        hand = app.screen.query_one("#hand")
        assert hand.scroll_y == 0 and hand.max_scroll_y > 0
        await tap(pilot, t("tesauro.more_tap"), hand)
        await pilot.wait_for_scheduled_animations()
        assert hand.scroll_y > 0


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_definition_fields_placeholder_fits_a_phone(language):
    """The empty field on a phone said "Ваше определение, под вашу" — cut at 40 columns."""
    set_lang(language)
    try:
        shown = scene(player_scene(tesauro_at("typing"), you=1, screen="GameScreen"), ("enter",))
        app, run_before = shown.build()
        async with app.run_test(size=PHONE) as pilot:
            await started(pilot, shown, run_before)
            field = app.screen.query_one("#tsh-text")
            await until(lambda: field.display and field.content_size.width, pilot)
            placeholder = t("tesauro.placeholder")
            assert field.value == "" and field.placeholder == placeholder
            assert len(placeholder) <= field.content_size.width - 1, field.content_size
            assert placeholder in "\n".join(on_screen(app))
    finally:
        set_lang("en")


@pytest.mark.parametrize(("language", "said"), [("en", "in 4 s."), ("ru", "через 4 с.")])
async def test_the_wait_after_a_wrong_code_is_whole_seconds(language, said):
    """ "через 4.0 с" is no Russian (a decimal comma): the wait is said in whole seconds,
    rounded up (no try before its time)."""
    from tui.client.app import ClientApp

    set_lang(language)
    try:
        app = ClientApp(("127.0.0.1", 9), discover=False, only_this_table=True)
        async with app.run_test(size=PHONE) as pilot:
            await until(lambda: isinstance(app.screen, JoinScreen), pilot)
            error = {"code": "bad_code", "message": "", "params": {"retry_after": 3.2}}
            app.switch_screen(JoinScreen("127.0.0.1", 9, error=error))
            await until(lambda: app.screen.is_mounted and app.screen.error, pilot)
            await pilot.pause()
            shown = " ".join(" ".join(on_screen(app)).split())
            assert said in shown and "3.2" not in shown and "4.0" not in shown
    finally:
        set_lang("en")


@pytest.mark.parametrize(
    ("language", "code", "said"),
    [
        ("en", "slow_down", "Too many tries from this device"),
        ("ru", "slow_down", "Слишком много попыток с этого устройства"),
        ("en", "blocked", "this device's address"),
        ("ru", "blocked", "адрес этого устройства"),
    ],
)
async def test_the_door_s_refusals_on_a_phone_say_this_device(language, code, said):
    """Too many wrong codes (or an address blocked), on a phone's web seat: it said "from
    this laptop". The door's words fit a laptop and a phone alike."""
    from tui.client.app import ClientApp

    set_lang(language)
    try:
        app = ClientApp(("127.0.0.1", 9), discover=False, only_this_table=True)
        async with app.run_test(size=PHONE) as pilot:
            await until(lambda: isinstance(app.screen, JoinScreen), pilot)
            error = {"code": code, "message": "", "params": {"retry_after": 4.2}}
            app.switch_screen(JoinScreen("127.0.0.1", 9, error=error))
            await until(lambda: app.screen.is_mounted and app.screen.error, pilot)

            def shown() -> str:  # the form's refusal line, unwrapped
                return " ".join(str(app.screen.query_one("#join-error").render()).split())

            await until(lambda: said in shown(), pilot, what=said)
            assert "laptop" not in shown() and "ноутбук" not in shown()
    finally:
        set_lang("en")
