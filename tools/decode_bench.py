"""What reading one view costs a player's app, step by step (docs/PERFORMANCE.md).

For a live view of each game (a real room, mid-game, as seat 0 gets it): decoding and checking
it against its types (`net.wire.decode`, one pass in C), turning it into the plain maps the
screens read (`net.wire.as_plain`), and the whole of `net.protocol.decode_body` plus the text
cleaning of `shown_texts` — each the best of 7 rounds of 20,000, in microseconds.

    .venv/bin/python tools/decode_bench.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack

from games.base import sample_chance
from games.testing import legal_moves
from net import wire
from net.protocol import decode_body, shown_texts
from net.room import Room

ROUNDS, TIMES = 7, 20_000


def live_view(game: str, steps: int, seed: int = 7) -> dict[str, Any]:
    """A view of `game` after `steps` random moves, as seat 0 gets it."""
    room = Room("Friday night", game_id=game, open_room=True)
    for name in ("Ann", "Ben", "Cid", "Dot", "Eve"):
        room.join(name, None)
    room.start("en")
    rng = random.Random(seed)
    game, state = room.game, room.state

    def settle() -> None:  # the host resolves every chance move before a view goes out
        while (spec := game.chance(state)) is not None:
            game.apply(state, -1, {"type": "chance", "outcome": sample_chance(spec, rng)})

    settle()
    for _ in range(steps):
        moves = [m for m in legal_moves(game, state, room.players) if m[0] >= 0]
        if game.result(state) is not None or not moves:
            break
        seat, action = rng.choice(moves)
        game.apply(state, seat, action)
        settle()
    return {
        "type": "view",
        "version": 41,
        "room": room.summary() | {"you": 0},
        "game": room.game_view(0),
        "events": list(room.game_view(0).get("last_events", [])),
    }


def best(run) -> float:
    fastest = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(TIMES):
            run()
        fastest = min(fastest, (time.perf_counter() - start) / TIMES)
    return fastest * 1e6


def main() -> None:
    print(f"{'game':10} {'bytes':>6} {'decode+check':>13} {'+plain':>8} {'decode_body':>12} "
          f"{'+shown':>8}  (µs)")  # fmt: skip
    for game, steps in (("tallyup", 12), ("trex", 20), ("tesauro", 12)):
        body = msgpack.packb(live_view(game, steps))
        typed = best(lambda body=body: wire.decode(body))
        plain = best(lambda body=body: wire.as_plain(wire.decode(body)))
        whole = best(lambda body=body: decode_body(body))
        shown = best(lambda body=body: shown_texts(decode_body(body)))
        print(f"{game:10} {len(body):6} {typed:13.1f} {plain:8.1f} {whole:12.1f} {shown:8.1f}")


if __name__ == "__main__":
    main()
