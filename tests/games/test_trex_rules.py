"""Every rule and decision of `docs/rules/trex.md`, played out with stacked decks.

Decks are stacked with `games.trex.stacked`: a test names the cards it wants dealt and drawn
(`hands=[5, 5, 8]`, `then=[6, 6]`: after a match the offerer draws first), so a test reads like
a game at the table. Every refused action is checked to leave the state exactly as it was.
"""

from __future__ import annotations

import copy
import inspect
import re

import pytest

import games.trex
from games import CHANCE, HOST, IllegalAction, rulebook
from games.testing import replay
from games.trex import TREX, rules
from games.trex.deck import COLOURS, load_deck
from games.trex.stacked import byebye, chance_move, deal


def types(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]


class Table:
    """A game of T-Rex driven by short calls that read like the rules."""

    def __init__(
        self,
        players: int = 3,
        hands: tuple = (),
        then: tuple = (),
        actions: dict | None = None,
        **options: object,
    ) -> None:
        self.players = [f"P{n}" for n in range(players)]
        self.options = dict(options)
        self.log = deal(TREX, self.players, self.options, hands, then, actions)
        self.state = replay(TREX, self.players, self.options, self.log)

    # --- moves ---

    def act(self, seat: int, action: dict) -> list[dict]:
        events = TREX.apply(self.state, seat, copy.deepcopy(action))
        self.log.append((seat, copy.deepcopy(action)))
        return events

    def offer(self, seat: int, to: int) -> list[dict]:
        return self.act(seat, {"type": "offer", "to": to})

    def withdraw(self, seat: int) -> list[dict]:
        return self.act(seat, {"type": "withdraw"})

    def accept(self, seat: int, offerer: int) -> list[dict]:
        return self.act(seat, {"type": "accept", "from": offerer})

    def decline(self, seat: int, offerer: int) -> list[dict]:
        return self.act(seat, {"type": "decline", "from": offerer})

    def match(self, a: int, b: int) -> list[dict]:
        """`a` offers, `b` accepts."""
        self.offer(a, b)
        return self.accept(b, a)

    def skip(self, seat: int) -> list[dict]:
        return self.act(seat, {"type": "skip"})

    def vote(self, seat: int, choice: int) -> list[dict]:
        return self.act(seat, {"type": "vote", "for": choice})

    def call(self, seat: int, match: bool) -> list[dict]:
        return self.act(seat, {"type": "call", "match": match})

    def host(self, kind: str, **args: object) -> list[dict]:
        return self.act(HOST, {"type": kind, **args})

    def shuffle(self, *top: object) -> list[dict]:
        """CHANCE resolves the pending shuffle with `top` first."""
        return self.act(*chance_move(self.state, top))

    def refuse(self, seat: int, action: object) -> IllegalAction:
        """The action is refused, and the state is untouched."""
        before = copy.deepcopy(self.state)
        with pytest.raises(IllegalAction) as refused:
            TREX.apply(self.state, seat, action)
        assert self.state == before
        return refused.value

    # --- what the table shows ---

    def view(self, seat: int | None = None) -> dict:
        return TREX.view(self.state, seat)

    def level(self, seat: int) -> int:
        return self.view(seat)["card"]["level"]

    def levels(self) -> list[int]:
        return [self.level(seat) for seat in range(len(self.players))]

    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def pending(self) -> dict | None:
        return TREX.chance(self.state)

    def offers(self, seat: int) -> dict:
        return self.view(seat)["offers"]

    def news(self, seat: int) -> dict | None:
        news = self.view(seat)["news"]
        return None if news is None else {k: v for k, v in news.items() if k != "id"}


# --- setup ------------------------------------------------------------------------------------


def test_setup_shuffles_each_action_deck_then_the_number_deck_then_deals():
    state = TREX.setup(["A", "B", "C"])
    deck = load_deck("en")
    assert state["phase"] == "dealing" and TREX.view(state, None)["actions"] == {
        c: None for c in COLOURS
    }
    specs = []
    while (spec := TREX.chance(state)) is not None:
        specs.append(spec)
        TREX.apply(state, CHANCE, {"type": "chance", "outcome": list(range(spec["size"]))})
    assert specs == [
        *({"kind": "shuffle", "deck": f"{c}_actions", "size": len(deck.actions[c])}
          for c in COLOURS),
        {"kind": "shuffle", "deck": "numbers", "size": len(deck.numbers)},
    ]  # fmt: skip
    view = TREX.view(state, None)
    assert view["phase"] == "play" and view["mode"] == "compete"
    # identity shuffles: the top of each action deck is its first text, and the first three
    # number cards (red 1, red 1, red 2 in canonical order) go to seats 0, 1, 2
    assert view["actions"] == {c: deck.actions[c][0] for c in COLOURS}
    assert [TREX.view(state, s)["card"] for s in range(3)] == [
        {"colour": "red", "level": 1}, {"colour": "red", "level": 1},
        {"colour": "red", "level": 2},
    ]  # fmt: skip
    assert view["decks"]["numbers"] == len(deck.numbers) - 3
    assert view["decks"]["actions"] == {c: len(deck.actions[c]) - 1 for c in COLOURS}
    assert view["last_events"] == [{"type": "dealt", "phase": "play"}]


def test_the_first_of_a_shuffle_is_drawn_first():
    t = Table(3, hands=[("blue", 7), 10, ("yellow", 1)], actions={"red": [3]})
    assert [t.view(s)["card"] for s in range(3)] == [
        {"colour": "blue", "level": 7}, {"colour": "red", "level": 10},
        {"colour": "yellow", "level": 1},
    ]  # fmt: skip
    assert t.view()["actions"]["red"] == t.state["texts"]["red"][3]


def test_the_deck_is_copied_into_the_state():
    t = Table(3)
    deck = load_deck("en")
    assert t.state["texts"] == {c: list(deck.actions[c]) for c in COLOURS}
    assert t.state["cards"] == [{"colour": c.colour, "level": c.level} for c in deck.numbers]


