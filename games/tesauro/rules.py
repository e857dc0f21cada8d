"""The Tesauro state machine: setup, apply, timer, chance (rules: `docs/rules/tesauro.md`).

See the package docstring for the actions, codes, phases, events and decisions. State is plain
data; every function here is pure apart from mutating the state it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Event, IllegalAction, Option, State
from games.rulebook import (
    action_type,
    check_seat,
    is_permutation,
    mark_away,
    mark_back,
    not_int,
    printable_line,
)
from games.tesauro.deck import (
    CATEGORIES,
    LANGS,
    MAX_WORD_LEN,
    Dictionary,
    load_dictionary,
    pool_size,
)

DEALING = "dealing"
"""CHANCE: the dictionary is being shuffled (setup) or the scholar cards dealt (each turn)."""
CHOOSE = "choose"
"""The reader picks one of the two words of the card they drew."""
WRITE = "write"
"""The thinking time: scholars take tiles and (typed mode) give their definitions."""
SPEAK = "speak"
"""Spoken mode: scholars say their definitions aloud, in turn from the reader."""
JUDGE = "judge"
"""The Sapiente picks a definition or declares everyone crazy."""
OVER = "over"

BRILLANTE = "brillante"
ORATE = "orate"
SAPIENTE = "sapiente"

TYPED = "typed"
SPOKEN = "spoken"
MODES = (TYPED, SPOKEN)

MAX_TEXT = 300
"""A definition is 1..300 characters."""

MAX_ROUNDS = 5

OPTIONS: tuple[Option, ...] = (
    Option("think_seconds", 60, (0, 30, 45, 60, 90, 120, 180)),
    Option("mode", TYPED, MODES),
    Option("rounds", 1, (1, 2, 3)),
    Option("words", "table", ("table", "ru", "en")),
    Option("turn_seconds", 90, (0, 60, 90, 120)),
)
"""The lobby's options, each with its default and the values the lobby cycles through.
`words`: the dictionary's language — the table's (`lang`, the interface's) or another."""

OPTION_DEFAULTS: dict[str, Any] = {option.key: option.default for option in OPTIONS} | {
    "lang": "en",  # the host's language: not a lobby option (the host passes it)
    "deck": None,  # a group's own dictionary file (`hubbub host --deck`)
    "seen": (),  # the words that came up in the evening's earlier games (`carried`)
}

SEEN_MAX = 2000
"""The most words an evening remembers having seen (`seen`): more than any dictionary's."""

HOST_ACTIONS = ("timeout", "away", "back")
ANYTIME = ("chance", "away", "back")


# --- setup -----------------------------------------------------------------------------------


def setup(
    players: list[str],
    options: dict | None,
    min_players: int,
    max_players: int,
    dictionary: Dictionary | None = None,
) -> State:
    """A new game; its first CHANCE move shuffles the dictionary into the deck and the pool.

    The dictionary is read here, once, and copied into the state as plain data.
    """
    n = len(players)
    if not min_players <= n <= max_players:
        raise ValueError(f"{min_players}..{max_players} players play Tesauro, not {n}")
    settings = _settings(options or {})
    if dictionary is None:
        dictionary = load_dictionary(words_of(settings), path=settings["deck"])
    cards = [[entry.as_dict() for entry in card] for card in dictionary.cards]
    if len(cards) < 2:
        raise ValueError("a dictionary needs at least two cards")
    state: State = {
        "players": [str(name) for name in players],
        "options": settings,
        "cards": cards,
        "deck": [],
        "pool": [],
        "phase": DEALING,
        "chance": {"kind": "shuffle", "deck": "dictionary", "size": len(cards)},
        "schedule": [seat for _ in range(settings["rounds"]) for seat in range(n)],
        "turn": 0,
        "turns": n * settings["rounds"],
        "sapiente": None,
        "reader": None,
        "order": [],
        "roles": [None] * n,
        "aside": None,
        "card": None,
        "drawn": [],
        "entry": None,
        "tiles": [None] * n,
        "texts": [None] * n,
        "given": [False] * n,
        "speakers": [],
        "defs": [],
        "won": [[] for _ in range(n)],
        "said": [],
        "last_turn": None,
        "tie": None,
        "tie_rounds": [],
        "away": [False] * n,
        "result": None,
        "last_events": [],
    }
    return state


def _settings(options: dict) -> dict[str, Any]:
    settings = {key: options.get(key, default) for key, default in OPTION_DEFAULTS.items()}
    for key in ("think_seconds", "turn_seconds"):
        seconds = settings[key]
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
            raise ValueError(f"{key} must be a number of seconds: {seconds!r}")
    if settings["mode"] not in MODES:
        raise ValueError(f"mode must be one of {MODES}: {settings['mode']!r}")
    rounds = settings["rounds"]
    if not_int(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds must be 1..{MAX_ROUNDS}: {rounds!r}")
    if not isinstance(settings["lang"], str):
        raise ValueError(f"lang must be a language code: {settings['lang']!r}")
    if settings["deck"] is not None and not isinstance(settings["deck"], str):
        raise ValueError(f"deck must be the path of a dictionary file: {settings['deck']!r}")
    settings["seen"] = check_seen(settings["seen"])
    if settings["words"] not in ("table", *LANGS):
        raise ValueError(f"words must be 'table' or one of {LANGS}: {settings['words']!r}")
    return settings


def check_seen(seen: object) -> list[str]:
    """The words of the evening's earlier games (the option `seen`), checked: a list of at
    most SEEN_MAX words; raises ValueError saying what is wrong."""
    if not isinstance(seen, list | tuple) or len(seen) > SEEN_MAX:
        raise ValueError(f"seen must be a list of at most {SEEN_MAX} words")
    if not all(isinstance(word, str) and len(word) <= MAX_WORD_LEN for word in seen):
        raise ValueError("seen must be a list of words")
    return list(seen)


def words_of(settings: dict[str, Any]) -> str:
    """The dictionary's language: the lobby's choice, else the table's (`lang`)."""
    return settings["lang"] if settings["words"] == "table" else settings["words"]


# --- the pending chance and the timer --------------------------------------------------------


def chance(state: State) -> dict | None:
    spec = state["chance"]
    return None if spec is None else dict(spec)


def timer(state: State) -> tuple[float, Action] | None:
    seconds = state["options"]["think_seconds"]
    if state["phase"] != WRITE or not seconds:
        return None
    return seconds, {"type": "timeout", "phase": WRITE, "turn": state["turn"]}


def turn(state: State) -> tuple[int, float] | None:
    """The reader's choice of word and the Sapiente's judgement, with the turn time
    (`turn_seconds`, 0: none); a spoken definition is a turn without one (the host may nudge
    its speaker). The thinking time is no turn: it has its own timer."""
    if state["chance"] is not None:
        return None
    seconds = state["options"]["turn_seconds"]
    phase = state["phase"]
    if phase == CHOOSE:
        return state["reader"], seconds
    if phase == JUDGE:
        return state["sapiente"], seconds
    if phase == SPEAK and state["speakers"]:
        return state["speakers"][0], 0
    return None


# --- apply -----------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> list[Event]:
    kind = action_type(action, SHAPES)
    if state["phase"] == OVER:
        raise IllegalAction("game_over")
    check_seat(state, seat, kind, HOST_ACTIONS, is_player)
    if state["chance"] is not None and kind not in ANYTIME:
        raise IllegalAction("shuffling")
    events = _HANDLERS[kind](state, seat, action)
    if events:
        state["last_events"] = copy_events(events)
    return events


def is_player(state: State, seat: Any) -> bool:
    return not not_int(seat) and 0 <= seat < len(state["players"])


def _require(state: State, phase: str) -> None:
    if state["phase"] != phase:
        raise IllegalAction("wrong_phase", phase=state["phase"])


def _scholar(state: State, seat: int) -> None:
    if seat == state["sapiente"]:
        raise IllegalAction("not_scholar")


# --- the reader chooses a word ---------------------------------------------------------------


def _choose(state: State, seat: int, action: Action) -> list[Event]:
    _require(state, CHOOSE)
    if seat != state["reader"]:
        raise IllegalAction("not_reader", reader=state["reader"])
    entry = action.get("entry")
    if not_int(entry) or entry not in (0, 1):  # 1.0 and True are not entries
        raise IllegalAction("bad_entry")
    return _open_writing(state, entry, auto=False)


def _open_writing(state: State, entry: int, auto: bool) -> list[Event]:
    state["entry"] = entry
    state["phase"] = WRITE
    word = current_entry(state)["word"]
    return [{"type": "word", "seat": state["reader"], "word": word, "auto": auto}]


def current_entry(state: State) -> dict | None:
    """The entry in play (word, category, definition), once the reader has chosen."""
    if state["card"] is None or state["entry"] is None:
        return None
    return state["cards"][state["card"]][state["entry"]]


# --- tiles and definitions -------------------------------------------------------------------


def allowed_tiles(state: State, seat: int) -> list[str]:
    """The categories `seat` may take now (rules step 3; tiles are exclusive).

    The Brillante must take the card's category. An Orate takes any other free tile, and the
    card's category only when every other tile is held by someone else.
    """
    if state["phase"] != WRITE or seat == state["sapiente"] or state["given"][seat]:
        return []
    card_category = current_entry(state)["category"]
    held = {tile for s, tile in enumerate(state["tiles"]) if tile is not None and s != seat}
    if state["roles"][seat] == BRILLANTE:
        mine = state["tiles"][seat] == card_category
        return [card_category] if not mine and card_category not in held else []
    others = [c for c in CATEGORIES if c != card_category and c not in held]
    if others:
        return [c for c in others if c != state["tiles"][seat]]
    if state["tiles"][seat] is None and card_category not in held:
        return [card_category]
    return []


def _tile(state: State, seat: int, action: Action) -> list[Event]:
    _require(state, WRITE)
    _scholar(state, seat)
    category = action.get("category")
    if category not in CATEGORIES:
        raise IllegalAction("bad_category")
    if state["given"][seat]:
        raise IllegalAction("already_given")
    if category == state["tiles"][seat]:
        raise IllegalAction("tile_yours", category=category)
    if any(tile == category for s, tile in enumerate(state["tiles"]) if s != seat):
        raise IllegalAction("tile_taken", category=category)
    card_category = current_entry(state)["category"]
    if state["roles"][seat] == BRILLANTE:
        if category != card_category:
            raise IllegalAction("brillante_tile", category=card_category)
    elif category == card_category and category not in allowed_tiles(state, seat):
        raise IllegalAction("category_reserved", category=category)
    return _take(state, seat, category)


def _take(state: State, seat: int, category: str) -> list[Event]:
    released = state["tiles"][seat]
    state["tiles"][seat] = category
    return [{"type": "tile", "seat": seat, "category": category, "released": released}]


def clean_definition(text: Any) -> str:
    """A definition as the table will show it: one line of printable text, 1..300 characters;
    IllegalAction `bad_text` otherwise."""
    if not isinstance(text, str):
        raise IllegalAction("bad_text", limit=MAX_TEXT)
    clean = printable_line(text)
    if not clean or len(clean) > MAX_TEXT:
        raise IllegalAction("bad_text", limit=MAX_TEXT)
    return clean


def _define(state: State, seat: int, action: Action) -> list[Event]:
    """Typed mode: my definition, sealed until all are in. Spoken mode: a definition the table
    shows as it is spoken (how a bot speaks), by the scholar whose turn it is."""
    if state["phase"] == SPEAK:
        return _speak(state, seat, clean_definition(action.get("text")))
    _require(state, WRITE)
    _scholar(state, seat)
    if state["options"]["mode"] != TYPED:
        raise IllegalAction("not_typed")
    if state["given"][seat]:
        raise IllegalAction("already_given")
    if state["tiles"][seat] is None:
        raise IllegalAction("no_tile")
    state["texts"][seat] = clean_definition(action.get("text"))
    state["given"][seat] = True
    return [{"type": "given", "seat": seat}, *_maybe_close(state)]


def _done(state: State, seat: int, action: Action) -> list[Event]:
    """Spoken mode: done thinking (in the thinking time) or done speaking (in my turn)."""
    if state["options"]["mode"] != SPOKEN:
        raise IllegalAction("not_spoken")
    if state["phase"] == SPEAK:
        return _speak(state, seat, None)
    _require(state, WRITE)
    _scholar(state, seat)
    if state["given"][seat]:
        raise IllegalAction("already_given")
    if state["tiles"][seat] is None:
        raise IllegalAction("no_tile")
    state["given"][seat] = True
    return [{"type": "ready", "seat": seat}, *_maybe_close(state)]


def _unwritten(state: State) -> list[int]:
    """The scholars the thinking time still waits for. With a timer, away scholars too (they
    may come back in time); with none, only those who are here."""
    timed = bool(state["options"]["think_seconds"])
    return [s for s in state["order"] if not state["given"][s] and (timed or not state["away"][s])]


def _maybe_close(state: State) -> list[Event]:
    if state["phase"] != WRITE or _unwritten(state):
        return []
    return _close_writing(state, timeout=False)


def _close_writing(state: State, timeout: bool) -> list[Event]:
    """The thinking time is over. Typed: every definition given is revealed at once, in turn
    order from the reader. Spoken: those holding a tile speak, in the same order."""
    if state["options"]["mode"] == TYPED:
        state["defs"] = [
            {"seat": s, "tile": state["tiles"][s], "text": state["texts"][s]}
            for s in state["order"]
            if state["given"][s]
        ]
        state["phase"] = JUDGE
        state["said"] += [d["text"] for d in state["defs"]]
        return [{"type": "revealed", "defs": _copy_defs(state["defs"]), "timeout": timeout}]
    state["speakers"] = [s for s in state["order"] if state["tiles"][s] is not None]
    state["phase"] = SPEAK
    return [{"type": "thought", "timeout": timeout}, *_next_speaker(state)]


def _next_speaker(state: State) -> list[Event]:
    """The next scholar who is here speaks; away ones are passed over. None left: judge."""
    while state["speakers"] and state["away"][state["speakers"][0]]:
        state["speakers"].pop(0)
    if state["speakers"]:
        return [{"type": "speaking", "seat": state["speakers"][0]}]
    state["phase"] = JUDGE
    return [{"type": "revealed", "defs": _copy_defs(state["defs"]), "timeout": False}]


def _speak(state: State, seat: int, text: str | None) -> list[Event]:
    if not state["speakers"] or seat != state["speakers"][0]:
        raise IllegalAction(
            "not_speaker", speaker=state["speakers"][0] if state["speakers"] else None
        )
    state["speakers"].pop(0)
    entry = {"seat": seat, "tile": state["tiles"][seat], "text": text}
    state["defs"].append(entry)
    if text is not None:
        state["said"].append(text)
    return [{"type": "spoke", **entry}, *_next_speaker(state)]


def speaker(state: State) -> int | None:
    if state["phase"] != SPEAK or not state["speakers"]:
        return None
    return state["speakers"][0]


# --- judgement and scoring -------------------------------------------------------------------


def _pick(state: State, seat: int, action: Action) -> list[Event]:
    _require(state, JUDGE)
    if seat != state["sapiente"]:
        raise IllegalAction("not_sapiente", sapiente=state["sapiente"])
    picked = action.get("seat")
    if not any(d["seat"] == picked and not not_int(picked) for d in state["defs"]):
        raise IllegalAction("bad_pick")
    return _judge(state, picked)


def _crazy(state: State, seat: int, action: Action) -> list[Event]:
    _require(state, JUDGE)
    if seat != state["sapiente"]:
        raise IllegalAction("not_sapiente", sapiente=state["sapiente"])
    return _judge(state, None)


def brillante_of(state: State) -> int | None:
    """The seat holding the Brillante card this turn, or None when it is the card aside."""
    return next((s for s, role in enumerate(state["roles"]) if role == BRILLANTE), None)


def _judge(state: State, picked: int | None) -> list[Event]:
    """Rules step 6: the card is the point."""
    brillante = brillante_of(state)
    sapiente = state["sapiente"]
    card = state["card"]
    if picked is None:
        right = brillante is None
        taker = sapiente if right else None
    else:
        right = picked == brillante
        taker = sapiente if right else picked
    if taker is None:
        state["deck"].append(card)  # under the deck; nobody scores
    else:
        state["won"][taker].append(card)
    entry = current_entry(state)
    last = {
        "turn": state["turn"],
        "sapiente": sapiente,
        "reader": state["reader"],
        "word": entry["word"],
        "category": entry["category"],
        "definition": entry["definition"],
        "brillante": brillante,
        "roles": list(state["roles"]),
        "pick": picked,
        "crazy": picked is None,
        "right": right,
        "taker": taker,
        "under": taker is None,
        "defs": _copy_defs(state["defs"]),
        "tiles": list(state["tiles"]),
        "tie_break": state["tie"] is not None,
    }
    state["last_turn"] = last
    event = {"type": "judged", **copy_last(last)}
    return [event, *_begin_turn(state)]


def copy_last(last: dict | None) -> dict | None:
    if last is None:
        return None
    out = {key: list(value) if type(value) is list else value for key, value in last.items()}
    out["defs"] = _copy_defs(last["defs"])
    return out


def _copy_defs(defs: list[dict]) -> list[dict]:
    return [dict(d) for d in defs]


def totals(state: State) -> list[int]:
    """Cards won, by seat."""
    return [len(cards) for cards in state["won"]]


# --- turns, rounds and the end ---------------------------------------------------------------


def _begin_turn(state: State) -> list[Event]:
    """The next Sapiente takes over; the scholar cards are dealt (a CHANCE shuffle)."""
    if not state["schedule"]:
        return _end_of_schedule(state)
    if not state["deck"]:
        return [{"type": "deck_empty"}, *_game_over(state, "deck_empty")]
    n = len(state["players"])
    sapiente = state["schedule"].pop(0)
    reader = (sapiente + 1) % n
    state["turn"] += 1
    state.update(
        sapiente=sapiente,
        reader=reader,
        order=[(reader + k) % n for k in range(n - 1)],
        roles=[None] * n,
        aside=None,
        card=None,
        entry=None,
        tiles=[None] * n,
        texts=[None] * n,
        given=[False] * n,
        speakers=[],
        defs=[],
        phase=DEALING,
        chance={"kind": "shuffle", "deck": "scholars", "size": n},
    )
    state["roles"][sapiente] = SAPIENTE
    tie = state["tie"]
    return [
        {
            "type": "turn",
            "turn": state["turn"],
            "sapiente": sapiente,
            "reader": reader,
            "round": round_of(state),
            "tie_break": None if tie is None else tie["round"],
        }
    ]


def round_of(state: State) -> int | None:
    """The round of the current turn (1-based), None in the tie-break."""
    if state["tie"] is not None or state["turn"] == 0:
        return None
    return (state["turn"] - 1) // len(state["players"]) + 1


def _deal(state: State, outcome: list[int]) -> list[Event]:
    """Scholar card 0 is the Brillante, 1..N-1 the Orates. The scholars from the reader take
    outcome[0], outcome[1], …; the last card, outcome[N-1], is put aside unseen."""
    for k, s in enumerate(state["order"]):
        state["roles"][s] = BRILLANTE if outcome[k] == 0 else ORATE
    state["aside"] = BRILLANTE if outcome[-1] == 0 else ORATE
    state["card"] = state["deck"].pop(0)
    state.setdefault("drawn", []).append(state["card"])  # (a game saved before: from now)
    state["phase"] = CHOOSE
    if state["away"][state["reader"]]:
        return _open_writing(state, 0, auto=True)
    return []


def _end_of_schedule(state: State) -> list[Event]:
    """Every scheduled Sapiente has judged: a winner, a tie-break, or a shared win."""
    scores = totals(state)
    tie = state["tie"]
    contenders = range(len(scores)) if tie is None else tie["tied"]
    best = max(scores[s] for s in contenders)
    leaders = [s for s in contenders if scores[s] == best]
    if len(leaders) == 1 or (tie is not None and tie["round"] == 2):
        return _game_over(state, "rounds", leaders)
    tie_round = 1 if tie is None else 2
    n = len(state["players"])
    after = state["sapiente"]
    ordered = sorted(leaders, key=lambda s: (s - after - 1) % n)
    state["tie"] = {"round": tie_round, "tied": ordered}
    state["tie_rounds"].append({"round": tie_round, "tied": list(ordered)})
    state["schedule"] = list(ordered)
    event = {"type": "tie_break", "round": tie_round, "tied": list(ordered)}
    return [event, *_begin_turn(state)]


def _game_over(state: State, reason: str, winners: list[int] | None = None) -> list[Event]:
    scores = totals(state)
    if winners is None:
        best = max(scores)
        winners = [s for s, v in enumerate(scores) if v == best]
    n = len(scores)
    ranking = sorted(range(n), key=lambda s: (s not in winners, -scores[s], s))
    state["phase"] = OVER
    state["chance"] = None
    state["result"] = {
        "scores": scores,
        "winners": list(winners),
        "ranking": ranking,
        "shared": len(winners) > 1,
        "reason": reason,
        "tie_break": [dict(t, tied=list(t["tied"])) for t in state["tie_rounds"]],
    }
    return [{"type": "game_over", "winners": list(winners), "scores": scores, "reason": reason}]


# --- host and chance actions -----------------------------------------------------------------


def _timeout(state: State, seat: int, action: Action) -> list[Event]:
    if timer(state) is None:
        raise IllegalAction("no_timer")
    if action.get("phase") != WRITE or action.get("turn") != state["turn"]:
        raise IllegalAction("stale_timeout")
    return _close_writing(state, timeout=True)


def _away(state: State, seat: int, action: Action) -> list[Event]:
    who = mark_away(state, action, is_player)
    events: list[Event] = [{"type": "away", "seat": who}]
    phase = state["phase"]
    if state["chance"] is not None:
        return events
    if phase == CHOOSE and who == state["reader"]:
        events += _open_writing(state, 0, auto=True)
    elif phase == WRITE:
        events += _maybe_close(state)
    elif phase == SPEAK and state["speakers"] and state["speakers"][0] == who:
        state["speakers"].pop(0)
        events += _next_speaker(state)
    return events


def _chance(state: State, seat: int, action: Action) -> list[Event]:
    spec = state["chance"]
    if spec is None:
        raise IllegalAction("wrong_phase", phase=state["phase"])
    outcome = action.get("outcome")
    if not is_permutation(outcome, spec["size"]):
        raise IllegalAction("bad_outcome", size=spec["size"])
    state["chance"] = None
    outcome = list(outcome)
    if spec["deck"] == "dictionary":
        state["deck"], state["pool"] = _split(state, outcome)
        return [{"type": "shuffled"}, *_begin_turn(state)]
    return _deal(state, outcome)


def _split(state: State, outcome: list[int]) -> tuple[list[int], list[int]]:
    """The shuffled dictionary into the deck and the bots' pool (its last `pool_size`
    cards). A card whose word came up in an earlier game of the evening (`seen`) is neither
    in the pool — a bot bluffing with a meaning the table heard last game is found out —
    nor before an unseen one in the deck; with nothing seen, the order is the shuffle's."""
    seen = set(state["options"]["seen"])
    known = [any(e["word"] in seen for e in state["cards"][c]) for c in outcome]
    fresh = [c for c, old in zip(outcome, known, strict=True) if not old]
    stale = [c for c, old in zip(outcome, known, strict=True) if old]
    keep = pool_size(len(outcome))
    pool = fresh[len(fresh) - keep :] if len(fresh) >= keep else fresh + stale[: keep - len(fresh)]
    taken = set(pool)
    deck = [c for c in fresh if c not in taken] + [c for c in stale if c not in taken]
    return deck, pool


def came_up(state: State) -> list[str]:
    """The words of the cards that came up in this game (drawn for a turn: both words of
    the card, which the reader saw), in the order they did."""
    drawn = state.get("drawn", [])
    return [entry["word"] for card in drawn for entry in state["cards"][card]]


def copy_events(events: list[Event]) -> list[Event]:
    out = []
    for event in events:
        copy = {key: list(value) if type(value) is list else value for key, value in event.items()}
        if "defs" in copy:
            copy["defs"] = _copy_defs(event["defs"])
        out.append(copy)
    return out


def _back(state: State, seat: int, action: Action) -> list[Event]:
    return mark_back(state, action, is_player)


SHAPES: dict[str, tuple[str, ...]] = {
    "choose": ("entry",),
    "tile": ("category",),
    "define": ("text",),
    "done": (),
    "pick": ("seat",),
    "crazy": (),
    "chance": ("outcome",),
    "timeout": ("phase", "turn"),
    "away": ("seat",),
    "back": ("seat",),
}
"""Every action type and the arguments the rules read (anything else is refused)."""


_HANDLERS: dict[str, Callable[[State, int, Action], list[Event]]] = {
    "choose": _choose,
    "tile": _tile,
    "define": _define,
    "done": _done,
    "pick": _pick,
    "crazy": _crazy,
    "chance": _chance,
    "timeout": _timeout,
    "away": _away,
    "back": _back,
}


# --- what a seat may do ----------------------------------------------------------------------


def legal_types(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` may take now: cheap enough to put in every view."""
    if not is_player(state, seat) or state["away"][seat] or state["chance"] is not None:
        return []
    phase = state["phase"]
    if phase == CHOOSE:
        return ["choose"] if seat == state["reader"] else []
    if phase == WRITE:
        if seat == state["sapiente"] or state["given"][seat]:
            return []
        types = ["tile"] if allowed_tiles(state, seat) else []
        if state["tiles"][seat] is not None:
            types.append("define" if state["options"]["mode"] == TYPED else "done")
        return types
    if phase == SPEAK:
        return ["done", "define"] if seat == speaker(state) else []
    if phase == JUDGE and seat == state["sapiente"]:
        return ["pick", "crazy"] if state["defs"] else ["crazy"]
    return []


def waiting_for(state: State) -> list[int]:
    """The seats the turn waits on now: the reader choosing, the scholars still to give a
    definition, the speaker, the Sapiente judging."""
    if state["chance"] is not None:
        return []
    phase = state["phase"]
    if phase == CHOOSE:
        return [state["reader"]]
    if phase == WRITE:
        return _unwritten(state)
    if phase == SPEAK:
        return [state["speakers"][0]] if state["speakers"] else []
    if phase == JUDGE:
        return [state["sapiente"]]
    return []


def moment(state: State, seat: int) -> tuple:
    """Which decision a seat's key is about: a key pressed for one turn's pick or choice is
    stale in the next turn (`games.base.Game.moment`)."""
    return (state["phase"], state["turn"], speaker(state))


def legal_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    for kind in legal_types(state, seat):
        if kind == "choose":
            actions += [{"type": kind, "entry": 0}, {"type": kind, "entry": 1}]
        elif kind == "tile":
            actions += [{"type": kind, "category": c} for c in allowed_tiles(state, seat)]
        elif kind == "define":
            actions.append({"type": kind, "text": f"A definition by seat {seat}."})
        elif kind == "pick":
            actions += [{"type": kind, "seat": d["seat"]} for d in state["defs"]]
        else:
            actions.append({"type": kind})
    return actions
