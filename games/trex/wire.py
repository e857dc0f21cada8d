"""The wire shape of On a Scale of One to T-Rex (`trex`): its view, its actions, its events.

This module is the one source of T-Rex's wire shape; games/trex/PROTOCOL.md (the view tables
of its §4, the action table of its §3, the event table of its §6) is checked against it
(`tests/games/test_trex_wire.py`), and so is every view, action and event the rules make in
random play-outs: decoding and encoding again gives the very same value back.

- `TRexView`: `view.game` (docs/PROTOCOL.md §9; its page's §4) exactly as `games/trex/views.py`
  builds it — the table's view (`view(state, None)`: every public key, each one required) and
  a seat's (the same plus the seat's own keys, which a table view leaves out: they default to
  `UNSET`).
- `Action`: every action type the rules know (`rules.SHAPES`), one Struct each — the players'
  (its page's §3) and the moves only the host makes (`chance` from CHANCE; `timeout`, `away`,
  `back`, `left` from HOST), so that the room can decode those too before it refuses them
  (`not_yours`). The types say what an argument is; whether its value is allowed now is the
  rules' to judge.
- `Event`: every event the rules emit (its page's §6), including the game's own `away {seat}` /
  `back {seat}` (the same shape as the room's presence events) and a `game_over` that also
  takes the room's form (`{"type": "game_over", "result": {...}}`, §10.1): the room's events
  and the game's come in one list and decode with one tag each.

Names follow the wire: a Struct field is its key, except for keys that are Python keywords
(`from`, `for`, `in`), which are spelt `from_`, `for_`, `in_` in Python and renamed back.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, Union

import msgspec
from msgspec import Meta

from games.wire import UNSET, Count, Items, Seat, Text, UnsetType, Wire

__all__ = [
    "AcceptAction",
    "Action",
    "ActiveActions",
    "AwayAction",
    "AwayEvent",
    "BackAction",
    "BackEvent",
    "ByeByeEvent",
    "CallAction",
    "Card",
    "ChanceAction",
    "Colour",
    "ColourCounts",
    "Coop",
    "CoopCalledEvent",
    "CoopRevealedEvent",
    "DealtEvent",
    "Decks",
    "DeclineAction",
    "Event",
    "GameOverEvent",
    "LastMatch",
    "Level",
    "MatchEvent",
    "News",
    "NewsCancelled",
    "NewsDeclined",
    "NewsMatched",
    "NewsOffered",
    "NewsWithdrawn",
    "OfferAction",
    "Offers",
    "Outcome",
    "PileEmptyEvent",
    "Piles",
    "ReshuffledEvent",
    "Result",
    "SkipAction",
    "SkippedEvent",
    "Symbols",
    "TRexView",
    "TieBreak",
    "TieBreakEvent",
    "TimeoutAction",
    "VoteAction",
    "VoteResultEvent",
    "VotedEvent",
    "WithdrawAction",
]

# --- closed sets ------------------------------------------------------------------------------

Colour: TypeAlias = Literal["red", "blue", "yellow"]
"""An action colour (`deck.COLOURS`)."""
Level: TypeAlias = Annotated[int, Meta(ge=1, le=10)]
"""A number card's level (a bye-bye card, which has none, is never held or played)."""
Outcome: TypeAlias = Literal["exact", "near", "far"]
"""Two levels compared: the same, one apart, two or more apart."""
Phase: TypeAlias = Literal["dealing", "play", "call", "tie_break", "vote", "over"]
"""`dealing` and `tie_break` wait for CHANCE: a room resolves them before anyone sees a view,
but `views.view` can build them (a state with a shuffle pending)."""
LegalType: TypeAlias = Literal["offer", "withdraw", "accept", "decline", "skip", "vote", "call"]
"""The action types a player may send (`rules.legal_types`)."""
Pile: TypeAlias = Literal["good", "bad"]
DeckName: TypeAlias = Literal["numbers", "red_actions", "blue_actions", "yellow_actions"]
"""A deck that can be reshuffled (the chance deck `colour` of the sudden death never is)."""
Pair: TypeAlias = Annotated[list[bool], Meta(min_length=2, max_length=2)]
"""One bool per seat of the cooperative variant's two."""


# --- the view's parts -------------------------------------------------------------------------


class Piles(Wire):
    """Tokens by pile: `pool` (left) and `tokens` (put out at the start)."""

    good: Count
    bad: Count


class Symbols(Wire):
    """A one-character shape per colour."""

    red: Text
    blue: Text
    yellow: Text


