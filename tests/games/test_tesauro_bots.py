"""Tesauro bots: the Brillante tells the truth in other words (the entry's paraphrase, never
the card's text), an Orate bluffs with the paraphrase of a different word of its tile's category
from the pool, a Sapiente judges sensibly; whole games of bots end; a bot's move does not change
when the host asks again."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

import pytest

from games import CHANCE
from games.base import Bot, sample_chance
from games.tesauro import TESAURO, views
from games.tesauro.bots import TesauroBot, dictionary_likeness
from games.tesauro.deck import load_dictionary, pool_size, pos_of
from games.tesauro.stacked import deal, new_game

WORDS = str(Path(__file__).parent / "data" / "tesauro_words.toml")


def ask(state, seat: int, rng: random.Random | None = None):
    return TesauroBot().act(views.bot_view(state, seat), seat, rng or random.Random(0))


def test_the_bot_is_a_bot():
    assert isinstance(TesauroBot(), Bot) and TESAURO.bots == {"normal": TesauroBot}


def writing(n: int = 4, brillante: int | None = 2, lang: str = "ru"):
    state = new_game([f"P{s}" for s in range(n)], {"lang": lang}, brillante=brillante)
    TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    return state


def test_the_reader_bot_chooses_a_word():
    state = new_game(["A", "B", "C"], {"deck": WORDS})
    delay, action = ask(state, 1)
    assert action["type"] == "choose" and action["entry"] in (0, 1) and 1 <= delay <= 4
    assert ask(state, 2) is None and ask(state, 0) is None


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_brillante_bot_takes_the_cards_category_and_says_the_meaning_in_other_words(lang):
    state = writing(lang=lang)
    entry = views.view(state, 2)["entry"]
    _, action = ask(state, 2)
    assert action == {"type": "tile", "category": entry["category"]}
    TESAURO.apply(state, 2, action)
    _, action = ask(state, 2)
    card = state["cards"][state["card"]][state["entry"]]
    assert action == {"type": "define", "text": card["paraphrase"]}
    assert action["text"] != entry["definition"]  # never the card's text read out


def test_a_brillante_bot_with_a_deck_without_paraphrases_says_the_definition():
    state = new_game(["A", "B", "C"], {"deck": WORDS}, brillante=2)
    TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    TESAURO.apply(state, 2, ask(state, 2)[1])
    _, action = ask(state, 2)
    assert action["text"] == views.view(state, 2)["entry"]["definition"]


@pytest.mark.parametrize("brillante", [1, 2, 3])
def test_only_the_brillante_sees_the_paraphrase(brillante):
    """The paraphrase of the entry in play — the voice the bots speak in — is the Brillante's
    own key, so a human Genius need not read the card's text out; no other seat's view has it,
    nor the table's, nor the reader's choices, nor any event up to and after the judgement."""
    state = new_game([f"P{s}" for s in range(4)], {"lang": "en"}, brillante=brillante)
    said = [e["paraphrase"] for e in state["cards"][state["card"]]]
    assert all("paraphrase" not in e for e in views.view(state, 1)["choices"])
    assert not any(p in str(views.view(state, s)) for p in said for s in (None, 0, 1, 2, 3))
    events = TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    card = state["cards"][state["card"]][0]
    for seat in range(4):
        seen = views.view(state, seat)
        assert seen["entry"] is None or "paraphrase" not in seen["entry"]
        expected = card["paraphrase"] if seat == brillante else None
        assert seen["paraphrase"] == expected
        if seat != brillante:
            assert card["paraphrase"] not in str(seen)
    assert card["paraphrase"] not in str(views.view(state, None))
    for seat in (1, 2, 3):
        tile = views.view(state, seat)["allowed"][0]
        events += TESAURO.apply(state, seat, {"type": "tile", "category": tile})
        events += TESAURO.apply(state, seat, {"type": "define", "text": f"Made up by {seat}."})
    events += TESAURO.apply(state, 0, {"type": "crazy"})
    assert card["paraphrase"] not in str(events)  # the reveal shows the card's text only
    assert card["paraphrase"] not in str(views.view(state, None))


def test_a_brillante_with_a_deck_without_paraphrases_has_none():
    state = new_game(["A", "B", "C"], {"deck": WORDS}, brillante=2)
    TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    assert views.view(state, 2)["paraphrase"] is None and views.view(state, 2)["entry"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_an_orate_bot_bluffs_with_a_pool_definition_of_its_tiles_category(lang):
    for seed in range(10):
        state = writing(lang=lang)
        entry = views.view(state, 3)["entry"]
        _, tile = ask(state, 3, random.Random(seed))
        assert tile["type"] == "tile" and tile["category"] != entry["category"]
        TESAURO.apply(state, 3, tile)
        _, action = ask(state, 3, random.Random(seed))
        pool = [e for c in state["pool"] for e in state["cards"][c]]
        source = [e for e in pool if e["paraphrase"] == action["text"]]
        assert source, "the bluff is not a pool entry's paraphrase"
        assert source[0]["category"] == tile["category"]
        assert source[0]["word"] != entry["word"]
        in_deck = {e["word"] for c in state["deck"] for e in state["cards"][c]}
        assert source[0]["word"] not in in_deck


def test_a_bots_move_is_the_same_when_asked_again():
    state = writing()
    first = [ask(state, seat, random.Random(seed))[1] for seat in (1, 3) for seed in (1, 2)]
    assert first[0] == first[1] and first[2] == first[3]


def judging(texts: dict[int, str]):
    state = new_game([f"P{s}" for s in range(4)], {"deck": WORDS}, brillante=2)
    TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    for seat, text in texts.items():
        tile = views.view(state, seat)["allowed"][0]
        TESAURO.apply(state, seat, {"type": "tile", "category": tile})
        TESAURO.apply(state, seat, {"type": "define", "text": text})
    return state


def test_a_sapiente_bot_prefers_what_reads_like_a_dictionary():
    good = "A small freshwater fish of the carp family, caught for bait."
    picks = {1: 0, 2: 0, 3: 0, "crazy": 0}
    for turn in range(300):
        state = judging({1: "lol i dunno!!", 2: good, 3: "IT IS A DOG"})
        state["turn"] = turn  # a different moment each time: a different mind
        _, action = ask(state, 0)
        picks[action.get("seat", "crazy")] += 1
    assert picks[2] > 180 and picks[1] < 30 and picks[3] < 30
    assert 30 <= picks["crazy"] <= 110  # about one in four: the Brillante is aside 1 time in 4


def test_a_sapiente_bot_with_nothing_to_judge_declares_everyone_crazy():
    state = judging({})
    TESAURO.apply(state, 1, {"type": "tile", "category": "earth"})
    state["options"]["think_seconds"] = 60
    TESAURO.apply(state, -2, {"type": "timeout", "phase": "write", "turn": 1})
    assert ask(state, 0)[1] == {"type": "crazy"}


@pytest.mark.parametrize(
    "text, low",
    [
        ("A heavy cloak without sleeves, worn in old Russia.", False),
        ("Старинный широкий плащ без рукавов.", False),
        ("lol", True),
        ("I think it's a kind of cheese!", True),
        ("КАКАЯ-ТО ПТИЦА", True),
    ],
)
def test_dictionary_likeness(text, low):
    assert (dictionary_likeness(text) < 0.3) is low


@pytest.mark.parametrize("mode", ["typed", "spoken"])
@pytest.mark.parametrize("n", [2, 3, 5, 10])
def test_a_table_of_bots_plays_a_whole_game(mode, n):
    rng = random.Random(f"{mode}{n}")
    state = TESAURO.setup([f"Bot{s}" for s in range(n)], {"lang": "en", "mode": mode})
    bot = TesauroBot()
    for _ in range(5000):
        if TESAURO.result(state) is not None:
            break
        if (spec := TESAURO.chance(state)) is not None:
            TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            continue
        plans = [(s, bot.act(views.bot_view(state, s), s, rng)) for s in range(n)]
        plans = [(p[0], s) for s, p in plans if p is not None]
        assert plans, "the bots are stuck"
        _, seat = min(plans)
        plan = bot.act(views.bot_view(state, seat), seat, rng)
        TESAURO.apply(state, seat, copy.deepcopy(plan[1]))
    result = TESAURO.result(state)
    assert result is not None and result["winners"]


def test_an_orate_bot_never_repeats_a_bluff_the_table_has_heard():
    rng = random.Random(3)
    state = TESAURO.setup([f"Bot{s}" for s in range(6)], {"lang": "ru", "rounds": 3})
    bot = TesauroBot()
    heard: list[str] = []
    while TESAURO.result(state) is None:
        if (spec := TESAURO.chance(state)) is not None:
            TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            continue
        plans = [(s, bot.act(views.bot_view(state, s), s, rng)) for s in range(6)]
        seat, (_, action) = min(((s, p) for s, p in plans if p), key=lambda sp: sp[1][0])
        events = TESAURO.apply(state, seat, copy.deepcopy(action))
        for event in events:
            if event["type"] == "revealed":
                heard += [d["text"] for d in event["defs"]]
    pool = set(state["pool"])
    truths = {
        e["definition"] for c, card in enumerate(state["cards"]) if c not in pool for e in card
    }
    bluffs = [text for text in heard if text not in truths]
    assert len(bluffs) > 10 and len(bluffs) == len(set(bluffs))


def test_a_bot_does_not_keep_the_table_waiting_once_everyone_else_is_done():
    state = writing(n=4, brillante=2)
    slow = [ask(state, 3, random.Random(s)) for s in range(20)]
    TESAURO.apply(state, 3, slow[0][1])  # the bot takes its tile
    for seat in (1, 2):
        tile = views.view(state, seat)["allowed"][0]
        TESAURO.apply(state, seat, {"type": "tile", "category": tile})
    assert min(ask(state, 3, random.Random(s))[0] for s in range(20)) >= 0.2 * 60
    for seat in (1, 2):
        TESAURO.apply(state, seat, {"type": "define", "text": "Made up."})
    assert max(ask(state, 3, random.Random(s))[0] for s in range(20)) <= 5


def test_a_sapiente_bot_does_not_favour_bots_over_definitions_said_aloud():
    state = new_game([f"P{s}" for s in range(4)], {"deck": WORDS, "mode": "spoken"}, brillante=2)
    TESAURO.apply(state, 1, {"type": "choose", "entry": 0})
    for seat in (1, 2, 3):
        tile = views.view(state, seat)["allowed"][0]
        TESAURO.apply(state, seat, {"type": "tile", "category": tile})
        TESAURO.apply(state, seat, {"type": "done"})
    TESAURO.apply(state, 1, {"type": "done"})  # a human says theirs aloud
    TESAURO.apply(state, 2, {"type": "done"})
    TESAURO.apply(state, 3, {"type": "define", "text": "A small bird of the marshes."})  # a bot
    picks = Counter()
    for turn in range(300):
        state["turn"] = turn
        picks[ask(state, 0)[1].get("seat", "crazy")] += 1
    assert all(45 <= picks[seat] <= 105 for seat in (1, 2, 3)), picks


def test_once_every_bluff_is_spent_a_bot_repeats_one_rather_than_fall_dumb():
    state = writing(lang="en")
    nouns = [e["paraphrase"] for e in pool_entries(state) if pos_of(e) == "noun"]
    pool = [e["paraphrase"] for e in pool_entries(state)]
    state["said"] = list(pool)  # a long game on a small dictionary
    vocabulary = views.bot_view(state, 3)["vocabulary"]
    assert sorted(d for ds in vocabulary.values() for d in ds) == sorted(nouns)
    _, tile = ask(state, 3)
    TESAURO.apply(state, 3, tile)
    assert ask(state, 3)[1]["text"] in pool


# --- like with like: parts of speech ----------------------------------------------------------


def pool_entries(state) -> list[dict]:
    return [e for c in state["pool"] for e in state["cards"][c]]


ADVERBS = ["третьеводни", "летось", "вотще", "абие", "днесь", "ономнясь", "допрежь"]


def adverb_in_play(n: int = 5, brillante: int | None = 2, play: str = "летось", pooled=ADVERBS):
    """A Russian game whose first word is `play` (an adverb unless told), with the cards of
    `pooled` (the other adverbs, unless told) kept in the pool for the bots' bluffs."""
    cards = load_dictionary("ru").cards
    card_of = {e.word: i for i, card in enumerate(cards) for e in card}
    state = TESAURO.setup([f"P{s}" for s in range(n)], {"lang": "ru"})
    first = card_of[play]
    pool = [card_of[w] for w in pooled if card_of[w] != first]
    others = [i for i in range(len(cards)) if i != first and i not in pool]
    in_deck = len(cards) - pool_size(len(cards))
    order = [first, *others[: in_deck - 1], *pool, *others[in_deck - 1 :]]
    TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": order})
    deal(state, brillante)
    entry = next(i for i, e in enumerate(cards[first]) if e.word == play)
    TESAURO.apply(state, 1, {"type": "choose", "entry": entry})
    return state


