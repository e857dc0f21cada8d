"""The rules of Tally Up! as pure functions over plain state (see the package docstring).

`apply` is the only way the state changes. Every handler first validates everything it needs
— raising `IllegalAction` before touching anything — and only then mutates, so a refused
action leaves the state exactly as it was. The flow helpers below the handlers (`_open_choice`,
`_reveal`, `_end_round`, ...) never raise: they run after validation and chain into each other
the way a round unfolds on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from games.base import Action, Event, IllegalAction, Option, State
from games.rulebook import action_type, check_seat, mark_away, mark_back, not_int
from games.tallyup.dice import (
    COLOURS,
    DOUBLE,
    FACES,
    MINUS_100,
    PLUS_100,
    TALLY_DICE,
    UP_DIE,
    bonus_count,
    in_table_order,
)

# Phases. The three "*_rolling" phases wait for CHANCE; the others for a player or the host.
CHOOSE_DICE = "choose_dice"
"""The active player picks the round's three dice."""
ROLL = "roll"
"""The active player is to make a Main Roll."""
ROLLING = "rolling"
"""CHANCE: the Main Roll dice are in the air."""
SHOUT = "shout"
"""Tally Up! showed: the shout window is open."""
CHOICE = "choice"
"""Every IN player seals IN or OUT; `choice_for` says which reveal this is."""
UP_DIE_ROLL = "up_die"
"""The active player is to roll the Up Die."""
UP_ROLLING = "up_rolling"
"""CHANCE: the Up Die is in the air."""
BONUS_DICE = "bonus_dice"
"""The active player picks the dice of a +1 / +2 Bonus Roll."""
BONUS_ROLLING = "bonus_rolling"
"""CHANCE: the bonus dice are in the air."""
OVER = "over"

# Why a sealed choice is open.
BEFORE_UP_DIE = "up_die"
"""The choice before the Up Die (none in the high-stakes variant)."""
AFTER_ROLL = "reveal"
"""The reveal after a Main Roll (and its Up Die) resolved — in high stakes, the one choice."""

SIDES = ("in", "out")
SHOUT_POINTS = 200
TALLY_POINTS = 100
MAX_EXTRA_ROUNDS = 3

OPTIONS: tuple[Option, ...] = (
    Option("target", 2500, (500, 1000, 1500, 2000, 2500, 3000, 4000, 5000)),
    Option("once_each", False, (False, True)),
    Option("high_stakes", False, (False, True)),
    Option("choice_seconds", 30, (0, 10, 15, 20, 30, 45, 60, 90)),
    Option("shout_seconds", 10, (5, 10, 15, 20)),
    Option("turn_seconds", 90, (0, 60, 90, 120)),
)
"""The lobby's options, each with its default and the values the lobby cycles through."""

OPTION_DEFAULTS: dict[str, Any] = {option.key: option.default for option in OPTIONS}

HOST_ACTIONS = ("timeout", "away", "back")
"""Actions only the host's own seat sends; `chance` is CHANCE's, every other a player's."""


# --- setup -----------------------------------------------------------------------------------


def setup(players: list[str], options: dict | None, min_players: int, max_players: int) -> State:
    if not min_players <= len(players) <= max_players:
        raise ValueError(f"{min_players}..{max_players} players play Tally Up!, not {len(players)}")
    settings = _settings(options or {})
    n = len(players)
    state: State = {
        "players": [str(name) for name in players],
        "options": settings,
        "scores": [0] * n,
        "history": [],
        "round": 0,
        "extra_rounds": 0,
        "active": n - 1,  # _start_round moves it on to seat 0
        "away": [False] * n,
        "shout": None,
        "result": None,
        "last_events": [],
    }
    state["last_events"] = _start_round(state)
    return state


def _settings(options: dict) -> dict[str, Any]:
    """The known options with defaults filled in; other keys (such as `lang`) are not ours."""
    settings = {key: options.get(key, default) for key, default in OPTION_DEFAULTS.items()}
    if not_int(settings["target"]) or settings["target"] < 1:
        raise ValueError(f"target must be a positive whole number: {settings['target']!r}")
    for key in ("once_each", "high_stakes"):
        if not isinstance(settings[key], bool):
            raise ValueError(f"{key} must be true or false: {settings[key]!r}")
    for key in ("choice_seconds", "shout_seconds", "turn_seconds"):
        seconds = settings[key]
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
            raise ValueError(f"{key} must be a number of seconds: {seconds!r}")
    if settings["shout_seconds"] == 0:
        raise ValueError("the shout window needs a time limit")
    return settings


