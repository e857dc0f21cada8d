"""The host's room: seats, the lobby, the game being played, its timers, bots and save file.

The room is the single writer of the game state. Every change — a player's action, a chance
move, a timeout, someone leaving — goes through `_commit`, which logs it, saves the log,
runs pending chance moves, re-arms the game's timer and the bots' moves, and tells the
subscribers (the server, which sends each seat its own view, and the host's table screen).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import random
import secrets
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import msgpack

from games import CHANCE, GAMES, HOST, Game, IllegalAction
from games.base import sample_chance
from net.protocol import PROTOCOL_VERSION, ProtocolError, check_name, clean_text

log = logging.getLogger(__name__)

SAVE_FORMAT = 1
MAX_SEATS = 12
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: they read as 1 and 0


@dataclass
class Seat:
    name: str
    token: str
    bot: str | None = None  # the bot's strength, for a seat the host plays itself
    connected: bool = False
    kicked: bool = False  # taken away mid-game: the seat goes when the table returns to the lobby

    @property
    def present(self) -> bool:
        return self.connected or self.bot is not None


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(4))


Listener = Callable[[list[dict[str, Any]]], None]
Renumbering = Callable[[dict[int, int]], None]


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
    ) -> None:
        self.name = clean_text(name, 40) or "hubbub"
        self.room_id = room_id or secrets.token_hex(6)
        self.code: str | None = None if open_room else (code or new_code())
        self.game_id = game_id if game_id in GAMES else next(iter(GAMES), None)
        self.options: dict[str, Any] = self._default_options()
        self.seats: list[Seat] = []
        self.phase = "lobby"  # "lobby" | "playing" | "over"
        self.players = 0  # how many seats play the current game (the first ones)
        self.state: Any = None
        self.log: list[list[Any]] = []
        self.version = 0
        self.save_path = save_path
        self._saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hubbub-save")
        self._save_lock = threading.Lock()
        self._unsaved: bytes | None = None
        self._save_queued = False
        self._closed = False
        self.rng = rng or random.Random(secrets.randbits(64))
        self._listeners: list[Listener] = []
        self._renumberers: list[Renumbering] = []
        self._timer: asyncio.TimerHandle | None = None
        self._timer_action: dict | None = None
        self.timer_deadline: float | None = None  # loop time the current countdown ends
        self._bot_moves: dict[int, tuple[dict, asyncio.TimerHandle, float]] = {}  # move, when
        self._bots: dict[int, Any] = {}
        self.bot_pace = bot_pace  # multiplies the bots' human-like delays; tests speed them up
        self.deck = deck  # a group's own deck file, for the games that take one

    # --- reading ------------------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return GAMES.get(self.game_id) if self.game_id else None

    def seat_of_token(self, token: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.bot is None and secrets.compare_digest(seat.token, token):
                return index
        return None

    def in_game(self, seat: int) -> bool:
        """Whether `seat` plays the game on the table (or just finished); such a seat keeps
        its index until the table goes back to the lobby."""
        return seat < self.players and self.phase in ("playing", "over")

    def summary(self) -> dict[str, Any]:
        """The room as everybody may see it (no tokens, no code)."""
        return {
            "name": self.name,
            "id": self.room_id,
            "phase": self.phase,
            "game": self.game_id,
            "options": dict(self.options),
            "needs_code": self.code is not None,
            "players": self.players,
            "seats": [{"name": s.name, "connected": s.connected, "bot": s.bot} for s in self.seats],
            "timer_seconds": self._timer_seconds(),
        }

    def game_view(self, seat: int | None) -> dict | None:
        """What `seat` may know of the game: its own view if it plays, else the table's."""
        game = self.game
        if self.state is None or game is None:
            return None
        plays = seat is not None and seat < self.players
        return game.view(self.state, seat if plays else None)

    def result(self) -> dict | None:
        game = self.game
        return game.result(self.state) if game and self.state is not None else None

    def _timer_seconds(self) -> float | None:
        if self.timer_deadline is None:
            return None
        with contextlib.suppress(RuntimeError):
            return max(0.0, self.timer_deadline - asyncio.get_running_loop().time())
        return None

    # --- subscribers --------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_renumber(self, renumber: Renumbering) -> None:
        """Be told {old seat: new seat} before subscribers hear of a change that removed
        seats; a seat missing from the map is gone."""
        self._renumberers.append(renumber)

    def _remove_seats(self, gone: set[int]) -> None:
        mapping, kept = {}, []
        for index, seat in enumerate(self.seats):
            if index not in gone:
                mapping[index] = len(kept)
                kept.append(seat)
        self.seats = kept
        self._bots.clear()
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
        """A new player takes a seat. Raises ProtocolError with the reason it can't."""
        if self.code is not None and (code or "").strip().upper() != self.code:
            raise ProtocolError("bad_code", "the room code is wrong")
        name = check_name(name)
        if any(s.name.casefold() == name.casefold() for s in self.seats):
            raise ProtocolError("name_taken", f"someone at the table is already called {name}")
        if len(self.seats) >= MAX_SEATS:
            raise ProtocolError("room_full", f"the table has {MAX_SEATS} seats")
        self.seats.append(Seat(name=name, token=new_token()))
        self._changed([{"type": "joined", "seat": len(self.seats) - 1, "name": name}])
        return len(self.seats) - 1

    def connected(self, seat: int, *, returning: bool) -> None:
        self.seats[seat].connected = True
        events = [{"type": "back", "seat": seat}] if returning else []
        if returning and seat < self.players and self.phase == "playing":
            events += _without_presence(self._host_move({"type": "back", "seat": seat}))
        self._changed(events)

    def disconnected(self, seat: int) -> None:
        if seat >= len(self.seats) or not self.seats[seat].connected:
            return
        self.seats[seat].connected = False
        events = [{"type": "away", "seat": seat}]
        if seat < self.players and self.phase == "playing":
            events += _without_presence(self._host_move({"type": "away", "seat": seat}))
        self._changed(events)

    def leave(self, seat: int) -> None:
        """A player who says goodbye outside a game gives the seat up (in a game it waits)."""
        if 0 <= seat < len(self.seats) and not self.in_game(seat):
            name = self.seats[seat].name
            self._remove_seats({seat})
            self._changed([{"type": "left", "seat": seat, "name": name}])

    def add_bot(self, strength: str | None = None, name_prefix: str = "Bot") -> int:
        game = self.game
        if self.phase != "lobby" or game is None or not game.bots:
            raise ProtocolError("no_bots", "this game has no bots")
        if strength not in game.bots:
            strength = "normal" if "normal" in game.bots else next(iter(game.bots))
        if len(self.seats) >= MAX_SEATS:
            raise ProtocolError("room_full", f"the table has {MAX_SEATS} seats")
        taken = {s.name for s in self.seats}
        number = 1
        while f"{name_prefix} {number}" in taken:
            number += 1
        name = f"{name_prefix} {number}"
        self.seats.append(Seat(name=name, token=new_token(), bot=strength))
        self._changed([{"type": "joined", "seat": len(self.seats) - 1, "name": name}])
        return len(self.seats) - 1

    def kick(self, seat: int) -> None:
        """Take a seat away. In the lobby the seat is gone; mid-game a bot plays it if the game
        has bots, else it stays empty (and away) until the game ends."""
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("no_seat", "there is no such seat")
        name = self.seats[seat].name
        events: list[dict[str, Any]] = [{"type": "kicked", "seat": seat, "name": name}]
        if not self.in_game(seat):
            self._remove_seats({seat})
            self._changed(events)
            return
        victim = self.seats[seat]
        victim.token = new_token()  # whoever held the old one can't come back
        victim.connected = False
        victim.kicked = True
        game = self.game
        if game is not None and game.bots:
            victim.bot = next(iter(game.bots))
            events.append({"type": "bot_takes_over", "seat": seat})
        else:
            events += self._host_move({"type": "away", "seat": seat})
        self._changed(events)

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
        if not game.bots:
            self._remove_seats({i for i, s in enumerate(self.seats) if s.bot is not None})
        for seat in self.seats:
            if seat.bot is not None and seat.bot not in game.bots:
                seat.bot = next(iter(game.bots))
        self.phase = "lobby"
        self.state = None
        self._changed([{"type": "game_chosen", "game": game_id}])

    def set_option(self, key: str, value: Any) -> None:
        game = self.game
        if self.phase == "playing" or game is None:
            raise ProtocolError("game_running", "options change between games")
        option = next((o for o in game.options if o.key == key), None)
        if option is None or value not in option.choices:
            raise ProtocolError("bad_option", f"{key} = {value!r}")
        self.options[key] = value
        self._changed([{"type": "option", "key": key, "value": value}])

    def cycle_option(self, key: str, step: int = 1) -> None:
        game = self.game
        option = next((o for o in game.options if o.key == key), None) if game else None
        if option is None:
            raise ProtocolError("bad_option", key)
        current = self.options.get(key, option.default)
        index = option.choices.index(current) if current in option.choices else 0
        self.set_option(key, option.choices[(index + step) % len(option.choices)])

    def start(self, lang: str = "en") -> None:
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
        if self.deck and hasattr(game, "check_deck"):
            self.options["deck"] = self.deck
        self.players = count
        self.state = game.setup([s.name for s in self.seats], copy.deepcopy(self.options))
        self.log = []
        self.phase = "playing"
        events = [{"type": "game_started", "game": game.id}]
        events += self._run_chance()
        for seat, who in enumerate(self.seats):  # the game hears who isn't here, from the start
            if not who.present:
                events += _without_presence(self._host_move({"type": "away", "seat": seat}))
        self._after_game_move(events)

    def end(self) -> None:
        """Back to the lobby, everybody still seated."""
        self._cancel_timers()
        self.phase = "lobby"
        self.state = None
        self.players = 0
        self.log = []
        self._remove_seats({i for i, s in enumerate(self.seats) if s.kicked})
        self._changed([{"type": "game_ended"}])

    # --- moves --------------------------------------------------------------------------

    def act(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A seat's action, validated by the game. Raises IllegalAction; the state is then
        unchanged and nothing is logged."""
        game = self.game
        if self.phase != "playing" or game is None or self.state is None:
            raise IllegalAction("no_game", "illegal.no_game")
        if not 0 <= seat < self.players:
            raise IllegalAction("not_playing", "illegal.not_playing")
        if action.get("type") in ("chance", "timeout", "away", "back"):
            raise IllegalAction("not_yours", "illegal.not_yours")
        events = game.apply(self.state, seat, action)
        self.log.append([seat, action])
        events += self._run_chance()
        self._after_game_move(events)
        return events

    def _host_move(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A move of the HOST seat; games may refuse moves they don't care about."""
        game = self.game
        if game is None or self.state is None:
            return []
        try:
            events = game.apply(self.state, HOST, action)
        except IllegalAction:
            return []
        self.log.append([HOST, action])
        return events + self._run_chance()

    def _run_chance(self) -> list[dict[str, Any]]:
        game = self.game
        events: list[dict[str, Any]] = []
        while game is not None and (spec := game.chance(self.state)) is not None:
            action = {"type": "chance", "outcome": sample_chance(spec, self.rng)}
            events += game.apply(self.state, CHANCE, action)
            self.log.append([CHANCE, action])
        return events

    def _after_game_move(self, events: list[dict[str, Any]]) -> None:
        if self.result() is not None and self.phase == "playing":
            self.phase = "over"
            events = [*events, {"type": "game_over", "result": self.result()}]
        self._changed(events)

    def _changed(self, events: list[dict[str, Any]]) -> None:
        # Views go out before the save, and the save itself runs on a thread: an fsync costs
        # milliseconds (docs/PERFORMANCE.md) and no screen should wait for the disk.
        self.version += 1
        self._arm_timer()
        self._notify(events)
        self._save()
        self._schedule_bots()

    # --- clocks -------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        game = self.game
        spec = game.timer(self.state) if self.phase == "playing" and game else None
        if spec is None:
            self._cancel_timer()
            return
        seconds, action = spec
        if self._timer is not None and action == self._timer_action:
            return  # the same countdown goes on
        self._cancel_timer()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a synchronous test): timers are applied by hand
        self._timer_action = action
        self._timer = loop.call_later(seconds, self._timeout, action)
        self.timer_deadline = loop.time() + seconds

    def _timeout(self, action: dict[str, Any]) -> None:
        self._timer = None
        self._timer_action = None
        self.timer_deadline = None
        events = self._host_move(action)
        self._after_game_move(events)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_action = None
        self.timer_deadline = None

    def _schedule_bots(self) -> None:
        game = self.game
        if self.phase != "playing" or game is None:
            self._cancel_bots()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for index in range(self.players):
            strength = self.seats[index].bot
            if strength is None:
                self._cancel_bot(index)
                continue
            bot = self._bots.get(index)
            if bot is None:
                bot = self._bots[index] = game.bots[strength]()
            # a game may tell its bots more than the seat's view (never sent anywhere)
            see = getattr(game, "bot_view", game.view)
            plan = bot.act(see(self.state, index), index, self.rng)
            scheduled = self._bot_moves.get(index)
            if plan is None:
                self._cancel_bot(index)
                continue
            delay = plan[0] * self.bot_pace
            due = loop.time() + delay
            # a new move, or the same one sooner (the bot need not wait for what it was waiting
            # for any more): plan again; else the move keeps its time
            if scheduled is None or scheduled[0] != plan[1] or due < scheduled[2] - 0.5:
                self._cancel_bot(index)
                handle = loop.call_later(delay, self._bot_act, index, plan[1])
                self._bot_moves[index] = (plan[1], handle, due)

    def _bot_act(self, seat: int, action: dict[str, Any]) -> None:
        self._bot_moves.pop(seat, None)
        try:
            self.act(seat, action)
        except IllegalAction as exc:
            log.debug("bot %s: a %r action refused: %s", seat, action.get("type"), exc.code)
            self._schedule_bots()

    def _cancel_bot(self, index: int) -> None:
        scheduled = self._bot_moves.pop(index, None)
        if scheduled is not None:
            scheduled[1].cancel()

    def _cancel_bots(self) -> None:
        for index in list(self._bot_moves):
            self._cancel_bot(index)
        self._bots.clear()

    def _cancel_timers(self) -> None:
        self._cancel_timer()
        self._cancel_bots()

    def close(self) -> None:
        """Stop the clocks and wait for the last save. Changes after this (connections
        closing as the host shuts down) are not saved: a resume marks everyone away anyway."""
        self._cancel_timers()
        self._listeners.clear()
        self._closed = True
        self._saver.shutdown(wait=True)

    # --- the save file ------------------------------------------------------------------

    def _default_options(self) -> dict[str, Any]:
        game = self.game
        return {o.key: o.default for o in game.options} if game else {}

    def snapshot(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "protocol": PROTOCOL_VERSION,
            "name": self.name,
            "room_id": self.room_id,
            "code": self.code,
            "game": self.game_id,
            "options": self.options,
            "seats": [asdict(s) | {"connected": False} for s in self.seats],
            "phase": self.phase,
            "players": self.players,
            "version": self.version,
            "log": self.log,
        }

    def _save(self) -> None:
        """Hand the room to the saver thread. The snapshot is taken here, in order; the disk
        work (an fsync costs milliseconds) never holds up the event loop. A burst of changes
        is written once, as its latest state."""
        if self.save_path is None or self._closed:
            return
        data = msgpack.packb(self.snapshot(), use_bin_type=True)
        with self._save_lock:
            self._unsaved = data
            if self._save_queued:
                return
            self._save_queued = True
        self._saver.submit(self._write_unsaved)

    def _write_unsaved(self) -> None:
        with self._save_lock:
            data, self._unsaved, self._save_queued = self._unsaved, None, False
        if data is None or self.save_path is None:
            return
        try:
            write_atomically(self.save_path, data)
        except OSError:
            log.exception("cannot save the room to %s", self.save_path)

    def flush(self) -> None:
        """Wait until every change so far is on disk."""
        self._saver.submit(lambda: None).result()

    @classmethod
    def resume(cls, save_path: Path, rng: random.Random | None = None) -> Room:
        """The room as it was saved: seats with their tokens, the game replayed from its log."""
        try:
            data = msgpack.unpackb(save_path.read_bytes(), raw=False, strict_map_key=False)
        except (OSError, ValueError, msgpack.UnpackException) as exc:
            raise ResumeError(f"cannot read {save_path}: {exc}") from exc
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ResumeError(f"{save_path} is not a hubbub save file of this version")
        room = cls(
            data["name"],
            game_id=data["game"],
            open_room=data["code"] is None,
            code=data["code"],
            room_id=data["room_id"],
            save_path=save_path,
            rng=rng,
        )
        if data["game"] and data["game"] not in GAMES:
            raise ResumeError(f"the saved game {data['game']!r} is not installed")
        room.options = data["options"]
        room.version = data.get("version", 0) + 1  # views keep growing across the restart
        room.seats = [Seat(**seat) for seat in data["seats"]]
        room.players = data["players"]
        if data["phase"] != "lobby" and room.game is not None:
            game = room.game
            room.state = game.setup([s.name for s in room.seats[: room.players]], room.options)
            try:
                for seat, action in data["log"]:
                    game.apply(room.state, seat, action)
            except IllegalAction as exc:
                raise ResumeError(f"the saved log does not replay: {exc.code}") from exc
            room.log = data["log"]
            room.phase = data["phase"]
            # everybody is away until they reconnect; the game hears it like any drop
            for seat in range(room.players):
                if room.seats[seat].bot is None:
                    room._host_move({"type": "away", "seat": seat})
        return room

    def start_clocks(self) -> None:
        """Arm the timer and the bots of a resumed room, once an event loop runs."""
        self._arm_timer()
        self._schedule_bots()


def write_atomically(path: Path, data: bytes) -> None:
    """A crash leaves the old file or the new one, never half of either."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".room-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _without_presence(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's own echo of away/back: the room has already said so."""
    return [e for e in events if e.get("type") not in ("away", "back")]


class ResumeError(Exception):
    """A save file that can't bring the table back; the message says why."""
