"""A web seat's player app dies with a killed host (it is the host's child); the page's next
app, on the same browser's state directory, comes back to what the first had not sent: a
Tesauro draft in its field (its tile, the cursor at its end), the Sage's open question, Tally
Up! dice picked. Through the real apps over real sockets: the first app ends as a crash ends
it — its draft was on disk before (written a moment after the typing), the file 0600, nowhere
else — and a second app on the same tokens and directory takes the seat back. A draft of an
older turn never comes back."""

from __future__ import annotations

import asyncio
import random
import stat
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from net.client import TokenStore
from net.room import Room
from tests.tui.test_tesauro_play import (
    ANN,
    BOB,
    CID,
    on_screen,
    take_a_tile,
    tesauro_room,
    time_runs_out,
    to_the_thinking_time,
)
from tui.client.app import ClientApp
from tui.client.drafts import FILE, Drafts
from tui.client.screens import GameScreen
from tui.games.tesauro import TesauroHand
from tui.games.trex.offer import PickOfferScreen
from tui.host.app import HostApp
from tui.i18n import set_lang, t
from tui.waiting import until
from tui.widgets import ConfirmScreen

pytestmark = pytest.mark.timeout(60)

DRAFT = "Сход жителей деревни, на котором делили общую землю и"


def hand(app: ClientApp) -> TesauroHand:
    return app.screen.query_one("#hand", TesauroHand)


def web_seat(host, who: str, state_dir: Path) -> ClientApp:
    """A player app as a web seat runs it: its browser's own directory keeps its tokens and
    what it has not sent."""
    folder = state_dir / "web" / who
    return ClientApp(
        ("127.0.0.1", host.server.port),
        name=who,
        discover=False,
        tokens=TokenStore(folder / "tokens.json"),
        drafts=Drafts(folder / FILE),
    )


