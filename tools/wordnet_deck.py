"""Generate the English Tesauro dictionary deck from the WordNet 3.0 database files.

Tesauro needs rare but real words, each with its true, dictionary-style definition and one of the
game's nine categories. This script mines them from the plain-text WordNet 3.0 database shipped
by Debian's ``wordnet-base`` package (``/usr/share/wordnet``) and writes
``games/tesauro/content/en.toml``, plus ``WORDNET-LICENSE`` next to it: the WordNet licence asks
for its text to accompany every copy of the data.

Usage::

    python tools/wordnet_deck.py [--wordnet /usr/share/wordnet] [-o games/tesauro/content/en.toml]

Add ``-v`` to print how many candidates survive each stage.

Pipeline:

1. **Shape** — ``index.noun`` lemmas of 5–16 letters ``a``–``z`` (no ``_``, space, hyphen or
   digit), spelt all lowercase in the synset itself (no proper nouns), not a known WordNet typo.
2. **One meaning** — exactly one noun sense, and absent from ``index.verb``, ``index.adj`` and
   ``index.adv``.
3. **Rare** — tag count 0 (the sense never occurs in the SemCor-tagged corpus: ``index.sense`` when
   the database has it, else ``cntlist.rev``, which is what Debian ships); the lemma is used in no
   other synset's gloss; no synonym of the synset is tagged or used in other glosses either (a
   variant spelling of a familiar word is not rare); not in ``FAMILIAR_WORDS``.
4. **Not guessable** — no transparent compound of two WordNet words (``tooth`` + ``paste``) or of
   a metric prefix and a word (``pico`` + ``meter``), no noun derived from a verb, adjective or
   adverb (WordNet's ``+`` pointer: ``loquaciousness``) or made of another WordNet word and a
   noun suffix (``topical`` + ``ity``, ``alpine`` + ``ist``).
5. **Kind** — no instance (``@i``), no taxon, chemical, drug or element (``EXCLUDED_ANCESTORS``),
   nothing from an excluded topic or usage domain (slurs, obscenities, terrorism, Bible names),
   no word from ``BLOCKED_WORDS``, and a category must be found (step 7).
6. **Gloss** — cleaned (examples dropped, leading domain labels removed, capitalised, final
   period); rejected if it is only a cross-reference ("a genus of ...", "any of ...", "a member
   of the ... people", "short for ..."), names a Latin taxon or a trade name, contains the word or
   its first five letters, contains a blocked word, or is shorter than 30 / longer than 220
   characters.
7. **Category** — see ``category_of``: the entry's own topic domain (``;c`` pointer) first; for
   plants, animals, foods and body parts their lexicographer file; medical words in the gloss;
   the nearest hypernym named in ``CATEGORY_RULES``; the lexicographer file's default
   (``LEXFILE_CATEGORY``).
8. **Selection** — one word per synset and per definition; each category keeps its best
   ``--per-category`` entries ranked by ``gloss_score`` (how well the gloss reads as a dictionary
   line), then by the SHA-256 of the word (a fixed, seed-free shuffle), with at most
   ``MAX_PER_HYPERNYM`` entries sharing a direct hypernym (so no category fills up with minerals
   or winds) and no two words sharing their first ``PREFIX_LENGTH`` letters. A category that
   falls short is topped up by the others, round robin.
9. **Cards** — entries are paired so that the two entries of a card always come from different
   categories; the card order is shuffled with a fixed seed. The same WordNet gives the same file.

Only the Python standard library is used (and `games.tesauro.deck` for the category ids).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from games.tesauro.deck import CATEGORIES  # the nine tiles, in the rules' order

REPO = Path(__file__).resolve().parent.parent
DEFAULT_WORDNET = Path("/usr/share/wordnet")
DEFAULT_OUTPUT = REPO / "games" / "tesauro" / "content" / "en.toml"
DEFAULT_COPYRIGHT = Path("/usr/share/doc/wordnet-base/copyright")


#: Lexicographer file numbers → names. Used when the database has no ``lexnames`` file: Debian's
#: ``wordnet-base`` drops it, since the WordNet C library has this table compiled in.
LEXNAMES = {
    3: "noun.Tops",
    4: "noun.act",
    5: "noun.animal",
    6: "noun.artifact",
    7: "noun.attribute",
    8: "noun.body",
    9: "noun.cognition",
    10: "noun.communication",
    11: "noun.event",
    12: "noun.feeling",
    13: "noun.food",
    14: "noun.group",
    15: "noun.location",
    16: "noun.motive",
    17: "noun.object",
    18: "noun.person",
    19: "noun.phenomenon",
    20: "noun.plant",
    21: "noun.possession",
    22: "noun.process",
    23: "noun.quantity",
    24: "noun.relation",
    25: "noun.shape",
    26: "noun.state",
    27: "noun.substance",
    28: "noun.time",
}

#: Default category of each noun lexicographer file, used when neither the topic domain nor the
#: hypernym chain decides (``None``: such entries are dropped).
#:
#: ==================  ===========  ========================================================
#: lexicographer file  category     why
#: ==================  ===========  ========================================================
#: noun.food           food         foods and drinks
#: noun.plant          botany       plants, fungi, algae
#: noun.animal         zoology      animals (bacteria go to health by the hypernym chain)
#: noun.body           health       body parts, tissues, cells: anatomy is health's ground
#: noun.artifact       engineering  man-made objects: tools, devices, buildings, materials;
#:                                  instruments of music go to humanities, medical ones
#:                                  and clothes are moved by the hypernym chain
#: noun.shape          engineering  geometric figures are the draughtsman's vocabulary
#: noun.quantity       engineering  units and measures (money units go to society)
#: noun.location       earth        places, regions, points of an orbit
#: noun.object         earth        natural objects: landforms, clouds, stars
#: noun.phenomenon     earth        natural phenomena: winds, light, electricity
#: noun.process        earth        natural processes; bodily ones go to health
#: noun.substance      None         minerals, rocks and materials are kept by the hypernym
#:                                  chain; the rest is chemistry, which makes poor bluffs
#: noun.person         society      kinds of people: trades, roles, social types
#: noun.group          society      groupings of people: institutions, councils, classes
#: noun.possession     society      money, property, taxes: economics and law
#: noun.motive         society      drives and manias: psychology as a social science
#: noun.act            society      acts and practices: customs, crimes, pastimes, sport;
#:                                  surgery, rites, dances and arts are moved by the chain
#: noun.event          concepts     happenings and turns of fortune; natural ones are earth
#: noun.communication  humanities   language, writing, music, literature
#: noun.time           humanities   eras, anniversaries, canonical hours
#: noun.cognition      concepts     ideas, beliefs, methods (sciences go to their field)
#: noun.attribute      concepts     qualities
#: noun.feeling        concepts     emotions
#: noun.relation       concepts     relations
#: noun.state          concepts     states of affairs; illnesses go to health
#: noun.Tops           None         unique beginners are not words to play
#: ==================  ===========  ========================================================
LEXFILE_CATEGORY: dict[str, str | None] = {
    "noun.food": "food",
    "noun.plant": "botany",
    "noun.animal": "zoology",
    "noun.body": "health",
    "noun.artifact": "engineering",
    "noun.shape": "engineering",
    "noun.quantity": "engineering",
    "noun.location": "earth",
    "noun.object": "earth",
    "noun.phenomenon": "earth",
    "noun.process": "earth",
    "noun.substance": None,
    "noun.person": "society",
    "noun.group": "society",
    "noun.possession": "society",
    "noun.motive": "society",
    "noun.act": "society",
    "noun.event": "concepts",
    "noun.communication": "humanities",
    "noun.time": "humanities",
    "noun.cognition": "concepts",
    "noun.attribute": "concepts",
    "noun.feeling": "concepts",
    "noun.relation": "concepts",
    "noun.state": "concepts",
    "noun.Tops": None,
}


#: Lexicographer files that say plainly what an entry is: the hypernym chain may only move their
#: entries to health.
STRONG_LEXFILES = frozenset({"noun.food", "noun.plant", "noun.animal", "noun.body"})

#: Hypernyms of the microorganisms that WordNet files with animals but Tesauro plays as health.
GERMS = frozenset({"bacterium", "bacteria", "virus", "pathogen"})

#: Domains filed here name kinds of organisms, not fields of knowledge.
ORGANISM_LEXFILES = frozenset({"noun.Tops", "noun.animal", "noun.plant"})


def _keys(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Hypernym-chain rules, first match wins. A key is a lemma (``disease``) or, when the lemma is
#: ambiguous, a lemma qualified by its lexicographer file (``plant.Tops`` is the organism,
#: ``plant.artifact`` the factory). A rule matches an entry when one of its keys names the topic
#: domain of the entry (or of one of its hypernyms) — checked first — or one of its hypernyms.
CATEGORY_RULES: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "health",
        _keys(
            "disease illness ill_health disorder.state body_part animal_tissue surgical_incision "
            "infestation eye_condition biological_process symptom.state injury.state pathology "
            "allergy hypersensitivity_reaction physiological_state medical_procedure "
            "surgery.act surgery.cognition therapy.act medical_care medical_diagnosis "
            "diagnostic_procedure endoscopy radiography medical_instrument surgical_instrument "
            "health_professional medical_practitioner bodily_process body_process "
            "physiological_process calculus.object concretion body_substance hormone toxin "
            "bacterium bacteria virus pathogen medicine.cognition medical_science anatomy "
            "physiology dentistry obstetrics psychiatry immunology pharmacology epidemiology "
            "genetics embryology neurology radiology ophthalmology otology orthopedics virology "
            "microbiology bacteriology histology pregnancy"
        ),
    ),
    (
        "food",
        _keys(
            "food.Tops food.food foodstuff.food nutriment dish.food beverage cooking.act "
            "cookery cuisine"
        ),
    ),
    ("botany", _keys("plant.Tops fungus plant_part plant_organ plant_material botany tropism")),
    ("zoology", _keys("animal zoology ornithology entomology")),
    (
        "humanities",
        _keys(
            "art.act art.artifact art.communication fine_arts humanistic_discipline humanities "
            "music.communication music.cognition musical_composition musical_instrument "
            "dance.communication dancing literary_composition literature writing.communication "
            "language.communication linguistics grammar rhetoric prosody poetry drama "
            "religion theology mythology folklore legend history.cognition archeology antiquity "
            "middle_ages philosophy ethics heraldry architecture.cognition imaginary_being "
            "mythical_being spiritual_being deity rite religious_ceremony worship church_service "
            "canonical_hour artistic_movement decoration linguistic_process"
        ),
    ),
    (
        "earth",
        _keys(
            "avalanche landslide flood flow.event wave.event geological_process mineral "
            "rock.object rock.substance gem.substance ore.substance soil.substance "
            "soil.object geological_formation natural_elevation body_of_water wind.phenomenon "
            "weather atmospheric_phenomenon cloud.object celestial_body elementary_particle "
            "biotic_community earth_science geology meteorology astronomy cosmology "
            "physics.cognition chemistry.cognition natural_science"
        ),
    ),
    (
        "society",
        _keys(
            "social_science law.cognition law.group law.act jurisprudence military.group "
            "politics government economics finance commerce business sport.act game.act "
            "contest athletic_contest card_game board_game education monetary_unit coin "
            "clothing"
        ),
    ),
    (
        "engineering",
        _keys(
            "building_material alloy paper.substance fabric.artifact engineering.cognition "
            "technology.cognition computer_science electronics telecommunication "
            "computer programming photography unit_of_measurement instruction_execution "
            "data_processing cam_stroke"
        ),
    ),
    (
        "concepts",
        _keys(
            "mathematics logic.cognition statistics psychology mathematical_process number.quantity"
        ),
    ),
)

#: Medical words that send an otherwise unplaced entry (surgery, examinations, instruments) to
#: health.
HEALTH_GLOSS = re.compile(
    r"\b(?:surgical|surgery|diseases?|medical|patients?|therapy|diagnos[ie]s|diagnostic"
    r"|symptoms?|inflammation|infection|tumou?rs?|clinical|physician|stethoscope|puberty"
    r"|blood|skin|cells?|tissues?|abnormal|abnormally|medicine|x ?rays?|veins?|cornea|retina"
    r"|eyes?|inoculat\w*|vaccin\w*|pain|ovary|teeth|forehead)\b",
    re.IGNORECASE,
)

#: Body parts of animals other than us.
ZOOLOGY_GLOSS = re.compile(
    r"\b(?:insects?|arthropods?|flies|fish(?:es)?|birds?|mollusks?|crustaceans?|ruminants?"
    r"|reptiles?|spiders?|worms?|beetles?|animals?)\b",
    re.IGNORECASE,
)

#: Entries under these hypernyms (or any ``..._drug``) are not played: taxonomy, chemistry and
#: pharmacy lists.
EXCLUDED_ANCESTORS = _keys(
    "taxonomic_group taxon biological_group chemical_compound compound.substance "
    "chemical_element drug medication acid.substance salt.substance ester alkaloid "
    "hydrocarbon protein enzyme antibiotic organic_compound chemical.substance atom "
    "isotope nucleotide amino_acid vitamin chemical_group alcohol.substance large_integer"
)

#: Topic or usage domains (``;c``, ``;u`` pointers) whose words are not played.
EXCLUDED_DOMAINS = _keys(
    "ethnic_slur obscenity vulgarism disparagement derogation dirty_word terrorism "
    "old_testament new_testament bible apocrypha trademark"
)

#: Offensive, grim or embarrassing words: neither played nor allowed in a definition.
BLOCKED_WORDS = _keys(
    "anal anus bastard bitch brothel buttocks castration coitus copulation defecate defecation "
    "erotic excrement feces faeces fornication foreskin genital genitals harlot heterosexual "
    "homosexual incest intercourse lesbian masturbation negro nazi orgasm penis pornography "
    "prostitute prostitution rape scrotum semen sex sexual sexually slur smegma sodomy testicle "
    "testicles urine vagina vulva whore offensive derogatory disparaging obscene vulgar racist "
    "race races racial suicide torture genocide terrorism terrorist terrorists guerrilla "
    "guerrillas guerilla jihad persecution cannibalism"
)

#: Everyday words that WordNet's tag counts cannot tell from rare ones (SemCor is a small corpus
#: of 1960s prose: it never met a latte or a camcorder). Found by reading the generated deck.
FAMILIAR_WORDS = _keys(
    # food
    "babka baklava beignet bisque blini bouillabaisse brioche cannelloni cappuccino challah "
    "chapatti chipotle compote croissant crouton crudites crumpet decaf enchilada gazpacho "
    "gnocchi goulash grits guacamole langoustine latke latte muesli nacho oolong pastrami "
    "pekoe phyllo polenta popsicle praline profiterole prosciutto quesadilla radicchio "
    "ratatouille ravioli ricotta risotto romaine saltine samosa sorbet strudel succotash "
    "sundae tabbouleh tapenade teriyaki tiramisu vichyssoise zabaglione "
    # plants and animals
    "avocet chanterelle jacaranda kookaburra palomino shiitake stoat talon "
    # things
    "bazooka camcorder cenotaph derringer dinette doily dongle espadrille futon hookah "
    "solarium thermos velodrome "
    # people and society
    "balaclava boffin consultancy cyborg ecotourism edutainment forensics grabber kleptomania "
    "kleptomaniac lotto mascot matchup misfit naysayer nutter ombudsman phonics plebiscite "
    "softy telecommuting telemarketing tiara tiddlywinks townie uptick vendetta "
    # arts, ideas, earth, health
    "balalaika biodiversity blahs bravura bylaw caldera caret decal doppelganger figment "
    "gulch hyperglycemia ideogram infomercial kazoo mastectomy scoliosis stalactite "
    "stalagmite talkie taxidermy telefilm triage werewolf"
)

#: Misspellings in the WordNet 3.0 database (the real words are formyl, gastrotomy, crocoite).
KNOWN_TYPOS = _keys("foryml gastromy crocolite")

#: Leading gloss labels that make the entry a cross-reference rather than a definition.
REJECTED_LABELS = frozenset(
    {
        "old testament",
        "new testament",
        "bible",
        "biblical",
        "trademark",
    }
)

#: Gloss openings that only point elsewhere ("a genus of ...") or name a people.
REJECTED_OPENINGS = re.compile(
    r"^(?:a |an |the |one of |any |one |some )?"
    r"(?:genus|subgenus|family|subfamily|order|suborder|class|subclass|phylum|subphylum"
    r"|division|subdivision|tribe|species|variety of|member|members|native|inhabitant"
    r"|former name|name|abbreviation|common name|alternative name|short for|(?:any|one) of)\b",
    re.IGNORECASE,
)

#: A Latin taxon named inside the gloss ("bird of the genus Ara") makes it a taxonomy entry.
TAXON_IN_GLOSS = re.compile(
    r"\b(?:genus|subgenus|family|subfamily|order|suborder|class|subclass|phylum|tribe)"
    r"\s+[A-Z][a-z]+"
)

#: Things a gloss must not contain at all.
REJECTED_GLOSS = re.compile(
    r"trade ?name|trademark|\bbrand\b|formerly called|\bsee\b|\bsyn\.|\bcf\.|\bvar\."
    r"|short for|by shortening|abbreviation|in combination",
    re.IGNORECASE,
)

#: A gloss that starts like this is a fragment, not a definition ("Used also in ...").
FRAGMENT_OPENING = re.compile(
    r"^(?:used|involving|after|being|having|occurring|secreted|eaten|made|considered|presumably"
    r"|intermediate)\b",
    re.IGNORECASE,
)

#: Group glosses ("Salamanders found near cold streams") read badly for a singular word.
PLURAL_OPENING = re.compile(r"^(?:[\w-]+ ){0,3}?[\w-]*(?:[^s]s|ae|ia|ata)\b")
NOT_PLURAL = _keys("is has was its this as us gas yes thus plus bus less ss")

WORD_SHAPE = re.compile(r"[a-z]{5,16}")
MIN_GLOSS, MAX_GLOSS = 30, 220
#: Shortest part counted when testing for a transparent compound (``tooth`` + ``paste``).
MIN_COMPOUND_PART = 3
#: Prefixes of metric and CGS units: ``picometer`` and ``abohm`` are as guessable as a compound.
METRIC_PREFIXES = _keys(
    "yotta yocto zetta zepto exa atto peta femto tera pico giga nano mega micro kilo milli "
    "hecto centi deka deca deci ab stat"
)
#: Noun suffixes that make a word from another one, with the endings the other word may have
#: instead (``combust|ibility`` ← ``combustible``, ``ethnocentr|ism`` ← ``ethnocentric``).
DERIVATION_SUFFIXES = (
    ("ness", ("",)),
    ("ability", ("able",)),
    ("ibility", ("ible",)),
    ("icity", ("ic",)),
    ("ity", ("", "e")),
    ("ism", ("", "e", "y", "ic", "ical")),
    ("ist", ("", "e", "y", "ic", "ism")),
    ("ation", ("", "e", "ate")),
    ("ment", ("",)),
    ("ship", ("",)),
    ("hood", ("",)),
)
#: Shortest stem left once a suffix is removed.
MIN_STEM = 4
#: Selected words may not share their first letters (``pyromania``, ``pyromaniac``).
PREFIX_LENGTH = 6
#: At most this many selected entries of a category may share a direct hypernym.
MAX_PER_HYPERNYM = 2
SHUFFLE_SEED = 20061200  # fixed: the card order never changes between runs

LICENSE_SUMMARY = (
    "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Used under the "
    "WordNet 3.0 licence: permission to use, copy, modify and distribute for any purpose and "
    "without fee, provided the copyright notice, statements and disclaimer appear on all copies. "
    'THE DATABASE IS PROVIDED "AS IS" WITHOUT WARRANTIES OF ANY KIND. '
    "(see games/tesauro/content/WORDNET-LICENSE)"
)


# --------------------------------------------------------------------------- reading WordNet


@dataclass
class Synset:
    """One synset of ``data.noun``: what the filters need of it."""

    offset: str
    lexname: str
    words: list[tuple[str, int]]  # (word as spelt in the synset, lexical id)
    pointers: list[tuple[str, str, str]]  # (symbol, target offset, target part of speech)
    gloss: str

    def targets(self, *symbols: str) -> list[str]:
        """Offsets of the noun synsets this one points to with one of ``symbols``."""
        return [t for s, t, pos in self.pointers if s in symbols and pos == "n"]


def data_lines(path: Path) -> Iterator[str]:
    """Lines of a WordNet ``index.*``/``data.*`` file, without the licence header."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("  "):
                yield line.rstrip("\n")


