"""Russian and English for every word the apps show.

Catalogues are TOML files, one per language, with the same keys (a test keeps them in step):
the shell's beside this module, and each game's in its own package (`tui/games/<game>/en.toml`,
under its own names: `<game>.…`, `game.<game>.…`, `option.<game>.…`); a key defined twice is
an error that names both files. `t("lobby.players", n=3)` formats with str.format. A missing
key shows the key itself, so a gap is visible instead of crashing a game night.

Plurals: a number's field with forms as its format spec, `{n:card|cards}` in English and
`{n:карта|карты|карт}` in Russian (one | few | many), is the form that fits the number (and
not the number itself): "{n} {n:card|cards}" gives "1 card", "5 cards".
"""

from __future__ import annotations

import locale
import os
import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "ru")
_current = "en"


WORDS_GROUP = "hubbub.words"
"""The entry-point group of the games' words: the game's id = the package whose folder holds
its `en.toml` and `ru.toml` (found without importing it)."""
_added: list[Path] = []


def game_folders(group: str, package: str) -> list[Path]:
    """The folders of the packages an entry-point `group` names and of `package`'s own
    (`games.base.found_in`), found without importing them."""
    from importlib.util import find_spec

    from games.base import found_in

    folders = []
    for module in found_in(group, package).values():
        spec = find_spec(module.partition(":")[0])
        if spec is not None and spec.submodule_search_locations:
            folders.append(Path(next(iter(spec.submodule_search_locations))))
    return sorted(folders)


def word_folders() -> list[Path]:
    """The folders of every game's words (`hubbub.words`), and any `add_words` gave."""
    return [*game_folders(WORDS_GROUP, "tui.games"), *_added]


def add_words(folder: Path) -> None:
    """A game's words from `folder` (its `en.toml`, `ru.toml`) beside the others: for a game
    registered by hand (the tests' own)."""
    if folder not in _added:
        _added.append(folder)
        catalogue.cache_clear()


def catalogue_files(lang: str) -> list[Path]:
    """The shell's catalogue of `lang`, then every game's."""
    games = [folder / f"{lang}.toml" for folder in word_folders()]
    return [Path(__file__).parent / f"{lang}.toml", *(p for p in games if p.exists())]


@cache
def catalogue(lang: str) -> dict[str, str]:
    flat: dict[str, str] = {}
    where: dict[str, Path] = {}

    def walk(prefix: str, node: dict[str, Any], path: Path) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value, path)
                continue
            name = f"{prefix}{key}"
            if name in flat:
                raise ValueError(f"{name} is in both {where[name]} and {path}")
            flat[name], where[name] = str(value), path

    for path in catalogue_files(lang):
        walk("", tomllib.loads(path.read_text(encoding="utf-8")), path)
    return flat


def detect_lang() -> str:
    """Russian if the user's locale is Russian, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    with_locale = locale.getlocale()[0] or ""
    return "ru" if with_locale.lower().startswith("ru") else "en"


def set_lang(lang: str | None) -> str:
    global _current
    _current = lang if lang in LANGS else detect_lang()
    return _current


def lang() -> str:
    return _current


def plural_form(n: int, code: str | None = None) -> int:
    """Which of a word's forms goes with the number `n`: English 0 one, 1 other; Russian
    0 one (1, 21, 101…), 1 few (2–4, 22–24…), 2 many (0, 5–20, 25…, 11–14)."""
    n = abs(int(n))
    if (code or _current) == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return 1
        return 2
    return 0 if n == 1 else 1


def plural(n: int, *forms: str) -> str:
    """The one of `forms` (one, few, many; English: one, other) that goes with `n`."""
    return forms[min(plural_form(n), len(forms) - 1)]


class _Formatter(string.Formatter):
    """str.format, and a number's `{n:one|few|many}` picks its plural form; a negative
    number has a real minus sign."""

    def format_field(self, value: Any, format_spec: str) -> Any:
        if "|" in format_spec:
            try:
                count = int(value)
            except (TypeError, ValueError):
                count = 5  # not a number: the "many" form
            return plural(count, *format_spec.split("|"))
        if not format_spec and type(value) in (int, float) and value < 0:
            return "\u2212" + str(-value)  # a real minus sign (tui.text.number)
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def quote(text: str) -> str:
    """Quotation marks of the language: “…” in English, «…» in Russian."""
    return f"«{text}»" if _current == "ru" else f"\u201c{text}\u201d"


def t(key: str, **params: Any) -> str:
    text = catalogue(_current).get(key) or catalogue("en").get(key) or key
    if params:
        try:
            return _FORMATTER.format(text, **params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def has(key: str) -> bool:
    return key in catalogue(_current)
