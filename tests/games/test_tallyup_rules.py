"""Every rule and decision of `docs/rules/tallyup.md`, played out with chosen CHANCE outcomes.

Rolls are written the way the dice show them — `t.roll("(50)", "60", "20")` — one label per
die in table order, so a test reads like a game at the table. Every refused action is checked
to leave the state exactly as it was.
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable

import pytest

from games import CHANCE, GAMES, HOST, IllegalAction, rulebook
from games.tallyup.dice import TALLY_DICE, UP_DIE

GAME = GAMES["tallyup"]
HIGH = ("red", "orange", "yellow")  # unused: green, blue, purple
LOW = ("green", "blue", "purple")  # unused: red, orange, yellow
SHOUT = {"type": "shout"}


def face(colour: str, label: str) -> int:
    """The index of the first face of `colour` printed as `label` (`*`, `(50)`, `50`)."""
    return [f.label for f in TALLY_DICE[colour]].index(label)


def types(events: list[dict]) -> list[str]:
    return [event["type"] for event in events]


class Table:
    """A game of Tally Up! driven by short calls that read like the rules."""

    def __init__(self, players: int = 3, **options: object) -> None:
        self.players = [f"P{n}" for n in range(players)]
        self.state = GAME.setup(self.players, dict(options))

    # --- moves ---

    def act(self, seat: int, action: dict) -> list[dict]:
        return GAME.apply(self.state, seat, copy.deepcopy(action))

    def choose(self, *dice: str) -> list[dict]:
        return self.act(self.active, {"type": "choose_dice", "dice": list(dice)})

    def roll(self, *labels: str) -> list[dict]:
        """The active player's Main Roll, showing `labels` on the chosen dice."""
        self.act(self.active, {"type": "roll"})
        return self.land(*labels)

    def land(self, *labels: str) -> list[dict]:
        """CHANCE: the dice in the air show `labels`, in the order of the chance spec."""
        spec = GAME.chance(self.state)
        outcome = [face(c, label) for c, label in zip(spec["dice"], labels, strict=True)]
        return self.act(CHANCE, {"type": "chance", "outcome": outcome})

    def up_die(self, label: str) -> list[dict]:
        self.act(self.active, {"type": "roll"})
        return self.act(CHANCE, {"type": "chance", "outcome": UP_DIE.index(label)})

    def bonus(self, *dice: str) -> list[dict]:
        return self.act(self.active, {"type": "bonus_dice", "dice": list(dice)})

    def token(self, seat: int, side: str) -> list[dict]:
        return self.act(seat, {"type": "token", "side": side})

    def reveal(self, *going_out: int) -> list[dict]:
        """Every present IN player locks in — those in `going_out` OUT, the rest IN. (With a
        player away, the reveal then waits for the timer.)"""
        waiting = [s for s in self.in_seats if not self.state["away"][s]]
        events: list[dict] = []
        for seat in waiting:
            events = self.token(seat, "out" if seat in going_out else "in")
        return events

    def timeout(self) -> list[dict]:
        return self.act(HOST, {"type": "timeout"})

    def refuse(self, seat: int, action: object) -> IllegalAction:
        """The action is refused, and the state is untouched."""
        before = copy.deepcopy(self.state)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(self.state, seat, action)
        assert self.state == before
        return refused.value

    # --- what the table shows ---

    def view(self, seat: int | None = None) -> dict:
        return GAME.view(self.state, seat)

    @property
    def active(self) -> int:
        return self.state["active"]

    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def total(self) -> int:
        return self.state["running_total"]

    @property
    def scores(self) -> list[int]:
        return list(self.state["scores"])

    @property
    def in_seats(self) -> list[int]:
        return [s for s, out in enumerate(self.state["out"]) if not out]


# --- setup ------------------------------------------------------------------------------------


def test_a_game_starts_with_seat_0_choosing_dice_and_everyone_in():
    t = Table(4)
    view = t.view()
    assert (view["phase"], view["active"], view["round"]) == ("choose_dice", 0, 1)
    assert view["scores"] == [0, 0, 0, 0] and view["out"] == [False] * 4
    assert view["running_total"] == 0 and view["dice"] == [] and not view["over"]
    assert (view["target"], view["choice_seconds"], view["shout_seconds"]) == (2500, 30, 10)
    assert GAME.chance(t.state) is None and GAME.result(t.state) is None


@pytest.mark.parametrize("players", [1, 11])
def test_two_to_ten_players(players):
    with pytest.raises(ValueError):
        GAME.setup([f"P{n}" for n in range(players)])