def read_lexnames(wordnet: Path) -> dict[int, str]:
    """The ``lexnames`` table if the database ships it, else the built-in one."""
    path = wordnet / "lexnames"
    if not path.exists():
        return dict(LEXNAMES)
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 2:
            table[int(parts[0])] = parts[1]
    return table


def read_index(path: Path) -> dict[str, tuple[int, list[str]]]:
    """``index.<pos>``: lemma → (number of senses, synset offsets)."""
    index = {}
    for line in data_lines(path):
        parts = line.split()
        synset_cnt, p_cnt = int(parts[2]), int(parts[3])
        index[parts[0]] = (synset_cnt, parts[6 + p_cnt :])
    return index


def read_data(path: Path, lexnames: dict[int, str]) -> dict[str, Synset]:
    """``data.<pos>``: offset → synset."""
    synsets = {}
    for line in data_lines(path):
        head, _, gloss = line.partition(" | ")
        parts = head.split()
        offset, lexnum, w_cnt = parts[0], int(parts[1]), int(parts[3], 16)
        words = [(parts[4 + 2 * i], int(parts[5 + 2 * i], 16)) for i in range(w_cnt)]
        at = 4 + 2 * w_cnt
        pointers = [
            (parts[at + 1 + 4 * i], parts[at + 2 + 4 * i], parts[at + 3 + 4 * i])
            for i in range(int(parts[at]))
        ]
        synsets[offset] = Synset(offset, lexnames.get(lexnum, ""), words, pointers, gloss.strip())
    return synsets


