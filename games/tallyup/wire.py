"""The wire shape of Tally Up!: its game view, its actions and its events, as msgspec types.

This module is the one source of what a Tally Up! game puts on the wire and reads from it.
`TallyUpView` is `view.game` exactly as `games/tallyup/views.py` builds it — the table's view
(`view(state, None)`) and a seat's, which adds `seat`, `token` and `legal`; `Action` is what a
player may send (`HostAction`: the moves of the host's own seats, never a client's); `Event`
is every event the rules emit, as the view's `last_events` and the room's `view.events` carry
them. games/tallyup/PROTOCOL.md describes the same keys in words and is checked against these
types (tests/games/test_tallyup_wire.py), so the two cannot drift apart.

The types say what is *well formed*: the right keys, each of the right type and within the
limits of §3. Whether a well-formed action is *allowed* (three distinct colours, the active
player's turn, a side while IN) is still for the rules to judge.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from games.wire import UNSET, Count, Items, Seat, Text, UnsetType, Wire

__all__ = [
    "Action",
    "Away",
    "AwayEvent",
    "Back",
    "BackEvent",
    "BonusDice",
    "BonusDiceEvent",
    "BonusRolledEvent",
    "BustEvent",
    "Chance",
    "ChoiceFor",
    "ChoiceOpenEvent",
    "ChooseDice",
    "Colour",
    "DiceChosenEvent",
    "Event",
    "EventDie",
    "ExtraRoundEvent",
    "FaceIndex",
    "GameOverEvent",
    "HostAction",
    "LockedEvent",
    "Phase",
    "PlayerActionType",
    "RevealedEvent",
    "Roll",
    "RolledEvent",
    "RollingEvent",
    "RoundEndEvent",
    "RoundStartEvent",
    "Score",
    "Seconds",
    "Shout",
    "ShoutClosedEvent",
    "ShoutEvent",
    "ShoutState",
    "Side",
    "TallyBonusEvent",
    "TallyUpEvent",
    "TallyUpResult",
    "TallyUpView",
    "Timeout",
    "TimerPhase",
    "Token",
    "UpDieEvent",
    "UpDieLabel",
    "ViewDie",
]

# --- the closed sets ---------------------------------------------------------------------------

Colour: TypeAlias = Literal["red", "orange", "yellow", "green", "blue", "purple"]
"""A Tally Die, by its colour (`dice.COLOURS`)."""
FaceIndex: TypeAlias = Annotated[int, Meta(ge=0, le=5)]
"""A face of a die, by its index in the printed order."""
UpDieLabel: TypeAlias = Literal["+1", "+2", "+3", "-100", "+100", "x2"]
"""An Up Die face as printed (`dice.UP_DIE`)."""
Phase: TypeAlias = Literal["choose_dice", "roll", "shout", "choice", "up_die", "bonus_dice", "over"]
"""The phases a view can show. The CHANCE phases (`rolling`, `up_rolling`, `bonus_rolling`)
are not among them: the room resolves a chance move inside the change that needs it (§9)."""
TimerPhase: TypeAlias = Literal["choice", "shout"]
"""The phases with a countdown (`rules.timer`)."""
ChoiceFor: TypeAlias = Literal["up_die", "reveal"]
"""Why a sealed choice is open: before the Up Die, or the reveal after a roll."""
Side: TypeAlias = Literal["in", "out"]
"""A sealed token's side."""
PlayerActionType: TypeAlias = Literal["choose_dice", "roll", "bonus_dice", "token", "shout"]
"""The action types a player may send: what a private view's `legal` lists."""
Seconds: TypeAlias = Count | Annotated[float, Meta(ge=0, le=1e300)]
"""A countdown option: whole seconds from the lobby, though the rules take a fraction too."""
Score: TypeAlias = int
"""A score or a running total: it may go below zero (a `-100` banked)."""

# --- the parts of a view --------------------------------------------------------------------