@pytest.mark.parametrize(
    "options",
    [
        {"target": 0},
        {"target": "2500"},
        {"once_each": 1},
        {"choice_seconds": -1},
        {"shout_seconds": 0},
    ],
)
def test_bad_options_are_refused_at_setup(options):
    with pytest.raises(ValueError):
        GAME.setup(["A", "B"], options)


def test_options_of_other_layers_are_ignored():
    assert GAME.view(GAME.setup(["A", "B"], {"lang": "ru"}), None)["target"] == 2500


def test_the_lobby_options_and_bots():
    options = {option.key: option for option in GAME.options}
    assert set(options) == {
        "target", "once_each", "high_stakes", "choice_seconds", "shout_seconds", "turn_seconds"
    }  # fmt: skip
    assert options["target"].default == 2500 and 2500 in options["target"].choices
    assert options["choice_seconds"].default == 30 and 0 in options["choice_seconds"].choices
    assert options["shout_seconds"].default == 10
    assert options["turn_seconds"].default == 90
    assert options["turn_seconds"].choices == (0, 60, 90, 120)
    assert {"easy", "normal", "bold"} <= set(GAME.bots)
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("tallyup", 2, 10)


@pytest.mark.parametrize(
    ("phase", "turn"),
    [("choose_dice", (0, 90)), ("roll", (0, 90)), ("up_die", (0, 90)), ("bonus_dice", (0, 90)),
     ("choice", None), ("shout", None), ("rolling", None)],
)  # fmt: skip
def test_turn_time_is_the_active_player_s_move_never_a_sealed_choice_or_a_shout(phase, turn):
    t = Table()
    t.state["phase"] = phase
    assert GAME.turn(t.state) == turn


def test_turn_time_is_the_option_and_0_is_off():
    assert GAME.turn(GAME.setup(["A", "B"], {"turn_seconds": 60})) == (0, 60)
    assert GAME.turn(GAME.setup(["A", "B"], {"turn_seconds": 0})) == (0, 0)
    with pytest.raises(ValueError, match="turn_seconds"):
        GAME.setup(["A", "B"], {"turn_seconds": -1})


# --- choosing dice and the Main Roll ---------------------------------------------------------


def test_the_chosen_dice_are_kept_in_table_order_and_rolled_together():
    t = Table()
    events = t.choose("yellow", "red", "orange")
    assert events == [{"type": "dice_chosen", "seat": 0, "dice": list(HIGH)}]
    assert t.view()["unused"] == list(LOW)
    t.act(0, {"type": "roll"})
    assert GAME.chance(t.state) == {"kind": "dice", "dice": list(HIGH), "faces": 6}


@pytest.mark.parametrize(
    "dice, labels, points, up_die_due",
    [
        (HIGH, ("50", "60", "20"), 130, False),
        (HIGH, ("100", "70", "70"), 240, False),
        (HIGH, ("*", "60", "70"), 130, False),  # one star: the others still count
        (HIGH, ("(50)", "60", "20"), 130, True),  # a circle calls the Up Die
        (HIGH, ("*", "(70)", "(40)"), 110, True),  # one star and two circles: due once
        (LOW, ("(40)", "(10)", "(20)"), 70, True),  # three circles: due once
        (LOW, ("40", "50", "20"), 110, False),
    ],
)
def test_a_main_roll_adds_the_numbers_shown(dice, labels, points, up_die_due):
    t = Table()
    t.choose(*dice)
    events = t.roll(*labels)
    assert t.total == points
    assert events[0]["type"] == "rolled" and events[0]["points"] == points
    assert events[0]["dice"] == [
        {"colour": colour, "face": face(colour, label)}
        for colour, label in zip(dice, labels, strict=True)
    ]
    assert events[0]["up_die_due"] is up_die_due
    assert types(events).count("choice_open") == 1
    assert t.view()["choice_for"] == ("up_die" if up_die_due else "reveal")
    assert [die["label"] for die in t.view()["last_roll"]] == list(labels)


def test_the_running_total_grows_roll_after_roll():
    t = Table()
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal()
    t.roll("100", "70", "70")
    assert t.total == 130 + 240


# --- bust -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "labels", [("*", "*", "20"), ("*", "60", "*"), ("50", "*", "*"), ("*", "*", "(40)")]
)
def test_two_stars_bust_everyone_still_in_without_a_reveal(labels):
    t = Table(3)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(1)  # P1 banks 240 and is safe
    events = t.roll(*labels)
    bust = events[types(events).index("bust")]
    assert bust == {"type": "bust", "stage": "main", "lost": [0, 2], "amount": 240}
    assert "revealed" not in types(events) and "choice_open" not in types(events)
    assert t.scores == [0, 240, 0]
    # The round is over: the next player clockwise starts a fresh one.
    assert (t.phase, t.active, t.total, t.state["round"]) == ("choose_dice", 1, 0, 2)
    assert t.view()["out"] == [False] * 3 and t.view()["dice"] == []


