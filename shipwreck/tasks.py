"""Stopping an asyncio task for good: the one way every background loop here is stopped.

Why not ``task.cancel(); await task``: on Python 3.11, ``asyncio.wait_for`` (ours, or a
library's) swallows a cancellation that arrives in the loop turn its inner wait completes in
(CPython gh-86296), and a loop task that swallowed it runs on; whoever awaits it then waits for
ever. A test run hung for an hour on one such heartbeat loop. :func:`stop_task` cancels again
until the task has ended, and never swallows a cancellation of its own caller.
"""

from __future__ import annotations

import asyncio
from typing import TypeVar

T = TypeVar("T")

CANCEL_AGAIN_SECONDS = 5.0
"""How long a cancelled task may take to end before it is cancelled again."""


async def stop_task(task: asyncio.Future[T] | None) -> None:
    """Cancel ``task`` and wait until it has ended; an exception it ended with is raised."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=CANCEL_AGAIN_SECONDS)
    if not task.cancelled():
        task.result()
