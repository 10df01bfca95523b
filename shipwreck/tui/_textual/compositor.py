"""A partial repaint draws only the rows it repaints (``compositor_rows``), and writes its
cursor moves without making a Rich ``Control`` for each (``cursor_moves``).

For an update, the compositor asked every widget whose *parent* overlapped the rows to update
for all of its lines, then threw away the rows it did not need: a new line in the log had every
panel and container on the screen hand over all their lines. Here each widget is asked only for
the rows between the first and the last row being repainted within it, and not at all if it has
none; the bytes sent are the same. A new log line then costs a session about a tenth less
(``bench/render.py``, when the patch was written). Nor is a widget asked for rows that the
widgets in front of it fill: the screen's own background behind the log and the chat was drawn
on every new line and thrown away (a seventh of what a ``say`` cost each session at its table).

Each row of an update begins with a cursor move: Textual made a ``Control`` (and its
``Segment``) for each and took its text, about a tenth of what drawing a new log line cost a
session. :func:`_render_segments` writes the same escape sequence (``ESC [ row ; col H``, as
``Control.move_to`` renders it) as text.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

from shipwreck.tui._textual.fence import Patch, Reads, Source

textual_render_chops = Compositor._render_chops
"""Textual's own, for a test to compare with."""


def _render_chops(
    self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]
) -> list[dict[int, Strip | None]]:
    """``Compositor._render_chops`` asking each widget only for the rows it repaints that the
    widgets in front of it leave to it.

    Front to back (the order of ``visible_widgets``), each widget's lines are cut where the
    screen's cuts fall, and the first strip to fill a cut wins, as in Textual (so a widget
    whose cuts are all filled already would only have its lines thrown away)."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    top, bottom = crop.y, crop.bottom
    for widget, (region, clip) in self.visible_widgets.items():
        x, y, width, height = region.intersection(clip)
        right = x + width
        first, end = max(y, top), min(y + height, bottom)
        while first < end and not _wanted(chops, cuts, is_rendered_line, first, x, right):
            first += 1
        while end > first and not _wanted(chops, cuts, is_rendered_line, end - 1, x, right):
            end -= 1
        if not width or first >= end:
            continue
        strips = widget.render_lines(Region(x - region.x, first - region.y, width, end - first))
        for row, strip in zip(range(first, end), strips, strict=False):
            if not is_rendered_line(row):
                continue
            line = chops[row]
            row_cuts = [cut for cut in cuts[row] if right >= cut >= x]
            pieces = strip.divide([cut - x for cut in row_cuts[1:]])
            for cut, piece in zip(row_cuts, pieces, strict=False):
                if line.get(cut) is None:
                    line[cut] = piece
    return chops


def _wanted(
    chops: list[dict[int, Strip | None]],
    cuts: list[list[int]],
    is_rendered_line: Callable[[int], bool],
    row: int,
    x: int,
    right: int,
) -> bool:
    """Whether ``row`` is repainted and a cut of it between ``x`` and ``right`` (a widget's)
    is not yet filled by a widget in front (the screen behind a log: nothing of it shows)."""
    if not is_rendered_line(row):
        return False
    line = chops[row]
    return any(line[cut] is None for cut in cuts[row][:-1] if x <= cut < right)


def _install() -> None:
    Compositor._render_chops = _render_chops  # type: ignore[method-assign,assignment]


textual_render_segments = ChopsUpdate.render_segments
"""Textual's own, for a test to compare with."""


def _render_segments(self: ChopsUpdate, console: Console) -> str:
    """``ChopsUpdate.render_segments`` with each cursor move written as the text
    ``Control.move_to`` renders to (the rest as Textual has it)."""
    sequences: list[str] = []
    append = sequences.append
    chops, chop_ends = self.chops, self.chop_ends
    last_y = self.spans[-1][0]
    for y, x1, x2 in self.spans:
        for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
            if strip is None or x > x2 or end <= x1:
                continue
            if not (x2 > x >= x1 and end <= x2):
                strip = strip.crop(0, min(end, x2) - x)
            append(f"\x1b[{y + 1};{x + 1}H")
            append(strip.render(console))
        if y != last_y:
            append("\n")
    return "".join(sequences)


def _install_moves() -> None:
    ChopsUpdate.render_segments = _render_segments  # type: ignore[method-assign]


ROWS = Patch(
    name="compositor_rows",
    why="a partial repaint asks a widget only for its repainted rows no widget in front fills",
    sources=(
        Source(
            Compositor,
            "_render_chops",
            "ca8c3359d7afd0171bda158ab5b846fec5144539e438de5113d76f11eb357f0f",
        ),
        Source(
            Compositor,
            "_get_renders",
            "8ac93299aa5d3bef43b3924a9d09741de8855d9c4823502bcf304fbd8fd40f17",
        ),
    ),
    reads=(Reads("Compositor", lambda: Compositor, ("_render_chops",)),),
    install=_install,
)


MOVES = Patch(
    name="cursor_moves",
    why="an update's cursor moves are written as text, not made as Rich controls",
    sources=(
        Source(
            ChopsUpdate,
            "render_segments",
            "4c1cdb567e0b8354bd70cb129da78a42314c39eb8aacd5bf21951cbd5aaba0ef",
        ),
        Source(
            Control,
            "move_to",
            "e785c3612586514e6b75b0366531cb7c6f224e16ec08f990c02a801f349d0bc4",
        ),
    ),
    install=_install_moves,
)
