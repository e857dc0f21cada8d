"""On a Scale of One to T-Rex on screen: the table (three actions to perform, the token piles
emptying, the scoreboard, the tie-break vote, the T-Rex at the end), a player's hand (the card
to perform, big, as a 1..10 scale; offers out and in; skip; the vote; the two-player call) and
the narrator of the public events.

The package, a module a part: `words` (the colours and how a colour and a seat are said),
`narrate` (the feed's sentences), `pieces` (what the screens draw: the banners, the piles, the
scoreboard, the scale, the T-Rex), `table`, `hand`, and `offer` (the picker of one offer among
several). Both apps find the game here: importing the package registers its screens
(`tui.games.ui_for`).
"""

from __future__ import annotations

from tui.games import GameUI, register_ui
from tui.games.trex.hand import NEWS_SECONDS, TRexHand
from tui.games.trex.narrate import match_sentence, narrate
from tui.games.trex.offer import PickOfferScreen
from tui.games.trex.pieces import (
    MATCH_COLOUR,
    TREX,
    coop_board,
    end_banner,
    ending,
    ends_without,
    match_banner,
    pile_row,
    piles_picture,
    scale,
    scoreboard,
    tie_text,
)
from tui.games.trex.table import TRexTable
from tui.games.trex.words import COLOUR_STYLE, colour_label, joined, who
from tui.i18n import t

__all__ = [
    "COLOUR_STYLE",
    "MATCH_COLOUR",
    "NEWS_SECONDS",
    "TREX",
    "PickOfferScreen",
    "TRexHand",
    "TRexTable",
    "colour_label",
    "coop_board",
    "end_banner",
    "ending",
    "ends_without",
    "joined",
    "match_banner",
    "match_sentence",
    "narrate",
    "pile_row",
    "piles_picture",
    "scale",
    "scoreboard",
    "tie_text",
    "who",
]


def rules_key(view: dict) -> str:
    """The cooperative game has rules of its own."""
    return "trex.rules_coop" if view.get("mode") == "coop" else "trex.rules"


def variant(players: int) -> str | None:
    """Two players left after the others did: the game again is the cooperative one."""
    return t("trex.again_coop") if players == 2 else None


register_ui(
    "trex",
    GameUI(
        TRexTable,
        TRexHand,
        narrate,
        rules_key=rules_key,
        ending=ending,
        ends_without=ends_without,
        variant=variant,
        team=lambda result: bool(result.get("coop")),
    ),
)
