"""A table has one owner among workers, and a dead owner's tables go on elsewhere (issue 21).

Two workers share one SQLite store and one bus (in memory, and a real NATS server). Worker A
creates and owns a table; its player's session is on worker B, so every line travels as a
request. A then dies without a word (it stops renewing and its connection drops); B adopts
the table from the store's log within the lease's lifetime, every acknowledged command is in
it, and the player plays on through the same mirror.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from shipwreck.bus import Bus, MemoryBus
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.runtime.ownership import Leaseholder, lease_key
from shipwreck.runtime.updates import TableMirror
from shipwreck.store.db import Store

LEASE = 1.0
"""The lease of the test that moves its own clock."""


def _worker(path: Path) -> Lobby:
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(path), restore=False)
    return lobby


async def _play(mirror: TableMirror, table: Table, rng: random.Random, n: int) -> list[str]:
    """``n`` of ann's lines (legal ones, picked by the test as an oracle), each acknowledged."""
    acked: list[str] = []
    for _ in range(n):
        if table.over:
            break
        seats = [p.seat for p in table.rules.prompts(table.state) if p.blocking]
        assert seats == [0], f"the bots should have answered: waiting for {seats}"
        line = format_command(rng.choice(table.rules.choices(table.state, 0)))
        done = await mirror.submit_text(line)
        assert done.ok, (line, done.message)
        acked.append(line)
    return acked


async def test_a_dead_workers_table_goes_on_at_another_with_no_acknowledged_command_lost(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    seats = [SeatSpec("human"), *(SeatSpec("bot", "random") for _ in range(3))]
    table_a = lobby_a.create_table("lifeboat", seats, creator="ann", seed=77)
    a, b = Leaseholder(bus_a, lobby_a, "a"), Leaseholder(bus_b, lobby_b, "b")
    assert await a.claim_new(table_a.id)
    assert await b.adopt() == [], "B took a table A owns"
    mirror = TableMirror(bus_b, table_a.id, 0, LifeboatView, player="ann")  # her session: B
    await mirror.start()
    rng = random.Random(4)
    acked = await _play(mirror, table_a, rng, 6)
    assert len(acked) == 6
    commands_a = list(table_a.commands)

    # A dies: no release, no more renewals, no more answers.
    await a.stop(release=False)
    died = time.monotonic()
    taken: list[int] = []
    while not taken and time.monotonic() - died < 3.0:
        taken = await b.adopt()
        if not taken:
            await asyncio.sleep(0.1)
    took = time.monotonic() - died
    assert taken == [table_a.id], "B did not take the table over within 3 s"
    assert took < 3.0
    table_b = lobby_b.get(table_a.id)
    assert table_b is not None and table_b is not table_a
    assert table_b.commands == commands_a, "an acknowledged command was lost in the failover"
    assert await bus_b.leases.owner(lease_key(table_a.id)) == "b"

    # Ann plays on through the same mirror, now answered by B (which it tells she is here).
    for _ in range(100):
        if table_b.seats[0].connected:
            break
        await asyncio.sleep(0.02)
    assert table_b.seats[0].connected, "the mirror did not tell the new owner ann is here"
    assert await _play(mirror, table_b, rng, 4)
    for _ in range(100):
        if mirror.log(0) == table_b.log(0):
            break
        await asyncio.sleep(0.02)
    assert mirror.log(0) == table_b.log(0)
    await mirror.stop()
    await b.stop()


async def test_an_owner_that_lost_its_lease_lets_go_of_the_table(tmp_path: Path) -> None:
    """A worker that was cut off (alive, but its lease expired and another took the table)
    learns it at its next renewal and stops playing the table: never two owners."""
    now = [0.0]
    bus = MemoryBus(lease_seconds=LEASE, clock=lambda: now[0])
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    table = lobby_a.create_table("lifeboat", [SeatSpec("human")] * 4, creator="ann", seed=3)
    a, b = Leaseholder(bus, lobby_a, "a"), Leaseholder(bus, lobby_b, "b")
    assert await a.claim_new(table.id)
    assert await a.renew() == []  # alive and renewing: still A's
    now[0] += LEASE * 2  # A is cut off past its lease
    assert await b.adopt() == []  # first seen orphaned: its maker may be about to claim it
    assert await b.adopt() == [table.id]
    assert await a.renew() == [table.id]
    assert lobby_a.get(table.id) is None and table.id not in a.owned
    assert lobby_b.get(table.id) is not None
    await b.stop()
    await bus.close()


async def test_a_new_table_is_never_adopted_before_its_maker_claims_it(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """The race of a new table's claim with another worker's scan for orphans, under a load
    that delays the claim past any number of scans (here: the claim is simply made last). A's
    table is in the store (its seats and lines are saved) but no scan of B's lists it; once A
    holds its lease it is listed, and B still takes nothing: the claim cannot lose."""
    bus_a, bus_b = buses
    db = tmp_path / "shipwreck.db"
    lobby_a, lobby_b = _worker(db), _worker(db)
    lobby_a.hide_new_tables = True  # (as a worker's ClusterMember sets it)
    seats = [SeatSpec("human"), *(SeatSpec("bot", "random") for _ in range(3))]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=78)
    a, b = Leaseholder(bus_a, lobby_a, "a"), Leaseholder(bus_b, lobby_b, "b")
    try:
        for _ in range(3):  # scans, before A's claim: none may take it
            assert await b.adopt() == [], "B adopted a table its maker has yet to claim"
        assert await b.adopt(at_once=True) == []
        assert await bus_b.leases.owner(lease_key(table.id)) is None
        assert await a.claim_new(table.id), "A's claim lost the race"
        assert await bus_b.leases.owner(lease_key(table.id)) == "a"
        store = lobby_b.store
        assert store is not None
        assert [row[0] for row in store.tables(unfinished_only=True)] == [table.id]
        for _ in range(3):
            assert await b.adopt() == []
        assert lobby_b.get(table.id) is None
    finally:
        await a.stop()
        await b.stop()
