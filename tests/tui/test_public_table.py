"""The public table (tui/table.py) is drawn from plain data — the room summary, the table's
game view, the events and a Story, as a watcher would get them over the wire — and says whom
it waits for, counts a timer down in large digits, marks every seat, and keeps only a short
ticker of what happened, the whole story on a key."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from textual.app import App
from textual.widgets import Static

from tests.scenes import playing_table, table_game
from tui.games import describe, game_styles
from tui.i18n import set_lang, t
from tui.table import Countdown, PublicTable, StoryScreen, waiting_line
from tui.text import SEAT_COLOURS, SEAT_SYMBOLS, seat_mark
from tui.waiting import until
from tui.widgets import Feed, SeatList, Story

pytestmark = pytest.mark.timeout(60)


def wire(data: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(data, use_bin_type=True), raw=False, strict_map_key=False)


class Watching(App[None]):
    """Nothing but a PublicTable: no Room anywhere in the app."""

    CSS_PATH = ["../../tui/common.tcss", *game_styles()]

    def __init__(self, game_id: str, story: Story) -> None:
        super().__init__()
        self.game_id, self.story = game_id, story

    def compose(self):
        yield PublicTable(self.game_id, self.story)


@pytest.fixture
def game_on_table():
    with table_game() as game_id:
        yield game_id


async def test_a_table_from_plain_data_says_whom_it_waits_for_and_counts_down(game_on_table):
    table = playing_table()
    room = table.room
    summary = wire(room.summary() | {"timer_seconds": 42.0})
    view, events = wire(room.game_view(None)), wire(table.events)
    names = [s["name"] for s in summary["seats"]]
    story = Story()
    for event in events:
        if line := describe(summary["game"], event, names):
            story.add(line)
    app = Watching(summary["game"], story)
    async with app.run_test(size=(120, 40)) as pilot:
        public = app.query_one(PublicTable)
        public.show(summary, view, events)
        await pilot.pause()
        waiting = str(app.query_one("#waiting", Static).render())
        assert summary["waiting"], "the scene waits for someone"
        for seat in summary["waiting"]:
            assert names[seat] in waiting and SEAT_SYMBOLS[seat] in waiting
        countdown = app.query_one(Countdown)
        assert countdown.display and "█" in str(countdown.render())  # big digits
        seats = str(app.query_one(SeatList).render())
        assert all(SEAT_SYMBOLS[i] in seats for i in range(len(names)))
        ticker = app.query_one("#ticker", Feed)
        assert list(ticker.lines)[-1] == story.lines[-1]
        assert ticker.size.height <= 5  # a ticker, not a log
        public.show(summary | {"timer_seconds": None}, view, [])
        await pilot.pause()
        assert not countdown.display


def test_a_game_that_waits_for_nobody_says_so():
    summary = {"phase": "playing", "seats": [{"name": "Ann"}], "waiting": []}
    assert "nobody" in waiting_line(summary).plain


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_seat_whose_player_left_says_a_bot_plays_it(game_on_table, language):
    """Ann quit mid-game (q, y): the bot plays her seat to the end, and while the table
    waited on it the line said "Waiting for: ● Ann", as if she were there."""
    set_lang(language)
    try:
        table = playing_table()
        waited = [s for s in table.room.summary()["waiting"] if table.room.seats[s].connected]
        seat = waited[0]
        table.room.leave(seat)
        summary = wire(table.room.summary())
        assert summary["seats"][seat]["bot"] and summary["seats"][seat]["leaving"]
        line = waiting_line({**summary, "waiting": [seat]}).plain
        assert f"{summary['seats'][seat]['name']} ({t('seat.left_bot')})" in line, line
    finally:
        set_lang("en")


async def test_l_shows_the_whole_story_and_escape_closes_it(game_on_table):
    from tui.scenes import host_scene

    app, run_before = host_scene(playing_table)()
    async with app.run_test(size=(80, 24)) as pilot:
        await run_before(pilot)
        total = len(app.story.lines)  # type: ignore[attr-defined]
        assert total > 5
        await pilot.press("l")
        await until(lambda: isinstance(app.screen, StoryScreen), pilot)
        shown = str(app.screen.query_one("#story-text", Static).render())
        assert all(line in shown for line in app.story.lines)  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, StoryScreen)


def test_every_seat_has_its_own_colour_and_symbol():
    assert len(set(SEAT_COLOURS)) == len(set(SEAT_SYMBOLS)) == 12
    marks = [(seat_mark(s).plain, str(seat_mark(s).spans[0].style)) for s in range(12)]
    assert len(set(marks)) == 12
    assert seat_mark(3).plain == seat_mark(3).plain == SEAT_SYMBOLS[3]  # the same everywhere


async def test_the_seats_and_the_waiting_line_are_drawn_again_only_when_they_change(
    game_on_table,
):
    """A move seldom changes a seat or whom the table waits for: those two are not drawn
    again then — but are at once when a seat changes, a second counts, or the language."""
    table = playing_table()
    summary = wire(table.room.summary())
    app = Watching(summary["game"], Story())
    async with app.run_test(size=(120, 40)):
        public = app.query_one(PublicTable)
        seats, waiting = public.query_one("#seats", SeatList), public.query_one("#waiting", Static)
        drawn: list[str] = []
        seats.update = lambda content: drawn.append(f"seats {content}")  # type: ignore[method-assign]
        waiting.update = lambda content: drawn.append(f"waiting {content}")  # type: ignore[method-assign]
        public.show(summary, None, [])
        assert len(drawn) == 2
        public.show(wire(summary), None, [])  # the same, in new maps: nothing drawn
        assert len(drawn) == 2
        gone = wire(summary)
        gone["seats"][0] |= {"connected": False, "away_for": 3.0}
        public.show(gone, None, [])
        assert len(drawn) == 4 and "away" in drawn[-2] and "away" in drawn[-1]
        later = wire(gone)  # a second later (a new summary): the waiting line counts
        later["seats"][0]["away_for"] = 4.0
        public.show_waiting(later)
        assert len(drawn) == 5 and "0:04" in drawn[-1]
        try:
            set_lang("ru")
            public.show(later, None, [])
            assert len(drawn) == 7 and "Ждём" in drawn[-1] and "нет связи" in drawn[-2]
        finally:
            set_lang("en")


@pytest.mark.parametrize("room", [15, 30, 38])  # (15: «ДИ-», the widest piece)
def test_a_word_too_long_for_a_card_is_hyphenated_in_big_letters_not_dropped_to_small(room):
    """On a TV every T-Rex card is in big letters: a word wider than its card is broken with
    a hyphen (the play-test saw one long card in small type beside two big ones)."""
    from tui.bigtext import big, big_lines, width

    text = "ПЕРЕОСВИДЕТЕЛЬСТВОВАНИЕ всех кандидатов"
    lines = big_lines(text, room)
    assert lines is not None and all(len(line) <= room for line in lines)
    assert len(lines) > len(big("ПЕРЕОСВИДЕТЕЛЬСТВОВАНИЕ") or [])  # on several lines
    assert big_lines("ЖЖЖ", width("Ж") - 1) is None  # not even a letter fits: small type


def test_a_hyphen_leaves_a_syllable_not_two_letters():
    from tui.bigtext import _hyphen_at, width

    room = width("ЗАСТИЛА-")  # ЗАСТИЛА-ЕТ would fit: ЗАСТИ-ЛАЕТ is how it is read
    cut = _hyphen_at("ЗАСТИЛАЕТ", room, 1)
    assert "ЗАСТИЛАЕТ"[:cut] == "ЗАСТИ"


async def drawn_scene(name: str, size: tuple[int, int]) -> tuple[str, bool, bool, list[str]]:
    """The T-Rex scoreboard as `name` draws it at `size`; whether the side story and the
    ticker show; the side story's lines."""
    from tests.scenes import SCENES
    from tui.scenes import reach

    scene = next(s for s in SCENES if s.name == name)
    app, run_before = scene.build()
    async with app.run_test(size=size) as pilot:
        await reach(scene, run_before, pilot)
        scores = str(app.screen.query_one("#tr-scores", Static).render())
        side = app.screen.query_one("#side-story", Feed)
        ticker = app.screen.query_one("#ticker", Feed)
        return scores, side.display, ticker.display, list(side.lines)


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_on_a_tv_the_story_runs_down_the_side_and_the_trex_scores_are_big(language):
    """A TV's side column beneath the seats was empty, and T-Rex's lower third: there the
    story runs down the side, and the scores are in big letters — when they fit."""
    set_lang(language)
    try:
        scores, side, ticker, lines = await drawn_scene("host-trex-fresh", (160, 45))
        assert side and not ticker
        assert lines[-1] in {"The game begins!", "Игра начинается!"}
        assert "█" in scores and "Ann" not in scores  # the names in big letters
        scores, side, ticker, _ = await drawn_scene("host-trex-fresh", (120, 40))
        assert ticker and not side
        assert "█" not in scores and "Ann" in scores
        # eight players and a match's big levels leave no room: the small board, whole
        scores, side, _, _ = await drawn_scene("host-table-full-trex", (160, 45))
        assert side and "█" not in scores and "Zoya" in scores
    finally:
        set_lang("en")


