"""Helpers every game's tests use: replay a log, play random games, prove secrets stay secret.

Secrecy is checked on the serialised bytes, the way a view leaves the host, never on the dict:
two states that differ only in what one seat may know must give every other seat (and the
table) byte-identical views.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence

import msgpack

from games.base import CHANCE, HOST, Action, Game, IllegalAction, State, sample_chance

LogEntry = tuple[int, Action]


def view_bytes(game: Game, state: State, seat: int | None) -> bytes:
    """A view exactly as the wire carries it."""
    return msgpack.packb(game.view(state, seat), use_bin_type=True)


def replay(game: Game, players: list[str], options: dict | None, log: Iterable[LogEntry]) -> State:
    state = game.setup(list(players), copy.deepcopy(options))
    for seat, action in log:
        game.apply(state, seat, copy.deepcopy(action))
    return state


def assert_plain(state: State) -> None:
    """State is plain data: it survives a msgpack round trip unchanged."""
    packed = msgpack.packb(state, use_bin_type=True)
    assert msgpack.unpackb(packed, raw=False, strict_map_key=False) == state


def assert_bytes_lack(data: bytes, secrets: Iterable[str]) -> None:
    for secret in secrets:
        assert secret.encode() not in data, f"{secret!r} leaked into {data!r}"


def assert_hidden_from_others(
    game: Game,
    players: list[str],
    options: dict | None,
    log_a: Sequence[LogEntry],
    log_b: Sequence[LogEntry],
    seat: int | None,
    knowers: Iterable[int] = (),
) -> None:
    """Two logs that differ only in something `seat` (and `knowers`) may know.

    The views of `seat` must differ (so the check can fail), and the views of every other
    seat and of the table must be byte-identical, as must the public events. `seat=None` checks
    a secret nobody knows yet (the card aside): then every view must be identical.
    """
    a = game.setup(list(players), copy.deepcopy(options))
    b = game.setup(list(players), copy.deepcopy(options))
    for (seat_a, act_a), (seat_b, act_b) in zip(log_a, log_b, strict=True):
        events_a = game.apply(a, seat_a, copy.deepcopy(act_a))
        events_b = game.apply(b, seat_b, copy.deepcopy(act_b))
        assert msgpack.packb(events_a) == msgpack.packb(events_b), "public events differ"
    know = set(knowers) | ({seat} if seat is not None else set())
    if seat is not None:
        assert view_bytes(game, a, seat) != view_bytes(game, b, seat), "the secret is not a secret"
    for other in [None, *range(len(players))]:
        if other in know:
            continue
        assert view_bytes(game, a, other) == view_bytes(game, b, other), f"seat {other} can tell"


def legal_moves(game: Game, state: State, n_players: int) -> list[LogEntry]:
    """Every move any seat may take now, the host's timeout included."""
    moves = [(seat, act) for seat in range(n_players) for act in game.legal_actions(state, seat)]
    if (timer := game.timer(state)) is not None:
        moves.append((HOST, timer[1]))
    return moves


def random_playout(
    game: Game,
    players: list[str],
    options: dict | None,
    rng: random.Random,
    max_steps: int = 10_000,
    check_illegal: bool = True,
) -> tuple[State, list[LogEntry]]:
    """Play random legal moves until the game is over; returns the final state and its log.

    Along the way: the state stays plain data, every view encodes, and an illegal action
    (a move of a seat that may not move) leaves the state untouched.
    """
    state = game.setup(list(players), copy.deepcopy(options))
    log: list[LogEntry] = []
    for _ in range(max_steps):
        if game.result(state) is not None:
            return state, log
        spec = game.chance(state)
        if spec is not None:
            assert_general_chance(spec)
            move: LogEntry = (CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
        else:
            moves = legal_moves(game, state, len(players))
            assert moves, "nothing can happen, yet the game is not over"
            move = rng.choice(moves)
            if check_illegal and rng.random() < 0.05:
                _assert_illegal_is_harmless(game, state, len(players), rng)
        game.apply(state, move[0], copy.deepcopy(move[1]))
        log.append(move)
        for seat in [None, *range(len(players))]:
            view_bytes(game, state, seat)
    raise AssertionError(f"no end after {max_steps} steps")


def assert_general_chance(spec: dict) -> None:
    """A chance the host can draw for without knowing the game (`games.base.sample_chance`)."""
    kind = spec.get("kind")
    if kind == "shuffle":
        assert isinstance(spec.get("size"), int) and spec["size"] >= 0, spec
    elif kind in ("dice", "die"):
        assert isinstance(spec.get("faces"), int) and spec["faces"] >= 1, spec
        assert kind == "die" or isinstance(spec.get("dice"), list), spec
    else:
        raise AssertionError(f"a chance the host cannot draw for: {spec}")


def _assert_illegal_is_harmless(
    game: Game, state: State, n_players: int, rng: random.Random
) -> None:
    before = copy.deepcopy(state)
    seat = rng.randrange(n_players)
    legal = game.legal_actions(state, seat)
    for junk in ({"type": "no_such_action"}, {"type": "chance", "outcome": [0]}):
        if junk in legal:
            continue
        try:
            game.apply(state, seat, junk)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{junk} from seat {seat} was accepted")
        assert state == before, "an illegal action changed the state"
