"""The host's room: the seats and the lobby, and the coordinator of what runs at the table —
the game being played (`net.play.Play`), its countdown (`net.countdown.Countdown`), the bots'
moves (`net.bots.BotScheduler`), the grace times (`net.presence.Graces`) and the save file
(`net.savefile`). None of those knows the room; the room tells each what changed.

The room is the single writer of the game state. Every change — a player's action, a chance
move, a timeout, someone leaving — goes through `_changed`, which journals it (before anyone
hears of it: a view a player has seen is never lost to a crash), re-arms the game's timer,
tells the subscribers (the server, which sends each seat its own view, and the host's table
screen) and lets the bots plan.

Presence. A player whose connection drops keeps the seat, and for a grace time (a room option,
default 20 s; 0 = wait for them) nothing else changes: a blip costs no decision. When the grace
time is over, a game with bots has its bot play the seat (a *stand-in*) until the player is
back; a game without bots (T-Rex) is told `away {seat}` and goes on without them, and `back`
when they return. A player who leaves mid-game (`bye`) or is kicked gives the seat to a bot
for the rest of the game (or, without bots, sits it out); such a seat goes when the table
returns to the lobby.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from games import GAMES, Game, IllegalAction
from games.base import Option
from net.bots import BotScheduler
from net.countdown import Countdown
from net.play import Play, ReplayError
from net.presence import Graces
from net.protocol import (
    CODE_LENGTH,
    LONG_CODE_LENGTH,
    PROTOCOL_VERSION,
    ProtocolError,
    check_name,
    clean_text,
)
from net.savefile import SAVE_FORMAT, Journal, SaveFileError, read_save
from net.seats import (
    GRACE,
    HISTORY_KEEP,
    MAX_SEATS,
    ROOM_OPTIONS,
    Claim,
    HostSettings,
    Seat,
    new_code,
    new_token,
)

log = logging.getLogger(__name__)

STORY_KEEP = 40
"""Changes (with events) a welcome carries, so a player back from a drop hears what happened."""
PRESENCE_DELAY = 0.25
"""Comings and goings of links are told to the table at most this late, together."""

Listener = Callable[[list[dict[str, Any]]], None]
Renumbering = Callable[[dict[int, int]], None]


def _now() -> float:
    return time.monotonic()  # asyncio's default loop clock: call_later and this agree


class Room:
    """Lobby and table. Seats keep their index for the whole game; the lobby may reorder."""

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
        self.name = clean_text(name, 40) or "hubbub"
        self.clock = clock  # for how long seats are away (screenshots stop it)
        self.room_id = room_id or secrets.token_hex(6)
        self.code: str | None = None if open_room else (code or new_code())
        self.game_id = game_id if game_id in GAMES else next(iter(GAMES), None)
        self.options: dict[str, Any] = self._default_options()
        self.room_options: dict[str, Any] = {o.key: o.default for o in ROOM_OPTIONS}
        self.settings = settings or HostSettings()
        self.seats: list[Seat] = []
        self.phase = "lobby"  # "lobby" | "playing" | "over"
        self.players = 0  # how many seats play the current game (the first ones)
        self.play: Play | None = None
        """The game being played (or just over), None in the lobby."""
        self.version = 0
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY_KEEP)
        # the last changes with events, by version: what a (re)connecting player missed
        self.recent: deque[tuple[int, list[dict[str, Any]]]] = deque(maxlen=STORY_KEEP)
        self.claims: list[Claim] = []
        self._claim_ids = itertools.count(1)
        self.save_path = save_path
        self.journal = Journal(save_path) if save_path is not None else None
        self._journaled = 0  # how much of the log the save file has
        self.rng = rng or random.Random(secrets.randbits(64))
        self._listeners: list[Listener] = []
        self._renumberers: list[Renumbering] = []
        self.countdown = Countdown(self._timeout, self._journal_clock)
        self.graces = Graces(self.clock, self._grace_over)
        self._pending_events: list[dict[str, Any]] = []  # presence not told yet
        self._presence_flush: asyncio.TimerHandle | None = None
        self._presence_told = -math.inf  # self.clock() of the last presence-only view
        self.bots = BotScheduler(self.rng, bot_pace)
        self.deck = deck  # a group's own deck file, for the games that take one
        self._journal([], snapshot=True)  # the file (and its descriptor) from the start

    # --- reading ------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return GAMES.get(self.game_id) if self.game_id else None

    @property
    def state(self) -> Any:
        """The game's state (None in the lobby)."""
        return self.play.state if self.play is not None else None

    @property
    def log(self) -> list[list[Any]]:
        """The game's log so far: [seat, action] entries."""
        return self.play.log if self.play is not None else []

    @property
    def grace(self) -> float:
        return self.room_options.get(GRACE.key, GRACE.default)

    def seat_of_token(self, token: str) -> int | None:
        given = token.encode("utf-8", "surrogatepass") if isinstance(token, str) else b""
        for index, seat in enumerate(self.seats):
            if seat.human and secrets.compare_digest(seat.token.encode(), given):
                return index
        return None

    def in_game(self, seat: int) -> bool:
        """Whether `seat` plays the game on the table (or just finished); such a seat keeps
        its index until the table goes back to the lobby."""
        return seat < self.players and self.phase in ("playing", "over")

    def waiting_for(self) -> list[int]:
        """The seats the game cannot go on without now."""
        game = self.game
        if self.phase != "playing" or game is None or self.state is None:
            return []
        return list(game.waiting_for(self.state))

    def summary(self) -> dict[str, Any]:
        """The room as everybody may see it (no tokens, no code)."""
        now = self.clock()
        return {
            "name": self.name,
            "id": self.room_id,
            "phase": self.phase,
            "game": self.game_id,
            "options": {k: v for k, v in self.options.items() if k != "deck"},  # a host path
            "room_options": dict(self.room_options),
            "needs_code": self.code is not None,
            "players": self.players,
            "seats": [self._seat_summary(i, s, now) for i, s in enumerate(self.seats)],
            "waiting": self.waiting_for(),
            "standins": bool(self.game and self.game.bots),  # else an away seat sits out
            "claims": [c.seat for c in self.claims],
            "timer_seconds": self.countdown.seconds_left(),
        }

    def _seat_summary(self, index: int, seat: Seat, now: float) -> dict[str, Any]:
        due = self.graces.due.get(index)
        away = seat.away_since is not None and not seat.connected and seat.human
        return {
            "name": seat.name,
            "connected": seat.connected,
            "bot": seat.bot,
            "standin": seat.standin,
            "leaving": seat.leaving,
            "away_for": round(now - seat.away_since, 1) if away else None,
            "standin_in": round(max(0.0, due - now), 1) if due is not None else None,
        }

    def game_view(self, seat: int | None) -> dict | None:
        """What `seat` may know of the game: its own view if it plays, else the table's."""
        game = self.game
        if self.state is None or game is None:
            return None
        plays = seat is not None and seat < self.players
        return game.view(self.state, seat if plays else None)

    def own_view(self, seat: int | None) -> dict | None:
        """What `seat`'s game view adds to the table's (None: it sees the table's, because it
        does not play, or no game is on)."""
        game = self.game
        if self.state is None or game is None or seat is None or seat >= self.players:
            return None
        return game.private_view(self.state, seat)

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
        if gone:
            # the seat numbers in what happened so far now name other players (or, once a
            # newcomer sits there, a removed seat's): a late comer's story (`welcome.story`)
            # and a resumed host's begin after this change
            self.recent.clear()
            self.history.clear()
        self.bots.forget_all()
        for claim in list(self.claims):
            if claim.seat in gone:
                self._drop_claim(claim)
            else:
                claim.seat = mapping[claim.seat]
        for renumber in list(self._renumberers):
            renumber(mapping)

    def _notify(self, events: list[dict[str, Any]]) -> None:
        for listener in list(self._listeners):
            try:
                listener(events)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("room listener failed")

    # --- seats --------------------------------------------------------------------------

    def join(self, name: str, code: str | None) -> int:
        """A new player takes a seat. Raises ProtocolError with the reason it can't
        (`claim_needed`: the name is an away seat's, which only the host can hand over)."""
        self.check_code(code)
        name = check_name(name)
        taken = self.seat_named(name)
        if taken is not None:
            if self.claimable(taken):
                raise ProtocolError("claim_needed", f"{name} is away: the host can let you in")
            raise ProtocolError("name_taken", f"someone at the table is already called {name}")
        if len(self.seats) >= MAX_SEATS:
            raise ProtocolError("room_full", f"the table has {MAX_SEATS} seats")
        self.seats.append(Seat(name=name, token=new_token()))
        self._changed([{"type": "joined", "seat": len(self.seats) - 1, "name": name}], save=True)
        return len(self.seats) - 1

    def check_code(self, code: str | None) -> None:
        """The room code, or ProtocolError `bad_code` — or `code_changed`: a code of the
        short length at a table whose code has become long (the player had the old one, or
        at least no idea that it changed). Both say how many letters the code has."""
        if self.code is None:
            return
        given = (code or "").strip().upper()
        if secrets.compare_digest(given.encode("utf-8", "replace"), self.code.encode()):
            return
        if self.code_is_long and len(given) == CODE_LENGTH:
            error = ProtocolError("code_changed", f"the room code has {len(self.code)} letters now")
        else:
            error = ProtocolError("bad_code", "the room code is wrong")
        error.params = {"letters": len(self.code)}
        raise error

    @property
    def code_is_long(self) -> bool:
        """Whether the table's code became long because it was under attack."""
        return self.code is not None and len(self.code) == LONG_CODE_LENGTH

    def lengthen_code(self, code: str | None = None) -> bool:
        """The table is under attack (many wrong codes from many addresses): a new code of
        LONG_CODE_LENGTH letters from now on (`code`, a test's fixed one, or drawn), saved at
        once (`--resume` keeps it). Seats and their tokens are untouched. False if there was
        nothing to lengthen."""
        if self.code is None or self.code_is_long:
            return False
        self.code = code or new_code(LONG_CODE_LENGTH)
        self.save_settings()
        return True

    def seat_named(self, name: str) -> int | None:
        wanted = name.casefold()
        return next((i for i, s in enumerate(self.seats) if s.name.casefold() == wanted), None)

    def claimable(self, seat: int) -> bool:
        """An away seat of a person (not a bot's, not one that left) can be handed over."""
        who = self.seats[seat]
        return who.human and not who.connected and not who.leaving

    def connected(self, seat: int, *, returning: bool) -> None:
        who = self.seats[seat]
        who.connected = True
        who.away_since = None
        self.graces.cancel(seat)
        for claim in [c for c in self.claims if c.seat == seat]:
            self._drop_claim(claim)  # its player is back: nobody else takes the seat
        events: list[dict[str, Any]] = [{"type": "back", "seat": seat}] if returning else []
        if who.standin:
            who.standin = False
            self.bots.forget(seat)
        if self.play is not None and seat in self.play.held_away and self.phase == "playing":
            events += _without_presence(self._host_move({"type": "back", "seat": seat}))
            self._changed(events)  # the game itself changed: everyone sees it now
            return
        if self.countdown.resumed is not None and self.phase == "playing":
            self._arm_timer()  # the first player back after a resume: the countdown goes on
        self._presence(events)

    def disconnected(self, seat: int) -> None:
        if seat >= len(self.seats) or not self.seats[seat].connected:
            return
        who = self.seats[seat]
        who.connected = False
        who.away_since = self.clock()
        if self._plays(seat) and not who.leaving:
            self._start_grace(seat)
        self._presence([{"type": "away", "seat": seat}])

    def _presence(self, events: list[dict[str, Any]]) -> None:
        """Someone's link came or went: the first in a while is told at once (a player who
        joins or comes back is on every screen straight away); after it, the others hear of
        the comings and goings within PRESENCE_DELAY, in one view for however many there
        were (a laptop in a reconnect loop costs the table a few views a second, not one per
        connect and one per drop)."""
        self._pending_events += events
        if self._presence_flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._changed([])  # no loop (a synchronous test): at once
            return
        wait = self._presence_told + PRESENCE_DELAY - self.clock()
        if wait <= 0:
            self._tell_presence()
        else:
            self._presence_flush = loop.call_later(wait, self._tell_presence)

    def _tell_presence(self) -> None:
        self._presence_told = self.clock()
        self._changed([])

    def leave(self, seat: int) -> None:
        """A player says goodbye: in the lobby the seat goes; in a game a bot plays it to the
        end (or, in a game without bots, it sits out); after a game it goes with the lobby."""
        if not 0 <= seat < len(self.seats):
            return
        name = self.seats[seat].name
        events: list[dict[str, Any]] = [{"type": "left", "seat": seat, "name": name}]
        if not self.in_game(seat):
            self._remove_seats({seat})
            self._changed(events, save=True)
            return
        self._retire(seat, events)

    def add_bot(self, strength: str | None = None, name_prefix: str = "Bot") -> int:
        game = self.game
        if self.phase != "lobby" or game is None or not game.bots:
            raise ProtocolError("no_bots", "this game has no bots")
        if strength not in game.bots:
            strength = _standin_strength(game)
        if len(self.seats) >= min(MAX_SEATS, game.max_players):
            raise ProtocolError("game_full", f"{game.id} is for at most {game.max_players}")
        taken = {s.name for s in self.seats}
        number = 1
        while f"{name_prefix} {number}" in taken:
            number += 1
        name = f"{name_prefix} {number}"
        self.seats.append(Seat(name=name, token=new_token(), bot=strength))
        self._changed([{"type": "joined", "seat": len(self.seats) - 1, "name": name}], save=True)
        return len(self.seats) - 1

    def kick(self, seat: int) -> None:
        """Take a seat away. In the lobby the seat is gone; mid-game a bot plays it if the game
        has bots, else it sits the game out, and goes when the game ends."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_seat", "there is no such seat")
        name = self.seats[seat].name
        events: list[dict[str, Any]] = [{"type": "kicked", "seat": seat, "name": name}]
        if not self.in_game(seat):
            self._remove_seats({seat})
            self._changed(events, save=True)
            return
        self._retire(seat, events)

    def _retire(self, seat: int, events: list[dict[str, Any]]) -> None:
        """A seat whose player is gone for good, mid-game or after it."""
        who = self.seats[seat]
        who.token = new_token()  # whoever held the old one can't come back
        who.connected = False
        who.leaving = True
        who.away_since = None
        self.graces.cancel(seat)
        for claim in [c for c in self.claims if c.seat == seat]:
            self._drop_claim(claim)
        game = self.game
        if self.phase == "playing" and game is not None:
            if game.bots:
                if who.bot is None:
                    who.bot = _standin_strength(game)
                    events.append({"type": "bot_takes_over", "seat": seat})
                who.standin = False
            elif self.play is not None and seat not in self.play.held_away:
                events += [{"type": "sits_out", "seat": seat}]
                events += _without_presence(self._host_move({"type": "away", "seat": seat}))
        self._after_game_move(events, save=True)

    # --- taking back an away seat -------------------------------------------------------

    def claim(self, name: str, code: str | None, peer: str, resolve: Callable) -> Claim:
        """A player without a token asks for the away seat of `name`. The host decides with
        `decide`; a newer claim for the same seat replaces an older one."""
        self.check_code(code)
        seat = self.seat_named(check_name(name))
        if seat is None or not self.claimable(seat):
            raise ProtocolError("name_taken", f"no away seat is called {name}")
        for older in [c for c in self.claims if c.seat == seat]:
            self._drop_claim(older)
        claim = Claim(next(self._claim_ids), seat, peer, resolve)
        self.claims.append(claim)
        self._changed([{"type": "claim", "seat": seat}])
        return claim

    def decide(self, claim_id: int, approve: bool) -> None:
        claim = next((c for c in self.claims if c.id == claim_id), None)
        if claim is None:
            return
        self.claims.remove(claim)
        seat = claim.seat
        if approve and self.claimable(seat):
            self.seats[seat].token = new_token()  # the lost laptop's token opens nothing now
            self._changed([{"type": "claim_approved", "seat": seat}], save=True)
            claim.resolve(self.seats[seat].token)
        else:
            claim.resolve(None)
            self._changed([{"type": "claim_refused", "seat": seat}])

    def withdraw_claim(self, claim: Claim) -> None:
        """The claimant went away before the host decided."""
        if claim in self.claims:
            self.claims.remove(claim)
            self._changed([])

    def _drop_claim(self, claim: Claim) -> None:
        if claim in self.claims:
            self.claims.remove(claim)
        claim.resolve(None)

    # --- the host's choices -------------------------------------------------------------

    def choose_game(self, game_id: str) -> None:
        if self.phase == "playing":
            raise ProtocolError("game_running", "end the game first")
        if game_id not in GAMES:
            raise ProtocolError("no_game", f"unknown game {game_id!r}")
        if self.phase == "over":
            self.end()
        self.game_id = game_id
        self.options = self._default_options()
        game = GAMES[game_id]
        events: list[dict[str, Any]] = []
        if not game.bots:  # the bots go, each told (as a kick: the host's choice did it)
            bots = [i for i, s in enumerate(self.seats) if s.bot is not None]
            events = [{"type": "kicked", "seat": i, "name": self.seats[i].name} for i in bots]
            self._remove_seats(set(bots))
        for seat in self.seats:
            if seat.bot is not None and seat.bot not in game.bots:
                seat.bot = _standin_strength(game)
        self.phase = "lobby"
        self.play = None
        self._changed([*events, {"type": "game_chosen", "game": game_id}], save=True)

    def lobby_options(self) -> tuple[Option, ...]:
        """The options the lobby shows: the game's, then the room's."""
        game = self.game
        return (*(game.options if game else ()), *ROOM_OPTIONS)

    def set_option(self, key: str, value: Any) -> None:
        if self.phase == "playing":
            raise ProtocolError("game_running", "options change between games")
        option = next((o for o in self.lobby_options() if o.key == key), None)
        if option is None or value not in option.choices:
            raise ProtocolError("bad_option", f"{key} = {value!r}")
        target = self.room_options if option in ROOM_OPTIONS else self.options
        target[key] = value
        self._changed([{"type": "option", "key": key, "value": value}], save=True)

    def cycle_option(self, key: str, step: int = 1) -> None:
        option = next((o for o in self.lobby_options() if o.key == key), None)
        if option is None:
            raise ProtocolError("bad_option", key)
        current = {**self.options, **self.room_options}.get(key, option.default)
        index = option.choices.index(current) if current in option.choices else 0
        self.set_option(key, option.choices[(index + step) % len(option.choices)])

    def host_with(
        self, settings: HostSettings, *, grace: int | None = None, deck: str | None = None
    ) -> None:
        """How the host runs this table — its command's flags, over what a resumed table had
        saved — before it opens: the settings, the grace time, a group's own deck (checked
        by the caller). Saved with the next snapshot."""
        if grace is not None and grace not in GRACE.choices:
            raise ProtocolError("bad_option", f"grace = {grace!r}")  # (and nothing changed)
        self.settings = settings
        if grace is not None:
            self.room_options[GRACE.key] = grace
        if deck is not None:
            self.deck = deck

    def listening_on(self, port: int) -> None:
        """The port the table really got: saved at once, so that `--resume` comes back to it."""
        if self.settings.port != port:
            self.settings.port = port
            self.save_settings()

    def start(self, lang: str = "en", events: list[dict[str, Any]] | None = None) -> None:
        """The game begins with the seats there are; `events`: what the change says first."""
        game = self.game
        if game is None:
            raise ProtocolError("no_game", "choose a game first")
        if self.phase == "playing":
            raise ProtocolError("game_running", "a game is on")
        count = len(self.seats)
        if not game.min_players <= count <= game.max_players:
            raise ProtocolError(
                "player_count", f"{game.id} is for {game.min_players} to {game.max_players}"
            )
        self.options.setdefault("lang", lang)
        if self.deck and game.takes_deck:
            self.options["deck"] = self.deck
        self.players = count
        self.play = Play(game, [s.name for s in self.seats], self.options, self.rng)
        self._journaled = 0
        self.phase = "playing"
        for seat, who in enumerate(self.seats):  # away since the lobby: the grace starts now
            if who.human and not who.connected:
                who.away_since = who.away_since or self.clock()
                self._start_grace(seat)
        events = [*(events or ()), {"type": "game_started", "game": game.id}]
        events += self.play.run_chance()
        self._after_game_move(events, save=True)

    def end(self) -> None:
        """Back to the lobby, everybody still seated (but those who left)."""
        self._back_to_lobby()
        self._changed([{"type": "game_ended"}], save=True)

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
        if not game.min_players <= self.staying() <= game.max_players:
            raise ProtocolError(
                "player_count", f"{game.id} is for {game.min_players} to {game.max_players}"
            )
        self._back_to_lobby()
        self.start(lang, events=[{"type": "game_ended", "again": True}])

    def _back_to_lobby(self) -> None:
        self._cancel_timers()
        self.phase = "lobby"
        self.play = None
        self.players = 0
        self._journaled = 0
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
        if not 0 <= seat < self.players:
            raise IllegalAction("not_playing", "illegal.not_playing")
        if action.get("type") in ("chance", "timeout", "away", "back"):
            raise IllegalAction("not_yours", "illegal.not_yours")
        events = play.act(seat, action, made_at, self.version)
        self._after_game_move(events)
        return events

    def _host_move(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A move of the HOST seat; games may refuse moves they don't care about."""
        return self.play.host_move(action) if self.play is not None else []

    def _after_game_move(self, events: list[dict[str, Any]], *, save: bool = False) -> None:
        if self.result() is not None and self.phase == "playing":
            self.phase = "over"
            self.graces.cancel_all()
            events = [*events, {"type": "game_over", "result": self.result()}]
        self._changed(events, save=save)

    def _changed(self, events: list[dict[str, Any]], *, save: bool = False) -> None:
        """Every change ends here. `save`: the room itself changed (seats, tokens, options),
        so the save file starts afresh with a snapshot; else the change is appended."""
        if self._presence_flush is not None:
            self._presence_flush.cancel()
            self._presence_flush = None
        events, self._pending_events = [*self._pending_events, *events], []
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

    def _start_grace(self, seat: int) -> None:
        self.graces.start(seat, self.grace)

    def _grace_over(self, seat: int) -> None:
        if not self._plays(seat) or self.seats[seat].connected or self.seats[seat].leaving:
            return
        game = self.game
        if game is not None and game.bots:
            self.seats[seat].standin = True
            self._changed([{"type": "stand_in", "seat": seat}])
            return
        events = [{"type": "sits_out", "seat": seat}]
        events += _without_presence(self._host_move({"type": "away", "seat": seat}))
        self._after_game_move(events)

    # --- clocks -------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        game = self.game
        spec = game.timer(self.state) if self.phase == "playing" and game else None
        humans = [s for s in self.seats[: self.players] if s.bot is None]
        back = not humans or any(s.connected for s in humans)
        self.countdown.arm(spec, players_back=back)

    def _journal_clock(self, action: dict[str, Any], left: float) -> None:
        if self.journal is not None:
            self.journal.append({"kind": "clock", "for": action, "left": left})

    def _timeout(self, action: dict[str, Any]) -> None:
        events = self._host_move(action)
        self._after_game_move(events)

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
            index: seat.bot or (_standin_strength(game) if seat.standin and anyone else None)
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
        self.bots.forget_all()
        self.graces.cancel_all()

    def close(self) -> None:
        """Stop the clocks and wait for the last save. Changes after this (connections
        closing as the host shuts down) are not saved: a resume marks everyone away anyway."""
        self._cancel_timers()
        if self._presence_flush is not None:
            self._presence_flush.cancel()
        self._listeners.clear()
        for claim in list(self.claims):
            self._drop_claim(claim)
        if self.journal is not None:
            self.journal.close()

    def start_clocks(self) -> None:
        """Arm the timer, the grace times and the bots of a resumed room, once a loop runs."""
        for seat in range(len(self.seats)):
            if self._plays(seat) and not self.seats[seat].connected:
                self.seats[seat].away_since = self.clock()
                held = self.play is not None and seat in self.play.held_away
                if not self.seats[seat].leaving and not held:
                    self._start_grace(seat)
        self._track_moments()
        self._arm_timer()
        self._schedule_bots()

    # --- the save file ------------------------------------------------------------------

    def _default_options(self) -> dict[str, Any]:
        game = self.game
        return {o.key: o.default for o in game.options} if game else {}

    def snapshot(self) -> dict[str, Any]:
        clock = self.countdown.saved()
        return {
            "kind": "snapshot",
            "format": SAVE_FORMAT,
            "protocol": PROTOCOL_VERSION,
            "name": self.name,
            "room_id": self.room_id,
            "code": self.code,
            "game": self.game_id,
            "options": self.options,
            "room_options": self.room_options,
            "host": asdict(self.settings),
            "seats": [
                {"name": s.name, "token": s.token, "bot": s.bot, "leaving": s.leaving}
                for s in self.seats
            ],
            "phase": self.phase,
            "players": self.players,
            "version": self.version,
            "log": self.log,
            "history": list(self.history),
            "clock": clock,
        }

    def _journal(self, events: list[dict[str, Any]], *, snapshot: bool) -> None:
        if self.journal is None:
            return
        if snapshot:
            self.journal.snapshot(self.snapshot())
        else:
            record = {
                "kind": "change",
                "version": self.version,
                "log": self.log[self._journaled :],
                "events": events,
            }
            self.journal.append(record)
        self._journaled = len(self.log)

    def save_settings(self) -> None:
        """The host's settings or the code changed (the port it really got, a longer code): a
        new snapshot."""
        if self.journal is not None:
            self.journal.snapshot(self.snapshot())
            self._journaled = len(self.log)

    def flush(self) -> None:
        """Wait until every change so far is on disk."""
        if self.journal is not None:
            self.journal.flush()

    @property
    def save_problem(self) -> str | None:
        """Why the table cannot be saved right now, or None."""
        return self.journal.failing if self.journal is not None else None

    @classmethod
    def resume(cls, save_path: Path, rng: random.Random | None = None) -> Room:
        """The room as it was saved: seats with their tokens, the game replayed from its log,
        the timer with the time it had left, the history. Any damage is a ResumeError that
        names the file and what is wrong — never another exception."""
        try:
            saved = read_save(save_path)
        except SaveFileError as exc:
            raise ResumeError(f"{save_path}: {exc}") from exc
        return cls._rebuild(save_path, saved, rng)

    @classmethod
    def _rebuild(cls, save_path: Path, saved: dict[str, Any], rng: random.Random | None) -> Room:
        room = cls(
            saved["name"],
            game_id=saved["game"],
            open_room=saved["code"] is None,
            code=saved["code"],
            room_id=saved["room_id"],
            rng=rng,
            settings=HostSettings(**saved["host"]),
        )
        if saved["game"] is not None and room.game_id != saved["game"]:
            raise ResumeError(f"{save_path}: the saved game {saved['game']!r} is not installed")
        room.options = saved["options"]
        room.room_options.update(saved["room_options"])
        room.version = saved["version"] + 1  # views keep growing across the restart
        room.seats = [Seat(**seat) for seat in saved["seats"]]
        room.players = saved["players"]
        room.history.extend(saved["history"])
        if saved["phase"] != "lobby":
            room._replay(save_path, saved["log"])
            room.phase = "over" if room.result() is not None else "playing"
            if saved["clock"] is not None:
                room.countdown.resumed = (saved["clock"]["for"], saved["clock"]["left"])
        room.save_path = save_path
        room.journal = Journal(save_path)  # the file goes on: new changes are appended
        room.journal.open()
        room._journaled = len(room.log)
        return room

    def _replay(self, save_path: Path, entries: list[list[Any]]) -> None:
        names = [s.name for s in self.seats[: self.players]]
        try:
            self.play = Play.replayed(self.game, names, self.options, self.rng, entries)
        except ReplayError as exc:
            raise ResumeError(f"{save_path}: {exc}") from exc


def _standin_strength(game: Game) -> str:
    return "normal" if "normal" in game.bots else next(iter(game.bots))


def _without_presence(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's own echo of away/back: the room has already said so."""
    return [e for e in events if e.get("type") not in ("away", "back")]


class ResumeError(Exception):
    """A save file that can't bring the table back; the message says why."""
