"""End to end: the real `hubbub host` and `hubbub join` commands, run in tmux.

Everything happens in a private tmux server (`tmux -L hubbub-e2e-<random>`, no config file),
so a user's own tmux is never touched. The test only types keys (`send-keys`) and reads the
screens (`capture-pane -p`), like a person at the keyboard would. Every process binds and talks
on 127.0.0.1 only, with zeroconf off: nothing leaves the loopback interface.

Each command is typed into a plain `sh` in its pane, followed by `echo hubbub-exit-N=$?`, so the
pane shows when (and how) the process ended and that the shell is back.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tui.text import SEAT_SYMBOLS
from tui.widgets import ConfirmScreen

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not on PATH: the end-to-end test needs it"
)

HUBBUB = Path(sys.executable).parent / "hubbub"
WAIT = 10.0  # seconds for any one thing to show up; generous for a slow 2-core CI machine
POLL = 0.05
WIDTH, HEIGHT = 100, 30
SESSION = "e2e"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Tmux:
    """A private tmux server with one shell per window; windows are named after who sits there."""

    def __init__(self, tmp_path: Path) -> None:
        self.socket = f"hubbub-e2e-{uuid.uuid4().hex[:12]}"
        self.tmp_path = tmp_path
        self.windows: dict[str, int] = {}
        self.running: dict[str, str] = {}  # window -> the exit marker of what runs there
        self.socket_path: str | None = None
        self.launches = itertools.count(1)
        self.env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TMUX_PANE")}

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", os.devnull, *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def open_window(self, who: str, state_dir: Path) -> None:
        """A new window running `sh` with its own state dir; the first one makes the session."""
        shell_env = {
            "HUBBUB_STATE_DIR": str(state_dir),
            "TERM": "xterm-256color",
            "PS1": "$ ",
        }
        shell = "env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in shell_env.items()) + " sh"
        index = len(self.windows)
        if index == 0:
            self.tmux(
                "new-session", "-d", "-s", SESSION, "-x", str(WIDTH), "-y", str(HEIGHT),
                "-n", who, shell,
            )  # fmt: skip
            self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        else:
            self.tmux("new-window", "-d", "-t", f"{SESSION}:{index}", "-n", who, shell)
        self.windows[who] = index

    def target(self, who: str) -> str:
        return f"{SESSION}:{self.windows[who]}"

    def keys(self, who: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.target(who), *keys)

    def type_line(self, who: str, text: str) -> None:
        self.tmux("send-keys", "-t", self.target(who), "-l", text)
        self.tmux("send-keys", "-t", self.target(who), "Enter")

    def launch(self, who: str, args: list[str]) -> str:
        """Type `hubbub ARGS; echo hubbub-exit-N=$?` into the shell; returns that exit marker."""
        marker = f"hubbub-exit-{next(self.launches)}"
        command = " ".join(shlex.quote(a) for a in [str(HUBBUB), *args])
        self.type_line(who, f"{command}; echo {marker}=$?")
        self.running[who] = marker
        return marker

    def capture(self, who: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.target(who))

    def all_panes(self) -> str:
        parts = []
        for who in self.windows:
            try:
                screen = self.capture(who)
            except (RuntimeError, subprocess.SubprocessError) as exc:
                screen = f"<capture failed: {exc}>"
            parts.append(f"----- pane {who!r} -----\n{screen.rstrip()}")
        return "\n".join(parts)

    def wait_for(
        self, who: str, check: Callable[[str], object], what: str, timeout: float = WAIT
    ) -> tuple[object, float]:
        """Poll `who`'s pane until `check(screen)` is truthy; returns (its value, seconds).

        Fails at once, rather than at the deadline, if a process this test started has ended
        when it should not have (its exit marker is on a screen).
        """
        start = time.monotonic()
        deadline = start + timeout
        while True:
            screen = self.capture(who)
            found = check(screen)
            if found:
                return found, time.monotonic() - start
            self._no_early_exits(who, screen, what)
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"after {timeout:.0f} s, pane {who!r} still does not show {what}\n"
                    f"{self.all_panes()}"
                )
            time.sleep(POLL)

    def _no_early_exits(self, who: str, screen: str, what: str) -> None:
        for window, marker in self.running.items():
            shown = screen if window == who else self.capture(window)
            if re.search(rf"^{re.escape(marker)}=\d+\s*$", shown, re.MULTILINE):
                raise AssertionError(
                    f"`hubbub` in pane {window!r} ended while waiting for {who!r} to show "
                    f"{what}\n{self.all_panes()}"
                )

    def wait_exit(self, who: str, marker: str, timeout: float = WAIT) -> tuple[int, float]:
        """Wait until the shell in `who`'s pane prints the launch's exit status."""
        # at a line's start — or after a prompt the terminal drew again on that line when the
        # app's screen went (seen once: "$ hubbub-exit-1=0")
        pattern = re.compile(rf"^(?:\$ )?{re.escape(marker)}=(\d+)\s*$", re.MULTILINE)
        self.running.pop(who, None)  # it is meant to end now
        found, seconds = self.wait_for(
            who, pattern.search, f"the process ended and the shell back ({marker})", timeout
        )
        return int(found.group(1)), seconds  # type: ignore[attr-defined]

    def kill(self) -> None:
        """Stop the server (its panes' processes get SIGHUP) and remove its socket file."""
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"],
            env=self.env,
            capture_output=True,
            timeout=10,
            check=False,
        )
        if self.socket_path:
            Path(self.socket_path).unlink(missing_ok=True)


