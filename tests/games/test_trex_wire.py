"""T-Rex's wire types (`games/trex/wire.py`) against the rules and against games/trex/PROTOCOL.md.

Random play-outs check, at every step, that every view (the table's and each seat's), every
event and every legal action decodes with its type and encodes back to exactly what the rules
made — nothing added, nothing lost. Wrong types are refused with `msgspec.ValidationError`; the
tables of its §3, §4 and §6 name exactly the types' keys and tags.
"""

from __future__ import annotations

import copy
import random
import re
import typing
from collections import Counter

import msgpack
import msgspec
import pytest

from games.base import CHANCE, GAMES, HOST, sample_chance
from games.testing import legal_moves
from games.trex.wire import Action, Event, News, TRexView
from tests.doctables import first_column, names, page, section, tables

pytestmark = pytest.mark.timeout(60)

TREX = GAMES["trex"]

VIEW = msgspec.msgpack.Decoder(TRexView)
EVENTS = msgspec.msgpack.Decoder(Event)
ACTIONS = msgspec.msgpack.Decoder(Action)

TINY_DECK = """
[actions]
red = ["Juggle invisible eggs"]
blue = ["Tiptoe past a dragon", "Sneeze like a volcano"]
yellow = ["Surf a wobbly wave", "Open a stuck jar", "Meet a ghost"]

[numbers]
copies_per_level = 1
byebye_per_colour = 4
"""
"""Thirty number cards and twelve bye-byes: reshuffles, bye-byes and action refills often."""


def tags(union: typing.Any) -> dict[str, type]:
    """The tag of each Struct of a tagged union."""
    return {cls.__struct_config__.tag: cls for cls in typing.get_args(union)}


def wire_names(cls: type) -> set[str]:
    return {field.encode_name for field in msgspec.structs.fields(cls)}


def roundtrip(decoder: msgspec.msgpack.Decoder, value: typing.Any) -> typing.Any:
    """`value` as the wire carries it, decoded with its type and turned back into plain data."""
    return msgspec.to_builtins(decoder.decode(msgpack.packb(value, use_bin_type=True)))


# --- random play-outs -------------------------------------------------------------------------


class Seen:
    """What the play-outs covered, so that a type nothing exercised cannot pass unnoticed."""

    def __init__(self) -> None:
        self.events: Counter[str] = Counter()
        self.actions: Counter[str] = Counter()
        self.phases: Counter[str] = Counter()
        self.news: Counter[str] = Counter()
        self.nil_action = 0  # a colour without an active action (a refill pending)


def check_views(state: dict, n: int, seen: Seen) -> None:
    for seat in [None, *range(n)]:
        view = TREX.view(state, seat)
        assert roundtrip(VIEW, view) == view, f"seat {seat}"
        seen.phases[view["phase"]] += 1
        seen.nil_action += None in view["actions"].values()
        if seat is not None and view["news"] is not None:
            seen.news[view["news"]["type"]] += 1


def check_action(action: dict, seen: Seen) -> None:
    assert roundtrip(ACTIONS, action) == action
    seen.actions[action["type"]] += 1


def play(players: list[str], options: dict, rng: random.Random, seen: Seen, away: float) -> None:
    """One random game to its end; the HOST takes a seat away (or brings one back) at rate
    `away`, and always when nobody else can move, and a quarter as often a player leaves."""
    n = len(players)
    state = TREX.setup(list(players), copy.deepcopy(options))
    check_views(state, n, seen)
    for _ in range(20_000):
        if TREX.result(state) is not None:
            break
        if (spec := TREX.chance(state)) is not None:
            move = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
        else:
            moves = legal_moves(TREX, state, n)
            for _seat, action in moves:
                check_action(action, seen)
            still = [s for s in range(n) if not state["left"][s]]
            if rng.random() < away / 4:  # a player leaves the game for good
                move = (HOST, {"type": "left", "seat": rng.choice(still)})
            elif rng.random() < away or not moves:
                seat = (
                    rng.choice(still)
                    if moves
                    else rng.choice([s for s in still if state["away"][s]])
                )
                move = (HOST, {"type": "back" if state["away"][seat] else "away", "seat": seat})
            else:
                move = rng.choice(moves)
        check_action(move[1], seen)
        events = TREX.apply(state, move[0], copy.deepcopy(move[1]))
        for event in events:
            assert roundtrip(EVENTS, event) == event
            seen.events[event["type"]] += 1
        check_views(state, n, seen)
    else:
        raise AssertionError("no end")
    result = TREX.result(state)
    assert result is not None
    # the room's own game_over (§10.1) comes in the same list and shares the tag
    room_over = {"type": "game_over", "result": result}
    assert roundtrip(EVENTS, room_over) == room_over