def read_tag_counts(wordnet: Path) -> dict[str, int]:
    """Sense key → SemCor tag count, from ``index.sense`` or else ``cntlist.rev``."""
    counts: dict[str, int] = {}
    index_sense = wordnet / "index.sense"
    if index_sense.exists():
        for line in index_sense.read_text(encoding="utf-8").splitlines():
            key, _offset, _sense, count = line.split()
            counts[key] = int(count)
        return counts
    for line in (wordnet / "cntlist.rev").read_text(encoding="utf-8").splitlines():
        key, _sense, count = line.split()
        counts[key] = int(count)
    return counts


def gloss_mentions(wordnet: Path) -> dict[str, set[str]]:
    """Lowercase word → ``pos:offset`` of every gloss (all parts of speech) that uses it."""
    mentions: dict[str, set[str]] = defaultdict(set)
    for pos in ("noun", "verb", "adj", "adv"):
        for line in data_lines(wordnet / f"data.{pos}"):
            head, _, gloss = line.partition(" | ")
            where = f"{pos}:{head[:8]}"
            for word in set(re.findall(r"[a-z]+(?:_[a-z]+)*", gloss.lower())):
                mentions[word].add(where)
    return mentions


class WordNet:
    """The parts of the WordNet database the deck needs."""

    def __init__(self, path: Path) -> None:
        self.lexnames = read_lexnames(path)
        self.lexnum = {name: num for num, name in self.lexnames.items()}
        self.nouns = read_index(path / "index.noun")
        self.other_pos = set()
        for pos in ("verb", "adj", "adv"):
            self.other_pos.update(read_index(path / f"index.{pos}"))
        self.synsets = read_data(path / "data.noun", self.lexnames)
        self.tags = read_tag_counts(path)
        self.mentions = gloss_mentions(path)

    def sense_key(self, word: str, lex_id: int, synset: Synset) -> str:
        return f"{word.lower()}%1:{self.lexnum[synset.lexname]:02d}:{lex_id:02d}::"

    def is_familiar(self, word: str, lex_id: int, synset: Synset) -> bool:
        """Tagged in SemCor, or used in the gloss of another synset."""
        if self.tags.get(self.sense_key(word, lex_id, synset), 0):
            return True
        used_in = self.mentions.get(word.lower(), set()) - {f"noun:{synset.offset}"}
        return bool(used_in)

    def own_keys(self, offset: str) -> set[str]:
        """A synset's lemmas, bare and qualified by lexicographer file (``plant.Tops``)."""
        synset = self.synsets[offset]
        short = synset.lexname.split(".")[-1]
        lemmas = {w.lower() for w, _ in synset.words}
        return lemmas | {f"{lemma}.{short}" for lemma in lemmas}

    def levels(self, offsets: list[str]) -> list[frozenset[str]]:
        """Keys of ``offsets``, then of their hypernyms, then of theirs ..., level by level."""
        levels = []
        seen: set[str] = set()
        frontier = sorted(set(offsets))
        while frontier:
            seen.update(frontier)
            levels.append(frozenset().union(*(self.own_keys(o) for o in frontier)))
            parents = {t for o in frontier for t in self.synsets[o].targets("@", "@i")}
            frontier = sorted(parents - seen)
        return levels

    def ancestors(self, offset: str) -> list[frozenset[str]]:
        """Keys of the hypernyms of a synset, nearest first."""
        return self.levels(self.synsets[offset].targets("@", "@i"))

    def domains(self, offset: str, symbols: tuple[str, ...] = (";c",)) -> list[frozenset[str]]:
        """Keys of a synset's topic (``;c``) or usage (``;u``) domains, then of their hypernyms.

        Domains that are kinds of organism (``homo``, ``plant``: lexicographer files in
        ``ORGANISM_LEXFILES``) are left out: they say what a word is about, not its field.
        """
        targets = self.synsets[offset].targets(*symbols)
        return self.levels([t for t in targets if self.synsets[t].lexname not in ORGANISM_LEXFILES])


