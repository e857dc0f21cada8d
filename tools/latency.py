"""How long a key press takes to show on every screen: measured over real sockets.

    .venv/bin/python tools/latency.py                                  # 4 connections, 300 moves
    .venv/bin/python tools/latency.py --connections 2,4,8,10,12 --runs 3 --save /var/tmp
    .venv/bin/python tools/latency.py --connections 10 --app           # the real table app too
    .venv/bin/python tools/latency.py --connections 10,60 --save /var/tmp # 10 players, 50 watchers
    .venv/bin/python tools/latency.py --profile host.prof              # cProfile the host
    .venv/bin/python tools/latency.py --json                           # the figures as JSON
    .venv/bin/python tools/latency.py --connections 2,10,60 --runs 3 --bgio # beside boardgame.io

The host runs in a process of its own, as on a real table: a `multiprocessing` child (spawned,
not forked) runs `net.room.Room("bench", game_id="tallyup", open_room=True)` behind
`net.server.Server(room, host="127.0.0.1", port=0)` — with `--app`, inside the real table app
(`HostApp`, headless at 120x40) — sends its port back over a pipe and starts Tally Up! once
every seat is connected, with `choice_seconds` 0 so no countdown fires mid-measurement. Up to
10 connections play; more watch (`hello` with `watch: true`, each from an address of its own
on the loopback, 127.0.1.N, as laptops of an audience would be). The parent connects the raw
clients ("screens": connections that read, decode, check and clean every frame as the player's
app does — `net.protocol.MessageLink` and `shown_texts` — and answer the host's pings) and
measures:

- join: from opening the TCP connection to the socket being up, to `welcome`, to the first
  `view` — each seat joins in turn while the earlier ones watch;
- the game is driven to a sealed choice (phase "choice", `token` in a non-active IN player's
  `legal`); after `--warmup` moves, that player toggles `token {side: out/in/...}` `--rounds`
  times, `--gap` seconds apart. For each move: send -> the player's own next view decoded, and
  send -> the view of that version decoded by EVERY screen (the "every screen" figure). The
  host stamps with the same clock (`time.perf_counter` is CLOCK_MONOTONIC, shared by
  processes on Linux) when `room.act` began, the time in the save file and in building views,
  its CPU time (user and kernel), and when the last view was written.

Printed: median, p90, p99 and max in milliseconds, host CPU per move, host RSS, bytes per
client per move; a list of connection counts is run `--runs` times interleaved and printed as
one row of medians per count. All screens live in this one process, so "every screen"
includes decoding all the frames one after the other; at a real table each laptop decodes
its own in parallel (and adds the Wi-Fi hop, which loopback does not have).

With `--bgio`, the same metric for boardgame.io 0.50.2 beside it (tools/bgio/: `npm ci` there
first, which `--bgio` runs itself when node_modules is missing): boardgame.io's default server
(`node server.js`, Koa + socket.io, in-memory store, NODE_ENV=production) in a process of its
own, and in another (`node clients.js`) the same number of boardgame.io `Client`s with the
`SocketIO` transport — up to 10 seated through the Lobby API, more as spectators — one of which
toggles a sealed choice (tools/bgio/game.js) the same `--rounds` times after the same
`--warmup`, `--gap` apart: send -> every client's subscriber has the state of the next
`_stateID`. Each count is run hubbub then boardgame.io, `--runs` times interleaved (paired:
2, 2, 10, 10, 60, 60, then again), and printed side by side with the ratios hubbub/bgio of the
medians over the runs (and each pair's ratio, lowest to highest).

Loopback only; every wait is bounded; the host process is always stopped (asked first, then
terminated, then killed) whatever happens, and so are boardgame.io's server and clients.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import json
import math
import multiprocessing
import os
import pstats
import random
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python tools/latency.py` from anywhere
    sys.path.insert(0, str(ROOT))

from games.tallyup import COLOURS  # noqa: E402
from net.protocol import PROTOCOL_VERSION, MessageLink, shown_texts  # noqa: E402
from net.room import Room  # noqa: E402
from net.server import MAX_WATCHERS, Server  # noqa: E402

HOSTNAME = "127.0.0.1"
WAIT = 10.0  # the longest any one step may take before the run is called broken
PING_EVERY = 5.0  # as net.client: a silent screen would be dropped after 30 s
MAX_DRIVE_STEPS = 300  # moves allowed to reach a sealed choice (it takes a handful)


Stamps = dict[int, tuple[float, float, float, float]]
"""The host's stamps by view version: act began, save s, views s, last view written, CPU s."""


class BenchError(Exception):
    """The run could not be measured (the host refused something, or went quiet)."""


# --- the host side (a child process for the tool, in-process for the test) -----------------