class ViewDie(Wire):
    """A rolled die as a view spells it out (`dice.face_dict`)."""

    colour: Colour
    face: FaceIndex
    label: Text
    """As printed: `*`, `(50)` for a circled number, `50` for a plain one."""
    points: Count
    star: bool
    circle: bool


class EventDie(Wire):
    """A rolled die as an event names it: the colour and the face index only."""

    colour: Colour
    face: FaceIndex


class ShoutState(Wire):
    """The last Tally Up! (the view's `shout`): the window is open, and who shouted first."""

    open: bool
    winner: Seat | None


class TallyUpResult(Wire):
    """The game's result once it is over: the view's `result`, the room's `game_over`'s."""

    scores: Items(Score)
    winners: Items(Seat)
    ranking: Items(Seat)
    """Every seat, best score first."""
    shared: bool
    rounds: Count
    extra_rounds: Count


# --- actions --------------------------------------------------------------------------------


class ChooseDice(Wire, tag_field="type", tag="choose_dice"):
    """The active player picks the round's three dice (any order; the rules sort them)."""

    dice: Items(Colour)


class Roll(Wire, tag_field="type", tag="roll"):
    """The active player's Main Roll, or the Up Die when it is due."""


class BonusDice(Wire, tag_field="type", tag="bonus_dice"):
    """The active player picks the dice of a +1 / +2 Bonus Roll from the unused ones."""

    dice: Items(Colour)


class Token(Wire, tag_field="type", tag="token"):
    """An IN player seals (or re-seals) a side."""

    side: Side


class Shout(Wire, tag_field="type", tag="shout"):
    """Anyone, while a Tally Up! window is open: the first shout wins."""


Action: TypeAlias = ChooseDice | Roll | BonusDice | Token | Shout
"""Every action a player may send (its page's §4)."""


class Chance(Wire, tag_field="type", tag="chance"):
    """CHANCE's roll: one face index per die, or one face for the Up Die."""

    outcome: int | Items(int)


class Timeout(Wire, tag_field="type", tag="timeout"):
    """HOST, when a countdown runs out; `phase` names the countdown (without it: the current
    phase's, as the rules read it)."""

    phase: TimerPhase | UnsetType = UNSET


class Away(Wire, tag_field="type", tag="away"):
    """HOST: a seat's player is gone (only with no stand-in to play it)."""

    seat: Seat


class Back(Wire, tag_field="type", tag="back"):
    """HOST: the seat's player is back."""

    seat: Seat


HostAction: TypeAlias = Chance | Timeout | Away | Back
"""The moves of the host's own seats (HOST, CHANCE): in the game's log and save file, never
from a client (the room refuses them `not_yours`, §5.1.2)."""

# --- events ---------------------------------------------------------------------------------


class RoundStartEvent(Wire, tag_field="type", tag="round_start"):
    round: Count
    active: Seat


class DiceChosenEvent(Wire, tag_field="type", tag="dice_chosen"):
    seat: Seat
    dice: Items(Colour)


class RollingEvent(Wire, tag_field="type", tag="rolling"):
    seat: Seat
    roll: Literal["main", "up_die"]
    dice: Items(Colour)
    """The dice in the air; `[]` for the Up Die."""


class RolledEvent(Wire, tag_field="type", tag="rolled"):
    seat: Seat
    dice: Items(EventDie)
    stars: Count
    points: Count
    """What the roll added: 0 on a bust or a Tally Up!."""
    running_total: Score
    up_die_due: bool


class TallyUpEvent(Wire, tag_field="type", tag="tally_up"):
    seat: Seat


class ShoutEvent(Wire, tag_field="type", tag="shout"):
    seat: Seat
    points: Count


class ShoutClosedEvent(Wire, tag_field="type", tag="shout_closed"):
    pass


class TallyBonusEvent(Wire, tag_field="type", tag="tally_bonus"):
    seats: Items(Seat)
    points: Count


class ChoiceOpenEvent(Wire, tag_field="type", tag="choice_open"):
    for_: ChoiceFor = msgspec.field(name="for")
    seats: Items(Seat)


