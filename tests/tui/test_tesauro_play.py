"""Tesauro through the real apps over real sockets, driven by keys: the reader chooses, a
scholar takes a tile and types (digits go into the field), the Sage picks and declares
everyone crazy with a confirmation, the spoken game's "done" key — and the table never shows
a definition, the entry's category or a typed text before the reveal."""

from __future__ import annotations

import io
import random
from contextlib import AsyncExitStack

import pytest
from textual import events

from games.tesauro import CATEGORIES
from net.client import TokenStore
from net.room import Room
from tui.client.app import ClientApp
from tui.client.screens import GameScreen, WaitScreen
from tui.games.tesauro import TesauroHand, TesauroTable
from tui.games.tesauro import scenes as shots
from tui.games.tesauro.scenes import LONG_DRAFT
from tui.host.app import HostApp
from tui.host.screens import ResultsScreen, TableScreen, results_text
from tui.i18n import set_lang, t
from tui.text import SEAT_SYMBOLS
from tui.waiting import until
from tui.widgets import ConfirmScreen, HelpScreen

NAMES = ("Ann", "Bob", "Cid")
ANN, BOB, CID = range(3)


def on_screen(app) -> str:
    """Every character the app's screen shows now (modal screens included)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def hand(app: ClientApp) -> TesauroHand:
    return app.screen.query_one("#hand", TesauroHand)


def key_of(category: str) -> str:
    return str(CATEGORIES.index(category) + 1)


def tesauro_room(seed: int = 3) -> tuple[Room, HostApp]:
    """A Tesauro room anyone may join, dealt from `seed`, and the host's app for it."""
    room = Room("Friday", game_id="tesauro", open_room=True, rng=random.Random(seed))
    return room, HostApp(room, host="127.0.0.1", port=0, advertise=False)


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
        return t("tesauro.illegal.brillante_tile", category=true)
    return t("tesauro.illegal.category_reserved", category=true)


def no_secrets_on_the_table(host: HostApp, room: Room, texts: list[str]) -> None:
    """The table shows the public view only: no definition, no typed text, no role."""
    table = host.screen.query_one("#game-table", TesauroTable)
    assert table.view
    assert not {"entry", "role", "choices", "text", "allowed"} & set(table.view)
    shown = on_screen(host)
    entry = room.state["cards"][room.state["card"]][room.state["entry"]]
    assert entry["definition"] not in shown
    for text in texts:
        assert text not in shown


async def test_a_typed_turn_by_keys(state_dir):
    set_lang("en")
    room, host = tesauro_room()
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
        covers = t(f"tesauro.category_about.{allowed[0]}")  # a free tile says what it covers
        await until(lambda: covers[:12] in on_screen(bob), pb)
        refused = next(c for c in CATEGORIES if c not in allowed)
        await pb.press(key_of(refused))
        await until(lambda: any(refusals(bob)), pb)
        assert refusals(bob) == [why_refused(bob.game, refused)]
        assert room.state["tiles"][BOB] is None
        # the field opened with the key, and stays: what he typed fast is text, not keys —
        # but the reflex after a wrong tile, another tile's number, is a tile (the play-test:
        # the `5` went into the text)
        field = bob.screen.query_one("#tsh-text")
        await until(lambda: field.has_focus, pb)
        await pb.press(key_of(refused))  # (the only one he may not take: again)
        await until(lambda: len(refusals(bob)) == 2, pb, what="the second tile refused")
        assert field.value == "" and field.has_focus
        await pb.press(*"quickly yields")
        assert field.value == "quickly yields" and isinstance(bob.screen, GameScreen)
        shown = on_screen(bob)
        assert shown.count("No tile yet") == 1, shown  # the status says how, the tile "none yet"
        assert f"{t('tesauro.your_tile')} {t('tesauro.no_tile_yet')}" in " ".join(shown.split())
        await pb.press("enter")  # no tile: nothing is sent, the text stays
        assert field.value == "quickly yields" and not room.state["given"][BOB]
        await pb.press("escape")
        await until(lambda: not field.display, pb)
        field.value = ""

        # Bob takes a tile by its number: the field opens and takes the keys, digits too
        await pb.press(key_of(allowed[-1]))
        await until(lambda: room.state["tiles"][BOB] == allowed[-1], hp)
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
        await until(lambda: "Sent — waiting for 1 other." in on_screen(bob), pb)
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
        # the Sage is told the scholars think and then speak — nothing about writing
        await until(lambda: "thinking" in on_screen(ann) and "aloud" in on_screen(ann), pa)
        assert "writing" not in on_screen(ann)
        geniuses = 0
        for seat, app, pilot in ((BOB, bob, pb), (CID, cid, pc)):
            await until(lambda a=app: "tile" in a.game.get("legal", []), pilot)
            assert app.screen.query_one("#tsh-text").display is False  # no text field
            await pilot.press(key_of(app.game["allowed"][0]))
            await until(lambda s=seat: room.state["tiles"][s] is not None, hp)
            await until(lambda a=app: "done" in a.game.get("legal", []), pilot)
            genius = app.game.get("role") == "brillante"  # (told to invent the truth, it was)
            said = t("tesauro.truth_then_ready" if genius else "tesauro.think_then_ready")
            assert said in str(app.screen.query_one("#tsh-status").render())
            await pilot.press("space")  # ready
            await until(lambda s=seat: room.state["given"][s], hp)
            geniuses += genius
        assert geniuses == 1  # (one of the two knows the truth)
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


# --- what two play-tests found -------------------------------------------------------------


def footer(app) -> str:
    """The footer's line: the keys that work now."""
    return on_screen(app).splitlines()[-1]


async def to_the_thinking_time(room: Room, bob: ClientApp, pb, hp) -> None:
    await until(lambda: "choose" in (bob.game or {}).get("legal", []), pb)
    await pb.press("1")
    await until(lambda: room.state["phase"] == "write", hp)


async def take_a_tile(app: ClientApp, pilot, seat: int, room: Room, hp) -> None:
    await until(lambda: "tile" in (app.game or {}).get("legal", []), pilot)
    await pilot.press(key_of(app.game["allowed"][0]))
    await until(lambda: room.state["tiles"][seat] is not None, hp)
    await until(lambda: app.screen.query_one("#tsh-text").has_focus, pilot)


def time_runs_out(room: Room) -> None:
    """The room's clock rings now instead of in a minute."""
    assert room.countdown.action is not None, "no thinking time running"
    room.countdown.expire()


