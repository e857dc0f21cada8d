"""The host over real sockets on 127.0.0.1: joining, refusals, reconnects, kicks, garbage,
bots, timers and a restart from the save file."""

from __future__ import annotations

import asyncio
import copy
import struct

import pytest

from net.protocol import PROTOCOL_VERSION, encode
from net.room import Room
from net.server import STORY_BYTES, Server, _story
from tests.fakegame import CARDS
from tests.wire import Wire
from tui.waiting import until


async def seated(server: Server, name: str) -> Wire:
    wire = await Wire.join(server.port, name, code=server.room.code)
    await wire.expect("welcome")
    await wire.expect("view")
    return wire


async def test_join_gives_a_seat_a_token_and_the_lobby(table):
    wire = await Wire.join(table.port, "Ann", code=table.room.code)
    welcome = await wire.expect("welcome")
    assert welcome["seat"] == 0 and len(welcome["token"]) >= 22  # >= 128 bits, urlsafe
    view = await wire.expect("view")
    assert view["room"]["seats"] == [
        {
            "name": "Ann",
            "connected": True,
            "bot": None,
            "standin": False,
            "leaving": False,
            "away_for": None,
            "standin_in": None,
            "mark": 0,
        }
    ]
    assert view["room"]["you"] == 0 and view["game"] is None
    assert table.room.code not in str(view)  # the code is never sent back out


@pytest.mark.parametrize("code", [None, "ZZZZ", ""])
async def test_wrong_or_missing_code_is_refused(table, code):
    wire = await Wire.join(table.port, "Ann", code=code)
    error = await wire.expect("error")
    assert error["code"] == "bad_code"
    assert await wire.closed()
    assert table.room.seats == []


async def test_code_is_case_insensitive(table):
    wire = await Wire.join(table.port, "Ann", code=table.room.code.lower())
    assert (await wire.expect("welcome"))["seat"] == 0


async def test_open_room_needs_no_code(peek):
    room = Room("Open", game_id="peek", open_room=True)
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    try:
        wire = await Wire.join(server.port, "Ann")
        assert (await wire.expect("welcome"))["seat"] == 0
    finally:
        await server.close()


async def test_duplicate_name_is_refused(table):
    ann = await seated(table, "Ann")  # here: her seat is never handed to anyone
    wire = await Wire.join(table.port, "ann", code=table.room.code)
    assert (await wire.expect("error"))["code"] == "name_taken"
    assert ann.views


async def test_version_mismatch_is_explained(table):
    wire = await Wire.connect(table.port)
    await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION + 1, "name": "Ann"})
    error = await wire.expect("error")
    assert error["code"] == "version_mismatch" and str(PROTOCOL_VERSION) in error["message"]


async def test_everyone_sees_a_newcomer(table):
    ann = await seated(table, "Ann")
    await seated(table, "Bob")
    view = await ann.view_where(lambda v: len(v["room"]["seats"]) == 2)
    assert [s["name"] for s in view["room"]["seats"]] == ["Ann", "Bob"]


async def in_game(*wires: Wire) -> None:
    """Read until each wire has seen the game (an action needs the view it is made from)."""
    for wire in wires:
        await wire.view_where(lambda v: v["game"] is not None)


async def start_peek(table, *names: str) -> list[Wire]:
    wires = [await seated(table, n) for n in names]
    table.room.start()
    for wire in wires:
        await wire.view_where(lambda v: v["game"] is not None and "card" in v["game"])
    return wires


async def test_each_seat_sees_only_its_own_card(table):
    wires = await start_peek(table, "Ann", "Bob", "Cid")
    hands = table.room.state["hands"]
    for seat, wire in enumerate(wires):
        assert wire.views[-1]["game"]["card"] == hands[seat]
        for other, card in enumerate(hands):
            if other != seat:
                assert card.encode() not in wire.raw, f"seat {seat} received {card}"


async def test_reconnect_with_token_regains_seat_and_private_view(table):
    ann, bob = await start_peek(table, "Ann", "Bob")
    token = table.room.seats[0].token
    ann.close()
    await bob.view_where(lambda v: v["room"]["seats"][0]["connected"] is False)
    again = await Wire.join(table.port, "", token=token)
    welcome = await again.expect("welcome")
    assert welcome["seat"] == 0
    view = await again.view_where(lambda v: v["room"]["seats"][0]["connected"])
    assert view["game"]["card"] == table.room.state["hands"][0]
    assert table.room.state["away"][0] is False  # the game heard "back"


