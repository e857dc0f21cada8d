"""Small pure helpers every game's rules share: who may send what, and plain copies.

Each game keeps its own handlers, phases and codes; these are only the checks that read the
same in every game (an unknown action, a seat that may not send it, a player marked away).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Mapping
from types import ModuleType
from typing import Any

from games.base import CHANCE, HOST, Action, Event, GameBase, IllegalAction, State

IsPlayer = Callable[[State, Any], bool]


def not_int(value: Any) -> bool:
    """True for anything but a plain int (a bool is not a seat)."""
    return isinstance(value, bool) or not isinstance(value, int)


def action_type(action: Any, shapes: Mapping[str, Collection[str]]) -> str:
    """The action's `type`, or IllegalAction `unknown_action`; an argument the rules do not
    read is IllegalAction `unknown_field` — only what the rules read reaches the log (and the
    save file), so a long game's log stays small whatever a client sends."""
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in shapes:
        raise IllegalAction("unknown_action", action=kind if isinstance(kind, str) else None)
    for key in action:
        if key != "type" and key not in shapes[kind]:
            raise IllegalAction("unknown_field", field=str(key)[:32])
    return kind


def check_seat(
    state: State,
    seat: Any,
    kind: str,
    host_actions: Collection[str],
    is_player: IsPlayer,
) -> None:
    """HOST's moves from HOST, chance from CHANCE, the rest from a player who is here."""
    if kind in host_actions:
        if seat != HOST:
            raise IllegalAction("not_host")
    elif kind == "chance":
        if seat != CHANCE:
            raise IllegalAction("not_chance")
    elif not is_player(state, seat):
        raise IllegalAction("bad_seat", seat=None if not_int(seat) else seat)
    elif state["away"][seat]:
        raise IllegalAction("away", seat=seat)


def printable_line(text: str) -> str:
    """Text from a player made safe to show literally, on one line: tabs and line breaks become
    spaces, control, escape and invisible formatting characters go, spaces are collapsed."""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in "\t\n\r":
            kept.append(" ")
        elif category[0] != "C" and category not in ("Zl", "Zp"):
            kept.append(char)
    return " ".join("".join(kept).split())


def copy_result(result: dict | None) -> dict | None:
    """A result as views carry it: fresh lists, so no screen can reach the state."""
    if result is None:
        return None
    return {key: list(value) if isinstance(value, list) else value for key, value in result.items()}


def seat_argument(state: State, action: Action, key: str, is_player: IsPlayer) -> int:
    """The seat an action names in `key`, or IllegalAction `bad_seat`."""
    value = action.get(key)
    if not is_player(state, value):
        raise IllegalAction("bad_seat", seat=None if not_int(value) else value)
    return value


def mark_away(state: State, action: Action, is_player: IsPlayer) -> int:
    """HOST's `away {seat}`: the seat is marked away (`already_away` if it was)."""
    who = seat_argument(state, action, "seat", is_player)
    if state["away"][who]:
        raise IllegalAction("already_away", seat=who)
    state["away"][who] = True
    return who


def mark_back(state: State, action: Action, is_player: IsPlayer) -> list[Event]:
    """HOST's `back {seat}`: the seat is here again (`not_away` if it was not away)."""
    who = seat_argument(state, action, "seat", is_player)
    if not state["away"][who]:
        raise IllegalAction("not_away", seat=who)
    state["away"][who] = False
    return [{"type": "back", "seat": who}]


def is_permutation(value: Any, size: int) -> bool:
    """A chance outcome for a shuffle of `size`: every index 0..size-1 once (no bools)."""
    if not isinstance(value, list | tuple) or len(value) != size:
        return False
    return not any(not_int(i) for i in value) and sorted(value) == list(range(size))


class ModuleGame(GameBase):
    """A `Game` whose rules live in a module `rules` (setup, chance, apply, timer,
    legal_actions, waiting_for, moment; `turn` if it has turns) and whose views live in a
    module `views` (view, result): the thin face every shipped game puts on them. Subclasses
    set `id`, the player counts, `options`, `bots`, `rules` and `views`."""

    rules: ModuleType
    views: ModuleType

    def setup(self, players: list[str], options: dict | None = None) -> State:
        return self.rules.setup(players, options, self.min_players, self.max_players)

    def chance(self, state: State) -> dict | None:
        return self.rules.chance(state)

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        return self.rules.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict:
        return self.views.view(state, seat)

    def private_view(self, state: State, seat: int) -> dict:
        return self.views.private_view(state, seat)

    def timer(self, state: State) -> tuple[float, Action] | None:
        return self.rules.timer(state)

    def result(self, state: State) -> dict | None:
        return self.views.result(state)

    def turn(self, state: State) -> tuple[int, float] | None:
        turn = getattr(self.rules, "turn", None)
        return turn(state) if turn is not None else None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return self.rules.legal_actions(state, seat)

    def waiting_for(self, state: State) -> list[int]:
        return self.rules.waiting_for(state)

    def moment(self, state: State, seat: int) -> Any:
        return self.rules.moment(state, seat)
