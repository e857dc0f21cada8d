"""The typed wire (`net/wire.py`): the doc and the types agree, `hubbub schema` prints them,
a frame that does not fit its type is refused with the codes of §10 — never a traceback, never
a recursion — and no text a table sends reaches a screen with a control or escape character."""

from __future__ import annotations

import json
import re

import msgpack
import msgspec
import pytest

from games.base import game_entries
from net import wire
from net.protocol import ProtocolError, decode_body, shown_texts
from net.room import Room
from tests.doctables import PROTOCOL, first_column, names, section, tables
from tui.cli import main

pytestmark = pytest.mark.timeout(60)

DOC = PROTOCOL.read_text(encoding="utf-8")


def doc_tables(heading: str) -> list[list[str]]:
    """The first-column names of each table under the heading that begins with `heading`."""
    return [first_column(table) for table in tables(section(heading))]


@pytest.mark.parametrize("kind", sorted(wire.MESSAGES))
def test_each_message_of_section_5_has_exactly_the_fields_of_its_type(kind):
    fields = set(wire.MESSAGES[kind].__struct_fields__)
    for number in re.findall(rf"^#### (5\.\d\.\d) `{kind}`", DOC, re.M):  # ping, pong: 2
        (table, *_) = doc_tables(number)
        assert set(table) - {"type"} == fields, number


def test_the_room_summary_and_its_seats_are_the_tables_of_section_8():
    room, seat = doc_tables("8.")
    assert set(room) == set(wire.RoomSummary.__struct_fields__)
    assert set(seat) == set(wire.SeatSummary.__struct_fields__)


def test_every_message_type_of_the_doc_is_a_type_and_no_other():
    documented = set(re.findall(r"^#### 5\.\d\.\d `([a-z]+)`", DOC, re.M))
    assert documented - {"events"} == set(wire.MESSAGES)  # §5.2.3: a view's part, no message


def test_each_side_has_one_handler_for_each_message_the_other_side_sends():
    """One dispatch: the host's table of handlers (after the hello, which is the handshake's),
    the player's link's, and the player app's for what reaches its screens."""
    from net.client import Client
    from net.server import Server
    from tui.client.app import ClientApp

    assert set(wire.MESSAGES) == wire.TO_HOST | wire.TO_CLIENT
    assert set(Server._HANDLERS) == wire.TO_HOST - {"hello"}
    assert set(Server._WHILE_CLAIMING) == {"ping", "pong", "bye"}  # an action waits, unanswered
    assert set(Client._HANDLERS) == wire.TO_CLIENT
    heard = ClientApp._HEARD  # each a Textual message of its own, with a handler of its own
    assert set(heard) <= wire.TO_CLIENT and set(heard) >= {"view", "error", "kicked", "welcome"}
    for tag, kind in heard.items():
        assert issubclass(kind, ClientApp.FromHost) and wire.MESSAGES[tag] is kind.wire
        assert hasattr(ClientApp, kind.handler_name) or kind in ClientApp._decorated_handlers
        assert ClientApp.told({"type": tag}).__class__ is kind
    assert ClientApp.told({"type": "pending"}) is None  # the link's: a status, not a message