# --------------------------------------------------------------------------- glosses


def clean_gloss(gloss: str) -> tuple[str, str | None]:
    """Return (definition, rejection reason or None)."""
    text = re.split(r';\s*"|^"', gloss, maxsplit=1)[0]
    text = re.sub(r'\s+"[^"]*"\s*$', "", text)  # an example without a semicolon before it
    text = text.strip().rstrip(";:,").strip()
    while match := re.match(r"\(([^()]*)\)\s*", text):
        if match.group(1).strip().lower() in REJECTED_LABELS:
            return text, "cross-reference"
        text = text[match.end() :]
    if not text:
        return text, "gloss length"
    text = re.sub(r"\s+", " ", text)
    text = text[0].upper() + text[1:]
    if text[-1] not in ".?!":
        text += "."
    return text, None


def gloss_problem(word: str, definition: str) -> str | None:
    """Why a cleaned definition is unfit, or None."""
    lower = definition.lower()
    if not MIN_GLOSS <= len(definition) <= MAX_GLOSS:
        return "gloss length"
    if REJECTED_OPENINGS.match(definition) or FRAGMENT_OPENING.match(definition):
        return "cross-reference"
    if TAXON_IN_GLOSS.search(definition) or REJECTED_GLOSS.search(definition):
        return "taxon or trade name"
    if word in lower or word[:5] in lower:
        return "gives the word away"
    if set(re.findall(r"[a-z]+", lower)) & BLOCKED_WORDS:
        return "offensive"
    return None


