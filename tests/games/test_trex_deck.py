"""T-Rex decks: the shipped content, the file format and its error messages."""

from __future__ import annotations

import pytest

from games.trex.deck import COLOURS, LANGS, SYMBOLS, DeckError, load_deck, validate_deck_text


@pytest.mark.parametrize("lang", LANGS)
def test_shipped_deck_loads(lang):
    deck = load_deck(lang)
    assert set(deck.actions) == set(COLOURS)
    assert all(len(deck.actions[c]) >= 20 for c in COLOURS)
    assert len(deck.numbers) == 66
    assert len(set(SYMBOLS.values())) == 3


def test_error_str():
    with pytest.raises(DeckError) as e:
        validate_deck_text('[actions]\nred = [\n  "a",\n  "",\n]\n', "deck.toml")
    assert str(e.value) == "deck.toml, line 4, field red[2]: empty text"
