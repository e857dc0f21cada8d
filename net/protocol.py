"""The wire: length-prefixed msgpack frames and the schema of every message.

A frame is a 4-byte big-endian unsigned length followed by one msgpack map. Everything that
arrives is untrusted: it is size-checked before it is read, decoded with tight limits, and
validated against the schema of its `type` before anything else looks at it. Anything wrong
raises `ProtocolError` with a stable code; the server answers it with an `error` frame.
See docs/PROTOCOL.md for the prose version of this file.
"""

from __future__ import annotations

import asyncio
import struct
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
import msgspec

from games.rulebook import printable_line
from games.wire import MAX_ITEMS
from net import wire

PROTOCOL_VERSION = 5
MAX_FRAME = 64 * 1024
MAX_DEPTH = wire.MAX_DEPTH
NAME_MAX = 24
CODE_LENGTH = 4
"""Letters of a room code (docs/PROTOCOL.md §7.3)."""
LONG_CODE_LENGTH = 6
"""Letters of the room code of a table under attack (§7.9): it stays so for the evening."""
DEFAULT_PORT = 47470
DEFAULT_WEB_PORT = 47471  # the browser seats' HTTP port (tui/web), beside the table's

_HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """Something a peer sent that breaks the protocol. `code` is stable; `fatal` closes the link."""

    def __init__(self, code: str, detail: str = "", *, fatal: bool = False) -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.fatal = fatal
        self.params: dict[str, Any] = {}  # sent with the error (e.g. `retry_after`)


# --- framing ------------------------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes:
    """One frame: header and body. Refuses to build a frame the other side would refuse."""
    validate(message)
    return frame_of(msgpack.packb(message, use_bin_type=True))


def frame_of(body: bytes) -> bytes:
    if len(body) > MAX_FRAME:
        raise ProtocolError("too_large", f"{len(body)} bytes", fatal=True)
    return _HEADER.pack(len(body)) + body


class ViewPacker:
    """The `view` frames of one change, for every connection, packed once where they agree.

    A change is the same for every seat but for `room.you` and what the seat's own game view
    adds to the table's: the room's entries, the table's game view and the events are packed
    once per change, and a seat's frame is spliced from those bytes and its own few. What the
    host builds from its own state is not validated again here (a test checks that it would
    pass); everything a peer sends still is."""

    def __init__(
        self,
        version: int,
        room: dict[str, Any],
        events: list[dict[str, Any]],
        table: dict[str, Any] | None,
    ) -> None:
        pack = _packer.pack
        self.version = version
        self._head = (
            _map_header(5)
            + pack("type") + pack("view") + pack("version") + pack(version)
            + pack("room") + _map_header(len(room) + 1)
            + _entries(room)
            + pack("you")
        )  # fmt: skip
        self._table = table
        self._table_entries = _entries(table) if table is not None else b""
        self._tail = pack("events") + pack(events)
        self._shared: bytes | None = None  # the game entry of every seat that does not play

    def frame(self, you: int | None, own: dict[str, Any] | None) -> bytes:
        """The frame of seat `you`, whose game view is the table's plus `own` (None: the
        table's as it is — a seat that does not play)."""
        return frame_of(self._head + _packer.pack(you) + self._game(own) + self._tail)

    def _game(self, own: dict[str, Any] | None) -> bytes:
        pack = _packer.pack
        if self._table is None:
            return pack("game") + pack(None)
        if not own:
            if self._shared is None:
                self._shared = pack("game") + _map_header(len(self._table)) + self._table_entries
            return self._shared
        return (
            pack("game") + _map_header(len(self._table) + len(own)) + self._table_entries
            + _entries(own)
        )  # fmt: skip


_packer = msgpack.Packer(use_bin_type=True)


def _map_header(size: int) -> bytes:
    return _packer.pack_map_header(size)


