"""docs/PROTOCOL.md and the games' pages (`games/<id>/PROTOCOL.md`) read as a test reads them:
a section by its heading, its tables, the names in a cell. The tests that check the doc against
the wire's types share these."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "docs" / "PROTOCOL.md"


def page(game: str) -> Path:
    """A game's part of the protocol, in its package."""
    return ROOT / "games" / game / "PROTOCOL.md"


def section(heading: str, doc: Path = PROTOCOL) -> str:
    """The text under the heading that begins with `heading` (after its #s: "10.1", "4. Views",
    "5.1.1 `hello`"), up to the next heading of its level or above."""
    text = doc.read_text(encoding="utf-8")
    found = re.search(rf"^(#+) {re.escape(heading)}(?=[ .\n]|$)[^\n]*$", text, re.M)
    assert found, f"no heading {heading!r} in {doc.relative_to(ROOT)}"
    level = len(found.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, found.end())
    return text[found.end() : end.start() if end else len(text)]


def tables(text: str) -> list[list[list[str]]]:
    """The markdown tables of `text`: each a list of rows (header and rule left out), each a
    list of cells."""
    found: list[list[list[str]]] = []
    rows: list[list[str]] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            rows = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if rows is None:  # the header
            rows = []
            found.append(rows)
        elif not set("".join(cells)) <= set("-: "):  # not the rule
            rows.append(cells)
    return found


def names(cell: str) -> list[str]:
    """The backticked names in a cell (not quoted values, numbers or shapes)."""
    return [n for n in re.findall(r"`([^`]*)`", cell) if re.fullmatch(r"[a-z_][a-z0-9_]*", n)]


def first_column(table: list[list[str]]) -> list[str]:
    """Every name the first column of `table` gives, in order."""
    return [name for row in table for name in names(row[0])]
