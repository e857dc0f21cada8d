"""The rules of On a Scale of One to T-Rex as pure functions over plain state (see the package
docstring for the actions, codes, phases, events and decisions).

`apply` is the only way the state changes. Every handler validates everything first — raising
`IllegalAction` before touching anything — and only then mutates, so a refused action leaves
the state exactly as it was.

Card movements that may need randomness (a draw that empties the number deck, a bye-bye that
empties an action deck, the deal) are queued as *steps* in `state["todo"]` and run by `_run`.
A step that needs a shuffle puts a chance spec in `state["chance"]` and stops the queue; the
CHANCE move permutes the pile and the queue goes on. So a match, a skip or the deal is one
straight story however many reshuffles and bye-byes interrupt it, and players wait (code
`shuffling`) only while a shuffle is actually pending — which on a real host is never visible,
because the room resolves chance before anyone sees the state.

Piles are lists of indexes (into `state["cards"]` for number cards, into `state["texts"][c]`
for action cards). **The top of a pile is its first element**: a draw takes `pile[0]`, a discard
appends at the end, and a shuffle with outcome `p` makes the pile `[old[p[0]], old[p[1]], ...]`,
so `p[0]` names the card drawn first.
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
    seat_argument,
)
from games.trex.deck import COLOURS, Deck, load_deck

# Phases.
DEALING = "dealing"
"""CHANCE: the decks are being shuffled and the number cards dealt."""
PLAY = "play"
"""The competitive game: everyone performs, offers, answers and skips at once."""
CALL = "call"
"""The two-player cooperative variant: both perform, then each calls MATCH or NO MATCH."""
TIE_BREAK = "tie_break"
"""CHANCE: the sudden death's random colour and the tied players' new actions."""
VOTE = "vote"
"""The sudden death: every player who is not tied votes for one tied player."""
OVER = "over"

NUMBER_DECK = "numbers"
TIE_COLOUR = "colour"
"""Chance deck names: `numbers`, `<colour>_actions` (e.g. `red_actions`) and `colour` (the
tie-break's random colour: a shuffle of COLOURS whose first element is the colour)."""

EXACT, NEAR, FAR = "exact", "near", "far"
"""Outcomes of two levels: the same, one apart, two or more apart."""

GOOD_TOKENS = {2: 15, 3: 16, 4: 20, 5: 24, 6: 28, 7: 32, 8: 36}
BAD_TOKENS = {2: 0, 3: 8, 4: 10, 5: 12, 6: 14, 7: 16, 8: 18}
"""The tokens put out by player count (docs/rules/trex.md); the rest stay in the box."""

SCORING = {EXACT: (2, 0), NEAR: (1, 0), FAR: (0, 1)}
"""(good, bad) tokens each of the two players takes, by outcome."""

COOP_MOVES = {EXACT: 2, NEAR: 1, FAR: 1}
"""Tokens a right call moves to the box, by outcome (FAR is a correct NO MATCH)."""

OPTIONS: tuple[Option, ...] = (
    Option("vote_seconds", 60, (0, 30, 45, 60, 90, 120)),
    Option("words", "table", ("table", "ru", "en")),
)
"""`words`: the action cards' language — the table's (`lang`, the interface's) or another. The
mode is no option: two players always play the cooperative variant (the only mode the
rules allow them), three to eight the competitive game."""

OPTION_DEFAULTS: dict[str, Any] = {option.key: option.default for option in OPTIONS} | {
    "coop": False,  # informative only (the number of players decides)
    "lang": "en",  # the host's language: not a lobby option (the host passes it)
    "deck": None,  # a group's own deck file (`hubbub host --deck`)
}

HOST_ACTIONS = ("timeout", "away", "back", "left")
"""Actions only the host's own seat sends; `chance` is CHANCE's, every other a player's."""

ANYTIME = ("chance", "away", "back")
"""Actions that may come while a shuffle is pending."""


# --- setup -----------------------------------------------------------------------------------


def setup(
    players: list[str],
    options: dict | None,
    min_players: int,
    max_players: int,
    deck: Deck | None = None,
) -> State:
    """A new game, its decks still unshuffled: the first CHANCE moves shuffle and deal.

    The deck is read here, once, and copied into the state as plain data; from then on the game
    never reads a file (see "The deck is in the state" in the package docstring).
    """
    n = len(players)
    if not min_players <= n <= max_players:
        raise ValueError(f"{min_players}..{max_players} players play T-Rex, not {n}")
    settings = _settings(options or {}, n)
    if deck is None:
        deck = load_deck(words_of(settings), path=settings["deck"])
    texts = {c: list(deck.actions[c]) for c in COLOURS}
    cards = [{"colour": card.colour, "level": card.level} for card in deck.numbers]
    _check_deck(texts, cards, n)
    coop = settings["coop"]
    state: State = {
        "players": [str(name) for name in players],
        "options": settings,
        "texts": texts,
        "cards": cards,
        "action_decks": {c: list(range(len(texts[c]))) for c in COLOURS},
        "action_discards": {c: [] for c in COLOURS},
        "active": {c: None for c in COLOURS},
        "numbers": list(range(len(cards))),
        "number_discard": [],
        "hands": [None] * n,
        "offers": [None] * n,
        "away": [False] * n,
        "left": [False] * n,
        "good": [0] * n,
        "bad": [0] * n,
        "tokens": {"good": GOOD_TOKENS[n], "bad": BAD_TOKENS[n]},
        "pool": {"good": GOOD_TOKENS[n], "bad": BAD_TOKENS[n]},
        "phase": DEALING,
        "todo": [],
        "chance": None,
        "last_match": None,
        "news": [None] * n,
        "news_ids": [0] * n,
        "tie": None,
        "coop": {"moved": 0, "calls": [None, None]} if coop else None,
        "result": None,
        "last_events": [],
    }
    for colour in COLOURS:
        state["todo"] += [_shuffle_step(f"{colour}_actions"), {"do": "turn_up", "colour": colour}]
    state["todo"].append(_shuffle_step(NUMBER_DECK))
    state["todo"] += [{"do": "deal", "seat": seat} for seat in range(n)]
    state["todo"].append({"do": "open_play"})
    _run(state)  # stops at once: the first step asks for a shuffle
    return state


def _settings(options: dict, n: int) -> dict[str, Any]:
    """The known options with defaults filled in; the mode follows the player count."""
    settings = {key: options.get(key, default) for key, default in OPTION_DEFAULTS.items()}
    seconds = settings["vote_seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise ValueError(f"vote_seconds must be a number of seconds: {seconds!r}")
    if not isinstance(settings["coop"], bool):
        raise ValueError(f"coop must be true or false: {settings['coop']!r}")
    if not isinstance(settings["lang"], str):
        raise ValueError(f"lang must be a language code: {settings['lang']!r}")
    if settings["words"] not in ("table", "ru", "en"):
        raise ValueError(f"words must be 'table', 'ru' or 'en': {settings['words']!r}")
    if settings["deck"] is not None and not isinstance(settings["deck"], str):
        raise ValueError(f"deck must be the path of a deck file: {settings['deck']!r}")
    # Two players can only play the cooperative variant; three or more only the competitive
    # game (the variant compares exactly two cards), whatever the option says.
    settings["coop"] = n == 2
    return settings


def words_of(settings: dict[str, Any]) -> str:
    """The language of the shipped action cards: the table's, or the `words` option's."""
    return settings["lang"] if settings["words"] == "table" else settings["words"]


def _check_deck(texts: dict[str, list[str]], cards: list[dict], n: int) -> None:
    """What the rules need of any deck, so no draw can ever loop forever.

    A drawing player holds no card and the others hold at most n-1, so with at least n cards
    that have a level there is always one left in the deck or its discards.
    """
    if any(not texts[c] for c in COLOURS):
        raise ValueError("every colour needs at least one action card")
    if any(card["colour"] not in COLOURS for card in cards):
        raise ValueError("a number card has an unknown colour")
    levelled = sum(card["level"] is not None for card in cards)
    if levelled < n:
        raise ValueError(f"{n} players need at least {n} number cards with a level")


# --- the pending chance and the timer --------------------------------------------------------


def chance(state: State) -> dict | None:
    spec = state["chance"]
    return None if spec is None else dict(spec)


def timer(state: State) -> tuple[float, Action] | None:
    seconds = state["options"]["vote_seconds"]
    if state["phase"] != VOTE or not seconds:
        return None
    return seconds, {"type": "timeout", "phase": VOTE}


# --- apply -----------------------------------------------------------------------------------


def apply(state: State, seat: int, action: Action) -> list[Event]:
    kind = action_type(action, SHAPES)
    if state["phase"] == OVER:
        raise IllegalAction("game_over")
    check_seat(state, seat, kind, HOST_ACTIONS, is_player)
    if state["chance"] is not None and kind not in ANYTIME:
        raise IllegalAction("shuffling")
    events = _HANDLERS[kind](state, seat, action)
    # Private moves (offers and their answers) return no events and must leave the public
    # view untouched, so they do not reset the table's last events either.
    if events:
        state["last_events"] = copy_events(events)
    return events


def is_player(state: State, seat: Any) -> bool:
    return not not_int(seat) and 0 <= seat < len(state["players"])


# --- the competitive game: offers, answers, skips ---------------------------------------------


def _offer(state: State, seat: int, action: Action) -> list[Event]:
    """An offer is private: no event. Two players who offered each other have both accepted."""
    _require_play(state)
    to = seat_argument(state, action, "to", is_player)
    if to == seat:
        raise IllegalAction("self_offer")
    if state["left"][to]:
        raise IllegalAction("target_left", seat=to)
    if state["away"][to]:
        raise IllegalAction("target_away", seat=to)
    if state["offers"][seat] is not None:
        raise IllegalAction("offer_out", to=state["offers"][seat])
    if state["offers"][to] == seat:
        return _match(state, offerer=to, accepter=seat)
    state["offers"][seat] = to
    _tell(state, to, {"type": "offered", "from": seat})
    return []


def _withdraw(state: State, seat: int, action: Action) -> list[Event]:
    _require_play(state)
    to = state["offers"][seat]
    if to is None:
        raise IllegalAction("no_offer")
    state["offers"][seat] = None
    _tell(state, to, {"type": "withdrawn", "from": seat})
    return []


def _accept(state: State, seat: int, action: Action) -> list[Event]:
    _require_play(state)
    offerer = _incoming(state, seat, action)
    return _match(state, offerer=offerer, accepter=seat)


def _decline(state: State, seat: int, action: Action) -> list[Event]:
    """Declining changes nothing but the offer: the offerer's card is free again."""
    _require_play(state)
    offerer = _incoming(state, seat, action)
    state["offers"][offerer] = None
    _tell(state, offerer, {"type": "declined", "by": seat})
    return []


def _skip(state: State, seat: int, action: Action) -> list[Event]:
    """Discard and draw. Public: the table sees that a player changed card, never the card."""
    _require_play(state)
    if state["offers"][seat] is not None:
        raise IllegalAction("card_locked", to=state["offers"][seat])
    _discard(state, seat)
    state["todo"].append({"do": "draw", "seat": seat})
    return [{"type": "skipped", "seat": seat}, *_run(state)]


def _require_play(state: State) -> None:
    if state["coop"] is not None:
        raise IllegalAction("not_in_coop")
    if state["phase"] != PLAY:
        raise IllegalAction("wrong_phase", phase=state["phase"])


def _incoming(state: State, seat: int, action: Action) -> int:
    """The seat named by `from`, which must have its offer out to `seat`."""
    offerer = seat_argument(state, action, "from", is_player)
    if state["offers"][offerer] != seat:
        raise IllegalAction("no_such_offer", seat=offerer)
    return offerer


def _match(state: State, offerer: int, accepter: int) -> list[Event]:
    """Both cards revealed to both, both levels to the table; tokens, discards, new cards.

    Offers *to* either player stand (an offer is made to a player, not a card); the accepter's
    own outgoing offer, if any, is withdrawn.
    """
    a, b = offerer, accepter
    card_a, card_b = _card(state, a), _card(state, b)
    outcome = outcome_of(card_a["level"], card_b["level"])
    good, bad = SCORING[outcome]
    state["offers"][a] = None
    if (other := state["offers"][b]) is not None:
        state["offers"][b] = None
        _tell(state, other, {"type": "withdrawn", "from": b})
    for seat in (a, b):
        state["good"][seat] += good
        state["bad"][seat] += bad
    pool = state["pool"]
    pool["good"] = max(0, pool["good"] - 2 * good)  # the full amount, even past empty
    pool["bad"] = max(0, pool["bad"] - 2 * bad)
    match = {
        "a": a,
        "b": b,
        "level_a": card_a["level"],
        "level_b": card_b["level"],
        "outcome": outcome,
        "good": good,
        "bad": bad,
    }
    state["last_match"] = dict(match)
    _tell(state, a, {"type": "matched", "with": b, "mine": card_a, "theirs": card_b})
    _tell(state, b, {"type": "matched", "with": a, "mine": card_b, "theirs": card_a})
    _discard(state, a)
    _discard(state, b)
    events: list[Event] = [{"type": "match", **match}]
    empty = [pile for pile in ("good", "bad") if state["tokens"][pile] and not pool[pile]]
    if empty:
        events.append({"type": "pile_empty", "piles": empty})
        return events + _end(state)
    state["todo"] += [{"do": "draw", "seat": a}, {"do": "draw", "seat": b}]
    return events + _run(state)


def outcome_of(level_a: int, level_b: int) -> str:
    diff = abs(level_a - level_b)
    return EXACT if diff == 0 else NEAR if diff == 1 else FAR


# --- the end and the sudden death ------------------------------------------------------------


def scores(state: State) -> list[int]:
    if state["coop"] is not None:
        return [state["coop"]["moved"]] * len(state["players"])
    return [good - bad for good, bad in zip(state["good"], state["bad"], strict=True)]


def _end(state: State) -> list[Event]:
    """A pile is empty (or too few are left to play on): the highest score of those still in
    the game wins; a tie on top goes to a sudden-death vote."""
    totals = scores(state)
    here = remaining(state)
    top = max(totals[seat] for seat in here)
    tied = [seat for seat in here if totals[seat] == top]
    voters = [seat for seat in here if seat not in tied]
    if len(tied) == 1 or not voters:
        return _game_over(state, tied)
    state["tie"] = {
        "tied": tied,
        "colour": None,
        "actions": [],
        "votes": [None] * len(totals),
        "tally": None,
        "winners": None,
        "timeout": False,
    }
    state["phase"] = TIE_BREAK
    state["todo"].append(_shuffle_step(TIE_COLOUR))
    state["todo"] += [{"do": "tie_draw", "seat": seat} for seat in tied]
    state["todo"].append({"do": "open_vote"})
    return _run(state)


def voters(state: State) -> list[int]:
    tie = state["tie"]
    if tie is None:
        return []
    return [s for s in remaining(state) if s not in tie["tied"]]


def remaining(state: State) -> list[int]:
    """The seats still in the game: all but those who left it."""
    return [seat for seat, left in enumerate(state["left"]) if not left]


def _vote(state: State, seat: int, action: Action) -> list[Event]:
    if state["phase"] != VOTE:
        raise IllegalAction("wrong_phase", phase=state["phase"])
    tie = state["tie"]
    if seat in tie["tied"]:
        raise IllegalAction("tied_cannot_vote")
    choice = action.get("for")
    if not_int(choice) or choice not in tie["tied"]:
        raise IllegalAction("bad_vote", tied=list(tie["tied"]))
    if tie["votes"][seat] is not None:
        raise IllegalAction("already_voted")
    tie["votes"][seat] = choice
    return [{"type": "voted", "seat": seat}, *_close_vote_if_all_in(state)]


def _close_vote_if_all_in(state: State) -> list[Event]:
    """The vote closes once every voter who is here has voted: a voter the host has marked
    away (after its grace time, or kicked) is not waited for."""
    if state["phase"] != VOTE or waiting_for(state):
        return []
    return _close_vote(state, timed_out=False)


def _close_vote(state: State, timed_out: bool) -> list[Event]:
    """Most votes wins; the tied players with the most votes (all of them, if nobody voted)
    share the win."""
    tie = state["tie"]
    tally = [0] * len(state["players"])
    for choice in tie["votes"]:
        if choice is not None:
            tally[choice] += 1
    most = max(tally[s] for s in tie["tied"])
    winners = [s for s in tie["tied"] if tally[s] == most]
    tie.update(tally=tally, winners=winners, timeout=timed_out)
    event = {"type": "vote_result", "tally": list(tally), "winners": winners, "timeout": timed_out}
    return [event, *_game_over(state, winners)]


def _game_over(state: State, winners: list[int]) -> list[Event]:
    totals = scores(state)
    tie = state["tie"]
    coop = state["coop"]
    tally = tie["tally"] if tie is not None and tie["tally"] is not None else [0] * len(totals)
    state["phase"] = OVER
    state["todo"] = []
    state["result"] = {
        "scores": totals,
        "winners": list(winners),
        "ranking": sorted(remaining(state), key=lambda s: (-totals[s], -tally[s], s)),
        "left": [seat for seat, left in enumerate(state["left"]) if left],
        "shared": len(winners) > 1,
        "tie_break": tie is not None,
        "coop": coop is not None,
        "won": None if coop is None else bool(winners),
        "moved": None if coop is None else coop["moved"],
    }
    return [{"type": "game_over", "winners": list(winners), "scores": list(totals)}]


# --- the two-player cooperative variant --------------------------------------------------------


def _call(state: State, seat: int, action: Action) -> list[Event]:
    """A sealed MATCH / NO MATCH. Final once sent; both cards turn over with the second call."""
    if state["coop"] is None:
        raise IllegalAction("not_coop")
    if state["phase"] != CALL:
        raise IllegalAction("wrong_phase", phase=state["phase"])
    match = action.get("match")
    if not isinstance(match, bool):
        raise IllegalAction("bad_call")
    calls = state["coop"]["calls"]
    if calls[seat] is not None:
        raise IllegalAction("already_called")
    calls[seat] = match
    events: list[Event] = [{"type": "coop_called", "seat": seat}]
    if None not in calls:
        events += _reveal_calls(state)
    return events


def call_is_right(call: bool, outcome: str) -> bool:
    """MATCH is right when the levels are at most one apart (an exact or a near match), NO MATCH
    when they are two or more apart — the same line the competitive scoring draws."""
    return call == (outcome != FAR)


def _reveal_calls(state: State) -> list[Event]:
    """The round counts only if both calls are right: a split call always has a wrong half."""
    coop = state["coop"]
    calls = list(coop["calls"])
    card_a, card_b = _card(state, 0), _card(state, 1)
    outcome = outcome_of(card_a["level"], card_b["level"])
    right = all(call_is_right(call, outcome) for call in calls)
    moved = min(COOP_MOVES[outcome], state["pool"]["good"]) if right else 0
    state["pool"]["good"] -= moved
    coop["moved"] += moved
    coop["calls"] = [None, None]
    reveal = {
        "a": 0,
        "b": 1,
        "level_a": card_a["level"],
        "level_b": card_b["level"],
        "outcome": outcome,
        "calls": calls,
        "right": right,
        "moved": moved,
        "total_moved": coop["moved"],
    }
    state["last_match"] = dict(reveal, calls=list(calls))
    for seat, mine, theirs in ((0, card_a, card_b), (1, card_b, card_a)):
        _tell(state, seat, {"type": "matched", "with": 1 - seat, "mine": mine, "theirs": theirs})
    _discard(state, 0)
    _discard(state, 1)
    events: list[Event] = [{"type": "coop_revealed", **reveal}]
    if not right:
        return events + _game_over(state, [])
    if not state["pool"]["good"]:
        return events + _game_over(state, [0, 1])
    state["todo"] += [{"do": "draw", "seat": 0}, {"do": "draw", "seat": 1}]
    return events + _run(state)


# --- host actions ----------------------------------------------------------------------------


def _timeout(state: State, seat: int, action: Action) -> list[Event]:
    """The vote's timer ran out: missing votes don't count."""
    if timer(state) is None:
        raise IllegalAction("no_timer")
    if action.get("phase", VOTE) != VOTE:
        raise IllegalAction("stale_timeout")
    return _close_vote(state, timed_out=True)


def _away(state: State, seat: int, action: Action) -> list[Event]:
    """A player who is away has their offers withdrawn: the one they made and those made to
    them (the offerers get their cards back rather than wait for someone who is not there)."""
    who = mark_away(state, action, is_player)
    _withdraw_offers(state, who)
    return [{"type": "away", "seat": who}, *_close_vote_if_all_in(state)]


def _withdraw_offers(state: State, who: int) -> None:
    if (to := state["offers"][who]) is not None:
        state["offers"][who] = None
        _tell(state, to, {"type": "withdrawn", "from": who})
    for offerer, target in enumerate(state["offers"]):
        if target == who:
            state["offers"][offerer] = None
            _tell(state, offerer, {"type": "cancelled", "to": who})


def _left(state: State, seat: int, action: Action) -> list[Event]:
    """A player gave the seat up (left, or was sent away, mid-game): there is no bot to play
    on, so they are out of the game for good — away from now on, their offers withdrawn, not
    ranked, neither the T-Rex nor in a tie. Fewer than three left in the competitive game end
    it at once, scored among them; the two-player game cannot go on alone. The room says who
    left: the game's own events are only what follows from it."""
    who = seat_argument(state, action, "seat", is_player)
    if state["left"][who]:
        raise IllegalAction("already_left", seat=who)
    state["left"][who] = True
    if not state["away"][who]:
        state["away"][who] = True
        _withdraw_offers(state, who)
    if state["coop"] is not None:
        return _game_over(state, [])
    if len(remaining(state)) < 3:
        state["tie"] = None  # (a vote with too few left to hold it is over too)
        return _end(state)
    tie = state["tie"]
    if state["phase"] == VOTE and who in tie["tied"]:
        tie["tied"].remove(who)
        if len(tie["tied"]) == 1:
            return _close_vote(state, timed_out=False)
    return _close_vote_if_all_in(state)


# --- chance and the steps it interrupts -------------------------------------------------------


def _chance(state: State, seat: int, action: Action) -> list[Event]:
    spec = state["chance"]
    if spec is None:
        raise IllegalAction("wrong_phase", phase=state["phase"])
    outcome = action.get("outcome")
    if not is_permutation(outcome, spec["size"]):
        raise IllegalAction("bad_outcome", size=spec["size"])
    state["chance"] = None
    if spec["deck"] == TIE_COLOUR:
        state["tie"]["colour"] = COLOURS[outcome[0]]
    else:
        pile = _pile(state, spec["deck"])
        pile[:] = [pile[i] for i in outcome]
    return _run(state)


def _pile(state: State, name: str) -> list[int]:
    if name == NUMBER_DECK:
        return state["numbers"]
    return state["action_decks"][name.removesuffix("_actions")]


def _shuffle_step(deck: str) -> dict:
    return {"do": "shuffle", "deck": deck}


def _run(state: State) -> list[Event]:
    """Run queued steps until the queue is empty or a step waits for a shuffle."""
    events: list[Event] = []
    while state["todo"] and state["chance"] is None:
        step = state["todo"].pop(0)
        events += _STEPS[step["do"]](state, step)
    return events


def _step_shuffle(state: State, step: dict) -> list[Event]:
    deck = step["deck"]
    size = len(COLOURS) if deck == TIE_COLOUR else len(_pile(state, deck))
    state["chance"] = {"kind": "shuffle", "deck": deck, "size": size}
    return []


def _step_turn_up(state: State, step: dict) -> list[Event]:
    """Turn up the next action of a colour (refilling its deck from its discards first)."""
    colour = step["colour"]
    if not state["action_decks"][colour]:
        return _refill_actions(state, colour, step)
    state["active"][colour] = state["action_decks"][colour].pop(0)
    if "gone" not in step:
        return []
    texts = state["texts"][colour]
    return [
        {
            "type": "byebye",
            "seat": step["seat"],
            "colour": colour,
            "gone": texts[step["gone"]],
            "came": texts[state["active"][colour]],
        }
    ]


def _refill_actions(state: State, colour: str, step: dict) -> list[Event]:
    deck = f"{colour}_actions"
    state["action_decks"][colour] = state["action_discards"][colour]
    state["action_discards"][colour] = []
    state["todo"][:0] = [_shuffle_step(deck), step]
    return [{"type": "reshuffled", "deck": deck}]


def _step_deal(state: State, step: dict) -> list[Event]:
    """A bye-bye dealt at setup is shuffled back into the deck and the seat dealt again."""
    card = state["numbers"].pop(0)
    if state["cards"][card]["level"] is None:
        state["numbers"].append(card)
        state["todo"][:0] = [_shuffle_step(NUMBER_DECK), step]
        return []
    state["hands"][step["seat"]] = card
    return []


def _step_draw(state: State, step: dict) -> list[Event]:
    """A draw in play: reshuffle the discards if the deck ran out; a bye-bye changes an action
    and the player draws again."""
    seat = step["seat"]
    if not state["numbers"]:
        state["numbers"] = state["number_discard"]
        state["number_discard"] = []
        state["todo"][:0] = [_shuffle_step(NUMBER_DECK), step]
        return [{"type": "reshuffled", "deck": NUMBER_DECK}]
    card = state["numbers"].pop(0)
    colour = state["cards"][card]["colour"]
    if state["cards"][card]["level"] is not None:
        state["hands"][seat] = card
        return []
    state["number_discard"].append(card)
    gone = state["active"][colour]
    state["action_discards"][colour].append(gone)
    state["active"][colour] = None
    turn_up = {"do": "turn_up", "colour": colour, "seat": seat, "gone": gone}
    state["todo"][:0] = [turn_up, step]
    return []


def _step_tie_draw(state: State, step: dict) -> list[Event]:
    """A new action for a tied player, from the tie colour's deck (refilled if need be).

    With the deck and its discards both empty (only a tiny custom deck can get there) the
    player performs the colour's active action instead.
    """
    tie = state["tie"]
    colour = tie["colour"]
    deck = state["action_decks"][colour]
    if not deck and state["action_discards"][colour]:
        return _refill_actions(state, colour, step)
    index = deck.pop(0) if deck else state["active"][colour]
    tie["actions"].append(state["texts"][colour][index])
    return []


def _step_open_play(state: State, step: dict) -> list[Event]:
    state["phase"] = CALL if state["coop"] is not None else PLAY
    return [{"type": "dealt", "phase": state["phase"]}]


def _step_open_vote(state: State, step: dict) -> list[Event]:
    state["phase"] = VOTE
    tie = state["tie"]
    return [
        {
            "type": "tie_break",
            "tied": list(tie["tied"]),
            "colour": tie["colour"],
            "actions": list(tie["actions"]),
            "voters": voters(state),
        },
        *_close_vote_if_all_in(state),
    ]


_STEPS: dict[str, Callable[[State, dict], list[Event]]] = {
    "shuffle": _step_shuffle,
    "turn_up": _step_turn_up,
    "deal": _step_deal,
    "draw": _step_draw,
    "tie_draw": _step_tie_draw,
    "open_play": _step_open_play,
    "open_vote": _step_open_vote,
}


# --- small helpers ---------------------------------------------------------------------------


def _card(state: State, seat: int) -> dict:
    return dict(state["cards"][state["hands"][seat]])


def card_of(state: State, seat: int) -> dict | None:
    """The number card `seat` holds, as `{colour, level}`, or None (between draws, or after a
    match that ended the game)."""
    index = state["hands"][seat]
    return None if index is None else dict(state["cards"][index])


def _discard(state: State, seat: int) -> None:
    state["number_discard"].append(state["hands"][seat])
    state["hands"][seat] = None


def _tell(state: State, seat: int, news: dict) -> None:
    """Private news for one seat (shown only in its own view); the id tells repeats apart."""
    state["news_ids"][seat] += 1
    state["news"][seat] = {"id": state["news_ids"][seat], **news}


def copy_events(events: list[Event]) -> list[Event]:
    """A copy of events, which hold nothing deeper than lists of plain values."""
    return [
        {key: list(value) if type(value) is list else value for key, value in event.items()}
        for event in events
    ]


def incoming(state: State, seat: int) -> list[int]:
    """The seats whose offer is out to `seat`."""
    return [offerer for offerer, to in enumerate(state["offers"]) if to == seat]


def _back(state: State, seat: int, action: Action) -> list[Event]:
    who = action.get("seat")
    if is_player(state, who) and state["left"][who]:
        raise IllegalAction("already_left", seat=who)
    return mark_back(state, action, is_player)


SHAPES: dict[str, tuple[str, ...]] = {
    "offer": ("to",),
    "withdraw": (),
    "accept": ("from",),
    "decline": ("from",),
    "skip": (),
    "vote": ("for",),
    "call": ("match",),
    "chance": ("outcome",),
    "timeout": ("phase",),
    "away": ("seat",),
    "back": ("seat",),
    "left": ("seat",),
}
"""Every action type and the arguments the rules read (anything else is refused)."""


_HANDLERS: dict[str, Callable[[State, int, Action], list[Event]]] = {
    "offer": _offer,
    "withdraw": _withdraw,
    "accept": _accept,
    "decline": _decline,
    "skip": _skip,
    "vote": _vote,
    "call": _call,
    "chance": _chance,
    "timeout": _timeout,
    "away": _away,
    "back": _back,
    "left": _left,
}


# --- what a seat may do ----------------------------------------------------------------------


def legal_types(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` may take now: cheap enough to put in every view."""
    if not is_player(state, seat) or state["away"][seat] or state["chance"] is not None:
        return []
    phase = state["phase"]
    if phase == PLAY:
        types = []
        if state["offers"][seat] is None:
            if any(not away for s, away in enumerate(state["away"]) if s != seat):
                types.append("offer")
            types.append("skip")
        else:
            types.append("withdraw")
        if incoming(state, seat):
            types += ["accept", "decline"]
        return types
    if phase == VOTE:
        tie = state["tie"]
        return ["vote"] if seat not in tie["tied"] and tie["votes"][seat] is None else []
    if phase == CALL:
        return ["call"] if state["coop"]["calls"][seat] is None else []
    return []


def waiting_for(state: State) -> list[int]:
    """The seats the game waits on now: voters who have not voted and are here, the two
    callers of the cooperative variant. Competitive play waits on nobody: everyone acts at
    once, whenever they like."""
    if state["chance"] is not None:
        return []
    if state["phase"] == VOTE:
        tie = state["tie"]
        return [s for s in voters(state) if tie["votes"][s] is None and not state["away"][s]]
    if state["phase"] == CALL:
        return [s for s, call in enumerate(state["coop"]["calls"]) if call is None]
    return []


def moment(state: State, seat: int) -> tuple:
    """Which decision a seat's key is about: a key pressed for one card (a second skip, an
    offer) is stale once the seat holds another (`games.base.Game.moment`)."""
    hand = state["hands"][seat] if is_player(state, seat) else None
    return (state["phase"], hand)


def legal_actions(state: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    for kind in legal_types(state, seat):
        if kind == "offer":
            others = [s for s, away in enumerate(state["away"]) if s != seat and not away]
            actions += [{"type": kind, "to": s} for s in others]
        elif kind in ("accept", "decline"):
            actions += [{"type": kind, "from": s} for s in incoming(state, seat)]
        elif kind == "vote":
            actions += [{"type": kind, "for": s} for s in state["tie"]["tied"]]
        elif kind == "call":
            actions += [{"type": kind, "match": True}, {"type": kind, "match": False}]
        else:
            actions.append({"type": kind})
    return actions
