"""The bus between worker processes and machines: a NATS server (the ``workers`` extra).

Leases live in a JetStream key-value bucket whose entries expire ``lease_seconds`` after their
last write; a claim is a *create* (fails while a live entry exists) and a renewal an *update*
that names the revision it expects, so a worker that lost its lease learns it on its next
renewal instead of overwriting the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from shipwreck.bus.core import (
    BusError,
    Handler,
    NoOneServes,
    NoResponder,
    Responder,
    check_subject,
)

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.aio.msg import Msg
    from nats.aio.subscription import Subscription as NatsSubscription
    from nats.js.kv import KeyValue

LEASE_BUCKET = "shipwreck_leases"
NO_RESPONDER_RETRIES = (0.02, 0.05, 0.1, None)
"""Pauses before asking again when the server says no one serves a subject: a subscription
made on another connection, flushed and so known to the server, can still be missing from the
server's routing for a moment (nats-server issue #2876; seen here under load). ``None``: give
up. About 0.2 s in all, so a request no one serves still fails fast."""
CLOSE_SECONDS = 5.0
"""At most this long for each of draining and closing a connection."""
SERVE_GROUP = "owners"
"""Every server of a subject joins this queue group: a request reaches one of them."""


def write_pending_now(nc: Client) -> bool:
    """Write what ``nc`` has buffered to its socket now; ``False`` (left to the client's
    flusher task, as without this) if anything here is not as nats-py 2.16 has it.

    Why: nats-py writes published messages from a flusher task, which a publish wakes; it runs
    behind every task already woken, and on a table's owner those are the screens of the same
    change (about 2 ms of repaint each). An update for a reader on another worker waited for
    all of them: applied → written p50 14 ms for a reader on another worker, 5 ms on the owner
    (``bench/ssh_load.py --workers 2 --sessions 12 --think 2,5``). This is the one place the
    project reads nats-py's internals (``_pending``, ``_pending_data_size``, ``_transport``,
    ``is_connected``, ``is_connecting``); each is checked, and the flusher stays correct after
    it (it finds nothing pending)."""
    pending = getattr(nc, "_pending", None)
    transport = getattr(nc, "_transport", None)
    if (
        not isinstance(pending, list)
        or not isinstance(getattr(nc, "_pending_data_size", None), int)
        or not callable(getattr(transport, "writelines", None))
        or not nc.is_connected
        or nc.is_connecting
    ):
        return False
    if pending:
        transport.writelines(pending[:])  # type: ignore[union-attr]
        nc._pending = []
        nc._pending_data_size = 0
    return True


def _missing() -> BusError:
    return BusError("the NATS bus needs the 'workers' extra: pip install 'shipwreck[workers]'")


class _Sub:
    """A subscription that, once stopped, hands its handler nothing more: messages the client
    had already read (or the server routed before the unsubscription reached it) are dropped."""

    def __init__(self) -> None:
        self._sub: NatsSubscription | None = None
        self.active = True

    async def stop(self) -> None:
        self.active = False
        if self._sub is None:
            return
        with contextlib.suppress(Exception):  # already gone with its connection
            await self._sub.unsubscribe()


class NatsLeases:
    def __init__(self, kv: KeyValue) -> None:
        self._kv = kv

    async def claim(self, key: str, owner: str) -> int | None:
        from nats.js.errors import KeyWrongLastSequenceError

        try:
            return await self._kv.create(key, owner.encode())
        except KeyWrongLastSequenceError:
            return None

    async def renew(self, key: str, owner: str, revision: int) -> int | None:
        from nats.js.errors import KeyWrongLastSequenceError

        if await self.owner(key) != owner:  # the revision alone would let another renew it
            return None
        try:
            return await self._kv.update(key, owner.encode(), last=revision)
        except KeyWrongLastSequenceError:
            return None

    async def release(self, key: str, owner: str, revision: int) -> bool:
        from nats.js.errors import Error

        if await self.owner(key) != owner:
            return False
        try:
            return await self._kv.delete(key, last=revision)
        except Error:
            return False

    async def owner(self, key: str) -> str | None:
        from nats.js.errors import KeyDeletedError, KeyNotFoundError

        try:
            entry = await self._kv.get(key)
        except (KeyNotFoundError, KeyDeletedError):
            return None
        return entry.value.decode() if entry.value else None


class NatsBus:
    """A connection to a NATS server (or cluster) with JetStream enabled."""

    def __init__(self, nc: Client, leases: NatsLeases, lease_seconds: float) -> None:
        self._nc = nc
        self._leases = leases
        self.lease_seconds = lease_seconds

    @classmethod
    async def connect(cls, url: str, *, lease_seconds: float = 5.0, name: str = "") -> NatsBus:
        """Connect to ``url`` (``nats://127.0.0.1:4222``) and open the lease bucket."""
        try:
            import nats
            from nats.js.errors import BucketNotFoundError
        except ImportError as e:
            raise _missing() from e
        try:
            nc = await nats.connect(
                url, name=name or "shipwreck", connect_timeout=3, max_reconnect_attempts=3
            )
        except Exception as e:
            raise BusError(f"cannot reach the NATS server at {url}: {e}") from e
        js = nc.jetstream()
        try:
            kv = await js.key_value(LEASE_BUCKET)
        except BucketNotFoundError:
            kv = await js.create_key_value(bucket=LEASE_BUCKET, ttl=lease_seconds, history=1)
        return cls(nc, NatsLeases(kv), lease_seconds)

    @property
    def leases(self) -> NatsLeases:
        return self._leases

    async def publish(self, subject: str, data: bytes) -> None:
        check_subject(subject)
        await self._nc.publish(subject, data)

    async def publish_all(self, messages: Sequence[tuple[str, bytes]]) -> None:
        for subject, data in messages:
            check_subject(subject)
            await self._nc.publish(subject, data)
        write_pending_now(self._nc)

    async def subscribe(self, pattern: str, handler: Handler) -> _Sub:
        check_subject(pattern, pattern=True)

        out = _Sub()

        async def on_message(msg: Msg) -> None:
            if out.active:
                await handler(msg.subject, msg.data)

        out._sub = await self._nc.subscribe(pattern, cb=on_message)
        await self._nc.flush()  # the server knows of it before we return
        return out

    async def serve(self, subject: str, responder: Responder) -> _Sub:
        check_subject(subject)

        out = _Sub()

        async def on_request(msg: Msg) -> None:
            if out.active:
                await msg.respond(await responder(msg.data))

        out._sub = await self._nc.subscribe(subject, queue=SERVE_GROUP, cb=on_request)
        await self._nc.flush()
        return out

    async def request(self, subject: str, data: bytes, timeout: float = 2.0) -> bytes:
        from nats.errors import NoRespondersError
        from nats.errors import TimeoutError as NatsTimeout

        check_subject(subject)
        try:
            for wait in NO_RESPONDER_RETRIES:
                try:
                    msg = await self._nc.request(subject, data, timeout=timeout)
                    break
                except NoRespondersError:
                    if wait is None:
                        raise
                    await asyncio.sleep(wait)
        except NoRespondersError:
            raise NoOneServes(f"no one serves {subject!r}") from None
        except NatsTimeout:
            raise NoResponder(f"no answer on {subject!r} within {timeout:g} s") from None
        return msg.data

    async def close(self) -> None:
        """Drain (deliver what has arrived), then close; bounded, so that a server that has
        gone quiet cannot hold a worker's shutdown (nats-py's own close waits for the socket)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._nc.drain(), CLOSE_SECONDS)
        if not self._nc.is_closed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._nc.close(), CLOSE_SECONDS)
