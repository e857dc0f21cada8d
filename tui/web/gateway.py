"""The web seats of `hubbub host`: the player app in any browser on the LAN.

textual-serve runs a Textual app behind a websocket, one process per page: the page's
terminal (xterm.js, shipped inside textual-serve with its font) sends keys, the process's
screen comes back. We take its static files and its `AppService` (which speaks that protocol
with the process), not its `Server`, because:

- the command is ours alone: `hubbub join` at this table's address, started without a shell,
  with arguments fixed here. Nothing from the URL or the page reaches it but the terminal's
  size (clamped) and one of our two languages; `--only-this-table` takes the other tables of
  the LAN away from it (no list, no typed address).
- its page fetches a font from a CDN; ours fetches nothing from outside this host (and says
  so in a Content-Security-Policy).
- its websocket address is built from the address it listens on (0.0.0.0 is no address for
  a phone); ours is the page's own.
- pages are bounded: `limit` player processes at most, a page over it is told so.

Each browser's token lives with that browser: a cookie names its state directory
(`sessions.py`), so a reload starts the player app on the same tokens and the seat comes
back. One page per browser: a second page (a reload, another tab) replaces the first.

The web port is open to anyone on the Wi-Fi, with no room code, so it has a door of its own
(docs/WEB.md, "The door of the web port"): connections per address are capped and must send a
request within seconds (`Doorway`, HTTP_IDLE), a websocket that answers no ping is closed,
pages per address are capped and started at a bounded pace, a page that takes no seat within
PAGE_IDLE is closed, the table's reserve of file handles is never touched
(`net.handles.Handles`), and every page the server ends on purpose is told why with a close
code (IDLE, CLOSED, BLOCKED, FULL, CROWDED, REPLACED).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import re
import socket
import string
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from net.doorman import Bucket, address_key
from net.handles import Handles
from net.server import TABLE_HANDLES
from tui.i18n import LANGS, catalogue
from tui.web.sessions import COOKIE, MAX_AGE, SessionDirs, new_id, valid_id

log = logging.getLogger(__name__)

STATIC = Path(textual_serve.__file__).parent / "static"
"""textual-serve's own JS, CSS and fonts: served from the package, nothing downloaded."""
COLUMNS, LINES = (20, 300), (10, 120)
"""The terminal sizes a page may ask for (a huge one would cost the host memory)."""
STOP_WAIT = 3.0
"""Seconds a player app has to close by itself before it is killed."""
HTTP_IDLE = 5.0
"""Seconds a connection has to send a whole request's headers, from its start or from the
answer to its previous request; then it is closed (a silent one, or one that sends a byte a
second)."""
HEARTBEAT = 5.0
"""A page's websocket silent this long is pinged, and closed if the pong is not back within
half of it (a browser answers pings by itself; a phone asleep may not, and its page comes
back with a reload, its seat waiting)."""
CLOSE_WAIT = 2.0
"""Seconds a page has to answer our close before its connection is cut."""
CONNECTIONS_PER_ADDRESS = 32
"""Connections from one address at once: a browser opens up to 6 for a page and its files,
and 1 for the page's socket; four browsers behind one NAT fit."""
PAGES_PER_ADDRESS = 4
"""Pages (player apps, 45 MB each) from one address: a family of four behind one NAT."""
PAGE_STARTS, PAGE_STARTS_PER_SECOND = 8, 0.2
"""Pages one address may start: 8 at once (reloads included), then one every 5 s (each costs
the host a second of CPU to start)."""
PAGE_HANDLES = 6
"""File handles one page costs the host: its socket, three pipes, its app's table link."""
ACCEPT_BURST = 16
"""Connections the web port takes from the kernel in one go: asyncio accepts up to its
`backlog` at each wake-up, each a file handle, before the doorway has counted any — so a flood
on a busy host takes at most this many past the count, far fewer than the table's reserve
(with asyncio's 100, a busy host ran out of handles under 1,200 idle connections)."""
KERNEL_QUEUE = 128
"""Connections the kernel holds for the web port meanwhile (its listen backlog, set again
after asyncio set it to ACCEPT_BURST): a burst of honest guests waits there, not for a SYN
retry a second later."""
PAGE_IDLE = 180.0
"""Seconds a page may go without a seat at the table (or watching it) before it is closed."""
PAGE_CHECK = 5.0
"""How often pages are checked for that."""
CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "font-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
"""The page may load and connect to this host only."""
_PAGES = {
    name: string.Template((Path(__file__).parent / f"{name}.html").read_text(encoding="utf-8"))
    for name in ("page", "full")
}