class ActiveActions(Wire):
    """The active action text of each colour; None only while a turned-up card waits for its
    deck's reshuffle (never in a room's view)."""

    red: Text | None
    blue: Text | None
    yellow: Text | None


class ColourCounts(Wire):
    """Cards left in each colour's action deck."""

    red: Count
    blue: Count
    yellow: Count


class Decks(Wire):
    """Card counts only: the number deck, its discard pile, the action decks."""

    numbers: Count
    number_discard: Count
    actions: ColourCounts


class LastMatch(Wire):
    """The last played pair. One shape for two: the competitive `match` fields (with `good`,
    `bad`) or, in the cooperative variant, the `coop_revealed` fields (with `calls`, `right`,
    `moved`, `total_moved`); the other mode's keys are absent."""

    a: Seat
    b: Seat
    level_a: Level
    level_b: Level
    outcome: Outcome
    good: Count | UnsetType = UNSET
    bad: Count | UnsetType = UNSET
    calls: Pair | UnsetType = UNSET
    right: bool | UnsetType = UNSET
    moved: Count | UnsetType = UNSET
    total_moved: Count | UnsetType = UNSET


class TieBreak(Wire):
    """The sudden death. `colour` is None only while its chance is pending (never in a room's
    view); `tally` and `winners` are None until the vote closes."""

    tied: Items(Seat)
    voters: Items(Seat)
    colour: Colour | None
    actions: Items(Text)
    voted: Items(Seat)
    tally: Items(Count) | None
    winners: Items(Seat) | None
    timeout: bool


class Coop(Wire):
    """The cooperative variant's progress: who has called, never what."""

    moved: Count
    goal: Count
    called: Pair


class Result(Wire):
    """`result` once the game is over (the room's `game_over` event carries the same map)."""

    scores: Items(int)
    winners: Items(Seat)
    ranking: Items(Seat)
    """Those still in the game, best first."""
    left: Items(Seat)
    """Who left the game: not ranked (their tokens stay in `scores`)."""
    shared: bool
    tie_break: bool
    coop: bool
    won: bool | None
    moved: Count | None


class Card(Wire):
    """A number card in hand or played."""

    colour: Colour
    level: Level


class Offers(Wire):
    """The seat my offer is out to, and the seats whose offers are out to me."""

    out: Seat | None
    in_: Items(Seat) = msgspec.field(name="in")


class NewsOffered(Wire, tag_field="type", tag="offered"):
    id: Count
    from_: Seat = msgspec.field(name="from")


class NewsWithdrawn(Wire, tag_field="type", tag="withdrawn"):
    id: Count
    from_: Seat = msgspec.field(name="from")


class NewsDeclined(Wire, tag_field="type", tag="declined"):
    id: Count
    by: Seat


class NewsCancelled(Wire, tag_field="type", tag="cancelled"):
    id: Count
    to: Seat


class NewsMatched(Wire, tag_field="type", tag="matched"):
    id: Count
    with_: Seat = msgspec.field(name="with")
    mine: Card
    theirs: Card


News = Union[NewsOffered, NewsWithdrawn, NewsDeclined, NewsCancelled, NewsMatched]  # noqa: UP007
"""The last private thing that happened to a seat (`news`), told apart by its `type`."""


# --- events -----------------------------------------------------------------------------------


class DealtEvent(Wire, tag_field="type", tag="dealt"):
    phase: Literal["play", "call"]


class MatchEvent(Wire, tag_field="type", tag="match"):
    a: Seat
    b: Seat
    level_a: Level
    level_b: Level
    outcome: Outcome
    good: Count
    bad: Count


class SkippedEvent(Wire, tag_field="type", tag="skipped"):
    seat: Seat


class ByeByeEvent(Wire, tag_field="type", tag="byebye"):
    seat: Seat
    colour: Colour
    gone: Text
    came: Text


class ReshuffledEvent(Wire, tag_field="type", tag="reshuffled"):
    deck: DeckName


class PileEmptyEvent(Wire, tag_field="type", tag="pile_empty"):
    piles: Annotated[list[Pile], Meta(min_length=1, max_length=2)]


class TieBreakEvent(Wire, tag_field="type", tag="tie_break"):
    tied: Items(Seat)
    colour: Colour
    actions: Items(Text)
    voters: Items(Seat)


class VotedEvent(Wire, tag_field="type", tag="voted"):
    seat: Seat


class VoteResultEvent(Wire, tag_field="type", tag="vote_result"):
    tally: Items(Count)
    winners: Items(Seat)
    timeout: bool