# --- Tally Up! --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shouter, scores",
    [
        (1, [100, 200, 240]),  # an IN player: +200, and the other IN player +100
        (2, [100, 100, 440]),  # an OUT player still wins the +200
        (0, [200, 100, 240]),  # the active player may shout too
        (None, [100, 100, 240]),  # nobody in time: every IN player +100
    ],
)
def test_three_stars_bring_tally_up(shouter, scores):
    t = Table(3)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(2)  # P2 banks 240 and is OUT
    events = t.roll("*", "*", "*")
    assert types(events) == ["rolled", "tally_up"]
    assert t.phase == "shout" and t.view()["shout"] == {"open": True, "winner": None}
    assert GAME.timer(t.state) == (10, {"type": "timeout", "phase": "shout"})
    events = t.timeout() if shouter is None else t.act(shouter, SHOUT)
    assert t.scores == scores
    assert t.total == 240  # nothing is added to the running total
    assert t.view()["shout"] == {"open": False, "winner": shouter}
    assert types(events)[0] == ("shout_closed" if shouter is None else "shout")
    # Then the reveal goes on as after any roll.
    assert t.phase == "choice" and t.view()["choice_for"] == "reveal"
    assert events[-1] == {"type": "choice_open", "for": "reveal", "seats": [0, 1]}


def test_a_shout_window_then_a_sealed_choice_are_two_countdowns():
    """The host restarts its clock when the timeout action changes: the choice after a shout
    must not inherit what was left of the shout window, and the window's late timeout is stale."""
    t = Table(3)
    t.choose(*HIGH)
    t.roll("*", "*", "*")
    shout_timer = GAME.timer(t.state)
    t.act(1, SHOUT)
    choice_timer = GAME.timer(t.state)
    assert choice_timer[1] != shout_timer[1]
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(t.state, HOST, shout_timer[1])
    assert refused.value.code == "stale_timeout"
    assert t.phase == "choice"


def test_an_active_player_who_is_out_may_shout():
    t = Table(3)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(0)  # the active player banks 240 and goes on rolling
    t.roll("*", "*", "*")
    t.act(0, SHOUT)
    assert t.scores == [440, 100, 100]


def test_a_shout_without_an_open_tally_up_is_refused():
    t = Table(3)
    t.choose(*HIGH)
    assert t.refuse(1, SHOUT).code == "no_tally_up"
    t.roll("*", "*", "*")
    t.act(2, SHOUT)
    late = t.refuse(1, SHOUT)
    assert late.code == "too_late" and late.params == {"winner": 2}
    t.reveal()
    assert t.refuse(1, SHOUT).code == "too_late"  # still about that Tally Up!
    t.roll("50", "60", "20")
    assert t.refuse(1, SHOUT).code == "no_tally_up"  # a new roll, a new moment


def test_a_shout_after_the_window_timed_out_is_too_late():
    t = Table(2)
    t.choose(*HIGH)
    t.roll("*", "*", "*")
    t.timeout()
    assert t.refuse(0, SHOUT).params == {"winner": None}


# --- reveals and the end of a round ----------------------------------------------------------


def test_out_players_bank_the_running_total_and_stay_out():
    t = Table(3)
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    events = t.reveal(1)
    assert events[-1] == {
        "type": "revealed",
        "out": [1],
        "stay": [0, 2],
        "banked": 130,
        "timeout": False,
    }
    assert t.scores == [0, 130, 0] and t.view()["out"] == [False, True, False]
    t.roll("100", "70", "70")
    assert t.view()["choice_for"] == "reveal"
    assert t.refuse(1, {"type": "token", "side": "in"}).code == "already_out"
    t.reveal(2)
    assert t.scores == [0, 130, 370] and t.phase == "roll"


def test_the_active_player_keeps_rolling_after_going_out():
    t = Table(3)
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(0)
    assert t.view(0)["legal"] == ["roll"] and t.view(0)["out"][0]
    t.roll("100", "70", "70")
    assert t.total == 370 and t.view()["choice_for"] == "reveal"


def test_the_round_ends_when_everyone_is_out_and_the_next_player_starts():
    t = Table(3)
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(0, 1)
    t.roll("100", "70", "70")
    events = t.reveal(2)
    assert types(events) == ["locked", "revealed", "round_end", "round_start"]
    assert t.scores == [130, 130, 370]
    assert (t.phase, t.active, t.total, t.in_seats) == ("choose_dice", 1, 0, [0, 1, 2])
    assert t.view()["history"] == [[130, 130, 370]]


