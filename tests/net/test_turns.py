"""Nobody who is there but does not act stalls the table: the turn time and the host's nudge
(docs/rules/tallyup.md and tesauro.md, "A player who is there but does not act").

When a seat's turn time or a nudge runs out, the game's bot makes that one move for the seat
(`played_for`), and the seat stays its player's. The countdowns are run out by hand
(`countdown.expire()`): no test waits for a clock."""

from __future__ import annotations

import random
from typing import Any

import pytest

from net.room import Room
from net.snapshot import snapshot_of
from net.turns import NUDGE_SECONDS
from tests.net.test_away import DICE, PLAIN_ROLL
from tui.waiting import until


def table(game_id: str, names: list[str], *, here: bool = True, **options: Any) -> Room:
    room = Room("Turns", game_id=game_id, open_room=True, rng=random.Random(7), **_save(options))
    room.options.update(options)
    for name in names:
        seat = room.join(name, None)
        room.connected(seat, returning=False)
    room.start(lang="en")
    return room


def _save(options: dict[str, Any]) -> dict[str, Any]:
    save = options.pop("save_path", None)
    return {"save_path": save} if save is not None else {}


def events(room: Room, kind: str) -> list[dict[str, Any]]:
    return [e for e in room.history if e["type"] == kind]


def turn(room: Room) -> tuple[dict | None, float | None]:
    summary = room.summary()
    return summary["turn"], summary["timer_seconds"]


# --- the turn time -----------------------------------------------------------------------------


async def test_tallyup_turn_time_runs_out_and_the_bot_makes_that_one_move():
    room = table("tallyup", ["Ann", "Bob"])
    assert room.state["phase"] == "choose_dice" and room.waiting_for() == [0]
    shown, seconds = turn(room)
    assert shown == {"seats": [0], "nudged": False}
    assert 85 < seconds <= 90  # the default: 90 s
    room.countdown.expire()
    assert events(room, "played_for") == [{"type": "played_for", "seat": 0}]
    assert room.state["phase"] != "choose_dice"  # the bot chose the dice
    assert room.seats[0].bot is None and not room.seats[0].standin  # still Ann's seat
    assert room.log[0][0] == 0  # logged as the seat's own move: a replay is the same game
    if room.state["phase"] == "roll":  # Ann's next move has a turn time of its own, afresh
        assert turn(room)[0] == {"seats": [0], "nudged": False} and turn(room)[1] > 85
        room.act(0, {"type": "roll"})
    room.close()


async def test_every_move_starts_the_turn_time_again():
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=60)
    first = room.countdown.action
    assert 55 < turn(room)[1] <= 60
    room.act(0, DICE)
    assert room.countdown.action != first and room.countdown.action["seats"] == [0]
    room.close()


async def test_without_turn_time_no_clock_runs_but_the_host_may_nudge():
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=0)
    assert turn(room) == (None, None)
    assert room.nudgeable() == [0]
    assert room.nudge()
    assert events(room, "nudged") == [{"type": "nudged", "seats": [0]}]
    shown, seconds = turn(room)
    assert shown == {"seats": [0], "nudged": True} and NUDGE_SECONDS - 5 < seconds <= NUDGE_SECONDS
    assert room.nudgeable() == [] and not room.nudge()  # once is enough
    room.countdown.expire()
    assert events(room, "played_for") == [{"type": "played_for", "seat": 0}]
    assert turn(room) == (None, None)  # the nudge is spent; Ann plays on
    room.close()


async def test_a_nudge_shortens_a_turn_time_but_never_lengthens_it():
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=90)
    room.nudge()
    assert turn(room)[1] <= NUDGE_SECONDS
    room.close()
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=5)
    room.nudge()
    assert turn(room)[0]["nudged"] and turn(room)[1] <= 5
    room.close()


async def test_a_nudged_player_who_moves_is_there_the_nudge_is_off():
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=0)
    room.nudge()
    room.act(0, DICE)
    assert turn(room) == (None, None) and not events(room, "played_for")
    room.close()


def plain_roll(monkeypatch) -> None:
    """The Main Roll comes up 50, 60, 20: no circle, no star — the sealed choice follows."""
    monkeypatch.setattr("net.play.sample_chance", lambda spec, rng: PLAIN_ROLL)


async def test_a_sealed_choice_without_timer_is_nudged_for_all_who_have_not_sealed(monkeypatch):
    plain_roll(monkeypatch)
    room = table("tallyup", ["Ann", "Bob", "Cid"], turn_seconds=0, choice_seconds=0)
    room.act(0, DICE)
    room.act(0, {"type": "roll"})
    assert room.state["phase"] == "choice" and room.waiting_for() == [0, 1, 2]
    room.nudge()
    deadline = room.countdown.deadline
    room.act(1, {"type": "token", "side": "out"})  # Bob is there: off for him, not the others
    assert turn(room)[0] == {"seats": [0, 2], "nudged": True}
    assert room.countdown.deadline == pytest.approx(deadline, abs=0.5)  # the same time runs
    room.countdown.expire()
    assert [e["seat"] for e in events(room, "played_for")] == [0, 2]
    assert room.state["phase"] != "choice"  # all sides are sealed: revealed
    room.close()