def test_the_language_picks_the_deck():
    ru = Table(3, lang="ru")
    assert ru.view()["lang"] == "ru"
    assert ru.view()["actions"]["red"] == load_deck("ru").actions["red"][0]


@pytest.mark.parametrize(
    ("lang", "words", "cards"),
    [("en", "table", "en"), ("en", "ru", "ru"), ("ru", "en", "en"), ("ru", "ru", "ru")],
)
def test_the_words_option_picks_the_cards_language_whatever_the_screens_speak(lang, words, cards):
    t = Table(3, lang=lang, words=words)
    assert t.view()["lang"] == cards
    assert t.view()["actions"]["red"] == load_deck(cards).actions["red"][0]


def test_words_must_be_the_table_s_or_a_language():
    with pytest.raises(ValueError, match="words"):
        TREX.setup(["a", "b", "c"], {"words": "de"})


def test_a_deck_file_replaces_the_colours_it_lists(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[actions]\nred = ["Juggle invisible eggs", "Tiptoe past a dragon"]\n')
    t = Table(3, deck=str(path))
    assert t.state["texts"]["red"] == ["Juggle invisible eggs", "Tiptoe past a dragon"]
    assert t.view()["actions"]["red"] == "Juggle invisible eggs"
    assert t.state["texts"]["blue"] == list(load_deck("en").actions["blue"])


@pytest.mark.parametrize(
    "players, good, bad",
    [(2, 15, 0), (3, 16, 8), (4, 20, 10), (5, 24, 12), (6, 28, 14), (7, 32, 16), (8, 36, 18)],
)
def test_tokens_are_put_out_by_player_count(players, good, bad):
    view = Table(players).view()
    assert view["pool"] == view["tokens"] == {"good": good, "bad": bad}
    assert view["good"] == view["bad"] == view["scores"] == [0] * players
    assert view["mode"] == ("coop" if players == 2 else "compete")


@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players(players):
    with pytest.raises(ValueError):
        TREX.setup([f"P{n}" for n in range(players)])


@pytest.mark.parametrize(
    "options",
    [{"vote_seconds": -1}, {"vote_seconds": "60"}, {"vote_seconds": True}, {"coop": 1},
     {"lang": 3}, {"deck": 7}],
)  # fmt: skip
def test_bad_options_are_refused_at_setup(options):
    with pytest.raises(ValueError):
        TREX.setup(["A", "B", "C"], options)


def test_an_unknown_language_or_a_missing_deck_file_is_a_deck_error(tmp_path):
    with pytest.raises(ValueError):
        TREX.setup(["A", "B", "C"], {"lang": "xx"})
    with pytest.raises(ValueError):
        TREX.setup(["A", "B", "C"], {"deck": str(tmp_path / "none.toml")})


def test_the_mode_follows_the_player_count_whatever_the_coop_option():
    assert Table(2, coop=False).view()["mode"] == "coop"
    assert Table(3, coop=True).view()["mode"] == "compete"


def test_the_game_contract():
    options = {option.key: option for option in TREX.options}
    assert set(options) == {"vote_seconds", "words"}  # no mode: the player count decides
    assert options["words"].default == "table" and options["words"].choices[1:] == ("ru", "en")
    assert options["vote_seconds"].default == 60
    assert options["vote_seconds"].choices == (0, 30, 45, 60, 90, 120)
    assert (TREX.id, TREX.min_players, TREX.max_players, TREX.bots) == ("trex", 2, 8, {})


def test_trex_is_in_the_host_list():
    from games import GAMES

    assert GAMES["trex"] is TREX


# --- matches and scoring ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "level_a, level_b, outcome, good, bad",
    [
        (5, 5, "exact", 2, 0),
        (10, 10, "exact", 2, 0),
        (5, 6, "near", 1, 0),
        (6, 5, "near", 1, 0),
        (1, 2, "near", 1, 0),
        (5, 7, "far", 0, 1),
        (7, 5, "far", 0, 1),
        (1, 10, "far", 0, 1),
    ],
)
def test_a_match_scores_by_how_far_apart_the_levels_are(level_a, level_b, outcome, good, bad):
    t = Table(3, hands=[level_a, level_b, 3], then=[8, 9])
    events = t.match(0, 1)
    match = {
        "a": 0, "b": 1, "level_a": level_a, "level_b": level_b,
        "outcome": outcome, "good": good, "bad": bad,
    }  # fmt: skip
    assert events == [{"type": "match", **match}]
    view = t.view()
    assert view["last_match"] == match
    assert view["good"] == [good, good, 0] and view["bad"] == [bad, bad, 0]
    assert view["scores"] == [good - bad, good - bad, 0]
    assert view["pool"] == {"good": 16 - 2 * good, "bad": 8 - 2 * bad}
    # both discard and draw, the offerer first
    assert t.levels() == [8, 9, 3]
    assert view["decks"]["number_discard"] == 2


def test_both_players_see_both_cards_the_table_only_the_levels():
    t = Table(3, hands=[("blue", 4), ("yellow", 5), 3], then=[8, 9])
    t.match(0, 1)
    theirs = {"colour": "yellow", "level": 5}
    mine = {"colour": "blue", "level": 4}
    assert t.news(0) == {"type": "matched", "with": 1, "mine": mine, "theirs": theirs}
    assert t.news(1) == {"type": "matched", "with": 0, "mine": theirs, "theirs": mine}
    assert t.news(2) is None
    assert "colour" not in str(t.view()["last_match"])


def test_two_players_who_offered_each_other_have_both_accepted():
    t = Table(3, hands=[6, 6, 2], then=[1, 10])
    assert t.offer(1, 0) == []
    events = t.offer(0, 1)
    assert types(events) == ["match"]
    assert (events[0]["a"], events[0]["b"]) == (1, 0)  # the standing offer is the one accepted
    assert t.offers(0) == t.offers(1) == {"out": None, "in": []}
    assert t.levels() == [10, 1, 2]  # the earlier offerer drew first