def test_every_view_event_and_action_of_random_games_round_trips(tmp_path):
    deck = tmp_path / "tiny.toml"
    deck.write_text(TINY_DECK, encoding="utf-8")
    variants = [
        {},
        {"vote_seconds": 0},
        {"lang": "ru"},
        {"deck": str(deck)},
        {"deck": str(deck), "vote_seconds": 30},
    ]
    seen = Seen()
    for n in range(60):
        rng = random.Random(f"trex-wire-{n}")
        size = (2, 3, 4, 5, 6, 7, 8)[n % 7]
        options = variants[n % len(variants)]
        players = [f"Spieler {seat} ✓" for seat in range(size)]
        play(players, options, rng, seen, away=0.05 if n % 3 else 0.0)
    # every type was played, not only written
    assert set(seen.events) == set(tags(Event)), set(tags(Event)) - set(seen.events)
    assert set(seen.actions) == set(tags(Action)), set(tags(Action)) - set(seen.actions)
    assert set(seen.news) == set(tags(News)), set(tags(News)) - set(seen.news)
    (phase,) = [f.type for f in msgspec.structs.fields(TRexView) if f.name == "phase"]
    assert set(seen.phases) == set(typing.get_args(phase))
    assert seen.nil_action


def test_the_room_s_presence_events_decode_as_the_game_s():
    for kind in ("away", "back"):
        event = {"type": kind, "seat": 3}
        assert roundtrip(EVENTS, event) == event
    with pytest.raises(msgspec.ValidationError):
        EVENTS.decode(msgpack.packb({"type": "away"}))


# --- wrong types are refused ------------------------------------------------------------------

LONG = "x" * 1025
NAN = float("nan")
MANY = 513


def sample_views() -> tuple[dict, dict]:
    """A table view and seat 0's view in the middle of a four-player game, seat 0 with news."""
    rng = random.Random("sample")
    state = TREX.setup(["Ann", "Bob", "Cy", "Di"], {})
    while (spec := TREX.chance(state)) is not None:
        TREX.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
    TREX.apply(state, 1, {"type": "offer", "to": 0})
    TREX.apply(state, 0, {"type": "skip"})
    while (spec := TREX.chance(state)) is not None:
        TREX.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
    return TREX.view(state, None), TREX.view(state, 0)


SEATS = [0] * MANY
SKIPS = [{"type": "skipped", "seat": 0}] * MANY
BAD: dict[str, list] = {
    "game": ["tallyup", 7, None, LONG],
    "phase": [7, "lobby", LONG, None],
    "over": ["yes", 1, [True], None],
    "players": [7, "Ann", {"a": "b"}, [7], [LONG], ["p"] * MANY, None],
    "mode": ["solo", 7, [], None],
    "lang": [7, LONG, [], None],
    "vote_seconds": ["60", -1, 60.5, True, [60], None],
    "scores": [7, "1", ["1"], [0.5], SEATS, {"a": 1}, None],
    "good": [7, [-1], ["1"], SEATS, None],
    "bad": [7, [-1], ["1"], SEATS, None],
    "pool": [[], 7, "x", {"good": 1}, {"good": 1, "bad": "x"}, {"good": 1, "bad": 1, "u": 1}],
    "tokens": [[], 7, {"good": -1, "bad": 1}, None],
    "colours": [7, ["green"], {"red": 1}, ["red"] * MANY, None],
    "symbols": [[], {"red": "▲", "blue": "●"}, {"red": "▲", "blue": "●", "yellow": LONG}],
    "actions": [[], {"red": 7, "blue": None, "yellow": None}, {"red": None}, None],
    "decks": [[], 7, {"numbers": 1}, None],
    "away": [7, [1], [False] * MANY, None],
    "left": [7, [1], [False] * MANY, None],
    "last_match": [7, [], "x", {"a": 0}],
    "tie_break": [7, [], {}],
    "coop": [7, [], {"moved": 0, "goal": 15, "called": [True]}],
    "last_events": [7, {"type": "dealt", "phase": "play"}, [{"type": "nope"}], [{}], SKIPS, None],
    "result": [7, [], {"scores": []}],
    "seat": ["0", -1, 512, [0], True, None],
    "card": [7, [], {"colour": "green", "level": 1}, {"colour": "red", "level": 11}],
    "offers": [7, [], {"out": None}, {"out": None, "in": SEATS}, None],
    "legal": [7, ["fly"], [LONG], ["skip"] * MANY, {"skip": 1}, None],
    "vote": ["1", -1, [0], True],
    "call": [1, "yes", []],
    "news": [7, [], {"id": 1, "type": "offered"}, {"id": 1, "type": "nope", "from": 0}],
}
"""For every key of the view, values of a wrong type or out of bounds (NaN is added for all)."""


def test_every_key_of_the_view_has_wrong_values_to_try():
    table, mine = sample_views()
    assert set(BAD) == set(mine) == {"game"} | wire_names(TRexView)
    assert set(table) < set(mine)


@pytest.mark.parametrize("key", sorted(BAD))
def test_a_key_of_a_wrong_type_is_refused(key):
    _table, mine = sample_views()
    assert roundtrip(VIEW, mine) == mine
    where = rf"`\$\.{key}[`\[.]"  # the error names the key
    for bad in [*BAD[key], NAN]:
        with pytest.raises(msgspec.ValidationError, match=where):
            VIEW.decode(msgpack.packb({**mine, key: bad}, use_bin_type=True))


