"""Tesauro bots: a scholar who defines and a Sapiente who judges, from what the seat knows.

A bot plays from `views.bot_view`: its seat's own view plus its vocabulary (the true
definitions of the pool's words, which never come up in this game).
- As the **Brillante** it takes the card's category and says the true meaning in its own
  words — the entry's paraphrase, never the card's text.
- As an **Orate** it takes a free tile whose category it has words for and bluffs with the
  true meaning of a *different* word of that category, said the same way (that entry's
  paraphrase) — so its bluff has the Brillante's voice, and the style gives nobody away. Its
  words are of the same part of speech as the word in play (`bot_view`): an adverb is bluffed
  with adverbs. When its tile's category has none, it borrows one of another category — like
  with like matters more than the tile — and the Orates that borrow take different ones (each
  by its place in turn order), so two bluffs are never the same text.
- As the **Sapiente** it cannot know the answer; it judges as a careful person would. Each
  definition is weighed by how much it reads like a dictionary entry (a full sentence of a
  plausible length, a capital and a full stop, no "I", no jokes, no shouting), and "everyone's
  crazy" is declared with the chance that the Brillante card is the one aside (1 in N), more
  often when every definition reads badly.

Decisions are a function of the view (a generator seeded by the seat, the turn and the word),
so the host can ask again after any event and get the same move; only the delays use the
`rng` the bot is handed. Delays are human: a few seconds to pick a tile, a good part of the thinking
time to "write" (a few seconds once everyone else is done), time to read the definitions
before judging.
"""

from __future__ import annotations

import random
import re

from games.base import Action

_FIRST_PERSON = re.compile(
    r"\b(i|me|my|we|us|lol|haha|idk|я|мне|меня|мой|моя|мы|нас|хаха|лол)\b", re.IGNORECASE
)


def dictionary_likeness(text: str | None) -> float:
    """How much a definition reads like a dictionary's, 0.05..1 (None: said aloud — the bot
    did not hear it, so it counts as well said)."""
    if text is None:
        return 1.0
    score = 1.0
    length = len(text)
    if length < 15:
        score *= 0.3
    elif length < 30 or length > 220:
        score *= 0.7
    if not text[:1].isupper():
        score *= 0.7
    if not text.endswith((".", "…")):
        score *= 0.8
    if "!" in text or "?" in text:
        score *= 0.4
    if _FIRST_PERSON.search(text):
        score *= 0.3
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isupper() for c in letters) > len(letters) / 2:
        score *= 0.3
    return max(score, 0.05)


