"""Framing and validation: whatever arrives, the decoder answers with a message or a
ProtocolError — never another exception, never a hang."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import game_entries
from net.protocol import (
    MAX_FRAME,
    FrameDecoder,
    MessageLink,
    ProtocolError,
    check_name,
    clean_text,
    decode_body,
    encode,
    read_message,
    validate,
)


def frame(obj) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def test_round_trip():
    message = {"type": "action", "action": {"type": "roll"}, "version": 12, "ref": 3}
    assert list(FrameDecoder().feed(encode(message))) == [message]


def test_an_action_names_the_view_it_was_made_from():
    with pytest.raises(ProtocolError) as err:
        validate({"type": "action", "action": {"type": "roll"}})
    assert err.value.code == "bad_message" and "version" in str(err.value)


def test_frames_split_anywhere_reassemble():
    messages = [{"type": "ping", "t": i} for i in range(5)]
    data = b"".join(encode(m) for m in messages)
    decoder = FrameDecoder()
    got = []
    for i in range(len(data)):
        got += decoder.feed(data[i : i + 1])
    assert got == messages


def test_oversize_frame_is_refused_before_reading_it():
    header = struct.pack(">I", MAX_FRAME + 1)
    with pytest.raises(ProtocolError) as err:
        list(FrameDecoder().feed(header))
    assert err.value.code == "too_large" and err.value.fatal


def test_encode_refuses_what_the_peer_would_refuse():
    with pytest.raises(ProtocolError):
        encode({"type": "view", "version": 1, "room": {}, "game": None,
                "events": ["x" * 1000] * 64 * 2})  # fmt: skip


@pytest.mark.parametrize(
    ("obj", "code"),
    [
        ([1, 2], "bad_message"),
        ({"no": "type"}, "unknown_type"),
        ({"type": "launch_missiles"}, "unknown_type"),
        ({"type": "hello"}, "bad_message"),  # protocol missing
        ({"type": "hello", "protocol": "1"}, "bad_message"),
        ({"type": "hello", "protocol": True}, "bad_message"),  # a bool is not an int here
        ({"type": "hello", "protocol": 1, "admin": True}, "bad_message"),
        ({"type": "action", "action": {}}, "bad_message"),
        ({"type": "action", "action": {"type": "x", "deep": [[[[[[[[[[1]]]]]]]]]]}}, "bad_message"),
        ({"type": "ping", "t": float("nan")}, "bad_message"),
        ({"type": "action", "action": {"type": "define", "text": "x" * 5000}}, "bad_message"),
    ],
)
def test_schema_violations_have_stable_codes(obj, code):
    with pytest.raises(ProtocolError) as err:
        decode_body(msgpack.packb(obj, use_bin_type=True))
    assert err.value.code == code


def test_binary_and_extension_types_are_refused():
    for body in (
        msgpack.packb({"type": "ping", "t": b"\x00"}),
        msgpack.packb(msgpack.ExtType(1, b"x")),
    ):
        with pytest.raises(ProtocolError):
            decode_body(body)


def test_non_string_keys_are_refused():
    with pytest.raises(ProtocolError):
        decode_body(msgpack.packb({1: 2}))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=600))
def test_arbitrary_bytes_never_crash_the_decoder(data):
    try:
        for message in FrameDecoder().feed(data):
            assert isinstance(message, dict) and "type" in message
    except ProtocolError:
        pass


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(plain)
def test_arbitrary_msgpack_values_validate_or_refuse(value):
    try:
        message = decode_body(msgpack.packb(value, use_bin_type=True))
    except ProtocolError:
        return
    assert validate(message) is message


async def test_read_message_from_a_stream():
    reader = asyncio.StreamReader()
    reader.feed_data(frame({"type": "bye"}) + struct.pack(">I", MAX_FRAME * 4))
    reader.feed_eof()
    assert await read_message(reader) == {"type": "bye"}
    with pytest.raises(ProtocolError):
        await read_message(reader)


class _Transport(asyncio.Transport):
    """What `MessageLink` writes and whether it closed."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.closing = False

    def write(self, data) -> None:
        self.written += bytes(data)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True


