"""What both Tesauro screens draw (and a player's results screen): the definitions given,
the answer revealed, the turn, the tie-break, the cards won, the thinking time — functions of
the view that make Rich renderables, with no state of their own."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tui.games.tesauro.narrate import clocked, pick_number, silent_genius
from tui.games.tesauro.words import MAX_TEXT, category_name, joined, role_name, span, who
from tui.i18n import quote, t
from tui.text import literal, marked, name
from tui.widgets import tap_target


def clocked_seats(app: Any, view: dict[str, Any], turn: int | None) -> set[int]:
    """The seats whose spoken definition of turn `turn` the clock gave (`narrate.clocked`),
    from the events the app heard (`heard`; none: an app that keeps none)."""
    heard = getattr(app, "heard", None) or ()
    return {seat for when, seat in clocked(heard, view.get("turn")) if when == turn}


def numbered(rows: list[tuple[Text, Text]], one_line: bool = False, spaced: bool = False) -> Table:
    """Rows of (key, text): the text's wrapped lines hang under its first, past the key (or,
    `one_line`, each text is cut to its line, with an ellipsis: the grid then takes the whole
    width, as a column that may not wrap is never narrowed to fit); `spaced`, a line apart."""
    grid = Table.grid(padding=(0, 1, 0, 0), expand=one_line)
    keys = max((key.cell_len for key, _ in rows), default=1)
    grid.add_column(no_wrap=True, min_width=keys)
    grid.add_column(ratio=1, no_wrap=one_line, overflow="ellipsis" if one_line else "fold")
    for index, (key, text) in enumerate(rows):
        if spaced and index:  # (a grid collapses its cells' padding: an empty row)
            grid.add_row("", "")
        grid.add_row(key, text)
    return grid


def chip(label: str, style: str = "bold reverse") -> Text:
    return Text(f" {label} ", style=style)


def definition_text(
    entry: dict[str, Any],
    names: list[str],
    one_line: bool = False,
    limit: int = MAX_TEXT,
    inline: bool = False,
    tap: str | None = None,
    clocked: bool = False,
) -> Text:
    """A definition given: who, on which tile, and the text (or that it was said aloud —
    or, `clocked`, that the speaker's time ran out and the clock gave it for them), cut to
    `limit` characters; the text on a line of its own, or `inline` after the tile. `tap`:
    the action a tap on who and which tile runs."""
    text = Text()
    text.append_text(name(who(names, entry["seat"]), style="bold"))
    text.append(f" · {category_name(entry.get('tile'))}", style="cyan")
    if tap is not None:
        tap_target(text, tap, len(text))
    text.append(": " if one_line or inline else "\n")
    if entry.get("text") is None:
        said = "tesauro.time_ran_out" if clocked else "tesauro.said_aloud"
        text.append(t(said), style="dim italic")
    else:
        said = literal(entry["text"], MAX_TEXT)
        if len(said) > limit:
            said.truncate(max(1, limit - 1))
            said.append("…")
        text.append_text(said)
    if one_line:
        text.no_wrap, text.overflow = True, "ellipsis"
    return text


def definitions(
    view: dict[str, Any],
    names: list[str],
    shown: int | None = None,
    numbered_keys: bool = True,
    one_line: bool = False,
    limit: int = MAX_TEXT,
    inline: bool = False,
    tap: str | None = None,
    spaced: bool = False,
    clocked: Collection[int] = (),
) -> Table:
    """The definitions given, in turn order from the reader, each with its name and tile,
    numbered as the Sage picks them; in the speaking phase also who speaks now and who is
    still to speak. `one_line`: each cut to a line, for many on a small screen; `inline`:
    each text goes on after its tile instead of on a line of its own; `tap`: the action a tap
    on a definition runs with its index (the Sage's `pick`); `spaced`: a line apart and the
    texts in bold (a TV, read from across the room); `clocked`: the seats whose spoken
    definition the clock gave (`narrate.clocked`)."""
    defs = view.get("defs") or []
    if shown is not None:
        defs = defs[:shown]
    rows = []
    for index, entry in enumerate(defs):
        key = chip(str(index + 1)) if numbered_keys else Text(" ✔", style="green")
        action = None if tap is None else f"{tap}({index})"
        if action is not None:
            tap_target(key, action)
        said = definition_text(
            entry, names, one_line, limit, inline, tap=action, clocked=entry["seat"] in clocked
        )
        if spaced:
            said.stylize("bold")
        rows.append((key, said))
    if view.get("phase") == "speak":
        for seat in view.get("speakers") or []:
            now = seat == view.get("speaker")
            line = Text()
            line.append_text(name(who(names, seat), style="bold" if now else "dim"))
            line.append(
                f" · {category_name(view['categories'][seat])}", style="cyan" if now else "dim"
            )
            line.append(
                f"  {t('tesauro.speaking_now') if now else t('tesauro.to_speak')}",
                style="bold yellow" if now else "dim",
            )
            rows.append((Text(" ▶" if now else "  ", style="bold yellow"), line))
    return numbered(rows, one_line, spaced)


def reveal(
    last: dict[str, Any],
    names: list[str],
    every: bool = False,
    short: bool = False,
    cut: bool = False,
    clocked: Collection[int] = (),
) -> RenderableType:
    """The turn just judged: the word, its true definition and category, who was the Genius
    (or that the card was aside, or that the Genius gave nothing), whom the Sage believed,
    where the card went; with `every`, also each definition given with its author's role;
    `short`, without the one believed; `cut`, the true definition cut to its first line (a
    player's results screen, and a small table short of a row for the answer whole: every
    player's screen has it whole; the table's last form is one line below); `clocked`, the
    seats whose spoken definition the clock gave (`narrate.clocked`)."""
    head = literal(last["word"], 60, style="bold")
    head.append(f" · {category_name(last['category'])}", style="cyan")
    definition = literal(last["definition"], MAX_TEXT, style="italic")
    if cut:
        definition.no_wrap, definition.overflow = True, "ellipsis"
    text = Text()
    brillante = last.get("brillante")
    silent = silent_genius(last)
    if brillante is None:
        text.append(t("tesauro.aside_line") + "\n", style="bold magenta")
    elif silent:
        text.append(t("tesauro.genius_silent", name=who(names, brillante)), style="bold green")
        text.append("\n")
    else:
        text.append(role_name("brillante") + ": ", style="bold green")
        text.append_text(name(who(names, brillante), style="bold"))
        text.append("\n")
    sapiente = who(names, last["sapiente"])
    if last.get("crazy"):
        text.append(quote(t("tesauro.crazy")) + " ", style="bold")
        key = "tesauro.crazy_right" if last.get("right") else "tesauro.crazy_wrong"
        if silent and not last.get("right"):
            key = "tesauro.crazy_silent"
        text.append(t(key, sapiente=sapiente))
    elif last.get("right"):
        text.append(t("tesauro.picked_right", sapiente=sapiente))
    else:
        text.append(
            t(
                "tesauro.picked_wrong",
                sapiente=sapiente,
                picked=who(names, last["pick"]),
                n=pick_number(last),
            )
        )
        picked = next((d for d in last.get("defs", []) if d["seat"] == last["pick"]), None)
        if picked and picked.get("text") and not every and not short:
            opening, closing = quote("|").split("|")
            text.append(f" {opening}", style="dim")
            text.append_text(literal(picked["text"], MAX_TEXT, style="dim italic"))
            text.append(closing, style="dim")
    text.append("\n")
    if last.get("under"):
        text.append("→ " + t("tesauro.card_under"), style="bold")
    else:
        text.append("→ " + t("tesauro.card_to", name=who(names, last.get("taker"))), style="bold")
    answer = Group(head, definition, text)
    if not every or not last.get("defs"):
        return answer
    rows = []
    roles = last.get("roles") or []
    for entry in last["defs"]:
        role = roles[entry["seat"]] if entry["seat"] < len(roles) else None
        key = Text(role_name(role), style="bold green" if role == "brillante" else "magenta")
        line = definition_text(entry, names, clocked=entry["seat"] in clocked)
        if entry["seat"] == last.get("pick"):
            line.append("  ◀ " + t("tesauro.believed"), style="bold yellow")
        rows.append((key, line))
    return Group(answer, Text(), numbered(rows))


def last_line(last: dict[str, Any], names: list[str]) -> Text:
    """The turn just judged, in one line: the word and where its card went."""
    text = span(t("tesauro.last_turn") + " ", style="dim")
    text.append_text(literal(last["word"], 60, style="bold"))
    if last.get("under"):
        text.append(" → " + t("tesauro.card_under"))
    else:
        text.append(" → " + t("tesauro.card_to", name=who(names, last.get("taker"))))
    return text


def turn_line(view: dict[str, Any]) -> str:
    tie = view.get("tie_break")
    if tie:
        return t("tesauro.turn_tie", round=tie["round"], turn=view["turn"])
    rounds = view.get("rounds") or 1
    line = t("tesauro.turn", turn=view["turn"], turns=view["turns"])
    if rounds > 1 and view.get("round"):
        line += " · " + t("tesauro.round", round=view["round"], rounds=rounds)
    return line


def tie_banner(view: dict[str, Any], names: list[str]) -> Text:
    tie = view["tie_break"]
    return Text(
        f" {t('tesauro.tie_banner', round=tie['round'], names=joined(names, tie['tied']))} ",
        style="bold black on yellow",
    )


def scoreboard(view: dict[str, Any], marks: list[int] | None = None) -> list[Text]:
    """Cards won, a piece each: the leaders bold, the tied (in a tie-break) marked."""
    won = view["scores"]
    best = max(won, default=0)
    tied = set() if view["over"] else set((view.get("tie_break") or {}).get("tied", []))
    pieces = []
    for seat, player in enumerate(view["players"]):
        piece = Text()
        style = "bold" if won[seat] == best and best else ""
        piece.append_text(marked(seat, player, style, marks))
        piece.append(" ")
        if won[seat]:
            dots = "▮" * min(won[seat], 5) + ("+" if won[seat] > 5 else "")
            piece.append(dots + " ", style="green")
        piece.append(str(won[seat]), style="bold")
        if seat in tied:
            piece.append(" ⚑", style="bold yellow")
        pieces.append(piece)
    return pieces


def progress(view: dict[str, Any], names: list[str]) -> list[Text]:
    """The thinking time, scholar by scholar: given / ready, still writing, away."""
    typed = view["mode"] == "typed"
    pieces = []
    for seat in view["order"]:
        if view["given"][seat]:
            piece = span("✔ ", style="bold green")
            piece.append_text(name(who(names, seat)))
        elif view["away"][seat]:
            piece = span("✗ ", style="yellow")
            piece.append_text(name(who(names, seat), style="yellow"))
        else:
            piece = span("✎ " if typed else "… ", style="dim")
            piece.append_text(name(who(names, seat), style="dim"))
        pieces.append(piece)
    return pieces
