"""The feed keeps showing new lines after the oldest have been dropped (a long game once froze
a player's "What happened" at its 200th line)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tui.widgets import Story


class Collect:
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, line: str) -> None:
        self.said.append(line)


def test_new_lines_keep_coming_past_the_limit():
    story, screen, feed = Story(), SimpleNamespace(), Collect()
    for n in range(5):
        story.add(f"line {n}")
    story.catch_up(screen, feed)
    assert feed.said == [f"line {n}" for n in range(5)]
    for n in range(5, 500):
        story.add(f"line {n}")
        story.catch_up(screen, feed)
    assert feed.said == [f"line {n}" for n in range(500)]
    assert len(story.lines) == Story.KEEP


def test_a_new_screen_starts_with_the_last_lines():
    story, feed = Story(), Collect()
    for n in range(100):
        story.add(f"line {n}")
    story.catch_up(SimpleNamespace(), feed)
    assert feed.said == [f"line {n}" for n in range(70, 100)]


def test_a_screen_far_behind_gets_what_is_kept():
    story, screen, feed = Story(), SimpleNamespace(), Collect()
    story.catch_up(screen, feed)
    for n in range(450):
        story.add(f"line {n}")
    story.catch_up(screen, feed)
    assert feed.said == [f"line {n}" for n in range(250, 450)]


def test_story_lines_end_as_sentences_and_never_twice():
    """ "The game is T-Rex." with its full stop, "The game is Tally Up!" without a second one;
    a T-Rex match is a sentence in the story (the table's banner keeps none)."""
    from tui.games import narrate_room
    from tui.games.trex.narrate import narrate
    from tui.i18n import set_lang

    set_lang("en")
    chosen = {"type": "game_chosen"}
    assert narrate_room(chosen | {"game": "tallyup"}, []) == "The game is Tally Up!"
    assert narrate_room(chosen | {"game": "tesauro"}, []) == "The game is Tesauro."
    match = {"type": "match", "outcome": "far", "a": 0, "b": 1, "level_a": 2, "level_b": 9}
    assert narrate(match, ["Ann", "Bob"]).endswith("a bad token each.")
    set_lang("ru")
    assert narrate_room(chosen | {"game": "tallyup"}, []) == "Игра: Tally Up!"
    set_lang("en")


def test_a_line_said_again_and_again_is_counted_not_repeated():
    """T-Rex: a player's twenty skips pushed every match out of the story."""
    from tui.widgets import Feed, Story

    story, feed = Story(), Feed()
    seen = None
    for line in ["Ann ⇄ Bob: 7 and 7.", "Dan skips.", "Dan skips.", "Dan skips.", "Cid skips."]:
        story.add(line)
        for new in story.since(seen):
            feed.say(new)
        seen = story.total
    expected = ["Ann ⇄ Bob: 7 and 7.", "Dan skips. (×3)", "Cid skips."]
    assert story.lines == expected and list(feed.lines) == expected
    assert story.total == 5
    feed.say("Cid skips.")  # a feed told lines one by one counts them too
    assert list(feed.lines)[-1] == "Cid skips. (×2)"


async def test_a_line_taller_than_the_feed_shows_its_beginning():
    """The host's results at 80×24 showed "ends here. The game is over!…": the line's
    beginning, which says what happened, was the part cut."""
    from tui.widgets import Feed

    app = feed_app()
    async with app.run_test(size=(20, 3)) as pilot:
        feed = app.query_one(Feed)
        feed.say("Dan left the table. Fewer than three players were left: it ends here.")
        await pilot.pause()
        lines = str(feed.render()).splitlines()
        assert lines[0].startswith("Dan left") and lines[-1].endswith("…") and len(lines) == 3


async def test_a_bot_s_name_stays_on_one_line_in_the_feed():
    """80×24: "Остаются IN: Борис, Бот" over "1." — a word and its number stay together,
    drawn with plain spaces."""
    from tui.text import UNBROKEN_SPACE
    from tui.widgets import Feed

    app = feed_app()
    async with app.run_test(size=(24, 3)) as pilot:
        feed = app.query_one(Feed)
        feed.say("Остаются IN: Борис, Бот 1.")
        await pilot.pause()
        lines = [line.rstrip() for line in str(feed.render()).splitlines()]
        assert lines == ["Остаются IN: Борис,", "Бот 1."], lines
        assert UNBROKEN_SPACE not in str(feed.render())


@pytest.mark.timeout(30)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_tallyup_a_roll_that_busts_names_no_running_total(lang):
    """The play-test read "…: +0, running total 80." and then "the round's 80 is lost": a
    total announced as if banked, a line before it was lost. A roll that busts (or that is a
    Tally Up!) now says its dice alone; the bust's own line says what was lost, and to whom."""
    from games import CHANCE, GAMES
    from tui.games.tallyup import narrate
    from tui.i18n import set_lang

    game = GAMES["tallyup"]
    names = ["Ann", "Boris", "Bot 1"]

    def story(moves: list[tuple[int, dict]]) -> list[tuple[str, str]]:
        """(event type, its line) of every event said."""
        state = game.setup(names)
        said: list[tuple[str, str]] = []
        for seat, action in moves:
            for event in game.apply(state, seat, action):
                if line := narrate(event, names):
                    said.append((event["type"], line))
        return said

    def roll(outcome: list[int] | int) -> list[tuple[int, dict]]:
        return [(0, {"type": "roll"}), (CHANCE, {"type": "chance", "outcome": outcome})]

    pick = [(0, {"type": "choose_dice", "dice": ["red", "yellow", "blue"]})]
    ins = [(seat, {"type": "token", "side": "in"}) for seat in range(3)]
    # red 50, yellow 20, blue 10 (no circle: a reveal), everyone IN; then two stars: bust
    main_bust = pick + roll([3, 2, 3]) + ins + roll([0, 0, 5])
    # red (50) calls the Up Die: everyone IN, +1 (orange, a star) with the main roll's star
    bonus_bust = (
        pick
        + roll([4, 0, 5])
        + ins
        + roll(0)
        + [
            (0, {"type": "bonus_dice", "dice": ["orange"]}),
            (CHANCE, {"type": "chance", "outcome": [0]}),
        ]
    )
    tally_up = pick + roll([0, 0, 0])
    set_lang(lang)
    try:
        total_words = {"en": "running total", "ru": "общий счёт"}[lang]
        for moves, amount in ((main_bust, 80), (bonus_bust, 100), (tally_up, None)):
            said = story(moves)
            at = next(n for n, (kind, _) in enumerate(said) if kind in ("bust", "tally_up"))
            (kind, roll_line), (_, then) = said[at - 1], said[at]  # the roll, then its verdict
            assert kind in ("rolled", "bonus_rolled") and "★" in roll_line, said
            assert total_words not in roll_line.lower(), said
            if amount is not None:  # what was lost, and whose, in the bust's own line
                assert str(amount) in then and "Ann" in then and "Bot 1" in then, then
        normal = story(pick + roll([3, 2, 3]))
        assert any(total_words in line.lower() and "80" in line for _, line in normal), normal
    finally:
        set_lang("en")


def feed_app():
    """An app showing one `Feed` (#feed), the whole screen."""
    from textual.app import App

    from tui.widgets import Feed

    class One(App[None]):
        def compose(self):
            yield Feed(id="feed")

    return One()