def test_the_active_seat_goes_round_the_table():
    t = Table(2)
    actives = []
    for _ in range(3):
        actives.append(t.active)
        t.choose(*HIGH)
        t.roll("*", "*", "20")
    assert actives == [0, 1, 0]


# --- the Up Die -------------------------------------------------------------------------------


@pytest.mark.parametrize("label, total", [("-100", 30), ("+100", 230), ("x2", 260)])
def test_the_up_die_changes_the_running_total(label, total):
    t = Table(3)
    t.choose(*HIGH)
    t.roll("(50)", "60", "20")
    assert t.view()["choice_for"] == "up_die"
    t.reveal(1)  # the reveal before the Up Die: P1 banks 130
    assert t.phase == "up_die" and t.scores == [0, 130, 0]
    events = t.up_die(label)
    assert events[0] == {
        "type": "up_die",
        "seat": 0,
        "face": UP_DIE.index(label),
        "label": label,
        "running_total": total,
    }
    # The second reveal of this Main Roll.
    assert t.phase == "choice" and t.view()["choice_for"] == "reveal"
    t.reveal(0, 2)
    assert t.scores == [total, 130, total]


def test_minus_100_may_take_the_total_below_zero_and_banks_as_a_loss():
    t = Table(2)
    t.choose(*LOW)
    t.roll("30", "(10)", "20")
    t.reveal()
    t.up_die("-100")
    assert t.total == -40
    t.reveal(0, 1)
    assert t.scores == [-40, -40]


@pytest.mark.parametrize(
    "up, picked, labels, points",
    [
        ("+1", ["blue"], ("50",), 50),
        ("+2", ["purple", "green"], ("40", "20"), 60),
        ("+3", None, ("*", "(10)", "20"), 30),  # one star alone is fine; the circle calls nothing
    ],
)
def test_a_bonus_roll_adds_its_points(up, picked, labels, points):
    t = Table(3)
    t.choose(*HIGH)
    t.roll("(50)", "60", "20")
    t.reveal()
    t.up_die(up)
    if picked is None:  # +3 takes every unused die by itself
        assert t.phase == "bonus_rolling"
    else:
        assert t.phase == "bonus_dice" and t.view()["bonus_count"] == len(picked)
        assert t.view(0)["legal"] == ["bonus_dice"]
        t.bonus(*picked)
    assert GAME.chance(t.state)["dice"] == sorted(picked or LOW, key=list(TALLY_DICE).index)
    events = t.land(*labels)
    assert events[0]["type"] == "bonus_rolled" and events[0]["points"] == points
    assert t.total == 130 + points
    # Circles on bonus dice never call the Up Die: straight to the reveal.
    assert t.phase == "choice" and t.view()["choice_for"] == "reveal"


@pytest.mark.parametrize(
    "main, up, picked, labels, busts",
    [
        (("*", "(70)", "20"), "+1", ["green"], ("*",), True),  # 1 main star + 1 bonus star
        (("*", "(70)", "20"), "+1", ["green"], ("40",), False),
        (("(50)", "60", "20"), "+1", ["green"], ("*",), False),  # 0 + 1
        (("(50)", "60", "20"), "+2", ["green", "blue"], ("*", "*"), True),  # 0 + 2
        (("(50)", "60", "20"), "+3", None, ("30", "*", "20"), False),
        (("*", "(70)", "20"), "+3", None, ("30", "*", "20"), True),
    ],
)
def test_a_bonus_roll_busts_on_main_and_bonus_stars_together(main, up, picked, labels, busts):
    t = Table(3)
    t.choose(*HIGH)
    t.roll(*main)
    t.reveal(2)  # P2 banks before the Up Die
    banked = t.total
    t.up_die(up)
    if picked:
        t.bonus(*picked)
    events = t.land(*labels)
    if busts:
        assert events[1] == {"type": "bust", "stage": "bonus", "lost": [0, 1], "amount": banked}
        assert t.scores == [0, 0, banked] and t.phase == "choose_dice"
    else:
        assert "bust" not in types(events) and t.phase == "choice"


def test_bonus_dice_are_unused_again_for_the_next_bonus_roll():
    t = Table(2)
    t.choose(*HIGH)
    t.roll("(50)", "60", "20")
    t.reveal()
    t.up_die("+1")
    t.bonus("blue")
    t.land("50")
    t.reveal()
    t.roll("(50)", "60", "20")  # the Main Roll uses the chosen dice again
    assert GAME.chance(t.state) is None and t.view()["unused"] == list(LOW)
    t.reveal()
    t.up_die("+3")
    assert GAME.chance(t.state) == {"kind": "dice", "dice": list(LOW), "faces": 6}


