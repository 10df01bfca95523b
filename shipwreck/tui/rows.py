"""Content drawn as lines of text, each cut to the width, never wrapped (:class:`Rows`)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text


class Rows:
    """Lines of text drawn to the width they are given, each cut to fit, never wrapped.

    Why not a Rich ``Table``: the boat and the cards are redrawn on most moves in every
    session at the table, and measuring a table's columns cost a fifth of a session's
    rendering. Here each line is built once for the width (``lines(width)``), and a
    :class:`~shipwreck.tui.board.Board` draws each line once for every session that shows it
    alike (most lines of a panel are the same at every seat, and stay the same from move to
    move)."""

    def lines(self, width: int) -> list[Text]:
        raise NotImplementedError

    @staticmethod
    def as_row(line: Text) -> Text:
        """``line`` set to be drawn as one row: cut with "…" at the edge, never wrapped."""
        line.no_wrap = True
        line.overflow = "ellipsis"
        line.end = "\n"
        return line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            yield self.as_row(line)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)
