"""F7: one key made 406 tables in 45 s and none left memory; F13: one table whose timer failed
stopped the timers of every table after it."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from shipwreck.config import Config
from shipwreck.engine.core import SYSTEM
from shipwreck.games.registry import default_timers
from shipwreck.server.service import Service

from harness import Bystander, eventually
from sshclient import open_terminal

MALLORY_KEY = asyncssh.generate_private_key("ssh-ed25519")
ANN_KEY = asyncssh.generate_private_key("ssh-ed25519")


async def test_f7_one_player_cannot_flood_the_lobby_with_tables(
    service: Service, bystander: Bystander
) -> None:
    """The audit's attack: `new 4 random random random` then `lobby`, as fast as allowed. At
    most `open_tables_per_player` tables are made; every further `new` says why, in one line."""
    cap = service.config.limits.open_tables_per_player
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    for _ in range(cap + 3):
        mallory.type("new 4 random random random\r")
        await asyncio.sleep(0.3)
        mallory.type("lobby\r")
        await asyncio.sleep(0.3)
    await eventually(lambda: "already play at" in mallory.term.plain_bytes(), what="refusal")
    assert len(service.lobby.seats_of("mallory")) == cap
    assert len(service.lobby.tables) == cap
    mallory.close()
    bystander.check()


@pytest.fixture
def timed(config: Config) -> Config:
    """Every decision has a one-second timer (set before the server starts), at a lone
    player's table too (by default since issue 16 such a table waits for its player)."""
    config.timers = dict.fromkeys(default_timers(), 1)
    config.tables.solo_timers = True
    return config


async def test_f13_a_broken_table_timer_does_not_stop_the_others(
    timed: Config, service: Service, bystander: Bystander
) -> None:
    """Two players at their own tables with one-second timers; the first table's timer breaks.
    The second player's decisions still time out (the safe default from the table's timer),
    and the server logs the broken one once."""
    ann = await open_terminal(service.port, "ann", ANN_KEY)
    await ann.term.wait_for("signed in as ann")
    mallory = await open_terminal(service.port, "mallory", MALLORY_KEY)
    await mallory.term.wait_for("signed in as mallory")
    mallory.type("new 4 random random random\r")
    await eventually(lambda: len(service.lobby.tables) == 1, what="mallory's table")
    first = service.lobby.tables[1]

    def broken() -> int:
        raise RuntimeError("this table's clock is broken")

    first.tick = broken  # type: ignore[method-assign]
    await asyncio.sleep(0.3)
    ann.type("new 4 random random random\r")
    await eventually(lambda: len(service.lobby.tables) == 2, what="ann's table")
    second = service.lobby.tables[2]
    await eventually(
        lambda: any(seat == SYSTEM for seat, _text in second.commands),
        timeout=15,
        what="a timeout at the second table",
    )
    assert first.id in service.lobby.broken
    ann.close()
    mallory.close()
    bystander.check()
