"""Nobody's absence stalls the table: every moment a game waits on one seat, over real sockets.

The waiting seat's player is a real connection that drops (the socket closes). With a short
grace time the game goes on — the game's bot plays the seat (a stand-in), or, in a game without
bots, the seat sits out — and the player gets the seat back the moment they return. With a long
grace time a drop changes nothing. The other players act through the room directly: only the
player who vanishes needs a socket here.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from games import GAMES
from games.base import IllegalAction, sample_chance
from games.tallyup.dice import TALLY_DICE
from games.trex import TREX
from games.trex.deck import COLOURS as TREX_COLOURS
from games.trex.stacked import deal as trex_deal
from net.client import Client, TokenStore
from net.room import Room
from net.server import Server
from tests.wire import Wire
from tui.waiting import until

SHORT = 0.2  # a grace time that runs out during the test
LONG = 60  # one that never does


class Stacked:
    """Chance outcomes a test chooses, in order; after them, the room's own draws."""

    def __init__(self, monkeypatch) -> None:
        self.queue: list[Any] = []
        monkeypatch.setattr("net.play.sample_chance", self.draw)

    def draw(self, spec: dict, rng: random.Random) -> Any:
        if self.queue:
            outcome = self.queue.pop(0)
            return outcome(spec) if callable(outcome) else outcome
        return sample_chance(spec, rng)


@pytest.fixture
def stacked(monkeypatch):
    return Stacked(monkeypatch)


class Table:
    """A room and its server; `sockets` names the players who sit at real connections."""

    def __init__(self, game_id: str, names: list[str], sockets: list[str], **options: Any):
        self.names = names
        self.sockets = sockets
        self.grace = options.pop("grace", SHORT)
        self.room = Room("Away", game_id=game_id, open_room=True, bot_pace=0.005)
        self.room.options.update(options)
        self.room.room_options["grace"] = self.grace  # shorter than a lobby would offer
        self.server = Server(self.room, host="127.0.0.1", port=0)
        self.wires: dict[str, Wire] = {}
        self.tokens: dict[str, str] = {}

    async def __aenter__(self) -> Table:
        await self.server.start()
        for name in self.names:
            if name in self.sockets:
                wire = await Wire.join(self.server.port, name)
                await wire.expect("welcome")
                self.wires[name] = wire
            else:
                self.room.join(name, None)
                self.room.connected(self.seat(name), returning=False)
        self.tokens = {s.name: s.token for s in self.room.seats}
        self.room.start(lang="en")
        for wire in self.wires.values():
            await wire.view_where(lambda v: v["game"] is not None)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.server.close()
        self.room.close()

    def seat(self, name: str) -> int:
        return self.names.index(name)

    @property
    def state(self) -> dict:
        return self.room.state

    def act(self, name: str, action: dict) -> None:
        self.room.act(self.seat(name), action)

    def play_one(self, name: str, kind: str) -> None:
        """The first legal action of `kind` for `name` (a tile, a definition…)."""
        game = self.room.game
        action = next(
            a for a in game.legal_actions(self.state, self.seat(name)) if a["type"] == kind
        )
        self.act(name, action)

    async def drop(self, name: str) -> None:
        self.wires.pop(name).close()
        await until(lambda: not self.room.seats[self.seat(name)].connected)

    async def back(self, name: str) -> Wire:
        wire = await Wire.join(self.server.port, "", token=self.tokens[name])
        assert (await wire.expect("welcome"))["seat"] == self.seat(name)
        await wire.view_where(lambda v: v["room"]["seats"][self.seat(name)]["connected"])
        self.wires[name] = wire
        return wire

    def played(self, seat: int, kind: str, times: int = 1) -> bool:
        """Whether `seat` has made `times` moves of `kind` (for good: a phase a bot passes
        through may come round again before a test looks — a bust ends the round in a
        millisecond, and a stand-in that reveals rolls on into the next sealed choice)."""
        made = sum(who == seat and action["type"] == kind for who, action in self.room.log)
        return made >= times

    def handed_back(self, name: str) -> bool:
        """The seat is its player's again: no stand-in, nothing of the bot's pending."""
        seat = self.seat(name)
        return not self.room.seats[seat].standin and seat not in self.room.bots.moves


