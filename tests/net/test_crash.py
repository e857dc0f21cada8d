"""Acknowledged means saved: a host killed with SIGKILL, at any moment, loses no move a player
has seen — and a save file damaged in any way never crashes `--resume`.

The host runs in a forked child process (fast enough for a hundred kills); the player is a real
connection of this test. Between kills the next host resumes the save file, as `hubbub host
--resume` would.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import multiprocessing
import os
import random
import signal
import struct
from pathlib import Path

import msgpack
import pytest

from games import IllegalAction
from net.room import Room
from net.savefile import read_records
from net.server import Server
from net.snapshot import ResumeError, snapshot_of
from tests.wire import Wire

KILLS = 100


def _host(save: Path, resume: bool, ready) -> None:
    """The child: a T-Rex table (three seats, Ann's on a socket), until SIGKILL."""

    async def serve() -> None:
        if resume:
            room = Room.resume(save)
        else:
            room = Room("crash", game_id="trex", open_room=True, save_path=save)
            room.room_options["grace"] = 0
        server = Server(room, host="127.0.0.1", port=0)
        await server.start()
        room.start_clocks()
        ready.send(server.port)
        if not resume:
            while not room.seats:
                await asyncio.sleep(0.001)
            for name in ("Bob", "Cid"):
                room.join(name, None)
            room.start(lang="en")
        await asyncio.Event().wait()

    asyncio.run(serve())


def _skips(log: list) -> int:
    return sum(1 for seat, action in log if seat == 0 and action["type"] == "skip")


async def _play(port: int, token: str | None, pid: int, rng: random.Random) -> tuple[str, int]:
    """Ann skips cards until her host is killed: right after she saw a skip of hers, or at a
    random moment while skips are on their way. Returns her token and how many she saw."""
    if token is None:
        ann = await Wire.join(port, "Ann")
    else:
        ann = await Wire.join(port, "", token=token)
    token = (await ann.expect("welcome"))["token"]
    view = await ann.view_where(lambda v: v["game"] is not None and v["game"]["phase"] == "play")
    seen = 0
    kill_after_seen = rng.random() < 0.5
    kill_at = asyncio.get_running_loop().time() + rng.uniform(0.0, 0.03)
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError, TimeoutError):
        for _ in range(rng.randint(1, 4)):
            card = view["game"]["card"]
            await ann.send({"type": "action", "action": {"type": "skip"}})
            if not kill_after_seen and asyncio.get_running_loop().time() >= kill_at:
                os.kill(pid, signal.SIGKILL)  # a random moment: the skip may be on its way
                break
            view = await ann.view_where(lambda v, c=card: v["game"]["card"] != c)
            seen += 1  # acknowledged: her own screen shows the new card
        else:
            os.kill(pid, signal.SIGKILL)  # right after she saw it
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    ann.close()
    return token, seen


def test_a_hundred_kills_lose_no_acknowledged_move(tmp_path, monkeypatch):
    save = tmp_path / "crash.save"
    context = multiprocessing.get_context("fork")
    rng = random.Random(20261201)
    token, acknowledged = None, 0
    for kill in range(KILLS):
        ours, theirs = context.Pipe()
        child = context.Process(target=_host, args=(save, kill > 0, theirs), daemon=True)
        child.start()
        assert ours.poll(20), f"kill {kill}: the host did not start"
        port = ours.recv()
        token, seen = asyncio.run(_play(port, token, child.pid, rng))
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        acknowledged += seen
        snapshot, records = read_records(save)
        logged = _skips(snapshot["log"]) + sum(_skips(r.get("log", [])) for r in records)
        assert logged >= acknowledged, f"kill {kill}: {acknowledged - logged} seen moves lost"
    room = Room.resume(save)
    assert _skips(room.log) >= acknowledged > KILLS // 2
    room.close()
    assert not list(tmp_path.glob(".room-*.tmp"))


# --- damaged save files ----------------------------------------------------------------------


def _a_save_file(path: Path) -> bytes:
    """A real save: a Tally Up! game in progress, its snapshot and journal."""
    room = Room("Damaged", game_id="tallyup", save_path=path, rng=random.Random(5))
    room.add_bot()
    for name in ("Ann", "Bob"):
        room.join(name, room.code)
    room.start(lang="en")
    room.act(0, {"type": "choose_dice", "dice": ["red", "blue", "green"]})
    room.act(0, {"type": "roll"})
    room.close()
    return path.read_bytes()


def _records(data: bytes) -> list[dict]:
    out, offset = [], 0
    while offset < len(data):
        (n,) = struct.unpack_from(">I", data, offset)
        out.append(msgpack.unpackb(data[offset + 4 : offset + 4 + n], raw=False))
        offset += 4 + n
    return out


def _frames(records: list) -> bytes:
    return b"".join(
        struct.pack(">I", len(b := msgpack.packb(r, use_bin_type=True))) + b for r in records
    )


