"""Both catalogues are complete and in step, and every key the code uses exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

from games.base import game_entries
from tui.i18n import catalogue, detect_lang, quote, set_lang, t

ROOT = Path(__file__).resolve().parents[2]


def test_catalogues_have_the_same_keys():
    en, ru = catalogue("en"), catalogue("ru")
    assert sorted(set(en) ^ set(ru)) == []


def test_placeholders_match_between_languages():
    """The same fields (a language may name one twice: a number and its plural form)."""
    en, ru = catalogue("en"), catalogue("ru")
    fields = lambda text: sorted({f for _, f, _, _ in string.Formatter().parse(text) if f})  # noqa: E731
    assert {k: fields(v) for k, v in en.items()} == {k: fields(ru[k]) for k in en}


def test_plural_forms_are_complete():
    """A plural field has two forms in English (one|other), three in Russian (one|few|many)."""
    for code, count in (("en", 2), ("ru", 3)):
        for key, text in catalogue(code).items():
            for _, field, spec, _ in string.Formatter().parse(text):
                if field and spec and "|" in spec:
                    assert len(spec.split("|")) == count, (code, key, spec)


def test_plurals():
    set_lang("ru")
    try:
        forms = [t("tesauro.only_defs", n=n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25, 111)]
        assert forms == [
            "Всего 1 определение.",
            "Всего 2 определения.",
            "Всего 4 определения.",
            "Всего 5 определений.",
            "Всего 11 определений.",
            "Всего 12 определений.",
            "Всего 21 определение.",
            "Всего 22 определения.",
            "Всего 25 определений.",
            "Всего 111 определений.",
        ]
        assert t("tesauro.sent_waiting", n=1) == "Отправлено — ждём ещё 1 игрока."
        assert t("tesauro.sent_waiting", n=3) == "Отправлено — ждём ещё 3 игроков."
        set_lang("en")
        assert t("tesauro.sent_waiting", n=1) == "Sent — waiting for 1 other."
        assert t("tesauro.sent_waiting", n=2) == "Sent — waiting for 2 others."
        assert t("tesauro.only_defs", n=1) == "There is 1 definition."
        assert t("tesauro.only_defs", n=4) == "There are 4 definitions."
    finally:
        set_lang("en")


def test_russian_never_guesses_a_gender():
    """A name is never declined and its gender never guessed: no «сказал(а)», no «игроку Аня»:
    names stand as subjects of the present tense, or before a colon or a dash."""
    ru = catalogue("ru")
    assert [k for k, v in ru.items() if re.search(r"\((а|ла)\)|игрок[ау] \{", v)] == []


def test_quotes_follow_the_language():
    assert "«" not in "".join(catalogue("en").values())
    set_lang("ru")
    try:
        assert quote("x") == "«x»"
        set_lang("en")
        assert quote("x") == "“x”"
    finally:
        set_lang("en")


def test_russian_is_russian():
    ru = catalogue("ru")
    latin_only = [k for k, v in ru.items() if re.fullmatch(r"[^а-яА-ЯёЁ]*", v)]
    allowed = {
        "game.tallyup.name",
        "find.address_placeholder",
        "tallyup.key.in",
        "tallyup.key.out",
        "tallyup.ev.reveal",
        "tallyup.tally_banner",  # the game's call, in every language: TALLY UP!
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


def test_each_tesauro_tile_is_described_in_the_words_of_the_rules():
    """The tile picker says what a free tile covers: what the rules say of it."""
    for code in ("en", "ru"):
        words = catalogue(code)
        about = {k.rsplit(".", 1)[1]: v for k, v in words.items() if ".category_about." in k}
        assert len(about) == 9
        for category, covers in about.items():
            tile = words[f"tesauro.category.{category}"]
            assert f"{tile} — {covers}" in words["tesauro.rules"], (code, category)


GAME_IDS = sorted(game_entries())


def test_a_game_s_catalogue_holds_its_own_words_only():
    """A game's words are in its package, under its own names: nothing of the shell's, nothing
    of another game's."""
    import tomllib

    for game in GAME_IDS:
        for code in ("en", "ru"):
            data = tomllib.loads((ROOT / "tui/games" / game / f"{code}.toml").read_text())
            assert set(data) <= {game, "game", "option"}, (game, code, sorted(data))
            assert set(data.get("game", {})) <= {game} and set(data.get("option", {})) <= {game}


