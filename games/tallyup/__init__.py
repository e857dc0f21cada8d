"""Tally Up!: push your luck with a shared running total (rules: `docs/rules/tallyup.md`).

The package is the pure rules engine: `rules` (the state machine), `views` (what a seat may
know), `dice` (the face table), `odds` (exact chances, for screens and bots) and `bots`.
`TALLYUP` is the registered `Game`.

Actions (`type`, arguments) and who sends them
----------------------------------------------
- `choose_dice {dice: [3 colours]}`   active player, once per round, before the first roll.
- `roll`                              active player: the Main Roll, and the Up Die when due.
- `bonus_dice {dice: [1 or 2 colours]}`  active player, from the unused dice, after +1 / +2.
  (+3 takes all three unused dice by itself.)
- `token {side: "in" | "out"}`        an IN player during a sealed choice. It locks the player
  in with that side; sending it again changes the side until the reveal.
- `shout`                             anyone, while a Tally Up! window is open.
- `chance {outcome}`                  CHANCE: face indexes (0..5) for `{"kind": "dice", "dice":
  [colours], "faces": 6}`, one per die in that order; one face index for `{"kind": "die",
  "die": "up", "faces": 6}` (the Up Die).
- `timeout {phase}`                   HOST, when `timer` runs out: closes the sealed choice
  (players not locked in stay IN) or the shout window (nobody shouted). `timer` names the
  phase it counts for, so a shout window followed at once by a choice is two countdowns,
  and a late timeout for a phase that has passed is refused (`stale_timeout`).
- `away {seat}` / `back {seat}`       HOST, when a connection drops / returns.

IllegalAction codes: `unknown_action`, `unknown_field` (an argument the
rules do not read: `params.field`), `game_over`, `not_host`, `not_chance`, `bad_seat`,
`away` (a player marked away acts: the host sends `back` first), `wrong_phase`,
`not_your_turn`, `bad_dice`, `bad_side`, `already_out`, `bad_outcome`, `no_timer`,
`stale_timeout`, `too_late` (params: `winner`) and `no_tally_up` for a shout,
`already_away`, `not_away`.

Phases (`view["phase"]`)
------------------------
`choose_dice` → `roll` → `rolling` (CHANCE) → then by the roll: `shout` (Tally Up!), `choice`
(a sealed choice; `choice_for` is `"up_die"` before the Up Die or `"reveal"` after the roll),
`up_die` (active rolls it) → `up_rolling` (CHANCE) → `bonus_dice` → `bonus_rolling` (CHANCE);
and `over`.

Events (public narration: none carries a sealed side before its reveal)
-----------------------------------------------------------------------
- `round_start {round, active}`
- `dice_chosen {seat, dice}`
- `rolling {seat, roll: "main" | "up_die", dice}`
- `rolled {seat, dice: [{colour, face}], stars, points, running_total, up_die_due}` —
  `points` is what the roll added (the view's `last_roll` spells the faces out).
- `bust {stage: "main" | "bonus", lost: [seats still IN], amount}` — then `round_end`.
- `tally_up {seat}` — the shout window opens.
- `shout {seat, points: 200}` or `shout_closed {}` (nobody shouted in time), then
  `tally_bonus {seats, points: 100}` (every other IN player).
- `choice_open {for: "up_die" | "reveal", seats: [IN seats]}`
- `locked {seat}` — the same event whichever side, and when a side is changed.
- `revealed {out: [seats], stay: [seats], banked, timeout}` — `out` banked `banked` each.
- `up_die {seat, face, label, running_total}` or, for +1/+2/+3, `up_die {seat, face, label,
  bonus}`; then `bonus_dice {seat, dice}` (for +1/+2) and
  `bonus_rolled {seat, dice: [{colour, face}], stars, points, running_total}`.
- `away {seat}`, `back {seat}`
- `round_end {round, scores}`, `extra_round {number, tied}`, `game_over {winners, scores}`

Views
-----
Public (`seat=None`, the table): `game`, `phase`, `over`, `players`, `scores`, `target`,
`once_each`, `high_stakes`, `choice_seconds`, `shout_seconds`, `round`, `extra_round` (0, or
which tie-break round this is), `active`, `dice` ([] before chosen), `unused`, `running_total`,
`out` (by seat, as revealed), `locked` (by seat: has locked in — never the side), `away`,
`choice_for`, `last_roll` ([die]), `main_stars`, `up_die` (face index or None), `up_die_label`,
`bonus_count`, `bonus_dice`, `bonus` ([die]), `shout` (None, or `{open, winner}` for the last
Tally Up!), `history` (every seat's score at the end of each round), `last_events`, `result`.
A die in a view is `{colour, face, label, points, star, circle}`. `result` (also
`TALLYUP.result(state)`), once over: `{scores, winners, ranking, shared, rounds,
extra_rounds}`. A player's view adds `seat`, `token` (their own sealed side, or None) and
`legal` (the action types they may send now).

For screens: `dice_table()` (the reference card as data), `TALLY_DICE` / `UP_DIE` (faces by
index), and exact `Fraction` odds — `bust_chance`, `tally_up_chance`, `up_die_chance`,
`expected_main_points` (or all four: `main_roll_odds`) for three chosen dice;
`bonus_bust_chance`, `expected_bonus_points` (`bonus_roll_odds`) given the Main Roll's stars;
`up_die_bust_range` for the risk of rolling the Up Die.

Decisions the rules leave open
------------------------------
Away players: the host (`net/room.py`) tells this game nothing while a dropped player's grace
time runs, and after it has the game's bot play the seat (a stand-in) until the player is back
(rules: "Away seats"). So in play the game hears `away` only from a host that has no stand-in;
it keeps its own answer to `away` (below) for that case and for its tests.
`waiting_for(state)`: the active player in choose_dice / roll / up_die / bonus_dice; the IN
players not locked in during a sealed choice; nobody in a shout window (a race). `moment(state,
seat)`: (phase, round, running total, Up Die): a second `roll` from the same view is stale, a
changed side is not.

- A player who is away counts as not locked in (as the rules say): the reveal waits until every
  IN player has locked in or the choice timer runs out, and then the away player stays IN.
  With no timer (`choice_seconds` 0) the table waits for them to come back, or for the host to
  kick them (a bot then takes the seat and locks in).
- If everyone goes OUT at the reveal before the Up Die, the round ends there: no Up Die.
- **High stakes**: there is no choice before the Up Die. The one sealed choice per Main Roll
  is the reveal after the roll (and its Up Die, if any) has resolved — that is, before every
  Main Roll except the first of the round, where everyone starts IN. Staying IN there means
  staying for the next Main Roll *and* its Up Die. A Tally Up! is followed by that choice too.
- **Ties**: once the game is decided (someone reached the target, or in "Everyone rolls
  once" the last player has been active), a tie on top plays an extra round with the whole
  table, next active player clockwise; after an extra round only the top counts (the target
  no longer matters, a unique top wins); after three extra rounds still tied, the tied
  players share the win.
- **Everyone rolls once** ignores the target: the game is decided after round N (N players,
  each active once, seat 0 first); ties then play extra rounds as above.
- A shout after the window closed is `too_late` until the next Main Roll lands; with no
  Tally Up! in sight it is `no_tally_up`.
- The running total may go below zero (-100); a negative total banks as a loss.
- Redundant host moves are refused (`already_away`, `not_away`), and so is any move of a
  player marked away (`away`): the host sends `back` when the connection returns.
- `legal_actions` offers a locked player only the other side: re-sealing the same side is
  allowed but changes nothing.

Bots (`TALLYUP.bots`): "easy", "normal", "bold" — see `bots`.
"""

