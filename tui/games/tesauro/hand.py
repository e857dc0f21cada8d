"""A player's hand in Tesauro: your role, big; then what your role does now — the reader's two
words, a scholar's entry, tile and definition, the spoken turns, the Sage's judgement — and
the keys of each phase, with the definition field that takes every key while it is open."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import Input, Static

from games.tesauro import CATEGORIES
from tui.bigtext import big
from tui.games import HandWidget
from tui.games.tesauro.field import DefinitionInput
from tui.games.tesauro.pieces import (
    chip,
    clocked_seats,
    definitions,
    last_line,
    numbered,
    progress,
    reveal,
    turn_line,
)
from tui.games.tesauro.words import (
    BIG_HEIGHT,
    MAX_TEXT,
    SPANISH,
    category_name,
    clock,
    hurried,
    role_name,
    span,
    who,
)
from tui.i18n import t
from tui.text import literal, name
from tui.widgets import ConfirmScreen, after_refresh, keys, put, tap_target

TILE_REFUSALS = (
    "tile_taken", "category_reserved", "brillante_tile", "bad_category", "no_tile",
    "not_connected",  # (not sent at all: the table is gone)
)  # fmt: skip
LAST_CALL = 1.5
"""Seconds before the thinking time ends at which a draft not yet sent goes as it is: half a
sentence beats nothing on a Friday night. The host's clock decides the end; a second and a
half covers the trip there, and the countdown's half-second tick."""
"""Refusal codes that mean the tile asked for is not ours."""


