"""Tesauro dictionaries: the shipped ones, the file format and its error messages."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.tesauro.deck import (
    CATEGORIES,
    LANGS,
    MAX_DEFINITION_LEN,
    MIN_CARDS,
    MIN_SHIPPED_CARDS,
    NOUN,
    POS,
    DeckError,
    load_dictionary,
    pool_size,
    pos_of,
    validate_deck_text,
)
from games.tesauro.giveaway import giveaway


def entries(lang: str):
    return [entry for card in load_dictionary(lang).cards for entry in card]


@pytest.mark.parametrize("lang", LANGS)
def test_a_shipped_dictionary_is_big_and_spread_over_all_nine_categories(lang):
    d = load_dictionary(lang)
    assert len(d.cards) >= MIN_SHIPPED_CARDS and d.lang == lang
    counts = Counter(entry.category for entry in entries(lang))
    assert set(counts) == set(CATEGORIES)
    assert min(counts.values()) >= 25, counts


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_entries_read_like_a_dictionary(lang):
    for entry in entries(lang):
        definition = entry.definition
        assert 25 <= len(definition) <= 220, entry
        assert definition[0].isupper() and definition.endswith("."), entry
        assert '"' not in definition, entry
        assert entry.word == entry.word.strip() and " " not in entry.word, entry


@pytest.mark.parametrize("lang", LANGS)
def test_a_shipped_entry_never_gives_its_word_away(lang):
    for entry in entries(lang):
        assert giveaway(entry.word, entry.definition, lang) is None, entry
        assert giveaway(entry.word, entry.paraphrase, lang) is None, entry


@pytest.mark.parametrize("lang", LANGS)
def test_every_shipped_entry_has_a_paraphrase_in_other_words(lang):
    """What a bot Genius says: the same meaning, not the card's text read out."""
    for entry in entries(lang):
        paraphrase = entry.paraphrase
        assert paraphrase and 20 <= len(paraphrase) <= 220, entry
        assert paraphrase[0].isupper() and paraphrase.endswith((".", "!", "?")), entry
        said = set(re.findall(r"\w{4,}", paraphrase.lower()))
        read = set(re.findall(r"\w{4,}", entry.definition.lower()))
        assert len(said & read) <= 0.6 * len(said), entry  # mostly words of its own


# --- parts of speech ---------------------------------------------------------------------------

# How a dictionary defines a word that is not a noun: by the opening of its definition. A noun's
# definition names a thing ("A long-handled weapon…", «Старинный широкий плащ…», "In Scotland,
# the dowry…", «В старой армии нижний чин…»); an adjective's says what a thing is like ("Of
# leaves: withering…", "Having…", "Easily recognised…", «О масти лошади: рыжий…»,
# «Относящийся к…»); an adverb's gives when, where or how ("In a careless manner", "Toward the
# stern", «Напрасно, зря», «В прошлом году», «Слева, по левую руку», «Без разбора»); a verb's is
# a verb ("To walk…", «Ходить…»). Openings only: it catches a word tagged wrongly or not at
# all, and a new shape of definition may need a new opening here.
SHAPES = {
    "en": {
        "verb": r"to \w+",
        "adverb": (
            r"in an? [\w ,-]*?\b(way|manner|fashion)\b|in vain|long ago|at (once|last|times|first)|"
            r"at an early hour|towards?\b|"
            r"formerly|recently|lately|immediately|today|yesterday|tomorrow|now\b|"
            r"to no purpose"
        ),
        "adjective": (
            r"\(?of\b|having|being|like\b|said of|full of|relating to|pertaining to|"
            r"characteri[sz]ed by|resembling|tending to|showing|lacking|(un)?able to|not\b|"
            r"easily|habitually"
        ),
    },
    "ru": {
        "verb": r"\w+[аеиоуыяё]ть(ся)?\b",
        "adverb": (
            r"(позавчера|вчера|сегодня|завтра|ныне|теперь|недавно|давно|давеча|раньше|прежде|"
            r"сначала|сперва|тотчас|немедленно|сразу|напрасно|зря|всегда|никогда|иногда|тогда|"
            r"однажды|издавна|впредь|вскоре|очень|слишком|слева|справа)\b|"
            r"по-\w+|на днях|без разбора|по ходу|в (старину|тот же|\w+ (году|веке|времени|пору)\b)"
        ),
        "adjective": (
            r"(относящийся|свойственный|связанный с|похожий на|подобный|имеющий|обладающий|"
            r"склонный|способный|отличающийся|такой,)|"
            r"о [\w ,]+:"
        ),
    },
}


