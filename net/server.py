"""The host's TCP server: one task per connection, one room.

This is the one place where messages leave the host, so it is the one place that decides what
each connection may see: a seat gets `room.game_view(seat)` and the public events, nothing
else. A connection that misbehaves is answered with an `error` and, if it can't be trusted to
frame its messages, closed — without touching the room or anyone else's connection.

It also keeps the door (`net/doorman.py`): wrong room codes and reconnect loops are slowed per
address, a blocked address is turned away, connections that never say hello are capped and
dropped oldest first, and every seat's link is checked by the host's own pings, so a laptop
that vanished, stopped reading or froze is shown away within seconds.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import ipaddress
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, ClassVar

from games import IllegalAction
from net.doorman import Doorman, address_key
from net.protocol import PROTOCOL_VERSION, ProtocolError, ViewPacker, encode, read_message
from net.room import Room

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 5.0
"""Seconds a new connection has to say hello."""
MAX_GREETING = 32
"""Connections that have not said hello yet; a newer one pushes the oldest out."""
PING_EVERY = 2.0
"""The host pings every seat this often, and expects each ping answered with a pong."""
DEAD_AFTER = 7.0
"""No pong for this long: the link is dead (vanished, frozen, or not reading), the seat away."""
IDLE_TIMEOUT = 30.0
"""Silence this long on a link that answers no pings either (belt and braces)."""
MAX_WATCHERS = 64
"""Connections that watch the table without a seat (an audience); one more is refused."""
WATCHERS_PER_ADDRESS = 8
"""Watchers from one address (a laptop, or a /64): a school's NAT has room, one stranger
cannot take the whole audience."""
TABLE_HANDLES = 128
"""File handles the table's port keeps for itself — every seat (12), every watcher (64), the
connections before hello (32) and the host's own files — which the web seats leave alone
(`tui/web/gateway.py` refuses a browser's connection rather than take them)."""
MAX_BACKLOG = 256 * 1024
"""Bytes waiting for a reader that does not keep up: beyond this its link is cut at once."""
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
FILES_QUIET = 10.0

WRONG_CODES = ("bad_code", "code_changed")
"""The room's refusals of a code: each is a guess against the address (and the table)."""

Alert = Callable[[str, dict[str, Any]], None]
"""What the host screen is told: ("wrong_code", {address, tried, wait}), ("blocked", {...}),
("code_lengthened", {letters, guessers, tried}), ("out_of_files", {}), ("files_again", {}),
("audience", {watchers})."""


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.seat: int | None = None
        self.watching = False  # an audience connection: the table's view, no seat
        self.page: str | None = None  # the relay key of the browser page it belongs to
        peer = writer.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) else "?"
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "?"
        self.answered = time.monotonic()  # the last pong to one of our pings
        self.last_version = -1  # of the last view sent

    def send(self, message: dict[str, Any]) -> None:
        try:
            frame = encode(message)
        except ProtocolError as exc:  # a bug of ours; this seat misses one frame, not all
            log.error("cannot send %s to %s: %s", message.get("type"), self.peer, exc)
            frame = encode(_error("internal", "the host could not send an update"))
        self.send_frame(frame)

    def send_frame(self, frame: bytes) -> None:
        if self.writer.is_closing():
            return
        if self.writer.transport.get_write_buffer_size() > MAX_BACKLOG:
            log.warning("%s does not keep up with the table: its link is cut", self.peer)
            self.abort()
            return
        self.writer.write(frame)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()

    def abort(self) -> None:
        """Cut the link now: what is waiting to be sent is thrown away, not drained."""
        with contextlib.suppress(Exception):
            self.writer.transport.abort()


