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

Whose turn it is is not public (a game may wait for a decision only its player knows of), so
each player's turns travel on their own subject, ``turns.<player>``: the worker owning a table
publishes there the ids of its tables that wait for that player (when that changes, and again
at every beat while any do), and a worker listens only to the players whose lobby screens it
holds. Their lobby marks those tables "your turn" as it marks its own worker's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine

import msgspec

from shipwreck.bus import Bus, Subscription
from shipwreck.bus.core import valid_subject
from shipwreck.runtime.lobby import Lobby, LobbyChat, Row
from shipwreck.tasks import stop_task

log = logging.getLogger("shipwreck.lobby_link")

ROWS = "lobby.rows"
CHAT = "lobby.chat"
TURNS = "turns"
SEATS = "lobby.seats"
SILENT_BEATS = 3


class WorkerRows(msgspec.Struct, frozen=True):
    worker: str
    seq: int
    rows: tuple[tuple[str, ...], ...]


class ChatFrom(msgspec.Struct, frozen=True):
    worker: str
    sender: str
    text: str


class TurnsOf(msgspec.Struct, frozen=True):
    """A worker's tables where the game waits for the player whose subject this is on."""

    worker: str
    tables: tuple[int, ...]


class SeatClaim(msgspec.Struct, frozen=True):
    """A session on ``worker`` took ``player``'s seat at ``table`` (wall-clock ``at``): a
    session of theirs on another worker that had it lets it go, as on one worker the newer
    session takes the seat from the older."""

    worker: str
    table: int
    player: str
    at: float


def turns_subject(player: str) -> str | None:
    """The player's own turns subject (``None`` for a name no subject can carry)."""
    subject = f"{TURNS}.{player}"
    return subject if valid_subject(subject) else None


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
        self._turns: dict[str, dict[str, tuple[float, tuple[int, ...]]]] = {}
        """player -> worker -> (when last heard, its tables waiting for the player)."""
        self._waiting_here: set[str] = set()
        """Players some table of ours waits for (their turns are sent again at each beat)."""
        self._turn_subs: dict[str, asyncio.Task[Subscription | None]] = {}
        self._tasks: set[asyncio.Task[object]] = set()
        self._claims: dict[tuple[int, str], float] = {}
        """(table, player) -> when a session here last took that seat."""

    async def start(self) -> None:
        self._subs = [
            await self.bus.subscribe(f"{ROWS}.*", self._rows_received),
            await self.bus.subscribe(CHAT, self._chat_received),
            await self.bus.subscribe(SEATS, self._claim_received),
        ]
        self.lobby.on_claim = self._claimed
        self.lobby.remote_rows = self.rows
        self.lobby.on_say = self._said
        self.lobby.on_turns = self._turns_changed
        self.lobby.on_turn_watch = self._watch_turns
        self.lobby.remote_turns = self.turns_of
        self._unsubscribe = self.lobby.subscribe(lambda _lobby: self._changed.set())
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        await stop_task(self._task)
        for sub in self._subs:
            await sub.stop()
        for player in list(self._turn_subs):
            await self._unwatch(player)
        self.lobby.remote_rows = None
        self.lobby.on_claim = None
        self.lobby.on_say = None
        self.lobby.on_turns = None
        self.lobby.on_turn_watch = None
        self.lobby.remote_turns = None

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
                async with asyncio.timeout(self.heartbeat):  # (not wait_for: see tasks.py)
                    await self._changed.wait()
            self._changed.clear()
            await self.publish()
            for player in list(self._waiting_here):
                await self.publish_turns(player)
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
        for player, by_worker in self._turns.items():
            gone = [w for w, (heard, _) in by_worker.items() if now - heard > self._silence]
            for worker in gone:
                del by_worker[worker]
            if gone:
                self.lobby.turns_heard(player)

    @property
    def _silence(self) -> float:
        return SILENT_BEATS * self.heartbeat

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

    # ------------------------------------------------------------------ seats

    def _claimed(self, table_id: int, player: str) -> None:
        at = time.time()  # (shared by the workers' clocks, unlike the monotonic one)
        self._claims[(table_id, player)] = at
        message = SeatClaim(self.worker, table_id, player, at)
        self._spawn(self.bus.publish(SEATS, msgspec.json.encode(message)))

    async def _claim_received(self, subject: str, data: bytes) -> None:
        claim = msgspec.json.decode(data, type=SeatClaim)
        if claim.worker == self.worker:
            return
        key = (claim.table, claim.player)
        ours = self._claims.get(key)
        if ours is not None and (ours, self.worker) > (claim.at, claim.worker):
            return  # our session's claim is the newer: the other worker lets go instead
        self._claims.pop(key, None)
        self.lobby.claimed_elsewhere(claim.table, claim.player)

    # ------------------------------------------------------------------ turns

    def turns_of(self, player: str) -> frozenset[int]:
        """The other live workers' tables that wait for ``player`` (while their screens here
        follow their turns)."""
        now = self.clock()
        heard = self._turns.get(player, {}).values()
        return frozenset(t for when, tables in heard if now - when <= self._silence for t in tables)

    def _turns_changed(self, player: str) -> None:
        self._spawn(self.publish_turns(player))

    async def publish_turns(self, player: str) -> None:
        """Tell ``player``'s subject which of our tables wait for them now."""
        subject = turns_subject(player)
        if subject is None:
            return
        tables = tuple(sorted(t.id for t in self.lobby.waits_for(player)))
        if tables:
            self._waiting_here.add(player)
        else:
            self._waiting_here.discard(player)
        message = msgspec.json.encode(TurnsOf(self.worker, tables))
        try:
            await self.bus.publish(subject, message)
        except Exception:  # the bus is down: the next beat tries again
            log.exception("%s: turns of %s not published", self.worker, player)

    def _watch_turns(self, player: str, on: bool) -> None:
        if on and player not in self._turn_subs:
            subject = turns_subject(player)
            if subject is not None:
                sub = self.bus.subscribe(subject, self._turns_received)
                self._turn_subs[player] = asyncio.get_running_loop().create_task(_subscribed(sub))
        elif not on and player in self._turn_subs:
            self._spawn(self._unwatch(player))

    async def _unwatch(self, player: str) -> None:
        task = self._turn_subs.pop(player, None)
        self._turns.pop(player, None)
        sub = await task if task is not None else None
        if sub is not None:
            await sub.stop()

    async def _turns_received(self, subject: str, data: bytes) -> None:
        player = subject.split(".", 1)[1]
        message = msgspec.json.decode(data, type=TurnsOf)
        if message.worker == self.worker or player not in self._turn_subs:
            return
        by_worker = self._turns.setdefault(player, {})
        before = by_worker.get(message.worker)
        by_worker[message.worker] = (self.clock(), message.tables)
        if before is None or before[1] != message.tables:
            self.lobby.turns_heard(player)

    def _spawn(self, work: Coroutine[object, None, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)


async def _subscribed(pending: Awaitable[Subscription]) -> Subscription | None:
    try:
        return await pending
    except Exception:
        log.exception("could not follow a player's turns")
        return None


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a message to the other workers was not sent: %s", task.exception())
