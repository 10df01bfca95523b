"""Table chat and whispers belong to players, not seats (security audit F8), and are kept in
the store with the game. Over SSH, byte for byte: tests/hostile/test_f08_whispers.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tui_helpers import texts, two_humans

from shipwreck.runtime import Lobby
from shipwreck.runtime.table import CHAT_NOT_SAVED
from shipwreck.store import Store


def test_a_whisper_is_read_by_its_two_players_only_wherever_they_sit() -> None:
    table = two_humans(Lobby(seed=1))
    assert table.say("alice", "A2B", 0, to=1) is None
    assert table.say("bob", "B2A", 1, to=0) is None
    assert table.say("carol", "C2A", None, to=0) is None  # a spectator's whisper
    assert table.say("hank", "H2free", None, to=2) is None  # to a seat no player holds
    assert table.say("alice", "ALL", 0) is None
    assert texts(table, "alice") == {"A2B", "B2A", "C2A", "ALL"}
    assert texts(table, "bob") == {"A2B", "B2A", "ALL"}
    assert texts(table, "carol") == {"C2A", "ALL"}
    assert texts(table, "hank") == {"H2free", "ALL"}
    assert texts(table, "eve") == texts(table, None) == {"ALL"}

    table.leave("alice")
    assert table.sit(0, "eve") is None  # eve takes alice's seat: none of its past is hers
    assert texts(table, "eve") == {"ALL"}
    assert table.say("bob", "B2E", 1, to=0) is None
    assert texts(table, "eve") == {"ALL", "B2E"}
    assert "B2E" not in texts(table, "alice")
    assert texts(table, "alice") == {"A2B", "B2A", "C2A", "ALL"}  # still hers, if she watches
    whisper = table.chat[-1]
    assert (whisper.sender, whisper.to_player, whisper.from_seat, whisper.to) == (
        "bob",
        "eve",
        1,
        0,
    )


def test_chat_is_kept_with_the_game_and_a_restart_restores_it(tmp_path: Path) -> None:
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(tmp_path / "s.db"))
    table = two_humans(lobby)
    assert table.say("alice", "A2B", 0, to=1) is None
    assert table.say("carol", "C2A", None, to=0) is None
    assert table.say("bob", "ALL", 1) is None

    again = Lobby(seed=2)
    assert again.attach_store(Store(tmp_path / "s.db")) == 1
    restored = again.get(table.id)
    assert restored is not None
    assert restored.chat == table.chat
    for viewer in ("alice", "bob", "carol", "eve", None):
        assert restored.chat_for(viewer) == table.chat_for(viewer)
    assert restored.say("bob", "after", 1) is None  # numbered on from the stored lines
    assert [c.n for c in restored.chat] == [0, 1, 2, 3]


def test_a_chat_line_the_store_refuses_is_not_shown(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(path))
    table = two_humans(lobby)
    told: list[int] = []
    table.subscribe(lambda t: told.append(len(t.chat)))
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "CREATE TRIGGER no_room BEFORE INSERT ON chat "
        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
    )
    assert table.say("alice", "lost", 0, to=1) == CHAT_NOT_SAVED
    assert table.chat == [] and told == []
    db.execute("DROP TRIGGER no_room")
    db.close()
    assert table.say("alice", "kept", 0, to=1) is None
    assert [c.text for c in table.chat] == ["kept"] and told == [1]
