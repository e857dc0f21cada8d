"""What this machine allows at best: the costs under every move that hubbub cannot lower.

    .venv/bin/python tools/floor.py                 # 10 players' frames, 2000 round trips
    .venv/bin/python tools/floor.py --players 4

`tools/latency.py` measures hubbub; this measures the floor beneath it, with hubbub's own
code taken out wherever it can be:

- **a message from one process to another**: two processes play ping-pong over a loopback
  TCP connection with plain blocking sockets (no event loop, no msgpack): the round trip, and
  the time one `send` takes, 10 ms apart as the benchmark's moves are;
- **N screens in one Python process**: that frame sent to each of N sockets (`--screens`,
  and `--players`), until one other process has received them all, and has also read each
  as the player's app does (decoded, checked and cleaned: `decode_body`, `shown_texts`) in a
  plain select loop — no event loop, no room;
- **one screen's share of a move**: the `view` frame a seat gets at a Tally Up! table of
  `--players` (built by the host's own `ViewPacker`), decoded by msgpack's C unpacker alone,
  and then checked as `net.protocol.decode_body` checks it.

From these: a move to every screen of N in one Python process cannot take less than the hop
to the host and the N sends read as the app reads them, whatever the room and the server do.
Loopback only; it prints microseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import statistics
import struct
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python tools/floor.py` from anywhere
    sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402

from net.protocol import ViewPacker, decode_body, validate  # noqa: E402
from net.room import Room  # noqa: E402


def accepted(listener: socket.socket, count: int) -> list[socket.socket]:
    """The next `count` connections, each sending at once (no Nagle: a frame is not held back)."""
    peers = [listener.accept()[0] for _ in range(count)]
    for peer in peers:
        peer.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return peers


def ping_pong(rounds: int, gap: float) -> tuple[list[float], list[float]]:
    """Round trips and send times (seconds) between this process and a forked child."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    child = os.fork()
    if child == 0:  # the echo: one byte back for every byte
        peer = socket.create_connection(("127.0.0.1", port))
        peer.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while data := peer.recv(64):
            peer.send(data)
        os._exit(0)
    (peer,) = accepted(listener, 1)
    trips, sends = [], []
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            peer.send(b"x")
            sent = time.perf_counter()
            peer.recv(64)
            trips.append(time.perf_counter() - start)
            sends.append(sent - start)
            time.sleep(gap)
    finally:
        peer.close()
        listener.close()
        os.waitpid(child, 0)
    return trips[rounds // 10 :], sends[rounds // 10 :]  # the first tenth warms up


def fan_out(connections: int, rounds: int, gap: float) -> list[float]:
    """Times (seconds) to send one byte on each of `connections` sockets, all read by one
    other process (as the host sends a change to the screens)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(connections)
    port = listener.getsockname()[1]
    child = os.fork()
    if child == 0:  # the screens: read whatever comes, until every socket is closed
        import selectors

        chooser = selectors.DefaultSelector()
        for _ in range(connections):
            screen = socket.create_connection(("127.0.0.1", port))
            chooser.register(screen, selectors.EVENT_READ)
        open_ones = connections
        while open_ones:
            for key, _ in chooser.select():
                if not key.fileobj.recv(4096):
                    chooser.unregister(key.fileobj)
                    open_ones -= 1
        os._exit(0)
    peers = accepted(listener, connections)
    bursts = []
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            for peer in peers:
                peer.send(b"x")
            bursts.append(time.perf_counter() - start)
            time.sleep(gap)
    finally:
        for peer in peers:
            peer.close()
        listener.close()
        os.waitpid(child, 0)
    return bursts[rounds // 10 :]


def screens_floor(
    connections: int, frame: bytes, rounds: int, gap: float, read: bool, loop: bool = False
) -> list[float]:
    """Times (seconds) from the first of `connections` sends of `frame` to the moment one
    other Python process has received all of them — and with `read`, also decoded, checked
    and cleaned each as the player's app does (`decode_body`, `shown_texts`) — in a plain
    select loop: no event loop, no room, no bookkeeping. The least a move can cost N screens
    in one Python process (the uplink hop aside). With `loop`, the same read by asyncio, each
    connection a `MessageLink` as in the player's app (`_links`)."""
    from net.protocol import shown_texts

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(connections + 1)
    port = listener.getsockname()[1]
    child = os.fork()
    if child == 0 and loop:
        asyncio.run(_links(port, connections))
        os._exit(0)
    if child == 0:
        import selectors

        report = socket.create_connection(("127.0.0.1", port))
        chooser = selectors.DefaultSelector()
        held: dict[socket.socket, bytes] = {}
        for _ in range(connections):
            screen = socket.create_connection(("127.0.0.1", port))
            chooser.register(screen, selectors.EVENT_READ)
            held[screen] = b""
        size, done = len(frame), 0
        while True:
            for key, _ in chooser.select():
                data = key.fileobj.recv(65536)
                if not data:
                    os._exit(0)
                data = held[key.fileobj] + data
                while len(data) >= size:
                    if read:
                        shown_texts(decode_body(data[4:size]))
                    data, done = data[size:], done + 1
                held[key.fileobj] = data
                if done == connections:
                    report.send(b"!")
                    done = 0
    report, *peers = accepted(listener, connections + 1)
    times = []
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            for peer in peers:
                peer.send(frame)
            report.recv(1)
            times.append(time.perf_counter() - start)
            time.sleep(gap)
    finally:
        for peer in (report, *peers):
            peer.close()
        listener.close()
        os.waitpid(child, 0)
    return times[rounds // 10 :]


async def _links(port: int, connections: int) -> None:
    """`screens_floor`'s reader on asyncio: each socket a `MessageLink` whose messages are
    cleaned (`shown_texts`) as the app's are; a byte to the sender once all N have one."""
    from net.protocol import MessageLink, shown_texts

    loop = asyncio.get_running_loop()
    report = socket.create_connection(("127.0.0.1", port))
    done = 0

    def heard(message: dict) -> None:
        nonlocal done
        shown_texts(message)
        done += 1
        if done == connections:
            report.send(b"!")
            done = 0

    links = [MessageLink(heard) for _ in range(connections)]
    for link in links:
        await loop.create_connection(lambda link=link: link, "127.0.0.1", port)
    for link in links:  # the sender hangs up when it is done: that ends each link
        with contextlib.suppress(Exception):
            await link.ended


def seat_frame(players: int) -> bytes:
    """The body of the `view` frame seat 0 gets at a Tally Up! table that has just started."""
    room = Room("floor", game_id="tallyup", open_room=True)
    for number in range(players):
        room.connected(room.join(f"P{number + 1}", None), returning=False)
    room.start(lang="en")
    packer = ViewPacker(room.version, room.summary(), [], room.game_view(None))
    frame = packer.frame(0, room.own_view(0))
    room.close()
    return frame[4:]


def per_call(function, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - start) / count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10, help="seats at the table (10)")
    parser.add_argument("--rounds", type=int, default=2000, help="round trips (2000)")
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between them (0.01)")
    parser.add_argument(
        "--screens",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[60],
        help="more counts of screens in one process to send the frame to (60)",
    )
    args = parser.parse_args(argv)
    if not 2 <= args.players <= 10:
        parser.error("Tally Up! seats 2 to 10 players")
    trips, sends = ping_pong(args.rounds, args.gap)
    bursts = fan_out(args.players, args.rounds // 4, args.gap)
    body = seat_frame(args.players)
    message = msgpack.unpackb(body, raw=False)
    count = 5000
    unpack = per_call(lambda: msgpack.unpackb(body, raw=False), count)
    check = per_call(lambda: validate(message), count)
    both = per_call(lambda: decode_body(body), count)
    us = 1e6
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(
        f"loopback TCP between two processes, {len(trips)} round trips {args.gap * 1e3:.0f} ms "
        f"apart: median {statistics.median(trips) * us:.0f} us, "
        f"p90 {sorted(trips)[int(len(trips) * 0.9)] * us:.0f} us; one send "
        f"{statistics.median(sends) * us:.0f} us"
    )
    print(
        f"a {args.players}-player seat's view frame, {len(body)} bytes: msgpack unpack "
        f"{unpack * us:.0f} us, the check {check * us:.0f} us, decode_body {both * us:.0f} us"
    )
    burst = statistics.median(bursts)
    print(
        f"one byte to each of {args.players} sockets read by one other process: median "
        f"{burst * us:.0f} us ({burst / args.players * us:.0f} us a send)"
    )
    frame = struct.pack(">I", len(body)) + body
    hop = statistics.median(trips) / 2
    for connections in sorted({args.players, *args.screens}):
        got = screens_floor(connections, frame, args.rounds // 4, args.gap, read=False)
        read = screens_floor(connections, frame, args.rounds // 4, args.gap, read=True)
        links = screens_floor(connections, frame, args.rounds // 4, args.gap, True, loop=True)
        print(
            f"that frame to each of {connections} sockets, until one other Python process has "
            f"all of them: received {statistics.median(got) * us:.0f} us, "
            f"received and each read as the app does {statistics.median(read) * us:.0f} us "
            f"(p99 {sorted(read)[int(len(read) * 0.99)] * us:.0f} us); the same on asyncio, "
            f"each a MessageLink: {statistics.median(links) * us:.0f} us "
            f"(p99 {sorted(links)[int(len(links) * 0.99)] * us:.0f} us)"
        )
        print(
            f"  so a move to all {connections} screens in one Python process takes at least "
            f"{(hop + statistics.median(read)) * 1e3:.2f} ms (the hop to the host, its sends "
            f"and their reading; no room, no event loop), "
            f"{(hop + statistics.median(links)) * 1e3:.2f} ms on asyncio"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