def test_when_everyone_goes_out_before_the_up_die_the_round_ends_there():
    t = Table(2)
    t.choose(*HIGH)
    t.roll("(50)", "60", "20")
    events = t.reveal(0, 1)
    assert "round_end" in types(events) and t.phase == "choose_dice"
    assert t.scores == [130, 130]


# --- the end of the game ----------------------------------------------------------------------


def test_the_game_ends_only_at_the_end_of_a_round_and_the_highest_wins():
    t = Table(3, target=500)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal()
    t.roll("100", "70", "70")
    t.reveal()
    t.roll("50", "60", "20")
    t.reveal(1)  # P1 reaches the target mid-round ...
    assert t.scores[1] == 610 and not t.view()["over"] and t.phase == "roll"
    t.roll("100", "70", "70")
    t.reveal(0)  # ... and P0 passes them before the round ends
    events = t.roll("*", "*", "20")
    assert types(events)[-2:] == ["round_end", "game_over"]
    assert GAME.result(t.state)["winners"] == [0] and t.view()["over"]
    assert GAME.result(t.state)["ranking"] == [0, 1, 2]
    assert GAME.chance(t.state) is None and GAME.timer(t.state) is None
    assert all(GAME.legal_actions(t.state, seat) == [] for seat in range(3))


def test_the_shout_bonus_counts_at_the_end_of_the_round_too():
    t = Table(2, target=300)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(1)  # P1: 240
    t.roll("*", "*", "*")
    t.act(1, SHOUT)  # P1: 440, over the target — but the round goes on
    assert not t.view()["over"]
    t.reveal(0)
    assert GAME.result(t.state)["winners"] == [1] and t.scores == [340, 440]


def test_a_tie_on_top_plays_an_extra_round():
    t = Table(3, target=200)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    events = t.reveal(0, 1, 2)
    assert {"type": "extra_round", "number": 1, "tied": [0, 1, 2]} in events
    assert not t.view()["over"] and t.view()["extra_round"] == 1 and t.active == 1
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(2)
    t.roll("*", "*", "20")
    assert GAME.result(t.state)["winners"] == [2]
    assert GAME.result(t.state)["extra_rounds"] == 1


def test_a_tie_below_the_top_does_not_matter():
    t = Table(3, target=200)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(1, 2)
    t.roll("50", "60", "20")
    t.reveal(0)
    assert GAME.result(t.state)["winners"] == [0] and t.scores == [370, 240, 240]


def test_still_tied_after_three_extra_rounds_the_tied_players_share_the_win():
    t = Table(3, target=200)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(0, 1)
    t.roll("*", "*", "20")  # P2 busts: P0 and P1 tie at 240
    for extra in (1, 2, 3):
        assert t.view()["extra_round"] == extra and not t.view()["over"]
        t.choose(*HIGH)
        t.roll("*", "*", "20")  # nobody scores
    result = GAME.result(t.state)
    assert result["winners"] == [0, 1] and result["shared"] and result["extra_rounds"] == 3


def test_after_an_extra_round_only_the_top_counts_not_the_target():
    t = Table(2, target=200)
    t.choose(*LOW)
    t.roll("30", "(10)", "20")
    t.reveal()
    t.up_die("x2")  # 120
    t.reveal()
    t.roll("40", "50", "20")  # 230
    t.reveal(0, 1)  # a tie at 230: extra round, P1 active
    t.choose(*LOW)
    t.roll("30", "(10)", "20")  # 60
    t.reveal()
    t.up_die("-100")  # -40
    t.reveal(0)  # P0: 190
    t.roll("(40)", "10", "20")  # 30
    t.reveal()
    t.up_die("-100")  # -70
    t.reveal(1)  # P1: 160
    assert t.scores == [190, 160]
    assert GAME.result(t.state)["winners"] == [0]  # below the target, yet the top


# --- variants ---------------------------------------------------------------------------------


def test_everyone_rolls_once_ends_after_each_player_was_active_whatever_the_target():
    t = Table(3, once_each=True, target=500)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal()
    t.roll("100", "70", "70")
    t.reveal()
    t.roll("50", "60", "20")
    t.reveal(0, 1, 2)  # everyone past the target: no end, P1 and P2 have not rolled
    assert t.scores == [610, 610, 610]
    assert not t.view()["over"] and t.active == 1
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(0, 1, 2)
    assert not t.view()["over"] and t.active == 2
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(2)
    t.roll("*", "*", "20")
    result = GAME.result(t.state)
    assert result["winners"] == [2] and result["rounds"] == 3


