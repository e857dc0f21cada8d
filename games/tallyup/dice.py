"""The dice of Tally Up!, exactly as printed: six Tally Dice and the Up Die.

Everything else (the rules, the odds, the reference screen) reads the faces from here, so the
table in `docs/rules/tallyup.md` lives in one place. A face is addressed by its index 0..5 in the
printed order: that index is what a CHANCE outcome carries.
"""

from __future__ import annotations

from typing import NamedTuple


class Face(NamedTuple):
    """One face of a Tally Die: a star (no points), or points, circled or not."""

    points: int
    star: bool
    circle: bool

    @property
    def label(self) -> str:
        """How the box prints it: `*`, `(50)` for a circled number, `50` for a plain one."""
        if self.star:
            return "*"
        return f"({self.points})" if self.circle else str(self.points)


FACES = 6
"""Faces of every die of the game, the Up Die's too."""


def _faces(printed: str) -> tuple[Face, ...]:
    """Parse the printed notation of the rules (`*  (10)  50`) so the table reads like the box."""
    faces = []
    for token in printed.split():
        if token == "*":
            faces.append(Face(0, star=True, circle=False))
        elif token.startswith("("):
            faces.append(Face(int(token.strip("()")), star=False, circle=True))
        else:
            faces.append(Face(int(token), star=False, circle=False))
    assert len(faces) == FACES, printed
    return tuple(faces)


TALLY_DICE: dict[str, tuple[Face, ...]] = {
    "red": _faces("*  *  *  50  (50)  100"),
    "orange": _faces("*  *  *  60  (70)  70"),
    "yellow": _faces("*  *  20  20  (40)  70"),
    "green": _faces("*  *  30  (40)  40  40"),
    "blue": _faces("*  (10)  (10)  10  20  50"),
    "purple": _faces("*  (20)  (20)  20  20  20"),
}
"""Faces of every Tally Die by colour, in the printed order (index 0..5)."""

COLOURS: tuple[str, ...] = tuple(TALLY_DICE)
"""The six colours in the printed order: the canonical order of any set of dice."""

RISK: dict[str, str] = {
    "red": "high",
    "orange": "high",
    "yellow": "medium",
    "green": "medium",
    "blue": "low",
    "purple": "low",
}

UP_DIE: tuple[str, ...] = ("+1", "+2", "+3", "-100", "+100", "x2")
"""The Up Die's faces in the printed order (index 0..5)."""

BONUS_FACES = (0, 1, 2)
"""Up Die faces that call for a Bonus Roll of `index + 1` dice."""

MINUS_100, PLUS_100, DOUBLE = 3, 4, 5


def bonus_count(up_face: int | None) -> int:
    """How many bonus dice an Up Die face calls for (0 for the other faces, or no face)."""
    return up_face + 1 if up_face in BONUS_FACES else 0


def in_table_order(colours: list[str]) -> list[str]:
    """Dice sorted as the box lists them, so every screen shows a set of dice the same way."""
    return sorted(colours, key=COLOURS.index)


def dice_table() -> list[dict]:
    """The reference card as plain data, for a reference screen: every die and its faces."""
    return [
        {
            "colour": colour,
            "risk": RISK[colour],
            "faces": [face_dict(colour, index) for index in range(6)],
            "points_sum": sum(face.points for face in faces),
        }
        for colour, faces in TALLY_DICE.items()
    ]


def face_dict(colour: str, index: int) -> dict:
    """One rolled die as views carry it: the face index, and what it shows."""
    return dict(_FACE_DICTS[colour][index])


_FACE_DICTS = {
    colour: [
        {
            "colour": colour,
            "face": index,
            "label": face.label,
            "points": face.points,
            "star": face.star,
            "circle": face.circle,
        }
        for index, face in enumerate(faces)
    ]
    for colour, faces in TALLY_DICE.items()
}
