"""Tesauro dictionaries: cards of two entries, each a rare word, its category, its definition.

Format (`docs/DECKS.md`): a TOML file in UTF-8 with an optional `[deck]` table (`lang`,
`name`, `source`, `license`: texts) and one `[[card]]` per card, holding `first` and `second`
entries, each `{ word = "…", category = "…", definition = "…" }` and optionally `paraphrase`
(the same meaning in other words: what a bot Genius says) and `pos` (the word's part of speech,
when it is not a noun: the bots bluff with words of the same part of speech).

The shipped dictionary of a language is `content/<lang>.toml`; a group's own file (`hubbub
host --deck FILE`) *replaces* it. Every mistake raises `DeckError` naming the file, the line,
the field and what is wrong — a definition that gives its word away (`giveaway`) among
them. Reading the content files is the only I/O here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from games.deckfile import DeckError, bad_char, decode, norm, parse_toml, toml_type
from games.tesauro.giveaway import giveaway

CATEGORIES = (
    "food",
    "botany",
    "society",
    "concepts",
    "humanities",
    "engineering",
    "earth",
    "health",
    "zoology",
)
"""The nine category tiles, in the rules' order."""

POS = ("noun", "verb", "adjective", "adverb")
"""The parts of speech an entry's word may have (`pos`); an entry without one is a noun."""

NOUN = "noun"

LANGS = ("en", "ru")
"""Languages with a shipped dictionary."""

SIDES = ("first", "second")
"""The two entries of a card, in the order the reader is offered them (0, 1)."""

ENTRY_KEYS = ("word", "category", "pos", "definition", "paraphrase")
REQUIRED_KEYS = ("word", "category", "definition")
DECK_KEYS = ("lang", "name", "source", "license")

MAX_WORD_LEN = 40
MAX_DEFINITION_LEN = 300
"""A definition is 1..300 characters, the same bound as a player's typed one."""

MIN_CARDS = 10
"""A group's dictionary has at least this many cards: a game sets some aside for the bots'
bluffs (see `pool_size`) and plays from the rest."""

MIN_SHIPPED_CARDS = 150
MAX_CARDS = 2000


@dataclass(frozen=True)
class Entry:
    word: str
    category: str
    definition: str
    paraphrase: str | None = None
    pos: str = NOUN

    def as_dict(self) -> dict[str, str]:
        """The entry as plain data (the game's state): `pos` only when it is not a noun."""
        out = {"word": self.word, "category": self.category, "definition": self.definition}
        if self.paraphrase is not None:
            out["paraphrase"] = self.paraphrase
        if self.pos != NOUN:
            out["pos"] = self.pos
        return out


def pos_of(entry: dict) -> str:
    """The part of speech of an entry held as plain data (`Entry.as_dict`): a noun unless it
    says otherwise."""
    return entry.get("pos") or NOUN


@dataclass(frozen=True)
class Dictionary:
    """A whole deck: `cards[i]` is a pair of entries (first, second)."""

    cards: tuple[tuple[Entry, Entry], ...]
    lang: str | None = None
    name: str | None = None
    source: str | None = None
    license: str | None = None


