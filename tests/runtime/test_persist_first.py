"""Persist before show (security audit F15): a command reaches the store before anyone sees
its effect, and a command the store refuses leaves the table exactly as its log says.

The store is a real SQLite file; it is made to fail by a trigger installed from a second
connection (``RAISE(ABORT)`` on insert), as a full disk or a broken file would."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec
from table_helpers import BOTS, FakeClock, Turns

from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.runtime.table import NOT_SAVED
from shipwreck.store import Store


def break_commands(path: Path, when: str = "1") -> Callable[[], None]:
    """Make every insert into the command log (``WHEN`` ``when``) fail; returns the repair."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        f"CREATE TRIGGER no_room BEFORE INSERT ON commands WHEN {when} "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )

    def repair() -> None:
        db.execute("DROP TRIGGER no_room")
        db.close()

    return repair


def snapshot(table: Table) -> tuple[bytes, list[tuple[int, str]], int, dict[int, float]]:
    return (
        msgspec.json.encode(table.state),
        list(table.commands),
        len(table.events),
        dict(table.deadlines),
    )


def rebuilt(path: Path, table_id: int) -> Table:
    """The table as a restart on this file would rebuild it."""
    lobby = Lobby(seed=0)
    lobby.attach_store(Store(path))
    table = lobby.get(table_id)
    assert table is not None
    return table


def lifeboat(lobby: Lobby, human_seats: int = 1) -> Table:
    seats = [SeatSpec("human")] * human_seats + [SeatSpec("bot", b) for b in BOTS]
    return lobby.create_table("lifeboat", seats[:6], creator="ann", seed=7)


def test_a_command_the_store_refuses_changes_nothing_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    lobby = Lobby(seed=1)
    lobby.attach_store(store)
    table = lifeboat(lobby)
    seen: list[int] = []
    table.subscribe(lambda t: seen.append(len(t.commands)))
    cmd = table.rules.default(table.state, 0)
    before = snapshot(table)

    repair = break_commands(path)
    result = table.submit(0, cmd)
    assert not result.ok and result.message == NOT_SAVED
    assert snapshot(table) == before, "memory ran ahead of the log"
    assert seen == [], "someone was shown a move that is not in the log"
    assert store.commands(table.id) == table.commands

    repair()  # the disk has room again: the same command goes through, once
    assert table.submit(0, cmd).ok
    assert seen and store.commands(table.id) == table.commands
    again = rebuilt(path, table.id)
    assert msgspec.json.encode(again.state) == msgspec.json.encode(table.state)


def test_bot_moves_the_store_refuses_are_rolled_back_and_retried(tmp_path: Path) -> None:
    """The human's command is saved; the bots' answers after it are not: the table goes back
    to the log (the human's command, no bot move) and the bots try again later."""
    path = tmp_path / "s.db"
    store = Store(path)
    turns = Turns()
    lobby = Lobby(seed=1, schedule=turns)
    lobby.attach_store(store)
    table = lifeboat(lobby)
    turns.drain()
    assert table.view(0).choices
    saved = len(table.commands)

    repair = break_commands(path, when="NEW.seat != 0")
    assert table.submit(0, table.rules.default(table.state, 0)).ok
    assert table.commands == store.commands(table.id)
    assert len(table.commands) == saved + 1, "a bot move is in memory but not in the log"
    retry = turns.run_one()
    assert retry.delay > 0, "a failing store is retried later, not at once"
    assert table.commands == store.commands(table.id)
    assert len(table.commands) == saved + 1

    repair()
    turns.run_one()
    assert len(table.commands) > saved + 1, "the bots did not try again"
    turns.drain()
    assert table.commands == store.commands(table.id)
    again = rebuilt(path, table.id)
    assert msgspec.json.encode(again.state) == msgspec.json.encode(table.state)


def test_a_timeout_the_store_refuses_is_tried_again_at_the_next_tick(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    clock = FakeClock()
    kinds = ("supply", "turn", "keep")  # (a lone player is timed only with solo_timers)
    lobby = Lobby(seed=1, timers=dict.fromkeys(kinds, 10), clock=clock, solo_timers=True)
    lobby.attach_store(store)
    table = lifeboat(lobby)
    table.prompt_shown(0)
    assert table.deadline(0) is not None
    before = snapshot(table)

    repair = break_commands(path)
    clock.now += 11
    assert table.tick() == 0
    assert snapshot(table) == before and table.seats[0].misses == 0
    repair()
    assert table.tick() == 1
    assert table.commands[len(before[1])][0] == -1  # the system seat's timeout, saved
    assert store.commands(table.id) == table.commands


def test_a_table_whose_log_another_process_extended_goes_back_to_the_stored_log(
    tmp_path: Path,
) -> None:
    """Two owners of one table for a moment (a lease ran out under load): the other saved a
    move first, so this one's save is refused (its place in the log is taken). The table goes
    back to the store's log, the other's move included, and plays on from there. Before, it
    went back to its own commands, every later save failed the same way, and it was stuck."""
    path = tmp_path / "s.db"
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(path))
    table = lifeboat(lobby)
    other = rebuilt(path, table.id)  # the other owner, on the same file
    assert other.submit(0, other.rules.default(other.state, 0)).ok
    stored = Store(path).commands(table.id)
    assert len(stored) > len(table.commands)

    result = table.submit(0, table.rules.default(table.state, 0))
    assert not result.ok and result.message == NOT_SAVED
    assert table.commands[: len(stored)] == stored, "the table did not go back to the store's log"
    assert len(table.commands) > len(stored), "the bots did not play on from the stored log"
    assert table.submit(0, table.rules.default(table.state, 0)).ok, "still stuck"
    assert Store(path).commands(table.id) == table.commands
