"""When the garbage collector walks the whole heap: on the server's schedule, not Python's.

A process full of sessions holds millions of long-lived objects (every session's app is
thousands), and a full (generation 2) collection walks all of them while every table waits:
1.3-1.8 s at 100 sessions on a 2-core machine (Textual 8.2.8,
``bench/ssh_load.py --sessions 100``: its ``gc`` lines). Left to Python, one came every 40-60 s of
brisk play and was the largest single part of the slowest 5 % of moves.

So `tune_gc` freezes what start-up made, collects young objects less often (the many
short-lived objects of a repaint die by reference counting before they can be promoted), and
turns Python's own full collections off; `FullCollector` runs them instead, when enough has
become garbage to be worth a pause: after `AFTER_ENDED` sessions have ended (an ended
session's app is cycles only a full collection frees, about 2 MiB each), or every `EVERY`
seconds for whatever cycles play leaves behind. Collecting after every ended session was
tried: with 99 sessions staying, each such pause stopped every table for 1.5 s.

Young collections walk what is young, and a session's app (thousands of objects, long-lived)
is young when it starts: with 200 players signing in and sitting down, the objects of dozens
of new apps reached generation 1, and each generation-1 collection walked them all (0.3 s on
an idle 2-core machine, 0.5-0.7 s on a busy one: ``bench/ssh_load.py --sessions 200``) with
every table stopped; then they went to generation 2, never walked again until a full
collection. So while the server's schedule is in force (`tune_gc`), the `FullCollector`, asked
every tick, also **freezes** (``gc.freeze()``) once `FREEZE_AFTER` generation-0 collections
have passed since the last freeze: whatever survived them leaves the young generations without
being walked (freezing is a splice of lists, not a traversal), so a young collection only ever
walks the few objects made since.

What that costs: frozen objects are left out of collections, so a cycle that becomes garbage
after it was frozen waits for the next full collection. That is what happens to an ended
session's app anyway (its objects were old long before it ended), and the full collection
unfreezes first, so it still frees every ended session and every cycle: `maybe_collect` is
``unfreeze, collect, freeze``. The pause of a full collection is what it was (it walks
everything, as before; start-up's objects too, which `tune_gc` froze once and a full
collection now also walks: a few percent more). What no longer happens is a young
collection freeing a cycle that had lived through one young collection and died before the
next generation-1 one: such cycles are now freed by the next full collection instead (at most
`EVERY` seconds later, sooner after `AFTER_ENDED` ended sessions).
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

EVERY = 600.0
"""Seconds between full collections at most (``server.toml``: ``limits.full_gc_seconds``)."""
AFTER_ENDED = 20
"""Ended sessions that make a full collection due (``limits.full_gc_after_ended``)."""
MIN_GAP = 60.0
"""Seconds between two full collections at least (``limits.full_gc_min_seconds``)."""
FREEZE_AFTER = 2
"""Generation-0 collections since the last freeze that make the next one due (see the module
docstring): what survived them would otherwise pile up in generation 1 and be walked there."""

_tuned = False
"""Whether `tune_gc` is in force (the server process): only then does the collector freeze
(a test's process collects as Python does)."""


def tune_gc() -> None:
    """Freeze start-up's objects; young collections less often; no automatic full ones; the
    `FullCollector` freezes what survives young collections."""
    global _tuned
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 2**31 - 1)
    _tuned = True


def untune_gc(threshold: tuple[int, int, int] = (700, 10, 10)) -> None:
    """Back to Python's own schedule (tests): nothing frozen, ``threshold`` restored."""
    global _tuned
    _tuned = False
    gc.unfreeze()
    gc.set_threshold(*threshold)


def _young_collections() -> int:
    return int(gc.get_stats()[0]["collections"])


class FullCollector:
    """Runs a full collection when it is due (see the module docstring); the server asks it
    on every tick of its clock."""

    def __init__(
        self,
        ended: Callable[[], int],
        every: float = EVERY,
        after_ended: int = AFTER_ENDED,
        clock: Callable[[], float] = time.monotonic,
        min_gap: float = 0.0,
    ) -> None:
        self.ended = ended
        """How many sessions have ended so far."""
        self.every = every
        self.after_ended = after_ended
        self.min_gap = min_gap
        """Seconds a collection waits at least after the last (the server's: `MIN_GAP`).
        Each pauses every table (about 1 s at 200 sessions), and sessions end as fast as
        anyone can sign in and out: ended sessions alone must not make them frequent."""
        self.clock = clock
        self.collections = 0
        self.freezes = 0
        self._last = clock()
        self._ended_then = ended()
        self._young_then = _young_collections()

    def due(self) -> bool:
        waited = self.clock() - self._last
        if waited < self.min_gap:
            return False
        return waited >= self.every or self.ended() - self._ended_then >= self.after_ended

    def maybe_collect(self) -> float | None:
        """Collect if due (else freeze, if that is due); the seconds it took, or ``None``."""
        if not self.due():
            self.maybe_freeze()
            return None
        started = time.perf_counter()
        if _tuned:
            gc.unfreeze()  # every object is looked at: what was frozen may be garbage now
        freed = gc.collect()
        if _tuned:
            self._freeze()
        took = time.perf_counter() - started
        self._last, self._ended_then = self.clock(), self.ended()
        self.collections += 1
        log.info("full garbage collection: %d objects freed in %.0f ms", freed, took * 1000)
        return took

    def maybe_freeze(self) -> bool:
        """Freeze what survived young collections, if `FREEZE_AFTER` of them have passed since
        the last freeze and `tune_gc` is in force (see the module docstring)."""
        if not _tuned or _young_collections() - self._young_then < FREEZE_AFTER:
            return False
        self._freeze()
        return True

    def _freeze(self) -> None:
        gc.freeze()
        self.freezes += 1
        self._young_then = _young_collections()
