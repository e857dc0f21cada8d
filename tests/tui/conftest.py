from __future__ import annotations

import pytest

from tui.widgets import ConfirmScreen


@pytest.fixture(autouse=True)
def instant_confirmations(monkeypatch):
    """Pilot presses keys a microsecond apart, like nobody's fingers: a question answers at
    once here. The typing-ahead guard has tests of its own that put the pause back."""
    monkeypatch.setattr(ConfirmScreen, "PAUSE", 0.0)
