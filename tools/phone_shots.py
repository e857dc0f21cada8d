"""Pictures of the browser seat as a guest sees it: a phone (390×844, touch, device scale 3)
playing a whole game of Tally Up! and a round of Tesauro, in both languages, and a laptop's
browser at a sealed choice. They are taken by the browser tests themselves, run here with a
folder to keep them in:

    .venv/bin/python tools/phone_shots.py   # screenshots/phone/, screenshots/browser-player-en.png

Needs Debian's Chromium and tmux, as the tests do (`apt-get install chromium tmux libzbar0`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(test: str, **env: str) -> int:
    command = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", test]
    return subprocess.run(command, cwd=ROOT, env={**os.environ, **env}, check=False).returncode


def main() -> int:
    phone = ROOT / "screenshots" / "phone"
    phone.mkdir(parents=True, exist_ok=True)
    failed = 0
    for lang in ("en", "ru"):
        failed |= run(
            "tests/e2e/test_browser_phone.py",
            HUBBUB_PHONE_SHOTS=str(phone),
            HUBBUB_PHONE_LANG=lang,
        )
    failed |= run(
        "tests/e2e/test_browser.py::test_a_seat_from_a_browser",
        HUBBUB_BROWSER_SHOTS=str(ROOT / "screenshots"),
    )
    print(f"pictures in {phone.relative_to(ROOT)}/ and screenshots/browser-player-en.png")
    return failed


if __name__ == "__main__":
    sys.exit(main())