async def test_a_message_link_reads_frames_as_they_land_and_ends_on_the_first_wrong_one():
    heard: list[dict] = []
    link = MessageLink(heard.append, held=frame({"type": "bye"})[:3])
    transport = _Transport()
    link.connection_made(transport)
    first, second = frame({"type": "bye"}), frame({"type": "pong", "t": 1.5})
    link.data_received(first[3:] + second[:5])  # the held start, the rest, half of the next
    assert heard == [{"type": "bye"}]
    link.data_received(second[5:] + b"\x00\x00\x00\x01\xc1" + first)  # a garbage frame
    assert heard == [{"type": "bye"}, {"type": "pong", "t": 1.5}]  # nothing after the garbage
    assert transport.closing and isinstance(link.ended.exception(), ProtocolError)
    assert link.received == len(first) + len(second) + 5 + len(first)
    assert not link.send({"type": "bye"})  # closed: nothing more goes out
    link.connection_lost(None)
    assert link.closed.done() and link.ended.exception().code == "bad_frame"  # the first reason


async def test_a_message_link_ends_with_what_its_reader_raised():
    def refuse(message):
        raise ConnectionResetError(message["type"])

    link = MessageLink(refuse)
    transport = _Transport()
    link.connection_made(transport)
    assert link.send({"type": "bye"}) and transport.written == frame({"type": "bye"})
    link.data_received(frame({"type": "bye"}))
    assert transport.closing and str(link.ended.exception()) == "bye"


async def test_a_message_link_whose_peer_went_mid_frame_says_so():
    link = MessageLink(lambda message: None)
    link.connection_made(_Transport())
    link.data_received(frame({"type": "bye"})[:4])
    link.connection_lost(None)
    assert isinstance(link.ended.exception(), asyncio.IncompleteReadError)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("  Ann  ", "Ann"),
        ("[bold]x", "[bold]x"),
        ("A\x1b[31mred", "A[31mred"),
        ("tab\there", "tab here"),
        ("zero\u200bwidth", "zerowidth"),
        ("Аня", "Аня"),
    ],
)
def test_names_are_shown_literally_without_control_characters(raw, shown):
    assert check_name(raw) == shown


@pytest.mark.parametrize("raw", ["", "   ", "\x1b\x07", "x" * 25, "---"])
def test_bad_names_are_refused(raw):
    with pytest.raises(ProtocolError) as err:
        check_name(raw)
    assert err.value.code == "bad_name"


def test_clean_text_bounds_length():
    assert len(clean_text("я" * 1000, 300)) == 300


@pytest.mark.parametrize("game_id", sorted(game_entries()))
def test_the_views_the_host_packs_pass_the_checks_it_no_longer_makes(game_id):
    """The host splices its view frames from bytes packed once per change and does not check
    them again on the hot path; what every client receives must still pass `validate`."""
    import random

    from games import GAMES
    from net.protocol import ViewPacker
    from net.room import Room

    game = GAMES[game_id]
    for seed in range(3):
        room = Room("Checked", game_id=game_id, open_room=True, rng=random.Random(seed))
        for n in range(min(game.max_players, 4 + seed)):
            room.join(f"P{n}", None)
        room.start(lang="ru" if seed % 2 else "en")
        coin = random.Random(seed)
        for _ in range(40 + 30 * seed):  # somewhere in the middle of a game
            moves = [(s, a) for s in range(room.players) for a in game.legal_actions(room.state, s)]
            if room.phase != "playing" or not moves:
                break
            events = room.act(*coin.choice(moves))
        summary = room.summary()  # once: its away times are read off the clock
        packer = ViewPacker(room.version, summary, events, room.game_view(None))
        for seat in [*range(room.players), None]:
            own = room.own_view(seat)
            assert not set(own or {}) & set(room.game_view(None))  # adds, never overrides
            frame = packer.frame(seat, own)
            message = decode_body(frame[4:])
            assert message == {
                "type": "view",
                "version": room.version,
                "room": summary | {"you": seat},
                "game": room.game_view(seat),
                "events": events,
            }
        room.close()
