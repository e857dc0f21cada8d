"""On a Scale of One to T-Rex's scenes (`tui.scenes`): one scripted game, every shuffle's top
cards chosen, and a table of eight."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.trex.stacked import byebye, stack
from net.room import Room
from tui.i18n import lang
from tui.scenes import ANN, BOB, CID, DANA, Scene, Table, full_game_table, host_scene, player_scene


class Shuffles(random.Random):
    """T-Rex's randomness: the room still shuffles every pile itself (and the rules check the
    permutation), but the cards a scene queued come up on top (`games.trex.stacked.stack`), the
    rest of the pile keeping its order beneath them; with nothing queued, seeded chance."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.room: Room | None = None
        self.queued: list[Sequence[Any]] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        if not self.queued:
            super().shuffle(x)
            return
        assert self.room is not None and self.room.state is not None
        x[:] = stack(self.room.state, self.queued.pop(0))


class TRexTable(Table):
    """A T-Rex room of people (T-Rex has no bots) whose every shuffle brings up named cards."""

    def __init__(self, *names: str) -> None:
        self.cards = Shuffles(1)
        super().__init__("trex", rng=self.cards)
        self.cards.room = self.room
        for player in names:
            self.seat(player)

    def start(self, *tops: Sequence[Any]) -> None:
        """The game begins; `tops` are the cards each setup shuffle puts on top, in the order
        the room shuffles: the red, blue and yellow actions (an index into the colour's texts;
        the first is turned up), then the number deck (the hands, seat 0 first, then every
        later draw in order: it is not shuffled again unless it runs out)."""
        self.cards.queued = list(tops)
        self.room.start(lang=lang())
        assert not self.cards.queued, f"start: shuffles left over {self.cards.queued}"

    def act(self, seat: int, action: dict[str, Any], tops: Sequence[Sequence[Any]] = ()) -> None:
        """A real action of `seat`; `tops`: the top cards of the shuffles it sets off, if any."""
        self.cards.queued = list(tops)
        self.room.act(seat, action)
        assert not self.cards.queued, f"{action}: shuffles left over {self.cards.queued}"

    def offer(self, seat: int, to: int) -> None:
        self.act(seat, {"type": "offer", "to": to})

    def accept(self, seat: int, offerer: int, tops: Sequence[Sequence[Any]] = ()) -> None:
        self.act(seat, {"type": "accept", "from": offerer}, tops)

    def match(self, offerer: int, accepter: int, tops: Sequence[Sequence[Any]] = ()) -> None:
        self.offer(offerer, accepter)
        self.accept(accepter, offerer, tops)

    def call(self, seat: int, match: bool) -> None:
        self.act(seat, {"type": "call", "match": match})


TREX_NAMES = ("Ann", "Bob", "Cid", "Dana")
TREX_ACTIONS = ([1], [0], [7])
"""The red, blue and yellow actions turned up (indexes into each language's texts: some of the
longest of both decks, and the blue one is "Be a T-Rex making its bed")."""

TREX_MOMENTS = ("fresh", "offer", "match", "byebye", "left", "ended", "vote", "end", "coop")


def trex_table(moment: str) -> TRexTable:
    """One scripted game of T-Rex for four (20 good tokens, 10 bad), every card chosen, stopped
    at `moment` (one of TREX_MOMENTS); "coop" is a game of two of its own (`trex_coop_table`).

    Dealt: Ann blue 7, Bob yellow 7, Cid red 3, Dana red 9. Ann offers Bob; Cid offers Ann.
    Bob accepts: 7 and 7, exact. Dana skips and draws a bye-bye: the red action (Ann's colour
    now) changes. Ann accepts Cid's offer: 3 and 8, far. Dana ⇄ Cid 5 and 5; Bob ⇄ Dana 6 and
    6; Ann ⇄ Cid 2 and 3; Dana ⇄ Bob 10 and 10; Ann ⇄ Cid 5 and 4 empties the good pile with
    Bob and Dana tied on 6: sudden death in blue. Cid votes Dana; then Ann votes Dana, the
    T-Rex. Or ("left", "ended") after the bye-bye Cid leaves the game; then Dana does, and
    two are too few: the game ends."""
    assert moment in TREX_MOMENTS, moment
    if moment == "coop":
        return trex_coop_table()
    t = TRexTable(*TREX_NAMES)
    t.start(
        *TREX_ACTIONS,
        [
            *[("blue", 7), ("yellow", 7), ("red", 3), ("red", 9)],  # the hands
            *[("red", 8), ("blue", 6)],  # Ann, Bob after their match
            *[byebye("red"), ("yellow", 5)],  # Dana's skip: a bye-bye, then a card
            *[("blue", 5), ("yellow", 2)],  # Cid, Ann
            *[("red", 6), ("yellow", 3)],  # Dana, Cid
            *[("yellow", 10), ("blue", 10)],  # Bob, Dana
            *[("red", 5), ("blue", 4)],  # Ann, Cid
            *[("red", 4), ("blue", 3)],  # Dana, Bob
        ],
    )
    if moment == "fresh":
        return t
    t.offer(ANN, BOB)
    t.offer(CID, ANN)
    if moment == "offer":
        return t
    t.accept(BOB, ANN)  # 7 and 7: exact, +2 each
    if moment == "match":
        return t
    t.act(DANA, {"type": "skip"})  # the red action changes
    if moment == "byebye":
        return t
    if moment in ("left", "ended"):
        t.room.leave(CID)
        if moment == "ended":
            t.room.leave(DANA)
        return t
    t.accept(ANN, CID)  # 3 and 8: far, a bad token each
    t.match(DANA, CID)  # 5 and 5
    t.match(BOB, DANA)  # 6 and 6
    t.match(ANN, CID)  # 2 and 3: close
    t.match(DANA, BOB)  # 10 and 10
    t.match(ANN, CID, tops=[["blue"]])  # 5 and 4: the good pile is empty, sudden death in blue
    t.act(CID, {"type": "vote", "for": DANA})
    if moment == "vote":
        return t
    t.act(ANN, {"type": "vote", "for": DANA})
    assert t.room.phase == "over", t.room.game_view(None)
    return t


