"""T-Rex decks: the action cards of each colour and the number-card deck (format: `docs/DECKS.md`).

The shipped deck of a language is `content/numbers.toml` (the number-card composition, the same
for every language) overlaid with `content/<lang>.toml` (the action cards). A group's own deck
file is a TOML file in the same format, overlaid on top of that:

- `[actions]`: each colour it lists *replaces* that colour's shipped action cards; colours it
  does not list keep the shipped ones.
- `[numbers]`: each key it sets replaces the same key of the shipped composition (a per-level
  count in `levels` replaces that level only); everything it does not set stays.

Every mistake raises `DeckError` naming the file, the line, the field and what is wrong.
Reading the content files is the only I/O here: no clock, no randomness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from games.deckfile import DeckError, bad_char, decode, norm, parse_toml, toml_type

COLOURS = ("red", "blue", "yellow")
"""The three action colours, in canonical order (also the order of `Deck.numbers`)."""

SYMBOLS = {"red": "★", "blue": "☾", "yellow": "☼"}
"""One-cell shape per colour, so colour-blind players and monochrome terminals can tell them
apart: red star, blue moon, yellow sun. None is a shape a seat's mark has (the apps mark
players with ● ▲ ■ ◆ …: with ▲ ● ■ on the cards, players took a seat's mark for a colour)."""

LANGS = ("en", "ru")
"""Languages with a shipped deck."""

LEVELS = range(1, 11)
"""Number-card levels: 1 = barely, 10 = full T-Rex."""

MAX_ACTION_LEN = 80
"""Longest action text, in characters."""

MIN_SHIPPED_ACTIONS = 20
"""A shipped language deck has at least this many action cards per colour."""

MAX_COUNT = 10
"""Largest count of any one kind of number card, so a number deck has at most 330 cards
(under the wire's 512-item limit, should a deck ever travel)."""

MAX_ACTIONS = 200
"""Most action cards of one colour in a file (same reason)."""

MIN_LEVEL_CARDS = 10
"""A number deck has at least this many cards with a level: up to 8 players each hold one."""

DEFAULT_COPIES_PER_LEVEL = 2
DEFAULT_BYEBYE_PER_COLOUR = 2
"""The rules' Decision (docs/rules/trex.md): per colour two cards of each level plus two bye-bye."""


@dataclass(frozen=True)
class NumberCard:
    """A number card (карта силы): a colour and a level 1..10, or `level=None` for bye-bye."""

    colour: str
    level: int | None

    @property
    def byebye(self) -> bool:
        return self.level is None


@dataclass(frozen=True)
class Deck:
    """A complete deck.

    `actions`: colour -> action texts, in file order (from `validate_deck_text`, only the
    colours that file defines; from `load_deck`, always all three).
    `numbers`: the number deck in canonical order — colour by colour (COLOURS order), within a
    colour levels 1..10 (each repeated by its count), then that colour's bye-bye cards. A
    shuffle outcome is a permutation of this tuple.
    """

    actions: dict[str, tuple[str, ...]]
    numbers: tuple[NumberCard, ...]


# --------------------------------------------------------------------------------------------
# Public API


def load_deck(lang: str = "en", path: str | None = None) -> Deck:
    """The deck for `lang`: the shipped one, or a group's file at `path` overlaid on it."""
    base = _shipped(lang)
    if path is None:
        return Deck(dict(base.actions), base.numbers)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DeckError(str(path), None, None, f"cannot read the file: {e.strerror or e}") from e
    text = decode(data, str(path))
    layer = _parse(text, str(path))
    return _overlay(base, layer, lang)