Why = tuple[int, str]
"""How the server ends a page on purpose: a websocket close code the page reads, and a short
reason (docs/WEB.md). 4000 is the page's app ending by itself."""
IDLE: Why = (4001, "no seat taken within 3 minutes")
CLOSED: Why = (4002, "the host closed this page")
BLOCKED: Why = (4003, "the host has blocked this address")
FULL: Why = (4004, "every web seat is in use")
REPLACED: Why = (4005, "this browser opened the page again")
HOST_CLOSED: Why = (4006, "the table closed")
"""The host closed the table: the page waits for it to come back (`hubbub host --resume`)."""
CROWDED: Why = (4007, "too many pages from this address")
ENDED: Why = (4000, "the player app ended")
"""The player left (q) or quit the app: the page says so and does not start it again."""
STOPPED: Why = (1011, "the player app stopped")
"""The player app ended without saying so (an error): the page starts it again, later."""


class TableDoor(Protocol):
    """What the web seats ask the table (`net.server.Server` is one)."""

    alerts: list[Callable[[str, dict[str, Any]], None]]

    def is_blocked(self, address: str) -> bool: ...

    def page_key(self) -> str: ...

    def forget_page(self, key: str) -> None: ...

    def page_place(self, key: str) -> tuple[str, str] | None: ...


class PlayerProcess(AppService):
    """textual-serve's AppService, starting our own argv without a shell, in our own
    environment, and closing the page when the player app ends (a crash included) with a
    close code that tells the page what to do (`seat.js`): ENDED, or STOPPED."""

    def __init__(
        self, argv: list[str], env: dict[str, str], socket: web.WebSocketResponse, **kwargs: Any
    ) -> None:
        super().__init__(
            " ".join(argv),
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=lambda: close_socket(socket, ENDED),  # the app said it exits
            **kwargs,
        )
        self.argv = argv
        self.env = env
        self.socket = socket

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), **self.env}

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width, height),
        )
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        await super().run()  # until the process ends; one that said it exits has closed the page
        await close_socket(self.socket, STOPPED)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def end(self) -> None:
        """Ask the app to quit (it keeps the seat: the player may come back), then make sure."""
        process = self._process
        try:
            await asyncio.wait_for(self.stop(), STOP_WAIT)
        except (TimeoutError, Exception):
            log.info("a web player app did not quit by itself: killed")
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(process.wait(), STOP_WAIT)


@dataclass(eq=False)
class Page:
    """One browser's open page: its websocket and the player app behind it."""

    session: str
    address: str  # the browser's
    socket: web.WebSocketResponse
    key: str | None = None  # its relay key: the table knows its app's connection by it
    process: PlayerProcess | None = None
    transport: asyncio.Transport | None = None
    opened: float = field(default_factory=time.monotonic)
    held: float = field(default_factory=time.monotonic)  # last seen at the table
    _ending: asyncio.Future[None] | None = None

    async def end(self, why: Why | None = None) -> None:
        """Close the page (told `why`, if the server ends it on purpose) and its app. Once:
        a second call waits for the first."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(why))
        await asyncio.shield(self._ending)

    async def _end(self, why: Why | None) -> None:
        if why is not None:  # told first: the app's own end would close the socket unsaid
            await close_socket(self.socket, why)
        if self.process is not None:
            await self.process.end()
        await close_socket(self.socket, None)
        if self.transport is not None:  # a page that reads nothing keeps no handle
            self.transport.abort()


async def close_socket(socket: web.WebSocketResponse, why: Why | None) -> None:
    """Close a page's socket, with `why` if given, waiting CLOSE_WAIT at most."""
    code, reason = why or (1000, "")
    with contextlib.suppress(Exception):
        await asyncio.wait_for(socket.close(code=code, message=reason.encode()), CLOSE_WAIT)