class LockedEvent(Wire, tag_field="type", tag="locked"):
    seat: Seat


class RevealedEvent(Wire, tag_field="type", tag="revealed"):
    out: Items(Seat)
    stay: Items(Seat)
    banked: Score
    timeout: bool


class UpDieEvent(Wire, tag_field="type", tag="up_die"):
    """`bonus` for +1 / +2 / +3, `running_total` for the other faces: never both."""

    seat: Seat
    face: FaceIndex
    label: UpDieLabel
    bonus: Annotated[int, Meta(ge=1, le=3)] | UnsetType = UNSET
    running_total: Score | UnsetType = UNSET


class BonusDiceEvent(Wire, tag_field="type", tag="bonus_dice"):
    seat: Seat
    dice: Items(Colour)


class BonusRolledEvent(Wire, tag_field="type", tag="bonus_rolled"):
    seat: Seat
    dice: Items(EventDie)
    stars: Count
    points: Count
    running_total: Score


class BustEvent(Wire, tag_field="type", tag="bust"):
    stage: Literal["main", "bonus"]
    lost: Items(Seat)
    amount: Score


class AwayEvent(Wire, tag_field="type", tag="away"):
    seat: Seat


class BackEvent(Wire, tag_field="type", tag="back"):
    seat: Seat


class RoundEndEvent(Wire, tag_field="type", tag="round_end"):
    round: Count
    scores: Items(Score)


class ExtraRoundEvent(Wire, tag_field="type", tag="extra_round"):
    number: Count
    tied: Items(Seat)


class GameOverEvent(Wire, tag_field="type", tag="game_over"):
    """Two events share this tag in one list: the game's own `{winners, scores}` and, after
    it, the room's `{result}` (§10.1). One type reads both; tell them apart by `result`."""

    winners: Items(Seat) | UnsetType = UNSET
    scores: Items(Score) | UnsetType = UNSET
    result: TallyUpResult | UnsetType = UNSET


Event: TypeAlias = (
    RoundStartEvent
    | DiceChosenEvent
    | RollingEvent
    | RolledEvent
    | TallyUpEvent
    | ShoutEvent
    | ShoutClosedEvent
    | TallyBonusEvent
    | ChoiceOpenEvent
    | LockedEvent
    | RevealedEvent
    | UpDieEvent
    | BonusDiceEvent
    | BonusRolledEvent
    | BustEvent
    | AwayEvent
    | BackEvent
    | RoundEndEvent
    | ExtraRoundEvent
    | GameOverEvent
)
"""Every event of the game (its page's §6), and the room's `game_over` (§10.1)."""

# --- the view -------------------------------------------------------------------------------


class TallyUpView(Wire, tag_field="game", tag="tallyup"):
    """`view.game` in a Tally Up! game: the table's view, or a seat's with its own three keys."""

    phase: Phase
    over: bool
    players: Items(Text)
    scores: Items(Score)
    target: Annotated[int, Meta(ge=1)]
    once_each: bool
    high_stakes: bool
    choice_seconds: Seconds
    shout_seconds: Seconds
    round: Count
    extra_round: Count
    active: Seat
    dice: Items(Colour)
    unused: Items(Colour)
    running_total: Score
    out: Items(bool)
    locked: Items(bool)
    away: Items(bool)
    choice_for: ChoiceFor | None
    last_roll: Items(ViewDie)
    main_stars: Count | None
    up_die: FaceIndex | None
    up_die_label: UpDieLabel | None
    bonus_count: Count
    bonus_dice: Items(Colour)
    bonus: Items(ViewDie)
    shout: ShoutState | None
    history: Items(Items(Score))
    last_events: Items(Event)
    result: TallyUpResult | None
    # a seat's own view adds:
    seat: Seat | UnsetType = UNSET
    token: Side | UnsetType | None = UNSET
    """The seat's own sealed side; nil if it has not locked in (or outside a choice)."""
    legal: Items(PlayerActionType) | UnsetType = UNSET
