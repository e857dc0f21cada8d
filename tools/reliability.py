"""The figures of docs/RELIABILITY.md: how the table stands up to a stranger and a crash.

    .venv/bin/python tools/reliability.py            # every figure (about two minutes)
    .venv/bin/python tools/reliability.py guesses    # one of: guesses away loop save kills web many

- guesses: 16 connections guess room codes for 30 s from one address, as fast as the host
  answers; how many codes the host actually checked, per minute, and how long all 331,776
  would take at that pace (and with every wait respected).
- away:    a client that stops reading and answering; seconds until the host shows it away
  (the real constants: a ping every 2 s, 7 s without a pong), five times.
- loop:    one seat reconnecting with its token as fast as it can for 10 s; the views another
  seat receives per second meanwhile.
- save:    1,000 moves of T-Rex (skips, and 1,000 refused ones with 60 KB of junk each); the
  save file's size, and the time to journal a move at the first and the thousandth.
- kills:   100 SIGKILLs of a host (half right after a player saw their move, half at a random
  moment while moves are on their way); moves a player saw that the resumed table lacks.
- web:     the attacks on the web port of the new-user test, one after the other, on a host
  with its web seats (real player apps) and a file limit of 1,024: 1,100 idle connections,
  connections sending their headers a byte a second, 16 websockets with made-up cookies, one
  address filling the audience, junk terminal sizes. For each, how far it got, and how long
  honest people waited meanwhile: a seated player back with his token, a newcomer on the
  table's port, a browser from another address; and a seated player's ping round trip.
- many:    a stranger with 250 addresses (127.0.1.1–250) guesses for two minutes, each address
  as fast as its waits allow; the codes the host checked, at the 4-letter code and after it
  became 6 letters, the rate once every address waits the longest, the chance to find the code
  in a 5-hour party at that rate (and from the door's model, and as it was before); an honest
  player joins every second meanwhile (from 127.0.2.x, with the code the host's screen shows),
  and how long each join took.

The host runs in a process of its own (`tools/hostd.py`), or forked for the kills.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from net.doorman import chance_to_find, party_guesses, seconds_to_try_every_code
from net.protocol import CODE_LENGTH, PROTOCOL_VERSION
from net.room import Room
from net.savefile import read_records
from net.seats import CODE_LETTERS
from tests.wire import Wire

HOSTD = Path(__file__).resolve().parent / "hostd.py"


class Host:
    """`tools/hostd.py` in a child process; its JSON lines are read on demand."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HOSTD), *args], stdout=subprocess.PIPE, text=True
        )
        ready = json.loads(self.process.stdout.readline())
        self.port, self.web_port = ready["ready"], ready["web"]

    def __enter__(self) -> Host:
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.kill()
        self.process.wait(5)


async def guesses(seconds: float = 30.0, connections: int = 16) -> dict:
    with Host("--game", "tallyup", "--code", "KXMT") as host:
        checked = refused = 0
        stop = time.monotonic() + seconds
        rng = random.Random(1)

        async def guesser() -> None:
            nonlocal checked, refused
            while time.monotonic() < stop:
                code = "".join(rng.choice("ABCDEFGHJLMNPQRSTUVWYZ") for _ in range(4))
                wire = await Wire.join(host.port, f"G{rng.randrange(10**6)}", code=code)
                try:
                    reply = await wire.recv(5)
                except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
                    continue
                finally:
                    wire.close()
                checked += reply.get("code") == "bad_code"
                refused += reply.get("code") == "slow_down"

        honest = await Wire.join(host.port, "Honest", code="KXMT")  # from another laptop,
        await honest.expect("welcome")  # as far as the host can tell: it joined before
        pings: list[float] = []

        async def player() -> None:
            while time.monotonic() < stop:
                sent = time.perf_counter()
                await honest.send({"type": "ping", "t": sent})
                await honest.expect("pong", timeout=10)
                pings.append(time.perf_counter() - sent)
                await asyncio.sleep(0.1)

        await asyncio.gather(player(), *(guesser() for _ in range(connections)))
    return {
        f"codes the host checked in {seconds:.0f} s": checked,
        "codes checked per minute after that (the longest wait)": 1,
        "days to try every code from one address": round(seconds_to_try_every_code() / 86400),
        "hellos refused as too fast, per second": round(refused / seconds),
        "an honest player's ping meanwhile, median ms": round(statistics.median(pings) * 1000, 2),
        "an honest player's ping meanwhile, max ms": round(max(pings) * 1000, 1),
    }