async def test_writing_a_definition(state_dir):
    """Esc then Enter keeps the draft (the next key adds to it, never replaces it); the footer
    says Enter, Esc and F1 while typing, F1 opens the help (with what each tile covers), a
    Genius's Esc is "Back"; past 300 characters the count says it is the limit and the whole
    draft shows wrapped."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        assert room.state["roles"][BOB] == "orate" and room.state["roles"][CID] == "brillante"
        await to_the_thinking_time(room, bob, pb, hp)
        await take_a_tile(bob, pb, BOB, room, hp)
        field = bob.screen.query_one("#tsh-text")
        await pb.press(*"A stool")
        keys = footer(bob)
        for shown in ("Enter", "Send (final)", "Esc", "Change tile", "F1", "Help"):
            assert shown in keys, keys

        # Esc, then Enter: back in the draft, the cursor at its end, nothing selected
        await pb.press("escape")
        await until(lambda: not field.display, pb)
        await pb.press("enter")
        await until(lambda: field.has_focus, pb)
        assert field.selection.is_empty and field.cursor_position == len("A stool")
        await pb.press(*" for milking")
        assert field.value == "A stool for milking"

        # F1 opens the help while `?` goes into the field
        await pb.press("question_mark")
        assert field.value == "A stool for milking?"
        await pb.press("f1")
        await until(lambda: isinstance(bob.screen, HelpScreen), pb)
        help_screen = bob.screen
        assert "Engineering — tools, machines" in help_screen.body
        assert "kept aside for the bots' bluffs" in help_screen.body
        assert ("Enter", "Send (final)") in help_screen.keys and ("F1", "Help") in help_screen.keys
        await pb.press("escape")
        await until(lambda: isinstance(bob.screen, GameScreen) and field.has_focus, pb)
        assert field.value == "A stool for milking?"

        # past the limit: the count says so, and the whole draft is there to re-read
        await pb.press("backspace")
        field.value = (field.value + " " + LONG_DRAFT)[:292]  # typed (a paste) up to here
        field.cursor_position = len(field.value)
        await pb.press(*"and then some more")
        assert len(field.value) == 300
        await until(lambda: "300/300 — the limit" in on_screen(bob), pb)
        assert "A stool for milking A small" in on_screen(bob)  # the draft's beginning
        draft = str(bob.screen.query_one("#tsh-draft").render())
        assert " ".join(draft.split()) == field.value

        # the Genius can't change tile: Esc is "Back"
        await take_a_tile(cid, pc, CID, room, hp)
        keys = footer(cid)
        assert "Back" in keys and "Change tile" not in keys, keys


def burst(app: ClientApp, text: str) -> None:
    """Keys as a terminal hands them on when someone types fast (or the app is busy): all in
    the app's queue before it has handled the first."""
    for character in text:
        key = {" ": "space", "?": "question_mark"}.get(character, character)
        app.post_message(events.Key(key, character))


async def test_the_definition_typed_on_after_the_tile_key_is_text(state_dir):
    """A scholar presses the tile's number and types the definition straight on: the letters
    that come before the field has the keys go into it too — `q` is not Leave, `?` not the
    help, a digit not another tile — even when all of them are on their way at once."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        typed = "quiet? 3 cups"
        for app, pilot, seat in ((bob, pb, BOB), (cid, pc, CID)):
            await until(lambda a=app: "tile" in a.game.get("legal", []), pilot)
            tile = app.game["allowed"][0]
            if app is bob:
                await pilot.press(key_of(tile), *typed)  # one press
            else:
                burst(app, key_of(tile) + typed)  # one burst
            field = app.screen.query_one("#tsh-text")
            await until(lambda f=field: f.value == typed, pilot)
            await until(lambda s=seat, c=tile: room.state["tiles"][s] == c, hp)
            assert isinstance(app.screen, GameScreen) and field.has_focus
            assert not room.state["given"][seat] and not app._notifications


async def test_a_definition_begun_before_any_tile_is_kept(state_dir):
    """The play-test typed "a kind of bug" before taking a tile: every key was refused and
    the text lost. The first letter opens the field with it; the status says a tile is
    still to take; Esc, a tile's number, and the text is there to send."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await until(lambda: "tile" in cid.game.get("legal", []), pc)
        burst(cid, "a kind of bell")  # a paste, a phone's word: all at once
        typed = cid.screen.query_one("#tsh-text")
        await until(lambda: typed.value == "a kind of bell", pc, what=f"the burst ({typed.value})")
        assert not cid._notifications
        await until(lambda: "tile" in bob.game.get("legal", []), pb)
        await pb.press(*"a kind of bug")
        field = bob.screen.query_one("#tsh-text")
        await until(lambda: field.value == "a kind of bug", pb, what="the text in the field")
        assert not bob._notifications and field.has_focus
        assert t("tesauro.tile_first_field") in str(bob.screen.query_one("#tsh-status").render())
        tile = bob.game["allowed"][0]
        await pb.press("escape", key_of(tile))
        await until(lambda: room.state["tiles"][BOB] == tile, hp)
        await until(lambda: field.has_focus, pb)
        await pb.press("enter")
        await until(lambda: room.state["given"][BOB], hp, what="the definition sent")
        assert room.state["texts"][BOB] == "a kind of bug"


async def test_a_spoken_scholar_the_time_ran_out_on_is_told(state_dir):
    """Spoken: Cid took no tile before the thinking time ended and was left out of the
    speakers without a word (the typed game says it)."""
    set_lang("en")
    room, host = tesauro_room()
    room.set_option("mode", "spoken")
    room.set_option("think_seconds", 60)
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await until(lambda: "tile" in (cid.game or {}).get("legal", []), pc)
        time_runs_out(room)
        await until(lambda: room.state["phase"] in ("speak", "judge"), hp)
        said = t("tesauro.missed_speaking")
        await until(lambda: said in [str(n.message) for n in cid._notifications], pc)


async def test_a_tile_and_ready_in_one_burst_are_both_taken(state_dir):
    """Spoken: the tile's number and Space in one burst — the Space came before the tile's
    answer, while the screen had no Space key, and was refused: the player sat "not ready"
    unawares. A key pressed while the move before it is on its way waits for the answer."""
    set_lang("en")
    room, host = tesauro_room()
    room.set_option("mode", "spoken")
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await until(lambda: "tile" in (cid.game or {}).get("legal", []), pc)
        burst(cid, key_of(cid.game["allowed"][0]) + " ")
        await until(lambda: room.state["given"][CID], hp, what="Cid ready")
        assert not any("does nothing" in str(n.message) for n in cid._notifications)