# --- the pending chance and the timer ----------------------------------------------------------


def chance(state: State) -> dict | None:
    phase = state["phase"]
    if phase == ROLLING:
        return {"kind": "dice", "dice": list(state["dice"]), "faces": FACES}
    if phase == BONUS_ROLLING:
        return {"kind": "dice", "dice": list(state["bonus_dice"]), "faces": FACES}
    if phase == UP_ROLLING:
        return {"kind": "die", "die": "up", "faces": FACES}
    return None


def timer(state: State) -> tuple[float, Action] | None:
    seconds = 0
    if state["phase"] == CHOICE:
        seconds = state["options"]["choice_seconds"]
    elif state["phase"] == SHOUT:
        seconds = state["options"]["shout_seconds"]
    # The phase in the action makes each countdown distinct (a shout window followed at once
    # by a sealed choice is two countdowns) and lets a late timeout be recognised as stale.
    return (seconds, {"type": "timeout", "phase": state["phase"]}) if seconds else None


def turn(state: State) -> tuple[int, float] | None:
    """The active player's move (choosing dice, rolling, the Up Die, bonus dice) and the turn
    time (`turn_seconds`, 0: none); a sealed choice or a shout window is no turn."""
    if state["phase"] not in _ACTIVE_MOVES:
        return None
    return state["active"], state["options"]["turn_seconds"]


# --- apply -----------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> list[Event]:
    kind = action_type(action, SHAPES)
    if state["phase"] == OVER:
        raise IllegalAction("game_over")
    check_seat(state, seat, kind, HOST_ACTIONS, is_player)
    events = _HANDLERS[kind](state, seat, action)
    state["last_events"] = copy_events(events)
    return events


def is_player(state: State, seat: Any) -> bool:
    return not not_int(seat) and 0 <= seat < len(state["players"])


# --- player actions --------------------------------------------------------------------------


def _choose_dice(state: State, seat: int, action: Action) -> list[Event]:
    _require_phase(state, CHOOSE_DICE)
    _require_active(state, seat)
    dice = _parse_dice(action.get("dice"), allowed=COLOURS, count=3)
    state["dice"] = dice
    state["phase"] = ROLL
    return [{"type": "dice_chosen", "seat": seat, "dice": list(dice)}]


def _roll(state: State, seat: int, action: Action) -> list[Event]:
    _require_phase(state, ROLL, UP_DIE_ROLL)
    _require_active(state, seat)
    if state["phase"] == ROLL:
        state["phase"] = ROLLING
        return [{"type": "rolling", "seat": seat, "roll": "main", "dice": list(state["dice"])}]
    state["phase"] = UP_ROLLING
    return [{"type": "rolling", "seat": seat, "roll": "up_die", "dice": []}]


def _bonus_dice(state: State, seat: int, action: Action) -> list[Event]:
    _require_phase(state, BONUS_DICE)
    _require_active(state, seat)
    count = bonus_count(state["up_die"])
    dice = _parse_dice(action.get("dice"), allowed=unused_dice(state), count=count)
    state["bonus_dice"] = dice
    state["phase"] = BONUS_ROLLING
    return [{"type": "bonus_dice", "seat": seat, "dice": list(dice)}]


def _token(state: State, seat: int, action: Action) -> list[Event]:
    """Seal (or re-seal) a side. The event is the same whatever the side, and whether it changed."""
    _require_phase(state, CHOICE)
    side = action.get("side")
    if side not in SIDES:
        raise IllegalAction("bad_side", side=side if isinstance(side, str) else None)
    if state["out"][seat]:
        raise IllegalAction("already_out")
    state["sealed"][seat] = side
    return [{"type": "locked", "seat": seat}, *_reveal_if_all_locked(state)]


def _shout(state: State, seat: int, action: Action) -> list[Event]:
    """The first shout the host receives wins; a later one learns it was late, and who won."""
    if state["phase"] != SHOUT:
        if state["shout"] is not None:
            raise IllegalAction("too_late", winner=state["shout"]["winner"])
        raise IllegalAction("no_tally_up")
    return _close_shout(state, winner=seat)


# --- host actions ----------------------------------------------------------------------------


def _timeout(state: State, seat: int, action: Action) -> list[Event]:
    if timer(state) is None:
        raise IllegalAction("no_timer")
    if action.get("phase", state["phase"]) != state["phase"]:
        raise IllegalAction("stale_timeout")
    if state["phase"] == SHOUT:
        return _close_shout(state, winner=None)
    return _reveal(state, timed_out=True)