# --- Tally Up!: choose dice, roll, Up Die, bonus dice, the sealed choice --------------------


def faces(*labels: tuple[str, str]) -> list[int]:
    """Face indexes for (colour, label) pairs, in the order given."""
    return [[f.label for f in TALLY_DICE[c]].index(label) for c, label in labels]


PLAIN_ROLL = faces(("red", "50"), ("orange", "60"), ("yellow", "20"))  # no circle, no star
CIRCLED_ROLL = faces(("red", "(50)"), ("orange", "60"), ("yellow", "20"))  # the Up Die is due
DICE = {"type": "choose_dice", "dice": ["red", "orange", "yellow"]}


async def test_tallyup_a_dropped_active_player_choosing_dice_is_played_and_comes_back():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"]) as table:
        assert table.room.waiting_for() == [0] and table.state["phase"] == "choose_dice"
        await table.drop("Ann")
        await until(lambda: table.played(0, "choose_dice"))  # the stand-in chose
        assert table.room.seats[0].standin
        await table.back("Ann")
        assert table.handed_back("Ann")


async def test_tallyup_a_dropped_player_about_to_roll_is_played():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"]) as table:
        table.act("Ann", DICE)
        assert table.state["phase"] == "roll"
        await table.drop("Ann")
        await until(lambda: table.played(0, "roll"))  # the stand-in rolled
        await table.back("Ann")
        assert table.handed_back("Ann")


async def test_tallyup_a_dropped_player_before_the_up_die_and_the_bonus_dice_is_played(stacked):
    stacked.queue += [CIRCLED_ROLL, 0]  # a circle (high stakes: the Up Die at once), then +1
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], high_stakes=True) as table:
        table.act("Ann", DICE)
        table.act("Ann", {"type": "roll"})
        assert table.state["phase"] == "up_die" and table.room.waiting_for() == [0]
        await table.drop("Ann")
        await until(lambda: table.played(0, "roll", times=2))  # the stand-in rolled the Up Die
        await until(lambda: table.played(0, "bonus_dice"))  # and picked the bonus die
        assert [e["face"] for e in table.room.history if e["type"] == "up_die"] == [0]
        await table.back("Ann")
        assert table.handed_back("Ann")


async def test_tallyup_a_dropped_player_in_a_sealed_choice_is_locked_in_by_the_stand_in(stacked):
    stacked.queue += [PLAIN_ROLL]
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], choice_seconds=90) as table:
        table.act("Ann", DICE)
        table.act("Ann", {"type": "roll"})
        assert table.state["phase"] == "choice" and table.room.waiting_for() == [0, 1]
        table.act("Bob", {"type": "token", "side": "in"})
        await table.drop("Ann")
        await until(lambda: table.played(0, "token"))  # long before the 90 s timer
        await table.back("Ann")
        assert table.handed_back("Ann")


async def test_tallyup_a_drop_shorter_than_the_grace_time_changes_nothing():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        version = table.room.version
        await table.drop("Ann")
        wire = await table.back("Ann")
        assert table.state["phase"] == "choose_dice" and table.state["away"] == [False, False]
        assert "choose_dice" in wire.views[-1]["game"]["legal"]
        assert not any(e["type"] == "stand_in" for e in table.room.history)
        await wire.send({"type": "action", "action": DICE})
        await wire.view_where(lambda v: v["game"]["phase"] == "roll")
        assert table.room.version > version


# --- Tesauro: the reader's choice, the writing, the speaking turn, the Sage's judgement ----


def tesauro(mode: str = "typed", **options: Any) -> dict[str, Any]:
    return {"mode": mode, "think_seconds": options.pop("think_seconds", 0), **options}


