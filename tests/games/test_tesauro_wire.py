"""Tesauro's wire types (`games/tesauro/wire.py`) read exactly what the game produces.

Random games, in every mode and with the options that change a view: at every step the table's
view and every seat's view decode as `TesauroView` and come back unchanged (nothing added,
nothing lost, the same bytes out of the typed encoder), every event decodes as `Event`, every
legal move as `Action`. A value of the wrong type, too long a string or list, NaN or an unknown
key is refused. And games/tesauro/PROTOCOL.md names exactly the keys, actions and events the types
have.
"""

from __future__ import annotations

import copy
import functools
import random
import re
from pathlib import Path
from typing import Any, get_args

import msgpack
import msgspec
import pytest

from games.base import CHANCE, GAMES, HOST, sample_chance
from games.tesauro.wire import Action, Event, HostAction, SeatAction, TesauroView
from games.testing import legal_moves
from games.wire import MAX_ITEMS, MAX_STR, UNSET, Wire
from tests.doctables import names, page, section, tables

pytestmark = pytest.mark.timeout(60)

GAME = GAMES["tesauro"]
ROOT = Path(__file__).resolve().parents[2]
WORDS = str(Path(__file__).parent / "data" / "tesauro_words.toml")
"""12 cards: a deck of 8, so the deck runs out and ties are common."""

CASES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "typed": [
        (3, {}),
        (4, {"think_seconds": 0, "rounds": 2}),
        (5, {"deck": WORDS, "rounds": 2, "think_seconds": 0}),
        (6, {"deck": WORDS, "rounds": 3}),
        (7, {"lang": "ru", "think_seconds": 45.5}),  # the rules take any number of seconds
        (8, {"words": "ru", "think_seconds": 30}),
        (3, {"deck": WORDS, "rounds": 3, "think_seconds": 0}),
    ],
    "spoken": [
        (3, {"mode": "spoken"}),
        (4, {"mode": "spoken", "think_seconds": 0, "rounds": 3, "deck": WORDS}),
        (5, {"mode": "spoken", "lang": "ru", "rounds": 2}),
        (6, {"mode": "spoken", "deck": WORDS, "rounds": 2}),
        (7, {"mode": "spoken", "words": "en", "lang": "ru", "think_seconds": 0}),
        (8, {"mode": "spoken", "deck": WORDS}),
    ],
}
SEEDS = 2
MAX_STEPS = 5_000


def tags(union: Any) -> set[str]:
    return {cls.__struct_config__.tag for cls in get_args(union)}


def packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def assert_view(view: dict) -> None:
    """The view decodes, comes back as it was, and the typed encoder gives the same bytes."""
    data = packed(view)
    typed = msgspec.msgpack.decode(data, type=TesauroView)
    assert msgspec.to_builtins(typed) == view
    assert msgspec.msgpack.encode(typed) == data


def assert_event(event: dict) -> str:
    data = packed(event)
    typed = msgspec.msgpack.decode(data, type=Event)
    assert msgspec.to_builtins(typed) == event
    assert msgspec.msgpack.encode(typed) == data
    return event["type"]


def assert_action(action: dict, checked: set[bytes]) -> str:
    data = packed(action)
    if data not in checked:  # the same legal moves come up step after step
        typed = msgspec.msgpack.decode(data, type=Action)
        assert msgspec.to_builtins(typed) == action
        checked.add(data)
    return action["type"]


def presence_move(state: dict, rng: random.Random, n: int) -> tuple[int, dict] | None:
    """Now and then (and whenever nobody can move) a seat goes away or comes back: the game's
    `away` / `back` answers, passed-over speakers and the reader's automatic word."""
    away = [s for s in range(n) if state["away"][s]]
    here = [s for s in range(n) if not state["away"][s]]
    if away and (not here or rng.random() < 0.5):
        return HOST, {"type": "back", "seat": rng.choice(away)}
    if here:
        return HOST, {"type": "away", "seat": rng.choice(here)}
    return None


def play(n: int, options: dict, seed: str, seen: dict[str, set]) -> None:
    rng = random.Random(seed)
    state = GAME.setup([f"Player {s}" for s in range(n)], copy.deepcopy(options))
    checked: set[bytes] = set()
    for step in range(MAX_STEPS):
        for seat in [None, *range(n)]:
            view = GAME.view(state, seat)
            assert_view(view)
            seen["phases"].add(view["phase"])
        if GAME.result(state) is not None:
            return
        spec = GAME.chance(state)
        moves = legal_moves(GAME, state, n)
        for _, action in moves:
            seen["actions"].add(assert_action(action, checked))
        if spec is not None:
            move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
        elif not moves or rng.random() < 0.04:
            move = presence_move(state, rng, n)
            assert move is not None, f"{seed}: stuck at step {step}"
        else:
            move = rng.choice(moves)
        seen["actions"].add(assert_action(move[1], checked))
        for event in GAME.apply(state, move[0], copy.deepcopy(move[1])):
            seen["events"].add(assert_event(event))
    raise AssertionError(f"{seed}: no end after {MAX_STEPS} steps")