def shape(definition: str, lang: str) -> str:
    """The part of speech a definition's opening says its word has."""
    text = definition.lower()
    for pos, pattern in SHAPES[lang].items():
        if re.match(pattern, text):
            return pos
    return NOUN


@pytest.mark.parametrize(
    "text, lang, pos",
    [
        ("In a careless, offhand manner.", "en", "adverb"),
        ("Long ago; in times past.", "en", "adverb"),
        ("Of leaves: withering but staying on the plant.", "en", "adjective"),
        ("Having a sour taste.", "en", "adjective"),
        ("To walk about idly.", "en", "verb"),
        ("In Scotland, the dowry that a bride brings.", "en", NOUN),
        ("Coarsely crushed dried corn, boiled until soft.", "en", NOUN),
        ("On the London stock exchange, a fee.", "en", NOUN),
        ("Напрасно, зря, без всякого результата.", "ru", "adverb"),
        ("В прошлом году (в просторечии).", "ru", "adverb"),
        ("По-старинному: в этот день.", "ru", "adverb"),
        ("Имеющий вид серпа.", "ru", "adjective"),
        ("О масти лошади: рыжий со светлой гривой.", "ru", "adjective"),
        ("О человеке или его речи: гнусавый.", "ru", "adjective"),
        ("Слева, по левую руку.", "ru", "adverb"),
        ("Без разбора, всё вместе.", "ru", "adverb"),
        ("По ходу солнца.", "ru", "adverb"),
        ("Toward the stern of a ship.", "en", "adverb"),
        ("At an early hour; soon enough.", "en", "adverb"),
        ("Of a will: declared aloud.", "en", "adjective"),
        ("Обыкновенный лесной клоп.", "ru", NOUN),
        ("Острое меткое словцо.", "ru", NOUN),
        ("Ходить без дела из угла в угол.", "ru", "verb"),
        ("В старой армии нижний чин.", "ru", NOUN),
        ("Часть ноги птицы между голенью и пальцами.", "ru", NOUN),
        ("Склонность видеть закономерности.", "ru", NOUN),
    ],
)
def test_a_definitions_opening_says_its_part_of_speech(text, lang, pos):
    assert shape(text, lang) == pos


@pytest.mark.parametrize("lang", LANGS)
def test_every_shipped_word_that_is_not_a_noun_is_tagged(lang):
    """Bots bluff like with like (an adverb with adverbs): a word whose definition has the shape
    of an adjective, an adverb or a verb says so, and a tagged word's definition has its shape."""
    for entry in entries(lang):
        assert entry.pos in POS
        assert shape(entry.definition, lang) == entry.pos, entry


@pytest.mark.parametrize(
    "lang, tagged",
    [
        ("en", {"marcescent", "caducous", "froward", "kenspeckle"}),
        ("ru", {"третьеводни", "летось", "вотще", "абие", "днесь", "ономнясь", "допрежь"}),
    ],
)
def test_the_play_tests_odd_ones_out_are_tagged(lang, tagged):
    """The words the play-test found bluffed with texts of another shape."""
    pos = {entry.word: entry.pos for entry in entries(lang) if entry.pos != NOUN}
    assert tagged <= set(pos)


@pytest.mark.parametrize("lang", LANGS)
def test_a_shipped_deck_has_adjectives_and_adverbs_to_bluff_with(lang):
    """Like with like needs company: an adverb in play is bluffed with other adverbs, first of
    its tile's category. Each deck has at least 12 adjectives and adverbs, both kinds, in at
    least five categories, and each kind in more than one."""
    odd = [entry for entry in entries(lang) if entry.pos != NOUN]
    assert len(odd) >= 12
    assert len({entry.category for entry in odd}) >= 5
    for kind in ("adjective", "adverb"):
        of_kind = [entry for entry in odd if entry.pos == kind]
        assert len(of_kind) >= 4, kind
        assert len({entry.category for entry in of_kind}) >= 2, kind


