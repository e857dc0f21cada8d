from __future__ import annotations

import pytest

from net.room import Room
from net.server import Server


@pytest.fixture
async def table(peek, state_dir):
    """A Peek table with a room code, its host listening on 127.0.0.1."""
    room = Room("Friday", game_id="peek", save_path=state_dir / "table.save")
    server = Server(room, host="127.0.0.1", port=0)
    await server.start()
    yield server
    await server.close()
    room.close()