def test_hubbub_schema_prints_every_message_and_each_games_view(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    names = set(schema["$defs"])
    assert {"Hello", "Action", "View", "Welcome", "Error", "RoomSummary", "SeatSummary"} <= names
    assert {"TallyUpView", "TRexView", "TesauroView"} <= names
    view_game = json.dumps(schema["$defs"]["View"]["properties"]["game"])
    assert all(f'"#/$defs/{name}"' in view_game for name in ("TallyUpView", "TesauroView"))


# --- frames that do not fit ----------------------------------------------------------------


def a_view(game: str = "tallyup") -> dict:
    """A real view of a game being played, as the host sends it to seat 0."""
    room = Room("Friday", game_id=game, open_room=True)
    for name in ("Ann", "Ben", "Cid"):
        room.join(name, None)
    room.start("en")
    return {
        "type": "view",
        "version": room.version,
        "room": room.summary() | {"you": 0},
        "game": room.game_view(0),
        "events": [{"type": "game_started", "game": game}],
    }


def test_a_real_view_of_each_game_comes_through_unchanged():
    for game in game_entries():
        view = a_view(game)
        assert decode_body(msgpack.packb(view)) == view


WRONG = {  # a value of the wrong type for a field, by what the field holds
    str: 7,
    int: "seven",
    bool: "yes",
    list: 7,
    dict: ["a"],
    float: "soon",
    type(None): ["x"],
}


def wrong_copies(view: dict):
    """`view` with one field of its room, one seat or its game of the wrong type, each."""
    for part in ("room", "game"):
        for key, value in view[part].items():
            changed = json.loads(json.dumps(view))
            changed[part][key] = WRONG[type(value)]
            yield f"{part}.{key}", changed
    for key, value in view["room"]["seats"][0].items():
        changed = json.loads(json.dumps(view))
        changed["room"]["seats"][0][key] = WRONG[type(value)]
        yield f"room.seats[0].{key}", changed


@pytest.mark.parametrize("game", sorted(game_entries()))
def test_a_field_of_the_wrong_type_anywhere_in_a_view_is_refused_as_bad_message(game):
    """What crashed a player's app before (a string for `room.seats`, a T-Rex `card` as a
    string, `legal` as an int) is refused at the door, by name, with `bad_message`."""
    view = a_view(game)
    tried = 0
    for where, changed in wrong_copies(view):
        with pytest.raises(ProtocolError) as refused:
            decode_body(msgpack.packb(changed))
        assert refused.value.code == "bad_message", where
        tried += 1
    assert tried > 30


def test_deep_huge_and_strange_values_are_refused_with_codes_not_exceptions():
    view = a_view()
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    cases = {
        "deep": {**view, "events": [{"type": "x", "v": deep}]},
        "a long string": {**view, "events": [{"type": "x" * 2000}]},
        "an event of no game": {**view, "events": [{"type": "tie_break", "colour": 1}]},
        "a room event mistyped": {**view, "events": [{"type": "joined", "seat": "Ann"}]},
        "NaN": {**view, "room": {**view["room"], "timer_seconds": float("nan")}},
        "unknown key": {**view, "room": {**view["room"], "secret": 1}},
        "no room": {k: v for k, v in view.items() if k != "room"},
    }
    for name, message in cases.items():
        try:
            body = msgpack.packb(message)
        except (ValueError, OverflowError):  # too deep for msgpack to pack: not a case
            continue
        with pytest.raises(ProtocolError) as refused:
            decode_body(body)
        assert refused.value.code in ("bad_message", "bad_frame"), name


def test_a_view_every_way_refused_leaves_the_decoder_as_it_was():
    """Refusals keep no state: the next good frame reads as ever."""
    view = a_view()
    for _ in range(100):
        with pytest.raises(ProtocolError):
            decode_body(msgpack.packb({**view, "version": "x"}))
    assert decode_body(msgpack.packb(view)) == view


# --- text from the wire ----------------------------------------------------------------------

OSC52 = "\x1b]52;c;aGVsbG8=\x07"


def test_no_escape_a_table_sends_reaches_a_screen():
    """An OSC 52 (a clipboard write) in a seat's name and in an event's text, a line break,
    an invisible right-to-left override: gone before any screen sees them."""
    view = a_view("trex")
    view["room"]["seats"][1]["name"] = f"Ben{OSC52}"
    view["events"] = [
        {"type": "byebye", "seat": 1, "colour": "red", "gone": f"hop{OSC52}", "came": "a\nb\u202e"}
    ]
    shown = shown_texts(decode_body(msgpack.packb(view)))
    text = json.dumps(shown, ensure_ascii=False)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert shown["room"]["seats"][1]["name"] == "Ben]52;c;aGVsbG8="
    assert shown["events"][0]["came"] == "a b"


@pytest.mark.parametrize("bad", ["\x7f", "\x1b", "\x00", "\u0085", "\u200b", "\u202e", "\u2028"])
@pytest.mark.parametrize("name", ["Ben", "Вера"])
def test_one_unshowable_character_is_found_in_ascii_and_other_text(name, bad):
    """The probe's two ways (all ASCII, and not): one character nobody can see is cleaned."""
    view = a_view("tallyup")
    view["room"]["seats"][1]["name"] = f"{name}{bad}x"
    shown = shown_texts(decode_body(msgpack.packb(view)))
    assert shown["room"]["seats"][1]["name"] in (f"{name}x", f"{name} x")
    assert shown["room"]["seats"][0] == view["room"]["seats"][0]


def test_a_message_with_nothing_to_clean_is_the_same_object():
    view = a_view("tesauro")
    assert shown_texts(view) is view


def test_the_schema_of_a_game_this_side_does_not_know_is_a_bounded_plain_map():
    view = a_view()
    view["room"]["game"] = "chess"
    view["game"] = {"board": [[1, 2], [3, 4]], "game": "chess"}
    view["events"] = [{"type": "moved", "from": "e2", "to": "e4"}]
    assert decode_body(msgpack.packb(view))["game"] == view["game"]
    too_deep: object = [1]
    for _ in range(8):
        too_deep = [too_deep]
    with pytest.raises(msgspec.ValidationError):  # within §3, however unknown the game
        wire.decode(msgpack.packb({**view, "game": {"x": too_deep}}))


def test_the_room_events_of_section_10_1_are_the_room_event_types():
    (table,) = tables(section("10.1"))
    documented = {}
    for row in table:
        (kind,) = [name for name in names(row[0])]
        documented[kind] = set(names(row[1]))
    typed = {kind.__struct_config__.tag: set(kind.__struct_fields__) for kind in wire.ROOM_EVENTS}
    assert documented == typed


SAMPLES = {  # one of each message a host sends, every field filled
    "welcome": {"type": "welcome", "protocol": 5, "seat": 0, "token": "A" * 32,
                "room": {"name": "Friday", "id": "0123456789ab"},
                "story": [{"version": 3,
                           "events": [{"type": "joined", "seat": 0, "name": "Ann"}]}]},
    "watching": {"type": "watching", "protocol": 5,
                 "room": {"name": "Friday", "id": "0123456789ab"}, "story": []},
    "error": {"type": "error", "code": "stale", "message": "refused: stale",
              "key": "illegal.stale", "params": {"version": 6}, "ref": 8},
    "pending": {"type": "pending", "reason": "claim", "seat": 1},
    "kicked": {"type": "kicked", "reason": "closed", "resumable": True},
    "ping": {"type": "ping", "t": 7939.51},
    "pong": {"type": "pong", "t": 12.5},
}  # fmt: skip


def fields_of(message: dict, path: tuple = ()):
    """(path, value) of every value in `message`, however deep (the type key left out)."""
    for key, value in message.items():
        if key == "type" and not path:
            continue
        yield (*path, key), value
        if isinstance(value, dict):
            yield from fields_of(value, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    yield from fields_of(item, (*path, key, index))


def replaced(message: dict, path: tuple, value: object) -> dict:
    changed = json.loads(json.dumps(message))
    where = changed
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return changed


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_field_of_every_message_a_host_sends_is_checked(kind):
    sample = SAMPLES[kind]
    assert decode_body(msgpack.packb(sample)) == sample
    for path, value in fields_of(sample):
        if path[:1] == ("story",) and "events" in path:
            continue  # plain at the door: told only if they fit the first view's game
        wrong = {"a": 1} if isinstance(value, (int, float, str)) else 7  # bool: an int
        with pytest.raises(ProtocolError) as refused:
            decode_body(msgpack.packb(replaced(sample, path, wrong)))
        assert refused.value.code == "bad_message", path


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_an_escape_in_any_text_of_any_message_is_gone_before_the_screens(kind):
    sample = SAMPLES[kind]
    for path, value in fields_of(sample):
        if isinstance(value, str):
            shown = shown_texts(decode_body(msgpack.packb(replaced(sample, path, value + OSC52))))
            assert "\x1b" not in json.dumps(shown) and "\x07" not in json.dumps(shown), path


def test_a_story_is_told_with_the_first_view_only_where_it_fits_its_game():
    """A welcome's story may span two games (their tags collide), so it is plain at the door;
    the first view's game says which of its events are told: a lie, or another game's, is
    not."""
    told = [
        {"type": "joined", "seat": 0, "name": "Ann"},
        {"type": "locked", "seat": 1},
        {"type": "joined", "seat": "Ann", "name": 0},  # a lie
        {"type": "tie_break", "colour": "red", "seats": [0, 1]},  # T-Rex's, not Tally Up!'s
    ]
    assert wire.fitting_events("tallyup", told) == told[:2]
    assert wire.fitting_events(None, told) == told[:1]  # no game: the room's only
    assert wire.fitting_events("chess", told) == told  # a game this side does not know


def test_the_view_of_section_14_1_byte_by_byte_is_the_one_a_host_sends(peek):
    """§14.1 dumps Ann's first view byte by byte: the frame a host packs for the same room
    (Friday, the code KXPT, Peek with a 5 s turn, Ann alone) is exactly those bytes — a key
    added to the summary or a seat and not to the doc fails here."""
    from net.protocol import encode

    dump = section("14.1").split("and the host's first view to her")[1].split("```")[1]
    hexes = re.compile(r"\s*((?:[0-9a-f]{2}\s+)*)")
    lines = [hexes.match(f"{line} ").group(1) for line in dump.split("\n")]
    documented = bytes.fromhex(" ".join(lines))
    room = Room("Friday", game_id="peek", code="KXPT", room_id="3f9a0c2b7d11")
    room.set_option("turn_seconds", 5.0)
    room.connected(room.join("Ann", "KXPT"), returning=False)
    view = {"type": "view", "version": 1, "room": room.summary() | {"you": 0}, "game": None,
            "events": []}  # fmt: skip
    assert encode(view) == documented
