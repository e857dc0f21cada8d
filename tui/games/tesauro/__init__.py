"""Tesauro on screen: the table (the word, large; who judges and who reads; the nine tiles; the
thinking time; the definitions appearing one by one; the reveal; the cards won; the tie-break
and the end), a player's hand (the role; the reader's two words; the scholar's entry, tile and
definition; the spoken turns; the Sage's judgement), the narrator of the public events, and
the epilogue: the last answer on a player's results screen.

The table renders the public view only: it never holds a role, the entry's definition or
category, or a typed definition before the reveal. Words from the dictionary and texts from
players are shown literally (`tui.text.literal`).

The package, a module a part: `words` (how a seat, a tile, a role and the time are said),
`narrate` (the feed's sentences), `pieces` (what both screens draw), `widgets` (the table's
own widgets), `table`, `hand`, and `field` (the definition field). Both apps find the game
here: importing the package registers its screens (`tui.games.ui_for`).
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType

from tui.games import GameUI, register_ui
from tui.games.tesauro.field import DefinitionInput
from tui.games.tesauro.hand import TesauroHand
from tui.games.tesauro.narrate import narrate, no_move, nudge_words
from tui.games.tesauro.pieces import last_line, reveal
from tui.games.tesauro.table import TesauroTable
from tui.i18n import has, t

__all__ = ["DefinitionInput", "TesauroHand", "TesauroTable", "epilogue", "narrate"]


def epilogue(view: dict[str, Any], names: list[str]) -> tuple[str, list[RenderableType]] | None:
    """A player's results screen: the last turn's answer (the true definition, the Genius,
    where the card went); on a small screen cut to a line a definition, or to the word and
    where its card went."""
    last = view.get("last_turn")
    if not last:
        return None
    forms = [reveal(last, names), reveal(last, names, short=True, cut=True), last_line(last, names)]
    return t("tesauro.reveal_title", turn=last["turn"]), forms


def param_words(field: str, value: object) -> str | None:
    """A refusal's tile is said by its name ("the Food tile is taken")."""
    key = f"tesauro.category.{value}"
    return t(key) if field == "category" and isinstance(value, str) and has(key) else None


register_ui(
    "tesauro",
    GameUI(
        TesauroTable,
        TesauroHand,
        narrate,
        epilogue,
        seat_params=("reader", "sapiente"),
        param_words=param_words,
        no_move=no_move,
        nudge_words=nudge_words,
    ),
)
