"""The Textual app, driven with Textual's pilot: flows and snapshots (fixed seeds and sizes)."""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import pytest
from textual._compositor import Compositor
from textual.app import ComposeResult
from textual.geometry import Region, Size
from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import (
    BOTS,
    SIZE,
    lobby_with_table,
    open_a_fight,
    play_my_seat_to_end,
    play_to_end,
    type_line,
)

from shipwreck.lang import format_command
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.board import Board, Spot
from shipwreck.tui.lifeboat.render import Boat
from shipwreck.tui.lifeboat.screen import EndScreen, TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.too_small import TooSmallScreen
from shipwreck.tui.widgets import CommandLine, EventLog

from sshclient import eventually

# ------------------------------------------------------------------ flows


async def test_create_a_table_from_the_lobby_and_take_a_turn() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann", "SHA256:test")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "new")
        assert isinstance(app.screen, TableScreen)
        table = app.screen.table
        seat = app.screen.seat
        assert seat is not None and table.seats[seat].player == "ann"
        before = len(table.commands)
        view = table.view(seat)
        line = format_command(view.choices[0])
        await type_line(pilot, line)
        assert (seat, line) in table.commands[before:]


async def test_a_bad_command_shows_one_line_and_changes_nothing() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        before = list(table.commands)
        await type_line(pilot, "rob captian knfe")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        error = screen.panel_text("error")
        # The typed line, and under it a caret at the unknown word, then why and the fix.
        shown, caret = error.split("\n")
        assert shown == "rob captian knfe"
        assert caret.index("^") == shown.index("captian")
        assert "did you mean 'rob captain knife'?" in caret and "column" not in error
        assert table.commands == before


async def test_join_a_fight() -> None:
    lobby, table = lobby_with_table(seed=22)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        seat = app.screen.seat
        assert seat is not None
        pick = random.Random(9)
        for _ in range(600):  # until a fight between others asks ann to join
            assert not table.over, "the game ended before ann could join a fight"
            view = table.view(seat)
            f = view.fight
            if f is not None and view.me not in f.attackers + f.defenders:
                break
            await type_line(pilot, format_command(pick.choice(list(view.choices))))
        else:
            raise AssertionError("no fight to join")
        await type_line(pilot, "join defender")
        assert view.me in (table.view(seat).fight or view.fight).defenders  # type: ignore[union-attr]


async def test_finish_a_game_shows_the_end_screen() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        assert isinstance(app.screen, EndScreen)
        assert table.over


async def test_too_small_terminal_shows_a_notice_and_ignores_keys() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(70, 20)) as pilot:
        assert isinstance(app.screen, TooSmallScreen)
        before = list(table.commands)
        await type_line(pilot, "rest")
        assert table.commands == before
        assert "80×24" in str(app.screen.query_one("#too-small").render())
        notices = [s for s in app.screen_stack if isinstance(s, TooSmallScreen)]
        assert len(notices) == 1, f"one notice, on top of the table: {app.screen_stack}"
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await type_line(pilot, format_command(table.view(app.screen.seat).choices[0]))
        assert len(table.commands) > len(before)


async def test_an_80x24_terminal_shows_every_panel_and_plays() -> None:
    """80×24 is the smallest size the app accepts, so the table must work there: every panel
    on screen at once (nothing scrolled away), a log of a few lines, and typing plays."""
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.has_class("-compact")
        seat = screen.seat
        assert seat is not None
        await open_a_fight(pilot, table, seat)  # the busiest the screen gets: cards and a fight
        await pilot.pause()
        assert screen.max_scroll_y == 0, "part of the table is scrolled out of sight"
        for wid in ("title", "boat", "me", "nav", "fight", "log", "prompt", "error", "command"):
            region = screen.panel_region(wid)
            assert region and region.bottom <= 24, f"{wid} is not all on screen"
        assert screen.query_one("#log", EventLog).size.height >= 3
        boat = screen.panel_region("boat")
        assert boat is not None
        width = boat.width
        view = table.view(seat)
        shown = "\n".join(line.plain[:width] for line in Boat(view, compact=True).lines(width))
        for c in view.characters:  # (narrow: a character is the id typed in commands)
            assert f" {c.id} " in shown or f" {c.id}◂" in shown, f"{c.id} is cut in the boat"
        before = len(table.commands)
        await type_line(pilot, format_command(table.view(seat).choices[0]))
        assert len(table.commands) > before
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.has_class("-compact")
        assert screen.panel_region("seats")


