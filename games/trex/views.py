"""What each seat may know: the table's view and a player's view of a T-Rex game.

This is the one place state leaves the rules. The secrets of T-Rex are every number card a
player holds, every offer (known only to the two players involved until it is played), every
vote until the vote closes and every cooperative call until both have called. The public view
is built from public state only — token piles, active actions, the last resolved match, who has
voted or called — so it cannot carry a secret by accident; a player's view adds only what that
player knows. Views are fresh plain data, so nothing a screen does to one can reach the state.
"""

from __future__ import annotations

from games.base import State
from games.rulebook import copy_result
from games.trex.deck import COLOURS, SYMBOLS
from games.trex.rules import (
    OVER,
    card_of,
    copy_events,
    incoming,
    is_player,
    legal_types,
    scores,
    voters,
    words_of,
)


def view(state: State, seat: int | None) -> dict:
    table = public_view(state)
    if seat is None:
        return table
    return {**table, **private_view(state, seat)}


def private_view(state: State, seat: int) -> dict:
    """What `seat`'s view adds to the table's (`view(state, seat)` is the two together)."""
    if not is_player(state, seat):
        raise ValueError(f"no seat {seat!r} at this table")
    tie = state["tie"]
    coop = state["coop"]
    news = state["news"][seat]
    return {
        "seat": seat,
        "card": card_of(state, seat),
        "offers": {"out": state["offers"][seat], "in": incoming(state, seat)},
        "legal": legal_types(state, seat),
        "vote": None if tie is None else tie["votes"][seat],
        "call": None if coop is None else coop["calls"][seat],
        "news": None if news is None else _copy_news(news),
    }


def public_view(state: State) -> dict:
    texts = state["texts"]
    active = state["active"]
    return {
        "game": "trex",
        "phase": state["phase"],
        "over": state["phase"] == OVER,
        "players": list(state["players"]),
        "mode": "coop" if state["coop"] is not None else "compete",
        "lang": words_of(state["options"]),
        "vote_seconds": state["options"]["vote_seconds"],
        "scores": scores(state),
        "good": list(state["good"]),
        "bad": list(state["bad"]),
        "pool": dict(state["pool"]),
        "tokens": dict(state["tokens"]),
        "colours": list(COLOURS),
        "symbols": {c: SYMBOLS[c] for c in COLOURS},
        "actions": {c: None if active[c] is None else texts[c][active[c]] for c in COLOURS},
        "decks": {
            "numbers": len(state["numbers"]),
            "number_discard": len(state["number_discard"]),
            "actions": {c: len(state["action_decks"][c]) for c in COLOURS},
        },
        "away": list(state["away"]),
        "left": list(state["left"]),
        "last_match": _last_match(state),
        "tie_break": _tie_break(state),
        "coop": _coop(state),
        "last_events": copy_events(state["last_events"]),
        "result": result(state),
    }


def _last_match(state: State) -> dict | None:
    last = state["last_match"]
    if last is None:
        return None
    return {key: list(value) if type(value) is list else value for key, value in last.items()}


def _tie_break(state: State) -> dict | None:
    """Who is tied and what they perform; who has voted — for whom only once it closed."""
    tie = state["tie"]
    if tie is None:
        return None
    closed = tie["tally"] is not None
    return {
        "tied": list(tie["tied"]),
        "voters": voters(state),
        "colour": tie["colour"],
        "actions": list(tie["actions"]),
        "voted": [s for s, choice in enumerate(tie["votes"]) if choice is not None],
        "tally": list(tie["tally"]) if closed else None,
        "winners": list(tie["winners"]) if closed else None,
        "timeout": tie["timeout"],
    }


def _coop(state: State) -> dict | None:
    """The team's progress, and who has called — never what, until both have."""
    coop = state["coop"]
    if coop is None:
        return None
    return {
        "moved": coop["moved"],
        "goal": state["tokens"]["good"],
        "called": [call is not None for call in coop["calls"]],
    }


def _copy_news(news: dict) -> dict:
    return {key: dict(value) if type(value) is dict else value for key, value in news.items()}


def result(state: State) -> dict | None:
    return copy_result(state["result"])