from __future__ import annotations

from games.base import register
from games.rulebook import ModuleGame
from games.tallyup import rules, views
from games.tallyup.bots import BOTS
from games.tallyup.dice import COLOURS, RISK, TALLY_DICE, UP_DIE, Face, dice_table
from games.tallyup.odds import (
    BonusRollOdds,
    MainRollOdds,
    bonus_bust_chance,
    bonus_roll_odds,
    bust_chance,
    expected_bonus_points,
    expected_main_points,
    main_roll_odds,
    tally_up_chance,
    up_die_bust_range,
    up_die_chance,
)
from games.tallyup.wire import Event, TallyUpView

OPTIONS = rules.OPTIONS


class TallyUp(ModuleGame):
    """The `Game` of Tally Up!: a thin face over the pure functions of `rules` and `views`."""

    id = "tallyup"
    min_players = 2
    max_players = 10
    order = 1
    options = OPTIONS
    bots = BOTS
    rules = rules
    views = views
    view_type = TallyUpView
    event_type = Event


TALLYUP = register(TallyUp())

__all__ = [
    "COLOURS",
    "OPTIONS",
    "RISK",
    "TALLYUP",
    "TALLY_DICE",
    "UP_DIE",
    "BonusRollOdds",
    "Face",
    "MainRollOdds",
    "TallyUp",
    "bonus_bust_chance",
    "bonus_roll_odds",
    "bust_chance",
    "dice_table",
    "expected_bonus_points",
    "expected_main_points",
    "main_roll_odds",
    "tally_up_chance",
    "up_die_bust_range",
    "up_die_chance",
]