def _away(state: State, seat: int, action: Action) -> list[Event]:
    """A dropped player counts as not locked in (rules: "Decisions for play over a network"):
    their lock goes, and the reveal waits for them — or for the timer, which keeps them IN."""
    who = mark_away(state, action, is_player)
    events: list[Event] = [{"type": "away", "seat": who}]
    if state["phase"] == CHOICE:
        state["sealed"][who] = None
    return events


# --- chance ----------------------------------------------------------------------------------


def _chance(state: State, seat: int, action: Action) -> list[Event]:
    spec = chance(state)
    if spec is None:
        raise IllegalAction("wrong_phase", phase=state["phase"])
    outcome = action.get("outcome")
    if state["phase"] == UP_ROLLING:
        if not _is_face(outcome):
            raise IllegalAction("bad_outcome")
        return _resolve_up_die(state, outcome)
    if not isinstance(outcome, list | tuple) or len(outcome) != len(spec["dice"]):
        raise IllegalAction("bad_outcome")
    if not all(_is_face(face) for face in outcome):
        raise IllegalAction("bad_outcome")
    rolled = [{"colour": c, "face": f} for c, f in zip(spec["dice"], outcome, strict=True)]
    if state["phase"] == ROLLING:
        return _resolve_main_roll(state, rolled)
    return _resolve_bonus_roll(state, rolled)


def _is_face(value: Any) -> bool:
    return not not_int(value) and 0 <= value < FACES


def _resolve_main_roll(state: State, rolled: list[dict]) -> list[Event]:
    stars, points, circle = _tally(rolled)
    state.update(last_roll=rolled, main_stars=stars, up_die=None, bonus_dice=[], bonus_roll=[])
    state["shout"] = None
    event: Event = {
        "type": "rolled",
        "seat": state["active"],
        "dice": [dict(die) for die in rolled],
        "stars": stars,
        "points": 0,
        "running_total": state["running_total"],
        "up_die_due": False,
    }
    if stars == 2:
        return [event, *_bust(state, stage="main")]
    if stars == 3:
        state["shout"] = {"open": True, "winner": None}
        state["phase"] = SHOUT
        return [event, {"type": "tally_up", "seat": state["active"]}]
    state["running_total"] += points
    event.update(points=points, running_total=state["running_total"], up_die_due=circle)
    if not circle:
        return [event, *_open_choice(state, AFTER_ROLL)]
    if state["options"]["high_stakes"]:
        state["phase"] = UP_DIE_ROLL
        return [event]
    return [event, *_open_choice(state, BEFORE_UP_DIE)]


def _resolve_up_die(state: State, face: int) -> list[Event]:
    state["up_die"] = face
    event: Event = {"type": "up_die", "seat": state["active"], "face": face, "label": UP_DIE[face]}
    count = bonus_count(face)
    if count:
        event["bonus"] = count
        if count == len(unused_dice(state)):
            state["bonus_dice"] = unused_dice(state)
            state["phase"] = BONUS_ROLLING
        else:
            state["phase"] = BONUS_DICE
        return [event]
    if face == MINUS_100:
        state["running_total"] -= 100
    elif face == PLUS_100:
        state["running_total"] += 100
    elif face == DOUBLE:
        state["running_total"] *= 2
    event["running_total"] = state["running_total"]
    return [event, *_open_choice(state, AFTER_ROLL)]


def _resolve_bonus_roll(state: State, rolled: list[dict]) -> list[Event]:
    """Stars of the Main Roll count too; circles on bonus dice call nothing."""
    stars, points, _circle = _tally(rolled)
    state["bonus_roll"] = rolled
    event: Event = {
        "type": "bonus_rolled",
        "seat": state["active"],
        "dice": [dict(die) for die in rolled],
        "stars": stars,
        "points": 0,
        "running_total": state["running_total"],
    }
    if stars + state["main_stars"] >= 2:
        return [event, *_bust(state, stage="bonus")]
    state["running_total"] += points
    event.update(points=points, running_total=state["running_total"])
    return [event, *_open_choice(state, AFTER_ROLL)]


def _tally(rolled: list[dict]) -> tuple[int, int, bool]:
    """(stars, points, any circle) of a set of rolled dice."""
    faces = [TALLY_DICE[die["colour"]][die["face"]] for die in rolled]
    return (
        sum(face.star for face in faces),
        sum(face.points for face in faces),
        any(face.circle for face in faces),
    )


# --- the flow of a round (called after validation; never raises) ------------------------------


