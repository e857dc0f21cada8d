"""Tesauro's scenes (`tui.scenes`): one scripted game, every deal chosen, the spoken and the
silent ways to play, and a table of ten."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from net.room import Room
from tui.i18n import lang
from tui.scenes import (
    ANN,
    BOB,
    CID,
    DANA,
    RunBefore,
    Scene,
    Table,
    full_game_table,
    host_scene,
    player_scene,
    then,
    turn_clock,
)


class Deals(random.Random):
    """Tesauro's randomness: the room still shuffles (and the rules check the permutation), but
    the dictionary comes up with the chosen cards on top (`games.tesauro.stacked`) and each
    turn's Genius card goes to the seat queued for it (None: the card aside)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.room: Room | None = None
        self.cards: list[int] = []
        self.genius: list[int | None] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        from games.tesauro.stacked import deal_outcome, dictionary_outcome

        assert self.room is not None and self.room.state is not None
        state = self.room.state
        if state["chance"]["deck"] == "dictionary":
            x[:] = dictionary_outcome(len(x), self.cards)
        else:
            x[:] = deal_outcome(state, self.genius.pop(0) if self.genius else None)


TESAURO_NAMES = ("Ann", "Bob", "Cid", "Dana")
TESAURO_WORDS = {
    # the word each turn plays (its card is put on top of the deck, in this order); the
    # spoken game plays the last one
    "en": ("posset", "clerihew", "schlimazel", "lahar", "frangipane", "bornite",
           "hamartia", "swivet"),
    "ru": ("ратафия", "офеня", "бламанже", "майорат", "шаньга", "взвар", "буза", "повилика"),
}  # fmt: skip
TESAURO_BLUFFS = {
    "en": (
        "A [bold]fancy[/bold] knot that sailors use to join two ropes of different sizes.",
        "A small wading bird of salt marshes, known for its laughing call at dusk.",
        "An old word for a clumsy dancer.",
        "A copper cooking pot with a long handle, used for sugar work.",
        "A tax once paid on every window of a house.",
        "The part of a harp that holds the strings' upper ends.",
        "A folk remedy for hiccups made of vinegar and honey.",
        "A gathering of neighbours to bring in one farmer's hay.",
    ),
    "ru": (
        "Морской [bold]узел[/bold], которым связывают два троса разной толщины.",
        "Маленькая болотная птица, которая по вечерам кричит, будто смеётся.",
        "Старинное название неуклюжего танцора.",
        "Медная кастрюля с длинной ручкой для варки сахара.",
        "Налог, который когда-то платили за каждое окно в доме.",
        "Часть арфы, держащая верхние концы струн.",
        "Народное средство от икоты из уксуса и мёда.",
        "Сбор соседей, чтобы помочь одному хозяину убрать сено.",
    ),
}
TESAURO_LONG_BLUFFS = {
    # as long as a definition may be (300 characters): the Sage's list overflows at 80x24
    "en": (
        "A narrow wooden trough, lined with pitch, in which the fishermen of the northern "
        "coast salted their herring for the winter; also the shed where such troughs were "
        "kept, and, by extension, the whole season of salting, which began on the first "
        "frost and ended when the last barrel was sealed.",
        "In old card games, a hand holding no court cards at all, which the player could "
        "show at once to take a small payment from every other player before the deal went "
        "on; a lucky fool's hand, so that the word came to mean any stroke of luck that "
        "rewards a person for having nothing of worth.",
    ),
    "ru": (
        "Узкое деревянное корыто, просмолённое изнутри, в котором рыбаки северного берега "
        "солили на зиму сельдь; также сарай, где держали такие корыта, и вообще вся пора "
        "засолки, что начиналась с первыми заморозками и кончалась, когда закрывали "
        "последнюю бочку.",
        "В старинных карточных играх — рука без единой фигуры, которую игрок мог сразу "
        "показать и взять с каждого понемногу, прежде чем сдача шла дальше; рука "
        "счастливого дурака, и потому так стали называть любую удачу, что награждает "
        "человека за то, что у него ничего нет.",
    ),
}
TESAURO_MOMENTS = (
    "choose",
    "write",
    "typing",
    "judge",
    "judge-long",
    "reveal",
    "next-write",
    "timed-out",
    "silent-genius",
    "aside",
    "tie-break",
    "tie-judge",
    "end",
    "speak",
)