class Running:
    """An app run in a task of its own (its own context), so that it can end while the apps
    started after it go on — as a web seat's process ends with its host."""

    def __init__(self, app: ClientApp, size: tuple[int, int] = (40, 37)) -> None:
        self.app, self.size = app, size
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.pilot = None

    async def start(self):
        ready = asyncio.Event()

        async def run() -> None:
            async with self.app.run_test(size=self.size) as pilot:
                self.pilot = pilot
                ready.set()
                await self._stop.wait()

        self._task = asyncio.create_task(run())
        await asyncio.wait({self._task, asyncio.create_task(ready.wait())},
                           return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
        if self._task.done():
            self._task.result()
        return self.pilot

    async def aclose(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task


async def three_seats(stack: AsyncExitStack, room, host, hp, state_dir: Path, web: str):
    """Ann, Bob and Cid seated in that order and the game started; `web`'s app is a web
    seat's, run on its own (`Running`: ended to end it). Returns the apps, pilots and it."""
    apps, pilots, own = [], [], None
    for who in ("Ann", "Bob", "Cid"):
        if who == web:
            app = web_seat(host, who, state_dir)
            own = Running(app)
            pilot = await own.start()
        else:
            tokens = TokenStore(state_dir / f"{who}.json")
            app = ClientApp(("127.0.0.1", host.server.port), name=who, discover=False,
                            tokens=tokens)  # fmt: skip
            pilot = await stack.enter_async_context(app.run_test(size=(100, 34)))
        apps.append(app)
        pilots.append(pilot)
        count = len(apps)
        await until(lambda n=count: len(room.seats) == n, hp)
    await until(lambda: all(s.connected for s in room.seats), hp)
    await hp.press("s")
    for app, pilot in zip(apps, pilots, strict=True):
        await until(lambda a=app: isinstance(a.screen, GameScreen) and a.game, pilot)
    return apps, pilots, own


async def crash(own: Running, room, seat: int, hp) -> None:
    """The web seat's app ends with its host (the seat waits, as for a lost link)."""
    await own.aclose()
    await until(lambda: not room.seats[seat].connected, hp, what="the seat away")


def kept_text(state_dir: Path, who: str) -> str | None:
    record = Drafts(state_dir / "web" / who / FILE).load()
    return (record or {}).get("hand", {}).get("text")


def everything_but(folder: Path, mine: Path) -> bytes:
    """Every byte of every file under `folder` but `mine`."""
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file() and p != mine)


async def test_a_web_seats_draft_comes_back_after_its_app_died(state_dir):
    set_lang("ru")
    try:
        room, host = tesauro_room()
        async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
            (_ann, bob, _cid), (_pa, pb, _pc), own = await three_seats(
                stack, room, host, hp, state_dir, web="Bob"
            )
            assert room.state["roles"][BOB] == "orate"  # a Babbler
            await to_the_thinking_time(room, bob, pb, hp)
            await take_a_tile(bob, pb, BOB, room, hp)
            tile = room.state["tiles"][BOB]
            for character in DRAFT:
                await pb.press(character if character != " " else "space")
            field = bob.screen.query_one("#tsh-text")
            assert field.value == DRAFT
            # on disk a moment later — before any end: a kill -9 leaves no time to write
            await until(lambda: kept_text(state_dir, "Bob") == DRAFT, pb, what="the draft kept")
            path = state_dir / "web" / "Bob" / FILE
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            assert DRAFT.encode() not in everything_but(state_dir, path)  # nowhere else

            await crash(own, room, BOB, hp)
            assert kept_text(state_dir, "Bob") == DRAFT
            assert not room.state["given"][BOB]
            assert DRAFT not in on_screen(host)

            again = web_seat(host, "Bob", state_dir)
            async with again.run_test(size=(40, 37)) as pilot:
                await until(lambda: room.seats[BOB].connected, hp, what="Bob back")
                await until(lambda: isinstance(again.screen, GameScreen), pilot)
                field = again.screen.query_one("#tsh-text")
                await until(lambda: field.value == DRAFT and field.has_focus, pilot,
                            what="the draft back in its open field")  # fmt: skip
                assert field.cursor_position == len(DRAFT)
                assert room.state["tiles"][BOB] == tile
                shown = " ".join(on_screen(again).split())
                assert t("tesauro.your_tile") in shown and t(f"tesauro.category.{tile}") in shown
                await pilot.press("space", *"ж")  # the next key goes on at its end
                await pilot.press("enter")
                await until(lambda: room.state["given"][BOB], hp, what="the definition sent")
                assert room.state["texts"][BOB] == DRAFT + " ж"
                await until(lambda: not path.exists(), pilot, what="the draft forgotten")
    finally:
        set_lang("en")


async def test_a_draft_of_an_older_turn_never_comes_back(state_dir):
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, _cid), (_pa, pb, _pc), own = await three_seats(
            stack, room, host, hp, state_dir, web="Bob"
        )
        await to_the_thinking_time(room, bob, pb, hp)
        await take_a_tile(bob, pb, BOB, room, hp)
        await pb.press(*"A stool")
        await until(lambda: kept_text(state_dir, "Bob") == "A stool", pb, what="kept")
        await crash(own, room, BOB, hp)
        turn = room.state["turn"]

        # the turn goes on without Bob, and the next one begins
        time_runs_out(room)
        await until(lambda: "crazy" in (room.game_view(ANN) or {}).get("legal", []), hp)
        room.act(ANN, {"type": "crazy"})
        await until(lambda: room.state["turn"] > turn, hp, what="the next turn")
        await until(lambda: room.state["phase"] == "choose", hp)
        reader = room.state["reader"]
        if reader != BOB:
            room.act(reader, {"type": "choose", "entry": 0})
            await until(lambda: room.state["phase"] == "write", hp)

        again = web_seat(host, "Bob", state_dir)
        async with again.run_test(size=(40, 37)) as pilot:
            await until(lambda: isinstance(again.screen, GameScreen), pilot)
            path = state_dir / "web" / "Bob" / FILE
            await until(lambda: not path.exists(), pilot, what="the old draft forgotten")
            field = again.screen.query_one("#tsh-text")
            assert field.value == "" and not field.display
            assert "A stool" not in on_screen(again)
            assert hand(again)._turn == room.state["turn"] != turn


