"""Widgets and screens both apps use: help, confirmation, the list of seats, the feed."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets import RichLog, Static
from textual.widgets._footer import FooterKey

from tui.i18n import t
from tui.text import name


def key_display(node: Any, binding: Binding, default: str) -> str:
    """The keys as shown for `binding`: a widget with `key_display_for(action)` may say it
    better now ("1–4" for four definitions instead of "1–9")."""
    better = getattr(node, "key_display_for", None)
    shown = better(binding.action) if callable(better) else None
    return shown or default


class Footer(TextualFooter):
    """The Footer, in the user's language: binding descriptions are catalogue keys; a widget
    may show its keys the way they are now (`key_display`)."""

    def compose(self) -> ComposeResult:
        nodes = {}
        if self._bindings_ready:
            for node, binding, _enabled, _tooltip in self.screen.active_bindings.values():
                nodes.setdefault(binding.action, (node, binding))
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = t(widget.description) if widget.description else ""
                if widget.action in nodes:
                    node, binding = nodes[widget.action]
                    widget.key_display = key_display(node, binding, widget.key_display)
            yield widget


def binding_help(screen: Screen) -> list[tuple[str, str]]:
    """(key as the footer shows it, what it does) for every key active on `screen` — its own
    and those of the focused widget (a game's hand) — so help and footer never disagree."""
    rows, seen = [], set()
    for node, binding, _enabled, _tooltip in screen.active_bindings.values():
        if not binding.show or not binding.description or binding.action in seen:
            continue
        seen.add(binding.action)
        shown = key_display(node, binding, screen.app.get_key_display(binding))
        rows.append((shown, t(binding.description)))
    return rows


class HelpScreen(ModalScreen[None]):
    """`?` on any screen: what this screen is for and every key it has."""

    BINDINGS = [
        Binding("escape,question_mark,q,f1", "dismiss", "key.close", key_display="Esc"),
    ]

    def __init__(self, title: str, body: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = keys

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(self.title_text + "\n\n", style="bold")
        text.append(self.body + "\n\n")
        for key, description in self.keys:
            text.append(f"{key:>10}  ", style="bold reverse")
            text.append(f" {description}\n")
        text.append("\n" + t("help.close"), style="dim")
        with VerticalScroll(id="help"):
            yield Static(text)

    def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question answered with y / n (Esc = no)."""

    BINDINGS = [
        Binding("y", "answer(True)", "key.yes"),
        Binding("n,escape", "answer(False)", "key.no", key_display="n/Esc"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.question), id="question")  # names in it are literal
            yield Static(t("confirm.hint"), classes="dim")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def seat_line(
    index: int,
    seat: dict[str, Any],
    *,
    playing: bool,
    you: int | None = None,
    compact: bool = False,
) -> Text:
    """One seat: its number, the name as typed, and whether it is here. Compact (the narrow
    side panels) says only what is unusual: away, a bot, you."""
    line = Text(f"{index + 1:>2}  ")
    line.append_text(name(seat["name"], style="bold" if index == you else ""))
    if seat.get("bot"):
        if compact:
            status, style = t("seat.bot_short"), "cyan"
        else:
            status, style = t("seat.bot", strength=t(f"bot.{seat['bot']}")), "cyan"
    elif seat["connected"]:
        status, style = ("" if compact else t("seat.here")), "green"
    else:
        status, style = t("seat.away"), "yellow"
    if status:
        line.append(f"  {status}", style=style)
    if index == you:
        line.append(" ◀" if compact else f"  {t('seat.you')}", style="bold")
    if not playing:
        line.append(f"  {t('seat.waiting')}", style="dim")
    return line


class SeatList(Static):
    """Everybody at the table with their connection state."""

    def show(self, room: dict[str, Any], you: int | None = None, compact: bool = True) -> None:
        seats = room["seats"]
        if not seats:
            self.update(Text(t("lobby.nobody"), style="dim"))
            return
        players = room["players"] if room["phase"] != "lobby" else len(seats)
        lines = Text("\n").join(
            seat_line(i, s, playing=i < players, you=you, compact=compact)
            for i, s in enumerate(seats)
        )
        self.update(lines)


class Story:
    """What happened, in plain words: the last lines, and how many there have ever been — so
    a screen that has shown `n` of them knows what is new even after old ones were dropped."""

    KEEP = 200

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.total = 0

    def add(self, line: str) -> None:
        self.lines.append(line)
        self.total += 1
        del self.lines[: -self.KEEP]

    def since(self, seen: int | None, fresh: int = 30) -> list[str]:
        """Lines after the first `seen`; a screen that has seen nothing gets the last `fresh`."""
        if seen is None:
            return self.lines[-fresh:]
        return self.lines[-min(self.total - seen, len(self.lines)) :] if self.total > seen else []

    def catch_up(self, screen: Any, feed: Feed) -> None:
        """Write to `feed` what `screen` hasn't shown yet."""
        for line in self.since(getattr(screen, "_story_seen", None)):
            feed.say(line)
        screen._story_seen = self.total


class Feed(RichLog):
    """What just happened, in plain words; the newest line at the bottom."""

    DEFAULT_CSS = "Feed { height: 1fr; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_lines=200, wrap=True, markup=False, auto_scroll=True, min_width=1, **kwargs
        )

    def say(self, line: str) -> None:
        self.write(Text(line))