def gloss_score(word: str, definition: str) -> int:
    """How well a definition reads as a dictionary line; higher is better."""
    score = 0
    length = len(definition)
    if 55 <= length <= 120:  # one breath to read aloud, enough to picture the thing
        score += 4
    elif 45 <= length <= 140:
        score += 3
    elif length <= 170:
        score += 1
    score -= 2 * definition.count("(")
    score -= 2 * definition.count(";")
    score -= 2 * bool(re.search(r"\d", definition))
    score -= 2 * bool(re.search(r"\be\.g\.|\bi\.e\.|\betc\b", definition))
    score -= len(re.findall(r"(?<!^)\b[A-Z][a-z]+", definition))  # proper names
    score -= bool(re.match(r"(?:A|An|The) (?:act|state|quality|property) of\b", definition))
    opening = PLURAL_OPENING.match(definition.lower())
    if opening and not word.endswith("s") and opening.group().split()[-1] not in NOT_PLURAL:
        score -= 2
    return score


# --------------------------------------------------------------------------- selection


@dataclass
class Entry:
    """A playable word."""

    word: str
    category: str
    definition: str
    synset: str
    hypernym: str
    score: int = 0
    tiebreak: str = field(default="", repr=False)


@dataclass
class Stats:
    """Survivors at each filter stage, in order, and the reasons for rejection."""

    stages: dict[str, int] = field(default_factory=dict)
    rejections: Counter[str] = field(default_factory=Counter)


