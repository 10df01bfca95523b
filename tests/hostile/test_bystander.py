"""The harness itself: a quiet server answers the bystander quickly."""

from __future__ import annotations

import asyncio

from harness import Bystander


async def test_a_quiet_server_answers_the_bystander(bystander: Bystander) -> None:
    await asyncio.sleep(2.0)
    bystander.check(limit=0.5)
    assert len(bystander.rtts) >= 3
