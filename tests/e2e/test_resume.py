"""A host killed mid-timer comes back with `hubbub host --resume` and no other flag: the same
port, the countdown with the time it had left, and the table's story of what happened.

The real `hubbub host` runs in tmux; the players are bare connections of this test.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time

from tests.e2e.test_tmux import free_port, seat_re, shows
from tests.wire import Wire

PAUSE_BEFORE_THE_CRASH = 4.0
"""How long the thinking time runs before the host dies: long enough that a timer restarted
from full (60 s) is told apart from one that goes on (within 2 s)."""


def hubbub_pid(tmux, who: str) -> int:
    shell = int(tmux.tmux("display-message", "-p", "-t", tmux.target(who), "#{pane_pid}"))
    found = subprocess.run(["pgrep", "-P", str(shell)], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    assert len(pids) == 1, f"the host's shell has children {pids}"
    return pids[0]


def test_a_killed_host_resumes_with_its_port_timer_and_story(tmux, tmp_path):
    port = free_port()
    tmux.open_window("host", tmp_path / "host")
    args = ["host", "--interface", "127.0.0.1", "--open", "--port", str(port), "--lang", "en"]
    tmux.launch("host", [*args, "--no-zeroconf", "--game", "tesauro"])
    tmux.wait_for("host", shows(f"127.0.0.1:{port}"), "the lobby")

    pid = hubbub_pid(tmux, "host")

    async def before_the_crash() -> tuple[str, float]:
        ann = await Wire.join(port, "Ann")
        await ann.expect("welcome")
        bob = await Wire.join(port, "Bob")
        token = (await bob.expect("welcome"))["token"]
        await ann.view_where(lambda v: len(v["room"]["seats"]) == 2)
        tmux.keys("host", "s")
        view = await bob.view_where(lambda v: "choose" in (v["game"] or {}).get("legal", []))
        await bob.send({"type": "action", "action": {"type": "choose", "entry": 0}})
        view = await bob.view_where(lambda v: v["game"]["phase"] == "write")
        seen, left = time.monotonic(), view["room"]["timer_seconds"]
        await asyncio.sleep(PAUSE_BEFORE_THE_CRASH)  # the game goes on for a while
        view = await bob.newest_game(view["game"])
        os.kill(pid, signal.SIGKILL)
        ann.close()
        bob.close()
        return token, left - (time.monotonic() - seen)

    token, left_at_kill = asyncio.run(before_the_crash())
    tmux.running.pop("host")  # killed: it is meant to be gone
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}")
    # a killed app leaves its terminal raw: the host starts again in a fresh one (same laptop)
    tmux.open_window("again", tmp_path / "host")
    tmux.launch("again", ["host", "--resume"])  # no port, interface, language: all saved
    tmux.wait_for("again", shows(seat_re("Bob", "away")), "the resumed table, its players away")

    async def after_the_resume() -> float:
        bob = await Wire.join(port, "", token=token)
        assert (await bob.expect("welcome"))["seat"] == 1
        # the countdown went on once Bob was back (a resumed one waits for its players)
        view = await bob.view_where(
            lambda v: v["game"] is not None and v["room"]["timer_seconds"] is not None
        )
        assert view["game"]["phase"] == "write"
        left = view["room"]["timer_seconds"]
        bob.close()
        return left

    left_after = asyncio.run(after_the_resume())
    assert abs(left_after - left_at_kill) <= 2.0, (left_at_kill, left_after)
    assert left_after < 60 - PAUSE_BEFORE_THE_CRASH + 2.0  # not restarted from full
    # the table's "what happened" is back, in the language it was started in: its ticker
    # shows the last lines, `l` the whole story
    tmux.keys("again", "l")
    tmux.wait_for("again", shows("Bob sat down."), "the story from before the crash")
