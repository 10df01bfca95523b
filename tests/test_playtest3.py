"""Fixes from the third stranger play-test (issue 16) and its small items left open: Ctrl+Q at
a waiting table, Spanish Main's prompts, hints and texts, the 80×24 screens, the lobby's help
and its tutorial tables."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.app import QUIT_WAITING
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.confirm import Confirm

SIZES = [(80, 24), (120, 40)]


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    screen = next(s for s in app.screen_stack if isinstance(s, SeatScreen))
    return screen


async def wait_screen(pilot: Pilot[Any], kind: type) -> None:
    for _ in range(50):
        if isinstance(pilot.app.screen, kind):
            return
        await pilot.pause(0.02)
    raise AssertionError(f"no {kind.__name__}: {pilot.app.screen!r}")


# ------------------------------------------------------------------ 1. Ctrl+Q at a waiting table


@pytest.mark.parametrize("size", SIZES)
async def test_ctrl_q_at_a_waiting_table_asks_before_quitting(size: tuple[int, int]) -> None:
    """A table waiting for its players starts by a word typed at it: Ctrl+Q there asks
    (n stays, Ctrl+Q again quits), as Ctrl+C and Esc ask elsewhere."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("empty")] * 3]
    table = lobby.create_table("lifeboat", seats, "ann", gather=True)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await wait_screen(pilot, SeatScreen)
        assert not table.started
        await pilot.press("ctrl+q")
        await wait_screen(pilot, Confirm)
        assert app.is_running
        text = str(app.screen.query_one("#question").render())
        assert text == f"{QUIT_WAITING} y/n" and "waits to start" in text
        await pilot.press("n")
        await wait_screen(pilot, SeatScreen)
        assert app.is_running and table.seat_of_player("ann") == 0  # nothing changed
        await pilot.press("ctrl+q")
        await wait_screen(pilot, Confirm)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
    assert table.seat_of_player("ann") == 0  # the seat is kept, as the question says


async def test_ctrl_q_at_a_started_table_still_quits_at_once() -> None:
    """Only a waiting table asks: at a game under way Ctrl+Q quits (the seat waits)."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *[SeatSpec("bot", "loyal")] * 3]
    table = lobby.create_table("lifeboat", seats, "ann")
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_screen(pilot, SeatScreen)
        assert table.started
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running