def test_everyone_rolls_once_breaks_a_tie_with_extra_rounds():
    t = Table(2, once_each=True)
    for _ in range(2):
        t.choose(*HIGH)
        t.roll("*", "*", "20")
    assert t.view()["extra_round"] == 1 and t.active == 0 and not t.view()["over"]
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    t.reveal(0)
    t.roll("*", "*", "20")
    assert GAME.result(t.state)["winners"] == [0]


def test_high_stakes_rolls_the_up_die_without_a_choice_first():
    t = Table(3, high_stakes=True)
    t.choose(*HIGH)
    assert t.phase == "roll"  # no choice before the first Main Roll: everyone starts IN
    events = t.roll("(50)", "60", "20")
    assert "choice_open" not in types(events)
    assert t.phase == "up_die" and t.view(0)["legal"] == ["roll"]
    t.up_die("+100")
    # The one choice of this roll, before the next Main Roll.
    assert t.phase == "choice" and t.view()["choice_for"] == "reveal"
    t.reveal(1)
    assert t.scores == [0, 230, 0] and t.phase == "roll"


def test_high_stakes_keeps_the_choice_before_every_later_main_roll():
    t = Table(2, high_stakes=True)
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    assert t.phase == "choice"
    t.reveal(1)
    t.roll("*", "*", "*")
    t.act(0, SHOUT)
    assert t.phase == "choice" and t.view()["choice_for"] == "reveal"


# --- the sealed choice, timers and absent players ---------------------------------------------


def _choosing(players: int = 4, **options: object) -> Table:
    t = Table(players, **options)
    t.choose(*HIGH)
    t.roll("50", "60", "20")
    return t


def test_the_choice_timer_keeps_players_who_did_not_lock_in_in():
    t = _choosing(4)
    t.token(1, "out")
    t.token(2, "in")
    assert GAME.timer(t.state) == (30, {"type": "timeout", "phase": "choice"})
    events = t.timeout()
    assert events[0] == {
        "type": "revealed",
        "out": [1],
        "stay": [0, 2, 3],
        "banked": 130,
        "timeout": True,
    }
    assert t.in_seats == [0, 2, 3]


def test_the_reveal_comes_the_moment_the_last_in_player_locks_in():
    t = _choosing(3)
    assert types(t.token(0, "in")) == ["locked"]
    assert types(t.token(2, "out")) == ["locked"]
    assert types(t.token(1, "in")) == ["locked", "revealed"]


@pytest.mark.parametrize("first, last, stays", [("out", "in", True), ("in", "out", False)])
def test_a_choice_may_change_until_the_reveal(first, last, stays):
    t = _choosing(3)
    t.token(1, first)
    assert t.view(1)["token"] == first
    t.token(1, last)
    assert t.view(1)["token"] == last
    t.token(0, "in")
    t.token(2, "in")
    assert (1 in t.in_seats) is stays


def test_no_timer_when_the_host_turned_it_off():
    t = _choosing(3, choice_seconds=0)
    assert GAME.timer(t.state) is None
    assert t.refuse(HOST, {"type": "timeout"}).code == "no_timer"


@pytest.mark.parametrize("seconds", [5, 20])
def test_the_shout_window_uses_its_own_timer(seconds):
    t = Table(2, shout_seconds=seconds, choice_seconds=0)
    t.choose(*HIGH)
    t.roll("*", "*", "*")
    assert GAME.timer(t.state) == (seconds, {"type": "timeout", "phase": "shout"})


def test_no_timer_runs_while_the_active_player_thinks():
    t = Table(2)
    assert GAME.timer(t.state) is None
    t.choose(*HIGH)
    assert GAME.timer(t.state) is None


def test_going_away_clears_a_lock_and_the_player_stays_in():
    t = _choosing(3)
    t.token(1, "out")
    events = t.act(HOST, {"type": "away", "seat": 1})
    assert events == [{"type": "away", "seat": 1}]
    assert t.view()["locked"] == [False, False, False] and t.view(1)["token"] is None
    assert t.view()["away"] == [False, True, False]
    t.token(0, "in")
    events = t.token(2, "in")
    assert t.phase == "choice" and types(events) == ["locked"]  # the absent player is awaited
    events = t.timeout()
    assert events[-1]["type"] == "revealed" and events[-1]["stay"] == [0, 1, 2]
    assert events[-1]["timeout"] is True


