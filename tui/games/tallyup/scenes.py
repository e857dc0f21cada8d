"""Tally Up!'s scenes (`tui.scenes`): one scripted game in every phase, the table and Ann's
laptop, and a table of ten."""

from __future__ import annotations

from collections.abc import Callable

from games import GAMES
from tui.i18n import lang
from tui.scenes import (
    ANN,
    BORIS,
    BOT,
    CODE,
    FULL_NAMES,
    Scene,
    Table,
    full_game_table,
    host_scene,
    lobby_table,
    player_scene,
    turn_clock,
)


class TallyUpTable(Table):
    """A table of Tally Up!, its moves by name."""

    def choose(self, seat: int, *dice: str) -> None:
        self.act(seat, {"type": "choose_dice", "dice": list(dice)})

    def roll(self, seat: int, *faces: int) -> None:
        """The Main Roll with these faces (one per chosen die, in table order), or the Up Die
        with one face."""
        self.act(seat, {"type": "roll"}, faces)

    def seal(self, seat: int, side: str) -> None:
        self.act(seat, {"type": "token", "side": side})


TALLYUP_MOMENTS = (
    "tally-up",
    "choose-dice",
    "sealed",
    "reveal",
    "bust",
    "up-die",
    "end",
)


def tallyup_table(moment: str) -> TallyUpTable:
    """One scripted game of Tally Up! to 1000, every die's face chosen, stopped at `moment`
    (one of TALLYUP_MOMENTS, in the order the game reaches them). Its last action is the one
    that brought the moment: host scenes hand its events to the table on their own.

    Round 1 (Ann): 220, Boris OUT; 90 more, Ann and Bot 1 OUT. Round 2 (Boris): 120, Bot 1
    OUT; bust, Ann and Boris lose 120. Round 3 (Bot 1): three stars, Ann shouts. Round 4
    (Ann): chooses, 80, Ann seals IN, Boris OUT, Bot 1 IN; bust. Round 5 (Boris): circles,
    the Up Die ×2, then everyone OUT in turn. Round 6 (Bot 1): Ann banks 240 and wins."""
    assert moment in TALLYUP_MOMENTS, moment
    assert "tallyup" in GAMES, "these scenes need Tally Up!"
    table = lobby_table("tallyup", TallyUpTable)
    room = table.room
    room.connected(BORIS, returning=True)
    room.set_option("target", 1000)
    room.start(lang=lang())
    t = table
    # round 1: Ann
    t.choose(ANN, "red", "yellow", "blue")
    t.roll(ANN, 5, 5, 5)  # 100 + 70 + 50
    t.seal(ANN, "in")
    t.seal(BORIS, "out")
    t.seal(BOT, "in")
    t.roll(ANN, 3, 2, 4)  # 50 + 20 + 20: 310
    t.seal(ANN, "out")
    t.seal(BOT, "out")
    # round 2: Boris
    t.choose(BORIS, "orange", "green", "purple")
    t.roll(BORIS, 3, 4, 3)  # 60 + 40 + 20
    t.seal(ANN, "in")
    t.seal(BORIS, "in")
    t.seal(BOT, "out")
    t.roll(BORIS, 5, 0, 0)  # two stars: Ann and Boris lose 120
    # round 3: Bot 1
    t.choose(BOT, "red", "orange", "yellow")
    t.roll(BOT, 0, 0, 0)  # three stars
    if moment == "tally-up":
        return t
    t.act(ANN, {"type": "shout"})
    for seat in (ANN, BORIS, BOT):
        t.seal(seat, "out")
    # round 4: Ann
    if moment == "choose-dice":
        return t
    t.choose(ANN, "red", "yellow", "blue")
    t.roll(ANN, 3, 2, 3)  # 50 + 20 + 10
    t.seal(BORIS, "out")
    t.seal(ANN, "in")
    if moment == "sealed":
        return t
    t.seal(BOT, "in")  # the reveal: Boris banks 80
    if moment == "reveal":
        return t
    t.roll(ANN, 0, 0, 5)  # two stars: Ann and Bot 1 lose 80
    if moment == "bust":
        return t
    # round 5: Boris
    t.choose(BORIS, "orange", "green", "purple")
    t.roll(BORIS, 4, 3, 3)  # (70) + (40) + 20: circles, the Up Die is due
    t.seal(ANN, "in")
    t.seal(BORIS, "in")
    t.seal(BOT, "out")
    t.roll(BORIS, 5)  # the Up Die: ×2, 260
    if moment == "up-die":
        return t
    t.seal(ANN, "out")
    t.seal(BORIS, "in")
    t.roll(BORIS, 3, 5, 4)  # 60 + 40 + 20
    t.seal(BORIS, "out")
    # round 6: Bot 1
    t.choose(BOT, "red", "orange", "yellow")
    t.roll(BOT, 5, 5, 5)  # 100 + 70 + 70
    t.seal(ANN, "out")  # 1010: past the target
    t.seal(BORIS, "in")
    t.seal(BOT, "in")
    t.roll(BOT, 0, 0, 3)  # two stars: Boris and Bot 1 lose 240, the game is over
    assert room.phase == "over", room.game_view(None)
    return t


