"""Does a definition give its own word away?

A Sage who hears "the study of ancient geography" for *paleogeography* needs no dictionary. A
definition (or its paraphrase) gives the word away when one of its words shares a part of four
or more letters with the headword's stem — its root, not a shared ending: endings are cut from
both sides first ("-tion", "-ology", «-ица», «-ость»…), and so are Russian prefixes («под-»,
«пере-»…) when what is left of the headword is long enough to stand alone. `giveaway` names the
part, so a deck check can say what to rephrase. The headword is also looked at whole, for
compounds its endings cut short.
"""

from __future__ import annotations

import re

MIN_PART = 4
"""The shortest shared part that counts: three letters ("ped", "bio") recur by chance."""

_ENDINGS = {
    "en": (
        "ologies",
        "ology",
        "ologist",
        "ographies",
        "ography",
        "isms",
        "ism",
        "ists",
        "ist",
        "ations",
        "ation",
        "itions",
        "ition",
        "tions",
        "tion",
        "sions",
        "sion",
        "ments",
        "ment",
        "nesses",
        "ness",
        "ities",
        "ity",
        "ically",
        "ical",
        "ally",
        "ings",
        "ing",
        "ures",
        "ure",
        "ances",
        "ance",
        "ences",
        "ence",
        "ants",
        "ant",
        "ents",
        "ent",
        "ables",
        "able",
        "ibles",
        "ible",
        "ives",
        "ive",
        "ously",
        "ous",
        "osis",
        "oses",
        "itis",
        "ers",
        "er",
        "ors",
        "or",
        "ies",
        "es",
        "ed",
        "ly",
        "al",
        "ic",
        "ics",
        "s",
        "y",
        "e",
    ),
    "ru": (
        "ование",
        "ования",
        "ованием",
        "ение",
        "ения",
        "ением",
        "ании",
        "ание",
        "ания",
        "ость",
        "ости",
        "остью",
        "ство",
        "ства",
        "ством",
        "ница",
        "ницы",
        "ник",
        "ника",
        "ники",
        "чик",
        "чика",
        "щик",
        "щика",
        "ица",
        "ицы",
        "ица",
        "ка",
        "ки",
        "кой",
        "ок",
        "ка",
        "ский",
        "ская",
        "ское",
        "ские",
        "ского",
        "ной",
        "ный",
        "ная",
        "ное",
        "ные",
        "ного",
        "ого",
        "его",
        "ому",
        "ему",
        "ыми",
        "ими",
        "ой",
        "ей",
        "ий",
        "ый",
        "ая",
        "яя",
        "ое",
        "ее",
        "ые",
        "ие",
        "ов",
        "ев",
        "ам",
        "ям",
        "ах",
        "ях",
        "ом",
        "ем",
        "ую",
        "юю",
        "ия",
        "ие",
        "ь",
        "а",
        "я",
        "о",
        "е",
        "ы",
        "и",
        "у",
        "ю",
    ),
}
_RU_PREFIXES = (
    "пере",
    "недо",
    "обез",
    "обес",
    "пред",
    "пре",
    "при",
    "про",
    "под",
    "раз",
    "рас",
    "воз",
    "вос",
    "без",
    "бес",
    "над",
    "об",
    "от",
    "до",
    "за",
    "из",
    "ис",
    "на",
    "по",
    "вы",
    "со",
)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _norm(text: str) -> str:
    return text.casefold().replace("ё", "е")


def stem(word: str, lang: str) -> str:
    """The word without its ending (the longest that leaves at least four letters)."""
    word = _norm(word)
    for ending in sorted(_ENDINGS.get(lang, _ENDINGS["en"]), key=len, reverse=True):
        if word.endswith(ending) and len(word) - len(ending) >= MIN_PART:
            return word[: -len(ending)]
    return word


def _roots(word: str, lang: str) -> set[str]:
    """The stems a word may be known by: with and without a Russian prefix."""
    roots = set()
    for part in word.split("-"):
        base = stem(part, lang)
        roots.add(base)
        if lang == "ru":
            for prefix in _RU_PREFIXES:
                if base.startswith(prefix) and len(base) - len(prefix) >= MIN_PART:
                    roots.add(base[len(prefix) :])
    return roots


def _shared(a: str, b: str) -> str | None:
    """The longest common part of `a` and `b`, if it has at least MIN_PART letters."""
    best = ""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] in b:
                best = a[i:j]
            else:
                break
    return best if len(best) >= MIN_PART else None


def _only_an_ending(part: str, head: str, lang: str) -> bool:
    """Is `part` no more than the ending of `head` ("tion" of *cunctation*)?"""
    return any(head.endswith(e) and part in e for e in _ENDINGS.get(lang, _ENDINGS["en"]))


def giveaway(word: str, text: str, lang: str) -> str | None:
    """The part of `word` that `text` repeats (e.g. "geograph"), or None.

    The headword is looked at whole as well as by its stem: greedy endings can cut a compound
    short (*paleogeography* stems to "paleoge", but "geograph" is in it whole); a part that is
    only the whole word's ending does not count."""
    heads: set[tuple[str, bool]] = set()
    for part in _WORD.findall(word):
        heads |= {(root, False) for root in _roots(part, lang)}
        heads |= {(_norm(piece), True) for piece in part.split("-")}
    for found in _WORD.findall(text):
        for root in _roots(found, lang):
            for head, whole in heads:
                part = _shared(head, root)
                if part and not (whole and _only_an_ending(part, head, lang)):
                    return part
    return None
