"""One game being played at a table: its rules, state and log; chance drawn as the host draws
it; each seat's moment (what its decision is about now), against which an action made from an
older view is `stale`; and the seats the game has been told are away.

It knows no seats, sockets or clocks: the room checks who may act, says which version the
table is at, and tells everyone of what a move changed."""

from __future__ import annotations

import copy
import logging
import random
from typing import Any

from games.base import CHANCE, HOST, GameBase, IllegalAction, State, sample_chance

log = logging.getLogger(__name__)

Entry = list[Any]
"""A log entry: [seat, action] (CHANCE and HOST are seats too)."""


HOST_ONLY = ("chance", "timeout", "away", "back", "left")
"""Moves only the host makes (CHANCE's and HOST's): a seat that sends one is `not_yours`."""


class ReplayError(Exception):
    """A log that does not replay: the message says which move and why."""


class Play:
    def __init__(
        self, game: GameBase, names: list[str], options: dict[str, Any], rng: random.Random
    ) -> None:
        self.game = game
        self.names = list(names)
        self.options = copy.deepcopy(options)
        self.rng = rng
        self.state: State = game.setup(list(names), copy.deepcopy(options))
        self.log: list[Entry] = []
        self.held_away: set[int] = set()
        """Seats the game itself has been told are away: the `away` moves of HOST it took,
        and no `back` since (live or replayed, the same rule)."""
        self.moments: dict[int, tuple[Any, int]] = {}
        """seat -> (its moment, the version of the table it began at)."""

    @classmethod
    def replayed(
        cls,
        game: GameBase,
        names: list[str],
        options: dict[str, Any],
        rng: random.Random,
        entries: list[Entry],
    ) -> Play:
        """The game as its log left it. A log that does not replay is a ReplayError saying
        which move, never another exception."""
        try:
            play = cls(game, names, options, rng)
        except Exception as exc:  # options the game refuses
            raise ReplayError(f"the saved game cannot be set up: {exc}") from exc
        for number, (seat, action) in enumerate(entries, 1):
            try:
                game.apply(play.state, seat, action)
            except IllegalAction as exc:
                raise ReplayError(
                    f"move {number} of the saved game is refused ({exc.code})"
                ) from exc
            except Exception as exc:  # a damaged action may upset a game in any way
                raise ReplayError(
                    f"move {number} of the saved game does not replay ({type(exc).__name__})"
                ) from exc
            play._told_presence(seat, action)
        play.log = entries
        return play

    def told(self, kind: str, seat: int) -> list[dict[str, Any]]:
        """The game told that `seat` is away or back (`kind`), its own echo of it left out:
        the room has already said so."""
        events = self.host_move({"type": kind, "seat": seat})
        return [e for e in events if e.get("type") not in ("away", "back")]

    def gone(self, seat: int) -> list[dict[str, Any]] | None:
        """The game told that `seat`'s player left it for good (HOST `left`): what followed
        (the game may be over); None for a game that takes no `left`."""
        logged = len(self.log)
        events = self.host_move({"type": "left", "seat": seat})
        return events if len(self.log) > logged else None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know: its own view if it plays, else the table's."""
        plays = seat is not None and 0 <= seat < len(self.names)
        return self.game.view(self.state, seat if plays else None)

    def own_view(self, seat: int | None) -> dict[str, Any] | None:
        """What `seat`'s view adds to the table's; None for a seat that does not play."""
        if seat is None or not 0 <= seat < len(self.names):
            return None
        return self.game.private_view(self.state, seat)

    def waiting_for(self) -> list[int]:
        """The seats the game cannot go on without now."""
        return list(self.game.waiting_for(self.state))

    def act(
        self, seat: int, action: dict[str, Any], made_at: int | None, version: int
    ) -> list[dict[str, Any]]:
        """A seat's action at table `version`. `made_at`: the version of the view it was made
        from — one made before the seat's decision changed (or from a view that never was)
        is `stale`. Raises IllegalAction; the state is then unchanged and nothing logged."""
        if not 0 <= seat < len(self.names):
            raise IllegalAction("not_playing", "illegal.not_playing")
        if action.get("type") in HOST_ONLY:
            raise IllegalAction("not_yours", "illegal.not_yours")
        began = self.moments.get(seat)
        if made_at is not None and (
            made_at > version or (began is not None and made_at < began[1])
        ):
            raise IllegalAction("stale", "illegal.stale", version=began[1] if began else 0)
        try:
            events = self.game.apply(self.state, seat, action)
        except IllegalAction:
            raise
        except Exception:
            # a rule that fails half-way may have changed the state: put it back as the log
            # has it, so one odd action cannot wedge the table (the caller says `internal`)
            log.exception("the %s rules failed on a %r action", self.game.id, action.get("type"))
            self.state = self._state_after(self.log)
            raise
        self.log.append([seat, action])
        return events + self.run_chance()

    def host_move(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A move of the HOST seat (a timeout, someone away or back); a game may refuse the
        moves it does not care about: nothing happens then."""
        try:
            events = self.game.apply(self.state, HOST, action)
        except IllegalAction:
            return []
        self.log.append([HOST, action])
        self._told_presence(HOST, action)
        return events + self.run_chance()

    def run_chance(self) -> list[dict[str, Any]]:
        """Every draw the game asks for now, drawn as the host draws."""
        events: list[dict[str, Any]] = []
        while (spec := self.game.chance(self.state)) is not None:
            action = {"type": "chance", "outcome": sample_chance(spec, self.rng)}
            events += self.game.apply(self.state, CHANCE, action)
            self.log.append([CHANCE, action])
        return events

    def track_moments(self, players: int, version: int) -> None:
        """Each seat's moment, noting the version a new one began at."""
        for seat in range(players):
            moment = self.game.moment(self.state, seat)
            if (began := self.moments.get(seat)) is None or began[0] != moment:
                self.moments[seat] = (moment, version)

    def result(self) -> dict | None:
        return self.game.result(self.state)

    def _told_presence(self, seat: int, action: dict[str, Any]) -> None:
        if seat == HOST and action.get("type") in ("away", "back", "left"):
            target = action.get("seat")
            (self.held_away.discard if action["type"] == "back" else self.held_away.add)(target)

    def _state_after(self, entries: list[Entry]) -> State:
        state = self.game.setup(list(self.names), copy.deepcopy(self.options))
        for seat, action in entries:
            self.game.apply(state, seat, action)
        return state
