"""A host without a screen: the room and its server, for tests and measurements.

    python tools/hostd.py --port 47470 --interface 127.0.0.1 --game tallyup --open \\
        [--save FILE] [--resume] [--nofile 256] [--bots 2] [--web DIR]

It prints one JSON line per room change to stdout — `{"version", "phase", "events",
"seats": [{"name", "connected", ...}]}` — after a first line `{"ready": port, "web": port,
"nofile": limit}`, so a test can read what the room did without a terminal; the door's alerts
too (`{"alert": kind, ...}`, with the new code when it becomes long: the host's screen shows
it). `--nofile N` lowers the process's hard limit of open files to N first, and its soft limit
below that, to see the host raise it as `hubbub host` does (to N) and run out of them. `--web
DIR` serves the web seats too (their state directories in DIR), with the real player app.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.handles import raise_file_limit
from net.room import Room
from net.seats import MAX_SEATS
from net.server import Server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--interface", default="127.0.0.1")
    parser.add_argument("--game", default="tallyup")
    parser.add_argument("--open", action="store_true")
    parser.add_argument("--code")
    parser.add_argument("--save", type=Path)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--nofile", type=int)
    parser.add_argument("--bots", type=int, default=0)
    parser.add_argument("--grace", type=float)
    parser.add_argument("--web", type=Path, metavar="DIR")
    args = parser.parse_args(argv)
    if args.nofile:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(args.nofile, 64), args.nofile))
    args.nofile = raise_file_limit()  # as `hubbub host` does at start
    asyncio.run(serve(args))


async def serve(args: argparse.Namespace) -> None:
    if args.resume:
        room = Room.resume(args.save)
    else:
        room = Room(
            "hostd", game_id=args.game, open_room=args.open, code=args.code, save_path=args.save
        )
        for _ in range(args.bots):
            room.add_bot()
    if args.grace is not None:
        room.room_options["grace"] = args.grace
    server = Server(room, host=args.interface, port=args.port)

    def tell(events: list[dict]) -> None:
        seats = room.summary()["seats"]
        line = {"version": room.version, "phase": room.phase, "events": events, "seats": seats}
        print(json.dumps(line, ensure_ascii=False, default=str), flush=True)

    def alert(kind: str, details: dict) -> None:
        line = {"alert": kind, **details}
        if kind == "code_lengthened":
            line["code"] = room.code  # what the host's screen shows, for a test's honest players
        print(json.dumps(line), flush=True)

    room.subscribe(tell)
    server.alerts.append(alert)
    await server.start()
    room.start_clocks()
    web_port = await serve_web(args, server) if args.web else None
    print(json.dumps({"ready": server.port, "web": web_port, "nofile": args.nofile}), flush=True)
    await asyncio.Event().wait()  # until killed


async def serve_web(args: argparse.Namespace, server: Server) -> int:
    """The web seats, as `hubbub host` serves them, on the same interface."""
    from tui.web.gateway import WebSeats

    web = WebSeats(
        (args.interface, server.port), limit=MAX_SEATS + 4, state_root=args.web, door=server
    )
    return await web.start(args.interface, 0)


if __name__ == "__main__":
    main()
