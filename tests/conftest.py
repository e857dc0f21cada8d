from __future__ import annotations

from pathlib import Path

import pytest

from games import GAMES
from games.base import register
from tests.fakegame import PEEK
from tui.i18n import add_words

PEEK_WORDS = Path(__file__).parent / "peek"


@pytest.fixture
def peek():
    """Peek, registered for the length of one test (its words stay: they name only Peek)."""
    add_words(PEEK_WORDS)
    register(PEEK)  # as its entry point would (tests/plugin, tests/e2e/test_plugin_game.py)
    yield PEEK
    GAMES.pop("peek", None)


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch):
    """Tokens and save files of a test stay in its own folder; so does the keymap file (a
    developer's own remapped keys must not change what a test presses)."""
    path = tmp_path / "state"
    monkeypatch.setenv("HUBBUB_STATE_DIR", str(path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return path
