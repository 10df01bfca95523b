"""Fixes from a stranger's play-test (issue 16): the Lifeboat prompt's choices, the tutorial's
log at 80×24, typing over the end screen, and the end screen's words."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_tui import lobby_with_table, play_to_end, type_line
from textual.pilot import Pilot

from shipwreck.lang import format_command
from shipwreck.runtime import Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.board import Board
from shipwreck.tui.screens import EndScreen, LobbyScreen, TableScreen
from shipwreck.tui.widgets import CommandLine


def drawn(app: ShipwreckApp, board_id: str, wid: str) -> list[str]:
    """The rows panel ``wid`` shows on its board now, as drawn."""
    board = app.screen.query_one(f"#{board_id}", Board)
    region = board.spot(wid)
    assert region is not None, f"{wid} is not shown"
    return [strip.text.strip() for strip in board.render_lines(region)]


async def to_a_long_turn(pilot: Pilot[Any], table: Table, seat: int, width: int) -> list[str]:
    """Play until it is ``seat``'s turn with more choices than two rows of ``width`` hold;
    those choices, as typed."""
    pick = random.Random(7)
    for _ in range(400):
        view = table.view(seat)
        choices = [format_command(c) for c in view.choices]
        if view.step == "turn" and view.actor == view.me and len(" · ".join(choices)) > 2 * width:
            return choices
        await type_line(pilot, pick.choice(choices))
    raise AssertionError("no long turn came")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_choices_wrap_by_whole_items_and_count_what_does_not_fit(
    size: tuple[int, int],
) -> None:
    """Each choice is shown whole or not at all, on the prompt's rows below what to decide;
    what does not fit is counted ("+N more: Tab"), never cut mid-word."""
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        seat = app.screen.seat
        assert isinstance(app.screen, TableScreen) and seat is not None
        choices = await to_a_long_turn(pilot, table, seat, size[0])
        await pilot.pause()
        rows = drawn(app, "foot", "prompt")
        assert rows[0].startswith("your turn:"), rows
        assert rows[1].startswith("choices: "), rows
        items = " · ".join(r for r in rows[1:] if r).removeprefix("choices: ").split(" · ")
        more = items.pop() if items[-1].startswith("+") else ""
        for item in items:
            assert item in choices, f"{item!r} is cut: {rows}"
        assert items == choices[: len(items)], rows
        if len(items) < len(choices):
            assert more == f"+{len(choices) - len(items)} more: Tab", rows
        assert all(r for r in rows[1:]), f"a choices row is left blank: {rows}"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_typing_over_the_end_screen_closes_it_and_goes_on_the_command_line(
    size: tuple[int, int],
) -> None:
    """The coach says ``type: lobby`` when the game ends: typed over the end screen, the word
    closes it and reaches the command line whole, and Enter runs it."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        seat = app.screen.seat
        assert seat is not None
        await play_to_end(pilot, table, seat)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await type_line(pilot, "lobby")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen), app.screen_stack


async def test_enter_and_escape_still_close_the_end_screen_and_type_nothing() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        seat = app.screen.seat
        assert seat is not None
        await play_to_end(pilot, table, seat)
        await pilot.pause()
        table_screen = app.screen_stack[-2]
        for key in ("enter", "escape"):
            if not isinstance(app.screen, EndScreen):
                app.push_screen(EndScreen(table.view(seat)))
                await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is table_screen
            assert table_screen.query_one("#command", CommandLine).value == ""