def test_accepting_withdraws_your_own_outgoing_offer():
    t = Table(4, hands=[5, 5, 1, 1], then=[8, 9])
    t.offer(1, 2)
    assert t.offers(2)["in"] == [1]
    t.offer(0, 1)
    t.accept(1, 0)
    assert t.offers(1) == {"out": None, "in": []}
    assert t.offers(2) == {"out": None, "in": []}
    assert t.news(2) == {"type": "withdrawn", "from": 1}


def test_offers_to_the_two_players_stand_after_their_match():
    t = Table(4, hands=[5, 5, 1, 2], then=[8, 9])
    t.offer(2, 1)
    t.offer(3, 0)
    t.match(0, 1)
    assert t.offers(1)["in"] == [2] and t.offers(0)["in"] == [3]
    assert t.offers(2)["out"] == 1 and t.offers(3)["out"] == 0


def test_an_offer_stands_when_the_target_changes_card():
    t = Table(3, hands=[7, 2, 9], then=[7])
    t.offer(0, 2)
    t.skip(2)  # the offered player may still skip: only the offerer's card is locked
    assert t.level(2) == 7
    assert t.offers(2)["in"] == [0]
    events = t.accept(2, 0)
    assert (events[0]["level_a"], events[0]["level_b"], events[0]["outcome"]) == (7, 7, "exact")


def test_an_offer_stands_when_the_target_matched_with_someone_else():
    t = Table(3, hands=[7, 4, 4], then=[3, 7, 1, 1])
    t.offer(0, 2)
    t.match(1, 2)  # 1 draws 3, 2 draws 7
    assert t.levels() == [7, 3, 7]
    assert t.offers(0)["out"] == 2
    events = t.accept(2, 0)
    assert (events[0]["a"], events[0]["b"], events[0]["outcome"]) == (0, 2, "exact")


def test_one_offer_out_at_a_time_and_the_card_is_locked_while_it_is():
    t = Table(3, hands=[5, 6, 7])
    t.offer(0, 1)
    assert t.refuse(0, {"type": "offer", "to": 2}).code == "offer_out"
    assert t.refuse(0, {"type": "offer", "to": 1}).code == "offer_out"
    assert t.refuse(0, {"type": "skip"}).code == "card_locked"
    assert t.view(0)["legal"] == ["withdraw"]
    assert t.view(1)["legal"] == ["offer", "skip", "accept", "decline"]


def test_withdraw_frees_the_card_and_tells_the_target():
    t = Table(3, hands=[5, 6, 7], then=[2])
    t.offer(0, 1)
    assert t.withdraw(0) == []
    assert t.offers(0) == {"out": None, "in": []} and t.offers(1) == {"out": None, "in": []}
    assert t.news(1) == {"type": "withdrawn", "from": 0}
    assert types(t.skip(0)) == ["skipped"]
    assert t.level(0) == 2


def test_decline_changes_nothing_but_the_offer():
    t = Table(3, hands=[5, 6, 7])
    t.offer(0, 1)
    before = t.view()
    assert t.decline(1, 0) == []
    assert t.view() == before
    assert t.levels() == [5, 6, 7]
    assert t.offers(0)["out"] is None and t.offers(1)["in"] == []
    assert t.news(0) == {"type": "declined", "by": 1}
    assert t.news(1) == {"type": "offered", "from": 0}
    assert t.refuse(1, {"type": "accept", "from": 0}).code == "no_such_offer"


def test_the_offered_player_learns_who_offers():
    t = Table(4, hands=[5, 6, 7, 8])
    t.offer(0, 2)
    t.offer(3, 2)
    assert t.offers(2) == {"out": None, "in": [0, 3]}
    assert t.news(2) == {"type": "offered", "from": 3}
    assert t.offers(0) == {"out": 2, "in": []}


def test_a_skip_discards_and_draws_and_is_public():
    t = Table(3, hands=[5, 6, 7], then=[1])
    events = t.skip(1)
    assert events == [{"type": "skipped", "seat": 1}]
    assert t.level(1) == 1
    assert t.view()["decks"]["number_discard"] == 1


# --- bye-bye ----------------------------------------------------------------------------------


def test_a_byebye_dealt_at_setup_is_shuffled_back_and_replaced():
    state = TREX.setup(["A", "B", "C"])
    while TREX.chance(state)["deck"] != "numbers":
        TREX.apply(state, *chance_move(state))
    TREX.apply(state, *chance_move(state, [5, byebye("red"), 7]))
    assert state["phase"] == "dealing"
    assert TREX.chance(state) == {"kind": "shuffle", "deck": "numbers", "size": 65}
    assert state["numbers"][-1] == state["cards"].index({"colour": "red", "level": None})
    # shuffled back: another bye-bye comes up, and again it goes back
    events = TREX.apply(state, *chance_move(state, [byebye("blue")]))
    assert events == [] and TREX.chance(state)["size"] == 65
    events = TREX.apply(state, *chance_move(state, [9, 10]))
    assert types(events) == ["dealt"]
    assert [TREX.view(state, s)["card"]["level"] for s in range(3)] == [5, 9, 10]
    view = TREX.view(state, None)
    assert view["decks"] == {
        "numbers": 63, "number_discard": 0, "actions": view["decks"]["actions"],
    }  # fmt: skip
    deck = load_deck("en")
    assert view["actions"] == {c: deck.actions[c][0] for c in COLOURS}  # no action changed


def test_a_byebye_drawn_in_play_replaces_the_active_action_of_its_colour():
    t = Table(3, hands=[5, 6, 7], then=[byebye("red"), 9])
    red = t.state["texts"]["red"]
    events = t.skip(0)
    assert events == [
        {"type": "skipped", "seat": 0},
        {"type": "byebye", "seat": 0, "colour": "red", "gone": red[0], "came": red[1]},
    ]
    assert t.view()["actions"]["red"] == red[1]
    assert t.level(0) == 9
    assert t.view()["decks"]["number_discard"] == 2  # the skipped 5 and the bye-bye
    assert t.state["action_discards"]["red"] == [0]


