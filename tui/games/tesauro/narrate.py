"""Tesauro's public events in plain words, for the feed of both apps, and what a judgement
did: whom the Sage believed, who the Genius was, whether the Genius gave anything."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tui.games.tesauro.words import category_name, joined, quoted, who
from tui.i18n import t


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    """One plain sentence for a public event (never a role, nor anything secret: events
    carry nothing secret)."""
    kind = event.get("type")
    seat = event.get("seat")
    if kind == "shuffled":
        return t("tesauro.ev.shuffled")
    if kind == "turn":
        key = "tesauro.ev.turn_tie" if event.get("tie_break") else "tesauro.ev.turn"
        return t(
            key,
            turn=event["turn"],
            sapiente=who(names, event["sapiente"]),
            reader=who(names, event["reader"]),
        )
    if kind == "word":
        key = "tesauro.ev.word_auto" if event.get("auto") else "tesauro.ev.word"
        return t(key, name=who(names, seat), word=quoted(event["word"], 60))
    if kind == "tile":
        if event.get("released"):
            return t(
                "tesauro.ev.tile_swap",
                name=who(names, seat),
                category=category_name(event["category"]),
                released=category_name(event["released"]),
            )
        return t(
            "tesauro.ev.tile", name=who(names, seat), category=category_name(event["category"])
        )
    if kind in ("given", "ready"):
        return t(f"tesauro.ev.{kind}", name=who(names, seat))
    if kind == "thought":
        return t("tesauro.ev.thought_timeout" if event.get("timeout") else "tesauro.ev.thought")
    if kind == "speaking":
        return t("tesauro.ev.speaking", name=who(names, seat))
    if kind == "spoke":
        category = category_name(event.get("tile"))
        if event.get("text") is None:  # spoken aloud, or the clock's move for a silent one
            key = "tesauro.ev.spoke_clocked" if event.get("played_for") else "tesauro.ev.spoke"
            return t(key, name=who(names, seat), category=category)
        return t(
            "tesauro.ev.spoke_text",
            name=who(names, seat),
            category=category,
            text=quoted(event["text"]),
        )
    if kind == "revealed":
        n = len(event.get("defs") or [])
        key = "tesauro.ev.revealed_timeout" if event.get("timeout") else "tesauro.ev.revealed"
        return t(key, n=n)
    if kind == "judged":
        return t("tesauro.ev.judged", word=quoted(event["word"], 60)) + " " + verdict(event, names)
    if kind == "tie_break":
        return t("tesauro.ev.tie_break", round=event["round"], names=joined(names, event["tied"]))
    if kind == "deck_empty":
        return t("tesauro.ev.deck_empty")
    if kind == "game_over":
        scores = event.get("scores") or []
        count = ", ".join(f"{who(names, s)} {n}" for s, n in enumerate(scores))
        return t("tesauro.ev.final_count", count=count)
    return None  # away / back: the room says those


def no_move(event: dict[str, Any]) -> bool:
    """Whether a move the clock made for a seat is no move: a spoken definition's `spoke`
    (no text) — the speaker, silent, let the time run out, and nobody spoke for them."""
    return event.get("type") == "spoke" and event.get("text") is None


def nudge_words(view: dict[str, Any]) -> str | None:
    """A nudge while a definition is said aloud hurries its speaker, and no bot speaks for
    them: their time runs out (`no_move`), and the story says that, not "the bot moves"."""
    return "tesauro.nudged_speaker" if view.get("phase") == "speak" else None


def verdict(last: dict[str, Any], names: list[str]) -> str:
    """What the Sage's judgement did, and who the Genius was: "Ann believed Cid: Cid takes
    the card. The Genius was Bob." """
    sapiente = who(names, last["sapiente"])
    brillante = last.get("brillante")
    if last.get("crazy"):
        if last.get("right"):
            return t("tesauro.verdict.crazy_right", sapiente=sapiente)
        key = "crazy_silent" if silent_genius(last) else "crazy_wrong"
        return t(f"tesauro.verdict.{key}", sapiente=sapiente, brillante=who(names, brillante))
    picked = who(names, last.get("pick"))
    if last.get("right"):
        return t("tesauro.verdict.right", sapiente=sapiente, brillante=picked)
    line = t("tesauro.verdict.fooled", sapiente=sapiente, picked=picked, n=pick_number(last))
    if brillante is None:
        return line + " " + t("tesauro.verdict.aside")
    if silent_genius(last):
        return line + " " + t("tesauro.verdict.silent", brillante=who(names, brillante))
    return line + " " + t("tesauro.verdict.genius_was", brillante=who(names, brillante))


def silent_genius(last: dict[str, Any]) -> bool:
    """A Genius played this turn and gave no definition (time ran out, or away)."""
    brillante = last.get("brillante")
    return brillante is not None and all(
        entry.get("seat") != brillante for entry in last.get("defs") or []
    )


def pick_number(last: dict[str, Any]) -> int | str:
    """The number the Sage pressed: the place of the picked definition."""
    for index, entry in enumerate(last.get("defs") or []):
        if entry.get("seat") == last.get("pick"):
            return index + 1
    return "?"


def clocked(heard: Iterable[dict[str, Any]], turn: int | None) -> set[tuple[int, int]]:
    """(turn, seat) of each spoken definition the clock gave: the speaker, there but silent,
    let the turn clock or the host's nudge run out, and the bot's move for them was `done` —
    their `spoke` (no text) right after a `played_for` of theirs. Nothing in a view says it
    (the view's `defs` show it as said aloud), so it is read from the events heard, in turn
    `turn` (the view's) and the turns before it, back to the game's start."""
    events = list(heard)
    found: set[tuple[int, int]] = set()
    current = turn
    for index in range(len(events) - 1, 0, -1):
        event = events[index]
        kind = event.get("type")
        if kind in ("shuffled", "game_started", "game_ended") or current is None:
            break  # (this game's first event, or another game's)
        if kind == "turn":
            begun = event.get("turn")
            current = begun - 1 if isinstance(begun, int) else None
            continue
        before = events[index - 1]
        if (
            kind == "spoke"
            and event.get("text") is None
            and before.get("type") == "played_for"
            and before.get("seat") == event.get("seat")
            and isinstance(event.get("seat"), int)
        ):
            found.add((current, event["seat"]))
    return found