class HostProbe:
    """Stamps each action on the host: when `act` began, time spent in the save file and in
    building views, and when the last view had been written (the room's last listener).
    (The host's CPU time is read for the whole measured run: per action it would cost more
    than it measures.)"""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.records: Stamps = {}
        self._current: dict[str, float] | None = None
        act, save, game_view, summary = room.act, room._journal, room.game_view, room.summary

        def timed_act(
            seat: int, action: dict[str, Any], made_at: int | None = None
        ) -> list[dict[str, Any]]:
            self._current = {"in": time.perf_counter(), "save": 0.0, "views": 0.0}
            try:
                return act(seat, action, made_at)
            finally:
                self._current = None

        def timed(kind: str, function: Callable[..., Any]) -> Callable[..., Any]:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                start = time.perf_counter()
                try:
                    return function(*args, **kwargs)
                finally:
                    if self._current is not None:
                        self._current[kind] += time.perf_counter() - start

            return wrapper

        # Instance attributes shadow the methods: net/room.py itself is untouched.
        room.act = timed_act  # type: ignore[method-assign]
        room._journal = timed("save", save)  # type: ignore[method-assign]
        room.game_view = timed("views", game_view)  # type: ignore[method-assign]
        room.summary = timed("views", summary)  # type: ignore[method-assign]
        room.subscribe(self._sent)  # after the server's listener: its views are written

    def _sent(self, events: list[dict[str, Any]]) -> None:
        current = self._current
        if current is not None:
            self.records[self.room.version] = (
                current["in"],
                current["save"],
                current["views"],
                time.perf_counter(),
            )


async def open_host(
    players: int, *, save_path: Path | None = None, seed: int = 1
) -> tuple[Room, Server, HostProbe]:
    """A Tally Up! room on 127.0.0.1 that starts the game once `players` seats are connected."""
    room = _bench_room(save_path, seed)
    server = Server(room, host=HOSTNAME, port=0)
    probe = HostProbe(room)
    _start_when_seated(room, players)
    await server.start()
    return room, server, probe


def _bench_room(save_path: Path | None, seed: int) -> Room:
    room = Room(
        "bench", game_id="tallyup", open_room=True, save_path=save_path, rng=random.Random(seed)
    )
    room.set_option("choice_seconds", 0)  # no countdown closes the sealed choice on us
    return room


def _start_when_seated(room: Room, players: int) -> None:
    loop = asyncio.get_running_loop()
    starting = False

    def start() -> None:
        if room.phase == "lobby" and sum(s.connected for s in room.seats) >= players:
            room.start()

    def maybe_start(events: list[dict[str, Any]]) -> None:
        nonlocal starting
        everyone = sum(s.connected for s in room.seats) >= players
        if not starting and room.phase == "lobby" and everyone:
            starting = True
            loop.call_soon(start)  # not from inside the room's own notification

    room.subscribe(maybe_start)


def _host_main(conn: Any, options: dict[str, Any]) -> None:
    """The child process: serve until told to stop (or the parent goes, or `life` runs out)."""
    try:
        asyncio.run(_host_serve(conn, **options))
    finally:
        conn.close()


async def _host_serve(
    conn: Any,
    players: int,
    save_dir: str | None,
    seed: int,
    profile: str | None,
    life: float,
    app: bool,
) -> None:
    save_path = Path(save_dir) / "bench.save" if save_dir else None
    loop = asyncio.get_running_loop()
    stopped = loop.create_future()
    profiler = cProfile.Profile() if profile else None
    marks: dict[str, tuple[float, float]] = {}

    def listen() -> None:  # a thread: the pipe is blocking
        try:
            while (message := conn.recv()) != "stop":
                if message == "profile" and profiler is not None:
                    loop.call_soon_threadsafe(profiler.enable)  # profiles the loop's thread
                elif message in ("begin", "end"):  # the measured moves: the host's CPU time
                    usage = resource.getrusage(resource.RUSAGE_SELF)
                    marks[message] = (usage.ru_utime, usage.ru_stime)
        except (EOFError, OSError):
            pass  # the parent is gone: stop too
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(lambda: stopped.done() or stopped.set_result(None))

    async def serve(room: Room, server: Server, probe: HostProbe) -> None:
        threading.Thread(target=listen, daemon=True).start()
        conn.send(("port", server.port))
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopped, life)
        finally:
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(profile)
            begin, end = marks.get("begin", (0.0, 0.0)), marks.get("end", (0.0, 0.0))
            cpu = (end[0] - begin[0], end[1] - begin[1])  # user, system
            conn.send(("probe", probe.records, cpu, _rss_bytes()))

    if not app:
        room, server, probe = await open_host(players, save_path=save_path, seed=seed)
        try:
            await serve(room, server, probe)
        finally:
            await server.close()
            room.close()
        return
    from tui.host.app import HostApp  # the real table app, drawn headless

    room = _bench_room(save_path, seed)
    probe = HostProbe(room)
    table = HostApp(room, host=HOSTNAME, port=0, advertise=False)
    async with table.run_test(size=(120, 40)) as pilot:
        while not table.server.port:
            await pilot.pause(0.01)
        _start_when_seated(room, players)
        await serve(room, table.server, probe)