async def test_time_runs_out_on_a_silent_genius(state_dir):
    """The last ten seconds say what happens; a scholar whose time ran out with an empty
    field is told nothing was sent; the Genius gave nothing and «Everyone's crazy!» is still
    wrong: the table and the hands say why."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, bob, cid), (pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await take_a_tile(cid, pc, CID, room, hp)  # Cid, the Genius, starts to write...
        await pc.press(*"Hot milk")
        assert t("tesauro.hurry") not in on_screen(cid)
        deadline = hand(cid).deadline  # ...and forgets the clock: 5 s left, and they stay
        cid.clock = lambda: deadline - 5  # (the last call, 1.5 s before, does not come)
        await until(lambda: t("tesauro.hurry") in " ".join(on_screen(cid).split()), pc)
        await pc.press(*["backspace"] * len("Hot milk"))  # and thinks better of it: nothing
        await until(lambda: not hand(cid).query_one("#tsh-text").value, pc)  # goes at the end
        bob.act({"type": "tile", "category": bob.game["allowed"][0]})
        await until(lambda: room.state["tiles"][BOB] is not None, hp)
        bob.act({"type": "define", "text": "Bob's words."})
        await until(lambda: room.state["given"][BOB], hp)

        time_runs_out(room)
        await until(lambda: room.state["phase"] == "judge", hp)
        await until(lambda: "Time ran out: your definition was not sent." in on_screen(cid), pc)
        assert any("not sent" in str(n.message) for n in cid._notifications)
        assert "Time ran out" not in on_screen(bob)  # Bob's was sent

        await until(lambda: "crazy" in (ann.game or {}).get("legal", []), pa)
        await pa.press("c")
        await until(lambda: isinstance(ann.screen, ConfirmScreen), pa)
        await pa.press("y")
        await until(lambda: room.state["last_turn"] is not None, hp)
        assert room.state["last_turn"]["under"]
        silent = "Cid, the Genius, gave no definition."
        rule = "— but that counts only when"  # the Genius card is aside
        for app, pilot in ((host, hp), (bob, pb)):
            await until(lambda a=app: silent in " ".join(on_screen(a).split()), pilot)
            shown = " ".join(on_screen(app).split())
            assert rule in shown and "The card goes under the deck." in shown
            assert "wrong" not in shown and "was playing" not in shown  # said once, fairly
        judged = next(line for line in bob.story.lines if "declares" in line)
        assert "Ann declares “Everyone's crazy!”. Cid, the Genius, gave no definition" in judged
        assert judged.endswith(
            "counts only when the Genius card is aside. The card goes under the deck."
        )


async def test_the_sage_judges_on_a_small_screen(state_dir):
    """The footer counts the definitions ("1–2") and shows the moment they do, even on a
    terminal in the background; a number with no definition is answered; a list longer than
    the screen says there is more below until it is scrolled to its end."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, bob, cid), (pa, pb, _pc) = await seated(stack, room, host, hp, state_dir)
        await pa.resize_terminal(80, 18)
        await to_the_thinking_time(room, bob, pb, hp)
        ann.post_message(events.AppBlur())  # Ann looks at another window
        await pa.pause(0.05)
        for app, seat in ((bob, BOB), (cid, CID)):
            app.act({"type": "tile", "category": app.game["allowed"][0]})
            await until(lambda s=seat: room.state["tiles"][s] is not None, hp)
            app.act({"type": "define", "text": LONG_DRAFT[:290] + f" ({seat})"})
            await until(lambda s=seat: room.state["given"][s], hp)
        await until(lambda: "pick" in (ann.game or {}).get("legal", []), pa)
        await until(lambda: "Bob ·" in on_screen(ann), pa)
        # no key pressed: a terminal in the background would keep the old footer for ever
        await until(lambda: "1–2 Pick" in " ".join(footer(ann).split()), pa)
        assert "c/0 Everyone's crazy!" in " ".join(footer(ann).split())  # 0 works too

        more = t("tesauro.more")
        await until(lambda: more in on_screen(ann), pa)
        await pa.press("9")
        assert not isinstance(ann.screen, ConfirmScreen)
        await until(
            lambda: any("There are 2 definitions." in str(n.message) for n in ann._notifications),
            pa,
        )
        for _ in range(10):
            await pa.press("pagedown")
        await until(lambda: more not in on_screen(ann), pa)
        assert "(2)" in on_screen(ann)  # the end of the last definition


async def run_scene(build, size: tuple[int, int], *keys: str):
    """A scene of `tests/scenes.py`, run as a test: the app, its pilot, after `keys`."""
    app, run_before = build()
    stack = AsyncExitStack()
    pilot = await stack.enter_async_context(app.run_test(size=size))
    await run_before(pilot)
    if keys:
        await pilot.press(*keys)
        await pilot.pause()
    return app, pilot, stack


def long_answers_then_next_turn() -> shots.TesauroTable:
    """Turn 1 with definitions as long as allowed, judged; turn 2's thinking time begins."""
    table = shots.TesauroTable(long=True)
    table.start(CID, None)
    table.choose()
    table.tile(CID)
    table.tile(3, nth=7)
    table.define(3)
    table.tile(BOB, nth=4)
    table.define(BOB)
    table.define(CID)
    table.judge(3)
    table.choose()
    table.tile(CID, nth=2)
    return table


async def test_the_last_answer_fits_the_big_table():
    """120x40, the next turn's thinking time: the last answer stays up beside the tiles,
    shortened to what fits above the cards won — never cut by them."""
    set_lang("en")
    app, pilot, stack = await run_scene(
        shots.host_scene(long_answers_then_next_turn, last_apart=True, timer=42.5), (120, 40)
    )
    async with stack:
        box, scores = app.screen.query_one("#ts-reveal"), app.screen.query_one("#ts-scores")
        await pilot.pause(0.1)
        assert box.display and box.region.bottom <= scores.region.y
        shown = on_screen(app)
        assert "Dana takes the card." in shown and "cards left:" in shown


async def test_a_player_sees_the_last_answer_at_the_end():
    set_lang("en")
    build = shots.player_scene(shots.tesauro_at("end"), screen="PlayerResultsScreen")
    app, _pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        last = app.game["last_turn"]
        shown = " ".join(on_screen(app).split())
        assert t("tesauro.reveal_title", turn=last["turn"]) in shown
        assert last["definition"][:20] in shown and "Dana takes the card." in shown


async def test_a_long_last_answer_fits_a_small_results_screen():
    """80x24: a last answer too long for the room under the scores is cut to a line a
    definition; where the card went is always on the screen."""
    set_lang("ru")
    build = shots.player_scene(shots.tesauro_at("end"), screen="PlayerResultsScreen")
    app, pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        last = app.game["last_turn"]
        fooled = next(s for s in range(4) if s != last["sapiente"])
        last.update(definition=LONG_DRAFT[:290], right=False, pick=fooled, taker=fooled)
        for entry in last["defs"]:
            entry["text"] = LONG_DRAFT[:280]
        app.screen.refresh_room()
        await pilot.pause(0.1)
        box, side = app.screen.query_one("#epilogue"), app.screen.query_one("#results-side")
        assert box.region.bottom <= side.region.bottom
        shown = " ".join(on_screen(app).split())
        card = t("tesauro.card_to", name=app.room["seats"][fooled]["name"])
        assert "→ " + card in shown and "A small three-legged stool that" in shown
        assert "once they have sat down" not in shown  # cut to its line
        # a big screen has room for all of it
        await pilot.resize_terminal(120, 40)
        await until(lambda: "once they have sat" in " ".join(on_screen(app).split()), pilot)
        assert "→ " + card in " ".join(on_screen(app).split())


def test_equal_scores_share_a_rank():
    """1, 2, 2, 4 — and a tie-break's winner stays above an equal score. Each with their
    seat's mark."""
    names = ["Ann", "Bob", "Cid", "Dana"]
    a, b, c, d = (f"{SEAT_SYMBOLS[s]} {n}" for s, n in enumerate(names))
    a, b, c = (f"{n} " for n in (a, b, c))  # (in a column: as long as the longest, Dana)

    def ranked(result: dict) -> list[str]:
        return results_text(result, names).plain.splitlines()[-4:]

    assert ranked({"scores": [3, 1, 1, 0], "winners": [0]}) == [
        f" 1. {a}  3", f" 2. {b}  1", f" 2. {c}  1", f" 4. {d}  0"
    ]  # fmt: skip
    assert ranked({"scores": [2, 2, 2, 0], "winners": [2], "ranking": [2, 0, 1, 3]}) == [
        f" 1. {c}  2", f" 2. {a}  2", f" 2. {b}  2", f" 4. {d}  0"
    ]  # fmt: skip
    assert ranked({"scores": [2, 2, 1, 0], "winners": [0, 1], "ranking": [0, 1, 2, 3]}) == [
        f" 1. {a}  2", f" 1. {b}  2", f" 3. {c}  1", f" 4. {d}  0"
    ]  # fmt: skip