@pytest.mark.parametrize("mode", CASES)
def test_random_games_round_trip(mode):
    seen: dict[str, set] = {"phases": set(), "actions": set(), "events": set()}
    for k, (n, options) in enumerate(CASES[mode]):
        for s in range(SEEDS):
            play(n, options, f"{mode}-{k}-{s}", seen)
    # the games went everywhere the types have to fit
    assert seen["phases"] == {"dealing", "choose", "write", "judge", "over"} | (
        {"speak"} if mode == "spoken" else set()
    )
    spoken_only = {"ready", "thought", "speaking", "spoke"}
    assert seen["events"] == tags(Event) - (spoken_only if mode == "typed" else {"given"})
    assert seen["actions"] == tags(Action) - ({"done"} if mode == "typed" else set())


def test_the_room_events_in_the_same_lists_decode():
    """The room's `game_over {result}` and `away` / `back {seat}` share the game's tags."""
    state = GAME.setup(["A", "B", "C"], {"deck": WORDS, "think_seconds": 0})
    rng = random.Random(7)
    while GAME.result(state) is None:
        spec = GAME.chance(state)
        if spec is not None:
            GAME.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
        else:
            GAME.apply(state, *rng.choice(legal_moves(GAME, state, 3)))
    room = [
        {"type": "away", "seat": 2},
        {"type": "back", "seat": 2},
        {"type": "game_over", "result": GAME.result(state)},
    ]
    for event in room:
        assert_event(event)
    assert msgspec.msgpack.decode(packed(room[2]), type=Event).winners is UNSET


# --- wrong values are refused ----------------------------------------------------------------


def played(n: int, options: dict, seed: str):
    """The states of a random game, one per move (the chance moves' in between left out)."""
    rng = random.Random(seed)
    state = GAME.setup([f"P{s}" for s in range(n)], copy.deepcopy(options))
    while GAME.result(state) is None:
        spec = GAME.chance(state)
        if spec is not None:
            GAME.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            continue
        yield state
        GAME.apply(state, *rng.choice(legal_moves(GAME, state, n)))
    yield state


def filled(value: Any) -> bool:
    return value is not None and value != []


@functools.cache
def samples() -> tuple[dict, dict[str, dict]]:
    """A seat's view mid-game (`judge`, a turn judged before), and for every key of the view
    a seat's view in which that key is set (not nil, not empty)."""
    judging = None
    by_key: dict[str, dict] = {}
    games = [
        (4, {"deck": WORDS, "rounds": 2}),
        (5, {"deck": WORDS, "mode": "spoken"}),
        (4, {"lang": "en"}),  # paraphrases: the Brillante's `paraphrase`
    ]
    for k, (n, options) in enumerate(games * 3):
        for state in played(n, options, f"sample-{k}"):
            for seat in range(n):
                view = GAME.view(state, seat)
                by_key.update(
                    (key, view) for key in view if key not in by_key and filled(view[key])
                )
            if judging is None and state["phase"] == "judge" and state["last_turn"] is not None:
                judging = GAME.view(state, state["reader"])
    assert judging is not None
    return judging, by_key