async def test_tesauro_a_dropped_reader_gets_a_word_chosen_and_comes_back():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Bob"], **tesauro()) as table:
        assert table.state["phase"] == "choose" and table.room.waiting_for() == [1]
        await table.drop("Bob")
        await until(lambda: table.state["phase"] == "write")
        await table.back("Bob")
        assert table.handed_back("Bob")


async def test_tesauro_a_reader_back_within_the_grace_time_keeps_the_choice():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Bob"], grace=LONG, **tesauro()) as t:
        await t.drop("Bob")
        wire = await t.back("Bob")
        assert t.state["phase"] == "choose"
        assert "choose" in wire.views[-1]["game"]["legal"]
        await wire.send({"type": "action", "action": {"type": "choose", "entry": 1}})
        await wire.view_where(lambda v: v["game"]["phase"] == "write")
        assert t.state["entry"] == 1


async def test_tesauro_a_dropped_scholar_gets_a_definition_written():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Bob"], **tesauro()) as table:
        table.act("Bob", {"type": "choose", "entry": 0})
        table.play_one("Cid", "tile")
        table.play_one("Cid", "define")
        assert table.room.waiting_for() == [1]
        await table.drop("Bob")
        await until(lambda: table.state["phase"] == "judge")
        assert [d["seat"] for d in table.state["defs"]] == [1, 2]
        await table.back("Bob")
        assert table.handed_back("Bob")


async def test_tesauro_a_dropped_speaker_is_played_through_the_turn():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Bob"], **tesauro("spoken")) as table:
        table.act("Bob", {"type": "choose", "entry": 0})
        for name in ("Bob", "Cid"):
            table.play_one(name, "tile")
            table.play_one(name, "done")
        assert table.state["phase"] == "speak" and table.room.waiting_for() == [1]
        await table.drop("Bob")
        await until(lambda: table.room.waiting_for() == [2])  # Bob's stand-in said done
        await table.back("Bob")
        assert table.handed_back("Bob")


async def test_tesauro_a_dropped_sage_is_played_and_comes_back():
    async with Table("tesauro", ["Ann", "Bob", "Cid"], ["Ann"], **tesauro()) as table:
        table.act("Bob", {"type": "choose", "entry": 0})
        for name in ("Bob", "Cid"):
            table.play_one(name, "tile")
            table.play_one(name, "define")
        assert table.state["phase"] == "judge" and table.room.waiting_for() == [0]
        turn = table.state["turn"]
        await table.drop("Ann")
        await until(lambda: table.state["turn"] > turn or table.state["phase"] == "over")
        await table.back("Ann")
        assert table.handed_back("Ann")


# --- T-Rex: the sudden-death vote, the two-player call ---------------------------------------


def trex_chances(stacked: Stacked, players: int, hands: list[int], then: list[int]) -> None:
    names = [f"P{n}" for n in range(players)]
    log = trex_deal(TREX, names, {}, hands, then)
    stacked.queue += [action["outcome"] for seat, action in log if action["type"] == "chance"]


async def test_trex_a_dropped_voter_sits_out_and_the_vote_goes_on(stacked):
    # as tests/games/test_trex_rules.py's to_tie: 2 and 3 empty the bad pile, 0 and 1 tie
    trex_chances(stacked, 4, [5, 5, 1, 10], [1, 10, 2, 9, 3, 8, 4, 7])
    yellow = TREX_COLOURS.index("yellow")
    stacked.queue.append(lambda spec: [yellow, *[i for i in range(3) if i != yellow]])
    names = ["Ann", "Bob", "Cid", "Dan"]
    async with Table("trex", names, ["Dan"], vote_seconds=0) as table:
        for _ in range(5):
            table.act("Cid", {"type": "offer", "to": 3})
            table.act("Dan", {"type": "accept", "from": 2})
            if table.state["phase"] != "play":
                break
        await until(lambda: table.state["phase"] == "vote")
        table.act("Cid", {"type": "vote", "for": 0})
        assert table.room.waiting_for() == [3]
        await table.drop("Dan")
        await until(lambda: table.room.phase == "over")  # no timer: the grace time decided
        assert TREX.result(table.state)["winners"] == [0]


