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


async def test_a_players_turn_at_a_table_on_one_worker_is_marked_in_their_lobby_on_the_other(
    buses: tuple[Bus, Bus], tmp_path: Path
) -> None:
    """The lobby's "your turn" (issue 21): ann's and bob's lobby screens are on worker B, their
    table on A. B hears, on each player's own subject, which of A's tables wait for them, and
    tells their screens when that changes; a player with no screen on B is not followed."""
    from shipwreck.lang import format_command

    (lobby_a, link_a), (lobby_b, link_b) = await _two_workers(buses, tmp_path)
    seats = [SeatSpec("human"), SeatSpec("empty"), *(SeatSpec("bot", "random") for _ in range(2))]
    table = lobby_a.create_table("lifeboat", seats, creator="ann", seed=21)
    assert table.sit(1, "bob") is None
    told: dict[str, int] = {"ann": 0, "bob": 0}
    unsubscribe = {
        name: lobby_b.subscribe_turns(name, lambda _l, n=name: told.__setitem__(n, told[n] + 1))
        for name in told
    }
    assert lobby_b.turn_ids("ann") | lobby_b.turn_ids("bob") == frozenset()  # (not yet heard)
    for _ in range(40):
        (waited,) = table.waiting_for_players()
        other = "bob" if waited == "ann" else "ann"
        assert await _until(lambda w=waited: lobby_b.turn_ids(w) == {table.id}), waited
        assert await _until(lambda o=other: lobby_b.turn_ids(o) == frozenset()), other
        assert told[waited] > 0, f"{waited}'s lobby screen was not told of the turn"
        seat = table.seat_of_player(waited)
        assert seat is not None
        before = dict(told)
        line = format_command(table.rules.choices(table.state, seat)[0])
        assert table.submit_text(seat, line).ok
        if waited not in table.waiting_for_players():  # the turn went: B's mark goes too
            assert await _until(lambda w=waited: lobby_b.turn_ids(w) == frozenset())
            assert told[waited] > before[waited]
            break
    else:
        raise AssertionError("the turn never passed from one player to the other")
    assert lobby_a.turn_ids("ann") == frozenset(t.id for t in lobby_a.waits_for("ann"))
    for stop in unsubscribe.values():
        stop()
    await asyncio.sleep(BEAT)
    assert lobby_b.turn_ids("ann") == lobby_b.turn_ids("bob") == frozenset(), (
        "a player with no screen on B is still followed there"
    )
    await link_a.stop()
    await link_b.stop()
