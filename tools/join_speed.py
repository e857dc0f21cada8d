"""How long `hubbub join` takes to seat a player: from starting the command to the host
seeing the seat connected, and to the player's own screen showing the table.

    .venv/bin/python tools/join_speed.py              # 10 joins, the median and the range
    .venv/bin/python tools/join_speed.py --joins 20

A host without a screen (`tools/hostd.py`, an open Tally Up! table on 127.0.0.1) reports
every room change as a JSON line; each join runs the real player app, `hubbub join ADDRESS
--name Pn --no-zeroconf`, in a tmux window of its own (it needs a terminal), and is timed from
the moment the command is started until the host's line shows seat Pn connected ("seated":
Python's start, the imports the command needs, the TCP connect and the handshake — the
connection is opened while Textual loads, `net.client.EarlyLink`), and until the player's
window shows the lobby, "Seated." on its status line ("on screen": Textual's start and first frames
too; the window is read with `tmux capture-pane` every few milliseconds). The tmux server
is started before the first join and the windows are killed after each one; every wait has
a deadline.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=10)
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux is needed (the player app needs a terminal)", file=sys.stderr)
        return 1
    hubbub = Path(sys.executable).with_name("hubbub")
    host = subprocess.Popen(
        [sys.executable, str(ROOT / "tools" / "hostd.py"), "--open"],
        stdout=subprocess.PIPE,
        text=True,
    )
    seen: dict[str, float] = {}
    ready = threading.Event()
    port: list[int] = []

    def read() -> None:
        assert host.stdout is not None
        for line in host.stdout:
            now = time.perf_counter()
            record = json.loads(line)
            if "ready" in record:
                port.append(record["ready"])
                ready.set()
            for seat in record.get("seats", []):
                if seat["connected"]:
                    seen.setdefault(seat["name"], now)

    threading.Thread(target=read, daemon=True).start()
    socket = Path(tempfile.mkdtemp()) / "tmux"
    tmux = ["tmux", "-S", str(socket)]
    times: list[float] = []
    shown: list[float] = []
    try:
        if not ready.wait(20):
            raise SystemExit("the host did not start")
        window = ["-x", "80", "-y", "24"]
        subprocess.run([*tmux, "new-session", "-d", "-s", "bench", *window], check=True)
        with tempfile.TemporaryDirectory() as state:
            for n in range(args.joins):
                name = f"P{n}"
                command = (
                    f"HUBBUB_STATE_DIR={state} {hubbub} join 127.0.0.1:{port[0]} "
                    f"--name {name} --no-zeroconf --lang en"
                )
                start = time.perf_counter()
                new = [*tmux, "new-window", "-t", "bench", "-n", name, command]
                subprocess.run(new, check=True)
                deadline = start + 20
                while name not in seen:
                    if time.perf_counter() > deadline:
                        raise SystemExit(f"{name} was not seated within 20 s")
                    time.sleep(0.002)
                times.append(seen[name] - start)
                pane = [*tmux, "capture-pane", "-p", "-t", f"bench:{name}"]
                while "Seated." not in subprocess.run(pane, capture_output=True, text=True).stdout:
                    if time.perf_counter() > deadline:
                        raise SystemExit(f"{name}'s screen did not show the lobby within 20 s")
                    time.sleep(0.005)
                shown.append(time.perf_counter() - start)
                subprocess.run([*tmux, "kill-window", "-t", f"bench:{name}"], check=False)
                time.sleep(0.3)  # the player's app ends before the next one starts
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
        host.terminate()
        host.wait(10)
    for what, values in (("seated", times), ("on screen", shown)):
        ms = sorted(t * 1000 for t in values)
        print(
            f"hubbub join -> {what}, {len(ms)} joins: median {statistics.median(ms):.0f} ms, "
            f"range {ms[0]:.0f}-{ms[-1]:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