def _rss_bytes() -> int:
    """The process's resident memory (Linux), 0 where /proc is not there."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


@dataclass
class HostProcess:
    """The host in a child process; a context manager that always ends it."""

    players: int
    save_dir: str | None = None
    seed: int = 1
    profile: str | None = None
    life: float = 600.0
    app: bool = False
    port: int = 0
    records: Stamps = field(default_factory=dict)
    cpu: tuple[float, float] = (0.0, 0.0)  # the host's user and system CPU seconds, measured
    rss: int = 0

    def __enter__(self) -> HostProcess:
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing inherited
        self._conn, child = ctx.Pipe()
        options = {
            "players": self.players, "save_dir": self.save_dir, "seed": self.seed,
            "profile": self.profile, "life": self.life, "app": self.app,
        }  # fmt: skip
        self._process = ctx.Process(target=_host_main, args=(child, options), daemon=True)
        self._process.start()
        child.close()  # ours closed, the child sees EOF if we die
        try:
            if not self._conn.poll(30.0):
                raise BenchError("the host process did not report its port within 30 s")
            try:
                kind, port = self._conn.recv()
            except EOFError:
                self._process.join(2.0)
                code = self._process.exitcode
                raise BenchError(f"the host process ended first (exit code {code})") from None
            if kind != "port":
                raise BenchError(f"the host process said {kind!r}, not its port")
            self.port = port
        except BaseException:
            self._end()
            raise
        return self

    def profile_from_now(self) -> None:
        self._conn.send("profile")

    def mark(self, moment: str) -> None:
        """ "begin" / "end" of the measured moves."""
        self._conn.send(moment)

    def __exit__(self, *exc: object) -> None:
        self._end()

    def _end(self) -> None:
        process = self._process
        try:
            with contextlib.suppress(OSError, EOFError, ValueError):
                self._conn.send("stop")
                if self._conn.poll(10.0):
                    kind, records, cpu, rss = self._conn.recv()
                    if kind == "probe":
                        self.records, self.cpu, self.rss = records, cpu, rss
            process.join(5.0)
        finally:
            if process.is_alive():
                process.terminate()
                process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join(2.0)
            self._conn.close()


# --- the screens ---------------------------------------------------------------------------


class Screen:
    """One player's laptop: a raw connection that decodes every frame as it lands, as the
    player's app does (`net.protocol.MessageLink`, which `net.client.Client` reads with), and
    stamps each `view` with `time.perf_counter()` once decoded."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.link = MessageLink(self._on_message)
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.arrived: dict[int, float] = {}  # view version -> when it was decoded here
        self.view_bytes: dict[int, int] = {}  # view version -> frame size (header + body)
        self.errors: list[dict[str, Any]] = []
        self.join: dict[str, float] = {}  # seconds from the start of connect
        self.gone: BaseException | None = None
        self._start = time.perf_counter()
        self._waiters: list[tuple[int, asyncio.Future[float]]] = []
        self._tasks: list[asyncio.Task[None]] = []
        self.link.ended.add_done_callback(self._lost)

    @classmethod
    async def join_table(cls, port: int, name: str, watcher: int | None = None) -> Screen:
        """A player's screen, or with `watcher` (its number) a watcher's: from an address of
        its own, as each laptop of an audience is (and the host's per-address door sees)."""
        screen = cls(name)
        source = None if watcher is None else (f"127.0.{1 + watcher // 250}.{1 + watcher % 250}", 0)
        loop = asyncio.get_running_loop()
        opening = loop.create_connection(lambda: screen.link, HOSTNAME, port, local_addr=source)
        await asyncio.wait_for(opening, WAIT)
        screen.join["connect"] = time.perf_counter() - screen._start
        hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name}
        screen.send(hello | {"watch": True} if watcher is not None else hello)
        await screen.reached(0)
        if screen.gone is not None:
            raise BenchError(f"{name} could not join: {screen.gone!r}")
        screen._tasks = [asyncio.create_task(screen._ping())]
        return screen

    def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "action":  # made from the newest view this screen has
            message = {**message, "version": self.version}
        self.link.send(message)

    def _on_message(self, message: dict[str, Any]) -> None:
        message = shown_texts(message)  # cleaned for the screens, as `Client._receive` does
        now = time.perf_counter()
        kind = message["type"]
        if kind == "view":
            if "view" not in self.join:
                self.join["view"] = now - self._start
            self._deliver(message, now)
        elif kind in ("welcome", "watching"):
            self.seat = message.get("seat")
            self.join["welcome"] = now - self._start
        elif kind == "ping":  # the host checks the link
            self.send({"type": "pong", "t": message["t"]})
        elif kind == "error":
            if "view" not in self.join:
                raise BenchError(f"{self.name} was refused: {message['code']} {message['message']}")
            self.errors.append(message)
        elif kind == "kicked":
            raise BenchError(f"{self.name} was kicked: {message['reason']}")

    def _lost(self, ended: asyncio.Future[None]) -> None:
        self.gone = ended.exception() or ConnectionResetError("closed")
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(BenchError(f"{self.name} lost the host: {self.gone!r}"))

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            self.send({"type": "ping", "t": time.perf_counter()})

    def _deliver(self, view: dict[str, Any], now: float) -> None:
        self.view = view
        self.version = view["version"]
        self.arrived[self.version] = now
        self.view_bytes[self.version] = self.link.frame_size
        if self._waiters:
            waiting = []
            for version, future in self._waiters:
                if version <= self.version and not future.done():
                    future.set_result(now)
                elif not future.done():
                    waiting.append((version, future))
            self._waiters = waiting

    def expect(self, version: int) -> asyncio.Future[float]:
        """A future of when this screen decoded a view of `version` or later (done already
        if it has; failed if the host is lost)."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.version >= version:
            future.set_result(self.arrived.get(version, self.arrived[self.version]))
        elif self.gone is not None:
            future.set_exception(BenchError(f"{self.name} lost the host: {self.gone!r}"))
        else:
            self._waiters.append((version, future))
        return future

    async def reached(self, version: int, timeout: float = WAIT) -> float:
        """When this screen decoded a view of `version` or later."""
        return (await everyone_at([self], version, timeout))[0]

    @property
    def game(self) -> dict[str, Any]:
        game = self.view["game"] if self.view else None
        if game is None:
            raise BenchError(f"{self.name} has no game in its view")
        return game

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            self.send({"type": "bye"})
            self.link.end(ConnectionResetError("closed"))
            await asyncio.wait_for(asyncio.shield(self.link.closed), 1.0)


async def everyone_at(
    screens: Sequence[Screen], version: int, timeout: float = WAIT
) -> list[float]:
    """When each of `screens` decoded a view of `version` or later — one wait for all of
    them, woken once, by the last (boardgame.io's side waits so too, with one `Promise.all`):
    a wake-up per screen would run between the very frames being measured."""
    waits = [screen.expect(version) for screen in screens]
    pending = [wait for wait in waits if not wait.done()]
    if pending:
        everyone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        left = len(pending)

        def arrived(wait: asyncio.Future[float]) -> None:
            nonlocal left
            left -= 1
            if (left == 0 or wait.exception() is not None) and not everyone.done():
                everyone.set_result(None)

        for wait in pending:
            wait.add_done_callback(arrived)
        try:
            await asyncio.wait_for(everyone, timeout)
        except TimeoutError:
            behind = [f"{s.name} at {s.version}" for s in screens if s.version < version]
            errors = [e for s in screens for e in s.errors[-1:]]
            raise BenchError(
                f"no view {version} within {timeout:.0f} s: {', '.join(behind)} (errors {errors})"
            ) from None
        finally:
            for wait in waits:
                wait.cancel()  # (a screen drops it at its next view)
    return [wait.result() for wait in waits]


async def step(screens: Sequence[Screen], actor: Screen, action: dict[str, Any]) -> None:
    """One move, then wait until every screen shows its outcome."""
    version = max(screen.version for screen in screens) + 1
    actor.send({"type": "action", "action": action})
    await everyone_at(screens, version)


async def drive_to_choice(screens: Sequence[Screen]) -> Screen:
    """Play until a sealed choice is open; the IN player (not the active one) who will toggle."""
    for _ in range(MAX_DRIVE_STEPS):
        game = screens[0].game
        phase = game["phase"]
        if phase == "choice":
            inside = [s for s in screens if "token" in s.game["legal"]]
            others = [s for s in inside if s.seat != game["active"]]
            if others or inside:
                return (others or inside)[-1]
        active = next(s for s in screens if s.seat == game["active"])
        legal = active.game["legal"]
        if "choose_dice" in legal:
            await step(screens, active, {"type": "choose_dice", "dice": list(COLOURS[:3])})
        elif "roll" in legal:
            await step(screens, active, {"type": "roll"})
        elif "bonus_dice" in legal:
            dice = game["unused"][: game["bonus_count"]]
            await step(screens, active, {"type": "bonus_dice", "dice": dice})
        elif phase == "shout":
            await step(screens, active, {"type": "shout"})
        else:
            raise BenchError(f"stuck in phase {phase!r} (legal for the active: {legal})")
    raise BenchError(f"no sealed choice after {MAX_DRIVE_STEPS} moves")


# --- the measurement -----------------------------------------------------------------------


@dataclass
class Figures:
    """What a run measured; times in seconds."""

    players: int
    rounds: int
    join: list[dict[str, float]]
    connections: int = 0
    app: bool = False
    own: list[float] = field(default_factory=list)  # send -> own view decoded
    every: list[float] = field(default_factory=list)  # send -> the last of all the screens
    uplink: list[float] = field(default_factory=list)  # send -> the host's `act` begins
    host: list[float] = field(default_factory=list)  # `act` begins -> last view written
    downlink: list[float] = field(default_factory=list)  # last view written -> last screen
    save: list[float] = field(default_factory=list)  # in the save file
    views: list[float] = field(default_factory=list)  # building views and room summaries
    view_frame: list[int] = field(default_factory=list)  # bytes, header included
    sent: list[float] = field(default_factory=list)  # when each action was sent
    last: list[float] = field(default_factory=list)  # when the last screen had it
    versions: list[int] = field(default_factory=list)  # the version each action made
    screens_cpu: float = 0.0  # CPU seconds of this process (all the screens) while toggling
    host_cpu: tuple[float, float] = (0.0, 0.0)  # the host's user, system CPU s, measured
    host_rss: int = 0  # bytes
    wire_bytes: int = 0  # every byte every screen received
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before and after

    def add_host(self, records: Stamps) -> None:
        """Join the host's stamps (same clock) to the actions; missing ones are skipped."""
        for sent, last, version in zip(self.sent, self.last, self.versions, strict=True):
            if version in records:
                began, save, views, written = records[version]
                self.uplink.append(began - sent)
                self.host.append(written - began)
                self.downlink.append(last - written)
                self.save.append(save)
                self.views.append(views)


async def measure(
    port: int,
    players: int,
    rounds: int,
    *,
    connections: int | None = None,
    warmup: int = 0,
    gap: float = 0.0,
    mark: Callable[[str], None] = lambda moment: None,
) -> Figures:
    """Seat `players` screens at the host on `port` (which starts the game once they are all
    in) and, past them, watchers up to `connections`; reach a sealed choice and toggle a
    token `warmup` + `rounds` times, `gap` seconds apart, measuring the last `rounds`."""
    connections = max(connections or players, players)
    screens: list[Screen] = []
    try:
        for number in range(players):
            screens.append(await Screen.join_table(port, f"P{number + 1}"))
        for screen in screens:  # the host starts the game once the last one is in
            for _ in range(100):
                if screen.view and screen.view["game"] is not None:
                    break
                await screen.reached(screen.version + 1)
        for number in range(players, connections):  # watchers: the table's view
            screens.append(await Screen.join_table(port, f"W{number + 1}", number - players))
        toggler = await drive_to_choice(screens[:players])
        others = [s for s in screens if s is not toggler]
        figures = Figures(players, rounds, [s.join for s in screens], connections=connections)
        for number in range(warmup + rounds):
            if number == warmup:
                mark("begin")
                cpu = time.process_time()
                bytes_before = sum(s.link.received for s in screens)
            version = toggler.version + 1
            side = "out" if number % 2 == 0 else "in"
            sent = time.perf_counter()
            toggler.send({"type": "action", "action": {"type": "token", "side": side}})
            own, *theirs = await everyone_at([toggler, *others], version)
            last = max([own, *theirs])
            if number >= warmup:
                figures.own.append(own - sent)
                figures.every.append(last - sent)
                figures.sent.append(sent)
                figures.last.append(last)
                figures.versions.append(version)
            if toggler.game["phase"] != "choice" or toggler.game["token"] != side:
                raise BenchError(f"the toggle did not take: {toggler.game['phase']}")
            if gap:
                await asyncio.sleep(gap)
        mark("end")
        figures.screens_cpu = time.process_time() - cpu
        figures.wire_bytes = sum(s.link.received for s in screens) - bytes_before
        measured = set(figures.versions)
        for screen in screens:
            figures.view_frame += [n for v, n in screen.view_bytes.items() if v in measured]
        return figures
    finally:
        for screen in screens:
            await screen.close()


def run(
    players: int,
    rounds: int,
    *,
    connections: int | None = None,
    warmup: int = 0,
    gap: float = 0.0,
    save_dir: str | None = None,
    seed: int = 1,
    profile: str | None = None,
    app: bool = False,
) -> Figures:
    """The whole benchmark with the host in a child process."""
    moves = rounds + warmup
    life = 120.0 + (0.05 * players + gap) * moves  # the host gives up by itself after this
    load = os.getloadavg()[0]
    with HostProcess(
        players, save_dir=save_dir, seed=seed, profile=profile, life=life, app=app
    ) as host:
        if profile:
            host.profile_from_now()  # profiles joins too: they are few next to the toggles
        figures = asyncio.run(
            measure(
                host.port, players, rounds, connections=connections, warmup=warmup, gap=gap,
                mark=host.mark,
            )
        )  # fmt: skip
    figures.add_host(host.records)
    figures.host_cpu, figures.host_rss, figures.app = host.cpu, host.rss, app
    figures.load = (load, os.getloadavg()[0])
    return figures


# --- reporting -----------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def summary_ms(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "median": statistics.median(values) * 1000,
        "p90": percentile(values, 90) * 1000,
        "p99": percentile(values, 99) * 1000,
        "max": max(values) * 1000,
    }


