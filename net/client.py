"""A player's connection to the host: hello, views in, actions out, and coming back by itself.

The connection keeps the reconnect token the host gave it (per host, in the user's state
directory), so a dropped Wi-Fi, a closed lid or a restarted host costs nothing: the client
retries with backoff and the same `hello` with the token takes the same seat back.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

try:
    import fcntl  # POSIX: a lock for the token file
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from net.protocol import (
    DEFAULT_PORT,
    PROTOCOL_VERSION,
    FrameDecoder,
    MessageLink,
    ProtocolError,
    encode,
    shown_texts,
)
from net.savefile import write_atomically

log = logging.getLogger(__name__)

BACKOFF = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
PING_EVERY = 5.0
SILENCE_LIMIT = 8.0  # the host pings every 2 s: no frame for this long, and it is gone
REFUSALS = {
    "bad_code", "code_changed", "name_taken", "bad_name", "room_full", "version_mismatch",
    "unknown_token", "slow_down", "blocked", "audience_full",
}  # fmt: skip


def state_dir() -> Path:
    """Where hubbub keeps tokens and the host's save file: $HUBBUB_STATE_DIR, else XDG."""
    if explicit := os.environ.get("HUBBUB_STATE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "hubbub"


def parse_address(text: str) -> tuple[str, int]:
    """`host`, `host:port`, `[v6]:port` or a bare v6 address; raises ValueError."""
    text = text.strip()
    if not text:
        raise ValueError("empty address")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or str(DEFAULT_PORT)
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, str(DEFAULT_PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not an address: {text}")
    return host, int(port)


class TokenStore:
    """Reconnect tokens by host address and player name: a token is a seat, so two names on
    one account are two seats, and the same name on the same host continues its seat. Keep
    the file private."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "tokens.json"

    @staticmethod
    def key(address: str, name: str) -> str:
        return f"{address}/{name.casefold()}"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, address: str, name: str) -> dict[str, Any] | None:
        entry = self._load().get(self.key(address, name))
        return entry if _is_entry(entry) else None

    def names(self, address: str) -> list[str]:
        """The names this account has seats under at `address`, the latest first."""
        entries = [
            e for k, e in self._load().items() if k.startswith(f"{address}/") and _is_entry(e)
        ]
        entries.sort(key=lambda e: e.get("at", 0), reverse=True)
        return [e["name"] for e in entries if isinstance(e.get("name"), str) and e["name"]]

    def put(self, address: str, name: str, **entry: Any) -> None:
        with self._locked():
            data = self._load()
            data[self.key(address, name)] = {**entry, "name": name, "at": time.time()}
            self._write(data)

    def forget(self, address: str, name: str) -> None:
        with self._locked():
            data = self._load()
            if data.pop(self.key(address, name), None) is not None:
                self._write(data)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One writer at a time: two player apps on one account read, change and write the
        same file (without the lock, one's change could undo the other's)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a") as lock:
            if fcntl is not None:
                with contextlib.suppress(OSError):  # no locks on this filesystem: best effort
                    fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def _write(self, data: dict[str, Any]) -> None:
        write_atomically(self.path, json.dumps(data).encode(), mode=0o600)


def _is_entry(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("token"), str)


def seat_name(tokens: TokenStore, address: str, name: str) -> str | None:
    """The name `hubbub join ADDRESS` joins under without asking: the one given, or the only
    one this account holds a seat under at that table. None: the join form asks."""
    if name:
        return name
    names = tokens.names(address)
    return names[0] if len(names) == 1 else None


def greeting(
    *,
    name: str = "",
    code: str | None = None,
    token: str | None = None,
    watch: bool = False,
    relay: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The `hello` a player app opens with (docs/PROTOCOL.md §5.1.1)."""
    hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
    if token:
        hello["token"] = token
    if relay:
        hello["relay"] = relay
    if watch:
        hello["watch"] = True
    elif name:
        hello["name"] = name
    if code:
        hello["code"] = code
    return hello


CONNECT_TIMEOUT = 5.0


class EarlyLink:
    """A connection opened, and its `hello` said, before the player app is up.

    `hubbub join ADDRESS --name N` knows all its `hello` says before Textual is even
    imported, and Textual's start takes a second or more. So a thread connects at once and
    holds the line while the app loads: the table sees the player seated at once. It answers
    the host's pings meanwhile (a slow laptop's start must not look like a dead link) and
    keeps every other frame, unread, for the app: `claim()` hands the socket and those bytes
    to the app's `Client`, which reads the host's answer as if it had connected itself. If
    the early connect failed, or the app would say another `hello`, the `Client` connects as
    it always does — nothing is lost but the head start."""

    def __init__(self, host: str, port: int, hello: dict[str, Any]) -> None:
        self.host, self.port, self.hello = host, port, hello
        self._socket: socket.socket | None = None
        self._held = bytearray()  # the host's frames so far, pings answered and left out
        self._wake_r, self._wake_w = os.pipe()  # claim() and close() end the thread's wait
        self._lock = threading.Lock()
        self._ended = False  # set once, by claim() or close(): the thread lets the line go
        self.pings = 0  # the host's pings it answered
        self._thread = threading.Thread(target=self._run, name="hubbub-early-link", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            sock = socket.create_connection((self.host, self.port), timeout=CONNECT_TIMEOUT)
        except OSError as exc:
            log.info("early connect to %s:%s failed: %r", self.host, self.port, exc)
            return
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(encode(self.hello))
            self._hold(sock)
        except (OSError, ProtocolError) as exc:  # the app meets the same trouble, and says so
            log.info("early link to %s:%s: %r", self.host, self.port, exc)
        with self._lock:
            self._socket = sock

    def _hold(self, sock: socket.socket) -> None:
        """Read the host's frames until claimed: answer pings, keep the rest for the app."""
        sock.settimeout(None)
        frames = FrameDecoder()
        try:
            while True:
                ready, _, _ = select.select([sock, self._wake_r], [], [])
                if self._wake_r in ready:
                    break
                data = sock.recv(65536)
                if not data:
                    break  # the host closed it: the app reads what it said, then the end
                for frame, message in frames.feed_frames(data):
                    if message["type"] == "ping":
                        pong = {"type": "pong", **({"t": message["t"]} if "t" in message else {})}
                        sock.sendall(encode(pong))
                        self.pings += 1
                    else:
                        self._held += frame
        finally:
            self._held += frames.pending  # a frame read in part, or one it refused

    def _end(self) -> bool:
        """Stop the thread's wait; False if claim() or close() came first."""
        with self._lock:
            if self._ended:
                return False
            self._ended = True
        os.write(self._wake_w, b"x")
        return True

    async def claim(
        self, host: str, port: int, hello: dict[str, Any]
    ) -> tuple[socket.socket, bytes] | None:
        """The socket and the host's frames so far, if this link went to `host:port` and
        said `hello`; else None (and the link is closed)."""
        if not self._end():
            return None
        await asyncio.to_thread(self._thread.join, CONNECT_TIMEOUT + 1.0)
        if self._thread.is_alive():  # still connecting after all this time: let it be
            return None
        os.close(self._wake_r)
        os.close(self._wake_w)
        sock, self._socket = self._socket, None
        if sock is None:
            return None
        if (host, port, hello) != (self.host, self.port, self.hello):
            sock.close()
            return None
        sock.setblocking(False)
        return sock, bytes(self._held)

    async def close(self) -> None:
        """Let the line go unclaimed (the app closed before it connected)."""
        if (taken := await self.claim(self.host, self.port, self.hello)) is not None:
            taken[0].close()


Status = str
""""connecting" | "connected" | "pending" (waiting for the host to hand a seat over) |
"reconnecting" | "refused" | "closed"."""


class Client:
    """One player's link to one host. Callbacks run on the event loop that runs `run()`."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str = "",
        code: str | None = None,
        tokens: TokenStore | None = None,
        on_message: Callable[[dict[str, Any]], None] = lambda message: None,
        on_status: Callable[[Status, dict[str, Any] | None], None] = lambda status, info: None,
        watch: bool = False,
        relay: dict[str, str] | None = None,
        early: EarlyLink | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.code = code
        self.tokens = tokens or TokenStore()
        self.on_message = on_message
        self.on_status = on_status
        self.watch = watch  # in the audience: the table's view, no seat, no token
        self.relay = relay  # a web seat: the browser's address, for the host's door
        self.seat: int | None = None
        self.status: Status = "connecting"
        self._link: MessageLink | None = None
        self._refs = itertools.count(1)
        self._closing = False
        self._welcomed = False
        self.table_closed = False  # the host closed the table but can resume it: wait for it
        self._early = early  # opened before the app was up: the first session's link

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def saved(self) -> dict[str, Any] | None:
        if self.watch or not self.name:
            return None
        return self.tokens.get(self.address, self.name)

    def _set_status(self, status: Status, info: dict[str, Any] | None = None) -> None:
        self.status = status
        self.on_status(status, info)

    async def run(self) -> None:
        """Connect and stay connected until `close()` or the host refuses us."""
        attempt = 0
        seated = False  # welcomed at least once: a slow-down is then a wait, not a refusal
        while not self._closing:
            self._welcomed = False
            wait = 0.0
            unreadable: str | None = None
            try:
                await self._session()
            except ProtocolError as exc:
                if exc.code == "slow_down" and seated:
                    wait = float(exc.params.get("retry_after", BACKOFF[-1]))
                elif exc.code in REFUSALS:
                    if exc.code == "unknown_token" and self.name:
                        self.tokens.forget(self.address, self.name)
                    info = {"code": exc.code, "message": exc.detail, "params": exc.params}
                    self._set_status("refused", info)
                    return
                else:  # what the host sent does not fit the wire's types: said, and again
                    unreadable = exc.code
                log.info("protocol trouble: %s", exc)
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                log.info("connection to %s lost: %r", self.address, exc)
            seated = seated or self._welcomed
            if self._closing:
                break
            if self._welcomed:
                attempt = 0  # we were in: start the backoff over
            delay = max(wait, BACKOFF[min(attempt, len(BACKOFF) - 1)])
            if self.table_closed:
                delay = BACKOFF[-1]  # closed on purpose: it comes back when the host resumes
            attempt += 1
            info = {"in": delay, "attempt": attempt, "closed": self.table_closed}
            if unreadable:
                info["unreadable"] = unreadable
            self._set_status("reconnecting", info | {"seated": seated})
            await asyncio.sleep(delay)
        self._set_status("closed")

    def greeting(self) -> dict[str, Any]:
        saved = self.saved
        return greeting(
            name=self.name,
            code=self.code,
            token=saved["token"] if saved else None,
            watch=self.watch,
            relay=self.relay,
        )

    async def _session(self) -> None:
        """One connection, from `hello` to its end: the frames are read as they land
        (`MessageLink`) and each goes to `_receive`; what ends the link — the host gone or
        silent, a frame that does not fit, a refusal, a kick — is raised here."""
        hello = self.greeting()
        early, self._early = self._early, None
        taken = await early.claim(self.host, self.port, hello) if early is not None else None
        loop = asyncio.get_running_loop()
        if taken is not None:  # connected, and hello said, while the app was loading
            sock, held = taken
            link = MessageLink(self._receive, held=held)
            await loop.create_connection(lambda: link, sock=sock)
        else:
            link = MessageLink(self._receive)
            opening = loop.create_connection(lambda: link, self.host, self.port)
            await asyncio.wait_for(opening, CONNECT_TIMEOUT)
            link.send(hello)
        self._link = link
        keeper = asyncio.create_task(self._keep_alive(link))
        try:
            await link.ended
        finally:
            keeper.cancel()
            self._link = None
            link.end(ConnectionResetError("the session is over"))

    def _receive(self, message: dict[str, Any]) -> None:
        """One message from the host, to its type's handler; what the app must hear (a view,
        an error, a change of seat or link) goes on to it."""
        message = shown_texts(message)  # before anything shows or keeps a text of it
        handler = self._HANDLERS.get(message["type"])
        if handler is not None and handler(self, message):
            self.on_message(message)

    def _on_welcome(self, message: dict[str, Any]) -> bool:
        self.seat = message["seat"]
        self._welcomed = True
        self.table_closed = False
        if self.name:
            token, room = message["token"], message["room"]
            self.tokens.put(self.address, self.name, token=token, room=room)
        self._set_status("connected", message)
        return True

    def _on_watching(self, message: dict[str, Any]) -> bool:
        self.seat = None
        self._welcomed = True
        self.table_closed = False
        self._set_status("connected", message)
        return True

    def _on_ping(self, message: dict[str, Any]) -> bool:
        """The host checks the link: answered at once."""
        self._send({"type": "pong", **({"t": message["t"]} if "t" in message else {})})
        return False

    def _on_pending(self, message: dict[str, Any]) -> bool:
        self._set_status("pending", message)
        return True

    def _on_error(self, message: dict[str, Any]) -> bool:
        if message["code"] in REFUSALS and self.status != "connected":
            refusal = ProtocolError(message["code"], message["message"])
            refusal.params = dict(message.get("params", {}))
            raise refusal
        return True

    def _on_kicked(self, message: dict[str, Any]) -> bool:
        if message["reason"] == "closed" and message.get("resumable"):
            self.table_closed = True  # keep the token and come back with the table
        else:
            if message["reason"] in ("kicked", "closed") and self.name and not self.watch:
                self.tokens.forget(self.address, self.name)
            self._closing = True
        self.on_message(message)
        raise ConnectionResetError(message["reason"])

    _HANDLERS: ClassVar[dict[str, Callable[[Client, dict[str, Any]], bool]]] = {
        "welcome": _on_welcome,
        "watching": _on_watching,
        "view": lambda client, message: True,
        "error": _on_error,
        "pending": _on_pending,
        "kicked": _on_kicked,
        "ping": _on_ping,
        "pong": lambda client, message: False,  # the answer to our ping: the link is up
    }
    """Every message a host sends, with its handler: True, the app hears it too."""

    async def _keep_alive(self, link: MessageLink) -> None:
        """Ping the host every `PING_EVERY`; a host not heard for `SILENCE_LIMIT` is gone."""
        loop = asyncio.get_running_loop()
        next_ping = loop.time() + PING_EVERY
        while True:
            now = loop.time()
            silent_at = link.heard + SILENCE_LIMIT
            if now >= silent_at:
                link.end(TimeoutError(f"nothing from the host for {SILENCE_LIMIT:.0f} s"))
                return
            if now >= next_ping:
                link.send({"type": "ping", "t": now})
                next_ping = now + PING_EVERY
            await asyncio.sleep(min(next_ping, silent_at) - now)

    def _send(self, message: dict[str, Any]) -> bool:
        return self._link is not None and self._link.send(message)

    def act(self, action: dict[str, Any], version: int) -> int | None:
        """Send an action made from the view of `version`; returns its ref (echoed in an
        `error`), None when not connected."""
        ref = next(self._refs)
        message = {"type": "action", "action": action, "version": version, "ref": ref}
        return ref if self._send(message) else None

    async def leave(self) -> None:
        """Give the seat up (`bye`): in the lobby it goes; in a game a bot takes it over. The
        token is forgotten: this seat is not ours any more."""
        self._closing = True
        said = self._send({"type": "bye"})
        if self.name and not self.watch:
            self.tokens.forget(self.address, self.name)
        await self._hang_up(2.0)
        if not said:
            log.info("could not say goodbye to %s: not connected", self.address)

    async def close(self) -> None:
        """Stop without giving the seat up (the app is closing; the player may come back)."""
        self._closing = True
        if self._early is not None:  # closed before its first session: let that line go
            early, self._early = self._early, None
            await early.close()
        await self._hang_up(1.0)

    async def _hang_up(self, patience: float) -> None:
        """Close the link once what was said to the host has gone (`patience` s at most)."""
        link = self._link
        if link is not None:
            link.end(ConnectionResetError("closed by the player"))  # written first, then closed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(link.closed), patience)
