"""Russian and English for every word the apps show.

Catalogues are TOML files beside this module, one per language, with the same keys; a test
keeps them in step. `t("lobby.players", n=3)` formats with str.format. A missing key shows
the key itself, so a gap is visible instead of crashing a game night.
"""

from __future__ import annotations

import locale
import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGS = ("en", "ru")
_current = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    data = tomllib.loads((Path(__file__).parent / f"{lang}.toml").read_text(encoding="utf-8"))
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = str(value)

    walk("", data)
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


def t(key: str, **params: Any) -> str:
    text = catalogue(_current).get(key) or catalogue("en").get(key) or key
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def has(key: str) -> bool:
    return key in catalogue(_current)
