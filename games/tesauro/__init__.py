"""Tesauro: rare words, one true definition, and bluffs (rules: `docs/rules/tesauro.md`).

The package is the pure rules engine: `rules` (the state machine), `views` (what a seat may
know, and what a bot may know), `deck` (the dictionaries: the file format, its checks and the
shipped content) and `bots`. `TESAURO` is the `Game`.

Options: `think_seconds` (the thinking time; 0 = no limit), `mode` (`typed`: definitions are
typed on the players' screens; `spoken`: said aloud, each scholar pressing a key when done),
`rounds` (how many times each player is the Sapiente), `words` (the dictionary's language:
`table` — the table's `lang` —, `ru` or `en`). Not lobby options: `lang` (the host's language)
and `deck` (the path of a group's own dictionary, which replaces the shipped one).

Bots (`normal`): see `bots`. They play from `views.bot_view`: the seat's view plus the pool's
definitions to bluff with (of the part of speech in play: like with like).

Actions (`type`, arguments) and who sends them
----------------------------------------------
- `choose {entry: 0|1}`    the reader: which of the card's two words is played.
- `tile {category}`        a scholar, in the thinking time: take a free category tile (or swap
  to another, until they have given their definition / said they are ready).
- `define {text}`          typed mode, a scholar holding a tile, in the thinking time: their
  definition, 1..300 characters once control characters are dropped and spaces collapsed.
  Final. In spoken mode, the scholar whose turn it is to speak may send a text instead of
  `done`: the table shows it as spoken (that is how a bot speaks).
- `done`                   spoken mode: a scholar holding a tile, in the thinking time — "I am
  ready"; in the speaking phase, the scholar whose turn it is — "I have said mine".
- `pick {seat}`            the Sapiente: the definition of `seat` is the true one.
- `crazy`                  the Sapiente: "Everyone's crazy!" — none is true.
- `chance {outcome}`       CHANCE: a permutation of `range(size)` for the pending
  `{"kind": "shuffle", "deck": "dictionary" | "scholars", "size": size}`.
- `timeout {phase: "write", turn}`  HOST: the thinking time ran out.
- `away {seat}` / `back {seat}`     HOST, when a connection drops / returns.

IllegalAction codes: `unknown_action`, `unknown_field` (an argument the
rules do not read: `params.field`), `game_over`, `not_host`, `not_chance`, `bad_seat`,
`away`, `shuffling`, `wrong_phase`, `not_reader`, `bad_entry`, `not_scholar` (the Sapiente
takes a tile or defines), `bad_category`, `tile_yours`, `tile_taken`, `brillante_tile` (the
Brillante must take the card's category: `category`), `category_reserved` (an Orate may take
the card's category only when no other tile is free), `already_given`, `no_tile`, `bad_text`
(`limit`), `not_typed` (`define` in the thinking time of the spoken mode), `not_spoken` (`done`
in the typed mode), `not_speaker` (`speaker`), `not_sapiente` (`sapiente`), `bad_pick` (that
seat gave no definition), `bad_outcome`, `no_timer`, `stale_timeout`, `already_away`,
`not_away`.

Phases (`view["phase"]`)
------------------------
`dealing` (CHANCE: at setup the dictionary is shuffled; at each turn the scholar cards are
dealt) → `choose` (the reader picks a word) → `write` (thinking time) → in spoken mode `speak`
→ `judge` → the next turn's `dealing` … → `over`.

Randomness
----------
Every random thing is a shuffle move of CHANCE:
- `dictionary` (size = cards in the dictionary), once at setup: with outcome `p`, the deck is
  `p[:size - pool]` (top first) and the pool — cards kept out of the game for the bots' bluffs
  — is `p[size - pool:]`, where `pool = deck.pool_size(size)` (a third).
- `scholars` (size N), each turn: scholar card 0 is the Brillante, 1..N-1 the Orates. The
  scholars in turn order from the reader take `p[0]`, `p[1]`, …; `p[N-1]` is the card aside.
  Then the reader draws the deck's top card.

Events (public narration: never a role, the entry's definition or category, a typed
definition before the reveal, or the other word of the card)
-------------------------------------------------------------------------------
- `shuffled` — the dictionary is shuffled (setup).
- `turn {turn, sapiente, reader, round, tie_break}` — `round` is None in the tie-break,
  `tie_break` its round (1 or 2) or None.
- `word {seat, word, auto}` — the reader chose (`auto`: the reader was away; the first word).
- `tile {seat, category, released}` — `released`: the tile they gave back, or None.
- `given {seat}` (typed) / `ready {seat}` (spoken) — a scholar is done writing / thinking.
- `thought {timeout}` — spoken: the thinking time is over; `speaking {seat}` — whose turn.
- `spoke {seat, tile, text}` — `text` None when said aloud.
- `revealed {defs, timeout}` — every definition, in turn order from the reader: `[{seat, tile,
  text}]` (spoken: those said, `text` None for a human's).
- `judged {turn, sapiente, reader, word, category, definition, brillante, roles, pick, crazy,
  right, taker, under, defs, tiles, tie_break}` — the reveal; `brillante` None: the card was
  aside. `taker` None and `under` true: the card went under the deck.
- `tie_break {round, tied}`; `deck_empty`; `game_over {winners, scores, reason}`;
  `away {seat}`, `back {seat}`.

Views
-----
Public (`seat=None`, the table): `game`, `phase`, `over`, `players`, `lang`, `words` (the
dictionary's language), `mode`,
`think_seconds`, `rounds`, `turn` (1-based, counting tie-break turns), `turns` (regular
turns: players × rounds), `round` (None in the tie-break), `sapiente`, `reader`, `order` (the
scholars from the reader), `word` (None until chosen), `categories` (by seat: the tile taken,
a category id, or None; the ids in the rules' order are `CATEGORIES`), `given` (by seat: has
given a definition / is ready), `speaker` (spoken mode: who speaks now), `speakers` (spoken
mode: who speaks now and who is still to speak, in order; an away one is passed over when
their turn comes), `defs` (`[{seat, tile, text}]`: empty until the reveal in typed mode;
growing as they are spoken in spoken mode), `scores` (cards won, by seat), `deck` (cards
left), `away`, `last_turn` (the `judged` fields of the turn just played, kept until the next
judgement, or None), `tie_break` (None or `{round, tied}`), `last_events`, `result`.
A player's view adds `seat`, `role` (`sapiente`, `brillante`, `orate`, or None while dealing),
`entry` (scholars, once chosen: `{word, category, definition}`), `paraphrase` (the Brillante,
once chosen: the entry's meaning in other words, the voice the bots speak in; None for every
other seat, and for a dictionary without paraphrases), `choices` (the reader, while
choosing: both entries), `tile` (theirs), `text` (their typed definition), `allowed` (the tiles
they may take now) and `legal` (the action types they may send now).
`result` (also `TESAURO.result(state)`), once over: `{scores, winners, ranking, shared,
reason: "rounds" | "deck_empty", tie_break: [{round, tied}]}`.

Decisions the rules leave open
------------------------------
Away players: the host (`net/room.py`) tells this game nothing while a dropped player's grace
time runs, and after it has the game's bot play the seat (a stand-in) until the player is back
(rules: "Away seats"). So in play the game hears `away` only from a host that has no stand-in;
it keeps its own answer to `away` (below) for that case and for its tests.
`waiting_for(state)`: the reader choosing, the scholars still to give a definition, the speaker,
the Sapiente judging. `moment(state, seat)`: (phase, turn, speaker): a second `pick` or `choose`
from the same view is stale; a tile and then a definition are one moment.

- The first Sapiente is seat 0; the Sapiente passes to the next seat ("to the left"); the
  reader is the seat after the Sapiente; turn order runs from the reader.
- The reader sees both entries of the card they drew; the unchosen one is never shown to
  anyone else. If the reader is away when the card is drawn (or goes away while choosing), the
  first word is played.
- A definition needs a tile. The tile can be swapped until its holder has given their
  definition (typed) or said they are ready (spoken); typed definitions are final.
- The thinking time closes when every scholar has given theirs, or when the timer runs out. An
  away scholar is waited for while a timer runs (they may come back); with no timer only the
  scholars who are here are waited for. A scholar without a tile when it closes gives nothing.
- Spoken mode: the thinking time closes when every scholar is ready (or the timer ends); then
  each scholar holding a tile speaks in turn from the reader and presses `done`; an away
  speaker is passed over. The Sapiente then picks a speaker.
- "Everyone's crazy" while the Brillante plays is wrong even if the Brillante gave no
  definition: the card goes to the bottom of the deck.
- A card kept by someone leaves the game; a card under the deck can come up again.
- The game ends when the deck runs out before a turn, too: most cards wins, ties share.
- Tie-break turns have the tied players as Sapiente in seat order from the one after the last
  Sapiente. After them the best of the tied players win; if still tied, one more series with
  those still tied; then they share the win.
- Tiles: first come, first served; the Brillante's tile (the card's category) stays free for
  them, since an Orate may take it only when every other tile is held — with the Brillante
  playing there are always enough others.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Bot, State, register
from games.rulebook import ModuleGame
from games.tesauro import rules, views
from games.tesauro.bots import TesauroBot
from games.tesauro.deck import CATEGORIES, load_dictionary
from games.tesauro.wire import Event, TesauroView

OPTIONS = rules.OPTIONS


class Tesauro(ModuleGame):
    """The `Game` of Tesauro: a thin face over `rules` and `views`."""

    id = "tesauro"
    min_players = 2
    max_players = 10
    order = 3
    options = OPTIONS
    bots: dict[str, Callable[[], Bot]] = {"normal": TesauroBot}
    rules = rules
    views = views
    view_type = TesauroView
    event_type = Event
    takes_deck = True

    def bot_view(self, state: State, seat: int) -> dict:
        return views.bot_view(state, seat)

    carried_keys = frozenset({"seen"})

    def check_carried(self, key: str, value: object) -> None:
        if key != "seen":
            super().check_carried(key, value)
        rules.check_seen(value)

    def carried(self, state: State, options: dict) -> dict:
        """The words that came up this game, after those of the evening's earlier games:
        the next game neither deals them first nor lets a bot bluff with them."""
        seen = list(options.get("seen") or [])
        fresh = [word for word in rules.came_up(state) if word not in set(seen)]
        return {"seen": (seen + fresh)[-rules.SEEN_MAX :]}

    def check_deck(self, path: str, lang: str) -> None:
        """A group's dictionary, checked before the table opens: DeckError says what is wrong
        (file, line, field)."""
        load_dictionary(lang, path)


TESAURO = register(Tesauro())

__all__ = ["CATEGORIES", "OPTIONS", "TESAURO", "Tesauro"]
