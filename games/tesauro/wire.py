"""Tesauro's wire shape: the one source of what its view, actions and events look like.

`TesauroView` is the game view exactly as `games/tesauro/views.py` builds it: the table's
(`view(state, None)`: every public key, each required) and a seat's (the public keys plus the
seat's own, which default to `UNSET` so the table's view has none of them). `Action` is every
action type the rules take (`SeatAction`: what a seat sends; `HostAction`: the host's own
moves, which the room refuses from a client), `Event` every event the rules emit. Decoding a
frame with these types checks its shape and the limits of docs/PROTOCOL.md §3; the rules still
judge the values (a definition's length, whose turn it is).

games/tesauro/PROTOCOL.md (the tables of its §3, §4 and §6) is checked against this module by
`tests/games/test_tesauro_wire.py`: where the two disagree, this module and the rules are right.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from msgspec import Meta

from games.tesauro.deck import CATEGORIES
from games.wire import UNSET, Count, Items, Seat, Text, UnsetType, Wire

__all__ = [
    "Action",
    "ActionType",
    "AwayAction",
    "AwayEvent",
    "BackAction",
    "BackEvent",
    "Category",
    "ChanceAction",
    "ChooseAction",
    "CrazyAction",
    "DeckEmptyEvent",
    "DefineAction",
    "Definition",
    "DoneAction",
    "Entry",
    "Event",
    "GameOverEvent",
    "GivenEvent",
    "HostAction",
    "JudgedEvent",
    "LastTurn",
    "Mode",
    "Phase",
    "PickAction",
    "ReadyEvent",
    "Reason",
    "Result",
    "RevealedEvent",
    "Role",
    "SeatAction",
    "ShuffledEvent",
    "SpeakingEvent",
    "SpokeEvent",
    "TesauroView",
    "ThoughtEvent",
    "TieBreak",
    "TieBreakEvent",
    "TileAction",
    "TileEvent",
    "TimeoutAction",
    "TurnEvent",
    "WordEvent",
]

# --- closed sets -----------------------------------------------------------------------------

Phase: TypeAlias = Literal["dealing", "choose", "write", "speak", "judge", "over"]
"""`view.phase` (`dealing` waits for chance: the room never shows it)."""
Role: TypeAlias = Literal["sapiente", "brillante", "orate"]
Category: TypeAlias = Literal[CATEGORIES]  # type: ignore[valid-type]
"""A category tile's id (`games.tesauro.deck.CATEGORIES`)."""
Mode: TypeAlias = Literal["typed", "spoken"]
Reason: TypeAlias = Literal["rounds", "deck_empty"]
"""Why the game ended."""
TieRound: TypeAlias = Literal[1, 2]
"""A tie-break series: the first, or the one more after it."""
ActionType: TypeAlias = Literal["choose", "tile", "define", "done", "pick", "crazy"]
"""What `legal` may name: the action types a seat sends."""
Seconds: TypeAlias = Annotated[int, Meta(ge=0)] | Annotated[float, Meta(ge=0, le=1e300)]
"""`think_seconds`: an int from the lobby (0 = no limit); the rules take any finite number
of seconds >= 0, so a float is kept a float."""

# --- the parts of a view ---------------------------------------------------------------------


class Entry(Wire):
    """One side of a card as a scholar sees it: the word, its category, its true definition."""

    word: Text
    category: Category
    definition: Text


class Definition(Wire):
    """A definition on the table: who gave it, with which tile; `text` None when said aloud."""

    seat: Seat
    tile: Category
    text: Text | None


class TieBreak(Wire):
    """A tie-break series: its round and the tied seats, Sapiente order."""

    round: TieRound
    tied: Items(Seat)


class LastTurn(Wire):
    """The turn just judged, all of it revealed (`view.last_turn`; the `judged` event)."""

    turn: Count
    sapiente: Seat
    reader: Seat
    word: Text
    category: Category
    definition: Text
    brillante: Seat | None
    roles: Items(Role)
    pick: Seat | None
    crazy: bool
    right: bool
    taker: Seat | None
    under: bool
    defs: Items(Definition)
    tiles: Items(Category | None)
    tie_break: bool


class Result(Wire):
    """`view.result` once the game is over (also the room's `game_over` event's `result`)."""

    scores: Items(Count)
    winners: Items(Seat)
    ranking: Items(Seat)
    shared: bool
    reason: Reason
    tie_break: Items(TieBreak)


# --- actions ---------------------------------------------------------------------------------


class ChooseAction(Wire, tag_field="type", tag="choose"):
    """The reader: which of the card's two words is played (the rules refuse all but 0 and 1)."""

    entry: int


class TileAction(Wire, tag_field="type", tag="tile"):
    """A scholar: take a free category tile, or swap to it."""

    category: Category


class DefineAction(Wire, tag_field="type", tag="define"):
    """A definition (the rules clean it and want 1..300 characters)."""

    text: Text


class DoneAction(Wire, tag_field="type", tag="done"):
    """Spoken mode: "I am ready" / "I have said mine"."""


class PickAction(Wire, tag_field="type", tag="pick"):
    """The Sapiente: the definition of `seat` is the true one."""

    seat: Seat


class CrazyAction(Wire, tag_field="type", tag="crazy"):
    """The Sapiente: "Everyone's crazy!"."""


class ChanceAction(Wire, tag_field="type", tag="chance"):
    """CHANCE: a permutation for the pending shuffle (the host's; never from a client)."""

    outcome: Items(Count)


class TimeoutAction(Wire, tag_field="type", tag="timeout"):
    """HOST: the thinking time of `turn` ran out."""

    phase: Literal["write"]
    turn: Count