class TesauroTable(Table):
    """A Tesauro room of four people (the game's bots stay home), every deal chosen."""

    def __init__(self, *, spoken: bool = False, long: bool = False) -> None:
        from games.tesauro.deck import load_dictionary

        self.deals = Deals(1)
        super().__init__("tesauro", rng=self.deals)
        self.deals.room = self.room
        for player in TESAURO_NAMES:
            self.seat(player)
        self.lang = lang()
        self.dictionary = load_dictionary(self.lang)
        self.bluffs = list((TESAURO_LONG_BLUFFS if long else TESAURO_BLUFFS)[self.lang])
        words = TESAURO_WORDS[self.lang]
        self.words = [words[-1]] if spoken else list(words[:-1])
        if spoken:
            self.room.set_option("mode", "spoken")

    def card_of(self, word: str) -> int:
        """The card holding `word` (a deck without it: its first cards, in order)."""
        for index, card in enumerate(self.dictionary.cards):
            if any(entry.word == word for entry in card):
                return index
        return self.words.index(word)

    def start(self, *genius: int | None) -> None:
        self.deals.cards = [self.card_of(word) for word in self.words]
        self.deals.genius = list(genius)
        self.room.start(lang=self.lang)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        view = self.room.game_view(seat)
        assert view is not None
        return view

    def choose(self) -> None:
        """The reader plays this turn's word."""
        state = self.room.state
        card = self.dictionary.cards[state["card"]]
        word = self.words[state["turn"] - 1]
        entry = next((i for i, e in enumerate(card) if e.word == word), 0)
        self.room.act(state["reader"], {"type": "choose", "entry": entry})

    def tile(self, seat: int, nth: int = 0) -> None:
        """`seat` takes the true tile (the Genius) or the `nth` tile allowed (a Babbler)."""
        allowed = self.view(seat)["allowed"]
        self.room.act(seat, {"type": "tile", "category": allowed[min(nth, len(allowed) - 1)]})

    def define(self, seat: int) -> None:
        view = self.view(seat)
        if view["role"] == "brillante":
            text = view["entry"]["definition"]
        else:
            text = self.bluffs.pop(0)
            self.bluffs.append(text)  # a long game tells the old bluffs again
        self.room.act(seat, {"type": "define", "text": text})

    def give(self, *seats: int) -> None:
        for seat in seats:
            if self.view(seat)["tile"] is None:
                self.tile(seat, nth=seat)
            self.define(seat)

    def judge(self, pick: int | None) -> None:
        sapiente = self.room.state["sapiente"]
        action = {"type": "crazy"} if pick is None else {"type": "pick", "seat": pick}
        self.room.act(sapiente, action)

    def time_out(self) -> None:
        """The thinking time runs out: the host's move, as the room's clock makes it."""
        game = self.room.game
        assert game is not None
        spec = game.timer(self.room.state)
        assert spec is not None, "no clock is running"
        self.room._timeout(spec[1])


