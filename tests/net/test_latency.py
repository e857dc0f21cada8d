"""A key press reaches every screen: measured over real sockets (how fast: tools/).

The quick version of `tools/latency.py`: the host runs in this process (the tool puts it in
a child process of its own), but every frame goes through TCP on 127.0.0.1, is decoded by
the screen that receives it, and is stamped when it has been. Nothing here asserts a speed
(a busy CI machine is no place for that): the figures are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import asyncio

from tools.latency import HostProcess, measure, open_host, percentile, run

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
