"""End to end on the LAN path, kept to loopback: the real `hubbub host` advertises itself with
zeroconf on 127.0.0.1, the real `hubbub join` lists it without anyone typing an address, a
player joins it by keys with the room code; SIGTERM takes the advertisement down."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time

from net.discovery import Browser
from tests.e2e.test_tmux import free_port, seat_re, shows
from tests.net.test_discovery import MDNS

pytestmark = MDNS  # with the other tests of real mDNS on the loopback


def pid_of(pattern: str) -> int:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    pids = [int(p) for p in found.stdout.split()]
    assert len(pids) == 1, f"{pattern!r}: {pids}"
    return pids[0]


async def seen(browser_hosts: dict, test, timeout: float = 8.0) -> float:
    start = time.monotonic()
    while not test(browser_hosts()):
        assert time.monotonic() - start < timeout, browser_hosts()
        await asyncio.sleep(0.05)
    return time.monotonic() - start


def listed_ports(screen: str) -> list[int]:
    """The tables in the player's list, top to bottom, by the port each row ends with
    ("Kitchen 4242  Tally Up!  0 seated  code  127.0.0.1:47470")."""
    return [int(port) for port in re.findall(r"\d+ seated\b.*?:(\d+)", screen)]


def pick_table(tmux, port: int, name: str) -> None:
    """Down to the table on `port` in the list, then Enter — as a person picks theirs among
    other tables (another test run's, say) — until the join screen is that table's: the list
    may change between a look and a key."""
    for _attempt in range(5):
        screen, _ = tmux.wait_for("player", lambda s: port in listed_ports(s) and s, name)
        downs = ["Down"] * listed_ports(screen).index(port)  # type: ignore[arg-type]
        # from the top (a retry finds the list's highlight where it was), at a person's pace:
        # an Enter hard on the heels of a Down joined the table the Down had left
        for key in ["Home", *downs, "Enter"]:
            tmux.keys("player", key)
            time.sleep(0.2)
        join, _ = tmux.wait_for("player", lambda s: "Your name" in s and s, "the join screen")
        if f"127.0.0.1:{port}" in str(join):  # ("Table at 127.0.0.1:47470")
            return
        tmux.keys("player", "Escape")  # the wrong table: back to the list
        tmux.wait_for("player", shows(name), "the list again")
    raise AssertionError(f"{name} never picked from the list:\n{tmux.capture('player')}")


async def test_found_on_the_lan_joined_by_code_and_gone_on_sigterm(tmux, tmp_path, record_property):
    """Another run of this test on the machine advertises its own table on the loopback at the
    same time (it took "Kitchen", the first in the list, for this one's): each run's table has
    a name of its own, and the player picks it from the list."""
    port = free_port()
    name = f"Kitchen {os.getpid()}"
    tmux.open_window("host", tmp_path / "host")
    tmux.open_window("player", tmp_path / "player")
    marker = tmux.launch(
        "host",
        ["host", "--interface", "127.0.0.1", "--port", str(port), "--name", name,
         "--lang", "en"],
    )  # fmt: skip
    code_re = re.compile(r"Players type this code:.*\n.*?((?:[A-Z] {2}){3}[A-Z])")
    code, _ = tmux.wait_for("host", code_re.search, "the room code")
    room_code = code.group(1).replace(" ", "")  # type: ignore[attr-defined]

    hosts: dict = {}

    def changed(found: dict) -> None:
        hosts.clear()
        hosts.update(found)

    browser = Browser(changed, interface="127.0.0.1")
    await browser.start()
    try:
        took = await seen(lambda: hosts, lambda h: any(i.port == port for i in h.values()))
        record_property("discovery_seconds", round(took, 2))
        info = next(i for i in hosts.values() if i.port == port)
        assert info.name == name and info.needs_code and info.game == "tallyup"

        # the player finds it in the list without typing an address
        start = time.monotonic()
        tmux.launch("player", ["join", "--interface", "127.0.0.1", "--lang", "en"])
        tmux.wait_for("player", shows(name), "the host in the list")
        record_property("listed_seconds", round(time.monotonic() - start, 2))
        pick_table(tmux, port, name)
        tmux.type_line("player", "Zoe")
        # a person's pause between the fields: this test is about the LAN; keys typed ahead
        # (no pause at all) are tests/tui/test_flow.py's
        time.sleep(0.2)
        tmux.type_line("player", room_code.lower())
        tmux.wait_for("host", shows(seat_re("Zoe", "here")), "Zoe seated")
        tmux.wait_for("player", shows("Seated"), "the waiting screen")

        os.kill(pid_of(f"hubbub host --interface 127.0.0.1 --port {port}"), signal.SIGTERM)
        status, _ = tmux.wait_exit("host", marker)
        assert status == 0
        gone = await seen(lambda: hosts, lambda h: all(i.port != port for i in h.values()))
        record_property("unregistered_seconds", round(gone, 2))
    finally:
        await browser.close()
