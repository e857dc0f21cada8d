"""The host's save file: a snapshot of the room, then a journal of every change since.

The file is a run of records, each a 4-byte big-endian length and one msgpack map. The first
record is a snapshot (`{"kind": "snapshot", ...}`: seats, tokens, options, the game's log so
far); every change after it is appended as a small record (`change`: the log entries and public
events of one change; `clock`: how long the running timer has left). So saving a move costs the
same at the thousandth move as at the first, and a record is handed to the operating system
(`os.write`) before any view of that change goes out: a host that is killed loses nothing a
player has seen. The fsync runs on a thread, off the event loop, at most every
`SYNC_INTERVAL` (a burst of moves is synced once: a power cut loses at most that much).

A new snapshot replaces the file atomically (a temporary file, then `os.replace`); if that
cannot be done (no file handles left, a full disk), the snapshot is appended as a record of
its own instead — the reader always starts from the last snapshot in the file.

Reading it back (`read_save`, for `--resume`) checks every field of the snapshot and of each
record — its type, its range, that the game, its options, bots and phase exist — so a damaged
file is one `SaveFileError` naming what is wrong; the room then replays the game's log.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import struct
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack

from games import GAMES, Game
from net.protocol import CODE_LENGTH, LONG_CODE_LENGTH, ProtocolError, check_name, clean_text
from net.seats import CODE_LETTERS, HISTORY_KEEP, LANGS, MAX_BLOCKED, MAX_SEATS, ROOM_OPTIONS

log = logging.getLogger(__name__)

_HEADER = struct.Struct(">I")
MAX_RECORD = 64 * 1024 * 1024
SYNC_INTERVAL = 0.05  # seconds between fsyncs at most
STORY_TAIL = 20
"""Events of a snapshot's history a resumed room tells as the change the snapshot was."""
TEMP_PREFIX = ".room-"
TEMP_SUFFIX = ".tmp"


def write_atomically(
    path: Path, data: bytes, *, mode: int | None = None, sync: bool = True
) -> None:
    """A crash leaves the old file or the new one, never half of either. `mode` sets the new
    file's permissions before it takes the old one's place (tokens: 0o600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def remove_stray_temp_files(folder: Path) -> int:
    """Temporary files a killed host left behind (it never got to rename them)."""
    removed = 0
    with contextlib.suppress(OSError):
        for stray in folder.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
            with contextlib.suppress(OSError):
                stray.unlink()
                removed += 1
    return removed


def frame(record: dict[str, Any]) -> bytes:
    body = msgpack.packb(record, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


class Journal:
    """Appends records to the save file; one per room. Not thread-safe: call it from the
    event loop (the fsync thread only reads which descriptor is current)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._sync = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hubbub-fsync")
        self._sync_lock = threading.Lock()
        self._sync_queued = False
        self._synced = 0.0  # when the last fsync ended (time.monotonic)
        self.failing: str | None = None  # why the last write failed, until one succeeds
        self.closed = False
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stray_temp_files(path.parent)

    def snapshot(self, record: dict[str, Any]) -> None:
        """Start the file afresh with this snapshot (or append it, if a fresh file can't be
        had). The new file's descriptor is the journal's from then on: it is opened before
        the old one is let go, so the journal is never without one (a host out of file
        handles still saves)."""
        if self.closed:
            return
        data = frame(record)
        try:
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
        except OSError as exc:
            log.warning("cannot start %s afresh (%s): the snapshot is appended", self.path, exc)
            self._append(data)
            return
        try:
            _write_all(fd, data)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            log.warning("cannot start %s afresh (%s): the snapshot is appended", self.path, exc)
            self._append(data)
            return
        old, self._fd = self._fd, fd
        if old is not None:
            with contextlib.suppress(OSError):
                os.close(old)
        self._ok()
        self._fsync_soon()

    def append(self, record: dict[str, Any]) -> None:
        if not self.closed:
            self._append(frame(record))

    def open(self) -> bool:
        """Hold the file's descriptor from now on (a resumed table's journal goes on)."""
        return self._open()

    def _open(self) -> bool:
        if self._fd is not None:
            return True
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            self._fail(exc)
            return False
        return True

    def _append(self, data: bytes) -> None:
        if not self._open():
            return
        try:
            _write_all(self._fd, data)
        except OSError as exc:
            self._fail(exc)
            return
        self._ok()
        self._fsync_soon()

    def _fail(self, exc: OSError) -> None:
        if self.failing is None:  # said once, not once per move
            log.error("cannot save the table to %s: %s", self.path, exc)
        self.failing = str(exc)

    def _ok(self) -> None:
        if self.failing is not None:
            log.warning("saving the table to %s works again", self.path)
        self.failing = None

    def _fsync_soon(self) -> None:
        with self._sync_lock:
            if self._sync_queued:
                return
            self._sync_queued = True
        self._sync.submit(self._fsync)

    def _fsync(self) -> None:
        # wait out the interval first: what is appended meanwhile rides on this sync (a
        # thread woken and a disk flush per move cost the host more than the move itself)
        time.sleep(max(0.0, self._synced + SYNC_INTERVAL - time.monotonic()))
        with self._sync_lock:
            self._sync_queued = False
            fd = self._fd
        if fd is not None:
            with contextlib.suppress(OSError):  # closed meanwhile: the next one syncs
                os.fsync(fd)
        self._synced = time.monotonic()

    def flush(self) -> None:
        """Wait until everything appended so far is on disk."""
        if not self.closed:
            self._sync.submit(lambda: None).result()
            if self._fd is not None:
                with contextlib.suppress(OSError):
                    os.fsync(self._fd)

    def close(self) -> None:
        if self.closed:
            return
        self.flush()
        self.closed = True
        self._sync.shutdown(wait=True)
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _write_all(fd: int, data: bytes) -> None:
    """Write at the end of the file (the journal's descriptor is not opened for appending when
    it was the snapshot's temporary file)."""
    os.lseek(fd, 0, os.SEEK_END)
    written = os.write(fd, data)
    while written < len(data):  # a regular file takes it all; a full disk may not
        written += os.write(fd, data[written:])