def tallyup_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return tallyup_table(moment)

    make.__name__ = f"tallyup_{moment.replace('-', '_')}"
    return make


def bonus_table() -> Table:
    """Four players, the bonus dice of an Up Die's +1 rolled: the last roll, the bonus roll
    and every player on a small screen at once."""
    table = Table(game_id="tallyup")
    for player in FULL_NAMES[:4]:
        table.seat(player)
    table.room.start(lang=lang())
    table.play(lambda v: bool(v["bonus"]) and v["phase"] == "choice")
    assert (table.room.game_view(None) or {}).get("bonus"), "no bonus roll came up"
    return table


def once_each_table() -> Table:
    """Five players in "Everyone rolls once" (the target is not used), in the second round
    or later, the active player to roll again with points on the table; Darya's laptop is
    gone and someone at the door asks for her seat by name: the join prompt over two lines,
    the footer on two (the host may nudge too)."""
    table = Table(game_id="tallyup")
    for player in FULL_NAMES[:5]:
        table.seat(player)
    table.room.set_option("once_each", True)
    table.room.start(lang=lang())
    table.play(lambda v: v["round"] >= 2 and v["phase"] == "roll" and v["running_total"] > 0)
    table.room.disconnected(4)
    table.room.claim("Darya", CODE, "192.0.2.2:44434", lambda token: None)
    return table


def full_table() -> Table:
    """Ten players, the second round's sealed choice open with points on the table."""
    return full_game_table(
        "tallyup",
        reached=lambda v: v["round"] >= 2 and v["phase"] == "choice" and v["running_total"] > 0,
    )