async def test_the_last_ten_seconds_change_no_line_below():
    """80x24, a long draft shown whole: from 0:10 (not 0:09) the line under the field turns
    into one red line with the time and what is lost; the draft below does not move."""
    set_lang("ru")
    build = shots.then(
        shots.player_scene(shots.tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.5),
        shots.paste(LONG_DRAFT),
    )
    app, pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        mine = hand(app)
        draft = app.screen.query_one("#tsh-draft")
        await until(lambda: draft.display, pilot)
        top = draft.region.y
        deadline = mine.deadline
        app.clock = lambda: deadline - 10.6  # the clock shows 0:11
        mine._tick()
        await pilot.pause()
        assert t("tesauro.hurry") not in on_screen(app)
        app.clock = lambda: deadline - 10.4  # 0:10
        mine._tick()
        await pilot.pause()
        bar = app.screen.query_one("#tsh-count")
        assert "⏱ 0:10  " + t("tesauro.hurry") in on_screen(app)
        assert bar.has_class("-hurry") and bar.region.height == 1
        assert t("tesauro.hurry").endswith(".") and draft.region.y == top


async def test_the_reader_is_told_in_one_line():
    for code in ("en", "ru"):
        set_lang(code)
        build = shots.player_scene(shots.tesauro_at("choose"), you=BOB, screen="GameScreen")
        app, _pilot, stack = await run_scene(build, (80, 24))
        async with stack:
            status = app.screen.query_one("#tsh-status")
            assert t("tesauro.you_choose") in on_screen(app) and status.region.height == 1
    set_lang("en")


async def test_the_players_hear_that_the_host_ended_the_game(state_dir):
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (ann, _bob, _cid), (pa, _pb, _pc) = await seated(stack, room, host, hp, state_dir)
        await hp.press("e")
        await until(lambda: isinstance(host.screen, ConfirmScreen), hp)
        await hp.press("y")
        await until(lambda: isinstance(ann.screen, WaitScreen), pa)
        said = "The host ended the game. Back to the lobby."
        await until(lambda: said in " ".join(on_screen(ann).split()), pa)


async def test_the_lobby_explains_the_options_and_shows_which_one_is_lit():
    set_lang("en")
    app, pilot, stack = await run_scene(shots.host_scene(shots.tesauro_lobby), (80, 24))
    async with stack:
        assert "▶ Thinking time: no limit" in on_screen(app)
        await pilot.press("left", "left", "left")  # the lowest: it stays, and says so once
        assert "▶ Thinking time: no limit" in on_screen(app)
        said = [str(n.message) for n in app._notifications]
        assert said.count(t("lobby.option_end_low")) == 1, said  # (eight toasts stacked up)
        await pilot.press("o")
        await until(lambda: "▶ Definitions: typed on the screens" in on_screen(app), pilot)
        assert "▶ Thinking time" not in on_screen(app)
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen), pilot)
        assert t("option.tesauro.help") in app.screen.body


async def test_the_last_judgement_on_a_big_table_brings_up_the_results_without_a_crash():
    """The table lays the answer out after a refresh; the results replace it first (the
    last turn judged): the refit finds the table gone and does nothing — before, the host
    app died here with NoMatches at the end of every game on a 120x40 screen."""
    set_lang("en")
    table = shots.tesauro_table("tie-break")
    host = HostApp(table.room, host="127.0.0.1", port=0, advertise=False)
    async with host.run_test(size=(120, 40)) as hp:
        await until(lambda: isinstance(host.screen, TableScreen), hp)
        host.post_message(HostApp.RoomChanged(list(table.events)))
        await hp.pause()
        table.choose()
        table.give(shots.CID, shots.DANA, shots.ANN)
        table.judge(shots.DANA)
        table.choose()
        table.give(shots.DANA, shots.ANN, shots.BOB)
        table.judge(None)
        table.choose()
        table.give(shots.ANN, shots.BOB, shots.CID)
        table.judge(shots.BOB)
        assert table.room.phase == "over"
        await until(lambda: isinstance(host.screen, ResultsScreen), hp)
        await until(lambda: host.screen.is_mounted, hp)
        await hp.pause()


def test_every_free_tile_says_what_it_covers_however_narrow_the_hand():
    """The examples that fit, whole; a heading before its colon counts as one; and a first
    example longer than the room is cut, never left out (Техника showed nothing at 80x24)."""
    from tui.games.tesauro.hand import whole_examples

    engineering = "всё сделанное и используемое: инструменты, машины"
    assert whole_examples(engineering, 40) == "всё сделанное и используемое"
    assert whole_examples(engineering, 44) == "всё сделанное и используемое: инструменты"
    assert whole_examples(engineering, 12) == "всё сделанн…"
    assert whole_examples("plants, fungi, algae", 14) == "plants, fungi"
    for lang in ("ru", "en"):
        set_lang(lang)
        for category in CATEGORIES:
            assert whole_examples(t(f"tesauro.category_about.{category}"), 20)
            # (each begins with an example: «всё сделанное и используе…» at 80×24)
            assert "…" not in whole_examples(t(f"tesauro.category_about.{category}"), 16)
    set_lang("en")


