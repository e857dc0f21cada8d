"""Tesauro through the real apps over real sockets, driven by keys: the reader chooses, a
scholar takes a tile and types (digits go into the field), the Sage picks and declares
everyone crazy with a confirmation, the spoken game's "done" key — and the table never shows
a definition, the entry's category or a typed text before the reveal."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack

from games.tesauro import CATEGORIES
from net.client import TokenStore
from net.room import Room
from tests.tui.test_flow import until
from tui.client.app import ClientApp
from tui.client.screens import GameScreen
from tui.games.tesauro import TesauroHand, TesauroTable
from tui.host.app import HostApp
from tui.host.screens import TableScreen
from tui.i18n import set_lang, t
from tui.widgets import ConfirmScreen

NAMES = ("Ann", "Bob", "Cid")
ANN, BOB, CID = range(3)


def on_screen(app) -> str:
    """Every character the app's screen shows now (modal screens included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def hand(app: ClientApp) -> TesauroHand:
    return app.screen.query_one("#hand", TesauroHand)


def key_of(category: str) -> str:
    return str(CATEGORIES.index(category) + 1)


async def seated(stack: AsyncExitStack, room: Room, host: HostApp, hp, state_dir):
    players, pilots = [], []
    for who in NAMES:
        tokens = TokenStore(state_dir / f"{who}.json")
        app = ClientApp(("127.0.0.1", host.server.port), name=who, discover=False, tokens=tokens)
        pilots.append(await stack.enter_async_context(app.run_test(size=(100, 34))))
        players.append(app)
        count = len(players)
        await until(lambda n=count: len(room.seats) == n, hp)
    await until(lambda: all(s.connected for s in room.seats), hp)
    await hp.press("s")
    for app, pilot in zip(players, pilots, strict=True):
        await until(lambda a=app: isinstance(a.screen, GameScreen) and a.game, pilot)
    await until(lambda: isinstance(host.screen, TableScreen), hp)
    return players, pilots


def refusals(app: ClientApp) -> list[str]:
    return [str(n.message) for n in app._notifications if n.severity == "error"]


def why_refused(view: dict, category: str) -> str:
    """The words a refused tile gets: the Genius must take the card's category; a Babbler may
    not take it while another tile is free."""
    true = t(f"tesauro.category.{view['entry']['category']}")
    if view["role"] == "brillante":
        return t("illegal.brillante_tile", category=true)
    return t("illegal.category_reserved", category=true)


def no_secrets_on_the_table(host: HostApp, room: Room, texts: list[str]) -> None:
    """The table shows the public view only: no definition, no typed text, no role."""
    table = host.screen.query_one("#game-table", TesauroTable)
    assert table._view is not None
    assert not {"entry", "role", "choices", "text", "allowed"} & set(table._view)
    shown = on_screen(host)
    entry = room.state["cards"][room.state["card"]][room.state["entry"]]
    assert entry["definition"] not in shown
    for text in texts:
        assert text not in shown


