from __future__ import annotations

import pytest

from tui.widgets import ConfirmScreen, TypingGuard


@pytest.fixture(autouse=True)
def no_typing_pauses(monkeypatch):
    """Pilot presses keys a microsecond apart, like nobody's fingers: here a question answers
    at once and a key after typed text is a command. The typing-ahead guards have tests of
    their own that put the pauses back."""
    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0.0)
    monkeypatch.setattr(TypingGuard, "PAUSE", 0.0)
