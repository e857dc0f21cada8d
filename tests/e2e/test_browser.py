"""End to end through a real browser: the real `hubbub host` (in tmux) serves its web seat,
a headless Chromium — Debian's, driven by Playwright, no browser downloaded — opens the page,
joins by keys with a name and the room code, and plays a Tally Up! sealed choice; the table
shows the seat. A reload takes the seat back; a host killed outright and resumed gets the seat
back with no reload at all.

The other player is this test, on the wire (`tests.e2e.browser.Yuri`): its views say exactly
what the table is at, so the test waits for states, never for the clock, and plays its own
seat (choose dice, roll, shout) so that the browser's player gets to a sealed choice, whatever
the dice do.

Nothing leaves the loopback: the host binds 127.0.0.1, Chromium resolves no other name, its
background traffic is off, and every request the page makes is checked (and any other one
aborted and failed on). The page's picture goes to the test's own folder (no test writes a
tracked file; `tools/phone_shots.py` writes `screenshots/`).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

import pytest

from tests.e2e.browser import WAIT, Page, chromium, needs_chromium, table_code, yuri_seated
from tests.e2e.test_tmux import free_port, seat_re, shows

pytestmark = [*needs_chromium, pytest.mark.timeout(150)]


def host_with_web_seats(tmux, tmp_path: Path, *more: str) -> tuple[int, str]:
    """`hubbub host` in tmux with its web seats; returns the table's port and the web URL."""
    port, web_port = free_port(), free_port()
    tmux.open_window("host", tmp_path / "host")
    tmux.launch(
        "host",
        ["host", "--interface", "127.0.0.1", "--port", str(port), "--web-port", str(web_port),
         "--game", "tallyup", "--lang", "en", "--no-zeroconf", *more],
    )  # fmt: skip
    url = f"http://127.0.0.1:{web_port}"
    tmux.wait_for("host", shows(url), "the web seat's address in the lobby")
    return port, url


async def join_by_keys(page: Page, name: str, code: str) -> None:
    """The join form, typed as a person types: the name, Enter, the code, Enter — at once,
    with no pause between the fields (the form takes keys typed ahead)."""
    await page.wait_text("Your name")
    await page.page.keyboard.type(name)
    await page.page.keyboard.press("Enter")
    await page.page.keyboard.type(code.lower())
    await page.page.keyboard.press("Enter")


async def seated(page: Page, yuri, name: str, seat: int) -> None:
    """Until `name` is seated (in `seat`, here) at the table; else the failure says what the
    page shows too (a join form with the name and code it got)."""
    try:
        there = lambda: yuri.seat_of(name) == seat and yuri.connected(name)  # noqa: E731
        await yuri.until(there, f"{name} in seat {seat + 1}")
    except AssertionError as stuck:
        raise AssertionError(f"{stuck}\nthe page shows:\n{await page.text()}") from None