def validate_deck_text(text: str, source: str = "<deck>") -> Deck:
    """Parse and check one deck file's text; raise DeckError for the first mistake.

    The returned `actions` hold only the colours the text defines (`load_deck` fills in the
    rest from the shipped language deck); `numbers` is the shipped composition with the text's
    `[numbers]` keys overlaid — language-independent, so it is complete here.
    """
    layer = _parse(text.removeprefix("\ufeff"), source)
    base = _shipped_numbers_layer()
    if layer.numbers is None:
        numbers = _compose(_NumSpec().overlay(base.numbers), base)
    else:
        numbers = _compose(_NumSpec().overlay(base.numbers).overlay(layer.numbers), layer)
    return Deck(dict(layer.actions), numbers)


# --------------------------------------------------------------------------------------------
# Parsing one file into a layer


@dataclass
class _ColSpec:
    copies: int | None = None
    byebye: int | None = None
    levels: dict[int, int] = field(default_factory=dict)


@dataclass
class _NumSpec:
    copies: int | None = None
    byebye: int | None = None
    colours: dict[str, _ColSpec] = field(default_factory=dict)

    def overlay(self, top: _NumSpec | None) -> _NumSpec:
        if top is None:
            return self
        out = _NumSpec(
            top.copies if top.copies is not None else self.copies,
            top.byebye if top.byebye is not None else self.byebye,
            {c: _ColSpec(s.copies, s.byebye, dict(s.levels)) for c, s in self.colours.items()},
        )
        for c, s in top.colours.items():
            col = out.colours.setdefault(c, _ColSpec())
            if s.copies is not None:
                col.copies = s.copies
            if s.byebye is not None:
                col.byebye = s.byebye
            col.levels.update(s.levels)
        return out


@dataclass
class _Layer:
    source: str
    loc: _Locator
    actions: dict[str, tuple[str, ...]]
    numbers: _NumSpec | None


_TOP_KEYS = ("actions", "numbers")
_NUMBER_KEYS = ("copies_per_level", "byebye_per_colour", *COLOURS)
_COLOUR_KEYS = ("copies_per_level", "byebye", "levels")


def _parse(text: str, source: str) -> _Layer:
    loc = _Locator(text)
    raw = parse_toml(text, source)

    def err(
        path: tuple[str, ...], problem: str, field_name: str | None = None, line: int | None = None
    ) -> DeckError:
        return DeckError(
            source,
            line if line is not None else loc.line_for(path),
            field_name or ".".join(path),
            problem,
        )

    for key in raw:
        if key not in _TOP_KEYS:
            raise err((key,), f"unknown key {key!r} (a deck has [actions] and/or [numbers])")
    if not raw:
        raise DeckError(
            source, None, None, "the deck defines nothing: add [actions] and/or [numbers]"
        )

    actions: dict[str, tuple[str, ...]] = {}
    if "actions" in raw:
        table = raw["actions"]
        if not isinstance(table, dict):
            raise err(("actions",), "must be a table: [actions] with one list per colour")
        if not table:
            raise err(("actions",), '[actions] lists no colour (red = ["…", …] etc.)')
        seen: dict[str, tuple[str, int | None]] = {}  # normalised text -> (field, line)
        for colour, items in table.items():
            path = ("actions", colour)
            if colour not in COLOURS:
                raise err(path, f"unknown colour {colour!r} (colours: {', '.join(COLOURS)})")
            if not isinstance(items, list):
                raise err(path, 'must be a list of texts: red = ["…", "…"]')
            if not items:
                raise err(path, "no action cards (a colour needs at least 1)")
            if len(items) > MAX_ACTIONS:
                raise err(path, f"{len(items)} action cards (at most {MAX_ACTIONS} per colour)")
            texts: list[str] = []
            for i, item in enumerate(items):
                fname = f"{colour}[{i + 1}]"
                line = loc.item_line(path, i)
                if not isinstance(item, str):
                    raise err(path, f"must be text in quotes, not {toml_type(item)}", fname, line)
                textv = item.strip()
                if not textv:
                    raise err(path, "empty text", fname, line)
                if len(textv) > MAX_ACTION_LEN:
                    raise err(
                        path,
                        f"too long: {len(textv)} characters (at most {MAX_ACTION_LEN})",
                        fname,
                        line,
                    )
                if bad := bad_char(textv):
                    raise err(
                        path,
                        f"contains {bad} (line breaks, tabs and control "
                        "characters are not allowed)",
                        fname,
                        line,
                    )
                textv = " ".join(textv.split())
                key = norm(textv)
                if key in seen:
                    other, other_line = seen[key]
                    at = f" (line {other_line})" if other_line else ""
                    raise err(path, f"duplicate of {other}{at}: {textv!r}", fname, line)
                seen[key] = (fname, line)
                texts.append(textv)
            actions[colour] = tuple(texts)

    numbers: _NumSpec | None = None
    if "numbers" in raw:
        numbers = _parse_numbers(raw["numbers"], err)
    return _Layer(source, loc, actions, numbers)


