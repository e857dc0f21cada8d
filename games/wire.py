"""The wire's building blocks, for the typed messages of the games and of the room.

Every message hubbub sends or reads has one `msgspec.Struct` type: the host's envelope
messages in `net/wire.py`, each game's view, actions and events in `games/<game>/wire.py`.
The limits of docs/PROTOCOL.md §3 are written into the types (`Meta`), so decoding a frame
with them *is* checking it: one pass in C, and a value that does not fit is a
`msgspec.ValidationError` naming where (`$.game.scores[2]`).

A key a message may leave out (a private view's own keys, an event's optional field) has the
default `UNSET`: it is then absent from the decoded value as from the encoded one, never a
made-up nil.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import msgspec
from msgspec import UNSET, Meta, UnsetType

__all__ = [
    "MAX_ITEMS",
    "MAX_STR",
    "UNSET",
    "Count",
    "Items",
    "Number",
    "Seat",
    "Text",
    "UnsetType",
    "Wire",
    "WireMap",
]

MAX_STR = 1024
"""Characters in any string (§3)."""
MAX_ITEMS = 512
"""Entries in any list or map (§3)."""

Text: TypeAlias = Annotated[str, Meta(max_length=MAX_STR)]
"""Any string on the wire."""
Seat: TypeAlias = Annotated[int, Meta(ge=0, lt=MAX_ITEMS)]
"""A seat's index."""
Count: TypeAlias = Annotated[int, Meta(ge=0)]
"""A number that cannot be negative (a round, a version, a count)."""
Number: TypeAlias = Annotated[float, Meta(ge=-1e300, le=1e300)]
"""A finite number (seconds, a clock): NaN and the infinities do not fit."""


def Items(kind: Any) -> Any:
    """A list of at most `MAX_ITEMS` of `kind`."""
    return Annotated[list[kind], Meta(max_length=MAX_ITEMS)]


def WireMap(kind: Any) -> Any:
    """A map of strings to `kind`, at most `MAX_ITEMS` entries."""
    return Annotated[dict[Text, kind], Meta(max_length=MAX_ITEMS)]


class Wire(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Every typed message and part of one: a key it does not know is refused, a key left
    `UNSET` is not sent."""