async def test_a_draft_never_sent_goes_as_it_is_at_the_last_second(state_dir):
    """Cid, mid-sentence when the time runs out, has not pressed Enter: a second and a half
    before the end the draft goes as it is, and he is told; it is among the definitions."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, cid), (_pa, pb, pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await take_a_tile(cid, pc, CID, room, hp)
        await pc.press(*"Hot milk with")
        await pc.pause()
        assert not room.state["given"][CID]
        deadline = hand(cid).deadline
        cid.clock = lambda: deadline - 1  # a second left: the last call
        await until(lambda: room.state["given"][CID], hp)
        assert room.state["texts"][CID] == "Hot milk with"
        assert any("draft was sent" in str(n.message) for n in cid._notifications)


async def test_a_draft_typed_before_any_tile_is_held_is_sent_with_one_at_the_last_second(
    state_dir,
):
    """Bob's tile was refused, and he typed on (the field says his text stays): when the time
    runs out the draft still goes, with the first tile free for him (the rules' Decision: text
    a player typed is never silently dropped)."""
    set_lang("en")
    room, host = tesauro_room()
    async with host.run_test(size=(120, 40)) as hp, AsyncExitStack() as stack:
        (_ann, bob, _cid), (_pa, pb, _pc) = await seated(stack, room, host, hp, state_dir)
        await to_the_thinking_time(room, bob, pb, hp)
        await until(lambda: "tile" in (bob.game or {}).get("legal", []), pb)
        allowed = list(bob.game["allowed"])
        refused = next(c for c in CATEGORIES if c not in allowed)
        await pb.press(key_of(refused))
        await until(lambda: any(refusals(bob)), pb)
        field = bob.screen.query_one("#tsh-text")
        await until(lambda: field.has_focus, pb)
        await pb.press(*"A milking stool")
        assert room.state["tiles"][BOB] is None and not room.state["given"][BOB]
        deadline = hand(bob).deadline
        bob.clock = lambda: deadline - 1  # a second left: the last call
        await until(lambda: room.state["given"][BOB], hp, what="Bob's draft given")
        assert room.state["texts"][BOB] == "A milking stool"
        assert room.state["tiles"][BOB] == allowed[0]
        assert any("draft was sent" in str(n.message) for n in bob._notifications)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_small_table_gives_the_definitions_the_cards_won_rows(language):
    """At 80×24 the table cut each definition to one line with rows free (the play-test):
    while the Sage judges, the cards won (unchanged then) give the definitions their rows,
    and every definition is whole. A TV keeps both."""
    import io

    from rich.console import Console

    from tests.scenes import SCENES
    from tui.scenes import reach

    set_lang(language)
    try:
        scene = next(s for s in SCENES if s.name == "host-tesauro-judge")
        for size, small in (((80, 24), True), ((160, 45), False)):
            app, run_before = scene.build()
            async with app.run_test(size=size) as pilot:
                await reach(scene, run_before, pilot)
                box = app.screen.query_one("#ts-defs")
                console = Console(width=box.content_size.width, record=True, file=io.StringIO())
                console.print(box.content)
                defs = " ".join(console.export_text().split())
                view = app.screen.query_one("TesauroTable").view
                for entry in view["defs"]:
                    assert " ".join(entry["text"].split()) in defs
                assert app.screen.query_one("#ts-scores").display != small
    finally:
        set_lang("en")


async def test_a_seat_s_symbol_marks_only_that_seat():
    """The tiles marked a taken tile with ■ and the scoreboard counted cards with ● — Cid's
    and Ann's marks: a symbol is a seat's, on every screen."""
    from tui.games.tesauro.pieces import scoreboard
    from tui.text import SEAT_SYMBOLS

    set_lang("en")
    table = shots.tesauro_table("typing")
    app, run_before = shots.host_scene(lambda: table)()
    async with app.run_test(size=(120, 40)) as pilot:
        await run_before(pilot)
        tiles = str(app.screen.query_one("#ts-tiles").render())
        assert any(name in tiles for name in table.room.game_view(None)["players"])
        assert not set(tiles) & set(SEAT_SYMBOLS), tiles
    view = {"scores": [3, 1, 0], "players": ["Ann", "Bob", "Cid"], "over": False}
    for piece in scoreboard(view):
        assert sum(piece.plain.count(symbol) for symbol in SEAT_SYMBOLS) == 1, piece.plain


@pytest.mark.parametrize(("size", "spaced"), [((160, 45), True), ((80, 24), False)])
async def test_on_a_tv_the_definitions_judged_are_a_line_apart_in_bold(size, spaced):
    """160×45: the definitions the room reads sat in small type under twenty empty rows; on
    a TV they go a line apart, in bold. A small table keeps every row for them."""
    set_lang("en")
    app, pilot, stack = await run_scene(shots.host_scene(shots.tesauro_at("judge")), size)
    async with stack:
        await pilot.pause(0.1)
        defs = app.screen.query_one("#ts-defs")
        left, right = defs.region.x, defs.region.right
        lines = [line[left:right].strip(" │") for line in on_screen(app).splitlines()]
        first = next(i for i, line in enumerate(lines) if "Bob · Engineering" in line)
        assert (lines[first + 2] == "") == spaced, lines[first : first + 4]
        strip = app.screen._compositor.render_strips()[first + 1]  # the definition's text
        said = [seg for seg in strip if "small wading bird" in seg.text]
        assert said and all(bool(seg.style and seg.style.bold) == spaced for seg in said)


async def test_the_more_hint_is_whole_on_a_small_screen_in_russian():
    """80×24, ru, a tie-break round: "Ваших карт: 1   Дополнительный круг 1 · ход 7   ↓" —
    the hint that there is more below was cut to its arrow."""
    from tui.text import UNBROKEN_SPACE

    set_lang("ru")
    try:
        build = shots.player_scene(shots.tesauro_at("tie-break"), screen="GameScreen", you=CID)
        app, pilot, stack = await run_scene(build, (80, 24))
        async with stack:
            await pilot.pause(0.1)
            me = app.screen.query_one("#tsh-me").region
            line = on_screen(app).splitlines()[me.y][me.x : me.right]
            shown = line.replace(UNBROKEN_SPACE, " ")  # (as drawn: the line's end cut)
            assert t("tesauro.more") in shown, shown
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_definitions_cut_on_a_small_table_leave_no_rows_empty(language):
    """80×24: a definition ended "…is said to …" over three empty rows — the cut was worked
    out from the texts' lengths, not from their lines as drawn; then one row stayed empty
    (a row held for the last turn's line, which is never shown while the Sage judges), and
    the Russian judge's banner, wrapped in its padding, was counted a line short."""
    from tests.clipping import clipped

    set_lang(language)
    try:
        build = shots.host_scene(shots.tesauro_at("judge-long"))
        app, pilot, stack = await run_scene(build, (80, 24))
        async with stack:
            await pilot.pause(0.1)
            defs, waiting = app.screen.query_one("#ts-defs"), app.screen.query_one("#waiting")
            assert "…" in on_screen(app)  # (the scene's texts are too long for 80×24)
            assert waiting.region.y == defs.region.bottom, (defs.region, waiting.region)
            assert clipped(app) == []
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_tiles_stay_up_while_a_fresh_answer_is_held(language, size, monkeypatch):
    """The reader chose the next word while the last answer was fresh: on a small table the
    answer hid the tiles box mid-thinking (a Russian 80×24 play-test). The tiles stay; the
    answer goes under them in the form that fits, or in a line."""
    from tests.clipping import clipped
    from tui.games.tesauro import table as table_module
    from tui.scenes import built

    monkeypatch.setattr(table_module, "HOLD_SECONDS", 600.0)  # fresh for the whole test
    set_lang(language)
    try:
        table = built(shots.tesauro_at("reveal"))
        app, pilot, stack = await run_scene(shots.host_scene(lambda: table, last_apart=True), size)
        async with stack:
            game = app.screen.query_one("#game-table", TesauroTable)
            await until(lambda: game.view.get("phase") == "choose", pilot)
            table.choose()
            table.tile(CID, nth=2)
            await until(lambda: (game.view.get("categories") or [None] * 3)[CID], pilot)
            await until(lambda: game._full_reveal, pilot, what="the answer still held")
            await pilot.pause(0.1)
            assert game.query_one("#ts-tiles-box").display
            tiles = game.query_one("#ts-tiles-box").region
            assert tiles.height and tiles.bottom <= game.query_one("#ts-scores").region.y
            assert clipped(app) == []
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_small_table_shows_the_answer_cut_rather_than_a_line(language):
    """80×24, a tie-break's banner over the answer: the Russian answer, whole, was one row
    too tall, and the table showed one line over seven empty rows. Its true definition cut
    to a line (every hand has it whole), the answer fits in its box."""
    from tests.clipping import clipped

    set_lang(language)
    try:
        build = shots.host_scene(shots.tesauro_at("tie-break"), last_apart=True)
        app, pilot, stack = await run_scene(build, (80, 24))
        async with stack:
            await pilot.pause(0.1)
            box = app.screen.query_one("#ts-reveal")
            assert box.display and not app.screen.query_one("#ts-last").display
            assert box.region.bottom <= app.screen.query_one("#ts-scores").region.y
            assert clipped(app) == []
    finally:
        set_lang("en")


async def test_the_genius_s_enter_before_a_tile_takes_the_one_tile_and_sends():
    """The Genius typed the true definition before taking a tile, then Enter: "No tile yet:
    Esc, then a tile's number" — though only one tile was theirs to take. Enter takes it and
    sends; a Babbler, with tiles to choose from, is still asked to choose."""
    from tests.handlink import HandLink
    from tui.scenes import built

    def genius_without_a_tile() -> shots.TesauroTable:
        table = shots.TesauroTable()
        table.start(CID, None, ANN, BOB, CID, None, BOB)
        table.choose()
        return table

    set_lang("en")
    for you, sends in ((CID, True), (3, False)):  # Cid the Genius; Dana a Babbler
        table = built(genius_without_a_tile)
        build = shots.player_scene(lambda t=table: t, you=you, screen="GameScreen")
        app, pilot, stack = await run_scene(build, (80, 24))
        async with stack:
            app.client = link = HandLink()
            await pilot.press(*"A seiche", "enter")
            await pilot.pause()
            if sends:
                category = table.room.game_view(CID)["entry"]["category"]
                await until(lambda k=link: len(k.sent) == 2, pilot, what="the tile and the text")
                assert link.sent == [{"type": "tile", "category": category},
                                     {"type": "define", "text": "A seiche"}]  # fmt: skip
            else:
                assert link.sent == []
                said = [str(n.message) for n in app._notifications]
                assert t("tesauro.tile_first_field") in said, said


async def test_a_tile_not_sent_is_not_on_its_way():
    """The table gone, a tile's number: "Not connected: the action was not sent" — and yet
    "your tile is on its way", after the resume too, while the table showed it free."""
    from tests.handlink import HandLink
    from tui.scenes import built

    class Down(HandLink):  # the link is down: nothing goes
        def act(self, action: dict, version: int) -> None:
            return None

    set_lang("en")
    table = built(shots.tesauro_at("write"))
    build = shots.player_scene(lambda: table, you=BOB, screen="GameScreen")
    app, pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        app.client = Down()
        await pilot.press("2")
        said = t("client.not_connected")
        await until(lambda: said in [str(n.message) for n in app._notifications], pilot)
        await pilot.pause()
        assert hand(app)._wanted_tile is None
        assert t("tesauro.tile_coming") not in on_screen(app)


def spoken_with_a_clocked_speaker(judged: bool = False) -> shots.TesauroTable:
    """Spoken: Bob, the first speaker, is there but silent: the host's nudge runs out and
    the bot's move for him is `done`; Cid says his aloud and presses Space. With `judged`,
    Dana speaks too and Ann picks Cid's."""
    dana = 3
    table = spoken_bob_silent()
    table.room._turn_over({"turn": "nudge", "seats": [BOB]})  # as the room's clock does
    assert table.room.state["defs"][0]["seat"] == BOB
    table.room.act(CID, {"type": "done"})
    if judged:
        table.room.act(dana, {"type": "done"})
        table.judge(CID)
    return table


@pytest.mark.timeout(90)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_spoken_definition_the_clock_gave_is_not_said_aloud(language):
    """Spoken: the nudge (or the turn clock) ran out on Bob, who is there but said nothing:
    the table and the hands showed "(said aloud)". They say his time ran out — and Cid's,
    who pressed Space, said aloud — while they are heard, judged, and in the answer of a
    big table."""
    set_lang(language)
    clocked, aloud = t("tesauro.time_ran_out"), t("tesauro.said_aloud")
    try:
        scenes = [
            (shots.host_scene(spoken_with_a_clocked_speaker, last_apart=True), (80, 24)),
            (shots.host_scene(spoken_with_a_clocked_speaker, last_apart=True), (160, 45)),
            (shots.player_scene(spoken_with_a_clocked_speaker, you=ANN, screen="GameScreen"),
             (80, 24)),
            (shots.player_scene(spoken_with_a_clocked_speaker, you=CID, screen="GameScreen"),
             (160, 45)),
            (shots.host_scene(lambda: spoken_with_a_clocked_speaker(judged=True),
                              last_apart=True), (160, 45)),
        ]  # fmt: skip
        for build, size in scenes:
            app, pilot, stack = await run_scene(build, size)
            async with stack:
                await pilot.pause(0.1)
                shown = " ".join(on_screen(app).split())
                bob = shown[shown.index("Bob ·") :]
                assert bob.split("Cid ·")[0].count(clocked) == 1, shown
                assert aloud not in bob.split("Cid ·")[0], shown
                assert aloud in bob.split("Cid ·")[1], shown
    finally:
        set_lang("en")


def _turn(n: int) -> dict:
    return {"type": "turn", "turn": n, "sapiente": 0, "reader": 1, "round": 1, "tie_break": None}


def _spoke(seat: int, text: str | None = None) -> dict:
    return {"type": "spoke", "seat": seat, "tile": "food", "text": text}


PLAYED_FOR_BOB = {"type": "played_for", "seat": BOB}


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    ("events", "turn", "expected"),
    [
        # said aloud: Space pressed
        ([{"type": "shuffled"}, _turn(1), _spoke(BOB)], 1, set()),
        # the clock's `done` for a speaker who is there
        ([{"type": "shuffled"}, _turn(1), PLAYED_FOR_BOB, _spoke(BOB)], 1, {(1, BOB)}),
        # the room's events come first in a change; the seat's move follows its played_for
        ([_turn(1), {"type": "nudged", "seats": [BOB]}, PLAYED_FOR_BOB, _spoke(BOB)], 1,
         {(1, BOB)}),
        # another seat's played_for; a spoken text (a bot's words, shown)
        ([_turn(1), {"type": "played_for", "seat": CID}, _spoke(BOB)], 1, set()),
        ([_turn(1), PLAYED_FOR_BOB, _spoke(BOB, "A knot.")], 1, set()),
        # a played_for whose move was not the spoke (his tile, in the thinking time)
        ([_turn(1), PLAYED_FOR_BOB, {"type": "tile", "seat": BOB, "category": "food",
                                     "released": None}, _spoke(BOB)], 1, set()),
        # turn 1's, heard during turn 2 (the answer on the table keeps it)
        ([_turn(1), PLAYED_FOR_BOB, _spoke(BOB), _spoke(CID), _turn(2), _spoke(CID)], 2,
         {(1, BOB)}),
        # a story that begins mid-turn: the turn is the view's
        ([PLAYED_FOR_BOB, _spoke(BOB)][::1], 3, {(3, BOB)}),
        # an earlier game's: not this one's
        ([_turn(1), PLAYED_FOR_BOB, _spoke(BOB), {"type": "game_ended", "stopped": False},
          {"type": "game_started", "game": "tesauro"}, {"type": "shuffled"}, _turn(1)], 1,
         set()),
    ],
)  # fmt: skip
def test_the_definitions_the_clock_gave_are_read_from_the_events(events, turn, expected):
    from tui.games.tesauro.narrate import clocked

    assert clocked(events, turn) == expected