def _parse_numbers(table: Any, err) -> _NumSpec:
    if not isinstance(table, dict):
        raise err(("numbers",), "must be a table: [numbers] with copies_per_level = 2 etc.")
    spec = _NumSpec()
    for key, value in table.items():
        path = ("numbers", key)
        if key == "copies_per_level":
            spec.copies = _count(value, path, err)
        elif key == "byebye_per_colour":
            spec.byebye = _count(value, path, err)
        elif key in COLOURS:
            if not isinstance(value, dict):
                raise err(
                    path,
                    f"must be a table: [numbers.{key}] with copies_per_level, byebye and/or levels",
                )
            spec.colours[key] = _parse_colour(value, path, err)
        elif key in ("byebye", "levels"):
            raise err(
                path,
                f"{key!r} goes in a colour's table, e.g. [numbers.red]; "
                "for every colour use byebye_per_colour / copies_per_level",
            )
        else:
            raise err(
                path,
                f"unknown key {key!r} (known: copies_per_level, byebye_per_colour,"
                f" or a colour: {', '.join(COLOURS)})",
            )
    return spec


def _parse_colour(table: dict, path: tuple[str, ...], err) -> _ColSpec:
    col = _ColSpec()
    for key, value in table.items():
        sub = (*path, key)
        if key == "copies_per_level":
            col.copies = _count(value, sub, err)
        elif key == "byebye":
            col.byebye = _count(value, sub, err)
        elif key == "levels":
            if not isinstance(value, dict):
                raise err(sub, "must be a table of level = count, e.g. levels = { 1 = 3, 10 = 1 }")
            for lk, count in value.items():
                lpath = (*sub, lk)
                if not re.fullmatch(r"\d{1,3}", lk) or int(lk) not in LEVELS:
                    raise err(lpath, f"level {lk} does not exist (levels are 1..10)")
                col.levels[int(lk)] = _count(count, lpath, err)
        elif key in COLOURS or key in ("byebye_per_colour",):
            raise err(sub, f"{key!r} does not belong in [{'.'.join(path)}]")
        else:
            raise err(sub, f"unknown key {key!r} (known: copies_per_level, byebye, levels)")
    return col


def _count(value: Any, path: tuple[str, ...], err) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise err(path, f"must be a whole number 0..{MAX_COUNT}, not {toml_type(value)}")
    if value < 0:
        raise err(path, f"count {value} is negative (0..{MAX_COUNT})")
    if value > MAX_COUNT:
        raise err(path, f"count {value} is too large (0..{MAX_COUNT})")
    return value


# --------------------------------------------------------------------------------------------
# Composing the number deck and overlaying layers


