"""Bounded bookkeeping for the server's limits: open-session counts, rates, wrong-key tries.

Every structure here stays small whatever a stranger does: entries are dropped when they no
longer hold anything (a count at zero, a full bucket, an expired try), and each has a cap.
"""

from __future__ import annotations

import time
from collections import deque

MAX_ENTRIES = 10_000
"""Keys (addresses, fingerprints, names) any one structure here keeps at most."""


class Counts:
    """Open sessions per key (an address, a key fingerprint); a key at zero is dropped."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def __getitem__(self, key: str) -> int:
        return self._open.get(key, 0)

    def __len__(self) -> int:
        return len(self._open)

    def add(self, key: str) -> None:
        self._open[key] = self._open.get(key, 0) + 1

    def remove(self, key: str) -> None:
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)

    def as_dict(self) -> dict[str, int]:
        return dict(self._open)


class TokenBuckets:
    """A token bucket per key: ``burst`` at once, refilled at ``per_minute``."""

    def __init__(self, per_minute: float, burst: int, max_entries: int = MAX_ENTRIES) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.max_entries = max_entries
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is one."""
        now = time.monotonic() if now is None else now
        tokens = self._tokens(key, now)
        if tokens < 1.0:
            return (1.0 - tokens) / self.rate if self.rate > 0 else float("inf")
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_entries:
            self._prune(now)
        return 0.0

    def _tokens(self, key: str, now: float) -> float:
        if key not in self._buckets:
            return self.burst
        tokens, at = self._buckets[key]
        return min(self.burst, tokens + (now - at) * self.rate)

    def _prune(self, now: float) -> None:
        for key in [k for k in self._buckets if self._tokens(k, now) >= self.burst]:
            del self._buckets[key]  # full again: the same as never seen
        while len(self._buckets) > self.max_entries:  # (then the oldest go)
            del self._buckets[next(iter(self._buckets))]


class WrongKeys:
    """Sign-ins refused because a name belongs to another key, per name, for ``seconds``.

    Only a refused sign-in adds an entry (authentication merely reads), so names tried
    before login cost nothing; expired entries go, and at most ``max_entries`` names are kept.
    """

    def __init__(self, seconds: float, max_entries: int = MAX_ENTRIES) -> None:
        self.seconds = seconds
        self.max_entries = max_entries
        self._tries: dict[str, deque[float]] = {}

    def __len__(self) -> int:
        return len(self._tries)

    def count(self, name: str, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        return sum(1 for t in self._tries.get(name, ()) if now - t < self.seconds)

    def add(self, name: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        tries = self._tries.pop(name, deque())
        while tries and now - tries[0] >= self.seconds:
            tries.popleft()
        tries.append(now)
        self._tries[name] = tries  # (re-inserted: the dict runs oldest to newest)
        if len(self._tries) > self.max_entries:
            for key in [k for k, v in self._tries.items() if now - v[-1] >= self.seconds]:
                del self._tries[key]
            while len(self._tries) > self.max_entries:
                del self._tries[next(iter(self._tries))]