async def test_trex_a_partner_away_in_the_two_player_call_is_waited_for_and_said():
    async with Table("trex", ["Ann", "Bob"], ["Bob"]) as table:
        assert table.state["phase"] == "call"
        table.act("Ann", {"type": "call", "match": True})
        await table.drop("Bob")
        await until(lambda: table.state["away"][1])  # past the grace time the game hears it
        summary = table.room.summary()
        assert summary["waiting"] == [1] and summary["seats"][1]["away_for"] is not None
        assert not summary["seats"][1]["standin"]  # T-Rex has no bot: the host decides
        wire = await table.back("Bob")
        assert not table.state["away"][1] and "call" in wire.views[-1]["game"]["legal"]
        await wire.send({"type": "action", "action": {"type": "call", "match": True}})
        await wire.view_where(lambda v: v["game"]["last_match"] is not None)


async def test_trex_a_player_who_leaves_is_out_of_the_game_not_played_by_a_bot():
    """T-Rex has no bot: whoever leaves mid-game (`bye`) is out of the game — nobody plays the
    seat, offers to it are refused, it is not ranked; fewer than three left end the game."""
    names = ["Ann", "Bob", "Cid", "Dan"]
    async with Table("trex", names, ["Ann", "Bob"]) as table:
        await table.wires["Bob"].send({"type": "bye"})
        view = await table.wires["Ann"].view_where(lambda v: v["game"]["left"][1])
        told = [e["type"] for e in view["events"]]
        assert "left" in told and "bot_takes_over" not in told and "sits_out" not in told
        assert table.room.seats[1].bot is None and table.room.phase == "playing"
        with pytest.raises(IllegalAction, match="target_left"):
            table.act("Cid", {"type": "offer", "to": 1})
        table.server.kick(table.seat("Dan"))  # sent away: the same, and two are left
        assert table.room.phase == "over"
        result = table.room.result()
        assert result["left"] == [1, 3] and set(result["ranking"]) == {0, 2}
        await table.wires["Ann"].view_where(lambda v: v["game"]["over"])


async def test_a_client_cannot_say_that_someone_left():
    async with Table("trex", ["Ann", "Bob", "Cid"], ["Ann"]) as table:
        await table.wires["Ann"].send(
            {"type": "action", "action": {"type": "left", "seat": 1}, "ref": 7}
        )
        refused = await table.wires["Ann"].expect("error")
        assert refused["code"] == "not_yours" and not table.state["left"][1]


# --- kicks, leaving, claims ------------------------------------------------------------------


async def test_kicking_an_away_seat_gives_a_bot_that_plays():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        await table.drop("Ann")
        table.server.kick(0)
        assert table.room.seats[0].bot == "normal" and table.room.seats[0].leaving
        await until(lambda: table.played(0, "choose_dice"))  # the bot plays at once


async def test_a_player_without_a_token_takes_back_an_away_seat_once_the_host_agrees():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        old_token = table.tokens["Ann"]
        await table.drop("Ann")
        laptop = await Wire.join(table.server.port, "ann")  # another laptop, no token
        pending = await laptop.expect("pending")
        assert pending == {"type": "pending", "reason": "claim", "seat": 0}
        assert [c.seat for c in table.room.claims] == [0] and not table.room.seats[0].connected
        table.room.decide(table.room.claims[0].id, approve=True)
        welcome = await laptop.expect("welcome")
        assert welcome["seat"] == 0 and welcome["token"] != old_token
        view = await laptop.view_where(lambda v: v["room"]["seats"][0]["connected"])
        assert "choose_dice" in view["game"]["legal"]  # the same seat, the same moment
        assert table.room.seat_of_token(old_token) is None  # the lost laptop opens nothing