class AwayAction(Wire, tag_field="type", tag="away"):
    """HOST: a seat is away (only from a host that has no stand-in)."""

    seat: Seat


class BackAction(Wire, tag_field="type", tag="back"):
    """HOST: an away seat is back."""

    seat: Seat


SeatAction: TypeAlias = (
    ChooseAction | TileAction | DefineAction | DoneAction | PickAction | CrazyAction
)
"""An action a seat sends (games/tesauro/PROTOCOL.md.3)."""
HostAction: TypeAlias = ChanceAction | TimeoutAction | AwayAction | BackAction
"""The host's own moves: a client sending one is refused `not_yours` (§5.1.2)."""
Action: TypeAlias = SeatAction | HostAction
"""Every action the rules take (`rules.SHAPES`)."""

# --- events ----------------------------------------------------------------------------------


class ShuffledEvent(Wire, tag_field="type", tag="shuffled"):
    """The dictionary was shuffled: the game starts."""


class TurnEvent(Wire, tag_field="type", tag="turn"):
    """A turn begins; `round` None in the tie-break, `tie_break` its series or None."""

    turn: Count
    sapiente: Seat
    reader: Seat
    round: Count | None
    tie_break: TieRound | None


class WordEvent(Wire, tag_field="type", tag="word"):
    """The reader chose the word (`auto`: they were away, the first word is played)."""

    seat: Seat
    word: Text
    auto: bool


class TileEvent(Wire, tag_field="type", tag="tile"):
    """A tile was taken; `released` the one given back, or None."""

    seat: Seat
    category: Category
    released: Category | None


class GivenEvent(Wire, tag_field="type", tag="given"):
    """Typed mode: a scholar gave a definition (not what)."""

    seat: Seat


class ReadyEvent(Wire, tag_field="type", tag="ready"):
    """Spoken mode: a scholar is ready."""

    seat: Seat


class ThoughtEvent(Wire, tag_field="type", tag="thought"):
    """Spoken mode: the thinking time is over."""

    timeout: bool


class SpeakingEvent(Wire, tag_field="type", tag="speaking"):
    """Spoken mode: whose turn it is to speak."""

    seat: Seat


class SpokeEvent(Wire, tag_field="type", tag="spoke"):
    """Spoken mode: a scholar has spoken (`text` None when said aloud)."""

    seat: Seat
    tile: Category
    text: Text | None


class RevealedEvent(Wire, tag_field="type", tag="revealed"):
    """The definitions are out: judging begins."""

    defs: Items(Definition)
    timeout: bool


class JudgedEvent(LastTurn, tag_field="type", tag="judged"):
    """The Sapiente judged: the turn's secrets, revealed (the fields of `LastTurn`)."""


class TieBreakEvent(Wire, tag_field="type", tag="tie_break"):
    """Tie-break turns begin."""

    round: TieRound
    tied: Items(Seat)


class DeckEmptyEvent(Wire, tag_field="type", tag="deck_empty"):
    """The deck ran out before a turn: the game ends."""


class GameOverEvent(Wire, tag_field="type", tag="game_over"):
    """The game ended. The game's own carries `winners`, `scores` and `reason`; the room's
    (net/room.py, in the same event lists) carries only `result`. One type reads both, so
    every field may be absent."""

    winners: Items(Seat) | UnsetType = UNSET
    scores: Items(Count) | UnsetType = UNSET
    reason: Reason | UnsetType = UNSET
    result: Result | UnsetType = UNSET


class AwayEvent(Wire, tag_field="type", tag="away"):
    """The game's echo of HOST `away {seat}`: the room's own `away` has the same shape."""

    seat: Seat


class BackEvent(Wire, tag_field="type", tag="back"):
    """The game's echo of HOST `back {seat}`: the room's own `back` has the same shape."""

    seat: Seat


Event: TypeAlias = (
    ShuffledEvent
    | TurnEvent
    | WordEvent
    | TileEvent
    | GivenEvent
    | ReadyEvent
    | ThoughtEvent
    | SpeakingEvent
    | SpokeEvent
    | RevealedEvent
    | JudgedEvent
    | TieBreakEvent
    | DeckEmptyEvent
    | GameOverEvent
    | AwayEvent
    | BackEvent
)
"""Every event the rules emit (games/tesauro/PROTOCOL.md.6)."""

# --- the view --------------------------------------------------------------------------------


class TesauroView(Wire, tag_field="game", tag="tesauro"):
    """`view.game` of a Tesauro table: the public keys, then a seat's own (UNSET in the
    table's view). In the seat's keys, None is a value of the view, not an absence."""

    phase: Phase
    over: bool
    players: Items(Text)
    lang: Text
    words: Text
    mode: Mode
    think_seconds: Seconds
    rounds: Count
    turn: Count
    turns: Count
    round: Count | None
    sapiente: Seat | None
    reader: Seat | None
    order: Items(Seat)
    word: Text | None
    categories: Items(Category | None)
    given: Items(bool)
    speaker: Seat | None
    speakers: Items(Seat)
    defs: Items(Definition)
    scores: Items(Count)
    deck: Count
    away: Items(bool)
    last_turn: LastTurn | None
    tie_break: TieBreak | None
    last_events: Items(Event)
    result: Result | None
    # a seat's own
    seat: Seat | UnsetType = UNSET
    role: Role | UnsetType | None = UNSET
    entry: Entry | UnsetType | None = UNSET
    paraphrase: Text | UnsetType | None = UNSET
    choices: Annotated[list[Entry], Meta(min_length=2, max_length=2)] | UnsetType | None = UNSET
    tile: Category | UnsetType | None = UNSET
    text: Text | UnsetType | None = UNSET
    allowed: Items(Category) | UnsetType = UNSET
    legal: Items(ActionType) | UnsetType = UNSET