async def test_page_keys_read_back_the_log_without_losing_the_command_line() -> None:
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        seat = screen.seat
        assert seat is not None
        log = screen.query_one("#log", EventLog)
        while log.max_scroll_y < 3:  # play until the log holds more than a view
            await type_line(pilot, format_command(table.view(seat).choices[0]))
        assert log.scroll_offset.y == log.max_scroll_y and log.border_subtitle == "PgUp: earlier"
        await pilot.press("pageup")
        await pilot.pause()
        back = log.scroll_offset.y
        assert back < log.max_scroll_y
        assert log.border_subtitle == f"↓ {log.max_scroll_y - back} newer (PgDn, End)"
        assert app.focused is screen.query_one("#command")  # typing still goes to the line
        lines = len(log.texts)
        await type_line(pilot, format_command(table.view(seat).choices[0]))
        assert len(log.texts) > lines  # my own move: the log shows what came of it (s26)
        assert log.scroll_offset.y == log.max_scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_offset.y < log.max_scroll_y
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert log.scroll_offset.y == log.max_scroll_y
        await type_line(pilot, format_command(table.view(seat).choices[0]))
        assert log.scroll_offset.y == log.max_scroll_y  # at the end, it follows again


async def test_a_new_log_line_repaints_the_log_without_arranging_the_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every session at a table gets every line: arranging its whole screen for each (as
    moving the hidden scrollbar did) was a tenth of what a say cost the server."""
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        seat = screen.seat
        assert seat is not None
        log = screen.query_one("#log", EventLog)
        while log.max_scroll_y < 3:  # the log scrolls with each new line from here on
            await type_line(pilot, format_command(table.view(seat).choices[0]))
        arranged: list[bool] = []
        arrange = Compositor._arrange_root

        def counted(self: Compositor, *args: Any, **kw: Any) -> Any:
            arranged.append(True)
            return arrange(self, *args, **kw)

        monkeypatch.setattr(Compositor, "_arrange_root", counted)
        for i in range(3):
            assert table.submit_text(seat, f"say line {i}").ok
            await pilot.pause()
            rows = log.scrollable_content_region.height
            last = log.render_line(rows - 1).text  # the bottom row the log shows
            assert f"line {i}" in last
        assert log.scroll_offset.y == log.max_scroll_y
        assert arranged == []


async def test_lobby_updates_on_every_screen_without_refresh() -> None:
    lobby = Lobby(seed=1)
    a, b = ShipwreckApp(lobby, "ann"), ShipwreckApp(lobby, "bob")
    async with a.run_test(size=SIZE) as pa, b.run_test(size=SIZE) as pb:
        await type_line(pa, "say hello from ann")
        await pb.pause()
        chat = b.screen.query_one("#lobby-chat", EventLog)
        assert any("hello from ann" in line.plain for line in chat.texts)


def test_the_lobby_lists_open_tables_first_and_counts_what_does_not_fit() -> None:
    from rich.console import Console

    from shipwreck.tui.lobby.screen import tables_panel

    rows = [
        (str(i), "lifeboat", "HBBBBB", "1", ("over", "running", "open")[i % 3], "ann")
        for i in range(1, 13)
    ]
    console = Console(width=80, record=True)
    console.print(tables_panel(rows, height=8))
    shown = [line.split() for line in console.export_text().splitlines() if line.strip()]
    assert shown[0][:2] == ["id", "game"]
    listed = [line for line in shown[2:] if line[0].isdigit()]
    assert [line[4] for line in listed] == ["open"] * 4 + ["running"]  # 6 rows: 5 and a count
    assert shown[-1] == ["…", "7", "more"]
    console = Console(width=80, record=True)
    console.print(tables_panel([], height=8))
    assert "no tables yet" in console.export_text()


# ------------------------------------------------------------------ snapshots


def test_snapshot_lobby(snap_compare: Any) -> None:
    lobby, _ = lobby_with_table()
    lobby.say("bob", "anyone for a game?")
    assert snap_compare(ShipwreckApp(lobby, "bob", "SHA256:snapshot"), terminal_size=SIZE)


def test_snapshot_table_two_seats_differ(snap_compare: Any) -> None:
    """The same moment seen by ann and by bob: only their own panel differs."""
    lobby, table = lobby_with_table(humans=("ann", "bob"))
    ann = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    bob = ShipwreckApp(lobby, "bob", "SHA256:bob", open_table=table.id)
    assert snap_compare(ann, terminal_size=SIZE)
    assert snap_compare(bob, terminal_size=SIZE)


def snapshot_open_fight(snap_compare: Any, size: tuple[int, int]) -> bool:
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)

    async def run_before(pilot: Pilot[Any]) -> None:
        seat = app.screen.seat
        assert seat is not None
        await open_a_fight(pilot, table, seat)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


def test_snapshot_open_fight(snap_compare: Any) -> None:
    assert snapshot_open_fight(snap_compare, SIZE)


def test_snapshot_open_fight_at_80x24(snap_compare: Any) -> None:
    """The compact layout (see SeatScreen.COMPACT_BELOW)."""
    assert snapshot_open_fight(snap_compare, (80, 24))


def test_snapshot_end_screen(snap_compare: Any) -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)

    async def run_before(pilot: Pilot[Any]) -> None:
        seat = app.screen.seat
        assert seat is not None
        await play_to_end(pilot, table, seat)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_snapshot_too_small(snap_compare: Any) -> None:
    lobby, table = lobby_with_table()
    assert snap_compare(ShipwreckApp(lobby, "ann", open_table=table.id), terminal_size=(60, 20))


async def test_coming_back_lands_in_your_seat_with_the_log() -> None:
    lobby, table = lobby_with_table(humans=("ann", "bob"))  # bob keeps the game going
    first = ShipwreckApp(lobby, "ann")
    async with first.run_test(size=SIZE):
        assert isinstance(first.screen, TableScreen)
    # at a table of two, a player away is not on autopilot: their clock runs (issue 16)
    assert not table.seats[0].autopilot and not table.seats[0].connected
    assert not table.over
    again = ShipwreckApp(lobby, "ann")
    async with again.run_test(size=SIZE):
        screen = again.screen
        assert isinstance(screen, TableScreen) and screen.seat == 0
        assert not table.seats[0].autopilot and table.seats[0].connected  # back on reconnect
        shown = [line.plain for line in screen.query_one("#log", EventLog).texts]
        assert len(shown) >= len(table.log(0)) - 1


async def test_a_second_session_takes_the_seat_and_the_first_only_watches() -> None:
    lobby, table = lobby_with_table()
    one, two = ShipwreckApp(lobby, "ann"), ShipwreckApp(lobby, "ann")
    async with one.run_test(size=SIZE) as p1:
        assert isinstance(one.screen, TableScreen) and one.screen.seat == 0
        async with two.run_test(size=SIZE):
            await p1.pause()
            await p1.pause()
            assert isinstance(two.screen, TableScreen) and two.screen.seat == 0
            assert isinstance(one.screen, TableScreen) and one.screen.seat is None
            before = list(table.commands)
            await type_line(p1, "rest")
            assert table.commands == before  # the watching session cannot play


async def test_the_table_shows_the_countdown_and_the_autopilot() -> None:
    kinds = ("supply", "turn", "keep", "respond", "fight", "navigate", "thirst", "overboard")
    lobby = Lobby(seed=1, timers=dict.fromkeys(kinds, 45))
    seats = [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", b) for b in BOTS[:4]]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=11)
    assert table.sit(1, "bob") is None
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        table.set_connected("bob", False)  # away: his clock runs, ann's does not wait for him
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert "bob (away)" in screen.panel_text("seats")
        table.set_connected("ann", False)  # (as the owner may think for a moment: issue 21)
        await pilot.pause()
        assert "ann (away)" not in screen.panel_text("seats"), "she is here, looking at it"
        assert "bob (away)" in screen.panel_text("seats")
        table.set_connected("ann", True)
        assert table.view(0).choices, "ann has a decision, so a timer runs for her"
        assert "s to decide" in screen.panel_text("title")  # (every size shows the title)
        table._autopilot(1, True)  # bob's misses have put him on autopilot
        table._notify()
        await pilot.pause()
        assert "bob (autopilot)" in screen.panel_text("seats")


async def test_going_back_to_the_lobby_replaces_the_table_screen() -> None:
    """One screen per session: a table takes the lobby's place and the lobby the table's."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, TableScreen)  # coming back: straight to the seat
        await type_line(pilot, "lobby")
        assert isinstance(app.screen, LobbyScreen)
        assert not any(isinstance(s, TableScreen) for s in app.screen_stack)
        await type_line(pilot, f"open {table.id}")
        assert isinstance(app.screen, TableScreen)
        assert not any(isinstance(s, LobbyScreen) for s in app.screen_stack)