async def test_a_typed_turn_by_keys(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="tesauro", open_room=True, rng=random.Random(3))
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, bob, cid), (pa, pb, _pc) = await seated(stack, room, host, hp, state_dir)
        assert room.state["sapiente"] == ANN and room.state["reader"] == BOB

        # the reader sees both words and chooses the second with its number
        await until(lambda: "choose" in (bob.game or {}).get("legal", []), pb)
        choices = bob.game["choices"]
        assert choices[0]["word"] in on_screen(bob) and choices[1]["word"] in on_screen(bob)
        assert choices[1]["definition"][:30] in on_screen(bob)
        assert choices[0]["word"] not in on_screen(host)  # not before it is chosen
        await pb.press("2")
        await until(lambda: room.state["phase"] == "write", hp)
        assert room.state["entry"] == 1
        await until(lambda: (ann.game or {}).get("word") == choices[1]["word"], pa)
        await hp.pause(0.05)
        no_secrets_on_the_table(host, room, [])
        assert "Sage" in on_screen(ann) and choices[1]["definition"] not in on_screen(ann)

        # a tile Bob may not take: the host refuses, and his screen says why in words
        await until(lambda: bob.game.get("phase") == "write", pb)
        allowed = bob.game["allowed"]
        refused = next(c for c in CATEGORIES if c not in allowed)
        await pb.press(key_of(refused))
        await until(lambda: any(refusals(bob)), pb)
        assert refusals(bob) == [why_refused(bob.game, refused)]
        assert room.state["tiles"][BOB] is None

        # Bob takes a tile by its number: the field opens and takes the keys, digits too
        await pb.press(key_of(allowed[-1]))
        await until(lambda: room.state["tiles"][BOB] == allowed[-1], hp)
        field = bob.screen.query_one("#tsh-text")
        await until(lambda: field.has_focus, pb)
        await pb.press(*"A 3-legged stool, 1 or 2")
        assert field.value == "A 3-legged stool, 1 or 2"
        assert room.state["tiles"][BOB] == allowed[-1]  # "1" and "2" went into the text
        assert "24/300" in on_screen(bob)

        # Esc goes back to the tiles, a number swaps the tile, the draft stays
        await pb.press("escape")
        await until(lambda: not field.display, pb)
        other = next(c for c in bob.game["allowed"] if c != allowed[-1])
        await pb.press(key_of(other))
        await until(lambda: room.state["tiles"][BOB] == other and field.has_focus, pb)
        assert field.value == "A 3-legged stool, 1 or 2"
        await pb.press("enter")
        await until(lambda: room.state["given"][BOB], hp)
        await until(lambda: "Sent — waiting for 1 others" in on_screen(bob), pb)
        assert "A 3-legged stool, 1 or 2" in on_screen(bob)
        await hp.pause(0.05)
        no_secrets_on_the_table(host, room, ["3-legged"])

        # Cid gives his through the app's own path
        tile = cid.game["allowed"][0]
        cid.act({"type": "tile", "category": tile})
        await until(lambda: room.state["tiles"][CID] == tile, hp)
        cid.act({"type": "define", "text": "Cid's own words."})
        await until(lambda: room.state["phase"] == "judge", hp)

        # the table shows them one by one, then all
        await until(lambda: "3-legged" in on_screen(host) and "Cid's own" in on_screen(host), hp)

        # the Sage: a number asks first (n keeps the choice open), c declares everyone crazy
        await until(lambda: "pick" in (ann.game or {}).get("legal", []), pa)
        await pa.press("1")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        assert "Definition 1 — Bob" in on_screen(ann)
        await pa.press("n")
        await until(lambda: isinstance(ann.screen, GameScreen), pa)
        assert room.state["phase"] == "judge"
        await pa.press("c")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        await pa.press("y")
        await until(lambda: room.state["last_turn"] is not None, hp)
        last = room.state["last_turn"]
        assert last["crazy"] and last["sapiente"] == ANN
        # the reveal on the table, the next turn under way
        await until(lambda: last["definition"][:30] in on_screen(host), hp)
        assert room.state["sapiente"] == BOB


async def test_a_spoken_turn_by_keys(state_dir):
    set_lang("en")
    room = Room("Friday", game_id="tesauro", open_room=True, rng=random.Random(4))
    room.set_option("mode", "spoken")
    host = HostApp(room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, bob, cid), (pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await until(lambda: "choose" in (bob.game or {}).get("legal", []), pb)
        await pb.press("1")
        await until(lambda: room.state["phase"] == "write", hp)
        for seat, app, pilot in ((BOB, bob, pb), (CID, cid, pc)):
            await until(lambda a=app: "tile" in a.game.get("legal", []), pilot)
            assert app.screen.query_one("#tsh-text").display is False  # no text field
            await pilot.press(key_of(app.game["allowed"][0]))
            await until(lambda s=seat: room.state["tiles"][s] is not None, hp)
            await until(lambda a=app: "done" in a.game.get("legal", []), pilot)
            await pilot.press("space")  # ready
            await until(lambda s=seat: room.state["given"][s], hp)
        await until(lambda: room.state["phase"] == "speak", hp)
        await until(lambda: "YOUR TURN" in on_screen(bob), pb)
        assert "Speaking: Bob" in on_screen(host)
        await pb.press("space")  # Bob has said his
        await until(lambda: "YOUR TURN" in on_screen(cid), pc)
        await pc.press("enter")  # Enter works too
        await until(lambda: room.state["phase"] == "judge", hp)
        await until(lambda: "pick" in (ann.game or {}).get("legal", []), pa)
        await pa.press("2")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        await pa.press("y")
        await until(lambda: room.state["last_turn"] is not None, hp)
        assert room.state["last_turn"]["pick"] == CID
