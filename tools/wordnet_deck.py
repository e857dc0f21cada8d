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
   no word from ``BLOCKED_WORDS`` or ``REJECTED_WORDS``, and a category must be found (step 7).
6. **Gloss** — a dictionary line, not an encyclopedia entry: examples, leading domain labels,
   encyclopedic asides in parentheses and, when the first clause stands alone, what follows a
   semicolon are dropped; capitalised, final period. Rejected if it has a known slip
   (``GLOSS_TYPOS``), is only a cross-reference ("a genus of ...", "any of ...", "a member of the
   ... people", "short for ..."), talks about the word instead of defining it ("Literally, ...",
   "Informal ...", "Used ...", "A term for ...", "An archaic term for ...": ``META_OPENING``),
   speaks to "you", is a sentence ("The first pillar of Islam is ..."), names a Latin taxon or a
   trade name, contains the word or its first five letters, contains a blocked word, or is
   shorter than 30 / longer than 160 characters.
7. **Category** — see ``category_of``: ``CATEGORY_OVERRIDES`` (placed by hand); for foods,
   plants, animals, body parts, made things and people their lexicographer file, which only
   specific evidence may change (``LEXFILE_MOVES``); the entry's own topic domain (``;c``
   pointer); medical words in the gloss; the nearest hypernym named in ``CATEGORY_RULES``
   (biology placed by the subject of its gloss: ``life_science``); the lexicographer file's
   default (``LEXFILE_CATEGORY``). What each tile covers:

   ===========  ============================================================================
   category     covers
   ===========  ============================================================================
   food         dishes, drinks, ingredients, cooking (and dietetics)
   botany       plants, fungi, their parts, plant science and cultivation (forestry too)
   society      social sciences: law, economics, politics, trades and people's roles,
                customs, family and marriage, social groups, money, sport and games
   concepts     abstract notions: qualities, states, feelings, ideas, logic, mathematics
                (geometric figures, statistics too), time, quantity
   humanities   language, literature, rhetoric, art, music (instruments too), theatre,
                dance, religion, mythology, divination, history, philosophy
   engineering  made things: tools, machines, vehicles, weapons and armour, buildings and
                their parts, clothes, furniture, containers, fabrics; technology and applied
                science (mechanics, computing, printing), units and instruments of measurement
   earth        the physical world: geology, geography, minerals, rocks, soils, waters,
                weather, astronomy; physics and chemistry of nature
   health       medicine, diseases, the human body, remedies, psychology of disorders
                (manias, phobias, delusions); cells and reproduction; germs
   zoology      animals, their parts and behaviour, animal science
   ===========  ============================================================================

   General natural science: physics and chemistry are earth (``gluon``, ``pedesis``,
   ``oxidoreduction``), except mechanics (``kinematics``, ``pneumatics``), the engineer's physics.
   Biology goes by its subject: plants are botany (``silviculture``, ``parthenocarpy``); cells,
   gametes, reproduction and the human body are health (``isogamy``, ``dermatoglyphics``);
   animals and organisms in general — ecology, genetics, evolution, taxonomy — are zoology
   (``heterosis``, ``holotype``).
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