def _close_shout(state: State, winner: int | None) -> list[Event]:
    """+200 to the first shout (IN, OUT or active alike), +100 to every other IN player."""
    events: list[Event] = []
    if winner is None:
        events.append({"type": "shout_closed"})
    else:
        state["scores"][winner] += SHOUT_POINTS
        events.append({"type": "shout", "seat": winner, "points": SHOUT_POINTS})
    others = [s for s in in_seats(state) if s != winner]
    for s in others:
        state["scores"][s] += TALLY_POINTS
    state["shout"] = {"open": False, "winner": winner}
    events.append({"type": "tally_bonus", "seats": others, "points": TALLY_POINTS})
    return events + _open_choice(state, AFTER_ROLL)


def _open_choice(state: State, purpose: str) -> list[Event]:
    if not in_seats(state):
        return _end_round(state)
    state.update(phase=CHOICE, choice_for=purpose, sealed=[None] * len(state["players"]))
    opened = {"type": "choice_open", "for": purpose, "seats": in_seats(state)}
    return [opened, *_reveal_if_all_locked(state)]


def _reveal_if_all_locked(state: State) -> list[Event]:
    """Reveal once every IN player has locked in. One who is away has not: the timer decides."""
    waiting = [s for s in in_seats(state) if state["sealed"][s] is None]
    return [] if waiting else _reveal(state, timed_out=False)


def _reveal(state: State, timed_out: bool) -> list[Event]:
    """All sealed tokens turn over at once; a player who never locked in stays IN."""
    staying = in_seats(state)
    leaving = [s for s in staying if state["sealed"][s] == "out"]
    total = state["running_total"]
    for s in leaving:
        state["scores"][s] += total
        state["out"][s] = True
    purpose = state["choice_for"]
    state.update(sealed=[None] * len(state["players"]), choice_for=None)
    event = {
        "type": "revealed",
        "out": leaving,
        "stay": [s for s in staying if s not in leaving],
        "banked": total,
        "timeout": timed_out,
    }
    if not in_seats(state):
        return [event, *_end_round(state)]
    state["phase"] = UP_DIE_ROLL if purpose == BEFORE_UP_DIE else ROLL
    return [event]


def _bust(state: State, stage: str) -> list[Event]:
    lost = in_seats(state)
    event = {"type": "bust", "stage": stage, "lost": lost, "amount": state["running_total"]}
    return [event, *_end_round(state)]


def _end_round(state: State) -> list[Event]:
    state["history"].append(list(state["scores"]))
    events: list[Event] = [
        {"type": "round_end", "round": state["round"], "scores": list(state["scores"])}
    ]
    verdict, seats = _verdict(state)
    if verdict == "win":
        return events + _finish(state, winners=seats)
    if verdict == "tie":
        state["extra_rounds"] += 1
        events.append({"type": "extra_round", "number": state["extra_rounds"], "tied": seats})
    return events + _start_round(state)


def _verdict(state: State) -> tuple[str, list[int]]:
    """("go_on" | "tie" | "win", seats), checked only at the end of a round.

    The game is decided once someone reached the target (or, in "Everyone rolls once", once
    every player has been active). From then on only the top matters: a tie on top plays
    another round, and after three extra rounds the tied players share the win.
    """
    scores = state["scores"]
    top = max(scores)
    leaders = [s for s, score in enumerate(scores) if score == top]
    if state["extra_rounds"] == 0:
        if state["options"]["once_each"]:
            decided = state["round"] >= len(state["players"])
        else:
            decided = top >= state["options"]["target"]
        if not decided:
            return "go_on", []
    if len(leaders) == 1 or state["extra_rounds"] >= MAX_EXTRA_ROUNDS:
        return "win", leaders
    return "tie", leaders


def _start_round(state: State) -> list[Event]:
    n = len(state["players"])
    state["round"] += 1
    state["active"] = (state["active"] + 1) % n
    state.update(
        phase=CHOOSE_DICE,
        running_total=0,
        dice=[],
        out=[False] * n,
        sealed=[None] * n,
        choice_for=None,
        last_roll=[],
        main_stars=None,
        up_die=None,
        bonus_dice=[],
        bonus_roll=[],
    )
    return [{"type": "round_start", "round": state["round"], "active": state["active"]}]


def _finish(state: State, winners: list[int]) -> list[Event]:
    scores = list(state["scores"])
    state["phase"] = OVER
    state["result"] = {
        "scores": scores,
        "winners": winners,
        "ranking": sorted(range(len(scores)), key=lambda s: -scores[s]),
        "shared": len(winners) > 1,
        "rounds": state["round"],
        "extra_rounds": state["extra_rounds"],
    }
    return [{"type": "game_over", "winners": list(winners), "scores": scores}]


# --- validation and small queries ------------------------------------------------------------


