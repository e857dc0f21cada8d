"""Every countdown on a screen reads the app's one clock (`tui.widgets.Timed`): stopped there,
they all stop together, and each shows what is left of the room's `timer_seconds`."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

from tui.games import GameWidget
from tui.widgets import Timed


class Ticking(Timed, Static):
    pass


class Clocked(App[None]):
    clock_at = 1000.0

    def clock(self) -> float:
        return self.clock_at

    def compose(self):
        yield Ticking(id="one")
        yield Ticking(id="two")


async def test_every_countdown_reads_the_app_s_clock():
    app = Clocked()
    async with app.run_test():
        one, two = app.query_one("#one", Ticking), app.query_one("#two", Ticking)
        assert one.seconds_left() is None  # no countdown runs
        one.follow_timer(30)
        app.clock_at += 2.5
        two.follow_timer(27.5)  # the same countdown, told later
        app.clock_at += 10
        assert one.seconds_left() == two.seconds_left() == 17.5
        app.clock_at += 60
        assert one.seconds_left() == 0.0  # never below nothing
        one.follow_timer(None)
        assert one.seconds_left() is None


class Drawn(GameWidget):
    """A game widget as a game writes one: it only draws (and counts its draws)."""

    BINDINGS = [("x", "roll", "Roll")]
    can_focus = True  # (its keys are the screen's while it has the focus, as a hand's)

    def on_mount(self) -> None:
        self.draws: list[dict] = []

    def show(self, view, room) -> None:
        self.draws.append(view)

    def check_action(self, action, parameters):
        if action == "roll" and "roll" not in (self.view.get("legal") or []):
            return None  # greyed
        return True


class Playing(Clocked):
    def compose(self):
        yield Drawn(id="game")


async def test_a_game_widget_keeps_its_view_and_room_and_counts_down_on_the_app_s_clock():
    """(That the footer is refreshed by a new view on its own is
    test_hand_keys.test_the_footer_follows_the_next_view_by_itself: `active_bindings` here is
    computed when asked, so it shows only that `check_action` reads the view kept.)"""
    app = Playing()
    async with app.run_test() as pilot:
        game = app.query_one(Drawn)
        game.focus()
        assert game.view == {} and game.room == {} and game.seconds_left() is None
        view, room = {"phase": "choice", "legal": []}, {"timer_seconds": 30}
        game.present(view, room, [])
        assert (game.view, game.room, game.draws) == (view, room, [view])
        app.clock_at += 12
        assert game.seconds_left() == 18  # the app's clock, not one of its own
        game.present(dict(view), dict(room), [])  # the same again: nothing drawn, no new deadline
        assert len(game.draws) == 1 and game.seconds_left() == 18
        await pilot.pause()
        assert not app.screen.active_bindings["x"].enabled
        game.present({"phase": "roll", "legal": ["roll"]}, {"timer_seconds": None}, [])
        assert game.seconds_left() is None and len(game.draws) == 2
        await pilot.pause()
        assert app.screen.active_bindings["x"].enabled  # (greyed from the view it keeps)


async def test_a_real_hand_and_its_countdown_stop_with_the_app_s_clock():
    from tui.games.tesauro.scenes import tesauro_at
    from tui.scenes import CID, player_scene

    app, run_before = player_scene(tesauro_at("write"), you=CID, screen="GameScreen", timer=42)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        hand = app.screen.query_one("#hand", GameWidget)
        assert hand.seconds_left() == 42  # stopped where the view set it
        stopped = app.clock()
        app.clock = lambda: stopped + 5  # the app's clock moves: the hand's countdown too
        assert hand.seconds_left() == 37


async def test_a_staged_count_steps_to_its_last_beat_then_ends():
    from tui.widgets import Beats

    app = Clocked()
    async with app.run_test():
        drawn: list[int | None] = []
        last = [2]
        one = app.query_one("#one")
        beats = Beats(one, 10.0, lambda: drawn.append(beats.beat), lambda: last[0])
        beats.paused = True  # stepped by hand, as a screenshot does
        beats.start()
        assert beats.beat == 0 and drawn == []
        beats.step()
        last[0] = 3  # (asked at every step: more to show now)
        beats.step()
        beats.step()
        beats.step()
        assert drawn == [1, 2, 3, None] and beats.beat is None  # the last draw: the count over
        beats.start()
        beats.start()  # a count hard on the heels of the last starts again
        assert beats.beat == 0
        beats.stop()
        assert beats.beat is None


async def test_no_countdown_runs_on_a_player_s_screen_while_the_table_is_not_heard():
    """The host killed mid-timer: the player's countdown ran down to "⏱ 0:00 Your move…"
    under "The table is gone… reconnecting", then jumped back to 0:36 after `--resume`."""
    from tui.games.tallyup.scenes import tallyup_at
    from tui.i18n import set_lang
    from tui.scenes import player_scene
    from tui.waiting import until

    set_lang("en")
    app, run_before = player_scene(tallyup_at("sealed"), screen="GameScreen", timer=42.0)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        timed = [w for w in app.screen.query("*") if isinstance(w, Timed)]
        status = app.screen.query_one("#th-status")
        assert any(w.seconds_left() for w in timed) and "⏱" in str(status.render())
        app.link = "reconnecting"
        await until(lambda: "⏱" not in str(status.render()), pilot, what="the countdown gone")
        assert all(w.seconds_left() is None for w in timed)
