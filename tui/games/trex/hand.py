"""A player's hand in T-Rex: the card to perform, big, as a 1..10 scale; what you may do now;
whom you may offer to, your offer out and the offers to you; the tie-break vote; the
two-player call; and the latest private news, for a few seconds."""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.notifications import Notification, Notify
from textual.widgets import Digits, Static

from tui.games import HandWidget
from tui.games.trex.offer import PickOfferScreen
from tui.games.trex.pieces import scale
from tui.games.trex.words import COLOUR_STYLE, colour_label, joined, who
from tui.i18n import quote, t
from tui.text import literal, name, unbroken
from tui.widgets import after_refresh, clock, keys, put, tap_target

NEWS_SECONDS = 8.0


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

    def moment(self) -> Hashable:
        """An offer come in (`a` accepts it) or a new card (a number offers it) is a new
        moment too."""
        return (*super().moment(), repr(self.view.get("offers")), repr(self.view.get("card")))

    _byebye_coming: tuple[Any, Any] | None = None
    """A bye-bye of your card's colour heard (`happened`): its colour and new action."""
    _byebye_toasts: list[tuple[Notification, Any, Any]] | tuple[()] = ()
    """The bye-bye toasts up now, each with its colour and action (`_tell_byebye`)."""

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
        self._news_id: Any = None
        self._news_since = 0.0
        self._fresh = True  # no view shown yet (`show`: the first one's news is old)
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        """The vote's countdown counts on the voter's own screen (and a tied player's)."""
        if self.view and self.view["phase"] == "vote" and self.seconds_left() is not None:
            put(self.query_one("#tr-status", Static), self._status())

    def _fade_news(self) -> None:
        if self.view:
            put(self.query_one("#tr-news", Static), self._news())

    def happened(self, events: list[dict[str, Any]]) -> bool | None:
        """A bye-bye that changes the action of your own card is said to you (only the
        story said it, soon pushed out: a player went on performing the old one) — by `show`,
        once the view that came with it says the card is still that one."""
        card = (self.view or {}).get("card") or {}
        for event in events:
            if event.get("type") == "byebye" and event.get("colour") == card.get("colour"):
                self._byebye_coming = (event.get("colour"), event.get("came", ""))
        return None

    def _tell_byebye(self, view: dict[str, Any]) -> None:
        """The bye-bye toasts speak of the card in hand as it is: one whose card is gone (a
        new card drawn, of another colour) or whose action is gone (a newer bye-bye) is taken
        down — on a phone, "Your card's action is now: …" stayed up for seconds over the next
        card — and a newer one replaces the one before."""
        card = view.get("card") or {}
        actions = view.get("actions") or {}

        def current(colour: Any, came: Any) -> bool:
            return card.get("colour") == colour and actions.get(colour) == came

        coming, self._byebye_coming = self._byebye_coming, None
        kept = []
        for note, colour, came in self._byebye_toasts:
            if coming is None and current(colour, came):
                kept.append((note, colour, came))
            else:
                self.app._unnotify(note)
        self._byebye_toasts = kept
        if coming is not None and current(*coming):
            note = Notification(
                t("trex.byebye_yours", came=coming[1]), timeout=NEWS_SECONDS, markup=False
            )
            self.app.post_message(Notify(note))  # (what `notify` does, keeping the toast)
            self._byebye_toasts.append((note, *coming))

    def show(self, view: dict[str, Any], room: dict[str, Any]) -> None:
        if self._fresh:  # the first view of an app started again: its news was said before
            self._fresh, self._news_id = False, (view.get("news") or {}).get("id")
        self._tell_byebye(view)
        self._draw_card()
        put(self.query_one("#tr-status", Static), self._status())
        put(self.query_one("#tr-offers", Static), self._offers())
        put(self.query_one("#tr-news", Static), self._news())

    LEGAL_KEYS: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "number": ("offer", "vote"),
        "answer": ("accept",),
        "withdraw": ("withdraw",),
        "skip": ("skip",),
        "call": ("call",),
    }

    def _draw_card(self) -> None:
        view = self.view
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
        me = view.get("seat")
        if view.get("mode") != "coop" and isinstance(me, int) and me < len(view["scores"]):
            # your own score where you look (only the table showed it)
            good, bad = view["good"][me], view["bad"][me]
            box.border_subtitle = t("trex.your_score", score=view["scores"][me], good=good, bad=bad)
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
        view = self.view
        legal = self.legal()
        if view["over"]:
            return Text(t("trex.over"), style="bold")
        if view["phase"] == "vote":
            left = self.seconds_left()
            timer = "  " + unbroken(f"⏱ {clock(left)}") if left is not None else ""
            if "vote" in legal:
                return Text(t("trex.vote_now") + timer, style="bold reverse")
            tie = view.get("tie_break") or {}
            if view["seat"] in tie.get("tied", []):
                return Text(t("trex.you_are_tied") + timer, style="bold reverse")
            return Text(t("trex.voted"), style="bold")
        if view["mode"] == "coop":
            if "call" in legal:
                return Text(t("trex.call_now"), style="bold reverse")
            return Text(t("trex.call_waiting"), style="bold")
        offers_in = (view.get("offers") or {}).get("in") or []
        if offers_in and "accept" in legal:  # (your answer is what it waits for: said first)
            return Text(t("trex.answer_now", n=len(offers_in)), style="bold reverse")
        return Text(t("trex.perform_now"), style="bold")

    def _offers(self) -> Text:
        """Who you may offer to (by number), your offer out, the offers to you."""
        view = self.view
        names = view["players"]
        me = view["seat"]
        text = Text()
        if view["phase"] == "vote" and "vote" in self.legal():
            tie = view.get("tie_break") or {}
            for seat, action in zip(tie.get("tied", []), tie.get("actions", []), strict=False):
                row = Text()
                row.append(f" {seat + 1} ", style="bold reverse")
                row.append(" ")
                row.append_text(name(names[seat], style="bold"))
                row.append(f"  {quote(action)}")
                text.append_text(tap_target(row, f"number({seat})"))
                text.append("\n")
            return text
        if view.get("vote") is not None:
            return Text(t("trex.you_voted", name=who(names, view["vote"])), style="bold")
        if view["mode"] == "coop" or view["over"] or view["phase"] != "play":
            return text
        offers = view.get("offers") or {"out": None, "in": []}
        if offers["out"] is None:
            text.append(t("trex.offer_to") + "\n", style="dim")
            # side by side; on a phone held upright a line each (a number with its name)
            apart = "\n" if self.app.has_class("-narrow") else "  "
            gone, away = view.get("left") or [], view.get("away") or []
            for seat, player in enumerate(names):
                if seat == me or (seat < len(gone) and gone[seat]):
                    continue  # (who left the game is out of it: nobody offers to them)
                out = seat < len(away) and away[seat]  # (their seat sits out: said, and dim)
                chip = Text()  # (its space after it too: the tap's text is one run)
                chip.append(f" {seat + 1} ", style="dim reverse" if out else "bold reverse")
                chip.append(" ")
                chip.append_text(name(player, style="dim" if out else ""))
                if out:
                    chip.append(f" ({t('trex.away_tag')})", style="dim")
                chip.append(apart)
                text.append_text(tap_target(chip, f"number({seat})"))
            if apart == "\n":
                text.rstrip()  # (side by side, the last one's spaces stay: one run)
            text.append("\n\n")
        else:
            text.append(t("trex.your_offer", name=who(names, offers["out"])) + "\n\n", style="bold")
        if offers["in"]:
            text.append(t("trex.offers_in", names=joined(names, offers["in"])), style="bold green")
        return text

    def _news(self) -> Text:
        """The latest private news, for NEWS_SECONDS: then it has been read."""
        news = self.view.get("news")
        if not news:
            return Text()
        if news.get("id") != self._news_id:
            self._news_id, self._news_since = news.get("id"), time.monotonic()
            self.set_timer(NEWS_SECONDS + 0.1, self._fade_news)
        if time.monotonic() - self._news_since > NEWS_SECONDS:
            return Text()
        names = self.view["players"]
        kind = news.get("type")
        if kind == "matched":
            mine, theirs = news["mine"], news["theirs"]
            return Text(
                t("trex.news.matched", name=who(names, news["with"]), mine=mine["level"],
                  theirs=theirs["level"]),
                style="bold",
            )  # fmt: skip
        field = {"offered": "from", "withdrawn": "from", "declined": "by", "cancelled": "to"}
        offers_in = (self.view.get("offers") or {}).get("in") or []
        if kind == "offered" and news.get("from") not in offers_in:
            return Text()  # answered, withdrawn, or a match took it: the offer is gone
        if kind in field:
            return Text(t(f"trex.news.{kind}", name=who(names, news.get(field[kind]))))
        return Text()

    # keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Greyed by `LEGAL_KEYS`; hidden where the key has no meaning in this game."""
        phase, mode = self.view.get("phase"), self.view.get("mode")
        if action in ("answer", "withdraw", "skip") and phase != "play":
            return False  # offers exist only in the competitive game, before the end
        if action == "call" and mode != "coop":
            return False  # the call keys exist only in the two-player game
        if action in ("skip", "withdraw") and mode == "coop":
            return False
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        """Why a greyed key does nothing now (the screen says it for a moment)."""
        view, legal = self.view, self.legal()
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
        view = self.view
        if index >= len(view.get("players", [])):  # (a key that did nothing, silently)
            self.notify(t("trex.no_such_seat", n=index + 1, last=len(view.get("players", []))))
            return
        if index == view.get("seat") and self.legal() & {"vote", "offer"}:
            self.notify(t("trex.not_yourself"), severity="warning")  # (a key that says why)
            return
        if "vote" in self.legal():
            self.act({"type": "vote", "for": index})
        elif "offer" in self.legal():
            self.act({"type": "offer", "to": index})

    def _offers_in(self) -> list[int]:
        return list((self.view.get("offers") or {}).get("in", []))

    def action_answer(self, verb: str) -> None:
        offers = self._offers_in()
        if not offers:
            return
        if len(offers) == 1:
            self.act({"type": verb, "from": offers[0]})
            return

        def chosen(seat: int | None) -> None:
            self._asked = None
            self.keep_unsent()
            if seat is not None:
                self.act({"type": verb, "from": seat})

        names = self.view["players"]
        picker = PickOfferScreen(verb, [(s, names[s]) for s in offers])
        self._asked = (verb, sorted(offers))
        # the offers changed under it: it closes (ask again with `a` or `x`)
        self.ask(picker, chosen, lambda: set(picker.seats) == set(self._offers_in()))
        self.keep_unsent()

    # what is unsent, for a web seat's next app (`HandWidget.unsent`)

    _asked: tuple[str, list[int]] | None = None
    """The "whose offer?" picker open now: its verb (accept, decline) and the offers it lists."""

    def _moment(self) -> dict[str, Any]:
        """The picker's moment: the play, this card, these offers waiting for an answer (a new
        card, an offer withdrawn or a new one is another moment)."""
        view = self.view
        return {"phase": view.get("phase"), "card": view.get("card"),
                "in": sorted(self._offers_in())}  # fmt: skip

    def unsent(self) -> dict[str, Any] | None:
        """The "whose offer?" picker being answered: asked again by the next app."""
        if self._asked is None:
            return None
        verb, offers = self._asked
        if verb not in self.legal() or offers != sorted(self._offers_in()):
            return None  # (the offers changed: the picker is closing)
        return {**self._moment(), "asked": verb}

    def restore(self, kept: dict[str, Any]) -> None:
        """The picker asked again — only at its very moment: the same card, and the very
        offers it listed still waiting for this player's answer."""
        if any(kept.get(key) != value for key, value in self._moment().items()):
            return
        verb = kept.get("asked")
        if verb in ("accept", "decline"):
            moment = self._moment()
            after_refresh(self, lambda: self._ask_again(verb, moment, 50))

    def _ask_again(self, verb: str, moment: dict[str, Any], tries: int) -> None:
        """The picker again, once this hand's screen is the one shown (a picker pushed over a
        screen still coming up would answer nobody) — if its moment has not passed meanwhile."""
        if self._question is not None or self._moment() != moment:
            return
        if verb not in self.legal() or len(self._offers_in()) < 2:
            return  # (one offer left: `a` would answer it at once — the player decides that)
        if self.app.screen is not self.screen:
            if tries > 0 and not self.screen.is_modal:
                after_refresh(self, lambda: self._ask_again(verb, moment, tries - 1))
            return
        self.action_answer(verb)

    def action_withdraw(self) -> None:
        self.act({"type": "withdraw"})

    def action_skip(self) -> None:
        self.act({"type": "skip"})

    def action_call(self, match: bool) -> None:
        self.act({"type": "call", "match": match})