#: Default category of each noun lexicographer file, used when nothing more specific decides
#: (``None``: such entries are dropped).
#:
#: ==================  ===========  ========================================================
#: lexicographer file  category     why
#: ==================  ===========  ========================================================
#: noun.food           food         foods and drinks (only overrides move them)
#: noun.plant          botany       plants, fungi, algae (only overrides move them)
#: noun.animal         zoology      animals; germs filed here go to health
#: noun.body           health       body parts, tissues, cells; those of animals are zoology
#: noun.artifact       engineering  made things; musical instruments and works of art go to
#:                                  humanities, medical instruments to health (only by the
#:                                  hypernym chain and medical words: ``LEXFILE_MOVES``)
#: noun.person         society      kinds of people: trades, roles, social types; spirits and
#:                                  monsters are humanities, medical people health
#: noun.shape          concepts     geometric figures are mathematics
#: noun.quantity       concepts     amounts and numbers (units → engineering, money → society)
#: noun.time           concepts     periods and durations (canonical hours → humanities)
#: noun.location       earth        places, regions, points of an orbit
#: noun.object         earth        natural objects: landforms, clouds, stars
#: noun.phenomenon     earth        natural phenomena: winds, light, electricity
#: noun.process        earth        natural processes; bodily ones go to health
#: noun.substance      None         minerals, rocks and materials are kept by the hypernym
#:                                  chain; the rest is chemistry, which makes poor bluffs
#: noun.group          society      groupings of people: institutions, councils, classes
#: noun.possession     society      money, property, taxes: economics and law
#: noun.motive         concepts     drives and motives (manias are health, by the chain)
#: noun.act            society      acts and practices: customs, crimes, pastimes, sport;
#:                                  surgery, rites, dances and arts are moved by the chain
#: noun.event          concepts     happenings and turns of fortune; natural ones are earth
#: noun.communication  humanities   language, writing, music, literature
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
    "noun.person": "society",
    "noun.shape": "concepts",
    "noun.quantity": "concepts",
    "noun.time": "concepts",
    "noun.location": "earth",
    "noun.object": "earth",
    "noun.phenomenon": "earth",
    "noun.process": "earth",
    "noun.substance": None,
    "noun.group": "society",
    "noun.possession": "society",
    "noun.motive": "concepts",
    "noun.act": "society",
    "noun.event": "concepts",
    "noun.communication": "humanities",
    "noun.cognition": "concepts",
    "noun.attribute": "concepts",
    "noun.feeling": "concepts",
    "noun.relation": "concepts",
    "noun.state": "concepts",
    "noun.Tops": None,
}

#: Lexicographer files that say plainly what an entry is: the evidence may move their entries
#: only to these categories. Files not listed may go anywhere.
LEXFILE_MOVES: dict[str, frozenset[str]] = {
    "noun.food": frozenset(),
    "noun.plant": frozenset(),
    "noun.animal": frozenset({"health"}),  # germs
    "noun.body": frozenset({"zoology"}),  # by ZOOLOGY_GLOSS: parts of animals
    "noun.artifact": frozenset({"humanities", "health", "society", "botany"}),
    "noun.person": frozenset({"humanities", "health"}),
}

#: Of those, the files whose topic domain may only send an entry to health (``obstetrics``): a
#: chasuble is clothing whatever church wears it, a gambist a musician by trade.
CHAIN_ONLY_LEXFILES = frozenset({"noun.artifact", "noun.person"})

#: Hypernyms of the microorganisms that WordNet files with animals but Tesauro plays as health.
GERMS = frozenset({"bacterium", "bacteria", "virus", "pathogen"})

#: Domains filed here name kinds of organisms, not fields of knowledge.
ORGANISM_LEXFILES = frozenset({"noun.Tops", "noun.animal", "noun.plant"})


