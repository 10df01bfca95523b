"""The Spanish Main map's labels at every size: island names, home marks, coin rows, ship
codes and bow arrows never cover one another (play-test: `lwisla-5⠃pl`, `⌂r↑ddo` at 80x24)."""

from __future__ import annotations

import re

import pytest

from shipwreck.games.spanish_main.codes import ship_codes, short_codes
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui.spanish_main import render as R

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
        codes = ship_codes(view)
        missing = [c for c in codes.values() if c not in found]
        assert len(missing) <= 1, f"{where}: ship codes covered or missing: {missing}"
        arrows = sum(ch in R.ARROWS for row in shown for ch in row)
        cv = R._Canvas(cols, rows - 1, view.width, view.height)
        bows = {R._bow_cell(cv, s.x, s.y, s.heading) for s in view.ships}
        assert arrows == len(bows), f"{where}: a bow arrow is covered"  # (two bows, one cell)


def placed_codes(view: SpanishMainView, found: set[str]) -> dict[str, str]:
    """Each ship's label on the map: her code, or its short form on a crowded map."""
    codes, shorts = ship_codes(view), short_codes(view)
    out = {}
    for ship, code in codes.items():
        short = shorts.get(ship, "")
        if code in found:
            out[ship] = code
        elif short and short in found:
            out[ship] = short
    return out


CROWDED_SIZES = ((34, 16), (35, 17), (74, 30), (75, 32))
"""The map's cells at 80x24 and 120x40 with four seats (the seats panel is taller) and two
(the error line keeps two rows under it: ``SpanishMainScreen.ERROR_ROWS_AT_LEAST``)."""


@pytest.mark.parametrize("seats", (3, 4))
@pytest.mark.parametrize("cols,rows", CROWDED_SIZES)
def test_with_three_and_four_fleets_every_ship_is_labelled(
    cols: int, rows: int, seats: int
) -> None:
    """Crowded harbours (three and four fleets at the start): no ship's code is left out; each
    is placed further out or shortened (``pdp`` → ``pd``, a form no other code starts with),
    never over an island's name or another label (the names stay whole: see above)."""
    for seed in range(1, 41):
        view = start(seed, seats)
        shown = R.sea_map(view, cols, rows).plain.splitlines()[:-1]
        found = words(shown)
        where = f"seed {seed}, {seats} seats, {cols}x{rows}"
        for isl in view.islands:
            assert {isl.id, isl.id.removeprefix("isla-")} & found, f"{where}: {isl.id} covered"
        placed = placed_codes(view, found)
        missing = sorted(set(ship_codes(view)) - set(placed))
        assert not missing, f"{where}: no label for {missing}: {found}"
        runs = [w for row in shown for w in re.findall(r"[⌂a-z0-9●-]+", row)]
        for label in placed.values():
            assert runs.count(label) == 1, f"{where}: {label!r} is not one whole word: {runs}"


def test_a_short_code_belongs_to_one_ship_only() -> None:
    """A short form is never the start of another ship's code (it would read as hers)."""
    for seats in (2, 3, 4):
        for seed in range(1, 41):
            view = start(seed, seats)
            codes, shorts = ship_codes(view), short_codes(view)
            for ship, code in codes.items():
                short = shorts.get(ship, "")
                if short:
                    others = [c for s, c in codes.items() if s != ship]
                    assert len(short) < len(code) and code.startswith(short)
                    assert not any(c.startswith(short) for c in others), (short, others)


@pytest.mark.parametrize("seed", (1, 8))
@pytest.mark.parametrize("size", ((80, 24), (120, 40)))
async def test_four_fleets_on_the_screen_every_ship_is_labelled(
    size: tuple[int, int], seed: int
) -> None:
    """The map as the table screen draws it, four fleets in their harbours (at 80x24 seed 1
    left ``pdp`` out before, seed 8 ``pl2``): every island name whole, every ship labelled."""
    from shipwreck.tui import ShipwreckApp
    from shipwreck.tui.spanish_main.screen import SeaMap

    lobby = Lobby(seed=1)
    specs = [SeatSpec("human")] + [SeatSpec("empty")] * 3
    table = lobby.create_table("spanish_main", specs, creator="ann", seed=seed)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        sea = app.screen.query_one("#sea", SeaMap)
        assert (sea.content_size.width, sea.content_size.height) in CROWDED_SIZES
        rows = ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]
        box = sea.region
        shown = [r[box.x : box.right] for r in rows[box.y : box.bottom - 1]]
        view = table.view(0)
        assert isinstance(view, SpanishMainView)
        found = words(shown)
        for isl in view.islands:
            assert {isl.id, isl.id.removeprefix("isla-")} & found, f"{isl.id} covered: {shown}"
        assert set(placed_codes(view, found)) == set(ship_codes(view)), shown
