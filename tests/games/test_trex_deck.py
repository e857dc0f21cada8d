"""T-Rex decks: the shipped content, the file format and its error messages (docs/DECKS.md)."""

from __future__ import annotations

import pickle
import unicodedata
from collections import Counter

import pytest

from games.trex.deck import (
    COLOURS,
    LANGS,
    MAX_ACTION_LEN,
    SYMBOLS,
    Deck,
    DeckError,
    NumberCard,
    load_deck,
    validate_deck_text,
)

# --------------------------------------------------------------------------------------------
# The shipped decks


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_deck_loads_with_enough_actions(lang):
    deck = load_deck(lang)
    assert isinstance(deck, Deck)
    assert tuple(deck.actions) == COLOURS
    for colour in COLOURS:
        assert len(deck.actions[colour]) >= 24, colour
        assert isinstance(deck.actions[colour], tuple)


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_number_deck_is_the_rules_66(lang):
    numbers = load_deck(lang).numbers
    assert len(numbers) == 66
    counts = Counter(numbers)
    for colour in COLOURS:
        for level in range(1, 11):
            assert counts[NumberCard(colour, level)] == 2
        assert counts[NumberCard(colour, None)] == 2
    assert sum(card.byebye for card in numbers) == 6


def test_number_deck_canonical_order():
    numbers = load_deck("en").numbers
    expected = []
    for colour in COLOURS:
        for level in range(1, 11):
            expected += [NumberCard(colour, level)] * 2
        expected += [NumberCard(colour, None)] * 2
    assert numbers == tuple(expected)
    assert load_deck("ru").numbers == numbers


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_actions_have_no_duplicates(lang):
    deck = load_deck(lang)
    texts = [t.casefold().replace("ё", "е") for c in COLOURS for t in deck.actions[c]]
    assert len(texts) == len(set(texts))


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_actions_lengths_and_characters(lang):
    for colour in COLOURS:
        for text in load_deck(lang).actions[colour]:
            assert text == text.strip() and "  " not in text, text
            assert 2 <= len(text.split()) <= 7, text
            assert len(text) <= MAX_ACTION_LEN, text
            assert not any(unicodedata.category(ch).startswith("C") for ch in text), text
            assert not text.endswith((".", "!")), text


def test_languages_are_written_separately():
    en, ru = load_deck("en"), load_deck("ru")
    for colour in COLOURS:
        assert all(t.isascii() for t in en.actions[colour])
        assert all(
            any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in t) for t in ru.actions[colour]
        )


def test_symbols_are_distinct_single_characters():
    assert set(SYMBOLS) == set(COLOURS)
    assert len(set(SYMBOLS.values())) == 3
    assert all(len(s) == 1 for s in SYMBOLS.values())


def test_load_deck_returns_a_fresh_actions_dict():
    deck = load_deck("en")
    deck.actions["red"] = ()
    assert load_deck("en").actions["red"]


def test_unknown_language():
    with pytest.raises(DeckError) as e:
        load_deck("de")
    assert e.value.field == "lang"
    assert "en, ru" in str(e.value)


# --------------------------------------------------------------------------------------------
# Broken deck texts: each names the right line and field