def _keys(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: A domain that is a language (``(Yiddish) a very unlucky person``) says where a word comes
#: from, not what it is about: such domains are ignored.
LANGUAGE_DOMAINS = _keys("natural_language language.communication")

#: Category-like rules, first match wins. A key is a lemma (``disease``) or, when the lemma is
#: ambiguous, a lemma qualified by its lexicographer file (``plant.Tops`` is the organism,
#: ``plant.artifact`` the factory). A rule matches an entry when one of its keys names the topic
#: domain of the entry (or of one of its hypernyms) — checked first — or one of its hypernyms, the
#: nearest level first. ``biology`` is not a tile: ``life_science`` places it by the gloss.
CATEGORY_RULES: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "health",
        _keys(
            "disease illness ill_health disorder.state body_part animal_tissue surgical_incision "
            "infestation eye_condition symptom.state injury.state pathology "
            "allergy hypersensitivity_reaction physiological_state medical_procedure "
            "surgery.act surgery.cognition therapy.act medical_care medical_diagnosis "
            "diagnostic_procedure endoscopy radiography medical_instrument surgical_instrument "
            "health_professional medical_practitioner bodily_process body_process "
            "physiological_process calculus.object concretion body_substance hormone toxin "
            "bacterium bacteria virus pathogen medicine.cognition medical_science anatomy "
            "physiology dentistry obstetrics psychiatry immunology pharmacology epidemiology "
            "embryology neurology radiology ophthalmology otology orthopedics virology "
            "microbiology bacteriology histology cytology pregnancy centesis palpation "
            "delusion hallucination mental_disorder irrational_motive sick_person "
            "cosmetic_surgery plastic_surgery pathologic_process infection handicapped_person "
            "massage roentgenogram"
        ),
    ),
    (
        "food",
        _keys(
            "food.Tops food.food foodstuff.food nutriment dish.food beverage cooking.act "
            "cookery cuisine"
        ),
    ),
    (
        "botany",
        _keys(
            "plant.Tops fungus plant_part plant_organ plant_material botany tropism forestry "
            "cultivation.act horticulture gardening"
        ),
    ),
    ("zoology", _keys("animal zoology ornithology entomology animal_husbandry")),
    (
        "biology",
        _keys(
            "biological_science biology bioscience life_science genetics ecology bionomics "
            "systematics taxonomy.cognition organic_phenomenon biological_process "
            "reproduction.process symbiosis"
        ),
    ),
    (
        "humanities",
        _keys(
            "art.act art.artifact art.communication fine_arts humanistic_discipline humanities "
            "music.communication music.cognition musical_composition musical_instrument "
            "dance.communication dancing literary_composition literature writing.communication "
            "language.communication linguistics grammar rhetoric prosody poetry drama "
            "religion theology mythology folklore legend history.cognition archeology "
            "philosophy ethics metaphysics heraldry imaginary_being mythical_being spiritual_being "
            "deity rite religious_ceremony worship church_service canonical_hour "
            "artistic_movement linguistic_process semantic_relation linguistic_relation "
            "grammatical_relation grammatical_category divination motif.cognition "
            "philosophical_doctrine religious_doctrine mysticism theatrical_performance writing.act"
        ),
    ),
    (
        "engineering",
        _keys(
            "building_material alloy paper.substance fabric.artifact engineering.cognition "
            "technology.cognition computer_science electronics telecommunication "
            "computer programming photography unit_of_measurement instruction_execution "
            "data_processing cam_stroke mechanics architecture clothing measurement.act "
            "printing_process"
        ),
    ),
    (
        "earth",
        _keys(
            "avalanche landslide flood flow.event wave.event geological_process mineral "
            "rock.object rock.substance gem.substance ore.substance soil.substance "
            "soil.object geological_formation natural_elevation body_of_water wind.phenomenon "
            "weather atmospheric_phenomenon cloud.object celestial_body elementary_particle "
            "earth_science geology meteorology astronomy cosmology geography biotic_community "
            "physics.cognition chemistry.cognition natural_science"
        ),
    ),
    (
        "society",
        _keys(
            "social_science law.cognition law.group law.act jurisprudence military.group "
            "politics government economics finance commerce business sport.act game.act "
            "contest athletic_contest card_game board_game education monetary_unit coin "
            "kinship family_relationship marital_status legal_status culture.cognition "
            "social_event rule_of_evidence legal_document"
        ),
    ),
    (
        "concepts",
        _keys(
            "mathematics logic.cognition statistics psychology mathematical_process number.quantity"
        ),
    ),
)

#: Words of a biology gloss that tell its subject (``life_science``): plants, then the body and
#: its cells, else animals and organisms in general.
PLANT_GLOSS = re.compile(
    r"\b(?:plants?|flowers?|flowering|leaf|leaves|trees?|shrubs?|fungi|fungus|fungal|algae"
    r"|seeds?|fruits?|fruiting|inflorescences?|mosses|ferns?|forests?|crops?|botan\w*)\b",
    re.IGNORECASE,
)
ANIMAL_GLOSS = re.compile(
    r"\b(?:animals?|insects?|fish(?:es)?|birds?|mammals?|reptiles?|worms?|vertebrates?"
    r"|invertebrates?|mollusks?|zoolog\w*)\b",
    re.IGNORECASE,
)
BODY_GLOSS = re.compile(
    r"\b(?:human|humans|cells?|cellular|gametes?|sperm|ovum|meiosis|mitosis|chromosomes?"
    r"|nucleus|tissues?|blood|organs?|body|bodies|embryos?|fetus|fingers?|fingertips|palms?"
    r"|hands?|feet|skin|disease|diseases|serum|antibod(?:y|ies)|immune|tooth|teeth)\b",
    re.IGNORECASE,
)

#: Medical words that send an otherwise unplaced entry (surgery, examinations, instruments) to
#: health, whatever its lexicographer file.
HEALTH_GLOSS = re.compile(
    r"\b(?:surgical|surgery|diseases?|medical|medicated|patients?|therapy|therapeutic"
    r"|diagnos[ie]s|diagnostic|symptoms?|inflammation|infection|tumou?rs?|clinical|physician"
    r"|stethoscope|inoculat\w*|vaccin\w*|x[- ]?rays?|medicine|inflammatory)\b",
    re.IGNORECASE,
)

