"""The host's three screens: the lobby, the table while a game is on, and the results."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from games import GAMES
from net.protocol import ProtocolError
from tui.bigtext import big
from tui.games import GameWidget, ui_for
from tui.i18n import has, t
from tui.table import PublicTable, StoryScreen
from tui.text import SEAT_COLOURS, marked, number
from tui.widgets import (
    Change,
    ConfirmScreen,
    Feed,
    Footer,
    Header,
    HelpScreen,
    KeyHints,
    SeatList,
    absence,
    after_refresh,
    binding_help,
    keys,
    no_bots,
    put,
    seat_line,
    who_waits,
)

if TYPE_CHECKING:
    from tui.host.app import HostApp

HELP_KEY = Binding("question_mark", "help", "key.help", key_display="?")


CLAIM_KEYS = [
    Binding("a", "claim(True)", "key.claim_yes"),
    Binding("x", "claim(False)", "key.claim_no"),
    Binding("exclamation_mark", "block", "key.block", key_display="!"),
]
"""Someone asks for an away seat of their name: one key lets them in, one refuses; a
stranger guesses the code: one key blocks the address."""


class HostScreen(KeyHints, Screen[None]):
    """What every host screen shares: the app's room, help, quitting, seat claims."""

    HELP = "help.host_lobby"

    @property
    def host(self) -> HostApp:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:  # (each screen's own on_mount runs too: it draws first)
        self.watch(self.app, "change", self._changed, init=False)
        self.set_interval(5.0, self._alerts_age)

    def _alerts_age(self) -> None:
        """An alert can end with no change of the room (a guesser gone quiet): looked at again."""
        with contextlib.suppress(NoMatches):
            show_alerts(self)

    def _changed(self, change: Change) -> None:
        with contextlib.suppress(NoMatches):  # still composing: it draws itself on mount
            self.refresh_room(list(change.events))

    def on_screen_resume(self) -> None:
        """Back on top (a dialog closed): the room may have moved on meanwhile."""
        self.host.follow()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "claim":
            return bool(self.host.room.claims)  # the keys exist only while someone asks
        if action == "block":
            return bool(self._suspects())
        if action == "web_seat":
            return self.host.web_url is not None  # no web seats: no key
        return True

    def action_web_seat(self) -> None:
        """`w`: the web seats' address as a QR code, and (`p` there) the browser pages."""
        from tui.host.web_dialog import WebSeatScreen

        if self.host.web_url:
            self.app.push_screen(WebSeatScreen(self.host.web_url))

    def action_claim(self, approve: bool) -> None:
        room = self.host.room
        if room.claims:
            room.decide(room.claims[0].id, approve)

    def action_block(self) -> None:
        suspects = self._suspects()
        if not suspects:
            return
        address = suspects[0][0]

        def block(answer: bool | None) -> None:
            if answer:
                self.host.server.block(address)

        self.app.push_screen(ConfirmScreen(t("host.block_confirm", address=address)), block)

    def _suspects(self) -> list:
        doorman = self.host.server.doorman
        return [(a, k) for a, k in doorman.suspects() if a not in doorman.blocked]

    def alerts(self) -> Text | None:
        """What the host must know now, one line each: someone asking for a seat, the code
        made longer against many guessers, a stranger guessing the code, no file handles
        left, the table not being saved."""
        room, server = self.host.room, self.host.server
        lines = []
        if room.claims:
            claim = room.claims[0]
            lines.append(t("host.claim", name=room.seats[claim.seat].name, peer=claim.peer))
        if room.code_is_long:  # the new code where everyone sees it, and why, all evening
            lines.append(t("host.code_lengthened", code=room.code, letters=len(room.code)))
        if suspects := self._suspects():
            address, knocks = suspects[0]
            lines.append(t("host.guessing", address=address, n=knocks.tried))
        if server.out_of_files:
            lines.append(t("host.out_of_files"))
        if room.save_problem:
            lines.append(t("host.cannot_save", error=room.save_problem))
        if not lines:
            return None
        text = Text("\n".join(f" {line} " for line in lines))
        text.stylize("bold black on yellow")
        return text

    def action_help(self) -> None:
        room = self.host.room
        body = t(f"{self.HELP}.body" + no_bots(room.summary(), f"{self.HELP}.body"))
        game = room.game_id
        if self.HELP != "help.host_lobby" and game:
            body += "\n\n" + ui_for(game).rules(game, room.game_view(None) or room.options)
        elif game and has(f"option.{game}.help"):  # the lobby: what the game's options do
            body += "\n\n" + t(f"option.{game}.help")
        self.app.push_screen(HelpScreen(t(f"{self.HELP}.title"), body, binding_help(self)))

    def action_quit(self) -> None:
        room = self.host.room
        seated = sum(1 for s in room.seats if s.connected)
        if room.phase == "playing":
            self.app.push_screen(ConfirmScreen(t("host.quit_mid_game")), self._quit_if)
        elif seated:
            self.app.push_screen(ConfirmScreen(t("host.quit_seated", n=seated)), self._quit_if)
        else:
            self.host.quit()

    def _quit_if(self, answer: bool | None) -> None:
        if answer:
            self.host.quit()

    def catch_up_feed(self) -> None:
        """Write to this screen's feed what it hasn't shown yet (on mount: the last 30)."""
        self.host.story.catch_up(self, self.query_one(Feed))

    def refresh_room(self, events: list[dict[str, Any]]) -> None:
        raise NotImplementedError