async def away(times: int = 5) -> dict:
    with Host("--game", "tallyup", "--open") as host:
        found = []
        for n in range(times):
            frozen = await Wire.join(host.port, f"Frozen{n}")
            await frozen.expect("welcome")  # then it reads and answers nothing
            observer = await Wire.join(host.port, f"Watch{n}")
            await observer.expect("welcome")
            started = time.monotonic()
            await observer.view_where(
                lambda v, name=f"Frozen{n}": any(
                    s["name"] == name and not s["connected"] for s in v["room"]["seats"]
                ),
                timeout=60,
            )
            found.append(time.monotonic() - started)
            frozen.close()
            observer.close()
    return {
        "seconds to away, median": round(statistics.median(found), 1),
        "seconds to away, max": round(max(found), 1),
    }


async def loop(seconds: float = 10.0) -> dict:
    with Host("--game", "tallyup", "--open") as host:
        ann = await Wire.join(host.port, "Ann")
        await ann.expect("welcome")
        looper = await Wire.join(host.port, "Loop")
        token = (await looper.expect("welcome"))["token"]
        looper.close()
        await asyncio.sleep(0.5)
        ann.views.clear()

        async def drain() -> None:
            while True:
                await ann.recv(60)

        counting = asyncio.create_task(drain())
        tries = 0
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            wire = await Wire.join(host.port, "", token=token)
            with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, TimeoutError):
                await wire.recv(5)
            wire.close()
            tries += 1
        counting.cancel()
    return {
        "reconnect attempts per second": round(tries / seconds),
        "views to another seat per second": round(len(ann.views) / seconds, 1),
    }


def save(moves: int = 1000) -> dict:
    folder = Path(tempfile.mkdtemp())
    path = folder / "save.save"
    room = Room("Save", game_id="trex", open_room=True, save_path=path, rng=random.Random(2))
    for name in ("Ann", "Bob", "Cid"):
        room.join(name, None)
    room.start(lang="en")
    junk = {"type": "skip", "junk": "x" * 60_000}
    costs = []
    for _ in range(moves):
        try:
            room.act(1, junk)  # refused: unknown_field, never logged
        except Exception as exc:
            assert getattr(exc, "code", None) == "unknown_field", exc
        started = time.perf_counter()
        room.act(0, {"type": "skip"})
        costs.append(time.perf_counter() - started)
    room.flush()
    size = path.stat().st_size
    _snapshot, records = read_records(path)
    room.close()
    first, last = costs[:50], costs[-50:]
    return {
        "moves": moves,
        "save file bytes": size,
        "bytes per move": round(size / moves),
        "journal records": len(records),
        "ms per move, first 50 (median)": round(statistics.median(first) * 1000, 3),
        "ms per move, last 50 (median)": round(statistics.median(last) * 1000, 3),
    }


def kills(times: int = 100) -> dict:
    from tests.net.test_crash import _host, _play, _skips

    folder = Path(tempfile.mkdtemp())
    path = folder / "kills.save"
    context = multiprocessing.get_context("fork")
    rng = random.Random(7)
    token, seen_total, lost_max = None, 0, 0
    for kill in range(times):
        ours, theirs = context.Pipe()
        child = context.Process(target=_host, args=(path, kill > 0, theirs), daemon=True)
        child.start()
        port = ours.recv()
        token, seen = asyncio.run(_play(port, token, child.pid, rng))
        child.join(10)
        seen_total += seen
        snapshot, records = read_records(path)
        logged = _skips(snapshot["log"]) + sum(_skips(r.get("log", [])) for r in records)
        lost_max = max(lost_max, seen_total - logged)
    strays = list(folder.glob(".room-*.tmp"))
    return {
        "kills": times,
        "moves seen by the player": seen_total,
        "seen moves lost": max(0, lost_max),
        "stray temporary files": len(strays),
    }


