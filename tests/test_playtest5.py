"""Fifth stranger play-test: what the lobby's first screen names, and the cosmetics it found.

(The coach's keep advice is in test_coach_advice.py; words in any case in
test_case_insensitive.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ladder_screen import rated_lobby
from test_playtest3 import rows
from test_sea80_snapshots import lobby_with_tables
from test_tui import type_line
from textual.widgets import Static

from shipwreck.lang.help import SHELL_TITLE
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.ladder_screen import LadderScreen
from shipwreck.tui.learn import ReadingBox
from shipwreck.tui.screens import LOBBY_HELP, LobbyHelpScreen, LobbyScreen
from shipwreck.tui.typed import SHELL_HINT

SIZES = [(80, 24), (120, 40)]

# ------------------------------------------------------------------ 2. ladder and bots


@pytest.mark.parametrize("size", SIZES)
async def test_the_lobby_panel_names_ladder_and_bots_and_the_tables_keep_rows(
    size: tuple[int, int],
) -> None:
    """'ladder' and how to bring a bot of one's own were nowhere on the lobby's first screen.
    They are in its command panel, whose rows all fit 80 columns, with every command that was
    there before, and the tables still have rows of their own at 80x24."""
    assert all(len(line) <= 78 for line in LOBBY_HELP.plain.split("\n"))
    app = ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = "\n".join(rows(app))
        for words in ("ladder [sm]", "ratings", "bot save NAME < FILE", "your bot (ssh)"):
            assert words in text, f"{words!r} is not on screen"
        for words in ("new [4-6]", "new sm", "join ID", "watch ID", "open ID", "say TEXT"):
            assert words in text, f"{words!r} is not on screen"
        assert "help" in text and "end this session" in text
        table_rows = [r for r in rows(app) if r.startswith(" 1    Lifeboat")]
        assert table_rows, "the tables lost their rows"
        board = app.screen.query_one("#board")
        assert board.region.height >= 12  # tables' header, rule and rows, and the panel


async def test_bot_typed_in_the_lobby_says_it_is_typed_in_a_shell() -> None:
    """A stranger who types the panel's 'bot save' line in the lobby is told where it goes,
    in one line, and nothing changes."""
    lobby = lobby_with_tables()
    before = len(lobby.tables)
    app = ShipwreckApp(lobby, "bob", "SHA256:b")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "bot save rower < rower.bot")
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        assert screen.panel_text("error") == SHELL_HINT
        assert "ssh … bot save NAME < FILE" in SHELL_HINT
        await type_line(pilot, "Bots")
        assert screen.panel_text("error") == SHELL_HINT
    assert len(lobby.tables) == before


async def test_lobby_help_lists_the_shell_commands_last() -> None:
    app = ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "help")
        screen = app.screen
        assert isinstance(screen, LobbyHelpScreen)
        title, entries = screen.sections()[-1]
        assert title == SHELL_TITLE
        assert [e.usage for e in entries] == [
            "bot check < FILE",
            "bot save NAME < FILE",
            "bot status NAME",
        ]


# ------------------------------------------------------------------ 5. one reading box


async def test_the_ladder_reads_in_the_reading_pages_box(tmp_path: Path) -> None:
    """The ladder is drawn in the rules' and legend's box (one widget, not a copy of it):
    its hint on top, g for the other game from the top, Escape back to the lobby."""
    app = ShipwreckApp(rated_lobby(tmp_path), "ann", "SHA256:ladder")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "ladder")
        screen = app.screen
        assert isinstance(screen, LadderScreen)
        box = screen.query_one(ReadingBox)
        assert box.hint.startswith("Lifeboat ladder — Escape: back · g: Spanish Main")
        await pilot.press("g")
        await pilot.pause()
        assert box.hint.startswith("Spanish Main ladder")
        assert screen.query_one("#reading-hint", Static).content == box.hint
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