async def test_unknown_token_is_refused(table):
    wire = await Wire.connect(table.port)
    await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "nope"})
    assert (await wire.expect("error"))["code"] == "unknown_token"


async def test_a_second_connection_replaces_the_first(table):
    first = await seated(table, "Ann")
    token = table.room.seats[0].token
    second = await Wire.join(table.port, "", token=token)
    assert (await second.expect("welcome"))["seat"] == 0
    assert (await first.expect("kicked"))["reason"] == "replaced"
    assert await first.closed()
    assert table.connections[0] is not None and len(table.room.seats) == 1
    await second.send({"type": "ping", "t": 1})
    assert (await second.expect("pong"))["t"] == 1


async def test_kick_in_the_lobby_frees_the_seat(table):
    ann = await seated(table, "Ann")
    bob = await seated(table, "Bob")
    cid = await seated(table, "Cid")
    table.kick(1)
    assert (await bob.expect("kicked"))["reason"] == "kicked"
    assert await bob.closed()
    view = await cid.view_where(lambda v: len(v["room"]["seats"]) == 2)
    assert view["room"]["you"] == 1  # Cid moved into Bob's place
    await ann.view_where(lambda v: [s["name"] for s in v["room"]["seats"]] == ["Ann", "Cid"])
    # Bob's token no longer opens anything
    assert table.room.seat_of_token("x") is None


async def test_kick_mid_game_lets_a_bot_take_over(table):
    ann, bob = await start_peek(table, "Ann", "Bob")
    table.kick(1)
    assert (await bob.expect("kicked"))["reason"] == "kicked"
    assert table.room.seats[1].bot == "plain"
    await ann.send({"type": "action", "action": {"type": "reveal"}, "ref": 1})
    # the bot plays seat 1 and the game ends
    view = await ann.view_where(lambda v: v["game"]["over"])
    assert view["game"]["revealed"][1] == table.room.state["hands"][1]


async def test_garbage_from_one_connection_leaves_the_others_playing(table):
    ann, bob = await start_peek(table, "Ann", "Bob")
    evil = await Wire.connect(table.port)
    evil.writer.write(struct.pack(">I", 12) + b"\xc1" * 12)  # 0xc1 is never valid msgpack
    await evil.writer.drain()
    assert (await evil.expect("error"))["code"] == "bad_frame"
    assert await evil.closed()
    huge = await Wire.connect(table.port)
    huge.writer.write(struct.pack(">I", 10_000_000))
    assert (await huge.expect("error"))["code"] == "too_large"
    # a seated player sending junk gets an error and keeps its seat
    await bob.send_raw({"type": "launch"})
    bob.writer.write(struct.pack(">I", 4) + b"\x93\x01\x02\x03")  # [1, 2, 3]: not a map
    assert (await bob.expect("error"))["code"] == "unknown_type"
    assert (await bob.expect("error"))["code"] == "bad_message"
    await ann.send({"type": "action", "action": {"type": "reveal"}, "ref": 7})
    view = await ann.view_where(lambda v: v["game"]["turn"] == 1)
    assert view["game"]["revealed"][0] is not None


async def test_illegal_action_gets_a_stable_code_and_changes_nothing(table):
    _ann, bob = await start_peek(table, "Ann", "Bob")
    await bob.send({"type": "action", "action": {"type": "reveal"}, "ref": 5})
    error = await bob.expect("error")
    assert error == {
        "type": "error",
        "code": "not_your_turn",
        "message": "refused: not_your_turn",
        "key": "illegal.not_your_turn",
        "ref": 5,
    }
    await bob.send({"type": "action", "action": {"type": "timeout", "step": 0}, "ref": 6})
    assert (await bob.expect("error"))["code"] == "not_yours"
    assert table.room.state["turn"] == 0 and table.room.log[1:] == []