WEB_CODE = "KXMT"
DRAWN = 4096
"""Bytes of a player app's screen that mean its first screen is drawn (80x24: ~10 KB)."""


class Honest:
    """The honest people during an attack on the web port: Ann, seated, pings the table all
    along; Bob, seated, drops and comes back with his token; a newcomer joins on the table's
    port; a browser from another address opens the page and its socket."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.pings: list[float] = []
        self.ann: Wire | None = None
        self.bob_token = ""
        self.newcomers = 0
        self._pinging: asyncio.Task | None = None

    async def sit_down(self) -> None:
        self.ann = await Wire.join(self.host.port, "Ann", code=WEB_CODE)
        await self.ann.expect("welcome")
        bob = await Wire.join(self.host.port, "Bob", code=WEB_CODE)
        self.bob_token = (await bob.expect("welcome"))["token"]
        bob.close()
        self._pinging = asyncio.create_task(self._ping())

    async def _ping(self) -> None:
        while True:
            sent = time.perf_counter()
            await self.ann.send({"type": "ping", "t": sent})
            await self.ann.expect("pong", timeout=30)
            self.pings.append(time.perf_counter() - sent)
            await asyncio.sleep(0.1)

    async def come_in(self) -> dict:
        """Bob back with his token, a newcomer, a browser page from another address: the
        seconds each waited."""
        started = time.perf_counter()
        bob = await Wire.join(self.host.port, "", token=self.bob_token)
        await bob.expect("welcome", timeout=60)
        back = time.perf_counter() - started
        bob.close()
        self.newcomers += 1
        started = time.perf_counter()
        newcomer = await Wire.join(self.host.port, f"New{self.newcomers}", code=WEB_CODE)
        await newcomer.expect("welcome", timeout=60)
        joined = time.perf_counter() - started
        await newcomer.send({"type": "bye"})
        newcomer.close()
        return {"back": back, "joined": joined, **await self.browse()}

    async def browse(self) -> dict:
        """A browser at 127.0.9.9 opens the page, then its socket: the seconds to the page,
        and to the first bytes of its player app."""
        import aiohttp

        started = time.perf_counter()
        async with aiohttp.ClientSession(
            f"http://127.0.0.1:{self.host.web_port}",
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            connector=aiohttp.TCPConnector(local_addr=("127.0.9.9", 0)),
        ) as guest:
            status = (await guest.get("/")).status
            page = time.perf_counter() - started
            async with guest.ws_connect("/ws") as socket:
                drawn = 0
                while drawn < DRAWN:  # the join form, drawn by its player app
                    message = await socket.receive(timeout=60)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        raise RuntimeError(f"the honest page got {message.type} {message.data}")
                    drawn += len(message.data)
                app = time.perf_counter() - started
        return {"page": page, "page_status": status, "app": app}

    def take_pings(self) -> list[float]:
        pings, self.pings = self.pings, []
        return pings

    def stop(self) -> None:
        if self._pinging is not None:
            self._pinging.cancel()


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, max {max(values) * 1000:.0f} ms"


def _waits(came: dict) -> str:
    return (
        f"back with token {came['back']:.2f} s, newcomer {came['joined']:.2f} s, "
        f"page from another address {came['page']:.2f} s (HTTP {came['page_status']}), its "
        f"player app drawn {came['app']:.1f} s"
    )


async def _idle(port: int, count: int, source: str = "127.0.0.1") -> list:
    held = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)))
    return held


async def _closed_after(reader: asyncio.StreamReader, started: float) -> float:
    with contextlib.suppress(ConnectionError):
        while await asyncio.wait_for(reader.read(4096), 60):
            pass
    return time.perf_counter() - started


def _open_files(pid: int) -> int:
    """How many file handles process `pid` has open."""
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def _children_rss_mb(pid: int) -> float:
    """Resident memory of `pid`'s child processes (the web seats' player apps), in MB."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += int(fields[21]) * 4096
    return round(total / 2**20)


