"""Background loops stop for good (the hang that cost a CI run its whole hour).

On Python 3.11 ``asyncio.wait_for`` swallows a cancellation that arrives in the loop turn its
inner wait completes in (CPython gh-86296). The lobby link's heartbeat loop waited that way, so a
change to the lobby in the same turn as ``stop()`` left the loop running and ``stop()`` waiting
for ever. ``shipwreck.tasks.stop_task`` cancels until the task has ended.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from shipwreck.bus import MemoryBus
from shipwreck.runtime import Lobby
from shipwreck.runtime.lobby_link import LobbyLink
from shipwreck.tasks import stop_task


async def test_a_task_that_swallows_a_cancellation_is_cancelled_again_until_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("shipwreck.tasks.CANCEL_AGAIN_SECONDS", 0.05)
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1  # as wait_for does, once in a while

    task = asyncio.get_running_loop().create_task(stubborn())
    await asyncio.sleep(0)
    async with asyncio.timeout(5):
        await stop_task(task)
    assert task.cancelled() and swallowed == 1


async def test_stopping_a_task_raises_what_it_failed_with() -> None:
    async def fails() -> None:
        raise ValueError("the loop's own failure")

    task = asyncio.get_running_loop().create_task(fails())
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="own failure"):
        await stop_task(task)
    await stop_task(None)  # (a loop never started)


async def test_a_lobby_link_stopped_in_the_turn_its_lobby_changed_stops() -> None:
    """The lobby changes (its link's wake-up is set) and the link is stopped in the same loop
    turn: the heartbeat loop ends, and no rows are published after stop() returned."""
    bus = MemoryBus()
    published: list[str] = []
    sub = await bus.subscribe("lobby.rows.*", lambda subject, _data: _note(published, subject))
    link = LobbyLink(bus, Lobby(seed=1), "a", heartbeat=0.05)
    await link.start()
    await asyncio.sleep(0.12)  # a beat or two: its loop is waiting inside the heartbeat
    link._changed.set()
    stopping = asyncio.ensure_future(link.stop())
    done, _ = await asyncio.wait({stopping}, timeout=3)  # (it ends at once; it hung for ever)
    if not done:
        stopping.cancel()
    assert done, "stop() never returned: the heartbeat loop swallowed its cancellation"
    assert link._task is not None and link._task.done()
    before = len(published)
    await asyncio.sleep(0.2)
    assert len(published) == before, "the link went on beating after stop()"
    await sub.stop()
    with contextlib.suppress(Exception):
        await bus.close()


async def _note(published: list[str], subject: str) -> None:
    published.append(subject)
