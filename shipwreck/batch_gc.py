"""The garbage collector's schedule while a batch of games plays (``sim``, ``arena``, benches).

A bot game allocates millions of short-lived tuples (poses, keys, legs); every 700 of them
Python walks the young generation, and what start-up made (grammars, card tables, compiled
scripts) sits in the older ones, walked again at every older collection. While a batch plays,
`batch_gc` freezes what is there (it leaves the collections: freezing is a splice of lists,
not a walk) and collects young objects every 20,000 allocations instead of 700: the short-lived
ones die by reference counting before a collection can see them. Everything is put back after.
Measured in one process, the two schedules alternating for 14 rounds of 10 hauler games:
7 % more games per CPU second at the median (``bench/spanish_main-results.md``). The server has
its own schedule (`shipwreck.server.gc_policy`); a batch run inside it (never today) would leave
that one as it found it, apart from the thresholds it restores.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 20_000
"""Allocations between two young collections while a batch plays (Python's default: 700)."""


@contextmanager
def batch_gc() -> Iterator[None]:
    """Freeze what is there (unless something is frozen already: then the caller keeps its
    own schedule) and collect young objects less often, until the block ends."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