def _compose(spec: _NumSpec, blame: _Layer) -> tuple[NumberCard, ...]:
    """The number deck of a merged spec; composition mistakes are reported against `blame`."""
    top_copies = spec.copies if spec.copies is not None else DEFAULT_COPIES_PER_LEVEL
    top_byebye = spec.byebye if spec.byebye is not None else DEFAULT_BYEBYE_PER_COLOUR
    src = blame.numbers or _NumSpec()

    def where(colour: str, keys: tuple[str, ...]) -> tuple[str, ...]:
        col = src.colours.get(colour)
        if col is not None:
            for k in keys:
                if (k == "copies_per_level" and col.copies is not None) or (
                    k == "byebye" and col.byebye is not None
                ):
                    return ("numbers", colour, k)
            if col.levels and "levels" in keys:
                return ("numbers", colour, "levels")
            return ("numbers", colour)
        for k in keys:
            if (k == "copies_per_level" and src.copies is not None) or (
                k == "byebye" and src.byebye is not None
            ):
                return ("numbers", "byebye_per_colour" if k == "byebye" else k)
        return ("numbers",)

    def fail(path: tuple[str, ...], problem: str) -> DeckError:
        return DeckError(blame.source, blame.loc.line_for(path), ".".join(path), problem)

    cards: list[NumberCard] = []
    levelled = byebyes = 0
    for colour in COLOURS:
        col = spec.colours.get(colour, _ColSpec())
        copies = col.copies if col.copies is not None else top_copies
        n_colour = 0
        for level in LEVELS:
            n = col.levels.get(level, copies)
            cards.extend([NumberCard(colour, level)] * n)
            n_colour += n
        if n_colour == 0:
            raise fail(
                where(colour, ("levels", "copies_per_level")),
                f"{colour} has no number cards with a level (every colour needs at least one)",
            )
        bb = col.byebye if col.byebye is not None else top_byebye
        cards.extend([NumberCard(colour, None)] * bb)
        levelled += n_colour
        byebyes += bb
    if levelled < MIN_LEVEL_CARDS:
        raise fail(
            where("", ("copies_per_level",)) if src.copies is not None else ("numbers",),
            f"only {levelled} number cards with a level (at least {MIN_LEVEL_CARDS}: "
            "up to 8 players each hold one)",
        )
    if byebyes > levelled:
        path = ("numbers", "byebye_per_colour") if src.byebye is not None else ("numbers",)
        raise fail(
            path,
            f"{byebyes} bye-bye cards but only {levelled} cards with a level "
            "(at most as many bye-bye cards as cards with a level)",
        )
    return tuple(cards)


def _overlay(base: Deck, layer: _Layer, lang: str) -> Deck:
    """`base` (a complete deck) with `layer`'s actions and number keys on top."""
    actions = {c: layer.actions.get(c, base.actions[c]) for c in COLOURS}
    # a user's card may not repeat a shipped card of a colour it keeps
    kept = {norm(t): c for c in COLOURS if c not in layer.actions for t in base.actions[c]}
    for colour, texts in layer.actions.items():
        for i, t in enumerate(texts):
            if (other := kept.get(norm(t))) is not None:
                raise DeckError(
                    layer.source,
                    layer.loc.item_line(("actions", colour), i),
                    f"{colour}[{i + 1}]",
                    f"duplicate of a shipped {other} card ({lang}): {t!r}",
                )
    if layer.numbers is None:
        numbers = base.numbers
    else:
        spec = _shipped_spec(lang).overlay(layer.numbers)
        numbers = _compose(spec, layer)
    return Deck(actions, numbers)


# --------------------------------------------------------------------------------------------
# The shipped content


def _read_content(name: str) -> tuple[str, str]:
    source = f"games/trex/content/{name}"
    try:
        data = (resources.files(__package__) / "content" / name).read_bytes()
    except OSError as e:
        raise DeckError(source, None, None, f"shipped file missing: {e}") from e
    return decode(data, source), source


@cache
def _shipped_numbers_layer() -> _Layer:
    text, source = _read_content("numbers.toml")
    return _parse(text, source)


@cache
def _shipped_lang_layer(lang: str) -> _Layer:
    if lang not in LANGS:
        raise DeckError(
            None, None, "lang", f"no deck for language {lang!r} (languages: {', '.join(LANGS)})"
        )
    text, source = _read_content(f"{lang}.toml")
    return _parse(text, source)


