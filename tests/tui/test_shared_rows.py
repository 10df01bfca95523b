"""Rows drawn once for every session that shows them alike (issue 21: each change at a table
was drawn again in full by every session there).

A board draws a panel of :class:`Rows` line by line, each line once for every session (the
boat was the costliest panel of a move, and five of its six lines are the same at every seat);
the public panels (the fight, the cards) are drawn once for the seats whose key is the same;
a log draws each line once for every log of its width."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from tui_helpers import lobby_with_table

from shipwreck.tui import ShipwreckApp
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.lifeboat.render import Boat
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.rows import Rows
from shipwreck.tui.widgets import EventLog

SIZE = (120, 40)


class Lines(Rows):
    def __init__(self, *lines: Text) -> None:
        self._lines = lines

    def lines(self, width: int) -> list[Text]:
        return [line.copy() for line in self._lines]


def whole(board: Board, spot: Spot, content: object) -> list[object]:
    """The panel's rows drawn the way any renderable is, all at once."""
    return board._draw_rows(spot, content)  # type: ignore[arg-type]


async def test_rows_drawn_line_by_line_are_the_rows_drawn_whole() -> None:
    lobby, table = lobby_with_table(humans=("ann", "bob"), seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.screen.query_one("#board", Board)
        view = table.view(0)
        for compact in (False, True):
            boat = Boat(view, compact)  # type: ignore[arg-type]
            for spot in board._spots.values():
                if spot.name == "boat":
                    assert board._draw_lines(spot, boat) == whole(board, spot, boat)
        long = Text("x" * 300, style="bold")  # cut at the edge, as drawn whole
        short = Lines(Text("a", style="red"), long)  # and blank rows below the last line
        for pad, style in ((0, ""), (1, "bar"), (2, "muted")):
            spot = Spot("test", Region(0, 0, 50, 4), pad=pad, style=style)
            assert board._draw_lines(spot, short) == whole(board, spot, short)
        broken = Lines(Text("two\nrows"))  # a line break: drawn whole
        assert board._draw_lines(Spot("test", Region(0, 0, 50, 4)), broken) is None


async def test_the_boats_lines_are_drawn_once_for_the_seats_that_show_them_alike() -> None:
    lobby, table = lobby_with_table(humans=("ann", "bob"), seed=21)
    apps = [ShipwreckApp(lobby, who, open_table=table.id) for who in ("ann", "bob")]
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(app.run_test(size=SIZE)) for app in apps]
        await pilots[-1].pause()
        screens = [app.screen for app in apps]
        assert all(isinstance(s, TableScreen) for s in screens)
        boats = [s.query_one("#board", Board)._rows["boat"] for s in screens]
        mine = {table.view(s.seat).me for s in screens}  # type: ignore[attr-defined]
        same = [i for i, row in enumerate(boats[0]) if row is boats[1][i]]
        texts = [row.text for row in boats[0]]
        differ = [i for i in range(len(texts)) if i not in same]
        # Only the two players' own lines (marked "◂" at their seat) are drawn apart.
        assert len(differ) == 2, texts
        assert all(any(m in texts[i] for m in mine) for i in differ)
        assert len(same) == len(texts) - 2


@pytest.mark.parametrize("width", [80, 120])
async def test_a_shared_line_is_drawn_for_each_width_apart(width: int) -> None:
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(width, 40)) as pilot:
        await pilot.pause()
        rows = app.screen.query_one("#board", Board)._rows["boat"]
        assert {row.cell_length for row in rows} == {width * 2 // 3}


async def test_the_cards_are_drawn_once_for_the_seats_whose_view_of_them_is_the_same() -> None:
    """The navigation panel is a `SharedRender` keyed on all it draws: seats that see the
    same cards and offers share its rows; a seat with an offer of its own has rows of its own
    (so nothing one seat may see reaches another's panel)."""
    lobby, table = lobby_with_table(humans=("ann", "bob", "cid"), seed=21)
    apps = [ShipwreckApp(lobby, who, open_table=table.id) for who in ("ann", "bob", "cid")]
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(app.run_test(size=SIZE)) for app in apps]
        await pilots[-1].pause()
        screens = [app.screen for app in apps]
        navs = [s.query_one("#board", Board)._rows["nav"] for s in screens]
        views = [table.view(s.seat) for s in screens]  # type: ignore[attr-defined]
        seen = [(v.supply_offer, v.drawn) for v in views]  # type: ignore[attr-defined]
        pairs = [(a, b) for a in range(3) for b in range(a + 1, 3)]
        assert any(seen[a] == seen[b] for a, b in pairs)  # (the seats without an offer)
        for a, b in pairs:
            assert (navs[a] is navs[b]) == (seen[a] == seen[b]), (a, b, seen)


async def test_a_line_of_the_log_is_drawn_once_for_the_logs_that_show_it_alike() -> None:
    lobby, table = lobby_with_table(humans=("ann", "bob"), seed=21)
    apps = [ShipwreckApp(lobby, who, open_table=table.id) for who in ("ann", "bob")]
    async with AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(app.run_test(size=SIZE)) for app in apps]
        await pilots[-1].pause()
        assert table.submit_text(0, "say ahoy there").ok
        for pilot in pilots:
            await pilot.pause()
        logs = [app.screen.query_one("#log", EventLog) for app in apps]
        said = [
            [row for row in log.render_lines(Region(0, 0, *log.size)) if "ahoy there" in row.text]
            for log in logs
        ]
        assert len(said[0]) == len(said[1]) == 1
        assert said[0][0] is said[1][0]


class TwoLogs(App[None]):
    CSS = "EventLog { border: round white; height: 6; } #wide { width: 72; }"

    def compose(self) -> ComposeResult:
        yield EventLog(id="wide")


@pytest.mark.parametrize(("before", "after"), [(72, 42), (42, 72)])
async def test_a_log_that_changes_width_draws_its_lines_as_a_new_log_of_that_width(
    before: int, after: int
) -> None:
    """A log is drawn at its new width before it hears of the resize (Textual posts ``Resize``
    after the repaint), so for a moment it draws lines wrapped at its old width. Those rows
    were kept for every log of the *new* width: a narrowed log then looked for a second row of
    a line that had one, and the session ended with an internal error (a CI run, over SSH)."""
    line = Text("round 1 begins: " + "word " * 10)  # one row at 70 columns, two at 40
    app = TwoLogs()
    async with app.run_test(size=(100, 30)) as pilot:
        log = app.query_one("#wide", EventLog)
        log.styles.width = before
        await pilot.pause()
        log.write(line)
        await pilot.pause()
        log.styles.width = after
        await pilot.pause()
        fresh = EventLog(id="fresh")
        fresh.styles.width = after
        await app.mount(fresh)
        fresh.write(line)
        await pilot.pause()
        assert log.rows == fresh.rows == (2 if after < before else 1)
        drawn = [log.render_lines(Region(0, 0, *log.size)) for log in (log, fresh)]
        assert [row.text for row in drawn[0]] == [row.text for row in drawn[1]]
