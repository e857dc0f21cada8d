"""End to end through a real browser: the real `hubbub host` (in tmux) serves its web seat,
a headless Chromium — Debian's, driven by Playwright, no browser downloaded — opens the page,
joins by keys with a name and the room code, and plays a Tally Up! sealed choice; the table
shows the seat. A reload takes the seat back. The page's screen lands in
`screenshots/browser-player-en.png`.

The other player is this test, on the wire (`net.client.Client`): its views say exactly what
the table is at, so the test waits for states, never for the clock, and plays its own seat
(choose dice, roll, shout) so that the browser's player gets to a sealed choice, whatever the
dice do.

Nothing leaves the loopback: the host binds 127.0.0.1, Chromium resolves no other name, its
background traffic is off, and every request the page makes is checked (and any other one
aborted and failed on).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from net.client import Client, TokenStore
from tests.e2e.test_tmux import free_port, seat_re, shows

CHROMIUM = next(
    (p for p in ("/usr/bin/chromium", shutil.which("chromium") or "") if p and os.path.exists(p)),
    None,
)
playwright_api = pytest.importorskip(
    "playwright.async_api", reason="Playwright is not installed (pip install '.[test]')"
)
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not on PATH"),
    pytest.mark.timeout(150),
]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "screenshots" / "browser-player-en.png"
WAIT = 20.0  # seconds for any one state; a Python process per page on a busy 2-core CI
ANSI = re.compile(r"\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\x1b[=>]")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


class Screen:
    """What the page's terminal was sent, as text: the escape codes taken out, every frame
    kept. Enough to wait for a line to appear (the terminal draws on a canvas: no DOM text)."""

    def __init__(self) -> None:
        self.frames: list[str] = []

    def add(self, payload: bytes | str) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        self.frames.append(ANSI.sub("", text))

    def since(self, mark: int) -> str:
        return "".join(self.frames[mark:])

    async def wait(self, text: str, mark: int = 0, timeout: float = WAIT) -> float:
        start = time.monotonic()
        while text not in self.since(mark):
            if time.monotonic() - start > timeout:
                tail = self.since(mark)[-1500:]
                raise AssertionError(f"the page never showed {text!r}; it got …{tail!r}")
            await asyncio.sleep(0.05)
        return time.monotonic() - start


class Yuri:
    """The test's own player, on the wire: keeps the latest view and plays its own turns."""

    def __init__(self, port: int, code: str, tokens: Path) -> None:
        self.view: dict = {}
        self.room: dict = {}
        self.changed = asyncio.Event()
        self.client = Client(
            "127.0.0.1", port, name="Yuri", code=code, tokens=TokenStore(tokens),
            on_message=self._message,
        )  # fmt: skip

    def _message(self, message: dict) -> None:
        if message["type"] == "view":
            self.room, self.view = message["room"], message["game"] or {}
            self.version = message["version"]
            self.changed.set()

    async def until(self, test, what: str, timeout: float = WAIT) -> float:
        start = time.monotonic()
        while not test():
            left = timeout - (time.monotonic() - start)
            if left <= 0:
                raise AssertionError(f"the table never got to {what}: {self.room} {self.view}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return time.monotonic() - start

    def seat_of(self, name: str) -> int | None:
        names = [s["name"] for s in self.room.get("seats", [])]
        return names.index(name) if name in names else None

    def play_own_turn(self) -> None:
        """Yuri's part, whatever the dice did: its turn's moves, and a shout when it can."""
        legal, view = self.view.get("legal", []), self.view
        if "choose_dice" in legal:
            self.act({"type": "choose_dice", "dice": ["red", "yellow", "blue"]})
        elif "roll" in legal:
            self.act({"type": "roll"})
        elif "bonus_dice" in legal:
            self.act({"type": "bonus_dice", "dice": view["unused"][: view["bonus_count"]]})
        elif "shout" in legal:
            self.act({"type": "shout"})

    def act(self, action: dict) -> None:
        self.client.act(action, self.version)


async def test_a_seat_from_a_browser(tmux, tmp_path, record_property):
    port, web_port = free_port(), free_port()
    tmux.open_window("host", tmp_path / "host")
    tmux.launch(
        "host",
        ["host", "--interface", "127.0.0.1", "--port", str(port), "--web-port", str(web_port),
         "--game", "tallyup", "--lang", "en", "--no-zeroconf"],
    )  # fmt: skip
    code_re = re.compile(r"Players type this code:.*\n.*?((?:[A-Z] {2}){3}[A-Z])")
    found, _ = tmux.wait_for("host", code_re.search, "the room code")
    room_code = found.group(1).replace(" ", "")  # type: ignore[attr-defined]
    url = f"http://127.0.0.1:{web_port}"
    tmux.wait_for("host", shows(url), "the web seat's address in the lobby")

    yuri = Yuri(port, room_code, tmp_path / "yuri-tokens.json")
    link = asyncio.create_task(yuri.client.run())
    await yuri.until(lambda: yuri.seat_of("Yuri") == 0, "Yuri in seat 1")

    outside: list[str] = []
    screen = Screen()
    typed: list[str] = []  # what the page sent its player app: the keys that left the browser

    async def only_this_host(route) -> None:
        if route.request.url.startswith(url + "/"):
            await route.continue_()
        else:
            outside.append(route.request.url)
            await route.abort()

    def watch(socket) -> None:
        if not socket.url.startswith(f"ws://127.0.0.1:{web_port}/"):
            outside.append(socket.url)
        socket.on("framereceived", screen.add)
        socket.on("framesent", lambda payload: typed.append(payload))

    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            await page.route("**/*", only_this_host)
            page.on("websocket", watch)

            # --- the page, then the join form, by keys -----------------------------------
            started = time.monotonic()
            await page.goto(url + "/")
            await screen.wait("Your name")
            page_load = time.monotonic() - started
            assert "Type address" not in screen.since(0)  # only this table: no other
            await page.keyboard.type("Wendy")
            await page.keyboard.press("Enter")
            # Enter moves the focus to the code field on the app's next tick, and nothing on
            # the screen tells when (both fields are drawn from the start): a person's pause,
            # as in test_lan.py, before the code.
            await page.wait_for_timeout(300)
            await page.keyboard.type(room_code.lower())
            await page.keyboard.press("Enter")
            await yuri.until(lambda: yuri.seat_of("Wendy") == 1, "Wendy in seat 2")
            await in_thread(tmux.wait_for, "host", shows(seat_re("Wendy", "here")), "Wendy here")

            # --- a game of Tally Up!: Wendy's keys until she seals a choice -------------------
            tmux.keys("host", "s")
            await yuri.until(lambda: yuri.room.get("phase") == "playing", "the game")
            wendy, pressed_at, pressed, mark = 1, 0.0, None, len(screen.frames)
            deadline = time.monotonic() + WAIT * 2

            def sealed() -> bool:
                locked = yuri.view.get("locked") or []
                return len(locked) > wendy and locked[wendy]

            while not sealed():
                assert time.monotonic() < deadline, f"no sealed choice: {yuri.view}"
                view = yuri.view
                yuri.play_own_turn()
                keys, prompt = browser_keys(view, wendy)
                if keys and keys != pressed:  # one press per state, as a person would
                    await screen.wait(prompt, mark)  # she sees it before she types
                    pressed, mark = keys, len(screen.frames)
                    for key in keys:
                        pressed_at = time.monotonic()
                        await page.keyboard.press(key)
                    if keys == ["i"]:
                        break
                await yuri.until(lambda v=view: yuri.view is not v, "a change", timeout=5)
            try:
                await yuri.until(sealed, "Wendy's sealed choice")
            except AssertionError as lost:
                left = any(frame == '["stdin","i"]' for frame in typed)
                where = "reached her player app" if left else "never left the browser"
                raise AssertionError(
                    f"Wendy's `i` {where}; her page last showed …{screen.since(mark)[-800:]!r}"
                ) from lost
            key_to_table = time.monotonic() - pressed_at
            await screen.wait("◀ sealed", mark, timeout=5)  # her screen says so too
            chosen = re.compile(r"Wendy\b.*chosen ✔")  # the table: that she chose, not which
            await in_thread(tmux.wait_for, "host", chosen.search, "Wendy's seat, chosen")
            await page.wait_for_timeout(400)  # the terminal's last frame painted
            SCREENSHOT.parent.mkdir(exist_ok=True)
            await page.screenshot(path=str(SCREENSHOT))
            assert SCREENSHOT.stat().st_size > 10_000
            memory = player_memory(port)

            # --- a reload takes the seat back ---------------------------------------------
            mark = len(screen.frames)
            started = time.monotonic()
            await page.reload()
            await screen.wait("Tally Up", mark)
            await yuri.until(
                lambda: (
                    yuri.room["seats"][wendy].get("connected", True)
                    and len(yuri.room["seats"]) == 2
                ),
                "Wendy back in her seat",
            )
            reload_back = time.monotonic() - started
            assert [s["name"] for s in yuri.room["seats"]] == ["Yuri", "Wendy"]
            await in_thread(tmux.wait_for, "host", shows("Wendy is back."), "Wendy back")

            # --- a host killed outright leaves no player app behind -------------------------
            tmux.running.pop("host", None)  # it is meant to end now
            os.kill(pid_of("--web-port", str(web_port)), signal.SIGKILL)
            deadline = time.monotonic() + WAIT
            while player_memory(port) is not None:
                assert time.monotonic() < deadline, "a web seat's player app outlived its host"
                await asyncio.sleep(0.1)
        finally:
            await browser.close()
            await yuri.client.close()
            link.cancel()

    assert outside == [], f"the page asked outside this host: {outside}"
    record_property("page_to_join_form_s", round(page_load, 2))
    record_property("browser_key_to_table_s", round(key_to_table, 3))
    record_property("reload_to_seat_back_s", round(reload_back, 2))
    record_property("player_app_rss_mb", memory)
    print(
        f"\npage -> join form {page_load:.2f} s; browser key -> the table's view "
        f"{key_to_table * 1000:.0f} ms; reload -> seat back {reload_back:.2f} s; "
        f"a web seat's player app: {memory} MB RSS"
    )


async def in_thread(function, *args):
    """A blocking poll (tmux) off the event loop: the test's own player keeps answering
    the host's pings meanwhile."""
    return await asyncio.to_thread(function, *args)


def browser_keys(view: dict, seat: int) -> tuple[list[str] | None, str]:
    """The keys Wendy presses for what the table is at (None: it is not up to her), and
    what her screen shows first."""
    phase, active = view.get("phase"), view.get("active")
    if phase == "choice" and not view["out"][seat] and not view["locked"][seat]:
        # her hand's own line, drawn only from a view of hers that takes the side: "IN or
        # OUT?" alone is also the feed's narration and the phase line of a seat that can't
        return ["i"], "Your sealed choice"
    if active != seat:
        return None, ""
    if phase == "choose_dice":
        return ["1", "2", "3", "Enter"], "choose your three dice"
    if phase in ("roll", "up_die"):
        return ["r"], "press r"
    if phase == "bonus_dice":
        return [str(n + 1) for n in range(view["bonus_count"])] + ["Enter"], "Bonus roll: pick"
    return None, ""


def processes(*words: str) -> list[int]:
    """The processes whose command line holds all of `words` (as whole arguments)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if all(word.encode() in argv for word in words):
            found.append(int(proc.name))
    return found


def pid_of(*words: str) -> int:
    """The one `hubbub host` process with `words` in its command line (not the shell's)."""
    pids = processes("host", *words)
    assert len(pids) == 1, pids
    return pids[0]


def player_memory(table_port: int) -> float | None:
    """The resident memory (MB) of the web seat's player app (None: there is none)."""
    for pid in processes("--only-this-table", f"127.0.0.1:{table_port}"):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        kb = re.search(r"VmRSS:\s+(\d+)", status)
        return round(int(kb.group(1)) / 1024, 1) if kb else None
    return None
