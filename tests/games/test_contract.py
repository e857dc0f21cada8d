"""What every registered game owes the host, checked the same way for each: it plays to an
end by random legal moves (its state plain data, every view encodable, an illegal move
harmless), its log replays to the same state, every chance it asks for is one the host draws
without knowing the game, a seat's view only adds to the table's, no move's events and no
other seat's view carry a seat's secret (on the bytes), and every action is taken or refused
cleanly from every seat at every moment. A game gets all of it by registering; its words are
checked the same way in `tests/tui/test_game_words.py`."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import msgpack
import pytest

from games import GAMES
from games.base import IllegalAction, sample_chance
from games.testing import assert_general_chance, random_playout, replay


@pytest.fixture(params=sorted(GAMES))
def game(request):
    return GAMES[request.param]


@pytest.mark.parametrize("seed", range(3))
def test_a_random_game_ends_and_its_log_replays_to_the_same_state(game, seed):
    players = [f"P{n}" for n in range(max(game.min_players, 3))][: game.max_players]
    state, log = random_playout(game, players, None, random.Random(seed))
    assert game.result(state) is not None
    assert replay(game, players, None, log) == state


@pytest.mark.parametrize(
    ("spec", "check"),
    [
        ({"kind": "shuffle", "size": 5}, lambda o: sorted(o) == [0, 1, 2, 3, 4]),
        ({"kind": "dice", "dice": ["a", "b", "c"], "faces": 6},
         lambda o: len(o) == 3 and all(0 <= f < 6 for f in o)),
        ({"kind": "die", "faces": 6, "die": "up"}, lambda o: isinstance(o, int) and 0 <= o < 6),
        ({"kind": "die", "faces": 1}, lambda o: o == 0),
    ],
)  # fmt: skip
def test_the_host_draws_for_a_general_chance(spec, check):
    assert_general_chance(spec)
    rng = random.Random(7)
    assert all(check(sample_chance(spec, rng)) for _ in range(50))


def test_a_chance_of_a_game_s_own_kind_is_refused():
    with pytest.raises(AssertionError):
        assert_general_chance({"kind": "up_die"})
    with pytest.raises(ValueError, match="up_die"):
        sample_chance({"kind": "up_die"}, random.Random(1))


def test_a_seat_s_view_is_the_table_s_and_its_own_added(game):
    """`view(seat) == view(None) | private_view(seat)`, no key of the table's changed: the host
    packs the table's part once for every seat (checked along a whole random game)."""
    players = [f"P{n}" for n in range(max(game.min_players, 3))][: game.max_players]
    _, log = random_playout(game, players, None, random.Random(11))
    state = game.setup(list(players), None)
    for number, (seat, action) in enumerate(log):
        game.apply(state, seat, copy.deepcopy(action))
        if number % 7:
            continue
        table = game.view(state, None)
        for who in range(len(players)):
            own = game.private_view(state, who)
            assert all(key not in table or table[key] == value for key, value in own.items())
            assert game.view(state, who) == table | own


def test_only_a_game_base_is_registered():
    from games.base import register

    class Bare:
        id = "bare"

    with pytest.raises(TypeError, match="GameBase"):
        register(Bare())  # type: ignore[arg-type]
    assert "bare" not in GAMES


def test_the_defaults_of_a_game_s_optional_parts():
    from tests.fakegame import PEEK

    state = PEEK.setup(["Ann", "Bob"])
    PEEK.apply(state, -1, {"type": "chance", "outcome": list(range(20))})
    assert PEEK.private_view(state, 1) == {"card": state["hands"][1]}  # the views compared
    assert PEEK.bot_view(state, 0) == PEEK.view(state, 0)
    assert not PEEK.takes_deck
    with pytest.raises(ValueError, match="no deck"):
        PEEK.check_deck("words.toml", "en")


def test_a_checkout_never_installed_finds_the_games_beside_the_code(monkeypatch):
    """No entry points (the project's folder run as it is, never `pip install`ed): the rules,
    the screens' style sheets and the words are found as packages instead."""
    from games.base import game_entries
    from tui.games import game_styles
    from tui.i18n import word_folders

    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [])
    shipped = {"tallyup", "trex", "tesauro"}
    assert set(game_entries()) == shipped
    assert {Path(sheet).parent.name for sheet in game_styles()} == shipped
    assert {folder.name for folder in word_folders()} >= shipped


def test_another_game_s_distribution_does_not_hide_this_project_s_games(monkeypatch):
    """Never installed, but with a game of its own distribution on the path (its entry
    points the only ones): both are found."""
    from importlib.metadata import EntryPoint

    from games.base import game_entries
    from tui.i18n import word_folders

    peek = {"hubbub.games": "tests.fakegame:PEEK", "hubbub.words": "tests.peek"}
    monkeypatch.setattr(
        "importlib.metadata.entry_points",
        lambda group: [EntryPoint("peek", peek[group], group)] if group in peek else [],
    )
    assert set(game_entries()) == {"tallyup", "trex", "tesauro", "peek"}
    assert {folder.name for folder in word_folders()} >= {"tallyup", "trex", "tesauro", "peek"}


def _players(game) -> list[str]:
    return [f"P{n}" for n in range(max(game.min_players, 3))][: game.max_players]


