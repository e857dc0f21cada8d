"""Tesauro's rules, table-driven, with chosen deals (docs/rules/tesauro.md, every Decision).

The test dictionary (`data/tesauro_words.toml`) has 12 cards; card i holds word<2i> and
word<2i+1>, and word<k> is in category CATEGORIES[k % 9]. The deck is shuffled so that card 0
is drawn first, then card 1, …; the last four cards are the pool.
"""

from __future__ import annotations

import copy
import inspect
import re
from pathlib import Path

import pytest

import games.tesauro
from games import CHANCE, HOST
from games.base import IllegalAction
from games.tesauro import CATEGORIES, TESAURO, rules
from games.tesauro.stacked import deal, deal_outcome, new_game

WORDS = str(Path(__file__).parent / "data" / "tesauro_words.toml")


def category(k: int) -> str:
    return CATEGORIES[k % 9]


class Table:
    """A game at its first `choose`, with the Brillante where asked (None: aside)."""

    def __init__(self, n: int = 4, brillante: int | None = 2, **options) -> None:
        self.options = {"deck": WORDS, **options}
        self.state = new_game([f"P{s}" for s in range(n)], self.options, brillante=brillante)

    def act(self, seat: int, action: dict) -> list[dict]:
        return TESAURO.apply(self.state, seat, action)

    def refuse(self, seat, action) -> IllegalAction:
        before = copy.deepcopy(self.state)
        with pytest.raises(IllegalAction) as exc:
            TESAURO.apply(self.state, seat, copy.deepcopy(action))
        assert self.state == before, "a refused action changed the state"
        return exc.value

    # shorthands
    def choose(self, entry: int = 0) -> list[dict]:
        return self.act(self.state["reader"], {"type": "choose", "entry": entry})

    def tile(self, seat: int, cat: str) -> list[dict]:
        return self.act(seat, {"type": "tile", "category": cat})

    def define(self, seat: int, text: str | None = None) -> list[dict]:
        return self.act(seat, {"type": "define", "text": text or f"What P{seat} says."})

    def free_tile(self, seat: int) -> str:
        return TESAURO.view(self.state, seat)["allowed"][0]

    def write_all(self, skip: tuple[int, ...] = ()) -> list[dict]:
        """Every scholar not in `skip` takes a tile and gives a definition."""
        events: list[dict] = []
        for s in self.state["order"]:
            if s in skip:
                continue
            events += self.tile(s, self.free_tile(s))
            events += self.define(s)
        return events

    def view(self, seat: int | None = None) -> dict:
        return TESAURO.view(self.state, seat)


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# --- setup and the deal ----------------------------------------------------------------------