@pytest.mark.timeout(30)
async def test_a_resumed_table_remembers_the_definitions_the_clock_gave():
    """After `hubbub host --resume` the table hears no change of the turn so far: the room's
    history (saved) tells it."""
    from tui.scenes import built

    set_lang("en")
    table = built(spoken_with_a_clocked_speaker)
    app = HostApp(table.room, host="127.0.0.1", port=0, advertise=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.screen.query("#ts-defs"), pilot)
        await until(lambda: t("tesauro.time_ran_out") in on_screen(app), pilot)


@pytest.mark.timeout(30)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_story_does_not_say_a_clocked_speaker_spoke(language):
    """The story said "Bob (Food) has spoken." right after "Bob's time is up: the bot made
    this one move for them." It says the time ran out, once: not that the bot made a move
    (no bot spoke for him) — on a resumed table's story (the saved history), on a live one,
    and on a player's (the welcome's story)."""
    from tui.games import describe
    from tui.scenes import built, host_scene, player_scene

    set_lang(language)
    try:
        names = ["Ann", "Bob", "Cid"]
        food = t("tesauro.category.food")
        clocked = t("tesauro.ev.spoke_clocked", name="Bob", category=food)
        spoke = t("tesauro.ev.spoke", name="Bob", category=food)
        played_for = t("room_event.played_for", name="Bob")
        assert describe("tesauro", _spoke(BOB), names, PLAYED_FOR_BOB) == clocked
        assert describe("tesauro", _spoke(BOB), names, {"type": "played_for", "seat": CID}) == spoke
        assert describe("tesauro", _spoke(BOB), names) == spoke
        # the room's line before it: not said for a silent speaker's clock, said for a move
        assert describe("tesauro", PLAYED_FOR_BOB, names, None, _spoke(BOB)) is None
        assert describe("tesauro", PLAYED_FOR_BOB, names, None, _spoke(BOB, "A knot.")) == (
            played_for
        )
        tile = {"type": "tile", "seat": BOB, "category": "food", "released": None}
        assert describe("tesauro", PLAYED_FOR_BOB, names, None, tile) == played_for
        assert describe("tesauro", PLAYED_FOR_BOB, names, None, _spoke(CID)) == played_for
        assert describe("tesauro", PLAYED_FOR_BOB, names) == played_for
        table = built(spoken_with_a_clocked_speaker)  # Bob clocked, then Cid aloud
        bob = t("tesauro.category." + table.room.state["defs"][0]["tile"])
        said = t("tesauro.ev.spoke_clocked", name="Bob", category=bob)
        app = HostApp(table.room, host="127.0.0.1", port=0, advertise=False)
        async with app.run_test(size=(80, 24)) as pilot:  # resumed: the saved history
            await until(lambda: app.screen.query("#ts-defs"), pilot)
            lines = " ".join(app.story.lines)
            assert said in lines, lines
            assert t("tesauro.ev.spoke", name="Bob", category=bob) not in lines, lines
            assert played_for not in lines, lines
        for scene in (
            host_scene(spoken_with_a_clocked_speaker, last_apart=True),  # live: a change
            player_scene(spoken_with_a_clocked_speaker, you=ANN, screen="GameScreen"),
        ):
            app, pilot, stack = await run_scene(scene, (80, 24))
            async with stack:
                lines = " ".join(app.story.lines)
                assert said in lines, lines
                assert played_for not in lines, lines
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_role_in_big_letters_has_room_under_the_title_bar(language):
    """A phone (40x37, 390x844 in a browser): «ГЕНИЙ» in big letters began on the row under
    the title bar, its top row of half blocks read as cut by the bar. A row of the role's
    panel is between them; a screen too short for big letters (40x30, 80x24) has the role
    in plain capitals, at the top."""
    from tui.bigtext import big
    from tui.games.tesauro.words import role_name

    set_lang(language)
    try:
        word = role_name("brillante")
        top = big(word)[0]  # type: ignore[index]
        scene = shots.player_scene(shots.tesauro_at("write"), you=CID, screen="GameScreen")
        for size in ((40, 37), (160, 45), (40, 30), (80, 24)):
            app, pilot, stack = await run_scene(scene, size)
            async with stack:
                await pilot.pause()
                rows = [strip.text for strip in app.screen._compositor.render_strips()]
                role = app.screen.query_one("#tsh-role")
                if size[1] < 37:
                    assert " ".join(word.upper()) in rows[1], (size, rows[:3])
                    continue
                row = next(i for i, line in enumerate(rows) if top in line)
                assert row == role.region.y + 1, (size, rows[:4])
                assert not rows[row - 1][role.region.x : role.region.right].strip(), rows[:4]
    finally:
        set_lang("en")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_clocked_speaker_is_not_told_the_bot_moved_for_them(language):
    """Bob, silent, let his spoken definition's time run out: his toast said "the bot made
    that move for you". It says his time ran out; a move the bot made (his tile) says so."""
    set_lang(language)
    try:
        scene = shots.player_scene(spoken_with_a_clocked_speaker, you=BOB, screen="GameScreen")
        app, pilot, stack = await run_scene(scene, (80, 24))
        async with stack:
            tile = {"type": "tile", "seat": BOB, "category": "food", "released": None}
            for move, key in (
                (_spoke(BOB), "client.time_ran_out_you"),
                (tile, "client.played_for_you"),
                (_spoke(BOB, "A knot."), "client.played_for_you"),
            ):
                app.clear_notifications()
                app.screen.refresh_room([PLAYED_FOR_BOB, move])
                await pilot.pause()
                told = [str(n.message) for n in app._notifications]
                assert told == [t(key)], (move, told)
    finally:
        set_lang("en")


