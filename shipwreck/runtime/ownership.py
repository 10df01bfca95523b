"""Which worker owns which table: leases on the bus, renewed while the worker lives.

Why: with several workers, a table must have exactly one owner, the only process that applies
its commands and saves them (two owners would fork the game). A worker *claims* a table's lease
before it rebuilds or creates the table, *renews* every lease at a third of its lifetime, and
drops a table the moment a renewal fails (its lease expired and another worker has it, or the
bus is gone). A worker that dies stops renewing: within one lifetime its leases expire, and the
next :meth:`Leaseholder.adopt` of a live worker claims each orphaned unfinished table and
rebuilds it from the store's log, where every acknowledged command already is (the table saves
a command before anyone sees its effect).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from shipwreck.bus import Bus
from shipwreck.runtime.lobby import Lobby
from shipwreck.runtime.updates import TableOwner
from shipwreck.tasks import stop_task

log = logging.getLogger("shipwreck.ownership")

T = TypeVar("T")


def lease_key(table_id: int) -> str:
    return f"table-{table_id}"


class Leaseholder:
    """One worker's leases: the tables of ``lobby`` it owns, published on ``bus``."""

    def __init__(self, bus: Bus, lobby: Lobby, worker: str) -> None:
        self.bus, self.lobby, self.worker = bus, lobby, worker
        self.owned: dict[int, tuple[int, TableOwner]] = {}
        """table id -> (lease revision, the table's publisher)."""
        self._task: asyncio.Task[None] | None = None
        self._orphans: set[int] = set()
        """Tables found without an owner at the last scan: adopted if still so at the next.
        (A new table cannot be among them: its row is listed only once its maker holds its
        lease, see :meth:`claim_new`. The second look spares a table whose owner's renewal
        came a moment late.)"""

    async def claim_new(self, table_id: int) -> bool:
        """Claim a table this worker made, and only then list it in the store.

        Why in that order: the table's row was written hidden (``Lobby.hide_new_tables``), so
        no other worker's scan for orphans can find it before its lease is ours; a scan can
        never adopt a table whose maker has yet to claim it, however late the claim comes."""
        taken = await self._take(table_id) is not None
        table, store = self.lobby.get(table_id), self.lobby.store
        if taken and table is not None and store is not None:
            store.show_table(table_id, table.game)
        if taken:
            log.info("%s: owns new table %d", self.worker, table_id)
        else:
            log.error("%s: could not claim new table %d; it stays unlisted", self.worker, table_id)
        return taken

    async def adopt(self, *, at_once: bool = False) -> list[int]:
        """Claim and rebuild every unfinished table in the store that no live worker owns,
        found so at two scans in a row (``at_once``: at the first, as at start-up, when no
        table can be in the making). Returns the ids taken."""
        store = self.lobby.store
        assert store is not None, "the lobby needs its store"
        taken: list[int] = []
        orphans: set[int] = set()
        candidates = [
            row
            for row in store.tables(unfinished_only=True)
            if row[0] not in self.owned and row[0] not in self.lobby.broken
        ]
        owners = await asyncio.gather(  # (at once: one by one, a busy loop took seconds)
            *(self.bus.leases.owner(lease_key(row[0])) for row in candidates)
        )
        for (table_id, game, seed, seats_json), held in zip(candidates, owners, strict=True):
            if held is not None or table_id in self.owned:
                continue
            orphans.add(table_id)
            if not at_once and table_id not in self._orphans:
                continue
            revision = await self.bus.leases.claim(lease_key(table_id), self.worker)
            if revision is None:
                continue  # a live worker has it
            self.lobby.drop_table(table_id)  # a stale copy, if we had one
            table = self.lobby.restore_table(table_id, game, seed, seats_json)
            if table is None:
                await self.bus.leases.release(lease_key(table_id), self.worker, revision)
                continue
            owner = TableOwner(table, self.bus, epoch=revision)
            await owner.start()
            self.owned[table_id] = (revision, owner)
            taken.append(table_id)
            log.info("%s: took over table %d", self.worker, table_id)
        self._orphans = orphans - set(taken)
        return taken

    async def _take(self, table_id: int) -> int | None:
        table = self.lobby.get(table_id)
        if table is None:
            return None
        revision = await self.bus.leases.claim(lease_key(table_id), self.worker)
        if revision is None:
            return None
        owner = TableOwner(table, self.bus, epoch=revision)
        await owner.start()
        self.owned[table_id] = (revision, owner)
        return revision

    async def renew(self) -> list[int]:
        """Renew every lease (all at once: one by one, on a busy event loop, the last were
        renewed after their lease had run out); drop the tables whose lease was lost. Returns
        the lost ids."""
        renewed = await asyncio.gather(
            *(self._renew_one(table_id, revision) for table_id, (revision, _) in self.owned.items())
        )
        lost: list[int] = []
        for table_id, new in renewed:
            if table_id not in self.owned:
                continue
            owner = self.owned[table_id][1]
            if new == "over":
                await self._give_up(table_id, self.owned[table_id][0], owner)
            elif new is None:
                lost.append(table_id)
                del self.owned[table_id]
                await owner.stop()
                self.lobby.drop_table(table_id)
                log.warning("%s: lost table %d to another worker", self.worker, table_id)
            elif isinstance(new, int):
                self.owned[table_id] = (new, owner)
        return lost

    async def _renew_one(self, table_id: int, revision: int) -> tuple[int, int | str | None]:
        table = self.lobby.get(table_id)
        if table is not None and table.over:  # finished: nothing left to own
            return table_id, "over"
        try:
            return table_id, await self.bus.leases.renew(lease_key(table_id), self.worker, revision)
        except Exception:  # the bus is gone: we cannot prove we still own it
            log.exception("%s: renewing table %d failed", self.worker, table_id)
            return table_id, None

    async def _give_up(self, table_id: int, revision: int, owner: TableOwner) -> None:
        del self.owned[table_id]
        await owner.stop()
        await self.bus.leases.release(lease_key(table_id), self.worker, revision)

    async def run(self) -> None:
        """Renew every third of a lease's lifetime, until cancelled; adopt orphans meanwhile
        (apart, so that a long scan never delays a renewal)."""
        adopting = asyncio.get_running_loop().create_task(self._adopt_forever())
        try:
            while True:
                await self.renew()
                await asyncio.sleep(self.bus.lease_seconds / 3)
        finally:
            await stop_task(adopting)

    async def _adopt_forever(self) -> None:
        while True:
            try:
                await self.adopt()
            except Exception:  # (the bus or the store failed: the next scan tries again)
                log.exception("%s: looking for orphaned tables failed", self.worker)
            await asyncio.sleep(self.bus.lease_seconds / 3)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing; ``release`` hands every lease back at once (a clean shutdown), while
        a crash simply stops and lets them expire."""
        await stop_task(self._task)
        for table_id, (revision, owner) in list(self.owned.items()):
            await owner.stop()
            if release:
                await self.bus.leases.release(lease_key(table_id), self.worker, revision)
        self.owned.clear()


LADDER_LEASE = "ladder"
"""The lease of the one worker that plays the saved bots' background ladder games."""


