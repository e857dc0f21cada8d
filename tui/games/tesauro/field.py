"""The field a scholar types a definition in (its own keys: Enter sends)."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding

from tui.widgets import TextField, keys


class DefinitionInput(TextField):
    """The definition field: one line, 300 characters at most. Enter sends (the footer says
    so while it has the keys). Coming back to it keeps the draft with the cursor at its end:
    it never selects the draft (Textual's default), which the next key would replace."""

    BINDINGS = keys(
        "tesauro.field",
        [Binding("enter", "submit", "tesauro.key.send", key_display="Enter")],
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(select_on_focus=False, **kwargs)

    def on_key(self, event: events.Key) -> None:
        """A tile's number straight after a tile was refused — nothing typed since — is the
        next tile, not the definition's first character (a wrong tile, then the right one,
        is the reflex): the hand takes it. (Any other key goes on to the field's handlers.)"""
        hand: Any = self.parent
        while hand is not None and not hasattr(hand, "tile_key_in_field"):
            hand = hand.parent
        if hand is not None and hand.tile_key_in_field(event.character):
            event.stop()
            event.prevent_default()
