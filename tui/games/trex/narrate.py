"""T-Rex's public events in plain words, for the feed of both apps: the matches and their
outcome, the bye-bye, the reshuffles, the skips, the empty piles, the tie-break vote and the
two-player call."""

from __future__ import annotations

from typing import Any

from tui.games.trex.words import joined, who
from tui.i18n import t
from tui.text import sentence


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    kind = event.get("type")
    if kind == "match":  # the table's banner has no full stop; the story's line does
        return sentence(match_sentence(event, names))
    if kind == "byebye":
        return sentence(t("trex.ev.byebye", gone=event["gone"], came=event["came"]))
    if kind == "reshuffled":
        deck = event["deck"]
        if deck == "numbers":
            return t("trex.ev.reshuffled_numbers")
        return t("trex.ev.reshuffled_actions", colour=t(f"trex.colour.{deck.split('_')[0]}"))
    if kind == "skipped":
        return t("trex.ev.skipped", name=who(names, event["seat"]))
    if kind == "pile_empty":
        piles = ", ".join(t(f"trex.pile.{p}") for p in event["piles"])
        return t("trex.ev.pile_empty", piles=piles)
    if kind == "tie_break":
        return t("trex.ev.tie_break", names=joined(names, event["tied"]))
    if kind == "voted":
        return t("trex.ev.voted", name=who(names, event["seat"]))
    if kind == "vote_result":
        key = "trex.ev.vote_result" if any(event.get("tally") or ()) else "trex.ev.vote_none"
        return t(key, names=joined(names, event["winners"]))
    if kind == "coop_called":
        return t("trex.ev.coop_called", name=who(names, event["seat"]))
    if kind == "coop_revealed":
        key = "trex.ev.coop_right" if event["right"] else "trex.ev.coop_wrong"
        said = t(key, a=event["level_a"], b=event["level_b"], moved=event["moved"])
        calls = event.get("calls") or ()
        if event["right"] or len(calls) != 2:
            return said
        # a wrong call ends the game: who called what ("5 and 10" alone blamed nobody)
        called = [
            t(
                "trex.ev.called",
                name=who(names, seat),
                call=t(f"trex.key.{'match' if c else 'no_match'}"),
            )
            for seat, c in zip((event.get("a", 0), event.get("b", 1)), calls, strict=True)
        ]
        return f"{said} ({'; '.join(called)})"
    return None


def match_sentence(match: dict[str, Any], names: list[str]) -> str:
    """ "Ann ⇄ Bob: 7 and 7 — exact! +2 each"."""
    return t(
        f"trex.ev.match_{match['outcome']}",
        a=who(names, match["a"]),
        b=who(names, match["b"]),
        la=match["level_a"],
        lb=match["level_b"],
    )
