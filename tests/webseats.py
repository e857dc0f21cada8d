"""The web seats' server (tui/web/gateway.py) with a stand-in for the player app, and
browsers of their own, for the gateway's tests.

The stand-in speaks textual-serve's start (`__GANGLION__`), writes down the argv and the
environment it was given, and quits when told to — so these tests need no browser and no
Textual app, and run in a second. The real player app in a real browser is
tests/e2e/test_browser.py.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import sys
from pathlib import Path
from typing import Any

import aiohttp

from tui.waiting import until
from tui.web.gateway import WebSeats

STAND_IN = """
import json, os, sys
state = os.environ["HUBBUB_STATE_DIR"]
seen = {"argv": sys.argv[1:], "columns": os.environ["COLUMNS"], "rows": os.environ["ROWS"],
        "relay": [os.environ.get("HUBBUB_RELAY_KEY"), os.environ.get("HUBBUB_RELAY_ADDRESS")],
        "shown": os.environ.get("HUBBUB_WEB_ADDRESS")}
with open(os.path.join(state, "started.part"), "w") as f:
    json.dump(seen, f)
os.replace(os.path.join(state, "started.part"), os.path.join(state, "started.json"))
sys.stdout.write("__GANGLION__\\n")
sys.stdout.flush()
while True:
    data = os.read(0, 4096)
    if not data or b'"quit"' in data:
        break
    if b'"resize"' in data:
        with open(os.path.join(state, "sizes.txt"), "ab") as f:
            f.write(data + b"\\n")
"""


class StandInSeats(WebSeats):
    """The real server; the command it starts is the stand-in, given the real arguments."""

    def argv(self, lang: str) -> list[str]:
        return stand_in(super().argv(lang))


def stand_in(real: list[str]) -> list[str]:
    """The stand-in's command, given the real one's arguments."""
    assert real[:3] == [sys.executable, "-m", "tui.cli"]
    return [sys.executable, "-c", STAND_IN, *real[3:]]


class Door:
    """The table as the web seats see it (`net.server.Server`'s part): blocked addresses, a
    key per page, and where each page is — set by the test as a seat would be taken."""

    def __init__(self) -> None:
        self.alerts: list[Any] = []
        self.blocked: set[str] = set()
        self.keys: list[str] = []
        self.places: dict[str, tuple[str, str]] = {}

    def is_blocked(self, address: str) -> bool:
        return address in self.blocked

    def block(self, address: str) -> None:
        """As the server does: blocked, and everyone listening told."""
        self.blocked.add(address)
        for alert in list(self.alerts):
            alert("blocked", {"address": address})

    def page_key(self) -> str:
        self.keys.append(f"{len(self.keys):032d}")
        return self.keys[-1]

    def forget_page(self, key: str) -> None:
        self.places.pop(key, None)

    def page_place(self, key: str) -> tuple[str, str] | None:
        return self.places.get(key)


async def started(seats: WebSeats, session: str, timeout: float = 10.0) -> dict:
    """What the stand-in of `session`'s page was started with, once it has started."""
    path = seats.dirs.path(session) / "started.json"
    await until(path.exists, timeout=timeout, what="the player app started")
    return json.loads(path.read_text())


async def closed(socket: aiohttp.ClientWebSocketResponse) -> int | None:
    """The page's socket is closed by the server (read until it says so): the close code the
    server sent (None: closed without one)."""
    while True:
        message = await asyncio.wait_for(socket.receive(), 10)
        if message.type == aiohttp.WSMsgType.CLOSE:
            return message.data  # (the client's own close_code may say its reply failed)
        if message.type == aiohttp.WSMsgType.CLOSED:
            return None


def browser(seats: WebSeats, lang: str = "en", address: str = "127.0.0.1") -> aiohttp.ClientSession:
    """A browser of its own: its own cookie jar (127.0.0.1 is an IP: the jar must take it),
    from `address` (any of 127.0.0.0/8 reaches this machine from an address of its own)."""
    return aiohttp.ClientSession(
        f"http://127.0.0.1:{seats.port}",
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        headers={"Accept-Language": lang},
        connector=aiohttp.TCPConnector(local_addr=(address, 0)),
    )


def session_of(guest: aiohttp.ClientSession) -> str:
    return next(c.value for c in guest.cookie_jar if c.key == "hubbub_seat")


SNAPSHOTS = Path(__file__).parent / "tui" / "__snapshots__"


def drawn_symbols() -> set[str]:
    """Every character but ASCII, Latin-1's letters and Cyrillic that the screens draw: read
    from the snapshots of every screen (tests/tui/__snapshots__), with every seat's symbol
    (a snapshot shows the first few seats only)."""
    from tui.text import SEAT_SYMBOLS

    found: set[str] = set(SEAT_SYMBOLS)
    for picture in SNAPSHOTS.rglob("*.svg"):
        svg = picture.read_text(encoding="utf-8")
        for text in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S):
            found |= set(html.unescape(re.sub(r"<[^>]+>", "", text)))
    return {c for c in found if ord(c) > 0x7E and not c.isalpha() and not "\u0400" <= c <= "\u04ff"}