def trex_coop_table() -> TRexTable:
    """The two-player game: Ann red 5, Bob yellow 6, both call MATCH (right: one token to the
    box); then Ann blue 8, Bob red 3, and Bob has called."""
    t = TRexTable(*TREX_NAMES[:2])
    t.start(*TREX_ACTIONS, [("red", 5), ("yellow", 6), ("blue", 8), ("red", 3)])
    t.call(ANN, True)
    t.call(BOB, True)
    t.call(BOB, False)
    return t


def trex_two_offers() -> Table:
    """The offer moment, and Dana offers Ann her card too: two offers wait for Ann."""
    t = trex_table("offer")
    t.offer(DANA, ANN)
    return t


def trex_at(moment: str) -> Callable[[], Table]:
    def make() -> Table:
        return trex_table(moment)

    make.__name__ = f"trex_{moment}"
    return make


def trex_lobby() -> Table:
    """Four seated, T-Rex chosen: its options (the vote's time, the cards' language)."""
    t = Table("trex")
    for player in TREX_NAMES:
        t.seat(player)
    return t


SCENES: tuple[Scene, ...] = (
    Scene(
        "host-lobby-trex",
        "Host lobby with T-Rex chosen: its options (time to vote, the cards' language)",
        host_scene(trex_lobby),
        snapshot=("en-80x24", "ru-80x24"),
    ),
    Scene(
        "host-table-full-trex",
        "On a Scale of One to T-Rex with eight players (its most)",
        host_scene(lambda: full_game_table("trex")),
        snapshot=False,
    ),
    Scene(
        "player-game-full-trex",
        "A player's hand at a T-Rex table of eight",
        player_scene(lambda: full_game_table("trex"), screen="GameScreen", you=7),
        snapshot=False,
    ),
    # T-Rex in every moment, one scripted game for four (trex_table), the table and Ann's laptop
    Scene(
        "host-trex-fresh",
        "T-Rex table: a fresh game for four, the three actions, the piles full",
        host_scene(trex_at("fresh"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-card",
        "T-Rex player: the card to perform (its action, the level big and on a 1..10 scale)",
        player_scene(trex_at("fresh"), screen="GameScreen"),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-trex-offer",
        "T-Rex player: Cid offers Ann his card (a accept, x decline); her own offer is out to Bob",
        player_scene(trex_at("offer"), screen="GameScreen"),
        big=True,
        snapshot=("ru-80x24",),
        phone=("ru",),
    ),
    Scene(
        "player-trex-pick-offer",
        "T-Rex player: two offers wait, `a` asks whose to accept (its number, or a tap)",
        player_scene(trex_two_offers, screen="GameScreen"),
        ("a",),
        snapshot=False,
    ),
    Scene(
        "player-watch-trex-vote",
        "T-Rex watched (join --watch): the sudden-death vote on the public table",
        player_scene(trex_at("vote"), screen="WatchScreen", watch=True),
        snapshot=False,
    ),
    Scene(
        "host-trex-match",
        "T-Rex table: Bob accepted Ann's offer, 7 and 7, exact",
        host_scene(trex_at("match"), last_apart=True),
        big=True,
        snapshot=("en-80x24",),
    ),
    Scene(
        "player-trex-match",
        "T-Rex player: after the match, both cards told, a new card",
        player_scene(trex_at("match"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-byebye",
        "T-Rex table: Dana skipped and drew a bye-bye, the red action changed",
        host_scene(trex_at("byebye"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-byebye",
        "T-Rex player: the bye-bye changed the action of Ann's card",
        player_scene(trex_at("byebye"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-left",
        "T-Rex table: Cid left the game: his offer is gone, the scoreboard says he left",
        host_scene(trex_at("left")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-ended",
        "T-Rex table: Dana left too, two are too few: the game ends, and says why",
        host_scene(trex_at("ended")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-ended",
        "T-Rex player: the results say why the game ended (too few were left in it)",
        player_scene(trex_at("ended"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-vote",
        "T-Rex table: sudden death, Bob and Dana tied, their new actions at level 10, one vote in",
        host_scene(trex_at("vote"), last_apart=True),
        big=True,
        snapshot=("en-120x40",),
    ),
    Scene(
        "player-trex-vote",
        "T-Rex player: Ann votes for a tied player by number, the vote's time counting",
        player_scene(trex_at("vote"), screen="GameScreen", timer=42.0),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-end",
        "T-Rex table: the end, the T-Rex and the results",
        host_scene(trex_at("end")),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-end",
        "T-Rex player: the end",
        player_scene(trex_at("end"), screen="PlayerResultsScreen"),
        big=True,
        snapshot=False,
    ),
    Scene(
        "host-trex-coop",
        "T-Rex table: the two-player game, a round called right, Bob has called again",
        host_scene(trex_at("coop"), last_apart=True),
        big=True,
        snapshot=False,
    ),
    Scene(
        "player-trex-coop",
        "T-Rex player: the two-player game, call m MATCH or n NO MATCH",
        player_scene(trex_at("coop"), screen="GameScreen"),
        big=True,
        snapshot=False,
    ),
)
