"""End to end across two "machines": two Linux network namespaces joined by a veth cable.

Namespace A holds the host, namespace B the players' laptops. The only link between them is a
veth pair with private addresses (10.231.N.1 and 10.231.N.2) that exist nowhere but inside those
two namespaces: nothing is routed, and no packet (TCP or mDNS) can leave this machine. Each
namespace has its own loopback and its own port space, so the host cannot be reached any other
way than over the cable.

- Remy joins BY ADDRESS (`hubbub join 10.231.N.1:PORT --name Remy --no-zeroconf`): with a name
  given the player app connects at once without a code, is refused with ``bad_code``, and shows
  the join screen with the error and the code field focused; the code typed there seats him.
- Suki joins BY DISCOVERY (`hubbub join --interface 10.231.N.2`): the host's zeroconf
  advertisement crosses the cable, "Attic" appears in her list with its address, and she picks
  it, types her name and the code.

The real commands run in tmux (the `Tmux` helper of test_tmux.py), each typed as
`ip netns exec NS hubbub ...; echo hubbub-exit-N=$?`. Needs root (or CAP_NET_ADMIN and
CAP_SYS_ADMIN) and iproute2: skipped, with the reason, where namespaces cannot be made.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.e2e.test_tmux import HUBBUB, Tmux, seat_re, shows

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not on PATH: the end-to-end test needs it"
)

IP = shutil.which("ip")
VETH = "lan0"  # the cable's end in each namespace (names are per namespace, so both can be lan0)
CODE_RE = re.compile(r"Players type this code:.*\n.*?((?:[A-Z] {2}){3}[A-Z])")


@dataclass(frozen=True)
class Machines:
    a: str  # the host's namespace
    b: str  # the players' namespace
    addr_a: str
    addr_b: str


def ip(*args: str) -> subprocess.CompletedProcess[str]:
    assert IP is not None
    return subprocess.run([IP, *args], capture_output=True, text=True, timeout=10, check=False)


def pids_in(ns: str) -> list[int]:
    return [int(p) for p in ip("netns", "pids", ns).stdout.split()]


def remove_namespace(ns: str) -> None:
    """Delete `ns` (and so its end of the veth) once nothing the test started runs in it.

    Killing the tmux server hangs up every pane, so the processes normally go by themselves;
    whatever is still there after a few seconds (all of it started by this test) is killed.
    """
    deadline = time.monotonic() + 5.0
    while pids_in(ns) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in pids_in(ns):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5.0
    while pids_in(ns) and time.monotonic() < deadline:
        time.sleep(0.05)
    ip("netns", "del", ns)


@pytest.fixture
def machines() -> Iterator[Machines]:
    """Two namespaces with a veth cable between them; always deleted afterwards."""
    if IP is None:
        pytest.skip("iproute2 (`ip`) is not on PATH: network namespaces are needed")
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (`ip netns add` would be refused)")
    tag = secrets.token_hex(3)
    a, b = f"hubbub-a-{tag}", f"hubbub-b-{tag}"
    net = f"10.231.{secrets.randbelow(256)}"
    created: list[str] = []
    try:
        for ns in (a, b):
            done = ip("netns", "add", ns)
            if done.returncode != 0:
                pytest.skip(f"cannot create a network namespace: {done.stderr.strip()}")
            created.append(ns)
        steps = [
            ("link", "add", VETH, "netns", a, "type", "veth", "peer", "name", VETH, "netns", b),
            ("-n", a, "addr", "add", f"{net}.1/24", "dev", VETH),
            ("-n", b, "addr", "add", f"{net}.2/24", "dev", VETH),
        ]
        for ns in (a, b):
            steps.append(("-n", ns, "link", "set", "lo", "up"))
            steps.append(("-n", ns, "link", "set", VETH, "multicast", "on", "up"))
        steps.append(("netns", "exec", a, "true"))  # `ip netns exec` needs mount namespaces too
        for step in steps:
            done = ip(*step)
            if done.returncode != 0:
                pytest.skip(f"`ip {' '.join(step)}` failed: {done.stderr.strip()}")
        yield Machines(a, b, f"{net}.1", f"{net}.2")
    finally:
        for ns in created:
            remove_namespace(ns)
        listed = ip("netns", "list").stdout.split()
        left = [ns for ns in created if ns in listed]
        assert not left, f"network namespaces left behind: {left}"


def launch_in(tmux: Tmux, who: str, ns: str, args: list[str]) -> str:
    """Like `Tmux.launch`, but the command runs in namespace `ns` (on the other "machine")."""
    marker = f"hubbub-exit-{next(tmux.launches)}"
    command = shlex.join([str(IP), "netns", "exec", ns, str(HUBBUB), *args])
    tmux.type_line(who, f"{command}; echo {marker}=$?")
    tmux.running[who] = marker
    return marker


def test_two_machines_by_address_and_by_discovery(machines, tmux, tmp_path, record_property):
    # `machines` comes before `tmux`: tmux (and every process in the panes) goes first at
    # teardown, the namespaces after it.
    assert HUBBUB.exists(), f"no `hubbub` entry point at {HUBBUB}"
    port = 20000 + secrets.randbelow(40000)  # a brand-new namespace: every port is free
    at = f"{machines.addr_a}:{port}"
    for who in ("host", "remy", "suki"):
        tmux.open_window(who, tmp_path / who)  # three laptops: three state dirs

    # --- machine A: the host, advertised on the cable only --------------------------------
    host_exit = launch_in(
        tmux, "host", machines.a,
        ["host", "--interface", machines.addr_a, "--port", str(port), "--lang", "en",
         "--name", "Attic"],
    )  # fmt: skip
    found, host_up = tmux.wait_for(
        "host",
        lambda s: at in s and CODE_RE.search(s),
        f"the lobby with the room code and the address {at}",
    )
    room_code = found.group(1).replace(" ", "")  # type: ignore[attr-defined]

    # --- machine B: Remy types the address ------------------------------------------------
    remy_exit = launch_in(
        tmux, "remy", machines.b,
        ["join", at, "--name", "Remy", "--lang", "en", "--no-zeroconf"],
    )  # fmt: skip
    started = time.monotonic()
    tmux.wait_for(
        "remy",
        lambda s: "This table has a room code" in s and at in s,
        "the join screen asking for the code (first contact over the cable)",
    )
    refused = time.monotonic() - started
    tmux.type_line("remy", room_code)  # the code field has the focus
    typed = time.monotonic()
    tmux.wait_for("host", shows(seat_re("Remy", "here")), "Remy seated on the host")
    remy_on_host = time.monotonic() - typed
    tmux.wait_for(
        "remy",
        lambda s: "Seated" in s and seat_re("Remy", "here").search(s),
        "Remy's waiting screen (Seated, Remy here)",
    )
    remy_seated = time.monotonic() - typed
    remy_total = time.monotonic() - started
    assert "Players (1)" in tmux.capture("host"), tmux.all_panes()

    # --- machine B: Suki finds the table without an address ------------------------------
    suki_exit = launch_in(
        tmux, "suki", machines.b, ["join", "--interface", machines.addr_b, "--lang", "en"]
    )
    started = time.monotonic()
    row = re.compile(rf"Attic\b.*\b1 seated\b.*{re.escape(at)}")
    tmux.wait_for("suki", shows(row), f"'Attic' in the list (1 seated, at {at})")
    listed = time.monotonic() - started
    tmux.keys("suki", "Enter")
    tmux.wait_for("suki", lambda s: "Your name" in s and at in s, f"the join screen for {at}")
    tmux.type_line("suki", "Suki")
    # the name taken (keys typed ahead, before the app has read the last, are
    # tests/tui/test_flow.py's: this test is about the LAN)
    tmux.wait_for("suki", lambda s: "Suki" in s and "Room code" in s, "the code's field")
    tmux.type_line("suki", room_code.lower())
    typed = time.monotonic()
    tmux.wait_for("host", shows(seat_re("Suki", "here")), "Suki seated on the host")
    tmux.wait_for(
        "suki",
        lambda s: "Seated" in s and seat_re("Suki", "here").search(s),
        "Suki's waiting screen (Seated, Suki here)",
    )
    suki_seated = time.monotonic() - typed
    screen = tmux.capture("host")
    assert "Players (2)" in screen, tmux.all_panes()
    assert len(seat_re("Remy").findall(screen)) == 1, tmux.all_panes()

    figures = {
        "host_startup_s": host_up,
        "by_address_join_to_refused_s": refused,
        "by_address_code_to_host_shows_seat_s": remy_on_host,
        "by_address_code_to_seated_s": remy_seated,
        "by_address_join_to_seated_s": remy_total,
        "discovery_join_to_listed_s": listed,
        "discovery_code_to_seated_s": suki_seated,
    }
    for key, value in figures.items():
        record_property(key, round(value, 3))
    print(
        "\n"
        + "\n".join(f"{key}: {value:.2f}" for key, value in figures.items())
        + "\n(by address, join_to_seated includes the test typing the code; tmux types at once)"
    )

    # --- everyone leaves cleanly ----------------------------------------------------------
    for who, marker in (("suki", suki_exit), ("remy", remy_exit)):
        tmux.keys(who, "C-q")
        status, _ = tmux.wait_exit(who, marker)
        assert status == 0, f"`hubbub join` ({who}) exited with {status}\n{tmux.all_panes()}"
    tmux.wait_for("host", shows(seat_re("Suki", "away")), "Suki away")
    tmux.keys("host", "q")
    status, _ = tmux.wait_exit("host", host_exit)
    assert status == 0, f"`hubbub host` exited with {status}\n{tmux.all_panes()}"
