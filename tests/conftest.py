"""Test settings shared by the whole suite, and the SSH server the end-to-end tests play on.

Hypothesis runs derandomized by default so that CI is repeatable; explore new examples with
``pytest --hypothesis-profile=explore``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from shipwreck.bus import Bus, MemoryBus
from shipwreck.bus.nats import NatsBus
from shipwreck.bus.nats_server import NatsServer
from shipwreck.server.service import Service
from shipwreck.tui._textual import install_patches

from pgserver import INSTALL, PgServer, find_bin
from sshclient import loopback_config, running

settings.register_profile("default", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500)
settings.load_profile("default")


@pytest.fixture(autouse=True, scope="session")
def textual_patches() -> str:
    """Every app a test builds runs on the Textual the server runs. The server installs the
    fence's patches when it starts (not at import), and Pilot tests build apps without a
    server: so they are installed here, once, before any test (``shipwreck play`` does the
    same). ``tests/project/test_textual_fence.py`` checks a fresh process, where nothing
    installs them.
    """
    return install_patches()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    """``shipwreck serve`` with the shipped settings (timers on) on 127.0.0.1, a free port, and
    a fresh SQLite file and host key. A test module that needs other settings has its own."""
    async with running(loopback_config(tmp_path)) as svc:
        yield svc


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server for the whole run (tests/pgserver.py); skipped, with how
    to install it, where the Debian package is missing."""
    if find_bin() is None:
        pytest.skip(INSTALL)
    server = PgServer().start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store keeps its data: a fresh SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "s.db")
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()


BUS_LEASE_SECONDS = 1.0
"""The lease of the buses below: short, so a test of a dead owner waits about a second."""


@pytest.fixture(params=["memory", "nats"])
async def buses(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Bus, Bus]]:
    """Two connections to one bus, as two workers hold them: the in-memory bus (the same
    object twice), and a real NATS server started for the test (its lease bucket must not
    outlive the test), with a connection each (tests/runtime/test_bus.py runs the bus contract)."""
    if request.param == "memory":
        bus = MemoryBus(lease_seconds=BUS_LEASE_SECONDS)
        yield bus, bus
        await bus.close()
        return
    with NatsServer(tmp_path / "nats") as server:
        a = await NatsBus.connect(server.url, lease_seconds=BUS_LEASE_SECONDS, name="a")
        b = await NatsBus.connect(server.url, lease_seconds=BUS_LEASE_SECONDS, name="b")
        yield a, b
        await a.close()
        await b.close()