async def test_the_sages_open_question_comes_back(state_dir):
    """The Sage chose a definition and was asking "is it the true one?" when the app died:
    the next app asks it again, as a laptop's app would still be asking."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, bob, cid), (pa, pb, pc), own = await three_seats(
            stack, room, host, hp, state_dir, web="Ann"
        )
        assert room.state["sapiente"] == ANN
        await to_the_thinking_time(room, bob, pb, hp)
        for app, pilot, seat, text in ((bob, pb, BOB, "A stool"), (cid, pc, CID, "A cow")):
            await take_a_tile(app, pilot, seat, room, hp)
            await pilot.press(*text, "enter")
            await until(lambda s=seat: room.state["given"][s], hp)
        await until(lambda: "pick" in (ann.game or {}).get("legal", []), pa)
        await pa.press("2")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        question = ann.screen.question
        record = lambda: Drafts(state_dir / "web" / "Ann" / FILE).load() or {}  # noqa: E731
        await until(lambda: record().get("hand", {}).get("asked") == ["pick", 1], pa)
        await crash(own, room, ANN, hp)

        again = web_seat(host, "Ann", state_dir)
        async with again.run_test(size=(40, 37)) as pilot:
            await until(lambda: isinstance(again.screen, ConfirmScreen), pilot,
                        what="the question asked again")  # fmt: skip
            # (its last line, the clock's, says so only while the turn clock runs for her)
            assert again.screen.question.splitlines()[0] == question.splitlines()[0]
            await pilot.press("y")
            await until(lambda: room.state["phase"] != "judge", hp, what="the pick made")


def trex_room() -> tuple[Room, HostApp]:
    room = Room("Friday", game_id="trex", open_room=True, rng=random.Random(5))
    return room, HostApp(room, host="127.0.0.1", port=0, advertise=False)


async def bob_asked_whose_offer(stack, state_dir, verb_key: str):
    """T-Rex: Ann and Cid offer to Bob (a web seat), and Bob's `verb_key` asks whose offer;
    his app dies with the question open — its draft on disk first."""
    room, host = trex_room()
    hp = await stack.enter_async_context(host.run_test(size=(120, 40)))
    (_ann, bob, _cid), (_pa, pb, _pc), own = await three_seats(
        stack, room, host, hp, state_dir, web="Bob"
    )
    room.act(0, {"type": "offer", "to": 1})
    room.act(2, {"type": "offer", "to": 1})
    await until(lambda: (bob.game or {}).get("offers", {}).get("in") == [0, 2], pb)
    await pb.press(verb_key)
    await until(lambda: isinstance(bob.screen, PickOfferScreen), pb)
    record = lambda: Drafts(state_dir / "web" / "Bob" / FILE).load() or {}  # noqa: E731
    verb = {"a": "accept", "x": "decline"}[verb_key]
    await until(lambda: record().get("hand", {}).get("asked") == verb, pb, what="kept")
    await crash(own, room, 1, hp)
    return room, host, hp


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_t_rex_whose_offer_picker_comes_back(state_dir, lang):
    """Bob was choosing whose offer to accept when his app died: the next app asks again,
    the same two offers, and his pick is the answer."""
    set_lang(lang)
    try:
        async with AsyncExitStack() as stack:
            room, host, hp = await bob_asked_whose_offer(stack, state_dir, "a")
            again = web_seat(host, "Bob", state_dir)
            async with again.run_test(size=(40, 37)) as pilot:
                await until(lambda: isinstance(again.screen, PickOfferScreen), pilot,
                            what="the picker asked again")  # fmt: skip
                assert again.screen.verb == "accept" and again.screen.seats == [0, 2]
                shown = lambda: " ".join(on_screen(again).split())  # noqa: E731
                await until(lambda: t("trex.pick_accept") in shown(), pilot, what="drawn")
                await pilot.press("3")  # Cid's
                await until(lambda: room.state["last_match"] is not None, hp, what="a match")
                assert {room.state["last_match"][k] for k in ("a", "b")} == {1, 2}
                assert room.state["offers"][0] == 1  # Ann's offer still stands
                path = state_dir / "web" / "Bob" / FILE
                await until(lambda: not path.exists(), pilot, what="the draft forgotten")
    finally:
        set_lang("en")


async def test_t_rex_picker_whose_offers_changed_is_not_asked_again(state_dir):
    """Meanwhile Ann withdrew her offer: one offer is left, the picker's moment has passed —
    the next app asks nothing (and `x` now would decline Cid's at once: Bob's to decide)."""
    set_lang("en")
    async with AsyncExitStack() as stack:
        room, host, hp = await bob_asked_whose_offer(stack, state_dir, "x")
        room.act(0, {"type": "withdraw"})
        again = web_seat(host, "Bob", state_dir)
        async with again.run_test(size=(40, 37)) as pilot:
            await until(lambda: room.seats[1].connected, hp, what="Bob back")
            await until(lambda: isinstance(again.screen, GameScreen) and again.game, pilot)
            await until(lambda: again.game["offers"]["in"] == [2], pilot)
            path = state_dir / "web" / "Bob" / FILE
            await until(lambda: not path.exists(), pilot, what="the old picker forgotten")
            assert not isinstance(again.screen, PickOfferScreen)
            assert room.state["offers"][2] == 1  # nothing answered for him
