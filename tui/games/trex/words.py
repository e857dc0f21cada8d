"""The small words of T-Rex's screens, for the table, the hands and the feed alike: the three
action colours and their styles, how a colour is labelled (its symbol and its name), and how a
seat, or several, is named."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tui.i18n import t

COLOUR_STYLE = {"red": "bold red", "blue": "bold dodger_blue1", "yellow": "bold yellow"}


def colour_label(colour: str, symbols: dict[str, str]) -> Text:
    return Text(
        f"{symbols.get(colour, '')} {t(f'trex.colour.{colour}')}", style=COLOUR_STYLE[colour]
    )


def who(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def joined(names: list[str], seats: list[int]) -> str:
    return ", ".join(who(names, s) for s in seats)
