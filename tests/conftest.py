"""Test settings shared by the whole suite, and the SSH server the end-to-end tests play on.

Hypothesis runs derandomized by default so that CI is repeatable; explore new examples with
``pytest --hypothesis-profile=explore``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import settings

from shipwreck.server.service import Service

from sshclient import loopback_config, running

settings.register_profile("default", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500)
settings.load_profile("default")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    """``shipwreck serve`` with the shipped settings (timers on) on 127.0.0.1, a free port, and
    a fresh SQLite file and host key. A test module that needs other settings has its own."""
    async with running(loopback_config(tmp_path)) as svc:
        yield svc
