"""On a Scale of One to T-Rex on screen: the table (three actions to perform, the token piles
emptying, the scoreboard, the tie-break vote, the T-Rex at the end), a player's hand (the card
to perform, big, as a 1..10 scale; offers out and in; skip; the vote; the two-player call) and
the narrator of the public events."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Digits, Static

from tui.bigtext import big, big_lines
from tui.games import GameUI, GameWidget, HandWidget, register_ui
from tui.i18n import quote, t
from tui.text import literal, marked, name
from tui.widgets import keys, put

NEWS_SECONDS = 8.0
COLOUR_STYLE = {"red": "bold red", "blue": "bold dodger_blue1", "yellow": "bold yellow"}
TREX = r"""
               __
              / _)
     _.----._/ /
    /         /
 __/ (  | (  |
/__.-'|_|--|_|
"""


def colour_label(colour: str, symbols: dict[str, str]) -> Text:
    return Text(
        f"{symbols.get(colour, '')} {t(f'trex.colour.{colour}')}", style=COLOUR_STYLE[colour]
    )


def who(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def joined(names: list[str], seats: list[int]) -> str:
    return ", ".join(who(names, s) for s in seats)


# --- narration ----------------------------------------------------------------------------


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    kind = event.get("type")
    if kind == "match":
        return match_sentence(event, names)
    if kind == "byebye":
        return t("trex.ev.byebye", gone=event["gone"], came=event["came"])
    if kind == "reshuffled":
        deck = event["deck"]
        if deck == "numbers":
            return t("trex.ev.reshuffled_numbers")
        return t("trex.ev.reshuffled_actions", colour=t(f"trex.colour.{deck.split('_')[0]}"))
    if kind == "skipped":
        return t("trex.ev.skipped", name=who(names, event["seat"]))
    if kind == "pile_empty":
        piles = ", ".join(t(f"trex.pile.{p}") for p in event["piles"])
        return t("trex.ev.pile_empty", piles=piles)
    if kind == "tie_break":
        return t("trex.ev.tie_break", names=joined(names, event["tied"]))
    if kind == "voted":
        return t("trex.ev.voted", name=who(names, event["seat"]))
    if kind == "vote_result":
        return t("trex.ev.vote_result", names=joined(names, event["winners"]))
    if kind == "coop_called":
        return t("trex.ev.coop_called", name=who(names, event["seat"]))
    if kind == "coop_revealed":
        key = "trex.ev.coop_right" if event["right"] else "trex.ev.coop_wrong"
        return t(key, a=event["level_a"], b=event["level_b"], moved=event["moved"])
    return None


def match_sentence(match: dict[str, Any], names: list[str]) -> str:
    """ "Ann ⇄ Bob: 7 and 7 — exact! +2 each"."""
    return t(
        f"trex.ev.match_{match['outcome']}",
        a=who(names, match["a"]),
        b=who(names, match["b"]),
        la=match["level_a"],
        lb=match["level_b"],
    )


# --- the table ----------------------------------------------------------------------------


class TRexTable(GameWidget):
    """Three actions, large; the piles as a picture; the scoreboard; the tie-break; the end."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="tr-actions"):
            for colour in COLOUR_STYLE:
                yield Static(id=f"tr-action-{colour}", classes=f"tr-action -{colour}")
        yield Static(id="tr-banner")
        yield Static(id="tr-piles", classes="box")
        yield Static(id="tr-scores", classes="box")
        yield Static(id="tr-end")

    def on_mount(self) -> None:
        self.query_one("#tr-piles").border_title = t("trex.piles_title")
        self.query_one("#tr-scores").border_title = t("trex.scores_title")
        self._byebye: Text | None = None

    def happened(self, events: list[dict[str, Any]]) -> None:
        """A bye-bye is news for the whole room: it stays on the banner until the next match."""
        for event in events:
            if event.get("type") == "byebye":
                line = narrate(event, [])
                self._byebye = Text(f" {line} ", style="bold black on bright_white")
            elif event.get("type") in ("match", "coop_revealed"):
                self._byebye = None

    def on_resize(self) -> None:
        if getattr(self, "_shown", None) is not None:  # big letters or not: by the width
            self.show(*self._shown)

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        self._shown = (view, room)
        names = view["players"]
        symbols = view["symbols"]
        tie = view.get("tie_break")
        for colour in COLOUR_STYLE:
            box = self.query_one(f"#tr-action-{colour}", Static)
            box.border_title = colour_label(colour, symbols).plain
            text = view["actions"].get(colour) or "—"
            room = box.content_region.width
            letters = big_lines(text, room) if self.app.has_class("-tv") and room else None
            if letters:  # on a TV, in big letters when the font has them all
                put(box, Text("\n".join(letters), style=COLOUR_STYLE[colour]))
            else:
                put(box, literal(text, 80, style="bold"))
        banner = self.query_one("#tr-banner", Static)
        if tie and view["phase"] == "vote":
            put(banner, tie_text(tie, names))
        elif view["over"]:
            put(banner, end_banner(view, names))
        elif self._byebye is not None:
            put(banner, self._byebye)
        elif view.get("last_match"):
            large = self.app.has_class("-tv")
            put(banner, match_banner(view["last_match"], names, large=large))
        else:
            key = "trex.perform_coop" if view["mode"] == "coop" else "trex.perform"
            put(self.query_one("#tr-banner", Static), Text(t(key), style="bold"))
        piles = self.query_one("#tr-piles", Static)
        # at the end the T-Rex takes their place; on a small screen, the vote does
        voting = bool(tie) and view["phase"] == "vote" and self.app.has_class("-small")
        piles.display = not view["over"] and not voting
        put(piles, piles_picture(view))
        put(self.query_one("#tr-scores", Static), scoreboard(view))
        end = self.query_one("#tr-end", Static)
        end.display = bool(view["over"])
        if view["over"]:
            put(end, Text(TREX.strip("\n"), style="bold green"))


MATCH_COLOUR = {"exact": "green", "near": "yellow"}
"""A match's outcome by colour (red: a miss) — the sentence always says it in words too."""


def match_banner(match: dict[str, Any], names: list[str], *, large: bool = False) -> Text:
    """The last match in a sentence on its outcome's colour; `large` (a TV): the two levels
    above it in big digits, to be read from the sofa."""
    colour = MATCH_COLOUR.get(match["outcome"], "red")
    style = f"bold {'white' if colour == 'red' else 'black'} on {colour}"
    if "right" in match:  # the two-player variant
        line = t(
            "trex.ev.coop_right" if match["right"] else "trex.ev.coop_wrong",
            a=match["level_a"],
            b=match["level_b"],
            moved=match["moved"],
        )
    else:
        line = match_sentence(match, names)
    banner = Text(f" {line} ", style=style)
    levels = big(f"{match['level_a']}  {match['level_b']}", 2) if large else None
    if levels:
        banner = Text("\n".join(levels) + "\n", style=f"bold {colour}") + banner
    return banner


def end_banner(view: dict[str, Any], names: list[str]) -> Text:
    result = view.get("result") or {}
    winners = result.get("winners", [])
    if view["mode"] == "coop":
        coop = view.get("coop") or {}
        key = "trex.coop_won" if winners else "trex.coop_end"
        return Text(f" {t(key, moved=coop.get('moved', 0))} ", style="bold black on green")
    line = t("trex.the_trex", names=joined(names, winners))
    tie = view.get("tie_break")
    if tie and tie.get("tally"):
        votes = ", ".join(f"{who(names, s)} {tie['tally'][s]}" for s in tie["tied"])
        line += "  " + t("trex.votes_were", votes=votes)
    return Text(f" {line} ", style="bold black on green")


def tie_text(tie: dict[str, Any], names: list[str]) -> Text:
    text = Text(t("trex.tie_heading") + "\n", style="bold reverse")
    for seat, action in zip(tie["tied"], tie["actions"], strict=False):
        text.append_text(name(who(names, seat), style="bold"))
        text.append(f": {quote(action)} — 10\n")
    voted = len(tie["voted"])
    text.append(t("trex.tie_votes", n=voted, of=len(tie["voters"])), style="dim")
    return text


def coop_board(view: dict[str, Any]) -> Text:
    """The team's game: tokens moved to the box, and who has made the call this round."""
    coop = view.get("coop") or {}
    text = Text(t("trex.coop_moved", moved=coop.get("moved", 0), goal=coop.get("goal", 15)))
    text.append("\n")
    for seat, player in enumerate(view["players"]):
        called = (coop.get("called") or [False, False])[seat]
        text.append_text(name(player))
        if not view["over"]:
            text.append(f"  {t('trex.called') if called else t('trex.calling')}",
                        style="green" if called else "dim")  # fmt: skip
        text.append("\n")
    text.rstrip()
    return text


def pile_row(label: str, left: int, total: int, style: str) -> Text:
    row = Text(f"{label:<10}", style="bold")
    row.append("●" * left, style=style)
    row.append("○" * max(0, total - left), style="dim")
    row.append(f" {left}/{total}")
    return row


def piles_picture(view: dict[str, Any]) -> Text:
    """The token piles as put out for this table, emptying as the game goes."""
    text = Text()
    if view["mode"] == "coop":
        coop = view.get("coop") or {}
        goal = coop.get("goal", 15)
        text.append_text(pile_row(t("trex.pile.good"), goal - coop.get("moved", 0), goal, "green"))
        return text
    tokens, pool = view["tokens"], view["pool"]
    text.append_text(pile_row(t("trex.pile.good"), pool["good"], tokens["good"], "green"))
    if tokens["bad"]:
        text.append("\n")
        text.append_text(pile_row(t("trex.pile.bad"), pool["bad"], tokens["bad"], "red"))
    return text


def scoreboard(view: dict[str, Any]) -> Text:
    if view["mode"] == "coop":
        return coop_board(view)
    text = Text()
    text.append(f"{'':16}{t('trex.good'):>6}{t('trex.bad'):>6}{t('trex.score'):>7}\n", style="dim")
    for seat, player in enumerate(view["players"]):
        shown = marked(seat, player)
        shown.truncate(16, overflow="ellipsis", pad=True)
        text.append_text(shown)
        text.append(f"{view['good'][seat]:>6}", style="green")
        text.append(f"{view['bad'][seat]:>6}", style="red")
        text.append(f"{view['scores'][seat]:>7}\n", style="bold")
    text.rstrip()
    return text


# --- a player's hand ----------------------------------------------------------------------


class TRexHand(HandWidget):
    """Your card, big enough to read while acting; your offers; what you may do now."""

    BINDINGS = keys(
        "trex.hand",
        [
            *[
                Binding(str(n), f"number({n - 1})", "trex.key.number", show=False)
                for n in range(1, 9)
            ],
            Binding("a", "answer('accept')", "trex.key.accept"),
            Binding("x", "answer('decline')", "trex.key.decline"),
            Binding("w", "withdraw", "trex.key.withdraw"),
            Binding("s", "skip", "trex.key.skip"),
            Binding("m", "call(True)", "trex.key.match"),
            Binding("n", "call(False)", "trex.key.no_match"),
        ],
    )

    def compose(self) -> ComposeResult:
        with Horizontal(id="tr-card"):
            with Vertical(id="tr-card-text"):
                yield Static(id="tr-card-action")
                yield Static(id="tr-scale")
            yield Digits("", id="tr-level")
        yield Static(id="tr-status")
        yield Static(id="tr-offers")
        yield Static(id="tr-news")

    def on_mount(self) -> None:
        self._view: dict[str, Any] = {}
        self._news_id: Any = None
        self._news_since = 0.0
        self._picker: PickOfferScreen | None = None

    def _fade_news(self) -> None:
        if self._view:
            put(self.query_one("#tr-news", Static), self._news())

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        self._view = view
        picker = self._picker
        offers_in = set((view.get("offers") or {}).get("in", []))
        if picker is not None and picker.is_attached and set(picker.seats) != offers_in:
            picker.dismiss(None)  # the offers changed under it: ask again with `a` or `x`
        self._draw_card()
        put(self.query_one("#tr-status", Static), self._status())
        put(self.query_one("#tr-offers", Static), self._offers())
        put(self.query_one("#tr-news", Static), self._news())
        self.refresh_bindings()

    def _legal(self) -> set[str]:
        return set(self._view.get("legal", []))

    def _draw_card(self) -> None:
        view = self._view
        card = view.get("card")
        box = self.query_one("#tr-card")
        tie = view.get("tie_break") or {}
        if view["phase"] == "vote":
            if view["seat"] in tie.get("tied", []):  # sudden death: the new action, at 10
                index = tie["tied"].index(view["seat"])
                card = {"colour": tie["colour"], "level": 10}
                view = dict(view, actions={**view["actions"], tie["colour"]: tie["actions"][index]})
            else:
                card = None
        for colour in COLOUR_STYLE:
            box.set_class(bool(card) and card["colour"] == colour, f"-{colour}")
        box.display = bool(card) or view["phase"] in ("play", "call")
        self._card_view = view
        if not card:
            box.border_title = ""
            put(self.query_one("#tr-card-action", Static), Text(t("trex.no_card"), style="dim"))
            put(self.query_one("#tr-scale", Static), "")
            put(self.query_one("#tr-level", Digits), "")
            return
        colour, level = card["colour"], card["level"]
        view = self._card_view
        box.border_title = colour_label(colour, view["symbols"]).plain
        action = literal(view["actions"].get(colour) or "—", 80, style="bold")
        put(self.query_one("#tr-card-action", Static), action)
        put(self.query_one("#tr-scale", Static), scale(level, COLOUR_STYLE[colour]))
        put(self.query_one("#tr-level", Digits), str(level))

    def _status(self) -> Text:
        view = self._view
        legal = self._legal()
        if view["over"]:
            return Text(t("trex.over"), style="bold")
        if view["phase"] == "vote":
            if "vote" in legal:
                return Text(t("trex.vote_now"), style="bold reverse")
            tie = view.get("tie_break") or {}
            if view["seat"] in tie.get("tied", []):
                return Text(t("trex.you_are_tied"), style="bold reverse")
            return Text(t("trex.voted"), style="bold")
        if view["mode"] == "coop":
            if "call" in legal:
                return Text(t("trex.call_now"), style="bold reverse")
            return Text(t("trex.call_waiting"), style="bold")
        return Text(t("trex.perform_now"), style="bold")

    def _offers(self) -> Text:
        """Who you may offer to (by number), your offer out, the offers to you."""
        view = self._view
        names = view["players"]
        me = view["seat"]
        text = Text()
        if view["phase"] == "vote" and "vote" in self._legal():
            tie = view.get("tie_break") or {}
            for seat, action in zip(tie.get("tied", []), tie.get("actions", []), strict=False):
                text.append(f" {seat + 1} ", style="bold reverse")
                text.append(" ")
                text.append_text(name(names[seat], style="bold"))
                text.append(f"  {quote(action)}\n")
            return text
        if view.get("vote") is not None:
            return Text(t("trex.you_voted", name=who(names, view["vote"])), style="bold")
        if view["mode"] == "coop" or view["over"] or view["phase"] != "play":
            return text
        offers = view.get("offers") or {"out": None, "in": []}
        if offers["out"] is None:
            text.append(t("trex.offer_to") + "\n", style="dim")
            for seat, player in enumerate(names):
                if seat == me:
                    continue
                text.append(f" {seat + 1} ", style="bold reverse")
                text.append(" ")
                text.append_text(name(player))
                text.append("  ")
            text.append("\n\n")
        else:
            text.append(t("trex.your_offer", name=who(names, offers["out"])) + "\n\n", style="bold")
        if offers["in"]:
            text.append(t("trex.offers_in", names=joined(names, offers["in"])), style="bold green")
        return text

    def _news(self) -> Text:
        """The latest private news, for NEWS_SECONDS: then it has been read."""
        news = self._view.get("news")
        if not news:
            return Text()
        if news.get("id") != self._news_id:
            self._news_id, self._news_since = news.get("id"), time.monotonic()
            self.set_timer(NEWS_SECONDS + 0.1, self._fade_news)
        if time.monotonic() - self._news_since > NEWS_SECONDS:
            return Text()
        names = self._view["players"]
        kind = news.get("type")
        if kind == "matched":
            mine, theirs = news["mine"], news["theirs"]
            return Text(
                t("trex.news.matched", name=who(names, news["with"]), mine=mine["level"],
                  theirs=theirs["level"]),
                style="bold",
            )  # fmt: skip
        field = {"offered": "from", "withdrawn": "from", "declined": "by", "cancelled": "to"}
        if kind in field:
            return Text(t(f"trex.news.{kind}", name=who(names, news.get(field[kind]))))
        return Text()

    # keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        legal = self._legal()
        wanted = {
            "answer": "accept",
            "withdraw": "withdraw",
            "skip": "skip",
            "call": "call",
        }.get(action)
        if action == "number":
            return True if "offer" in legal or "vote" in legal else None
        if wanted is None:
            return True
        if action in ("answer", "withdraw", "skip") and self._view.get("phase") != "play":
            return False  # offers exist only in the competitive game, before the end
        if action == "call" and self._view.get("mode") != "coop":
            return False  # the call keys exist only in the two-player game
        if action in ("skip", "withdraw") and self._view.get("mode") == "coop":
            return False
        return True if wanted in legal else None

    def why_not(self, action: str) -> str | None:
        """Why a greyed key does nothing now (the screen says it for a moment)."""
        view, legal = self._view, self._legal()
        if not legal:
            return None  # a card being drawn, or you are away: the screen's own line says so
        offers = view.get("offers") or {"out": None, "in": []}
        if action == "answer":
            return t("trex.why.no_offer_in")
        if action == "withdraw":
            return t("trex.why.no_offer_out")
        if action in ("skip", "number") and offers.get("out") is not None:
            return t("trex.why.offer_out", name=who(view["players"], offers["out"]))
        if action == "number" and view.get("phase") == "play":
            return t("trex.why.nobody_here")
        return None

    def action_number(self, index: int) -> None:
        view = self._view
        if index >= len(view.get("players", [])) or index == view.get("seat"):
            return
        if "vote" in self._legal():
            self.act({"type": "vote", "for": index})
        elif "offer" in self._legal():
            self.act({"type": "offer", "to": index})

    def action_answer(self, verb: str) -> None:
        offers = (self._view.get("offers") or {}).get("in", [])
        if not offers:
            return
        if len(offers) == 1:
            self.act({"type": verb, "from": offers[0]})
            return

        def chosen(seat: int | None) -> None:
            if seat is not None:
                self.act({"type": verb, "from": seat})

        names = self._view["players"]
        self._picker = PickOfferScreen(verb, [(s, names[s]) for s in offers])
        self.app.push_screen(self._picker, chosen)

    def action_withdraw(self) -> None:
        self.act({"type": "withdraw"})

    def action_skip(self) -> None:
        self.act({"type": "skip"})

    def action_call(self, match: bool) -> None:
        self.act({"type": "call", "match": match})


def scale(level: int, style: str) -> Text:
    """1..10 at a glance: the level filled, the rest hollow."""
    text = Text("1 ", style="dim")
    text.append("█" * level, style=style)
    text.append("░" * (10 - level), style="dim")
    text.append(" 10", style="dim")
    return text


class PickOfferScreen(ModalScreen[int | None]):
    """Several offers are waiting: whose to accept (or decline)? Their seat number says."""

    BINDINGS = keys(
        "trex.pick_offer",
        [
            *[Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 9)],
            Binding("escape", "pick(-1)", "key.back", key_display="Esc"),
        ],
    )

    def __init__(self, verb: str, offers: list[tuple[int, str]]) -> None:
        super().__init__()
        self.verb = verb
        self.offers = offers
        self.seats = [seat for seat, _ in offers]

    def compose(self) -> ComposeResult:
        text = Text(t(f"trex.pick_{self.verb}") + "\n\n", style="bold")
        for seat, player in self.offers:
            text.append(f" {seat + 1} ", style="bold reverse")
            text.append(" ")
            text.append_text(name(player))
            text.append("\n")
        text.append("\n" + t("trex.pick_hint"), style="dim")
        with Vertical(id="confirm"):
            yield Static(text)

    def action_pick(self, index: int) -> None:
        self.dismiss(index if index in self.seats else None)


register_ui("trex", GameUI(TRexTable, TRexHand, narrate))
