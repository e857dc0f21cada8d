"""Every message of the wire as a type: the one source of its shape.

Each message of both directions is a `msgspec.Struct` tagged by its `type`; the room summary
and its seats are Structs too, and the limits of docs/PROTOCOL.md §3 are in the types
(`games/wire.py`). `decode` reads a frame's body *and* checks it in one pass in C: a frame that
does not fit its type is refused with the codes of §10 (`net/protocol.py` keeps the framing
and those codes). `hubbub schema` prints these types as JSON Schema; a test checks the message
and room tables of docs/PROTOCOL.md against them.

A game's own view and events are typed by the game (`games/<game>/wire.py`, its `view_type`
and `event_type`): a view is read with the types of the game its room names. What is not
typed here travels as bounded plain maps (`_plain`): any nesting of maps, lists, strings,
numbers, bools and nil within §3's limits — never deeper, so a hostile frame cannot make the
decoder recurse without end. That is an action's arguments (the game checks them, with the
refusal codes of its section), a welcome's story (it may span two games whose event tags
collide: `fitting_events` keeps what fits the first view's game) and the view and events of a
game this side does not know.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias, Union, get_args

import msgspec
from msgspec import Meta

from games.base import GAMES
from games.wire import MAX_ITEMS, UNSET, Count, Items, Number, Seat, Text, UnsetType, Wire

MAX_DEPTH = 8
"""Nesting, counting the message itself as depth 0: a container at depth 8 must be empty."""

Real: TypeAlias = int | Number
"""A finite number, int or float (an int stays an int: a `t` comes back as it went)."""
Scalar: TypeAlias = Text | int | Number | bool | None


def _plain(depth: int) -> Any:
    """Any plain value whose containers may hold values down to `depth` levels below."""
    if depth == 0:  # only scalars here, or an empty list or map
        empty_list = Annotated[list[Scalar], Meta(max_length=0)]
        empty_map = Annotated[dict[Text, Scalar], Meta(max_length=0)]
        return Text | int | Number | bool | empty_list | empty_map | None
    inner = _plain(depth - 1)
    lists = Annotated[list[inner], Meta(max_length=MAX_ITEMS)]
    maps = Annotated[dict[Text, inner], Meta(max_length=MAX_ITEMS)]
    return Text | int | Number | bool | lists | maps | None


def plain_map(depth: int) -> Any:
    """A map at `depth` (the message is 0) whose values are plain, within §3."""
    return Annotated[dict[Text, _plain(MAX_DEPTH - depth - 1)], Meta(max_length=MAX_ITEMS)]


Event: TypeAlias = plain_map(2)  # type: ignore[valid-type]
"""An event of `view.events` (§10.1, and each game's): a map with a str `type`."""
GameView: TypeAlias = plain_map(1)  # type: ignore[valid-type]
"""A game's view (§9)."""
GameAction: TypeAlias = plain_map(1)  # type: ignore[valid-type]
"""A game's action (§5.1.2): its `type` and its arguments; the game checks them."""

# --- the room summary (§8) -------------------------------------------------------------------


class SeatSummary(Wire):
    """One seat of `room.seats`."""

    name: Text
    connected: bool
    bot: Text | None
    standin: bool
    leaving: bool
    away_for: Real | None
    standin_in: Real | None
    mark: Seat  # (its symbol and colour: 0..11)


Option: TypeAlias = Text | int | Number | bool | None


class TurnClock(Wire):
    """`room.turn`: whom the countdown (`timer_seconds`) hurries when it is the turn clock."""

    seats: Items(Seat)  # type: ignore[valid-type]
    nudged: bool


class RoomSummary(Wire):
    """`view.room`: the room as everybody may see it, and which seat you are."""

    name: Text
    id: Text
    phase: Literal["lobby", "playing", "over"]
    game: Text | None
    options: Annotated[dict[Text, Option], Meta(max_length=MAX_ITEMS)]
    room_options: Annotated[dict[Text, Option], Meta(max_length=MAX_ITEMS)]
    needs_code: bool
    players: Count
    seats: Items(SeatSummary)  # type: ignore[valid-type]
    waiting: Items(Seat)  # type: ignore[valid-type]
    standins: bool
    claims: Items(Seat)  # type: ignore[valid-type]
    timer_seconds: Real | None
    turn: TurnClock | None  # nil: no turn clock (the countdown, if any, is the game's)
    you: Seat | None  # nil: a watcher


class RoomName(Wire):
    """`welcome.room` / `watching.room`."""

    name: Text
    id: Text


class StoryEntry(Wire):
    """One change of `welcome.story`: its version and its events."""

    version: int
    events: Items(plain_map(4))  # type: ignore[valid-type]


Story: TypeAlias = Items(StoryEntry)  # type: ignore[valid-type]

# --- the room's events (§10.1) ----------------------------------------------------------------


class _SeatEvent(Wire, tag_field="type"):
    seat: Seat


class _NamedSeatEvent(_SeatEvent):
    name: Text


class Joined(_NamedSeatEvent, tag="joined"):
    pass


class Back(_SeatEvent, tag="back"):
    pass


class Away(_SeatEvent, tag="away"):
    pass


class StandIn(_SeatEvent, tag="stand_in"):
    pass


class SitsOut(_SeatEvent, tag="sits_out"):
    pass


class KickedEvent(_NamedSeatEvent, tag="kicked"):
    pass


class Left(_NamedSeatEvent, tag="left"):
    pass


class BotTakesOver(_SeatEvent, tag="bot_takes_over"):
    pass


class PlayedFor(_SeatEvent, tag="played_for"):
    pass


class Nudged(Wire, tag_field="type", tag="nudged"):
    seats: Items(Seat)  # type: ignore[valid-type]


class Claim(_SeatEvent, tag="claim"):
    pass


class ClaimApproved(_SeatEvent, tag="claim_approved"):
    pass


class ClaimRefused(_SeatEvent, tag="claim_refused"):
    pass


class GameChosen(Wire, tag_field="type", tag="game_chosen"):
    game: Text


class OptionChanged(Wire, tag_field="type", tag="option"):
    key: Text
    value: Option


class GameStarted(Wire, tag_field="type", tag="game_started"):
    game: Text


class GameOver(Wire, tag_field="type", tag="game_over"):
    result: plain_map(3)  # type: ignore[valid-type]


class GameEnded(Wire, tag_field="type", tag="game_ended"):
    again: bool | UnsetType = UNSET
    stopped: bool | UnsetType = UNSET


ROOM_EVENTS: tuple[type[Wire], ...] = (
    Joined, Back, Away, StandIn, SitsOut, KickedEvent, Left, BotTakesOver, PlayedFor, Nudged,
    Claim, ClaimApproved, ClaimRefused, GameChosen, OptionChanged, GameStarted, GameOver,
    GameEnded,
)  # fmt: skip
"""The room's own events; a game's events come in the same list (§5.2.3)."""


def _tag(kind: Any) -> str:
    return kind.__struct_config__.tag


def events_type(game_id: str | None) -> Any:
    """What the events of a view of `game_id` may be: the game's own (`event_type`) and the
    room's — a game's event of the same tag (its `game_over`, its `away`) stands for the
    room's. A game whose events are not typed: bounded plain maps."""
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game_id is not None and (game is None or game.event_type is None):
        return Items(Event)  # a game this side does not know, or whose events are untyped
    own = get_args(game.event_type) if game is not None else ()
    tags = {_tag(kind) for kind in own}
    kinds = (*own, *(kind for kind in ROOM_EVENTS if _tag(kind) not in tags))
    return Items(Union[kinds])  # noqa: UP007 — built at run time


def fitting_events(game_id: str | None, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of `events` (a `welcome`'s story: plain maps at the door, for a story may span two
    games whose tags collide), those that fit the events of a view of `game_id`, to be told
    with its first view; one that does not (another game's, or a lie) is not told."""
    element = get_args(get_args(events_type(game_id))[0])[0]  # Items(...) -> list[X] -> X
    fitting = []
    for event in events:
        try:
            msgspec.convert(event, element)
        except msgspec.ValidationError:
            continue
        fitting.append(event)
    return fitting


# --- client -> host (§5.1) -------------------------------------------------------------------


class Relay(Wire):
    """`hello.relay`: from the host's own web gateway only (§7.11)."""

    # any plain value: the host judges them, and refuses what is not its own with `bad_relay`
    key: Scalar | UnsetType = UNSET
    address: Scalar | UnsetType = UNSET


class Hello(Wire, tag="hello", tag_field="type"):
    protocol: int
    name: Text | UnsetType = UNSET
    code: Text | UnsetType = UNSET
    token: Text | UnsetType = UNSET
    watch: bool | UnsetType = UNSET
    relay: Relay | UnsetType = UNSET


class Action(Wire, tag="action", tag_field="type"):
    action: GameAction  # type: ignore[valid-type]
    version: int
    ref: int | UnsetType = UNSET

    def __post_init__(self) -> None:
        kind = self.action.get("type")
        if not isinstance(kind, str) or not kind:
            raise ValueError("the action needs a type")  # refused as `bad_message`


class Ping(Wire, tag="ping", tag_field="type"):
    """Either side checks the link; the other answers `pong` with the same `t`."""

    t: Real | UnsetType = UNSET


class Pong(Wire, tag="pong", tag_field="type"):
    t: Real | UnsetType = UNSET


class Bye(Wire, tag="bye", tag_field="type"):
    """Give the seat up."""


# --- host -> client (§5.2) -------------------------------------------------------------------


class Welcome(Wire, tag="welcome", tag_field="type"):
    protocol: int
    seat: int
    token: Text
    room: RoomName
    story: Story | UnsetType = UNSET  # type: ignore[valid-type]


class Watching(Wire, tag="watching", tag_field="type"):
    protocol: int
    room: RoomName
    story: Story | UnsetType = UNSET  # type: ignore[valid-type]


class View(Wire, tag="view", tag_field="type"):
    version: int
    room: RoomSummary
    game: msgspec.Raw
    """The game's view, or nil in the lobby: `decode` reads it with the type of the game
    `room.game` names (`game_view_type`), once the room is read."""
    events: msgspec.Raw
    """The change's events: the room's and the game's (`events_type`), read likewise."""


ShortList: TypeAlias = Annotated[list[Text | int], Meta(max_length=64)]
Param: TypeAlias = Text | int | Number | bool | ShortList | None


class Error(Wire, tag="error", tag_field="type"):
    code: Text
    message: Text
    key: Text | UnsetType = UNSET
    params: Annotated[dict[Text, Param], Meta(max_length=MAX_ITEMS)] | UnsetType = UNSET
    ref: int | UnsetType = UNSET


class Pending(Wire, tag="pending", tag_field="type"):
    reason: Text
    seat: int


class Kicked(Wire, tag="kicked", tag_field="type"):
    reason: Text
    resumable: bool | UnsetType = UNSET


Message: TypeAlias = (
    Hello | Action | Ping | Pong | Bye | Welcome | Watching | View | Error | Pending | Kicked
)
"""Every message of both directions (a `ping` and a `pong` go either way)."""

MESSAGES: dict[str, type[Wire]] = {
    kind.__struct_config__.tag: kind  # type: ignore[misc]
    for kind in (Hello, Action, Ping, Pong, Bye, Welcome, Watching, View, Error, Pending, Kicked)
}
"""Each message type by its `type`."""
TO_HOST = frozenset({"hello", "action", "ping", "pong", "bye"})
"""What a client sends (§5.1)."""
TO_CLIENT = frozenset({"welcome", "watching", "view", "error", "pending", "kicked", "ping", "pong"})
"""What a host sends (§5.2)."""

_decoder = msgspec.msgpack.Decoder(Message)
_NIL = b"\xc0"
_game_decoders: dict[str | None, tuple[msgspec.msgpack.Decoder[Any], ...]] = {}


def game_view_type(game_id: str | None) -> Any:
    """The type of a game's view: the game's own (`view_type`, `games/<game>/wire.py`), or a
    bounded plain map for a game this side does not know."""
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    return (game.view_type if game is not None else None) or GameView


def _decoders(game_id: str | None) -> tuple[msgspec.msgpack.Decoder[Any], ...]:
    """(the game's view, the events of its views) decoders, made once per game."""
    decoders = _game_decoders.get(game_id)
    if decoders is None:
        decoders = _game_decoders[game_id] = (
            msgspec.msgpack.Decoder(game_view_type(game_id)),
            msgspec.msgpack.Decoder(events_type(game_id)),
        )
    return decoders


def decode(body: bytes) -> Wire:
    """A frame's body as its typed message; `msgspec.DecodeError` for bytes that are not one
    msgpack value, `msgspec.ValidationError` for one that does not fit its type. A view's
    game part is read with its game's type, once its room says which game it is (each byte is
    still read once)."""
    message = _decoder.decode(body)
    if type(message) is View:
        game, events = _decoders(message.room.game)
        try:
            raw = bytes(message.game)
            message.game = None if raw == _NIL else game.decode(raw)
        except msgspec.ValidationError as wrong:
            raise msgspec.ValidationError(f"{wrong} (in `$.game`)") from None
        try:
            message.events = events.decode(message.events)
        except msgspec.ValidationError as wrong:
            raise msgspec.ValidationError(f"{wrong} (in `$.events`)") from None
    return message


def as_plain(message: Wire) -> dict[str, Any]:
    """A decoded message as the plain maps and lists the screens read."""
    return msgspec.to_builtins(message)


def schema() -> dict[str, Any]:
    """The wire as JSON Schema: every message, the room summary, their parts, the view of each
    game (a `view`'s `game` is one of them, or nil) and every event — the room's and each
    game's (a `view`'s `events` are the room's and its game's: `events_type`)."""
    typed = [g for g in GAMES.values() if g.view_type is not None]
    any_game = Union[tuple(g.view_type for g in typed)] if typed else GameView  # noqa: UP007
    view = msgspec.defstruct(
        "View",
        [("version", int), ("room", RoomSummary), ("game", any_game | None),
         ("events", Items(Event))],
        bases=(Wire,), tag="view", tag_field="type",
    )  # fmt: skip
    kinds = tuple(view if kind is View else kind for kind in MESSAGES.values())
    events = [g.event_type for g in typed if getattr(g, "event_type", None)]
    (root, *_), components = msgspec.json.schema_components(
        [Union[kinds], Union[ROOM_EVENTS], *events],  # noqa: UP007
        ref_template="#/$defs/{name}",
    )
    return {**root, "$defs": components}