def _entries(mapping: dict[str, Any]) -> bytes:
    """A map's packed entries without its header (to splice into a bigger map)."""
    packed = _packer.pack(mapping)
    first = packed[0]
    return packed[1:] if first & 0xF0 == 0x80 else packed[3:] if first == 0xDE else packed[5:]


def decode_body(body: bytes) -> dict[str, Any]:
    """A frame's body to a checked message: decoded and checked against its type
    (`net/wire.py`) in one pass; what does not fit is refused with the codes of §10."""
    try:
        message = wire.as_plain(wire.decode(body))
    except msgspec.ValidationError as exc:  # (a DecodeError too: first)
        raise _refusal(body, exc) from exc
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_frame", "the frame is not one msgpack value", fatal=True) from exc
    return message


def _refusal(body: bytes, wrong: msgspec.ValidationError) -> ProtocolError:
    """Why a frame that msgpack reads does not fit (the slow path: it is refused anyway):
    `bad_frame` for what msgpack itself refuses under §3 (a map key that is not a string,
    bin or ext, over 512 entries), `unknown_type` for a `type` that is none of the messages,
    else `bad_message`, saying where."""
    try:
        message = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            max_str_len=MAX_FRAME,
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=MAX_ITEMS,
            max_map_len=MAX_ITEMS,
        )
    except Exception:  # msgpack raises a zoo of types for garbage: all mean the same
        return ProtocolError("bad_frame", "the frame is not one msgpack value", fatal=True)
    if not isinstance(message, dict):
        return ProtocolError("bad_message", "a message is a map")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in wire.MESSAGES:
        return ProtocolError("unknown_type", f"unknown message type {str(kind)[:32]!r}")
    return ProtocolError("bad_message", f"{kind}: {str(wrong)[:200]}")


class FrameDecoder:
    """Splits a byte stream into messages; for transports that deliver arbitrary chunks."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> Iterator[dict[str, Any]]:
        for _, message in self.feed_frames(data):
            yield message

    def feed_frames(self, data: bytes) -> Iterator[tuple[bytes, dict[str, Any]]]:
        """Each whole frame, as its bytes (header and body) and its message."""
        self._buffer += data
        while len(self._buffer) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._buffer)
            if length > MAX_FRAME:
                raise ProtocolError("too_large", f"{length} bytes announced", fatal=True)
            if len(self._buffer) < _HEADER.size + length:
                return
            frame = bytes(self._buffer[: _HEADER.size + length])
            message = decode_body(frame[_HEADER.size :])  # a bad frame stays in `pending`
            del self._buffer[: _HEADER.size + length]
            yield frame, message

    @property
    def pending(self) -> bytes:
        """What has come of a frame not yet whole."""
        return bytes(self._buffer)


class MessageLink(asyncio.Protocol):
    """One connection, read as it lands: every whole frame is decoded (`decode_body`) and
    handed to `on_message` inside the event loop's own callback — no task is woken and no
    future made per frame, which is most of what a frame costs a reader with streams.

    What ends the link is set on `ended`: the peer gone (`asyncio.IncompleteReadError`), a
    frame that breaks the protocol (`ProtocolError`), or whatever `on_message` raised; the
    rest of that chunk is not read and the transport is closed. `held`: bytes that came
    before this link took the socket over, read first."""

    def __init__(self, on_message: Callable[[dict[str, Any]], None], *, held: bytes = b"") -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self._loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[None] = self._loop.create_future()
        self.closed: asyncio.Future[None] = self._loop.create_future()
        """Done when the socket is closed (what was written before `end` has gone)."""
        self._held = held
        self.heard = self._loop.time()
        """When bytes last came (the loop's clock): a silent link is the reader's to judge."""
        self.received = 0  # bytes, in all
        self.frame_size = 0  # bytes of the frame `on_message` is being handed, header included
        self._frames = FrameDecoder()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        held, self._held = self._held, b""
        if held:
            self.data_received(held)

    def data_received(self, data: bytes) -> None:
        self.heard = self._loop.time()
        self.received += len(data)
        try:
            for frame, message in self._frames.feed_frames(data):
                self.frame_size = len(frame)
                self.on_message(message)
        except Exception as exc:  # the link ends with it: said on `ended`
            self.end(exc)

    def eof_received(self) -> bool:
        return False  # the peer said all it will: close

    def connection_lost(self, exc: Exception | None) -> None:
        self.end(exc or asyncio.IncompleteReadError(self._frames.pending, None))
        if not self.closed.done():
            self.closed.set_result(None)

    def end(self, why: BaseException) -> None:
        """Close the link, `why` said on `ended` (the first reason only)."""
        if not self.ended.done():
            self.ended.set_exception(why)
        if self.transport is not None:
            self.transport.close()

    def send(self, message: dict[str, Any]) -> bool:
        """One message out (`encode`d, so checked); False when the link is closed or closing."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return False
        transport.write(encode(message))
        return True


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any]:
    """The next validated message; `asyncio.IncompleteReadError` when the peer has gone."""
    header = await reader.readexactly(_HEADER.size)
    (length,) = _HEADER.unpack(header)
    if length > MAX_FRAME:
        raise ProtocolError("too_large", f"{length} bytes announced", fatal=True)
    return decode_body(await reader.readexactly(length))


