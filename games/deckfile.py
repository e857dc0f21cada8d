"""What every game's deck files share: the error that says where a mistake is, and reading.

A deck file is TOML in UTF-8. `DeckError` names the file, the line, the field and what is
wrong; `parse_toml` turns tomllib's syntax errors into one, with a hint for the usual slips.
No I/O here: the games' `deck` modules read their files and hand the text over.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from typing import Any


class DeckError(ValueError):
    """A mistake in a deck file: `path`, `line` (1-based or None), `field` (or None), `problem`.

    str() reads like `deck.toml, line 12, field red[3]: empty text`.
    """

    def __init__(self, path: str | None, line: int | None, field: str | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.field = field
        self.problem = problem
        super().__init__(str(self))

    def __str__(self) -> str:
        where = [
            p
            for p in (
                self.path,
                self.line and f"line {self.line}",
                self.field and f"field {self.field}",
            )
            if p
        ]
        return f"{', '.join(where)}: {self.problem}" if where else self.problem

    def __reduce__(self):  # picklable despite the custom __init__
        return (type(self), (self.path, self.line, self.field, self.problem))


def decode(data: bytes, source: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise DeckError(source, line, None, "not UTF-8 text (save the file as UTF-8)") from e
    return text.removeprefix("\ufeff")


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END = re.compile(r"\s*\(at end of document\)\s*$")
_TOML_HINTS = (
    ("illegal character '\\n'", ' — is a closing quote missing? A text ends with " on its line'),
    ("cannot overwrite a value", " — the same key is set twice"),
    ("cannot declare", " — the same [table] appears twice"),
    ("invalid value", ' — values are numbers, "texts in quotes", [lists] or { tables }'),
    ("expected '=' after a key", " — a line is `key = value`; is a quote or a comma missing?"),
    ("unclosed array", " — a comma or a ] is missing"),
)


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document in `text`; a syntax error becomes a DeckError with its line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        line: int | None = None
        if m := _TOML_AT.search(msg):
            line = int(m.group(1))
            msg = f"{msg[: m.start()]} (column {m.group(2)})"
        elif m := _TOML_END.search(msg):
            line = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
            msg = f"{msg[: m.start()]} (at the end of the file)"
        msg = msg[:1].lower() + msg[1:]
        hint = next((h for k, h in _TOML_HINTS if k in msg), "")
        raise DeckError(source, line, None, f"TOML syntax error: {msg}{hint}") from None


def toml_type(value: Any) -> str:
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, int):
        return f"a number ({value})"
    if isinstance(value, float):
        return f"a decimal number ({value})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def bad_char(text: str) -> str | None:
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
            return f"the character U+{ord(ch):04X}"
    return None


def norm(text: str) -> str:
    """What counts as 'the same card': case, ё/е, spacing and final punctuation ignored."""
    t = " ".join(text.casefold().replace("ё", "е").split())
    return t.rstrip(" .!?…")
