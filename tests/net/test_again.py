"""Playing the same game again from the results: the options and the seats stay (bots with
their strengths), those who left go, and the players see one change, never a lobby between."""

from __future__ import annotations

import pytest

from net.protocol import ProtocolError
from net.room import Room
from net.server import Server
from tests.fakegame import PeekBot
from tests.wire import Wire


@pytest.fixture
def strengths(peek, monkeypatch):
    """Peek with bots of two strengths, as Tally Up has three."""
    monkeypatch.setattr(type(peek), "bots", {"plain": PeekBot, "bold": PeekBot})
    return peek


def finish(room: Room) -> None:
    """Everyone reveals in turn (the bots' seats too: no loop runs them here)."""
    while room.phase == "playing":
        room.act(room.state["turn"], {"type": "reveal"})


def lively_room() -> Room:
    """Ann, Bob, a bold bot and a plain one; options and the grace time off their defaults;
    one game played, Bob gone in the middle of it."""
    room = Room("Friday", game_id="peek", open_room=True)
    for name in ("Ann", "Bob"):
        room.connected(room.join(name, None), returning=False)
    room.add_bot("bold")
    room.add_bot("plain")
    room.set_option("turn_seconds", 30.0)
    room.set_option("grace", 60)
    room.start(lang="ru")
    room.leave(1)  # Bob says goodbye: a bot plays his seat to the end
    finish(room)
    assert room.phase == "over"
    return room


def test_play_again_keeps_the_options_and_every_seat_but_who_left(strengths):
    room = lively_room()
    heard: list[list[dict]] = []
    room.subscribe(heard.append)
    room.play_again(lang="en")
    assert room.phase == "playing" and room.players == 3
    assert [(s.name, s.bot) for s in room.seats] == [
        ("Ann", None),
        ("Bot 1", "bold"),
        ("Bot 2", "plain"),
    ]
    assert room.options == {"turn_seconds": 30.0, "lang": "ru"}  # the first game's language
    assert room.room_options == {"grace": 60}
    assert room.state["turn_seconds"] == 30.0 and room.state["players"] == ["Ann", "Bot 1", "Bot 2"]
    assert room.seats[0].token and not any(s.leaving or s.standin for s in room.seats)
    [events] = heard  # one change: from the results straight into the game
    assert [e["type"] for e in events[:2]] == ["game_ended", "game_started"]
    assert events[0] == {"type": "game_ended", "again": True}


def test_play_again_is_refused_when_too_few_would_stay(strengths, monkeypatch):
    monkeypatch.setattr(type(strengths), "min_players", 4)
    room = lively_room()
    version = room.version
    with pytest.raises(ProtocolError) as refused:
        room.play_again()
    assert refused.value.code == "player_count"
    assert room.phase == "over" and room.version == version  # nothing changed
    assert [s.name for s in room.seats] == ["Ann", "Bob", "Bot 1", "Bot 2"]
    room.end()  # the lobby still works: Bob is gone there
    assert [s.name for s in room.seats] == ["Ann", "Bot 1", "Bot 2"]


def test_play_again_counts_who_sat_down_during_the_game(strengths, monkeypatch):
    monkeypatch.setattr(type(strengths), "max_players", 2)
    room = Room("Friday", game_id="peek", open_room=True)
    room.join("Ann", None)
    room.add_bot("bold")
    room.start()
    room.join("Cid", None)  # a late joiner, for the next game
    finish(room)
    with pytest.raises(ProtocolError):
        room.play_again()  # three would stay: too many for two seats
    room.kick(2)
    room.play_again()
    assert room.players == 2 and [s.bot for s in room.seats] == [None, "bold"]


def test_play_again_from_the_lobby_is_a_start_and_mid_game_is_refused(strengths):
    room = Room("Friday", game_id="peek", open_room=True)
    room.join("Ann", None)
    room.play_again()
    assert room.phase == "playing"
    with pytest.raises(ProtocolError) as refused:
        room.play_again()
    assert refused.value.code == "game_running"


async def test_a_player_goes_from_the_results_to_the_new_game_at_the_new_index(
    strengths, state_dir
):
    """Over real sockets: Cid, after Bob who left, is seat 1 of the next game, and his next
    view after the results is already the game — no lobby view in between."""
    room = Room("Friday", game_id="peek", save_path=state_dir / "t.save")
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    try:
        wires = []
        for name in ("Ann", "Bob", "Cid"):
            wire = await Wire.join(server.port, name, code=room.code)
            await wire.expect("welcome")
            wires.append(wire)
        ann, bob, cid = wires
        room.add_bot("bold")
        room.start()
        await cid.view_where(lambda v: v["game"] is not None)
        await bob.send({"type": "bye"})
        assert await bob.closed()
        finish(room)
        await cid.view_where(lambda v: v["room"]["phase"] == "over")
        room.play_again()
        view = await cid.expect("view")
        assert view["room"]["phase"] == "playing" and view["room"]["you"] == 1
        assert [s["name"] for s in view["room"]["seats"]] == ["Ann", "Cid", "Bot 1"]
        assert view["room"]["seats"][2]["bot"] == "bold"
        assert view["events"][0] == {"type": "game_ended", "again": True}
        assert view["game"]["card"] == room.state["hands"][1]
        await ann.view_where(lambda v: v["room"]["phase"] == "playing")
    finally:
        await server.close()
        room.close()


