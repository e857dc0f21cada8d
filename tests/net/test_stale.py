"""Actions are for the view they were made from: a key pressed twice is one move, not two.

Each action names the version of the view it was made from. When the seat's decision has
changed since (the game's `moment`), the host refuses it as `stale` — a second `roll` is not the
Up Die roll, a second `skip` does not throw away a card nobody has seen. Moves that belong to
the same moment (changing a sealed side, writing after taking a tile) go through.
"""

from __future__ import annotations

import pytest

from games.tallyup.dice import PLUS_100, TALLY_DICE
from tests.net.test_away import Stacked, Table


@pytest.fixture
def stacked(monkeypatch):
    return Stacked(monkeypatch)


def circled() -> list[int]:
    labels = (("red", "(50)"), ("orange", "60"), ("yellow", "20"))
    return [[f.label for f in TALLY_DICE[c]].index(label) for c, label in labels]


async def test_a_second_roll_from_the_same_view_is_stale_not_the_up_die(stacked):
    # high stakes: a circle makes the Up Die due at once; the Up Die then shows +100 (a +3
    # would call three bonus dice, whose bust could end the round before a view showed it)
    stacked.queue.extend([circled(), PLUS_100])
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], high_stakes=True) as table:
        ann = table.wires["Ann"]
        await ann.send(
            {
                "type": "action",
                "action": {"type": "choose_dice", "dice": ["red", "orange", "yellow"]},
            }
        )
        view = await ann.view_where(lambda v: v["game"]["phase"] == "roll")
        made_at = view["version"]
        await ann.send({"type": "action", "action": {"type": "roll"}, "version": made_at})
        await ann.send({"type": "action", "action": {"type": "roll"}, "version": made_at, "ref": 9})
        error = await ann.expect("error")
        assert error["code"] == "stale" and error["ref"] == 9
        assert table.state["phase"] == "up_die" and table.state["up_die"] is None
        await ann.send({"type": "action", "action": {"type": "roll"}})  # from the new view
        await ann.view_where(lambda v: v["game"]["up_die"] == PLUS_100)


async def test_a_sealed_side_may_be_changed_fast(stacked):
    stacked.queue.append([3, 3, 2])  # red 50, orange 60, yellow 20: a plain roll, a choice
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], choice_seconds=90) as table:
        table.act("Ann", {"type": "choose_dice", "dice": ["red", "orange", "yellow"]})
        table.act("Ann", {"type": "roll"})
        ann = table.wires["Ann"]
        view = await ann.view_where(lambda v: v["game"]["phase"] == "choice")
        for side in ("out", "in"):
            action = {"type": "token", "side": side}
            await ann.send({"type": "action", "action": action, "version": view["version"]})
        await ann.view_where(lambda v: v["game"]["token"] == "in")


async def test_a_second_pick_is_stale_in_the_next_turn():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Ann"], mode="typed",
                     think_seconds=0) as table:  # fmt: skip
        table.act("Bob", {"type": "choose", "entry": 0})
        for name in ("Bob", "Cid"):
            table.play_one(name, "tile")
            table.play_one(name, "define")
        ann = table.wires["Ann"]
        view = await ann.view_where(lambda v: v["game"]["phase"] == "judge")
        pick = {"type": "pick", "seat": 1}
        await ann.send({"type": "action", "action": pick, "version": view["version"]})
        await ann.send({"type": "action", "action": pick, "version": view["version"], "ref": 4})
        assert (await ann.expect("error"))["code"] == "stale"
        assert table.state["turn"] == 2


async def test_writing_right_after_taking_a_tile_is_the_same_moment():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Bob"], mode="typed",
                     think_seconds=0) as table:  # fmt: skip
        table.act("Bob", {"type": "choose", "entry": 0})
        bob = table.wires["Bob"]
        view = await bob.view_where(lambda v: v["game"]["phase"] == "write")
        tile = {"type": "tile", "category": view["game"]["allowed"][0]}
        define = {"type": "define", "text": "A thing that is what it is."}
        for action in (tile, define):  # typed before the tile was confirmed
            await bob.send({"type": "action", "action": action, "version": view["version"]})
        await bob.view_where(lambda v: v["game"]["text"] is not None)


async def test_a_second_skip_does_not_discard_a_card_nobody_saw():
    async with Table("trex", ["Ann", "Bob", "Cid"], ["Ann"]) as table:
        ann = table.wires["Ann"]
        view = ann.views[-1]  # the deal is done before the table opens
        assert view["game"]["phase"] == "play" and "skip" in view["game"]["legal"]
        for ref in (1, 2):
            await ann.send(
                {"type": "action", "action": {"type": "skip"}, "version": view["version"],
                 "ref": ref}
            )  # fmt: skip
        error = await ann.expect("error")
        assert error["code"] == "stale" and error["ref"] == 2
        assert [e["type"] for e in table.room.history].count("skipped") == 1


async def test_a_shout_that_loses_the_race_is_stale_and_one_after_the_window_too_late(stacked):
    """Both see three stars; Ann's shout lands first. Bob's, made from the same view, is
    `stale` (Ann's changed every seat's moment: games/tallyup/PROTOCOL.md §7); a shout made from a
    view that shows the window closed is `too_late`, naming the winner."""
    stacked.queue.append([0, 0, 0])  # three stars: TALLY UP!
    async with Table("tallyup", ["Ann", "Bob"], ["Ann", "Bob"], shout_seconds=90) as table:
        table.act("Ann", {"type": "choose_dice", "dice": ["red", "orange", "yellow"]})
        table.act("Ann", {"type": "roll"})
        ann, bob = table.wires["Ann"], table.wires["Bob"]
        seen = await bob.view_where(lambda v: v["game"]["phase"] == "shout")
        shout = {"type": "action", "action": {"type": "shout"}, "version": seen["version"]}
        await ann.send(shout)
        await bob.view_where(lambda v: v["game"]["phase"] != "shout")
        await bob.send(shout | {"ref": 1})
        error = await bob.expect("error")
        assert error["code"] == "stale" and error["ref"] == 1
        await bob.send({"type": "action", "action": {"type": "shout"}, "ref": 2})  # newest view
        error = await bob.expect("error")
        assert error["code"] == "too_late" and error["params"] == {"winner": table.seat("Ann")}
