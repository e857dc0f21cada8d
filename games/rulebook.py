"""Small pure helpers every game's rules share: who may send what, and plain copies.

Each game keeps its own handlers, phases and codes; these are only the checks that read the
same in every game (an unknown action, a seat that may not send it, a player marked away).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from games.base import CHANCE, HOST, IllegalAction, State


def not_int(value: Any) -> bool:
    """True for anything but a plain int (a bool is not a seat)."""
    return isinstance(value, bool) or not isinstance(value, int)


def action_type(action: Any, known: Collection[str]) -> str:
    """The action's `type`, or IllegalAction `unknown_action`."""
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in known:
        raise IllegalAction("unknown_action", action=kind if isinstance(kind, str) else None)
    return kind


def check_seat(
    state: State,
    seat: Any,
    kind: str,
    host_actions: Collection[str],
    is_player: Callable[[State, Any], bool],
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


def copy_result(result: dict | None) -> dict | None:
    """A result as views carry it: fresh lists, so no screen can reach the state."""
    if result is None:
        return None
    return {key: list(value) if isinstance(value, list) else value for key, value in result.items()}