def spoken_bob_silent() -> shots.TesauroTable:
    """Spoken: every tile taken and every speaker ready; Bob, the first, says nothing."""
    dana = 3
    table = shots.TesauroTable(spoken=True)
    table.start(dana)
    table.choose()
    for seat in (BOB, CID, dana):
        table.tile(seat, nth=seat)
        table.room.act(seat, {"type": "done"})
    return table


@pytest.mark.timeout(30)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_nudged_silent_speaker_is_told_his_time_ran_out(language):
    """Spoken Tesauro, the host nudges Bob, who stays silent: 20 s on, the bot moves for him
    — his toast said "the bot made that move for you", though nobody spoke for him. The
    nudge's run-out goes the turn clock's way (`GameUI.no_move`): "Your time ran out." —
    through the room's own changes, as the host sends them."""
    from tui.scenes import built, player_scene, wire

    set_lang(language)
    try:
        table = built(spoken_bob_silent)
        room = table.room
        app, run_before = player_scene(lambda: table, you=BOB, screen="GameScreen")()
        heard: list[list[dict]] = []
        room.subscribe(heard.append)
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            assert BOB in room.waiting_for()

            def send() -> None:
                view = {"type": "view", "version": room.version,
                        "room": room.summary() | {"you": BOB}, "game": room.game_view(BOB),
                        "events": heard.pop()}  # fmt: skip
                app.post_message(ClientApp.told(wire(view)))

            assert room.nudge()
            send()
            await until(lambda: (app.room.get("turn") or {}).get("nudged"), pilot)
            # nobody speaks for a speaker: the nudge says the time runs out, not "the bot
            # moves for them" (the play-test's story said it, and no bot moved)
            bob = app.room["seats"][BOB]["name"]
            said = t("tesauro.nudged_speaker", names=bob)
            await until(lambda: said in app.story.lines, pilot, what="the speaker's nudge")
            assert t("room_event.nudged", names=bob) not in app.story.lines
            hurried = t("tesauro.nudged_speaker_you")[:30]
            await until(lambda: hurried in " ".join(on_screen(app).split()), pilot)
            app.clear_notifications()
            room._turn_over(room.countdown.action)  # as the room's clock does, 20 s on
            assert heard[-1][0] == {"type": "played_for", "seat": BOB}, heard[-1]
            send()
            ran_out = t("client.time_ran_out_you")
            await until(lambda: ran_out in [str(n.message) for n in app._notifications], pilot)
            told = [str(n.message) for n in app._notifications]
            assert t("client.played_for_you") not in told, told
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("clock", "keys", "sent"),
    [
        # the Sage chose 2 and did not confirm: it goes as it is, not the bot's pick
        ("nudged", ("2",), [{"type": "pick", "seat": CID}]),
        ("turn", ("2",), [{"type": "pick", "seat": CID}]),
        ("turn", ("c",), [{"type": "crazy"}]),
        # chose nothing (or said no): nothing is sent; the bot judges when the time is up
        ("turn", (), []),
        ("turn", ("2", "n"), []),
        # no turn clock: nothing runs out, nothing goes on its own
        (None, ("2",), []),
    ],
)
async def test_the_sage_s_choice_not_confirmed_goes_when_the_time_runs_out(clock, keys, sent):
    """The Sage pressed 2 ("is definition 2 the true one?") and the turn time ran out before
    y: the bot judged instead. Per the rules the bot moves for a player who does not act; a
    Sage who chose has acted — the choice goes LAST_CALL before the end, as a typed draft
    does, and the question said it would. A Sage who chose nothing is still judged for."""
    from tests.handlink import HandLink
    from tui.scenes import turn_clock

    set_lang("en")
    make = shots.tesauro_at("judge")
    if clock is not None:
        make = turn_clock(make, nudged=clock == "nudged")
    build = shots.player_scene(make, you=ANN, screen="GameScreen", timer=17)
    app, pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        app.client = link = HandLink()
        sage = hand(app)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(ConfirmScreen.PAUSE + 0.1)  # (an answer must be deliberate)
        if keys and keys[-1] != "n":
            await until(lambda: isinstance(app.screen, ConfirmScreen), pilot)
            question = str(app.screen.query_one("#question").render())
            assert (t("tesauro.confirm_clock") in question) == (clock is not None), question
        deadline = sage.deadline
        assert deadline is not None
        app.clock = lambda: deadline - 1  # a second left: the last call
        if sent:
            await until(lambda: link.sent == sent, pilot, what=f"{sent} sent")
            said = [str(n.message) for n in app._notifications]
            assert t("tesauro.judged_at_last_call") in said, said
            assert not isinstance(app.screen, ConfirmScreen)
        else:
            await pilot.pause(1.2)  # (two ticks of the hand's clock: nothing may go)
            assert link.sent == []


