"""F4: a Spanish Main game that finished did so in one synchronous burst.

The audit's reproduction, over real SSH: a player types ``new sm 4 sm_raider sm_hauler sm_raider``
then ``lobby``, ten times, then disconnects. Each seat goes on autopilot, and before the fix
`Table._run_bots` played every remaining bot turn of every table inside one callback: the
server froze for 12.6 s (one table: 0.77 s).

Now a table's bots make at most ``bot_moves_per_turn`` moves (and a few milliseconds of work)
per loop turn, and a table nobody is playing at makes one move every
``unattended_move_seconds``, so spectators can follow it.

Since issue 16 a lone player's table pauses while they are away (nothing is played), so the
attack needs the autopilot: here lone players are timed (``solo_timers``), with 1 s timers and
the autopilot at the first miss, so each of mallory's seats is on autopilot before she leaves.
"""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from shipwreck.config import Config
from shipwreck.server.service import Service

from harness import Bystander, eventually
from sshclient import Client, open_terminal

KEY = asyncssh.generate_private_key("ssh-ed25519")
TABLES = 10


@pytest.fixture(autouse=True)
def uncapped(config: Config) -> Config:
    """F7's caps (5 unfinished tables, 6 new a minute per player) would stop this attack at
    five tables: lift them, to test F4's defence on its own with the audit's ten."""
    config.limits.open_tables_per_player = TABLES
    config.limits.new_tables_per_minute = TABLES
    config.tables.solo_timers = True  # (see the module's docstring)
    config.tables.autopilot_after = 1
    config.timers["turn"] = 1
    return config


async def new_table_then_lobby(mal: Client, service: Service, line: str) -> None:
    count = len(service.lobby.tables)
    await mal.line(line)
    await eventually(lambda: len(service.lobby.tables) > count, what=f"a table from {line!r}")
    await mal.term.wait_for("f1 help")
    await mal.line("lobby")
    await mal.term.wait_for("lobby command")


def mallorys_tables(service: Service) -> list[int]:
    """Every table mallory sits at, finished ones too: under SM-40 a game between bots can end
    while she is still making the others (they play at the unattended pace meanwhile)."""
    tables = service.lobby.tables.values()
    return [t.id for t in tables if t.seat_of_player("mallory") is not None]


async def seat_ten_tables_then_disconnect(service: Service) -> list[int]:
    """The audit's attack; returns the tables' ids."""
    mal = await open_terminal(service.port, "mallory", KEY)
    await mal.term.wait_for("signed in as mallory")
    for _ in range(TABLES):
        await new_table_then_lobby(mal, service, "new sm 4 sm_raider sm_hauler sm_raider")
    ids = mallorys_tables(service)
    assert len(ids) == TABLES
    await eventually(
        lambda: all(service.lobby.tables[i].seats[0].autopilot for i in ids),
        what="every seat of mallory's on autopilot",
    )
    mal.close()
    await eventually(
        lambda: not any(service.lobby.tables[i].seats[0].connected for i in ids),
        what="mallory gone",
    )
    assert not any(service.lobby.tables[i].paused for i in ids), "on autopilot: not paused"
    return ids


async def test_f04_ten_abandoned_tables_are_paced_not_burst(
    service: Service, bystander: Bystander
) -> None:
    """F4 with the default pace: the abandoned tables go on, a move every 0.3 s each."""
    ids = await seat_ten_tables_then_disconnect(service)
    tables = [service.lobby.tables[i] for i in ids]
    playing = [not t.over for t in tables]
    assert sum(playing) >= TABLES // 2, "most tables still play when mallory leaves"
    start = [len(t.commands) for t in tables]
    await asyncio.sleep(3.0)
    moved = [len(t.commands) - n for t, n in zip(tables, start, strict=True)]
    pace = service.config.bots.unattended_move_seconds
    most = 3.0 / pace + 2
    assert all(m <= most for m in moved), f"moves in 3 s per table (a burst?): {moved}"
    least = [m for m, p, t in zip(moved, playing, tables, strict=True) if p and not t.over]
    assert all(m >= 3 for m in least), f"a table still playing stalled: {moved}"
    bystander.check()


async def test_f04_bots_as_fast_as_the_loop_allows_still_yield(
    service: Service, bystander: Bystander
) -> None:
    """F4 unpaced: the ten tables play as fast as the server goes, sharing one slice of bot
    work per loop turn (`LoopTurns`), and the bystander is still answered within the limit.
    (They are unpaced once mallory has gone: unpaced from the start, games between bots can
    end while she is still making the others.)"""
    ids = await seat_ten_tables_then_disconnect(service)
    tables = [service.lobby.tables[i] for i in ids]
    for t in tables:
        t.unattended_move_seconds = 0.0
    playing = sum(not t.over for t in tables)
    assert playing >= TABLES // 2, "most tables still play"
    start = sum(len(t.commands) for t in tables)
    await asyncio.sleep(8.0)
    moved = sum(len(t.commands) for t in tables) - start
    assert moved > 8.0 / 0.3 * playing, f"{playing} unpaced tables made only {moved} moves in 8 s"
    bystander.check()
