"""How Tally Up! says things in words: a die's colour, a face (a star, a circled or a plain
number, the Up Die's ×2 or −100), a list of players by seat, and a chance as a percentage."""

from __future__ import annotations

from typing import Any

from games.tallyup.dice import face_dict
from tui.i18n import lang, t
from tui.text import unbroken


def colour_name(colour: str) -> str:
    return t("tallyup.up_die_name") if colour == "up" else t(f"tallyup.colour.{colour}")


def face_label(die: dict[str, Any]) -> str:
    """`★`, `(50)` or `50` for a die given as {colour, face} or with its face spelled out."""
    if "star" not in die:
        die = face_dict(die["colour"], die["face"])
    if die["star"]:
        return "★"
    return f"({die['points']})" if die["circle"] else str(die["points"])


def up_label(label: str) -> str:
    """The Up Die's face as printed: ×2, −100 (a real minus sign)."""
    return label.replace("x", "×").replace("-", "−")


def names_of(seats: list[int], names: list[str]) -> str:
    return ", ".join(names[s] if s < len(names) else "?" for s in seats)


def percent(fraction: Any) -> str:
    value = float(fraction) * 100
    shown = f"{value:.0f}" if value >= 10 or value == 0 else f"{value:.1f}"
    if lang() == "ru":  # 1,4 % — a decimal comma, and the sign apart (but on one line)
        return shown.replace(".", ",") + unbroken(" %")
    return shown + "%"
