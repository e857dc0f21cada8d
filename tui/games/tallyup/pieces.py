"""What the screens draw from a view: the players with their scores, sides and who locked in;
the round with its rules; the six dice, the chosen three marked; the phase in a line (on the
table and on a player's hand); and the end's round-by-round score chart."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from games.tallyup import COLOURS
from tui.games.tallyup.dice import DIE_STYLE
from tui.games.tallyup.words import colour_name, names_of
from tui.i18n import t
from tui.text import marked, marks_of, name, number, seat_colour, unbroken

BARS = "▁▂▃▄▅▆▇█"
NAME_WIDTH = 14  # a name in the score chart


def score_chart(view: dict[str, Any], rows: int = 1, marks: list[int] | None = None) -> Text:
    """Every player's score after each round, all on the same scale: a row each, or on a TV
    `rows` rows each — bars as tall as the room allows, two columns a round, in the seat's
    colour (`marks`: the seats' marks), the name (in that colour too) and score on the bottom
    row, the bars standing on it, and an empty row between two players. (With the name on
    the top row, the bars hung under it down to the next player's name: a low bar read as
    that player's. With no row between, a tall bar rose into the name row of the player
    above.)"""
    history = view["history"]
    top = max([1, *(max(scores) for scores in history)]) if history else 1
    low = min([0, *(min(scores) for scores in history)]) if history else 0
    span = max(1, top - low)
    steps = len(BARS) * rows  # the eighths of a cell a bar can rise
    text = Text()
    for seat, player in enumerate(view["players"]):
        if seat and rows > 1:
            text.append("\n")  # (the row between two players)
        style = "green" if rows == 1 else seat_colour(seat, marks)
        label = name(player, style="" if rows == 1 else f"bold {style}")
        label.truncate(NAME_WIDTH, overflow="ellipsis", pad=True)
        levels = [round((scores[seat] - low) / span * (steps - 1)) + 1 for scores in history]
        for row in reversed(range(rows)):  # the top row first
            if row:
                text.append(" " * (NAME_WIDTH + 7))  # above the name and the score
            else:
                text.append_text(label)
                text.append(f"{view['scores'][seat]:>6} ", style="bold")
            for level in levels:
                eighths = min(len(BARS), level - row * len(BARS))
                bar = BARS[eighths - 1] if eighths > 0 else " "
                text.append(bar if rows == 1 else bar * 2, style=style)
            text.append("\n")
    text.rstrip()
    return text


def round_line(
    view: dict[str, Any], names: list[str], narrow: bool = False, total: int | None = None
) -> Text:
    """The round and the goal; with `total`, the running total first (where its big digits
    have no room)."""
    line = Text()
    if total is not None:
        line.append(f"{number(total)}  ", style="bold")
    line.append(t("tallyup.round", n=view["round"]), style="bold")
    parts = []
    if view["extra_round"]:  # (in its place: the target is reached, a tie is played off;
        parts.append((t("tallyup.extra_round", n=view["extra_round"]), "bold yellow"))
    elif view["once_each"]:  # a line more pushed the players off a small table)
        parts.append((t("tallyup.once_each_short"), "dim"))
    else:
        parts.append((t("tallyup.target", n=view["target"]), "dim"))
    if view["high_stakes"]:
        parts.append((t("tallyup.high_stakes_short"), "dim"))
    for part, style in parts:  # one per line in a narrow box: none cut
        line.append("\n" if narrow else "  ")  # (unstyled: see seat_line)
        line.append(part, style=style)
    return line


def dice_overview(view: dict[str, Any], short: bool = False) -> Text:
    """The six dice as coloured blocks with their names: the chosen three solid and marked,
    the unused ones dim (`short`: the unused ones — all six before any is chosen — as a dot
    each in its colour, where the names don't fit on a line). (Their faces are on every
    player's dice chart, `d`.)"""
    text = Text()
    chosen = set(view["dice"])
    for colour in COLOURS:
        label = f"\u00a0{colour_name(colour)}\u00a0"  # no-break spaces: a chip never splits
        if short and colour not in chosen:  # (none chosen yet: all six as dots)
            label = "\u00a0●\u00a0"  # (its space after it: not "●▶ green")
        if colour in chosen:
            text.append("▶", style="bold")
            text.append(label, style="reverse " + DIE_STYLE[colour])
        else:
            text.append(" " + label, style="dim" if chosen else DIE_STYLE[colour])
    return text


def phase_line(view: dict[str, Any], names: list[str]) -> Text:
    active = names[view["active"]] if view["active"] is not None else ""
    phase = view["phase"]
    if view["over"]:
        winners = (view.get("result") or {}).get("winners", [])
        whole = [unbroken(name) for name in names]  # (not "Bot" / "2." on two lines)
        return Text(
            "  " + t("tallyup.ev.game_over", names=names_of(winners, whole)) + "  ",
            style="bold black on green",
        )
    key = f"tallyup.phase.{phase}"
    if phase == "choice":
        key = f"tallyup.phase.choice_{view['choice_for']}"
    return Text(t(key, name=active), style="bold")


def _gone(room: dict[str, Any], seat: int) -> bool:
    """Whether `seat`'s player is away from the table now (the room says so at once; the
    game's own `away` only once a bot plays the seat)."""
    seats = room.get("seats") or []
    return seat < len(seats) and seats[seat].get("away_for") is not None


def players_table(view: dict[str, Any], room: dict[str, Any]) -> Text:
    """Every player: score and progress to the target (when everyone rolls once, which has
    none: to the top score), IN/OUT as revealed — and while a choice is sealed, only who has
    made theirs."""
    text = Text()
    best = max(view["scores"], default=0)
    target = max(1, best if view.get("once_each") else view["target"])
    width = 8
    for seat, player in enumerate(view["players"]):
        score = view["scores"][seat]
        active = seat == view["active"]
        text.append("▶ " if active else "  ", style="bold")
        shown = marked(seat, player, "bold" if score == best else "", marks_of(room))
        shown.truncate(16, overflow="ellipsis", pad=True)
        text.append_text(shown)
        text.append(f"{score:>6} ", style="bold")
        filled = max(0, min(width, round(width * score / target)))
        text.append("█" * filled, style="green")
        text.append("░" * (width - filled), style="dim")
        out = view["out"][seat]
        sealing = view["phase"] == "choice" and not out
        if not sealing:  # (while a choice is sealed, not "IN  chosen ✔" for an OUT chosen)
            text.append("  OUT " if out else "  IN  ", style="bold cyan" if out else "bold")
        else:
            text.append("  ")
            if view["locked"][seat]:
                text.append(t("tallyup.locked"), style="green")
            elif view["away"][seat] or _gone(room, seat):  # (not "thinking…" while away)
                text.append(t("tallyup.away"), style="yellow")
            else:
                text.append(t("tallyup.thinking"), style="dim")
        text.append("\n")
    text.rstrip()
    return text