# A paraphrase that names the thing's well-known other name ("also called moonfish", "plain
# earwax", «Она же дельфиниум», «её ещё зовут цикутой», «Тот самый майский жук») hands a Sage
# who knows that name a way to check the truth, and is no longer other words for the meaning.
# The patterns are the ways the decks once did it; a description may say what a thing is like.
ALIAS = {
    "en": re.compile(
        r"\b(also (called|known as)|known (of old )?as|a\.k\.a\.|so-called|nicknamed|"
        r"what (we|doctors|botanists) (now )?call|another name for|"
        r"(doctors'|medical|fancy|learned) (word|name|term) for)\b|\bplain \w+\.$|^(a|the) \w+:",
        re.IGNORECASE,
    ),
    "ru": re.compile(
        r"\b(он|она|оно|они) же\b|\b(её|его|их) (ещё|также|же) (зовут|называют)|"
        r"\bтакже (зовут|называют|именуют)\b|\bиначе\b|\bто есть\b|\b(тот|та|то) сам(ый|ая|ое)\b|"
        r"\b(врачи|ботаники|аптекари|медики|учёные) (зовут|называют|называли)\b|\bпрозвали\b|"
        r"\b(называли|звали|зовут) [\w ]+\.$|\bслово для\b|как (его|её|их) называ",
        re.IGNORECASE,
    ),
}


@pytest.mark.parametrize(
    "text, lang",
    [
        ("A big sea fish, also called moonfish, with scarlet fins.", "en"),
        ("The sticky stuff in your ears; plain earwax.", "en"),
        ("A sundog: a glowing fake sun.", "en"),
        ("What doctors call an ordinary nosebleed.", "en"),
        ("The so-called flying lemur.", "en"),
        ("Она же дельфиниум — высокие свечки синих цветков.", "ru"),
        ("Ядовитая трава у речек; её ещё зовут цикутой.", "ru"),
        ("Тот самый майский жук.", "ru"),
        ("Так по-старинному называли геморрой.", "ru"),
        ("Старинное слово для ляжки, то есть бедра.", "ru"),
        ("Нарыв на пальце, который врачи зовут панарицием.", "ru"),
    ],
)
def test_the_alias_patterns_catch_what_they_were_written_for(text, lang):
    assert ALIAS[lang].search(text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_shipped_paraphrase_describes_without_naming_another_name(lang):
    for entry in entries(lang):
        assert not ALIAS[lang].search(entry.paraphrase), entry


def test_an_entry_without_a_part_of_speech_is_a_noun():
    d = validate_deck_text(deck(), "ours.toml")
    assert {entry.pos for card in d.cards for entry in card} == {NOUN}
    assert "pos" not in d.cards[0][0].as_dict() and pos_of(d.cards[0][0].as_dict()) == NOUN
    tagged = validate_deck_text(
        deck().replace(
            'category = "food", definition = "First meaning 2."',
            'category = "food", pos = "adverb", definition = "First meaning 2."',
        ),
        "ours.toml",
    )
    entry = tagged.cards[2][0]
    assert entry.pos == "adverb" and pos_of(entry.as_dict()) == "adverb"


@pytest.mark.parametrize(
    "word, text, lang, part",
    [
        ("paleogeography", "The geography of the ancient world.", "en", "geograph"),
        ("hypervitaminosis", "An illness from too many vitamins.", "en", "vitamin"),
        ("mutagen", "Anything that causes mutation.", "en", "muta"),
        ("unperson", "A person erased from the record.", "en", "person"),
        ("spherometer", "An instrument that measures the curve of a sphere.", "en", "spher"),
        ("matrilineage", "Descent traced through the mother's line.", "en", "line"),
        ("колесница", "Древняя повозка на двух колёсах.", "ru", "колес"),
        ("подберёзовик", "Гриб, растущий под берёзами.", "ru", "берез"),
        ("halberd", "A long-handled weapon with an axe blade and a spike.", "en", None),
        ("повилика", "Безлистное вьющееся растение-паразит.", "ru", None),
    ],
)
def test_a_giveaway_is_a_shared_root_of_four_letters(word, text, lang, part):
    assert giveaway(word, text, lang) == part


def test_a_group_deck_that_gives_a_word_away_is_refused_with_its_line():
    bad = deck().replace(
        'first = { word = "alpha3", category = "food", definition = "First meaning 3." }',
        'first = { word = "alpha3", category = "food", definition = "A dish of alphabet soup." }',
    )
    with pytest.raises(DeckError) as exc:
        validate_deck_text(bad, "ours.toml")
    assert exc.value.line == line_of(bad, "alpha3")
    assert exc.value.field == "card[4].first.definition"
    assert "gives the word away: 'alpha' is part of 'alpha3'" in str(exc.value)
    paraphrased = deck().replace(
        'definition = "First meaning 3." }',
        'definition = "First meaning 3.", paraphrase = "Alphabetically first." }',
    )
    with pytest.raises(DeckError) as exc:
        validate_deck_text(paraphrased, "ours.toml")
    assert exc.value.field == "card[4].first.paraphrase"


def test_a_paraphrase_is_optional_in_a_group_deck():
    d = validate_deck_text(deck(), "ours.toml")
    assert all(entry.paraphrase is None for card in d.cards for entry in card)


@pytest.mark.parametrize("lang", LANGS)
def test_a_card_holds_two_words_of_different_categories(lang):
    for first, second in load_dictionary(lang).cards:
        assert first.category != second.category, (first.word, second.word)


def test_the_russian_dictionary_is_russian_and_the_english_english():
    assert all(re.fullmatch(r"[а-яё-]+", e.word) for e in entries("ru"))
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)?", e.word) for e in entries("en"))