def is_compound(word: str, vocabulary: set[str]) -> bool:
    """``word`` splits into two WordNet words (``tooth`` + ``paste``), or is a unit with a metric
    prefix (``deci`` + ``liter``)."""
    if any(word.startswith(p) and word[len(p) :] in vocabulary for p in METRIC_PREFIXES):
        return True
    return any(
        word[:i] in vocabulary and word[i:] in vocabulary
        for i in range(MIN_COMPOUND_PART, len(word) - MIN_COMPOUND_PART + 1)
    )


def nearest_rule(levels: list[frozenset[str]]) -> str | None:
    """Category of the nearest level that a ``CATEGORY_RULES`` entry matches (first rule wins)."""
    for keys in levels:
        for category, rule in CATEGORY_RULES:
            if keys & rule:
                return category
    return None


def is_derived(word: str, vocabulary: set[str]) -> bool:
    """``word`` is another WordNet word plus a noun suffix (``topical`` + ``ity``)."""
    for suffix, endings in DERIVATION_SUFFIXES:
        stem = word.removesuffix(suffix)
        if stem != word and len(stem) >= MIN_STEM and any(stem + e in vocabulary for e in endings):
            return True
    return False


def category_of(wn: WordNet, synset: Synset, definition: str) -> str | None:
    """Game category of an entry, from the most to the least specific evidence.

    1. its own topic domain (``;c``: ``vernation`` is botany), unless the domain is a kind of
       organism (``homo``, ``plant``), which says nothing about the field;
    2. for plants, animals, foods and body parts, the lexicographer file — except that germs
       filed under animals are health and body parts of animals are zoology;
    3. medical words in the gloss (surgery, examinations, instruments ...);
    4. the nearest hypernym that a ``CATEGORY_RULES`` entry names;
    5. the lexicographer file's default (``LEXFILE_CATEGORY``).
    """
    default = LEXFILE_CATEGORY.get(synset.lexname)
    ancestors = wn.ancestors(synset.offset)
    if category := nearest_rule(wn.domains(synset.offset)):
        return category
    if synset.lexname == "noun.body" and ZOOLOGY_GLOSS.search(definition):
        return "zoology"
    if synset.lexname in STRONG_LEXFILES:
        return "health" if any(keys & GERMS for keys in ancestors) else default
    if default is not None and HEALTH_GLOSS.search(definition):
        return "health"
    return nearest_rule(ancestors) or default


