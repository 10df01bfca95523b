"""Items packed onto a few lines of whatever width a panel has, each item whole, with a
count of what does not fit: a prompt's choices (both games) and the hint lines."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from shipwreck.tui.rows import Rows


class Packed(Rows):
    """Items laid out on at most ``lines`` lines of whatever width the panel has, each item
    whole (never cut at the edge), separated by `` · ``; what does not fit is counted at the
    end ("+3 more: Tab"). So the hint line says all it can at 80 columns and more at 120."""

    def __init__(
        self,
        head: Text,
        items: Sequence[Text],
        lines: int = 2,
        more: str = "Tab",
        sep: str = " · ",
        joins: Sequence[str] | None = None,
    ) -> None:
        """``head``: a line above the items (cut at the edge if it must be); ``sep``: between
        two items on a line; ``joins``: if given, what goes before each item instead of
        ``sep`` when it follows another on the line (so the parts of one group can sit closer
        than two groups: ``isla-5 #1=3 #2=4 · dover #7=2``)."""
        self.head, self.items, self.rows, self.more = head, list(items), lines, more
        self.sep = sep
        self.joins = list(joins) if joins is not None else [sep] * len(self.items)

    def __str__(self) -> str:
        line = "".join(j + t.plain for j, t in zip(self.joins, self.items, strict=True))
        return "\n".join([self.head.plain, line.removeprefix(self.joins[0] if self.joins else "")])

    def lines(self, width: int) -> list[Text]:
        """The head (cut at the edge), then the items packed (see :meth:`pack`)."""
        return [self.head.copy(), *self.pack(width)]

    def pack(self, width: int) -> list[Text]:
        rows: list[Text] = [Text(no_wrap=True, overflow="ellipsis")]
        for i, item in enumerate(self.items):
            row = rows[-1]
            join = self.joins[i]
            sep = len(join) if row.cell_len else 0
            left = len(self.items) - i - 1
            last = left and len(rows) == self.rows
            tail = len(f"{self.sep}+{left} more: {self.more}") if last else 0
            if row.cell_len + sep + item.cell_len + tail <= width:
                if sep:
                    row.append(join, style="dim")
                row.append_text(item)
                continue
            if len(rows) < self.rows and item.cell_len <= width:
                rows.append(Text(no_wrap=True, overflow="ellipsis"))
                rows[-1].append_text(item)
                continue
            row.append(f"{self.sep if row.cell_len else ''}+{left + 1} more: {self.more}", "dim")
            break
        return rows
