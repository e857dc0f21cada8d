"""Tally Up!'s shout through a real room: the room's bots shout at a person's pace (drawn from
the room's rng), so a player who shouts within a second of the three stars wins the +200."""

from __future__ import annotations

import asyncio
import random

import pytest

from net.room import Room
from tests.net.test_away import Stacked


@pytest.mark.timeout(30)
@pytest.mark.parametrize("seed", range(8))
async def test_a_player_shouting_within_a_second_beats_the_normal_bots(monkeypatch, seed):
    stacked = Stacked(monkeypatch)
    room = Room("Shout", game_id="tallyup", open_room=True, rng=random.Random(seed))
    try:
        room.join("Ann", None)
        room.connected(0, returning=False)
        room.add_bot("normal")
        room.add_bot("normal")
        room.start(lang="en")
        room.act(0, {"type": "choose_dice", "dice": ["red", "orange", "yellow"]})
        stacked.queue.append([0, 0, 0])  # three stars: TALLY UP!
        room.act(0, {"type": "roll"})
        assert room.state["phase"] == "shout"
        now = asyncio.get_running_loop().time()
        due = {seat: move[2] - now for seat, move in room.bots.moves.items()}
        assert set(due) == {1, 2}, due  # both bots mean to shout…
        assert all(2.0 - 0.1 <= left <= 4.0 for left in due.values()), due  # …in 2–4 s
        room.act(0, {"type": "shout"})  # Ann, well within the second
        assert room.state["shout"]["winner"] == 0
        planned = [move[0]["type"] for move in room.bots.moves.values()]
        assert "shout" not in planned, planned  # (the bots' shouts are off: the choice is on)
    finally:
        room.close()
