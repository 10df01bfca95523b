"""When the garbage collector walks the whole heap: on the server's schedule, not Python's.

A process full of sessions holds millions of long-lived objects (every session's app is
thousands), and a full (generation 2) collection walks all of them while every table waits:
1.3-1.8 s at 100 sessions on the reference machine. Left to Python, one came every 40-60 s of
brisk play and was the largest single part of the slowest 5 % of moves.

So `tune_gc` freezes what start-up made, collects young objects less often (the many
short-lived objects of a repaint die by reference counting before they can be promoted), and
turns Python's own full collections off; `FullCollector` runs them instead, when enough has
become garbage to be worth a pause: after `AFTER_ENDED` sessions have ended (an ended
session's app is cycles only a full collection frees, about 2 MiB each), or every `EVERY`
seconds for whatever cycles play leaves behind. Collecting after every ended session was
tried: with 99 sessions staying, each such pause stopped every table for 1.5 s.
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


def tune_gc() -> None:
    """Freeze start-up's objects; young collections less often; no automatic full ones."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 2**31 - 1)


class FullCollector:
    """Runs a full collection when it is due (see the module docstring); the server asks it
    on every tick of its clock."""

    def __init__(
        self,
        ended: Callable[[], int],
        every: float = EVERY,
        after_ended: int = AFTER_ENDED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ended = ended
        """How many sessions have ended so far."""
        self.every = every
        self.after_ended = after_ended
        self.clock = clock
        self.collections = 0
        self._last = clock()
        self._ended_then = ended()

    def due(self) -> bool:
        waited = self.clock() - self._last
        return waited >= self.every or self.ended() - self._ended_then >= self.after_ended

    def maybe_collect(self) -> float | None:
        """Collect if due; the seconds it took, or ``None``."""
        if not self.due():
            return None
        started = time.perf_counter()
        freed = gc.collect()
        took = time.perf_counter() - started
        self._last, self._ended_then = self.clock(), self.ended()
        self.collections += 1
        log.info("full garbage collection: %d objects freed in %.0f ms", freed, took * 1000)
        return took