async def test_a_claim_the_host_refuses_gets_name_taken():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        await table.drop("Ann")
        laptop = await Wire.join(table.server.port, "Ann")
        await laptop.expect("pending")
        table.room.decide(table.room.claims[0].id, approve=False)
        assert (await laptop.expect("error"))["code"] == "name_taken"
        assert await laptop.closed()
        assert table.room.claims == [] and not table.room.seats[0].connected


async def test_a_claim_ends_when_the_seat_s_own_player_comes_back():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        await table.drop("Ann")
        laptop = await Wire.join(table.server.port, "Ann")
        await laptop.expect("pending")
        await table.back("Ann")  # with her token: nobody else takes the seat
        assert (await laptop.expect("error"))["code"] == "name_taken"
        assert table.room.claims == []


async def test_a_present_seat_is_never_claimed():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"]) as table:
        laptop = await Wire.join(table.server.port, "Ann")
        assert (await laptop.expect("error"))["code"] == "name_taken"
        assert table.room.claims == []


async def test_a_claimant_who_gives_up_withdraws_the_claim():
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        await table.drop("Ann")
        laptop = await Wire.join(table.server.port, "Ann")
        await laptop.expect("pending")
        laptop.close()
        await until(lambda: table.room.claims == [])


async def test_a_claimant_who_talks_but_never_answers_a_ping_is_gone(monkeypatch):
    monkeypatch.setattr("net.server.PING_EVERY", 0.1)
    monkeypatch.setattr("net.server.DEAD_AFTER", 0.5)
    async with Table("tallyup", ["Ann", "Bob"], ["Ann"], grace=LONG) as table:
        await table.drop("Ann")
        laptop = await Wire.join(table.server.port, "Ann")
        await laptop.expect("pending")
        # pings of its own, faster than the host's: a link that is up one way only
        deadline = asyncio.get_running_loop().time() + 10
        while table.room.claims:
            assert asyncio.get_running_loop().time() < deadline, "the claim is still waiting"
            await laptop.send({"type": "ping", "t": 0})
            await asyncio.sleep(0.02)
        assert await laptop.closed()


async def test_two_names_on_one_state_directory_are_two_seats(peek, state_dir):
    room = Room("R", game_id="peek", open_room=True)
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    store = TokenStore()  # one account: one token file
    try:
        clients = [Client("127.0.0.1", server.port, name=n, tokens=store) for n in ("A", "B")]
        tasks = [asyncio.create_task(c.run()) for c in clients]
        await until(lambda: all(c.status == "connected" for c in clients))
        assert [s.name for s in room.seats] == ["A", "B"]
        assert {c.seat for c in clients} == {0, 1}
        for client in clients:
            await client.close()
        for task in tasks:
            await task
        again = Client("127.0.0.1", server.port, name="B", tokens=store)
        task = asyncio.create_task(again.run())
        await until(lambda: again.status == "connected")
        assert again.seat == 1 and len(room.seats) == 2  # the same name continues its seat
        await again.close()
        await task
    finally:
        await server.close()
        room.close()


def test_every_game_says_whom_it_waits_for_and_what_a_key_is_about():
    for game in GAMES.values():
        assert callable(game.waiting_for) and callable(game.moment), game.id


async def test_a_bot_that_breaks_is_an_error_not_a_seat_that_never_moves(peek, monkeypatch):
    """A bug in a bot surfaces where the room plans it, as it always did; it must not be
    taken for "no event loop here" and leave the seat silently idle."""
    from tests.fakegame import PeekBot

    def broken(*_args):
        raise NotImplementedError("a bot half written")

    monkeypatch.setattr(PeekBot, "act", broken)
    room = Room("Broken", game_id="peek", open_room=True)
    room.join("Ann", None)
    room.add_bot()
    with pytest.raises(NotImplementedError):
        room.start()
    room.close()