class SaveFileError(Exception):
    """A save file that can't be read; the message says where and why."""


def read_records(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The last snapshot in the file and the records after it. A torn last record (a power
    cut in the middle of a write) is dropped; anything else that is not a record is an
    error."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SaveFileError(f"cannot read it: {exc.strerror or exc}") from exc
    records: list[dict[str, Any]] = []
    offset = 0
    while offset < len(data):
        if len(data) - offset < _HEADER.size:
            break  # a torn header at the very end
        (length,) = _HEADER.unpack_from(data, offset)
        start = offset + _HEADER.size
        if length > MAX_RECORD:
            raise SaveFileError(f"record {len(records) + 1} announces {length} bytes")
        if start + length > len(data):
            break  # a torn last record
        try:
            record = msgpack.unpackb(
                data[start : start + length], raw=False, strict_map_key=True, max_bin_len=0,
                max_ext_len=0,
            )  # fmt: skip
        except Exception as exc:  # msgpack's zoo of errors: all mean "damaged"
            raise SaveFileError(f"record {len(records) + 1} is damaged ({exc})") from exc
        if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
            raise SaveFileError(f"record {len(records) + 1} is not a save record")
        records.append(record)
        offset = start + length
    last = max((i for i, r in enumerate(records) if r["kind"] == "snapshot"), default=None)
    if last is None:
        raise SaveFileError("it holds no snapshot of a table (not a hubbub save file?)")
    return records[last], records[last + 1 :]


# --- reading a save file: every field checked -----------------------------------------------

SAVE_FORMAT = 3
"""3: the snapshot keeps the options of the evening's other games (`game_options`). A file of
format 2 (without them) is still read; an older hubbub says a format-3 file is not its own."""
READ_FORMATS = (2, 3)


def read_save(path: Path) -> dict[str, Any]:
    """The room as the file last saw it: its last snapshot with every record after it folded
    in (the log, the history, the clock, the story), every field checked. Any damage is a
    SaveFileError naming the first thing that is wrong — never another exception."""
    snapshot, records = read_records(path)
    saved = check_snapshot(snapshot)
    # the story a welcome tells (`Room.recent`): what the snapshot's history ends with, as of
    # its version, then every change after it with its own
    told = saved["history"][-STORY_TAIL:]
    saved["story"] = [(saved["version"], told)] if told else []
    for number, record in enumerate(records, 2):
        apply_record(saved, record, number)
    return saved


def _fail(message: str) -> SaveFileError:
    return SaveFileError(message)


def _expect(record: dict[str, Any], key: str, types: tuple[type, ...], where: str) -> Any:
    if key not in record:
        raise _fail(f"{where}: field {key!r} is missing")
    value = record[key]
    if isinstance(value, bool) and bool not in types:
        raise _fail(f"{where}: field {key!r} has the wrong type (bool)")
    if not isinstance(value, types):
        raise _fail(f"{where}: field {key!r} has the wrong type ({type(value).__name__})")
    return value


def _exact_keys(record: dict[str, Any], keys: set[str], where: str) -> None:
    extra = sorted(set(record) - keys)
    if extra:
        raise _fail(f"{where}: unexpected field {str(extra[0])[:32]!r}")


_SNAPSHOT_KEYS = {
    "kind", "format", "protocol", "name", "room_id", "code", "game", "options", "room_options",
    "host", "seats", "phase", "players", "version", "log", "history", "clock",
    "game_options",
}  # fmt: skip


def check_snapshot(snap: dict[str, Any]) -> dict[str, Any]:
    """The snapshot, every field checked; SaveFileError names the first that is wrong."""
    where = "the snapshot"
    fmt = snap.get("format")
    if fmt not in READ_FORMATS or isinstance(fmt, bool):
        reads = " and ".join(map(str, READ_FORMATS))
        raise _fail(f"it is a save file of format {fmt!r}; this hubbub reads formats {reads}")
    _exact_keys(snap, _SNAPSHOT_KEYS, where)
    _expect(snap, "protocol", (int,), where)
    name = _expect(snap, "name", (str,), where)
    if not clean_text(name, 40):
        raise _fail(f"{where}: the room has no name")
    room_id = _expect(snap, "room_id", (str,), where)
    if not 1 <= len(room_id) <= 64:
        raise _fail(f"{where}: the room id has a wrong length")
    code = _expect(snap, "code", (str, type(None)), where)
    lengths = (CODE_LENGTH, LONG_CODE_LENGTH)
    if code is not None and (len(code) not in lengths or any(c not in CODE_LETTERS for c in code)):
        raise _fail(
            f"{where}: the room code {code[:8]!r} is not {CODE_LENGTH} or {LONG_CODE_LENGTH}"
            f" letters of {CODE_LETTERS}"
        )
    game_id = _expect(snap, "game", (str, type(None)), where)
    if game_id is not None and game_id not in GAMES:
        raise _fail(f"{where}: the saved game {game_id[:32]!r} is not installed")
    game = GAMES.get(game_id) if game_id else None
    _check_options(_expect(snap, "options", (dict,), where), game)
    _check_room_options(_expect(snap, "room_options", (dict,), where))
    _check_kept_options(snap, where)
    _check_host(_expect(snap, "host", (dict,), where))
    seats = _expect(snap, "seats", (list,), where)
    if len(seats) > MAX_SEATS:
        raise _fail(f"{where}: {len(seats)} seats (a table has at most {MAX_SEATS})")
    names, marks = set(), set()
    for index, seat in enumerate(seats, 1):
        _check_seat(seat, game, f"seat {index}")
        if seat["name"].casefold() in names:
            raise _fail(f"seat {index}: the name {seat['name']!r} is there twice")
        names.add(seat["name"].casefold())
        mark = seat.get("mark", index - 1)
        if mark in marks:
            raise _fail(f"seat {index}: the mark {mark} is another seat's")
        marks.add(mark)
    phase = _expect(snap, "phase", (str,), where)
    if phase not in ("lobby", "playing", "over"):
        raise _fail(f"{where}: unknown phase {phase[:32]!r}")
    if phase != "lobby" and game is None:
        raise _fail(f"{where}: a game is on, but no game is named")
    players = _expect(snap, "players", (int,), where)
    if phase == "lobby" and players != 0:
        raise _fail(f"{where}: {players} players in the lobby")
    if phase != "lobby" and not (game.min_players <= players <= min(game.max_players, len(seats))):
        raise _fail(f"{where}: {players} players cannot play {game_id}")
    version = _expect(snap, "version", (int,), where)
    if version < 0:
        raise _fail(f"{where}: a negative version")
    _check_log(_expect(snap, "log", (list,), where), where)
    history = _expect(snap, "history", (list,), where)
    if not all(isinstance(e, dict) for e in history):
        raise _fail(f"{where}: the history holds something that is not an event")
    del history[:-HISTORY_KEEP]
    clock = _expect(snap, "clock", (dict, type(None)), where)
    if clock is not None:
        _check_clock(clock, where)
    return snap


def _check_options(options: dict[str, Any], game: Game | None) -> None:
    known = {o.key: o for o in game.options} if game else {}
    for key, value in options.items():
        if key == "lang":
            if value not in LANGS:
                raise _fail(f"the options: lang {str(value)[:8]!r} is not one of {LANGS}")
        elif key == "deck":
            if value is not None and not isinstance(value, str):
                raise _fail("the options: the deck is not a file name")
        elif game is not None and key in game.carried_keys:  # (from the evening's last game)
            try:
                game.check_carried(key, value)
            except ValueError as exc:
                raise _fail(f"the options: {key}: {str(exc)[:80]}") from None
        elif key not in known:
            raise _fail(f"the options: unknown option {str(key)[:32]!r}")
        elif value not in known[key].choices or isinstance(value, bool) != isinstance(
            known[key].default, bool
        ):
            raise _fail(f"the options: {key} = {str(value)[:16]!r} is not an allowed value")


def _check_kept_options(snap: dict[str, Any], where: str) -> None:
    """The options of the evening's other games (none in a file of an older version); those
    of a game no longer installed are dropped, not a reason to refuse the table."""
    kept = snap.get("game_options", {})
    if not isinstance(kept, dict):
        raise _fail(f"{where}: the other games' options are not a table")
    for game_id in list(kept):
        if not isinstance(kept[game_id], dict):
            raise _fail(f"{where}: the options of {str(game_id)[:32]!r} are not a table")
        if game_id not in GAMES:
            del kept[game_id]
            continue
        _check_options(kept[game_id], GAMES[game_id])
    snap["game_options"] = kept


def _check_room_options(options: dict[str, Any]) -> None:
    known = {o.key: o for o in ROOM_OPTIONS}
    for key, value in options.items():
        if key not in known:
            raise _fail(f"the room options: unknown option {str(key)[:32]!r}")
        if isinstance(value, bool) or value not in known[key].choices:
            raise _fail(f"the room options: {key} = {str(value)[:16]!r} is not allowed")


def _check_host(host: dict[str, Any]) -> None:
    where = "the host settings"
    _exact_keys(host, {"port", "interface", "lang", "advertise", "web_port", "blocked"}, where)
    ports = [_expect(host, "port", (int, type(None)), where)]
    if "web_port" in host:  # (a save from before web ports were kept has none)
        ports.append(_expect(host, "web_port", (int, type(None)), where))
    for port in ports:
        if port is not None and not 0 <= port < 65536:
            raise _fail(f"{where}: port {port} does not exist")
    interface = _expect(host, "interface", (str, type(None)), where)
    if interface is not None and not 0 < len(interface) <= 64:
        raise _fail(f"{where}: the interface address has a wrong length")
    lang = _expect(host, "lang", (str, type(None)), where)
    if lang is not None and lang not in LANGS:
        raise _fail(f"{where}: lang {lang[:8]!r} is not one of {LANGS}")
    _expect(host, "advertise", (bool,), where)
    blocked = host.get("blocked", [])  # (a save from before blocks were kept has none)
    if not isinstance(blocked, list) or len(blocked) > MAX_BLOCKED:
        raise _fail(f"{where}: the blocked addresses are not a list of at most {MAX_BLOCKED}")
    for address in blocked:
        if not isinstance(address, str) or not _is_address_key(address):
            raise _fail(f"{where}: {str(address)[:48]!r} is not a blocked address")


def _is_address_key(text: str) -> bool:
    """An IPv4 address or an IPv6 /64, as the doorman keys them."""
    if len(text) > 64:
        return False
    with contextlib.suppress(ValueError):
        return isinstance(ipaddress.ip_address(text), ipaddress.IPv4Address)
    with contextlib.suppress(ValueError):
        network = ipaddress.ip_network(text)
        return network.version == 6 and network.prefixlen == 64
    return False


def _check_seat(seat: Any, game: Game | None, where: str) -> None:
    if not isinstance(seat, dict):
        raise _fail(f"{where}: not a seat")
    kept = {"name", "token", "bot", "leaving"}  # and its `mark` (saves before it had none)
    _exact_keys(seat, kept | {"mark"} if "mark" in seat else kept, where)
    name = _expect(seat, "name", (str,), where)
    try:
        if check_name(name) != name:
            raise _fail(f"{where}: the name {name[:32]!r} is not as the table would show it")
    except ProtocolError as exc:
        raise _fail(f"{where}: the name {name[:32]!r} is not a player's name") from exc
    token = _expect(seat, "token", (str,), where)
    if not 16 <= len(token) <= 64 or not token.isascii():
        raise _fail(f"{where}: the token is damaged")
    bot = _expect(seat, "bot", (str, type(None)), where)
    if bot is not None and (game is None or bot not in game.bots):
        raise _fail(f"{where}: unknown bot {bot[:32]!r}")
    _expect(seat, "leaving", (bool,), where)
    mark = seat.get("mark", 0)
    if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark < MAX_SEATS:
        raise _fail(f"{where}: the mark {str(mark)[:16]!r} is not a seat's")


def _check_log(entries: list[Any], where: str) -> None:
    for number, entry in enumerate(entries, 1):
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or isinstance(entry[0], bool)
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], dict)
            or not isinstance(entry[1].get("type"), str)
        ):
            raise _fail(f"{where}: move {number} of the log is not [seat, action]")


