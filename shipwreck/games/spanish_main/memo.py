"""What the rules work out from where things lie at sea, kept while nothing moves.

Listing a seat's choices, previewing each of them and applying one all plan moves against the
same islands, hulls and edge: the obstacles, the first legs and whole paths are the same each
time. :func:`memo` gives a dict for one position's geometry, keyed by everything the geometry of
a move depends on (the sea's size; every island's id, place, size and owner; every ship's id,
owner, pose, length and tow), so a state that moved gets a fresh dict and a state rebuilt from a
view (a bot's preview) finds what the real one worked out. What goes in must be a pure function
of that key and of its own key: then a hit returns exactly what working it out again would, and
games stay byte for byte the same with or without it.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from msgspec.structs import astuple

from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.state import (
    AT_HEADING,
    AT_ID,
    AT_LENGTH,
    AT_OWNER,
    AT_TOWING,
    AT_X,
    AT_Y,
    SpanishMainState,
)

KEEP = 16
"""Positions remembered (a server runs several tables; a bot previews on a copy of the sea)."""

_memos: OrderedDict[tuple[Hashable, ...], dict[Hashable, object]] = OrderedDict()
_lock = threading.Lock()
_last: tuple[tuple[Hashable, ...], dict[Hashable, object]] = ((), {})
"""The position asked for last and its dict: the rules ask for one position many times running
(every move listed or previewed), and comparing a fresh key with the last one is much cheaper
than hashing it (the floats are mostly the very same objects, so most compare by identity)."""


_isles: tuple[object, int] = (None, -1)
"""The islands of the sea asked for last (the dict itself, held so that its id is not reused)
and the number that stands for them in its key: nothing moves an island, or changes its size or
owner, once the game is set up, so a sea's dict of islands always gives the same number."""

_isle_numbers: OrderedDict[tuple[Hashable, ...], int] = OrderedDict()
"""A number for each set of islands seen lately (equal islands, the same number): a key holds
it in their place, so a new position's key hashes one int, not every island. A number is never
given twice (:data:`_numbered`), so one forgotten and seen again only misses the memo."""
_numbered = itertools.count()


def sea_key(state: SpanishMainState) -> tuple[Hashable, ...]:
    """Everything about ``state`` the geometry of a move depends on."""
    return (
        state.width,
        state.height,
        islands_number(state),
        tuple([_ship_key(astuple(s)) for s in state.ships.values()]),
    )


def _ship_key(f: tuple[Any, ...]) -> tuple[Hashable, ...]:
    """A ship's part of the key, ``(s.id, s.owner, s.x, …)``, from her fields (:data:`SHIP_AT`):
    the very objects she holds (compiled, reading ``s.x`` as a float and boxing it again would
    make a new object, which then compares with the last key's by value, not identity)."""
    return (f[AT_ID], f[AT_OWNER], f[AT_X], f[AT_Y], f[AT_HEADING], f[AT_LENGTH], f[AT_TOWING])


def islands_number(state: SpanishMainState) -> int:
    """The number that stands for ``state``'s islands (their ids, places, sizes and owners): the
    same for equal islands, never the same for others."""
    global _isles
    islands, number = _isles
    if islands is not state.islands:  # (islands never move: numbered once per sea)
        islands = state.islands
        number = _number(tuple([(i.id, i.x, i.y, i.r, i.home) for i in islands.values()]))
        _isles = (islands, number)
    return number


def _number(isles: tuple[Hashable, ...]) -> int:
    with _lock:
        n = _isle_numbers.get(isles)
        if n is None:
            n = _isle_numbers[isles] = next(_numbered)
            while len(_isle_numbers) > 4 * KEEP:
                _isle_numbers.popitem(last=False)
        return n


def memo(state: SpanishMainState) -> dict[Hashable, object]:
    """The dict of what has been worked out from this position's geometry."""
    global _last
    key = sea_key(state)
    last_key, last = _last
    if key == last_key:
        return last
    with _lock:
        fresh: dict[Hashable, object] = {}
        got = _memos.setdefault(key, fresh)  # (a new position's key is hashed once)
        if got is fresh:
            while len(_memos) > KEEP:
                _memos.popitem(last=False)
        else:
            _memos.move_to_end(key)
        _last = (key, got)
        return got


def waters(
    state: SpanishMainState, key: tuple[Hashable, ...], build: Callable[[], list[geo.Obstacle]]
) -> geo.Waters:
    """The obstacles ``build()`` makes for this position (``key``: for whom, e.g. her owner and
    the hulls she leaves out), made once, with their memo of legs and plans (:class:`geo.Waters`).
    """
    m = memo(state)
    got = m.get(("waters", *key))
    if got is None:
        got = m[("waters", *key)] = geo.Waters(build())
    assert isinstance(got, geo.Waters)
    return got


def clear() -> None:
    """Forget everything (benchmarks: time the work, not the lookups)."""
    global _last
    with _lock:
        _memos.clear()
        _last = ((), {})
