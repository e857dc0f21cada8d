"""The field a scholar types a definition in (its own keys: Enter sends)."""

from __future__ import annotations

from typing import Any

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
