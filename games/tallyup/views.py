"""What each seat may know: the table's view and a player's view of a Tally Up! game.

This is the one place state leaves the rules. The only secret in Tally Up! is a sealed IN/OUT
choice before its reveal: the table and every other seat see *that* a player locked in
(`locked`), never *which* side; only the player's own view carries it (`token`). Views are
fresh plain data, so nothing a screen does to one can reach the state.
"""

from __future__ import annotations

from games.base import State
from games.rulebook import copy_result
from games.tallyup.dice import UP_DIE, bonus_count, face_dict
from games.tallyup.rules import OVER, copy_events, is_player, legal_types, unused_dice


def view(state: State, seat: int | None) -> dict:
    table = public_view(state)
    if seat is None:
        return table
    return {**table, **private_view(state, seat)}


def private_view(state: State, seat: int) -> dict:
    """What `seat`'s view adds to the table's (`view(state, seat)` is the two together)."""
    if not is_player(state, seat):
        raise ValueError(f"no seat {seat!r} at this table")
    return {
        "seat": seat,
        "token": state["sealed"][seat],
        "legal": legal_types(state, seat),
    }


def public_view(state: State) -> dict:
    options = state["options"]
    up_face = state["up_die"]
    shout = state["shout"]
    return {
        "game": "tallyup",
        "phase": state["phase"],
        "over": state["phase"] == OVER,
        "players": list(state["players"]),
        "scores": list(state["scores"]),
        "target": options["target"],
        "once_each": options["once_each"],
        "high_stakes": options["high_stakes"],
        "choice_seconds": options["choice_seconds"],
        "shout_seconds": options["shout_seconds"],
        "round": state["round"],
        "extra_round": state["extra_rounds"],
        "active": state["active"],
        "dice": list(state["dice"]),
        "unused": unused_dice(state) if state["dice"] else [],
        "running_total": state["running_total"],
        "out": list(state["out"]),
        "locked": [side is not None for side in state["sealed"]],
        "away": list(state["away"]),
        "choice_for": state["choice_for"],
        "last_roll": _rolled(state["last_roll"]),
        "main_stars": state["main_stars"],
        "up_die": up_face,
        "up_die_label": None if up_face is None else UP_DIE[up_face],
        "bonus_count": bonus_count(up_face),
        "bonus_dice": list(state["bonus_dice"]),
        "bonus": _rolled(state["bonus_roll"]),
        "shout": None if shout is None else dict(shout),
        "history": [list(scores) for scores in state["history"]],
        "last_events": copy_events(state["last_events"]),
        "result": result(state) if state["result"] else None,
    }


def result(state: State) -> dict | None:
    return copy_result(state["result"])


def _rolled(dice: list[dict]) -> list[dict]:
    return [face_dict(die["colour"], die["face"]) for die in dice]
