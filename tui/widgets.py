"""Widgets and screens both apps use: help, confirmation, the list of seats, the feed."""

from __future__ import annotations

import dataclasses
import os
import re
import time as _time
import tomllib
from collections import deque
from collections.abc import Callable, Iterator, MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Offset
from textual.notifications import Notification, Notify
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static

from tui.i18n import has, lang, t
from tui.text import UNBROKEN_SPACE, drawn, hanging, name, numbers_kept, seat_mark

_RUSSIAN_LAYOUT = dict(zip("qwertyuiopasdfghjklzxcvbnm", "йцукенгшщзфывапролдячсмить", strict=True))
"""The Cyrillic letter on each Latin letter's key (ЙЦУКЕН over QWERTY)."""


def _action_id(action: str) -> str:
    """`answer('accept')` → `answer_accept`, `number(0)` → `number_0`: a keymap file's key."""
    return re.sub(r"[^a-z0-9]+", "_", action.lower().replace("-", "minus")).strip("_")


def keys(namespace: str, bindings: list[Binding]) -> list[Binding]:
    """A screen's or widget's bindings: each gets an id (`namespace.action`, for a keymap
    file), and each letter key also answers on the Russian layout — a Russian table's `y` is
    `н` until someone switches the layout, and `н` should still say yes."""
    out: list[Binding] = []
    for binding in bindings:
        names = binding.key.split(",")
        russian = [_RUSSIAN_LAYOUT[k] for k in names if k in _RUSSIAN_LAYOUT]
        out.append(
            dataclasses.replace(
                binding,
                key=",".join([*names, *russian]),
                key_display=binding.key_display or (names[0] if russian else None),
                id=binding.id or f"{namespace}.{_action_id(binding.action)}",
            )
        )
    ids = [binding.id for binding in out]
    assert len(set(ids)) == len(ids), f"two keys of {namespace} have one id: {ids}"
    return out