class CoopCalledEvent(Wire, tag_field="type", tag="coop_called"):
    seat: Seat


class CoopRevealedEvent(Wire, tag_field="type", tag="coop_revealed"):
    a: Seat
    b: Seat
    level_a: Level
    level_b: Level
    outcome: Outcome
    calls: Pair
    right: bool
    moved: Count
    total_moved: Count


class GameOverEvent(Wire, tag_field="type", tag="game_over"):
    """The game's own `{winners, scores}`, or the room's `{result}` (§10.1), which follows it in
    the same event list: every key may be absent."""

    winners: Items(Seat) | UnsetType = UNSET
    scores: Items(int) | UnsetType = UNSET
    result: Result | UnsetType = UNSET


class AwayEvent(Wire, tag_field="type", tag="away"):
    """The game's echo of HOST `away`: the same shape as the room's presence event."""

    seat: Seat


class BackEvent(Wire, tag_field="type", tag="back"):
    """The game's echo of HOST `back`: the same shape as the room's presence event."""

    seat: Seat


Event = Union[  # noqa: UP007
    DealtEvent,
    MatchEvent,
    SkippedEvent,
    ByeByeEvent,
    ReshuffledEvent,
    PileEmptyEvent,
    TieBreakEvent,
    VotedEvent,
    VoteResultEvent,
    CoopCalledEvent,
    CoopRevealedEvent,
    GameOverEvent,
    AwayEvent,
    BackEvent,
]
"""Every event of T-Rex (its page's §6), told apart by its `type`."""


# --- the view ---------------------------------------------------------------------------------


class TRexView(Wire, tag_field="game", tag="trex"):
    """`view.game` of a T-Rex table: the public keys, then a seat's own (absent from the
    table's view)."""

    phase: Phase
    over: bool
    players: Items(Text)
    mode: Literal["compete", "coop"]
    lang: Text
    vote_seconds: Count
    scores: Items(int)
    good: Items(Count)
    bad: Items(Count)
    pool: Piles
    tokens: Piles
    colours: Items(Colour)
    symbols: Symbols
    actions: ActiveActions
    decks: Decks
    away: Items(bool)
    left: Items(bool)
    last_match: LastMatch | None
    tie_break: TieBreak | None
    coop: Coop | None
    last_events: Items(Event)
    result: Result | None
    # a seat's own keys
    seat: Seat | UnsetType = UNSET
    card: Card | UnsetType | None = UNSET
    offers: Offers | UnsetType = UNSET
    legal: Items(LegalType) | UnsetType = UNSET
    vote: Seat | UnsetType | None = UNSET
    call: bool | UnsetType | None = UNSET
    news: News | UnsetType | None = UNSET


# --- actions ----------------------------------------------------------------------------------


class OfferAction(Wire, tag_field="type", tag="offer"):
    to: Seat


class WithdrawAction(Wire, tag_field="type", tag="withdraw"):
    pass


class AcceptAction(Wire, tag_field="type", tag="accept"):
    from_: Seat = msgspec.field(name="from")


class DeclineAction(Wire, tag_field="type", tag="decline"):
    from_: Seat = msgspec.field(name="from")


class SkipAction(Wire, tag_field="type", tag="skip"):
    pass


class VoteAction(Wire, tag_field="type", tag="vote"):
    for_: Seat = msgspec.field(name="for")


class CallAction(Wire, tag_field="type", tag="call"):
    match: bool


class ChanceAction(Wire, tag_field="type", tag="chance"):
    """CHANCE only: a permutation of `range(size)` for the pending shuffle."""

    outcome: Items(Count)


class TimeoutAction(Wire, tag_field="type", tag="timeout"):
    """HOST only: the vote's countdown ran out."""

    phase: Literal["vote"]


class AwayAction(Wire, tag_field="type", tag="away"):
    """HOST only: the seat sits out."""

    seat: Seat


class BackAction(Wire, tag_field="type", tag="back"):
    """HOST only: the seat is back."""

    seat: Seat


class LeftAction(Wire, tag_field="type", tag="left"):
    """HOST only: the seat's player gave it up mid-game: out of the game for good."""

    seat: Seat


Action = Union[  # noqa: UP007
    OfferAction,
    WithdrawAction,
    AcceptAction,
    DeclineAction,
    SkipAction,
    VoteAction,
    CallAction,
    ChanceAction,
    TimeoutAction,
    AwayAction,
    BackAction,
    LeftAction,
]
"""Every action type of T-Rex (`rules.SHAPES`), told apart by its `type`."""
