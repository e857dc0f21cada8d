"""Chosen CHANCE outcomes for Tesauro: named deals for tests, screenshots and demos.

`dictionary_outcome(size, first)` puts the chosen cards on top of the deck, in that order;
`deal_outcome(state, brillante)` gives the Brillante card to a chosen seat (None: puts it
aside). `new_game` sets a game up and plays the setup shuffle and the first deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import CHANCE, State
from games.tesauro import rules
from games.tesauro.deck import Dictionary, pool_size


def dictionary_outcome(size: int, first: Sequence[int] = ()) -> list[int]:
    """The dictionary shuffle that puts cards `first` on top, then the rest in file order
    (the pool, a third, is taken from the end)."""
    rest = [i for i in range(size) if i not in first]
    order = [*first, *rest]
    assert len(order) - pool_size(size) >= len(first), "more chosen cards than the deck holds"
    return order


def deal_outcome(state: State, brillante: int | None) -> list[int]:
    """The scholar shuffle giving `brillante` the Brillante card (None: the card aside)."""
    order = state["order"]
    n = len(state["players"])
    slot = n - 1 if brillante is None else order.index(brillante)
    cards = list(range(1, n))
    cards.insert(slot, 0)
    return cards


def deal(state: State, brillante: int | None) -> list[dict]:
    """Apply the pending scholar deal with the Brillante where chosen."""
    outcome = deal_outcome(state, brillante)
    return rules.apply(state, CHANCE, {"type": "chance", "outcome": outcome})


def new_game(
    players: Sequence[str],
    options: dict | None = None,
    dictionary: Dictionary | None = None,
    cards: Sequence[int] = (),
    brillante: int | None = 1,
) -> State:
    """A game at its first `choose`: cards `cards` on top of the deck, the first turn dealt."""
    state = rules.setup(list(players), options, 2, 10, dictionary)
    outcome = dictionary_outcome(len(state["cards"]), cards)
    rules.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
    deal(state, brillante)
    return state
