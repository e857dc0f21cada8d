"""Dependencies point one way: tui -> net -> games. games is pure; net never imports Textual."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "games": {
        "net",
        "tui",
        "tests",
        "textual",
        "asyncio",
        "socket",
        "time",
        "zeroconf",
        "os",
        "pathlib",
    },
    "net": {"tui", "textual", "tests"},
    "tui": {"tests"},  # the scenes' kit and `until` are the app's own: the tests build on them
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers(package):
    offenders = {}
    for path in (ROOT / package).rglob("*.py"):
        bad = imports_of(path) & FORBIDDEN[package]
        if package == "games":
            if path.name == "deck.py":  # content files are part of a game: it may read them
                bad -= {"pathlib"}
            bad |= randomness_of_its_own(path)
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def randomness_of_its_own(path: Path) -> set[str]:
    """Games and bots may name `random.Random` (the rng they are handed) but never draw from
    the module's own generator."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.add(f"random.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found |= {f"random.{a.name}" for a in node.names if a.name != "Random"}
    return found
