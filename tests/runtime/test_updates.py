"""A table followed from another worker (issue 21): each seat's own update, over a real bus.

The table is a real Lifeboat table played to the end; the bus is the in-memory one and a real
NATS server (``tests/runtime/test_bus.py`` runs the bus contract itself). A mirror following
one seat must read exactly what the table shows that seat, and the bytes on a seat's subject
must never carry another seat's hidden items, friend or enemy (hidden stays hidden across workers).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
import pytest

from shipwreck.bus import Bus
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.runtime import SeatSpec, Table
from shipwreck.runtime.updates import SeatUpdate, TableMirror, TableOwner, seat_subject

SEATS = 4


def _table(seed: int) -> Table:
    return Table("lifeboat", [SeatSpec("human", player=f"p{i}") for i in range(SEATS)], seed)


def _step(table: Table, rng: random.Random) -> bool:
    """One random legal answer from a seat the game waits for; False when nothing is open."""
    blocking = [p.seat for p in table.rules.prompts(table.state) if p.blocking and p.seat >= 0]
    if table.over or not blocking:
        return False
    seat = blocking[0]
    options = table.rules.choices(table.state, seat)
    if not options:
        return False
    assert table.submit(seat, rng.choice(options)).ok
    return True


async def _settled(mirror: TableMirror, table: Table, seat: int | None) -> None:
    for _ in range(300):
        if mirror.update is not None and mirror.log(seat) == table.log(seat):
            return
        await asyncio.sleep(0.01)


async def test_a_mirror_reads_what_the_table_shows_its_seat(buses: tuple[Bus, Bus]) -> None:
    owner_bus, worker_bus = buses
    table = _table(seed=11)
    publisher = TableOwner(table, owner_bus)
    await publisher.start()
    seat = 2
    raw: list[bytes] = []

    async def collect(subject: str, data: bytes) -> None:
        raw.append(data)

    await worker_bus.subscribe(seat_subject(table.id, seat), collect)
    mirror = TableMirror(worker_bus, table.id, seat, LifeboatView)
    await mirror.start()
    rng = random.Random(5)
    steps = 0
    while _step(table, rng) and steps < 2000:
        steps += 1
        if steps % 25 == 0:  # now and then, check the mirror has caught up exactly
            await _settled(mirror, table, seat)
            assert mirror.log(seat) == table.log(seat)
            assert msgspec.json.encode(mirror.view(seat)) == msgspec.json.encode(table.view(seat))
    assert table.over, "the game did not reach its end"
    await _settled(mirror, table, seat)
    assert mirror.over and mirror.log(seat) == table.log(seat)
    assert mirror.view(seat) == table.view(seat)
    assert [s.player for s in mirror.seats] == [f"p{i}" for i in range(SEATS)]
    await publisher.stop()
    await mirror.stop()
    assert raw, "nothing was published on the seat's subject"


async def test_a_seats_subject_carries_nothing_hidden_from_that_seat(
    buses: tuple[Bus, Bus],
) -> None:
    """Every byte published on seat 2's subject before the end: no private event meant for
    another seat, no other seat's friend or enemy, no other seat's hidden items."""
    owner_bus, worker_bus = buses
    table = _table(seed=23)
    publisher = TableOwner(table, owner_bus)
    seat = 2
    raw: list[bytes] = []

    async def collect(subject: str, data: bytes) -> None:
        if not table.over:
            raw.append(data)

    await worker_bus.subscribe(seat_subject(table.id, seat), collect)
    await publisher.start()
    rng = random.Random(9)
    steps = 0
    checked_private = 0
    while _step(table, rng) and steps < 400:
        steps += 1
        await asyncio.sleep(0)
    await asyncio.sleep(0.3)
    assert raw
    seen = b"\n".join(raw).decode()
    for e in table.events:
        if e.to is not None and seat not in e.to:
            checked_private += 1
            assert msgspec.json.encode(e.text).decode() not in seen, e.text
    assert checked_private > 0, "no private event of another seat happened: nothing checked"
    for data in raw:  # and read as a worker would: the view holds only seat 2's secrets
        update = msgspec.json.decode(data, type=SeatUpdate)
        assert update.seat == seat
        assert all(e.visible_to(seat) for e in update.events)
        view = msgspec.json.decode(update.view, type=LifeboatView)
        for c in view.characters:
            if c.player != seat:  # a character another seat holds
                assert (c.hidden, c.friend, c.enemy) == (None, None, None), c.id
    await publisher.stop()


async def test_a_mirror_that_missed_updates_catches_up_from_a_snapshot(
    buses: tuple[Bus, Bus],
) -> None:
    """A worker that starts following a table mid-game (a player lands on it after a restart)
    gets the whole log at once, then the changes."""
    owner_bus, worker_bus = buses
    table = _table(seed=31)
    publisher = TableOwner(table, owner_bus)
    await publisher.start()
    rng = random.Random(3)
    for _ in range(40):
        _step(table, rng)
    mirror = TableMirror(worker_bus, table.id, 0, LifeboatView)
    await mirror.start()
    assert mirror.log(0) == table.log(0)
    for _ in range(40):
        _step(table, rng)
    await _settled(mirror, table, 0)
    assert mirror.log(0) == table.log(0)
    assert mirror.view(0) == table.view(0)
    with pytest.raises(LookupError, match="follows seat 0"):
        mirror.view(1)
    await publisher.stop()
    await mirror.stop()


async def test_players_on_another_worker_play_a_table_to_the_end(buses: tuple[Bus, Bus]) -> None:
    """Every seat's player sits on the other worker: their lines go to the owner as requests,
    the answers and updates come back, and the game ends. What each player sends is a legal
    line for their seat (the test's players are oracles; the engine is not mocked)."""
    from shipwreck.lang import format_command

    owner_bus, worker_bus = buses
    table = _table(seed=47)
    owner = TableOwner(table, owner_bus)
    await owner.start()
    mirrors = [
        TableMirror(worker_bus, table.id, s, LifeboatView, player=f"p{s}") for s in range(SEATS)
    ]
    for m in mirrors:
        await m.start()
    rng = random.Random(1)
    steps = 0
    while not table.over and steps < 2000:
        blocking = [p.seat for p in table.rules.prompts(table.state) if p.blocking]
        seat = blocking[0]
        line = format_command(rng.choice(table.rules.choices(table.state, seat)))
        done = await mirrors[seat].submit_text(line)
        assert done.ok, (line, done.message)
        assert all(e.visible_to(seat) for e in done.events)
        steps += 1
    assert table.over, "the game did not reach its end"
    for seat, m in enumerate(mirrors):
        await _settled(m, table, seat)
        assert m.over and m.log(seat) == table.log(seat)
    await owner.stop()


async def test_a_line_from_another_worker_is_checked_like_a_typed_one(
    buses: tuple[Bus, Bus],
) -> None:
    owner_bus, worker_bus = buses
    table = _table(seed=5)
    owner = TableOwner(table, owner_bus)
    await owner.start()
    mirror = TableMirror(worker_bus, table.id, 1, LifeboatView, player="p1")
    await mirror.start()
    before = list(table.commands)
    impostor = TableMirror(worker_bus, table.id, 1, LifeboatView, player="p3")
    wrong_player = await impostor.submit_text("row")
    assert not wrong_player.ok and "no seat" in wrong_player.message
    nonsense = await mirror.submit_text("fly away")
    assert not nonsense.ok and "fly" in nonsense.message
    assert table.commands == before, "a refused line changed the table"
    watcher = TableMirror(worker_bus, table.id, None, LifeboatView)
    assert not (await watcher.submit_text("row")).ok
    await owner.stop()


async def test_a_seats_subject_carries_its_players_chat_and_clock_only(
    buses: tuple[Bus, Bus],
) -> None:
    """Seat 2's subject carries the table's chat and the whispers to or from its player,
    never a whisper between two others; its own countdown and the move the table would play
    for it, never what the table played for another seat when their time ran out."""
    owner_bus, worker_bus = buses
    now = [0.0]
    kinds = ("turn", "respond", "fight", "navigate", "thirst", "supply", "overboard", "keep")
    timers = dict.fromkeys(kinds, 30)
    seats = [SeatSpec("human", player=f"p{i}") for i in range(SEATS)]
    table = Table("lifeboat", seats, 31, timers=timers, clock=lambda: now[0])
    publisher = TableOwner(table, owner_bus)
    seat = 2
    updates: list[SeatUpdate] = []

    async def collect(subject: str, data: bytes) -> None:
        updates.append(msgspec.json.decode(data, type=SeatUpdate))

    await worker_bus.subscribe(seat_subject(table.id, seat), collect)
    await publisher.start()
    for s in range(SEATS):
        table.prompt_shown(s)
    assert table.say("p0", "w03 secret", 0, to=3) is None
    assert table.say("p1", "hello all", 1) is None
    assert table.say("p0", "w02 for you", 0, to=2) is None
    timed_out = 0
    for _ in range(12):  # nobody answers: the table plays every waited seat's default
        waiting = [s for s in range(SEATS) if table.deadline(s) is not None]
        now[0] += 31
        timed_out += table.tick()
        if any(table.seats[s].played_for for s in waiting if s != seat):
            break
    others = [s for s in range(SEATS) if s != seat and table.seats[s].played_for]
    assert others, f"no other seat's time ran out ({timed_out} time-outs): nothing checked"
    await asyncio.sleep(0.3)
    assert updates
    chat = [c.text for u in updates for c in u.chat]
    assert "hello all" in chat and "w02 for you" in chat
    assert "w03 secret" not in chat
    for u in updates:
        for i, info in enumerate(u.seats):
            if i != seat:
                assert info.played_for == "", (i, info.played_for)
        assert {s for s, _ in u.clocks} <= {seat, *(p.seat for p in u_view_prompts(u))}
    assert any(u.default_text for u in updates), "its own default was never sent"
    await publisher.stop()


def u_view_prompts(update: SeatUpdate) -> list[Any]:
    """The blocking prompts the update's own view shows."""
    view = msgspec.json.decode(update.view, type=LifeboatView)
    return [p for p in view.prompts if p.blocking]