def as_dict(figures: Figures) -> dict[str, Any]:
    join = {
        kind: summary_ms([j[kind] for j in figures.join]) for kind in ("connect", "welcome", "view")
    }
    frames = figures.view_frame
    total = sum(figures.every)
    moves = figures.rounds
    return {
        "players": figures.players,
        "connections": figures.connections,
        "app": figures.app,
        "rounds": moves,
        "load_average": list(figures.load),
        "join_ms": join,
        "own_view_ms": summary_ms(figures.own),
        "every_screen_ms": summary_ms(figures.every),
        "uplink_ms": summary_ms(figures.uplink),
        "host_ms": summary_ms(figures.host),
        "save_ms": summary_ms(figures.save),
        "views_ms": summary_ms(figures.views),
        "downlink_ms": summary_ms(figures.downlink),
        "host_cpu_ms_per_move": sum(figures.host_cpu) / moves * 1000,
        "host_user_cpu_ms_per_move": figures.host_cpu[0] / moves * 1000,
        "host_system_cpu_ms_per_move": figures.host_cpu[1] / moves * 1000,
        "host_rss_mb": figures.host_rss / 2**20,
        "screens_cpu_ms_per_move": figures.screens_cpu / moves * 1000,
        "host_share": sum(figures.host) / total if figures.host else None,
        "view_frame_bytes": {"min": min(frames), "max": max(frames)} if frames else {},
        "bytes_per_client_per_move": figures.wire_bytes / moves / figures.connections,
        "wire_bytes": figures.wire_bytes,
    }


