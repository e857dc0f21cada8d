"""The room written to its save file as the evening goes, and read back by `--resume`.

A change to the room itself (seats, tokens, code, options, a game begun or ended) writes a new
snapshot; a move appends only its log entries and public events (`change`), and a running
timer's time left is appended as `clock`. The file's format, its journal and its checks are
`net.savefile`'s; this module knows which parts of a room are saved and how a room is rebuilt
from them: seats with their tokens, the game replayed from its log, the timer with the time it
had left, the history.
"""

from __future__ import annotations

import random
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from net.play import Play, ReplayError
from net.protocol import PROTOCOL_VERSION
from net.savefile import SAVE_FORMAT, Journal, SaveFileError, read_save
from net.seats import HostSettings, Seat

if TYPE_CHECKING:
    from net.room import Room


class ResumeError(Exception):
    """A save file that can't bring the table back; the message says why."""


def snapshot_of(room: Room) -> dict[str, Any]:
    """Everything a resumed host needs of `room`, its game as the log that replays it."""
    return {
        "kind": "snapshot",
        "format": SAVE_FORMAT,
        "protocol": PROTOCOL_VERSION,
        "name": room.name,
        "room_id": room.room_id,
        "code": room.code,
        "game": room.game_id,
        "options": room.options,
        "game_options": room.kept_options,  # (read by older versions as nothing)
        "room_options": room.room_options,
        "host": asdict(room.settings),
        "seats": [
            {"name": s.name, "token": s.token, "bot": s.bot, "leaving": s.leaving, "mark": s.mark}
            for s in room.seats
        ],
        "phase": room.phase,
        "players": room.players,
        "version": room.version,
        "log": room.log,
        "history": list(room.history),
        "clock": room.countdown.saved(),
    }


class Saving:
    """One room's save file, written as the room changes."""

    def __init__(self, path: Path, *, appending: bool = False) -> None:
        self.path = path
        self.journal = Journal(path)
        if appending:  # a resumed room: the file goes on, new changes are appended
            self.journal.open()
        self.written = 0
        """How much of the game's log the file has."""

    def snapshot(self, room: Room) -> None:
        self.journal.snapshot(snapshot_of(room))
        self.written = len(room.log)

    def change(self, room: Room, events: list[dict[str, Any]]) -> None:
        log = room.log
        record = {"kind": "change", "version": room.version, "log": log[self.written :]}
        self.journal.append({**record, "events": events})
        self.written = len(log)

    def clock(self, action: dict[str, Any], left: float) -> None:
        self.journal.append({"kind": "clock", "for": action, "left": left})

    @property
    def problem(self) -> str | None:
        """Why the table cannot be saved right now, or None."""
        return self.journal.failing


def resumed(room_type: type[Room], path: Path, rng: random.Random | None) -> Room:
    """The room `path` saved. Any damage is a ResumeError that names the file and what is
    wrong — never another exception."""
    try:
        saved = read_save(path)
    except SaveFileError as exc:
        raise ResumeError(f"{path}: {exc}") from exc
    room = room_type(
        saved["name"],
        game_id=saved["game"],
        open_room=saved["code"] is None,
        code=saved["code"],
        room_id=saved["room_id"],
        rng=rng,
        settings=HostSettings(**saved["host"]),
    )
    game = room.game
    if saved["game"] is not None and room.game_id != saved["game"]:
        raise ResumeError(f"{path}: the saved game {saved['game']!r} is not installed")
    room.options = saved["options"]
    room.kept_options = saved.get("game_options", {})
    room.room_options.update(saved["room_options"])
    room.version = saved["version"] + 1  # views keep growing across the restart
    room.seats = [Seat(**({"mark": i} | seat)) for i, seat in enumerate(saved["seats"])]
    room.players = saved["players"]
    room.history.extend(saved["history"])
    room.recent.extend(saved["story"])  # a player back after the restart hears the story
    if saved["phase"] != "lobby" and game is not None:
        names = [s.name for s in room.seats[: room.players]]
        try:
            room.play = Play.replayed(game, names, room.options, room.rng, saved["log"])
        except ReplayError as exc:
            raise ResumeError(f"{path}: {exc}") from exc
        room.phase = "over" if room.result() is not None else "playing"
        if saved["clock"] is not None:
            room.countdown.resumed = (saved["clock"]["for"], saved["clock"]["left"])
            room.turns.resumed(saved["clock"]["for"], saved["clock"]["left"])
    room.resumed = True
    room.save_path = path
    room.saving = Saving(path, appending=True)
    room.saving.written = len(room.log)
    return room