class Doorway(asyncio.Protocol):
    """One connection to the web port, before aiohttp sees it: dropped at once when its
    address already has CONNECTIONS_PER_ADDRESS open; when the host's free file handles are
    down to the table's reserve, it takes the place of the oldest connection of the address
    that holds the most (a page's socket is never taken), or is dropped if there is none.
    Else it goes to aiohttp's own handler."""

    def __init__(self, seats: WebSeats, handler: Callable[[], asyncio.Protocol]) -> None:
        self.seats = seats
        self.handler = handler
        self.inner: asyncio.Protocol | None = None
        self.transport: asyncio.Transport | None = None
        self.key = ""
        self.page = False  # a page's socket: never made to give way

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        seats = self.seats
        self.key = address_key(peer[0]) if isinstance(peer, tuple) else ""
        self.transport = transport  # type: ignore[assignment]
        crowded = len(seats.open.get(self.key, ())) >= CONNECTIONS_PER_ADDRESS
        if not self.key or crowded or (seats.handles.short() and not seats.make_way(self.key)):
            seats.dropped += 1
            transport.abort()
            return
        seats.handles.took()
        seats.open.setdefault(self.key, {})[self] = None
        self.inner = self.handler()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        mine = self.seats.open.get(self.key, {})
        mine.pop(self, None)
        if not mine:
            self.seats.open.pop(self.key, None)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class WebSeats:
    """An HTTP server for the browsers of the LAN: the page, its files, and one player app
    per page, pointed at this table."""

    def __init__(
        self,
        table: tuple[str, int],
        *,
        limit: int,
        state_root: Path,
        title: str = "hubbub",
        lang: str = "en",
        lang_chosen: bool = False,
        python: str = sys.executable,
        door: TableDoor | None = None,
        handles: Handles | None = None,
    ) -> None:
        self.table = table
        self.door = door  # the table: blocks, and which page holds a seat (None: no table)
        self.handles = handles or Handles(TABLE_HANDLES)
        self.limit = limit
        self.dirs = SessionDirs(state_root)
        self.title = title
        self.lang = lang
        self.lang_chosen = lang_chosen
        """The host chose `lang` (`--lang`): every page and its app speak it, whatever the
        browser asks. Else `lang` is the host machine's locale's, guessed: a browser's own
        language (Accept-Language) is a better guess of its guest's, and `lang` is for a
        browser that asks for neither of ours."""
        self.python = python
        self.pages: dict[str, Page] = {}
        self.port = 0
        self.turned_away = 0  # pages refused for the bound, for the host to know
        self.dropped = 0  # connections dropped at once (too many from one address, handles)
        self.open: dict[str, dict[Doorway, None]] = {}  # connections, per address, oldest first
        self._starts: dict[str, Bucket] = {}
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self._downloads = DownloadManager()

    def lang_for(self, request: web.Request) -> str:
        """The language of a page and of its player app (`lang_chosen`)."""
        if self.lang_chosen:
            return self.lang
        return browser_lang(request.headers.get("Accept-Language", ""), self.lang)

    def argv(self, lang: str) -> list[str]:
        """The one command a page runs. Every part is ours; `lang` is one of LANGS."""
        host, port = self.table
        shown = f"[{host}]" if ":" in host else host
        return [
            self.python, "-m", "tui.cli", "join", f"{shown}:{port}",
            "--no-zeroconf", "--only-this-table", "--lang", lang,
        ]  # fmt: skip

    async def start(self, host: str | None, port: int) -> int:
        """Listen on `host` (None: every address) and `port`; raises OSError (a port in use).
        Returns the port (port 0: a free one)."""
        app = web.Application(client_max_size=64 * 1024)
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/ws", self._socket),
                web.get("/favicon.ico", no_icon),
                web.get("/seat.js", seat_script),
                web.get("/blocks.ttf", blocks_font),
                web.static("/static", STATIC, show_index=False, follow_symlinks=False),
            ]
        )
        self.dirs.prune()
        # keepalive_timeout also runs from a connection's start: no request, no connection
        runner = web.AppRunner(
            app, handle_signals=False, access_log=None, keepalive_timeout=HTTP_IDLE
        )
        await runner.setup()
        server = runner.server
        assert server is not None
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                lambda: Doorway(self, server), host, port, reuse_address=True,
                backlog=ACCEPT_BURST,
            )  # fmt: skip
        except BaseException:
            await runner.cleanup()
            raise
        for listening in self._listener.sockets:  # the kernel's queue stays long
            with socket.socket(fileno=os.dup(listening.fileno())) as same:
                same.listen(KERNEL_QUEUE)
        self._runner = runner
        self.port = self._listener.sockets[0].getsockname()[1]
        self._spawn(self._check_pages())
        if self.door is not None:
            self.door.alerts.append(self._table_alert)
        return self.port

    async def close(self) -> None:
        """Every player app quits (their seats wait, as for a closed laptop), then the server."""
        for task in list(self._tasks):
            task.cancel()
        if self.door is not None and self._table_alert in self.door.alerts:
            self.door.alerts.remove(self._table_alert)
        pages = list(self.pages.values())
        self.pages.clear()
        await asyncio.gather(*(page.end(HOST_CLOSED) for page in pages), return_exceptions=True)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- the door of the web port --------------------------------------------------------

    def is_blocked(self, address: str) -> bool:
        return self.door is not None and self.door.is_blocked(address)

    def make_way(self, newcomer: str, handles: int = 1) -> bool:
        """Handles are short: `handles` connections are given up, each the oldest that is no
        page's socket of the address holding the most (more than `newcomer`). False: not
        enough could be."""
        return all(self._give_way(newcomer) for _ in range(handles))

    def _give_way(self, newcomer: str) -> bool:
        have = len(self.open.get(newcomer, ())) + 1
        for key in sorted(self.open, key=lambda k: -len(self.open[k])):
            if len(self.open[key]) <= have:
                return False
            for doorway in self.open[key]:
                if not doorway.page and doorway.transport is not None:
                    del self.open[key][doorway]  # (gone now: not picked twice in one accept)
                    doorway.transport.abort()  # its handle goes with the loop's next turn
                    self.dropped += 1
                    return True
        return False

    def _mark_page(self, address: str, transport: Any) -> None:
        """The connection `transport` carries a page's socket: it never gives way."""
        for doorway in self.open.get(address_key(address), {}):
            if doorway.transport is transport:
                doorway.page = True

    def refusal(self, session: str, address: str) -> Why | None:
        """Why a new page of `session` from `address` gets no player app (None: it does). A
        page of a session already open replaces it, so it is never refused for a bound."""
        if self.is_blocked(address):
            return BLOCKED
        if session in self.pages:
            return None
        if len(self.pages) >= self.limit:
            return FULL
        here = address_key(address)
        if sum(address_key(p.address) == here for p in self.pages.values()) >= PAGES_PER_ADDRESS:
            return CROWDED
        if self.handles.short(PAGE_HANDLES) and not self.make_way(here, PAGE_HANDLES):
            return FULL
        return None

    def _may_start(self, address: str) -> bool:
        """A page start from `address` within its pace (PAGE_STARTS)."""
        if len(self._starts) > 1000:  # made-up addresses fill no memory
            self._starts.clear()
        here = address_key(address)
        bucket = self._starts.setdefault(here, Bucket(PAGE_STARTS, PAGE_STARTS_PER_SECOND))
        return bucket.take(time.monotonic()) == 0

    def place(self, page: Page) -> tuple[str, str] | None:
        """Where the page is at the table: ("seat", name), ("watching", ""), or None."""
        if self.door is None or page.key is None:
            return None
        return self.door.page_place(page.key)

    def check_pages(self) -> None:
        """Close every page that has been without a seat (or watching) for PAGE_IDLE."""
        now = time.monotonic()
        for page in list(self.pages.values()):
            if self.place(page) is not None:
                page.held = now
            elif now - page.held > PAGE_IDLE:
                log.info("a web page from %s took no seat: closed", page.address)
                self.end_page(page, IDLE)

    async def _check_pages(self) -> None:
        while True:
            await asyncio.sleep(PAGE_CHECK)
            self.check_pages()

    def end_page(self, page: Page, why: Why) -> None:
        """End a page on purpose (the host closed it, its address was blocked, it idled):
        the page is told why, and its app ends."""
        if self.pages.get(page.session) is page:
            del self.pages[page.session]
        self._spawn(page.end(why))

    def close_page(self, page: Page) -> None:
        """The host closes a page from its screen: its app ends (a seat waits, as for a closed
        laptop), and the page says the host closed it."""
        self.end_page(page, CLOSED)

    def _table_alert(self, kind: str, details: dict[str, Any]) -> None:
        """The host blocked an address (`!`): its open pages end too."""
        if kind != "blocked":
            return
        for page in list(self.pages.values()):
            if address_key(page.address) == details.get("address"):
                self.end_page(page, BLOCKED)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the page and its socket -----------------------------------------------------------

    def _environment(
        self, session: str, browser: str, key: str | None, reached: str = ""
    ) -> dict[str, str]:
        """A page's app: its browser's own state directory, the address the browser reached
        this host at (`reached`, the page's Host: the app shows it, not its own loopback), and
        (through the page's relay key, which only this host's processes know) the browser's
        address for the table's door."""
        env = {"HUBBUB_STATE_DIR": str(self.dirs.open(session))}
        if shown := page_host(reached):
            env["HUBBUB_WEB_ADDRESS"] = shown
        if key and browser:
            env |= {"HUBBUB_RELAY_KEY": key, "HUBBUB_RELAY_ADDRESS": browser}
        return env

    async def _page(self, request: web.Request) -> web.Response:
        address = request.remote or ""
        if self.is_blocked(address):
            raise web.HTTPForbidden(text="The host has blocked this address.")
        session = valid_id(request.cookies.get(COOKIE)) or new_id()
        lang = self.lang_for(request)
        words = catalogue(lang)
        refused = self.refusal(session, address)
        said = {  # the page's own words (seat.js shows them), in the page's language
            "ended": words["web.ended"],
            "again": words["web.again"],
            "full": words["web.full"].format(n=self.limit),
            "full_here": words["web.full_here"].format(here=PAGES_PER_ADDRESS),
            "reconnecting": words["link.reconnecting"],  # as the terminal player app says
            "table_closed": words["link.closed_resumable"],
            "idle": words["web.idle"],
            "closed_by_host": words["web.closed_by_host"],
            "blocked": words["web.blocked"],
            "replaced": words["web.replaced"],
            "keys_label": words["web.keys_label"],
            "keyboard": words["web.keyboard"],
            "no_script": words["web.no_script"],
        }
        if refused == CROWDED:  # the short page of a refusal says the one reason
            said["full"] = said["full_here"]
        fields = {"lang": lang, "title": html.escape(self.title)}
        fields |= {name: html.escape(text) for name, text in said.items()}
        if refused:
            self.turned_away += 1
        response = web.Response(
            text=_PAGES["full" if refused else "page"].substitute(fields),
            content_type="text/html",
            status=503 if refused else 200,
        )
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.set_cookie(
            COOKIE, session, max_age=MAX_AGE, httponly=True, samesite="Strict", path="/"
        )
        return response

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        session = valid_id(request.cookies.get(COOKIE))
        if session is None:
            raise web.HTTPForbidden(text="Open the page first.")
        address = request.remote or ""
        socket = web.WebSocketResponse(
            heartbeat=HEARTBEAT, max_msg_size=64 * 1024, timeout=CLOSE_WAIT
        )
        refused = self.refusal(session, address)
        if refused is None and not self._may_start(address):
            refused = CROWDED
        if refused is not None:  # accepted, and closed at once: a page can read a close code
            if refused != BLOCKED:
                self.turned_away += 1
            page = Page(session, address, socket, transport=request.transport)
            with contextlib.suppress(Exception):
                await socket.prepare(request)
            await page.end(refused)
            return socket
        previous = self.pages.pop(session, None)  # a reload or a second tab: it takes over
        lang = self.lang_for(request)
        width = clamp(request.query.get("width"), COLUMNS, 80)
        height = clamp(request.query.get("height"), LINES, 24)
        key = self.door.page_key() if self.door is not None else None
        page = Page(session, address, socket, key, transport=request.transport)
        self.pages[session] = page  # counted before any wait
        try:
            if previous is not None:
                await previous.end(REPLACED)
            await socket.prepare(request)
            self._mark_page(address, request.transport)
            self.handles.took(PAGE_HANDLES)
            page.process = PlayerProcess(
                self.argv(lang),
                self._environment(session, address, key, request.host),
                socket,
                download_manager=self._downloads,
            )
            await page.process.start(width, height)
            await relay(socket, page.process)
        except (asyncio.CancelledError, ConnectionResetError):
            pass
        except Exception:
            log.exception("a web seat failed")
        finally:
            if self.pages.get(session) is page:
                del self.pages[session]
            await page.end()
            if key is not None and self.door is not None:
                self.door.forget_page(key)
        return socket