class TesauroBot:
    """The one bot strength ("normal")."""

    def act(self, view: dict, seat: int, rng: random.Random) -> tuple[float, Action] | None:
        legal = view.get("legal") or []
        if not legal:
            return None
        mind = random.Random(f"tesauro:{seat}:{view['turn']}:{view['word']}:{view['phase']}")
        phase = view["phase"]
        if "choose" in legal:
            return rng.uniform(1.5, 4.0), {"type": "choose", "entry": mind.randrange(2)}
        if phase == "judge":
            return self._judge(view, mind, rng)
        if phase == "speak" and view.get("turn_clock"):  # a player there, only slow: what
            return 0.0, {"type": "done"}  # they said aloud stands, no text in their name
        if phase == "speak":
            return rng.uniform(4.0, 8.0), {"type": "define", "text": self._definition(view, mind)}
        if "tile" in legal and view["tile"] is None:
            return rng.uniform(2.0, 6.0), {"type": "tile", "category": self._tile(view, mind)}
        if "define" in legal:
            return self._thinking(view, rng), {
                "type": "define",
                "text": self._definition(view, mind),
            }
        if "done" in legal:
            return self._thinking(view, rng) / 2, {"type": "done"}
        return None

    def _tile(self, view: dict, mind: random.Random) -> str:
        allowed = view["allowed"]
        if view["role"] == "brillante":
            return allowed[0]
        vocabulary = view.get("vocabulary") or {}
        known = [c for c in allowed if vocabulary.get(c)]
        return mind.choice(known or allowed)

    def _definition(self, view: dict, mind: random.Random) -> str:
        if view["role"] == "brillante":
            return view["says"]
        # the pool is never empty (deck.pool_size), nor is bot_view's vocabulary
        vocabulary = view["vocabulary"]
        if own := vocabulary.get(view["tile"]):
            return mind.choice(sorted(own))
        return self._borrowed(view)

    @staticmethod
    def _borrowed(view: dict) -> str:
        """A bluff from another category's words (none of the part of speech in play is of its
        tile's): the words of tiles nobody else holds first (a bot holding one bluffs with
        those), else those of held tiles but the one the holder says, and each Orate its own —
        one shared draw, offset by the seat's place in turn order, so that Orates who borrow at
        once never say the same text. When such words are fewer than the places, each
        borrowing Orate takes one by its rank among those who borrow, and past as many as
        there are, an unheard word of another part of speech (`spare`): an odd one out is less
        of a giveaway than two bluffs alike."""
        vocabulary = view["vocabulary"]
        tiles = view["categories"]
        held = {tile for seat, tile in enumerate(tiles) if seat != view["seat"]}
        choices = sorted(d for c, ds in vocabulary.items() if c not in held for d in ds)
        if not choices:  # what each holder says (its own draw, as `act` makes it)
            said = {
                random.Random(
                    f"tesauro:{seat}:{view['turn']}:{view['word']}:{view['phase']}"
                ).choice(sorted(vocabulary[tile]))
                for seat, tile in enumerate(tiles)
                if seat != view["seat"] and tile is not None and vocabulary.get(tile)
            }
            choices = sorted(d for ds in vocabulary.values() for d in ds if d not in said)
        spare = sorted(view.get("spare") or ())
        shared = random.Random(f"tesauro:{view['turn']}:{view['word']}:borrow")
        if len(choices) >= len(view["order"]) or not spare:
            choices = choices or sorted(d for ds in vocabulary.values() for d in ds)
            place = view["order"].index(view["seat"])
            return choices[(shared.randrange(len(choices)) + place) % len(choices)]
        borrowers = [
            seat
            for seat in view["order"]
            if seat == view["seat"] or (tiles[seat] is not None and not vocabulary.get(tiles[seat]))
        ]
        rank = borrowers.index(view["seat"])
        draw = shared.randrange(max(len(choices), 1))
        if rank < len(choices):
            return choices[(draw + rank) % len(choices)]
        return spare[(draw + rank - len(choices)) % len(spare)]

    @staticmethod
    def _thinking(view: dict, rng: random.Random) -> float:
        """A person's writing time; a few seconds once every other scholar is done (nobody
        should wait on a bot)."""
        others = [s for s in view["order"] if s != view["seat"]]
        if all(view["given"][s] for s in others):
            return rng.uniform(2.0, 5.0)
        seconds = view["think_seconds"] or 40
        return rng.uniform(0.2, 0.5) * min(seconds, 60)

    def _judge(self, view: dict, mind: random.Random, rng: random.Random) -> tuple[float, Action]:
        defs = view["defs"]
        delay = rng.uniform(4.0, 7.0) + 2.0 * len(defs)
        if not defs:
            return delay, {"type": "crazy"}
        weights = [dictionary_likeness(d["text"]) for d in defs]
        n = len(view["players"])
        crazy = 1 / n
        if max(weights) < 0.5:
            crazy = min(0.6, crazy * 2)
        if len(defs) < n - 1:  # somebody gave none: perhaps the Brillante, perhaps nobody
            crazy *= 0.8
        if mind.random() < crazy:
            return delay, {"type": "crazy"}
        pick = mind.choices(defs, weights=weights)[0]
        return delay, {"type": "pick", "seat": pick["seat"]}