def test_several_byebyes_in_a_row():
    then = [byebye("red"), byebye("red"), byebye("blue"), 9]
    t = Table(3, hands=[5, 6, 7], then=then)
    red, blue = t.state["texts"]["red"], t.state["texts"]["blue"]
    events = t.skip(2)
    assert events == [
        {"type": "skipped", "seat": 2},
        {"type": "byebye", "seat": 2, "colour": "red", "gone": red[0], "came": red[1]},
        {"type": "byebye", "seat": 2, "colour": "red", "gone": red[1], "came": red[2]},
        {"type": "byebye", "seat": 2, "colour": "blue", "gone": blue[0], "came": blue[1]},
    ]
    assert t.level(2) == 9
    assert t.view()["actions"]["red"] == red[2] and t.view()["actions"]["blue"] == blue[1]


def test_byebyes_after_a_match_come_to_whoever_draws_them():
    t = Table(3, hands=[5, 5, 7], then=[byebye("yellow"), 2, byebye("red"), 3])
    events = t.match(0, 1)
    assert types(events) == ["match", "byebye", "byebye"]
    assert (events[1]["seat"], events[1]["colour"]) == (0, "yellow")
    assert (events[2]["seat"], events[2]["colour"]) == (1, "red")
    assert t.levels() == [2, 3, 7]