async def test_a_seat_from_a_browser(tmux, tmp_path, record_property):
    port, url = host_with_web_seats(tmux, tmp_path)
    room_code = table_code(tmux)
    async with yuri_seated(port, room_code, tmp_path) as yuri, chromium() as browser:
        context = await browser.new_context(viewport={"width": 1000, "height": 640})
        started = time.monotonic()
        page = await Page.open(context, url)
        await page.wait_text("Your name")
        page_load = time.monotonic() - started
        assert "Type address" not in await page.text()  # only this table: no other
        await join_by_keys(page, "Wendy", room_code)
        await seated(page, yuri, "Wendy", 1)
        await in_thread(tmux.wait_for, "host", shows(seat_re("Wendy", "here")), "Wendy here")

        # --- a game of Tally Up!: Wendy's keys until she seals a choice -------------------
        tmux.keys("host", "s")
        await yuri.until(lambda: yuri.room.get("phase") == "playing", "the game")
        wendy, pressed_at, pressed = 1, 0.0, None
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
                await page.wait_text(prompt)  # she sees it before she types
                pressed = keys
                for key in keys:
                    pressed_at = time.monotonic()
                    await page.page.keyboard.press(key)
                if keys == ["i"]:
                    break
            await yuri.until(lambda v=view: yuri.view is not v, "a change", timeout=5)
        try:
            await yuri.until(sealed, "Wendy's sealed choice")
        except AssertionError as lost:
            left = any(frame == '["stdin","i"]' for frame in page.sent)
            where = "reached her player app" if left else "never left the browser"
            raise AssertionError(
                f"Wendy's `i` {where}; her page shows:\n{await page.text()}"
            ) from lost
        key_to_table = time.monotonic() - pressed_at
        await page.wait_text("◀ sealed", timeout=5)  # her screen says so too
        chosen = re.compile(r"Wendy\b.*sealed ✔")  # the table: that she chose, not which
        await in_thread(tmux.wait_for, "host", chosen.search, "Wendy's seat, chosen")
        shots = Path(os.environ.get("HUBBUB_BROWSER_SHOTS") or tmp_path)
        picture = shots / "browser-player-en.png"  # tools/phone_shots.py: screenshots/
        await page.page.screenshot(path=str(picture))
        assert picture.stat().st_size > 10_000
        memory = player_memory(port)

        # --- a reload takes the seat back ---------------------------------------------
        started = time.monotonic()
        await page.page.reload()
        await page.wait_text("Tally Up")
        await yuri.until(
            lambda: yuri.connected("Wendy") and len(yuri.room["seats"]) == 2,
            "Wendy back in her seat",
        )
        reload_back = time.monotonic() - started
        assert [s["name"] for s in yuri.room["seats"]] == ["Yuri", "Wendy"]
        await in_thread(tmux.wait_for, "host", shows("Wendy is back."), "Wendy back")

        # --- a host killed outright leaves no player app behind -------------------------
        tmux.running.pop("host", None)  # it is meant to end now
        os.kill(pid_of("--web-port", url.rsplit(":", 1)[1]), signal.SIGKILL)
        deadline = time.monotonic() + WAIT
        while player_memory(port) is not None:
            assert time.monotonic() < deadline, "a web seat's player app outlived its host"
            await asyncio.sleep(0.1)
        assert page.outside == [], f"the page asked outside this host: {page.outside}"
        assert page.errors == [], page.errors

    record_property("page_to_join_form_s", round(page_load, 2))
    record_property("browser_key_to_table_s", round(key_to_table, 3))
    record_property("reload_to_seat_back_s", round(reload_back, 2))
    record_property("player_app_rss_mb", memory)
    print(
        f"\npage -> join form {page_load:.2f} s; browser key -> the table's view "
        f"{key_to_table * 1000:.0f} ms; reload -> seat back {reload_back:.2f} s; "
        f"a web seat's player app: {memory} MB RSS"
    )


async def test_a_browser_seat_comes_back_after_the_host_is_killed_and_resumed(
    tmux, tmp_path, record_property
):
    """Mid-game, the host is killed outright (kill -9) and started again with `--resume`: the
    page says the table is lost, in the player app's words, keeps trying, and takes Wendy's
    seat back by itself — no reload, no touch — before any bot could take it."""
    port, url = host_with_web_seats(tmux, tmp_path)
    room_code = table_code(tmux)
    async with yuri_seated(port, room_code, tmp_path) as yuri, chromium() as browser:
        page = await Page.open(await browser.new_context(), url)
        await join_by_keys(page, "Wendy", room_code)
        await seated(page, yuri, "Wendy", 1)
        tmux.keys("host", "s")
        await yuri.until(lambda: yuri.room.get("phase") == "playing", "the game")
        await page.wait_text("Tally Up")
        await page.page.evaluate("window.sameDocument = true")  # gone after any reload

        tmux.running.pop("host", None)  # it is meant to end now
        pid = pid_of("--web-port", url.rsplit(":", 1)[1])
        last_view = yuri.view  # every view after it comes from the resumed table
        killed = time.monotonic()
        os.kill(pid, signal.SIGKILL)
        await page.page.wait_for_selector("body.-down #link", timeout=WAIT * 1000)
        said = await page.page.text_content("#link")
        assert said is not None and said.startswith("Table lost")  # link.reconnecting

        # a killed app leaves its terminal raw: the host starts again in a fresh one
        tmux.open_window("again", tmp_path / "host")
        tmux.launch("again", ["host", "--resume"])
        await page.wait_state(lambda s: s["open"], "the link open again")
        await yuri.until(
            lambda: yuri.view is not last_view and yuri.connected("Wendy"),
            "Wendy back in her seat at the resumed table",
        )
        back = time.monotonic() - killed
        seat = yuri.room["seats"][1]
        assert seat["name"] == "Wendy" and not seat.get("standin"), seat
        assert await page.page.evaluate("window.sameDocument") is True  # no reload
        assert not await page.page.evaluate("document.body.classList.contains('-down')")
        await page.wait_text("Tally Up")
        assert page.errors == [], page.errors
    record_property("kill_to_browser_seat_back_s", round(back, 2))
    print(f"\nhost killed -> resumed -> the browser's seat back: {back:.2f} s")


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