#: Parts of the body that send an unplaced act, process, state or event to health (not a made
#: thing or a word: ``lorgnette``, ``labiodental``).
BODILY_GLOSS = re.compile(
    r"\b(?:puberty|blood|skin|cells?|tissues?|abnormal|abnormally|medicine|veins?|cornea|retina"
    r"|eyes?|pain|ovary|teeth|forehead|bones?|joints?|muscles?|nerves?|abdomen|fetus|uterus"
    r"|kidneys?|lungs?|spinal|skull|meiosis|mitosis|chromosomes?|gametes?|alimentary)\b",
    re.IGNORECASE,
)
BODILY_LEXFILES = frozenset(
    {
        "noun.act",
        "noun.process",
        "noun.state",
        "noun.attribute",
        "noun.event",
        "noun.phenomenon",
        "noun.feeling",
        "noun.cognition",
        "noun.location",
        "noun.object",
        "noun.shape",
    }
)

#: Body parts of animals other than us.
ZOOLOGY_GLOSS = re.compile(
    r"\b(?:insects?|arthropods?|flies|fish(?:es)?|birds?|mollusks?|crustaceans?|ruminants?"
    r"|reptiles?|spiders?|worms?|beetles?|animals?)\b",
    re.IGNORECASE,
)

#: Entries the rules above place wrongly, each read and placed by hand (word → category): found
#: by reading the deck and the best-scored candidates of every category, which a change of the
#: selection may bring in. Most are abstract words whose WordNet hypernym says little
#: (``haecceity`` is an "essence": it is philosophy), or things whose field is not their kind
#: (``herbarium`` is a "collection").
CATEGORY_OVERRIDES: dict[str, str] = {
    # humanities: philosophy, literature, religion, language, art: filed as ideas, states, acts
    "adoxography": "humanities",
    "asana": "humanities",
    "bilocation": "humanities",
    "eldorado": "humanities",
    "haecceity": "humanities",
    "hamartia": "humanities",
    "meliorism": "humanities",
    "monas": "humanities",
    "mudra": "humanities",
    "noumenon": "humanities",
    "organon": "humanities",
    "peripeteia": "humanities",
    "quattrocento": "humanities",
    "quodlibet": "humanities",
    "rubato": "humanities",
    "sabbat": "humanities",
    "scumble": "humanities",
    "sgraffito": "humanities",
    "sprachgefuhl": "humanities",
    "tetraskelion": "humanities",
    "theogony": "humanities",
    "theophany": "humanities",
    "triskelion": "humanities",
    "zoomorphism": "humanities",
    # society: law, economics, politics, customs and trades
    "archidiaconate": "society",
    "banns": "society",
    "cosmetology": "society",
    "durables": "society",
    "durance": "society",
    "euthenics": "society",
    "glasnost": "society",
    "intestacy": "society",
    "jobbery": "society",
    "messuage": "society",
    "novillada": "society",
    "populism": "society",
    "scrip": "society",
    # concepts: abstract notions filed as acts, things or medicine
    "ambages": "concepts",
    "biometrics": "concepts",
    "histogram": "concepts",
    "longueur": "concepts",
    "succedaneum": "concepts",
    "supererogation": "concepts",
    "whacker": "concepts",
    # health: the body, its disorders and medical instruments
    "acromyotonia": "health",
    "adynamia": "health",
    "agenesia": "health",
    "algometer": "health",
    "alopecia": "health",
    "angioscope": "health",
    "biosafety": "health",
    "chyme": "health",
    "ectomorphy": "health",
    "engram": "health",
    "juvenescence": "health",
    "mutagen": "health",
    "mutagenesis": "health",
    "myogram": "health",
    "oesophagoscope": "health",
    "oximeter": "health",
    "paraphrenia": "health",
    "pleximeter": "health",
    "sideropenia": "health",
    "sinapism": "health",
    "sonometer": "health",
    "spinnbarkeit": "health",
    "thanatology": "health",
    "trichobezoar": "health",
    "troche": "health",
    # botany: plant science, and plants named only in the gloss
    "herbarium": "botany",
    "indumentum": "botany",
    "mycology": "botany",
    "phytochemistry": "botany",
    "phytotoxin": "botany",
    "terrarium": "botany",
    "verticil": "botany",
    # zoology: animals and biology in general (taxonomy, ecology)
    "antibiosis": "zoology",
    "cladogram": "zoology",
    "holotype": "zoology",
    "spoor": "zoology",
    # engineering: made things, applied science, printing, navigation, signals
    "antialiasing": "engineering",
    "astronavigation": "engineering",
    "collotype": "engineering",
    "entasis": "engineering",
    "heliogram": "engineering",
    "horology": "engineering",
    "quarto": "engineering",
    "racon": "engineering",
    "terreplein": "engineering",
    "uplink": "engineering",
    # earth: physics, astronomy and geography filed elsewhere
    "absorptance": "earth",
    "ephemeris": "earth",
    "paleoclimatology": "earth",
    "paleogeography": "earth",
    "rydberg": "earth",
    # food: the study of food
    "dietetics": "food",
}

