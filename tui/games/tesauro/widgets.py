"""The table's own widgets: short pieces side by side (the thinking time, the cards won), the
word in play as large as it fits, and the nine tiles with who holds each."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widget import Widget

from games.tesauro import CATEGORIES
from tui.bigtext import big
from tui.games.tesauro.words import category_name, quoted, span, who
from tui.i18n import t
from tui.text import name


class Flow(Widget):
    """Short pieces of text side by side, wrapping between pieces, never inside one."""

    DEFAULT_CSS = "Flow { height: auto; }"

    def __init__(self, gap: int = 3, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.gap = gap
        self._pieces: list[Text] = []

    def show(self, pieces: list[Text]) -> None:
        self._pieces = pieces
        self.refresh(layout=True)

    def render(self) -> Text:
        width = self.content_size.width or 80
        lines = [Text()]
        for piece in self._pieces:
            line = lines[-1]
            if line.cell_len and line.cell_len + self.gap + piece.cell_len > width:
                line = Text()
                lines.append(line)
            if line.cell_len:
                line.append(" " * self.gap)
            line.append_text(piece)
        text = Text("\n").join(lines)
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text


class BigWord(Widget):
    """The word in play as large as the screen allows: in big letters on a tall table, else
    in capitals, spaced when the line is wide enough. Without a word, a line saying what is
    happening instead."""

    DEFAULT_CSS = "BigWord { height: auto; width: 1fr; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._word: str | None = None
        self._note = Text()
        self.large = False

    def show(self, word: str | None, note: Text, large: bool = False) -> None:
        self._word, self._note, self.large = word, note, large
        self.refresh(layout=True)

    def render(self) -> Text:
        if not self._word:
            return self._note.copy()
        word = quoted(self._word, 60).upper()
        width = self.content_size.width or 40
        if self.large:  # twice as large on a TV, where it fits
            scales = (2, 1) if self.app.has_class("-tv") else (1,)
            for scale in scales:
                lines = big(word, scale)
                if lines and max(len(line) for line in lines) <= width:
                    return Text("\n".join(lines), style="bold")
        spaced = " ".join(word)
        return Text(spaced if len(spaced) <= width else word, style="bold")


class TileGrid(Widget):
    """The nine tiles in three columns: each its category and who holds it."""

    DEFAULT_CSS = "TileGrid { height: auto; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._view: dict[str, Any] | None = None

    def show(self, view: dict[str, Any]) -> None:
        self._view = view
        self.refresh(layout=True)

    def render(self) -> Text:
        view = self._view
        if view is None:
            return Text()
        names = view["players"]
        holder = {tile: seat for seat, tile in enumerate(view["categories"]) if tile is not None}
        cell = max(10, (self.content_size.width or 60) // 3)
        full = max(len(category_name(c)) for c in CATEGORIES) < cell
        rows = []
        for start in range(0, 9, 3):
            top, bottom = Text(), Text()
            for category in CATEGORIES[start : start + 3]:
                seat = holder.get(category)
                label = Text(
                    category_name(category) if full else t(f"tesauro.category_short.{category}"),
                    style="bold cyan" if seat is not None else "dim",
                )
                label.truncate(cell - 1, overflow="ellipsis", pad=True)
                top.append_text(label)
                top.append(" ")
                if seat is None:
                    below = Text("□ " + t("tesauro.free"), style="dim")
                else:
                    below = span("▣ ", style="bold cyan")  # (■ is a seat's mark)
                    below.append_text(name(who(names, seat)))
                    if view["given"][seat]:
                        below.append(" ✔", style="bold green")
                below.truncate(cell - 1, overflow="ellipsis", pad=True)
                bottom.append_text(below)
                bottom.append(" ")
            rows.extend([top, bottom])
        return Text("\n").join(rows)