def test_a_big_scoreboard_only_with_letters_the_font_has_and_the_room_for_them():
    from tui.games.trex.pieces import large_scoreboard

    set_lang("en")
    view = {"mode": "versus", "players": ["Ann", "Борис"], "scores": [-3, 12],
            "good": [1, 12], "bad": [4, 0]}  # fmt: skip
    board = large_scoreboard(view)
    assert board is not None and len(board.plain.split("\n")) == 6  # three rows each
    assert "bad 4" in board.plain and "good 12" in board.plain
    assert large_scoreboard(view, width=len(board.plain.split("\n")[0]) - 12) is None
    assert large_scoreboard(view | {"players": ["Ann", "Bob 🎲"]}) is None
    assert large_scoreboard(view | {"mode": "coop"}) is None


async def test_on_a_tv_tally_ups_chart_takes_the_rows_left_with_taller_bars():
    """Tally Up! left half a TV empty: its scores round by round take the rows that are left,
    each player's bars several rows tall, on the scale of a row's."""
    from tests.scenes import SCENES
    from tui.games.tallyup.pieces import score_chart
    from tui.scenes import reach

    scene = next(s for s in SCENES if s.name == "host-tallyup-sealed")
    for size, tall in (((160, 45), True), ((120, 40), False)):
        app, run_before = scene.build()
        async with app.run_test(size=size) as pilot:
            await reach(scene, run_before, pilot)
            game = app.screen.query_one(PublicTable).game
            chart = app.screen.query_one("#tu-chart")
            assert chart.display == tall  # (before the end, only a TV shows it)
            if tall:
                text = str(app.screen.query_one(".tu-chart-text", Static).render())
                assert len(text.split("\n")) >= 3 * len(game.view["players"])
                assert chart.size.height > 15  # it has the rows beneath the players
    view = {"players": ["Ann", "Bob"], "scores": [300, 0], "history": [[100, 0], [300, 0]]}
    one, three = score_chart(view), score_chart(view, rows=3)
    assert one.plain.split("\n")[0].endswith("▃█") and one.plain.split("\n")[1].endswith("▁▁")
    tall_ann = three.plain.split("\n")[:3]
    assert [row[-4:] for row in tall_ann] == ["  ██", "▁▁██", "████"]  # 1/3 and all of it
    # the name on the row its bars stand on; an empty row, then Bob's (test_tallyup_chart)
    assert tall_ann[2].startswith("Ann") and not tall_ann[0].startswith("Ann")
    assert not three.plain.split("\n")[3].strip()
    assert three.plain.split("\n")[6].startswith("Bob")