def _mutations(snapshot: dict) -> list[tuple[str, dict]]:
    """Fields of the wrong type, missing and extra, and values no table can have."""
    wrong: list[tuple[str, object]] = [
        ("format", "2"), ("name", 7), ("name", ""), ("room_id", None), ("code", 1234),
        ("code", "ABC"), ("code", "AB1D"), ("code", "ABCDE"), ("code", "ABCDEFG"),
        ("code", "ABCDEI"), ("game", "chess"), ("game", ["tallyup"]),
        ("options", []), ("options", {"target": "a lot"}), ("options", {"rocket": 1}),
        ("options", {"lang": "klingon"}), ("room_options", {"grace": -1}),
        ("room_options", {"grace": True}), ("host", {"port": "47470"}),
        ("host", {"port": 99999, "interface": None, "lang": None, "advertise": True}),
        ("host", {"port": None, "interface": None, "lang": None, "advertise": True,
                  "blocked": ["not an address"]}),
        ("host", {"port": None, "interface": None, "lang": None, "advertise": True,
                  "blocked": "127.0.0.1"}),
        ("host", {"port": None, "interface": None, "lang": None, "advertise": True,
                  "blocked": ["10.0.0.1"] * 257}),
        ("seats", {}), ("seats", [1, 2]), ("seats", [{"name": "Ann"}]),
        ("phase", "halftime"), ("phase", 3), ("players", -1), ("players", 99),
        ("players", True), ("version", -5), ("version", 1.5), ("log", {}),
        ("log", [[0]]), ("log", [["x", {"type": "roll"}]]), ("log", [[0, {"type": "fly"}]]),
        ("log", [[True, {"type": "roll"}]]), ("history", {}), ("history", [1]),
        ("clock", []), ("clock", {"for": {}, "left": -3}), ("clock", {"for": {}}),
        ("game_options", []), ("game_options", {"tesauro": 3}),
        ("game_options", {"tesauro": {"words": "klingon"}}), ("game_options", {7: {}}),
    ]  # fmt: skip
    cases = []
    for field, value in wrong:
        changed = copy.deepcopy(snapshot)
        changed[field] = value
        cases.append((f"{field}={value!r}"[:60], changed))
    for field in snapshot:
        if field != "kind":
            missing = copy.deepcopy(snapshot)
            del missing[field]
            cases.append((f"no {field}", missing))
    extra = copy.deepcopy(snapshot) | {"surprise": 1}
    cases.append(("an extra field", extra))
    seat = copy.deepcopy(snapshot)
    seat["seats"][1] = seat["seats"][1] | {"connected": True}
    cases.append(("a seat with an extra field", seat))
    twins = copy.deepcopy(snapshot)
    twins["seats"][2]["name"] = twins["seats"][1]["name"].upper()
    cases.append(("two seats of one name", twins))
    bot = copy.deepcopy(snapshot)
    bot["seats"][0]["bot"] = "genius"
    cases.append(("an unknown bot", bot))
    for mark in (12, -1, True, "1"):
        marked = copy.deepcopy(snapshot)
        marked["seats"][0]["mark"] = mark
        cases.append((f"a seat's mark {mark!r}", marked))
    shared = copy.deepcopy(snapshot)
    shared["seats"][1]["mark"] = shared["seats"][0]["mark"]
    cases.append(("two seats of one mark", shared))
    return cases


def _resumes_or_says_why(path: Path) -> None:
    """A damaged file gives a ResumeError naming the file; one it accepts plays."""
    try:
        room = Room.resume(path)
    except ResumeError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)
        return
    try:

        async def plays() -> None:
            room.start_clocks()
            for seat in range(len(room.seats)):
                room.game_view(seat)
            room.summary()
            game = room.game
            if room.phase == "playing" and game is not None:
                for seat in range(room.players):
                    for action in game.legal_actions(room.state, seat)[:1]:
                        with contextlib.suppress(IllegalAction):
                            room.act(seat, action)

        asyncio.run(plays())
    finally:
        room.close()