def test_setup_splits_the_dictionary_into_deck_and_pool():
    state = TESAURO.setup(["A", "B", "C"], {"deck": WORDS})
    assert TESAURO.chance(state) == {"kind": "shuffle", "deck": "dictionary", "size": 12}
    outcome = [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    events = TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
    assert state["deck"] == [11, 0, 1, 2, 3, 4, 5, 6] and state["pool"] == [7, 8, 9, 10]
    assert kinds(events) == ["shuffled", "turn"]
    assert events[1] == {
        "type": "turn",
        "turn": 1,
        "sapiente": 0,
        "reader": 1,
        "round": 1,
        "tie_break": None,
    }
    assert TESAURO.chance(state) == {"kind": "shuffle", "deck": "scholars", "size": 3}


@pytest.mark.parametrize(
    "seen, deck, pool",
    [
        ([], [11, 0, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10]),  # nothing seen: the shuffle's order
        # cards 8 and 9 came up last game: never in the pool, dealt after every unseen card
        (["8", "9"], [11, 0, 1, 2, 3, 4, 8, 9], [5, 6, 7, 10]),
        # all but three seen: the pool takes the unseen three, then seen ones (it is never
        # short), and the deck deals what is left
        ([str(c) for c in range(9)], [1, 2, 3, 4, 5, 6, 7, 8], [11, 9, 10, 0]),
    ],
)
def test_the_words_of_the_evening_s_earlier_games_are_neither_bluffed_nor_dealt_first(
    seen, deck, pool
):
    """The play-test: after `r`, a bot bluffed with the paraphrase of the last game's word —
    found out by anyone who remembered it. A card counts as seen when either word was."""
    state = TESAURO.setup(["A", "B", "C"], {"deck": WORDS})
    words = {c: [e["word"] for e in card] for c, card in enumerate(state["cards"])}
    named = [words[int(c)][0] for c in seen]
    state = TESAURO.setup(["A", "B", "C"], {"deck": WORDS, "seen": named})
    outcome = [11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
    assert (state["deck"], state["pool"]) == (deck, pool)


def test_a_game_hands_the_words_that_came_up_to_the_next():
    state = TESAURO.setup(["A", "B", "C"], {"deck": WORDS, "seen": ["earlier"]})
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": list(range(12))})
    assert TESAURO.carried(state, state["options"])["seen"] == ["earlier"]  # none came up
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": [0, 1, 2]})  # the deal
    first = state["card"]
    carried = TESAURO.carried(state, state["options"])["seen"]
    assert carried == ["earlier", *(e["word"] for e in state["cards"][first])]
    with pytest.raises(ValueError):
        TESAURO.setup(["A", "B", "C"], {"deck": WORDS, "seen": "not a list"})


@pytest.mark.parametrize(
    "n, outcome, roles, aside",
    [
        # scholars from the reader take outcome[0], outcome[1], …; the last card is aside
        (3, [0, 1, 2], ["sapiente", "brillante", "orate"], "orate"),
        (3, [1, 0, 2], ["sapiente", "orate", "brillante"], "orate"),
        (3, [1, 2, 0], ["sapiente", "orate", "orate"], "brillante"),
        (2, [1, 0], ["sapiente", "orate"], "brillante"),
        (5, [3, 2, 1, 0, 4], ["sapiente", "orate", "orate", "orate", "brillante"], "orate"),
    ],
)
def test_the_deal_gives_one_card_each_and_puts_one_aside(n, outcome, roles, aside):
    state = TESAURO.setup([f"P{s}" for s in range(n)], {"deck": WORDS})
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": list(range(12))})
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
    assert state["roles"] == roles and state["aside"] == aside
    assert state["phase"] == "choose" and state["card"] == 0 and state["deck"][0] == 1
    assert TESAURO.view(state, 1)["choices"][1]["word"] == "word1"


# --- the reader chooses ----------------------------------------------------------------------


def test_the_reader_chooses_one_of_two_words_and_scholars_learn_the_entry():
    t = Table(4, brillante=2)
    assert t.view(1)["legal"] == ["choose"] and t.view(2)["choices"] is None
    events = t.choose(1)
    assert events == [{"type": "word", "seat": 1, "word": "word1", "auto": False}]
    assert t.view()["word"] == "word1" and t.view()["phase"] == "write"
    entry = {"word": "word1", "category": "botany", "definition": "The true meaning of number 1."}
    for scholar in (1, 2, 3):
        assert t.view(scholar)["entry"] == entry
    assert t.view(0)["entry"] is None and t.view(1)["choices"] is None


# --- tiles -----------------------------------------------------------------------------------


def test_the_brillante_must_take_the_cards_category():
    t = Table(4, brillante=2)
    t.choose(0)  # word0: food
    assert t.view(2)["allowed"] == ["food"]
    assert t.refuse(2, {"type": "tile", "category": "zoology"}).params == {"category": "food"}
    assert t.tile(2, "food") == [{"type": "tile", "seat": 2, "category": "food", "released": None}]
    assert t.view(2)["allowed"] == []


def test_an_orate_may_not_take_the_cards_category_while_another_tile_is_free():
    t = Table(4, brillante=2)
    t.choose(0)
    assert "food" not in t.view(1)["allowed"] and len(t.view(1)["allowed"]) == 8
    assert t.refuse(1, {"type": "tile", "category": "food"}).code == "category_reserved"


def test_ten_players_with_the_brillante_aside_the_last_orate_takes_the_cards_category():
    t = Table(10, brillante=None)
    t.choose(0)  # food
    others = [c for c in CATEGORIES if c != "food"]
    scholars = t.state["order"]
    for seat, cat in zip(scholars[:8], others, strict=True):
        t.tile(seat, cat)
    last = scholars[8]
    assert t.view(last)["allowed"] == ["food"]
    t.tile(last, "food")
    assert sorted(t.view()["categories"][s] for s in scholars) == sorted(CATEGORIES)


def test_tiles_are_exclusive_first_come_first_served():
    t = Table(4, brillante=2)
    t.choose(0)
    t.tile(1, "zoology")
    assert t.refuse(3, {"type": "tile", "category": "zoology"}).code == "tile_taken"
    assert "zoology" not in t.view(3)["allowed"]
    assert t.view()["categories"] == [None, "zoology", None, None]


def test_a_tile_can_be_swapped_until_the_definition_is_given():
    t = Table(4, brillante=2)
    t.choose(0)
    t.tile(1, "zoology")
    assert t.refuse(1, {"type": "tile", "category": "zoology"}).code == "tile_yours"
    assert t.tile(1, "earth")[0]["released"] == "zoology"
    t.tile(3, "zoology")  # free again
    t.define(1)
    assert t.refuse(1, {"type": "tile", "category": "health"}).code == "already_given"


# --- typed definitions -----------------------------------------------------------------------


def test_definitions_stay_sealed_until_all_are_in_then_come_in_order_from_the_reader():
    t = Table(4, brillante=2)
    t.choose(0)
    t.tile(3, "zoology")
    t.define(3, "Third scholar.")
    assert t.view()["defs"] == [] and t.view()["given"] == [False, False, False, True]
    assert t.view(3)["text"] == "Third scholar." and t.view(1)["text"] is None
    t.tile(1, "earth")
    t.define(1, "Reader.")
    t.tile(2, "food")
    events = t.define(2, "The true one, in my words.")
    assert kinds(events) == ["given", "revealed"]
    defs = [
        {"seat": 1, "tile": "earth", "text": "Reader."},
        {"seat": 2, "tile": "food", "text": "The true one, in my words."},
        {"seat": 3, "tile": "zoology", "text": "Third scholar."},
    ]
    assert events[1] == {"type": "revealed", "defs": defs, "timeout": False}
    assert t.view()["defs"] == defs and t.view()["phase"] == "judge"


@pytest.mark.parametrize(
    "text, stored",
    [
        ("  A   spaced\tout\nline ", "A spaced out line"),
        ("[bold]not markup[/bold]", "[bold]not markup[/bold]"),
        ("bell\x07 and \x1b[31mescape", "bell and [31mescape"),
        ("x" * 300, "x" * 300),
    ],
)
def test_a_definition_is_one_clean_line(text, stored):
    t = Table(3, brillante=1)
    t.choose(0)
    t.tile(2, "zoology")
    t.define(2, text)
    assert t.state["texts"][2] == stored


@pytest.mark.parametrize("text", ["", "   ", "\x00\x01", "x" * 301, 42, None, ["a"]])
def test_a_definition_must_have_1_to_300_characters(text):
    t = Table(3, brillante=1)
    t.choose(0)
    t.tile(2, "zoology")
    assert t.refuse(2, {"type": "define", "text": text}).code == "bad_text"


def test_the_timer_closes_the_thinking_and_a_scholar_without_a_definition_gives_none():
    t = Table(4, brillante=2, think_seconds=60)
    t.choose(0)
    assert TESAURO.timer(t.state) == (60, {"type": "timeout", "phase": "write", "turn": 1})
    t.tile(1, "earth")
    t.define(1)
    t.tile(2, "food")  # holds a tile, wrote nothing
    events = t.act(HOST, {"type": "timeout", "phase": "write", "turn": 1})
    assert events == [
        {
            "type": "revealed",
            "defs": [{"seat": 1, "tile": "earth", "text": "What P1 says."}],
            "timeout": True,
        }
    ]
    assert t.view(0)["legal"] == ["pick", "crazy"]


def test_a_timeout_from_an_earlier_turn_is_stale():
    t = Table(3, brillante=1)
    t.choose(0)
    t.write_all()
    t.act(0, {"type": "crazy"})
    deal(t.state, 2)
    t.choose(0)
    assert t.refuse(HOST, {"type": "timeout", "phase": "write", "turn": 1}).code == "stale_timeout"
    assert t.refuse(HOST, {"type": "timeout"}).code == "stale_timeout"


def test_no_timer_without_thinking_seconds_and_outside_the_thinking_time():
    t = Table(3, brillante=1, think_seconds=0)
    assert TESAURO.timer(t.state) is None
    t.choose(0)
    assert TESAURO.timer(t.state) is None
    assert t.refuse(HOST, {"type": "timeout", "phase": "write", "turn": 1}).code == "no_timer"


def test_nobody_defined_the_sapiente_can_only_declare_everyone_crazy():
    t = Table(3, brillante=1)
    t.choose(0)
    t.act(HOST, {"type": "timeout", "phase": "write", "turn": 1})
    assert t.view(0)["legal"] == ["crazy"]
    assert t.refuse(0, {"type": "pick", "seat": 1}).code == "bad_pick"


# --- away players in the thinking time -------------------------------------------------------


def test_with_a_timer_an_away_scholar_is_waited_for():
    t = Table(3, brillante=1, think_seconds=60)
    t.choose(0)
    t.act(HOST, {"type": "away", "seat": 2})
    t.tile(1, "food")
    t.define(1)
    assert t.view()["phase"] == "write"
    t.act(HOST, {"type": "back", "seat": 2})
    t.tile(2, "earth")
    assert kinds(t.define(2)) == ["given", "revealed"]


def test_without_a_timer_only_the_scholars_who_are_here_are_waited_for():
    t = Table(3, brillante=1, think_seconds=0)
    t.choose(0)
    t.tile(1, "food")
    t.define(1)
    events = t.act(HOST, {"type": "away", "seat": 2})
    assert kinds(events) == ["away", "revealed"]
    assert [d["seat"] for d in t.view()["defs"]] == [1]


def test_an_away_reader_plays_the_first_word():
    t = Table(3, brillante=2)
    events = t.act(HOST, {"type": "away", "seat": 1})
    assert events[1] == {"type": "word", "seat": 1, "word": "word0", "auto": True}
    assert t.view()["phase"] == "write"


def test_a_reader_away_when_the_card_is_drawn_plays_the_first_word():
    t = Table(3, brillante=1)
    t.choose(0)
    t.write_all()
    t.act(HOST, {"type": "away", "seat": 2})  # the next reader
    t.act(0, {"type": "crazy"})
    assert t.state["sapiente"] == 1 and t.state["phase"] == "dealing"
    events = deal(t.state, 0)
    assert events == [{"type": "word", "seat": 2, "word": "word2", "auto": True}]


# --- spoken mode -----------------------------------------------------------------------------


def spoken_table(**options) -> Table:
    t = Table(4, brillante=2, mode="spoken", **options)
    t.choose(0)
    return t


def test_spoken_mode_has_no_typed_definitions():
    t = spoken_table()
    t.tile(1, "earth")
    assert t.refuse(1, {"type": "define", "text": "hello"}).code == "not_typed"
    assert t.view(1)["legal"] == ["tile", "done"]
    typed = Table(3, brillante=1)
    typed.choose(0)
    typed.tile(1, "food")
    assert typed.refuse(1, {"type": "done"}).code == "not_spoken"


def test_spoken_mode_scholars_speak_in_turn_from_the_reader():
    t = spoken_table()
    assert t.refuse(1, {"type": "done"}).code == "no_tile"
    for seat, cat in ((3, "zoology"), (1, "earth"), (2, "food")):
        t.tile(seat, cat)
    t.act(3, {"type": "done"})
    assert t.refuse(3, {"type": "done"}).code == "already_given"
    t.act(1, {"type": "done"})
    events = t.act(2, {"type": "done"})
    assert kinds(events) == ["ready", "thought", "speaking"] and events[-1]["seat"] == 1
    assert t.view()["speaker"] == 1 and t.view(1)["legal"] == ["done", "define"]
    assert t.refuse(2, {"type": "done"}).code == "not_speaker"
    assert t.act(1, {"type": "done"})[0] == {
        "type": "spoke",
        "seat": 1,
        "tile": "earth",
        "text": None,
    }
    t.act(2, {"type": "define", "text": "A bot reads this out."})
    events = t.act(3, {"type": "done"})
    assert kinds(events) == ["spoke", "revealed"]
    assert [(d["seat"], d["text"]) for d in t.view()["defs"]] == [
        (1, None),
        (2, "A bot reads this out."),
        (3, None),
    ]
    t.act(0, {"type": "pick", "seat": 2})
    assert t.state["won"][0] == [0]


def test_spoken_mode_the_timer_ends_thinking_and_those_without_a_tile_do_not_speak():
    t = spoken_table(think_seconds=30)
    t.tile(3, "zoology")
    events = t.act(HOST, {"type": "timeout", "phase": "write", "turn": 1})
    assert kinds(events) == ["thought", "speaking"] and events[-1]["seat"] == 3


def test_spoken_mode_an_away_speaker_is_passed_over():
    t = spoken_table()
    for seat, cat in ((1, "earth"), (2, "food"), (3, "zoology")):
        t.tile(seat, cat)
        t.act(seat, {"type": "done"})
    events = t.act(HOST, {"type": "away", "seat": 1})
    assert kinds(events) == ["away", "speaking"] and events[1]["seat"] == 2


# --- judgement and scoring -------------------------------------------------------------------


@pytest.mark.parametrize(
    "brillante, verdict, taker, under",
    [
        (2, {"type": "pick", "seat": 2}, 0, False),  # picked the Brillante: the Sapiente keeps it
        (2, {"type": "pick", "seat": 3}, 3, False),  # picked an Orate: that Orate keeps it
        (2, {"type": "crazy"}, None, True),  # crazy, but a Brillante played: under the deck
        (None, {"type": "crazy"}, 0, False),  # crazy and the Brillante was aside: right
        (None, {"type": "pick", "seat": 1}, 1, False),  # Brillante aside, picked an Orate
    ],
)
def test_scoring(brillante, verdict, taker, under):
    t = Table(4, brillante=brillante)
    t.choose(0)
    t.write_all()
    deck_before = list(t.state["deck"])
    events = t.act(0, verdict)
    judged = events[0]
    assert judged["type"] == "judged"
    assert judged["taker"] == taker and judged["under"] is under
    assert judged["brillante"] == brillante
    assert judged["right"] is (taker == 0)
    assert judged["definition"] == "The true meaning of number 0."
    assert judged["category"] == "food" and judged["word"] == "word0"
    won = [[0] if s == taker else [] for s in range(4)]
    assert t.state["won"] == won
    assert t.state["deck"] == deck_before + ([0] if under else [])
    assert t.view()["last_turn"]["taker"] == taker
    assert t.view()["scores"] == [len(w) for w in won]


def test_only_the_sapiente_judges_and_only_given_definitions():
    t = Table(4, brillante=2)
    t.choose(0)
    t.write_all(skip=(3,))
    t.act(HOST, {"type": "timeout", "phase": "write", "turn": 1})
    assert t.refuse(1, {"type": "crazy"}).code == "not_sapiente"
    assert t.refuse(2, {"type": "pick", "seat": 1}).code == "not_sapiente"
    assert t.refuse(0, {"type": "pick", "seat": 3}).code == "bad_pick"
    assert t.refuse(0, {"type": "pick", "seat": True}).code == "bad_pick"
    assert t.refuse(0, {"type": "pick", "seat": 0}).code == "bad_pick"


def test_a_card_under_the_deck_comes_up_again():
    t = Table(2, brillante=1, rounds=5)
    for _ in range(8):  # the deck holds 8 cards; each goes under
        t.choose(0)
        t.write_all()
        t.act(t.state["sapiente"], {"type": "crazy"})
        deal(t.state, t.state["order"][0])
    assert t.state["card"] == 0 and t.state["turn"] == 9


# --- rotation, rounds and the end ------------------------------------------------------------


def play_turn(t: Table, taker: int | None) -> list[dict]:
    """One whole turn in which `taker` ends up with the card (None: it goes under). A pending
    deal gives the Brillante card to a scholar who is not `taker` (or puts it aside)."""
    sapiente = t.state["sapiente"]
    if t.state["phase"] == "dealing":
        others = [s for s in t.state["order"] if s != taker]
        deal(t.state, others[0] if others else None)
    t.choose(0)
    t.write_all()
    brillante = next((s for s, r in enumerate(t.state["roles"]) if r == "brillante"), None)
    if taker == sapiente:
        verdict = {"type": "crazy"} if brillante is None else {"type": "pick", "seat": brillante}
    elif taker is None:
        assert brillante is not None
        verdict = {"type": "crazy"}
    else:
        assert taker != brillante
        verdict = {"type": "pick", "seat": taker}
    return t.act(sapiente, verdict)


def test_the_sapiente_passes_to_the_left_and_the_game_ends_after_a_round():
    t = Table(3, brillante=1)
    sapientes = []
    for taker in (0, 1, 1):  # seat 1 wins two cards
        sapientes.append((t.state["sapiente"], t.state["reader"], t.state["order"]))
        events = play_turn(t, taker)
    assert sapientes == [(0, 1, [1, 2]), (1, 2, [2, 0]), (2, 0, [0, 1])]
    assert events[-1] == {
        "type": "game_over",
        "winners": [1],
        "scores": [1, 2, 0],
        "reason": "rounds",
    }
    assert TESAURO.result(t.state) == {
        "scores": [1, 2, 0],
        "winners": [1],
        "ranking": [1, 0, 2],
        "shared": False,
        "reason": "rounds",
        "tie_break": [],
    }
    assert t.refuse(0, {"type": "crazy"}).code == "game_over"


def test_more_rounds_means_each_player_is_sapiente_more_times():
    t = Table(2, brillante=1, rounds=2)
    seen = []
    for taker in (0, 1, 0, 0):
        seen.append(t.state["sapiente"])
        assert t.view()["round"] == len(seen) // 2 + len(seen) % 2
        events = play_turn(t, taker)
    assert seen == [0, 1, 0, 1] and events[-1]["type"] == "game_over"
    assert t.view()["turns"] == 4


def test_a_tie_brings_one_extra_turn_per_tied_player_and_only_their_totals_decide():
    t = Table(4, brillante=2)
    for taker in (1, 2, 3, 0):  # everyone has one card: all four tied
        events = play_turn(t, taker)
    assert {"type": "tie_break", "round": 1, "tied": [0, 1, 2, 3]} in events
    assert t.view()["tie_break"] == {"round": 1, "tied": [0, 1, 2, 3]}
    assert t.view()["round"] is None and t.state["sapiente"] == 0
    for taker in (2, None, None, None):  # seat 2 pulls ahead in the tie-break
        events = play_turn(t, taker)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [2]
    assert TESAURO.result(t.state)["tie_break"] == [{"round": 1, "tied": [0, 1, 2, 3]}]


def test_tie_break_sapientes_start_after_the_last_sapiente_and_non_tied_cards_do_not_count():
    t = Table(4, brillante=2)
    for taker in (1, 3, 0, 0):  # seats 0 … 3 judged; 0 has 2, 1 has 1, 3 has 1
        events = play_turn(t, taker)
    assert events[-1]["type"] == "game_over" and events[-1]["winners"] == [0]
    t = Table(4, brillante=2)
    for taker in (1, 3, None, None):  # 1 and 3 tied on one card
        events = play_turn(t, taker)
    assert {"type": "tie_break", "round": 1, "tied": [1, 3]} in events
    assert t.state["sapiente"] == 1  # seat 3 judged last; seat 0 is not tied; then 1
    play_turn(t, 0)  # the untied seat 0 wins a card: it does not matter
    events = play_turn(t, 1)
    assert events[-1]["winners"] == [1]


def test_a_second_tie_break_then_a_shared_win():
    t = Table(2, brillante=1)
    for taker in (0, 1):
        play_turn(t, taker)
    assert t.state["tie"] == {"round": 1, "tied": [0, 1]}
    for taker in (0, 1):
        events = play_turn(t, taker)
    assert {"type": "tie_break", "round": 2, "tied": [0, 1]} in events
    for taker in (None, None):
        events = play_turn(t, taker)
    result = TESAURO.result(t.state)
    assert result["winners"] == [0, 1] and result["shared"]
    assert result["tie_break"] == [{"round": 1, "tied": [0, 1]}, {"round": 2, "tied": [0, 1]}]
    assert events[-1]["type"] == "game_over"


def test_the_game_ends_when_the_deck_runs_out():
    t = Table(2, brillante=1, rounds=5)
    for _ in range(8):
        events = play_turn(t, t.state["sapiente"])
    assert kinds(events)[-2:] == ["deck_empty", "game_over"]
    assert TESAURO.result(t.state)["reason"] == "deck_empty"
    assert TESAURO.result(t.state)["winners"] == [0, 1]


# --- the shuffles ----------------------------------------------------------------------------


def test_chance_outcomes_must_be_permutations():
    state = TESAURO.setup(["A", "B"], {"deck": WORDS})
    t = Table.__new__(Table)
    t.state = state
    for outcome in ([0] * 12, list(range(11)), [True, False, *range(2, 12)], "x", None):
        assert t.refuse(CHANCE, {"type": "chance", "outcome": outcome}).code == "bad_outcome"
    assert t.refuse(0, {"type": "choose", "entry": 0}).code == "shuffling"


def test_deal_outcome_puts_the_brillante_where_asked():
    t = Table(5, brillante=3)
    assert t.state["roles"][3] == "brillante"
    assert deal_outcome(t.state, None)[-1] == 0


# --- every refusal ---------------------------------------------------------------------------


def choosing() -> Table:
    return Table(4, brillante=2)


def writing() -> Table:
    t = Table(4, brillante=2)
    t.choose(0)
    return t


def judging() -> Table:
    t = writing()
    t.write_all()
    return t


def over() -> Table:
    t = Table(2, brillante=1)
    for _ in range(2):
        play_turn(t, 0)
    return t


def shuffling() -> Table:
    t = judging()
    t.act(0, {"type": "crazy"})
    return t


REFUSALS = [
    (writing, 1, {"type": "dance"}, "unknown_action"),
    (writing, 1, "tile", "unknown_action"),
    (writing, 1, {"type": "tile", "category": "food", "colour": "red"}, "unknown_field"),
    (over, 0, {"type": "crazy"}, "game_over"),
    (writing, 1, {"type": "timeout", "phase": "write", "turn": 1}, "not_host"),
    (writing, HOST, {"type": "tile", "category": "earth"}, "bad_seat"),
    (writing, 1, {"type": "chance", "outcome": [0, 1, 2, 3]}, "not_chance"),
    (writing, 4, {"type": "tile", "category": "earth"}, "bad_seat"),
    (writing, HOST, {"type": "away", "seat": 9}, "bad_seat"),
    (shuffling, 1, {"type": "choose", "entry": 0}, "shuffling"),
    (choosing, 1, {"type": "tile", "category": "earth"}, "wrong_phase"),
    (writing, 0, {"type": "crazy"}, "wrong_phase"),
    (choosing, 2, {"type": "choose", "entry": 0}, "not_reader"),
    (choosing, 1, {"type": "choose", "entry": 2}, "bad_entry"),
    (choosing, 1, {"type": "choose", "entry": True}, "bad_entry"),
    (choosing, 1, {"type": "choose", "entry": 1.0}, "bad_entry"),
    (writing, 0, {"type": "tile", "category": "earth"}, "not_scholar"),
    (writing, 0, {"type": "define", "text": "x"}, "not_scholar"),
    (writing, 1, {"type": "tile", "category": "dragons"}, "bad_category"),
    (writing, 2, {"type": "tile", "category": "earth"}, "brillante_tile"),
    (writing, 1, {"type": "tile", "category": "food"}, "category_reserved"),
    (writing, 1, {"type": "define", "text": "x"}, "no_tile"),
    (judging, 0, {"type": "pick", "seat": 0}, "bad_pick"),
    (judging, 1, {"type": "pick", "seat": 2}, "not_sapiente"),
    (shuffling, CHANCE, {"type": "chance", "outcome": [0, 0, 1, 2]}, "bad_outcome"),
    (choosing, HOST, {"type": "back", "seat": 1}, "not_away"),
    (writing, CHANCE, {"type": "chance", "outcome": [0]}, "wrong_phase"),
]


@pytest.mark.parametrize("make, seat, action, code", REFUSALS)
def test_refusals_leave_the_state_untouched(make, seat, action, code):
    assert make().refuse(seat, action).code == code


def test_an_away_player_cannot_act_and_cannot_go_away_twice():
    t = writing()
    t.act(HOST, {"type": "away", "seat": 1})
    assert t.refuse(1, {"type": "tile", "category": "earth"}).code == "away"
    assert t.refuse(HOST, {"type": "away", "seat": 1}).code == "already_away"
    assert t.view(1)["legal"] == []


TESTED_ELSEWHERE = {
    "tile_yours",
    "tile_taken",
    "already_given",
    "bad_text",
    "not_typed",
    "not_spoken",
    "not_speaker",
    "no_timer",
    "stale_timeout",
    "away",
    "already_away",
}


def test_every_code_is_tested_and_documented():
    import games.rulebook as rulebook

    source = inspect.getsource(rules) + inspect.getsource(rulebook)
    raised = set(re.findall(r'IllegalAction\(\s*"(\w+)"', source))
    assert {code for *_, code in REFUSALS} | TESTED_ELSEWHERE == raised
    assert all(f"`{code}`" in games.tesauro.__doc__ for code in raised)


@pytest.mark.parametrize(
    ("lang", "words", "dealt"),
    [("en", "table", "en"), ("en", "ru", "ru"), ("ru", "en", "en"), ("ru", "table", "ru")],
)
def test_the_dictionary_s_language_is_an_option_of_its_own(lang, words, dealt):
    """A Russian-speaking table may want English words, and the other way round."""
    from games.tesauro.deck import load_dictionary

    state = TESAURO.setup(["A", "B", "C"], {"lang": lang, "words": words})
    first = load_dictionary(dealt).cards[0][0].word
    assert state["cards"][0][0]["word"] == first
    assert TESAURO.view(state, None)["words"] == dealt


# --- the turn time (A player who is there but does not act) -------------------------------------


def test_turn_time_is_the_reader_s_choice_and_the_sage_s_judgement_not_the_thinking_time():
    t = Table(turn_seconds=120)
    assert TESAURO.turn(t.state) == (t.state["reader"], 120)
    t.choose()
    assert t.state["phase"] == "write" and TESAURO.turn(t.state) is None  # its own timer
    t.write_all()
    assert t.state["phase"] == "judge"
    assert TESAURO.turn(t.state) == (t.state["sapiente"], 120)


def test_a_spoken_definition_is_a_turn_without_turn_time_and_the_default_is_90_s():
    t = Table(mode="spoken")
    assert TESAURO.turn(t.state) == (t.state["reader"], 90)
    t.choose()
    for s in t.state["order"]:
        t.tile(s, t.free_tile(s))
        t.act(s, {"type": "done"})
    assert t.state["phase"] == "speak"
    assert TESAURO.turn(t.state) == (t.state["speakers"][0], 0)  # the host's nudge only


def test_turn_time_off_and_refused_values():
    assert TESAURO.turn(Table(turn_seconds=0).state)[1] == 0
    with pytest.raises(ValueError, match="turn_seconds"):
        Table(turn_seconds="soon")
