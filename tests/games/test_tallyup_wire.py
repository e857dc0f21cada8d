"""Tally Up!'s wire types (games/tallyup/wire.py) against the game itself and against the doc.

Random play-outs check that every view, event and move the game makes decodes with its type
and comes back the same to the byte; hand-spoiled views check that the types refuse what does
not fit; and games/tallyup/PROTOCOL.md must name exactly the keys, actions and events of the types.
"""

from __future__ import annotations

import copy
import math
import random
import re
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any

import msgpack
import msgspec
import pytest

from games.base import CHANCE, GAMES, HOST, sample_chance
from games.tallyup import rules
from games.tallyup.dice import COLOURS, UP_DIE
from games.tallyup.wire import (
    Action,
    ChoiceFor,
    ChoiceOpenEvent,
    Colour,
    Event,
    GameOverEvent,
    HostAction,
    Phase,
    PlayerActionType,
    Side,
    TallyUpResult,
    TallyUpView,
    TimerPhase,
    UpDieLabel,
)
from games.testing import legal_moves
from games.wire import UNSET
from tests.doctables import PROTOCOL, first_column, names, page, section, tables

pytestmark = pytest.mark.timeout(60)

GAME = GAMES["tallyup"]
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]

PLAYOUTS = [
    (1, 2, {"target": 1000}),
    (2, 3, {"target": 500, "high_stakes": True}),
    (3, 4, {"once_each": True}),
    (4, 5, {"once_each": True, "high_stakes": True, "choice_seconds": 0}),
    (5, 6, {"target": 500, "shout_seconds": 5}),
    (6, 6, {"once_each": True, "high_stakes": True}),
    (7, 10, {"once_each": True, "choice_seconds": 0.5}),  # seconds may be a fraction
    (8, 2, {"target": 500, "high_stakes": True}),
    (9, 3, {}),  # the defaults: to 2500
    (10, 4, {"high_stakes": True}),
    (11, 5, {"target": 1500}),
    (12, 2, {"once_each": True}),
    (13, 3, {"once_each": True, "high_stakes": True, "target": 5000}),
    (14, 4, {"target": 500, "choice_seconds": 0}),
    (15, 6, {"high_stakes": True, "target": 1000}),
]
"""(seed, players, options): both variants, every player count from 2 to 6 (and 10)."""


def tags(union: Any) -> list[str]:
    return [member.__struct_config__.tag for member in typing.get_args(union)]


def struct_fields(kind: type[msgspec.Struct]) -> list[msgspec.structs.FieldInfo]:
    return list(msgspec.structs.fields(kind))


def wire_bytes(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def round_trip(kind: Any, value: Any) -> Any:
    """Decode `value` as it leaves the host; it must come back equal, and to the byte."""
    data = wire_bytes(value)
    decoded = msgspec.msgpack.decode(data, type=kind)
    assert msgspec.to_builtins(decoded) == value
    assert msgspec.msgpack.encode(decoded) == data  # nothing added, lost or retyped (30 ≠ 30.0)
    return decoded


def refused(kind: Any, value: Any) -> bool:
    try:
        msgspec.msgpack.decode(wire_bytes(value), type=kind)
    except msgspec.ValidationError:
        return True
    return False


# --- random play-outs -------------------------------------------------------------------------


def play(seed: int, n: int, options: dict) -> Iterator[tuple[dict, int | None, dict, list]]:
    """A random game, with the host's away and back now and then; yields the state after
    setup and after every move, with the move (None, {} for setup) and its events."""
    rng = random.Random(seed)
    state = GAME.setup(NAMES[:n], copy.deepcopy(options))
    yield state, None, {}, rules.copy_events(state["last_events"])
    for _ in range(20_000):
        if GAME.result(state) is not None:
            return
        away = [s for s in range(n) if state["away"][s]]
        if (spec := GAME.chance(state)) is not None:
            seat, action = CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)}
        elif away and (rng.random() < 0.3 or not legal_moves(GAME, state, n)):
            seat, action = HOST, {"type": "back", "seat": away[0]}
        elif not away and rng.random() < 0.02:
            seat, action = HOST, {"type": "away", "seat": rng.randrange(n)}
        elif (timer := GAME.timer(state)) is not None and rng.random() < 0.2:
            seat, action = HOST, timer[1]  # nobody shouts, somebody never locks in
        else:
            seat, action = rng.choice(legal_moves(GAME, state, n))
        events = GAME.apply(state, seat, copy.deepcopy(action))
        yield state, seat, action, events
    raise AssertionError("no end")


