"""A game that is no part of hubbub plays through the real apps: adding a game touches no
shared file.

Peek (`tests/fakegame.py`, its words in `tests/peek/`) is registered the way a game shipped as
a distribution of its own would be: `tests/plugin/` holds that distribution's metadata — its
entry points in the groups `hubbub.games` and `hubbub.words` — and nothing else of hubbub
changes. With that folder on the path, the real `hubbub host` offers Peek (`--game peek`), a
real `hubbub join` sits at it, a bot joins, and the game plays to its end on both screens
(Peek has no screens of its own: the apps draw its views plainly). Without the folder, the
same host refuses `--game peek`: nothing of Peek is in hubbub itself."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.test_tmux import HUBBUB, free_port, pytestmark, seat_re, shows  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "plugin"


def test_a_game_of_its_own_distribution_plays_through_the_real_host_and_client(tmux, tmp_path):
    tmux.env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(PLUGIN)])
    port = free_port()
    tmux.open_window("host", tmp_path / "host")
    tmux.open_window("xenia", tmp_path / "player")
    tmux.launch(
        "host",
        ["host", "--interface", "127.0.0.1", "--open", "--port", str(port), "--game", "peek",
         "--lang", "en", "--no-zeroconf", "--no-web"],
    )  # fmt: skip
    tmux.wait_for("host", shows("Peek"), "Peek, by the name its own words give it, in the lobby")
    tmux.wait_for("host", shows("Seconds a turn"), "Peek's own option, in its own words")
    tmux.launch(
        "xenia", ["join", f"127.0.0.1:{port}", "--name", "Xenia", "--lang", "en", "--no-zeroconf"]
    )
    tmux.wait_for("host", shows(seat_re("Xenia", "here")), "Xenia seated")
    tmux.keys("host", "b")  # a bot of Peek's own joins
    tmux.wait_for("host", shows("Players (2)"), "the bot seated")
    tmux.keys("host", "s")
    # Xenia's turn runs out (Peek's timer), the bot reveals its card: the game is over
    over = "The game is over!"
    tmux.wait_for("host", shows(over), "the end of the game on the table", timeout=30)
    tmux.wait_for("xenia", shows("Results"), "the results on Xenia's screen", timeout=30)


def test_without_its_distribution_the_host_knows_no_such_game():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(HUBBUB), "host", "--game", "peek", "--no-zeroconf", "--no-web"],
        env=env, capture_output=True, text=True, timeout=60, check=False, cwd="/",
    )  # fmt: skip
    assert done.returncode == 2 and "invalid choice: 'peek'" in done.stderr, done.stderr