def _check_clock(clock: dict[str, Any], where: str) -> None:
    _exact_keys(clock, {"for", "left"}, f"{where} (clock)")
    _expect(clock, "for", (dict,), f"{where} (clock)")
    left = _expect(clock, "left", (int, float), f"{where} (clock)")
    if not 0 <= left < 86400:
        raise _fail(f"{where}: the timer has {left!r} seconds left")


def apply_record(saved: dict[str, Any], record: dict[str, Any], number: int) -> None:
    """One journal record after the snapshot, checked and folded into it."""
    where = f"record {number}"
    kind = record["kind"]
    if kind == "change":
        _exact_keys(record, {"kind", "version", "log", "events"}, where)
        version = _expect(record, "version", (int,), where)
        if version <= saved["version"]:
            raise _fail(f"{where}: version {version} goes backwards")
        entries = _expect(record, "log", (list,), where)
        _check_log(entries, where)
        if entries and saved["phase"] == "lobby":
            raise _fail(f"{where}: moves of a game in the lobby")
        events = _expect(record, "events", (list,), where)
        if not all(isinstance(e, dict) for e in events):
            raise _fail(f"{where}: an event that is not a map")
        saved["version"] = version
        saved["log"].extend(entries)
        saved["history"].extend(events)
        if events:
            saved["story"].append((version, events))
        del saved["history"][:-HISTORY_KEEP]
        saved["clock"] = None  # a change re-arms the timer; a clock record follows it
    elif kind == "clock":
        _exact_keys(record, {"kind", "for", "left"}, where)
        _check_clock({"for": record.get("for"), "left": record.get("left")}, where)
        saved["clock"] = {"for": record["for"], "left": record["left"]}
    elif kind == "snapshot":
        raise _fail(f"{where}: a second snapshot")  # read_records starts at the last one
    else:
        raise _fail(f"{where}: unknown record kind {kind[:32]!r}")