async def test_the_timer_moves_a_slow_player_on(table):
    table.room.set_option("turn_seconds", 0.3)
    ann, _bob = await start_peek(table, "Ann", "Bob")
    view = await ann.view_where(lambda v: any(e["type"] == "passed" for e in v["events"]))
    assert {"type": "passed", "seat": 0, "why": "timeout"} in view["events"]


async def test_a_late_joiner_waits_and_sees_the_table_only(table):
    _ann, _bob = await start_peek(table, "Ann", "Bob")
    cid = await seated(table, "Cid")
    view = cid.views[-1]
    assert view["room"]["you"] == 2 and view["room"]["players"] == 2
    assert "card" not in view["game"]
    for card in table.room.state["hands"]:
        assert card.encode() not in cid.raw
    await cid.send({"type": "action", "action": {"type": "reveal"}})
    assert (await cid.expect("error"))["code"] == "not_playing"


async def test_host_restart_with_resume(peek, state_dir):
    save = state_dir / "table.save"
    room = Room("Friday", game_id="peek", save_path=save)
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    ann = await seated(server, "Ann")
    bob = await seated(server, "Bob")
    room.start()
    await in_game(ann)
    await ann.send({"type": "action", "action": {"type": "pass"}})
    await bob.view_where(lambda v: v["game"] and v["game"]["turn"] == 1)
    hands = list(room.state["hands"])
    tokens = [s.token for s in room.seats]
    port = server.port
    await server.close()  # the host is killed; the file is all that is left
    room.close()

    again = Room.resume(save)
    assert again.state["hands"] == hands and again.state["turn"] == 1
    assert again.state["away"] == [False, False] and again.code == room.code
    server = Server(again, host="127.0.0.1", port=port)
    await server.start()
    try:
        bob = await Wire.join(port, "", token=tokens[1])
        assert (await bob.expect("welcome"))["seat"] == 1
        view = await bob.view_where(lambda v: v["game"] is not None)
        assert view["game"]["card"] == hands[1] and view["game"]["turn"] == 1
        await bob.send({"type": "action", "action": {"type": "reveal"}})
        view = await bob.view_where(lambda v: v["game"]["over"])
        assert view["game"]["scores"][1] == int(hands[1].split("-")[1])
    finally:
        await server.close()
        again.close()


async def test_bots_play_through_the_same_validated_path(table):
    table.room.add_bot()
    ann = await seated(table, "Ann")
    table.room.start()
    await ann.view_where(lambda v: v["game"] and v["game"]["turn"] == 1)
    await ann.send({"type": "action", "action": {"type": "reveal"}})
    view = await ann.view_where(lambda v: v["game"] and v["game"]["over"])
    assert view["game"]["revealed"][0] in CARDS  # the bot (seat 0) revealed its own card


async def test_save_file_is_written_atomically_after_every_action(table, state_dir):
    ann = await seated(table, "Ann")
    table.room.start()
    table.room.flush()
    before = Room.resume(state_dir / "table.save")
    assert before.state["turn"] == 0
    await in_game(ann)
    await ann.send({"type": "action", "action": {"type": "pass"}})
    await ann.view_where(lambda v: v["game"]["over"])
    table.room.flush()
    after = Room.resume(state_dir / "table.save")
    assert after.state["turn"] == 1 and [0, {"type": "pass"}] in after.log
    assert not [p for p in state_dir.iterdir() if p.name.endswith(".tmp")]
    before.close()
    after.close()


async def test_silent_connection_is_dropped_after_the_hello_timeout(table, monkeypatch):
    monkeypatch.setattr("net.server.HELLO_TIMEOUT", 0.2)
    wire = await Wire.connect(table.port)
    assert await wire.closed()
    await asyncio.sleep(0)


async def test_removing_a_bot_before_a_player_keeps_the_player_connected(table):
    table.room.add_bot()
    ann = await seated(table, "Ann")  # seat 1, after the bot
    table.kick(0)  # the bot goes: Ann moves to seat 0
    view = await ann.view_where(lambda v: len(v["room"]["seats"]) == 1)
    assert view["room"]["you"] == 0 and table.connections[0].seat == 0
    table.room.start()
    await in_game(ann)
    await ann.send({"type": "action", "action": {"type": "reveal"}})
    view = await ann.view_where(lambda v: v["game"] and v["game"]["over"])
    assert view["game"]["revealed"][0] == table.room.state["hands"][0]