async def test_an_event_log_frames_its_rows_as_textual_would() -> None:
    """The log draws the rows between its borders itself and keeps them (a new line then
    draws one row, not all): every row must equal what Textual's own styling draws, as lines
    arrive, wrap and scroll, paged back, and with the title and the position hint."""
    from rich.text import Text
    from textual.app import App
    from textual.widget import Widget

    class One(App[None]):
        CSS = "EventLog { border: round $primary; height: 8; }"

        def compose(self) -> Any:
            yield EventLog(max_lines=30, page_keys="PgUp/PgDn")

    app = One()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        log.border_title = "log"

        def same_as_textual() -> None:
            crop = Region(0, 0, *log.outer_size)
            ours = log.render_lines(crop)
            assert log._edges is not None, "the log fell back to Textual's styling"
            log._styles_cache.clear()
            assert ours == Widget.render_lines(log, crop)

        for i in range(40):
            style = ("red", "bold cyan", "")[i % 3]
            log.write(Text.assemble((f"line {i} ", "green"), "long " * (i % 9), style=style))
            await pilot.pause()
            same_as_textual()
        log.page(-1)
        await pilot.pause()
        same_as_textual()
        assert "newer" in (log.border_subtitle or "")
        rows = [s.text for s in log.render_lines(Region(0, 0, 40, 8))]
        assert rows[0].startswith("╭─ log") and rows[-1].startswith("╰")
        log.page(1)
        log.write(Text("the end", style="bold"))  # a line's own style is kept
        await pilot.pause()
        same_as_textual()
        last = log.render_lines(Region(0, 6, 40, 1))[0]
        assert any(s.style and s.style.bold for s in last if "the end" in s.text)
        assert rows[1].startswith("│") and rows[1].endswith("│")


