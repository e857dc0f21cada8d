"""The contract between the rules of a game and everything else.

A game is a set of pure functions over plain state. It never does I/O, never reads a clock and
never draws a random number: randomness is a move of the CHANCE seat, time is a move of the HOST
seat. So a game is fully described by `setup` plus its action log, and replaying the log gives
the same state — the save file, the resume and every test fixture rest on that.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

CHANCE = -1
"""The seat that resolves randomness: the host samples `game.chance(state)` and applies it."""

HOST = -2
"""The seat of the host itself: timeouts, and players going away and coming back."""

State = Any
"""Plain data (dicts, lists, str, int, float, bool, None) that round-trips through msgpack."""

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules forbid. The state is unchanged when this is raised.

    `code` is stable and machine-readable (it travels in the wire's `error` frame); `key` names
    the human message in the UI catalogues, with `params` to fill it in.
    """

    def __init__(self, code: str, key: str | None = None, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.key = key or f"illegal.{code}"
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.params!r})"


@dataclass(frozen=True)
class Option:
    """A host option of a game, shown and changed in the lobby.

    `choices` lists the allowed values in the order the lobby steps through them: numbers
    (0 often "off") in rising order, and the lobby stops at either end (`ordered`); other
    choices go round. The label of the option and of each value come from the UI catalogues
    (`option.<game>.<key>`).
    """

    key: str
    default: Any
    choices: tuple[Any, ...]

    @property
    def ordered(self) -> bool:
        """Numbers in rising order: a scale with two ends (← at 500 stays at 500; going
        round to 5000 surprised a host), not a ring."""
        numbers = all(type(c) in (int, float) for c in self.choices)
        return numbers and list(self.choices) == sorted(self.choices)


@runtime_checkable
class Bot(Protocol):
    """A policy that plays one seat from what that seat may know — its own view, nothing more."""

    def act(self, view: dict, seat: int, rng: random.Random) -> tuple[float, Action] | None:
        """The next action and how many seconds to wait before taking it; None: nothing to do."""


