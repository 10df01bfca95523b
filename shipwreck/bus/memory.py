"""The bus of a single process: the same calls as NATS, delivered in memory.

Messages are delivered in order per subscription by one task each (as a NATS client does), so a
slow handler never blocks the publisher. Leases expire by a clock that tests may replace.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Sequence

from shipwreck.bus.core import (
    Handler,
    NoOneServes,
    NoResponder,
    Responder,
    check_subject,
    subject_matches,
)
from shipwreck.tasks import stop_task


class _Sub:
    def __init__(self, bus: MemoryBus, pattern: str, handler: Handler) -> None:
        self.bus, self.pattern, self.handler = bus, pattern, handler
        self.queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._deliver())

    async def _deliver(self) -> None:
        while True:
            subject, data = await self.queue.get()
            await self.handler(subject, data)

    async def stop(self) -> None:
        if self in self.bus._subs:
            self.bus._subs.remove(self)
        await stop_task(self.task)


class _Server:
    def __init__(self, bus: MemoryBus, subject: str, responder: Responder) -> None:
        self.bus, self.subject, self.responder = bus, subject, responder

    async def stop(self) -> None:
        servers = self.bus._servers.get(self.subject, [])
        if self in servers:
            servers.remove(self)


class MemoryLeases:
    """Leases kept in a dict: ``key -> (owner, revision, expires at)``."""

    def __init__(self, ttl: float, clock: Callable[[], float]) -> None:
        self.ttl, self.clock = ttl, clock
        self._held: dict[str, tuple[str, int, float]] = {}
        self._revision = itertools.count(1)

    def _live(self, key: str) -> tuple[str, int, float] | None:
        held = self._held.get(key)
        if held is not None and held[2] <= self.clock():
            del self._held[key]
            return None
        return held

    async def claim(self, key: str, owner: str) -> int | None:
        if self._live(key) is not None:
            return None
        rev = next(self._revision)
        self._held[key] = (owner, rev, self.clock() + self.ttl)
        return rev

    async def renew(self, key: str, owner: str, revision: int) -> int | None:
        held = self._live(key)
        if held is None or held[:2] != (owner, revision):
            return None
        rev = next(self._revision)
        self._held[key] = (owner, rev, self.clock() + self.ttl)
        return rev

    async def release(self, key: str, owner: str, revision: int) -> bool:
        held = self._live(key)
        if held is None or held[:2] != (owner, revision):
            return False
        del self._held[key]
        return True

    async def owner(self, key: str) -> str | None:
        held = self._live(key)
        return held[0] if held is not None else None


class MemoryBus:
    """One process's bus. ``clock`` (monotonic seconds) drives lease expiry."""

    def __init__(
        self, lease_seconds: float = 5.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.lease_seconds = lease_seconds
        self._subs: list[_Sub] = []
        self._servers: dict[str, list[_Server]] = {}
        self._turn = itertools.count()
        self._leases = MemoryLeases(lease_seconds, clock)

    @property
    def leases(self) -> MemoryLeases:
        return self._leases

    async def publish(self, subject: str, data: bytes) -> None:
        check_subject(subject)
        for sub in self._subs:
            if subject_matches(sub.pattern, subject):
                sub.queue.put_nowait((subject, data))

    async def publish_all(self, messages: Sequence[tuple[str, bytes]]) -> None:
        for subject, data in messages:
            await self.publish(subject, data)

    async def subscribe(self, pattern: str, handler: Handler) -> _Sub:
        check_subject(pattern, pattern=True)
        sub = _Sub(self, pattern, handler)
        self._subs.append(sub)
        return sub

    async def serve(self, subject: str, responder: Responder) -> _Server:
        check_subject(subject)
        server = _Server(self, subject, responder)
        self._servers.setdefault(subject, []).append(server)
        return server

    async def request(self, subject: str, data: bytes, timeout: float = 2.0) -> bytes:
        check_subject(subject)
        servers = self._servers.get(subject)
        if not servers:
            raise NoOneServes(f"no one serves {subject!r}")
        server = servers[next(self._turn) % len(servers)]  # one of them, as a queue group
        try:
            return await asyncio.wait_for(server.responder(data), timeout)
        except TimeoutError:
            raise NoResponder(f"no answer on {subject!r} within {timeout:g} s") from None

    async def close(self) -> None:
        for sub in list(self._subs):
            await sub.stop()
        self._servers.clear()
