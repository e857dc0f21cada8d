"""On a Scale of One to T-Rex: act it out, find your level (rules: `docs/rules/trex.md`).

The package is the pure rules engine: `rules` (the state machine), `views` (what a seat may
know), `deck` (the content files: action texts and the number-card composition) and `stacked`
(chosen CHANCE outcomes that deal named cards — for tests, screenshots and demos). `TREX` is
the registered `Game`.

Options: `vote_seconds` (the sudden-death vote's timer; 0 = no timer, the vote then waits for
every voter). The mode is not an option: with exactly two players the cooperative variant is
played, with three or more the competitive game (the variant compares exactly two cards); the
view's `mode` says which. Not lobby options: `lang` (the host passes it; it picks the shipped
deck) and `deck` (the path of a group's own deck file, overlaid on the shipped one — see
`deck`).

No bots (`TREX.bots == {}`): T-Rex is an acting game. A bot cannot perform, and it cannot watch
the room to judge anyone's level, so any offer it made would be a blind guess; the game is
the people in the room.

Actions (`type`, arguments) and who sends them
----------------------------------------------
- `offer {to: seat}`       a player, competitive play: offer my card to `to`. Private. At most
  one offer out; my card is locked while it is out. If `to` has an offer out to me, both have
  accepted: the match happens at once.
- `withdraw`               the offerer takes their offer back. Private.
- `accept {from: seat}`    the offered player: both cards are played. Withdraws my own
  outgoing offer, if any.
- `decline {from: seat}`   the offered player: the offer is gone; nothing else changes. Private.
- `skip`                   a player, competitive play, while no offer of theirs is out: discard
  and draw a new card.
- `vote {for: seat}`       a player who is not tied, during the sudden death. Final.
- `call {match: bool}`     a player in the cooperative variant: MATCH / NO MATCH. Final.
- `chance {outcome}`       CHANCE: a permutation of `range(size)` for the pending
  `{"kind": "shuffle", "deck": name, "size": size}`.
- `timeout {phase: "vote"}`  HOST, when `timer` runs out: closes the vote.
- `away {seat}` / `back {seat}`  HOST, when a connection drops / returns.
- `left {seat}`            HOST, when a player gives the seat up mid-game (leaves, or is sent
  away): out of the game for good.

IllegalAction codes: `unknown_action`, `unknown_field` (an argument the
rules do not read: `params.field`), `game_over`, `not_host`, `not_chance`, `bad_seat` (the
acting seat, or the `to` / `from` / `seat` argument, is no player), `away` (a player marked
away acts: the host sends `back` first), `shuffling` (a shuffle is pending: only CHANCE, `away`
and `back` may move), `wrong_phase`, `not_in_coop` (offer, withdraw, accept, decline or skip in
the cooperative variant), `not_coop` (a call in the competitive game), `self_offer`,
`target_away` (an offer to a player who is away), `target_left` (an offer to a player who
left the game), `offer_out` (an offer while one is out),
`no_offer` (withdraw with none out), `no_such_offer` (accept / decline of an offer that is not
out to me), `card_locked` (skip while my offer is out), `tied_cannot_vote`, `bad_vote` (not a
tied player), `already_voted`, `bad_call` (`match` not a bool), `already_called`,
`bad_outcome`, `no_timer`, `stale_timeout`, `already_away`, `not_away`, `already_left`
(`left` again, or `back` for a player who left).

Phases (`view["phase"]`)
------------------------
`dealing` (CHANCE: the three action decks, then the number deck, are shuffled and one number
card dealt to each seat in seat order) → `play` (competitive) or `call` (cooperative) → in the
competitive game, on a tie on top: `tie_break` (CHANCE: the random colour, the tied players'
actions) → `vote`; and `over`. A shuffle can also be pending inside `play` / `call` (a draw
that empties the number deck or an action deck); `chance(state)` says so.

Randomness and draw order
-------------------------
Every random thing is a shuffle move of CHANCE; nothing else is random. Chance deck names:
`red_actions`, `blue_actions`, `yellow_actions`, `numbers`, and `colour` (size 3; the first
element of the outcome indexes `deck.COLOURS`). A pile is a list whose **first element is the
top**: a draw takes the first card, a discard goes to the end of its discard pile, and a shuffle
with outcome `p` makes the pile `[old[p[0]], old[p[1]], ...]` — so `p[0]` names the first card
drawn. Before the first shuffle a deck is in file order (`Deck.numbers`' canonical order; the
action texts in file order). Shuffles happen at:
- setup: `red_actions`, `blue_actions`, `yellow_actions` (each then turns up its top card),
  `numbers`; then the deal, seat 0 first. A bye-bye dealt at setup goes back to the end of the
  number deck, the whole deck is shuffled again (`numbers`) and the same seat is dealt again.
- a draw from an empty number deck: the discard pile (in discard order) becomes the deck and is
  shuffled (`numbers`, event `reshuffled`).
- a turn-up from an empty action deck (after a bye-bye, or a tie draw): that colour's discards
  become its deck and are shuffled (`<colour>_actions`, event `reshuffled`).
- the sudden death: `colour`.
After a match the offerer draws first, then the accepter (for a mutual offer, the one whose
offer was out first counts as the offerer); in the cooperative variant seat 0, then seat 1.

Events (public narration: never a card in hand, an offer, a vote or a call before its reveal)
-------------------------------------------------------------------------------------------
Offers, withdrawals and declines are private, so they make **no event** (events go to every
seat); the two players involved see them in their own views (`offers`, `news`).
- `dealt {phase}` — setup is done; play begins.
- `match {a, b, level_a, level_b, outcome, good, bad}` — `a` offered, `b` accepted; `outcome`
  is `exact` / `near` / `far`; `good` / `bad`: the tokens each of the two took.
- `skipped {seat}` — a player discarded and drew (which card, nobody learns).
- `byebye {seat, colour, gone, came}` — `seat` drew a bye-bye: the active action `gone` left,
  `came` is the new one (texts).
- `reshuffled {deck}` — `numbers` or `<colour>_actions`: the discards became the deck.
- `pile_empty {piles}` — `["good"]`, `["bad"]` or both: the game ends now.
- `tie_break {tied, colour, actions, voters}` — `actions[i]` is the new action of `tied[i]`.
- `voted {seat}`; `vote_result {tally, winners, timeout}` — `tally` by seat.
- `coop_called {seat}`; `coop_revealed {a: 0, b: 1, level_a, level_b, outcome, calls, right,
  moved, total_moved}`.
- `game_over {winners, scores}`; `away {seat}`, `back {seat}`.

Views
-----
Public (`seat=None`, the table): `game`, `phase`, `over`, `players`, `mode` (`"compete"` /
`"coop"`), `lang`, `vote_seconds`, `scores` (good − bad; in the cooperative variant the tokens
the team moved, for both seats), `good`, `bad` (tokens by seat), `pool` (`{good, bad}` left),
`tokens` (`{good, bad}` as put out), `colours`, `symbols` (`{colour: one-char symbol}`),
`actions` (`{colour: text}`, the active actions), `decks` (`{numbers, number_discard, actions:
{colour: n}}` — counts only), `away` (by seat), `last_match` (the last played pair: `{a, b,
level_a, level_b, outcome, good, bad}`, or in the cooperative variant the `coop_revealed`
fields; None before), `tie_break` (None, or `{tied, voters, colour, actions, voted: [seats],
tally, winners, timeout}` — `tally` and `winners` None until the vote closes), `coop` (None,
or `{moved, goal, called: [bool, bool]}`), `last_events` (the events of the last action that
had any), `result`.
A player's view adds `seat`, `card` (`{colour, level}` or None), `offers` (`{out: seat or None,
in: [seats offering to me]}`), `legal` (the action types they may send now), `vote` (their own
vote, or None), `call` (their own call, or None) and `news` (None, or the last private thing
that happened to them, with an `id` that grows: `{type: "offered", from}`,
`{type: "withdrawn", from}` (an offer to me was withdrawn — by its player, by their accepting
another, or by their going away), `{type: "declined", by}`, `{type: "cancelled", to}` (my
offer's target went away), `{type: "matched", with, mine, theirs}` (both cards, colour and
level)).
`result` (also `TREX.result(state)`), once over: `{scores, winners, ranking, shared, tie_break,
coop, won, moved}` — `won` and `moved` are None in the competitive game; in the cooperative
variant `winners` is `[0, 1]` if all tokens were moved, else `[]`.

Decisions the rules leave open
------------------------------
- **The deck is in the state.** `setup` reads the deck once (`deck.load_deck(lang, deck)`) and
  copies it into the state as plain data (texts and number cards); the game never reads a file
  again, views need no loader, and a state holds its own content. Note that a replay calls
  `setup` again, so it reads the files of that moment: a resume after the content files changed
  (a different number of cards) can refuse the saved shuffles (`bad_outcome`).
- An offer *to* a player who goes away is withdrawn too (its player is told: `cancelled`), and
  a new offer to an away player is refused (`target_away`): nobody waits for an answer that
  cannot come. A resume marks every player away, so offers do not survive a host restart.
- An offer stands when its target's card changes (a skip, a match with someone else).
- A skip is public (`skipped {seat}`): at the table you would see the card go to the discard.
  Its card, and every unplayed card, stays secret; discards are shown only as counts.
- The table sees both *levels* of a played pair (not colours); the two players see both cards.
- Competitive scoring takes the full amount even past an empty pile, which is then empty; the
  game ends the moment either pile is empty, and the two players do not draw again.
- Sudden death: skipped entirely when every player is tied (there is nobody to vote: a shared
  win at once). Otherwise one random colour for all the tied players; each draws a new action
  of it in seat order. Votes are final and secret until the vote closes; then the table sees
  the tally (how many votes each got), never who voted for whom. The vote closes when every
  voter who is here has voted, or on the timeout. A voter marked away is not waited for (the
  host marks a dropped player away only after its grace time, so a short drop costs no vote;
  a voter back in time may still vote). The tied players with the most votes win (shared
  if several; all of them if nobody voted). Scores do not change; `ranking` puts more votes
  first among equal scores.
- Cooperative variant: a call is right if MATCH and the levels are at most one apart, or NO
  MATCH and they are two or more apart (a *correct NO MATCH*). Each player's call is judged on
  its own and the round counts only if both are right — so two calls that disagree always end
  the game (one of them is wrong). Right: exact moves 2 tokens (or the last 1), near and
  correct NO MATCH move 1; both discard and draw. Wrong: the game ends and the team scores
  the tokens moved so far. Moving all 15 wins. Calls are final once sent.
- `waiting_for(state)`: the voters still to vote who are here, or the two callers still to
  call; competitive play waits on nobody. `moment(state, seat)` is (phase, the seat's card):
  a key pressed for one card is stale once the seat holds another.
- `away` and `back` are refused when redundant (`already_away`, `not_away`), and a player
  marked away cannot act (`away`).
- **A player who leaves** (`left {seat}`: there is no bot to play on) is out of the game from
  that moment: marked away for good (`back` is refused, `already_left`), their offers
  withdrawn, nobody may offer to them (`target_left`), and they are not ranked — `result.left`
  lists them apart (their tokens stay in `scores`), `ranking` and `winners` hold only those
  still in the game, so they are neither the T-Rex nor in a tie (nor voters). A tied player
  who leaves the sudden death leaves it to the others (the last one wins). Fewer than 3 left in
  the competitive game end it at once, scored among them; in the two-player game the one left
  cannot go on alone: it ends (`won` false) with the tokens moved so far. The game emits no
  event of its own for it (the room says who left); only what follows (`vote_result`,
  `game_over`).
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Bot, register
from games.rulebook import ModuleGame
from games.trex import rules, views
from games.trex.deck import COLOURS, SYMBOLS, load_deck
from games.trex.wire import Event, TRexView

OPTIONS = rules.OPTIONS


class TRex(ModuleGame):
    """The `Game` of On a Scale of One to T-Rex: a thin face over `rules` and `views`."""

    id = "trex"
    min_players = 2
    max_players = 8
    order = 2
    options = OPTIONS
    bots: dict[str, Callable[[], Bot]] = {}
    rules = rules
    views = views
    view_type = TRexView
    event_type = Event
    takes_deck = True

    def check_deck(self, path: str, lang: str) -> None:
        """A group's deck file, checked before the table opens: DeckError says what is wrong
        (file, line, field)."""
        load_deck(lang, path)


TREX = register(TRex())

__all__ = ["COLOURS", "OPTIONS", "SYMBOLS", "TREX", "TRex"]