async def while_held(
    bus: Bus, key: str, worker: str, work: Callable[[], Coroutine[Any, Any, None]]
) -> None:
    """Run ``work`` on one worker among all: the one holding ``key``'s lease. The holder
    renews it every third of its lifetime and stops ``work`` the moment a renewal fails; the
    others try to claim it as often, so when the holder dies (its lease runs out) or stops
    (cancelled: it hands the lease back) another takes the work over. Runs until cancelled.

    Why: work that belongs to the whole server, not to a table (the ladder's games), done by
    every worker would be done several times over."""
    beat = bus.lease_seconds / 3
    while True:
        revision = await _quietly(bus.leases.claim(key, worker))
        if revision is None:
            await asyncio.sleep(beat)
            continue
        log.info("%s: holds the %s lease", worker, key)
        task = asyncio.get_running_loop().create_task(work())
        try:
            while revision is not None and not task.done():
                await asyncio.sleep(beat)
                revision = await _quietly(bus.leases.renew(key, worker, revision))
        finally:
            await stop_task(task)
            if revision is not None:  # (cancelled: hand it back, another takes it at once)
                await _quietly(bus.leases.release(key, worker, revision))
        log.warning("%s: no longer holds the %s lease", worker, key)


async def _quietly(call: Awaitable[T]) -> T | None:
    """The bus's answer, or ``None`` if the bus failed (we cannot prove we hold a lease)."""
    try:
        return await call
    except Exception:
        log.exception("a lease call failed")
        return None
