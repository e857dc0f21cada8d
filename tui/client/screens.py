"""The player's screens: find a host, join it, wait in the lobby, play, see the results."""

from __future__ import annotations

import contextlib
import math
import time
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from net.client import parse_address
from net.protocol import CODE_LENGTH, LONG_CODE_LENGTH, NAME_MAX, PROTOCOL_VERSION
from tui.games import HandWidget, ui_for
from tui.host.screens import option_value, results_text
from tui.i18n import t
from tui.table import PublicTable, StoryScreen
from tui.text import literal, marks_of
from tui.widgets import (
    Change,
    ConfirmScreen,
    Feed,
    Footer,
    Form,
    Header,
    HelpScreen,
    KeyHints,
    SeatList,
    TextField,
    Timed,
    TypeAhead,
    after_refresh,
    binding_help,
    clock,
    keys,
    keys_now,
    no_bots,
    put,
    release_after,
    seat_lines,
    who_waits,
)

if TYPE_CHECKING:
    from net.discovery import Browser, HostInfo
    from tui.client.app import ClientApp

HELP_KEY = Binding("question_mark", "help", "key.help", key_display="?")
CODE_REFUSALS = ("bad_code", "code_needed", "code_changed", "slow_down")
"""Refusals of the room code: the table has one, and it is the code to type again."""


class LinkBar(Static):
    """One line at the top while the link to the host is not up."""

    def show(self, link: str) -> None:
        self.set_class(link != "connected", "-down")
        self.update(t(f"link.{link}") if link != "connected" else "")


class TurnBar(Timed, Static):
    """One line under the hand while the table's turn clock hurries *you* (the room's `turn`,
    docs/PROTOCOL.md §7.12): the time left, and that a bot makes this one move for you when it
    is up — or that the host nudged you. Hidden otherwise: the game's own timers are the
    hand's to show."""

    HURRY = 10.0

    def on_mount(self) -> None:
        self.display = False
        self._turn: dict[str, Any] | None = None
        self.set_interval(0.5, self._draw)

    def show(self, room: dict[str, Any]) -> None:
        turn = room.get("turn")
        mine = turn is not None and room.get("you") in turn.get("seats", ())
        self._turn = turn if mine else None
        self.follow_timer(room.get("timer_seconds") if mine else None)
        self._draw()

    def timer_stopped(self) -> None:
        self._draw()

    def _draw(self) -> None:
        left = self.seconds_left()
        if left is None or self._turn is None:
            self.display = False
            return
        hurry = left <= self.HURRY
        key = "client.turn_time"
        if self._turn.get("nudged"):  # (the game's words: Tesauro's speaker has no bot)
            key = ui_for((self.app.room or {}).get("game")).nudge_key(self.app.game, you=True)
        line = Text(f" ⏱ {clock(left)} ", style="bold white on red" if hurry else "bold reverse")
        line.append(" " + t(key))
        self.display = True
        put(self, line)


class PlayerScreen(KeyHints, Screen[None]):
    HELP = "help.find"

    @property
    def player(self) -> ClientApp:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:
        self.watch(self.app, "link", self.show_link)
        self.watch(self, "focused", self._focus_moved)
        release_after(self, "screen")  # keys typed while it came up (after a join's Enter)

    def _focus_moved(self, focused: Widget | None) -> None:
        """The focus left the text fields (a definition sent, the join form gone): a phone's
        keyboard goes down (`ClientApp.keyboard_done`)."""
        if not isinstance(focused, Input):
            self.player.keyboard_done()

    def show_link(self, link: str) -> None:
        for bar in self.query(LinkBar):
            bar.show(link)
        if link != "connected":  # the table's clock is not heard: none runs on here
            for widget in self.query("*"):
                if isinstance(widget, Timed) and widget.deadline is not None:
                    widget.stop_timer()

    def on_screen_resume(self) -> None:
        """Back on top (a dialog closed): the table may have moved on meanwhile."""
        self.player.follow()

    def action_help(self) -> None:
        room = self.player.room or {}
        body = t(f"{self.HELP}.body" + no_bots(room, f"{self.HELP}.body"))
        game = room.get("game")
        if self.HELP in ("help.game", "help.wait") and game:
            view = self.player.game or room.get("options") or {}  # (waiting: the options)
            body += "\n\n" + ui_for(game).rules(game, view)
        self.app.push_screen(HelpScreen(t(f"{self.HELP}.title"), body, binding_help(self)))

    def refresh_room(self, events: list[dict[str, Any]] | None = None) -> None:
        """Draw the room as the app has it now (after `events`, the change's); screens that
        show the room override it."""