def test_going_away_as_the_last_one_missing_does_not_reveal():
    """Rules: "A disconnected player counts as not locked in" — so not everyone has locked in."""
    t = _choosing(3)
    t.token(0, "in")
    t.token(2, "out")
    events = t.act(HOST, {"type": "away", "seat": 1})
    assert types(events) == ["away"] and t.phase == "choice"
    events = t.timeout()
    assert events[-1]["out"] == [2] and events[-1]["stay"] == [0, 1]


def test_a_player_who_is_back_is_awaited_again():
    t = _choosing(3)
    t.act(HOST, {"type": "away", "seat": 1})
    assert t.refuse(1, {"type": "token", "side": "out"}).code == "away"
    assert t.act(HOST, {"type": "back", "seat": 1}) == [{"type": "back", "seat": 1}]
    t.token(0, "in")
    t.token(2, "in")
    assert t.phase == "choice"
    t.token(1, "out")
    assert t.in_seats == [0, 2]


# --- every refusal ----------------------------------------------------------------------------


def _fresh() -> Table:
    return Table(3)


def _dice_chosen() -> Table:
    t = Table(3)
    t.choose(*HIGH)
    return t


def _main_rolling() -> Table:
    t = _dice_chosen()
    t.act(0, {"type": "roll"})
    return t


def _choice_with_p1_out() -> Table:
    t = _choosing(3)
    t.reveal(1)
    t.roll("50", "60", "20")
    return t


def _up_rolling() -> Table:
    t = _dice_chosen()
    t.roll("(50)", "60", "20")
    t.reveal()
    t.act(0, {"type": "roll"})
    return t


def _picking_two_bonus_dice() -> Table:
    t = _dice_chosen()
    t.roll("(50)", "60", "20")
    t.reveal()
    t.up_die("+2")
    return t


def _up_die_due() -> Table:
    t = _dice_chosen()
    t.roll("(50)", "60", "20")
    t.reveal()
    return t


def _p1_away() -> Table:
    t = _choosing(3)
    t.act(HOST, {"type": "away", "seat": 1})
    return t


def _shout_taken() -> Table:
    t = _dice_chosen()
    t.roll("*", "*", "*")
    t.act(2, SHOUT)
    return t


def _shout_open() -> Table:
    t = _dice_chosen()
    t.roll("*", "*", "*")
    return t


def _over() -> Table:
    t = Table(2, target=200)
    t.choose(*HIGH)
    t.roll("100", "70", "70")
    t.reveal(0)
    t.roll("*", "*", "20")
    assert t.view()["over"]
    return t