@cache
def seen() -> dict[str, Any]:
    """What the play-outs showed, for the tests below: every event type, a busy seat view,
    and for every view key one value that is not empty (nor nil)."""
    out: dict[str, Any] = {"events": set(), "moves": set(), "examples": {}, "sample": None}
    for seed, n, options in PLAYOUTS:
        for state, seat, action, events in play(seed, n, options):
            out["moves"].add(action.get("type"))
            for event in events:
                out["events"].add(event["type"])
                round_trip(Event, event)
            if seat is not None:  # a player's move, or HOST's or CHANCE's
                round_trip(Action if seat >= 0 else HostAction, action)
            if GAME.chance(state) is not None:
                continue  # the room rolls at once: no view shows a CHANCE phase (§9)
            check_views(state, n, out)
        result = GAME.result(state)
        room_game_over = {"type": "game_over", "result": result}  # net/room.py, §10.1
        assert round_trip(Event, room_game_over).result == round_trip(TallyUpResult, result)
    return out


def check_views(state: dict, n: int, out: dict[str, Any]) -> None:
    table = GAME.view(state, None)
    decoded = round_trip(TallyUpView, table)
    assert (decoded.seat, decoded.token, decoded.legal) == (UNSET, UNSET, UNSET)
    for seat in range(n):
        mine = GAME.view(state, seat)
        assert round_trip(TallyUpView, mine).seat == seat
        for key, value in mine.items():
            if value not in (None, [], {}) and key not in out["examples"]:
                out["examples"][key] = value
        if mine["last_events"] and mine["locked"].count(True) and mine["history"]:
            out["sample"] = mine
    for seat, action in legal_moves(GAME, state, n):  # HOST's timeout too
        round_trip(HostAction if seat == HOST else Action, action)


def test_every_view_event_and_move_of_random_games_fits_its_type_exactly():
    got = seen()
    assert got["events"] == set(tags(Event))
    assert got["moves"] >= {*tags(Action), *tags(HostAction)}
    assert set(got["examples"]) == {"game", *(f.encode_name for f in struct_fields(TallyUpView))}
    assert got["sample"] is not None


def test_the_game_over_events_of_the_game_and_of_the_room_share_one_type():
    ours = {"type": "game_over", "winners": [1], "scores": [120, 2600]}
    result = {
        "scores": [120, 2600], "winners": [1], "ranking": [1, 0], "shared": False,
        "rounds": 9, "extra_rounds": 0,
    }  # fmt: skip
    theirs = {"type": "game_over", "result": result}
    assert round_trip(Event, ours) == GameOverEvent(winners=[1], scores=[120, 2600])
    assert round_trip(Event, theirs).result == TallyUpResult(**result)
    assert refused(Event, {"type": "game_over", "result": {**result, "secret": 1}})
    assert round_trip(Event, {"type": "choice_open", "for": "reveal", "seats": [0]}) == (
        ChoiceOpenEvent(for_="reveal", seats=[0])
    )


def test_a_view_in_a_chance_phase_is_refused():
    """The room resolves chance inside the change that needs it, so no view shows one (§9)."""
    state = GAME.setup(NAMES[:2], None)
    GAME.apply(state, 0, {"type": "choose_dice", "dice": ["red", "blue", "purple"]})
    GAME.apply(state, 0, {"type": "roll"})
    assert GAME.chance(state) is not None
    assert refused(TallyUpView, GAME.view(state, None))


# --- what does not fit is refused -------------------------------------------------------------


def wrong_values(example: Any) -> list[Any]:
    """Values a key holding `example` must refuse: of other types, too long, too many, NaN."""
    item = example[0] if isinstance(example, list) else 0
    every = ["x" * 1025, math.nan, math.inf, {"x": 1}, [item] * 513]
    if isinstance(example, bool):
        return [*every, 1, "true", []]
    if isinstance(example, int | float):
        return [*every, "3", True, [3]]
    if isinstance(example, str):
        return [*every, 3, True, [example]]
    if isinstance(example, list):
        return [*every, 3, "x", True]
    assert isinstance(example, dict), example
    return [*every, 3, [], "x"]


def test_every_key_refuses_a_value_that_does_not_fit():
    got = seen()
    view = got["sample"]
    assert not refused(TallyUpView, view)
    for key in view:
        for wrong in wrong_values(got["examples"][key]):
            assert refused(TallyUpView, {**view, key: wrong}), (key, wrong)


def test_a_view_refuses_an_unknown_key_and_a_missing_one():
    view = seen()["sample"]
    assert refused(TallyUpView, {**view, "secret_sides": ["in", "out"]})
    assert refused(TallyUpView, {**view, "game": "trex"})
    for key in set(view) - {"game"}:  # a lone tagged Struct reads a value without its tag
        rest = {k: v for k, v in view.items() if k != key}
        assert refused(TallyUpView, rest) == (key not in ("seat", "token", "legal")), key


