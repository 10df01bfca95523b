"""The log follows new lines across resizes (play-test problem 4): a log that was at its newest
line before the terminal shrinks is at its newest line after, and keeps following."""

from __future__ import annotations

from shipwreck.games.spanish_main.commands import EndTurn
from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.spanish_main.screen import SpanishMainScreen
from shipwreck.tui.widgets import EventLog


def sm_table() -> tuple[Lobby, Table]:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    assert table.sit(1, "bob") is None
    return lobby, table


def at_end(log: EventLog) -> bool:
    return log.max_scroll_y > 0 and log.scroll_offset.y == log.max_scroll_y


async def test_the_log_keeps_following_while_the_terminal_shrinks() -> None:
    """200x60 -> 120x40 -> 80x24 (and back) while turns end: each time the log shows the
    newest line and no "newer" hint; a reader who paged back is not moved by a resize."""
    lobby, table = sm_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        log = screen.query_one("#log", EventLog)

        def more(k: int) -> None:
            """``k`` turns end, each of them logged (real events, through the table)."""
            for _ in range(k):
                result = table.submit(table.view(0).turn, EndTurn())
                assert result.ok, result.message

        more(40)
        await pilot.pause()
        assert at_end(log), "the log does not start at its newest line"
        for size in ((120, 40), (80, 24), (200, 60), (80, 24)):
            await pilot.resize_terminal(*size)
            more(3)  # events arrive while the screen is laid out again
            await pilot.pause()
            more(2)
            await pilot.pause()
            assert at_end(log), f"after the resize to {size} the log stopped following"
            assert not log.border_subtitle or "newer" not in log.border_subtitle
            newest = table.log(0)[-1].text
            assert newest in log.texts[-1].plain
        # reading back is still not interrupted by a resize
        log.page(-5)  # (well back: a taller log would show the end again, as it should)
        await pilot.resize_terminal(100, 26)
        more(2)
        await pilot.pause()
        assert log.scroll_offset.y < log.max_scroll_y
        assert "newer" in (log.border_subtitle or "")