def test_an_empty_action_deck_is_refilled_from_its_discards(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[actions]\nred = ["Juggle invisible eggs", "Tiptoe past a dragon"]\n')
    t = Table(3, hands=[5, 6, 7], then=[byebye("red"), byebye("red"), 9], deck=str(path))
    events = t.skip(0)
    assert events == [
        {"type": "skipped", "seat": 0},
        {"type": "byebye", "seat": 0, "colour": "red", "gone": "Juggle invisible eggs",
         "came": "Tiptoe past a dragon"},
        {"type": "reshuffled", "deck": "red_actions"},
    ]  # fmt: skip
    assert t.pending == {"kind": "shuffle", "deck": "red_actions", "size": 2}
    assert t.view(0)["legal"] == []
    assert t.refuse(1, {"type": "skip"}).code == "shuffling"
    events = t.shuffle("Juggle invisible eggs")
    assert events == [
        {"type": "byebye", "seat": 0, "colour": "red", "gone": "Tiptoe past a dragon",
         "came": "Juggle invisible eggs"},
    ]  # fmt: skip
    assert t.level(0) == 9 and t.pending is None
    assert t.view()["decks"]["actions"]["red"] == 1


def test_an_empty_number_deck_is_reshuffled_from_its_discards():
    t = Table(3, hands=[5, ("red", 1), ("red", 2)])
    skips = 0
    while t.pending is None:
        events = t.skip(0)
        skips += 1
    assert skips == 66 - 3 - 6 + 1  # 57 cards with a level in the deck (6 bye-byes pass by)
    assert events[-1] == {"type": "reshuffled", "deck": "numbers"}
    # every card but the two in hands: the discards, in the order they were discarded
    decks = t.view()["decks"]
    assert (decks["numbers"], decks["number_discard"]) == (64, 0)
    assert t.pending == {"kind": "shuffle", "deck": "numbers", "size": 64}
    t.shuffle(("blue", 10))
    assert t.view(0)["card"] == {"colour": "blue", "level": 10}
    assert t.view()["decks"]["numbers"] == 63


# --- the end ------------------------------------------------------------------------------------


def test_the_game_ends_the_moment_the_good_pile_is_empty_even_mid_match():
    # 3 players put out 16 good tokens: 4 + 4 + 4 + 2 leave 2, and the last exact match
    # still gives both players their 2.
    t = Table(3, hands=[5, 5, 8], then=[6, 6, 7, 7, 9, 1, 4, 4])
    for _ in range(3):
        assert t.match(0, 1)[0]["outcome"] == "exact"
    assert t.match(0, 2)[0]["outcome"] == "near"
    assert t.view()["pool"]["good"] == 2
    events = t.match(0, 2)
    assert types(events) == ["match", "pile_empty", "game_over"]
    assert events[1] == {"type": "pile_empty", "piles": ["good"]}
    view = t.view()
    assert view["good"] == [9, 6, 3] and view["pool"] == {"good": 0, "bad": 8}
    assert view["over"] and view["phase"] == "over"
    assert events[2] == {"type": "game_over", "winners": [0], "scores": [9, 6, 3]}
    # nobody drew after the last match
    assert view["decks"]["number_discard"] == 10
    assert t.view(0)["card"] is None and t.view(2)["card"] is None and t.level(1) == 1
    assert TREX.result(t.state) == {
        "scores": [9, 6, 3], "winners": [0], "ranking": [0, 1, 2], "left": [],
        "shared": False, "tie_break": False, "coop": False, "won": None, "moved": None,
    }  # fmt: skip


def test_the_game_ends_the_moment_the_bad_pile_is_empty():
    t = Table(3, hands=[1, 10, 5], then=[1, 10, 2, 9, 3, 8])
    for _ in range(4):
        assert t.match(0, 1)[0]["outcome"] == "far"
    view = t.view()
    assert view["pool"] == {"good": 16, "bad": 0} and view["over"]
    assert view["scores"] == [-4, -4, 0]
    assert TREX.result(t.state)["winners"] == [2]
    assert view["last_events"][1] == {"type": "pile_empty", "piles": ["bad"]}


def test_score_is_good_minus_bad():
    t = Table(3, hands=[5, 5, 9], then=[3, 1, 2, 2])
    t.match(0, 1)  # exact: +2 good each
    t.match(0, 1)  # 3 and 1: far, +1 bad each
    t.match(2, 1)  # 9 and 2: far
    view = t.view()
    assert view["good"] == [2, 2, 0] and view["bad"] == [1, 2, 1]
    assert view["scores"] == [1, 0, -1]


# --- the sudden death ---------------------------------------------------------------------------


def to_tie(vote_seconds: int = 60) -> Table:
    """4 players: 2 and 3 empty the bad pile (10) with five far matches; 0 and 1 tie on 0."""
    t = Table(4, hands=[5, 5, 1, 10], then=[1, 10, 2, 9, 3, 8, 4, 7], vote_seconds=vote_seconds)
    for _ in range(4):
        assert types(t.match(2, 3)) == ["match"]
    events = t.match(2, 3)
    assert types(events) == ["match", "pile_empty"]
    assert t.phase == "tie_break" and t.pending == {"kind": "shuffle", "deck": "colour", "size": 3}
    return t


def test_a_tie_on_top_plays_a_sudden_death_with_new_actions_of_a_random_colour():
    t = to_tie()
    blue = t.state["texts"]["blue"]
    events = t.shuffle("blue")
    assert events == [
        {"type": "tie_break", "tied": [0, 1], "colour": "blue", "actions": blue[1:3],
         "voters": [2, 3]},
    ]  # fmt: skip
    view = t.view()
    assert view["phase"] == "vote" and not view["over"]
    assert view["tie_break"] == {
        "tied": [0, 1], "voters": [2, 3], "colour": "blue", "actions": blue[1:3], "voted": [],
        "tally": None, "winners": None, "timeout": False,
    }  # fmt: skip
    assert view["actions"]["blue"] == blue[0]  # the active actions stay
    assert t.view(2)["legal"] == ["vote"] and t.view(0)["legal"] == []
    assert TREX.timer(t.state) == (60, {"type": "timeout", "phase": "vote"})
    assert TREX.legal_actions(t.state, 3) == [{"type": "vote", "for": s} for s in (0, 1)]


def test_the_tie_colour_is_the_first_of_the_shuffle():
    for outcome, colour in (([0, 1, 2], "red"), ([1, 2, 0], "blue"), ([2, 0, 1], "yellow")):
        t = to_tie()
        t.act(CHANCE, {"type": "chance", "outcome": outcome})
        assert t.view()["tie_break"]["colour"] == colour


@pytest.mark.parametrize(
    "votes, winners, tally, ranking",
    [
        ({2: 0, 3: 0}, [0], [2, 0, 0, 0], [0, 1, 2, 3]),  # most votes wins
        ({2: 1, 3: 1}, [1], [0, 2, 0, 0], [1, 0, 2, 3]),
        ({2: 0, 3: 1}, [0, 1], [1, 1, 0, 0], [0, 1, 2, 3]),  # still tied: shared
    ],
)
def test_the_vote_closes_when_every_voter_has_voted(votes, winners, tally, ranking):
    t = to_tie()
    t.shuffle("red")
    (first, choice), (second, other) = votes.items()
    assert t.vote(first, choice) == [{"type": "voted", "seat": first}]
    assert t.view()["tie_break"]["voted"] == [first]
    assert t.view()["tie_break"]["tally"] is None
    assert t.view(first)["vote"] == choice and t.view(second)["vote"] is None
    events = t.vote(second, other)
    assert events == [
        {"type": "voted", "seat": second},
        {"type": "vote_result", "tally": tally, "winners": winners, "timeout": False},
        {"type": "game_over", "winners": winners, "scores": [0, 0, -5, -5]},
    ]
    result = TREX.result(t.state)
    assert result["winners"] == winners and result["shared"] == (len(winners) > 1)
    assert result["tie_break"] is True
    assert result["ranking"] == ranking
    assert t.view()["tie_break"]["tally"] == tally


def test_the_vote_timer_closes_it_and_missing_votes_do_not_count():
    t = to_tie()
    t.shuffle("yellow")
    t.vote(2, 1)
    events = t.host("timeout", phase="vote")
    assert events[0] == {
        "type": "vote_result", "tally": [0, 1, 0, 0], "winners": [1], "timeout": True,
    }  # fmt: skip
    assert TREX.result(t.state)["winners"] == [1]
    assert TREX.result(t.state)["ranking"] == [1, 0, 2, 3]


def test_a_timeout_without_any_vote_is_a_shared_win():
    t = to_tie()
    t.shuffle("yellow")
    events = t.host("timeout", phase="vote")
    assert events[0]["winners"] == [0, 1] and events[0]["tally"] == [0, 0, 0, 0]
    assert TREX.result(t.state)["shared"]


def test_with_no_vote_timer_the_vote_waits_for_every_voter_who_is_here():
    t = to_tie(vote_seconds=0)
    t.shuffle("yellow")
    assert TREX.timer(t.state) is None
    assert t.refuse(HOST, {"type": "timeout", "phase": "vote"}).code == "no_timer"
    assert TREX.waiting_for(t.state) == [2, 3]
    t.vote(2, 0)
    assert t.phase == "vote" and TREX.waiting_for(t.state) == [3]  # 3 is here: waited for
    t.vote(3, 1)
    assert TREX.result(t.state)["winners"] == [0, 1]


def test_a_voter_marked_away_is_not_waited_for():
    """The host marks a player away only once their grace time is over: the vote then goes
    on without them, so one vanished laptop cannot hold the end of the game."""
    t = to_tie(vote_seconds=0)
    t.shuffle("yellow")
    t.vote(2, 0)
    events = t.host("away", seat=3)
    assert [e["type"] for e in events] == ["away", "vote_result", "game_over"]
    assert TREX.result(t.state)["winners"] == [0]


def test_a_voter_back_before_the_others_voted_still_votes():
    t = to_tie(vote_seconds=0)
    t.shuffle("yellow")
    t.host("away", seat=3)
    assert TREX.waiting_for(t.state) == [2]
    t.host("back", seat=3)
    t.vote(2, 0)
    assert t.phase == "vote"
    t.vote(3, 1)
    assert TREX.result(t.state)["shared"]


def test_every_voter_away_when_the_vote_opens_closes_it_at_once():
    t = to_tie(vote_seconds=0)
    t.host("away", seat=2)
    t.host("away", seat=3)
    events = t.shuffle("yellow")
    assert "vote_result" in [e["type"] for e in events]
    assert TREX.result(t.state)["winners"] == [0, 1]


def test_everyone_tied_means_no_voters_and_a_shared_win():
    # 4 players take the 20 good tokens 5 each: exact, exact, exact, exact, near, near
    t = Table(4, hands=[5, 5, 5, 5], then=[6, 6, 6, 6, 7, 7, 8, 8, 1, 1])
    for a, b in ((0, 1), (2, 3), (0, 1), (2, 3)):
        assert t.match(a, b)[0]["outcome"] == "exact"
    assert t.match(0, 2)[0]["outcome"] == "near"
    events = t.match(1, 3)
    assert types(events) == ["match", "pile_empty", "game_over"]
    assert t.pending is None and t.view()["tie_break"] is None
    result = TREX.result(t.state)
    assert result["scores"] == [5, 5, 5, 5] and result["winners"] == [0, 1, 2, 3]
    assert result["shared"] and not result["tie_break"]


def test_tie_actions_come_from_the_refilled_deck_or_else_the_active_one(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[actions]\nred = ["Juggle invisible eggs"]\n')
    t = Table(4, hands=[5, 5, 1, 10], then=[byebye("red"), 5, 1, 10, 2, 9, 3, 8, 4, 7],
              deck=str(path))  # fmt: skip
    t.skip(0)  # the bye-bye: the only red card goes to the discards and comes back
    assert t.pending["deck"] == "red_actions"
    t.shuffle()
    assert t.level(0) == 5
    for _ in range(5):
        t.match(2, 3)
    assert t.phase == "tie_break"
    assert t.shuffle("red")[0]["actions"] == ["Juggle invisible eggs"] * 2


# --- the cooperative variant --------------------------------------------------------------------


@pytest.mark.parametrize(
    "levels, calls, right, moved, outcome",
    [
        ((5, 5), (True, True), True, 2, "exact"),
        ((5, 6), (True, True), True, 1, "near"),
        ((6, 5), (True, True), True, 1, "near"),
        ((5, 7), (False, False), True, 1, "far"),  # a correct NO MATCH
        ((1, 10), (False, False), True, 1, "far"),
        ((5, 5), (False, False), False, 0, "exact"),
        ((5, 6), (False, False), False, 0, "near"),  # near is a match: NO MATCH is wrong
        ((5, 7), (True, True), False, 0, "far"),
        ((5, 5), (True, False), False, 0, "exact"),  # split calls: one is wrong
        ((5, 8), (True, False), False, 0, "far"),
    ],
)
def test_coop_calls_are_judged_when_both_have_called(levels, calls, right, moved, outcome):
    t = Table(2, hands=list(levels), then=[3, 4])
    assert t.view()["phase"] == "call" and t.view(0)["legal"] == ["call"]
    assert t.call(0, calls[0]) == [{"type": "coop_called", "seat": 0}]
    assert t.view()["coop"] == {"moved": 0, "goal": 15, "called": [True, False]}
    assert t.view(0)["call"] == calls[0] and t.view(0)["legal"] == []
    events = t.call(1, calls[1])
    reveal = {
        "a": 0, "b": 1, "level_a": levels[0], "level_b": levels[1], "outcome": outcome,
        "calls": list(calls), "right": right, "moved": moved, "total_moved": moved,
    }  # fmt: skip
    assert events[:2] == [{"type": "coop_called", "seat": 1}, {"type": "coop_revealed", **reveal}]
    view = t.view()
    assert view["last_match"] == reveal
    assert view["scores"] == [moved, moved] and view["pool"] == {"good": 15 - moved, "bad": 0}
    if right:
        assert len(events) == 2 and view["phase"] == "call"
        assert view["coop"] == {"moved": moved, "goal": 15, "called": [False, False]}
        assert t.levels() == [3, 4] and t.view(0)["call"] is None
    else:
        assert events[2] == {"type": "game_over", "winners": [], "scores": [0, 0]}
        assert TREX.result(t.state) == {
            "scores": [0, 0], "winners": [], "ranking": [0, 1], "left": [], "shared": False,
            "tie_break": False, "coop": True, "won": False, "moved": 0,
        }  # fmt: skip


def test_coop_a_wrong_call_ends_the_game_with_the_tokens_moved_so_far():
    t = Table(2, hands=[5, 5], then=[2, 3, 7, 7])
    t.call(0, True), t.call(1, True)  # exact: 2
    t.call(0, True), t.call(1, True)  # near: 1
    assert t.view()["coop"]["moved"] == 3
    t.call(0, False), t.call(1, False)  # 7 and 7: wrong
    result = TREX.result(t.state)
    assert result["scores"] == [3, 3] and result["moved"] == 3 and result["won"] is False


def test_coop_moving_all_15_tokens_wins():
    then = [level for level in range(2, 9) for _ in range(2)]  # seven more exact pairs
    t = Table(2, hands=[1, 1], then=then)
    for _ in range(7):
        t.call(0, True)
        t.call(1, True)
    assert t.view()["coop"]["moved"] == 14 and t.view()["pool"]["good"] == 1
    events = t.call(0, True) + t.call(1, True)
    assert events[-2]["moved"] == 1 and events[-2]["total_moved"] == 15  # the last one
    assert events[-1] == {"type": "game_over", "winners": [0, 1], "scores": [15, 15]}
    result = TREX.result(t.state)
    assert result["won"] is True and result["winners"] == [0, 1] and result["shared"]


def test_coop_has_no_offers_and_no_skipping():
    t = Table(2, hands=[5, 5])
    for action in ({"type": "skip"}, {"type": "offer", "to": 1}, {"type": "withdraw"},
                   {"type": "accept", "from": 1}, {"type": "decline", "from": 1}):  # fmt: skip
        assert t.refuse(0, action).code == "not_in_coop"
    assert TREX.legal_actions(t.state, 0) == [
        {"type": "call", "match": True}, {"type": "call", "match": False},
    ]  # fmt: skip


# --- players who leave --------------------------------------------------------------------------


def test_a_player_who_leaves_has_their_offers_withdrawn_both_ways():
    t = Table(4, hands=[5, 6, 7, 8], then=[1])
    t.offer(0, 1)
    t.offer(2, 0)
    t.offer(3, 1)
    assert t.host("away", seat=0) == [{"type": "away", "seat": 0}]
    assert t.offers(1)["in"] == [3] and t.offers(2)["out"] is None
    assert t.news(1) == {"type": "withdrawn", "from": 0}
    assert t.news(2) == {"type": "cancelled", "to": 0}
    assert t.view(0)["offers"] == {"out": None, "in": []}
    assert t.refuse(1, {"type": "offer", "to": 0}).code == "target_away"
    assert t.refuse(0, {"type": "skip"}).code == "away"
    assert t.view(0)["legal"] == [] and {"type": "offer", "to": 0} not in TREX.legal_actions(
        t.state, 2
    )
    t.skip(2)  # 2's card is free again
    assert t.host("back", seat=0) == [{"type": "back", "seat": 0}]
    assert t.view()["away"] == [False] * 4
    t.offer(1, 0)
    assert t.offers(0)["in"] == [1]


def test_an_offer_is_possible_only_while_someone_else_is_there():
    t = Table(3, hands=[5, 6, 7])
    t.host("away", seat=1)
    t.host("away", seat=2)
    assert t.view(0)["legal"] == ["skip"]


# --- refusals -----------------------------------------------------------------------------------


def fresh() -> Table:
    return Table(3, hands=[5, 6, 7])


def with_offer() -> Table:
    t = fresh()
    t.offer(0, 1)
    return t


def away_1() -> Table:
    t = fresh()
    t.host("away", seat=1)
    return t


def voting() -> Table:
    t = to_tie()
    t.shuffle("red")
    return t


def voted() -> Table:
    t = voting()
    t.vote(2, 0)
    return t


def coop() -> Table:
    return Table(2, hands=[5, 5])


def coop_called() -> Table:
    t = coop()
    t.call(0, True)
    return t


def over() -> Table:
    t = Table(3, hands=[1, 10, 5], then=[1, 10, 2, 9, 3, 8])
    for _ in range(4):
        t.match(0, 1)
    return t


def shuffling() -> Table:
    t = Table(3)
    t.state = TREX.setup(t.players)
    return t


def left_1() -> Table:
    t = Table(4, hands=[5, 6, 7, 8])
    t.host("left", seat=1)
    return t


REFUSALS = [
    (fresh, 0, {"type": "dance"}, "unknown_action"),
    (fresh, 0, "skip", "unknown_action"),
    (fresh, 0, {"type": 3}, "unknown_action"),
    (fresh, 0, {"type": "skip", "pad": ["x"] * 500}, "unknown_field"),
    (over, 0, {"type": "skip"}, "game_over"),
    (over, HOST, {"type": "away", "seat": 0}, "game_over"),
    (fresh, 0, {"type": "timeout"}, "not_host"),
    (fresh, 0, {"type": "away", "seat": 1}, "not_host"),
    (fresh, HOST, {"type": "skip"}, "bad_seat"),
    (fresh, 0, {"type": "chance", "outcome": [0]}, "not_chance"),
    (fresh, 3, {"type": "skip"}, "bad_seat"),
    (fresh, True, {"type": "skip"}, "bad_seat"),
    (fresh, 0, {"type": "offer", "to": 3}, "bad_seat"),
    (fresh, 0, {"type": "offer"}, "bad_seat"),
    (fresh, 0, {"type": "offer", "to": True}, "bad_seat"),
    (with_offer, 1, {"type": "accept", "from": "0"}, "bad_seat"),
    (fresh, HOST, {"type": "away", "seat": 5}, "bad_seat"),
    (away_1, 1, {"type": "offer", "to": 0}, "away"),
    (shuffling, 0, {"type": "skip"}, "shuffling"),
    (shuffling, HOST, {"type": "timeout"}, "shuffling"),
    (fresh, 0, {"type": "vote", "for": 1}, "wrong_phase"),
    (voting, 2, {"type": "offer", "to": 3}, "wrong_phase"),
    (voting, 2, {"type": "skip"}, "wrong_phase"),
    (fresh, CHANCE, {"type": "chance", "outcome": [0]}, "wrong_phase"),
    (coop, 0, {"type": "skip"}, "not_in_coop"),
    (fresh, 0, {"type": "call", "match": True}, "not_coop"),
    (fresh, 0, {"type": "offer", "to": 0}, "self_offer"),
    (away_1, 0, {"type": "offer", "to": 1}, "target_away"),
    (with_offer, 0, {"type": "offer", "to": 2}, "offer_out"),
    (fresh, 0, {"type": "withdraw"}, "no_offer"),
    (with_offer, 2, {"type": "accept", "from": 0}, "no_such_offer"),
    (with_offer, 1, {"type": "decline", "from": 2}, "no_such_offer"),
    (with_offer, 0, {"type": "skip"}, "card_locked"),
    (voting, 0, {"type": "vote", "for": 1}, "tied_cannot_vote"),
    (voting, 2, {"type": "vote", "for": 3}, "bad_vote"),
    (voting, 2, {"type": "vote", "for": 9}, "bad_vote"),
    (voting, 2, {"type": "vote", "for": True}, "bad_vote"),
    (voting, 2, {"type": "vote"}, "bad_vote"),
    (voted, 2, {"type": "vote", "for": 1}, "already_voted"),
    (coop, 0, {"type": "call", "match": 1}, "bad_call"),
    (coop, 0, {"type": "call"}, "bad_call"),
    (coop_called, 0, {"type": "call", "match": False}, "already_called"),
    (shuffling, CHANCE, {"type": "chance", "outcome": [0, 1]}, "bad_outcome"),
    (shuffling, CHANCE, {"type": "chance", "outcome": list(range(1, 29))}, "bad_outcome"),
    (shuffling, CHANCE, {"type": "chance", "outcome": [0] * 28}, "bad_outcome"),
    (shuffling, CHANCE, {"type": "chance", "outcome": "0123"}, "bad_outcome"),
    (shuffling, CHANCE, {"type": "chance"}, "bad_outcome"),
    (fresh, HOST, {"type": "timeout"}, "no_timer"),
    (voting, HOST, {"type": "timeout", "phase": "play"}, "stale_timeout"),
    (away_1, HOST, {"type": "away", "seat": 1}, "already_away"),
    (fresh, HOST, {"type": "back", "seat": 1}, "not_away"),
    (left_1, HOST, {"type": "back", "seat": 1}, "already_left"),
    (left_1, HOST, {"type": "left", "seat": 1}, "already_left"),
    (left_1, 0, {"type": "offer", "to": 1}, "target_left"),
]


@pytest.mark.parametrize("make, seat, action, code", REFUSALS)
def test_refusals_leave_the_state_untouched(make, seat, action, code):
    t = make()
    assert t.refuse(seat, action).code == code


def test_a_bool_outcome_is_not_an_index():
    t = shuffling()
    size = t.pending["size"]
    outcome = [True, False, *range(2, size)]
    assert t.refuse(CHANCE, {"type": "chance", "outcome": outcome}).code == "bad_outcome"


def test_every_code_is_tested_and_documented():
    raised = set(
        re.findall(
            r'IllegalAction\(\s*"(\w+)"', inspect.getsource(rules) + inspect.getsource(rulebook)
        )
    )
    assert {code for *_, code in REFUSALS} == raised
    assert all(f"`{code}`" in games.trex.__doc__ for code in raised)


def test_the_timer_runs_only_during_the_vote():
    t = fresh()
    assert TREX.timer(t.state) is None
    t = voting()
    assert TREX.timer(t.state) == (60, {"type": "timeout", "phase": "vote"})
    t = Table(2, hands=[5, 5])
    assert TREX.timer(t.state) is None


def test_legal_actions_in_play():
    t = Table(3, hands=[5, 6, 7])
    t.offer(2, 0)
    assert TREX.legal_actions(t.state, 0) == [
        {"type": "offer", "to": 1}, {"type": "offer", "to": 2}, {"type": "skip"},
        {"type": "accept", "from": 2}, {"type": "decline", "from": 2},
    ]  # fmt: skip
    assert TREX.legal_actions(t.state, 2) == [{"type": "withdraw"}]
    assert TREX.legal_actions(over().state, 0) == []
    assert TREX.legal_actions(shuffling().state, 0) == []


# --- a player who leaves (docs/rules/trex.md, "A player who leaves mid-game") -----------------


def test_a_player_who_leaves_is_out_their_offers_withdrawn_and_nobody_offers_to_them():
    t = Table(4, hands=[5, 6, 1, 9])
    t.offer(0, 1)
    t.offer(2, 0)
    assert t.host("left", seat=0) == []  # the room says who left: the game adds nothing
    assert t.view()["left"] == [True, False, False, False] and t.view()["away"][0]
    assert t.offers(1)["in"] == [] and t.offers(2)["out"] is None  # both withdrawn
    assert t.refuse(1, {"type": "offer", "to": 0}).code == "target_left"
    assert t.refuse(HOST, {"type": "back", "seat": 0}).code == "already_left"
    assert t.refuse(HOST, {"type": "left", "seat": 0}).code == "already_left"
    assert t.view(0)["legal"] == [] and t.phase == "play"  # three go on


def test_fewer_than_three_left_in_the_competitive_game_end_it_scored_among_them():
    t = Table(4, hands=[5, 5, 1, 2], then=[3, 9, 4, 8])
    t.match(0, 1)  # exact: 0 and 1 take 2 good tokens each
    t.match(2, 3)  # near: 2 and 3 take 1 each
    t.host("left", seat=0)
    assert t.phase == "play"
    events = t.host("left", seat=3)
    assert types(events) == ["game_over"] and t.phase == "over"
    result = TREX.result(t.state)
    assert result["winners"] == [1] and result["ranking"] == [1, 2]
    assert result["left"] == [0, 3] and result["scores"] == [2, 2, 1, 1]  # kept, not ranked


def test_who_left_is_neither_the_t_rex_nor_in_a_tie_at_the_end():
    # (the game of test_everyone_tied_means_no_voters_and_a_shared_win, P0 gone before its end)
    t = Table(4, hands=[5, 5, 5, 5], then=[6, 6, 6, 6, 7, 7, 8, 8, 1, 1])
    for a, b in ((0, 1), (2, 3), (0, 1), (2, 3)):
        t.match(a, b)
    t.match(0, 2)  # near: P0 and P2 on 5, the others on 4
    t.host("left", seat=0)
    events = t.match(1, 3)
    assert types(events) == ["match", "pile_empty", "game_over"]
    result = TREX.result(t.state)
    assert result["scores"] == [5, 5, 5, 5]
    assert result["winners"] == [1, 2, 3] and result["ranking"] == [1, 2, 3]
    assert result["left"] == [0]


def test_a_tied_player_who_leaves_the_vote_leaves_the_win_to_the_other():
    t = to_tie(vote_seconds=0)
    t.shuffle("yellow")
    t.vote(2, 0)  # a vote for the one who then leaves counts for nobody
    events = t.host("left", seat=0)
    assert types(events) == ["vote_result", "game_over"]
    assert TREX.result(t.state)["winners"] == [1] and TREX.result(t.state)["left"] == [0]


def test_a_voter_who_leaves_is_not_waited_for_and_two_left_end_the_vote_at_once():
    t = to_tie(vote_seconds=0)
    t.shuffle("yellow")
    t.host("left", seat=2)
    assert t.phase == "vote" and TREX.waiting_for(t.state) == [3]
    assert TREX.view(t.state, None)["tie_break"]["voters"] == [3]
    events = t.host("left", seat=3)  # two players remain: scored among them, tied: shared
    assert types(events) == ["game_over"]
    result = TREX.result(t.state)
    assert result["winners"] == [0, 1] and result["ranking"] == [0, 1] and result["left"] == [2, 3]


def test_the_partner_leaving_ends_the_two_player_game_with_the_tokens_moved():
    t = Table(2, hands=[5, 5], then=[3, 9])
    t.call(0, True)
    t.call(1, True)  # exact: 2 tokens moved
    events = t.host("left", seat=1)
    assert types(events) == ["game_over"]
    result = TREX.result(t.state)
    assert result["coop"] and result["won"] is False and result["moved"] == 2
    assert result["left"] == [1]


def test_only_the_host_says_who_left():
    t = Table(3)
    assert t.refuse(1, {"type": "left", "seat": 1}).code == "not_host"