def partner(word: str) -> str:
    """The other word of `word`'s card."""
    card = next(c for c in load_dictionary("ru").cards if word in (c[0].word, c[1].word))
    return card[1].word if card[0].word == word else card[0].word


def bluff(state, seat: int, seed: int = 0) -> tuple[str, str]:
    """An Orate bot's tile and text."""
    _, tile = ask(state, seat, random.Random(seed))
    TESAURO.apply(state, seat, tile)
    _, action = ask(state, seat, random.Random(seed))
    return tile["category"], action["text"]


def test_the_adverbs_are_where_the_tests_want_them():
    state = adverb_in_play()
    pooled = {e["word"] for e in pool_entries(state)}
    assert set(ADVERBS) - {"летось"} <= pooled
    assert views.view(state, 2)["entry"]["word"] == "летось"


def test_an_adverb_in_play_is_bluffed_with_adverbs():
    """The play-test: летось bluffed with nouns' meanings made the truth the odd one out."""
    state = adverb_in_play(n=5, brillante=2)
    adverbs = {e["paraphrase"]: e["word"] for e in pool_entries(state) if pos_of(e) == "adverb"}
    vocabulary = views.bot_view(state, 3)["vocabulary"]
    assert sorted(d for ds in vocabulary.values() for d in ds) == sorted(adverbs)
    texts = []
    for seat in (3, 4, 1):  # every Orate of a table of five; the Brillante is seat 2
        tile, text = bluff(state, seat)
        assert text in adverbs, (tile, text)
        texts.append(text)
    assert len(set(texts)) == 3, "two Orates said the same bluff"
    assert ask(state, 2)[1]["type"] == "tile"  # the Brillante bot is as it was
    TESAURO.apply(state, 2, ask(state, 2)[1])
    card = state["cards"][state["card"]][state["entry"]]
    assert ask(state, 2)[1] == {"type": "define", "text": card["paraphrase"]}