class FindScreen(Form, PlayerScreen):
    """Hosts found on the LAN, live, and a field to type an address."""

    BINDINGS = keys(
        "client.find",
        [
            Binding("enter", "join", "key.join", key_display="⏎", priority=True),
            Binding("a", "type_address", "key.address"),
            HELP_KEY,
            Binding("escape", "hosts", "key.hosts", show=False),
            Binding("q", "app.quit", "key.quit"),
        ],
    )

    def __init__(self) -> None:
        super().__init__()
        self.hosts: dict[str, HostInfo] = {}
        self.browser: Browser | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="find", classes="box"):
            yield Static(id="find-status", classes="dim")
            yield OptionList(id="hosts")
        with Vertical(id="typed", classes="box"):
            yield Static(t("find.typed_hint"), classes="dim")
            yield TextField(placeholder=t("find.address_placeholder"), id="address", max_length=80)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#find").border_title = t("find.title")
        self.query_one("#typed").border_title = t("find.typed_title")
        self._show_hosts()
        if self.player.discover:
            self.run_worker(self._browse(), group="browse", exit_on_error=False)
        else:
            put(self.query_one("#find-status", Static), t("find.discovery_off"))
        self.query_one("#hosts", OptionList).focus()

    async def _browse(self) -> None:
        from net.discovery import Browser

        def changed(hosts: dict[str, HostInfo]) -> None:
            self.hosts = hosts
            self._show_hosts()

        self.browser = Browser(changed, interface=self.player.browse_interface)
        try:
            await self.browser.start()
        except Exception:
            self.browser = None
            put(self.query_one("#find-status", Static), t("find.discovery_failed"))

    async def on_unmount(self) -> None:
        if self.browser is not None:
            await self.browser.close()

    def _show_hosts(self) -> None:
        hosts = sorted(
            self.hosts.values(), key=lambda h: (not h.compatible(PROTOCOL_VERSION), h.name)
        )
        status = t("find.searching") if not hosts else t("find.found", n=len(hosts))
        put(self.query_one("#find-status", Static), status)
        options = self.query_one("#hosts", OptionList)
        keep = options.highlighted
        rows = []
        for host in hosts:
            row = Text()
            row.append_text(literal(host.name, 40, style="bold"))
            row.append(f"  {t(f'game.{host.game}.name') if host.game else '—'}")
            row.append(f"  {t('find.players', n=host.players)}")
            if host.needs_code:
                row.append(f"  {t('find.needs_code')}", style="yellow")
            if not host.compatible(PROTOCOL_VERSION):
                row.append(
                    f"  {t('find.mismatch', theirs=host.protocol, ours=PROTOCOL_VERSION)}",
                    style="red",
                )
            row.append(f"  {host.address or '?'}:{host.port}", style="dim")
            rows.append(Option(row, id=host.key, disabled=not host.compatible(PROTOCOL_VERSION)))
        options.set_options(rows)
        if rows:
            options.highlighted = min(keep or 0, len(rows) - 1)

    def action_type_address(self) -> None:
        self.query_one("#address", Input).focus()

    def action_hosts(self) -> None:
        self.query_one("#hosts", OptionList).focus()

    async def action_join(self) -> None:
        if self.app.screen is not self:
            return  # a join screen is already up
        if self.focused is self.query_one("#address", Input):
            raise SkipAction()  # the field's own Enter: after every key typed before it
        options = self.query_one("#hosts", OptionList)
        if self.focused is options:
            # The list's own Enter, after every key typed before it: this binding runs as
            # the key comes in, but the Down typed just before it moves the highlight only
            # once that key has come back up to the app — Down, Enter joined the table Down
            # moved *from*. A fresh Enter handed to the list goes the Down's way, behind it:
            # its `select` names the table (`on_option_list_option_selected`). (Not a
            # `SkipAction`: a tap on the footer's Enter runs this too, and joins.) The keys
            # typed after it wait for the join form (`TypeAhead`: a name typed at once).
            if options.option_count == 0:
                return
            enter = events.Key("enter", "\r")
            enter._set_forwarded()  # (not read as new input again, with this binding)
            options.post_message(enter)
            if isinstance(self.app, TypeAhead):
                self.app.hold_keys("form")
            return
        self._join(options.highlighted_option)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._join(event.option)

    def _join(self, option: Option | None) -> None:
        if self.app.screen is not self:
            return  # a join screen is already up
        host = self.hosts.get(option.id) if option is not None and option.id else None
        if host is None or host.address is None:
            release_after(self, "form")  # no form comes: the keys held for it go on
            return
        self.app.push_screen(
            JoinScreen(
                host.address, host.port, needs_code=host.needs_code, watch=self.player.watching
            )
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            host, port = parse_address(event.value)
        except ValueError:
            self.notify(
                t("find.bad_address", text=event.value[:40]), severity="error", markup=False
            )
            return
        self.app.push_screen(JoinScreen(host, port, watch=self.player.watching))


class JoinScreen(Form, PlayerScreen):
    """Your name and, if the table has one, its code — or, to watch (F2), the code only."""

    HELP = "help.join"
    BINDINGS = keys(
        "client.join",
        [
            Binding("escape", "back", "key.back", key_display="Esc"),
            Binding("f2", "watch(True)", "key.watch", key_display="F2", id="client.join.watch"),
            Binding("f2", "watch(False)", "key.play", key_display="F2", id="client.join.play"),
            Binding("f1", "help", "key.help", key_display="F1"),
        ],
    )

    def __init__(
        self,
        host: str,
        port: int,
        *,
        needs_code: bool | None = None,
        error: dict[str, Any] | None = None,
        watch: bool = False,
    ) -> None:
        super().__init__()
        self.host_address = host
        self.port = port
        if error and error.get("code") in CODE_REFUSALS:
            needs_code = True
        self.needs_code = needs_code
        """As the table advertised it; None: not known (a typed address), the code asked
        for "if the host's screen shows one"."""
        self.error = error
        self.watching = watch

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="join", classes="box"):
            yield Static(id="join-where")
            yield Static(t("join.name"), id="name-label")
            yield TextField(id="name", max_length=NAME_MAX, placeholder=t("join.name_placeholder"))
            yield Static(t("join.code"), id="code-label")
            yield TextField(  # as long as the longest code; the placeholder says this table's
                id="code",  # letters only: the code typed as the host shows it, "H V X B", fits
                max_length=LONG_CODE_LENGTH,
                restrict=r"[^\W\d_]*",
                placeholder=t("join.code_placeholder", n=self._params()["letters"]),
            )
            yield Static(id="join-known")
            yield Static(id="join-error")
            yield Static(id="join-hint", classes="dim")
        yield Footer()

    def on_mount(self) -> None:
        where = Text(t("join.where") + " ")
        where.append(self.player.where(self.host_address, self.port), style="bold")
        put(self.query_one("#join-where", Static), where)
        name_field = self.query_one("#name", Input)
        known = self.player.tokens.names(f"{self.host_address}:{self.port}")
        # one seat of this laptop here: offered; several (two players on one laptop): named,
        # none offered — Enter must not take somebody else's seat
        offered = known[0] if len(known) == 1 else ""
        name_field.value = self.player.player_name or offered
        name_field.action_select_all()  # a name typed now replaces it
        if len(known) > 1:
            hint = t("join.known_names", names=", ".join(known))
            put(self.query_one("#join-known", Static), Text(hint, style="dim"))
        code_field = self.query_one("#code", Input)
        if self.error and self.error.get("code") not in CODE_REFUSALS:
            code_field.value = self.player.player_code  # a taken name shouldn't cost the code
        if self.needs_code is False:  # an open table, as advertised: no code to type
            self.query_one("#code-label", Static).display = False
            code_field.display = False
        elif self.needs_code is None:
            put(self.query_one("#code-label", Static), t("join.code_if_shown"))
        self._show_mode()
        if self.error:
            code = self.error.get("code", "")
            if code == "bad_code" and "retry_after" in self._params():
                code = "bad_code_wait"  # wrong again: the next try must wait
            said = t(f"error.{code}", detail=self.error.get("message", ""), **self._params())
            put(self.query_one("#join-error", Static), Text(said, style="bold red"))
            if code in (*CODE_REFUSALS, "bad_code_wait") or self.watching:
                code_field.focus()  # what to type again is the code, not the name
                return
        # a name known already (`--name`, or typed before): what is left to type is the code —
        # with the focus on the name, typing the code replaced it
        named = bool(self.player.player_name) and code_field.display
        (code_field if self.watching or named else name_field).focus()

    def _show_mode(self) -> None:
        """Playing asks for a name and the code; watching for the code only."""
        title = "join.title_watch" if self.watching else "join.title"
        self.query_one("#join").border_title = t(title)
        self.query_one("#name-label").display = not self.watching
        self.query_one("#name").display = not self.watching
        hint = "join.hint_watch" if self.watching else "join.hint"
        if self.player.only_this_table:
            hint += "_here"
        put(self.query_one("#join-hint", Static), t(hint))
        self.refresh_bindings()

    def action_watch(self, watch: bool) -> None:
        """F2: watch the table instead of taking a seat (or back to playing). The other form
        starts clean: a refusal of the name is not the watcher's."""
        self.watching = watch
        self.error = None
        put(self.query_one("#join-error", Static), "")
        self._show_mode()
        if watch and self.needs_code is False:  # an open table: nothing to ask
            self._connect(None)
            return
        self.query_one("#code" if watch else "#name", Input).focus()

    def _connect(self, code: str | None) -> None:
        put(self.query_one("#join-error", Static), t("join.connecting"))
        self.player.hold_until("screen")  # what is typed next is for the table's screen
        if self.watching:
            self.player.connect(self.host_address, self.port, "", code, watch=True)
            return
        name_value = self.query_one("#name", Input).value.strip()
        self.player.connect(self.host_address, self.port, name_value, code)

    def _params(self) -> dict[str, Any]:
        """The refusal's parameters (`retry_after`; `letters`, the table's code's, else the
        usual length), of the types a catalogue line takes."""
        params = (self.error or {}).get("params") or {}
        kept = {k: v for k, v in params.items() if isinstance(v, str | int | float)}
        wait = kept.get("retry_after")
        if isinstance(wait, int | float) and not isinstance(wait, bool) and math.isfinite(wait):
            # whole seconds, rounded up: "4.0 s" was no Russian ("4,0 с"), and no try may
            # come before its time
            kept["retry_after"] = max(1, math.ceil(wait))
        return {"letters": CODE_LENGTH, **kept}

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name_value = self.query_one("#name", Input).value.strip()
        code_field = self.query_one("#code", Input)
        if self.watching:
            self._connect(latin_code(code_field.value) or None)
            return
        if not name_value:
            put(
                self.query_one("#join-error", Static),
                Text(t("join.name_missing"), style="bold red"),
            )
            self.query_one("#name", Input).focus()
            return
        if (
            event.input.id == "name"
            and self.needs_code is not False
            and not code_field.value.strip()
        ):
            code_field.focus()
            return
        self._connect(latin_code(code_field.value) or None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "watch":
            return parameters != (self.watching,)  # F2 says what it would switch to
        return not (action == "back" and self.player.only_this_table)

    def action_back(self) -> None:
        if self.player.only_this_table:
            return
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.switch_screen(FindScreen())


_CYRILLIC_KEYS = dict(zip("ЙЦУКЕНГШЩЗФЫВАПРОЛДЯЧСМИТЬ", "QWERTYUIOPASDFGHJKLZXCVBNM", strict=True))


def latin_code(typed: str) -> str:
    """The room code as typed, upper case — and typed in the Russian layout (ПТМР for GNVH),
    read as the Latin letters on the same keys."""
    return "".join(_CYRILLIC_KEYS.get(c, c) for c in typed.strip().upper())


class RoomScreen(PlayerScreen):
    """Screens that show the room the player sits in: each follows the app's `change`."""

    def on_mount(self) -> None:  # (Textual calls PlayerScreen's too: every class's handler)
        self.watch(self.app, "change", self._changed, init=False)

    def _changed(self, change: Change) -> None:
        with contextlib.suppress(NoMatches):  # still composing: it draws itself on mount
            self.refresh_room(list(change.events))

    def room(self) -> dict[str, Any]:
        return self.player.room or {"seats": [], "phase": "lobby", "players": 0, "name": ""}

    def feed_tail(self) -> None:
        self.player.story.catch_up(self, self.query_one(Feed))


class WaitScreen(RoomScreen):
    """Seated: the lobby as the player sees it, until the host starts the game."""

    HELP = "help.wait"
    BINDINGS = keys(
        "client.wait",
        [
            HELP_KEY,
            Binding("q", "leave", "key.leave"),
            Binding("q", "stop_watching", "key.stop_watching"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield LinkBar(id="link")
        yield Header(show_clock=False)
        with Horizontal(id="wait-main"):
            with Vertical(id="wait-room", classes="box"):
                yield Static(id="wait-game")
                yield SeatList(id="seats")
            yield Feed(id="feed", classes="box")
        yield Static(id="wait-hint", classes="dim")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feed").border_title = t("lobby.feed_title")
        self.show_link(self.player.link)
        self.refresh_room()
        after_refresh(self, self._fit_game)  # now that the box has its size

    def on_resize(self) -> None:
        after_refresh(self, self._fit_game)

    def refresh_room(self, events: list[dict[str, Any]] | None = None) -> None:
        room = self.room()
        self.feed_tail()
        self.query_one("#wait-room").border_title = literal(room.get("name", ""), 40).plain
        seats = self.query_one("#seats", SeatList)
        seats.display = bool(self.player.room)  # waiting to be let in: no table to list yet
        seats.show(room, you=room.get("you"), compact=False)
        self._fit_game()
        hint = {
            "lobby": t("wait.lobby"),
            "playing": t("wait.game_on"),
            "over": t("wait.over"),
        }.get(room.get("phase", "lobby"), "")
        you, players = room.get("you"), room.get("players", 0)
        if room.get("phase") == "playing" and isinstance(you, int) and you < players:
            hint = t("wait.game_started")  # seen behind a dialog: the game screen is next
        if self.player.watching:
            hint = t("wait.watching_lobby" if room.get("phase") == "lobby" else "wait.watching")
        if self.player.pending_seat is not None:
            hint = t("wait.pending", name=self.player.player_name)
        elif not self.player.room:
            hint = t("wait.connecting")
        put(self.query_one("#wait-hint", Static), Text(hint))

    def _fit_game(self) -> None:
        """The game and its options above the seats, as much of it as leaves every seat in
        view (twelve seats on 80x24 leave room for the game's name and what it is)."""
        room = self.room()
        box = self.query_one("#wait-room")
        seats = len(room["seats"]) if self.player.room else 0
        height = box.content_size.height
        if box.styles.height is not None and box.styles.height.is_auto:
            # a phone's box is as tall as what it shows, up to its max-height: that is its
            # room (its height now is that of the last form shown — the name alone, when the
            # room was not known yet, and then for good: a page reloaded in the lobby)
            most = box.styles.max_height
            main = self.query_one("#wait-main").content_size
            if most is not None and main.height:
                gutter = box.size.height - box.content_size.height
                height = int(most.resolve(main, self.app.size)) - gutter
        room_left = height - seats - 1  # (the margin below the game)
        width = box.content_size.width
        forms = [_game_text(room, options=True), _game_text(room), _game_text(room, tagline=False)]
        fits = (f for f in forms if width <= 0 or len(f.wrap(self.app.console, width)) <= room_left)
        put(self.query_one("#wait-game", Static), next(fits, forms[-1]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("leave", "stop_watching"):  # one `q`, named for what it ends
            return (action == "stop_watching") == self.player.watching
        return True

    def action_leave(self) -> None:
        """`q` gives the seat up: the host is told, the seat goes (in a game a bot has it)."""
        self.run_worker(self.player.leave(), group="leave", exclusive=True)

    action_stop_watching = action_leave


def _game_text(room: dict[str, Any], *, options: bool = False, tagline: bool = True) -> Text:
    """The lobby's game: its name, what it is, and the options the host chose."""
    game_id = room.get("game")
    text = Text()
    if not game_id:
        return text
    text.append(t(f"game.{game_id}.name"), style="bold")
    if tagline:
        text.append("\n" + t(f"game.{game_id}.tagline"), style="dim")
    if options:
        chosen = room.get("options") or {}
        for key, value in chosen.items():
            if key == "lang":
                continue
            text.append(f"\n{t(f'option.{game_id}.{key}')}: ", style="dim")
            text.append(option_value(game_id, key, value, chosen))
    return text


class GameScreen(RoomScreen):
    """Playing: the game's own hand widget, the seats and the feed. F1 opens the help too,
    even while a text field takes `?`."""

    HELP = "help.game"
    BINDINGS = keys(
        "client.game",
        [
            # a phone held upright has no room for the seats and the story beside the hand;
            # elsewhere the story beside it shows its last lines, and `l` all of it (the
            # game's keys fill the footer: the help says this one, and ^G, the bell)
            Binding("l", "story", "key.story"),
            Binding("l", "whole_story", "key.story", show=False),
            Binding("question_mark,f1", "help", "key.help", key_display="?"),
            Binding("q", "leave", "key.leave"),
            Binding("ctrl+g", "bell", "key.bell", show=False),
        ],
    )

    def compose(self) -> ComposeResult:
        room = self.room()
        yield LinkBar(id="link")
        yield Header(show_clock=False)
        with Horizontal(id="game-main"):
            yield ui_for(room.get("game")).hand(id="hand")
            with Vertical(id="game-side"):
                yield SeatList(id="seats", classes="box")
                yield Feed(id="feed", classes="box")
        yield TurnBar(id="turn")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feed").border_title = t("lobby.feed_title")
        self.query_one("#seats").border_title = t("table.seats_title")
        self.show_link(self.player.link)
        self.refresh_room()
        if self.focused is None:  # (a hand back where it was may be in its field already)
            self.query_one("#hand").focus()

    def refresh_room(self, events: list[dict[str, Any]] | None = None) -> None:
        room = self.room()
        self.feed_tail()
        self.query_one("#seats", SeatList).show(room, you=room.get("you"))
        self.query_one("#turn", TurnBar).show(room)
        events = events or []
        for index, event in enumerate(events):  # the turn clock's news for you, where you look
            if event.get("type") == "nudged" and room.get("you") in event.get("seats", ()):
                if self.player.bell_on:  # (the turn's line says it: a toast hid its end)
                    self.app.bell()
            elif event.get("type") == "played_for" and event.get("seat") == room.get("you"):
                move = events[index + 1] if index + 1 < len(events) else None  # the bot's
                none = move is not None and move.get("seat") == event.get("seat")
                none = none and ui_for(room.get("game")).clock_only(move)  # a silent speaker's
                key = "client.time_ran_out_you" if none else "client.played_for_you"
                self.notify(t(key), timeout=6)
        if self.player.game is not None:
            self.query_one("#hand", HandWidget).present(self.player.game, room, events)
        self.sub_title = t(f"game.{room.get('game')}.name")

    def idle_reason(self) -> str | None:
        room = self.room()
        if room.get("you") in room.get("waiting", []):  # not "waits for Bob" to one it awaits
            with contextlib.suppress(NoMatches):  # what works now, not only that it is yours
                if keys := keys_now(self, self.query_one("#hand", HandWidget)):
                    return t("client.your_move_keys", keys=keys)
            return t("client.your_move")
        return who_waits(room, exclude=room.get("you"))

    def hold_key(self, event: events.Key) -> bool:
        """A game's key pressed while this player's last move is on its way (a roll right
        after the dice's Enter, ready right after the tile, typed as one burst) waits for the
        table's answer, which may make it legal — it was refused as "does nothing now"."""
        hand = self.query_one("#hand", HandWidget)
        if not (hand.awaiting or self.player.sent_at) or not isinstance(self.app, TypeAhead):
            return False
        self.app.hold_for("view", event)
        return True

    def on_key(self, event: events.Key) -> None:
        """A key on its way to a question that has just closed under the player is refused
        (`HandWidget.ask`); the help and Esc are never refused."""
        if event.key in ("escape", "question_mark", "f1"):
            return
        if self.query_one("#hand", HandWidget).answer_passed():
            event.stop()
            event.prevent_default()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "story":  # (in the footer where the story has no room beside the hand)
            return self.app.has_class("-narrow")
        if action == "whole_story":
            return not self.app.has_class("-narrow")
        return True

    def on_resize(self) -> None:
        self.refresh_bindings()  # `l` comes and goes with the room beside the hand

    def action_story(self) -> None:
        """`l` on a phone: the seats and the whole story, which the screen has no room for."""
        room = self.room()
        seats = seat_lines(room, you=room.get("you"))
        self.app.push_screen(StoryScreen(self.player.story, seats=seats))

    def action_whole_story(self) -> None:
        """`l` beside a story that shows its last lines only: all of it (the play-test's
        matches were pushed out by a player's twenty skips, with no way back to them)."""
        self.app.push_screen(StoryScreen(self.player.story))

    def action_bell(self) -> None:
        """ctrl+g: the bell that rings when the table starts waiting for you, off or on."""
        self.player.bell_on = not self.player.bell_on
        said = t("client.bell_on" if self.player.bell_on else "client.bell_off")
        self.notify(said, timeout=3)

    def refused(self, code: str) -> None:
        """The host refused one of our actions: the hand may need to know (a tile)."""
        hand = self.query_one("#hand", HandWidget)
        hand.awaiting = False
        hand.refused(code)

    def action_leave(self) -> None:
        ends = ui_for(self.room().get("game")).would_end(self.player.game)

        def leave(answer: bool | None) -> None:
            if answer:
                left = self.player.leave(ends_game=ends)
                self.run_worker(left, group="leave", exclusive=True)

        key = "client.leave_mid_game"
        question = t(key + no_bots(self.player.room, key))
        if ends:  # (three left in a T-Rex game: it cannot go on without this one)
            question += " " + t("client.leave_ends_game")
        self.app.push_screen(LeaveScreen(question), leave)


class LeaveScreen(ConfirmScreen):
    """`q` during a game: leave it? A question about the evening, not the move: with
    `ClientApp.HURRY` seconds left of the player's own countdown it closes as "no, stay"
    (the play-test: it stayed over Tally Up!'s sealed choice until "the undecided stay IN"),
    and a game key pressed under it says how to answer it."""

    ANSWER_FIRST = "client.leave_answer_first"
    HURRIED = "client.leave_hurried"


class WatchScreen(RoomScreen):
    """Watching a game: the public table, the very one the host's big screen shows (the game's
    table, whom it waits for, the countdown, the seats, the ticker; `l` the whole story) — for
    a room with more people than seats, or a player who cannot see the TV. No seat, no
    secret: the host sends a watcher the table's view only."""

    HELP = "help.watch"
    BINDINGS = keys(
        "client.watch",
        [
            Binding("l", "story", "key.story"),
            HELP_KEY,
            Binding("q", "leave", "key.stop_watching"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield LinkBar(id="link")
        yield Header(show_clock=False)
        yield PublicTable(self.room().get("game"), self.player.story, id="public")
        yield Footer()

    def on_mount(self) -> None:
        self.show_link(self.player.link)
        self.refresh_room()
        self.set_interval(1.0, self._count_away)  # away times count, as on the big screen

    def refresh_room(self, events: list[dict[str, Any]] | None = None) -> None:
        room = self.room()
        self._shown_at = time.monotonic()
        self.query_one(PublicTable).show(room, self.player.game, events or [])
        self.sub_title = t("watch.sub_title", game=t(f"game.{room.get('game')}.name"))

    def _count_away(self) -> None:
        """The summary is as the host sent it: its away times go on counting here."""
        elapsed = time.monotonic() - getattr(self, "_shown_at", time.monotonic())
        self.query_one(PublicTable).show_waiting(aged(self.room(), elapsed))

    def action_story(self) -> None:
        """`l`: the whole story — on a phone, with the seats the screen has no room for."""
        narrow = self.app.has_class("-narrow")
        seats = seat_lines(self.room()) if narrow else None
        whole = self.query_one(PublicTable).game.whole()  # (what the table cut, first)
        self.app.push_screen(StoryScreen(self.player.story, seats=seats, whole=whole))

    def action_leave(self) -> None:
        self.run_worker(self.player.leave(), group="leave", exclusive=True)


def aged(room: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The room summary `seconds` after the host sent it: away for that much longer, a bot
    that much nearer."""
    seats = []
    for seat in room.get("seats", []):
        seat = dict(seat)
        if isinstance(seat.get("away_for"), int | float):
            seat["away_for"] += seconds
        if isinstance(seat.get("standin_in"), int | float):
            seat["standin_in"] = max(0.0, seat["standin_in"] - seconds)
        seats.append(seat)
    return {**room, "seats": seats}


class PlayerResultsScreen(RoomScreen):
    HELP = "help.results"
    BINDINGS = keys(
        "client.results",
        [
            HELP_KEY,
            Binding("q", "leave", "key.leave"),
            Binding("q", "stop_watching", "key.stop_watching"),  # (a watcher's `q`)
        ],
    )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("leave", "stop_watching"):  # one `q`, named for what it ends
            return (action == "stop_watching") == self.player.watching
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        yield LinkBar(id="link")
        yield Header(show_clock=False)
        with Horizontal(id="game-main"):
            with Vertical(id="results-side"):
                yield Static(id="results", classes="box")
                yield Static(id="epilogue", classes="box")
            yield Feed(id="feed", classes="box")
        yield Static(
            t("wait.over_watching" if self.player.watching else "wait.over"), classes="dim"
        )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#results").border_title = t("results.title")
        self.query_one("#feed").border_title = t("lobby.feed_title")
        game = t(f"game.{self.room().get('game')}.name")  # (a watcher still sees it says so)
        self.sub_title = t("watch.sub_title", game=game) if self.player.watching else game
        self.refresh_room()

    def refresh_room(self, events: list[dict[str, Any]] | None = None) -> None:
        room = self.room()
        self.feed_tail()
        game = self.player.game or {}
        names = [s["name"] for s in room["seats"]]
        result = game.get("result") or {
            "scores": game.get("scores", []),
            "winners": _winners(game.get("scores", [])),
        }
        ui = ui_for(room.get("game"))
        why = ui.why_ended(result, names)
        box = self.query_one("#results", Static)
        gone = {i for i, seat in enumerate(room["seats"]) if seat.get("leaving")}
        wide = box.content_size.width
        team = ui.together(result)
        put(box, results_text(result, names, False, marks_of(room), why, wide, gone, team))
        epilogue = ui.epilogue
        last = epilogue(game, names) if epilogue is not None and game else None
        box = self.query_one("#epilogue", Static)
        box.display = last is not None
        self._epilogue: list[RenderableType] = []
        if last is not None:
            box.border_title, shown = last
            self._epilogue = list(shown) if isinstance(shown, list | tuple) else [shown]
            self._fit_epilogue()
            after_refresh(self, self._fit_epilogue)

    def on_resize(self) -> None:
        after_refresh(self, self.refresh_room)  # (names cut to the width, the epilogue fitted)

    def _fit_epilogue(self) -> None:
        """The game's last word in its fullest form that fits under the scores (a small
        screen gets a shorter one: its end is never cut; a phone's column scrolls, and gets
        the whole of it)."""
        forms = getattr(self, "_epilogue", [])
        if not forms:
            return
        box = self.query_one("#epilogue", Static)
        side, results = self.query_one("#results-side"), self.query_one("#results")
        room = side.content_size.height - results.outer_size.height
        frame = box.styles.gutter.height  # its border (and padding)
        width = box.content_size.width or side.content_size.width - box.styles.gutter.width
        shown = forms[0] if not side.content_size.height else forms[-1]  # not laid out yet
        if self.app.has_class("-narrow"):  # a phone's column scrolls: the whole of it
            shown = forms[0]
        elif room > 0 and width > 0:
            options = self.app.console.options.update_width(width)
            for form in forms:
                if len(self.app.console.render_lines(form, options, pad=False)) + frame <= room:
                    shown = form
                    break
        box.update(shown)

    def action_leave(self) -> None:
        self.run_worker(self.player.leave(), group="leave", exclusive=True)

    action_stop_watching = action_leave


def _winners(scores: list[int]) -> list[int]:
    best = max(scores, default=None)
    return [i for i, s in enumerate(scores) if s == best] if best is not None else []


class GoneScreen(PlayerScreen):
    """Kicked, or replaced by a newer connection of the same seat."""

    HELP = "help.gone"
    BINDINGS = keys(
        "client.gone", [Binding("enter", "again", "key.find"), Binding("q", "app.quit", "key.quit")]
    )

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Vertical(id="gone", classes="box"):
            yield Static(Text(t(f"gone.{self.reason}"), style="bold"))
            if self.reason == "closed_resumable":  # the link keeps trying by itself
                yield Static(
                    t("gone.resumable_watch" if self.player.watching else "gone.resumable")
                )
            hint = "gone.hint_here" if self.player.only_this_table else "gone.hint"
            yield Static(t(hint), classes="dim")
        yield Footer()

    def action_again(self) -> None:
        self.player.drop_link()  # a table closed to be resumed stops being waited for
        if self.player.only_this_table and self.player.address is not None:
            self.app.switch_screen(JoinScreen(*self.player.address))  # this table, again
            return
        self.app.switch_screen(FindScreen())
