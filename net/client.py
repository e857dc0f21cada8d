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
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net.protocol import DEFAULT_PORT, PROTOCOL_VERSION, ProtocolError, encode, read_message

log = logging.getLogger(__name__)

BACKOFF = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
PING_EVERY = 5.0
SILENCE_LIMIT = 15.0  # no frame for this long: the host is gone even if TCP hasn't noticed
REFUSALS = {"bad_code", "name_taken", "bad_name", "room_full", "version_mismatch", "unknown_token"}


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
    """Reconnect tokens by host address. A token is a seat: keep the file private."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_dir() / "tokens.json"

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> dict[str, Any] | None:
        entry = self._load().get(key)
        return entry if isinstance(entry, dict) and isinstance(entry.get("token"), str) else None

    def put(self, key: str, **entry: Any) -> None:
        data = self._load()
        data[key] = entry
        self._write(data)

    def forget(self, key: str) -> None:
        data = self._load()
        if data.pop(key, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".tokens-")
        with os.fdopen(fd, "w") as handle:
            json.dump(data, handle)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)


Status = str  # "connecting" | "connected" | "reconnecting" | "refused" | "closed"


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
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.code = code
        self.tokens = tokens or TokenStore()
        self.on_message = on_message
        self.on_status = on_status
        self.seat: int | None = None
        self.status: Status = "connecting"
        self._writer: asyncio.StreamWriter | None = None
        self._refs = itertools.count(1)
        self._closing = False
        self._welcomed = False

    @property
    def key(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def saved(self) -> dict[str, Any] | None:
        return self.tokens.get(self.key)

    def _set_status(self, status: Status, info: dict[str, Any] | None = None) -> None:
        self.status = status
        self.on_status(status, info)

    async def run(self) -> None:
        """Connect and stay connected until `close()` or the host refuses us."""
        attempt = 0
        while not self._closing:
            self._welcomed = False
            try:
                await self._session()
            except ProtocolError as exc:
                if exc.code in REFUSALS:
                    if exc.code == "unknown_token":
                        self.tokens.forget(self.key)
                    self._set_status("refused", {"code": exc.code, "message": exc.detail})
                    return
                log.info("protocol trouble: %s", exc)
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                log.info("connection to %s lost: %r", self.key, exc)
            if self._closing:
                break
            if self._welcomed:
                attempt = 0  # we were in: start the backoff over
            delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
            attempt += 1
            self._set_status("reconnecting", {"in": delay, "attempt": attempt})
            await asyncio.sleep(delay)
        self._set_status("closed")

    async def _session(self) -> None:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), 5.0)
        self._writer = writer
        pinger = asyncio.create_task(self._ping_loop())
        try:
            hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL_VERSION}
            saved = self.saved
            if saved:
                hello["token"] = saved["token"]
            if self.name:
                hello["name"] = self.name
            if self.code:
                hello["code"] = self.code
            writer.write(encode(hello))
            await writer.drain()
            while True:
                message = await asyncio.wait_for(read_message(reader), SILENCE_LIMIT)
                self._receive(message)
        finally:
            pinger.cancel()
            self._writer = None
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.seat = message["seat"]
            self._welcomed = True
            self.tokens.put(self.key, token=message["token"], name=self.name, room=message["room"])
            self._set_status("connected", message)
        elif kind == "error" and message["code"] in REFUSALS and self.status != "connected":
            raise ProtocolError(message["code"], message["message"])
        elif kind == "kicked":
            if message["reason"] == "kicked":
                self.tokens.forget(self.key)
            self._closing = True
            self.on_message(message)
            raise ConnectionResetError(message["reason"])
        if kind != "pong":
            self.on_message(message)

    async def _ping_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(PING_EVERY)
            self._send({"type": "ping", "t": loop.time()})

    def _send(self, message: dict[str, Any]) -> bool:
        writer = self._writer
        if writer is None or writer.is_closing():
            return False
        writer.write(encode(message))
        return True

    def act(self, action: dict[str, Any]) -> int | None:
        """Send an action; returns its ref (echoed in an `error`), None when not connected."""
        ref = next(self._refs)
        return ref if self._send({"type": "action", "action": action, "ref": ref}) else None

    async def close(self) -> None:
        self._closing = True
        self._send({"type": "bye"})
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer.drain()
            self._writer.close()