#: Entries under these hypernyms (or any ``..._drug``) are not played: taxonomy, chemistry and
#: pharmacy lists.
EXCLUDED_ANCESTORS = _keys(
    "taxonomic_group taxon biological_group chemical_compound compound.substance "
    "chemical_element drug medication acid.substance salt.substance ester alkaloid "
    "hydrocarbon protein enzyme antibiotic organic_compound chemical.substance atom "
    "isotope nucleotide amino_acid vitamin chemical_group alcohol.substance large_integer "
    "antifungal inhibitor"
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
    "gulch hyperglycemia ideogram infomercial kazoo mastectomy scoliosis "
    "stalactite stalagmite talkie taxidermy telefilm triage werewolf "
    # a second reading
    "aikido antiperspirant bachelorette bifocals bimbo butterfingers duvet falafel flamingo "
    "frittata grotto gulag hearse hypermarket lectern leotard marina moped moussaka "
    "multivitamin nugget osteoarthritis paella paparazzo pileup pinata runup satchel scampi "
    "smithereens stenographer suffragette toupee trilogy twerp upturn yuppie "
    # a play-test's
    "adobo aloha biome catacomb histogram lumpectomy piccalilli sarong"
)

#: Misspellings in the WordNet 3.0 database (the real words are formyl, gastrotomy, crocoite).
KNOWN_TYPOS = _keys("foryml gastromy crocolite")

#: Glosses with a slip in them, found by reading the deck: a playable definition must be right.
GLOSS_TYPOS = (
    "artist of musician",  # epigon: "writer or artist or musician"
    "a sugar crystals",  # succade
    "pain or others",  # sadist: "on others"
    "never give birth",  # nullipara
    "elevated that a",  # brassie
    "virus the can",  # polyoma: "that can"
    "removal or all",  # phlebectomy
    "one of both",  # oophorectomy
    "cultivation of tree ",  # arboriculture
    "transfered",  # xenotransplant
    "is used a gemstone",  # vesuvianite
    "deposits of melatonin",  # melanoderma: melanin
    "lamboid",  # obelion: lambdoid
)

#: Words not played although they pass every filter, and why.
REJECTED_WORDS: dict[str, str] = {
    "razbliuto": "a famous non-word: said to be Russian, it is not in Russian dictionaries",
    "lycanthropy": "the familiar sense is the delusion (health), WordNet gives the magic",
    "dolmas": "WordNet defines the filling (seasoned rice), not the stuffed vine leaves",
    "endaemonism": "a misspelling (eudaemonism)",
    "dracaena": "WordNet calls it an agave: an outdated classification",
}

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

#: A gloss that talks about the word instead of defining it ("Literally, ...", "An archaic term
#: for ...", "Informal term of address ...").
META_OPENING = re.compile(
    r"^(?:literally|informal(?:ly)?|used|colloquial(?:ly)?|slang|an informal use\b"
    r"|(?:an? |the )?(?:[\w-]+ )?(?:terms? (?:for|of|used|formerly|meaning|borrowed)"
    r"|(?:words?|names?|expressions?) (?:for|used|borrowed))\b)",
    re.IGNORECASE,
)

#: Dictionaries define in the third person: "you" belongs to a chat, not a definition.
SECOND_PERSON = re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)

#: A gloss that is a sentence ("The first pillar of Islam is an affirmation of faith") rather
#: than a phrase: a finite verb before any relative word.
SENTENCE = re.compile(r"^[^,;]*? (?:is|are|was|were) ")
RELATIVE_WORDS = _keys(
    "that which who whom whose where when whereby if as because while until so than whether how "
    "what after before since once unless although though till"
)