def test_damaged_save_files_never_give_a_traceback(tmp_path):
    good = _a_save_file(tmp_path / "good.save")
    snapshot, *journal = _records(good)
    corpus: list[tuple[str, bytes]] = []
    step = max(1, len(good) // 150)
    corpus += [(f"cut at {n}", good[:n]) for n in range(0, len(good), step)]
    flips = random.Random(1)
    for n in range(300):
        at = flips.randrange(len(good))
        flipped = bytes([good[at] ^ (1 << flips.randrange(8))])
        corpus.append((f"flip {n} at {at}", good[:at] + flipped + good[at + 1 :]))
    for name, changed in _mutations(snapshot):
        corpus.append((name, _frames([changed, *journal])))
    for index, record in enumerate(journal):
        for key in list(record):
            broken = copy.deepcopy(journal)
            broken[index][key] = {"nested": [1]} if key != "kind" else "earthquake"
            corpus.append((f"journal {index} {key}", _frames([snapshot, *broken])))
    corpus.append(("not msgpack at all", b"\x00\x00\x00\x04\xc1\xc1\xc1\xc1"))
    corpus.append(("a text file", b"hello, this is not a table\n"))
    corpus.append(("empty", b""))
    for number, (name, data) in enumerate(corpus):
        path = tmp_path / f"case-{number}.save"
        path.write_bytes(data)
        try:
            _resumes_or_says_why(path)
        except AssertionError:
            raise
        except Exception as exc:
            pytest.fail(f"{name}: {type(exc).__name__}: {exc}")
    assert len(corpus) > 400


def test_the_command_says_what_is_wrong_in_one_line_and_exits_2(tmp_path, capsys):
    from tui.cli import main

    snapshot, *journal = _records(_a_save_file(tmp_path / "good.save"))
    save = tmp_path / "bad.save"
    save.write_bytes(_frames([snapshot | {"name": 3}, *journal]))
    assert main(["host", "--resume", "--save", str(save)]) == 2
    said = capsys.readouterr().err.strip()
    assert said.count("\n") == 0 and str(save) in said and "name" in said


async def test_a_resumed_countdown_waits_for_its_players(peek, state_dir):
    """After a crash the players' apps take seconds to find the table again: the time left is
    theirs, so the countdown goes on only once one of them is back."""
    save = state_dir / "t.save"
    room = Room("T", game_id="peek", open_room=True, save_path=save)
    for name in ("Ann", "Bob"):
        room.connected(room.join(name, None), returning=False)
    room.set_option("turn_seconds", 30.0)
    room.start(lang="en")
    assert room.countdown.deadline is not None
    room.flush()
    left = snapshot_of(room)["clock"]["left"]
    room._cancel_timers()  # the host is killed: nothing of it runs on
    again = Room.resume(save)
    again.start_clocks()
    assert again.countdown.deadline is None and again.summary()["timer_seconds"] is None
    assert snapshot_of(again)["clock"]["left"] == pytest.approx(left, abs=1.0)  # kept meanwhile
    again.connected(1, returning=True)
    assert again.countdown.deadline is not None
    assert again.summary()["timer_seconds"] == pytest.approx(left, abs=1.0)
    again.close()


def test_the_host_s_flags_and_its_port_come_back_with_resume(state_dir, peek):
    """The command's flags go to the room through its own methods (`host_with`), the port it
    really got is saved at once (`listening_on`): `--resume` comes back the same way."""
    from net.protocol import ProtocolError
    from net.seats import HostSettings

    save = state_dir / "flags.save"
    room = Room("Flags", game_id="peek", save_path=save)
    room.host_with(HostSettings(interface="127.0.0.1", lang="ru"), grace=60)
    with pytest.raises(ProtocolError):
        room.host_with(HostSettings(), grace=7)  # not a grace time the lobby offers
    room.listening_on(47123)
    room.flush()
    again = Room.resume(save)
    assert (again.settings.port, again.settings.interface, again.settings.lang) == (
        47123, "127.0.0.1", "ru"
    )  # fmt: skip
    assert again.room_options["grace"] == 60
    room.close()
    again.close()


def test_a_resumed_table_tells_the_story_so_far(state_dir, peek):
    """A player back after a kill and `--resume` hears what happened (`welcome.story` is the
    room's `recent`): the changes since the last snapshot with their own versions, and the
    history before them as the snapshot's — it used to hold only the changes made after the
    restart."""
    save = state_dir / "story.save"
    room = Room("Story", game_id="peek", open_room=True, save_path=save)
    for name in ("Ann", "Bob"):
        room.connected(room.join(name, None), returning=False)
    room.start(lang="en")  # a snapshot: the game begins
    while room.phase == "playing":
        room.act(room.state["turn"], {"type": "reveal"})  # appended, change by change
    before = list(room.recent)
    room.flush()
    again = Room.resume(save)
    snapshot, *after = list(again.recent)
    assert snapshot[0] == 5 and {"type": "game_started", "game": "peek"} in snapshot[1]
    moves = [(version, events) for version, events in before if version > snapshot[0]]
    assert moves and after == moves  # the changes since the snapshot, each with its version
    assert all(version < again.version for version, _ in again.recent)  # (a client's filter)


def test_a_table_resumes_after_its_second_tesauro_game(state_dir):
    """The words that came up go on to the next game as the option `seen` (kept on the
    host): the save check did not know it, and a table killed — or quit on purpose — after
    its second game could not come back ("unknown option 'seen'"). (`r` goes the same way
    as the lobby: `Room._back_to_lobby`.)"""
    from games.tesauro import TESAURO
    from games.tesauro.rules import SEEN_MAX
    from net.savefile import SaveFileError, _check_options

    save = state_dir / "tesauro.save"
    room = Room("Words", game_id="tesauro", open_room=True, save_path=save,
                rng=random.Random(3))  # fmt: skip
    for _ in range(3):
        room.add_bot("normal")
    room.start(lang="en")
    room.end()  # the host ends it: back in the lobby, the words it dealt kept
    room.start(lang="en")
    assert room.options.get("seen"), "the first game's words went on to the second"
    room.flush()
    resumed = Room.resume(save)
    assert resumed.options["seen"] == room.options["seen"] and resumed.phase == "playing"
    resumed.close()
    room.close()
    for bad in (["x" * 41], ["w"] * (SEEN_MAX + 1), "words", [1]):  # damaged: said, not raised
        with pytest.raises(SaveFileError, match="seen"):
            _check_options({"seen": bad}, TESAURO)