def wrong_values(value: Any) -> list[Any]:
    """Values of the wrong type, or out of the limits, for a field holding `value`."""
    wrong: list[Any] = ["x" * (MAX_STR + 1), float("nan"), [value] * (MAX_ITEMS + 1)]
    if isinstance(value, bool):
        wrong += [1, "true", None, []]
    elif isinstance(value, int | float):
        wrong += [str(value), -1, True, [value], {"n": value}]
    elif isinstance(value, str):
        wrong += [7, [value], {"s": value}]
    elif isinstance(value, list):
        wrong += [len(value), "list", {"0": value}]
        if value:
            wrong.append([*value] * (MAX_ITEMS // len(value) + 1))
    elif isinstance(value, dict):
        wrong += [list(value.values()), 1, "map", {**value, "unknown": 1}]
    return wrong


def test_a_field_of_the_wrong_type_is_refused():
    _, by_key = samples()
    assert set(by_key) == {"game", *TesauroView.__struct_fields__}
    for key, view in by_key.items():
        for bad in wrong_values(view[key]):
            with pytest.raises(msgspec.ValidationError):
                msgspec.msgpack.decode(packed({**view, key: bad}), type=TesauroView)


@pytest.mark.parametrize(
    ("key", "bad"),
    [
        ("bogus", 1),
        ("players", ["x" * (MAX_STR + 1)]),
        ("categories", ["astrology", None, None, None]),
        ("legal", ["timeout"]),  # the host's, never a seat's
        ("role", "judge"),
        ("mode", "written"),
        ("tile", "Food"),
        ("phase", "lobby"),
        ("scores", [1, -1, 0, 0]),
        ("order", [1, 2, MAX_ITEMS]),
        ("think_seconds", float("inf")),
        ("choices", []),
        ("last_events", [{"type": "no_such_event"}]),
        ("last_events", [{"type": "given", "seat": 1, "text": "a secret"}]),
        ("defs", [{"seat": 1, "tile": "food", "text": None, "role": "orate"}]),
    ],
)
def test_a_bad_value_or_an_unknown_key_is_refused(key, bad):
    view = samples()[0]
    with pytest.raises(msgspec.ValidationError):
        msgspec.msgpack.decode(packed({**view, key: bad}), type=TesauroView)


class OtherView(Wire, tag_field="game", tag="other"):
    """Another game's view, as net/ reads `view.game`: a union of the games' views."""


def test_the_game_tag_tells_the_games_apart():
    view = samples()[0]
    for game in ("trex", None, 1):
        with pytest.raises(msgspec.ValidationError):
            msgspec.msgpack.decode(packed({**view, "game": game}), type=TesauroView)
    untagged = packed({k: v for k, v in view.items() if k != "game"})
    # msgspec reads a lone tagged Struct without its tag; in a union the tag is required
    assert msgspec.msgpack.decode(untagged, type=TesauroView).phase == "judge"
    with pytest.raises(msgspec.ValidationError):
        msgspec.msgpack.decode(untagged, type=TesauroView | OtherView)
    assert type(msgspec.msgpack.decode(packed(view), type=TesauroView | OtherView)) is TesauroView


@pytest.mark.parametrize(
    "action",
    [
        {"type": "choose", "entry": True},
        {"type": "choose", "entry": 1.0},
        {"type": "choose"},
        {"type": "tile", "category": "astrology"},
        {"type": "define", "text": 7},
        {"type": "define", "text": "x" * (MAX_STR + 1)},
        {"type": "done", "text": "extra"},
        {"type": "pick", "seat": -1},
        {"type": "pick", "seat": "1"},
        {"type": "chance", "outcome": list(range(MAX_ITEMS + 1))},
        {"type": "timeout", "phase": "judge", "turn": 1},
        {"type": "roll"},
    ],
)
def test_a_bad_action_is_refused(action):
    with pytest.raises(msgspec.ValidationError):
        msgspec.msgpack.decode(packed(action), type=Action)


# --- games/tesauro/PROTOCOL.md names what the types have ------------------------------------------


def arguments(cell: str) -> list[str]:
    """An action's arguments: the backticked names followed by a colon (`entry`: …)."""
    return re.findall(r"`([a-z_][a-z0-9_]*)`:", cell)


def struct_fields(cls: type) -> set[str]:
    return set(cls.__struct_fields__)


def test_the_doc_names_the_view_keys():
    public, private = tables(section("4", page("tesauro")))
    documented_public = [n for row in public for n in names(row[0])]
    documented_private = [n for row in private for n in names(row[0])]
    fields = msgspec.structs.fields(TesauroView)
    required = [f.name for f in fields if f.required]
    optional = [f.name for f in fields if not f.required]
    assert all(f.default is UNSET for f in fields if not f.required)  # nothing made up
    assert sorted(documented_public) == sorted(["game", *required])
    assert sorted(documented_private) == sorted(optional)


def by_tag(union: Any) -> dict[str, type]:
    return {cls.__struct_config__.tag: cls for cls in get_args(union)}


def test_the_doc_names_the_actions_and_their_arguments():
    (table,) = tables(section("3", page("tesauro")))
    actions = by_tag(Action)
    documented = []
    for row in table:
        for tag in names(row[0]):
            documented.append(tag)
            assert tag in actions, f"its page's §3 names an action the types lack: {tag}"
            assert set(arguments(row[1])) == struct_fields(actions[tag]), tag
    assert sorted(documented) == sorted(actions)
    assert tags(SeatAction) | tags(HostAction) == tags(Action)


def test_the_doc_names_the_events_and_their_fields():
    (table,) = tables(section("6", page("tesauro")))
    events = by_tag(Event)
    documented = []
    for row in table:
        for tag in names(row[0]):
            documented.append(tag)
            assert tag in events, f"its page's §6 names an event the types lack: {tag}"
            assert set(names(row[1])) == struct_fields(events[tag]), tag
    assert sorted(documented) == sorted(events)