class GameBase:
    """The game contract, in code: what every game is made from. The parts every game must
    write raise NotImplementedError here; the optional ones have their defaults. The host and
    the apps call every part unconditionally: nobody asks a game whether it has one.

    The rules are pure functions over plain data (the state survives a msgpack round trip):
    randomness is a move of the CHANCE seat, time and presence moves of the HOST seat, so
    `setup` plus the action log *is* the game."""

    id: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    bots: dict[str, Callable[[], Bot]] = {}
    """Bot strengths by name ("easy", "normal", ...); empty when the game has no bots (an
    away seat then sits out)."""

    # --- what every game writes ---------------------------------------------------------

    def setup(self, players: list[str], options: dict | None = None) -> State:
        """The first state, for these players (by seat) and the lobby's options."""
        raise NotImplementedError

    def chance(self, state: State) -> dict | None:
        """The draw pending now, in general terms (`sample_chance`'s kinds), or None."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Changes `state` in place and returns the public events; an action the rules forbid
        raises IllegalAction and leaves the state untouched."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        """What `seat` may see (None: the table's view, what every screen may see)."""
        raise NotImplementedError

    def timer(self, state: State) -> tuple[float, Action] | None:
        """(seconds, the action HOST applies when they run out), or None.

        The host's clock starts when this first returns a given action and restarts when the
        action changes; so a new countdown must return a new action (e.g. with a step number).
        """
        raise NotImplementedError

    def result(self, state: State) -> dict | None:
        """None while the game is on; then `{"scores", "winners", ...}`."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Actions `seat` may take now (for a free-text action, one representative example).

        Used by random play-outs and bots; `apply` stays the authority on what is legal.
        """
        raise NotImplementedError

    def waiting_for(self, state: State) -> list[int]:
        """The seats the game cannot go on without now (whose turn it is, who has not locked
        in, who must still vote). The host shows them, and plays an away one with the game's
        bot once its grace time is over; moments everyone may act at will wait on nobody."""
        raise NotImplementedError

    def moment(self, state: State, seat: int) -> Any:
        """What `seat`'s decision is about now, as a comparable value (e.g. the phase and the
        turn). The host refuses an action made from a view older than the latest change of
        this value (`stale`): a key pressed twice must not become the next move."""
        raise NotImplementedError

    # --- what a game may write (the defaults) -------------------------------------------

    def turn(self, state: State) -> tuple[int, float] | None:
        """The one seat a turn waits on now and its turn time in seconds (0: none), or None
        where no turn waits (everyone acts at once, or the game's own `timer` runs). When the
        time runs out, the host has the game's bot make that one move for the seat, which
        keeps its player; the host's nudge (20 s) works at any moment that waits on someone
        and no `timer` runs, turn time or not. A game without bots has no turn time."""
        return None

    view_type: Any = None
    """The game's view as a `msgspec.Struct` (`games/<game>/wire.py`, tagged on `game`): the
    player's app decodes and checks the game's views with it. None: bounded plain maps
    (docs/PROTOCOL.md §3)."""
    event_type: Any = None
    """The union of the game's events, likewise (a `game_over` of it must take the room's
    `result` too, and an `away`/`back` must be the room's `{seat}`: they share a list and a
    tag). None: bounded plain maps."""
    order = 100
    """Where the lobby offers the game among the others (smaller first; then by id)."""
    takes_deck = False
    """Whether a group may bring its own content file (`hubbub host --deck`): `check_deck`
    then checks it before the table opens."""

    def private_view(self, state: State, seat: int) -> dict:
        """What `seat`'s view adds to the table's, so that `view(state, seat) ==
        view(state, None) | private_view(state, seat)` with no key of the table's changed:
        the host packs the table's part once for every seat. By default the two views are
        built and compared; a game that knows its private keys says them, cheaper."""
        table, full = self.view(state, None), self.view(state, seat)
        return {k: v for k, v in full.items() if k not in table or table[k] != v}

    def bot_view(self, state: State, seat: int) -> dict:
        """What a bot playing `seat` knows: by default the seat's view; a game may add the
        bot's own knowledge (Tesauro: words to bluff with). It never leaves the host."""
        return self.view(state, seat)

    carried_keys: frozenset[str] = frozenset()
    """The options `carried` may hand on: kept on the host and saved with the table, so a
    table resumed after its second game has them too (`check_carried` checks them then)."""

    def carried(self, state: State, options: dict) -> dict:
        """What a game hands on to the evening's next game at the same table, as options
        of its own (never the lobby's; `options` are this game's): by default nothing.
        Tesauro: the words that came up, never again a bot's bluff."""
        return {}

    def check_carried(self, key: str, value: object) -> None:
        """Raise ValueError (saying why) if `value` cannot be option `key` as `carried`
        hands it on — a save file is read back with it."""
        raise ValueError(f"{self.id} hands on no option {key!r}")

    def check_deck(self, path: str, lang: str) -> None:
        """A group's own content file, checked before the table opens: raises ValueError
        saying the file, line and field (only for a game that `takes_deck`)."""
        raise ValueError(f"{self.id} takes no deck file")


Game = GameBase
"""The type of a game, wherever one is passed (one class: the contract and its defaults)."""

GAMES_GROUP = "hubbub.games"
"""The entry-point group every game is found by (`pyproject.toml`'s
`[project.entry-points."hubbub.games"]`: the game's id = "module:object", its `GameBase`); a
game shipped as a distribution of its own adds itself there."""


def found_in(group: str, package: str) -> dict[str, str]:
    """What an entry-point `group` names, by name → where ("module" or "module:object"),
    without importing any of it — and the subpackages of `package` that no entry point
    names: this project's own games are found in a checkout that was never installed, with
    or without another game's distribution on the path. (The one way the rules, the screens
    and the words of every game are found.)"""
    import importlib
    import pkgutil
    from importlib.metadata import entry_points

    found = {entry.name: entry.value for entry in entry_points(group=group)}
    for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
        if module.ispkg:
            found.setdefault(module.name, f"{package}.{module.name}")
    return found


def game_entries() -> dict[str, str]:
    """Every game this installation has, by id → where it is, without importing any."""
    return found_in(GAMES_GROUP, "games")


class Registry(dict):
    """Every game by id, in the lobby's order (`GameBase.order`). The games are imported the
    first time anyone looks (`game_entries`), so that importing `games` for a helper costs
    nothing."""

    _loaded = False

    def _load(self) -> None:
        if Registry._loaded:
            return
        Registry._loaded = True
        import importlib

        for where in game_entries().values():
            module, _, name = where.partition(":")
            found = importlib.import_module(module)  # a game's package registers itself
            game = getattr(found, name) if name else None
            if game is not None and not dict.__contains__(self, game.id):
                register(game)
        ordered = sorted(dict.values(self), key=lambda g: (g.order, g.id))
        dict.clear(self)
        dict.update(self, {game.id: game for game in ordered})

    def __getitem__(self, key: str) -> Game:
        self._load()
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self._load()
        return super().__contains__(key)

    def __iter__(self):  # type: ignore[no-untyped-def]
        self._load()
        return super().__iter__()

    def __len__(self) -> int:
        self._load()
        return super().__len__()

    def get(self, key: str, default: Any = None) -> Any:
        self._load()
        return super().get(key, default)

    def keys(self):  # type: ignore[no-untyped-def]
        self._load()
        return super().keys()

    def values(self):  # type: ignore[no-untyped-def]
        self._load()
        return super().values()

    def items(self):  # type: ignore[no-untyped-def]
        self._load()
        return super().items()


GAMES: dict[str, GameBase] = Registry()
"""Every game by id: those the entry points name, this project's own, and any registered by
hand (a test's)."""


def register(game: GameBase) -> GameBase:
    """Add a game to `GAMES`: a `GameBase` (its optional parts then have their defaults)."""
    if not isinstance(game, GameBase):
        raise TypeError(f"{type(game).__name__} is not a GameBase: see docs/GAMES.md")
    if dict.__contains__(GAMES, game.id):
        raise ValueError(f"game {game.id!r} is registered twice")
    dict.__setitem__(GAMES, game.id, game)
    return game


def sample_chance(spec: dict, rng: random.Random) -> Any:
    """An outcome for a pending chance, as the host draws it (tests choose theirs instead).

    A game describes its chance (`Game.chance`) in general terms, so the host draws for any
    game without knowing its kinds; the spec may carry more of the game's own (which deck,
    which dice) for the game to read back:

    - `{"kind": "shuffle", "size": n}`: a permutation of `range(n)`;
    - `{"kind": "dice", "dice": [...], "faces": f}`: a face index in `range(f)` for each
      die listed, in order;
    - `{"kind": "die", "faces": f}`: one face index."""
    kind = spec["kind"]
    if kind == "shuffle":
        order = list(range(spec["size"]))
        rng.shuffle(order)
        return order
    if kind == "dice":
        return [rng.randrange(spec["faces"]) for _ in spec["dice"]]
    if kind == "die":
        return rng.randrange(spec["faces"])
    raise ValueError(f"unknown chance kind {kind!r}")
