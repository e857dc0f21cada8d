"""Tally Up! on screen: the table (dice, the running total, the reveal as a moment, the end
chart), a player's hand (dice choice with exact odds, the sealed IN/OUT, the shout) and the
narrator that says in plain words what just happened and why.

The package, a module a part: `words` (how a colour, a face, the players and a chance are
said), `dice` (the dice drawn, a colour's chip, a die's faces), `narrate` (the feed's
sentences), `pieces` (what the screens draw from a view: the players, the round, the dice
chosen, the phase, the score chart), `table`, `hand`, and `chart` (the Dice Roll Card). Both
apps find the game here: importing the package registers its screens (`tui.games.ui_for`).
"""

from __future__ import annotations

from tui.games import GameUI, register_ui
from tui.games.tallyup.chart import DiceChartScreen
from tui.games.tallyup.dice import DIE_STYLE, LARGE_DIE, colour_chip, dice_art, faces_text
from tui.games.tallyup.hand import TallyHand
from tui.games.tallyup.narrate import NEWS, narrate, reveal_sentence
from tui.games.tallyup.pieces import (
    BARS,
    dice_overview,
    phase_line,
    players_table,
    round_line,
    score_chart,
)
from tui.games.tallyup.table import (
    BANNER_SECONDS,
    BEAT_SECONDS,
    REVEAL_BEATS,
    TOTAL_WIDTH,
    TallyTable,
)
from tui.games.tallyup.words import colour_name, face_label, names_of, percent, up_label

__all__ = [
    "BANNER_SECONDS",
    "BARS",
    "BEAT_SECONDS",
    "DIE_STYLE",
    "LARGE_DIE",
    "NEWS",
    "REVEAL_BEATS",
    "TOTAL_WIDTH",
    "DiceChartScreen",
    "TallyHand",
    "TallyTable",
    "colour_chip",
    "colour_name",
    "dice_art",
    "dice_overview",
    "face_label",
    "faces_text",
    "names_of",
    "narrate",
    "percent",
    "phase_line",
    "players_table",
    "reveal_sentence",
    "round_line",
    "score_chart",
    "up_label",
]


def rules_key(view: dict) -> str:
    """ "Everyone rolls once" ends another way: its rules say so (a view, or the options)."""
    return "tallyup.rules_once_each" if view.get("once_each") else "tallyup.rules"


def unused_options(options: dict) -> tuple[str, ...]:
    """ "Everyone rolls once" ignores the target score."""
    return ("target",) if options.get("once_each") else ()


register_ui(
    "tallyup",
    GameUI(
        TallyTable,
        TallyHand,
        narrate,
        seat_params=("winner",),
        rules_key=rules_key,
        unused_options=unused_options,
    ),
)
