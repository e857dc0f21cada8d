"""A key press reaches every screen: measured over real sockets (how fast: tools/).

The quick version of `tools/latency.py`: the host runs in this process (the tool puts it in
a child process of its own), but every frame goes through TCP on 127.0.0.1, is decoded by
the screen that receives it, and is stamped when it has been. Nothing here asserts a speed
(a busy CI machine is no place for that): the figures are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import asyncio
import shutil

import pytest

from tools.latency import (
    BGIO,
    HostProcess,
    measure,
    open_host,
    paired_sweep,
    paired_table,
    percentile,
    run,
)

PLAYERS = 4
ROUNDS = 200


async def test_an_action_reaches_every_screen_once_per_change():
    room, server, probe = await open_host(PLAYERS)
    try:
        figures = await asyncio.wait_for(measure(server.port, PLAYERS, ROUNDS), 30.0)
    finally:
        await server.close()
        room.close()
    figures.add_host(probe.records)

    # Measured over the wire: the host's room applied every toggle (its own stamps, one per
    # action, made after its views were written to the sockets), and every screen received,
    # decoded and stamped a view frame of each resulting version.
    assert len(figures.every) == len(figures.own) == ROUNDS
    assert len(figures.host) == ROUNDS  # every action version stamped by room.act on the host
    assert all(up >= 0 for up in figures.uplink)  # the host saw each one after it was sent
    assert len(figures.view_frame) == PLAYERS * ROUNDS
    assert min(figures.view_frame) > 500  # whole views, not stubs
    assert figures.wire_bytes >= sum(figures.view_frame)  # one frame per seat per move
    assert sum(action["type"] == "token" for _, action in room.log) == ROUNDS

    # How fast is for the benchmark (docs/PERFORMANCE.md), not for a test on a busy machine:
    # here, only that every screen saw each move after its own player did.
    assert all(every >= own for every, own in zip(figures.every, figures.own, strict=True))


def test_the_tool_runs_the_host_in_a_process_of_its_own_and_ends_it():
    figures = run(2, 20, connections=3, warmup=5, gap=0.001)
    assert len(figures.every) == 20 and figures.connections == 3  # a watcher too
    assert len(figures.host) == 20  # the child's stamps came back over the pipe
    assert percentile(figures.every, 50) > 0
    assert sum(figures.host_cpu) > 0 and figures.host_rss > 10 * 2**20

    with HostProcess(2) as host:
        process = host._process
        assert process.is_alive() and host.port > 0
    assert not process.is_alive()


@pytest.mark.skipif(
    shutil.which("node") is None or not (BGIO / "node_modules" / "boardgame.io").is_dir(),
    reason="boardgame.io is not installed (cd tools/bgio && npm ci)",
)
def test_boardgame_io_is_measured_beside_it_the_same_way():
    options = {"rounds": 20, "warmup": 5, "gap": 0.001, "save_dir": None, "seed": 1}
    results = paired_sweep([2, 12], 1, profile=None, app=False, **options)
    (two,), (twelve,) = results[2], results[12]
    assert twelve["hubbub"]["connections"] == twelve["bgio"]["connections"] == 12
    assert (twelve["bgio"]["players"], twelve["bgio"]["spectators"]) == (10, 2)
    for pair in (two, twelve):
        bgio = pair["bgio"]
        assert bgio["version"] == "0.50.2" and bgio["rounds"] == 20
        # every client had every move (clients.js checks each state), whole states each time
        assert bgio["every_screen_ms"]["median"] >= bgio["own_view_ms"]["median"] > 0
        assert bgio["bytes_per_client_per_move"] > 300 and bgio["server_cpu_ms_per_move"] > 0
        assert pair["ratio"]["median"] > 0
    table = paired_table(results)
    assert "ratio med" in table and len(table.splitlines()) == 5
