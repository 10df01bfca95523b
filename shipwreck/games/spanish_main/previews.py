"""What a move would do, for a UI to draw before the player commits (:func:`.rules.preview`).

Its own module because a ``msgspec.Struct`` with field defaults cannot sit in a module mypyc
compiles (:mod:`shipwreck._native`), and the rules are compiled.
"""

from __future__ import annotations

import msgspec


class MovePreview(msgspec.Struct, frozen=True):
    """Where a move would take a ship, for a UI to draw before the player commits."""

    x: float
    y: float
    heading: float
    legs: tuple[tuple[float, float], ...]
    """(degrees turned, distance run) per leg sailed."""
    stop: str | None
    """Why it stops early, e.g. "her bow touches isla-3 after 2.1 of leg 1"."""
    touches: str | None = None
    """The id of the island or ship that stops her (or "the edge of the sea"), if any."""
    part: str = ""
    """Which part of her touches it: bow, stern, port side, starboard side, tow."""