ROLL = {"type": "roll"}
REFUSALS: list[tuple[Callable[[], Table], int, object, str]] = [
    (_fresh, 0, {"type": "dance"}, "unknown_action"),
    (_fresh, 0, {}, "unknown_action"),
    (_fresh, 0, "roll", "unknown_action"),
    (_fresh, 0, {"type": 3}, "unknown_action"),
    (_fresh, 0, {"type": "roll", "junk": "x" * 60000}, "unknown_field"),
    (_fresh, 0, {"type": "choose_dice", "dice": ["red", "blue", "green"], "x": 1}, "unknown_field"),
    (_over, 0, ROLL, "game_over"),
    (_over, HOST, {"type": "away", "seat": 0}, "game_over"),
    (_fresh, 0, {"type": "timeout"}, "not_host"),
    (_fresh, CHANCE, {"type": "away", "seat": 1}, "not_host"),
    (_main_rolling, 0, {"type": "chance", "outcome": [3, 3, 3]}, "not_chance"),
    (_main_rolling, HOST, {"type": "chance", "outcome": [3, 3, 3]}, "not_chance"),
    (_dice_chosen, 3, ROLL, "bad_seat"),
    (_dice_chosen, HOST, ROLL, "bad_seat"),
    (_dice_chosen, CHANCE, ROLL, "bad_seat"),
    (_dice_chosen, True, ROLL, "bad_seat"),
    (_fresh, HOST, {"type": "away", "seat": 5}, "bad_seat"),
    (_fresh, HOST, {"type": "away", "seat": "1"}, "bad_seat"),
    (_fresh, HOST, {"type": "back"}, "bad_seat"),
    (_p1_away, 1, {"type": "token", "side": "in"}, "away"),
    (_p1_away, 1, SHOUT, "away"),
    (_fresh, 0, ROLL, "wrong_phase"),
    (_fresh, 0, {"type": "bonus_dice", "dice": ["blue"]}, "wrong_phase"),
    (_fresh, 1, {"type": "token", "side": "in"}, "wrong_phase"),
    (_fresh, CHANCE, {"type": "chance", "outcome": [0, 0, 0]}, "wrong_phase"),
    (_dice_chosen, 0, {"type": "choose_dice", "dice": list(LOW)}, "wrong_phase"),
    (_main_rolling, 0, ROLL, "wrong_phase"),
    (_choosing, 0, ROLL, "wrong_phase"),
    (_up_die_due, 0, {"type": "token", "side": "out"}, "wrong_phase"),
    (_fresh, 1, {"type": "choose_dice", "dice": list(HIGH)}, "not_your_turn"),
    (_dice_chosen, 1, ROLL, "not_your_turn"),
    (_up_die_due, 2, ROLL, "not_your_turn"),
    (
        _picking_two_bonus_dice,
        1,
        {"type": "bonus_dice", "dice": ["blue", "green"]},
        "not_your_turn",
    ),
    (_fresh, 0, {"type": "choose_dice", "dice": ["red", "orange"]}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice", "dice": ["red", "orange", "yellow", "green"]}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice", "dice": ["red", "red", "yellow"]}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice", "dice": ["red", "pink", "yellow"]}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice", "dice": "red orange yellow"}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice", "dice": [0, 1, 2]}, "bad_dice"),
    (_fresh, 0, {"type": "choose_dice"}, "bad_dice"),
    (_picking_two_bonus_dice, 0, {"type": "bonus_dice", "dice": ["blue"]}, "bad_dice"),
    (_picking_two_bonus_dice, 0, {"type": "bonus_dice", "dice": ["blue", "red"]}, "bad_dice"),
    (_picking_two_bonus_dice, 0, {"type": "bonus_dice", "dice": ["blue", "blue"]}, "bad_dice"),
    (_picking_two_bonus_dice, 0, {"type": "bonus_dice", "dice": list(LOW)}, "bad_dice"),
    (_choosing, 1, {"type": "token", "side": "maybe"}, "bad_side"),
    (_choosing, 1, {"type": "token", "side": "IN"}, "bad_side"),
    (_choosing, 1, {"type": "token"}, "bad_side"),
    (_choice_with_p1_out, 1, {"type": "token", "side": "in"}, "already_out"),
    (_main_rolling, CHANCE, {"type": "chance", "outcome": [0, 0]}, "bad_outcome"),
    (_main_rolling, CHANCE, {"type": "chance", "outcome": [0, 0, 6]}, "bad_outcome"),
    (_main_rolling, CHANCE, {"type": "chance", "outcome": [0, -1, 0]}, "bad_outcome"),
    (_main_rolling, CHANCE, {"type": "chance", "outcome": [True, 0, 0]}, "bad_outcome"),
    (_main_rolling, CHANCE, {"type": "chance", "outcome": "000"}, "bad_outcome"),
    (_main_rolling, CHANCE, {"type": "chance"}, "bad_outcome"),
    (_up_rolling, CHANCE, {"type": "chance", "outcome": [0]}, "bad_outcome"),
    (_up_rolling, CHANCE, {"type": "chance", "outcome": 6}, "bad_outcome"),
    (_up_rolling, CHANCE, {"type": "chance", "outcome": 2.0}, "bad_outcome"),
    (_fresh, HOST, {"type": "timeout"}, "no_timer"),
    (_up_die_due, HOST, {"type": "timeout"}, "no_timer"),
    (_choosing, HOST, {"type": "timeout", "phase": "shout"}, "stale_timeout"),
    (_shout_open, HOST, {"type": "timeout", "phase": "choice"}, "stale_timeout"),
    (_shout_taken, 1, SHOUT, "too_late"),
    (_dice_chosen, 1, SHOUT, "no_tally_up"),
    (_p1_away, HOST, {"type": "away", "seat": 1}, "already_away"),
    (_fresh, HOST, {"type": "back", "seat": 1}, "not_away"),
]


@pytest.mark.parametrize(
    "moment, seat, action, code",
    REFUSALS,
    ids=[
        f"{code}-{moment.__name__.strip('_')}-{n}"
        for n, (moment, _, _, code) in enumerate(REFUSALS)
    ],
)
def test_the_rules_refuse_and_leave_the_state_unchanged(moment, seat, action, code):
    refused = moment().refuse(seat, action)
    assert refused.code == code
    assert refused.key == f"illegal.{code}"


def test_the_refusals_cover_every_code_the_rules_raise_and_the_package_documents():
    import games.tallyup
    from games.tallyup import rules

    raised = set(
        re.findall(
            r'IllegalAction\(\s*"(\w+)"', inspect.getsource(rules) + inspect.getsource(rulebook)
        )
    )
    assert {code for *_, code in REFUSALS} == raised
    assert all(f"`{code}`" in games.tallyup.__doc__ for code in raised)