def _require_phase(state: State, *phases: str) -> None:
    if state["phase"] not in phases:
        raise IllegalAction("wrong_phase", phase=state["phase"])


def _require_active(state: State, seat: int) -> None:
    if seat != state["active"]:
        raise IllegalAction("not_your_turn", active=state["active"])


def _parse_dice(value: Any, allowed: tuple[str, ...] | list[str], count: int) -> list[str]:
    """`count` distinct colours out of `allowed`, in table order; anything else is `bad_dice`."""
    if not isinstance(value, list | tuple) or len(value) != count:
        raise IllegalAction("bad_dice", count=count)
    if not all(isinstance(c, str) and c in allowed for c in value) or len(set(value)) != count:
        raise IllegalAction("bad_dice", count=count)
    return in_table_order(list(value))


def copy_events(events: list[Event]) -> list[Event]:
    """A deep copy of events, which hold nothing deeper than a list of flat dicts (the dice).

    `copy.deepcopy` would do, but views are built for every seat after every action, and
    this is many times faster.
    """
    return [{key: _copy_value(value) for key, value in event.items()} for event in events]


def _copy_value(value: Any) -> Any:
    if type(value) is list:
        return [dict(item) if type(item) is dict else item for item in value]
    return value


def in_seats(state: State) -> list[int]:
    return [s for s, out in enumerate(state["out"]) if not out]


def unused_dice(state: State) -> list[str]:
    """The three dice the active player did not choose: the pool of every Bonus Roll."""
    return [c for c in COLOURS if c not in state["dice"]]


def _back(state: State, seat: int, action: Action) -> list[Event]:
    return mark_back(state, action, is_player)


SHAPES: dict[str, tuple[str, ...]] = {
    "choose_dice": ("dice",),
    "roll": (),
    "bonus_dice": ("dice",),
    "token": ("side",),
    "shout": (),
    "chance": ("outcome",),
    "timeout": ("phase",),
    "away": ("seat",),
    "back": ("seat",),
}
"""Every action type and the arguments the rules read (anything else is refused)."""


_HANDLERS: dict[str, Callable[[State, int, Action], list[Event]]] = {
    "choose_dice": _choose_dice,
    "roll": _roll,
    "token": _token,
    "bonus_dice": _bonus_dice,
    "shout": _shout,
    "chance": _chance,
    "timeout": _timeout,
    "away": _away,
    "back": _back,
}


# --- what a seat may do ----------------------------------------------------------------------


def legal_types(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` may take now: cheap enough to put in every view."""
    if state["phase"] == OVER or not is_player(state, seat) or state["away"][seat]:
        return []
    phase = state["phase"]
    types = ["shout"] if phase == SHOUT else []
    if phase == CHOICE and not state["out"][seat]:
        types.append("token")
    if seat == state["active"] and phase in _ACTIVE_MOVES:
        types.append(_ACTIVE_MOVES[phase])
    return types


_ACTIVE_MOVES = {
    CHOOSE_DICE: "choose_dice",
    ROLL: "roll",
    UP_DIE_ROLL: "roll",
    BONUS_DICE: "bonus_dice",
}
"""The move each phase waits for from the active player."""


def waiting_for(state: State) -> list[int]:
    """The seats the round waits on now: the active player's move, or the IN players who have
    not locked in during a sealed choice. (A shout window waits on nobody: it is a race.)"""
    phase = state["phase"]
    if phase in _ACTIVE_MOVES:
        return [state["active"]]
    if phase == CHOICE:
        return [s for s in in_seats(state) if state["sealed"][s] is None]
    return []


def moment(state: State, seat: int) -> tuple:
    """Which decision a seat's key is about: a second `roll` pressed for the Main Roll must
    not become the Up Die roll (`games.base.Game.moment`). Re-sealing a side is the same
    moment, so a player may change their mind fast."""
    return (state["phase"], state["round"], state["running_total"], state["up_die"])


def legal_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    for kind in legal_types(state, seat):
        if kind == "choose_dice":
            actions += [{"type": kind, "dice": list(pick)} for pick in combinations(COLOURS, 3)]
        elif kind == "bonus_dice":
            count = bonus_count(state["up_die"])
            picks = combinations(unused_dice(state), count)
            actions += [{"type": kind, "dice": list(pick)} for pick in picks]
        elif kind == "token":
            # Sealing the side already sealed changes nothing: a locked player may only switch.
            sealed = state["sealed"][seat]
            actions += [{"type": kind, "side": side} for side in SIDES if side != sealed]
        else:
            actions.append({"type": kind})
    return actions