def test_a_noun_in_play_is_never_bluffed_with_an_adverb():
    state = adverb_in_play(play=partner("третьеводни"))  # the six other adverbs are pooled
    assert pos_of(state["cards"][state["card"]][state["entry"]]) == "noun"
    assert len([e for e in pool_entries(state) if pos_of(e) == "adverb"]) == len(ADVERBS) - 1
    vocabulary = views.bot_view(state, 3)["vocabulary"]
    assert not {d for ds in vocabulary.values() for d in ds} & {
        e["paraphrase"] for e in pool_entries(state) if pos_of(e) == "adverb"
    }
    for seed in range(5):
        s = copy.deepcopy(state)
        _, text = bluff(s, 3, seed)
        source = [e for e in pool_entries(s) if e["paraphrase"] == text]
        assert pos_of(source[0]) == "noun"


def test_with_no_adverb_left_in_the_pool_an_adverb_is_bluffed_with_its_tiles_nouns():
    state = adverb_in_play(pooled=[])
    assert not [e for e in pool_entries(state) if pos_of(e) == "adverb"]
    for seed in range(5):
        s = copy.deepcopy(state)
        tile, text = bluff(s, 3, seed)
        source = [e for e in pool_entries(s) if e["paraphrase"] == text]
        assert source and source[0]["category"] == tile


