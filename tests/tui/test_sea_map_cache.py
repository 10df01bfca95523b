"""The sea map is drawn once for each thing it shows (issue 15, F6): a message that takes a
second row below it and goes again changes the map's size back and forth, and a stream of such
messages (a flood of refused lines) redrew the whole map each time, about 100 ms a line."""

from __future__ import annotations

from typing import Any

import pytest
from sea_helpers import two_humans
from tui_helpers import screen_text, type_line

from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import SeaMap

DRAW = R.sea_map
"""The map drawn as the screen draws it (``drawn`` counts the calls)."""


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size of each map drawn from now on (drawing them as ever)."""
    sizes: list[tuple[int, int]] = []

    def counting(view: Any, cols: int, rows: int, *rest: Any) -> Any:
        sizes.append((cols, rows))
        return DRAW(view, cols, rows, *rest)

    monkeypatch.setattr(R, "sea_map", counting)
    return sizes


async def test_a_map_asked_for_again_at_a_size_it_had_is_not_drawn_again(
    drawn: list[tuple[int, int]],
) -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        sea = app.screen.query_one(SeaMap)
        sizes = [(120, 40), (100, 30)]
        for width, height in sizes * 3:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            await pilot.pause()
            shown = sea.render()
            size = sea.content_size
            assert sea.view is not None
            fresh = DRAW(sea.view, size.width, size.height, sea.preview, sea.ship)
            assert shown.plain == fresh.plain, "the map kept is the map of now"
        assert len(set(drawn)) == len(drawn), f"a map was drawn twice: {drawn}"


async def test_refused_lines_neither_redraw_the_map_nor_change_its_size(
    drawn: list[tuple[int, int]],
) -> None:
    """A refused line shows a two-row error (the line with a caret, then why) and goes with
    the next line: the map keeps its size (the error line keeps two rows) and is not drawn
    again (nothing it shows changed). A flood of refused lines cost a map each before. (An
    error of three rows or more takes them from the map: not here.)"""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        sea = app.screen.query_one(SeaMap)
        size, before = sea.content_size, len(drawn)
        assert before >= 1
        for line in ("pass now please", "move nosuch S", "end turn now", "pass now please"):
            await type_line(pilot, line)
            await pilot.pause()
            assert "unknown" in screen_text(app) or "no ship" in screen_text(app), line
            assert sea.content_size == size, f"{line!r} changed the map's size"
        assert len(drawn) == before, f"refused lines drew the map again: {drawn[before:]}"
        assert not table.commands, "nothing was played"