# --- validation ---------------------------------------------------------------------------


def validate(message: Any) -> dict[str, Any]:
    """`message` if it fits its type (`net/wire.py`), else ProtocolError. Host-to-client
    messages are checked too: a client written in another language gets exactly what
    docs/PROTOCOL.md promises."""
    try:
        body = msgpack.packb(message, use_bin_type=True)
    except Exception as exc:  # not plain data at all (a set, an object, a huge int)
        raise ProtocolError("bad_message", f"not plain data: {exc}"[:200]) from exc
    decode_body(body)
    return message


# --- untrusted text -----------------------------------------------------------------------


def clean_text(text: str, limit: int) -> str:
    """Text from the network made safe to show literally: no control or escape characters,
    no line breaks, no invisible formatting characters, trimmed and bounded."""
    return printable_line(text)[:limit]


def _shown(text: str) -> str:
    """Text from the wire as a screen may show it: tabs and line breaks become spaces, control,
    escape and invisible formatting characters go (an OSC 52 in a name writes no clipboard)."""
    if text.isprintable():
        return text
    return "".join(
        " " if char in "\t\n\r" else char
        for char in text
        if char in "\t\n\r" or char.isprintable() or unicodedata.category(char) == "Zs"
    )


def shown_texts(message: dict[str, Any]) -> dict[str, Any]:
    """`message` (from the host) with every string in it, keys too, as a screen may show it
    (`_shown`): the one place a player's app cleans what it is told. Almost every message has
    nothing to clean, and that is found in C (its JSON form is printable and escapes nothing);
    the others are walked (their depth is bounded by their types)."""
    probe = msgspec.json.encode(message)  # control characters come out escaped: "\\u001b"
    if b"\\" not in probe and (
        b"\x7f" not in probe if probe.isascii() else probe.decode().isprintable()
    ):
        return message  # (ASCII is found printable in C at once; other text char by char)
    return _shown_value(message)


def _shown_value(value: Any) -> Any:
    if type(value) is str:
        return _shown(value)
    if type(value) is dict:
        return {_shown(k) if type(k) is str else k: _shown_value(v) for k, v in value.items()}
    if type(value) is list:
        return [_shown_value(item) for item in value]
    return value


def check_name(raw: str) -> str:
    """A player's name as the table will show it, or ProtocolError `bad_name`."""
    name = clean_text(raw, NAME_MAX + 1)
    if not name or len(name) > NAME_MAX or not any(c.isalnum() for c in name):
        raise ProtocolError("bad_name", f"a name has 1 to {NAME_MAX} printable characters")
    return name