BROKEN = [
    pytest.param(  # unclosed string
        '[actions]\nred = [\n  "Brush your teeth,\n]\n',
        3,
        None,
        "TOML syntax error",
        id="syntax",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 2\ncopies_per_level = 3\n",
        3,
        None,
        "TOML syntax error",
        id="syntax-repeated-key",
    ),
    pytest.param(
        '# my deck\n[actions]\nred = ["Brush your teeth"]\ngreen = ["Be a frog"]\n',
        4,
        "actions.green",
        "unknown colour 'green'",
        id="unknown-colour",
    ),
    pytest.param(
        "[numbers.purple]\ncopies_per_level = 1\n",
        1,
        "numbers.purple",
        "unknown key 'purple'",
        id="unknown-colour-numbers",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 2\n\n[numbers.red]\nlevels = { 1 = 2, 11 = 2 }\n",
        5,
        "numbers.red.levels.11",
        "level 11 does not exist",
        id="level-11",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 2\nbyebye_per_colour = -1\n",
        3,
        "numbers.byebye_per_colour",
        "count -1 is negative",
        id="count-minus-1",
    ),
    pytest.param(
        "[numbers.blue]\nbyebye = 1.5\n",
        2,
        "numbers.blue.byebye",
        "must be a whole number",
        id="count-float",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 500\n",
        2,
        "numbers.copies_per_level",
        "too large",
        id="count-huge",
    ),
    pytest.param(
        '[actions]\nred = [\n  "Brush your teeth",\n  "   ",\n  "Make the bed",\n]\n',
        4,
        "red[2]",
        "empty text",
        id="empty-text",
    ),
    pytest.param(
        '[actions]\nblue = [\n  "Be a cat", "' + "very " * 20 + 'long",\n]\n',
        3,
        "blue[2]",
        "too long: 104 characters",
        id="too-long",
    ),
    pytest.param(
        '[actions]\nred = ["Brush your teeth"]\nyellow = [\n  "Win the lottery",\n'
        '  "brush your TEETH!",\n]\n',
        5,
        "yellow[2]",
        "duplicate of red[1] (line 2)",
        id="duplicate",
    ),
    pytest.param(
        '[actions]\nred = ["Чистить ёлку", "чистить елку"]\n',
        2,
        "red[2]",
        "duplicate of red[1]",
        id="duplicate-yo",
    ),
    pytest.param(
        '[actions]\nred = ["Brush your teeth\\tslowly"]\n',
        2,
        "red[1]",
        "U+0009",
        id="control-char",
    ),
    pytest.param(
        '[actions]\nred = ["Brush your teeth", 42]\n',
        2,
        "red[2]",
        "must be text",
        id="not-text",
    ),
    pytest.param(
        "[actions]\nred = []\n",
        2,
        "actions.red",
        "no action cards",
        id="no-actions",
    ),
    pytest.param(
        '[actions]\nred = "Brush your teeth"\n',
        2,
        "actions.red",
        "must be a list",
        id="not-a-list",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 2\n\n[numbers.yellow]\ncopies_per_level = 0\n",
        5,
        "numbers.yellow.copies_per_level",
        "yellow has no number cards",
        id="no-numbers",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 0\n",
        2,
        "numbers.copies_per_level",
        "red has no number cards",
        id="no-numbers-at-all",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 0\n[numbers.red]\nlevels = {1 = 1, 2 = 1}\n"
        "[numbers.blue]\nlevels = {3 = 1}\n[numbers.yellow]\nlevels = {5 = 1}\n",
        2,
        "numbers.copies_per_level",
        "only 4 number cards with a level",
        id="too-few",
    ),
    pytest.param(
        "[numbers]\ncopies_per_level = 1\nbyebye_per_colour = 10\n"
        "[numbers.red]\nlevels = { 1 = 0 }\n",
        3,
        "numbers.byebye_per_colour",
        "30 bye-bye cards",
        id="too-many-byebye",
    ),
    pytest.param(
        '# our deck\ntitle = "Ours"\n\n[actions]\nred = ["Brush your teeth"]\n',
        2,
        "title",
        "unknown key 'title'",
        id="unknown-key",
    ),
    pytest.param(
        "[numbers]\ncopies = 2\n",
        2,
        "numbers.copies",
        "unknown key 'copies'",
        id="unknown-numbers-key",
    ),
    pytest.param(
        "[numbers.red]\nbyebye = 1\nlevel = {1 = 2}\n",
        3,
        "numbers.red.level",
        "unknown key 'level'",
        id="unknown-colour-key",
    ),
    pytest.param(
        "[numbers]\nbyebye = 1\n",
        2,
        "numbers.byebye",
        "goes in a colour's table",
        id="byebye-misplaced",
    ),
    pytest.param(
        'actions = ["Brush your teeth"]\n',
        1,
        "actions",
        "must be a table",
        id="actions-not-table",
    ),
    pytest.param(
        "# nothing here\n",
        None,
        None,
        "defines nothing",
        id="empty-file",
    ),
]


@pytest.mark.parametrize(("text", "line", "field", "problem"), BROKEN)
def test_broken_deck_texts(text, line, field, problem):
    with pytest.raises(DeckError) as e:
        validate_deck_text(text, "deck.toml")
    err = e.value
    assert (err.path, err.line, err.field) == ("deck.toml", line, field), str(err)
    assert problem in err.problem
    assert str(err).startswith("deck.toml")
    assert problem in str(err)
    if line is not None:
        assert f"line {line}" in str(err)
    if field is not None:
        assert f"field {field}: " in str(err)


def test_error_str_format():
    with pytest.raises(DeckError) as e:
        validate_deck_text('[actions]\nred = [\n  "a",\n  "",\n]\n', "deck.toml")
    assert str(e.value) == "deck.toml, line 4, field red[2]: empty text"
    assert isinstance(e.value, ValueError)
    again = pickle.loads(pickle.dumps(e.value))
    assert (again.path, again.line, again.field, again.problem) == (
        "deck.toml",
        4,
        "red[2]",
        "empty text",
    )