class Server:
    def __init__(self, room: Room, *, host: str | None = None, port: int = 0) -> None:
        self.room = room
        self.host = host
        self.port = port
        self.connections: dict[int, Connection] = {}  # seat -> its live connection
        self.watchers: set[Connection] = set()  # the audience: every change, no seat
        self._all: set[Connection] = set()
        self._greeting: collections.OrderedDict[Connection, None] = collections.OrderedDict()
        self._server: asyncio.Server | None = None
        self.doorman = Doorman()
        self.doorman.blocked.update(room.settings.blocked)  # blocked before a `--resume`
        self.alerts: list[Alert] = []
        self.out_of_files: str | None = None  # the last "too many open files", while it lasts
        self._out_at = 0.0
        self.last_broadcast = 0.0  # perf_counter of the latest views sent, for measurements
        self._page_keys: set[str] = set()
        """What the host's own web gateway puts in a browser's `hello` (`relay`), one key per
        open page: the door sees the browser's address, not this machine's, and the gateway
        knows which connection is its page's (docs/PROTOCOL.md §7.11)."""
        room.subscribe(self._on_room_change)
        room.on_renumber(self._renumber)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._default_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_exception)
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

    def _alert(self, kind: str, **details: Any) -> None:
        for alert in list(self.alerts):
            try:
                alert(kind, details)
            except Exception:
                log.exception("an alert listener failed")

    # --- running out of file handles ----------------------------------------------------

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio already waits a second before accepting again when the process is out of
        file handles; here it is said once (not once a second), shown on the table screen,
        and room is made by dropping the oldest connections that never said hello."""
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in OUT_OF_FILES:
            if self.out_of_files is None:
                log.error("out of file handles (%s): new players wait; the table goes on", exc)
                self._alert("out_of_files")
            self.out_of_files = str(exc)
            self._out_at = time.monotonic()
            for stale in list(self._greeting)[: max(1, len(self._greeting) // 2)]:
                self._drop_greeting(stale)
            return
        if self._default_handler is not None:
            self._default_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    def _files_again(self) -> None:
        """Handles are back once accepting has worked for FILES_QUIET seconds on end (said
        once, not at every accept between two shortages)."""
        if self.out_of_files is not None and time.monotonic() - self._out_at > FILES_QUIET:
            self.out_of_files = None
            log.warning("file handles are free again: new players can join")
            self._alert("files_again")

    # --- pushing views ------------------------------------------------------------------

    def _on_room_change(self, events: list[dict[str, Any]]) -> None:
        """One frame per seat per change: its view and the change's events together."""
        packer = self._packer(events)
        for seat, connection in list(self.connections.items()):
            if seat < len(self.room.seats):  # (the lobby may have dropped that seat)
                self._send_view(connection, packer)
        if self.watchers:  # the same frame for the whole audience: built once
            self._send_audience(packer)
        self.last_broadcast = time.perf_counter()

    def _packer(self, events: list[dict[str, Any]]) -> ViewPacker:
        room = self.room
        return ViewPacker(room.version, room.summary(), events, room.game_view(None))

    def _send_view(self, connection: Connection, packer: ViewPacker | None = None) -> None:
        packer = packer or self._packer([])
        seat = connection.seat
        try:
            frame = packer.frame(seat, self.room.own_view(seat))
        except ProtocolError as exc:  # a view over the frame limit: a bug of ours, said
            log.error("cannot send the view of version %s to seat %s: %s", packer.version,
                      seat, exc)  # fmt: skip
            connection.send(_error("internal", "the host could not send an update"))
            return
        connection.send_frame(frame)
        connection.last_version = self.room.version

    def _send_audience(self, packer: ViewPacker) -> None:
        try:
            frame = packer.frame(None, None)
        except ProtocolError as exc:  # over the frame limit: a bug of ours, said
            log.error("cannot send the table's view of version %s: %s", packer.version, exc)
            frame = encode(_error("internal", "the host could not send an update"))
        for connection in list(self.watchers):
            connection.send_frame(frame)
            connection.last_version = packer.version

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

    def block(self, address: str) -> None:
        """The host turns an address away: its hellos are refused from now on, and its
        connections without a seat go now. Players already seated from it stay (two players on
        one laptop, or behind one port forward, share an address)."""
        self.doorman.block(address)
        self.room.settings.blocked = sorted(self.doorman.blocked)
        self.room.save_settings()  # still turned away after a crash and `--resume`
        for connection in list(self._all):
            if connection.seat is None and address_key(connection.address) == address_key(address):
                connection.send(_error("blocked", "the host has blocked this address"))
                connection.close()  # told first: the frame goes out, then the link
        self._alert("blocked", address=address_key(address))

    def is_blocked(self, address: str) -> bool:
        return self.doorman.is_blocked(address)

    # --- browser pages (the host's web seats) ---------------------------------------------

    def page_key(self) -> str:
        """A relay key for one browser page of the host's web gateway: its player app's
        `hello` relays the browser's address with it, and its connection is known as that
        page's (`page_place`). Only this process and that page's app know it."""
        key = secrets.token_urlsafe(24)
        self._page_keys.add(key)
        return key

    def forget_page(self, key: str) -> None:
        """The page is gone: its key relays nothing any more."""
        self._page_keys.discard(key)

    def page_place(self, key: str) -> tuple[str, str] | None:
        """Where a browser page is at the table: ("seat", the seat's name), ("watching", ""),
        or None (its app holds neither: on the join form, or between two links)."""
        for seat, connection in self.connections.items():
            if connection.page == key and seat < len(self.room.seats):
                return ("seat", self.room.seats[seat].name)
        if any(connection.page == key for connection in self.watchers):
            return ("watching", "")
        return None

    def _page_of(self, key: str) -> str | None:
        """The page `key` names, compared in constant time against each open page's."""
        found = None
        for page in self._page_keys:
            if secrets.compare_digest(key.encode(), page.encode()):
                found = page
        return found

    # --- one connection -----------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        self._all.add(connection)
        self._files_again()  # a connection was accepted: handles are there again
        self._greeting[connection] = None
        while len(self._greeting) > MAX_GREETING:
            self._drop_greeting(next(iter(self._greeting)))
        pinger: asyncio.Task | None = None
        try:
            if self.doorman.is_blocked(connection.address):
                raise ProtocolError("blocked", "the host has blocked this address")
            hello = await asyncio.wait_for(read_message(reader), HELLO_TIMEOUT)
            self._greeting.pop(connection, None)
            if not await self._greet(connection, hello):
                return
            pinger = asyncio.create_task(self._keep_alive(connection))
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
            connection.send(_error(exc.code, exc.detail, params=exc.params))
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            pass
        except Exception:
            log.exception("connection %s failed", connection.peer)
            connection.send(_error("internal", "the host had a problem with this connection"))
        finally:
            if pinger is not None:
                pinger.cancel()
            self._greeting.pop(connection, None)
            self._all.discard(connection)
            if connection.watching:
                self.watchers.discard(connection)
                self._alert("audience", watchers=len(self.watchers))
            seat = connection.seat
            if seat is not None and self.connections.get(seat) is connection:
                del self.connections[seat]
                self.room.disconnected(seat)  # the room hears first; the last bytes may wait
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.drain(), 1.0)
            connection.close()

    def _drop_greeting(self, connection: Connection) -> None:
        """A connection that has not said hello makes way (for a newer one, for a handle)."""
        self._greeting.pop(connection, None)
        connection.abort()

    async def _keep_alive(self, connection: Connection) -> None:
        """Ping the seat's player; a link whose pongs stop is cut, and the seat shown away."""
        loop = asyncio.get_running_loop()
        connection.answered = loop.time()
        while True:
            await asyncio.sleep(PING_EVERY)
            if loop.time() - connection.answered > DEAD_AFTER:
                log.info("%s answers no pings: its link is cut", connection.peer)
                connection.abort()  # its pending read ends at once (not at TCP's verdict)
                return
            connection.send({"type": "ping", "t": round(loop.time(), 3)})

    async def _greet(self, connection: Connection, hello: dict[str, Any]) -> bool:
        """Seat the connection, or let it watch; False when it ended before either."""
        if hello["type"] != "hello":
            raise ProtocolError("hello_first", "say hello first")
        if hello["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError(
                "version_mismatch",
                f"this host speaks protocol {PROTOCOL_VERSION}, you speak {hello['protocol']}",
            )
        if "relay" in hello:
            self._relayed(connection, hello["relay"])
        address = connection.address
        if (wait := self.doorman.hello(address)) > 0:
            raise _slow_down(wait, "too many connections from this address")
        if hello.get("watch"):
            return self._watch(connection, hello)
        token = hello.get("token")
        seat = self.room.seat_of_token(token) if token else None
        returning = seat is not None
        if returning and (wait := self.doorman.seat_hello(self.room.seats[seat].token)) > 0:
            raise _slow_down(wait, "this seat reconnects too often")
        if token and seat is None and not hello.get("name"):
            raise ProtocolError("unknown_token", "this table does not know you; join again")
        if seat is None:
            seat, returning = await self._new_seat(connection, hello)
            if seat is None:
                return False
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
                "story": _story(room),  # what happened lately, for the player back from a drop
            }
        )
        room.connected(seat, returning=returning or previous is not None)
        if connection.last_version != room.version:  # its own view now (the others may hear
            self._send_view(connection)  # of it a moment later, with the next presence change)
        return True

    def _relayed(self, connection: Connection, relay: dict[str, Any]) -> None:
        """A browser's player app, started by this host's web gateway: from here on the door
        (budgets, wrong codes, blocks) and the host's screen see the browser's address. Only a
        connection from this machine that knows the host's relay key may say so."""
        key, address = relay.get("key"), relay.get("address")
        local = _is_loopback(connection.address)
        page = self._page_of(key) if isinstance(key, str) else None
        if not (page and isinstance(address, str) and local):
            raise ProtocolError("bad_relay", "only this host's web seats relay an address")
        try:
            browser = str(ipaddress.ip_address(address.strip()[:64]))
        except ValueError:
            raise ProtocolError("bad_relay", "the relayed address is no address") from None
        connection.address = browser
        connection.peer = f"{browser} (browser)"
        connection.page = page
        if self.doorman.is_blocked(browser):
            raise ProtocolError("blocked", "the host has blocked this address")

    def _watch(self, connection: Connection, hello: dict[str, Any]) -> bool:
        """A watcher: the room code as for a seat (and the same door), then the table's view
        of every change. Its name and token, if any, are not read: a watcher holds no seat."""
        address = connection.address
        if self.room.code is not None:
            if (wait := self.doorman.code_wait(address)) > 0:
                raise _slow_down(wait, "too many wrong room codes from this address")
            try:
                self.room.check_code(hello.get("code"))
            except ProtocolError as exc:
                raise self._wrong_code(address, hello, exc) from None
            self.doorman.right_code(address)
        if len(self.watchers) >= MAX_WATCHERS:
            raise ProtocolError("audience_full", f"at most {MAX_WATCHERS} watch one table")
        here = address_key(address)
        if sum(address_key(w.address) == here for w in self.watchers) >= WATCHERS_PER_ADDRESS:
            raise ProtocolError(
                "audience_full", f"at most {WATCHERS_PER_ADDRESS} watch from one address"
            )
        connection.watching = True
        self.watchers.add(connection)
        room = self.room
        connection.send(
            {
                "type": "watching",
                "protocol": PROTOCOL_VERSION,
                "room": {"name": room.name, "id": room.room_id},
                "story": _story(room),
            }
        )
        self._send_view(connection)
        self._alert("audience", watchers=len(self.watchers))
        return True

    def _wrong_code(self, address: str, hello: dict[str, Any], exc: ProtocolError):
        """A hello refused `bad_code` (or `code_changed`): a guess against its address (and
        the table told, from the second) — unless it had no code at all, which is how a
        player's app learns that the table wants one (before the form asks for it), not a
        stranger's try. Past the table-wide limit, the table's code becomes long."""
        if (hello.get("code") or "").strip():
            wait = self.doorman.wrong_code(address)
            knocks = self.doorman.knocks[address_key(address)]
            if knocks.tried > 1:
                self._alert("wrong_code", address=address_key(address), tried=knocks.tried,
                            wait=wait)  # fmt: skip
            if wait:
                exc.params = {**exc.params, "retry_after": round(wait, 1)}
            if self.doorman.under_attack and self.room.lengthen_code():
                self._code_lengthened()
        return exc

    def _code_lengthened(self) -> None:
        """Said once, in the log and on the host's screen (which shows the new code)."""
        guessers = self.doorman.guessers()
        log.warning(
            "%d wrong room codes from %d addresses: the room code has %d letters now",
            self.doorman.wrong_codes, guessers, len(self.room.code or ""),
        )  # fmt: skip
        self._alert("code_lengthened", letters=len(self.room.code or ""), guessers=guessers,
                    tried=self.doorman.wrong_codes)  # fmt: skip

    async def _new_seat(
        self, connection: Connection, hello: dict[str, Any]
    ) -> tuple[int | None, bool]:
        """A seat for a hello without a known token: joining (seat, False), or claiming an
        away seat by its name (seat, True; None if the claimant gave up). Every try of the
        room code passes the doorman first."""
        address = connection.address
        needs_code = self.room.code is not None
        if needs_code and (wait := self.doorman.code_wait(address)) > 0:
            raise _slow_down(wait, "too many wrong room codes from this address")
        claimed = False
        try:
            try:
                seat = self.room.join(hello.get("name", ""), hello.get("code"))
            except ProtocolError as exc:
                if exc.code != "claim_needed":
                    raise
                claimed = True
                seat = await self._claim(connection, hello)
        except ProtocolError as exc:
            if exc.code in WRONG_CODES:
                raise self._wrong_code(address, hello, exc) from None
            raise
        if needs_code:
            self.doorman.right_code(address)
        return seat, claimed

    async def _claim(self, connection: Connection, hello: dict[str, Any]) -> int | None:
        """Someone without the token asks for an away seat by its name: they wait (told so
        with `pending`) until the host lets them in or refuses, or they give up or vanish
        (the host pings them meanwhile). Anything but pings, pongs and `bye` is ignored."""
        decided: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

        def resolve(token: str | None) -> None:
            if not decided.done():
                decided.set_result(token)

        claim = self.room.claim(hello["name"], hello.get("code"), connection.peer, resolve)
        connection.send({"type": "pending", "reason": "claim", "seat": claim.seat})
        loop = asyncio.get_running_loop()
        connection.answered = loop.time()
        reading: asyncio.Task | None = None
        next_ping = loop.time() + PING_EVERY
        try:
            while not decided.done():
                reading = reading or asyncio.ensure_future(read_message(connection.reader))
                await asyncio.wait(
                    {decided, reading},
                    timeout=max(0.0, next_ping - loop.time()),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if reading.done():
                    message = reading.result()  # a dropped link raises: the claim goes
                    reading = None
                    handler = self._WHILE_CLAIMING.get(message["type"])
                    if handler is not None and not handler(self, connection, message):
                        return None  # `bye`: the claimant gave up
                # only pongs count: a claimant that talks but never answers is gone too
                if loop.time() - connection.answered > DEAD_AFTER:
                    return None  # the claimant vanished: the claim goes with it
                if loop.time() >= next_ping:
                    connection.send({"type": "ping", "t": round(loop.time(), 3)})
                    next_ping = loop.time() + PING_EVERY
        finally:
            if reading is not None:
                reading.cancel()
            self.room.withdraw_claim(claim)
        token = decided.result()
        if token is None:
            raise ProtocolError("name_taken", "the host did not hand that seat over")
        return self.room.seat_of_token(token)

    def _dispatch(self, connection: Connection, message: dict[str, Any]) -> bool:
        """Handle one message with its type's handler; False ends the connection."""
        handler = self._HANDLERS.get(message["type"])
        if handler is None:  # a host-to-client type, or a second hello
            connection.send(_error("unexpected", f"a client does not send {message['type']}"))
            return True
        return handler(self, connection, message)

    def _on_ping(self, connection: Connection, message: dict[str, Any]) -> bool:
        connection.send({"type": "pong", **({"t": message["t"]} if "t" in message else {})})
        return True

    def _on_pong(self, connection: Connection, message: dict[str, Any]) -> bool:
        connection.answered = asyncio.get_running_loop().time()
        return True

    def _on_bye(self, connection: Connection, message: dict[str, Any]) -> bool:
        seat = connection.seat
        if seat is not None:
            self.connections.pop(seat, None)
            connection.seat = None
            self.room.leave(seat)
        return False

    def _on_action(self, connection: Connection, message: dict[str, Any]) -> bool:
        ref = message.get("ref")
        if connection.watching:
            connection.send(_error("watching", "a watcher does not play", ref))
            return True
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
        return True

    _HANDLERS: ClassVar[dict[str, Callable[[Server, Connection, dict[str, Any]], bool]]] = {
        "ping": _on_ping,
        "pong": _on_pong,
        "bye": _on_bye,
        "action": _on_action,
    }
    """What a seated (or watching) connection may send after its hello: one handler each."""

    _WHILE_CLAIMING: ClassVar[dict[str, Callable[[Server, Connection, dict[str, Any]], bool]]] = {
        "ping": _on_ping,
        "pong": _on_pong,
        "bye": lambda server, connection, message: False,
    }
    """What a connection waiting for the host to hand it an away seat may send: the link's
    pings, and `bye` (it gives up); an action waits for the host's decision, unanswered."""


def _is_loopback(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def _slow_down(wait: float, why: str) -> ProtocolError:
    error = ProtocolError("slow_down", f"{why}: try again in {wait:.0f} s")
    error.params = {"retry_after": round(wait, 1)}
    return error


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
    kept = {k: v for k, v in (params or {}).items() if _plain_param(v)}
    if kept:
        frame["params"] = kept
    if ref is not None:
        frame["ref"] = ref
    return frame


def _plain_param(value: Any) -> bool:
    """A value a catalogue text can show: a str or a number, or a short list of them (a tie's
    seats); nil and anything nested is left out."""
    if isinstance(value, list):
        return len(value) <= 64 and all(isinstance(v, str | int) for v in value)
    return isinstance(value, str | int | float)


STORY_BYTES = 16 * 1024
"""The most a welcome's story may weigh (a Tesauro reveal carries every definition)."""


def _story(room: Room) -> list[dict[str, Any]]:
    """The room's latest changes with events, newest kept first when they do not all fit: each
    within the message limits (it sits two levels deeper than in a view), all within
    STORY_BYTES."""
    story: list[dict[str, Any]] = []
    size = 0
    for version, events in reversed(room.recent):
        entry = {"version": version, "events": events}
        try:
            size += len(encode({"type": "welcome", "protocol": PROTOCOL_VERSION, "seat": 0,
                                "token": "", "room": {"name": "", "id": ""},
                                "story": [entry]}))  # fmt: skip
        except ProtocolError:
            continue  # too deep or too big for a welcome: that line is not told
        if size > STORY_BYTES:
            break
        story.append(entry)
    return story[::-1]