def _shipped_spec(lang: str) -> _NumSpec:
    return (
        _NumSpec()
        .overlay(_shipped_numbers_layer().numbers)
        .overlay(_shipped_lang_layer(lang).numbers)
    )


@cache
def _shipped(lang: str) -> Deck:
    layer = _shipped_lang_layer(lang)
    nums_layer = _shipped_numbers_layer()
    blame = layer if layer.numbers is not None else nums_layer
    numbers = _compose(_shipped_spec(lang), blame)
    for colour in COLOURS:
        n = len(layer.actions.get(colour, ()))
        if n < MIN_SHIPPED_ACTIONS:
            raise DeckError(
                layer.source,
                layer.loc.line_for(("actions", colour)),
                f"actions.{colour}",
                f"a shipped deck needs at least "
                f"{MIN_SHIPPED_ACTIONS} {colour} action cards, has {n}",
            )
    return Deck(dict(layer.actions), numbers)


# --------------------------------------------------------------------------------------------
# Finding lines for semantic errors (tomllib gives lines only for syntax errors)

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEYPART = r'(?:[A-Za-z0-9_-]+|"[^"\n]*"|\'[^\'\n]*\')'
_KEY = re.compile(rf"^\s*({_KEYPART}(?:\s*\.\s*{_KEYPART})*)\s*=")
_INLINE_KEY = re.compile(rf"[{{,]\s*({_KEYPART}(?:\s*\.\s*{_KEYPART})*)\s*=")


def _split_key(key: str) -> tuple[str, ...]:
    parts = re.findall(_KEYPART, key)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


class _Locator:
    """Finds the line of a key path (or of an array item) by scanning the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self._index: dict[tuple[str, ...], tuple[int, int]] = {}  # path -> (line, offset)
        table: tuple[str, ...] = ()
        offset = 0
        for n, line in enumerate(self.lines, 1):
            if m := _HEADER.match(line):
                table = _split_key(m.group(1))
                self._index.setdefault(table, (n, offset))
            elif m := _KEY.match(line):
                path = table + _split_key(m.group(1))
                self._index.setdefault(path, (n, offset + m.end()))
                for im in _INLINE_KEY.finditer(line, m.end()):
                    sub = path + _split_key(im.group(1))
                    self._index.setdefault(sub, (n, offset + im.end()))
            offset += len(line) + 1

    def line_for(self, path: tuple[str, ...]) -> int | None:
        """The line of `path`, else of its nearest ancestor that can be found."""
        for k in range(len(path), 0, -1):
            if path[:k] in self._index:
                return self._index[path[:k]][0]
        return None

    def item_line(self, path: tuple[str, ...], index: int) -> int | None:
        """The line where item `index` (0-based) of the array at `path` starts."""
        if path not in self._index:
            return self.line_for(path)
        line, i = self._index[path]
        text = self.text
        depth, count, expecting = 0, -1, True
        while i < len(text):
            ch = text[i]
            if ch == "#":
                j = text.find("\n", i)
                i = len(text) if j < 0 else j
                continue
            if depth == 0 and not ch.isspace() and ch != "[":
                break  # not an array
            starts_item = depth == 1 and expecting and not ch.isspace() and ch not in ",]"
            if starts_item:
                count += 1
                expecting = False
                if count == index:
                    return text.count("\n", 0, i) + 1
            if ch in "\"'":
                i = self._skip_string(i)
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    break
            elif ch == "," and depth == 1:
                expecting = True
            i += 1
        return line

    def _skip_string(self, i: int) -> int:
        text = self.text
        q = text[i]
        if text.startswith(q * 3, i):
            j = text.find(q * 3, i + 3)
            return len(text) if j < 0 else j + 3
        j = i + 1
        while j < len(text) and text[j] != q and text[j] != "\n":
            j += 2 if (q == '"' and text[j] == "\\") else 1
        return j + 1
