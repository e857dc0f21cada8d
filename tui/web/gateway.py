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
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import string
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from tui.i18n import LANGS, catalogue
from tui.web.sessions import COOKIE, MAX_AGE, SessionDirs, new_id, valid_id

log = logging.getLogger(__name__)

STATIC = Path(textual_serve.__file__).parent / "static"
"""textual-serve's own JS, CSS and fonts: served from the package, nothing downloaded."""
COLUMNS, LINES = (20, 300), (10, 120)
"""The terminal sizes a page may ask for (a huge one would cost the host memory)."""
STOP_WAIT = 3.0
"""Seconds a player app has to close by itself before it is killed."""
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


ENDED = (4000, "the player app ended")
"""The player left (q) or quit the app: the page says so and does not come back by itself."""
HOST_CLOSED = (4005, "the table closed")
"""The host closed the table: the page waits for it to come back (`hubbub host --resume`)."""
REPLACED = (4006, "this browser opened the seat in another page")
"""A reload or a second tab took the seat over: this page stays quiet (it would take the seat
back, and the other page again, for ever)."""
STOPPED = (1011, "the player app stopped")
"""The player app ended without saying so (an error): the page starts it again."""


class PlayerProcess(AppService):
    """textual-serve's AppService, starting our own argv without a shell, in our own
    environment, and closing the page when the player app ends (a crash included) with a
    close code that tells the page what to do (`seat.js`)."""

    def __init__(
        self,
        argv: list[str],
        env: dict[str, str],
        *,
        close_page: Callable[[tuple[int, str]], Awaitable[None]],
        **kwargs: Any,
    ) -> None:
        super().__init__(" ".join(argv), close=lambda: close_page(ENDED), **kwargs)
        self.argv = argv
        self.env = env
        self.close_page = close_page

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
        await super().run()  # until the process ends; a clean exit has closed the page
        with contextlib.suppress(Exception):
            await self.close_page(STOPPED)

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


@dataclass
class Page:
    """One browser's open page: its websocket and the player app behind it."""

    session: str
    socket: web.WebSocketResponse
    process: PlayerProcess | None = None
    opened: float = field(default_factory=time.monotonic)
    ending: tuple[int, str] | None = None
    """Why the server ends this page (its close code and reason), when it does."""

    async def close(self, why: tuple[int, str]) -> None:
        """Close the page's socket, saying why — the server's own reason first."""
        code, reason = self.ending or why
        with contextlib.suppress(Exception):
            await self.socket.close(code=code, message=reason.encode())

    async def end(self, why: tuple[int, str] | None = None) -> None:
        self.ending = self.ending or why
        if self.process is not None:
            await self.process.end()
        await self.close(STOPPED)


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
        python: str = sys.executable,
        relay_key: str | None = None,
        is_blocked: Callable[[str], bool] = lambda address: False,
    ) -> None:
        self.table = table
        self.relay_key = relay_key  # lets each page's app tell the table its browser's address
        self.is_blocked = is_blocked  # the table's door: a blocked browser gets no page
        self.limit = limit
        self.dirs = SessionDirs(state_root)
        self.title = title
        self.lang = lang
        self.python = python
        self.pages: dict[str, Page] = {}
        self.port = 0
        self.turned_away = 0  # pages refused for the bound, for the host to know
        self._runner: web.AppRunner | None = None
        self._downloads = DownloadManager()

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
                web.static("/static", STATIC, show_index=False, follow_symlinks=False),
            ]
        )
        self.dirs.prune()
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port, reuse_address=True)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        return self.port

    async def close(self) -> None:
        """Every player app quits (their seats wait, as for a closed laptop), then the server."""
        pages = list(self.pages.values())
        self.pages.clear()
        await asyncio.gather(*(page.end(HOST_CLOSED) for page in pages), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _full(self, session: str) -> bool:
        return session not in self.pages and len(self.pages) >= self.limit

    def _environment(self, session: str, browser: str | None) -> dict[str, str]:
        """A page's app: its browser's own state directory, and (through the relay key that
        only this host's processes know) the browser's address for the table's door."""
        env = {"HUBBUB_STATE_DIR": str(self.dirs.open(session))}
        if self.relay_key and browser:
            env |= {"HUBBUB_RELAY_KEY": self.relay_key, "HUBBUB_RELAY_ADDRESS": browser}
        return env

    async def _page(self, request: web.Request) -> web.Response:
        if request.remote and self.is_blocked(request.remote):
            raise web.HTTPForbidden(text="The host has blocked this address.")
        session = valid_id(request.cookies.get(COOKIE)) or new_id()
        lang = browser_lang(request.headers.get("Accept-Language", ""), self.lang)
        words = catalogue(lang)
        said = {  # the page's own words (seat.js shows them), in the browser's language
            "ended": words["web.ended"],
            "again": words["web.again"],
            "full": words["web.full"].format(n=self.limit),
            "reconnecting": words["link.reconnecting"],  # as the terminal player app says
            "table_closed": words["link.closed_resumable"],
            "idle": words["web.idle"],
            "closed_by_host": words["web.closed_by_host"],
            "blocked": words["web.blocked"],
            "replaced": words["web.replaced"],
            "keys_label": words["web.keys_label"],
            "keyboard": words["web.keyboard"],
        }
        fields = {"lang": lang, "title": html.escape(self.title)}
        fields |= {name: html.escape(text) for name, text in said.items()}
        full = self._full(session)
        if full:
            self.turned_away += 1
        response = web.Response(
            text=_PAGES["full" if full else "page"].substitute(fields),
            content_type="text/html",
            status=503 if full else 200,
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
        if request.remote and self.is_blocked(request.remote):
            raise web.HTTPForbidden(text="The host has blocked this address.")
        previous = self.pages.pop(session, None)  # a reload or a second tab: it takes over
        if previous is None and len(self.pages) >= self.limit:
            self.turned_away += 1
            raise web.HTTPServiceUnavailable(text="Every web seat is in use.")
        lang = browser_lang(request.headers.get("Accept-Language", ""), self.lang)
        width = clamp(request.query.get("width"), COLUMNS, 80)
        height = clamp(request.query.get("height"), LINES, 24)
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=64 * 1024)
        page = self.pages[session] = Page(session, socket)  # counted before any wait
        try:
            if previous is not None:
                await previous.end(REPLACED)
            await socket.prepare(request)
            page.process = PlayerProcess(
                self.argv(lang),
                self._environment(session, request.remote),
                close_page=page.close,
                write_bytes=socket.send_bytes,
                write_str=socket.send_str,
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
        return socket


SEAT_SCRIPT = (Path(__file__).parent / "seat.js").read_bytes()
"""The page's own script: the terminal sized for the device, a link that comes back."""


async def seat_script(request: web.Request) -> web.Response:
    response = web.Response(body=SEAT_SCRIPT, content_type="application/javascript")
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


def clamp(value: object, bounds: tuple[int, int], default: int) -> int:
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
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