def _texts(value) -> set[str]:
    """Every text of a view long enough not to turn up by chance in other bytes."""
    if isinstance(value, str):
        return {value} if len(value) >= 6 else set()
    if isinstance(value, dict):
        return {found for item in value.values() for found in _texts(item)}
    if isinstance(value, list | tuple):
        return {found for item in value for found in _texts(item)}
    return set()


def _keys(value) -> set[str]:
    """Every key of a view: the protocol's own words, in every view's bytes."""
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in _keys(item)}
    if isinstance(value, list | tuple):
        return {key for item in value for key in _keys(item)}
    return set()


@pytest.mark.parametrize("seed", range(2))
def test_no_move_tells_a_secret(game, seed):
    """A text only a seat's own view had (a definition typed, a word dealt) is in no event of
    a move after which it is still no public text — looked for as the packed string it would
    be, in the packed events. (That no other seat *sees* it is the rule above: a seat's view
    is the table's and its own part, and each game's tests prove its own part's secrets.)"""
    players = _players(game)
    _, log = random_playout(game, players, None, random.Random(seed))
    state = game.setup(list(players), None)
    seats = range(len(players))
    for number, (seat, action) in enumerate(log):
        secret = {who: _texts(game.private_view(state, who)) for who in seats}
        told = msgpack.packb(game.apply(state, seat, copy.deepcopy(action)))
        public = _texts(game.view(state, None))
        public |= {key for who in seats for key in _keys(game.view(state, who))}
        for who in seats:
            for text in secret[who] - public:
                assert msgpack.packb(text) not in told, f"move {number} tells {who}'s {text!r}"


def test_every_action_is_taken_or_refused_cleanly_from_every_seat(game):
    """Every kind of action a seat ever sends, sent by every seat at moments all through a
    game: the rules take it, or refuse it with an IllegalAction and the state untouched —
    never another exception; an argument the action does not have is `unknown_field`, an
    action the game does not know `unknown_action`, before any other rule."""
    players = _players(game)
    _, log = random_playout(game, players, None, random.Random(3))
    kinds = {}
    for seat, action in log:
        if seat >= 0:
            kinds.setdefault(action["type"], action)
    state = game.setup(list(players), None)
    for number, (seat, action) in enumerate(log):
        if number % 6 == 0:
            for example in kinds.values():
                for who in range(len(players)):
                    trial = copy.deepcopy(state)
                    try:
                        game.apply(trial, who, copy.deepcopy(example))
                    except IllegalAction:
                        assert trial == state, f"a refused {example} changed the state"
                    for wrong, code in (
                        ({**example, "no_such_field": 1}, "unknown_field"),
                        ({"type": "no_such_action"}, "unknown_action"),
                    ):
                        with pytest.raises(IllegalAction) as refused:
                            game.apply(copy.deepcopy(state), who, wrong)
                        assert refused.value.code == code, (wrong, refused.value)
        game.apply(state, seat, copy.deepcopy(action))


@pytest.mark.parametrize("seed", range(2))
def test_a_turn_is_waited_on_and_its_bot_always_has_a_move_the_rules_take(game, seed):
    """Whenever a game names a turn (`turn`: the seat, its turn time), the table waits on that
    seat, no timer of the game's own runs, and the stand-in bot has a move for it that the
    rules take: the host's turn clock and nudge can never end with nothing done."""
    from net.lobby import standin_strength
    from net.turns import bot_move

    players = _players(game)
    _, log = random_playout(game, players, None, random.Random(seed))
    state = game.setup(list(players), None)
    for seat, action in log:
        turn = game.turn(state)
        if turn is not None:
            assert game.bots, "a game without bots names a turn"
            who, seconds = turn
            assert who in game.waiting_for(state) and game.timer(state) is None
            assert isinstance(seconds, int | float) and seconds >= 0
            move = bot_move(game, state, who, standin_strength(game), random.Random(seed))
            assert move is not None, f"the bot has no move for turn {turn}"
            game.apply(copy.deepcopy(state), who, move)  # taken: no IllegalAction
        game.apply(state, seat, copy.deepcopy(action))


def test_each_game_s_options_are_its_page_s_table(game):
    """§1 of a game's protocol page lists its lobby options: every key, the values in the
    lobby's order and the default, as the game declares them."""
    from tests.doctables import page, section, tables

    path = page(game.id)
    if not path.exists():
        pytest.skip(f"{game.id} is a test's game, with no page")
    found = tables(section("1", path)) if game.options else [[]]
    rows = {row[0].strip("`"): row for row in found[0]}
    assert list(rows) == [option.key for option in game.options]
    for option in game.options:
        values = [v.strip().strip('"') for v in rows[option.key][2].replace("`", "").split(",")]
        assert values == [str(v).lower() for v in option.choices], option.key
        assert rows[option.key][3].strip('`"') == str(option.default).lower(), option.key


def test_every_option_of_numbers_is_a_scale_with_two_ends(game):
    """The lobby's ←/→ stop at a scale's ends (`Option.ordered`): a host pressing ← at a
    500-point target went round to 5000. Every option of numbers is in rising order, so
    that it is a scale (Tesauro's thinking time went 180, no limit, 30)."""
    for option in game.options:
        if all(type(c) in (int, float) for c in option.choices):
            assert option.ordered, f"{game.id}.{option.key}: {option.choices}"