async def web() -> dict:
    import aiohttp

    from tui.web.gateway import CROWDED

    folder = Path(tempfile.mkdtemp())
    figures: dict[str, str] = {}
    with Host("--game", "tallyup", "--code", WEB_CODE, "--nofile", "1024",
              "--web", str(folder / "web")) as host:  # fmt: skip
        honest = Honest(host)
        await honest.sit_down()
        await asyncio.sleep(1)
        figures["no attack"] = _waits(await honest.come_in()) + "; ping " + _ms(honest.take_pings())

        started = time.perf_counter()
        held = await _idle(host.web_port, 1100)
        files = _open_files(host.process.pid)
        watch = [asyncio.create_task(_closed_after(r, started)) for r, _ in held]
        came = await honest.come_in()
        closed = await asyncio.gather(*watch)
        kept = [c for c in closed if c > 1.0]  # the others were dropped as they came
        figures["1,100 idle connections to the web port from one address"] = (
            f"{len(held)} opened, {len(kept)} kept, closed after {statistics.median(kept):.1f} s "
            f"(median); the host's open files {files} of 1024; " + _waits(came)
            + "; ping " + _ms(honest.take_pings())
        )  # fmt: skip
        for _, writer in held:
            writer.close()

        held = []
        for n in range(40):
            held += await _idle(host.web_port, 30, f"127.0.1.{n + 1}")
        files = _open_files(host.process.pid)
        came = await honest.come_in()
        figures["1,200 idle connections to the web port from 40 addresses"] = (
            f"{len(held)} opened; the host's open files {files} of 1024; " + _waits(came)
            + "; ping " + _ms(honest.take_pings())
        )  # fmt: skip
        for _, writer in held:
            writer.close()
        await asyncio.sleep(6)  # the leftovers time out

        started = time.perf_counter()
        slow = await _idle(host.web_port, 20, "127.0.2.1")

        async def drip(writer: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                for byte in b"GET / HTTP/1.1\r\nHost: table\r\nX-Slow: " + b"a" * 60:
                    writer.write(bytes([byte]))
                    await asyncio.sleep(1.0)

        dripping = [asyncio.create_task(drip(w)) for _, w in slow]
        came = await honest.come_in()
        closed = await asyncio.gather(*(_closed_after(r, started) for r, _ in slow))
        for task in dripping:
            task.cancel()
        figures["20 connections sending their headers a byte a second"] = (
            f"closed after {statistics.median(closed):.1f} s (median), {max(closed):.1f} s "
            "(max); " + _waits(came) + "; ping " + _ms(honest.take_pings())
        )

        guests = [
            aiohttp.ClientSession(
                f"http://127.0.0.1:{host.web_port}",
                connector=aiohttp.TCPConnector(local_addr=("127.0.3.1", 0)),
            )
            for n in range(16)
        ]
        sockets = [
            await guest.ws_connect("/ws", headers={"Cookie": f"hubbub_seat={n:032x}"})
            for n, guest in enumerate(guests)
        ]
        refused = 0
        for socket in sockets:
            with contextlib.suppress(TimeoutError):
                message = await socket.receive(timeout=3)
                refused += message.type == aiohttp.WSMsgType.CLOSE and message.data == CROWDED[0]
        await asyncio.sleep(3)  # the apps that started are up
        memory = _children_rss_mb(host.process.pid)
        came = await honest.come_in()
        figures["16 websockets with made-up cookies from one address"] = (
            f"{16 - refused} player apps started ({memory} MB), {refused} told {CROWDED[0]}; "
            + _waits(came) + "; ping " + _ms(honest.take_pings())
        )  # fmt: skip

        bombed = next(s for s in sockets if not s.closed)
        for junk in ('["resize", {"width": 1e999, "height": NaN}]',
                     '["resize", {"width": "wide", "height": -1e999}]'):  # fmt: skip
            await bombed.send_str(junk)
        await bombed.send_str('["ping", "alive"]')
        alive = False
        with contextlib.suppress(TimeoutError):
            while not alive:
                message = await bombed.receive(timeout=10)
                alive = message.type == aiohttp.WSMsgType.TEXT and "alive" in message.data
        figures["resize to 1e999, NaN, a string"] = (
            "the page lives on" if alive else "the page ENDED"
        )
        for socket in sockets:
            await socket.close()
        for guest in guests:
            await guest.close()

        started = time.perf_counter()
        audience = []
        for _ in range(64):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", host.port, local_addr=("127.0.4.1", 0)
            )
            wire = Wire(reader, writer)
            await wire.send({"type": "hello", "protocol": PROTOCOL_VERSION, "watch": True,
                             "code": WEB_CODE})  # fmt: skip
            reply = await wire.recv(10)
            if reply["type"] == "watching":
                audience.append(wire)
            elif reply.get("code") == "slow_down":
                await asyncio.sleep(reply["params"]["retry_after"])
        spent = time.perf_counter() - started
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", host.port, local_addr=("127.0.4.2", 0)
        )
        watcher = Wire(reader, writer)
        started = time.perf_counter()
        await watcher.send({"type": "hello", "protocol": PROTOCOL_VERSION, "watch": True,
                            "code": WEB_CODE})  # fmt: skip
        await watcher.expect("watching")
        figures["one address asking for all 64 watcher places"] = (
            f"{len(audience)} given in {spent:.0f} s; a watcher from another address in "
            f"{(time.perf_counter() - started) * 1000:.0f} ms"
        )
        honest.stop()
    return figures


