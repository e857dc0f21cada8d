"""The lobby's half of a room: who sits at the table, the room code, the claims on away seats,
the game chosen and its options — what outlives a game (and a host: `--resume` brings it
back). `net.room.Room` is a Lobby that also runs the game; every change here ends in its
`_changed`, which numbers, saves and tells it.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable
from typing import Any

from games import GAMES, Game
from games.base import Option
from net.protocol import CODE_LENGTH, LONG_CODE_LENGTH, ProtocolError, check_name, clean_text
from net.seats import (
    GRACE,
    MAX_SEATS,
    ROOM_OPTIONS,
    Claim,
    HostSettings,
    Seat,
    free_mark,
    new_code,
    new_token,
)


class Lobby:
    """Seats keep their index for the whole game; the lobby may reorder them."""

    phase: str

    def __init__(
        self,
        name: str,
        *,
        game_id: str | None,
        code: str | None,
        room_id: str | None,
        settings: HostSettings | None,
        deck: str | None,
    ) -> None:
        self.name = clean_text(name, 40) or "hubbub"
        self.room_id = room_id or secrets.token_hex(6)
        self.code = code
        self.game_id = game_id if game_id in GAMES else next(iter(GAMES), None)
        self.options: dict[str, Any] = self._default_options()
        self.kept_options: dict[str, dict[str, Any]] = {}
        """The options of the evening's other games as the host left them, by game id: `g`
        cycling away and back finds them as they were (`choose_game`); saved for `--resume`."""
        self.room_options: dict[str, Any] = {o.key: o.default for o in ROOM_OPTIONS}
        self.settings = settings or HostSettings()
        self.deck = deck  # a group's own deck file, for the games that take one
        self.seats: list[Seat] = []
        self.claims: list[Claim] = []
        self._claim_ids = itertools.count(1)

    def _changed(self, events: list[dict[str, Any]], *, save: bool = False) -> None:
        raise NotImplementedError  # the room's: numbered, journaled, told

    def save_settings(self) -> None:
        raise NotImplementedError  # the room's: a new snapshot

    @property
    def game(self) -> Game | None:
        return GAMES.get(self.game_id) if self.game_id else None

    @property
    def grace(self) -> float:
        return self.room_options.get(GRACE.key, GRACE.default)

    def _default_options(self) -> dict[str, Any]:
        game = self.game
        return {o.key: o.default for o in game.options} if game else {}

    # --- seats --------------------------------------------------------------------------

    def seat_of_token(self, token: str) -> int | None:
        given = token.encode("utf-8", "surrogatepass") if isinstance(token, str) else b""
        for index, seat in enumerate(self.seats):
            if seat.human and secrets.compare_digest(seat.token.encode(), given):
                return index
        return None

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
        self.seats.append(Seat(name=name, token=new_token(), mark=free_mark(self.seats)))
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

    def add_bot(self, strength: str | None = None, name_prefix: str = "Bot") -> int:
        game = self.game
        if self.phase != "lobby" or game is None or not game.bots:
            raise ProtocolError("no_bots", "this game has no bots")
        if strength not in game.bots:
            strength = standin_strength(game)
        if len(self.seats) >= min(MAX_SEATS, game.max_players):
            raise ProtocolError("game_full", f"{game.id} is for at most {game.max_players}")
        taken = {s.name for s in self.seats}
        number = 1
        while f"{name_prefix} {number}" in taken:
            number += 1
        name = f"{name_prefix} {number}"
        mark = free_mark(self.seats)
        self.seats.append(Seat(name=name, token=new_token(), bot=strength, mark=mark))
        self._changed([{"type": "joined", "seat": len(self.seats) - 1, "name": name}], save=True)
        return len(self.seats) - 1

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

    def _drop_claims(self, seat: int) -> None:
        for claim in [c for c in self.claims if c.seat == seat]:
            self._drop_claim(claim)

    def _renumber_claims(self, mapping: dict[int, int]) -> None:
        """Seats left the lobby: {old: new}, a seat not in it gone (and its claims)."""
        for claim in list(self.claims):
            if claim.seat in mapping:
                claim.seat = mapping[claim.seat]
            else:
                self._drop_claim(claim)

    # --- the host's choices -------------------------------------------------------------

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

    def cycle_option(self, key: str, step: int = 1) -> bool:
        """The option's next (or previous) choice; whether it changed: a scale of numbers
        stops at its ends (`Option.ordered`), other choices go round."""
        option = next((o for o in self.lobby_options() if o.key == key), None)
        if option is None:
            raise ProtocolError("bad_option", key)
        current = {**self.options, **self.room_options}.get(key, option.default)
        index = option.choices.index(current) if current in option.choices else 0
        if option.ordered and not 0 <= index + step < len(option.choices):
            return False
        self.set_option(key, option.choices[(index + step) % len(option.choices)])
        return True

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


def standin_strength(game: Game) -> str:
    """The bot that plays a seat whose player is away or gone."""
    return "normal" if "normal" in game.bots else next(iter(game.bots))
