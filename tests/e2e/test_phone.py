"""A guest with only a phone: the real `hubbub host` (in tmux), Debian's Chromium emulating a
phone in portrait (390×844, touch, device scale 3), and nothing typed but what a phone's own
keyboard gives (text committed by an input method) and taps — on the screen's own keys (the
footer, the dice, the tiles, the definitions) and on the page's row of keys a phone keyboard
lacks (Enter, Esc).

- Tally Up!: the guest scans the QR code the host shows with `w` (the test reads it off the
  host's screen with zbar), joins, and plays a whole game to the end against the test's own
  player on the wire.
- Tesauro: a round as a scholar (the word, a tile, a definition typed on the phone's keyboard)
  and one as the Sage (a definition chosen by a tap), with a bot at the table.

Each screen the guest sees is photographed (`HUBBUB_PHONE_SHOTS`, default the test's own
folder: `tools/phone_shots.py` writes `screenshots/phone/`), in the language of
`HUBBUB_PHONE_LANG` (Tally Up! in English, Tesauro in Russian, unless it says otherwise).
"""

from __future__ import annotations

import math
import os
import re
import time
from pathlib import Path

import pytest

from tests.e2e.browser import PHONE, WAIT, Page, Yuri, chromium, needs_chromium
from tests.e2e.test_tmux import free_port, shows
from tests.tui.test_web_lobby import zbar_reads
from tui.i18n import catalogue

pytestmark = [*needs_chromium, pytest.mark.timeout(300)]

LOCALES = {"en": "en-US", "ru": "ru-RU"}


def shots_dir(tmp_path: Path) -> Path:
    where = Path(os.environ.get("HUBBUB_PHONE_SHOTS") or tmp_path / "shots")
    where.mkdir(parents=True, exist_ok=True)
    return where


class Phone(Page):
    """The guest's page, with the words of its language and a camera for its screens."""

    lang = "en"
    shots: Path
    taken: set[str]

    def words(self, key: str) -> str:
        return catalogue(self.lang)[key]

    async def shot(self, name: str) -> None:
        """A picture of the screen the guest sees now, once per name."""
        if name in self.taken:
            return
        self.taken.add(name)
        await self.page.wait_for_timeout(150)  # the last frame painted
        await self.page.screenshot(path=str(self.shots / f"phone-{name}-{self.lang}.png"))

    async def tap_key(self, catalogue_key: str) -> None:
        """Tap a key of the screen's footer by what it says (the footer is the bottom rows)."""
        label = self.words(catalogue_key)
        lines = await self.lines()
        footer = [i for i, line in enumerate(lines) if label in line and i >= len(lines) - 4]
        assert footer, f"no {label!r} in the footer:\n" + "\n".join(lines)
        await self.tap_line(footer[-1], label)

    async def tap_line(self, row: int, text: str) -> None:
        left, top, cell_w, cell_h, _, _ = await self.grid()
        column = (await self.lines())[row].find(text)
        await self.page.touchscreen.tap(
            left + (column + len(text) / 2) * cell_w, top + (row + 0.5) * cell_h
        )

    async def join(self, name: str, code: str | None) -> None:
        """Name and code on the phone's keyboard, Enter on the page's row of keys."""
        await self.wait_text(self.words("join.name"))
        await self.shot("join")
        await self.touch_key("keyboard")  # the phone's keyboard comes up
        await self.type_on_screen_keyboard(name)
        await self.touch_key("enter")
        if code:
            await self.type_on_screen_keyboard(code.lower())
        await self.touch_key("enter")


async def open_phone(browser, url: str, lang: str, tmp_path: Path) -> Phone:
    context = await browser.new_context(**PHONE, locale=LOCALES[lang])
    phone = await Phone.open(context, url)
    phone.__class__ = Phone
    phone.lang, phone.shots, phone.taken = lang, shots_dir(tmp_path), set()
    return phone


def qr_address(screen: str) -> str:
    """The address in the QR code drawn on a terminal screen (half blocks, the code's corner
    squares give its place and size), as zbar reads it."""
    lines = screen.split("\n")
    corner = "█▀▀▀▀▀█"  # the top row of a finder square, on the top half of a line
    row = next(i for i, line in enumerate(lines) if line.count(corner) >= 2)
    left = lines[row].index(corner)
    width = lines[row].rindex(corner) + len(corner) - left
    code = [line[left : left + width].ljust(width) for line in lines[row:]][: math.ceil(width / 2)]
    quiet = " " * 4
    padded = [quiet * 2 + " " * width + quiet * 2] * 2
    found = zbar_reads([*padded, *(quiet * 2 + line + quiet * 2 for line in code), *padded])
    assert len(found) == 1, f"zbar read {found} in:\n" + "\n".join(code)
    return found[0]


def host(tmux, tmp_path: Path, game: str, lang: str) -> tuple[int, str]:
    port, web_port = free_port(), free_port()
    tmux.open_window("host", tmp_path / "host")
    tmux.launch(
        "host",
        ["host", "--interface", "127.0.0.1", "--port", str(port), "--web-port", str(web_port),
         "--game", game, "--lang", lang, "--no-zeroconf"],
    )  # fmt: skip
    url = f"http://127.0.0.1:{web_port}"
    tmux.wait_for("host", shows(url), "the web seat's address in the lobby")
    return port, url


