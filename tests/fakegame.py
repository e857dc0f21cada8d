"""Peek: a tiny game that exists only to test the platform. Never shipped.

Every player is dealt a secret card by a shuffle (a chance move). In turn, each player either
reveals their card (scoring its value) or passes; a turn that takes too long is passed by the
host's timer. The game ends when everyone has had a turn. Small as it is, it has what the room
must handle: hidden values, randomness, a countdown, away/back, and a bot.
"""

from __future__ import annotations

import random
from typing import Any

from games import CHANCE, HOST, IllegalAction, Option
from games.base import GameBase
from games.rulebook import action_type

CARDS = [f"secret-{n:02d}" for n in range(1, 21)]
SHAPES = {
    "reveal": (),
    "pass": (),
    "chance": ("outcome",),
    "timeout": ("step",),
    "away": ("seat",),
    "back": ("seat",),
}


def card_value(card: str) -> int:
    return int(card.split("-")[1])


class PeekBot:
    def act(self, view: dict, seat: int, rng: random.Random) -> tuple[float, dict] | None:
        if view["over"] or view["turn"] != seat:
            return None
        return 0.05, {"type": "reveal"}


class Peek(GameBase):
    id = "peek"
    min_players = 1
    max_players = 8
    options = (Option("turn_seconds", 5.0, (5.0, 0.3, 30.0)),)
    bots = {"plain": PeekBot}

    def setup(self, players: list[str], options: dict | None = None) -> dict[str, Any]:
        n = len(players)
        return {
            "players": list(players),
            "hands": [],
            "turn": 0,
            "step": 0,
            "scores": [0] * n,
            "revealed": [None] * n,
            "away": [False] * n,
            "turn_seconds": (options or {}).get("turn_seconds", 5.0),
        }

    def chance(self, state: dict) -> dict | None:
        if not state["hands"]:
            return {"kind": "shuffle", "deck": "cards", "size": len(CARDS)}
        return None

    def _over(self, state: dict) -> bool:
        return state["turn"] >= len(state["players"])

    def apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        kind = action_type(action, SHAPES)
        if seat == CHANCE and kind == "chance" and not state["hands"]:
            order = action["outcome"]
            state["hands"] = [CARDS[order[i]] for i in range(len(state["players"]))]
            return [{"type": "dealt"}]
        if seat == HOST and kind in ("away", "back"):
            state["away"][action["seat"]] = kind == "away"
            return []
        if not state["hands"] or self._over(state):
            raise IllegalAction("over")
        if seat == HOST and kind == "timeout" and action.get("step") == state["step"]:
            return self._next(state, {"type": "passed", "seat": state["turn"], "why": "timeout"})
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn")
        if kind == "reveal":
            card = state["hands"][seat]
            state["revealed"][seat] = card
            state["scores"][seat] += card_value(card)
            return self._next(state, {"type": "revealed", "seat": seat, "card": card})
        if kind == "pass":
            return self._next(state, {"type": "passed", "seat": seat, "why": "choice"})
        raise IllegalAction("unknown_action")

    def _next(self, state: dict, event: dict) -> list[dict]:
        state["turn"] += 1
        state["step"] += 1
        return [event]

    def view(self, state: dict, seat: int | None) -> dict:
        view = {
            "players": state["players"],
            "scores": state["scores"],
            "over": self._over(state),
            "turn": state["turn"],
            "revealed": state["revealed"],
            "away": state["away"],
        }
        if seat is not None and state["hands"]:
            view["card"] = state["hands"][seat]
        return view

    def timer(self, state: dict) -> tuple[float, dict] | None:
        if not state["hands"] or self._over(state):
            return None
        return state["turn_seconds"], {"type": "timeout", "step": state["step"]}

    def result(self, state: dict) -> dict | None:
        if not self._over(state):
            return None
        best = max(state["scores"])
        return {
            "scores": state["scores"],
            "winners": [i for i, s in enumerate(state["scores"]) if s == best],
        }

    def waiting_for(self, state: dict) -> list[int]:
        return [] if not state["hands"] or self._over(state) else [state["turn"]]

    def moment(self, state: dict, seat: int) -> tuple:
        return (state["turn"],)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if not state["hands"] or self._over(state) or seat != state["turn"]:
            return []
        return [{"type": "reveal"}, {"type": "pass"}]


PEEK = Peek()
