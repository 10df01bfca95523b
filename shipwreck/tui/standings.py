"""What both games' end screens share: a player's placing ("2nd of 6", ties shared) and a
score drawn as a bar broken into its parts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

Score = TypeVar("Score", int, tuple[int, ...])
"""A score, or a tuple compared in order (Spanish Main: gold, then the ships' points)."""


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def rank(scores: Sequence[Score], score: Score) -> int:
    """1 + how many scored more: players who tie share the place (1, 2, 2, 4)."""
    return 1 + sum(1 for s in scores if s > score)


def placing(scores: Sequence[Score], score: Score) -> str:
    """``2nd of 6``, or ``tied 2nd of 6`` when someone else has the same score."""
    tied = sum(1 for s in scores if s == score) > 1
    return f"{'tied ' if tied else ''}{ordinal(rank(scores, score))} of {len(scores)}"


class Part:
    """One part of a score as a bar draws it: its glyph and colour tell the parts apart with
    colour or without."""

    __slots__ = ("glyph", "label", "style")

    def __init__(self, label: str, glyph: str, style: str) -> None:
        self.label, self.glyph, self.style = label, glyph, style


def bar(parts: Sequence[tuple[Part, int]], scale: float, width: int) -> Text:
    """The parts side by side, each ``value * scale`` cells long (at least one cell if it is
    worth anything), padded to ``width``."""
    t = Text()
    for part, value in parts:
        if value > 0:
            t.append(part.glyph * max(1, round(value * scale)), style=part.style)
    t.truncate(width, pad=True)
    return t


def key(parts: Sequence[Part]) -> Text:
    """The bar's key: ``█ treasure  ▓ you alive …``."""
    t = Text()
    for part in parts:
        t.append(part.glyph, style=part.style)
        t.append(f" {part.label}  ")
    return t


PREFIX = 36
"""The columns before a bar: mark, place, name, state, score."""


def bar_width(width: int, prefix: int = PREFIX) -> int:
    """The cells a bar has in ``width`` columns after ``prefix`` columns."""
    return max(8, min(36, width - prefix))


class ToWidth:
    """A renderable made for the width it is drawn at (an end screen's bars fill its box)."""

    def __init__(self, make: Callable[[int], RenderableType]) -> None:
        self.make = make

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.make(options.max_width)
