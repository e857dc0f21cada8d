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
"""

from __future__ import annotations

import contextlib
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

log = logging.getLogger(__name__)

_HEADER = struct.Struct(">I")
MAX_RECORD = 64 * 1024 * 1024
SYNC_INTERVAL = 0.05  # seconds between fsyncs at most
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
