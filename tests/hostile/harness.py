"""What every hostile test shares: a real server on 127.0.0.1 and a bystander in its lobby.

Each test in this folder reproduces one attack from the security audit
(``shared/audits/security-2026-12.md``, findings F1-F17) against ``shipwreck serve`` over real
SSH, asserts the defence, and keeps a **bystander** in the lobby: a player who types
``say <token>`` about twice a second and times how long the token takes to appear on their own
screen (a full round trip through the shared event loop). An attack that stalls the loop shows
up as a slow round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from pathlib import Path

import asyncssh

from shipwreck.config import Config

# ``eventually`` is shared with tests/ (in sshclient); the hostile tests import it from here
from sshclient import Client, loopback_config
from sshclient import eventually as eventually

BYSTANDER_KEY = asyncssh.generate_private_key("ssh-ed25519")
BYSTANDER_LIMIT = 1.0
"""Seconds a bystander's ``say`` may take to come back during any attack."""


def make_config(tmp_path: Path) -> Config:
    return loopback_config(tmp_path)


class Bystander:
    """A lobby player measuring ``say`` round trips until stopped."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.rtts: list[float] = []
        self.lost = 0
        self._task: asyncio.Task[None] | None = None
        self._tokens = itertools.count(1)

    async def _run(self) -> None:
        while True:
            token = f"bq{next(self._tokens)}x"
            # The chat line as it is written to the terminal ("name: text", one run of text).
            # Looking for it in the bytes received costs nothing; drawing the whole screen to
            # look (pyte, ~4 ms) every few ms made the harness slow the server it measures.
            needle = f"bystander: {token}".encode()
            raw = self.client.term.raw
            seen_up_to = len(raw)
            start = time.monotonic()
            self.client.type(f"say {token}\r")
            try:
                async with asyncio.timeout(10.0):
                    while raw.find(needle, max(0, seen_up_to - len(needle))) < 0:
                        seen_up_to = len(raw)
                        await asyncio.sleep(0.005)
                self.rtts.append(time.monotonic() - start)
            except TimeoutError:
                self.lost += 1
                self.rtts.append(10.0)
            await asyncio.sleep(max(0.0, 0.5 - (time.monotonic() - start)))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.rtts

    @property
    def worst(self) -> float:
        return max(self.rtts, default=0.0)

    def check(self, limit: float = BYSTANDER_LIMIT) -> None:
        """The attack did not stall the shared loop: every round trip came back in time."""
        assert self.rtts, "the bystander measured nothing"
        assert self.worst < limit, (
            f"a bystander's say took {self.worst:.2f} s (limit {limit} s): "
            f"{[round(r, 3) for r in self.rtts]}"
        )
