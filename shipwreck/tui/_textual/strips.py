"""Strips (rendered lines) that keep less: two patches to ``textual.strip.Strip``.

``strip_caches``: every ``Strip`` built seven ``FIFOCache`` objects in ``__init__``, and a
session keeps thousands of strips (every widget caches its rendered lines). Most of those caches
are never used, yet they were about a fifth of a seated session's memory and an eighth of the
CPU a repaint costs (``bench/render.py --memory``, when the patch was written). Here each
cache is a property that builds its ``FIFOCache`` on first access and keeps it in the same
slot, so a strip behaves exactly as before.

``strip_divide``: to put a screen together, the compositor cuts each line of each widget where
other widgets overlap it (``Strip.divide``), and every strip kept the pieces it was cut into.
Widgets keep their lines, so every session kept a second, cut copy of its screen: a ninth of
its memory. Cutting again when a line is redrawn costs about 3 % more calls.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

from shipwreck.tui._textual.fence import Patch, Reads, Source

CACHE_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
"""The caches ``Strip.__init__`` makes, with their sizes."""

OTHER_SLOTS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")


def _init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """``Strip.__init__`` without the caches (they come when first used)."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _lazy(slot: Any, size: int) -> property:
    """A property over the member descriptor ``slot`` that fills it on first read."""

    def get(strip: Strip) -> FIFOCache[Any, Any]:
        try:
            cache: FIFOCache[Any, Any] = slot.__get__(strip, Strip)
        except AttributeError:
            cache = FIFOCache(size)
            slot.__set__(strip, cache)
        return cache

    return property(get, slot.__set__)


def _install_caches() -> None:
    for name, size in CACHE_SIZES.items():
        setattr(Strip, name, _lazy(Strip.__dict__[name], size))
    Strip.__init__ = _init  # type: ignore[method-assign]


def _divide(self: Strip, cuts: Iterable[int]) -> list[Strip]:
    """``Strip.divide`` without keeping the pieces in the strip's cache."""
    cell_length = self.cell_length
    cuts = [cut for cut in cuts if cut <= cell_length]
    if cuts == [cell_length]:
        return [self]
    strips, pos = [], 0
    for segments, cut in zip(Segment.divide(self._segments, cuts), cuts, strict=False):
        strips.append(Strip(segments, cut - pos))
        pos = cut
    return strips


def _install_divide() -> None:
    Strip.divide = _divide  # type: ignore[method-assign]


CACHES = Patch(
    name="strip_caches",
    why="a strip makes its seven caches when first used, not all in __init__",
    sources=(
        Source(
            Strip, "__init__", "ce1d8154dca8cfd78cd46aa14a40b23436c94696447efbe74eb17f0e0a4a550d"
        ),
    ),
    reads=(Reads("Strip", lambda: Strip, (*CACHE_SIZES, *OTHER_SLOTS)),),
    install=_install_caches,
)
DIVIDE = Patch(
    name="strip_divide",
    why="a strip does not keep the pieces the compositor cut it into",
    sources=(
        Source(
            Strip,
            "divide",
            "f6764f25c39e144b942b4358ca8d3d7afe98dd01c23514ac55b2b6b9bc57ad3a",
        ),
    ),
    reads=(Reads("Strip", lambda: Strip, ("_segments",)),),
    install=_install_divide,
)
