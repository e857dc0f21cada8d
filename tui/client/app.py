"""`hubbub join`: one player's private screen.

The connection runs in a worker and talks to the app only through Messages, so a slow network
never freezes the screen and a busy screen never holds up the network. The app follows the
room: the lobby, the game, the results — and a line at the top that says, whenever it is so,
that the link is down and being mended.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Hashable
from typing import Any, ClassVar

import msgspec
from textual import events, on
from textual.app import App
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import reactive

from net import wire
from net.client import Client, EarlyLink, TokenStore, seat_name
from net.protocol import PROTOCOL_VERSION
from net.wire import fitting_events
from tui.client.drafts import DELAY as DRAFT_DELAY
from tui.client.drafts import Drafts, matches
from tui.client.screens import (
    FindScreen,
    GameScreen,
    GoneScreen,
    JoinScreen,
    PlayerResultsScreen,
    RoomScreen,
    WaitScreen,
    WatchScreen,
)
from tui.games import HandWidget, describe, game_styles, gathered, ui_for
from tui.i18n import t
from tui.table import classify_size
from tui.widgets import HEARD_KEEP, Change, Dialog, Story, TypeAhead, load_keymap, no_bots

log = logging.getLogger(__name__)


def starts_waiting_on_you(before: dict[str, Any] | None, now: dict[str, Any]) -> bool:
    """Whether the table began to wait for this player with this room summary: their seat
    plays the game on, is theirs (no bot plays it), and is `waiting` now but was not in the
    summary before. Any other view — a drop, someone else's move — while it waits says
    nothing new."""
    you, seats = now.get("you"), now.get("seats") or []
    if now.get("phase") != "playing" or you is None or not 0 <= you < now.get("players", 0):
        return False
    if you >= len(seats) or seats[you].get("bot") or seats[you].get("standin"):
        return False
    if you not in now.get("waiting", []):
        return False
    was = before or {}
    waited = was.get("phase") == "playing" and was.get("you") == you
    return not (waited and you in was.get("waiting", []))


class ClientApp(TypeAhead, App[None]):
    clock = staticmethod(time.monotonic)
    """The clock every countdown on its screens reads (`tui.widgets.Timed`): a test or a
    screenshot may stop it."""
    CSS_PATH = ["../common.tcss", *game_styles(), "client.tcss"]
    TITLE = "hubbub"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "key.quit", show=False, priority=True)]

    def on_resize(self, event: Any) -> None:
        classify_size(self, event.size)

    change: reactive[Change] = reactive(Change(-1), always_update=True, repaint=False)
    """The latest change of the room: every room screen watches it (`self.room`, `self.game`
    hold what it changed to)."""
    link: reactive[str] = reactive("offline")
    """"offline" | "connecting" | "connected" | "pending" | "reconnecting" |
    "closed_resumable" — shown by every screen."""

    class FromHost(Message):
        """A message from the table, as its plain map (checked and cleaned by the link): one
        subclass per message type the screens hear, named and tied to its wire type, each with
        a handler of its own (`on_client_app_view`, …). `told` makes the right one."""

        wire: ClassVar[type[msgspec.Struct]]

        def __init__(self, frame: dict[str, Any]) -> None:
            super().__init__()
            self.frame = frame

    class View(FromHost):
        wire = wire.View

    class Error(FromHost):
        wire = wire.Error

    class Kicked(FromHost):
        wire = wire.Kicked

    class Welcome(FromHost):
        wire = wire.Welcome

    class Watching(FromHost):
        wire = wire.Watching

    @classmethod
    def told(cls, frame: dict[str, Any]) -> FromHost | None:
        """The app's message for a frame from the table; None for what only the link hears
        (`pending`, the pings: `net.client.Client`)."""
        kind = cls._HEARD.get(frame["type"])
        return kind(frame) if kind is not None else None

    class LinkChanged(Message):
        def __init__(self, status: str, info: dict[str, Any] | None) -> None:
            super().__init__()
            self.status = status
            self.info = info or {}

    def __init__(
        self,
        address: tuple[str, int] | None = None,
        *,
        name: str = "",
        browse_interface: str | None = None,
        discover: bool = True,
        tokens: TokenStore | None = None,
        only_this_table: bool = False,
        bell: bool = True,
        watch: bool = False,
        relay: dict[str, str] | None = None,
        early: EarlyLink | None = None,
        drafts: Drafts | None = None,
        shown_address: str | None = None,
    ) -> None:
        super().__init__()
        self.shown_address = shown_address
        """The table's address as this player reached it, when it is not the one this app
        connects to: a web seat's app connects on the host's loopback, its guest typed the
        page's address (`tui.web.gateway`)."""
        self.drafts = drafts
        """Where the hand's unsent state is kept for the next app (a web seat's: its app dies
        with a killed host, `tui.client.drafts`); None keeps nothing (a laptop's app lives on)."""
        self._kept: dict[str, Any] | None = drafts.load() if drafts is not None else None
        """What the previous app kept, until the hand has had its one look at it."""
        self._keeping: dict[str, Any] | None = self._kept  # the record on disk, or to write
        self._keep_timer: Any = None
        self.early = early
        """The link `hubbub join` opened while this app loaded (`net.client.EarlyLink`): the
        first connection takes it over if it said the same `hello` to the same table."""
        self.relay = relay  # a web seat: the browser's address, told to the table's door
        self.watching = watch
        """In the audience: the table's public view on this screen, no seat (`--watch`, or F2
        on the join form)."""
        self.bell_on = bell
        """Ring the terminal bell when the table starts waiting for this player (`--no-bell`
        and ctrl+g on the game's screen turn it off; nothing is kept for the next time)."""
        self.address = address
        self.only_this_table = only_this_table and address is not None
        """A web seat: this table's join form only, never the LAN's list or a typed address
        (the app runs on the host's machine, for a browser guest); and it ends when the host
        that started it is gone (killed, it could not say so), rather than linger."""
        self.player_name = name
        self.browse_interface = browse_interface
        self.discover = discover
        self.tokens = tokens or TokenStore()  # one per laptop; tests give each player its own
        self.player_code = ""  # kept for the join form when the host refuses something else
        self.client: Client | None = None
        self.room: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None
        self.version = -1
        self.story = Story()
        self.heard: deque[dict[str, Any]] = deque(maxlen=HEARD_KEEP)  # the events, raw
        self._room_id: str | None = None  # the room the versions below belong to
        self._seen = -1  # the newest version of that room this app has heard (kept over drops)
        self._missed: list[dict[str, Any]] = []  # events the welcome's story says we missed
        self._rejoining: set[int] = set()
        """Back at a table after losing it (a host killed and resumed: every seat starts away),
        the seats not back yet: their first return is not told one by one — "Ann is back",
        "Bob is back" read as if each had left — but once, when all of them are
        (`_quiet_rejoin`)."""
        self._rejoined: list[int] = []  # (of those, the ones back so far)
        self._rejoin_pending = False  # a welcome back: the next view says who is away
        self.last_error: dict[str, Any] | None = None
        self.sent_at: dict[int, float] = {}
        self.latencies: list[float] = []  # seconds from an action sent to the view it caused
        self.pending_seat: int | None = None  # asked the host for an away seat of our name
        self._last_sent: tuple[int, dict[str, Any]] | None = None

    HURRY = 10.0
    """Seconds left of a countdown that waits on this player when a dialog that only shows
    something (the help, opened during the choice) gives way: it hid the prompt and its
    countdown until "the undecided stay IN"."""

    _deadline: float | None = None
    """When the countdown that waits on this player ends, on `clock` (None: none does)."""

    KEYBOARD_OFF = "\x1b]7770;hubbub;keyboard-off\x1b\\"
    """Said to a web seat's page (an OSC sequence no terminal acts on; `tui/web/seat.js` hears
    it) when the player leaves the last text field: a phone's keyboard, which its player
    brought up to type a name or a definition, goes down instead of covering half the
    screen for the rest of the evening."""

    def keyboard_done(self) -> None:
        """No text field has the focus now (`PlayerScreen`): a web seat's page is told."""
        if self.only_this_table and self._driver is not None:
            self._driver.write(self.KEYBOARD_OFF)

    def on_mount(self) -> None:
        self.set_keymap(load_keymap())
        self.set_interval(1.0, self._hurry)
        if self.only_this_table:  # a web seat ends with the host that started it
            parent = os.getppid()
            self.set_interval(1.0, lambda: os.getppid() == parent or self.exit())
        if self.address is None:
            self.push_screen(FindScreen())
            return
        host, port = self.address
        name = seat_name(self.tokens, f"{host}:{port}", self.player_name)
        if self.watching:  # no name to ask: the table's code, if it has one, is asked for
            self.push_screen(WaitScreen())
            self.connect(host, port, "", None, watch=True)
        elif name:  # a name to play, or one seat to go back to
            self.push_screen(WaitScreen())
            self.connect(host, port, name, None)
        else:  # no seat here yet, or seats under several names: which one?
            self.push_screen(JoinScreen(host, port))

    # --- the link -----------------------------------------------------------------------

    def connect(
        self, host: str, port: int, name: str, code: str | None, *, watch: bool = False
    ) -> None:
        self.watching = watch
        self.address = (host, port)
        self.player_name = name
        self.player_code = code or ""
        if self.client is not None:
            self.run_worker(self.client.close(), group="close")
        self.client = Client(
            host,
            port,
            name=name,
            code=code,
            tokens=self.tokens,
            watch=watch,
            relay=self.relay,
            early=self.early,
            on_message=self._heard,
            on_status=lambda s, i: self.post_message(self.LinkChanged(s, i)),
        )
        self.early = None  # the first connection's only
        self.link = "connecting"
        self.run_worker(self.client.run(), group="link", exclusive=True, exit_on_error=False)

    def act(self, action: dict[str, Any], made_at: int | None = None) -> None:
        """Send an action made from the view of `made_at` (default: the newest). The same
        action from the same view goes once: a key held down or pressed twice before the
        table answered is one move, not two."""
        if self.client is None:
            return
        version = self.version if made_at is None else made_at
        if self._last_sent == (version, action):
            return
        ref = self.client.act(action, version)
        if ref is None:  # not sent: the screen must not wait for it (a tile "on its way")
            self.notify(t("client.not_connected"), severity="warning")
            self._tell_refused("not_connected")
        else:
            self._last_sent = (version, dict(action))
            self.sent_at[ref] = time.perf_counter()

    async def leave(self, ends_game: bool = False) -> None:
        """Give the seat up (the host is told), then close — saying so, if a game was on
        (`ends_game`: it could not go on without this player)."""
        room, you = self.room or {}, (self.room or {}).get("you")
        in_game = room.get("phase") == "playing" and you is not None and you < room["players"]
        if self.client is not None:
            await self.client.leave()
            self.client = None
        self.keep(None, None)  # the seat is given up: nothing of it comes back
        said = "client.left_ended" if ends_game else "client.left" + no_bots(room, "client.left")
        self.exit(message=t(said) if in_game else None)

    # --- the hand's unsent state, for the next app (a web seat's) ------------------------

    def _place(self, game: str | None) -> dict[str, Any]:
        room = self.room or {}
        host, port = self.address or ("", 0)
        return {"table": f"{host}:{port}", "room": room.get("id"), "seat": room.get("you"),
                "game": game}  # fmt: skip

    def where(self, host: str, port: int) -> str:
        """The table's address, as its player knows it: a web seat's, the host the browser
        reached (not the app's own loopback) with the table's port — what `hubbub join` would
        take; the page's own port is the web seats' (two play-testers copied it, and it was
        not the table)."""
        if not self.shown_address:
            return f"{host}:{port}"
        shown = self.shown_address
        if shown.startswith("["):  # [v6]:port
            shown = shown[: shown.index("]") + 1]
        elif shown.count(":") == 1:
            shown = shown.rsplit(":", 1)[0]
        return f"{shown}:{port}"

    def recall(self, game: str | None) -> dict[str, Any] | None:
        """What the previous app's hand kept at this very place (this table, room, seat and
        game), once: the hand checks its own moment (`HandWidget.restore`)."""
        kept, self._kept = self._kept, None
        return matches(kept, self._place(game))

    def keep(self, game: str | None, hand: dict[str, Any] | None) -> None:
        """The hand's unsent state now (None: nothing unsent): written a moment later
        (`drafts.DELAY`), or forgotten at once."""
        if self.drafts is None:
            return
        record = None if hand is None else {**self._place(game), "hand": hand}
        if record == self._keeping:
            return
        self._keeping = record
        if self._keep_timer is not None:
            self._keep_timer.stop()
            self._keep_timer = None
        if record is None:
            self.drafts.save(None)
        else:
            self._keep_timer = self.set_timer(DRAFT_DELAY, self._write_kept)

    def _write_kept(self) -> None:
        self._keep_timer = None
        if self.drafts is not None and self._keeping is not None:
            self.drafts.save(self._keeping)

    def drop_link(self) -> None:
        """Stop the link (and its reconnecting) without giving the seat up."""
        if self.client is not None:
            self.run_worker(self.client.close(), group="close")
            self.client = None
        self.link = "offline"

    def follow(self) -> None:
        """Put up the screen the table is at (after a dialog closed over an older one)."""
        if self.room is not None and isinstance(self.screen, RoomScreen):
            self._route()

    def on_app_blur(self, event: events.AppBlur) -> None:
        """A terminal in the background (another tmux pane, another window) keeps its focus:
        Textual would drop it, and with it the game's keys, and leave the footer as it was
        until the next key — a Sage would see the definitions without the keys to pick."""
        event.prevent_default()

    def on_hand_widget_act(self, message: HandWidget.Act) -> None:
        self.act(message.action, message.made_at)

    def on_client_app_link_changed(self, message: LinkChanged) -> None:
        status = message.status
        if message.info.get("unreadable"):  # one line, and the link is made again
            what = message.info["unreadable"]
            self.notify(t("link.unreadable", what=what), severity="warning", markup=False)
        if status == "refused":
            self.link = "offline"
            self.last_error = message.info
            host, port = self.address or ("", 0)
            if message.info.get("code") == "unknown_token" and self.player_name:
                self.connect(host, port, self.player_name, None)  # a new table: join anew
                return
            error = dict(message.info)
            if error.get("code") == "bad_code" and not self.player_code:
                error["code"] = "code_needed"  # nobody typed a wrong code: it was just asked
            self._go(JoinScreen(host, port, error=error, watch=self.watching))
        elif status == "closed":
            if self.link != "offline":
                self.link = "offline"
        elif status == "pending":
            self.link = "pending"
            self.pending_seat = message.info.get("seat")
            if not isinstance(self.screen, WaitScreen) or self.screen.is_modal:
                self._go(WaitScreen())
            else:
                self.change = Change(self.change.version)  # the wait screen says so
        elif (
            status == "reconnecting"
            and not message.info.get("seated")  # a seat once held is waited for, always
            and message.info.get("attempt", 0) >= 3
        ):
            # Never got in: a wrong address or a host that is gone (it may linger in the LAN
            # list for minutes after a crash). Say so instead of retrying for ever.
            host, port = self.address or ("", 0)
            if self.client is not None:
                self.run_worker(self.client.close(), group="close")
                self.client = None
            self.link = "offline"
            error = {"code": "unreachable", "message": self.where(host, port)}
            self._go(JoinScreen(host, port, error=error))
        else:
            if status == "connected":
                self.pending_seat = None
            elif status == "reconnecting" and message.info.get("closed"):
                status = "closed_resumable"  # not lost: closed on purpose, coming back
            self.link = status

    def _heard(self, frame: dict[str, Any]) -> None:
        message = self.told(frame)
        if message is not None:
            self.post_message(message)

    def on_client_app_view(self, message: View) -> None:
        frame = message.frame
        if not self.screen_stack:
            return  # the app is closing: no screen to tell
        if frame["version"] <= self.version:
            return  # an old view overtaken by a newer one (versions restart at welcome)
        self.version = frame["version"]
        self._seen = max(self._seen, frame["version"])
        before, self.room = self.room, frame["room"]
        seconds = self.room.get("timer_seconds")
        waits = self.room.get("you") in self.room.get("waiting", ())
        self._deadline = self.clock() + seconds if waits and seconds is not None else None
        if starts_waiting_on_you(before, self.room):
            if self.bell_on:
                self.bell()  # once, as it begins: a laptop turned away from its player calls
            self._give_way()
        self.game = frame["game"]
        if self.room.get("phase") != "playing":  # (the lobby, the results): nothing unsent
            self._kept = None
            self.keep(None, None)
        self._measure()
        missed, self._missed = self._missed, []
        if missed:  # the story: told where it fits this view's game (net.wire.fitting_events)
            missed = fitting_events(self.room.get("game"), missed)
        before = self.heard[-1] if self.heard else None
        self.heard.extend([*missed, *frame["events"]])
        if self._rejoin_pending:
            self._rejoin_pending = False
            playing = self.room.get("phase") == "playing"
            dropped = {e.get("seat") for e in missed if e.get("type") == "away"}
            self._rejoining = (self._away_seats() | dropped) if playing else set()
            self._rejoined = []
        self._tell([*missed, *frame["events"]], before)
        self._route()
        self.change = Change(frame["version"], tuple(frame["events"]))
        self.call_later(self.release_keys, "view")  # keys pressed before this answer came

    def moment(self) -> Hashable:
        """What a key pressed now would answer (`Dialog`): the room's phase, whether the
        table waits on this player, and the hand's own moment — not the view's version, which
        another player's sealed choice moves too."""
        room = self.room or {}
        hand: Hashable = None
        for screen in reversed(self.screen_stack):
            with contextlib.suppress(NoMatches):
                hand = screen.query_one("#hand", HandWidget).moment()
                break
        return (room.get("phase"), room.get("you") in room.get("waiting", ()), hand)

    def _hurry(self) -> None:
        """A countdown that waits on this player is nearly out under a dialog that only shows
        something, or a question that is not about the move (Leave?): it gives way
        (`_give_way`), once."""
        if self._deadline is None or self.link != "connected":
            return
        if self._deadline - self.clock() <= self.HURRY:
            self._deadline = None
            self._give_way(hurried=True)

    def _give_way(self, hurried: bool = False) -> None:
        """The table waits for this player now: a dialog that only shows something (the help,
        the story, a chart) must not hide the prompt and its countdown — it closes, saying so.
        `hurried` (its time nearly out): a question that is not about the move (`Dialog.HURRIED`:
        Leave the game?) closes too, as its no, saying so."""
        said = None
        while isinstance(self.screen, Dialog):
            dialog = self.screen
            if dialog.GIVES_WAY:
                self.pop_screen()
                said = said or "client.your_move"
            elif hurried and dialog.HURRIED is not None:
                dialog.answer_no()
                said = dialog.HURRIED
            else:
                break
            if self.screen is dialog:
                break  # (not closed: never loop on it)
        if said is not None:
            self.notify(t(said, seconds=int(self.HURRY)), severity="warning")

    def on_client_app_error(self, message: Error) -> None:
        frame = message.frame
        if not self.screen_stack:
            return
        self.sent_at.pop(frame.get("ref", -1), None)
        key = frame.get("key") or f"error.{frame['code']}"
        params = dict(frame.get("params", {}))
        names = [s["name"] for s in (self.room or {}).get("seats", [])]
        game_id = (self.room or {}).get("game")
        you = (self.room or {}).get("you")
        text = ui_for(game_id).refusal(game_id, key, params, names, you)
        self.notify(text if text != key else frame["message"], severity="error", markup=False)
        self._last_sent = None  # refused: the same key again is a new try
        self._tell_refused(frame["code"])

    def _tell_refused(self, code: str) -> None:
        """A move of ours refused (`code`), or never sent: the game's screen, under any
        dialog, stops waiting for it, and so do the keys typed behind it."""
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                with contextlib.suppress(NoMatches):
                    screen.refused(code)
        self.call_later(self.release_keys, "view")

    def on_client_app_kicked(self, message: Kicked) -> None:
        frame = message.frame
        if not self.screen_stack:
            return
        resumable = frame["reason"] == "closed" and frame.get("resumable", False)
        self.link = "offline"
        if not resumable:
            self.room = self.game = None
        self._go(GoneScreen("closed_resumable" if resumable else frame["reason"]))

    @on(Welcome)
    @on(Watching)
    def _answered(self, message: Welcome | Watching) -> None:
        """Seated or watching: views count from here; what happened while we were away is
        told before what is new."""
        frame = message.frame
        self.version = -1
        if frame["room"].get("id") != self._room_id:  # another table (or a new one)
            self._room_id, self._seen = frame["room"].get("id"), -1
            self.heard.clear()
        else:  # back at a table this app was at: the first view says who else is not
            self._rejoin_pending = self._seen >= 0  # (`_quiet_rejoin`)
        self._missed = [
            event
            for entry in frame.get("story") or []
            if isinstance(entry, dict)
            and isinstance(entry.get("version"), int)
            and entry["version"] > self._seen
            for event in entry.get("events") or []
            if isinstance(event, dict)
        ]

    _HEARD: ClassVar[dict[str, type[FromHost]]] = {
        kind.wire.__struct_config__.tag: kind for kind in (View, Error, Kicked, Welcome, Watching)
    }
    """The table's messages the screens hear, by their wire type's tag."""

    def _tell(self, events: list[dict[str, Any]], before: dict[str, Any] | None = None) -> None:
        """What happened, into the story (the screens get the events with the change);
        `before` is the event heard before the first."""
        names = [s["name"] for s in (self.room or {}).get("seats", [])]
        events = gathered(events)
        for index, event in enumerate(events):
            after = events[index + 1] if index + 1 < len(events) else None
            if self._rejoining and self._quiet_rejoin(event, names):
                before = event
                continue
            line = describe(
                (self.room or {}).get("game"), event, names, before, after, view=self.game
            )
            before = event
            if line:
                self.story.add(line)

    def _away_seats(self) -> set[int]:
        """The seats of this view's room whose players are not here (this app's own too: its
        own return is no news to it), a bot's and a leaver's aside."""
        room = self.room or {}
        return {
            i
            for i, seat in enumerate(room.get("seats") or [])
            if i == room.get("you")
            or not (seat.get("connected") or seat.get("bot") or seat.get("leaving"))
        }

    def _quiet_rejoin(self, event: dict[str, Any], names: list[str]) -> bool:
        """Whether `event` is the first return of a seat this app came back to find away."""
        seat = event.get("seat")
        if seat not in self._rejoining:
            return False
        kind = event.get("type")
        if kind == "away":  # (the table lost them all: the host was killed)
            return True
        if kind == "back":
            self._rejoining.discard(seat)
            if seat != (self.room or {}).get("you"):
                self._rejoined.append(seat)
            quiet = True
        else:  # (its own news instead — a bot stands in, they left: told as it is)
            self._rejoining.discard(seat)
            quiet = False
        if not self._rejoining and self._rejoined:
            back = [names[i] for i in sorted(self._rejoined) if 0 <= i < len(names)]
            self._rejoined = []
            if back:
                self.story.add(t("host.rejoined", names=", ".join(back)))
        return quiet

    def _measure(self) -> None:
        now = time.perf_counter()
        for ref, sent in list(self.sent_at.items()):
            self.latencies.append(now - sent)
            del self.sent_at[ref]

    # --- screens ------------------------------------------------------------------------

    def _route(self) -> None:
        room = self.room or {}
        you = room.get("you")
        phase = room.get("phase")
        if self.watching and phase in ("playing", "over"):
            wanted: type = WatchScreen if phase == "playing" else PlayerResultsScreen
        elif phase == "playing" and you is not None and you < room.get("players", 0):
            wanted = GameScreen
        elif phase == "over" and you is not None and you < room.get("players", 0):
            wanted = PlayerResultsScreen
        else:
            wanted = WaitScreen
        if not isinstance(self.screen, wanted) and not self.screen.is_modal:
            self._go(wanted())

    def _go(self, screen) -> None:
        while self.screen.is_modal:
            self.pop_screen()
        self.switch_screen(screen)

    async def on_unmount(self) -> None:
        if self._keep_timer is not None:  # (the app ends: what is unsent is kept now)
            self._keep_timer.stop()
            self._write_kept()
        if self.client is not None:
            await self.client.close()  # not `leave`: quitting the app keeps the seat

    @staticmethod
    def protocol() -> int:
        return PROTOCOL_VERSION