PARTY_MINUTES = 5 * 60


async def many(seconds: float = 130.0, addresses: int = 250) -> dict:
    with Host("--game", "tallyup", "--code", "KXMT") as host:
        start = time.monotonic()
        screen = _HostScreen(host, "KXMT", start)
        checked: list[tuple[int, float, int]] = []  # (address, when, letters of the code then)
        rng = random.Random(3)

        async def stranger(number: int) -> None:
            """One address: a new code the moment its wait is over (the best it can do)."""
            letters = CODE_LENGTH
            while time.monotonic() - start < seconds:
                code = "".join(rng.choice(CODE_LETTERS) for _ in range(letters))
                wire, reply = await _hello(host.port, f"127.0.1.{number}", f"G{number}", code)
                if wire is not None:
                    wire.close()
                if reply is None:  # pushed out before its hello was read: again, soon
                    await asyncio.sleep(0.05)
                    continue
                params = reply.get("params", {})
                if reply["code"] in ("bad_code", "code_changed"):
                    checked.append((number, time.monotonic() - start, params["letters"]))
                    letters = params["letters"]  # the code it will guess next
                await asyncio.sleep(params.get("retry_after", 0))

        async def honest() -> list[tuple[float, int]]:
            """Every second a new player joins with the code the host's screen shows, as the
            player app would: a dropped link is tried again after 0.2 s, `code_changed`
            with the new code from the screen. (join time, tries); then `bye`."""
            joins = []
            number = 0
            while time.monotonic() - start < seconds:
                number += 1
                began, tries = time.perf_counter(), 0
                while True:
                    tries += 1
                    address = f"127.0.2.{number % 200 + 1}"
                    wire, reply = await _hello(host.port, address, f"Honest{number}", screen.code)
                    if reply is not None and reply["type"] == "welcome":
                        break
                    if wire is not None:
                        wire.close()
                    await asyncio.sleep(0.2)
                joins.append((time.perf_counter() - began, tries))
                await wire.send({"type": "bye"})
                wire.close()
                await asyncio.sleep(1.0)
            return joins

        *_, joins = await asyncio.gather(*(stranger(n) for n in range(1, addresses + 1)), honest())
    # the host's count: a guess it checked may miss its answer (pushed out meanwhile)
    short = screen.tried_short or 0
    long = sum(1 for *_, letters in checked if letters != CODE_LENGTH)
    per_minute = _longest_wait_rate(checked)
    long_party = long + per_minute * (PARTY_MINUTES - seconds / 60)
    times = sorted(took for took, _ in joins)
    return {
        "addresses": addresses,
        "codes the host checked in the first minute": sum(1 for _, at, _ in checked if at < 60),
        "codes checked at the 4-letter code (the host's count)": short,
        "seconds until the code had 6 letters": screen.lengthened_at,
        "codes checked per minute, table-wide, once every address waits the longest": round(
            per_minute
        ),
        "chance to find the code in a 5-hour party at these rates, %": round(
            100 * chance_to_find(short, round(long_party)), 3
        ),
        "the same, from the door's model (party_guesses), %": round(
            100 * chance_to_find(*party_guesses(addresses, PARTY_MINUTES * 60)), 3
        ),
        "before (the 4-letter code all evening), the model, %": round(
            100 * chance_to_find(*party_guesses(addresses, PARTY_MINUTES * 60, lengthens=False)),
            1,
        ),
        "honest joins meanwhile": len(joins),
        "honest join, median ms": round(statistics.median(times) * 1000, 1),
        "honest join, max ms": round(times[-1] * 1000, 1),
        "honest joins that took a second try": sum(1 for _, tries in joins if tries > 1),
    }