def test_an_adverb_heard_already_is_not_said_again_while_a_noun_is_unheard():
    state = adverb_in_play(pooled=["вотще"])
    adverb = next(e["paraphrase"] for e in pool_entries(state) if e["word"] == "вотще")
    assert bluff(copy.deepcopy(state), 3)[1] == adverb
    state["said"].append(adverb)
    tile, text = bluff(state, 3)
    assert text != adverb
    assert text in views.bot_view(state, 3)["vocabulary"][tile]


def test_the_sapiente_and_the_table_learn_no_part_of_speech():
    """The entry's part of speech stays in the host: no player's view has it, nor the table's;
    the Sapiente's view is what it was (no entry)."""
    state = adverb_in_play()
    for seat in range(5):
        seen = views.view(state, seat)
        assert "pos" not in seen and "adverb" not in str(seen)
        assert seen["entry"] is None or set(seen["entry"]) == {"word", "category", "definition"}
    assert views.view(state, 0)["entry"] is None  # the Sapiente
    assert "adverb" not in str(views.view(state, None))
    sapiente = views.bot_view(state, 0)
    assert sapiente["says"] is None
    pool = sorted(e["paraphrase"] for e in pool_entries(state))
    assert sorted(d for ds in sapiente["vocabulary"].values() for d in ds) == pool


def test_a_slow_speaker_s_turn_clock_says_done_and_puts_no_text_in_their_name():
    """Spoken: the host nudged Cat, who had spoken aloud; after 20 s the bot's text appeared
    as Cat's definition and the Sage judged it. The turn clock's move for a player who is
    there is `done`; a bot playing the seat (its player away) still speaks."""
    from net.turns import bot_move

    rng = random.Random(1)
    state = TESAURO.setup(["A", "B", "C"], {"lang": "en", "mode": "spoken"})
    for _ in range(200):
        if state["phase"] == "speak":
            break
        if (spec := TESAURO.chance(state)) is not None:
            TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": sample_chance(spec, rng)})
            continue
        seat, plan = next((s, p) for s in range(3) if (p := ask(state, s, rng)) is not None)
        TESAURO.apply(state, seat, copy.deepcopy(plan[1]))
    speaker = state["speakers"][0]
    assert bot_move(TESAURO, state, speaker, "normal", rng) == {"type": "done"}
    assert ask(state, speaker)[1]["type"] == "define"
