"""Fixtures for the hostile tests: a real server on 127.0.0.1 and a bystander in its lobby
(see ``harness.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from shipwreck.config import Config
from shipwreck.server.service import Service

from harness import BYSTANDER_KEY, Bystander, make_config
from sshclient import open_terminal, running


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """The server's settings; a test may change them before it asks for ``service``."""
    return make_config(tmp_path)


@pytest.fixture
async def service(config: Config) -> AsyncIterator[Service]:
    async with running(config) as svc:
        yield svc


@pytest.fixture
async def bystander(service: Service) -> AsyncIterator[Bystander]:
    """A player in the lobby timing ``say`` round trips for the whole test (checked at the end
    by the test itself with ``bystander.check()``)."""
    client = await open_terminal(service.port, "bystander", BYSTANDER_KEY, size=(120, 40))
    await client.term.wait_for("signed in as bystander")
    watcher = Bystander(client)
    watcher.start()
    try:
        yield watcher
    finally:
        await watcher.stop()
        client.close()
