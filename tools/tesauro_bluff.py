"""Does a bot's voice give it away? Tesauro tables of bots only, in both languages.

    .venv/bin/python tools/tesauro_bluff.py            # 300 games per language (a minute)
    .venv/bin/python tools/tesauro_bluff.py --games 50

Every pick where the Brillante's definition is among those on the table counts. The bot
Sapiente weighs each definition by how much it reads like a dictionary entry
(`bots.dictionary_likeness`); a Sapiente who knows nothing of style picks one of the
definitions at random, so finds the truth 1 time in N (N definitions). If the voices differ —
the Brillante reading the card's text, the Orates something else — the bot Sapiente beats
chance. A third judge, one who always picks the longest definition, shows what a person who
notices register would gain (a card's text is longer than what people say). The figures are in
docs/DECKS.md ("The bots' voice"), with 95 % intervals.

Three ways the bots could speak are measured on the same shuffles:
- paraphrase: as shipped — the Brillante says the entry's paraphrase, Orates other entries'.
- card text:  the Brillante reads the card's definition, Orates bluff with paraphrases.
- old:        everyone reads definitions (the bots before paraphrases: same register).
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
from games.tesauro.rules import BRILLANTE, current_entry


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
        return seen

    return bot_view


def play(lang: str, games: int, mode: str, players: int) -> tuple[int, int, float, int]:
    """(picks, truths the bot Sapiente found, truths a style-blind one would find (expected),
    truths the longest-definition judge found)."""
    bot = TesauroBot()
    bot_view = voices(mode)
    judged, found, chance, longest = 0, 0, 0.0, 0
    for game in range(games):
        rng = random.Random(f"{lang}:{players}:{game}")
        state = TESAURO.setup([f"Bot{s}" for s in range(players)], {"lang": lang})
        for _ in range(20000):
            if TESAURO.result(state) is not None:
                break
            if (spec := TESAURO.chance(state)) is not None:
                outcome = sample_chance(spec, rng)
                TESAURO.apply(state, CHANCE, {"type": "chance", "outcome": outcome})
                continue
            plans = [(s, bot.act(bot_view(state, s), s, rng)) for s in range(players)]
            plans = [(plan[0], s, plan[1]) for s, plan in plans if plan is not None]
            _, seat, action = min(plans, key=lambda p: (p[0], p[1]))
            if action["type"] == "pick":  # ("everyone's crazy" is declared blind to style)
                brillante = next(
                    (s for s, role in enumerate(state["roles"]) if role == BRILLANTE), None
                )
                defs = state["defs"]
                if brillante is not None and any(d["seat"] == brillante for d in defs):
                    judged += 1
                    chance += 1 / len(defs)
                    found += action.get("seat") == brillante
                    longest += max(defs, key=lambda d: len(d["text"] or ""))["seat"] == brillante
            TESAURO.apply(state, seat, copy.deepcopy(action))
    return judged, found, chance, longest


def share(hits: float, n: int) -> str:
    rate = hits / n
    return f"{rate:.1%} ±{1.96 * (rate * (1 - rate) / n) ** 0.5:.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(f"{args.games} games of {args.players} bots per language and voice")
    head = f"{'lang':<5} {'voice':<11} {'picks':>6} {'bot Sage':>13} {'style-blind':>12}"
    print(f"{head} {'longest':>13}")
    for lang in ("en", "ru"):
        for mode in ("paraphrase", "card text", "old"):
            judged, found, chance, longest = play(lang, args.games, mode, args.players)
            print(
                f"{lang:<5} {mode:<11} {judged:>6} {share(found, judged):>13} "
                f"{chance / judged:>12.1%} {share(longest, judged):>13}"
            )


if __name__ == "__main__":
    main()