async def test_a_phone_joins_by_the_qr_code_and_plays_a_whole_game_of_tally_up(
    tmux, tmp_path, record_property
):
    lang = os.environ.get("HUBBUB_PHONE_LANG", "en")
    port, url = host(tmux, tmp_path, "tallyup", lang)
    code = table_code_any(tmux)
    tmux.keys("host", "Left", "Left", "Left", "Left")  # the target: 2,500 down to 500
    tmux.wait_for("host", shows("500"), "a target of 500")
    tmux.keys("host", "w")
    scanned, _ = tmux.wait_for("host", lambda s: "█▀▀▀▀▀█" in s and s, "the QR code")
    assert qr_address(scanned) == url  # the phone's camera reads the table's web address
    tmux.keys("host", "Escape")

    yuri = Yuri(port, code, tmp_path / "yuri-tokens.json")
    yuri.start()
    await yuri.until(lambda: yuri.seat_of("Yuri") == 0, "Yuri in seat 1")
    async with chromium() as browser:
        try:
            phone = await open_phone(browser, url, lang, tmp_path)
            await phone.wait_text(phone.words("join.name"))
            assert (await phone.state())["fontSize"] == 16
            left, _, cell_w, _, columns, _ = await phone.grid()
            assert columns >= 40 and left + columns * cell_w <= 390, (columns, cell_w)
            await phone.join("Wendy", code)
            await yuri.until(lambda: yuri.connected("Wendy"), "Wendy seated")
            await phone.wait_text("Wendy")
            await phone.shot("lobby")
            tmux.keys("host", "s")
            await yuri.until(lambda: yuri.room.get("phase") == "playing", "the game")
            started, taps = time.monotonic(), await play_tally_up(phone, yuri)
            game_time = time.monotonic() - started
            await phone.wait_text(re.compile(r"Wendy|Yuri"))
            await phone.shot("results")
            assert yuri.view["over"] and yuri.view["result"]["winners"]
            assert phone.outside == [] and phone.errors == [], phone.outside + phone.errors
        finally:
            await yuri.stop()
    record_property("tally_up_game_s", round(game_time, 1))
    record_property("tally_up_taps", taps)
    print(f"\na whole game of Tally Up! on a phone: {taps} taps, {game_time:.1f} s")


def table_code_any(tmux) -> str:
    """The room code, whatever the host's language (the big letters under the code's box)."""
    found, _ = tmux.wait_for(
        "host", re.compile(r"\n[^\n]*?((?:[A-Z] {2}){3}[A-Z])").search, "the room code"
    )
    return found.group(1).replace(" ", "")  # type: ignore[union-attr]


async def play_tally_up(phone: Phone, yuri: Yuri) -> int:
    """Wendy (seat 2) plays by taps until the game is over; Yuri plays his own turns and goes
    OUT at every reveal. Returns how many times she tapped."""
    wendy, taps, done = 1, 0, None
    deadline = time.monotonic() + 240
    while not yuri.view.get("over"):
        assert time.monotonic() < deadline, f"the game did not end: {yuri.view}"
        view = yuri.view
        yuri.play_own_turn()
        if view.get("phase") == "choice" and not view["out"][0] and not view["locked"][0]:
            yuri.act({"type": "token", "side": "out"})
        step = tally_step(view, wendy)
        moment = (view["round"], view.get("phase"), view["running_total"], len(view["history"]))
        if step is not None and moment != done:  # one step a moment, as a person would
            done = moment
            await phone.shot(step)
            taps += await tap_tally_step(phone, view, step)
        await yuri.until(lambda v=view: yuri.view is not v, "a change", timeout=WAIT)
    return taps


def tally_step(view: dict, seat: int) -> str | None:
    """What Wendy has to do now (None: nothing)."""
    phase = view.get("phase")
    if phase == "choice" and not view["out"][seat] and not view["locked"][seat]:
        return "sealed"
    if phase == "shout" and "shout" in view.get("legal", ["shout"]):
        return "shout"
    if view.get("active") != seat:
        return None
    return {"choose_dice": "choose-dice", "roll": "roll", "up_die": "up-die",
            "bonus_dice": "bonus-dice"}.get(phase)  # fmt: skip


async def tap_tally_step(phone: Phone, view: dict, step: str) -> int:
    """Her taps for one step: dice tapped on the screen, the footer's keys."""
    if step == "choose-dice":
        for colour in ("red", "yellow", "blue"):
            await phone.wait_text(phone.words(f"tallyup.colour.{colour}"))
            await phone.tap_text(phone.words(f"tallyup.colour.{colour}"), last=False)
        await phone.tap_key("tallyup.key.confirm")
        return 4
    if step == "bonus-dice":
        for colour in view["unused"][: view["bonus_count"]]:
            await phone.tap_text(phone.words(f"tallyup.colour.{colour}"), last=False)
        await phone.tap_key("tallyup.key.confirm")
        return view["bonus_count"] + 1
    key = {"roll": "roll", "up-die": "roll", "sealed": "out", "shout": "shout"}[step]
    await phone.tap_key(f"tallyup.key.{key}")
    return 1
