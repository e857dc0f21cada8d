"""What the T-Rex screens draw: the last match's banner, the end's and the tie-break's, the
token piles as a picture, the scoreboard (or the team's board in the two-player game), a
card's 1..10 scale and the T-Rex itself — functions of the view that make Rich texts, with no
state of their own."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tui.bigtext import big, big_lines
from tui.games.trex.narrate import match_sentence
from tui.games.trex.words import joined, who
from tui.i18n import quote, t
from tui.text import hanging, marked, name, number, seat_mark

TREX = r"""
               __
              / _)
     _.----._/ /
    /         /
 __/ (  | (  |
/__.-'|_|--|_|
"""


MATCH_COLOUR = {"exact": "green", "near": "yellow"}
"""A match's outcome by colour (red: a miss) — the sentence always says it in words too."""


def match_banner(
    match: dict[str, Any], names: list[str], *, large: int = 0, scales: tuple[int, ...] = (2, 1)
) -> Text:
    """The last match in a sentence on its outcome's colour; `large` (a TV's width): above
    it in big letters whose the two levels are, "ANN 7   BOB 10", to be read from the sofa
    (the levels alone where the names do not fit, or have a letter the font lacks)."""
    colour = MATCH_COLOUR.get(match["outcome"], "red")
    style = f"bold {'white' if colour == 'red' else 'black'} on {colour}"
    if "right" in match:  # the two-player variant
        line = t(
            "trex.ev.coop_right" if match["right"] else "trex.ev.coop_wrong",
            a=match["level_a"],
            b=match["level_b"],
            moved=match["moved"],
        )
    else:
        line = match_sentence(match, names)
    banner = Text(f" {line} ", style=style)
    levels = big_levels(match, names, large, scales) if large else None
    if levels:
        banner = Text("\n".join(levels) + "\n", style=f"bold {colour}") + banner
    return banner


def big_levels(
    match: dict[str, Any], names: list[str], room: int, scales: tuple[int, ...] = (2, 1)
) -> list[str] | None:
    """A match's two levels in big letters no wider than `room`, at the first of `scales`
    that fits: with the players' names where they fit (in the two-player game the team's
    are known), else the levels alone."""
    a, b = match["level_a"], match["level_b"]
    forms = [f"{a}  {b}"]
    if "right" not in match:
        first, second = who(names, match["a"]).strip(), who(names, match["b"]).strip()
        forms[:0] = [f"{first} {a}   {second} {b}"]
    for text in forms:
        for scale in scales:
            lines = big(text, scale)
            if lines and len(lines[0]) <= room:
                return lines
    return None


def ending(result: dict, names: list[str]) -> str | None:
    """A game ended by a player leaving: fewer than three left in it (or one of the two
    playing together gone) — its rules' way to end too, but not the one people expect."""
    gone = result.get("left") or []
    if not gone:
        return None
    if result.get("coop"):
        return t("trex.ended_coop", name=who(names, gone[-1]))
    return t("trex.ended_too_few") if len(result.get("ranking") or []) < 3 else None


def ends_without(view: dict[str, Any]) -> bool:
    """Whether one more player leaving ends the game: three left in it (two, playing
    together) — the leave question and the host's kick say so."""
    if not view or view.get("over"):
        return False
    return view.get("mode") == "coop" or sum(not gone for gone in view.get("left") or []) <= 3


def crown(view: dict[str, Any], names: list[str], large: int) -> list[str] | None:
    """ "The T-Rex: Dana!" in big letters `large` columns wide, if the font has every letter
    and it is the competitive game's end; else None."""
    if not large or view["mode"] == "coop" or not view.get("over"):
        return None
    winners = (view.get("result") or {}).get("winners", [])
    return big_lines(t("trex.the_trex", names=joined(names, winners)), large)


def end_banner(view: dict[str, Any], names: list[str], large: int = 0) -> Text:
    """The end in a line; `large` (a TV's width): "The T-Rex: Dana!" in big letters above
    how the vote went, if the font has every letter (`crown`)."""
    result = view.get("result") or {}
    winners = result.get("winners", [])
    if view["mode"] == "coop":  # (a partner who left ended it, not a wrong call)
        coop = view.get("coop") or {}
        key = "trex.coop_won" if winners else "trex.coop_end"
        said = ending(result, names) or t(key, moved=coop.get("moved", 0))
        return Text(f" {said} ", style="bold black on green")
    line = t("trex.the_trex", names=joined(names, winners))
    letters = crown(view, names, large)
    if letters:  # (not said again in small type beneath: how the vote went, if it did)
        votes = _votes(view, names).plain.strip()
        return Text("\n".join(letters) + ("\n" + votes if votes else ""), style="bold green")
    return Text(f" {line}{_votes(view, names).plain} ", style="bold black on green")


def _votes(view: dict[str, Any], names: list[str]) -> Text:
    """How the sudden death's vote went, if there was one: "  (votes: Bob 0, Dana 2)"."""
    tie = view.get("tie_break")
    if tie and tie.get("tally"):
        tally = tie["tally"]
        votes = ", ".join(f"{who(names, s)} {tally[s]}" for s in tie["tied"])
        if any(tally[s] for s in tie["tied"]):
            return Text("  " + t("trex.votes_were", votes=votes))
        return Text("  " + t("trex.votes_none"))  # the time ran out with no vote cast
    return Text()


def tie_text(tie: dict[str, Any], names: list[str]) -> Text:
    text = Text()
    text.append(t("trex.tie_heading") + "\n", style="bold reverse")
    for seat, action in zip(tie["tied"], tie["actions"], strict=False):
        text.append_text(name(who(names, seat), style="bold"))
        text.append(f": {quote(action)} — 10\n")
    voted = len(tie["voted"])
    text.append(t("trex.tie_votes", n=voted, of=len(tie["voters"])), style="dim")
    return text


def large_tie_text(tie: dict[str, Any], names: list[str], width: int) -> Text | None:
    """Sudden death on a TV: each tied player's new action in big letters under their name
    (the three cards of the round are over). None: a letter the font lacks, or no room."""
    text = Text()
    text.append(t("trex.tie_heading") + "\n", style="bold reverse")
    for seat, action in zip(tie["tied"], tie["actions"], strict=False):
        letters = big_lines(action, width)
        if letters is None:
            return None
        text.append_text(name(who(names, seat), style="bold"))
        text.append(" — 10\n")
        text.append("\n".join(letters) + "\n", style="bold yellow")
    text.append(t("trex.tie_votes", n=len(tie["voted"]), of=len(tie["voters"])), style="dim")
    return text


def coop_board(view: dict[str, Any]) -> Text:
    """The team's game: tokens moved to the box, and who has made the call this round."""
    coop = view.get("coop") or {}
    text = Text(t("trex.coop_moved", moved=coop.get("moved", 0), goal=coop.get("goal", 15)))
    text.append("\n")
    for seat, player in enumerate(view["players"]):
        called = (coop.get("called") or [False, False])[seat]
        text.append_text(name(player))
        if not view["over"]:
            text.append(f"  {t('trex.called') if called else t('trex.calling')}",
                        style="green" if called else "dim")  # fmt: skip
        text.append("\n")
    text.rstrip()
    return text


def pile_row(label: str, left: int, total: int, style: str, width: int = 0) -> Text:
    """A pile as a row of tokens and its count; within `width` columns (0: any), a token
    drawn stands for several when the pile is bigger than the row (eight players' 36)."""
    count = f" {left}/{total}"
    room = width - 10 - len(count) if width else total
    drawn = min(total, max(1, room))
    full = drawn if left == total else round(left * drawn / total) if total else 0
    row = Text(f"{label:<10}", style="bold")
    row.append("●" * full, style=style)
    row.append("○" * max(0, drawn - full), style="dim")
    row.append(count)
    return row


def piles_picture(view: dict[str, Any], width: int = 0) -> Text:
    """The token piles as put out for this table, emptying as the game goes."""
    text = Text()
    if view["mode"] == "coop":
        coop = view.get("coop") or {}
        goal = coop.get("goal", 15)
        left = goal - coop.get("moved", 0)
        text.append_text(pile_row(t("trex.pile.good"), left, goal, "green", width))
        return text
    tokens, pool = view["tokens"], view["pool"]
    text.append_text(pile_row(t("trex.pile.good"), pool["good"], tokens["good"], "green", width))
    if tokens["bad"]:
        text.append("\n")
        text.append_text(pile_row(t("trex.pile.bad"), pool["bad"], tokens["bad"], "red", width))
    return text


def scoreboard(view: dict[str, Any], marks: list[int] | None = None, width: int = 0) -> Text:
    """Tokens and scores by player, in `width` columns (0: any). A name is never cut: the
    names' column is as wide as the longest needs where the width allows; a name longer than
    that has a line of its own, its numbers under it (a leaver's was cut, "Даниил Дмитри…")."""
    if view["mode"] == "coop":
        return coop_board(view)
    gone = view.get("left") or []
    shown = [
        marked(seat, player, "dim" if seat < len(gone) and gone[seat] else "", marks)
        for seat, player in enumerate(view["players"])
    ]
    column = 16
    if width:  # (6 + 6 + 7: the numbers)
        column = max(column, min(max(n.cell_len for n in shown) + 2, width - 19))
    text = Text()
    text.append(f"{'':{column}}{t('trex.good'):>6}{t('trex.bad'):>6}{t('trex.score'):>7}\n",
                style="dim")  # fmt: skip
    for seat, label in enumerate(shown):
        left = seat < len(gone) and gone[seat]
        if label.cell_len <= column:
            label.pad_right(column - label.cell_len)
        else:  # the name whole on its own line (wrapped under itself), the numbers below
            label = label[:2] + hanging(label[2:], max(6, width - 2), 2) if width else label
            label.append("\n" + " " * column)
        text.append_text(label)
        if left:  # where the tokens go: the name whole ("Да… (вне игры)" it was, at 80×24)
            text.append(f"({t('trex.left_tag')})"[:12].rjust(12), style="dim")
        else:
            text.append(f"{view['good'][seat]:>6}", style="green")
            text.append(f"{view['bad'][seat]:>6}", style="red")
        text.append(f"{number(view['scores'][seat]):>7}\n", style="dim" if left else "bold")
    text.rstrip()
    return text


def large_scoreboard(
    view: dict[str, Any], marks: list[int] | None = None, width: int = 0
) -> Text | None:
    """The scoreboard for a TV: each player's name and score in big letters, three rows each,
    the tokens they won in small type beside them. None when a name has a character the font
    lacks, or the board is wider than `width` (0: any) — then the small one is shown."""
    if view["mode"] == "coop":
        return None
    names, scores = [], []
    for player, score in zip(view["players"], view["scores"], strict=True):
        name_lines, score_lines = big(player.strip()), big(str(score))
        if name_lines is None or score_lines is None:
            return None
        names.append(name_lines)
        scores.append(score_lines)
    name_width = max(len(lines[0]) for lines in names)
    score_width = max(len(lines[0]) for lines in scores)
    good, bad = t("trex.good"), t("trex.bad")
    tail = max(len(good) + 4, len(bad) + 4, len(t("trex.left_tag")))
    if width and 2 + name_width + 4 + score_width + 3 + tail > width:
        return None
    gone = view.get("left") or []
    text = Text()
    for seat, (name_lines, score_lines) in enumerate(zip(names, scores, strict=True)):
        left = seat < len(gone) and gone[seat]  # out of the game: dim, and said
        for row in range(3):
            if row == 1:
                text.append_text(seat_mark(seat, marks))
                text.append(" ")
            else:
                text.append("  ")
            text.append(name_lines[row].ljust(name_width), style="dim" if left else "bold")
            text.append("    ")
            text.append(score_lines[row].rjust(score_width), style="dim" if left else "bold")
            text.append("   ")
            if row == 0:
                text.append(f"{good} {view['good'][seat]}", style="dim" if left else "green")
            elif row == 1:
                text.append(f"{bad} {view['bad'][seat]}", style="dim" if left else "red")
            elif left:
                text.append(t("trex.left_tag"), style="bold")
            text.append("\n")
    text.rstrip()
    return text


def scale(level: int, style: str) -> Text:
    """1..10 at a glance: the level filled, the rest hollow."""
    text = Text("1 ", style="dim")
    text.append("█" * level, style=style)
    text.append("░" * (10 - level), style="dim")
    text.append(" 10", style="dim")
    return text