def _longest_wait_rate(checked: list[tuple[int, float, int]]) -> float:
    """Codes checked per minute by all the addresses together once each waits the longest:
    from the time between each address's last two checked codes (from its 13th on, 60 s)."""
    times: dict[int, list[float]] = {}
    for number, at, _ in checked:
        times.setdefault(number, []).append(at)
    gaps = [at[-1] - at[-2] for at in times.values() if len(at) > FIRST_LONGEST_WAIT]
    return sum(60 / gap for gap in gaps) * len(times) / max(1, len(gaps))


FIRST_LONGEST_WAIT = 12
"""An address's 13th code comes after the longest wait (5 free, then 1, 2 … 32, 60 s)."""


class _HostScreen:
    """What the host's screen says, read from `tools/hostd.py`'s lines on a thread (which
    also keeps its pipe from filling up): the code, and when it became long."""

    def __init__(self, host: Host, code: str, start: float) -> None:
        self.code = code
        self.lengthened_at: float | None = None
        self.tried_short: int | None = None  # the host's count of codes at the short code
        self._start = start
        threading.Thread(target=self._read, args=(host,), daemon=True).start()

    def _read(self, host: Host) -> None:
        for line in host.process.stdout:
            said = json.loads(line)
            if said.get("alert") == "code_lengthened":
                self.code = said["code"]
                self.tried_short = said["tried"]
                self.lengthened_at = round(time.monotonic() - self._start, 2)


async def _hello(port: int, address: str, name: str, code: str) -> tuple[Wire | None, dict | None]:
    """A hello from `address` (a loopback address of its own): the wire and the host's first
    answer (None: the link dropped before one came)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    except OSError:
        return None, None
    wire = Wire(reader, writer)
    hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "code": code}
    try:
        await wire.send(hello)
        return wire, await wire.recv(10)
    except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
        return wire, None


FIGURES = {
    "guesses": lambda: asyncio.run(guesses()),
    "away": lambda: asyncio.run(away()),
    "loop": lambda: asyncio.run(loop()),
    "save": save,
    "kills": kills,
    "web": lambda: asyncio.run(web()),
    "many": lambda: asyncio.run(many()),
}


def main(argv: list[str]) -> None:
    for name in argv or list(FIGURES):
        print(json.dumps({name: FIGURES[name]()}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