@pytest.mark.timeout(30)
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_key_that_does_nothing_on_your_move_says_which_ones_do(language):
    """The phone play-test: the reader choosing a word pressed 5 and was told "‘5’ does
    nothing now. Your move: the table waits for you." — true, and no help: the keys that
    work now are said ("1 2 Choose the word")."""
    from tui.widgets import keys_now

    set_lang(language)
    try:
        app, run_before = shots.player_scene(shots.tesauro_at("choose"), you=BOB,
                                             screen="GameScreen")()  # fmt: skip
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            assert app.room["you"] in app.room["waiting"]
            hand = app.screen.query_one("#hand", TesauroHand)
            assert keys_now(app.screen, hand).startswith("1 2 " + t("tesauro.key.choose"))
            await pilot.press("5")
            said = [str(n.message) for n in app._notifications]
            wanted = t("client.your_move_keys", keys=keys_now(app.screen, hand))
            assert any(s.endswith(wanted) for s in said), said
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("size", "cut"), [((80, 24), True), ((160, 45), False)])
async def test_definitions_cut_on_a_small_table_are_whole_behind_l(language, size, cut):
    """A watcher at 80×24 (a player who cannot see the TV) read five definitions a line
    each, "…кото…", and `l` showed the story only. The box says `l` reads them whole, and `l`
    puts them above the story, every word; a table that draws them whole says nothing."""
    from rich.console import Console

    from tui.table import StoryScreen

    set_lang(language)
    try:
        build = shots.host_scene(shots.tesauro_at("judge-long"))
        app, pilot, stack = await run_scene(build, size)
        async with stack:
            await pilot.pause(0.1)
            texts = [entry["text"] for entry in app.screen.query_one(TesauroTable).view["defs"]]
            box = app.screen.query_one("#ts-defs")
            assert (box.border_subtitle == t("tesauro.whole_hint")) is cut
            await pilot.press("l")
            await until(lambda: isinstance(app.screen, StoryScreen), pilot)
            story = app.screen
            assert bool(story.query("#story-whole")) is cut
            if cut:
                title, whole = story.whole
                assert title == t("tesauro.defs_title")
                console = Console(width=70, record=True, file=io.StringIO())
                console.print(whole)
                drawn = " ".join(console.export_text().split())
                assert all(" ".join(text.split()) in drawn for text in texts), drawn
                await pilot.pause(0.1)  # read from the top: the first one is on the screen
                assert " ".join(texts[0].split())[:40] in " ".join(on_screen(app).split())
    finally:
        set_lang("en")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("scene", ["end", "silent-genius"])
async def test_an_answer_cut_on_a_small_table_is_whole_behind_l(scene):
    """The last answer, cut to what fits a small table (at the game's end too), says `l`
    reads it all, and `l` gives every definition with its role above the story."""
    from tui.table import StoryScreen

    build = shots.host_scene(shots.tesauro_at(scene), last_apart=True)
    app, pilot, stack = await run_scene(build, (80, 24))
    async with stack:
        await pilot.pause(0.1)
        last = app.screen.query_one(TesauroTable).view["last_turn"]
        assert app.screen.query_one("#ts-reveal").border_subtitle == t("tesauro.whole_hint")
        await pilot.press("l")
        await until(lambda: isinstance(app.screen, StoryScreen), pilot)
        title, _whole = app.screen.whole
        assert title == t("tesauro.reveal_title", turn=last["turn"])
        assert app.screen.query_one("#story").border_title == title


@pytest.mark.parametrize(
    ("phase", "key"),
    [
        ("speak", "tesauro.nudged_speaker"),
        ("judge", "room_event.nudged"),
        (None, "room_event.nudged"),
    ],
)
def test_a_nudge_is_said_in_the_game_s_words_where_no_bot_moves(phase, key):
    """A speaker nudged has no bot to speak for them: the host's story says the time runs out;
    the Sage nudged has the bot's judgement; a story told again from a save (no view) keeps
    the shell's words."""
    from tui.games import describe

    view = None if phase is None else {"phase": phase}
    nudged = {"type": "nudged", "seats": [BOB]}
    names = ["Ann", "Bob", "Cid"]
    assert describe("tesauro", nudged, names, view=view) == t(key, names="Bob")