def refusal_codes(folder: Path) -> set[str]:
    """The codes `IllegalAction`s are raised with under `folder` (or in one file)."""
    paths = folder.rglob("*.py") if folder.is_dir() else [folder]
    pattern = r'IllegalAction\(\s*"([a-z_]+)"'
    return {code for path in paths for code in re.findall(pattern, path.read_text())}


def test_every_refusal_of_a_game_is_said_in_its_words_or_the_shell_s():
    """Each code a game's rules refuse with has a text: the game's own
    (`<game>.illegal.<code>`), or, for a code of the rulebook or of several games, the shell's
    — and a code only one game has is said in that game's catalogue, not the shell's."""
    en = catalogue("en")
    raised = {game: refusal_codes(ROOT / "games" / game) for game in GAME_IDS}
    shared = refusal_codes(ROOT / "games/rulebook.py")
    for game, codes in raised.items():
        others = shared.union(*(raised[g] for g in GAME_IDS if g != game))
        for code in codes:
            own, shell = f"{game}.illegal.{code}", f"illegal.{code}"
            assert own in en or shell in en, (game, code)
            assert code in others or shell not in en, f"{game}'s own {code} in the shell's words"


def test_a_key_defined_twice_is_an_error_naming_both_files(tmp_path, monkeypatch):
    import pytest

    from tui import i18n

    one, two = tmp_path / "en.toml", tmp_path / "game.toml"
    one.write_text('[lobby]\ntitle = "Lobby"\n')
    two.write_text('[lobby]\ntitle = "Also the lobby"\n')
    monkeypatch.setattr(i18n, "catalogue_files", lambda lang: [one, two])
    i18n.catalogue.cache_clear()
    try:
        twice = r"lobby\.title is in both .*en\.toml and .*game\.toml"
        with pytest.raises(ValueError, match=twice):
            i18n.catalogue("en")
    finally:
        monkeypatch.undo()
        i18n.catalogue.cache_clear()


def test_a_negative_number_has_a_real_minus_sign_wherever_it_is_shown():
    """The Up Die's −100 beside a running total of -30 (a hyphen): one minus sign, the real
    one, in the catalogues' texts and in the scores drawn apart from them."""
    from tui.games.trex.pieces import scoreboard
    from tui.host.screens import results_text

    set_lang("en")
    said = t("tallyup.ev.up_die", label="−100", total=-30)
    assert "−30" in said and "-30" not in said
    assert t("tallyup.you", score=-1, rank=2, n=3).startswith("You: −1 point")
    assert "  −2" in results_text({"scores": [3, -2], "winners": [0]}, ["Ann", "Bob"]).plain
    view = {"mode": "compete", "players": ["Ann", "Bob"], "good": [1, 0], "bad": [0, 2],
            "scores": [1, -2]}  # fmt: skip
    assert "−2" in scoreboard(view).plain and "-2" not in scoreboard(view).plain


def test_a_russian_percentage_has_a_decimal_comma():
    from tui.games.tallyup import percent

    set_lang("ru")
    try:
        assert percent(0.014) == "1,4\u2800%" and percent(0.57) == "57\u2800%"
    finally:
        set_lang("en")
    assert percent(0.014) == "1.4%" and percent(0.57) == "57%"


def test_an_unbroken_group_stays_on_one_line_whatever_the_width():
    """The play-test's voter saw "…номер.  ⏱" and "0:53" on the next line: Rich breaks a
    line at a no-break space too."""
    from rich.console import Console
    from rich.text import Text

    from tui.text import unbroken

    line = "Голосуйте: кто лучший Тирекс? Нажмите его номер.  " + unbroken("⏱ 0:53")
    for width in range(40, 60):
        lines = [part.plain for part in Text(line).wrap(Console(width=80), width)]
        assert not any(part.rstrip().endswith("⏱") for part in lines), (width, lines)
