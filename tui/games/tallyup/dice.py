"""The dice on screen: each colour's style, a roll drawn as dice (in big digits on a TV), a
colour's chip, and a die's six faces in a row (the pick list and the Dice Roll Card)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from games.tallyup import dice_table
from tui.bigtext import big
from tui.games.tallyup.words import colour_name, face_label, up_label

DIE_STYLE = {
    "red": "bold red",
    "orange": "bold dark_orange",
    "yellow": "bold yellow",
    "green": "bold green3",
    "blue": "bold dodger_blue1",
    "purple": "bold medium_purple1",
    "up": "bold bright_white",  # the Up Die
}

LARGE_DIE = 19
"""A die's width on a TV: its widest face (the Up Die's +100 and −100, 15 columns in big
digits), a blank column each side of it, and a border."""


def dice_art(dice: list[dict[str, Any]], *, width: int = 10, large: bool = False) -> Text:
    """Rolled dice drawn as dice, each in its colour, its colour's name underneath; `large`
    (a TV): the faces in big digits, to be read from across the room."""
    if not dice:
        return Text()
    if large:
        width = LARGE_DIE
    inner = width - 2
    rows = [Text() for _ in range(6 if large else 4)]
    for die in dice:
        style = DIE_STYLE[die["colour"]]
        label = up_label(die["label"]) if die["colour"] == "up" else face_label(die)
        face_style = "bold reverse " + style if label == "★" else style
        face = [label]
        if large:  # the font has X and -, not × and −; a star stays a star, three lines tall
            face = big(label.replace("×", "X").replace("−", "-")) or ["", label, ""]
        rows[0].append("╭" + "─" * inner + "╮ ", style=style)
        for number, line in enumerate(face, start=1):
            rows[number].append("│", style=style)
            rows[number].append(line.center(inner), style=face_style)
            rows[number].append("│ ", style=style)
        rows[len(face) + 1].append("╰" + "─" * inner + "╯ ", style=style)
        rows[len(face) + 2].append(
            colour_name(die["colour"])[:width].center(width) + " ", style=style
        )
    return Text("\n").join(rows)


def dice_chips(dice: list[dict[str, Any]]) -> Text:
    """Rolled dice on one line, each face on its colour (a crowded small screen)."""
    chips = Text()
    for die in dice:
        label = up_label(die["label"]) if die["colour"] == "up" else face_label(die)
        chips.append(f"\u00a0{label}\u00a0", style="reverse " + DIE_STYLE[die["colour"]])
        chips.append(" ")
    return chips


def colour_chip(colour: str, *, dim: bool = False, width: int = 0) -> Text:
    chip = Text(f"● {colour_name(colour)}", style="dim" if dim else DIE_STYLE[colour])
    if width:
        chip.truncate(width, pad=True)
    return chip


def faces_text(colour: str) -> str:
    faces = next(d for d in dice_table() if d["colour"] == colour)["faces"]
    return " ".join(face_label(f).rjust(4) for f in faces)