def test_back_to_the_lobby_says_whether_the_host_cut_the_game_short(peek):
    """`game_ended` has `stopped`: true when the host ended a game being played, false after a
    game that was over — which the players read ("The host ended the game" only then)."""
    from tui.games import narrate_room
    from tui.i18n import set_lang, t

    set_lang("en")
    room = Room("Friday", game_id="peek", open_room=True)
    for name in ("Ann", "Bob"):
        room.connected(room.join(name, None), returning=False)
    heard: list[dict] = []
    room.subscribe(heard.extend)
    room.start(lang="en")
    room.end()
    assert heard[-1] == {"type": "game_ended", "stopped": True}
    assert narrate_room(heard[-1], ["Ann", "Bob"]) == t("room_event.game_ended")
    room.start(lang="en")
    finish(room)
    room.end()
    assert heard[-1] == {"type": "game_ended", "stopped": False}
    assert narrate_room(heard[-1], ["Ann", "Bob"]) == t("room_event.back_to_lobby")


def test_a_seat_keeps_its_mark_when_one_before_it_goes_and_through_games(peek, state_dir):
    """Each seat's symbol and colour (`mark`) is the seat's for the evening: a seat removed
    before it renumbers it but does not change its mark; a newcomer gets the free one; a
    resumed host has them all as they were; a damaged mark is refused."""
    save = state_dir / "marks.save"
    room = Room("Marks", game_id="peek", open_room=True, save_path=save)
    for name in ("Ann", "Bob", "Cid", "Dan"):
        room.connected(room.join(name, None), returning=False)
    marks = lambda: {s["name"]: s["mark"] for s in room.summary()["seats"]}  # noqa: E731
    assert marks() == {"Ann": 0, "Bob": 1, "Cid": 2, "Dan": 3}
    room.kick(1)  # Bob goes: Cid and Dan move up a seat, their marks stay
    assert [s.name for s in room.seats] == ["Ann", "Cid", "Dan"]
    assert marks() == {"Ann": 0, "Cid": 2, "Dan": 3}
    room.connected(room.join("Eve", None), returning=False)
    assert marks()["Eve"] == 1  # the free one
    room.start(lang="en")
    room.leave(0)  # Ann leaves mid-game: her seat goes with the lobby
    room.end()
    assert marks() == {"Cid": 2, "Dan": 3, "Eve": 1}
    room.flush()
    assert {s.name: s.mark for s in Room.resume(save).seats} == {"Cid": 2, "Dan": 3, "Eve": 1}


def test_the_lobby_s_arrows_stop_at_a_scale_s_ends_and_go_round_other_choices():
    room = Room("Friday", game_id="tallyup", open_room=True)
    room.set_option("target", 500)
    assert room.cycle_option("target", -1) is False and room.options["target"] == 500
    assert room.cycle_option("target", 1) is True and room.options["target"] == 1000
    room.set_option("target", 5000)
    assert room.cycle_option("target", 1) is False and room.options["target"] == 5000
    assert room.cycle_option("once_each", 1) and room.cycle_option("once_each", 1)
    assert room.options["once_each"] is False  # (on, and round to off again)


def test_the_words_of_a_tesauro_game_stay_out_of_the_bots_pool_for_the_evening():
    """After `r` (or a game ended and a new one started), the words that came up are not
    the bots' to bluff with, and never shown on the wire."""
    import random

    room = Room("Friday", game_id="tesauro", open_room=True, rng=random.Random(1))
    for name in ("Ann", "Bob", "Cid"):
        room.connected(room.join(name, None), returning=False)
    room.start(lang="en")
    first = [e["word"] for e in room.state["cards"][room.state["card"]]]
    room.end()
    assert room.options["seen"] == first
    assert set(room.summary()["options"]) == {o.key for o in room.game.options} | {"lang"}
    room.start(lang="en")
    pool = {e["word"] for c in room.state["pool"] for e in room.state["cards"][c]}
    assert not pool & set(first)
    assert room.state["card"] not in room.state["pool"]