def report(figures: Figures, *, save: str | None) -> str:
    data = as_dict(figures)
    out = io.StringIO()
    where = "a save file" if save else "no save file"
    table = "the real table app (headless)" if figures.app else "room and server"
    print(
        f"hubbub latency: {figures.connections} connections ({figures.players} players), "
        f"{figures.rounds} token toggles, loopback, host ({table}) in its own process, "
        f"{where}; load average {figures.load[0]:.1f} -> {figures.load[1]:.1f} on "
        f"{os.cpu_count()} CPUs",
        file=out,
    )

    def row(label: str, values: dict[str, float]) -> None:
        if values:
            cells = "".join(f"{values[k]:>9.3f}" for k in ("median", "p90", "p99", "max"))
            print(f"  {label:<36}{cells}", file=out)

    print(f"{'(milliseconds)':<38}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}", file=out)
    print(f"join (each of {figures.connections} connections, from connect)", file=out)
    row("socket connected", data["join_ms"]["connect"])
    row("welcome", data["join_ms"]["welcome"])
    row("first view", data["join_ms"]["view"])
    print("one action (token toggle)", file=out)
    row("-> own view", data["own_view_ms"])
    row("-> every screen", data["every_screen_ms"])
    print("where the time goes (one clock for both processes)", file=out)
    row("send -> host begins act()", data["uplink_ms"])
    row("act() -> last view written", data["host_ms"])
    row("  of which: save file", data["save_ms"])
    row("  of which: building views", data["views_ms"])
    row("last view written -> every screen", data["downlink_ms"])
    print(
        f"per move: host CPU {data['host_cpu_ms_per_move']:.3f} ms (Python "
        f"{data['host_user_cpu_ms_per_move']:.3f}, kernel {data['host_system_cpu_ms_per_move']:.3f}"
        f"), screens' CPU (all "
        f"{figures.connections} in this process) {data['screens_cpu_ms_per_move']:.3f} ms, "
        f"{data['bytes_per_client_per_move']:.0f} bytes to each client; host RSS "
        f"{data['host_rss_mb']:.1f} MB",
        file=out,
    )
    return out.getvalue()


