"""The sea map is drawn once for each thing it shows (issue 15, F6): a message that takes a
second row below it and goes again changes the map's size back and forth, and a stream of such
messages (a flood of refused lines) redrew the whole map each time, about 100 ms a line."""

from __future__ import annotations

from typing import Any

import pytest
from sea_helpers import two_humans

from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import SeaMap


async def test_a_map_asked_for_again_at_a_size_it_had_is_not_drawn_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby, table = two_humans()
    drawn: list[tuple[int, int]] = []
    draw = R.sea_map

    def counting(view: Any, cols: int, rows: int, *rest: Any) -> Any:
        drawn.append((cols, rows))
        return draw(view, cols, rows, *rest)

    monkeypatch.setattr(R, "sea_map", counting)
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
            fresh = draw(sea.view, size.width, size.height, sea.preview, sea.ship)
            assert shown.plain == fresh.plain, "the map kept is the map of now"
        assert len(set(drawn)) == len(drawn), f"a map was drawn twice: {drawn}"