def tesauro_table(moment: str) -> TesauroTable:
    """One scripted game of Tesauro for four (typed definitions, one round), every deal chosen,
    stopped at `moment` (one of TESAURO_MOMENTS); "speak" is a spoken game of its own.

    Turn 1: Ann is the Sage, Bob reads, Cid the Genius; Cid and Dana take tiles, Dana gives
    hers; Bob takes his and types (a half-typed definition is the player's scene). Ann picks
    Dana's bluff: Dana takes the card. Turn 2: Bob the Sage, the Genius card aside; Bob declares
    everyone crazy: right, his card. Turn 3: Cid the Sage, Ann the Genius; Cid finds her. Turn 4:
    Dana the Sage, Bob the Genius; Dana declares everyone crazy: wrong, the card goes under.
    Bob, Cid and Dana are tied on 1: tie-break turns with each as the Sage. Bob picks Dana's
    bluff, Cid declares everyone crazy (right: the card was aside), Dana finds the Genius Bob:
    Dana wins with 3."""
    assert moment in TESAURO_MOMENTS, moment
    if moment == "speak":
        return tesauro_spoken_table()
    if moment in ("timed-out", "silent-genius"):
        return tesauro_silent_table(moment)
    t = TesauroTable(long=moment == "judge-long")
    t.start(CID, None, ANN, BOB, CID, None, BOB)
    if moment == "choose":
        return t
    t.choose()
    t.tile(CID)
    t.tile(DANA, nth=7)
    t.define(DANA)
    if moment == "write":
        return t
    t.tile(BOB, nth=4)
    if moment == "typing":
        return t
    t.define(BOB)
    t.define(CID)
    if moment in ("judge", "judge-long"):
        return t
    t.judge(DANA)
    if moment == "reveal":
        return t
    t.choose()
    if moment == "next-write":
        t.tile(CID, nth=2)
        t.tile(DANA, nth=3)
        t.define(DANA)
        return t
    t.give(CID, DANA, ANN)
    t.judge(None)
    if moment == "aside":
        return t
    t.choose()
    t.give(DANA, ANN, BOB)
    t.judge(ANN)
    t.choose()
    t.give(ANN, BOB, CID)
    t.judge(None)
    if moment == "tie-break":
        return t
    t.choose()
    t.give(CID, DANA, ANN)
    if moment == "tie-judge":  # the tie-break's line over the judge's: two banners
        return t
    t.judge(DANA)
    t.choose()
    t.give(DANA, ANN, BOB)
    t.judge(None)
    t.choose()
    t.give(ANN, BOB, CID)
    t.judge(BOB)
    assert t.room.phase == "over", t.view()
    return t


def tesauro_silent_table(moment: str) -> TesauroTable:
    """The Genius who gave nothing: Ann the Sage, Bob reads, Cid the Genius takes his tile
    and never sends; Bob and Dana send theirs; the time runs out ("timed-out"). Ann declares
    everyone crazy: wrong, a Genius was playing — the card goes under ("silent-genius")."""
    t = TesauroTable()
    t.start(CID)
    t.choose()
    t.tile(CID)
    t.tile(DANA, nth=7)
    t.define(DANA)
    t.tile(BOB, nth=4)
    t.define(BOB)
    t.time_out()
    if moment == "timed-out":
        return t
    t.judge(None)
    return t


def tesauro_spoken_table() -> TesauroTable:
    """The spoken game: Ann the Sage, Bob reads, Dana the Genius; all ready; Bob has spoken and
    Cid speaks now."""
    t = TesauroTable(spoken=True)
    t.start(DANA)
    t.choose()
    for seat in (BOB, CID, DANA):
        t.tile(seat, nth=seat)
        t.room.act(seat, {"type": "done"})
    t.room.act(BOB, {"type": "done"})
    return t


def paste(text: str) -> RunBefore:
    """Open the definition field and fill it with `text` as typing would (the field keeps the
    first 300 characters) — 300 key presses take 30 s."""

    async def step(pilot: Pilot) -> None:
        await pilot.press("enter")
        await pilot.pause()
        field = pilot.app.screen.query_one("#tsh-text", Input)
        field.value = text[: field.max_length]
        field.cursor_position = len(field.value)
        await pilot.pause()

    return step


LONG_DRAFT = (
    "A small three-legged stool that milkmaids carried from cow to cow, so low that the "
    "pail stood between their knees; later any low seat without a back, and in the north "
    "a joking word for a short and sturdy person who will not be moved from an argument "
    "once they have sat down in it, whatever the others say"
)  # 304 characters: the field takes 300