def test_what_lies_deep_in_a_view_is_checked_too():
    examples = seen()["examples"]
    view = {**seen()["sample"], **{k: examples[k] for k in ("last_roll", "shout", "result")}}
    die = view["last_roll"][0]
    assert not refused(TallyUpView, view)
    spoilt = [
        {"last_roll": [{**die, "face": 6}]},
        {"last_roll": [{**die, "colour": "pink"}]},
        {"last_roll": [{**die, "weight": 1}]},
        {"shout": {"open": True}},
        {"result": {**view["result"], "shared": "no"}},
        {"players": ["x" * 1025]},
        {"history": [[1.5]]},
        {"last_events": [{"type": "no_such_event"}]},
        {"last_events": [{"type": "locked", "seat": 0, "side": "in"}]},  # never the side
        {"last_events": [{"type": "rolled", "seat": 0}]},
        {"legal": ["timeout"]},
        {"token": "maybe"},
        {"seat": -1},
        {"choice_seconds": -1},
    ]
    for change in spoilt:
        assert refused(TallyUpView, {**view, **change}), change


def test_a_player_action_is_one_of_the_five_of_section_16_4():
    assert refused(Action, {"type": "timeout", "phase": "choice"})  # the host's own
    assert refused(Action, {"type": "choose_dice", "dice": "red"})
    assert refused(Action, {"type": "choose_dice", "dice": ["red"], "payload": "x"})
    assert refused(Action, {"type": "token", "side": "maybe"})
    assert refused(Action, {"type": "roll", "dice": []})
    # values within the types are the rules' to judge: `bad_dice`, not a malformed message
    assert not refused(Action, {"type": "choose_dice", "dice": ["red", "red"]})


# --- the types say what the rules say -------------------------------------------------------------


def literal(alias: Any) -> set[str]:
    return set(typing.get_args(alias))


def test_the_closed_sets_are_the_rules_own():
    assert literal(Colour) == set(COLOURS)
    assert literal(UpDieLabel) == set(UP_DIE)
    assert literal(PlayerActionType) == set(tags(Action))
    assert set(tags(Action)) | set(tags(HostAction)) == set(rules.SHAPES)
    assert set(tags(HostAction)) == {*rules.HOST_ACTIONS, "chance"}
    for kind in typing.get_args(Action) + typing.get_args(HostAction):
        names = {f.encode_name for f in struct_fields(kind)}
        assert names == set(rules.SHAPES[kind.__struct_config__.tag]), kind
    shown = [rules.CHOOSE_DICE, rules.ROLL, rules.SHOUT, rules.CHOICE, rules.UP_DIE_ROLL]
    assert literal(Phase) == {*shown, rules.BONUS_DICE, rules.OVER}  # not ROLLING & co.
    assert literal(ChoiceFor) == {rules.BEFORE_UP_DIE, rules.AFTER_ROLL}
    assert literal(Side) == set(rules.SIDES)
    assert literal(TimerPhase) == {rules.CHOICE, rules.SHOUT}


def test_no_key_has_a_default_but_unset():
    """The base leaves out a key that holds its default: only an absent key may have one."""
    kinds = [TallyUpView, TallyUpResult, *typing.get_args(Action)]
    kinds += [*typing.get_args(HostAction), *typing.get_args(Event)]
    for kind in kinds:
        for field in struct_fields(kind):
            assert field.default in (msgspec.NODEFAULT, UNSET), (kind, field.name)


# --- the doc names what the types name ------------------------------------------------------------


def test_section_16_5_names_every_key_of_the_view():
    public, private = tables(section("5", page("tallyup")))
    fields = struct_fields(TallyUpView)
    required = ["game", *(f.encode_name for f in fields if f.required)]
    optional = [f.encode_name for f in fields if not f.required]
    assert sorted(first_column(public)) == sorted(required)
    assert sorted(first_column(private)) == sorted(optional)
    (common,) = tables(section_9())
    assert {row[0].strip("`") for row in common if row[1] == "public"} <= set(required)
    assert {row[0].strip("`") for row in common if row[1] == "private"} <= set(optional)
    result = re.search(
        r"`result` \(from the end on\): `\{(.*?)\}`", section("5", page("tallyup")), re.S
    )
    assert result is not None
    keys = re.findall(r'"(\w+)":', result.group(1))
    assert keys == [f.encode_name for f in struct_fields(TallyUpResult)]


def section_9() -> str:
    text = PROTOCOL.read_text(encoding="utf-8")
    start = text.index("\n## 9. ")
    return text[start : text.index("\n## 10. ", start)]


def test_section_16_4_names_every_player_action_and_its_arguments():
    (table,) = tables(section("4", page("tallyup")))
    assert first_column(table) == tags(Action)
    for row, kind in zip(table, typing.get_args(Action), strict=True):
        arguments = re.findall(r"`([a-z_]+)`:", row[1])
        assert arguments == [f.encode_name for f in struct_fields(kind)], row


def test_section_16_6_names_every_event_and_its_fields():
    (table,) = tables(section("6", page("tallyup")))
    assert sorted(first_column(table)) == sorted(tags(Event))
    kinds = {kind.__struct_config__.tag: kind for kind in typing.get_args(Event)}
    for row in table:
        kind = kinds[names(row[0])[0]]
        named = {f.encode_name for f in struct_fields(kind)} - {"result"}  # the room's, §10.1
        assert set(names(row[1])) == named, row