async def test_an_event_log_keeps_its_last_lines_wrapped_to_its_width() -> None:
    """A full log drops its oldest lines; long lines take several rows; the rows on screen are
    the newest, and a narrower log wraps every line again."""
    from textual.app import App

    class OneLog(App[None]):
        CSS = "EventLog { height: 6; }"

        def compose(self) -> ComposeResult:
            yield EventLog(max_lines=30)

    def shown(log: EventLog) -> list[str]:
        return [log.render_line(y).text.rstrip() for y in range(log.size.height)]

    app = OneLog()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        for i in range(50):
            log.write(f"line {i} " + ("long " * 12 if i % 5 == 0 else ""))
        await pilot.pause()
        assert [t.plain.split()[1] for t in log.texts] == [str(i) for i in range(20, 50)]
        width = log.scrollable_content_region.width
        wraps = [len(t.wrap(app.console, width)) for t in log.texts]
        assert log.rows == sum(wraps) and max(wraps) > 1
        assert log.first_row(log.texts.index(log.texts[-1])) == sum(wraps[:-1])
        assert shown(log)[-1] == "line 49" and any("line 45 long" in r for r in shown(log))
        await pilot.resize_terminal(20, 10)
        await pilot.pause()
        narrow = [len(t.wrap(app.console, 20)) for t in log.texts]
        assert log.rows == sum(narrow) > sum(wraps)
        assert shown(log)[-1] == "line 49"
        log.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert shown(log)[0] == "line 20 long long"


