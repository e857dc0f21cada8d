"""`hubbub host`: the table on the big screen.

The app owns the room, the TCP server and the zeroconf advertisement. The room tells the app
about every change through a Message, so drawing happens on Textual's schedule and never holds
up the network; the server pushes views to the players before the app even hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import time
from collections import deque
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from net.protocol import PROTOCOL_VERSION
from net.room import Room
from net.server import Server
from tui.games import describe, game_styles, gathered
from tui.host.screens import LobbyScreen, ResultsScreen, TableScreen
from tui.i18n import t
from tui.table import classify_size
from tui.widgets import HEARD_KEEP, Change, Story, load_keymap

log = logging.getLogger(__name__)

SHUTDOWN_LIMIT = 15.0
"""Seconds a host told to stop by a signal has to close by itself (the players told, the web
seats closed): a terminal that vanished can leave Textual's output thread stuck in its last
write, and a table nobody can see must not linger on, holding its port."""


class HostApp(App[None]):
    clock = staticmethod(time.monotonic)
    """The clock every countdown on its screens reads (`tui.widgets.Timed`): a test or a
    screenshot may stop it."""
    CSS_PATH = ["../common.tcss", *game_styles(), "host.tcss"]
    TITLE = "hubbub"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "request_quit", "key.quit", show=False, priority=True)]

    def on_resize(self, event: Any) -> None:
        classify_size(self, event.size)

    class RoomChanged(Message):
        def __init__(self, events: list[dict[str, Any]]) -> None:
            super().__init__()
            self.events = events

    class Alert(Message):
        """The door: wrong codes from an address, an address blocked, no file handles."""

        def __init__(self, kind: str, details: dict[str, Any]) -> None:
            super().__init__()
            self.kind = kind
            self.details = details

    def __init__(
        self,
        room: Room,
        *,
        host: str | None = None,
        port: int = 0,
        advertise: bool = True,
        fast_zeroconf: bool = False,
        web_port: int | None = None,
    ) -> None:
        super().__init__()
        self.room = room
        self.server = Server(room, host=host, port=port)
        self.interface = host
        self.advertise = advertise
        self.fast_zeroconf = fast_zeroconf
        self.advertiser: Any = None
        self.addresses: list[str] = []
        self.web_port = web_port  # None: no web seats
        self.web: Any = None  # tui.web.gateway.WebSeats once it listens
        self.web_url: str | None = None  # what the lobby shows and the QR code says
        self.web_problem: str | None = None  # why there are no web seats, for the lobby
        self._advertised = (len(room.seats), room.game_id or "", room.code is not None)
        self.story = Story()
        # the events, raw: a resumed table's history (saved), then each change's (`heard`)
        self.heard: deque[dict[str, Any]] = deque(room.history, maxlen=HEARD_KEEP)
        names = [s.name for s in room.seats]
        history = gathered(list(room.history))
        for index, event in enumerate(history):  # a resumed table remembers what happened
            before = history[index - 1] if index else None
            after = history[index + 1] if index + 1 < len(history) else None
            if line := describe(room.game_id, event, names, before, after):
                self.story.add(line)
        self._rejoining: list[Any] = []
        """After `--resume`: the seats whose first return is not told one by one (every seat
        starts away: "Ann is back" for each would read as if they had each left)."""
        self._rejoined: list[Any] = []  # (and those of them back so far)
        if room.resumed:
            self._table_back()
        room.subscribe(lambda events: self.post_message(self.RoomChanged(events)))
        self.server.alerts.append(
            lambda kind, details: self.post_message(self.Alert(kind, details))
        )

    async def on_mount(self) -> None:
        self.set_keymap(load_keymap())
        self.title = f"hubbub — {self.room.name}"
        try:
            await self.server.start()
        except OSError as exc:
            message = t("host.cannot_listen", port=self.server.port, error=str(exc))
            self.exit(return_code=2, message=message)
            return
        self.addresses = self._addresses()
        self.room.listening_on(self.server.port)  # `--resume` comes back to this port
        self.room.start_clocks()
        if self.web_port is not None:
            await self._open_web_seats()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, self._on_sigterm)
            loop.add_signal_handler(signal.SIGHUP, self._on_sigterm)  # its terminal closed
        if self.advertise:
            self.run_worker(self._advertise(), group="zeroconf", exit_on_error=False)
        await self.push_screen(self._screen_for_phase())

    async def _open_web_seats(self) -> None:
        """The player app for browsers, on the table's interface. A port in use (or no
        textual-serve) costs the web seats only: the table opens and the lobby says why."""
        try:
            from tui.web.gateway import WebSeats
        except ImportError as exc:
            self.web_problem = t("web.missing", error=str(exc))
            return
        from net.client import state_dir
        from net.seats import MAX_SEATS
        from tui.i18n import lang

        web = WebSeats(
            self._table_for_web(),
            limit=MAX_SEATS + 4,  # every seat, and a few pages opened twice or left behind
            state_root=state_dir() / "web",
            title=self.title,
            lang=lang(),
            lang_chosen=self.room.settings.lang is not None,  # `--lang`: every page speaks it
            door=self.server,  # blocks, and which page holds a seat
        )
        try:
            port = await web.start(self.interface, self.web_port or 0)
        except OSError as exc:
            self.web_problem = t("web.port_busy", port=self.web_port, error=exc.strerror or exc)
            return
        self.web = web
        address = self.addresses[0] if self.addresses else "127.0.0.1"
        self.web_url = f"http://{f'[{address}]' if ':' in address else address}:{port}"

    def _table_for_web(self) -> tuple[str, int]:
        """Where the web seats' player apps, on this machine, reach the table."""
        if self.interface in (None, "", "0.0.0.0"):
            return "127.0.0.1", self.server.port
        if self.interface == "::":
            return "::1", self.server.port
        return self.interface, self.server.port

    def _addresses(self) -> list[str]:
        if self.interface and self.interface not in ("0.0.0.0", "::"):
            return [self.interface]
        from net.discovery import local_addresses

        return local_addresses()

    async def _advertise(self) -> None:
        from net.discovery import Advertiser

        self._advertised = (
            len(self.room.seats),
            self.room.game_id or "",
            self.room.code is not None,
        )
        self.advertiser = Advertiser(
            room_name=self.room.name,
            port=self.server.port,
            protocol=PROTOCOL_VERSION,
            game=self.room.game_id or "",
            players=len(self.room.seats),
            needs_code=self.room.code is not None,
            room_id=self.room.room_id,
            interface=self.interface,
            fast=self.fast_zeroconf,
        )
        try:
            await self.advertiser.start()
        except Exception as exc:  # no multicast here: typed addresses still work
            log.warning("zeroconf advertisement failed: %s", exc)
            self.advertiser = None
            self.notify(t("host.no_zeroconf"), severity="warning", timeout=10)

    def quit(self) -> None:
        """Close the table; a game cut short says, on the terminal left behind, how to bring it
        back."""
        self.exit(message=t("host.closed_resume_hint") if self._resumable() else None)

    def _resumable(self) -> bool:
        """A game cut short that `hubbub host --resume` can bring back."""
        return self.room.phase == "playing" and self.room.save_path is not None

    def action_request_quit(self) -> None:
        """ctrl+q asks like q does while a game is on; a second ctrl+q in the question quits."""
        quit_here = getattr(self.screen, "action_quit", None)
        if quit_here is None or self.screen.is_modal:
            self.exit()
        else:
            quit_here()

    def _on_sigterm(self) -> None:
        """SIGTERM, or SIGHUP (its terminal closed): close as `q` would — and, if closing
        hangs, end the process anyway (the save file is written at every move: nothing of the
        game is lost, and `--resume` brings it back)."""
        watchdog = threading.Timer(SHUTDOWN_LIMIT, os._exit, (0,))
        watchdog.daemon = True
        watchdog.start()
        self.exit()

    async def on_unmount(self) -> None:
        if self.advertiser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.advertiser.close(), 3.0)
        # A deliberate quit tells every player the table closed, and whether `--resume` can
        # bring it back (mid-game): then their apps wait for it. A crash says nothing — and
        # an error that ends the app (Textual's exit code 1) is a crash: the players keep
        # coming back, and the save file has every move for `--resume`. Either way the links
        # that close now are the host's doing, not drops of the players' (`Room.shutting`).
        self.room.shutting()
        if self.return_code == 1:
            await self.server.close()
        else:
            await self.server.close("closed", resumable=self._resumable())
        if self.web is not None:  # after the players were told: browsers show it too
            with contextlib.suppress(Exception):
                await self.web.close()
        self.room.close()

    # --- following the room -------------------------------------------------------------

    def _screen_for_phase(self):
        phase = self.room.phase
        if phase == "lobby":
            return LobbyScreen()
        if phase == "playing":
            return TableScreen()
        return ResultsScreen()

    change: reactive[Change] = reactive(Change(-1), always_update=True, repaint=False)
    """The latest change of the room: every host screen watches it."""

    def _table_back(self) -> None:
        """A resumed table says once that it is back, and whom it waits for."""
        room = self.room
        awaited = [s for s in room.seats if s.human and not s.leaving]
        if not awaited:
            return
        self.story.add(t("host.resumed", names=", ".join(s.name for s in awaited)))
        held = room.play.held_away if room.play is not None else set()
        away = {id(room.seats[i]) for i in held if i < len(room.seats)}
        self._rejoining = [s for s in awaited if id(s) not in away]  # (sitting out: news)

    def _quiet_rejoin(self, event: dict[str, Any]) -> bool:
        """Whether `event` is a seat's first return after `--resume`, not told by itself. Once
        every awaited seat is back (or gone, or told away), one line says who came back."""
        kind, seat, seats = event.get("type"), event.get("seat"), self.room.seats
        who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None
        quiet = kind == "back" and any(s is who for s in self._rejoining)
        if quiet:
            self._rejoined.append(who)
        told = who if kind in ("back", "stand_in", "sits_out") else None
        self._rejoining = [
            s
            for s in self._rejoining
            if s is not told and not s.leaving and any(s is x for x in seats)
        ]
        if not self._rejoining and self._rejoined:
            back = [s.name for s in seats if any(s is x for x in self._rejoined)]
            self.story.add(t("host.rejoined", names=", ".join(back)))
            self._rejoined = []
        return quiet

    def on_host_app_room_changed(self, message: RoomChanged) -> None:
        before = self.heard[-1] if self.heard else None
        self.heard.extend(message.events)
        names = [s.name for s in self.room.seats]
        events = gathered(list(message.events))
        for index, event in enumerate(events):
            after = events[index + 1] if index + 1 < len(events) else None
            if self._rejoining and self._quiet_rejoin(event):
                before = event
                continue
            view = self.room.game_view(None) if event.get("type") == "nudged" else None
            line = describe(self.room.game_id, event, names, before, after, view=view)
            before = event
            if line:
                self.story.add(line)
                if event["type"] in ("away", "back", "kicked"):
                    self.notify(line, timeout=3, markup=False)
        self.follow(message.events)
        advertised = (len(self.room.seats), self.room.game_id or "", self.room.code is not None)
        if self.advertiser is not None and advertised != self._advertised:
            self._advertised = advertised  # a move changes none of it: the LAN hears nothing
            self.run_worker(self._update_advertisement(), group="zeroconf", exit_on_error=False)

    def on_host_app_alert(self, message: Alert) -> None:
        if message.kind == "out_of_files":
            self.notify(t("host.out_of_files"), severity="error", timeout=10)
        self.follow()  # the banner of every host screen shows what is going on at the door

    def follow(self, events: list[dict[str, Any]] | None = None) -> None:
        """Put up the screen of the room's phase; the screens up (a dialog on top included)
        redraw themselves from the change. A screen under a dialog follows once it closes."""
        if not self.screen_stack:  # the app is closing: players leaving now change nothing
            return
        wanted = {"lobby": LobbyScreen, "playing": TableScreen, "over": ResultsScreen}[
            self.room.phase
        ]
        if not isinstance(self.screen, wanted) and not self.screen.is_modal:
            self.switch_screen(wanted())
        self.change = Change(self.room.version, tuple(events or ()))

    async def _update_advertisement(self) -> None:
        with contextlib.suppress(Exception):
            players, game, needs_code = self._advertised
            await self.advertiser.update(players=players, game=game, needs_code=needs_code)