async def test_a_browser_seat_through_lost_wifi_another_tab_and_leaving(tmux, tmp_path):
    """The page's link as the evening goes: the Wi-Fi goes (the socket stays open but nothing
    comes through) — the page notices by itself, says so, and takes the seat back when the
    network returns; the same browser opens the seat in a second tab — the first says where
    the seat went and stays quiet (two tabs would take it from each other for ever); the
    player leaves with `q` — the page says the app closed and does not start it again."""
    port, url = host_with_web_seats(tmux, tmp_path, "--open")
    async with yuri_seated(port, None, tmp_path) as yuri, chromium() as browser:
        context = await browser.new_context()
        page = await Page.open(context, url)
        await join_by_keys(page, "Wendy", "")
        await seated(page, yuri, "Wendy", 1)

        await context.set_offline(True)  # the Wi-Fi goes; nothing closes the socket
        await page.page.wait_for_selector("body.-down #link", timeout=WAIT * 1000)
        await context.set_offline(False)
        await page.wait_state(lambda s: s["open"], "the link open again")
        await yuri.until(lambda: yuri.connected("Wendy"), "Wendy back")
        await page.wait_text("Wendy")

        second = await Page.open(context, url)  # the same browser: the same seat
        await second.wait_text("Wendy")
        await page.wait_state(lambda s: s["told"] == 4005, "the first tab told")
        assert "another page" in (await page.page.text_content("#ended p") or "")
        await yuri.until(lambda: yuri.connected("Wendy"), "Wendy in the second tab")

        await second.page.keyboard.press("q")  # leave (the lobby: no question asked)
        await second.wait_state(lambda s: s["told"] == 4000, "the app ended")
        await second.page.wait_for_selector("body.-closed #ended", timeout=WAIT * 1000)
        await yuri.until(lambda: yuri.seat_of("Wendy") is None, "Wendy's seat freed")
        assert page.errors == second.errors == [], page.errors + second.errors


async def test_a_fifth_browser_behind_one_address_gets_in_when_a_page_closes(tmux, tmp_path):
    """Five phones behind one NAT (one address): four pages run, the fifth is told its
    address has its pages (a short page, 503) — and tries again by itself, so it opens soon
    after one of the four closes, with no touch."""
    _, url = host_with_web_seats(tmux, tmp_path, "--open")
    async with chromium() as browser:
        pages = [await Page.open(await browser.new_context(), url) for _ in range(4)]
        for page in pages:
            await page.wait_state(lambda s: s["open"], "a page open")
        fifth = await Page.open(await browser.new_context(), url)
        said = await fifth.page.text_content("body") or ""  # the short page, in words
        assert "already has 4 pages open" in said, said
        await pages[0].page.close()  # one guest leaves
        deadline = time.monotonic() + WAIT
        while not await the_seat_page(fifth):  # the short page tries again by itself
            assert time.monotonic() < deadline, await fifth.page.text_content("body")
            await asyncio.sleep(0.2)
        await fifth.wait_state(lambda s: s["open"], "the fifth page open")
        await fifth.wait_text("Your name")


async def the_seat_page(page: Page) -> bool:
    """Whether the page is the seat's own (its script running), not a short refusal."""
    try:
        return await page.page.evaluate("typeof window.hubbubSeat === 'object'")
    except Exception:  # between two loads of the page: not yet
        return False