def keymap_file() -> Path:
    """Where a player may remap keys: `[keys]` of binding id = "keys" (e.g. `"trex.hand.skip"
    = "z"`; `hubbub keys` lists the ids)."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "hubbub" / "keys.toml"


def load_keymap() -> dict[str, str]:
    """The keymap file's `[keys]`, or nothing (a broken file is ignored: keys still work)."""
    try:
        data = tomllib.loads(keymap_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = data.get("keys", {})
    return {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}


def all_bindings() -> list[Binding]:
    """Every key of both apps and the games' screens, by binding id (for `hubbub keys`)."""
    import importlib
    import pkgutil

    import tui.games

    games = [m.name for m in pkgutil.walk_packages(tui.games.__path__, "tui.games.")]
    found: dict[str, Binding] = {}
    for module_name in ("tui.widgets", "tui.client.screens", "tui.host.screens", *games):
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            for binding in getattr(value, "__dict__", {}).get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id:
                    found.setdefault(binding.id, binding)
    return list(found.values())


def put(widget: Any, content: Any) -> None:
    """`widget.update(content)`, unless it already shows exactly that: an update makes the
    whole screen lay itself out again, and most changes of the room touch few widgets."""
    if type(content) is type(getattr(widget, "_put", None)) and widget._put == content:
        return
    widget._put = content
    widget.update(drawn(content))  # (an `unbroken` phrase: one word, drawn with spaces)


@dataclass(frozen=True)
class Change:
    """One change of the room as the app got it: its version and its public events. Each app
    holds the latest in a reactive `change`; its screens watch it and redraw what they show
    (the room and the game view are on the app)."""

    version: int
    events: tuple[dict[str, Any], ...] = ()


def key_display(node: Any, binding: Binding, default: str) -> str:
    """The keys as shown for `binding`: a widget with `key_display_for(action)` may say it
    better now ("1–4" for four definitions instead of "1–9")."""
    better = getattr(node, "key_display_for", None)
    shown = better(binding.action) if callable(better) else None
    return shown or default


class Header(Static):
    """The title line: the app's title and the screen's subtitle. Drawn from its own watchers,
    each of which checks that the header is still on a screen (Textual's Header could be told
    a new title after its screen was switched away, and fail)."""

    DEFAULT_CSS = """
    Header {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
        text-align: center;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("show_clock", None)
        super().__init__(**kwargs)

    def on_mount(self) -> None:
        for node in (self.app, self.screen):
            for attribute in ("title", "sub_title"):
                self.watch(node, attribute, self._retitle, init=False)
        self._retitle()

    def _retitle(self, *_: Any) -> None:
        if not self.is_attached:
            return
        screen, app = self.screen, self.app
        title = screen.title or app.title
        sub = screen.sub_title or app.sub_title
        put(self, Text(f"{title} — {sub}" if sub else title))


@dataclass(frozen=True)
class FooterKey:
    """One key of a footer: as shown, what it does, whether it does something now — and what
    a tap on it does: its binding's action, run on the node that has the binding. `several`:
    it stands for a row of keys (1–9), and a tap cannot know which one is meant."""

    shown: str
    described: str
    enabled: bool
    node: Any = None
    binding: Binding | None = None
    several: bool = False


TAP = "tap"
"""The style meta of text a tap acts on (`tap_target`): the action it runs."""


def tap_target(text: Text, action: str, end: int | None = None) -> Text:
    """`text` (its first `end` characters), made something a tap (a click) acts on: the widget
    or screen drawing it runs `action` when it handles taps (`run_tap`). A phone has no number
    keys to spare: the rows a number picks are tapped instead. It looks the same — give it
    whole runs of one style (a line, a word in bold): a picture splits its text where a tap
    target begins or ends."""
    text.stylize(Style(meta={TAP: action}), 0, end)
    return text


async def run_tap(node: Any, event: events.Click) -> bool:
    """If `event` is a tap on a `tap_target`, run its action on `node` (as its key would:
    a key greyed now does nothing) and say True."""
    meta = event.style.meta if event.style else {}
    action = meta.get(TAP)
    if not isinstance(action, str):
        return False
    event.stop()
    await node.app.run_action(action, node)
    return True


class Footer(Static):
    """The keys that work here, in the user's language (binding descriptions are catalogue
    keys); a key that does nothing right now is shown dim. A widget may show its keys the way
    they are now (`key_display_for`). One widget drawing one line (more where they do not
    fit), redrawn only when the keys change — cheap enough to follow every change of the room.

    A tap on a key is that key pressed (a phone's screen has no Esc, F-keys or arrows): its
    action runs, or, greyed, the screen says why, as for the key itself."""

    DEFAULT_CSS = """
    Footer {
        dock: bottom;
        height: auto;
        background: $footer-background;
        color: $footer-description-foreground;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    Footer > .footer--key {
        color: $footer-key-foreground;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES = {"footer--key"}
    KEY = "footer_key"
    """The style meta of each key's text: its place in `_keys_shown`."""

    def on_mount(self) -> None:
        self._keys_shown: list[FooterKey] = []
        self.screen.bindings_updated_signal.subscribe(self, self._keys_changed)
        self._keys_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _keys_changed(self, screen: Screen) -> None:
        if screen is not self.screen:
            return
        keys = self._keys()
        line = self._line(keys, self.size.width or self.app.size.width)
        self._keys_shown = keys
        if line != getattr(self, "_shown", None):
            self._shown = line
            self.update(line)

    def on_resize(self) -> None:
        self._keys_changed(self.screen)

    def _keys(self) -> list[FooterKey]:
        """Every key shown, in order."""
        active = list(self.screen.active_bindings.values())
        hidden = {b.description for _, b, _, _ in active if not b.show and b.description}
        found, seen = [], set()
        for node, binding, enabled, _tooltip in active:
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            shown = key_display(node, binding, self.app.get_key_display(binding))
            described = t(binding.description) if binding.description else ""
            several = binding.description in hidden and shown != binding.key
            found.append(FooterKey(shown, described, enabled, node, binding, several))
        return found

    def _line(self, keys: list[FooterKey], width: int) -> Text:
        """Every key, on one line where they fit — closer together if need be — else on as
        many as it takes, each key whole: a key never falls off the end (a Russian footer is
        longer than an English one, a phone is 40 columns wide)."""
        line = self._entries(keys, tight=False)
        if line.cell_len <= width:
            return line
        line = self._entries(keys, tight=True)
        if line.cell_len <= width or len(keys) < 2:
            return line
        lines: list[Text] = []
        first = 0
        while first < len(keys):  # as many as fit on each line (at least one)
            last = first + 1
            while last < len(keys):
                longer = self._entries(keys[first : last + 1], tight=True, start=first)
                if longer.cell_len > width:
                    break
                last += 1
            lines.append(self._entries(keys[first:last], tight=True, start=first))
            first = last
        return Text("\n").join(lines)

    def _entries(self, keys: list[FooterKey], *, tight: bool, start: int = 0) -> Text:
        key_style = self.get_component_rich_style("footer--key")
        line = Text(no_wrap=True, overflow="crop")
        for number, shown in enumerate(keys, start=start):
            entry = Text()
            key = Text(f"{shown.shown} " if tight else f" {shown.shown} ", style=key_style)
            if not shown.enabled:
                key.stylize("dim")
            entry.append_text(key)
            entry.append(
                shown.described if tight else f"{shown.described} ",
                style="" if shown.enabled else "dim",
            )
            if tight and number < start + len(keys) - 1:
                entry.append(" ")  # (a tap on the space between two keys is the first's)
            entry.stylize(Style(meta={self.KEY: number}))
            line.append_text(entry)
        return line

    async def on_click(self, event: events.Click) -> None:
        """A tap on a key: the key pressed."""
        number = (event.style.meta if event.style else {}).get(self.KEY)
        if not isinstance(number, int) or not 0 <= number < len(self._keys_shown):
            return
        event.stop()
        await press(self.screen, self._keys_shown[number])


async def press(screen: Screen, key: FooterKey) -> None:
    """What pressing `key` does, for a tap on it: its action where it does something now;
    else the screen says why (a `KeyHints` screen), as it would for the key."""
    if key.binding is None:
        return
    if key.several:  # "1–9": which one? The rows they pick say, and are tapped themselves
        screen.notify(t("keys.tap_one", keys=key.shown), timeout=KeyHints.HINT_SECONDS)
        return
    # whether it does something *now*, not when the footer was drawn: a tap that comes with
    # the view that enables the key, before the footer has followed, is that key
    if await screen.app.run_action(key.binding.action, key.node):
        return
    if isinstance(screen, KeyHints):
        screen.hint_not_now(key.shown, key.node, key.binding)


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


def keys_now(screen: Screen, node: Any, limit: int = 3) -> str:
    """The keys of `node` (a game's hand) that do something now, as the footer shows them:
    "1 2 Choose the word" — what a key that does nothing is answered with, on the player's
    own move."""
    rows, seen = [], set()
    for owner, binding, enabled, _tooltip in screen.active_bindings.values():
        if owner is not node or not enabled or not binding.show or not binding.description:
            continue
        if binding.action in seen:
            continue
        seen.add(binding.action)
        shown = key_display(owner, binding, screen.app.get_key_display(binding))
        rows.append(f"{shown} {t(binding.description)}")
    return "; ".join(rows[:limit])


class Dialog:
    """ModalScreen mixin: a dialog a phone answers with a tap. Text in it made with
    `tap_target` runs its action on the dialog; a tap beside it (on the screen dimmed behind
    it) runs `BESIDE` — what Esc does: close it, answer no, pick nothing."""

    BESIDE = "dismiss"
    GIVES_WAY: ClassVar[bool] = False
    """A dialog that only shows something (the help, the story, a chart) closes by itself
    when the table starts waiting for this player: it must not hide the prompt and its
    countdown (`ClientApp`). One that asks something stays. And a key it has no use for
    closes it, never swallowed: it does what it does on the screen beneath (the `o` of a
    sealed choice the player was reading about) if that screen is as it was when the dialog
    opened; if the table moved on under it (an offer came in), the key only closes it and
    says so — nothing is done that its player has not seen."""

    SCROLLING: ClassVar[frozenset[str]] = frozenset(
        {"up", "down", "left", "right", "pageup", "pagedown", "home", "end", "tab", "shift+tab"}
    )

    ANSWER_FIRST: ClassVar[str | None] = None
    """A dialog that asks something: the catalogue key of what it says to a key it has no
    use for ("Answer the question first: y leaves, n or Esc stays"). The key is not passed
    on, as a dialog that only shows something passes it: an answer is deliberate, and a
    question left open is not answered by a key meant for the game — but it is never
    swallowed without a word (the play-test: T-Rex's `4` under "Leave the game?" did
    nothing and said nothing while the vote ran)."""

    HURRIED: ClassVar[str | None] = None
    """A question that is not about the player's move (Leave the game?): the catalogue key
    of what it says when it closes as its no (`answer_no`) with `ClientApp.HURRY` seconds
    left of the countdown that waits on this player — it must not hold them until "the
    undecided stay IN" (`ClientApp._hurry`). A question that *is* the move (Tesauro's "is
    definition 3 the true one?") stays: its own clock counts."""

    def on_mount(self) -> None:
        screen: Any = self
        self._seen_moment = _moment(screen.app)  # (what the screen beneath it asks)

    def answer_no(self) -> None:
        """Close as its no (`HURRIED`)."""
        screen: Any = self
        screen.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        screen: Any = self
        if event.key in screen.active_bindings:
            return  # its own (Esc, ?, y, …)
        if not (event.is_printable or event.key in ("enter", "space")):
            return
        if not self.GIVES_WAY:
            if self.ANSWER_FIRST is not None:
                event.stop()
                event.prevent_default()
                self._answer_first()
            return
        if event.key in self.SCROLLING:
            return
        event.stop()
        event.prevent_default()
        app = screen.app
        app.pop_screen()
        if _moment(app) != getattr(self, "_seen_moment", None):
            shown = event.character if event.is_printable and event.character else event.key
            app.notify(t("keys.moved_on", pressed=shown), severity="warning", markup=False)
            return
        app.post_message(events.Key(event.key, event.character))

    def _answer_first(self) -> None:
        """Say how to answer it (`ANSWER_FIRST`): once on the screen, however many keys
        ask — and taken down when it closes (`on_unmount`), not left to speak of a question
        no longer there."""
        screen: Any = self
        self._drop_answer_first()
        note = Notification(t(self.ANSWER_FIRST or ""), severity="warning", timeout=4)
        self._answer_note = note
        screen.app.post_message(Notify(note))  # (what `notify` does, keeping the toast)

    def _drop_answer_first(self) -> None:
        screen: Any = self
        note = getattr(self, "_answer_note", None)
        if note is not None:
            self._answer_note = None
            screen.app._unnotify(note)

    def on_unmount(self) -> None:
        self._drop_answer_first()

    async def on_click(self, event: events.Click) -> None:
        screen: Any = self
        if await run_tap(screen, event):
            return
        if tapped(screen, event) is screen:
            event.stop()
            await screen.run_action(self.BESIDE)


def _moment(app: Any) -> Any:
    """What a key on the screen beneath a dialog would answer: the app's `moment()` (a
    player's: phase, whether the table waits on them, the hand's moment), else its version."""
    moment = getattr(app, "moment", None)
    return moment() if callable(moment) else getattr(app, "version", None)


def tapped(screen: Screen, event: events.MouseEvent) -> Widget:
    """The widget under a tap (the event may have bubbled up from it)."""
    return screen.get_widget_at(event.screen_x, event.screen_y)[0]


class HelpScreen(Dialog, ModalScreen[None]):
    """`?` on any screen: what this screen is for and every key it has."""

    GIVES_WAY = True

    BINDINGS = keys(
        "help",
        [
            Binding("escape,question_mark,q,f1", "dismiss", "key.close", key_display="Esc"),
        ],
    )

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
        text.append("\n")
        text.append_text(close_line(self.app, "help.close"))
        with VerticalScroll(id="help"):
            yield Static(text)
        yield from phone_footer(self.app)

    def action_dismiss(self, result: Any = None) -> None:
        self.dismiss(None)


def phone_footer(app: Any) -> Iterator[Footer]:
    """A footer for a dialog on a phone held upright (`-narrow`), whose keys are tapped: its
    way out stays in view while the dialog scrolls (a larger screen's dialog says its keys
    in its text, which a tap answers too, and has room beside it to tap)."""
    if app.has_class("-narrow"):
        yield Footer()


def close_line(app: Any, key: str) -> Text:
    """A dialog's last line, "Esc closes this help.", which a tap on closes it too — on a
    phone held upright (`-narrow`) it says so (`<key>_tap`): there is no Esc to press."""
    said = t(f"{key}_tap" if app.has_class("-narrow") else key)
    return tap_target(Text(said, style="dim"), "dismiss")


class ConfirmScreen(Dialog, ModalScreen[bool]):
    """A yes/no question answered with y / n (Esc = no), or a tap on either.

    An answer must be deliberate: a key that comes less than PAUSE seconds after the one
    before it (the key that opened the question, or one typed into it) is part of someone's
    typing — "quickly yields" must not open "Leave?" with its `q` and confirm it with its
    `y` — so it is ignored, and the question says to pause first. A tap is no typing."""

    PAUSE = 0.5
    BESIDE = "answer(False)"
    ANSWER_FIRST = "confirm.answer_first"
    GAP = "    "
    """Between the hint's yes and its no."""
    BINDINGS = keys(
        "confirm",
        [
            Binding("y", "answer(True)", "key.yes"),
            Binding("n,escape", "answer(False)", "key.no", key_display="n/Esc"),
        ],
    )

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question
        self._last_key = _time.monotonic()

    def compose(self) -> ComposeResult:
        hint = t("confirm.hint_yes") + self.GAP + t("confirm.hint_no")
        with Vertical(id="confirm"):
            yield Static(Text(self.question), id="question")  # names in it are literal
            yield Static(hint, classes="dim", id="confirm-hint")
        yield from phone_footer(self.app)

    async def on_click(self, event: events.Click) -> None:
        """A tap on the hint's "y: yes" is yes, on its "n or Esc: no" no (by where in the
        line: one run of text, as it always looked; wrapped, its second line is the no)."""
        hint = self.query_one("#confirm-hint", Static)
        if tapped(self, event) is not hint or getattr(hint, "_typing", False):
            return
        event.stop()
        x, y = Offset(event.screen_x, event.screen_y) - hint.content_region.offset
        yes = cell_len(t("confirm.hint_yes"))
        if y == 0 and x < yes:
            self.action_answer(True)
        elif y > 0 or x >= yes + len(self.GAP):
            self.action_answer(False)

    def on_key(self, event: events.Key) -> None:
        gap, self._last_key = event.time - self._last_key, event.time
        if gap < self.PAUSE and event.key != "escape":
            event.stop()
            event.prevent_default()
            hint = self.query_one("#confirm-hint", Static)
            hint._typing = True  # type: ignore[attr-defined]  # (no yes or no in it now)
            hint.update(Text(t("confirm.typing"), style="bold yellow"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def answer_no(self) -> None:
        self.dismiss(False)


def after_refresh(node: Widget, callback: Callable[[], object]) -> None:
    """`node.call_after_refresh(callback)`, for a node that may be gone by then. Textual runs
    the callback after the refresh of whichever screen is current *then* — the results, say,
    that replaced a table whose children are gone — so a node no longer attached to the app,
    or on its way out (Textual marks a subtree it prunes before it removes it, children
    first: the node may still be attached while its children are gone), is not called."""

    def if_still_there() -> None:
        if node.is_attached and not node._pruning:
            callback()

    node.call_after_refresh(if_still_there)


class TypingGuard:
    """Letters typed in a burst that began in a text field are text, not commands.

    When a field closes under the typist (the thinking time ran out, the screen changed) or
    was never there (a refused tile), the next letters would otherwise land on the screen's
    keys: "quickly yields" would open "Leave?" with its `q`. So a printable key that comes
    less than PAUSE seconds after the last key typed into a field is swallowed — and keeps
    the burst going — until the typist pauses. One guard per app.

    An Enter in a field ends the burst: the field did its work (the code joined, the
    definition went), so the next key is meant for the screen that follows — a player's
    first key after joining, or after sending a definition, is never swallowed. Only a
    field closed *under* the typist guards the keys after it."""

    PAUSE = 0.5

    def __init__(self) -> None:
        self.last = float("-inf")

    @classmethod
    def of(cls, app: Any) -> TypingGuard:
        guard = getattr(app, "_typing_guard", None)
        if guard is None:
            guard = app._typing_guard = cls()
        return guard

    def typed(self, when: float) -> None:
        self.last = when

    def submitted(self) -> None:
        """The field's Enter: the burst is over."""
        self.last = float("-inf")

    def swallows(self, event: events.Key) -> bool:
        if not event.is_printable or event.time - self.last >= self.PAUSE:
            return False
        self.last = event.time
        return True


ENTER_KEYS = ("enter", "ctrl+j")
"""Enter, and Enter typed before the app took the terminal: the terminal driver's line mode
turns its carriage return into a line feed (`hubbub join HOST`, the name and Enter typed at
once, reach the join form as "Zoe", ctrl+j)."""


class TextField(Input):
    """An Input whose typing the app's TypingGuard knows about, and whose Enter is an Enter
    however early it was typed."""

    BINDINGS = [Binding("ctrl+j", "submit", show=False)]

    def on_key(self, event: events.Key) -> None:
        if event.is_printable:
            TypingGuard.of(self.app).typed(event.time)

    async def action_submit(self) -> None:
        TypingGuard.of(self.app).submitted()
        await super().action_submit()

    def _on_paste(self, event: events.Paste) -> None:
        """A paste of several lines is one line of text, its lines joined by spaces (the
        field kept the first line only, and a definition lost the rest without a word)."""
        if "\n" in event.text or "\r" in event.text:
            event.prevent_default()  # (not Input's own: it keeps the first line)
            event.stop()
            joined = " ".join(event.text.split())
            if self.selection.is_empty:
                self.insert_text_at_cursor(joined)
            else:
                self.replace(joined, *self.selection)


class TypeAhead:
    """App mixin: what is typed after Enter in a form goes where that Enter sends the typist.

    Textual hands each key to whatever has the focus when the app reads it, but a field's
    Enter does its work a few messages later (the screen moves the focus on, or brings up
    the next screen, which focuses its first field later still). A typist quicker than that
    — tmux, a paste, anyone on a busy laptop — would glue the name to the address and the
    code to the name. So from an Enter in a text field of a `FORM` screen, and while a
    `FORM` screen on top has not mounted, keys are held.

    A hold waits for one thing: the Enter's work ("enter": the form's `on_input_submitted`
    is over) or a form's mount ("form"). `release_keys(what)` with that thing reads the held
    keys again in order — they go to the back of the app's queue, where nothing newer waits
    (every newer key was held too) — and any other release is not this hold's: a form's
    mount told late, after keys typed at start-up, does not let go of an Enter's hold. An
    Enter whose work brings up a form then waits for the form.

    A hold that waits for the table ("screen", "view") is let go after `HOLD_LIMIT`: the
    answer may never come. One that waits for this app's own work ("enter", "form") waits
    for it, however long a busy machine makes it take — a web seat's app runs on the host's
    machine, beside every other guest's, and an Enter's work took longer than a second there:
    the keys let go by the clock went on to the field the Enter was leaving (the code glued to
    the name). Only a hold whose work was lost is let go, after `LOST_LIMIT`."""

    HOLD_LIMIT = 1.0
    """Seconds keys wait for the table's answer (the screen a join brings, a move's view)."""
    LOST_LIMIT = 10.0
    """Seconds keys wait for this app's own work: only a hold no work will release (its screen
    torn down under it) is let go by this clock; a slow app never meets it."""
    OWN_WORK = ("enter", "form")

    _held: list[events.Key] | None = None
    _waiting: str | None = None
    _hold_timer: Any = None

    async def on_event(self, event: events.Event) -> None:
        app: Any = self
        if isinstance(event, events.Key) and event.is_forwarded and self._waiting == "view":
            # back up to run the app's bindings, behind a move on its way: it waits too (the
            # screen had it before the move's own key came back up and made the move)
            self._hold("view").append(app_key(self, event))
            return
        if isinstance(event, events.Key) and not event.is_forwarded:  # not bubbling back
            if self._held is not None or _form_coming(app.screen):
                self._hold("form").append(event)
                return
            if (
                event.key in ENTER_KEYS
                and getattr(app.screen, "FORM", False)
                and isinstance(app.focused, TextField)
            ):
                self._hold("enter")  # the keys after it wait for what it does
        await super().on_event(event)  # type: ignore[misc]

    def _hold(self, waiting: str) -> list[events.Key]:
        if self._held is None:
            self._held = []
            self._wait_for(waiting)
        return self._held

    def _wait_for(self, waiting: str) -> None:
        """The held keys wait for `waiting` now; the clock that lets them go starts again,
        as long as that allows (`HOLD_LIMIT` for the table, `LOST_LIMIT` for this app)."""
        app: Any = self
        self._waiting = waiting
        if self._hold_timer is not None:
            self._hold_timer.stop()
        limit = self.LOST_LIMIT if waiting in self.OWN_WORK else self.HOLD_LIMIT
        self._hold_timer = app.set_timer(limit, lambda: self.release_keys())

    def hold_until(self, what: str) -> None:
        """The Enter's work goes on after its handler (a join waits for the table's answer):
        the keys held since that Enter wait for `what` instead ("screen": the next screen's
        mount), so a key typed while one screen replaces another reaches the new one."""
        if self._held is not None and self._waiting == "enter":
            self._wait_for(what)

    def hold_keys(self, what: str) -> None:
        """Hold every key from now until `what` is done (at most `HOLD_LIMIT`): a game's move
        is on its way, and the keys typed behind it in one burst ("4 w 2": offer, withdraw,
        offer again) are for the screen its answer brings, in the order typed — a key the
        screen takes at once would go before one it looks at twice (the `2` was refused as
        "your offer is out", the `w` then withdrew the first offer). A hold already on
        (an Enter's) is kept."""
        self._hold(what)

    def hold_for(self, what: str, key: events.Key) -> None:
        """Hold `key` (and those after it) until `what` is done (`release_keys(what)`), at
        most `HOLD_LIMIT`: a game's key pressed before the answer to the move before it. A
        fresh one is held: the key has been handed to the screen already, and the app takes
        a key handed on for one coming back, and reads it no more."""
        self._hold(what).append(app_key(self, key))

    def release_keys(self, what: str | None = None) -> None:
        """`what` ("enter", "form" or "view") is done: read the held keys again if they waited for
        it — unless a form is still coming up, which they wait for then. None: `HOLD_LIMIT`
        lets go, whatever they waited for."""
        app: Any = self
        if self._held is None or what not in (None, self._waiting):
            return
        if what is not None and _form_coming(app.screen):
            self._wait_for("form")
            return
        held, self._held, self._waiting = self._held, None, None
        self._hold_timer.stop()
        self._hold_timer = None
        for key in held:  # an Enter among them holds the keys after it again
            app.post_message(key)


def app_key(app: Any, key: events.Key) -> events.Key:
    """`key` afresh, for `app` to read again as if just typed. Made as the app's own: a
    message stops bubbling at the node that sent it, and a key a screen made never came
    back up to the app, whose bindings it was meant for."""
    fresh = events.Key(key.key, key.character)
    fresh._sender = app  # (Textual's own record of the sender: not the screen running now)
    return fresh


def _form_coming(screen: Screen[Any]) -> bool:
    return getattr(screen, "FORM", False) and not screen.is_mounted


class Form:
    """Screen mixin for `TypeAhead`: a screen of text fields, typed into as fast as anyone
    likes. Its own `on_mount` and `on_input_submitted` run before these (Textual calls each
    class's handler, the screen's own first), so the focus they move is queued before the
    release: the held keys follow it."""

    FORM = True

    def on_mount(self) -> None:
        self._release("form")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._release("enter")

    def _release(self, what: str) -> None:
        release_after(self, what)  # type: ignore[arg-type]


def release_after(screen: Screen[Any], what: str) -> None:
    """Tell the app's `TypeAhead` that `what` is done, once the messages queued now (the
    focus this screen moves) have run: the held keys follow them."""
    app = screen.app
    if isinstance(app, TypeAhead):
        app.call_later(app.release_keys, what)


class KeyHints:
    """A screen that says why a key did nothing (mixed into the apps' main screens).

    A key no binding takes now, or one whose binding is greyed out, is answered on the screen
    for a moment: the node that owns a greyed key may say why (`why_not(action)`), the screen
    may say what the table waits for (`idle_reason()`), else a plain "does nothing now". Keys
    that reach a text field never get here: the field takes them."""

    HINT_SECONDS = 2.5

    def on_key(self, event: events.Key) -> None:
        screen: Any = self
        if TypingGuard.of(screen.app).swallows(event):
            event.stop()
            event.prevent_default()
            return
        active = screen.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        event.stop()
        if not getattr(event, "second_look", False):
            # Keys reach the screen before the app has run the bindings of the keys before
            # them (those run once a key comes back to the app): "1 2 3 Enter r" typed as one
            # burst had its `r` judged before Enter chose the dice. It is looked at again
            # behind them.
            again = app_key(screen.app, event)
            again.second_look = True  # type: ignore[attr-defined]
            screen.app.post_message(again)
            return
        character = event.character if event.is_printable else None
        if character and not character.isspace():
            shown = character  # the key as pressed: `й` on a Russian layout, not `q`
        elif active is not None:
            shown = screen.app.get_key_display(active.binding)
        else:
            shown = event.key
        if self.hold_key(event):
            return
        hidden = getattr(self, "why_not_key", None)  # a key out of the footer now may say why
        reason = hidden(event.key) if active is None and callable(hidden) else None
        if reason is not None:
            self._hint(shown, reason, known=True)
        elif active is None:
            self._hint(shown, None, known=False)
        else:
            self.hint_not_now(shown, active.node, active.binding)

    def hold_key(self, event: events.Key) -> bool:
        """Whether a key that does nothing now is held for the answer on its way (it may
        then: a greyed key, or one whose binding the screen shows only then), instead of
        refused; by default it never is."""
        return False

    def hint_not_now(self, shown: str, node: Any, binding: Binding) -> None:
        """Say why the key `shown` (of `binding`, on `node`) does nothing now: the node that
        owns a greyed key may say why (`why_not(action)`), else what the screen waits for."""
        why = getattr(node, "why_not", None)
        action = binding.action.split("(")[0]
        self._hint(shown, why(action) if callable(why) else None, known=True)

    def _hint(self, shown: str, reason: str | None, *, known: bool) -> None:
        screen: Any = self
        reason = reason or self.idle_reason()
        line = t("keys.not_now" if known or reason else "keys.nothing", pressed=shown)
        if reason:
            line = f"{line} {reason}"
        if line != getattr(self, "_last_hint", None) or _time.monotonic() > getattr(
            self, "_hint_until", 0.0
        ):
            self._last_hint = line
            self._hint_until = _time.monotonic() + self.HINT_SECONDS
            screen.notify(line, timeout=self.HINT_SECONDS, markup=False)

    def idle_reason(self) -> str | None:
        """What the screen waits for now, in words (e.g. "The table waits for Ann.")."""
        return None


def clock(seconds: float) -> str:
    """0:07, 1:20 — a duration as a table shows it."""
    whole = max(0, int(seconds + 0.5))
    return f"{whole // 60}:{whole % 60:02d}"


class Beats:
    """A count a table stages on its own (Tally Up!'s 1… 2… 3…!, Tesauro's definitions shown
    one by one): `beat` is where it is (None: not counting), a beat every `seconds`, and
    `on_beat` draws each step — the last one after the count has ended. `last()` is the last
    beat it shows, asked at every step. A screenshot `pause`s it and steps it by hand."""

    def __init__(
        self, widget: Widget, seconds: float, on_beat: Callable[[], object], last: Callable[[], int]
    ) -> None:
        self.widget = widget
        self.seconds = seconds
        self.on_beat = on_beat
        self.last = last
        self.beat: int | None = None
        self.paused = False
        self._timer: Timer | None = None

    def start(self) -> None:
        """From the first beat (again, if a count was on)."""
        self.stop()
        self.beat = 0
        self._timer = self.widget.set_interval(self.seconds, self.step, pause=self.paused)

    def step(self) -> None:
        beat = (self.beat or 0) + 1
        if beat > self.last():
            self.stop()
        else:
            self.beat = beat
        self.on_beat()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = None
        self.beat = None


class Timed:
    """A widget that shows the room's countdown. Its deadline is set from the room summary's
    `timer_seconds` when a view comes (`follow_timer`) and read on the app's one clock (`now`:
    the app's `clock`, which a test or a screenshot stops or moves), so every countdown on a
    screen agrees and none computes its own."""

    deadline: float | None = None
    """When the countdown is over, on the app's clock (None: none runs)."""

    def now(self) -> float:
        return getattr(self.app, "clock", _time.monotonic)()  # type: ignore[attr-defined]

    def follow_timer(self, seconds: float | None) -> None:
        """The room's countdown has `seconds` left now (None: none runs)."""
        self.deadline = self.now() + seconds if seconds is not None else None

    def seconds_left(self) -> float | None:
        """What is left of the countdown (never below 0), or None when none runs."""
        return None if self.deadline is None else max(0.0, self.deadline - self.now())

    def stop_timer(self) -> None:
        """The table is not heard (the link is down, the host perhaps killed): no countdown
        runs on here — one ran to "0:00 your move" under a dead host, then jumped back to
        0:36 after its resume. The next view sets it again, and is drawn whatever it holds."""
        self.deadline = None
        self._presented = None
        self.timer_stopped()

    def timer_stopped(self) -> None:
        """Draw again without the countdown (`stop_timer`)."""


def no_bots(room: dict[str, Any] | None, key: str) -> str:
    """The suffix that picks `key`'s words for a room whose game has no bots — where an away
    seat sits out and a seat given up is out of the game, and nothing may say a bot plays it
    (`_no_bots`, when the catalogue has such words)."""
    alone = not (room or {}).get("standins", True)
    return "_no_bots" if alone and has(f"{key}_no_bots") else ""


def absence(seat: dict[str, Any], standins: bool = True) -> str | None:
    """How long a seat's player has been away, and what happens about it (a bot steps in,
    or, in a game without bots, the seat sits out), or None. A seat whose player left for
    good and a bot plays on is said so ("Waiting for: ● Ann" read as if Ann were there)."""
    if seat.get("leaving") and seat.get("bot"):
        return t("seat.left_bot")
    if seat.get("standin"):
        return t("seat.standin")
    away_for = seat.get("away_for")
    if away_for is None:
        return None
    left = seat.get("standin_in")
    if left is not None:
        key = "seat.away_standin_in" if standins else "seat.away_sits_out_in"
        return t(key, away=clock(away_for), left=clock(left))
    return t("seat.away_for", away=clock(away_for))


def who_waits(room: dict[str, Any], exclude: int | None = None) -> str | None:
    """ "The table waits for Ann (away 0:12, a bot plays for them in 0:08)." — or None."""
    seats = room.get("seats", [])
    parts = []
    for seat in room.get("waiting", []):
        if seat == exclude or not 0 <= seat < len(seats):
            continue
        part = seats[seat]["name"]
        if (note := absence(seats[seat], room.get("standins", True))) is not None:
            part += f" ({note})"
        parts.append(part)
    return t("table.waits_for", names=", ".join(parts)) if parts else None


def seat_line(
    index: int,
    seat: dict[str, Any],
    *,
    playing: bool,
    you: int | None = None,
    compact: bool = False,
    width: int | None = None,
    wrap: bool = True,
) -> Text:
    """One seat: its number, the name as typed, and whether it is here. Compact (the narrow
    side panels) says only what is unusual: away, a bot, you — on one line of `width` where
    it fits; else (`wrap`) what is said of the seat goes under the name, and a name longer
    than the line wraps (a leaver's was cut, "Даниил…  не в игре"); without `wrap` (no rows
    to spare), the name is shortened with … (a long name never pushes the list off its box)."""
    prefix = Text(f"{index + 1:>2} ")
    prefix.append_text(seat_mark(seat.get("mark", index)))
    prefix.append(" ")
    who = name(seat["name"], style="bold" if index == you else "")
    head = prefix + who
    line = Text()
    if seat.get("bot"):
        if compact:
            status, style = t("seat.bot_short"), "cyan"
        else:
            status, style = t("seat.bot", strength=t(f"bot.{seat['bot']}")), "cyan"
    elif seat["connected"]:
        status, style = ("" if compact else t("seat.here")), "green"
    elif seat.get("leaving"):
        status, style = t("seat.left"), "dim"
    elif seat.get("standin"):
        status, style = t("seat.standin_short" if compact else "seat.standin"), "cyan"
    else:  # (how long: the table's line for whom it waits, which counts on the screen)
        status, style = t("seat.away"), "yellow"
    if status:  # (the spaces unstyled: a picture's text run must not begin with spaces)
        line.append("  ")
        line.append(status, style=style)
    if index == you:  # (not an arrow: beside a name, one reads as whose turn it is)
        line.append(f" {t('seat.you_short')}" if compact else f"  {t('seat.you')}", style="bold")
    if not playing:
        line.append(f"  {t('seat.waiting')}", style="dim")
    if width is None or head.cell_len + line.cell_len <= width:
        return head + line
    if not wrap:
        head.truncate(max(6, width - line.cell_len), overflow="ellipsis")
        return head + line
    indent = prefix.cell_len
    shown = prefix + hanging(who, max(6, width - indent), indent)
    if line:  # (under the name, the spaces it began with dropped)
        shown.append("\n" + " " * indent)
        shown.append_text(line[len(line.plain) - len(line.plain.lstrip(" ")) :])
    return shown


class SeatList(Static):
    """Everybody at the table with their connection state."""

    def show(self, room: dict[str, Any], you: int | None = None, compact: bool = True) -> None:
        self._shown = (room, you, compact)
        width = self.content_size.width or None
        limit = self.styles.max_height  # (the rows it may take, within its border)
        rows = int(limit.value) - self.styles.gutter.height if limit and limit.is_cells else None
        seen = (lang(), room["seats"], room["players"], room["phase"], you, compact, width, rows)
        if seen != getattr(self, "_seen", None):  # most moves change no seat: not drawn again
            self._seen = seen
            put(self, seat_lines(room, you, compact, width if compact else None, rows))

    def on_resize(self) -> None:
        if (shown := getattr(self, "_shown", None)) is not None:
            self.show(*shown)  # the names are shortened to the width it has now


def seat_lines(
    room: dict[str, Any],
    you: int | None = None,
    compact: bool = True,
    width: int | None = None,
    rows: int | None = None,
) -> Text:
    """Every seat of `room` (`seat_line`, compact ones `width` wide at most), or that nobody
    sits yet. Within `rows` lines (None: any), a seat takes a second line only while there are
    rows to spare: first those with something said of them (a leaver's name is whole), then
    yours."""
    seats = room["seats"]
    if not seats:
        return Text(t("lobby.nobody"), style="dim")
    players = room["players"] if room["phase"] != "lobby" else len(seats)

    def line(i: int, wrap: bool = True) -> Text:
        return seat_line(i, seats[i], playing=i < players, you=you, compact=compact,
                         width=width, wrap=wrap)  # fmt: skip

    lines = [line(i) for i in range(len(seats))]
    spare = float("inf") if rows is None else rows - len(seats)
    for i in sorted(range(len(seats)), key=lambda i: i == you):  # (yours last)
        extra = lines[i].plain.count("\n")
        if extra > spare:
            lines[i] = line(i, wrap=False)
        else:
            spare -= extra
    return Text("\n").join(lines)


_TIMES = re.compile(r" \(×(\d+)\)$")


def again(lines: MutableSequence[str], line: str) -> bool:
    """If `line` is the last of `lines` once more, count it there ("Dan skips. (×2)") and
    say so; else change nothing."""
    if not lines:
        return False
    last = lines[-1]
    found = _TIMES.search(last)
    base, times = (last[: found.start()], int(found.group(1))) if found else (last, 1)
    if base != line:
        return False
    lines[-1] = f"{line} (×{times + 1})"
    return True


def _same_line(lines: MutableSequence[str], line: str) -> bool:
    """A story's counted line ("… (×3)") for a feed showing the line it counts: it takes
    that line's place."""
    found = _TIMES.search(line)
    if not lines or found is None or _TIMES.sub("", lines[-1]) != line[: found.start()]:
        return False
    lines[-1] = line
    return True


HEARD_KEEP = 400
"""Public events an app keeps as it heard them (`heard`: a resumed table's history, each
change's events, a welcome's story): what a screen may need to look back on that no view
says — Tesauro's definitions the turn clock gave for a speaker (`played_for`, then `spoke`)."""


class Story:
    """What happened, in plain words: the last lines, and how many there have ever been — so
    a screen that has shown `n` of them knows what is new even after old ones were dropped."""

    KEEP = 200

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.total = 0

    def add(self, line: str) -> None:
        """A line; the same line again is counted on the last one ("… (×3)"): a player's
        twenty skips pushed every match out of sight. It still counts as new (`since`)."""
        self.total += 1
        if not again(self.lines, line):
            self.lines.append(line)
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


def _spaces(line: Text) -> Text:
    """A wrapped line with its unbroken spaces (`Feed`) drawn as spaces again."""
    if UNBROKEN_SPACE not in line.plain:
        return line
    return Text(line.plain.replace(UNBROKEN_SPACE, " "), style=line.style, spans=line.spans)


class Feed(Widget):
    """What just happened, in plain words; the newest line at the bottom.

    It draws the newest lines that fit, wrapped to the width it has when it draws — not when
    a line arrived (a log written before its layout was known wraps at the wrong width, and
    a resize never re-wraps it). A word and the number after it stay on one line ("Bot 1",
    "turn 3", "to 500": "Остаются IN: Борис, Бот" over "1." at 80×24)."""

    DEFAULT_CSS = "Feed { height: 1fr; }"
    KEEP = 200

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.lines: deque[str] = deque(maxlen=self.KEEP)

    def say(self, line: str) -> None:
        """A line at the bottom; a repeat of the last (counted: `again`) replaces it."""
        if not again(self.lines, line) and not _same_line(self.lines, line):
            self.lines.append(line)
        self.refresh()

    def render(self) -> Text:
        width, height = self.content_size.width, self.content_size.height
        if width <= 0 or height <= 0:
            return Text()
        shown: list[Text] = []
        for line in reversed(self.lines):
            kept = Text(numbers_kept(line))
            wrapped = [_spaces(part) for part in kept.wrap(self.app.console, width)]
            room = height - len(shown)
            if len(wrapped) > room:  # whole lines only (but the newest, cut, if it alone is
                if not shown:  # taller than the feed: its beginning, and … for the rest)
                    shown = wrapped[:room]
                    shown[-1] = shown[-1].copy()
                    shown[-1].truncate(max(0, width - 1))
                    shown[-1].append("…")
                break
            shown[:0] = wrapped
        return Text("\n").join(shown)
