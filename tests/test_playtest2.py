"""Fixes from the second stranger play-test (issue 16) that no other file covers."""

from __future__ import annotations

from test_stranger80 import rows, seat_screen

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp


async def test_a_spanish_main_table_waiting_for_its_players_has_no_turn_in_its_title() -> None:
    """Before 'start', the title said "red's turn" though nobody could move yet."""
    lobby = Lobby(seed=1)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", gather=True
    )
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = rows(app)[0]
        assert not table.started
        assert "waiting" in title and "'s turn" not in title, title
        seat_screen(app).start_table(True)  # start with bots
        await pilot.pause()
        assert table.started
        title = rows(app)[0]
        assert "'s turn" in title and "waiting" not in title, title