async def test_a_seat_kicked_mid_game_is_gone_in_the_next_lobby(table, monkeypatch):
    monkeypatch.setattr(type(table.room.game), "bots", {})  # a game without bots
    _ann, _bob, cid = await start_peek(table, "Ann", "Bob", "Cid")
    table.kick(1)
    assert table.room.seats[1].leaving and table.room.state["away"][1]
    table.room.end()
    view = await cid.view_where(lambda v: len(v["room"]["seats"]) == 2)
    assert view["room"]["you"] == 1
    assert [s.name for s in table.room.seats] == ["Ann", "Cid"]


async def test_views_keep_growing_across_a_resume(peek, state_dir):
    save = state_dir / "v.save"
    room = Room("R", game_id="peek", open_room=True, save_path=save)
    room.join("Ann", None)
    room.start()
    room.flush()
    assert Room.resume(save).version > room.version


async def test_saying_bye_in_the_lobby_gives_the_seat_up(table):
    ann = await seated(table, "Ann")
    bob = await seated(table, "Bob")
    await ann.send({"type": "bye"})
    view = await bob.view_where(lambda v: [s["name"] for s in v["room"]["seats"]] == ["Bob"])
    assert view["room"]["you"] == 0 and table.connections[0].seat == 0


async def test_saying_bye_mid_game_hands_the_seat_to_a_bot(table):
    ann, bob = await start_peek(table, "Ann", "Bob")
    token = table.room.seats[0].token
    await ann.send({"type": "bye"})
    assert await ann.closed()
    await bob.view_where(lambda v: v["room"]["seats"][0]["bot"] == "plain")
    assert table.room.seats[0].leaving and table.room.seat_of_token(token) is None
    view = await bob.view_where(lambda v: v["game"]["turn"] == 1)  # the bot played seat 0
    assert view["game"]["revealed"][0] == table.room.state["hands"][0]
    table.room.end()
    await bob.view_where(lambda v: [s["name"] for s in v["room"]["seats"]] == ["Bob"])


async def test_a_player_absent_at_the_start_gets_the_grace_time(table):
    ann = await seated(table, "Ann")  # (kept: a dropped Wire would close Ann's connection)
    bob = await seated(table, "Bob")
    bob.close()
    await until(lambda: not table.room.seats[1].connected)
    table.room.start()
    assert table.room.state["away"] == [False, False]  # the game hears nothing yet
    seats = table.room.summary()["seats"]
    assert seats[1]["away_for"] is not None and 0 < seats[1]["standin_in"] <= 20
    assert ann.views


async def test_no_log_line_carries_an_action_s_content(table, caplog, monkeypatch):
    """Secrets stay out of logs too: a failing action is logged by its type alone."""
    ann, _bob = await start_peek(table, "Ann", "Bob")

    def broken(state, seat, action):
        raise RuntimeError("a bug in a game")

    monkeypatch.setattr(type(table.room.game), "apply", lambda self, s, seat, a: broken(s, seat, a))
    with caplog.at_level("DEBUG"):
        await ann.send(
            {"type": "action", "action": {"type": "define", "text": "SECRET-42"}, "ref": 3}
        )
        error = await ann.expect("error")
    assert error["code"] == "internal" and error["ref"] == 3
    assert "SECRET-42" not in caplog.text and "'define'" in caplog.text


async def test_a_table_closed_for_good_tells_every_player(peek, state_dir):
    room = Room("R", game_id="peek", open_room=True)
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    ann = await seated(server, "Ann")
    await server.close("closed")
    room.close()
    assert (await ann.expect("kicked"))["reason"] == "closed"
    assert await ann.closed()