def candidates(wn: WordNet, stats: Stats) -> list[Entry]:
    """Every entry that passes the filters, with its category and score."""
    stats.stages["index.noun lemmas"] = len(wn.nouns)
    vocabulary = set(wn.nouns) | wn.other_pos

    pool = []
    for lemma, (sense_cnt, offsets) in sorted(wn.nouns.items()):
        if not WORD_SHAPE.fullmatch(lemma) or lemma in KNOWN_TYPOS:
            continue
        synset = wn.synsets[offsets[0]]
        spelt = [(w, lex_id) for w, lex_id in synset.words if w == lemma]
        if spelt:  # spelt exactly so: lowercase, no adjective marker
            pool.append((lemma, sense_cnt, synset, spelt[0][1]))
    stats.stages["single lowercase word of 5-16 letters"] = len(pool)

    pool = [p for p in pool if p[1] == 1 and p[0] not in wn.other_pos]
    stats.stages["one sense, noun only"] = len(pool)

    pool = [p for p in pool if not wn.tags.get(wn.sense_key(p[0], p[3], p[2]), 0)]
    stats.stages["tag count 0"] = len(pool)

    def familiar(lemma: str, synset: Synset, lex_id: int) -> bool:
        return (
            any(w.lower() in FAMILIAR_WORDS for w, _ in synset.words)
            or wn.is_familiar(lemma, lex_id, synset)
            or any(wn.is_familiar(w, i, synset) for w, i in synset.words if w != lemma)
        )

    pool = [p for p in pool if not familiar(p[0], p[2], p[3])]
    stats.stages["word and synonyms unused in other glosses"] = len(pool)

    def guessable(lemma: str, synset: Synset) -> bool:
        return (
            is_compound(lemma, vocabulary)
            or is_derived(lemma, vocabulary)
            or any(sym == "+" and pos in "vasr" for sym, _, pos in synset.pointers)
        )

    pool = [p for p in pool if not guessable(p[0], p[2])]
    stats.stages["not a compound or derived word"] = len(pool)

    entries = []
    for lemma, _, synset, _ in pool:
        definition, problem = clean_gloss(synset.gloss)
        ancestors = frozenset().union(*wn.ancestors(synset.offset))
        domains = frozenset().union(*wn.domains(synset.offset, (";c", ";u")))
        if synset.targets("@i"):
            problem = "instance"
        elif (
            ancestors & EXCLUDED_ANCESTORS
            or any(key.endswith("drug") for key in ancestors)
            or synset.lexname == "noun.Tops"
        ):
            problem = "taxon, chemical or drug"
        elif domains & EXCLUDED_DOMAINS or lemma in BLOCKED_WORDS:
            problem = "offensive"
        problem = problem or gloss_problem(lemma, definition)
        category = None if problem else category_of(wn, synset, definition)
        if problem or category is None:
            stats.rejections[problem or "no category"] += 1
            continue
        hypernyms = synset.targets("@", "@i")
        entries.append(
            Entry(
                word=lemma,
                category=category,
                definition=definition,
                synset=synset.offset,
                hypernym=hypernyms[0] if hypernyms else "",
                score=gloss_score(lemma, definition),
                tiebreak=hashlib.sha256(lemma.encode()).hexdigest(),
            )
        )
    stats.stages["kind, gloss and category"] = len(entries)

    # One word per meaning: the synset's first candidate word, and one entry per definition.
    by_synset: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_synset[entry.synset].append(entry)
    seen: set[str] = set()
    unique = []
    for entry in entries:
        order = [w.lower() for w, _ in wn.synsets[entry.synset].words]
        first = min(by_synset[entry.synset], key=lambda e: order.index(e.word))
        if first is entry and entry.definition.lower() not in seen:
            seen.add(entry.definition.lower())
            unique.append(entry)
    stats.stages["one word per meaning"] = len(unique)
    return unique


