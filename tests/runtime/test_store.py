"""The store, on a real SQLite file and (where marked ``database``) on a real PostgreSQL
server too (a throwaway one the tests start: tests/pgserver.py)."""

from __future__ import annotations

from pathlib import Path

from shipwreck.store import Store


def test_first_login_registers_the_key_and_another_key_is_refused(database: str) -> None:
    store = Store(database)
    first = store.identify("ann", "SHA256:aaa", "ssh-ed25519 AAAA")
    assert first.ok and first.registered_now
    again = store.identify("ann", "SHA256:aaa", "ssh-ed25519 AAAA")
    assert again.ok and not again.registered_now
    other = store.identify("ann", "SHA256:bbb", "ssh-ed25519 BBBB")
    assert not other.ok
    assert "belongs to another key" in other.message and other.wrong_key
    assert "SHA256:aaa" not in other.message  # the owner's key is not shown (audit F16)
    store.close()
    reopened = Store(database)  # it is on disk
    assert reopened.player("ann") is not None
    assert not reopened.identify("ann", "SHA256:bbb", "x").ok


def test_command_log_survives_reopening(database: str) -> None:
    store = Store(database)
    n = store.new_table("lifeboat", 42, "[]")
    store.append(n, 0, 2, "take water")
    store.append(n, 1, 3, "row")
    store.close()
    again = Store(database)
    assert again.commands(n) == [(2, "take water"), (3, "row")]
    assert again.tables(unfinished_only=True) == [(n, "lifeboat", 42, "[]")]
    again.finish(n)
    assert again.tables(unfinished_only=True) == []


def test_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    mode = store.db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_lobby_rebuilds_unfinished_tables_from_the_log(database: str) -> None:
    """Persist before acknowledging: a fresh lobby on the same file finds the same game."""
    import random

    import msgspec

    from shipwreck.runtime import Lobby, SeatSpec

    store = Store(database)
    lobby = Lobby(seed=3)
    assert lobby.attach_store(store) == 0
    seats = [SeatSpec("human")] + [SeatSpec("bot", b) for b in ("survivor", "loyal", "random")]
    table = lobby.create_table("lifeboat", seats, creator="ann")
    pick = random.Random(1)
    for _ in range(15):
        view = table.view(0)
        assert table.submit(0, pick.choice(list(view.choices))).ok
    before = msgspec.json.encode(table.state)
    assert store.commands(table.id) == table.commands
    store.close()

    again = Lobby(seed=99)
    assert again.attach_store(Store(database)) == 1
    restored = again.get(table.id)
    assert restored is not None
    assert msgspec.json.encode(restored.state) == before
    assert restored.seats[0].player == "ann"
    assert again.create_table("lifeboat", seats, creator="bob").id == table.id + 1


def test_a_restored_table_shows_its_players_away_until_they_come_back(database: str) -> None:
    """After a restart nobody is connected yet: the seats say so, and nobody's autopilot
    plays their game meanwhile; the player's session coming back makes the seat theirs."""
    from shipwreck.runtime import Lobby, SeatSpec

    lobby = Lobby(seed=3)
    lobby.attach_store(Store(database))
    seats = [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", "loyal")] * 2
    table = lobby.create_table("lifeboat", seats, creator="ann")
    assert table.sit(1, "bob") is None
    assert table.seats[0].connected and table.seats[1].connected

    again = Lobby(seed=4)
    again.attach_store(Store(database))
    restored = again.get(table.id)
    assert restored is not None
    assert [s.connected for s in restored.seats[:2]] == [False, False]
    assert not any(s.autopilot for s in restored.seats)
    assert restored.commands == table.commands, "the restart played for them"
    restored.set_connected("ann", True)
    assert restored.seats[0].connected and not restored.seats[0].autopilot


def test_a_rebuild_seats_players_where_they_sat_down_or_left(database: str) -> None:
    """A join (or a leave) is committed too: a rebuild seats bob where he sat down, rather than
    letting the free seat's stand-in bot play on for him."""
    from shipwreck.runtime import Lobby, SeatSpec

    lobby = Lobby(seed=5)
    lobby.attach_store(Store(database))
    seats = [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", "loyal")] * 2
    joined = lobby.create_table("lifeboat", seats, creator="ann")
    assert joined.sit(1, "bob") is None
    left = lobby.create_table("lifeboat", seats, creator="cat")
    assert left.sit(1, "dan") is None
    left.leave("dan")
    logs = {t.id: list(t.commands) for t in (joined, left)}

    again = Lobby(seed=6)
    assert again.attach_store(Store(database)) == 2
    for table in (joined, left):
        restored = again.get(table.id)
        assert restored is not None
        assert restored.seat_specs() == table.seat_specs()
        assert restored.commands == logs[table.id], "the rebuild moved on by itself"
    restored = again.get(joined.id)
    assert restored is not None and restored.seat_of_player("bob") == 1
    vacated = again.get(left.id)
    assert vacated is not None and vacated.free_seats() == [1]


def test_timeouts_are_in_the_log_and_a_restart_rebuilds_the_same_game(database: str) -> None:
    """A decision the table's timer took (from the system seat) is committed like any other
    command: a fresh lobby on the same file rebuilds the game those timeouts made
    (tests-2026-12 M3: a timeout applied but not saved left a file the
    server could not restart from)."""
    import msgspec

    from shipwreck.runtime import Lobby, SeatSpec

    class Clock:
        now = 1000.0

        def __call__(self) -> float:
            return self.now

    clock = Clock()
    kinds = ("supply", "turn", "keep", "fight", "respond", "navigate", "thirst", "overboard")
    lobby = Lobby(seed=3, timers=dict.fromkeys(kinds, 5), autopilot_after=100, clock=clock)
    lobby.attach_store(Store(database))
    seats = [SeatSpec("human"), SeatSpec("human")] + [SeatSpec("bot", "loyal")] * 3
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=11)
    assert table.sit(1, "bob") is None
    table.prompt_shown(0)
    table.prompt_shown(1)
    fired = 0
    for _ in range(6):  # nobody answers: every decision of ann's and bob's times out
        clock.now += 6
        fired += table.tick()
    timeouts = [text for seat, text in table.commands if seat == -1]
    assert fired >= 4 and len(timeouts) == fired
    assert not table.over

    again = Lobby(seed=4)
    assert again.attach_store(Store(database)) == 1
    restored = again.get(table.id)
    assert restored is not None
    assert restored.commands == table.commands
    assert msgspec.json.encode(restored.state) == msgspec.json.encode(table.state)


def test_two_processes_sharing_the_file_never_hand_out_one_table_id(database: str) -> None:
    """Workers share one database (issue 21): ids come from the insert itself, and an id
    reserved for a table that is not saved (a tutorial) is never listed or restored."""
    a, b = Store(database), Store(database)
    ids = [a.new_table("lifeboat", 1, "[]"), b.new_table("lifeboat", 2, "[]")]
    ids += [a.reserve_id(), b.new_table("spanish_main", 3, "[]"), b.reserve_id()]
    assert len(set(ids)) == 5
    assert [t[0] for t in a.tables()] == [ids[0], ids[1], ids[3]]
    assert [t[0] for t in b.tables(unfinished_only=True)] == [ids[0], ids[1], ids[3]]