#: Group glosses ("Salamanders found near cold streams") read badly for a singular word.
PLURAL_OPENING = re.compile(r"^(?:[\w-]+ ){0,3}?[\w-]*(?:[^s]s|ae|ia|ata)\b")
NOT_PLURAL = _keys("is has was its this as us gas yes thus plus bus less ss")

WORD_SHAPE = re.compile(r"[a-z]{5,16}")
MIN_GLOSS, MAX_GLOSS = 30, 160
#: Longest aside in parentheses kept in a definition (``encyclopedic``), and how it must start.
MAX_ASIDE = 40
QUALIFIER = re.compile(r"(?:especially|usually|often|as|in|of|or|and|sometimes|typically)\b")
#: A first clause this long stands alone: the rest of the gloss (after "; ") is dropped.
MIN_CLAUSE = 35
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
#: The run fails when a category ends up with fewer entries than this (or under 200 cards).
MIN_PER_CATEGORY = 40

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

    def topic_domains(self, offset: str) -> list[frozenset[str]]:
        """``domains`` without the languages (``(Yiddish) a very unlucky person``)."""
        targets = [
            t
            for t in self.synsets[offset].targets(";c")
            if self.synsets[t].lexname not in ORGANISM_LEXFILES
            and not any(keys & LANGUAGE_DOMAINS for keys in self.levels([t]))
        ]
        return self.levels(targets)

    def domains(self, offset: str, symbols: tuple[str, ...] = (";c",)) -> list[frozenset[str]]:
        """Keys of a synset's topic (``;c``) or usage (``;u``) domains, then of their hypernyms.

        Domains that are kinds of organism (``homo``, ``plant``: lexicographer files in
        ``ORGANISM_LEXFILES``) are left out: they say what a word is about, not its field.
        """
        targets = self.synsets[offset].targets(*symbols)
        return self.levels([t for t in targets if self.synsets[t].lexname not in ORGANISM_LEXFILES])


# --------------------------------------------------------------------------- glosses


def encyclopedic(aside: str) -> bool:
    """An aside in parentheses that a dictionary line does without: a long one, a list, an
    example, a date or figure, a proper name ("(eel, carp, perch)", "(e.g., `remember')",
    "(at approximately 20 miles)", "(as in ancient Rome)"). A short qualifier stays: "(especially
    in a literary work)", "(as in the practice of yoga)"."""
    return (
        len(aside) > MAX_ASIDE
        or bool(re.search(r"[\d,;`'&=~]|\be\.g\.|\bi\.e\.|\betc\b|\b[A-Z]", aside))
        or not QUALIFIER.match(aside)
    )


def clean_gloss(gloss: str) -> tuple[str, str | None]:
    """Return (definition, rejection reason or None).

    A dictionary line, not an encyclopedia entry: examples, leading labels, encyclopedic asides
    in parentheses (``encyclopedic``) and, when the first clause stands alone, the clauses after
    a semicolon ("; southern U.S.", "; flesh is poisonous when unripe") are dropped.
    """
    if any(typo in gloss for typo in GLOSS_TYPOS):
        return gloss, "typo"
    text = re.split(r';\s*"|^"', gloss, maxsplit=1)[0]
    text = re.sub(r'\s+"[^"]*"\s*$', "", text)  # an example without a semicolon before it
    text = text.strip().rstrip(";:,").strip()
    while match := re.match(r"\(([^()]*)\)\s*", text):
        if match.group(1).strip().lower() in REJECTED_LABELS:
            return text, "cross-reference"
        text = text[match.end() :]
    text = re.sub(r"\s*\(([^()]*)\)", lambda m: "" if encyclopedic(m.group(1)) else m.group(), text)
    first = text.split("; ")[0].rstrip(" ,:")
    if len(first) >= MIN_CLAUSE:
        text = first
    text = text.strip().rstrip(";:,").strip()
    if not text:
        return text, "gloss length"
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,;:.])", r"\1", text)
    text = text[0].upper() + text[1:]
    if text[-1] not in ".?!":
        text += "."
    return text, None


def reads_as_sentence(definition: str) -> bool:
    """The gloss states a fact ("X is Y") instead of naming a thing."""
    match = SENTENCE.match(definition)
    return bool(match) and not set(match.group().lower().split()) & RELATIVE_WORDS


