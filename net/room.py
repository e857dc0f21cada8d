"""The host's room: the seats and the lobby, and the coordinator of what runs at the table —
the game being played (`net.play.Play`), its countdown (`net.countdown.Countdown`), the bots'
moves (`net.bots.BotScheduler`), the grace times (`net.presence.Graces`) and the save file
(`net.savefile`). None of those knows the room; the room tells each what changed.

The room is the single writer of the game state. Every change — a player's action, a chance
move, a timeout, someone leaving — goes through `_changed`, which journals it (before anyone
hears of it: a view a player has seen is never lost to a crash), re-arms the game's timer,
tells the subscribers (the server, which sends each seat its own view, and the host's table
screen) and lets the bots plan.

Presence (`net.presence`): a seat whose player's link drops waits for them a grace time, then a
stand-in bot plays it (or, in a game without bots, it sits out); one who leaves or is kicked
mid-game gives the seat to a bot for the rest of the game.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games import GAMES, Game, IllegalAction
from net.bots import BotScheduler
from net.countdown import Countdown
from net.lobby import Lobby, standin_strength
from net.play import Play
from net.presence import Comings, Graces
from net.protocol import ProtocolError
from net.seats import HISTORY_KEEP, HostSettings, new_code, new_token
from net.snapshot import Saving, resumed
from net.turns import Turns, bot_move, is_turn

log = logging.getLogger(__name__)

STORY_KEEP = 40
"""Changes (with events) a welcome carries, so a player back from a drop hears what happened."""

Listener = Callable[[list[dict[str, Any]]], None]
Renumbering = Callable[[dict[int, int]], None]


def _now() -> float:
    return time.monotonic()  # asyncio's default loop clock: call_later and this agree


class Room(Lobby):
    """The lobby (`net.lobby.Lobby`: seats, code, claims, options) and the table."""

    def __init__(
        self,
        name: str,
        *,
        game_id: str | None = None,
        open_room: bool = False,
        save_path: Path | None = None,
        rng: random.Random | None = None,
        code: str | None = None,
        room_id: str | None = None,
        bot_pace: float = 1.0,
        deck: str | None = None,
        settings: HostSettings | None = None,
        clock: Callable[[], float] = _now,
    ) -> None:
        super().__init__(
            name,
            game_id=game_id,
            code=None if open_room else (code or new_code()),
            room_id=room_id,
            settings=settings,
            deck=deck,
        )
        self.clock = clock  # for how long seats are away (screenshots stop it)
        self.phase = "lobby"  # "lobby" | "playing" | "over"
        self.players = 0  # how many seats play the current game (the first ones)
        self.play: Play | None = None
        """The game being played (or just over), None in the lobby."""
        self.version = 0
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY_KEEP)
        # the last changes with events, by version: what a (re)connecting player missed
        self.recent: deque[tuple[int, list[dict[str, Any]]]] = deque(maxlen=STORY_KEEP)
        self.resumed = False
        """Brought back from its save file (`--resume`): every seat starts away."""
        self.closing = False
        """The host is shutting the table (`shutting`): the links closing now are no drops."""
        self.save_path = save_path
        self.saving = Saving(save_path) if save_path is not None else None
        self.rng = rng or random.Random(secrets.randbits(64))
        self._listeners: list[Listener] = []
        self._renumberers: list[Renumbering] = []
        self.countdown = Countdown(self._timeout, self._journal_clock)
        self.graces = Graces(self.clock, self._grace_over)
        self.comings = Comings(self.clock, lambda: self._changed([]))
        self.bots = BotScheduler(self.rng, bot_pace)
        self.turns = Turns()
        self._journal([], snapshot=True)  # the file (and its descriptor) from the start

    # --- reading ------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The game's state (None in the lobby)."""
        return self.play.state if self.play is not None else None

    @property
    def log(self) -> list[list[Any]]:
        """The game's log so far: [seat, action] entries."""
        return self.play.log if self.play is not None else []

    def in_game(self, seat: int) -> bool:
        """Whether `seat` plays the game on the table (or just finished); such a seat keeps
        its index until the table goes back to the lobby."""
        return seat < self.players and self.phase in ("playing", "over")

    def waiting_for(self) -> list[int]:
        """The seats the game cannot go on without now."""
        return self.play.waiting_for() if self.phase == "playing" and self.play else []

    def _shown_options(self) -> dict[str, Any]:
        """The game's lobby options and `lang`: not a group's deck (a path on the host), nor
        what a game carried from the evening's last one (`GameBase.carried`)."""
        shown = {o.key for o in self.game.options} if self.game is not None else set()
        return {k: v for k, v in self.options.items() if k in shown or k == "lang"}

    def summary(self) -> dict[str, Any]:
        """The room as everybody may see it (no tokens, no code)."""
        now = self.clock()
        return {
            "name": self.name,
            "id": self.room_id,
            "phase": self.phase,
            "game": self.game_id,
            "options": self._shown_options(),
            "room_options": dict(self.room_options),
            "needs_code": self.code is not None,
            "players": self.players,
            "seats": [s.summary(now, self.graces.due(i)) for i, s in enumerate(self.seats)],
            "waiting": self.waiting_for(),
            "standins": bool(self.game and self.game.bots),  # else an away seat sits out
            "claims": [c.seat for c in self.claims],
            "timer_seconds": self.countdown.seconds_left(),
            "turn": self._turn_summary(),
        }

    def game_view(self, seat: int | None) -> dict | None:
        """What `seat` may know of the game: its own view if it plays, else the table's."""
        return self.play.view(seat) if self.play is not None else None

    def own_view(self, seat: int | None) -> dict | None:
        """What `seat`'s game view adds to the table's (None: it sees the table's, because it
        does not play, or no game is on)."""
        return self.play.own_view(seat) if self.play is not None else None

    def result(self) -> dict | None:
        return self.play.result() if self.play is not None else None

    # --- subscribers --------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_renumber(self, renumber: Renumbering) -> None:
        """Be told {old seat: new seat} before subscribers hear of a change that removed
        seats; a seat missing from the map is gone."""
        self._renumberers.append(renumber)

    def _remove_seats(self, gone: set[int]) -> None:
        """Seats leave the lobby (never mid-game: there seats keep their index)."""
        mapping, kept = {}, []
        for index, seat in enumerate(self.seats):
            if index not in gone:
                mapping[index] = len(kept)
                kept.append(seat)
        self.seats = kept
        self._renumber_claims(mapping)
        if gone:
            # the seat numbers in what happened so far now name other players (or, once a
            # newcomer sits there, a removed seat's): a late comer's story (`welcome.story`)
            # and a resumed host's begin after this change
            self.recent.clear()
            self.history.clear()
        self.bots.forget_all()
        for renumber in list(self._renumberers):
            renumber(mapping)

    def _notify(self, events: list[dict[str, Any]]) -> None:
        for listener in list(self._listeners):
            try:
                listener(events)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("room listener failed")

    # --- seats --------------------------------------------------------------------------

    def connected(self, seat: int, *, returning: bool) -> None:
        who = self.seats[seat]
        who.connected = True
        who.away_since = None
        self.graces.cancel(seat)
        self._drop_claims(seat)  # its player is back: nobody else takes the seat
        events: list[dict[str, Any]] = [{"type": "back", "seat": seat}] if returning else []
        if who.standin:
            who.standin = False
            self.bots.forget(seat)
        if self.play is not None and seat in self.play.held_away and self.phase == "playing":
            events += self.play.told("back", seat)
            self._changed(events)  # the game itself changed: everyone sees it now
            return
        if self.countdown.resumed is not None and self.phase == "playing":
            self._arm_timer()  # the first player back after a resume: the countdown goes on
        self.comings.add(events)

    def disconnected(self, seat: int) -> None:
        if self.closing or seat >= len(self.seats) or not self.seats[seat].connected:
            return
        who = self.seats[seat]
        who.connected = False
        who.away_since = self.clock()
        if self._plays(seat) and not who.leaving:
            self.graces.start(seat, self.grace)
        self.comings.add([{"type": "away", "seat": seat}])

    def leave(self, seat: int) -> None:
        """A player says goodbye: in the lobby the seat goes; in a game a bot plays it to the
        end (or, in a game without bots, it sits out); after a game it goes with the lobby."""
        if 0 <= seat < len(self.seats):
            self._gone(seat, "left")

    def kick(self, seat: int) -> None:
        """Take a seat away, as if its player had left (`leave`)."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_seat", "there is no such seat")
        self._gone(seat, "kicked")

    def _gone(self, seat: int, kind: str) -> None:
        events: list[dict[str, Any]] = [{"type": kind, "seat": seat, "name": self.seats[seat].name}]
        if self.in_game(seat):
            self._retire(seat, events)
        else:
            self._remove_seats({seat})
            self._changed(events, save=True)

    def _retire(self, seat: int, events: list[dict[str, Any]]) -> None:
        """A seat whose player is gone for good, mid-game or after it."""
        who = self.seats[seat]
        who.token = new_token()  # whoever held the old one can't come back
        who.connected = False
        who.leaving = True
        who.away_since = None
        self.graces.cancel(seat)
        self._drop_claims(seat)
        game = self.game
        if self.phase == "playing" and game is not None:
            if game.bots:
                if who.bot is None:
                    who.bot = standin_strength(game)
                    events.append({"type": "bot_takes_over", "seat": seat})
                who.standin = False
            elif self.play is not None:  # no bot to play on: out of the game (or it sits out)
                gone = self.play.gone(seat)
                if gone is None and seat not in self.play.held_away:
                    gone = self._sits_out(seat)  # (a game that takes no `left`)
                events += gone or []
        self._after_game_move(events, save=True)

    # --- the host's choices -------------------------------------------------------------

    def choose_game(self, game_id: str) -> None:
        if self.phase == "playing":
            raise ProtocolError("game_running", "end the game first")
        if game_id not in GAMES:
            raise ProtocolError("no_game", f"unknown game {game_id!r}")
        if self.phase == "over":
            self.end()
        if self.game_id is not None:  # kept for the evening: `g` comes back round to it
            self.kept_options[self.game_id] = self.options
        self.game_id = game_id
        self.options = self.kept_options.pop(game_id, None) or self._default_options()
        game = GAMES[game_id]
        events: list[dict[str, Any]] = []
        if not game.bots:  # the bots go, each told as a kick (`tui.games.gathered` says why)
            bots = [i for i, s in enumerate(self.seats) if s.bot is not None]
            events = [{"type": "kicked", "seat": i, "name": self.seats[i].name} for i in bots]
            self._remove_seats(set(bots))
        for seat in self.seats:
            if seat.bot is not None and seat.bot not in game.bots:
                seat.bot = standin_strength(game)
        self.phase = "lobby"
        self.play = None
        self._changed([*events, {"type": "game_chosen", "game": game_id}], save=True)

    def start(self, lang: str = "en", events: list[dict[str, Any]] | None = None) -> None:
        """The game begins with the seats there are; `events`: what the change says first."""
        game = self.game
        if game is None:
            raise ProtocolError("no_game", "choose a game first")
        if self.phase == "playing":
            raise ProtocolError("game_running", "a game is on")
        count = len(self.seats)
        _check_count(game, count)
        self.options.setdefault("lang", lang)
        if self.deck and game.takes_deck:
            self.options["deck"] = self.deck
        self.players = count
        self.play = Play(game, [s.name for s in self.seats], self.options, self.rng)
        self.phase = "playing"
        for seat, who in enumerate(self.seats):  # away since the lobby: the grace starts now
            if who.human and not who.connected:
                who.away_since = who.away_since or self.clock()
                self.graces.start(seat, self.grace)
        events = [*(events or ()), {"type": "game_started", "game": game.id}]
        events += self.play.run_chance()
        self._after_game_move(events, save=True)

    def end(self) -> None:
        """Back to the lobby, everybody still seated (but those who left); `stopped` when the
        host cut a game short, not when the game had ended by itself."""
        stopped = self.phase == "playing"
        self._back_to_lobby()
        self._changed([{"type": "game_ended", "stopped": stopped}], save=True)

    def staying(self) -> int:
        """How many seats the next game would have: all but those who left."""
        return sum(1 for seat in self.seats if not seat.leaving)

    def play_again(self, lang: str = "en") -> None:
        """The same game once more, straight from the results: its options, and every seat
        but those who left (bots with their strengths), in one change — the players go from
        their results to the new game without a lobby in between. Raises ProtocolError
        (`player_count`) and changes nothing if the seats staying are too few or too many.
        In the lobby it is a plain `start`: the options and seats are there already."""
        game = self.game
        if self.phase != "over" or game is None:
            self.start(lang)  # (which says why not: a game on, or none chosen)
            return
        _check_count(game, self.staying())
        self._back_to_lobby()
        self.start(lang, events=[{"type": "game_ended", "again": True}])

    def _back_to_lobby(self) -> None:
        self._cancel_timers()
        if self.play is not None and self.game is not None:  # what the next game must know
            self.options.update(self.game.carried(self.play.state, self.options))
        self.phase = "lobby"
        self.play = None
        self.players = 0
        for seat in self.seats:
            seat.standin = False
        self._remove_seats({i for i, s in enumerate(self.seats) if s.leaving})

    # --- moves --------------------------------------------------------------------------

    def act(
        self, seat: int, action: dict[str, Any], made_at: int | None = None
    ) -> list[dict[str, Any]]:
        """A seat's action, validated by the game. `made_at` is the version of the view the
        action was made from: one made before the seat's decision changed is `stale`. Raises
        IllegalAction; the state is then unchanged and nothing is logged."""
        play = self.play
        if self.phase != "playing" or play is None:
            raise IllegalAction("no_game", "illegal.no_game")
        events = play.act(seat, action, made_at, self.version)
        self.turns.acted(seat, self.countdown.seconds_left())
        self._after_game_move(events)
        return events

    # --- the turn clock (net.turns) -----------------------------------------------------

    def _waited(self) -> tuple[list[int], list[int]]:
        """The seats the table waits on that a person plays, and those of them who are here."""
        seats = self.seats
        people = [s for s in self.waiting_for() if seats[s].human and not seats[s].standin]
        return people, [s for s in people if self.seats[s].connected]

    def nudgeable(self) -> list[int]:
        """The seats the host's nudge would hurry now (none: no nudge to give): those the
        table waits on, here and played by a person, in a game with a bot to move for them
        and no timer of its own running, not nudged already."""
        game = self.game
        if game is None or not game.bots or self.play is None or self.turns.nudge is not None:
            return []
        if game.timer(self.state) is not None:
            return []
        return self._waited()[1]

    def nudge(self) -> bool:
        """The host hurries whoever the table waits on (`nudgeable`): NUDGE_SECONDS, then
        the game's bot makes their move. False: nobody to nudge."""
        seats = self.nudgeable()
        if not seats:
            return False
        left = self.countdown.seconds_left() if is_turn(self.countdown.action) else None
        self.turns.nudged(seats, self.version, left)
        self._changed([{"type": "nudged", "seats": seats}])
        return True

    def _turn_summary(self) -> dict[str, Any] | None:
        action = self.countdown.action
        if not is_turn(action):
            return None
        return {"seats": list(action["seats"]), "nudged": action["turn"] == "nudge"}  # type: ignore[index]

    def _turn_over(self, action: dict[str, Any]) -> None:
        """A turn time or a nudge ran out: the bot moves for each of its seats still waited on."""
        self.turns.clear()
        game, play = self.game, self.play
        if game is None or play is None or self.phase != "playing":
            return
        for seat in action["seats"]:
            if seat not in self._waited()[1] or self.phase != "playing":
                continue
            move = bot_move(game, play.state, seat, standin_strength(game), self.rng)
            try:
                events = play.act(seat, move, None, self.version) if move is not None else None
            except IllegalAction as exc:
                log.warning("the bot's move for seat %s is refused: %s", seat, exc.code)
                continue
            if events is None:  # the clock ends; the seat's player still may move
                log.warning("the bot has no move for seat %s", seat)
                continue
            self._after_game_move([{"type": "played_for", "seat": seat}, *events])
        if self.countdown.action is None:
            self._arm_timer()  # (a seat with no move: the turn clock starts again)

    def _sits_out(self, seat: int) -> list[dict[str, Any]]:
        """A game without bots goes on without `seat` (until its player is back)."""
        told = self.play.told("away", seat) if self.play is not None else []
        return [{"type": "sits_out", "seat": seat}, *told]

    def _after_game_move(self, events: list[dict[str, Any]], *, save: bool = False) -> None:
        if self.result() is not None and self.phase == "playing":
            self.phase = "over"
            self.graces.cancel_all()
            events = [*events, {"type": "game_over", "result": self.result()}]
        self._changed(events, save=save)

    def _changed(self, events: list[dict[str, Any]], *, save: bool = False) -> None:
        """Every change ends here. `save`: the room itself changed (seats, tokens, options),
        so the save file starts afresh with a snapshot; else the change is appended."""
        events = [*self.comings.take(), *events]
        self.version += 1
        self.history.extend(events)
        if events:
            self.recent.append((self.version, events))
        self._track_moments()
        self._journal(events, snapshot=save)
        self._arm_timer()
        self._notify(events)
        self._schedule_bots()

    def _track_moments(self) -> None:
        if self.phase == "playing" and self.play is not None:
            self.play.track_moments(self.players, self.version)

    # --- presence -----------------------------------------------------------------------

    def _plays(self, seat: int) -> bool:
        return self.phase == "playing" and seat < self.players and self.seats[seat].human

    def _grace_over(self, seat: int) -> None:
        if not self._plays(seat) or self.seats[seat].connected or self.seats[seat].leaving:
            return
        game = self.game
        if game is not None and game.bots:
            self.seats[seat].standin = True
            self._changed([{"type": "stand_in", "seat": seat}])
            return
        self._after_game_move(self._sits_out(seat))

    # --- clocks -------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        game = self.game
        spec = game.timer(self.state) if self.phase == "playing" and game else None
        if spec is not None or game is None or self.phase != "playing":
            self.turns.clear()  # the game's own timer keeps the table going
        else:
            running = self.countdown.seconds_left() if is_turn(self.countdown.action) else None
            spec = self.turns.spec(game, self.state, *self._waited(), len(self.log), running)
        humans = [s for s in self.seats[: self.players] if s.bot is None]
        back = not humans or any(s.connected for s in humans)
        self.countdown.arm(spec, players_back=back)

    def _journal_clock(self, action: dict[str, Any], left: float) -> None:
        if self.saving is not None:
            self.saving.clock(action, left)

    def _timeout(self, action: dict[str, Any]) -> None:
        if is_turn(action):
            self._turn_over(action)
            return
        self._after_game_move(self.play.host_move(action) if self.play is not None else [])

    def _schedule_bots(self) -> None:
        game = self.game
        if self.phase != "playing" or game is None:
            self.bots.forget_all()
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a synchronous test): bots are played by hand
        # stand-ins play for those away while somebody is at the table: with every player
        # gone (the host's Wi-Fi, say), the game waits for people, not on its own
        anyone = any(s.connected for s in self.seats[: self.players])
        strengths = {
            index: seat.bot or (standin_strength(game) if seat.standin and anyone else None)
            for index, seat in enumerate(self.seats[: self.players])
        }
        self.bots.plan(game, self.state, strengths, self._bot_act)

    def _bot_act(self, seat: int, action: dict[str, Any]) -> None:
        try:
            self.act(seat, action)
        except IllegalAction as exc:
            log.debug("bot %s: a %r action refused: %s", seat, action.get("type"), exc.code)
            self._schedule_bots()

    def _cancel_timers(self) -> None:
        self.countdown.cancel()
        self.turns.clear()
        self.bots.forget_all()
        self.graces.cancel_all()

    def shutting(self) -> None:
        """The host is about to close every link (it quits, or crashes): those links ending
        are not the players' drops — nothing is told or saved of them (a resume marks every
        seat away anyway, and the story said "Ann lost the connection" of a host's quit). The
        clocks stop: no grace time, bot or timer moves while the table shuts."""
        self.closing = True
        self._cancel_timers()
        self.comings.cancel()

    def close(self) -> None:
        """Stop the clocks and wait for the last save. Changes after this (connections
        closing as the host shuts down) are not saved: a resume marks everyone away anyway."""
        self.closing = True
        self._cancel_timers()
        self.comings.cancel()
        self._listeners.clear()
        for claim in list(self.claims):
            self._drop_claim(claim)
        if self.saving is not None:
            self.saving.journal.close()

    def start_clocks(self) -> None:
        """Arm the timer, the grace times and the bots of a resumed room, once a loop runs."""
        for seat in range(len(self.seats)):
            if self._plays(seat) and not self.seats[seat].connected:
                self.seats[seat].away_since = self.clock()
                held = self.play is not None and seat in self.play.held_away
                if not self.seats[seat].leaving and not held:
                    self.graces.start(seat, self.grace)
        self._track_moments()
        self._arm_timer()
        self._schedule_bots()

    # --- the save file (net.snapshot) ---------------------------------------------------

    def _journal(self, events: list[dict[str, Any]], *, snapshot: bool) -> None:
        if self.saving is not None:
            self.saving.snapshot(self) if snapshot else self.saving.change(self, events)

    def save_settings(self) -> None:
        """The host's settings or the code changed (the port it really got, a longer code): a
        new snapshot."""
        self._journal([], snapshot=True)

    def flush(self) -> None:
        """Wait until every change so far is on disk."""
        if self.saving is not None:
            self.saving.journal.flush()

    @property
    def save_problem(self) -> str | None:
        """Why the table cannot be saved right now, or None."""
        return self.saving.problem if self.saving is not None else None

    @classmethod
    def resume(cls, save_path: Path, rng: random.Random | None = None) -> Room:
        """The room as it was saved (`net.snapshot.resumed`), or a ResumeError saying why not."""
        return resumed(cls, save_path, rng)


def _check_count(game: Game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise ProtocolError(
            "player_count", f"{game.id} is for {game.min_players} to {game.max_players}"
        )