def sweep(connections: Sequence[int], runs: int, **options: Any) -> dict[int, list[dict[str, Any]]]:
    """Each connection count `runs` times, interleaved (2, 4, …, then 2, 4, … again), so a
    busy moment of the machine does not fall on one count alone."""
    results: dict[int, list[dict[str, Any]]] = {n: [] for n in connections}
    for _ in range(runs):
        for count in connections:
            figures = run(min(count, 10), connections=count, **options)
            results[count].append(as_dict(figures))
    return results


def sweep_table(results: dict[int, list[dict[str, Any]]]) -> str:
    """Medians over the runs, one row per connection count."""
    out = io.StringIO()
    print(
        f"{'connections':>11} {'median ms':>10} {'p99 ms':>8} {'host CPU ms':>12} {'user':>6} "
        f"{'RSS MB':>7} {'bytes/client':>13} {'join ms':>8}",
        file=out,
    )
    for count, runs in results.items():

        def mid(pick: Callable[[dict[str, Any]], float], runs=runs) -> float:
            return statistics.median(pick(r) for r in runs)

        print(
            f"{count:>11} {mid(lambda r: r['every_screen_ms']['median']):>10.3f} "
            f"{mid(lambda r: r['every_screen_ms']['p99']):>8.3f} "
            f"{mid(lambda r: r['host_cpu_ms_per_move']):>12.3f} "
            f"{mid(lambda r: r['host_user_cpu_ms_per_move']):>6.3f} "
            f"{mid(lambda r: r['host_rss_mb']):>7.1f} "
            f"{mid(lambda r: r['bytes_per_client_per_move']):>13.0f} "
            f"{mid(lambda r: r['join_ms']['view']['median']):>8.2f}",
            file=out,
        )
    return out.getvalue()


