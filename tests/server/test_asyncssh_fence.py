"""The one change to asyncssh (server/asyncssh_fence.py): the server sends no empty
SSH_MSG_IGNORE before every packet, and agrees to no CBC cipher, the only kind that packet
protects. A real server on loopback and real asyncssh clients; the client counts the ignore
packets it receives."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from asyncssh.connection import SSHClientConnection, SSHConnection, SSHServerConnection
from asyncssh.constants import MSG_IGNORE

from shipwreck.config import Config
from shipwreck.server import asyncssh_fence
from shipwreck.server.service import Service
from shipwreck.server.ssh import LiveApps
from shipwreck.tui._textual.fence import Fence, Patch, Source

from sshclient import connect, open_terminal

KEY = asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    config = Config()
    config.server.port = 0
    config.server.listen = "127.0.0.1"
    config.server.database = str(tmp_path / "t.db")
    config.server.host_key = str(tmp_path / "host_key")
    service = Service(config, live=LiveApps())
    await service.start()
    yield service
    await service.stop()


@pytest.fixture
def ignores(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The ignore packets asyncssh clients receive in this test."""
    seen: list[bytes] = []
    handlers = SSHConnection._packet_handlers
    process = handlers[MSG_IGNORE]

    def counted(self: SSHConnection, *args: object) -> None:
        if isinstance(self, SSHClientConnection):  # (not what the server receives)
            seen.append(b"ignore")
        process(self, *args)

    monkeypatch.setitem(handlers, MSG_IGNORE, counted)
    return seen


async def test_a_session_gets_no_ignore_packets(service: Service, ignores: list[bytes]) -> None:
    ann = await open_terminal(service.port, "ann", KEY)
    try:
        await ann.term.wait_for("signed in as ann")
        ann.type("help")
        await ann.term.wait_for("help")
        assert len(ann.term.raw) > 1000  # (many frames)
        assert ignores == []
        assert "-cbc" not in ann.conn.get_extra_info("send_cipher")
        assert ann.conn.get_extra_info("recv_cipher") in asyncssh_fence.ENCRYPTION
    finally:
        ann.close()


async def test_without_the_patch_every_packet_has_an_ignore_packet_before_it(
    service: Service, ignores: list[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the patch removes (so the test above can fail): asyncssh's own code."""
    monkeypatch.setattr(SSHServerConnection, "send_packet", asyncssh_fence._send_packet)
    ann = await open_terminal(service.port, "ann", KEY)
    try:
        await ann.term.wait_for("signed in as ann")
        assert len(ignores) > 5
    finally:
        ann.close()


async def test_a_client_that_offers_only_cbc_is_refused(service: Service) -> None:
    with pytest.raises(asyncssh.KeyExchangeFailed, match="encryption"):
        await asyncssh.connect(
            "127.0.0.1",
            service.port,
            username="ann",
            client_keys=[KEY],
            known_hosts=None,
            config=None,
            agent_path=None,
            encryption_algs=["aes128-cbc", "aes256-cbc"],
        )
    ann = await connect(service.port, "ann", KEY)  # (a client with today's ciphers gets in)
    ann.close()


def test_the_patch_stays_off_if_asyncssh_changed() -> None:
    """A guard that does not hold (asyncssh's code is not what the patch was written for)
    keeps the patch off, and the report says so."""
    fence = Fence(
        [
            Patch(
                name="no_ignore_packets",
                why="",
                sources=(Source(SSHConnection, "send_packet", "0" * 64),),
                install=lambda: pytest.fail("installed without its guard"),
            )
        ],
        kind="asyncssh",
    )
    fence.install()
    assert fence.report().startswith("asyncssh patches: 0/1 active; off: no_ignore_packets (")


async def _refused(port: int, n: int) -> None:
    """``n`` connections refused at sign-in (a name that can never be one), one after another."""
    for i in range(n):
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1",
                port,
                username=f"bad.name{i}",
                client_keys=[KEY],
                known_hosts=None,
                config=None,
                agent_path=None,
            )


def _server_connections() -> int:
    """Server connections in memory, freed or not yet (the collector is off in these tests)."""
    return sum(isinstance(o, SSHServerConnection) for o in gc.get_objects())


async def _left_after(service: Service, n: int, wait: float) -> int:
    """How many of ``n`` refused connections are still in memory, with the garbage collector
    off (as under the server's own collector, which waits minutes between full collections),
    after at most ``wait`` seconds for them to be freed."""
    gc.collect()
    gc.disable()
    try:
        before = _server_connections()
        await _refused(service.port, n)
        deadline = time.monotonic() + wait
        while _server_connections() > before and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return _server_connections() - before
    finally:
        gc.enable()


async def test_a_refused_connection_is_freed_when_it_closes(service: Service) -> None:
    """F5 (a flood of refused sign-ins): each connection let go of by reference counting."""
    assert await _left_after(service, 20, wait=10.0) == 0


async def test_without_the_patch_a_closed_connection_waits_for_a_full_collection(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the patch removes (so the test above can fail): asyncssh's own cleanup leaves
    every closed connection in a cycle."""
    monkeypatch.setattr(SSHServerConnection, "_cleanup", asyncssh_fence._server_cleanup)
    assert await _left_after(service, 20, wait=1.0) == 20