@pytest.mark.parametrize("name", ["host-trex-vote", "host-trex-end"])
async def test_on_a_tv_sudden_death_and_the_end_are_big_and_the_round_s_cards_make_way(name):
    """The play-test: in sudden death and at the end the round's three cards stayed giant
    while the tied players' actions and "The T-Rex: Dana!" were in small type. On a TV the
    cards make way and those are in big letters; a smaller screen keeps its layout."""
    from tests.scenes import SCENES
    from tui.scenes import reach

    set_lang("en")
    scene = next(s for s in SCENES if s.name == name)
    for size, tv in (((160, 45), True), ((120, 40), False)):
        app, run_before = scene.build()
        async with app.run_test(size=size) as pilot:
            await reach(scene, run_before, pilot)
            banner = str(app.screen.query_one("#tr-banner", Static).render())
            assert app.screen.query_one("#tr-actions").display != tv
            assert ("█" in banner or "▀" in banner) == tv


def test_every_t_rex_card_of_both_decks_has_every_letter_in_the_big_font():
    """On a TV a card with a comma ("Обнаружить, что у тебя есть пальцы") fell back to small
    type beside two big ones: the font had no comma."""
    import tomllib
    from pathlib import Path

    from tui.bigtext import big

    content = Path(__file__).resolve().parents[2] / "games" / "trex" / "content"
    for lang in ("en", "ru"):
        deck = tomllib.loads((content / f"{lang}.toml").read_text(encoding="utf-8"))
        texts = [text for colour in deck["actions"].values() for text in colour]
        assert texts, lang
        lacking = [text for text in texts if any(big(word) is None for word in text.split())]
        assert not lacking, lacking
