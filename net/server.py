"""The host's TCP server: one task per connection, one room.

This is the one place where messages leave the host, so it is the one place that decides what
each connection may see: a seat gets `room.game_view(seat)` and the public events, nothing
else. A connection that misbehaves is answered with an `error` and, if it can't be trusted to
frame its messages, closed — without touching the room or anyone else's connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from games import IllegalAction
from net.protocol import PROTOCOL_VERSION, ProtocolError, encode, read_message
from net.room import Room

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
IDLE_TIMEOUT = 30.0  # clients ping every 5 s; silence this long is a half-open connection
MAX_BACKLOG = 1024 * 1024  # bytes waiting for a slow reader before we give up on it


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.seat: int | None = None
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "?"

    def send(self, message: dict[str, Any]) -> None:
        if self.writer.is_closing():
            return
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_BACKLOG:
            log.warning("%s reads too slowly; dropping it", self.peer)
            self.writer.close()
            return
        try:
            frame = encode(message)
        except ProtocolError as exc:  # a bug of ours; this seat misses one frame, not all
            log.error("cannot send %s to %s: %s", message.get("type"), self.peer, exc)
            frame = encode(_error("internal", "the host could not send an update"))
        self.writer.write(frame)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


class Server:
    def __init__(self, room: Room, *, host: str | None = None, port: int = 0) -> None:
        self.room = room
        self.host = host
        self.port = port
        self.connections: dict[int, Connection] = {}  # seat -> its live connection
        self._all: set[Connection] = set()
        self._server: asyncio.Server | None = None
        self.last_broadcast = 0.0  # perf_counter of the latest views sent, for measurements
        room.subscribe(self._on_room_change)
        room.on_renumber(self._renumber)

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, host=self.host, port=self.port, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self, reason: str | None = None, *, resumable: bool = False) -> None:
        """Close every connection and stop listening. With `reason` ("closed": the host shut
        the table), every player is told first — and whether `hubbub host --resume` can bring
        the table back — so nobody waits for a table that is not coming back. Without one
        (a crash, as the players see it) they keep reconnecting."""
        for connection in list(self._all):
            if reason is not None:
                with contextlib.suppress(Exception):
                    connection.send({"type": "kicked", "reason": reason, "resumable": resumable})
            connection.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1.0)
            self._server = None

    # --- pushing views ------------------------------------------------------------------

    def _on_room_change(self, events: list[dict[str, Any]]) -> None:
        for seat, connection in list(self.connections.items()):
            if seat >= len(self.room.seats):  # the lobby dropped that seat
                continue
            self._send_view(connection)
            if events:
                connection.send({"type": "event", "version": self.room.version, "events": events})
        self.last_broadcast = time.perf_counter()

    def _send_view(self, connection: Connection) -> None:
        room = self.room
        summary = room.summary() | {"you": connection.seat}
        connection.send(
            {
                "type": "view",
                "version": room.version,
                "room": summary,
                "game": room.game_view(connection.seat),
            }
        )

    def _renumber(self, mapping: dict[int, int]) -> None:
        """Seats were removed: connections follow their seats to the new numbers."""
        moved = {}
        for seat, connection in self.connections.items():
            if seat in mapping:
                connection.seat = mapping[seat]
                moved[mapping[seat]] = connection
            else:
                connection.seat = None
                connection.close()
        self.connections = moved

    def kick(self, seat: int) -> None:
        """The host takes a seat away; its connection is told, then closed."""
        if not 0 <= seat < len(self.room.seats):
            raise ProtocolError("no_seat", "there is no such seat")
        connection = self.connections.pop(seat, None)
        if connection is not None:
            connection.send({"type": "kicked", "reason": "kicked"})
            connection.seat = None
            connection.close()
        self.room.kick(seat)

    # --- one connection -----------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        self._all.add(connection)
        try:
            hello = await asyncio.wait_for(read_message(reader), HELLO_TIMEOUT)
            if not await self._greet(connection, hello):
                return
            while True:
                try:
                    message = await asyncio.wait_for(read_message(reader), IDLE_TIMEOUT)
                except ProtocolError as exc:
                    connection.send(_error(exc.code, exc.detail))
                    if exc.fatal or exc.code == "bad_frame":
                        break
                    continue
                if not self._dispatch(connection, message):
                    break
        except ProtocolError as exc:
            connection.send(_error(exc.code, exc.detail))
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            pass
        except Exception:
            log.exception("connection %s failed", connection.peer)
            connection.send(_error("internal", "the host had a problem with this connection"))
        finally:
            self._all.discard(connection)
            seat = connection.seat
            if seat is not None and self.connections.get(seat) is connection:
                del self.connections[seat]
                self.room.disconnected(seat)  # the room hears first; the last bytes may wait
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.drain(), 1.0)
            connection.close()

    async def _greet(self, connection: Connection, hello: dict[str, Any]) -> bool:
        """Seat the connection; False when it ended before it got a seat."""
        if hello["type"] != "hello":
            raise ProtocolError("hello_first", "say hello first")
        if hello["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError(
                "version_mismatch",
                f"this host speaks protocol {PROTOCOL_VERSION}, you speak {hello['protocol']}",
            )
        token = hello.get("token")
        seat = self.room.seat_of_token(token) if token else None
        returning = seat is not None
        if token and seat is None and not hello.get("name"):
            raise ProtocolError("unknown_token", "this table does not know you; join again")
        if seat is None:
            try:
                seat = self.room.join(hello.get("name", ""), hello.get("code"))
            except ProtocolError as exc:
                if exc.code != "claim_needed":
                    raise
                seat = await self._claim(connection, hello)
                if seat is None:
                    return False
                returning = True
        previous = self.connections.get(seat)
        if previous is not None:
            previous.send({"type": "kicked", "reason": "replaced"})
            previous.seat = None
            previous.close()
        connection.seat = seat
        self.connections[seat] = connection
        room = self.room
        connection.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "seat": seat,
                "token": room.seats[seat].token,
                "room": {"name": room.name, "id": room.room_id},
            }
        )
        room.connected(seat, returning=returning or previous is not None)
        return True

    async def _claim(self, connection: Connection, hello: dict[str, Any]) -> int | None:
        """Someone without the token asks for an away seat by its name: they wait (told so
        with `pending`) until the host lets them in or refuses, or they give up. Pings are
        answered meanwhile; anything else waits."""
        decided: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

        def resolve(token: str | None) -> None:
            if not decided.done():
                decided.set_result(token)

        claim = self.room.claim(hello["name"], hello.get("code"), connection.peer, resolve)
        connection.send({"type": "pending", "reason": "claim", "seat": claim.seat})
        reading: asyncio.Task | None = None
        try:
            while not decided.done():
                reading = reading or asyncio.ensure_future(read_message(connection.reader))
                await asyncio.wait({decided, reading}, return_when=asyncio.FIRST_COMPLETED)
                if reading.done():
                    message = reading.result()  # a dropped link raises: the claim goes
                    reading = None
                    if message["type"] == "bye":
                        return None
                    if message["type"] == "ping":
                        self._dispatch(connection, message)
        finally:
            if reading is not None:
                reading.cancel()
            self.room.withdraw_claim(claim)
        token = decided.result()
        if token is None:
            raise ProtocolError("name_taken", "the host did not hand that seat over")
        return self.room.seat_of_token(token)

    def _dispatch(self, connection: Connection, message: dict[str, Any]) -> bool:
        """Handle one message; False ends the connection."""
        kind = message["type"]
        if kind == "ping":
            connection.send({"type": "pong", **({"t": message["t"]} if "t" in message else {})})
        elif kind == "bye":
            seat = connection.seat
            if seat is not None:
                self.connections.pop(seat, None)
                connection.seat = None
                self.room.leave(seat)
            return False
        elif kind == "action":
            ref = message.get("ref")
            if connection.seat is None:
                return False
            try:
                self.room.act(connection.seat, message["action"], message["version"])
            except IllegalAction as exc:
                connection.send(
                    _error(exc.code, f"refused: {exc.code}", ref, key=exc.key, params=exc.params)
                )
            except Exception:  # a bug in a game must not cost the player the connection
                # the type only: an action may carry a secret (a sealed side, a definition)
                kind = str(message["action"].get("type"))[:32]
                log.exception("a %r action of seat %s failed", kind, connection.seat)
                connection.send(_error("internal", "the host could not apply that", ref))
        else:
            connection.send(_error("unexpected", f"a client does not send {kind}"))
        return True


def _error(
    code: str,
    message: str,
    ref: int | None = None,
    *,
    key: str | None = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An `error` frame: a stable code, English text, and for refused actions the catalogue
    key (and its parameters) a client uses to say it in the player's language."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message or code}
    if key is not None:
        frame["key"] = key
    if params:
        frame["params"] = {k: v for k, v in params.items() if isinstance(v, str | int | float)}
    if ref is not None:
        frame["ref"] = ref
    return frame