SCENES: tuple[Scene, ...] = (
    Scene(
        "player-game-full",
        "Playing at a table of ten, the player's own seat the last",
        player_scene(full_table, screen="GameScreen", you=9),
        snapshot=False,
    ),
    Scene(
        "host-table-full",
        "The table of a game of ten: the total and the roll on a line each",
        host_scene(full_table),
        snapshot=False,
    ),
    Scene(
        "host-tallyup-once-each",
        "Tally Up! table, everyone rolls once (no target), someone asking for a seat",
        host_scene(once_each_table),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-once-each",
        "Tally Up! player, everyone rolls once: no target in the status line",
        player_scene(once_each_table, screen="GameScreen"),
        snapshot=False,
    ),
    # Tally Up! in every phase, one scripted game (tallyup_table), the table and Ann's laptop
    Scene(
        "host-tallyup-choose-dice",
        "Tally Up! table: the active player chooses dice",
        host_scene(tallyup_at("choose-dice"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-choose-dice",
        "Tally Up! player: choosing dice, three picked with number keys (1 3 5), the odds",
        player_scene(tallyup_at("choose-dice"), screen="GameScreen"),
        ("1", "3", "5"),
        big=True,
        snapshot=("en-80x24",),
        phone=("en",),
    ),
    Scene(
        "host-tallyup-turn-time",
        "Tally Up! table: the active player's turn time runs (n nudges)",
        host_scene(turn_clock(tallyup_at("choose-dice")), last_apart=True, timer=42),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-turn-time",
        "Tally Up! player: your move has a turn time, then the bot makes it",
        player_scene(turn_clock(tallyup_at("choose-dice")), screen="GameScreen", timer=42),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tallyup-nudged",
        "Tally Up! player: the host nudged you, 8 s left",
        player_scene(
            turn_clock(tallyup_at("choose-dice"), nudged=True), screen="GameScreen", timer=8
        ),
        snapshot=False,
    ),
    Scene(
        "host-tallyup-sealed",
        "Tally Up! table: the sealed choice, two of three locked in",
        host_scene(tallyup_at("sealed"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-sealed",
        "Tally Up! player: the sealed choice, IN sealed",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-watch-tallyup-sealed",
        "Tally Up! watched from a laptop (join --watch): the public table, nobody's side",
        player_scene(tallyup_at("sealed"), screen="WatchScreen", watch=True),
        big=True,
    ),
    Scene(
        "player-tallyup-chart",
        "Tally Up! player: the Dice Roll Card (d), every die's faces and risk",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        ("d",),
        snapshot=False,
    ),
    Scene(
        "player-game-story",
        "Playing on a phone: the seats and the whole story (l), which have no room beside the hand",
        player_scene(tallyup_at("sealed"), screen="GameScreen"),
        ("l",),
        snapshot=False,
        phone_only=True,
    ),
    Scene(
        "host-tallyup-reveal-beat",
        "Tally Up! table: the reveal's count, on 3…!",
        host_scene(tallyup_at("reveal"), last_apart=True, beat=2),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-reveal",
        "Tally Up! table: right after the reveal, Boris OUT and banked",
        host_scene(tallyup_at("reveal"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-reveal",
        "Tally Up! player: right after the reveal, still IN and to roll",
        player_scene(tallyup_at("reveal"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-bust",
        "Tally Up! table: right after a bust (the next round has begun)",
        host_scene(tallyup_at("bust"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-tallyup-bust",
        "Tally Up! player: right after a bust",
        player_scene(tallyup_at("bust"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-tally-up",
        "Tally Up! table: three stars, TALLY UP!",
        host_scene(tallyup_at("tally-up"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-tally-up",
        "Tally Up! player: three stars, press Space",
        player_scene(tallyup_at("tally-up"), screen="GameScreen"),
        big=True,
        snapshot=("ru-80x24",),
    ),
    Scene(
        "host-tallyup-bonus",
        "Tally Up! table of four: a bonus roll beside the last roll (the players all shown)",
        host_scene(bonus_table),
        snapshot=False,
    ),
    Scene(
        "player-tallyup-bonus",
        "Tally Up! player: the bonus dice rolled beside the last roll, IN or OUT to choose",
        player_scene(bonus_table, screen="GameScreen"),
        snapshot=False,
    ),
    Scene(
        "host-tallyup-up-die",
        "Tally Up! table: the Up Die rolled (×2) beside the last roll",
        host_scene(tallyup_at("up-die"), last_apart=True),
        big=True,
        snapshot=("ru-120x40",),
    ),
    Scene(
        "player-tallyup-up-die",
        "Tally Up! player: the sealed choice after the Up Die",
        player_scene(tallyup_at("up-die"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-tallyup-end",
        "Tally Up! table: the end, results and the round-by-round chart",
        host_scene(tallyup_at("end")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-tallyup-end",
        "Tally Up! player: the end",
        player_scene(tallyup_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=False,
    ),
)