async def test_a_board_draws_its_panels_where_its_layout_puts_them() -> None:
    """A board is as tall as its lowest panel, pads and styles each panel, fills the gaps, and
    an update repaints only the rows of the panel that changed."""
    from textual.app import App

    class One(App[None]):
        with_bar = True
        CSS = "#boost { background: $boost; } #muted { color: $text-muted; }"

        def compose(self) -> Any:
            yield Board(self.layout, id="b")
            yield Static("as CSS draws a bar", id="boost")
            yield Static("and muted text", id="muted")

        def layout(self, size: Size) -> list[Spot]:
            width = size.width
            spots = [Spot("a", Region(0, 0, 10, 2), pad=1), Spot("b", Region(12, 0, 8, 3))]
            if self.with_bar:
                spots.append(Spot("bar", Region(0, 3, width, 1), pad=1, style="bar"))
            return spots

    app = One()
    async with app.run_test(size=(24, 8)) as pilot:
        board = app.query_one(Board)
        board.update("a", "first\nsecond\nthird")  # a third row does not fit in two
        board.update("b", "B")
        board.update("bar", "a bar")
        await pilot.pause()
        assert board.size.height == 4
        rows = [s.text for s in board.render_lines(Region(0, 0, 24, 4))]
        assert rows == [
            " first      B       " + " " * 4,
            " second     " + " " * 12,
            " " * 24,
            " a bar" + " " * 18,
        ]
        bar_style = board.render_lines(Region(0, 3, 24, 1))[0]._segments[0].style
        assert bar_style and bar_style != board.visual_style.rich_style
        assert bar_style.bgcolor == app.query_one("#boost").visual_style.rich_style.bgcolor
        muted = board.themed("text-muted")  # ("auto 60%": contrast with the background)
        assert muted.color == app.query_one("#muted").visual_style.rich_style.color
        dark = bar_style.bgcolor
        app.theme = "textual-light"  # the board's kept rows follow the new CSS
        await pilot.pause()
        bar_style = board.render_lines(Region(0, 3, 24, 1))[0]._segments[0].style
        assert bar_style and bar_style.bgcolor != dark
        assert bar_style.bgcolor == app.query_one("#boost").visual_style.rich_style.bgcolor
        assert board.spot("b") == Region(12, 0, 8, 3)
        repainted: list[Region] = []
        refresh = board.refresh
        board.refresh = lambda *regions, **kw: repainted.extend(regions) or refresh(*regions, **kw)  # type: ignore[method-assign]
        board.update("a", "first\nSECOND")
        assert repainted == [Region(0, 1, 10, 1)]
        assert board.render_lines(Region(1, 1, 6, 1))[0].text == "SECOND"
        app.with_bar = False
        board.relayout()
        await pilot.pause()
        assert board.size.height == 3 and board.spot("bar") is None
        assert board.content("bar") == "a bar"


