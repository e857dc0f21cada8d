"""Every countdown on a screen reads the app's one clock (`tui.widgets.Timed`): stopped there,
they all stop together, and each shows what is left of the room's `timer_seconds`."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Static

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


async def test_one_widget_s_clock_may_be_stopped_alone():
    app = Clocked()
    async with app.run_test():
        one, two = app.query_one("#one", Ticking), app.query_one("#two", Ticking)
        one.follow_timer(30)
        two.follow_timer(30)
        one.now = lambda: 1005.0  # (a screenshot stops one widget's)
        app.clock_at = 1020.0
        assert (one.seconds_left(), two.seconds_left()) == (25.0, 10.0)


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
