"""A player app's link to a table that is not there: what the app sends is kept, and the test
answers it by hand (the table's views come only when the test sends them: no race decides
what a key meets)."""

from __future__ import annotations

from typing import Any


class HandLink:
    """Stands in for `net.client.Client` in `ClientApp.client`."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def act(self, action: dict[str, Any], version: int) -> int:
        self.sent.append(action)
        return len(self.sent)

    async def close(self) -> None:
        pass