def test_the_english_dictionary_says_what_it_was_checked_against():
    d = load_dictionary("en")
    assert "GCIDE" in d.source and "WordNet" in d.source and d.license is None


def test_a_third_of_the_cards_are_kept_for_the_bots_bluffs():
    assert pool_size(180) == 60 and pool_size(10) == 3 and pool_size(2) == 1


# --- a group's own dictionary ----------------------------------------------------------------

CARD = """
[[card]]
first = {{ word = "alpha{i}", category = "food", definition = "First meaning {i}." }}
second = {{ word = "beta{i}", category = "zoology", definition = "Second meaning {i}." }}
"""


def deck(cards: int = MIN_CARDS, head: str = "", tail: str = "") -> str:
    return head + "".join(CARD.format(i=i) for i in range(cards)) + tail


def test_a_good_file_loads(tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(deck(head='[deck]\nlang = "en"\nname = "Ours"\n'), encoding="utf-8")
    d = load_dictionary("ru", str(path))
    assert len(d.cards) == MIN_CARDS and d.name == "Ours"
    assert d.cards[3][1].word == "beta3" and d.cards[3][1].category == "zoology"


def test_subtables_work_too():
    text = deck(9) + (
        '[[card]]\n[card.first]\nword = "x"\ncategory = "earth"\ndefinition = "An x."\n'
        '[card.second]\nword = "y"\ncategory = "food"\ndefinition = "A y."\n'
    )
    assert validate_deck_text(text).cards[9][0].word == "x"


def problem(text: str) -> DeckError:
    with pytest.raises(DeckError) as exc:
        validate_deck_text(text, "ours.toml")
    return exc.value


def line_of(text: str, needle: str, nth: int = 1) -> int:
    lines = [n for n, line in enumerate(text.split("\n"), 1) if needle in line]
    return lines[nth - 1]


@pytest.mark.parametrize(
    "text, needle, field, words",
    [
        (
            deck().replace(
                'category = "zoology", definition = "Second meaning 4."',
                'category = "dragons", definition = "Second meaning 4."',
            ),
            "dragons",
            "card[5].second.category",
            "unknown category 'dragons'",
        ),
        (
            deck().replace('word = "alpha7"', 'word = ""'),
            'word = ""',
            "card[8].first.word",
            "empty text",
        ),
        (
            deck().replace('word = "beta2"', 'word = "alpha1"'),
            ('word = "alpha1"', 2),
            "card[3].second.word",
            "already card[2].first",
        ),
        (
            deck().replace('word = "beta2"', 'word = "ALPHA1"'),
            "ALPHA1",
            "card[3].second.word",
            "already",
        ),
        (
            deck().replace('"First meaning 6."', '"' + "x" * (MAX_DEFINITION_LEN + 1) + '"'),
            "xxxx",
            "card[7].first.definition",
            "too long: 301 characters",
        ),
        (
            deck().replace('definition = "Second meaning 0."', "definition = 7"),
            "definition = 7",
            "card[1].second.definition",
            "must be text in quotes, not a number (7)",
        ),
        (
            deck().replace('"First meaning 2." }', '"First meaning 2.", colour = "red" }'),
            "colour",
            "card[3].first.colour",
            "unknown key 'colour'",
        ),
        (
            deck().replace(', definition = "First meaning 9." }', " }"),
            'word = "alpha9"',
            "card[10].first.definition",
            "missing",
        ),
        (
            deck(tail='[[card]]\nfirst = { word = "z", category = "food", definition = "Z." }\n'),
            ("[[card]]", 11),
            "card[11].second",
            "missing: a card has two entries",
        ),
        (
            deck().replace(
                '"zoology", definition = "Second meaning 6."',
                '"zoology", pos = "adverbs", definition = "Second meaning 6."',
            ),
            "adverbs",
            "card[7].second.pos",
            "unknown part of speech 'adverbs' (parts of speech: noun, verb, adjective, adverb",
        ),
        (
            deck().replace(
                '"food", definition = "First meaning 8."',
                '"food", pos = 2, definition = "First meaning 8."',
            ),
            "pos = 2",
            "card[9].first.pos",
            "must be text in quotes, not a number (2)",
        ),
        (
            deck() + '[[card]]\n[card.first]\nword = "x"\ncategory = "earth"\ndefinition = "An x."'
            '\npos = "Noun"\n[card.second]\nword = "y"\ncategory = "food"\ndefinition = "A y."\n',
            'pos = "Noun"',
            "card[11].first.pos",
            "unknown part of speech 'Noun'",
        ),
        (deck(head='[deck]\nlang = "fr"\n'), 'lang = "fr"', "deck.lang", "unknown language"),
        (deck(head='[deck]\nauthor = "me"\n'), "author", "deck.author", "unknown key 'author'"),
        (deck(head='colour = "red"\n'), "colour", "colour", "unknown key 'colour'"),
        (
            deck().replace('"First meaning 3."', '"First\\u0007meaning"'),
            "u0007",
            "card[4].first.definition",
            "U+0007",
        ),
    ],
)
def test_every_mistake_names_its_line_and_field(text, needle, field, words):
    err = problem(text)
    assert err.field == field
    needle, nth = needle if isinstance(needle, tuple) else (needle, 1)
    assert err.line == line_of(text, needle, nth), str(err)
    assert words in err.problem
    assert str(err).startswith(f"ours.toml, line {err.line}, field {field}: ")


def test_too_few_cards_and_no_cards():
    assert "9 cards; a dictionary needs at least 10" in problem(deck(9)).problem
    assert "no cards" in problem('[deck]\nname = "x"\n').problem


def test_a_syntax_error_names_its_line():
    text = deck().replace('definition = "First meaning 5." }', 'definition = "First meaning 5. }')
    err = problem(text)
    assert err.line == line_of(text, "First meaning 5.") and "TOML syntax error" in err.problem


def test_a_missing_or_unreadable_file(tmp_path):
    with pytest.raises(DeckError) as exc:
        load_dictionary("en", str(tmp_path / "nope.toml"))
    assert "cannot read the file" in str(exc.value)
    path = tmp_path / "latin1.toml"
    path.write_bytes(deck().replace("alpha3", "alph\xe93").encode("latin-1"))
    with pytest.raises(DeckError) as exc:
        load_dictionary("en", str(path))
    assert "not UTF-8" in str(exc.value) and exc.value.line == line_of(deck(), "alpha3")


def test_no_shipped_dictionary_for_an_unknown_language():
    with pytest.raises(DeckError) as exc:
        load_dictionary("fr")
    assert "no dictionary for language 'fr'" in str(exc.value)


@pytest.mark.parametrize(
    "lang, words, tile",
    [
        # clothes, fabrics and units are daily life: Social sciences, in both languages
        ("en", ["pelisse", "chopine", "samite", "dimity", "bombazine"], "society"),
        ("ru", ["епанча", "охабень", "ферязь", "понёва", "шушун"], "society"),
        ("en", ["picul", "chaldron", "virgate"], "society"),
        ("ru", ["гарнец", "осьмина"], "society"),
        # physics and chemistry are Engineering; the sky and the stars are Planet Earth
        ("en", ["tokamak", "eutectic", "phlogiston"], "engineering"),
        ("en", ["libration", "saros", "bolide", "gegenschein", "rille"], "earth"),
        ("ru", ["либрация"], "earth"),
    ],
)
def test_the_shipped_decks_follow_one_tile_rule(lang, words, tile):
    """docs/DECKS.md's tile rule, on the entries it decides."""
    tiles = {entry.word: entry.category for entry in entries(lang)}
    assert {word: tiles[word] for word in words} == dict.fromkeys(words, tile)