SEAT_SCRIPT = (Path(__file__).parent / "seat.js").read_bytes()
"""The page's own script: the terminal sized for the device, a link that comes back."""


async def seat_script(request: web.Request) -> web.Response:
    response = web.Response(body=SEAT_SCRIPT, content_type="application/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


BLOCKS_FONT = (Path(__file__).parent / "blocks.ttf").read_bytes()
"""The page's font for the block elements (▀ ▄ █ …), each glyph its cell: Roboto Mono has none,
and a device's own font draws them off the cell (`tools/seat_font.py`)."""


async def blocks_font(request: web.Request) -> web.Response:
    response = web.Response(body=BLOCKS_FONT, content_type="font/ttf")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


async def no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)  # a browser asks; a 404 would only fill its console


async def relay(socket: web.WebSocketResponse, process: AppService) -> None:
    """The page's keys and size to the player app, until the page goes. textual-serve's
    messages, checked: anything else, or any other shape, is dropped."""
    async for message in socket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, *rest = json.loads(message.data)
        except (ValueError, TypeError):
            continue
        data = rest[0] if rest else None
        if kind == "stdin" and isinstance(data, str):
            await process.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            width = clamp(data.get("width"), COLUMNS, 80)
            await process.set_terminal_size(width, clamp(data.get("height"), LINES, 24))
        elif kind == "ping" and isinstance(data, str):
            await socket.send_json(["pong", data[:32]])
        elif kind == "blur":
            await process.blur()
        elif kind == "focus":
            await process.focus()


_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def page_host(value: str) -> str:
    """The page's Host header if it is a host name or address (and a port): what the
    browser's address bar shows. Else "" (anything else the browser sent is not shown)."""
    return value if _HOST.fullmatch(value or "") else ""


def clamp(value: object, bounds: tuple[int, int], default: int) -> int:
    """A terminal size from a page: a number within `bounds`, else `default` (inf, nan,
    1e999, a string, a list: whatever a page sends, it is never fatal)."""
    if isinstance(value, bool):
        return default
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return default
    return max(bounds[0], min(bounds[1], number))


def browser_lang(header: str, default: str) -> str:
    """The first of our languages the browser asks for (Accept-Language, by weight)."""
    best: tuple[float, str] | None = None
    for part in header.split(",")[:20]:
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.strip().lower()[:2]
        if code in LANGS and (best is None or weight > best[0]):
            best = (weight, code)
    return best[1] if best else default