def terminal_of_apps(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[str]]:
    """A pyte screen fed every frame the apps in this test write (Textual's headless driver
    made to say it is not headless, so frames are rendered to bytes), and the frames."""
    import pyte
    from textual.drivers.headless_driver import HeadlessDriver

    terminal = pyte.Screen(*SIZE)
    stream = pyte.Stream(terminal)
    frames: list[str] = []

    def write(self: HeadlessDriver, data: str) -> None:
        frames.append(data)
        stream.feed(data)

    monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
    monkeypatch.setattr(HeadlessDriver, "write", write)
    return terminal, frames


async def test_partial_repaints_draw_only_their_rows_and_match_a_full_repaint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every frame a session is sent, played into a terminal, leaves the screen Textual itself
    would draw in full; and a new log line no longer asks the board under it (the prompt) for
    its lines (Textual asked every widget directly on the screen for all of them), nor the
    screen behind the log for its background (none of it shows there). And each update's
    text (``cursor_moves``: its cursor moves written as text) is the very text Textual's own
    ``render_segments`` makes."""
    from io import StringIO

    import pyte
    from rich.console import Console
    from textual._compositor import ChopsUpdate

    from shipwreck.tui._textual import FENCE, compositor

    assert FENCE.active("cursor_moves")
    moves: list[int] = []

    def both(self: ChopsUpdate, console: Any) -> str:
        mine = compositor._render_segments(self, console)
        assert mine == compositor.textual_render_segments(self, console)
        moves.append(mine.count("\x1b["))
        return mine

    monkeypatch.setattr(ChopsUpdate, "render_segments", both)
    terminal, _ = terminal_of_apps(monkeypatch)
    asked: list[str | None] = []
    render_lines = Board.render_lines

    def counted(self: Board, crop: Region) -> Any:
        asked.append(self.id)
        return render_lines(self, crop)

    monkeypatch.setattr(Board, "render_lines", counted)
    screen_lines = TableScreen.render_lines

    def screen_counted(self: TableScreen, crop: Region) -> Any:
        asked.append("screen")
        return screen_lines(self, crop)

    monkeypatch.setattr(TableScreen, "render_lines", screen_counted)

    def full_repaint(app: ShipwreckApp) -> list[str]:
        """The whole screen as Textual's own compositor draws it."""
        with monkeypatch.context() as m:
            m.setattr(Compositor, "_render_chops", compositor.textual_render_chops)
            update = app.screen._compositor.render_full_update()
        out = StringIO()
        Console(file=out, width=SIZE[0], height=SIZE[1], force_terminal=True).print(update, end="")
        screen = pyte.Screen(*SIZE)
        pyte.Stream(screen).feed(out.getvalue())
        return list(screen.display)

    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        seat = app.screen.seat
        assert seat is not None
        rng = random.Random(3)
        await pilot.pause()  # the first frame, in full
        for i in range(12):
            asked.clear()
            assert table.submit_text(seat, f"say line {i}").ok
            await pilot.pause()
            assert "foot" not in asked  # the say repainted rows above the prompt only
            assert "screen" not in asked  # (the log and the chat cover its rows)
            choices = table.view(seat).choices
            if choices:
                await type_line(pilot, format_command(rng.choice(list(choices))))
            assert list(terminal.display) == full_repaint(app)
        assert any("line 11" in row for row in terminal.display)
    assert len(moves) > 10 and sum(moves) > 100


