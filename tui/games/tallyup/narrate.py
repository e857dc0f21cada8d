"""The narrator: one plain sentence for each public event (what was rolled, who busted and
lost what, who went OUT with how much), and the events whose sentence a player's hand keeps
on screen as its news."""

from __future__ import annotations

from typing import Any

from tui.games.tallyup.words import colour_name, face_label, names_of, up_label
from tui.i18n import t

NEWS = ("bust", "tally_up", "shout", "shout_closed", "revealed", "up_die")


def narrate(event: dict[str, Any], names: list[str]) -> str | None:
    """One plain sentence for a public event, or None for the ones the table shows itself."""
    kind = event.get("type")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    if kind == "round_start":
        return t("tallyup.ev.round_start", round=event["round"], name=names[event["active"]])
    if kind == "dice_chosen":
        dice = ", ".join(colour_name(c) for c in event["dice"])
        return t("tallyup.ev.dice_chosen", name=who, dice=dice)
    if kind in ("rolled", "bonus_rolled"):
        shown = ", ".join(f"{colour_name(d['colour'])} {face_label(d)}" for d in event["dice"])
        key = "tallyup.ev.rolled" if kind == "rolled" else "tallyup.ev.bonus_rolled"
        if event["stars"] and not event["points"]:
            # stars and nothing added: a bust (its line says what was lost) or a Tally Up! —
            # the dice alone, no "running total" that sounds banked just before it is lost
            return t(key + "_stars", name=who, dice=shown)
        line = t(key, name=who, dice=shown, points=event["points"], total=event["running_total"])
        if event.get("up_die_due"):
            line += " " + t("tallyup.ev.up_die_due")
        return line
    if kind == "bust":
        key = "tallyup.ev.bust_bonus" if event["stage"] == "bonus" else "tallyup.ev.bust"
        if not event["lost"] or not event["amount"]:
            return t(key + "_nobody")
        return t(key, names=names_of(event["lost"], names), amount=event["amount"])
    if kind == "tally_up":
        return t("tallyup.ev.tally_up")
    if kind == "shout":
        return t("tallyup.ev.shout", name=who, points=event["points"])
    if kind == "shout_closed":
        return t("tallyup.ev.shout_closed")
    if kind == "tally_bonus":
        if not event["seats"]:
            return None
        return t("tallyup.ev.tally_bonus", names=names_of(event["seats"], names))
    if kind == "choice_open":
        return t(f"tallyup.ev.choice_open_{event['for']}")
    if kind == "revealed":
        return reveal_sentence(event, names)
    if kind == "up_die":
        label = up_label(event["label"])
        if "bonus" in event:
            key = (
                "tallyup.ev.up_die_bonus_one" if event["bonus"] == 1 else "tallyup.ev.up_die_bonus"
            )
            return t(key, label=label, n=event["bonus"])
        return t("tallyup.ev.up_die", label=label, total=event["running_total"])
    if kind == "bonus_dice":
        dice = ", ".join(colour_name(c) for c in event["dice"])
        return t("tallyup.ev.bonus_dice", name=who, dice=dice)
    if kind == "round_end":
        return t("tallyup.ev.round_end", round=event["round"])
    if kind == "extra_round":
        return t(
            "tallyup.ev.extra_round", number=event["number"], names=names_of(event["tied"], names)
        )
    return None  # game_over: the room announces the winners


def bust_reason(event: dict[str, Any], names: list[str]) -> str:
    """A bust's cause and cost without the word itself: the table's banner says "BUST!"
    before it ("BUST! Two stars — bust!" said it twice). The story's line (`narrate`) is
    read alone, and keeps the word."""
    stage = "bonus" if event["stage"] == "bonus" else "main"
    if not event["lost"] or not event["amount"]:
        return t(f"tallyup.bust_why.{stage}_nobody")
    lost = names_of(event["lost"], names)
    return t(f"tallyup.bust_why.{stage}", names=lost, amount=event["amount"])


def reveal_sentence(event: dict[str, Any], names: list[str]) -> str:
    return t("tallyup.ev.reveal") + " " + reveal_outcome(event, names)


def reveal_outcome(event: dict[str, Any], names: list[str]) -> str:
    """The reveal's sentence after its count of 1… 2… 3…!: who went OUT with what, who
    stays IN."""
    parts = []
    if event["out"]:
        key = "tallyup.ev.out_one" if len(event["out"]) == 1 else "tallyup.ev.out"
        parts.append(t(key, names=names_of(event["out"], names), amount=event["banked"]))
    if event["stay"]:
        parts.append(t("tallyup.ev.stay", names=names_of(event["stay"], names)))
    line = " ".join(parts)
    if event.get("timeout"):
        line += " " + t("tallyup.ev.reveal_timeout")
    return line