def gloss_problem(word: str, definition: str) -> str | None:
    """Why a cleaned definition is unfit, or None."""
    lower = definition.lower()
    if not MIN_GLOSS <= len(definition) <= MAX_GLOSS:
        return "gloss length"
    if REJECTED_OPENINGS.match(definition) or FRAGMENT_OPENING.match(definition):
        return "cross-reference"
    if META_OPENING.match(definition):
        return "about the word, not its meaning"
    if SECOND_PERSON.search(definition):
        return "second person"
    if reads_as_sentence(definition):
        return "a sentence, not a definition"
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
    if 45 <= length <= 110:  # one breath to read aloud, enough to picture the thing
        score += 4
    elif 40 <= length <= 130:
        score += 3
    elif length <= 145:
        score += 1
    # a catalogue of features ("... and ... and ... and ...") is an encyclopedia's habit
    score -= max(0, len(re.findall(r"\b(?:and|or)\b", definition)) - 2)
    score -= definition.count("(")
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


def life_science(definition: str) -> str:
    """Tile of a biology entry, by what its gloss is about: plants are botany; cells, gametes and
    the body are health; animals and organisms in general are zoology."""
    plants, animals = PLANT_GLOSS.search(definition), ANIMAL_GLOSS.search(definition)
    if plants and not animals:
        return "botany"
    if BODY_GLOSS.search(definition) and not animals and not plants:
        return "health"
    return "zoology"


def rule_category(levels: list[frozenset[str]], definition: str) -> str | None:
    """``nearest_rule``, with biology placed by ``life_science``."""
    category = nearest_rule(levels)
    return life_science(definition) if category == "biology" else category


def category_of(wn: WordNet, synset: Synset, word: str, definition: str) -> str | None:
    """Game category of an entry, from the most to the least specific evidence.

    1. ``CATEGORY_OVERRIDES``, placed by hand;
    2. for the lexicographer files of ``LEXFILE_MOVES`` (foods, plants, animals, body parts, made
       things, people), the file's default unless the evidence moves it to one of the categories
       allowed there: germs filed under animals are health, body parts of animals zoology
       (``ZOOLOGY_GLOSS`` or a zoological domain), musical instruments humanities, medical
       instruments and people health (medical words, then the hypernym chain);
    3. its own topic domain (``;c``: ``vernation`` is botany), unless the domain is a kind of
       organism (``homo``, ``plant``) or a language (``Yiddish``): these say nothing about the
       field;
    4. medical words in the gloss (``HEALTH_GLOSS``), or parts of the body for acts, processes
       and states (``BODILY_GLOSS``);
    5. the nearest hypernym that a ``CATEGORY_RULES`` entry names;
    6. the lexicographer file's default (``LEXFILE_CATEGORY``).
    """
    if word in CATEGORY_OVERRIDES:
        return CATEGORY_OVERRIDES[word]
    lexname = synset.lexname
    default = LEXFILE_CATEGORY.get(lexname)
    ancestors = wn.ancestors(synset.offset)
    domains = wn.topic_domains(synset.offset)
    if lexname in LEXFILE_MOVES:
        moves = LEXFILE_MOVES[lexname]
        if lexname == "noun.animal":
            return "health" if any(keys & GERMS for keys in ancestors) else default
        if lexname == "noun.body" and ZOOLOGY_GLOSS.search(definition):
            return "zoology"
        if "health" in moves and HEALTH_GLOSS.search(definition):
            return "health"
        category = rule_category(domains, definition)
        if category in moves and (lexname not in CHAIN_ONLY_LEXFILES or category == "health"):
            return category
        category = rule_category(ancestors, definition)
        return category if category in moves else default
    if category := rule_category(domains, definition):
        return category
    if default is not None and (
        HEALTH_GLOSS.search(definition)
        or (lexname in BODILY_LEXFILES and BODILY_GLOSS.search(definition))
    ):
        return "health"
    return rule_category(ancestors, definition) or default


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
        category = None if problem else category_of(wn, synset, lemma, definition)
        if lemma in REJECTED_WORDS:
            problem = "rejected by hand"
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
    short = [c for c in CATEGORIES if used[c] < MIN_PER_CATEGORY]
    if short or len(cards) < 200:
        print(f"too few entries: {short or len(cards)} cards", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