class TesauroHand(HandWidget):
    """Your role, big; then what your role does now. Typing a definition: pick a tile with
    its number and the field opens and takes every key (digits too) until Enter sends or Esc
    goes back to the tiles, keeping the draft; F1 is the help there. A small screen shows the
    definitions compactly and says when there is more below."""

    # what the keys depend on besides the view: a change refreshes the footer and the greyed keys
    _field_open: reactive[bool] = reactive(False, bindings=True, repaint=False, init=False)
    _wanted_tile: reactive[str | None] = reactive(None, bindings=True, repaint=False, init=False)
    """A tile asked for; the field opens when it is ours."""

    BINDINGS = keys(
        "tesauro.hand",
        [
            Binding("1", "choose(0)", "tesauro.key.choose", key_display="1 2"),
            Binding("2", "choose(1)", "tesauro.key.choose", show=False),
            # The keys that open or close the field have priority: the app runs them as it
            # reads them, before it hands on the keys typed after them, which then go where
            # the focus is now — a definition typed straight on after a tile's number is text
            # (`q` is not Leave), and a number straight after Esc is a tile.
            Binding("1", "tile(0)", "tesauro.key.tile", key_display="1–9", priority=True),
            *[
                Binding(str(n), f"tile({n - 1})", "tesauro.key.tile", show=False, priority=True)
                for n in range(2, 10)
            ],
            Binding("1", "pick(0)", "tesauro.key.pick", key_display="1–9"),
            *[
                Binding(str(n), f"pick({n - 1})", "tesauro.key.pick", show=False)
                for n in range(2, 10)
            ],
            Binding("c,0", "crazy", "tesauro.key.crazy", key_display="c/0"),
            Binding("enter", "write", "tesauro.key.write", key_display="Enter", priority=True),
            Binding("space,enter", "ready", "tesauro.key.ready", key_display="Space"),
            Binding("space,enter", "said", "tesauro.key.said", key_display="Space"),
            Binding("escape", "tiles", "tesauro.key.change_tile", key_display="Esc", priority=True),
            Binding("escape", "back", "tesauro.key.back", key_display="Esc", priority=True),
            Binding("f1", "help", "key.help", key_display="F1"),
            Binding("up", "scroll_up", show=False),
            Binding("down", "scroll_down", show=False),
            Binding("pageup", "page_up", show=False),
            Binding("pagedown", "page_down", show=False),
        ],
    )

    def compose(self) -> ComposeResult:
        yield Static(id="tsh-role")
        yield Static(id="tsh-status")
        yield Static(id="tsh-entry", classes="box")
        yield Static(id="tsh-main")
        yield DefinitionInput(
            self.tile_key_in_field,
            id="tsh-text",
            max_length=MAX_TEXT,
            placeholder=t("tesauro.placeholder"),
        )
        yield Static(id="tsh-count")
        yield Static(id="tsh-draft")
        yield Static(id="tsh-me")

    def on_mount(self) -> None:
        self._turn: int | None = None
        self._told_timeout: int | None = None  # the turn whose time-out was told
        self._last_called: int | None = None  # the turn whose draft went at the last call
        self._draft_at_tile: str | None = None  # the draft when a tile's key was pressed
        self._asked: list[Any] | None = None  # the Sage's question open: ["pick", n], ["crazy"]
        self.query_one("#tsh-text").display = False
        self._ticker = self.set_interval(0.5, self._tick)
        self.watch(self, "scroll_y", self._scrolled, init=False)
        # laid out again (the definitions took more or less room): is there more below now?
        self.watch(self, "virtual_size", self._scrolled, init=False)
        self.watch(self, "size", self._scrolled, init=False)

    # following the room

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        field = self.query_one("#tsh-text", DefinitionInput)
        if view.get("turn") != self._turn:  # a new turn: a new definition
            self._turn = view.get("turn")
            self._wanted_tile = self._draft_at_tile = None
            field.value = ""
        if self._wanted_tile is not None and view.get("tile") == self._wanted_tile:
            self._wanted_tile = None  # the tile asked for is ours: the field was open already
        if not self._may_write():
            self._field_open = False
        missed = self._timed_out() or self._missed_speaking()
        if missed and self._told_timeout != view.get("turn"):
            self._told_timeout = view.get("turn")
            key = "tesauro.timed_out" if view.get("mode") == "typed" else "tesauro.missed_speaking"
            self.notify(t(key), severity="warning")
        self._place_field()
        self._redraw()

    def _may_type(self) -> bool:
        """A scholar holding a tile, in the thinking time of the typed game, not yet given."""
        view = self.view
        return (
            view.get("mode") == "typed"
            and "define" in self.legal()
            and view.get("tile") is not None
            and view.get("phase") == "write"
        )

    def _may_write(self) -> bool:
        """A scholar of the typed game in the thinking time who has not given theirs: the
        field may be open, even while the tile asked for is on its way (or was refused)."""
        return self._unsent("write")

    def _unsent(self, phase: str) -> bool:
        """In `phase` of the typed game, a scholar who has not given a definition."""
        view = self.view
        me = view.get("seat")
        return (
            view.get("mode") == "typed"
            and view.get("phase") == phase
            and view.get("role") in ("brillante", "orate")
            and isinstance(me, int)
            and not view["given"][me]
        )

    def refused(self, code: str) -> None:
        """The host refused an action of ours: a tile asked for is not coming. The field
        stays open with the draft (what is typed after a refused key stays text) — but a
        tile's number typed before anything else is the next tile (`tile_key_in_field`)."""
        if self._wanted_tile is not None and code in TILE_REFUSALS:
            self._wanted_tile = None
            self._redraw()

    def _timed_out(self) -> bool:
        """The thinking time of the typed game ran out before this scholar sent theirs."""
        return self._unsent("judge")

    def _missed_speaking(self) -> bool:
        """The thinking time of the spoken game ran out before this scholar was ready (no
        tile, or not ready): they are not among the speakers — said, not silently."""
        view = self.view
        me = view.get("seat")
        return (
            view.get("mode") == "spoken"
            and view.get("phase") in ("speak", "judge")
            and view.get("role") in ("brillante", "orate")
            and isinstance(me, int)
            and not view["given"][me]
        )

    def _compact(self) -> bool:
        """A small screen (80x24): fewer lines for the role and the word."""
        return self.size.height < BIG_HEIGHT

    def _place_field(self) -> None:
        """The field is shown (and has the keys) exactly while it is open. The focus moves
        now, not once the keys already typed are handled (Textual's `focus()` waits for them):
        the next key goes where the screen says now."""
        field = self.query_one("#tsh-text", DefinitionInput)
        screen = self.screen
        if self._field_open:
            field.display = True
            if screen.focused is not field:
                screen.set_focus(field)
        else:
            if screen.focused is field or self.app.focused is None:
                screen.set_focus(self)
            field.display = False

    def _open_field(self) -> None:
        self._field_open = self._may_write()
        self._place_field()
        if self._field_open:  # back to the draft: go on where it ends
            field = self.query_one("#tsh-text", DefinitionInput)
            field.cursor_position = len(field.value)
        self._redraw()
        self.keep_unsent()

    # what is unsent, for a web seat's next app (`HandWidget.unsent`)

    def _moment(self) -> dict[str, Any]:
        """This turn: its number and its word (a new game's turn of the same number has
        another card)."""
        view = self.view
        return {"turn": view.get("turn"), "word": (view.get("entry") or {}).get("word")
                or view.get("word")}  # fmt: skip

    def unsent(self) -> dict[str, Any] | None:
        """A scholar's draft not yet given (and whether the field was open), or the Sage's
        question being answered."""
        view = self.view
        text = self.query_one("#tsh-text", DefinitionInput).value
        if self._may_write() and text.strip():
            return {**self._moment(), "text": text[:MAX_TEXT], "open": self._field_open}
        if self._asked is not None and view.get("phase") == "judge":
            return {**self._moment(), "asked": list(self._asked)}
        return None

    def restore(self, kept: dict[str, Any]) -> None:
        """The draft back in the field as it was (open, the cursor at its end), or the Sage's
        question asked again — only in the very turn it was kept in."""
        if any(kept.get(key) != value for key, value in self._moment().items()):
            return
        text, asked = kept.get("text"), kept.get("asked")
        if isinstance(text, str) and text and self._may_write():
            field = self.query_one("#tsh-text", DefinitionInput)
            field.value = text[:MAX_TEXT]
            field.cursor_position = len(field.value)
            self._draft_at_tile = None  # (digits typed now are text)
            if kept.get("open"):
                self._open_field()
            else:
                self._redraw()
        elif asked == ["crazy"] or (
            isinstance(asked, list)
            and len(asked) == 2
            and asked[0] == "pick"
            and isinstance(asked[1], int)
            and not isinstance(asked[1], bool)
        ):
            # (asked from this hand's own turn: its answer comes back to the hand, and its
            # move goes up to the app from there, as from a key)
            after_refresh(self, lambda: self._ask_again(asked, 50))

    def _ask_again(self, asked: list[Any], tries: int) -> None:
        """The Sage's question again, once this hand's screen is the one shown (a question
        pushed over a screen still coming up would answer nobody)."""
        if self.view.get("phase") != "judge" or self._question is not None:
            return
        if self.app.screen is not self.screen:
            if tries > 0 and not self.screen.is_modal:
                after_refresh(self, lambda: self._ask_again(asked, tries - 1))
            return
        if asked == ["crazy"] and "crazy" in self.legal():
            self.action_crazy()
        elif asked[0] == "pick" and "pick" in self.legal():
            self.action_pick(asked[1])

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.keep_unsent()
        self._draw_count()
        self._draw_draft()
        after_refresh(self, self._draw_me)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = " ".join(event.value.split())
        if not text:
            self.notify(t("tesauro.write_first"), severity="warning")
            return
        allowed = list(self.view.get("allowed") or [])
        if self._may_type():
            self.act({"type": "define", "text": text})
        elif self._may_write() and len(allowed) == 1 and "tile" in self.legal():
            # one tile is yours to take (the Genius's true category): Enter takes it and sends
            self.act({"type": "tile", "category": allowed[0]})
            self.act({"type": "define", "text": text})
        elif self._may_write():  # no tile yet (refused, or still on its way): the text stays
            self.notify(t("tesauro.tile_first_field"), severity="warning")

    # keys

    LEGAL_KEYS: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "choose": ("choose",),
        "tile": ("tile",),
        "pick": ("pick",),
        "crazy": ("crazy",),
    }

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of this phase: usable (True) or greyed (None: pressing one says why), as
        in every game. A number key means one thing per phase — the reader's word, a tile, a
        definition to pick — so the meanings of other phases are hidden (False); while the
        field is open, its own keys are the ones that count."""
        if action == "tile" and self._field_open:
            return False  # the digits go into the text
        if action in self.LEGAL_KEYS:
            return super().check_action(action, parameters)
        rule = self._FIELD_KEYS.get(action)
        return True if rule is None else rule(self)

    def owns_key(self, action: str) -> bool:
        """Greyed only for the one whose key it is — the reader's word, a tile of a scholar
        who has given nothing yet, the Sage's judgement: nobody else is shown it."""
        view = self.view
        phase, me = view.get("phase"), view.get("seat")
        given = view.get("given") or []
        has_given = isinstance(me, int) and me < len(given) and given[me]
        scholar = view.get("role") in ("brillante", "orate")
        return {
            "choose": phase == "choose" and me == view.get("reader"),
            "tile": phase == "write" and scholar and not has_given,
            "pick": phase == "judge" and me == view.get("sapiente"),
            "crazy": phase == "judge" and me == view.get("sapiente"),
        }[action]

    _FIELD_KEYS: ClassVar[Mapping[str, Callable[[TesauroHand], bool]]] = {
        "write": lambda hand: hand._may_type() and not hand._field_open,
        "ready": lambda hand: "done" in hand.legal() and hand.view.get("phase") == "write",
        "said": lambda hand: "done" in hand.legal() and hand.view.get("phase") == "speak",
        # a Genius can't change tile: Esc is "Back"
        "tiles": lambda hand: hand._field_open and hand.view.get("role") != "brillante",
        "back": lambda hand: hand._field_open and hand.view.get("role") == "brillante",
        "help": lambda hand: hand._field_open,  # F1 while `?` goes into the field
    }
    """The keys of the definition field and of being ready: shown only while they work."""

    def key_display_for(self, action: str) -> str | None:
        """The footer's keys as they are now: "1–4" for four definitions."""
        if action.startswith("pick("):
            count = len(self.view.get("defs") or [])
            return "1" if count == 1 else f"1–{count}" if count else None
        return None

    def on_key(self, event: events.Key) -> None:
        """A letter typed before any tile is taken is the definition's beginning (a play-test
        typed "a kind of bug" first: each key was refused, the text lost): the field opens
        with it, and says a tile is still to take (the text stays through it)."""
        character = event.character if event.is_printable else None
        field = self.query_one("#tsh-text", DefinitionInput)
        if character and self._field_open and field.display and not field.has_focus:
            event.stop()  # typed on before the focus reached the field (a paste, a phone's
            event.prevent_default()  # word at once): the rest of the text, not keys
            field.insert_text_at_cursor(character)
            return
        if not character or character.isdigit() or character.isspace():
            return
        if self._field_open or not self._may_write() or self.view.get("tile") is not None:
            return
        if self.screen.active_bindings.get(event.key) is not None:
            return  # (a key of the screen's own: `q` still asks whether to leave)
        event.stop()
        event.prevent_default()
        self.action_write()
        self.query_one("#tsh-text", DefinitionInput).insert_text_at_cursor(character)

    def action_choose(self, entry: int) -> None:
        self.act({"type": "choose", "entry": entry})

    def tile_key_in_field(self, character: str | None) -> bool:
        """Whether a key typed in the field is a tile's number meant as a tile: no tile held
        or on its way (the last one refused), nothing typed since its key. If so, it is."""
        if not character or character not in "123456789" or int(character) > len(CATEGORIES):
            return False
        field = self.query_one("#tsh-text", DefinitionInput)
        if self.view.get("tile") is not None or self._wanted_tile is not None:
            return False
        if field.value != getattr(self, "_draft_at_tile", None):
            return False
        self.action_tile(int(character) - 1)
        return True

    def action_tile(self, index: int) -> None:
        category = CATEGORIES[index]
        if category == self.view.get("tile"):  # yours already: back to the definition
            self._open_field()
            return
        self._wanted_tile = category
        self._draft_at_tile = self.query_one("#tsh-text", DefinitionInput).value
        self.act({"type": "tile", "category": category})
        if self._may_write():  # the field opens at once: typing ahead goes into the draft
            self._open_field()

    def action_pick(self, index: int) -> None:
        defs = self.view.get("defs") or []
        if index >= len(defs):
            self.notify(t("tesauro.only_defs", n=len(defs)), severity="warning")
            return
        entry = defs[index]
        names = self.view["players"]
        question = t(
            "tesauro.confirm_pick",
            n=index + 1,
            name=who(names, entry["seat"]),
            category=category_name(entry.get("tile")),
        )
        seat = entry["seat"]

        def pick(answer: bool | None) -> None:
            self._asked = None
            self.keep_unsent()
            if answer and "pick" in self.legal():
                self.act({"type": "pick", "seat": seat})

        question += self._clock_counts()
        self._asked = ["pick", index]
        self.ask(ConfirmScreen(question), pick, lambda: "pick" in self.legal())
        self.keep_unsent()

    def action_crazy(self) -> None:
        def crazy(answer: bool | None) -> None:
            self._asked = None
            self.keep_unsent()
            if answer and "crazy" in self.legal():
                self.act({"type": "crazy"})

        question = t("tesauro.confirm_crazy", crazy=t("tesauro.crazy"))
        question += self._clock_counts()
        self._asked = ["crazy"]
        self.ask(ConfirmScreen(question), crazy, lambda: "crazy" in self.legal())
        self.keep_unsent()

    def _hurried(self) -> bool:
        """The turn clock (the turn time, or the host's nudge) runs for this seat."""
        turn = self.room.get("turn") or {}
        return self.view.get("seat") in (turn.get("seats") or [])

    def _clock_counts(self) -> str:
        """The question's last words while the clock runs for the Sage: the choice goes as
        it is when the time runs out (`_judge_at_last_call`)."""
        return "\n" + t("tesauro.confirm_clock") if self._hurried() else ""

    def action_write(self) -> None:
        self._draft_at_tile = None  # (the field opened without a tile key: digits are text)
        self._open_field()

    def action_ready(self) -> None:
        self.act({"type": "done"})

    def action_said(self) -> None:
        self.act({"type": "done"})

    def action_tiles(self) -> None:
        """Esc in the field: back to the tiles (the draft stays)."""
        self._field_open = False
        self._place_field()
        self._redraw()
        self.keep_unsent()

    def action_back(self) -> None:
        """Esc in the Genius's field: out of it (the draft stays)."""
        self.action_tiles()

    def action_help(self) -> None:
        self.screen.action_help()  # type: ignore[attr-defined]

    # drawing

    def _tick(self) -> None:
        if self.view and self.view.get("phase") == "write" and self.seconds_left() is not None:
            self._last_call()
            self._draw_status()
            self._draw_count()
        elif self.view and self.view.get("phase") == "judge":
            self._judge_at_last_call()

    def _judge_at_last_call(self) -> None:
        """The Sage chose (a definition's number, or c) and the question "is it the true
        one?" is still open when the turn clock (the turn time, or the host's nudge) is about
        to run out: the choice goes as it is, LAST_CALL before the end, rather than the bot
        judging for a Sage who did choose (the rules' bot moves for one who does not act; the
        choice stays the Sage's own until then: nothing of it leaves this screen before)."""
        question = self._question
        left = self.seconds_left()
        if question is None or left is None or left > LAST_CALL or not self._hurried():
            return
        dialog, still = question
        if not dialog.is_attached or self.app.screen is not dialog or not still():
            return  # (a dialog over it: the bot judges, and the question closes, saying so)
        self._question = None
        dialog.dismiss(True)  # (its answer: the pick or the crazy is sent)
        self.notify(t("tesauro.judged_at_last_call"), severity="warning")

    def _last_call(self) -> None:
        """The thinking time is about to end and the draft was never sent: send it as it is
        (once a turn; a definition already given stays as it was sent) — with the tile held,
        or the one asked for, or else the first one free for this player (the card's own for
        the Genius): text a player typed is never silently dropped."""
        left = self.seconds_left()
        if left is None or left > LAST_CALL or self._last_called == self._turn:
            return
        if not self._unsent("write"):
            return
        text = " ".join(self.query_one("#tsh-text", DefinitionInput).value.split())
        if not text:
            return
        if self.view.get("tile") is None and self._wanted_tile is None:
            allowed = self.view.get("allowed") or []
            if "tile" not in self.legal() or not allowed:
                return
            self.act({"type": "tile", "category": allowed[0]})
        self._last_called = self._turn
        self.act({"type": "define", "text": text})
        self.notify(t("tesauro.draft_sent"))

    def redraw(self) -> None:
        self._redraw()  # (the tiles' examples fit the width it has now)

    def _redraw(self) -> None:
        if not self.view:
            return
        self._draw_role()
        self._draw_status()
        self._draw_entry()
        put(self.query_one("#tsh-main", Static), self._main())
        self._draw_count()
        self._draw_draft()
        self._draw_me()
        after_refresh(self, self._draw_me)  # laid out: is there more below?

    def _draw_role(self) -> None:
        role = self.view.get("role")
        box = self.query_one("#tsh-role", Static)
        for known in SPANISH:
            box.set_class(role == known, f"-{known}")
        if role not in SPANISH:
            box.remove_class("-big")
            box.update(Text(t("tesauro.dealing"), style="dim"))
            return
        text = Text()
        letters = big(role_name(role)) if self.size.height >= BIG_HEIGHT else None
        if letters and len(letters[0]) > (box.content_size.width or self.size.width - 4):
            letters = None  # a phone narrower than the word: in plain capitals
        box.set_class(bool(letters), "-big")  # a row of the panel above them (its CSS)
        if letters:
            text.append("\n".join(letters), style="bold")
            text.append(f"  {SPANISH[role]}\n", style="italic")
        else:
            text.append(" ".join(role_name(role).upper()), style="bold")
            text.append(f"  {SPANISH[role]}  ", style="italic")
        busy = self.view.get("phase") in ("speak", "judge") or self._field_open
        if not (self._compact() and busy):  # known by now: room for the definitions
            text.append(t(f"tesauro.role_hint.{role}"))
        text.rstrip()
        box.update(text)

    def _draw_status(self) -> None:
        view = self.view
        names = view["players"]
        phase = view.get("phase")
        legal = self.legal()
        me = view.get("seat")
        status = Text()
        if phase == "dealing":
            status.append(t("tesauro.dealing"), style="dim")
        elif phase == "choose":
            if "choose" in legal:
                status.append(" " + t("tesauro.you_choose") + " ", style="bold reverse")
            else:
                status.append(t("tesauro.choosing", name=who(names, view["reader"])), style="dim")
        elif phase == "write":
            left = self.seconds_left()
            if left is not None:
                hurry = hurried(left)
                status.append(
                    f" ⏱ {clock(left)} ", style="bold white on red" if hurry else "bold reverse"
                )
                status.append(" ")
            status.append(self._write_status(), style="bold")
        elif phase == "speak":
            if view.get("speaker") == me:
                status.append(
                    " " + t("tesauro.your_turn_to_speak") + " ", style="bold black on yellow"
                )
            else:
                speaker = who(names, view.get("speaker"))
                status.append(t("tesauro.speaking", name=speaker), style="bold")
        elif phase == "judge":
            if view.get("role") == "sapiente":
                status.append(" " + t("tesauro.judge_now") + " ", style="bold reverse")
            else:
                sapiente = who(names, view["sapiente"])
                status.append(t("tesauro.judging_short", name=sapiente), style="bold")
        put(self.query_one("#tsh-status", Static), status)

    def _waiting_others(self) -> int:
        view = self.view
        me = view.get("seat")
        return sum(1 for s in view["order"] if s != me and not view["given"][s])

    def _write_status(self) -> str:
        view = self.view
        me = view.get("seat")
        if view.get("role") == "sapiente":
            spoken = view["mode"] == "spoken"
            key = "tesauro.sage_waits_spoken" if spoken else "tesauro.sage_waits"
            return t(key, n=self._waiting_others())
        if view["given"][me]:
            key = "tesauro.sent_waiting" if view["mode"] == "typed" else "tesauro.ready_waiting"
            return t(key, n=self._waiting_others())
        if view.get("tile") is None:
            if self._field_open:
                return t("tesauro.tile_coming" if self._wanted_tile else "tesauro.tile_first_field")
            return t("tesauro.take_tile")
        if view["mode"] == "spoken":  # (the Genius invents nothing: they know the truth)
            genius = view.get("role") == "brillante"
            return t("tesauro.truth_then_ready" if genius else "tesauro.think_then_ready")
        if self._field_open:
            return t("tesauro.type_now")
        return t("tesauro.back_to_text")

    def _draw_entry(self) -> None:
        """The entry you know (a scholar), or the two words to choose from (the reader); on a
        small screen, while the definitions are heard or judged, the word in a line."""
        view = self.view
        box = self.query_one("#tsh-entry", Static)
        choices = view.get("choices")
        entry = view.get("entry")
        flat = self._compact() and view.get("phase") in ("speak", "judge")
        box.display = True
        box.set_class(flat, "-flat")
        if choices:
            box.border_title = t("tesauro.your_card")
            box.border_subtitle = ""
            rows = []
            for index, choice in enumerate(choices):
                text = Text()
                text.append_text(literal(choice["word"], 60, style="bold"))
                text.append(f" · {category_name(choice['category'])}", style="cyan")
                action = f"choose({index})"
                tap_target(text, action, len(text))  # the word and its tile: whole runs
                text.append("\n")
                text.append_text(literal(choice["definition"], MAX_TEXT))
                rows.append((tap_target(chip(str(index + 1)), action), text))
            box.update(numbered(rows))
        elif entry and view.get("phase") in ("write", "speak", "judge"):
            box.border_title = "" if flat else literal(entry["word"], 60).plain
            box.border_subtitle = "" if flat else category_name(entry["category"])
            said = view.get("paraphrase")  # the Genius's own: the card in other words
            if flat:
                line = literal(entry["word"], 60, style="bold")
                line.append(f" · {category_name(entry['category'])}\n", style="cyan")
                line.append_text(literal(entry["definition"], MAX_TEXT, style="dim"))
                if said:
                    line.append("\n")
                    line.append_text(self._in_other_words(said))
                box.update(line)
            else:
                text = literal(entry["definition"], MAX_TEXT)
                if said:
                    text.append("\n")
                    text.append_text(self._in_other_words(said))
                box.update(text)
        elif view.get("word") and view.get("role") == "sapiente":
            box.border_title = "" if flat else t("tesauro.the_word")
            box.border_subtitle = ""
            if flat:
                line = span(t("tesauro.the_word") + ": ", style="dim")
                line.append_text(literal(view["word"], 60, style="bold"))
                box.update(line)
            else:
                box.update(literal(view["word"], 60, style="bold"))
        else:
            box.display = False

    @staticmethod
    def _in_other_words(said: str) -> Text:
        """The Genius's line under the card: its meaning as a person says it — the voice the
        bot Babblers bluff in, so a Genius who says it so does not stand out by the card's
        dictionary style."""
        line = span(t("tesauro.in_other_words") + " ", style="dim")
        line.append_text(literal(said, MAX_TEXT, style="italic"))
        return line

    def _main(self) -> RenderableType:
        view = self.view
        phase = view.get("phase")
        names = view["players"]
        role = view.get("role")
        me = view.get("seat")
        if phase == "write":
            if role == "sapiente":
                blind = (
                    "tesauro.sage_blind_spoken"
                    if view["mode"] == "spoken"
                    else "tesauro.sage_blind"
                )
                text = span(t(blind) + "\n", style="dim")
                text.append_text(Text("  ").join(progress(view, names)))
                if view.get("last_turn"):
                    text.append("\n\n")
                    text.append_text(last_line(view["last_turn"], names))
                return text
            if view["given"][me]:
                if view["mode"] == "typed" and view.get("text"):
                    text = span(t("tesauro.your_definition") + "\n", style="dim")
                    text.append_text(literal(view["text"], MAX_TEXT, style="bold"))
                    return text
                return self._tile_line()
            if self._field_open or (role == "brillante" and view.get("tile")):
                return self._tile_line()
            return self._tile_list()
        compact = self._compact()
        clocked = clocked_seats(self.app, view, view.get("turn"))
        if phase == "speak":
            return definitions(view, names, numbered_keys=False, inline=compact, clocked=clocked)
        if phase == "judge":
            shown = definitions(view, names, inline=compact, tap="pick", clocked=clocked)
            if self._timed_out():
                return Group(Text(t("tesauro.timed_out"), style="bold red"), shown)
            return shown
        last = view.get("last_turn")
        if last and phase in ("dealing", "choose"):
            return self._news(last)
        return Text()

    def _tile_line(self) -> Text:
        view = self.view
        tile = view.get("tile") or self._wanted_tile
        text = span(t("tesauro.your_tile") + " ", style="dim")
        if tile is None:  # refused: the field stays, the tile is to choose again (the status
            text.append(t("tesauro.no_tile_yet"), style="bold yellow")  # says how)
            return text
        text.append(f" {CATEGORIES.index(tile) + 1} ", style="bold reverse")
        text.append(f" {category_name(tile)}", style="bold cyan")
        if view.get("tile") is None:
            text.append(" …", style="dim")  # asked for, not yet confirmed
        if not view["given"][view["seat"]] and view.get("role") != "brillante":
            key = "tesauro.esc_change" if self._field_open else "tesauro.number_change"
            text.append("   " + t(key), style="dim")
        return text

    def _tile_list(self) -> Group:
        """The nine tiles by number: yours, free (with what it covers), taken (by whom), not
        for you (and why) — a line each; what a free tile covers, as many of its examples as
        fit on the line (whole ones: never a word cut)."""
        view = self.view
        names = view["players"]
        me = view["seat"]
        allowed = set(view.get("allowed") or [])
        holder = {tile: seat for seat, tile in enumerate(view["categories"]) if tile is not None}
        true_category = (view.get("entry") or {}).get("category")
        genius = view.get("role") == "brillante"
        key = "tesauro.tiles_hint_genius" if genius else "tesauro.tiles_hint_babbler"
        hint = Text(t(key, category=category_name(true_category)), style="dim")
        text = Text(no_wrap=True, overflow="ellipsis")
        width = max(len(category_name(c)) for c in CATEGORIES) + 2
        for index, category in enumerate(CATEGORIES):
            seat = holder.get(category)
            free = category in allowed
            label = Text(category_name(category).ljust(width))
            row = Text()
            row.append(f" {index + 1} ", style="bold reverse" if free else "dim reverse")
            row.append(" ")
            if seat == me:
                label.stylize("bold cyan")
                row.append_text(label)
                row.append("◀ " + t("tesauro.yours"), style="bold cyan")
            elif seat is not None:
                label.stylize("dim")
                row.append_text(label)
                row.append("— ", style="dim")
                row.append_text(name(who(names, seat), style="dim"))
            elif free:
                label.stylize("bold")
                row.append_text(label)
                room = (self.query_one("#tsh-main").content_size.width or 80) - width - 5
                about = whole_examples(t(f"tesauro.category_about.{category}"), room)
                row.append(about, style="dim")
            else:
                label.stylize("dim")
                row.append_text(label)
                if category == true_category and not genius:
                    row.append("✗ " + t("tesauro.kept_for_genius"), style="dim")
            text.append_text(tap_target(row, f"tile({index})"))
            text.append("\n")
        text.rstrip()
        return Group(hint, text)

    def _news(self, last: dict[str, Any]) -> Group:
        """What the last judgement did, in words, with your part in it."""
        names = self.view["players"]
        me = self.view.get("seat")
        parts: list[RenderableType] = [
            Text(t("tesauro.last_turn"), style="dim"),
            reveal(last, names),
        ]
        if last.get("taker") == me:
            parts.append(Text(t("tesauro.you_took"), style="bold green"))
        return Group(*parts)

    def _draw_count(self) -> None:
        """Under the field, one line: how much is typed (red at the limit, which takes no
        more), and the time left; in its last seconds, while yours is not sent, a red bar
        with the time and what is lost (the same line: nothing below it moves)."""
        line = self.query_one("#tsh-count", Static)
        field = self.query_one("#tsh-text", DefinitionInput)
        left = self.seconds_left()
        hurry = left is not None and hurried(left) and self._may_type()
        line.display = self._field_open or hurry
        line.set_class(hurry, "-hurry")
        if not line.display:
            return
        if hurry and left is not None:  # the time left and what is lost, not the count
            text = Text(f" ⏱ {clock(left)}  {t('tesauro.hurry')}")
        else:
            count = len(field.value)
            full = count >= MAX_TEXT
            style = "bold red" if full else "bold yellow" if count >= MAX_TEXT - 30 else "bold"
            text = span(f"{count}/{MAX_TEXT}", style=style)
            if full:
                text.append(" " + t("tesauro.at_limit"), style="bold red")
            if left is not None:
                text.append(f"   ⏱ {clock(left)}")
        if not self.app.has_class("-narrow"):  # a phone's line wraps (its styles let it)
            text.no_wrap, text.overflow = True, "ellipsis"
        line.update(text)

    def _draw_draft(self) -> None:
        """The whole draft, wrapped, once the one-line field shows only a part of it."""
        box = self.query_one("#tsh-draft", Static)
        field = self.query_one("#tsh-text", DefinitionInput)
        room = field.content_size.width or 40
        box.display = self._field_open and len(field.value) >= room - 1
        if box.display:
            box.update(literal(field.value, MAX_TEXT, style="italic"))

    def _scrolled(self, _old: float, _new: float) -> None:
        self._draw_me()

    def _draw_me(self) -> None:
        view = self.view
        if not view:
            return
        me = view.get("seat")
        won = view["scores"]
        text = span(t("tesauro.you_have", n=won[me]), style="bold")
        text.append("   " + turn_line(view), style="dim")
        if self.max_scroll_y > 0 and self.scroll_y < self.max_scroll_y:
            # a tap on it is PgDn (a phone has none); on a phone held upright it says so, on
            # a line of its own
            if self.app.has_class("-narrow"):
                more = span("\n")
                more.append(t("tesauro.more_tap"), style="bold black on yellow")
            else:
                more = span("   " + t("tesauro.more"), style="bold black on yellow")
                room = self.query_one("#tsh-me").content_size.width
                if room and text.cell_len + more.cell_len > room:  # (it was cut to a bare ↓)
                    text = span(t("tesauro.you_have", n=won[me]), style="bold")
            text.append_text(tap_target(more, "page_down"))
        put(self.query_one("#tsh-me", Static), text)


def whole_examples(about: str, room: int) -> str:
    """ "plants, fungi, algae" cut to the examples that fit in `room` columns, whole (a
    heading before a colon counts as one: "all things made: tools, machines"); a first one
    too long for the room is cut with an ellipsis, so a tile never shows none."""
    kept = ""
    for piece in re.split(r"(?<=[,:]) ", about):
        longer = f"{kept} {piece}" if kept else piece
        if len(longer.rstrip(",:")) > room:
            break
        kept = longer
    if not kept and room > 1:
        return about[: room - 1].rstrip(" ,:") + "…"
    return kept.rstrip(",:")
