"""The figures of docs/RELIABILITY.md: how the table stands up to a stranger and a crash.

    .venv/bin/python tools/reliability.py            # every figure (about two minutes)
    .venv/bin/python tools/reliability.py guesses    # one of: guesses away loop save kills many

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
from net.room import CODE_LETTERS, Room
from net.savefile import read_records
from tests.wire import Wire

HOSTD = Path(__file__).resolve().parent / "hostd.py"


class Host:
    """`tools/hostd.py` in a child process; its JSON lines are read on demand."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HOSTD), *args], stdout=subprocess.PIPE, text=True
        )
        self.port = json.loads(self.process.stdout.readline())["ready"]

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
    "many": lambda: asyncio.run(many()),
}


def main(argv: list[str]) -> None:
    for name in argv or list(FIGURES):
        print(json.dumps({name: FIGURES[name]()}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
