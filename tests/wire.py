"""A bare-bones client for tests: speaks frames over a real socket, nothing clever."""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from net.protocol import PROTOCOL_VERSION, encode, read_message


class Wire:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.views: list[dict[str, Any]] = []
        self.raw = bytearray()  # every byte received, for secrecy checks

    @classmethod
    async def connect(cls, port: int) -> Wire:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    @classmethod
    async def join(cls, port: int, name: str, code: str | None = None, **extra: Any) -> Wire:
        wire = await cls.connect(port)
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, **extra}
        if code is not None:
            hello["code"] = code
        await wire.send(hello)
        return wire

    @property
    def version(self) -> int:
        """The newest view version this wire has read (what a client stamps its actions with)."""
        return max((v["version"] for v in self.views), default=0)

    async def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "action" and "version" not in message:
            message = {**message, "version": self.version}
        self.writer.write(encode(message))
        await self.writer.drain()

    async def send_raw(self, obj: Any) -> None:
        """A frame the protocol would refuse to build: for testing the host's defences."""
        body = msgpack.packb(obj, use_bin_type=True)
        self.writer.write(struct.pack(">I", len(body)) + body)
        await self.writer.drain()

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message; the host's pings are answered on the way, as any client does
        (a wire that stops reading stops answering: the host then finds it dead)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = max(0.001, deadline - loop.time())
            message = await asyncio.wait_for(read_message(_Tap(self)), left)
            if message["type"] != "ping":
                break
            self.writer.write(encode({"type": "pong", "t": message["t"]}))
        if message["type"] == "view":
            self.views.append(message)
        return message

    async def expect(self, kind: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
        """Read until a message of `kind` (matching `match`) arrives."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        heard: list[str] = []
        while True:
            try:
                message = await self.recv(max(0.01, deadline - loop.time()))
            except TimeoutError:
                said = f"no {kind} {match or ''} in {timeout} s; heard {heard}"
                raise TimeoutError(said) from None
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message
            heard.append(message.get("code") or message["type"])

    async def view_where(self, test, timeout: float = 10.0) -> dict[str, Any]:
        """Read views until one passes `test`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        last = None
        while True:
            try:
                message = await self.expect("view", max(0.01, deadline - loop.time()))
            except TimeoutError as gone:
                game = (last or {}).get("game") or {}
                said = f"no view passed the test; the last: {game.get('phase')} {game}"
                raise TimeoutError(said) from gone
            if test(message):
                return message
            last = message

    async def closed(self, timeout: float = 10.0) -> bool:
        """True once the host has closed this connection (after reading what was left)."""
        try:
            while True:
                await self.recv(timeout)
        except (asyncio.IncompleteReadError, ConnectionError):
            return True

    async def newest_game(self, game: dict[str, Any] | None) -> dict[str, Any] | None:
        """Drain what has arrived and return the newest game view (or `game` if none came)."""
        while True:
            try:
                message = await self.recv(timeout=0.01)
            except TimeoutError:
                return game
            if message["type"] == "view" and message["game"]:
                game = message["game"]

    def close(self) -> None:
        self.writer.close()


class _Tap:
    """A reader that records what it reads."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire

    async def readexactly(self, n: int) -> bytes:
        data = await self.wire.reader.readexactly(n)
        self.wire.raw += data
        return data
