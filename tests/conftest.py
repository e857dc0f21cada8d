from __future__ import annotations

import pytest

from games import GAMES
from tests.fakegame import PEEK


@pytest.fixture
def peek():
    """Peek, registered for the length of one test."""
    GAMES["peek"] = PEEK
    yield PEEK
    GAMES.pop("peek", None)


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch):
    """Tokens and save files of a test stay in its own folder."""
    path = tmp_path / "state"
    monkeypatch.setenv("HUBBUB_STATE_DIR", str(path))
    return path
