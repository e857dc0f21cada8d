"""Where each game plugs into the apps: a table widget for the host's big screen, a hand widget
for a player's private screen, and a narrator that turns public events into plain words.

A game's module registers itself with `register_ui`; it may add an epilogue, what a player's
results screen shows beside the scores (Tesauro: the last turn's answer). A game without a
module of its own (only the test game) falls back to the plain widgets below, which show the
view as it is.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive, var
from textual.widget import Widget
from textual.widgets import Static

from games.base import found_in
from tui.i18n import has, t
from tui.text import literal, name, number, sentence
from tui.widgets import Timed, TypeAhead, put, run_tap

log = logging.getLogger(__name__)

Narrator = Callable[[dict[str, Any], list[str]], str | None]


CROWDED = 6
"""Players from whom a game's table on a small screen (80x24) is drawn in its crowded form
(the class `-crowded`: each game's styles say what gives up its rows to the players)."""


class GameWidget(Timed, Widget):
    """Renders one game's view: `present` keeps the view and the room it came with (`view`,
    `room`; the keys follow the view), sets the countdown from the room (`seconds_left()`,
    on the app's one clock: `Timed`) and calls `show`, which each game's widget writes — it
    only declares its keys and draws."""

    DEFAULT_CSS = "GameWidget { height: 1fr; }"

    view: reactive[dict[str, Any]] = reactive(dict, bindings=True, repaint=False, init=False)
    """The game view shown ({} before the first): a new one refreshes the keys."""
    room: var[dict[str, Any]] = var(dict, init=False)
    """The room summary it came with."""

    def mark_crowded(self, players: int) -> bool:
        """Set `-crowded` for `players` on this screen; whether it is set."""
        crowded = self.app.has_class("-small") and players >= CROWDED
        self.set_class(crowded, "-crowded")
        return crowded

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        raise NotImplementedError

    def whole(self) -> tuple[str, RenderableType] | None:
        """What this table shows cut short for want of rows, whole, with its title: `l`
        puts it above the story (a watcher's 80×24 screen, a small big screen). None: nothing
        is cut now."""
        return None

    def crowned(self) -> bool:
        """Whether this table names the game's winners in big letters now (the results
        beside it then do not say it large a second time); by default it never does."""
        return False

    def on_resize(self) -> None:
        """Drawn again at its new size: what fits depends on it (and a first view may have
        come before the layout gave the widget any)."""
        self.redraw()

    def redraw(self) -> None:
        """Draw what it shows again, as it is now; by default `show` once more."""
        if self.view:
            self.show(self.view, self.room)

    def timer_stopped(self) -> None:
        self.redraw()

    def happened(self, events: list[dict[str, Any]]) -> bool | None:
        """Public events, as they happen: for moments a view alone can't tell (a reveal).
        False: nothing this widget shows changed with them (None counts as a change)."""

    def present(
        self, view: dict[str, Any], room: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        """A change: its events, then its view — drawn only if something shown changed (the
        same view again, with events that change nothing here, draws nothing)."""
        changed = self.happened(events) if events else False
        seen = ({k: v for k, v in view.items() if k != "last_events"}, room)
        if changed is False and seen == getattr(self, "_presented", None):
            return
        self._presented = seen
        self.room = room
        self.follow_timer(room.get("timer_seconds"))
        self.view = view  # (the keys follow it: `check_action`)
        self.show(view, room)


class HandWidget(GameWidget):
    """A player's private screen for one game; its BINDINGS are the game's keys. What a
    number key picks (a die, a seat, a tile, a definition) is drawn as a `tap_target` of that
    key's action: a tap on it is the key (a phone has no number keys to spare)."""

    can_focus = True

    LEGAL_KEYS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The game's keys (by action name) that do something only while the view's `legal` has
    one of these action types: greyed otherwise (pressing one says why), never hidden. A key
    not named here is always usable."""

    PASSED_PAUSE: ClassVar[float] = 3.0
    """Seconds after a question closed under the player (the moment it asked about passed)
    in which the first key of the screen is taken for the answer meant for it, and refused
    (a play-test's `1` came a second after the question closed: 0.8 s took it as an offer);
    the key after it is the player's, read with the question's closing in front of them."""

    _question: tuple[Any, Callable[[], bool]] | None = None
    """The question asked about this moment (`ask`), and what must hold for it to stay."""
    passed_at: float | None = None
    """When the last question closed under the player."""

    _recalled: bool = False
    """Whether this hand has had its one look at what the previous app kept."""

    def unsent(self) -> dict[str, Any] | None:
        """What this hand holds that the table does not know yet, and that its player would
        not want to do again (a typed definition, a question being answered, dice picked),
        with the moment it belongs to — as plain data; None: nothing. A web seat's app keeps it
        for the app after it (`tui.client.drafts`): its process dies with a killed host, where
        a laptop's app lives on with it. By default a hand holds nothing."""
        return None

    def restore(self, kept: dict[str, Any]) -> None:
        """The previous app's `unsent`, at this table, room and seat: back as it was if its
        moment is this view's (the same turn, the same card), else nothing."""

    def keep_unsent(self) -> None:
        """Tell the app what is unsent now (each change of it, and each view)."""
        keep = getattr(self.app, "keep", None)
        if keep is not None and self.view:
            keep(self.view.get("game"), self.unsent())

    def legal(self) -> set[str]:
        """The action types this seat may take now, as the view says."""
        return set(self.view.get("legal") or [])

    def moment(self) -> Hashable:
        """What a key on this hand would answer: the phase and what this seat may do. A view
        that changes neither (another player sealed their choice) leaves a key pressed
        behind a dialog meaning what it meant (`Dialog`); a game whose keys answer more (an
        offer come in) says so here."""
        return (self.view.get("phase"), tuple(sorted(self.legal())))

    def ask(self, dialog: Any, answered: Callable[[Any], None], still: Callable[[], bool]) -> None:
        """Ask `dialog` about this moment (which offer to accept, is definition 3 the true
        one?): while `still()` holds. When a change makes it false — the offer withdrawn, the
        bot judged for a slow Sage — the question closes by itself, saying so, and a key
        pressed in the next moment (its answer, on its way: `1`, `y`) is refused, never
        taken for the screen's own (`1` would have offered the card instead of accepting)."""
        self._question = (dialog, still)
        self.app.push_screen(dialog, answered)

    def present(
        self, view: dict[str, Any], room: dict[str, Any], events: list[dict[str, Any]]
    ) -> None:
        self.awaiting = False  # (the table has answered, or moved on)
        super().present(view, room, events)
        if not self._recalled:  # the first view: what the previous app left unsent
            self._recalled = True
            recall = getattr(self.app, "recall", None)
            kept = recall(view.get("game")) if recall is not None else None
            if kept is not None:
                self.restore(kept)
        self.keep_unsent()
        if self._question is None:
            return
        dialog, still = self._question
        if not dialog.is_attached:
            self._question = None
        elif not still():
            self._question = None
            dialog.dismiss(None)
            self.passed_at = time.monotonic()
            self.notify(t("client.question_passed"), severity="warning")

    def answer_passed(self) -> bool:
        """Whether a key pressed now comes too soon after a question closed under the player:
        it was meant for the question (refused, saying so)."""
        passed = self.passed_at
        if passed is None or time.monotonic() - passed >= self.PASSED_PAUSE:
            return False
        self.passed_at = None  # (once: the next key is meant for the screen as it is)
        self.notify(t("illegal.stale"), severity="warning")
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        wanted = self.LEGAL_KEYS.get(action)
        if wanted is None:
            return True
        if self.legal() & set(wanted):
            return True
        return None if self.owns_key(action) else False

    def owns_key(self, action: str) -> bool:
        """Whether a key of `LEGAL_KEYS` that does nothing now is this player's to see greyed
        (pressing it says why); a game whose keys belong to one player at a time (Tesauro's
        reader, its Sage) hides them from the others. By default every key is everyone's."""
        return True

    async def on_click(self, event: events.Click) -> None:
        await run_tap(self, event)

    class Act(Message):
        """The player chose an action; the app sends it to the host. `made_at`: the version
        of the view the choice was made from, when that was before now (a confirmation)."""

        def __init__(self, action: dict[str, Any], made_at: int | None = None) -> None:
            super().__init__()
            self.action = action
            self.made_at = made_at

    awaiting: bool = False
    """A move of this hand is on its way (posted, sent, not yet answered by a view): a key
    that does nothing now may do something then (`GameScreen.hold_key`)."""

    def act(self, action: dict[str, Any], made_at: int | None = None) -> None:
        self.awaiting = True
        if isinstance(self.app, TypeAhead):  # the keys typed behind it wait for its answer
            self.app.hold_keys("view")
        # sent by this hand, whoever runs now (a question's answer may come back to the
        # screen that asked): a message stops bubbling at the node that sent it, and a move
        # sent as the screen's never reached the app
        self.post_message(self.Act(action, made_at).set_sender(self))

    def refused(self, code: str) -> None:
        """The host refused an action this hand sent (the app has said why already)."""

    @property
    def version(self) -> int | None:
        """The version of the view on the screen now (for an action decided later)."""
        return getattr(self.app, "version", None)


Epilogue = Callable[
    [dict[str, Any], list[str]], tuple[str, RenderableType | list[RenderableType]] | None
]
"""A game's last word on a player's results screen: (title, what to show), or None; what to
show may be a list of forms, the fullest first: the screen shows the first that fits."""


@dataclass(frozen=True)
class GameUI:
    table: type[GameWidget]
    hand: type[HandWidget]
    narrate: Narrator
    epilogue: Epilogue | None = None
    seat_params: tuple[str, ...] = ()
    """The parameters of the game's refusals that name a seat (beside the rulebook's
    `seat`): a player reads the name — "too late: Ann was first"."""
    param_words: Callable[[str, Any], str | None] | None = None
    """The game's own words for a refusal's parameter (Tesauro: a tile's name), or None:
    the value as it is."""
    rules_key: Callable[[dict[str, Any]], str] | None = None
    """The catalogue key of the rules the help shows with this game view (T-Rex's
    cooperative game has its own); None: `<game>.rules`."""
    ending: Callable[[dict[str, Any], list[str]], str | None] | None = None
    """Why a game ended when it did not end the usual way (T-Rex: too few players were left
    in it), from its result; None when it ended as its rules say games end."""

    ends_without: Callable[[dict[str, Any]], bool] | None = None
    """Whether, with this view, one more player leaving ends the game (T-Rex: three left in
    it); None: never (a bot plays a seat given up)."""

    variant: Callable[[int], str | None] | None = None
    """The game's word when this many players play it another way than the one it was
    chosen for (T-Rex: two play the cooperative game), said as a game starts again with
    fewer; None: the same game at any count."""

    team: Callable[[dict[str, Any]], bool] | None = None
    """Whether a result is a team's (T-Rex for two: one score, won or lost together);
    None: never."""

    no_move: Callable[[dict[str, Any]], bool] | None = None
    """Whether this move of a seat, made by the room after its `played_for`, is no move at
    all, only the time running out (Tesauro's silent speaker: `spoke` with no text) — the
    game's narrator says so (the move comes marked `played_for`), and the room does not say
    the bot made a move for them; None: the bot's move is a move."""

    nudge_words: Callable[[dict[str, Any]], str | None] | None = None
    """(view) → the catalogue key that says a nudge in this view, when what comes of it is
    not the bot's move (Tesauro's speaker: only the time runs out): `<key>` for the story
    ({names}), `<key>_you` for the hurried player's turn line; None (or it gives None): the
    shell's "20 seconds, then the bot moves for them"."""

    unused_options: Callable[[dict[str, Any]], Collection[str]] | None = None
    """The options these option values leave unused (Tally Up!: the target score, when
    everyone rolls once): the lobby says so beside their values; None: none ever is."""

    def unused(self, options: dict[str, Any]) -> Collection[str]:
        """The options `options` leave unused (`unused_options`)."""
        return self.unused_options(options) if self.unused_options else ()

    def nudge_key(self, view: dict[str, Any] | None, you: bool = False) -> str:
        """The words for a nudge in `view` (`nudge_words`), the player's own with `you`."""
        key = self.nudge_words(view) if view and self.nudge_words else None
        if key is None:
            return "client.turn_nudged" if you else "room_event.nudged"
        return f"{key}_you" if you else key

    def clock_only(self, event: dict[str, Any] | None) -> bool:
        """Whether `event` is a move the clock made that is no move (`no_move`)."""
        return event is not None and self.no_move is not None and bool(self.no_move(event))

    def together(self, result: dict[str, Any] | None) -> bool:
        """Whether the players of `result` played as one team (`team`)."""
        return bool(result) and self.team is not None and self.team(result)

    def would_end(self, view: dict[str, Any] | None) -> bool:
        """Whether a seat given up now (a player leaving, the host's kick) ends the game."""
        return bool(view) and self.ends_without is not None and self.ends_without(view)

    def why_ended(self, result: dict[str, Any] | None, names: list[str]) -> str | None:
        """The game's word on why it ended (`ending`), or None."""
        if self.ending is None or not result:
            return None
        try:
            return self.ending(result, names)
        except (KeyError, IndexError, TypeError, ValueError):  # a result from the network
            return None

    def phrased(self, params: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """A refusal's parameters as its player reads them: seats as names, and the game's
        own words for its own values."""
        said = {}
        for field, value in params.items():
            seat = field == "seat" or field in self.seat_params
            if seat and isinstance(value, int) and not isinstance(value, bool):
                value = names[value] if 0 <= value < len(names) else value
            elif self.param_words is not None:
                value = self.param_words(field, value) or value
            said[field] = value
        return said

    def refusal(
        self,
        game_id: str | None,
        key: str,
        params: dict[str, Any],
        names: list[str],
        you: int | None = None,
    ) -> str:
        """What a refusal says: in the game's own words (`<game>.illegal.<code>` for the
        wire's `illegal.<code>`) where it has them, else the shell's — and where a seat it
        names is `you`, the game's words for that (`…_you`: "you were first", never "too
        late: Ann was first" to Ann), if it has them."""
        own = f"{game_id}.{key}"
        seats = [v for f, v in params.items() if f == "seat" or f in self.seat_params]
        if you is not None and you in seats and has(own + "_you"):
            return t(own + "_you", **self.phrased(params, names))
        return t(own if game_id and has(own) else key, **self.phrased(params, names))

    def rules(self, game_id: str, view: dict[str, Any]) -> str:
        """The game's rules, as the help shows them with this view."""
        return t(self.rules_key(view) if self.rules_key else f"{game_id}.rules")


_UIS: dict[str, GameUI] = {}


def register_ui(game_id: str, ui: GameUI) -> None:
    _UIS[game_id] = ui


def ui_for(game_id: str | None) -> GameUI:
    _load_game_uis()
    return _UIS.get(game_id or "", PLAIN)


def game_styles() -> list[str]:
    """Every game's style sheet (`styles.tcss` beside its screens), for an app's CSS_PATH —
    found without importing the screens: an app that never shows a game (the join form)
    does not pay for them."""
    from tui.i18n import game_folders

    sheets = [folder / "styles.tcss" for folder in game_folders(SCREENS_GROUP, __name__)]
    return [str(sheet) for sheet in sheets if sheet.exists()]


SCREENS_GROUP = "hubbub.screens"
"""The entry-point group of the games' screens: the game's id = the module that registers its
`GameUI` when imported."""


@functools.cache
def _load_game_uis() -> None:
    """Import every game's screens (each module registers itself), once: the modules the
    entry points name, and the packages beside this one (`games.base.found_in`)."""
    import importlib

    for module in found_in(SCREENS_GROUP, __name__).values():
        importlib.import_module(module)


# --- the plain fallback -----------------------------------------------------------------


def _plain_lines(view: dict[str, Any], names: list[str]) -> Text:
    out = Text()
    scores = view.get("scores") or []
    for seat, player in enumerate(names):
        score = scores[seat] if seat < len(scores) else ""
        out.append_text(name(player))
        out.append(f"  {number(score)}\n")
    for key, value in view.items():
        if key not in ("scores", "players"):
            out.append(f"{key}: ", style="dim")
            out.append_text(literal(repr(value), 200))
            out.append("\n")
    return out


class PlainTable(GameWidget):
    def compose(self):
        yield Static(id="plain")

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        names = [s["name"] for s in room["seats"]]
        put(self.query_one("#plain", Static), _plain_lines(view, names))


class PlainHand(HandWidget):
    def compose(self):
        yield Static(id="plain")

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        names = [s["name"] for s in room["seats"]]
        put(self.query_one("#plain", Static), _plain_lines(view, names))


def plain_narrate(event: dict[str, Any], names: list[str]) -> str | None:
    return None


PLAIN = GameUI(PlainTable, PlainHand, plain_narrate)


def describe(
    game_id: str | None,
    event: dict[str, Any],
    names: list[str],
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    view: dict[str, Any] | None = None,
) -> str | None:
    """The line for the feed: the room's words, else the game's. Events come from the
    network, so a malformed one is skipped, never fatal. `before` is the event heard just
    before this one: a seat's move right after the room's `played_for` of that seat reaches
    the game's narrator marked `played_for: True` (the bot made it: Tesauro's silent speaker
    did not "speak"). `after` is the event heard just after it (the same change's): the
    room's `played_for` says nothing when the move it is followed by is no move
    (`GameUI.no_move`: "Ann (Botany): the time ran out." says it, and no bot spoke). `view`:
    the game's view as the event is heard, where a game words the room's event its own way
    (`GameUI.nudge_words`); a story told again from a save has none (the shell's words)."""
    try:
        ui = ui_for(game_id)
        if event.get("type") == "nudged" and view is not None:
            key = ui.nudge_key(view)
            seats = [s for s in event.get("seats", ()) if isinstance(s, int) and s < len(names)]
            return t(key, names=", ".join(names[s] for s in seats))
        if (
            event.get("type") == "played_for"
            and after is not None
            and after.get("seat") == event.get("seat")
            and ui.clock_only(after)
        ):
            return None
        if (
            before is not None
            and before.get("type") == "played_for"
            and "seat" in event
            and before.get("seat") == event.get("seat")
        ):
            event = {**event, "played_for": True}
        said = narrate_room(event, names) or ui.narrate(event, names)
        if event.get("type") == "game_over" and said is not None:  # who won, then why
            why = ui.why_ended(event.get("result"), names)  # (a line cut short keeps who won)
            said = f"{said} {why}" if why else said
        if event.get("type") == "game_ended" and event.get("again") and ui.variant:
            said = ui.variant(len(names)) or said  # (not "the same game": two play T-Rex together)
        return said
    except (KeyError, IndexError, TypeError, ValueError):
        log.warning("cannot narrate %r", event)
        return None


def gathered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as the story tells them. The bots a game without bots sends away — the room's
    `kicked` for each, then `game_chosen` (`Room.choose_game`) — are one line after the
    game's ("T-Rex has no bots: Bot 1, Bot 2 left the table."), not "The host took Bot 1's
    seat." for each: the host chose a game, not to take their seats."""
    from games import GAMES

    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") == "kicked":
            run.append(event)
            continue
        game = GAMES.get(event.get("game")) if event.get("type") == "game_chosen" else None
        if run and game is not None and not game.bots:
            gone = [e.get("name") for e in run]
            out += [event, {"type": "bots_gone", "game": game.id, "names": gone}]
        else:
            out += [*run, event]
        run = []
    return out + run


def narrate_room(event: dict[str, Any], names: list[str]) -> str | None:
    """Plain words for the room's own events (joins, drops, kicks, start and end)."""
    kind = event.get("type")
    seat = event.get("seat")
    who = event.get("name") or (names[seat] if isinstance(seat, int) and seat < len(names) else "?")
    key = f"room_event.{kind}"
    if kind == "game_chosen":  # "The game is Tally Up!", not "…Up!."
        return sentence(t(key, game=t(f"game.{event.get('game')}.name")))
    if kind in (
        "joined", "left", "away", "back", "kicked", "bot_takes_over", "stand_in", "sits_out",
        "played_for", "claim", "claim_approved", "claim_refused",
    ):  # fmt: skip
        return t(key, name=who)
    if kind == "bots_gone":  # (`gathered`: not on the wire)
        gone = [str(n) for n in event["names"]]
        game = t(f"game.{event['game']}.name")
        return t(key, game=game, names=", ".join(gone), n=len(gone))
    if kind == "nudged":
        seats = [s for s in event.get("seats", ()) if isinstance(s, int) and s < len(names)]
        return t(key, names=", ".join(names[s] for s in seats))
    if kind == "game_over" and "result" in event:  # the room's, not a game's own
        winners = ", ".join(names[w] for w in event["result"].get("winners", []) if w < len(names))
        if not winners:
            return t(key)
        shared = len(event["result"].get("winners", [])) > 1
        key = "room_event.game_over_shared" if shared else "room_event.game_over_winners"
        return t(key, names=winners)
    if kind == "game_ended" and event.get("again"):  # the same game at once: no lobby
        return t("room_event.game_again")
    if kind == "game_ended" and not event.get("stopped"):  # over by itself: only the lobby
        return t("room_event.back_to_lobby")
    if kind in ("game_started", "game_ended"):
        return t(key)
    return None