class LobbyScreen(HostScreen):
    BINDINGS = keys(
        "host.lobby",
        [
            Binding("s", "start", "key.start"),
            Binding("g", "next_game", "key.game"),
            Binding("b", "add_bot", "key.bot"),
            Binding("k,delete", "kick", "key.kick", key_display="k"),
            Binding("o", "next_option", "key.next_option"),
            Binding("w", "web_seat", "key.web", show=False),  # the lobby's text says so
            Binding("left", "option(-1)", "key.option_prev", show=False, priority=True),
            Binding("right", "option(1)", "key.option", key_display="←→", priority=True),
            Binding("up", "seat(-1)", "key.seat", key_display="↑", show=False, priority=True),
            Binding("down", "seat(1)", "key.seat", key_display="↓", show=False, priority=True),
            *CLAIM_KEYS,
            HELP_KEY,
            Binding("q", "quit", "key.quit"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="alerts")
        with Horizontal(id="lobby-top"):
            with Vertical(id="code-box", classes="box"):
                yield Static(id="code")
                yield Static(id="addresses")
            with Vertical(id="game-box", classes="box"):
                yield Static(id="game-name")
                yield OptionList(id="options")
        with Horizontal(id="lobby-bottom"):
            with Vertical(id="players-box", classes="box"):
                yield OptionList(id="players")
            yield Feed(id="feed", classes="box")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#code-box").border_title = t("lobby.code_title")
        self.query_one("#game-box").border_title = t("lobby.game_title")
        self.query_one("#feed").border_title = t("lobby.feed_title")
        self.refresh_room([])
        self.query_one("#players", OptionList).focus()

    def refresh_room(self, events: list[dict[str, Any]]) -> None:
        room = self.host.room
        self.catch_up_feed()
        show_alerts(self)
        code = Text()
        room_for = self.query_one("#code", Static).content_size.width
        if room.code:
            code.append(t("lobby.code_is") + "\n", style="dim")
            code.append("  ".join(room.code), style="bold reverse")  # (as typed; scripts read it)
            large = not self.app.has_class("-small")
            letters = giant(" ".join(room.code), room_for, large=large) if large else None
            if letters:  # and giant, to read from across the room, where there is room
                code.append("\n" + "\n".join(letters), style="bold")
        else:
            code.append(t("lobby.open"), style="bold")
        put(self.query_one("#code", Static), code)
        put(self.query_one("#addresses", Static), self._addresses_text())
        self._show_game()
        summary = room.summary()
        self.query_one("#players-box").border_title = t("lobby.players", n=len(room.seats))
        players = self.query_one("#players", OptionList)
        keep = players.highlighted
        prompts = [seat_line(i, s, playing=True) for i, s in enumerate(summary["seats"])]
        players.set_options(
            prompts or [Option(Text(t("lobby.nobody"), style="dim"), disabled=True)]
        )
        if prompts:
            players.highlighted = min(keep or 0, len(prompts) - 1)
        self.refresh_bindings()

    def on_resize(self) -> None:
        self.refresh_room([])  # the code and the address as large as the width allows

    def _addresses_text(self) -> Text:
        port = self.host.server.port
        text = Text(t("lobby.join_with") + "\n", style="dim")
        room_for = self.query_one("#addresses", Static).content_size.width
        for index, address in enumerate(self.host.addresses[:3]):
            shown = f"[{address}]" if ":" in address else address
            letters = None
            if index == 0 and not self.app.has_class("-small"):  # the first, giant
                letters = giant(f"{shown}:{port}", room_for, large=False)
            text.append(f"hubbub join {shown}:{port}\n", style="bold")
            if letters:  # the address again, giant
                text.append("\n".join(letters) + "\n", style="bold")
        if self.host.web_url:
            text.append(t("lobby.web") + "\n", style="dim")
            text.append(self.host.web_url + "\n", style="bold")
        elif self.host.web_problem:
            text.append(t("lobby.web_off", why=self.host.web_problem) + "\n", style="yellow")
        text.rstrip()  # (no empty last line: the box is tight at 80x24)
        return text

    def _show_game(self) -> None:
        room = self.host.room
        game = room.game
        title = Text()
        if game is None:
            title.append(t("lobby.no_games"), style="bold red")
            put(self.query_one("#game-name", Static), title)
            return
        title.append(t(f"game.{game.id}.name"), style="bold")
        title.append("  " + t("lobby.player_range", lo=game.min_players, hi=game.max_players))
        title.append("\n" + t(f"game.{game.id}.tagline"), style="dim")
        put(self.query_one("#game-name", Static), title)
        options = self.query_one("#options", OptionList)
        keep = options.highlighted
        self._option_rows = []
        shown = room.lobby_options()
        values = {**room.options, **room.room_options}
        for option in shown:
            owner = game.id if option in game.options else "room"
            value = values.get(option.key, option.default)
            row = Text(t(f"option.{owner}.{option.key}") + ": ")
            said = option_value(owner, option.key, value, room.options)
            if option.key == "grace" and value and not game.bots:  # nobody stands in: sits out
                said = t("option.room.grace_sitout_value", value=value)
            row.append(said, style="bold")
            self._option_rows.append(row)
        options.set_options(
            Option(self._marked(i, row, keep or 0), id=option.key)
            for i, (row, option) in enumerate(zip(self._option_rows, shown, strict=True))
        )
        if self._option_rows:
            options.highlighted = min(keep or 0, len(self._option_rows) - 1)

    @staticmethod
    def _marked(index: int, row: Text, lit: int | None) -> Text:
        """An option's line, with ▶ in front of the one ←→ change."""
        marked = Text()
        marked.append("▶ " if index == lit else "  ", style="bold")
        marked.append_text(row)
        return marked

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id != "options":
            return
        options = event.option_list
        for index, row in enumerate(getattr(self, "_option_rows", [])):
            if index < options.option_count:
                options.replace_option_prompt_at_index(
                    index, self._marked(index, row, options.highlighted)
                )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        room = self.host.room
        game = room.game
        if action == "start":
            ready = game is not None and game.min_players <= len(room.seats) <= game.max_players
            return True if ready else None  # None: shown, greyed out
        if action == "add_bot":
            if not (game and game.bots):
                return False  # no bots in this game: no key
            return True if len(room.seats) < game.max_players else None
        if action == "next_game":
            return len(GAMES) > 1
        if action == "kick":
            return True if room.seats else None
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        room = self.host.room
        game = room.game
        if game is None:
            return t("error.no_game")
        limits = {"lo": game.min_players, "hi": game.max_players, "n": len(room.seats)}
        if action == "start":
            key = "lobby.too_many" if len(room.seats) > game.max_players else "lobby.too_few"
            return t(key, game=t(f"game.{game.id}.name"), **limits)
        if action == "add_bot":
            return t("lobby.bots_full", game=t(f"game.{game.id}.name"), **limits)
        if action == "kick":
            return t("lobby.nobody")
        return None

    def action_start(self) -> None:
        try:
            self.host.room.start(lang=_lang())
        except ProtocolError as exc:
            self.notify(t(f"error.{exc.code}", detail=exc.detail), severity="error", markup=False)

    def action_next_game(self) -> None:
        ids = list(GAMES)
        room = self.host.room
        index = ids.index(room.game_id) if room.game_id in ids else -1
        room.choose_game(ids[(index + 1) % len(ids)])

    def action_add_bot(self) -> None:
        """`b` asks how strong the bot plays, where the game has bots of several strengths."""
        game = self.host.room.game
        strengths = list(game.bots) if game else []
        if len(strengths) < 2:  # nothing to choose
            self._add_bot(None)
            return
        default = "normal" if "normal" in strengths else strengths[0]
        screen = BotScreen(game.id, strengths, default)
        self.app.push_screen(screen, lambda strength: strength and self._add_bot(strength))

    def _add_bot(self, strength: str | None) -> None:
        try:
            self.host.room.add_bot(strength, name_prefix=t("bot.name"))
        except ProtocolError as exc:
            self.notify(t(f"error.{exc.code}", detail=exc.detail), severity="error", markup=False)

    def action_kick(self) -> None:
        index = self.query_one("#players", OptionList).highlighted
        room = self.host.room
        if index is None or index >= len(room.seats):
            return
        who = room.seats[index].name

        def kick(answer: bool | None) -> None:
            if answer and index < len(room.seats) and room.seats[index].name == who:
                self.host.server.kick(index)

        self.app.push_screen(ConfirmScreen(t("host.kick_confirm", name=who)), kick)

    def action_seat(self, step: int) -> None:
        """↑↓ move the seat lit in the players' list, the one `k` takes; with fewer than two
        seats there is nothing to move to, and they say so (they did nothing, silently)."""
        focused = self.focused
        if isinstance(focused, OptionList) and focused.id == "options":  # (focus moved there)
            (focused.action_cursor_up if step < 0 else focused.action_cursor_down)()
            return
        players = self.query_one("#players", OptionList)
        seats = self.host.room.seats
        if len(seats) > 1:
            players.focus()
            (players.action_cursor_up if step < 0 else players.action_cursor_down)()
            return
        why = t("lobby.arrows_one", name=seats[0].name) if seats else t("lobby.arrows_none")
        self._hint("↑" if step < 0 else "↓", why, known=True)

    def action_next_option(self) -> None:
        """`o` walks down the options (the player list keeps ↑↓); ←→ change the one lit."""
        options = self.query_one("#options", OptionList)
        if options.option_count:
            options.highlighted = ((options.highlighted or 0) + 1) % options.option_count

    def action_option(self, step: int) -> None:
        options = self.query_one("#options", OptionList)
        option = options.highlighted_option
        if option is None or option.id is None:
            return
        if not self.host.room.cycle_option(option.id, step):  # said once while it shows,
            said = t("lobby.option_end_low" if step < 0 else "lobby.option_end_high")
            now = time.monotonic()  # however often it is pressed (eight toasts stacked up)
            if getattr(self, "_end_said", None) != said or now > self._end_until:
                self._end_said, self._end_until = said, now + 3
                self.notify(said, timeout=3)


def giant(word: str, room: int, large: bool) -> list[str] | None:
    """`word` in big letters, twice as large if `large` and it fits, in `room` columns (None:
    it fits in neither)."""
    for scale in (2, 1) if large else (1,):
        letters = big(word, scale)
        if letters and room and len(letters[0]) <= room:
            return letters
    return None


def option_value(game_id: str, key: str, value: Any, options: dict[str, Any] | None = None) -> str:
    """An option's value in words; with the game's `options`, said to be unused where they
    leave it so (`option.<game>.<key>_unused`: Tally Up!'s target when everyone rolls once)."""
    if options is not None and key in ui_for(game_id).unused(options):
        unused = f"option.{game_id}.{key}_unused"
        if has(unused):
            return t(unused, value=option_value(game_id, key, value))
    if isinstance(value, bool):
        return t("option.on") if value else t("option.off")
    exact = f"option.{game_id}.{key}_{value}"  # a value with words of its own ("no limit")
    if has(exact):
        return t(exact)
    specific = f"option.{game_id}.{key}_value"
    text = t(specific, value=value)
    return str(value) if text == specific else text


def _lang() -> str:
    from tui.i18n import lang

    return lang()


class TableScreen(HostScreen):
    """The big screen while a game is on: the public table (the game's own table, whom it
    waits for, the countdown, the seats, the ticker), the host's alerts above it."""

    HELP = "help.host_table"
    BINDINGS = keys(
        "host.table",
        [
            Binding("l", "story", "key.story"),
            Binding("n", "nudge", "key.nudge"),
            Binding("e", "end", "key.end_game"),
            Binding("k", "kick", "key.kick"),
            Binding("w", "web_seat", "key.web", show=False),  # (its help says so)
            *CLAIM_KEYS,
            HELP_KEY,
            Binding("q", "quit", "key.quit"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="alerts")
        yield PublicTable(self.host.room.game_id, self.host.story, id="public")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_room([])
        self.set_interval(1.0, self._show_waiting)  # the away times count on the screen

    def refresh_room(self, events: list[dict[str, Any]]) -> None:
        room = self.host.room
        summary = room.summary()
        show_alerts(self)
        alerts = self.alerts() if self.app.has_class("-small") else None
        # the alerts matter more than the ticker: one line of them leaves it its newest
        # line, more hide it (l tells the story)
        rows = len(alerts.wrap(self.app.console, self.size.width)) if alerts else 0
        self.query_one(PublicTable).set_class(rows == 1, "-quiet")
        self.query_one(PublicTable).set_class(rows > 1, "-hush")
        self.query_one(PublicTable).show(summary, room.game_view(None), events, self._note(summary))
        self.sub_title = t(f"game.{room.game_id}.name")
        nudge = bool(room.nudgeable())
        if nudge != getattr(self, "_nudge", None):  # `n` comes and goes
            self._nudge = nudge
            self.refresh_bindings()

    def _show_waiting(self) -> None:
        summary = self.host.room.summary()
        self.query_one(PublicTable).show_waiting(summary, self._note(summary))

    def _note(self, summary: dict[str, Any]) -> Text | None:
        """What only the host can do about a player who is away, where no bot stands in."""
        game = self.host.room.game
        if game is None or game.bots:
            return None
        seats = summary["seats"][: summary["players"]]
        gone = [i for i, s in enumerate(seats) if s["away_for"] is not None]
        if not gone:
            return None
        text = Text()
        if not set(gone) & set(summary["waiting"]):
            names = ", ".join(f"{seats[i]['name']} ({absence(seats[i], False)})" for i in gone)
            text.append(t("table.away_no_bot", names=names) + "  ", style="bold")
        text.append(t("table.host_can"), style="yellow")
        return text

    def action_story(self) -> None:
        """`l`: the whole story, after what the game's table draws cut short, whole."""
        whole = self.query_one(PublicTable).game.whole()
        self.app.push_screen(StoryScreen(self.host.story, whole=whole))

    def idle_reason(self) -> str | None:
        return who_waits(self.host.room.summary())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "nudge":  # only while the table waits on someone a nudge would hurry
            return bool(self.host.room.nudgeable())  # (else pressed, it says why: why_not_key)
        return super().check_action(action, parameters)

    def why_not_key(self, key: str) -> str | None:
        """Why `n` does nothing now ("The table waits for Bob." named whom one would nudge;
        the key is not in the footer then: a greyed one took a second line at 80 columns)."""
        if key != "n":
            return None
        room = self.host.room
        if room.turns.nudge is not None:
            return t("host.no_nudge_again")
        if room.game is not None and room.play is not None and room.game.timer(room.state):
            return t("host.no_nudge_timer")
        return None  # (nobody here to hurry: the screen says whom it waits for)

    def action_nudge(self) -> None:
        """`n`: hurry whoever the table waits on — 20 s, then the game's bot makes their move."""
        if not self.host.room.nudge():
            self.notify(t("host.nothing_to_nudge"), timeout=3)

    def action_end(self) -> None:
        def end(answer: bool | None) -> None:
            if answer:
                self.host.room.end()

        self.app.push_screen(ConfirmScreen(t("host.end_confirm")), end)

    def action_kick(self) -> None:
        self.app.push_screen(KickScreen())


def show_alerts(screen: HostScreen) -> None:
    banner = screen.query_one("#alerts", Static)
    text = screen.alerts()
    banner.display = text is not None
    if text is not None:
        put(banner, text)
    watchers = len(screen.host.server.watchers)  # the audience, on their own screens
    box = getattr(screen, "_audience_box", None)
    if box is None or not box.is_attached:  # found once a screen: a query walks all of it
        box = screen._audience_box = screen.query("#seats, #players-box, #results").first()
    audience = t("table.audience", n=watchers) if watchers else ""
    if box.border_subtitle != audience:  # (setting it redraws the whole box: not per move)
        box.border_subtitle = audience
    keys = (bool(screen.host.room.claims), bool(screen._suspects()))
    if keys != getattr(screen, "_alert_keys", None):  # the a / x / ! keys come or go
        screen._alert_keys = keys
        screen.refresh_bindings()


class KickScreen(ModalScreen[None]):
    """Pick the seat to take away with its number key."""

    BINDINGS = keys(
        "host.kick",
        [
            *[Binding(str(n), f"kick({n - 1})", "key.kick_n", show=False) for n in range(1, 10)],
            Binding("escape", "app.pop_screen", "key.back", key_display="Esc"),
        ],
    )

    @property
    def host(self) -> HostApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        key = "host.kick_pick"
        with Vertical(classes="box", id="kick-box"):
            yield Static(t(key + no_bots(self.host.room.summary(), key)), classes="box-title")
            yield SeatList(id="kick-seats")
            yield Static(t("confirm.kick_hint"), classes="dim")

    def on_mount(self) -> None:
        self._phase = self.host.room.phase
        self.refresh_room([])
        self.watch(self.app, "change", lambda change: self.refresh_room([]), init=False)

    def refresh_room(self, events: list[dict[str, Any]]) -> None:
        """The seats as they are now (somebody may leave while the host picks); a game that
        ended meanwhile closes the list, and a question over it (its seats were the game's:
        it stayed up over the results)."""
        room = self.host.room
        if room.phase != self._phase:
            while self.is_attached and self in self.app.screen_stack:
                self.app.pop_screen()
            return
        self.query_one("#kick-seats", SeatList).show(room.summary(), compact=False)

    def action_kick(self, index: int) -> None:
        """The seat goes at once — but one that has left already is said to have, and one
        whose going ends the game (three left in a T-Rex game) is asked about first."""
        room = self.host.room
        if index >= len(room.seats):
            return
        seat = room.seats[index]
        if seat.leaving:
            self.notify(t("host.kick_gone", name=seat.name), markup=False)
            return
        if index < room.players and ui_for(room.game_id).would_end(room.game_view(None)):

            def kick(answer: bool | None) -> None:
                if answer and not seat.leaving and self.is_attached:
                    self.host.server.kick(index)
                    self.dismiss(None)

            self.app.push_screen(ConfirmScreen(t("host.kick_ends_game", name=seat.name)), kick)
            return
        self.host.server.kick(index)
        self.dismiss(None)


class BotScreen(ModalScreen[str | None]):
    """How strong the new bot plays: its number key picks it, Enter takes the usual one,
    Esc adds none. Each strength says what it does differently, where the game says so."""

    BINDINGS = keys(
        "host.bot",
        [
            *[Binding(str(n), f"pick({n - 1})", "key.bot_n", show=False) for n in range(1, 10)],
            Binding("enter", "pick_default", "key.bot", key_display="⏎"),
            Binding("escape", "cancel", "key.back", key_display="Esc"),
        ],
    )

    def __init__(self, game_id: str, strengths: list[str], default: str) -> None:
        super().__init__()
        self.game_id = game_id
        self.strengths = strengths
        self.default = default

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(t("host.bot_pick") + "\n\n", style="bold")
        for key, strength in enumerate(self.strengths, 1):
            text.append(f" {key} ", style="bold reverse")
            usual = strength == self.default
            text.append(" " + t(f"bot.{strength}"), style="bold" if usual else "")
            if has(about := f"{self.game_id}.bot_about.{strength}"):
                text.append(" — " + t(about), style="dim")
            text.append("\n")
        hint = t("confirm.bot_hint", default=t(f"bot.{self.default}"))
        with Vertical(id="bot-box"):
            yield Static(text)
            yield Static(hint, classes="dim")

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.strengths):
            self.dismiss(self.strengths[index])

    def action_pick_default(self) -> None:
        self.dismiss(self.default)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ResultsScreen(HostScreen):
    """The end of a game: who won, every score, and the way back to the lobby."""

    HELP = "help.host_results"
    BINDINGS = keys(
        "host.results",
        [
            Binding("r", "again", "key.again"),
            Binding("enter", "lobby", "key.lobby"),
            Binding("l", "story", "key.story"),
            Binding("w", "web_seat", "key.web", show=False),
            *CLAIM_KEYS,
            HELP_KEY,
            Binding("q", "quit", "key.quit"),
        ],
    )

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield Static(id="alerts")
        with Horizontal(id="table-main"):
            yield ui_for(self.host.room.game_id).table(id="game-table")
            with Vertical(id="table-side"):
                yield Static(id="results", classes="box")
                yield Feed(id="ticker")  # the last lines; l tells the whole story
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = t(f"game.{self.host.room.game_id}.name")
        self.query_one("#results").border_title = t("results.title")
        self.query_one("#ticker").border_title = t("story.title")  # (a TV's box shows it)
        self.refresh_room([])

    def on_resize(self) -> None:
        """The results again at the panel's new width (a long name is cut to fit it)."""
        after_refresh(self, lambda: self.refresh_room([]))

    def action_story(self) -> None:
        """`l`: the whole story, after what the game's table draws cut short, whole."""
        whole = self.query_one("#game-table", GameWidget).whole()
        self.app.push_screen(StoryScreen(self.host.story, whole=whole))

    def refresh_room(self, events: list[dict[str, Any]]) -> None:
        room = self.host.room
        self.catch_up_feed()
        show_alerts(self)
        result = room.result() or {"scores": [], "winners": []}
        names = [s.name for s in room.seats]
        table = self.query_one("#game-table", GameWidget)
        view = room.game_view(None)
        if view is not None:
            table.present(view, room.summary(), [])
        # the winner's name large, unless the game's table beside says it large already
        large = not self.app.has_class("-small") and not table.crowned()
        marks = [s.mark for s in room.seats]
        why = ui_for(room.game_id).why_ended(result, names)
        box = self.query_one("#results", Static)
        gone = {i for i, seat in enumerate(room.seats) if seat.leaving}
        team = ui_for(room.game_id).together(result)
        wide = box.content_size.width
        shown = results_text(result, names, large, marks, why, wide, gone, team)
        put(box, shown)
        self.refresh_bindings()  # someone leaving may leave too few to play again

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            return True if self._players_fit() else None  # None: shown, greyed out
        return super().check_action(action, parameters)

    def _players_fit(self) -> bool:
        """Whether those who stay (all but who left) can play this game again."""
        room = self.host.room
        game = room.game
        return game is not None and game.min_players <= room.staying() <= game.max_players

    def why_not(self, action: str) -> str | None:
        room = self.host.room
        game = room.game
        if action != "again" or game is None:
            return None
        limits = {"lo": game.min_players, "hi": game.max_players, "n": room.staying()}
        return t("results.again_count", game=t(f"game.{game.id}.name"), **limits)

    def action_again(self) -> None:
        """The same game at once: the same options, the same seats (but those who left)."""
        try:
            self.host.room.play_again(lang=_lang())
        except ProtocolError as exc:
            self.notify(t(f"error.{exc.code}", detail=exc.detail), severity="error", markup=False)

    def action_lobby(self) -> None:
        self.host.room.end()


def results_text(
    result: dict[str, Any],
    names: list[str],
    large: bool = False,
    marks: list[int] | None = None,
    why: str | None = None,
    width: int = 0,
    gone: Collection[int] = (),
    team: bool = False,
) -> Text:
    """Winners first (`large`: a single winner's name in big letters, where the font has its
    letters and it fits the side panel), then everyone by score, each with their mark, those
    who left apart, and `why` the game ended when it did not end the usual way. `gone`: the
    seats whose players left while a bot played on — said beside the name (a bot won "for"
    a player long gone). In `width` columns (0: any), a long name is cut short, never its
    score sent to the next line. `team`: they played together (T-Rex for two) — one score,
    no ranks (it ranked "1. Ann 1 / 1. Bob 1")."""
    winners = result.get("winners", [])
    scores = result.get("scores", [])

    out = set(result.get("left") or [])  # (listed apart: not "a bot played on")

    def player(seat: int, style: str, room: int) -> Text:
        shown = marked(seat, names[seat] if seat < len(names) else "?", style, marks)
        if width:
            shown.truncate(max(4, width - room), overflow="ellipsis")
        return shown

    text = Text()
    if team:
        ranked = [seat for _rank, seat in standings(result)]
        text.append(t("results.team_won" if winners else "results.team") + "\n", style="bold")
        for seat in ranked:
            text.append("  ★ " if winners else "    ")
            text.append_text(player(seat, "bold", 4))
            text.append("\n")
        if ranked:
            together = number(scores[ranked[0]])
            text.append("\n" + t("results.team_score", score=together) + "\n")
    elif winners:
        label = t("results.winner") if len(winners) == 1 else t("results.winners")
        text.append(label + "\n", style="bold")
        letters = giant(names[winners[0]], 38, large=False) if large and len(winners) == 1 else None
        if letters and winners[0] < len(names):
            mark = marks[winners[0]] if marks and winners[0] < len(marks) else winners[0]
            text.append("\n".join(letters) + "\n", style=f"bold {SEAT_COLOURS[mark % 12]}")
        for seat in winners:
            text.append("  ★ ")
            text.append_text(player(seat, "bold", 4))
            text.append("\n")
        text.append("\n")

    def in_column(seats: list[int], style: str) -> list[Text]:
        """Each seat's name and score, the scores in a column, right-aligned ("Аня  3" over
        "Боря  −1": they followed each name's length)."""
        digits = max((len(number(scores[seat])) for seat in seats), default=0)
        shown = [player(seat, style, 6 + digits) for seat in seats]
        column = max((name.cell_len for name in shown), default=0)
        for name, seat in zip(shown, seats, strict=True):
            name.pad_right(column - name.cell_len)
            name.append(f"  {number(scores[seat]):>{digits}}", style=style)
        return shown

    ranked = [] if team else standings(result)
    for (rank, seat), line in zip(ranked, in_column([s for _r, s in ranked], ""), strict=True):
        text.append(f"{rank:>2}. ")
        text.append_text(line)
        text.append("\n")
        if seat in gone and seat not in out:  # (under the name: it never squeezes it)
            text.append(f"      ({t('results.bot_played')})\n", style="dim")
    left = [seat for seat in result.get("left") or [] if seat < len(scores)]
    if left:  # out of the game before its end: not ranked, listed apart (in a column too)
        text.append("\n" + t("results.left") + "\n", style="dim")
        for line in in_column(left, "dim"):
            text.append("    ")
            text.append_text(line)
            text.append("\n")
    if why:
        text.append("\n" + why + "\n", style="italic")
    return text


def standings(result: dict[str, Any]) -> list[tuple[int, int]]:
    """(rank, seat), best first. Equal scores share a rank and the next rank skips as many
    (1, 2, 2, 4), unless a winner ties with one who is not (a tie-break decided it). The
    game's own order wins (a tie-break vote may put a player above an equal score); those
    who left the game (`result["left"]`) are not ranked."""
    scores = result.get("scores", [])
    winners = set(result.get("winners", []))
    left = set(result.get("left") or [])
    order = result.get("ranking") or sorted(
        (seat for seat in range(len(scores)) if seat not in left), key=lambda s: -scores[s]
    )
    ranked: list[tuple[int, int]] = []
    for place, seat in enumerate(order, 1):
        if ranked:
            rank, before = ranked[-1]
            if scores[seat] == scores[before] and (seat in winners) == (before in winners):
                place = rank
        ranked.append((place, seat))
    return ranked
