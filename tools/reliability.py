"""The figures of docs/RELIABILITY.md: how the table stands up to a stranger and a crash.

    .venv/bin/python tools/reliability.py            # every figure (about two minutes)
    .venv/bin/python tools/reliability.py guesses    # one of: guesses away loop save kills

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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from net.doorman import seconds_to_try_every_code
from net.room import Room
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


FIGURES = {
    "guesses": lambda: asyncio.run(guesses()),
    "away": lambda: asyncio.run(away()),
    "loop": lambda: asyncio.run(loop()),
    "save": save,
    "kills": kills,
}


def main(argv: list[str]) -> None:
    for name in argv or list(FIGURES):
        print(json.dumps({name: FIGURES[name]()}, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
