"""The field a scholar types a definition in (its own keys: Enter sends)."""

from __future__ import annotations

from collections.abc import Callable
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

    def __init__(self, tile_key: Callable[[str | None], bool], **kwargs: Any) -> None:
        """`tile_key`: the hand's, whether a character typed here is a tile's number meant as
        a tile (and if so, takes it)."""
        super().__init__(select_on_focus=False, **kwargs)
        self.tile_key = tile_key

    def on_key(self, event: events.Key) -> None:
        """A tile's number straight after a tile was refused — nothing typed since — is the
        next tile, not the definition's first character (a wrong tile, then the right one,
        is the reflex): the hand takes it. (Any other key goes on to the field's handlers.)"""
        if self.tile_key(event.character):
            event.stop()
            event.prevent_default()