def tesauro_lobby() -> Table:
    """Four seated, Tesauro chosen, without a time limit, two rounds."""
    t = Table("tesauro")
    for player in TESAURO_NAMES:
        t.seat(player)
    t.room.set_option("think_seconds", 0)
    t.room.set_option("rounds", 2)
    return t


def tesauro_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return tesauro_table(moment)

    make.__name__ = f"tesauro_{moment.replace('-', '_')}"
    return make


SCENES: tuple[Scene, ...] = (
    Scene(
        "host-table-full-tesauro",
        "Tesauro with ten players (its most)",
        host_scene(lambda: full_game_table("tesauro")),
        snapshot=False,
    ),
    Scene(
        "host-table-full-tesauro-judge",
        "Tesauro with ten players: the nine definitions read out, the Sage to judge",
        host_scene(lambda: full_game_table("tesauro", phase="judge")),
        snapshot=False,
    ),
    Scene(
        "player-game-full-tesauro-judge",
        "The Sage's hand at a Tesauro table of ten: nine definitions to judge",
        player_scene(lambda: full_game_table("tesauro", phase="judge"), screen="GameScreen"),
        snapshot=False,
    ),
    Scene(
        "player-game-full-tesauro",
        "A player's hand at a Tesauro table of ten",
        player_scene(lambda: full_game_table("tesauro"), screen="GameScreen", you=9),
        snapshot=False,
    ),
    # Tesauro in every phase, one scripted game for four (tesauro_table), the table and the
    # laptops of the players who act in each moment
    Scene(
        "host-lobby-tesauro",
        "Host lobby with Tesauro chosen: its options (thinking time, typed or spoken, rounds)",
        host_scene(tesauro_lobby),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-lobby-tesauro-help",
        "Host lobby, ? help: what Tesauro's options do",
        host_scene(tesauro_lobby),
        ("question_mark",),
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-help",
        "Tesauro player: help (?) with the rules and every key",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("question_mark",),
        snapshot=False,
    ),
    Scene(
        "host-tesauro-choose",
        "Tesauro table: the first turn, Bob the reader is choosing a word",
        host_scene(tesauro_at("choose"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-choose",
        "Tesauro player: Bob reads, the card's two words to choose from (1 or 2)",
        player_scene(tesauro_at("choose"), you=BOB, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "host-tesauro-write",
        "Tesauro table: the thinking time, the word, two tiles taken, Dana's definition in",
        host_scene(tesauro_at("write"), last_apart=True, timer=42.3),
        big=True,
        snapshot=("en-80x24", "ru-120x40"),
    ),
    Scene(
        "player-tesauro-tiles",
        "Tesauro player: Bob, a Babbler, picks a tile by number (two taken, one the Genius's)",
        player_scene(tesauro_at("write"), you=BOB, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=("en-80x24",),
        phone=("ru",),
    ),
    Scene(
        "player-tesauro-genius",
        "Tesauro player: Cid, the Genius, holding the true tile",
        player_scene(tesauro_at("write"), you=CID, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-typing",
        "Tesauro player: Bob typing his definition (digits go into the field), the count",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
        ("enter", *"A 3-legged stool [b]"),
        big=True,
        snapshot=("en-80x24", "ru-80x24"),
    ),
    Scene(
        "player-tesauro-limit",
        "Tesauro player: Bob pasted past 300 characters: the count at the limit, the whole draft",
        then(
            player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
            paste(LONG_DRAFT),
        ),
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-hurry",
        "Tesauro player: the last seconds, Bob's draft not sent yet: what is lost at time-out",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=7.3),
        ("enter", *"A 3-legged stool"),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "player-tesauro-typing-help",
        "Tesauro player: F1 while typing: the help (? goes into the field)",
        player_scene(tesauro_at("typing"), you=BOB, screen="GameScreen", timer=42.3),
        ("enter", *"A 3-legged stool?", "f1"),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-sent",
        "Tesauro player: Dana's definition is sent, waiting for the others",
        player_scene(tesauro_at("typing"), you=DANA, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-sage-waits",
        "Tesauro player: Ann, the Sage, waits without seeing the definition",
        player_scene(tesauro_at("typing"), you=ANN, screen="GameScreen", timer=42.3),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-judge-beat",
        "Tesauro table: the definitions appear one by one (the first)",
        host_scene(tesauro_at("judge"), last_apart=True, beat=0),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-judge",
        "Tesauro table: all three definitions, the Sage judges",
        host_scene(tesauro_at("judge"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-judge-nudged",
        "Tesauro player: the host nudged Ann, the Sage, to judge",
        player_scene(
            turn_clock(tesauro_at("judge"), nudged=True), you=ANN, screen="GameScreen", timer=17
        ),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge",
        "Tesauro player: Ann, the Sage, picks by number or c",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
        phone=("en",),
    ),
    Scene(
        "player-watch-tesauro-judge",
        "Tesauro watched (join --watch): the definitions read out, the Sage to judge",
        player_scene(tesauro_at("judge"), screen="WatchScreen", watch=True),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-long",
        "Tesauro player: Ann, the Sage, with long definitions: more below (PgDn)",
        player_scene(tesauro_at("judge-long"), you=ANN, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-judge-nine",
        "Tesauro player: Ann pressed 9 with three definitions: there are three",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("9",),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-pick",
        "Tesauro player: Ann pressed 2: the confirmation",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("2",),
        snapshot=False,
    ),
    Scene(
        "player-tesauro-judge-crazy",
        "Tesauro player: Ann pressed c: «Everyone's crazy!», to confirm",
        player_scene(tesauro_at("judge"), you=ANN, screen="GameScreen"),
        ("c",),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-reveal",
        "Tesauro table: the reveal, Ann believed Dana (the Genius was Cid); the next turn begins",
        host_scene(tesauro_at("reveal"), last_apart=True),
        big=True,
        snapshot=("en-80x24", "ru-80x24"),
    ),
    Scene(
        "player-tesauro-reveal",
        "Tesauro player: Dana fooled the Sage and took the card",
        player_scene(tesauro_at("reveal"), you=DANA, screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-next-write",
        "Tesauro table: the next turn's thinking time, the last answer still up beside the tiles",
        host_scene(tesauro_at("next-write"), last_apart=True, timer=42.3),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "player-tesauro-timed-out",
        "Tesauro player: Cid, the Genius, did not send in time: his definition was not sent",
        player_scene(tesauro_at("timed-out"), you=CID, screen="GameScreen"),
        snapshot=("en-80x24",),
    ),
    Scene(
        "host-tesauro-silent-genius",
        "Tesauro table: the Genius gave no definition, «Everyone's crazy!» is wrong all the same",
        host_scene(tesauro_at("silent-genius"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-silent-genius",
        "Tesauro player: the reveal of a turn whose Genius gave no definition",
        player_scene(tesauro_at("silent-genius"), you=DANA, screen="GameScreen"),
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-aside",
        "Tesauro table: «Everyone's crazy!» — right, the Genius card was aside",
        host_scene(tesauro_at("aside"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-tie-break",
        "Tesauro table: a card under the deck, three tied: the tie-break begins",
        host_scene(tesauro_at("tie-break"), last_apart=True),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "host-tesauro-tie-judge",
        "Tesauro table: the tie-break's first definitions judged, under both banners",
        host_scene(tesauro_at("tie-judge")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tesauro-tie-break",
        "Tesauro player: Cid reads in the tie-break",
        player_scene(tesauro_at("tie-break"), you=CID, screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tesauro-end",
        "Tesauro table: the end, Dana wins after the tie-break",
        host_scene(tesauro_at("end")),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-end",
        "Tesauro player: the end, with the last turn's answer",
        player_scene(tesauro_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tesauro-speak",
        "Tesauro table, spoken game: Bob has spoken, Cid speaks now, Dana is next",
        host_scene(tesauro_at("speak"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tesauro-speak",
        "Tesauro player, spoken game: Cid's turn to speak (Space when done)",
        player_scene(tesauro_at("speak"), you=CID, screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
)
