"""Both catalogues are complete and in step, and every key the code uses exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

from tui.i18n import catalogue, detect_lang

ROOT = Path(__file__).resolve().parents[2]


def test_catalogues_have_the_same_keys():
    en, ru = catalogue("en"), catalogue("ru")
    assert sorted(set(en) ^ set(ru)) == []


def test_placeholders_match_between_languages():
    en, ru = catalogue("en"), catalogue("ru")
    fields = lambda text: sorted(f for _, f, _, _ in string.Formatter().parse(text) if f)  # noqa: E731
    assert {k: fields(v) for k, v in en.items()} == {k: fields(ru[k]) for k in en}


def test_russian_is_russian():
    ru = catalogue("ru")
    latin_only = [k for k, v in ru.items() if re.fullmatch(r"[^а-яА-ЯёЁ]*", v)]
    allowed = {
        "game.tallyup.name",
        "find.address_placeholder",
        "tallyup.key.in",
        "tallyup.key.out",
        "tallyup.ev.reveal",
    }
    assert [k for k in latin_only if k not in allowed and "_value" not in k] == []


def test_every_literal_key_in_the_code_exists():
    en = catalogue("en")
    used = set()
    for path in (ROOT / "tui").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'\bt\("([a-z_]+(?:\.[a-z_]+)+)"', text))
        used |= set(re.findall(r'"(key\.[a-z_]+)"', text))
    assert sorted(k for k in used if k not in en) == []


def test_language_follows_the_locale(monkeypatch):
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert detect_lang() == "ru"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert detect_lang() == "en"