def test_an_unknown_key_is_refused_at_every_depth():
    table, mine = sample_views()
    for view in (table, mine):
        with pytest.raises(msgspec.ValidationError, match="unknown field"):
            VIEW.decode(msgpack.packb({**view, "peek": 1}))
    with pytest.raises(msgspec.ValidationError, match=r"\$\.decks\.actions"):
        decks = {**mine["decks"], "actions": {**mine["decks"]["actions"], "green": 1}}
        VIEW.decode(msgpack.packb({**mine, "decks": decks}))
    with pytest.raises(msgspec.ValidationError, match=r"\$\.offers"):
        VIEW.decode(msgpack.packb({**mine, "offers": {**mine["offers"], "to": 1}}))


def test_a_missing_public_key_is_refused_and_a_private_one_is_not():
    table, mine = sample_views()
    # `game` is the tag: a lone Struct type takes its absence (a union of game views will not)
    for key in set(table) - {"game"}:
        view = {k: v for k, v in table.items() if k != key}
        with pytest.raises(msgspec.ValidationError):
            VIEW.decode(msgpack.packb(view))
    for key in set(mine) - set(table):
        view = {k: v for k, v in mine.items() if k != key}
        assert roundtrip(VIEW, view) == view


def test_wrong_actions_and_events_are_refused():
    for action in (
        {"type": "offer"},
        {"type": "offer", "to": "1"},
        {"type": "offer", "to": True},
        {"type": "offer", "to": 1, "card": 3},
        {"type": "vote", "for": -1},
        {"type": "call", "match": 1},
        {"type": "chance", "outcome": [0] * MANY},
        {"type": "timeout", "phase": "call"},
        {"type": "fly"},
        {"to": 1},
    ):
        with pytest.raises(msgspec.ValidationError):
            ACTIONS.decode(msgpack.packb(action))
    for event in (
        {"type": "match", "a": 0, "b": 1, "level_a": 0, "level_b": 3},
        {"type": "dealt", "phase": "vote"},
        {"type": "byebye", "seat": 0, "colour": "red", "gone": LONG, "came": "x"},
        {"type": "pile_empty", "piles": []},
        {"type": "coop_revealed", "a": 0, "b": 1, "level_a": 1, "level_b": 1},
        {"type": "game_over", "result": {"scores": [0], "winners": [NAN]}},
        {"type": "voted", "seat": 0, "for": 1},
    ):
        with pytest.raises(msgspec.ValidationError):
            EVENTS.decode(msgpack.packb(event))


# --- games/trex/PROTOCOL.md names exactly these keys and tags -----------------------------------


def no_repeats(found: list[str]) -> set[str]:
    assert len(found) == len(set(found)), found
    return set(found)


def test_the_view_tables_name_exactly_the_view_s_keys():
    public, private = tables(section("4", page("trex")))
    fields = msgspec.structs.fields(TRexView)
    required = {f.encode_name for f in fields if f.required}
    optional = {f.encode_name for f in fields if not f.required}
    assert no_repeats(first_column(public)) == {"game"} | required
    assert no_repeats(first_column(private)) == optional
    assert all(f.default is msgspec.UNSET for f in fields if not f.required)
    # the kinds of `news` the private table lists
    (news,) = [row for row in private if names(row[0]) == ["news"]]
    assert set(re.findall(r'"type": "(\w+)"', news[2])) == set(tags(News))


def test_the_action_table_names_exactly_the_actions_and_their_arguments():
    (table,) = tables(section("3", page("trex")))
    documented: dict[str, set[str]] = {}
    for row in table:
        arguments = set(re.findall(r"`(\w+)`:", row[1]))
        for kind in names(row[0]):
            assert kind not in documented, kind
            documented[kind] = arguments
    assert documented == {tag: wire_names(cls) for tag, cls in tags(Action).items()}


def test_the_event_table_names_exactly_the_events_and_their_fields():
    (table,) = tables(section("6", page("trex")))
    documented: dict[str, set[str]] = {}
    for row in table:
        fields = {name for name in names(row[1]) if re.fullmatch(r"[a-z_]+", name)}
        for kind in names(row[0]):
            assert kind not in documented, kind
            documented[kind] = fields
    assert documented == {tag: wire_names(cls) for tag, cls in tags(Event).items()}


def test_no_struct_field_has_a_default_but_unset():
    seen: set[type] = set()

    def walk(kind: typing.Any) -> None:
        for arg in typing.get_args(kind):
            walk(arg)
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct) and kind not in seen:
            seen.add(kind)
            for field in msgspec.structs.fields(kind):
                assert field.required or field.default is msgspec.UNSET, (kind, field.name)
                walk(field.type)

    for root in (TRexView, Event, Action):
        walk(root)
    assert len(seen) > 30