async def test_a_game_timer_keeps_the_table_going_no_turn_clock_and_no_nudge(monkeypatch):
    plain_roll(monkeypatch)
    room = table("tallyup", ["Ann", "Bob"], choice_seconds=30)
    room.act(0, DICE)
    room.act(0, {"type": "roll"})
    assert room.state["phase"] == "choice"
    assert room.nudgeable() == [] and turn(room)[0] is None
    assert 25 < turn(room)[1] <= 30  # the choice's own countdown
    room.close()


async def test_a_bot_or_an_away_seat_has_no_turn_clock():
    room = table("tallyup", ["Ann", "Bob"])
    room.disconnected(0)  # away: its grace time is what runs, from the next change on
    await until(lambda: turn(room) == (None, None))
    assert room.nudgeable() == []
    room.close()
    room = Room("Turns", game_id="tallyup", open_room=True, rng=random.Random(7))
    room.add_bot("normal")
    room.connected(room.join("Bob", None), returning=False)
    room.start(lang="en")
    assert room.waiting_for() == [0] and room.nudgeable() == []  # the bot plays on its own
    room.close()


async def test_a_game_without_bots_has_no_turn_clock_and_nobody_to_nudge():
    room = table("trex", ["Ann", "Bob", "Cid"])
    assert turn(room) == (None, None) and room.nudgeable() == [] and not room.nudge()
    room.close()


# --- Tesauro: the reader's choice and the Sage's judgement -------------------------------------


async def test_tesauro_the_reader_and_the_sage_have_turn_time_the_writers_do_not():
    room = table("tesauro", ["Ann", "Bob", "Cid"], think_seconds=60, turn_seconds=120)
    assert room.state["phase"] == "choose"
    reader = room.state["reader"]
    assert turn(room)[0] == {"seats": [reader], "nudged": False} and turn(room)[1] > 115
    room.countdown.expire()  # the bot chose a word for the reader
    assert events(room, "played_for") == [{"type": "played_for", "seat": reader}]
    assert room.state["phase"] == "write" and turn(room)[0] is None  # the thinking time runs
    assert room.nudgeable() == []
    room.countdown.expire()  # the thinking time is over: nobody wrote
    assert room.state["phase"] == "judge"
    sage = room.state["sapiente"]
    assert turn(room)[0] == {"seats": [sage], "nudged": False}
    room.countdown.expire()
    assert events(room, "played_for")[-1] == {"type": "played_for", "seat": sage}
    assert room.state["turn"] == 2  # judged: the next turn
    room.close()


async def test_tesauro_a_spoken_definition_has_no_turn_time_but_its_speaker_may_be_nudged():
    room = table("tesauro", ["Ann", "Bob", "Cid"], mode="spoken", think_seconds=0)
    room.act(room.state["reader"], {"type": "choose", "entry": 0})
    for seat in room.waiting_for():
        allowed = room.game.view(room.state, seat)["allowed"]
        room.act(seat, {"type": "tile", "category": allowed[0]})
        room.act(seat, {"type": "done"})
    assert room.state["phase"] == "speak"
    speaker = room.waiting_for()[0]
    assert turn(room) == (None, None) and room.nudgeable() == [speaker]
    room.nudge()
    room.countdown.expire()
    assert events(room, "played_for") == [{"type": "played_for", "seat": speaker}]
    room.close()


# --- after a crash ----------------------------------------------------------------------------


async def test_a_nudge_survives_a_crash_with_the_time_it_had(state_dir):
    save = state_dir / "turns.save"
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=0, save_path=save)
    room.nudge()
    room.flush()
    left = snapshot_of(room)["clock"]["left"]
    room._cancel_timers()  # the host is killed
    again = Room.resume(save)
    again.start_clocks()
    assert again.countdown.deadline is None  # it waits for its players
    again.connected(0, returning=True)
    shown, seconds = turn(again)
    assert shown == {"seats": [0], "nudged": True}
    assert seconds == pytest.approx(left, abs=1.0)
    again.close()


async def test_a_turn_time_survives_a_crash_with_the_time_it_had(state_dir):
    save = state_dir / "turns.save"
    room = table("tallyup", ["Ann", "Bob"], turn_seconds=60, save_path=save)
    room.flush()
    left = snapshot_of(room)["clock"]["left"]
    room._cancel_timers()
    again = Room.resume(save)
    again.start_clocks()
    again.connected(1, returning=True)  # Bob is back, Ann not yet: no clock for Ann
    assert turn(again) == (None, None)
    again.connected(0, returning=True)
    assert turn(again)[1] == pytest.approx(left, abs=1.0)
    again.close()
