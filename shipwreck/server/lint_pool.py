"""Bot scripts sent over SSH are checked in worker processes, never on the event loop.

A 64 KiB script takes about half a second to parse and lint; on the loop that is half a second
in which no player's screen moves. A small pool runs at most ``workers`` checks at once (at a
lower CPU priority than the server), ``queue`` more wait, and past that the caller is told the
server is busy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import sys
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TextIO, TypeVar

log = logging.getLogger(__name__)

WORKER_NICENESS = 10
T = TypeVar("T")

Checked = tuple[list[str], bool]
"""A check's findings as lines (``path:line:col: level: message``), and whether any is an
error."""


def lint(source: str, path: str) -> Checked:
    """Run in a worker: `check_source`'s findings, as text."""
    from shipwreck.lang.bots.lint import check_source

    findings = check_source(source, path)
    return [str(f) for f in findings], any(f.level == "error" for f in findings)


def _lower_priority(niceness: int = WORKER_NICENESS) -> None:
    with contextlib.suppress(OSError):
        os.nice(niceness)


def _real_stderr() -> contextlib.redirect_stderr[TextIO]:
    """The process's own stderr, for as long as processes are started: each is handed
    ``sys.stderr``'s file descriptor, and while any player's Textual app runs, ``sys.stderr`` is
    that app's capture, whose descriptor is -1 (``ValueError: bad value(s) in fds_to_keep``).
    Making a pool starts multiprocessing's resource tracker, submitting to it starts workers."""
    return contextlib.redirect_stderr(sys.__stderr__ or sys.stderr)


def low_priority_pool(workers: int, niceness: int = WORKER_NICENESS) -> ProcessPoolExecutor:
    """Worker processes at a lower CPU priority than the server: started fresh ("spawn": a
    fresh interpreter, not a fork of a server holding sockets and threads)."""
    with _real_stderr():
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_lower_priority,
            initargs=(niceness,),
        )


def run_in_pool(pool: ProcessPoolExecutor, fn: Callable[..., T], *args: object) -> Awaitable[T]:
    """``fn(*args)`` in ``pool``, awaited on the running loop."""
    loop = asyncio.get_running_loop()
    with _real_stderr():
        return loop.run_in_executor(pool, fn, *args)


class LintPool:
    """``await pool.check(source, path)``: the findings, or None when the server is busy."""

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.queue = max(0, queue)
        self.pending = 0
        """Checks running or waiting."""
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = low_priority_pool(self.workers)
        return self._executor

    async def check(self, source: str, path: str) -> Checked | None:
        if self.pending >= self.workers + self.queue:
            return None
        self.pending += 1
        try:
            return await run_in_pool(self._pool(), lint, source, path)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            log.warning("a bot-check worker died; restarting the pool")
            self.close()
            raise
        finally:
            self.pending -= 1

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