def top_functions(path: str, limit: int = 20) -> str:
    out = io.StringIO()
    stats = pstats.Stats(path, stream=out)
    stats.sort_stats("tottime").print_stats(limit)
    return out.getvalue()


# --- boardgame.io beside it (--bgio) -------------------------------------------------------

BGIO = ROOT / "tools" / "bgio"
BGIO_ENV = {"NODE_ENV": "production"}  # as deployed: no per-move INFO lines on the server


def bgio_ready() -> str:
    """The `node` to run tools/bgio/ with, after `npm ci` there if its modules are missing."""
    node = shutil.which("node")
    if node is None:
        raise BenchError("--bgio needs Node.js (node on PATH), then: cd tools/bgio && npm ci")
    if not (BGIO / "node_modules" / "boardgame.io" / "package.json").is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise BenchError("boardgame.io is not installed: cd tools/bgio && npm ci")
        print("latency: installing boardgame.io in tools/bgio (npm ci)", file=sys.stderr)
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=BGIO, stdout=sys.stderr, check=False
        )
        if done.returncode:
            raise BenchError(f"npm ci in {BGIO} failed (exit {done.returncode})")
    return node


class BgioServer:
    """boardgame.io's default server (tools/bgio/server.js) in a process of its own; a context
    manager that always ends it (its stdin is a pipe from us: it stops when we go, too)."""

    def __init__(self, node: str) -> None:
        self.node = node
        self.port = 0

    def __enter__(self) -> BgioServer:
        self._process = subprocess.Popen(
            [self.node, "server.js", "0"], cwd=BGIO, env=os.environ | BGIO_ENV,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            ready, _, _ = select.select([self._process.stdout], [], [], 30.0)
            line = self._process.stdout.readline() if ready else ""
            if not line:
                self._process.kill()
                error = self._process.communicate(timeout=5.0)[1].strip()
                raise BenchError(f"boardgame.io's server did not report its port: {error[-500:]}")
            self.port = json.loads(line)["port"]
        except BaseException:
            self._end()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._end()

    def _end(self) -> None:
        process = self._process
        with contextlib.suppress(OSError):
            process.stdin.close()  # the server's signal to stop
        try:
            process.wait(5.0)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(2.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(2.0)
        for stream in (process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                stream.close()


def run_bgio(
    connections: int, rounds: int, *, warmup: int = 0, gap: float = 0.0, node: str | None = None
) -> dict[str, Any]:
    """The same measurement against boardgame.io: its server in one process, `connections`
    clients (up to 10 players, the rest spectators) in another. Figures as `as_dict` names
    them where they are the same figure (`every_screen_ms`, `own_view_ms`, `load_average`)."""
    node = node or bgio_ready()
    load = os.getloadavg()[0]
    moves = rounds + warmup
    with BgioServer(node) as server:
        command = [
            node, "clients.js", "--port", str(server.port), "--clients", str(connections),
            "--players", str(min(connections, 10)), "--rounds", str(rounds),
            "--warmup", str(warmup), "--gap", repr(gap), "--raw",
        ]  # fmt: skip
        try:
            done = subprocess.run(
                command, cwd=BGIO, env=os.environ | BGIO_ENV, capture_output=True, text=True,
                timeout=120.0 + (0.05 * connections + gap) * moves, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise BenchError(f"boardgame.io's clients ({connections}) did not finish") from None
    if done.returncode:
        raise BenchError(f"boardgame.io's clients failed: {done.stderr.strip()[-500:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    every, own = data.pop("every_ms"), data.pop("own_ms")
    data["every_screen_ms"] = summary_ms([t / 1000 for t in every])  # as hubbub's, exactly
    data["own_view_ms"] = summary_ms([t / 1000 for t in own])
    data["connections"] = connections
    data["load_average"] = [load, os.getloadavg()[0]]
    return data


def paired_sweep(
    connections: Sequence[int], runs: int, **options: Any
) -> dict[int, list[dict[str, Any]]]:
    """Each count run with hubbub, then at once with boardgame.io (a pair), the whole list
    `runs` times interleaved: a busy moment of the machine falls on both of a pair."""
    node = bgio_ready()
    bgio = {k: options[k] for k in ("warmup", "gap")}
    results: dict[int, list[dict[str, Any]]] = {n: [] for n in connections}
    for _ in range(runs):
        for count in connections:
            hubbub = as_dict(run(min(count, 10), connections=count, **options))
            other = run_bgio(count, options["rounds"], node=node, **bgio)
            ratio = {
                q: hubbub["every_screen_ms"][q] / other["every_screen_ms"][q]
                for q in ("median", "p99")
            }
            results[count].append({"hubbub": hubbub, "bgio": other, "ratio": ratio})
    return results


def paired_table(results: dict[int, list[dict[str, Any]]]) -> str:
    """Per count: medians over the runs of each side's median and p99 (ms), their ratios
    hubbub/bgio, each pair's ratios (lowest-highest), host CPU per move, load average."""
    out = io.StringIO()
    print(
        "move -> every client, ms: medians over the runs (hubbub/bgio ratio of those; "
        "each pair's ratio, lowest-highest)",
        file=out,
    )
    print(
        f"{'conns':>5} {'hubbub med':>10} {'p99':>7} {'bgio med':>9} {'p99':>7} "
        f"{'ratio med':>9} {'(pairs)':>11} {'ratio p99':>9} {'(pairs)':>11} "
        f"{'CPU/move h':>10} {'b':>5} {'load':>9}",
        file=out,
    )
    for count, pairs in results.items():

        def mid(side: str, q: str, pairs=pairs) -> float:
            return statistics.median(p[side]["every_screen_ms"][q] for p in pairs)

        def spread(q: str, pairs=pairs) -> str:
            ratios = [p["ratio"][q] for p in pairs]
            return f"{min(ratios):.2f}-{max(ratios):.2f}"

        loads = [x for p in pairs for side in ("hubbub", "bgio") for x in p[side]["load_average"]]
        host = statistics.median(p["hubbub"]["host_cpu_ms_per_move"] for p in pairs)
        server = statistics.median(p["bgio"]["server_cpu_ms_per_move"] for p in pairs)
        print(
            f"{count:>5} {mid('hubbub', 'median'):>10.3f} {mid('hubbub', 'p99'):>7.2f} "
            f"{mid('bgio', 'median'):>9.3f} {mid('bgio', 'p99'):>7.2f} "
            f"{mid('hubbub', 'median') / mid('bgio', 'median'):>9.2f} {spread('median'):>11} "
            f"{mid('hubbub', 'p99') / mid('bgio', 'p99'):>9.2f} {spread('p99'):>11} "
            f"{host:>10.2f} {server:>5.2f} {min(loads):>4.1f}-{max(loads):<4.1f}",
            file=out,
        )
    print(
        "hubbub: up to 10 players, the rest watchers; boardgame.io 0.50.2: up to 10 players, "
        "the rest spectators. CPU/move: host (h) and server (b), user + kernel. "
        f"{os.cpu_count()} CPUs.",
        file=out,
    )
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="measured moves (default 300)")
    parser.add_argument("--warmup", type=int, default=30, help="moves before them (default 30)")
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between moves (0.01)")
    parser.add_argument(
        "--connections",
        default="4",
        help="connections, or a list (2,4,8,10,12): up to 10 play, the others watch",
    )
    parser.add_argument("--runs", type=int, default=1, help="interleaved runs of the list")
    parser.add_argument("--app", action="store_true", help="the host runs the real table app")
    parser.add_argument(
        "--save",
        metavar="DIR",
        help="give the room a save file in a fresh folder under DIR (as `hubbub host` does)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the host's dice (default 1)")
    parser.add_argument("--profile", metavar="FILE", help="cProfile the host into FILE")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--bgio",
        action="store_true",
        help="boardgame.io 0.50.2 beside hubbub, paired run by run (tools/bgio; needs Node)",
    )
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.connections.split(",")]
    if not all(2 <= n <= 10 + MAX_WATCHERS for n in counts):
        parser.error(
            f"2 to {10 + MAX_WATCHERS} connections (Tally Up! seats 2 to 10 players; the rest"
            " watch)"
        )
    if not 1 <= args.rounds <= 100_000:
        parser.error("--rounds is 1 to 100000")
    save_dir = tempfile.mkdtemp(prefix="hubbub-latency-", dir=args.save) if args.save else None
    options = {
        "rounds": args.rounds, "warmup": args.warmup, "gap": args.gap, "save_dir": save_dir,
        "seed": args.seed, "profile": args.profile, "app": args.app,
    }  # fmt: skip
    try:
        if args.bgio:
            results = paired_sweep(counts, args.runs, **options)
            print(json.dumps(results, indent=2) if args.json else paired_table(results), end="")
            return 0
        if len(counts) > 1 or args.runs > 1:
            results = sweep(counts, args.runs, **options)
            print(json.dumps(results, indent=2) if args.json else sweep_table(results), end="")
            return 0
        figures = run(min(counts[0], 10), connections=counts[0], **options)
    except BenchError as exc:
        print(f"latency: {exc}", file=sys.stderr)
        return 1
    finally:
        if save_dir:
            shutil.rmtree(save_dir, ignore_errors=True)
    if args.json:
        print(json.dumps(as_dict(figures) | {"save": args.save}, indent=2))
    else:
        print(report(figures, save=args.save), end="")
        if args.profile:
            print(top_functions(args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
