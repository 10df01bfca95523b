"""One lobby across workers (issue 21): tables and lobby chat shared on a real bus.

Two workers, each with its own :class:`Lobby` on one SQLite file, joined by the in-memory bus
and by a real NATS server. A table made on one is listed on the other, a lobby line said on one
is read on the other, ids never collide, and a worker that goes silent leaves the list.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from shipwreck.bus import Bus
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.runtime.lobby_link import LobbyLink
from shipwreck.store.db import Store

BEAT = 0.2


def _lobby(db: Path) -> Lobby:
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(db), restore=False)
    return lobby


async def _two_workers(buses: tuple[Bus, Bus], tmp_path: Path) -> list[tuple[Lobby, LobbyLink]]:
    """Workers ``a`` and ``b``: a lobby each on one database file, linked over the bus."""
    db = tmp_path / "shipwreck.db"
    workers = []
    for bus, name in zip(buses, "ab", strict=True):
        lobby = _lobby(db)
        link = LobbyLink(bus, lobby, name, heartbeat=BEAT)
        await link.start()
        workers.append((lobby, link))
    return workers


async def _until(condition: Callable[[], bool], seconds: float = 3.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


async def test_a_table_made_on_one_worker_is_listed_on_the_other(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    (lobby_a, link_a), (lobby_b, link_b) = await _two_workers(buses, tmp_path)
    seats = [SeatSpec("human"), *(SeatSpec("bot", "random") for _ in range(3))]
    t1 = lobby_a.create_table("lifeboat", seats, creator="ann")
    t2 = lobby_b.create_table("lifeboat", seats, creator="bob")
    assert t1.id != t2.id, "two workers handed out one table id"
    ids = {str(t1.id), str(t2.id)}
    assert await _until(lambda: {r[0] for r in lobby_b.listing()} == ids)
    assert await _until(lambda: {r[0] for r in lobby_a.listing()} == ids)
    row_on_b = next(r for r in lobby_b.listing() if r[0] == str(t1.id))
    assert row_on_b == lobby_a.row(t1) and "ann" in row_on_b[-1]
    assert lobby_b.elsewhere(t1.id) and not lobby_a.elsewhere(t1.id)
    assert not lobby_b.elsewhere(999)
    # A tutorial is its player's alone: never published.
    tutorial = lobby_a.create_tutorial("lifeboat", "cy")
    await asyncio.sleep(BEAT * 2)
    assert str(tutorial.id) not in {r[0] for r in lobby_b.listing()}
    await link_a.stop()
    await link_b.stop()


async def test_lobby_chat_reaches_every_worker_once(buses: tuple[Bus, Bus], tmp_path: Path) -> None:
    (lobby_a, link_a), (lobby_b, link_b) = await _two_workers(buses, tmp_path)
    assert lobby_a.say("ann", "anyone for lifeboat?") is None
    assert await _until(lambda: [c.text for c in lobby_b.chat] == ["anyone for lifeboat?"])
    await asyncio.sleep(0.2)
    assert [(c.sender, c.text) for c in lobby_a.chat] == [("ann", "anyone for lifeboat?")]
    assert lobby_b.say("bob", "   ") == "say what?"  # refused where typed, sent nowhere
    await asyncio.sleep(0.2)
    assert len(lobby_a.chat) == 1
    await link_a.stop()
    await link_b.stop()


async def test_a_silent_workers_tables_leave_the_list(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    (lobby_a, link_a), (lobby_b, link_b) = await _two_workers(buses, tmp_path)
    table = lobby_a.create_table("lifeboat", [SeatSpec("human")] * 4, creator="ann")
    assert await _until(lambda: [r[0] for r in lobby_b.listing()] == [str(table.id)])
    await link_a.stop()  # worker A dies: no more beats
    assert await _until(lambda: lobby_b.listing() == [], seconds=BEAT * 6)
    await link_b.stop()
