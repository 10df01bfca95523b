"""One lobby across workers: each worker's table rows and lobby chat, shared on the bus.

Why: a player lands on whichever worker the kernel hands their connection to, and must see the
same lobby as everyone else. Each worker publishes the rows of the tables it owns on
``lobby.rows.<worker>`` whenever its list changes (and every ``heartbeat`` seconds, so a worker
that starts later learns them, and a worker that died is noticed: its rows go after three
silent beats). Lobby chat goes on ``lobby.chat`` to every worker. A worker's
:class:`~shipwreck.runtime.lobby.Lobby` lists its own tables and, through :meth:`LobbyLink.rows`,
everyone else's.

Rows are public already (what every lobby shows); a tutorial's row is its player's alone and
is never published.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import msgspec

from shipwreck.bus import Bus, Subscription
from shipwreck.runtime.lobby import Lobby, LobbyChat, Row

log = logging.getLogger("shipwreck.lobby_link")

ROWS = "lobby.rows"
CHAT = "lobby.chat"
SILENT_BEATS = 3


class WorkerRows(msgspec.Struct, frozen=True):
    worker: str
    seq: int
    rows: tuple[tuple[str, ...], ...]


class ChatFrom(msgspec.Struct, frozen=True):
    worker: str
    sender: str
    text: str


class LobbyLink:
    """Joins ``lobby`` (this worker's) to the other workers' lobbies over ``bus``."""

    def __init__(
        self,
        bus: Bus,
        lobby: Lobby,
        worker: str,
        heartbeat: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bus, self.lobby, self.worker = bus, lobby, worker
        self.heartbeat, self.clock = heartbeat, clock
        self._remote: dict[str, tuple[float, int, tuple[Row, ...]]] = {}
        """worker -> (when last heard, its seq, its rows)."""
        self._seq = 0
        self._published: tuple[Row, ...] | None = None
        self._subs: list[Subscription] = []
        self._task: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._changed = asyncio.Event()

    async def start(self) -> None:
        self._subs = [
            await self.bus.subscribe(f"{ROWS}.*", self._rows_received),
            await self.bus.subscribe(CHAT, self._chat_received),
        ]
        self.lobby.remote_rows = self.rows
        self.lobby.on_say = self._said
        self._unsubscribe = self.lobby.subscribe(lambda _lobby: self._changed.set())
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for sub in self._subs:
            await sub.stop()
        self.lobby.remote_rows = None
        self.lobby.on_say = None

    def rows(self) -> list[Row]:
        """Every other live worker's rows (a worker silent for three beats has none)."""
        now = self.clock()
        out: list[Row] = []
        for heard, _seq, rows in self._remote.values():
            if now - heard <= SILENT_BEATS * self.heartbeat:
                out.extend(rows)
        return out

    def _own_rows(self) -> tuple[Row, ...]:
        return tuple(self.lobby.own_listing(public_only=True))

    async def _run(self) -> None:
        """Publish our rows when they change, and at every beat in any case."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.heartbeat)
            self._changed.clear()
            await self.publish()
            self._forget_silent()

    def _forget_silent(self) -> None:
        now = self.clock()
        silent = [
            w
            for w, (heard, _, _) in self._remote.items()
            if now - heard > SILENT_BEATS * self.heartbeat
        ]
        for worker in silent:
            del self._remote[worker]
            log.warning("%s: worker %s went silent; its tables leave the list", self.worker, worker)
        if silent:
            self.lobby.remote_changed()

    async def publish(self) -> None:
        rows = self._own_rows()
        self._seq += 1
        message = WorkerRows(self.worker, self._seq, rows)
        try:
            await self.bus.publish(f"{ROWS}.{self.worker}", msgspec.json.encode(message))
        except Exception:  # the bus is down: the next beat tries again
            log.exception("%s: lobby rows not published", self.worker)
        self._published = rows

    async def _rows_received(self, subject: str, data: bytes) -> None:
        message = msgspec.json.decode(data, type=WorkerRows)
        if message.worker == self.worker:
            return
        before = self._remote.get(message.worker)
        if before is not None and message.seq <= before[1] and message.seq != 1:
            return  # an older message (a restarted worker starts again at 1)
        self._remote[message.worker] = (self.clock(), message.seq, message.rows)
        if before is None or before[2] != message.rows:
            self.lobby.remote_changed()

    def _said(self, line: LobbyChat) -> None:
        message = ChatFrom(self.worker, line.sender, line.text)
        task = asyncio.get_running_loop().create_task(
            self.bus.publish(CHAT, msgspec.json.encode(message))
        )
        task.add_done_callback(_log_failure)

    async def _chat_received(self, subject: str, data: bytes) -> None:
        message = msgspec.json.decode(data, type=ChatFrom)
        if message.worker != self.worker:
            self.lobby.hear(LobbyChat(message.sender, message.text))


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("lobby chat not published: %s", task.exception())