async def test_a_typed_key_repaints_only_the_command_lines_text_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Echoing a key sends the row of text only (its frame is a fifth of what redrawing the
    whole bordered line was); the line's border stays on screen around what was typed."""
    import re

    terminal, frames = terminal_of_apps(monkeypatch)
    lobby, table = lobby_with_table(seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#command")
        text_row = line.content_region.y
        for key in "say":
            frames.clear()
            await pilot.press(key)
            await pilot.pause()
            moved_to = {
                int(row) - 1 for row, _ in re.findall(r"\x1b\[(\d+);(\d+)H", "".join(frames))
            }
            assert moved_to == {text_row}, f"{key!r} repainted rows {sorted(moved_to)}"
        assert "say" in terminal.display[text_row]
        border = line.region.y
        assert terminal.display[border] == terminal.display[text_row + 1].replace("▁", "▔")
        assert "▔" in terminal.display[border]


async def test_changes_and_echoes_are_drawn_at_once_not_by_textuals_update_timer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What another player said, and the keys I type, reach my terminal within a turn or two of
    the event loop: drawn by ``draw_now``, not four turns later by the screen's update timer
    (under load each turn is a wait behind every other session's work). Keys that come in one
    packet are drawn in one frame, and Enter runs the line in the same turn."""
    from textual import events
    from textual.screen import Screen

    terminal, frames = terminal_of_apps(monkeypatch)
    ticks: list[Screen[Any]] = []
    on_timer_update = Screen._on_timer_update

    def ticked(self: Screen[Any]) -> None:
        ticks.append(self)
        on_timer_update(self)

    monkeypatch.setattr(Screen, "_on_timer_update", ticked)

    async def turns_until(text: str, limit: int = 4) -> int:
        for turn in range(limit + 1):
            if any(text in row for row in terminal.display):
                return turn
            await asyncio.sleep(0)  # (not pilot.pause(): it runs the update timer's work)
        raise AssertionError(f"{text!r} not on screen after {limit} turns")

    lobby, table = lobby_with_table(("ann", "bob"), seed=21)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bob = table.seat_of_player("bob")
        assert bob is not None
        ticks.clear()
        assert table.submit_text(bob, "say ahoy there").ok
        assert await turns_until("ahoy there") <= 2
        frames.clear()
        for key in "say hi":  # one packet: the driver hands them over together
            app.post_message(events.Key("space" if key == " " else key, key))
        assert await turns_until("say hi") <= 3
        assert len(frames) == 1, "keys that came together are drawn once"
        app.post_message(events.Key("enter", "\r"))
        ann = table.seat_of_player("ann")
        assert ann is not None
        # (table chat, in the chat panel like a spectator's: "ann (stephen): hi")
        assert await turns_until(f"ann ({table.seat_name(ann)}): hi") <= 3
        assert app.screen.query_one("#command", CommandLine).value == ""
        assert ticks == [], "drawn by Textual's update timer"
        # Behind a modal screen, a change goes the way Textual draws background screens.
        await pilot.press("f1")
        await pilot.pause()
        assert table.submit_text(bob, "say below").ok
        await pilot.press("escape")
        await pilot.pause()
        assert any("below" in row for row in terminal.display)


async def test_a_screen_left_for_another_is_freed() -> None:
    """Opening a table from the lobby frees the lobby screen, and going back to the lobby
    frees the table screen. Textual kept them: a screen's task kept whoever opened it
    (the fence's ``pump_starter``), and a screen keeps the last message it handled, whose sender was
    whoever made the change (here bob's lobby command line, when he joined ann's table)."""
    import gc
    import weakref

    lobby = Lobby(seed=1)
    ann, bob = ShipwreckApp(lobby, "ann"), ShipwreckApp(lobby, "bob")
    async with ann.run_test(size=SIZE) as pilot, bob.run_test(size=SIZE) as bob_pilot:
        await pilot.pause()
        lobbies = [weakref.ref(ann.screen), weakref.ref(bob.screen)]
        await type_line(pilot, "new 6 free free free free free")
        assert isinstance(ann.screen, TableScreen)
        table_screen = weakref.ref(ann.screen)
        await type_line(bob_pilot, "join 1")
        assert isinstance(bob.screen, TableScreen)
        gc.collect()
        assert [ref() for ref in lobbies] == [None, None], "a lobby screen is still held"
        await type_line(pilot, "lobby")
        assert isinstance(ann.screen, LobbyScreen)
        # The screen's 1 s countdown timer is cancelled, and asyncio keeps a cancelled timer's
        # context (and so the screen) until its time comes: freed within a second, then.

        def freed() -> bool:
            gc.collect()
            return table_screen() is None

        await eventually(freed, timeout=3.0, what="the table screen is freed")
        assert ann.screen.query_one("#command", CommandLine) is not None


async def test_textual_patches_keep_strips_and_styles_working() -> None:
    """The lazy strip caches still cache, strips still divide, two apps share the rules
    parsed from one CSS and the theme's tokens, and signals still call their subscribers.
    (Partial repaints: the test above.)"""
    from rich.segment import Segment
    from textual.signal import Signal
    from textual.strip import Strip

    from shipwreck.tui._textual import FENCE

    assert all(FENCE.active(name) for name in ("strip_caches", "strip_divide", "css_shared"))
    assert FENCE.active("signal_tables")
    strip = Strip([Segment("hello "), Segment("world")])
    assert strip.crop(0, 5).text == "hello"
    assert strip.crop(0, 5) is strip.crop(0, 5)
    assert strip.crop(6, 11).text == "world"
    pieces = strip.divide([3, 8, 11])
    assert [p.text for p in pieces] == ["hel", "lo wo", "rld"]
    assert [p.cell_length for p in pieces] == [3, 5, 3]
    assert strip.divide([11]) == [strip] and strip.divide([11, 20]) == [strip]
    lobby, _ = lobby_with_table(("ann", "bob"))
    first, second = ShipwreckApp(lobby, "ann"), ShipwreckApp(lobby, "bob")
    async with first.run_test(size=SIZE), second.run_test(size=SIZE):
        rules = {id(r) for r in first.stylesheet.rules}
        assert rules and rules == {id(r) for r in second.stylesheet.rules}
        assert str(first.screen.query_one("#log").styles.border_top[0]) == "round"
        tokens = first.stylesheet._variable_tokens
        assert tokens["primary"] and tokens is second.stylesheet._variable_tokens
        heard: list[str] = []
        signal: Signal[str] = Signal(first.screen, "test")
        with pytest.raises(TypeError):  # the shared empty table of subscribers stays empty
            signal._subscriptions[first.screen] = []
        signal.subscribe(first.screen, heard.append, immediate=True)
        quiet: Signal[str] = Signal(first.screen, "quiet")
        signal.publish("ahoy")
        quiet.publish("nobody listens")
        assert heard == ["ahoy"] and not quiet._subscriptions
        log = first.screen.query_one("#log")
        assert "_timers" not in vars(log)  # no timer yet: no set of timers
        fired: list[str] = []
        log.set_timer(0.01, lambda: fired.append("tick"))
        await eventually(lambda: fired != [], timeout=3.0, what="the timer fired")
        assert fired == ["tick"] and "_timers" in vars(log)


async def test_a_lobby_opened_from_a_table_lists_the_tables_at_once() -> None:
    """A lobby screen that takes a table's place draws its tables in the room it has: it is
    laid out after its first refresh, and no resize follows (it showed only '… 5 more')."""
    lobby, table = lobby_with_table()
    for seed in range(4):
        lobby.create_table("lifeboat", [SeatSpec("human"), *[SeatSpec("bot", "random")] * 3],
                           creator=f"p{seed}", seed=seed)  # fmt: skip
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "lobby")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        from rich.console import Console

        console = Console(width=118, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        console.print(screen.query_one("#board", Board).content("tables"))
        rows = console.export_text().splitlines()
        assert not any("more" in row for row in rows), rows
        listed = [row.split()[0] for row in rows[2:] if row.strip()]
        assert listed[-1] == "seats:", rows  # (the seat letters explained, under the list)
        assert sorted(listed[:-1]) == sorted(str(t.id) for t in lobby.tables.values())
