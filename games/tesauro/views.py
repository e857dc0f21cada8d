"""What each seat may know: the table's view and a player's view of a Tesauro game.

This is the one place state leaves the rules. The secrets of Tesauro: each scholar's role and
the card aside (until the turn's reveal), the entry in play — its definition and category,
known to the scholars, never to the Sapiente or the table until the reveal; its paraphrase,
the Brillante's alone (never revealed) — the other word of the drawn card (the reader's
alone), every typed definition until all are revealed, the entries' parts of speech (the
bots' only), and the pool of entries kept out of the deck for the bots' bluffs (nobody's,
ever). The public view is built from public state only; a player's view adds what that player
knows.
"""

from __future__ import annotations

from games.base import State
from games.rulebook import copy_result
from games.tesauro.deck import CATEGORIES, pos_of
from games.tesauro.rules import (
    BRILLANTE,
    CHOOSE,
    JUDGE,
    OVER,
    SAPIENTE,
    SPEAK,
    allowed_tiles,
    copy_events,
    copy_last,
    current_entry,
    is_player,
    legal_types,
    round_of,
    speaker,
    totals,
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
    role = state["roles"][seat]
    entry = current_entry(state)
    scholar = role is not None and role != SAPIENTE
    reader = seat == state["reader"] and state["phase"] == CHOOSE
    brillante = role == BRILLANTE and entry is not None
    return {
        "seat": seat,
        "role": role,
        "entry": _shown(entry) if scholar and entry is not None else None,
        "paraphrase": entry.get("paraphrase") if brillante else None,
        "choices": [_shown(e) for e in state["cards"][state["card"]]] if reader else None,
        "tile": state["tiles"][seat],
        "text": state["texts"][seat],
        "allowed": allowed_tiles(state, seat),
        "legal": legal_types(state, seat),
    }


def _shown(entry: dict) -> dict:
    """An entry as a player's screen shows it: the word, its tile, its definition. Its
    paraphrase — the same meaning as a person says it, the bot Genius's line — is the
    Brillante's own key `paraphrase`, so that a human Genius has the voice the bots bluff in
    (not only the card's dictionary text to go by)."""
    return {"word": entry["word"], "category": entry["category"], "definition": entry["definition"]}


def public_view(state: State) -> dict:
    options = state["options"]
    entry = current_entry(state)
    phase = state["phase"]
    tie = state["tie"]
    # typed definitions are public once revealed (judge); spoken ones as they are spoken
    defs = [dict(d) for d in state["defs"]] if phase in (JUDGE, SPEAK) else []
    return {
        "game": "tesauro",
        "phase": phase,
        "over": phase == OVER,
        "players": list(state["players"]),
        "lang": options["lang"],
        "words": words_of(options),
        "mode": options["mode"],
        "think_seconds": options["think_seconds"],
        "rounds": options["rounds"],
        "turn": state["turn"],
        "turns": state["turns"],
        "round": round_of(state),
        "sapiente": state["sapiente"],
        "reader": state["reader"],
        "order": list(state["order"]),
        "word": None if entry is None or phase == OVER else entry["word"],
        "categories": list(state["tiles"]),
        "given": list(state["given"]),
        "speaker": speaker(state),
        "speakers": list(state["speakers"]) if phase == SPEAK else [],
        "defs": defs,
        "scores": totals(state),
        "deck": len(state["deck"]),
        "away": list(state["away"]),
        "last_turn": _public_last(state["last_turn"]),
        "tie_break": None if tie is None else {"round": tie["round"], "tied": list(tie["tied"])},
        "last_events": copy_events(state["last_events"]),
        "result": result(state),
    }


def _public_last(last: dict | None) -> dict | None:
    """The turn just judged, revealed: its word and true definition, the roles, who took the
    card. All of it is public from the moment of judgement."""
    return copy_last(last)


def result(state: State) -> dict | None:
    result = copy_result(state["result"])
    if result is not None:
        result["tie_break"] = [dict(t, tied=list(t["tied"])) for t in result["tie_break"]]
    return result


def spoken(entry: dict) -> str:
    """An entry's meaning as a person says it aloud: its paraphrase, else its definition (a
    group's deck may have no paraphrases)."""
    return entry.get("paraphrase") or entry["definition"]


def bot_view(state: State, seat: int) -> dict:
    """What a bot in `seat` knows: the seat's own view, plus `says` — the entry in play as the
    Brillante would say it (its paraphrase, never the card's text) — and its vocabulary: the
    pool's entries (the words nobody plays this game) by category, as said aloud. An Orate bot
    bluffs with one of those, so its bluff has the same voice as the Brillante's — never one
    the table has already heard this game.

    Like with like: a scholar knows the entry in play, so its vocabulary holds only the pool's
    words of the same part of speech (an adverb's truth is not the odd one out among nouns'
    meanings, nor is a noun's among adverbs'); when the pool has none left unheard, every word
    unheard; when every one has been heard, the same two steps over the whole pool (a long game
    on a small dictionary: repeat rather than fall dumb). The part of speech is read only for a
    seat that sees the entry anyway (a scholar: the word and its definition say it); the
    Sapiente's vocabulary is the whole pool, and no player's view carries a part of speech.
    `spare` is the pool's other unheard words, as said aloud: what an Orate who borrows says
    when the words of the part of speech in play are fewer than the Orates. Never sent
    anywhere: bots run inside the host."""
    pool = [entry for card in state["pool"] for entry in state["cards"][card]]
    said = set(state["said"])
    unsaid = [entry for entry in pool if spoken(entry) not in said]
    seen = view(state, seat)
    entry = current_entry(state)
    known = seen["entry"] is not None and entry is not None
    words: list[dict] = []
    for entries in (unsaid, pool):
        kin = [e for e in entries if pos_of(e) == pos_of(entry)] if known else []
        words = kin or entries
        if words:
            break
    vocabulary: dict[str, list[str]] = {c: [] for c in CATEGORIES}
    for word in words:
        vocabulary[word["category"]].append(spoken(word))
    says = spoken(entry) if known else None
    kept = {spoken(word) for word in words}
    spare = sorted({spoken(e) for e in unsaid} - kept)
    return {**seen, "says": says, "vocabulary": vocabulary, "spare": spare}