async def test_a_rule_that_fails_half_way_leaves_the_table_as_it_was(peek, monkeypatch, state_dir):
    """A bug in a game's rules met by an odd action must not wedge the table: the state the
    rules left half-changed is put back as the log has it, and play goes on."""
    room = Room("T", game_id="peek", open_room=True, save_path=state_dir / "t.save")
    for name in ("Ann", "Bob"):
        room.connected(room.join(name, None), returning=False)
    room.start(lang="en")
    before, log_before = copy.deepcopy(room.state), list(room.log)
    real = peek.apply

    def half_way(state, seat, action):
        if action["type"] != "reveal":
            return real(state, seat, action)
        state["turn"] = 99  # changed, then the rules fail
        raise KeyError("a bug")

    monkeypatch.setattr(peek, "apply", half_way)
    with pytest.raises(KeyError):
        room.act(0, {"type": "reveal"})
    assert room.state == before and room.log == log_before
    monkeypatch.setattr(peek, "apply", real)
    room.act(0, {"type": "reveal"})
    assert room.state["revealed"][0] is not None
    room.close()


async def test_a_view_too_big_to_send_is_said_to_its_seat_and_spares_the_others(table, monkeypatch):
    ann, bob = await start_peek(table, "Ann", "Bob")
    room = table.room
    real = room.own_view

    def own_view(seat):
        view = real(seat)
        return {**view, "junk": "x" * 1000} if seat == 0 and view else view

    monkeypatch.setattr(room, "own_view", own_view)
    monkeypatch.setattr("net.protocol.MAX_FRAME", 900)  # Ann's view is now over the limit
    version = room.version
    room.act(room.state["turn"], {"type": "pass"})
    error = await ann.expect("error")
    assert error["code"] == "internal"
    view = await bob.view_where(lambda v: v["version"] > version)  # Bob still hears it
    assert view["room"]["you"] == 1


def test_a_welcome_s_story_keeps_within_the_limits(peek):
    """The newest changes are told first; however much happened, the welcome stays small and
    valid (a line too deep for a welcome is left out, not the welcome)."""
    room = Room("T", game_id="peek", open_room=True)
    for version in range(1, 60):
        room.recent.append((version, [{"type": "said", "text": "x" * 900}]))
    room.recent.append((60, [{"type": "deep", "a": {"b": {"c": {"d": {"e": 1}}}}}]))
    story = _story(room)
    assert story and story[-1]["version"] == 59  # the newest that fits, in order
    assert [e["version"] for e in story] == sorted(e["version"] for e in story)
    welcome = {"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": 0, "token": "t",
               "room": {"name": "T", "id": room.room_id}, "story": story}  # fmt: skip
    assert len(encode(welcome)) <= STORY_BYTES + 200
    room.close()


def test_a_story_from_before_the_seats_were_renumbered_is_not_told(peek):
    """Its seat numbers would name other players: Cid's return, told after Ann left the
    lobby and Cid became seat 1, would read "Bob is back" (or a newcomer's name, in a
    removed seat's place). What happens after the renumbering is told as usual."""
    room = Room("T", game_id="peek", open_room=True)
    for name in ("Ann", "Bob", "Cid"):
        room.connected(room.join(name, None), returning=False)
    room.disconnected(2)
    room.connected(2, returning=True)  # `back {seat: 2}`: Cid (no loop here: told at once)
    assert any(e["type"] == "back" for _, events in room.recent for e in events)
    room.leave(0)  # Ann goes: Bob is seat 0, Cid seat 1
    assert [s.name for s in room.seats] == ["Bob", "Cid"]
    told = [e for change in _story(room) for e in change["events"]]
    assert told == [{"type": "left", "seat": 0, "name": "Ann"}]  # by name: no seat to misread
    assert list(room.history) == told  # a resumed host's story begins here too
    room.add_bot()
    assert [e["type"] for change in _story(room) for e in change["events"]] == ["left", "joined"]
    room.close()


def test_a_game_without_bots_sends_the_bots_away_and_says_so():
    """Choosing T-Rex (no bots) takes the bot seats away: each is told, by name, before the
    game is, and the others are renumbered."""
    room = Room("T", game_id="tallyup", open_room=True)
    heard: list[dict] = []
    room.subscribe(heard.extend)
    room.add_bot()
    room.connected(room.join("Ann", None), returning=False)
    room.add_bot()
    heard.clear()
    room.choose_game("trex")
    assert [s.name for s in room.seats] == ["Ann"]
    assert heard == [
        {"type": "kicked", "seat": 0, "name": "Bot 1"},
        {"type": "kicked", "seat": 2, "name": "Bot 2"},
        {"type": "game_chosen", "game": "trex"},
    ]
    room.close()
