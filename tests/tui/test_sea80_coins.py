"""The coins a Spanish Main seat knows, at 80x24: every coin that fits is shown whole, in the
compact form (``isla-5 #3=4 #7=2``), and the rest are counted with where to see them (F3);
never a coin value this seat's own view does not show (play-test: ``+2 more: F3``)."""

from __future__ import annotations

import re

import pytest
from sea_helpers import both_explored, screen_rows, sm_view, two_humans

from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import SpanishMainScreen

COIN = re.compile(r"#(\d+)=(\d+)")


def known_pairs(view: R.SpanishMainView) -> set[tuple[str, str]]:
    """Every (coin id, value) this seat's own view shows."""
    coins = [c for i in view.islands for c in i.coins] + [c for s in view.ships for c in s.cargo]
    return {(str(c.id), str(c.value)) for c in coins if c.value is not None}


@pytest.mark.parametrize("size", ((80, 24), (120, 40)))
async def test_my_known_coins_show_whole_and_the_rest_are_counted(size: tuple[int, int]) -> None:
    """SM-20 (explored coins are seen by their explorer only): the panel lists this seat's
    known coins whole; at 80x24 as many as fit, then '+N more: F3' counting exactly the rest."""
    lobby, table = two_humans()
    both_explored(table)
    mine = sm_view(table, 0)
    known = known_pairs(mine)
    theirs = known_pairs(sm_view(table, 1)) - known
    assert known and theirs, "each seat should know coins the other does not"
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SpanishMainScreen)
        rows = screen_rows(app)
        head = next(i for i, r in enumerate(rows) if "coins you know" in r)
        panel = rows[head + 1 : head + (2 if size == (80, 24) else 5)]
        text = " ".join(panel)
        shown = set(COIN.findall(text))
        assert shown <= known, f"a coin this seat does not know is shown: {shown - known}"
        assert not (set(COIN.findall("\n".join(rows))) & theirs)
        assert shown, f"no coin shown whole: {panel}"
        more = re.search(r"\+(\d+) more: F3", text)
        if size == (120, 40):
            assert shown == known and more is None, panel
        else:
            assert len(shown) + (int(more.group(1)) if more else 0) == len(known), panel


def test_a_narrow_panel_keeps_whole_coins_and_counts_the_rest() -> None:
    """Packed with joins: a place's coins fill the line one by one, never cut."""
    lobby, table = two_humans()
    both_explored(table)
    view = sm_view(table, 0)
    tokens = R.compact_coins(view)
    assert len(tokens) == len(known_pairs(view))
    first = tokens[0][0].plain
    assert re.fullmatch(r"[a-z0-9-]+ #\d+=\d+", first), first
    for width in (len(first) + len(" · +9 more: F3"), 32, 44):
        line = R.Packed(R.Text("h"), [t for t, _ in tokens], 1, "F3", joins=[j for _, j in tokens])
        row = line.pack(width)[0].plain
        assert len(row) <= width, row
        more = re.search(r"\+(\d+) more: F3$", row)
        count = len(COIN.findall(row)) + (int(more.group(1)) if more else 0)
        assert count == len(tokens), (width, row)
        assert COIN.findall(row), (width, row)
