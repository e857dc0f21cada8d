"""Does a bot's voice give it away? Tesauro tables of bots only, in both languages.

    .venv/bin/python tools/tesauro_bluff.py            # 300 games per language (a minute)
    .venv/bin/python tools/tesauro_bluff.py --games 50
    .venv/bin/python tools/tesauro_bluff.py --focus    # the turns of adverbs and adjectives

Every pick where the Brillante's definition is among those on the table counts. The bot
Sapiente weighs each definition by how much it reads like a dictionary entry
(`bots.dictionary_likeness`); a Sapiente who knows nothing of style picks one of the
definitions at random, so finds the truth 1 time in N (N definitions). If the voices differ —
the Brillante reading the card's text, the Orates something else — the bot Sapiente beats
chance. Two more judges stand in for what a person notices:
- "longest" always picks the longest definition: register (a card's text is longer than what
  people say);
- "odd one out" picks the one definition whose word is of another part of speech than all
  the others' (an adverb's meaning among nouns'), when there is exactly one, else one at
  random — counted only on the picks where the word in play is not a noun.
The figures are in docs/DECKS.md ("The bots' voice"), with 95 % intervals.

Ways the bots could speak, measured on the same shuffles:
- paraphrase: as shipped — the Brillante says the entry's paraphrase, Orates other entries'
  of the same part of speech. Also a human Genius who says the card as their screen's "in
  other words" line (the view's `paraphrase`) does.
- card text:  the Brillante reads the card's definition, Orates bluff with paraphrases — a
  human Genius with only the card's text to go by (before the view's `paraphrase`).
- any pos:    as shipped, but Orates bluff with any word of their tile's category, whatever
  its part of speech (the bots before like with like).
- old:        everyone reads definitions (the bots before paraphrases: same register).

`--focus` stacks every game's shuffle so that its first card is one with a word that is not a
noun, and has the reader play that word: a pick of an adverb or an adjective in nearly every
game (they are 4 or 5 in 100 of the shipped words, so the plain run has few of them), each on
a pool as random as any.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import CHANCE
from games.base import sample_chance
from games.tesauro import TESAURO, views
from games.tesauro.bots import TesauroBot
from games.tesauro.deck import NOUN, pool_size, pos_of
from games.tesauro.rules import BRILLANTE, current_entry

MODES = ("paraphrase", "card text", "any pos", "old")


def voices(mode: str):
    """A bot_view replacement that makes the bots speak as `mode` says."""
    real = views.bot_view

    def bot_view(state, seat):
        seen = real(state, seat)
        entry = current_entry(state)
        if mode in ("card text", "old") and seen["says"] is not None:
            seen["says"] = entry["definition"]
        if mode == "old":
            pool = [e for card in state["pool"] for e in state["cards"][card]]
            vocabulary = {c: [] for c in seen["vocabulary"]}
            for e in pool:
                vocabulary[e["category"]].append(e["definition"])
            seen["vocabulary"] = vocabulary
        if mode == "any pos":
            pool = [e for card in state["pool"] for e in state["cards"][card]]
            said = set(state["said"])
            unsaid = [e for e in pool if views.spoken(e) not in said]
            vocabulary = {c: [] for c in seen["vocabulary"]}
            for e in unsaid or pool:
                vocabulary[e["category"]].append(views.spoken(e))
            seen["vocabulary"] = vocabulary
        return seen

    return bot_view


def focused(state, outcome: list[int]) -> list[int]:
    """The dictionary shuffle with the deck's first card holding a word that is not a noun
    on top (the pool, the bots' bluffs, is the same): the first turn is an adverb's or an
    adjective's, on a pool as random as any."""
    keep = pool_size(len(outcome))
    deck, pool = outcome[: len(outcome) - keep], outcome[len(outcome) - keep :]
    odd = [c for c in deck if any(pos_of(e) != NOUN for e in state["cards"][c])][:1]
    return [*odd, *[c for c in deck if c not in odd], *pool]


class Tally:
    def __init__(self) -> None:
        self.judged = self.found = self.longest = 0
        self.chance = 0.0
        self.odd_judged = 0
        self.odd_found = self.odd_chance = 0.0


def play(lang: str, games: int, mode: str, players: int, focus: bool) -> Tally:
    bot = TesauroBot()
    bot_view = voices(mode)
    tally = Tally()
    for game in range(games):
        rng = random.Random(f"{lang}:{players}:{game}")
        state = TESAURO.setup([f"Bot{s}" for s in range(players)], {"lang": lang})
        pos = {}
        for card in state["cards"]:
            for e in card:
                pos[e["definition"]] = pos[views.spoken(e)] = pos_of(e)
        for _ in range(20000):
            if TESAURO.result(state) is not None:
                break
            if (spec := TESAURO.chance(state)) is not None:
                outcome = sample_chance(spec, rng)
                if focus and spec.get("deck") == "dictionary":
                    outcome = focused(state, outcome)
                TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
                continue
            plans = [(s, bot.act(bot_view(state, s), s, rng)) for s in range(players)]
            plans = [(plan[0], s, plan[1]) for s, plan in plans if plan is not None]
            _, seat, action = min(plans, key=lambda p: (p[0], p[1]))
            if focus and action["type"] == "choose":
                card = state["cards"][state["card"]]
                odd = [i for i, e in enumerate(card) if pos_of(e) != NOUN]
                action = {"type": "choose", "entry": odd[0] if odd else action["entry"]}
            if action["type"] == "pick":  # ("everyone's crazy" is declared blind to style)
                judge(state, action, pos, tally)
            TESAURO.apply(state, seat, copy.deepcopy(action))
    return tally


def judge(state, action, pos: dict[str, str], tally: Tally) -> None:
    brillante = next((s for s, role in enumerate(state["roles"]) if role == BRILLANTE), None)
    defs = state["defs"]
    if brillante is None or not any(d["seat"] == brillante for d in defs):
        return
    tally.judged += 1
    tally.chance += 1 / len(defs)
    tally.found += action.get("seat") == brillante
    tally.longest += max(defs, key=lambda d: len(d["text"] or ""))["seat"] == brillante
    if pos_of(current_entry(state)) == NOUN:
        return
    tally.odd_judged += 1
    kinds = [pos.get(d["text"] or "", NOUN) for d in defs]
    odd = [d for d, kind in zip(defs, kinds, strict=True) if kinds.count(kind) == 1]
    if len(defs) >= 3 and len(odd) == 1:
        tally.odd_found += odd[0]["seat"] == brillante
    else:
        tally.odd_chance += 1 / len(defs)
        tally.odd_found += 1 / len(defs)


def share(hits: float, n: int) -> str:
    if not n:
        return "—"
    rate = hits / n
    return f"{rate:.1%} ±{1.96 * (rate * (1 - rate) / n) ** 0.5:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--focus", action="store_true", help="adverbs and adjectives first")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated voices")
    parser.add_argument("--langs", default="en,ru")
    args = parser.parse_args()
    focus = " (focus: words that are not nouns first)" if args.focus else ""
    print(f"{args.games} games of {args.players} bots per language and voice{focus}")
    head = f"{'lang':<5} {'voice':<11} {'picks':>6} {'bot Sage':>13} {'style-blind':>12}"
    print(f"{head} {'longest':>13} {'non-noun':>9} {'odd one out':>13}")
    for lang in args.langs.split(","):
        for mode in args.modes.split(","):
            t = play(lang, args.games, mode, args.players, args.focus)
            print(
                f"{lang:<5} {mode:<11} {t.judged:>6} {share(t.found, t.judged):>13} "
                f"{t.chance / t.judged:>12.1%} {share(t.longest, t.judged):>13} "
                f"{t.odd_judged:>9} {share(t.odd_found, t.odd_judged):>13}"
            )


if __name__ == "__main__":
    main()
