"""The Spanish Main map's labels at every size: island names, home marks, coin rows, ship
codes and bow arrows never cover one another (play-test: `lwisla-5⠃pl`, `⌂r↑ddo` at 80x24)."""

from __future__ import annotations

import re

import pytest

from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import render_spanish_main as R

MAP_SIZES = ((35, 18), (75, 33), (150, 55))
"""The map's cells at 80x24, 120x40 and 200x60 (the side and the foot take the rest)."""


def start(seed: int, seats: int) -> SpanishMainView:
    lobby = Lobby(seed=1)
    specs = [SeatSpec("human")] + [SeatSpec("empty")] * (seats - 1)
    table = lobby.create_table("spanish_main", specs, creator="ann", seed=seed)
    view = table.view(0)
    assert isinstance(view, SpanishMainView)
    return view


def words(rows: list[str]) -> set[str]:
    """Every run of label characters on the map (braille dots and spaces split them)."""
    out: set[str] = set()
    for row in rows:
        out |= set(re.findall(r"[⌂a-z0-9●-]+", row))
    return out


@pytest.mark.parametrize("seats", (2, 3, 4))
@pytest.mark.parametrize("cols,rows", MAP_SIZES)
def test_every_label_is_whole(cols: int, rows: int, seats: int) -> None:
    for seed in range(1, 16):
        view = start(seed, seats)
        shown = R.sea_map(view, cols, rows).plain.splitlines()[:-1]  # (the last is the legend)
        found = words(shown)
        where = f"seed {seed}, {seats} seats, {cols}x{rows}"
        for isl in view.islands:
            names = {isl.id, isl.id.removeprefix("isla-")}
            assert names & found, f"{where}: {isl.id}'s label is covered or missing: {found}"
            if isl.home is not None:
                home = {f"⌂{view.seats[isl.home]}", "⌂"}
                assert home & found, f"{where}: {isl.id}'s home mark is covered: {found}"
            elif cols >= 75:
                assert "●" * len(isl.coins) in found, f"{where}: {isl.id}'s coins are covered"
        codes = R.ship_codes(view)
        missing = [c for c in codes.values() if c not in found]
        assert len(missing) <= 1, f"{where}: ship codes covered or missing: {missing}"
        arrows = sum(ch in R.ARROWS for row in shown for ch in row)
        cv = R._Canvas(cols, rows - 1, view.width, view.height)
        bows = {R._bow_cell(cv, s.x, s.y, s.heading) for s in view.ships}
        assert arrows == len(bows), f"{where}: a bow arrow is covered"  # (two bows, one cell)
