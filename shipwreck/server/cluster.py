"""A server process as one worker among several: its bus, its leases, its share of the lobby.

Why a module of its own: ``shipwreck serve`` with no ``[cluster] bus`` is one process and never
imports the NATS client; with one, :class:`ClusterMember` joins this process's lobby to the
others (:mod:`shipwreck.runtime.lobby_link`), claims the tables it makes, adopts the tables of
workers that died (:mod:`shipwreck.runtime.ownership`), and hands its leases back when it stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket

from shipwreck.bus.nats import NatsBus
from shipwreck.config import ClusterSection
from shipwreck.runtime import Lobby, Table
from shipwreck.runtime.lobby_link import LobbyLink
from shipwreck.runtime.ownership import Leaseholder
from shipwreck.runtime.remote_table import RemoteTables

log = logging.getLogger("shipwreck.cluster")


def worker_name(configured: str) -> str:
    """The configured name, else one unique on this network: host name and process id."""
    return configured or f"{socket.gethostname().split('.')[0]}-{os.getpid()}"


class ClusterMember:
    def __init__(self, lobby: Lobby, settings: ClusterSection) -> None:
        self.lobby, self.settings = lobby, settings
        self.worker = worker_name(settings.worker)
        self.bus: NatsBus | None = None
        self.link: LobbyLink | None = None
        self.holder: Leaseholder | None = None
        self._claims: set[asyncio.Task[bool]] = set()

    async def start(self) -> None:
        s = self.settings
        self.bus = await NatsBus.connect(s.bus, lease_seconds=s.lease_seconds, name=self.worker)
        self.holder = Leaseholder(self.bus, self.lobby, self.worker)
        adopted = await self.holder.adopt(at_once=True)
        self.link = LobbyLink(self.bus, self.lobby, self.worker, heartbeat=s.heartbeat_seconds)
        await self.link.start()
        self.lobby.on_created = self._created
        self.lobby.hide_new_tables = True  # (listed once claimed: Leaseholder.claim_new)
        self.lobby.remote_tables = RemoteTables(self.bus)
        self.holder.start()
        took = f"{len(adopted)} table{'s' if len(adopted) != 1 else ''}"
        log.info("worker %s joined %s; took %s", self.worker, s.bus, took)

    def _created(self, table: Table) -> None:
        """Claim a table made here at once (before another worker's scan could adopt it)."""
        assert self.holder is not None
        task = asyncio.get_running_loop().create_task(self.holder.claim_new(table.id))
        self._claims.add(task)
        task.add_done_callback(self._claimed)

    def _claimed(self, task: asyncio.Task[bool]) -> None:
        self._claims.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("worker %s: claiming a new table failed: %s", self.worker, task.exception())

    async def stop(self) -> None:
        """Leave cleanly: hand every lease back, so other workers take the tables at once."""
        self.lobby.on_created = None
        self.lobby.hide_new_tables = False
        self.lobby.remote_tables = None
        if self.holder is not None:
            await self.holder.stop(release=True)
        if self.link is not None:
            await self.link.stop()
        if self.bus is not None:
            await self.bus.close()
