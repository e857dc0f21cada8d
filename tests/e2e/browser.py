"""What the browser tests share: Debian's Chromium driven by Playwright (nothing downloaded),
pages that may ask this host only, the page's screen read as text, taps on what it shows, and
the test's own player on the wire.

The page's terminal draws with xterm's DOM renderer (`tui/web/seat.js`), so what a guest sees
is text in the page: `Page.lines()` reads it, and `tap_text` taps a word where it is drawn, as a
finger would.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import struct
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from net.client import Client, TokenStore
from tui.waiting import until

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)),
    None,
)
needs_chromium = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not on PATH"),
]
WAIT = 20.0  # seconds for any one state; a Python process per page on a busy 2-core CI
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
PHONE = {  # a phone in portrait, as the issue measured it: 390x844, touch, device scale 3
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}


def playwright_api() -> Any:
    return pytest.importorskip(
        "playwright.async_api", reason="Playwright is not installed (pip install '.[test]')"
    )


@contextlib.asynccontextmanager
async def chromium():
    """A headless Chromium (Debian's), closed afterwards."""
    async with playwright_api().async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            await browser.close()


class Page:
    """One browser page on the table's web address: every request it makes is checked (one
    outside this host is aborted and recorded), and its screen can be read and tapped."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        self.outside: list[str] = []
        self.sent: list[str] = []  # what the page sent its player app (keys, sizes)
        self.errors: list[str] = []

    @classmethod
    async def open(cls, context: Any, url: str) -> Page:
        page = cls(await context.new_page(), url)
        await page.page.route("**/*", page._only_this_host)
        page.page.on("websocket", page._watch)
        page.page.on("pageerror", lambda error: page.errors.append(str(error)))
        await page.page.goto(url + "/")
        return page

    async def _only_this_host(self, route: Any) -> None:
        if route.request.url.startswith(self.url + "/"):
            await route.continue_()
        else:
            self.outside.append(route.request.url)
            await route.abort()

    def _watch(self, socket: Any) -> None:
        host = self.url.removeprefix("http://")
        if not socket.url.startswith(f"ws://{host}/"):
            self.outside.append(socket.url)
        socket.on("framesent", lambda payload: self.sent.append(str(payload)))

    async def lines(self) -> list[str]:
        """The terminal's rows as drawn, top to bottom."""
        return await self.page.evaluate(
            "() => [...document.querySelectorAll('#terminal .xterm-rows > div')]"
            ".map(row => row.textContent)"
        )

    async def text(self) -> str:
        return "\n".join(await self.lines())

    async def wait_text(self, wanted: str | re.Pattern[str], timeout: float = WAIT) -> str:
        """Until the screen shows `wanted` (text, or a pattern); returns the screen."""
        deadline = time.monotonic() + timeout
        while True:
            shown = await self.text()
            found = wanted.search(shown) if isinstance(wanted, re.Pattern) else wanted in shown
            if found:
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {wanted!r}; it shows:\n{shown}")
            await asyncio.sleep(0.05)

    async def wait_words(self, *wanted: str | re.Pattern[str], timeout: float = WAIT) -> None:
        """Until one screen shows every one of `wanted` (words, or a pattern of them),
        however its lines wrap them (a phone's 40 columns)."""
        words = [w if isinstance(w, re.Pattern) else " ".join(w.split()) for w in wanted]
        deadline = time.monotonic() + timeout
        while True:
            shown = " ".join(" ".join(await self.lines()).split())
            if all(
                each.search(shown) if isinstance(each, re.Pattern) else each in shown
                for each in words
            ):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {wanted!r}:\n{await self.text()}")
            await asyncio.sleep(0.05)

    async def state(self) -> dict[str, Any]:
        """The page's link (`window.hubbubSeat.state()`): open, told, fontSize."""
        return await self.page.evaluate("window.hubbubSeat.state()")

    async def wait_state(self, test: Callable[[dict[str, Any]], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not test(state := await self.state()):
            assert time.monotonic() < deadline, f"the page never got to {what}: {state}"
            await asyncio.sleep(0.05)

    async def grid(self) -> tuple[float, float, float, float, int, int]:
        """Where the terminal's cells are: left, top, cell width, cell height, columns, rows."""
        box = await self.page.evaluate(
            "() => { const r = document.querySelector('#terminal .xterm-rows')"
            ".getBoundingClientRect(); const rows = document.querySelectorAll("
            "'#terminal .xterm-rows > div'); return [r.left, r.top, r.width, r.height,"
            " rows.length, rows[0].textContent.length]; }"
        )
        left, top, width, height, rows, columns = box
        return left, top, width / columns, height / rows, columns, rows

    async def tap_text(self, text: str, *, last: bool = True) -> None:
        """Tap the middle of `text` where the screen draws it (the lowest such place, the
        footer's, unless `last` is False)."""
        lines = await self.lines()
        found = [(row, line.find(text)) for row, line in enumerate(lines) if text in line]
        assert found, f"{text!r} is not on the screen:\n" + "\n".join(lines)
        row, column = found[-1] if last else found[0]
        left, top, cell_w, cell_h, _, _ = await self.grid()
        x = left + (column + len(text) / 2) * cell_w
        y = top + (row + 0.5) * cell_h
        await self.page.touchscreen.tap(x, y)

    async def touch_key(self, key: str) -> None:
        """A key of the page's touch row: keyboard, escape, tab, left, up, down, right, enter."""
        await self.page.tap(f"#touch-keys button[data-key={key}]")

    async def keyboard_up(self) -> bool:
        """Whether the page has the phone's keyboard up (its ⌨ key lit)."""
        return await self.page.evaluate("document.body.classList.contains('-typing')")

    async def until_keyboard(self, up: bool) -> None:
        """Wait for the phone's keyboard to be up (or down). (Polled: the page's CSP allows no
        `wait_for_function`, which evaluates a string in the page.)"""
        deadline = time.monotonic() + WAIT
        while await self.keyboard_up() != up:
            if time.monotonic() > deadline:
                raise AssertionError(f"the phone's keyboard never went {'up' if up else 'down'}")
            await asyncio.sleep(0.05)

    async def type_on_screen_keyboard(self, text: str) -> None:
        """Text as a phone's own keyboard gives it (an input method's commit, not key presses)."""
        await self.page.keyboard.insert_text(text)


def png_pixels(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """A screenshot's pixels (Chromium's PNG: 8-bit RGB or RGBA): width, height, and the rows
    of (r, g, b) from the top."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, chunks, header = 8, [], b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    step = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(b"".join(chunks)), width * step
    rows: list[list[tuple[int, int, int]]] = []
    above = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - step] if x >= step else 0
            b, c = above[x], above[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x : x + 3]) for x in range(0, stride, step)])  # type: ignore[misc]
        above = line
    return width, height, rows


class Yuri:
    """The test's own player, on the wire: keeps the latest view and plays its own turns."""

    def __init__(self, port: int, code: str | None, tokens: Path, name: str = "Yuri") -> None:
        self.view: dict = {}
        self.room: dict = {}
        self.version = -1
        self.changed = asyncio.Event()
        self.client = Client(
            "127.0.0.1", port, name=name, code=code, tokens=TokenStore(tokens),
            on_message=self._message,
        )  # fmt: skip
        self._link: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._link = asyncio.create_task(self.client.run())

    async def stop(self) -> None:
        await self.client.close()
        if self._link is not None:
            self._link.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._link

    def _message(self, message: dict) -> None:
        if message["type"] == "view":
            self.room, self.view = message["room"], message["game"] or {}
            self.version = message["version"]
            self.changed.set()

    async def until(self, test: Callable[[], object], what: str, timeout: float = WAIT) -> None:
        """Wait for the table to get to a state (woken by each message it sends)."""
        try:
            await until(test, timeout=timeout, what=what, wake=self.changed)
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}: {self.room} {self.view}") from None

    def seat_of(self, name: str) -> int | None:
        names = [s["name"] for s in self.room.get("seats", [])]
        return names.index(name) if name in names else None

    def connected(self, name: str) -> bool:
        seat = self.seat_of(name)
        return seat is not None and self.room["seats"][seat].get("connected", True)

    def play_own_turn(self, shout: bool = True) -> None:
        """Yuri's part of a Tally Up! game, whatever the dice did: its turn's moves, and a
        shout when it can (unless `shout` is False: the shout is left to the other player)."""
        legal, view = self.view.get("legal", []), self.view
        if "choose_dice" in legal:
            self.act({"type": "choose_dice", "dice": ["red", "yellow", "blue"]})
        elif "roll" in legal:
            self.act({"type": "roll"})
        elif "bonus_dice" in legal:
            self.act({"type": "bonus_dice", "dice": view["unused"][: view["bonus_count"]]})
        elif "shout" in legal and shout:
            self.act({"type": "shout"})

    def act(self, action: dict) -> None:
        self.client.act(action, self.version)


@contextlib.asynccontextmanager
async def yuri_seated(port: int, code: str | None, tmp_path: Path):
    """The test's own player, Yuri, in seat 1 of the table at `port` for the block."""
    yuri = Yuri(port, code, tmp_path / "yuri-tokens.json")
    yuri.start()
    try:
        await yuri.until(lambda: yuri.seat_of("Yuri") == 0, "Yuri in seat 1")
        yield yuri
    finally:
        await yuri.stop()


def table_code(tmux: Any) -> str:
    """The room code the host's lobby shows (in big letters: "K  Q  X  M")."""
    code_re = re.compile(r"Players type this code:.*\n.*?((?:[A-Z] {2}){3}[A-Z])")
    found, _ = tmux.wait_for("host", code_re.search, "the room code")
    return found.group(1).replace(" ", "")  # type: ignore[attr-defined]