def pool_size(cards: int) -> int:
    """How many cards a game keeps out of its deck, for the bots' bluffs: a third, and at
    least one (a game needs two cards: one to play, one to bluff with)."""
    return max(1, cards // 3)


# --------------------------------------------------------------------------------------------
# Public API


def load_dictionary(lang: str = "en", path: str | None = None) -> Dictionary:
    """The shipped dictionary of `lang`, or a group's own file at `path` instead."""
    if path is None:
        return _shipped(lang)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DeckError(str(path), None, None, f"cannot read the file: {e.strerror or e}") from e
    return validate_deck_text(decode(data, str(path)), str(path), lang=lang)


def validate_deck_text(
    text: str, source: str = "<deck>", minimum: int = MIN_CARDS, lang: str = "en"
) -> Dictionary:
    """Parse and check one dictionary file's text; raise DeckError for the first mistake.
    Giveaways are judged in the deck's `lang`, else in `lang` (the table's words)."""
    text = text.removeprefix("\ufeff")
    raw = parse_toml(text, source)
    loc = _CardLines(text)

    def err(line: int | None, field: str | None, problem: str) -> DeckError:
        return DeckError(source, line, field, problem)

    for key in raw:
        if key not in ("deck", "card"):
            raise err(
                loc.top.get(key), key, f"unknown key {key!r} (a dictionary has [deck] and [[card]])"
            )
    meta = raw.get("deck", {})
    if not isinstance(meta, dict):
        raise err(loc.top.get("deck"), "deck", "must be a table: [deck] with lang, name, …")
    for key, value in meta.items():
        line = loc.deck.get(key, loc.top.get("deck"))
        if key not in DECK_KEYS:
            raise err(line, f"deck.{key}", f"unknown key {key!r} (keys: {', '.join(DECK_KEYS)})")
        if not isinstance(value, str):
            raise err(line, f"deck.{key}", f"must be text in quotes, not {toml_type(value)}")
    if meta.get("lang") is not None and meta["lang"] not in LANGS:
        raise err(
            loc.deck.get("lang"), "deck.lang", f"unknown language (languages: {', '.join(LANGS)})"
        )

    cards_raw = raw.get("card")
    if cards_raw is None:
        raise err(None, "card", "no cards: add [[card]] tables with first and second entries")
    if not isinstance(cards_raw, list):
        raise err(loc.top.get("card"), "card", "must be [[card]] tables, one per card")
    if len(cards_raw) > MAX_CARDS:
        raise err(None, "card", f"{len(cards_raw)} cards; at most {MAX_CARDS}")

    seen: dict[str, tuple[str, int | None]] = {}
    cards: list[tuple[Entry, Entry]] = []
    for i, card in enumerate(cards_raw):
        where = f"card[{i + 1}]"
        card_line = loc.card_line(i)
        if not isinstance(card, dict):
            raise err(card_line, where, "must be a table with first and second entries")
        for key in card:
            if key not in SIDES:
                raise err(
                    loc.line(i, key),
                    f"{where}.{key}",
                    f"unknown key {key!r} (a card has first and second)",
                )
        entries = []
        for side in SIDES:
            fname = f"{where}.{side}"
            if side not in card:
                raise err(card_line, fname, "missing: a card has two entries, first and second")
            entries.append(
                _entry(card[side], fname, loc, i, side, err, seen, meta.get("lang") or lang)
            )
        cards.append((entries[0], entries[1]))
    if len(cards) < minimum:
        plural = "" if len(cards) == 1 else "s"
        raise err(None, "card", f"{len(cards)} card{plural}; a dictionary needs at least {minimum}")
    return Dictionary(
        tuple(cards), meta.get("lang"), meta.get("name"), meta.get("source"), meta.get("license")
    )


def _entry(
    value: Any, fname: str, loc: _CardLines, i: int, side: str, err, seen, lang: str
) -> Entry:
    line = loc.line(i, side)
    if not isinstance(value, dict):
        raise err(
            line, fname, '{ word = "…", category = "…", definition = "…" }, not ' + toml_type(value)
        )
    for key in value:
        if key not in ENTRY_KEYS:
            raise err(
                loc.line(i, side, key),
                f"{fname}.{key}",
                f"unknown key {key!r} (keys: {', '.join(ENTRY_KEYS)})",
            )
    out: dict[str, str] = {}
    for key, limit in (
        ("word", MAX_WORD_LEN),
        ("category", None),
        ("pos", None),
        ("definition", MAX_DEFINITION_LEN),
        ("paraphrase", MAX_DEFINITION_LEN),
    ):
        field = f"{fname}.{key}"
        kline = loc.line(i, side, key)
        if key not in value:
            if key not in REQUIRED_KEYS:
                continue
            raise err(kline, field, "missing")
        text = value[key]
        if not isinstance(text, str):
            raise err(kline, field, f"must be text in quotes, not {toml_type(text)}")
        text = " ".join(text.split())
        if not text:
            raise err(kline, field, "empty text")
        if bad := bad_char(text):
            raise err(kline, field, f"contains {bad} (control characters are not allowed)")
        if limit is not None and len(text) > limit:
            raise err(kline, field, f"too long: {len(text)} characters (at most {limit})")
        out[key] = text
    if out["category"] not in CATEGORIES:
        raise err(
            loc.line(i, side, "category"),
            f"{fname}.category",
            f"unknown category {out['category']!r} (categories: {', '.join(CATEGORIES)})",
        )
    if out.get("pos", NOUN) not in POS:
        raise err(
            loc.line(i, side, "pos"),
            f"{fname}.pos",
            f"unknown part of speech {out['pos']!r} (parts of speech: {', '.join(POS)}; "
            "without pos, a noun)",
        )
    key = norm(out["word"])
    if key in seen:
        other, other_line = seen[key]
        at = f" (line {other_line})" if other_line else ""
        raise err(
            loc.line(i, side, "word"),
            f"{fname}.word",
            f"the word {out['word']!r} is already {other}{at}",
        )
    seen[key] = (fname, loc.line(i, side, "word"))
    for key in ("definition", "paraphrase"):
        if key in out and (part := giveaway(out["word"], out[key], lang)):
            raise err(
                loc.line(i, side, key),
                f"{fname}.{key}",
                f"gives the word away: {part!r} is part of {out['word']!r} "
                "(say it without the word's root)",
            )
    return Entry(
        out["word"],
        out["category"],
        out["definition"],
        out.get("paraphrase"),
        out.get("pos", NOUN),
    )


# --------------------------------------------------------------------------------------------
# The shipped content


@cache
def _shipped(lang: str) -> Dictionary:
    if lang not in LANGS:
        raise DeckError(
            None,
            None,
            "lang",
            f"no dictionary for language {lang!r} (languages: {', '.join(LANGS)})",
        )
    source = f"games/tesauro/content/{lang}.toml"
    try:
        data = (resources.files(__package__) / "content" / f"{lang}.toml").read_bytes()
    except OSError as e:
        raise DeckError(source, None, None, f"shipped file missing: {e}") from e
    return validate_deck_text(decode(data, source), source, MIN_SHIPPED_CARDS, lang)


# --------------------------------------------------------------------------------------------
# Lines for semantic errors (tomllib gives lines only for syntax errors)

_CARD = re.compile(r"^\s*\[\[\s*card\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\s]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=")
_INLINE = re.compile(r"[{,]\s*([A-Za-z0-9_]+)\s*=")


class _CardLines:
    """The line of each card, entry and field, found by scanning the text."""

    def __init__(self, text: str) -> None:
        self.top: dict[str, int] = {}
        self.deck: dict[str, int] = {}
        self._cards: list[int] = []
        self._lines: dict[tuple, int] = {}
        where: tuple = ()
        for n, line in enumerate(text.split("\n"), 1):
            if _CARD.match(line):
                self._cards.append(n)
                self.top.setdefault("card", n)
                where = ("card", len(self._cards) - 1)
            elif m := _TABLE.match(line):
                parts = tuple(p.strip() for p in m.group(1).split("."))
                self.top.setdefault(parts[0], n)
                if parts[0] == "card" and len(parts) == 2 and self._cards:
                    where = ("card", len(self._cards) - 1, parts[1])
                    self._lines.setdefault(where[1:], n)
                else:
                    where = parts
            elif m := _KEY.match(line):
                key = m.group(1)
                if where == ("deck",):
                    self.deck.setdefault(key, n)
                elif where[:1] == ("card",):
                    path = (*where[1:], key)
                    self._lines.setdefault(path, n)
                    if len(path) == 2:
                        for im in _INLINE.finditer(line, m.end()):
                            self._lines.setdefault((*path, im.group(1)), n)
                elif not where:
                    self.top.setdefault(key, n)

    def card_line(self, i: int) -> int | None:
        return self._cards[i] if i < len(self._cards) else None

    def line(self, i: int, *path: str) -> int | None:
        for k in range(len(path), 0, -1):
            if (i, *path[:k]) in self._lines:
                return self._lines[(i, *path[:k])]
        return self.card_line(i)
