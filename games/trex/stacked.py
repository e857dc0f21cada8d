"""Stacked decks: CHANCE outcomes chosen so that named cards come up, for tests, screenshots and
demos that need a T-Rex game in a given state.

A shuffle outcome is a permutation of the pending pile (see "Randomness and draw order" in the
package docstring); `stack` builds the one that puts the named cards on top, in the order
given, and leaves every other card in its current order beneath them. Cards are named the way
people say them:

- a number card: a level (`7`: the first 7 of any colour), `("red", 7)`, or `("red", None)` /
  `byebye("red")` for a bye-bye card;
- an action card: its text, or its index in the colour's text list;
- the sudden death's colour: the colour name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from games.base import CHANCE, Action, State
from games.trex.deck import COLOURS
from games.trex.rules import NUMBER_DECK, TIE_COLOUR

NumberSpec = int | tuple[str, int | None]
LogEntry = tuple[int, Action]


def byebye(colour: str) -> tuple[str, None]:
    """A bye-bye card of `colour`, named for `stack`."""
    return (colour, None)


def stack(state: State, top: Sequence[Any] = ()) -> list[int]:
    """The outcome of the pending shuffle that puts `top` first, in order."""
    spec = state["chance"]
    if spec is None:
        raise ValueError("no shuffle is pending")
    deck = spec["deck"]
    if deck == TIE_COLOUR:
        chosen = [COLOURS.index(colour) for colour in top]
        return chosen + [i for i in range(len(COLOURS)) if i not in chosen]
    if deck == NUMBER_DECK:
        pile = state["numbers"]
        matches = [_number_matcher(state, card) for card in top]
    else:
        colour = deck.removesuffix("_actions")
        pile = state["action_decks"][colour]
        matches = [_action_matcher(state, colour, card) for card in top]
    chosen: list[int] = []
    for match, card in zip(matches, top, strict=True):
        found = next((i for i, c in enumerate(pile) if i not in chosen and match(c)), None)
        if found is None:
            raise ValueError(f"{card!r} is not in the {deck} pile")
        chosen.append(found)
    return chosen + [i for i in range(len(pile)) if i not in chosen]


def chance_move(state: State, top: Sequence[Any] = ()) -> LogEntry:
    """The CHANCE move that resolves the pending shuffle with `top` first."""
    return CHANCE, {"type": "chance", "outcome": stack(state, top)}


def deal(
    game: Any,
    players: list[str],
    options: dict | None = None,
    hands: Iterable[NumberSpec] = (),
    then: Iterable[NumberSpec] = (),
    actions: dict[str, Sequence[Any]] | None = None,
) -> list[LogEntry]:
    """The CHANCE moves of a setup that deals `hands` (seat 0 first) and leaves `then` on top
    of the number deck; each colour's action deck keeps file order unless `actions` names the
    cards to put on top (the first becomes the active action).

    Only the first number shuffle is stacked: a bye-bye named in `hands` is shuffled back and
    its seat dealt the next card (drive the CHANCE moves yourself to choose that one too)."""
    state = game.setup(list(players), dict(options or {}))
    log: list[LogEntry] = []
    numbers = [*hands, *then]
    while (spec := game.chance(state)) is not None:
        if spec["deck"] == NUMBER_DECK:
            move = chance_move(state, numbers)
            numbers = []
        else:
            colour = spec["deck"].removesuffix("_actions")
            move = chance_move(state, (actions or {}).get(colour, ()))
        game.apply(state, *move)
        log.append(move)
    return log


def _number_matcher(state: State, card: NumberSpec):
    cards = state["cards"]
    if isinstance(card, int):
        return lambda c: cards[c]["level"] == card
    colour, level = card
    return lambda c: cards[c]["colour"] == colour and cards[c]["level"] == level


def _action_matcher(state: State, colour: str, card: int | str):
    texts = state["texts"][colour]
    if isinstance(card, int):
        return lambda c: c == card
    return lambda c: texts[c] == card