def select(entries: list[Entry], per_category: int) -> list[Entry]:
    """Best ``per_category`` entries of each category; shortfalls topped up round robin."""
    ranked: dict[str, list[Entry]] = {c: [] for c in CATEGORIES}
    used: Counter[tuple[str, str]] = Counter()
    prefixes: set[str] = set()
    for entry in sorted(entries, key=lambda e: (-e.score, e.tiebreak)):
        key = (entry.category, entry.hypernym)
        if used[key] < MAX_PER_HYPERNYM and entry.word[:PREFIX_LENGTH] not in prefixes:
            used[key] += 1
            prefixes.add(entry.word[:PREFIX_LENGTH])
            ranked[entry.category].append(entry)
    chosen = {c: ranked[c][:per_category] for c in CATEGORIES}
    missing = sum(per_category - len(v) for v in chosen.values())
    while missing > 0:
        progressed = False
        for category in CATEGORIES:
            if missing and len(ranked[category]) > len(chosen[category]):
                chosen[category].append(ranked[category][len(chosen[category])])
                missing -= 1
                progressed = True
        if not progressed:
            break
    return [e for c in CATEGORIES for e in chosen[c]]


def pair(entries: list[Entry]) -> list[tuple[Entry, Entry]]:
    """Pair entries into cards whose two entries come from different categories.

    Greedy: always pair the two categories with the most entries left, which never gets stuck
    while no category holds more than half the entries. An odd entry out is dropped.
    """
    piles: dict[str, list[Entry]] = defaultdict(list)
    for entry in sorted(entries, key=lambda e: e.tiebreak):
        piles[entry.category].append(entry)
    cards = []
    while True:
        order = sorted(
            (c for c in CATEGORIES if piles[c]),
            key=lambda c: (-len(piles[c]), CATEGORIES.index(c)),
        )
        if len(order) < 2:
            break
        cards.append((piles[order[0]].pop(), piles[order[1]].pop()))
    rng = random.Random(SHUFFLE_SEED)
    rng.shuffle(cards)
    return [(a, b) if rng.random() < 0.5 else (b, a) for a, b in cards]


# --------------------------------------------------------------------------- output


def toml_string(text: str) -> str:
    """A TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
    return f'"{escaped}"'


def toml_entry(entry: Entry) -> str:
    return (
        f"{{ word = {toml_string(entry.word)}, category = {toml_string(entry.category)}, "
        f"definition = {toml_string(entry.definition)} }}"
    )


def render(cards: list[tuple[Entry, Entry]]) -> str:
    """The deck file."""
    lines = [
        "# Tesauro — English dictionary, generated by tools/wordnet_deck.py from WordNet 3.0.",
        "# Do not edit by hand: rerun the script. "
        "Licence: see the [deck] license field / WORDNET-LICENSE.",
        "",
        "[deck]",
        'lang = "en"',
        'name = "WordNet rarities"',
        'source = "WordNet 3.0 (Princeton University), Debian package wordnet-base"',
        f"license = {toml_string(LICENSE_SUMMARY)}",
    ]
    for first, second in cards:
        lines += ["", "[[card]]", f"first = {toml_entry(first)}", f"second = {toml_entry(second)}"]
    return "\n".join(lines) + "\n"


def license_text(copyright_file: Path) -> str:
    """The WordNet licence paragraph of a Debian ``copyright`` file, unfolded."""
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("License: WordNet"))
    copyright_line = next(line for line in reversed(lines[:start]) if line.startswith("Copyright:"))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    header = [
        "The Tesauro English deck (en.toml) is derived from the WordNet 3.0 database",
        "and is distributed under the WordNet 3.0 licence below, as shipped by Debian's",
        f"wordnet-base package ({copyright_file}).",
        "",
        copyright_line,
        "",
    ]
    return "\n".join(header + body).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_WORDNET, help="database dir")
    parser.add_argument("-o", "--output", type=Path, default=DEFAULT_OUTPUT, help="deck file")
    parser.add_argument(
        "--copyright", type=Path, default=DEFAULT_COPYRIGHT, help="Debian copyright file"
    )
    parser.add_argument("--per-category", type=int, default=46, help="entries per category")
    parser.add_argument("-v", "--verbose", action="store_true", help="print filter figures")
    args = parser.parse_args(argv)

    stats = Stats()
    entries = candidates(WordNet(args.wordnet), stats)
    available = Counter(e.category for e in entries)
    cards = pair(select(entries, args.per_category))
    used = Counter(e.category for card in cards for e in card)

    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(render(cards), encoding="utf-8")
    licence = args.output.parent / "WORDNET-LICENSE"
    licence.write_text(license_text(args.copyright), encoding="utf-8")

    if args.verbose:
        for name, count in stats.stages.items():
            print(f"{count:7d}  {name}", file=sys.stderr)
        for reason, count in stats.rejections.most_common():
            print(f"         rejected {count:5d}  {reason}", file=sys.stderr)
        for category in CATEGORIES:
            line = f"{category:>12}: {used[category]:3d} of {available[category]:4d}"
            print(line, file=sys.stderr)
    print(f"{len(cards)} cards, {2 * len(cards)} entries -> {args.output}", file=sys.stderr)
    short = [c for c in CATEGORIES if used[c] < 25]
    if short or len(cards) < 200:
        print(f"too few entries: {short or len(cards)} cards", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