def test_item_lines_follow_the_array_layout():
    text = (
        "[actions]\n"
        "red = [\n"
        '  "One", "Two",  # a comment with "quotes", and a comma\n'
        "  'Three',\n"
        '  """Four""",\n'
        '  "",\n'
        "]\n"
    )
    with pytest.raises(DeckError) as e:
        validate_deck_text(text, "deck.toml")
    assert (e.value.line, e.value.field) == (6, "red[5]")


def test_dotted_and_quoted_keys_are_located():
    with pytest.raises(DeckError) as e:
        validate_deck_text('numbers."red".byebye = -2\n', "d.toml")
    assert (e.value.line, e.value.field) == (1, "numbers.red.byebye")


# --------------------------------------------------------------------------------------------
# Valid user decks and the merge rule


def test_valid_text_keeps_only_its_own_actions_and_shipped_numbers():
    deck = validate_deck_text('[actions]\nred = ["  Brush   your teeth  ", "Make the bed"]\n')
    assert deck.actions == {"red": ("Brush your teeth", "Make the bed")}
    assert deck.numbers == load_deck("en").numbers


def test_numbers_keys_overlay_the_shipped_composition():
    deck = validate_deck_text(
        "[numbers]\nbyebye_per_colour = 0\n\n[numbers.red]\ncopies_per_level = 3\n"
        "levels = { 10 = 1 }\nbyebye = 1\n"
    )
    counts = Counter(deck.numbers)
    assert counts[NumberCard("red", 1)] == 3
    assert counts[NumberCard("red", 10)] == 1
    assert counts[NumberCard("red", None)] == 1
    assert counts[NumberCard("blue", 4)] == 2
    assert counts[NumberCard("blue", None)] == 0
    assert len(deck.numbers) == 9 * 3 + 1 + 1 + 20 + 20


def write(tmp_path, text: str, name: str = "deck.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", LANGS)
def test_user_deck_overriding_red_only_falls_back(tmp_path, lang):
    path = write(tmp_path, '# our deck\n[actions]\nred = ["Sing in the shower", "Pet a cat"]\n')
    shipped = load_deck(lang)
    deck = load_deck(lang, path)
    assert deck.actions["red"] == ("Sing in the shower", "Pet a cat")
    assert deck.actions["blue"] == shipped.actions["blue"]
    assert deck.actions["yellow"] == shipped.actions["yellow"]
    assert deck.numbers == shipped.numbers
    assert tuple(deck.actions) == COLOURS


def test_user_deck_with_numbers_only(tmp_path):
    path = write(tmp_path, "[numbers]\ncopies_per_level = 1\nbyebye_per_colour = 3\n")
    deck = load_deck("ru", path)
    assert deck.actions == load_deck("ru").actions
    assert len(deck.numbers) == 30 + 9


def test_user_deck_may_not_repeat_a_kept_shipped_card(tmp_path):
    blue = load_deck("en").actions["blue"][3]
    path = write(tmp_path, f'[actions]\nred = [\n  "Pet a cat",\n  "{blue.upper()}",\n]\n')
    with pytest.raises(DeckError) as e:
        load_deck("en", path)
    assert (e.value.path, e.value.line, e.value.field) == (path, 4, "red[2]")
    assert "shipped blue card" in e.value.problem


def test_user_deck_may_reuse_a_card_of_the_colour_it_replaces(tmp_path):
    red = load_deck("en").actions["red"][0]
    path = write(tmp_path, f'[actions]\nred = ["{red}", "Pet a cat"]\n')
    assert load_deck("en", path).actions["red"][0] == red


def test_user_deck_errors_name_the_file(tmp_path):
    path = write(tmp_path, '[actions]\nred = ["ok"]\n\n[numbers.red]\nlevels = { 0 = 1 }\n')
    with pytest.raises(DeckError) as e:
        load_deck("en", path)
    assert str(e.value).startswith(f"{path}, line 5, field numbers.red.levels.0: ")


def test_missing_file_and_bad_encoding(tmp_path):
    with pytest.raises(DeckError) as e:
        load_deck("en", str(tmp_path / "nope.toml"))
    assert "cannot read" in e.value.problem and e.value.line is None
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('[actions]\nred = ["ok"]\nblue = ["caf\xe9"]\n'.encode("latin-1"))
    with pytest.raises(DeckError) as e:
        load_deck("en", str(bad))
    assert e.value.line == 3 and "UTF-8" in e.value.problem


def test_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes('\ufeff[actions]\nred = ["Pet a cat"]\n'.encode())
    assert load_deck("en", str(path)).actions["red"] == ("Pet a cat",)