@pytest.fixture
def tmux(tmp_path):
    server = Tmux(tmp_path)
    yield server
    server.kill()


def seat_re(name: str, status: str = r"here|away") -> re.Pattern[str]:
    """One seat's line in a players list: `  1 ● Xenia  here` (the seat's mark, then the name)."""
    marks = "".join(SEAT_SYMBOLS)
    return re.compile(rf"(?<![\w\]])\d+\s+(?:[{marks}]\s+)?{re.escape(name)}\s+(?:{status})\b")


def shows(pattern: re.Pattern[str] | str) -> Callable[[str], object]:
    if isinstance(pattern, str):
        return lambda screen: pattern in screen
    return pattern.search


def test_host_and_players_in_tmux(tmux, tmp_path, record_property):
    assert HUBBUB.exists(), f"no `hubbub` entry point next to {sys.executable}"
    port = free_port()
    host_args = ["host", "--interface", "127.0.0.1", "--open", "--port", str(port)]
    host_args += ["--lang", "en", "--no-zeroconf"]

    def join_args(name: str) -> list[str]:
        return ["join", f"127.0.0.1:{port}", "--name", name, "--lang", "en", "--no-zeroconf"]

    def seats(screen: str, name: str) -> int:
        return len(seat_re(name).findall(screen))

    # --- the host's lobby ---------------------------------------------------------------
    tmux.open_window("host", tmp_path / "host")
    tmux.open_window("xenia", tmp_path / "player")
    tmux.open_window("yuri", tmp_path / "player2")  # another laptop: its own tokens
    host_exit = tmux.launch("host", host_args)
    _, host_up = tmux.wait_for(
        "host",
        lambda s: "Room code" in s and "Open table" in s and f"127.0.0.1:{port}" in s,
        "the lobby (Room code / Open table / the address)",
    )

    # --- Xenia joins --------------------------------------------------------------------
    xenia_cmd = join_args("Xenia")
    xenia_exit = tmux.launch("xenia", xenia_cmd)
    started = time.monotonic()
    tmux.wait_for("host", shows(seat_re("Xenia", "here")), "Xenia in the players list")
    join_to_host = time.monotonic() - started
    tmux.wait_for(
        "xenia",
        lambda s: "Seated" in s and seat_re("Xenia", "here").search(s),
        "the waiting screen (Seated, Xenia here)",
    )
    join_to_seated = time.monotonic() - started
    record_property("host_startup_s", round(host_up, 3))
    record_property("join_to_host_shows_player_s", round(join_to_host, 3))
    record_property("join_to_player_seated_s", round(join_to_seated, 3))
    print(
        f"\nhost lobby up in {host_up:.2f} s; `hubbub join` -> Xenia on the host screen "
        f"{join_to_host:.2f} s, -> 'Seated' on her screen {join_to_seated:.2f} s"
    )
    assert "Players (1)" in tmux.capture("host"), tmux.all_panes()

    # --- Xenia quits, the seat waits, she comes back with the same command ----------------
    tmux.keys("xenia", "C-q")
    code, _ = tmux.wait_exit("xenia", xenia_exit)
    assert code == 0, f"`hubbub join` exited with {code}\n{tmux.all_panes()}"
    tmux.wait_for("host", shows(seat_re("Xenia", "away")), "Xenia away")
    xenia_exit = tmux.launch("xenia", xenia_cmd)
    started = time.monotonic()
    tmux.wait_for("host", shows(seat_re("Xenia", "here")), "Xenia here again")
    comeback = time.monotonic() - started
    tmux.wait_for("host", shows("Xenia is back."), "'Xenia is back.' in the feed")
    tmux.wait_for(
        "xenia", lambda s: "Seated" in s and "← you" in s, "her waiting screen again, in her seat"
    )
    record_property("comeback_to_host_shows_here_s", round(comeback, 3))
    print(f"comeback: relaunch -> Xenia 'here' on the host screen {comeback:.2f} s")
    screen = tmux.capture("host")
    assert seats(screen, "Xenia") == 1, f"not exactly one Xenia seat\n{tmux.all_panes()}"
    assert "Players (1)" in screen, tmux.all_panes()

    # --- a name that looks like markup is shown as typed ----------------------------------
    tmux.launch("yuri", join_args("[bold]Yuri"))
    tmux.wait_for("host", shows(seat_re("[bold]Yuri", "here")), "the seat '[bold]Yuri here'")
    tmux.wait_for("host", shows("[bold]Yuri sat down."), "'[bold]Yuri sat down.' in the feed")
    tmux.wait_for(
        "yuri",
        lambda s: "Seated" in s and seat_re("[bold]Yuri", "here").search(s),
        "Yuri's waiting screen with '[bold]Yuri'",
    )
    screen = tmux.capture("host")
    assert "Players (2)" in screen, tmux.all_panes()
    assert seats(screen, "Xenia") == 1, f"not exactly one Xenia seat\n{tmux.all_panes()}"
    assert seats(screen, "[bold]Yuri") == 1, tmux.all_panes()
    assert not seat_re("Yuri").search(screen), f"'[bold]' was eaten\n{tmux.all_panes()}"

    # --- the host quits: with players seated, it asks first ---------------------------------
    tmux.keys("host", "q")
    tmux.wait_for("host", shows("2 players are seated. Close the table?"), "the question")
    time.sleep(ConfirmScreen.PAUSE + 0.1)  # a person reads the question before answering
    tmux.keys("host", "y")
    code, quit_s = tmux.wait_exit("host", host_exit)
    assert code == 0, f"`hubbub host` exited with {code}\n{tmux.all_panes()}"
    record_property("host_quit_s", round(quit_s, 3))
    print(f"host quit -> shell back in {quit_s:.2f} s")
    # a host that quits in the lobby closes the table for good: the players are told so,
    # rather than left reconnecting to a room that will not come back (or crashing)
    tmux.wait_for("xenia", shows("The host has closed the table."), "that the table is closed")
    tmux.wait_for("yuri", shows("The host has closed the table."), "that the table is closed")


def test_a_byte_that_is_not_utf_8_is_a_character_not_a_crash(tmux, tmp_path):
    """A terminal set to KOI8-R or CP1251 (or a binary paste) sends bytes that are not
    UTF-8: the player app ended with a `UnicodeDecodeError` traceback from Textual's input
    thread. The byte is read as U+FFFD now, and the app goes on."""
    tmux.open_window("zoe", tmp_path / "zoe")
    tmux.launch("zoe", ["join", f"127.0.0.1:{free_port()}", "--lang", "en", "--no-zeroconf"])
    tmux.wait_for("zoe", lambda s: "Your name" in s, "the join form")
    tmux.keys("zoe", "-l", "ab\udcf1z")  # (an argument's lone surrogate is its raw byte 0xF1)
    tmux.wait_for("zoe", lambda s: "ab\ufffdz" in s, "the text typed, the byte replaced")
    assert "Traceback" not in tmux.capture("zoe")
