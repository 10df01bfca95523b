"""Whispers to spectators (play-test: spectators could not chat with each other): the table
knows who watches it, a whisper to a spectator is read by its two people only, kept in the
store as a whisper, and ``tell`` at the screen names spectators too. Over SSH, byte for byte:
tests/hostile/test_spectator_whispers.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from tui_helpers import texts, two_humans

from shipwreck.runtime import Lobby
from shipwreck.store import Store
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import AppScreen


def test_a_whisper_to_a_spectator_is_read_by_the_two_only() -> None:
    table = two_humans(Lobby(seed=1))
    stop_carol = table.watch("carol")
    stop_dave = table.watch("dave")
    assert table.say("carol", "C2D", None, to_watcher="dave") is None  # spectator -> spectator
    assert table.say("alice", "A2C", 0, to_watcher="carol") is None  # player -> spectator
    assert table.say("dave", "ALL", None) is None
    assert texts(table, "carol") == {"C2D", "A2C", "ALL"}
    assert texts(table, "dave") == {"C2D", "ALL"}
    assert texts(table, "alice") == {"A2C", "ALL"}
    assert texts(table, "bob") == texts(table, None) == {"ALL"}
    stop_dave()
    stop_dave()  # (twice is once)
    assert "dave" not in table.watchers
    said = table.say("carol", "C2D again", None, to_watcher="dave")
    assert said == "dave is not watching this table now"
    assert "C2D again" not in texts(table, "carol")
    stop_carol()
    assert table.watchers == {}


def test_a_spectator_watching_in_two_sessions_watches_until_both_close() -> None:
    table = two_humans(Lobby(seed=1))
    first, second = table.watch("carol"), table.watch("carol")
    first()
    assert table.say("alice", "still", 0, to_watcher="carol") is None
    second()
    assert table.say("alice", "gone", 0, to_watcher="carol") is not None


def test_a_whisper_to_a_spectator_stays_private_after_a_restart(tmp_path: Path) -> None:
    lobby = Lobby(seed=1)
    lobby.attach_store(Store(tmp_path / "s.db"))
    table = two_humans(lobby)
    table.watch("carol")
    table.watch("dave")
    assert table.say("carol", "C2D", None, to_watcher="dave") is None
    again = Lobby(seed=1)
    again.attach_store(Store(tmp_path / "s.db"))
    restored = again.get(table.id)
    assert restored is not None
    assert texts(restored, "dave") == texts(restored, "carol") == {"C2D"}
    assert texts(restored, "alice") == texts(restored, None) == set()


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


def error(app: ShipwreckApp) -> str:
    screen = app.screen
    assert isinstance(screen, AppScreen)
    return " ".join(screen.panel_text("error").split())


async def test_tell_at_the_screen_names_spectators_and_says_who_is_here() -> None:
    """carol watches at 80x24: her screen counts her as watching while it is open; 'tell
    dave' before dave watches lists who is here (the players and the spectators, not her);
    'tell carol' is refused as herself; after dave watches, 'tell dave' whispers."""
    lobby = Lobby(seed=1)
    table = two_humans(lobby)
    app = ShipwreckApp(lobby, "carol", "SHA256:carol", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert set(table.watchers) == {"carol"}
        await type_line(pilot, "tell dave hi")
        said = error(app)
        assert "is not at this table" in said and "alice (" in said, said
        assert "carol (watching)" not in said
        stop = table.watch("dave")
        await type_line(pilot, "tell carol hi")
        assert "that is you" in error(app)
        await type_line(pilot, "tell dave Wx1 hello")
        assert texts(table, "dave") == {"Wx1 hello"} and texts(table, "alice") == set()
        stop()
        await pilot.press("escape")
        await pilot.pause()
    assert table.watchers == {}
