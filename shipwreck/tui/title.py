"""A table's title bar, made to fit its width: the clock first, then what the table is.

Each part of the bar has a few forms, longest first (the last may be empty: the part is left
out). While the bar is wider than the screen, the least important part takes its next form,
then the next least important, and so on; so at 80 columns "signed in as ann" goes first and
the countdown never falls off the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

SEPARATOR = " · "


class Part(NamedTuple):
    """One part of a title bar."""

    forms: tuple[Text, ...]
    """Longest first; an empty last form means the part may be left out."""
    rank: int
    """Parts of a lower rank are shortened first (ties: the later part first)."""


def part(*forms: str | Text, rank: int, style: str = "bold") -> Part:
    """A :class:`Part`; a form given as a string is drawn in ``style``."""
    return Part(tuple(f if isinstance(f, Text) else Text(f, style=style) for f in forms), rank)


def fit(parts: Sequence[Part], width: int) -> Text:
    """The parts joined by :data:`SEPARATOR`, shortened (least important first) until the bar
    is at most ``width`` cells; cut at the end only if even the shortest forms do not fit."""
    level = [0] * len(parts)
    order = sorted(range(len(parts)), key=lambda i: (parts[i].rank, -i))
    bar = _join(parts, level)
    for i in order:
        while bar.cell_len > width and level[i] < len(parts[i].forms) - 1:
            level[i] += 1
            bar = _join(parts, level)
    bar.no_wrap, bar.overflow = True, "ellipsis"
    return bar


def _join(parts: Sequence[Part], level: list[int]) -> Text:
    """The parts' forms at ``level``, separated (after a part padded with a space, as a
    coloured bar is, the separator's own first space is left out)."""
    bar = Text()
    for p, n in zip(parts, level, strict=True):
        form = p.forms[n]
        if form.plain:
            if bar.plain:
                bar.append(SEPARATOR[bar.plain.endswith(" ") :], style="bold")
            bar.append_text(form)
    return bar


class TitleBar:
    """The parts, fitted to the width the bar is drawn at (:func:`fit`). ``width``: the width
    it is expected at, for ``str()`` (what a test reads as the panel's text)."""

    def __init__(self, parts: Sequence[Part], width: int = 10_000) -> None:
        self.parts, self.width = list(parts), width

    def __str__(self) -> str:
        return fit(self.parts, self.width).plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield fit(self.parts, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def table_title(name: str, game: str, *middle: Part, signed_in: str = "") -> list[Part]:
    """A table's title parts: its name, its game, ``middle`` (who I am, the round...) and who
    is signed in; at 80 columns "signed in as" goes first, then the game's name, then the
    table's name is shortened (``table 12`` → ``#12``); the clock's warning, the last to be
    shortened, may leave out all of them."""
    short = f"#{name.removeprefix('table ')}" if name.startswith("table ") else name
    return [
        part(name, short, "", rank=2),
        part(game, "", rank=1),
        *middle,
        part(signed_in, "", rank=0),
    ]
