"""Fifth stranger play-test: what the lobby's first screen names, and the cosmetics it found.

(The coach's keep advice is in test_coach_advice.py; words in any case in
test_case_insensitive.py.)
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import msgspec
import pytest
from rich.console import Console
from textual.widgets import Static
from tui_helpers import lobby_with_tables, rated_lobby, rows, type_line

from shipwreck.games.lifeboat.score_now import score_now
from shipwreck.games.lifeboat.view import LifeboatView
from shipwreck.games.spanish_main.codes import ship_codes
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import format_command
from shipwreck.lang.help import SHELL_TITLE
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.runtime.tutorial import TutorialTable, load_script
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.ladder_screen import LadderScreen
from shipwreck.tui.learn import ReadingBox
from shipwreck.tui.lifeboat import render as R
from shipwreck.tui.lobby.screen import LOBBY_HELP, LobbyHelpScreen, LobbyScreen
from shipwreck.tui.spanish_main import render as RS
from shipwreck.tui.spanish_main.screen import SeaMap, SpanishMainScreen
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


# ------------------------------------------------------------------ 4. cosmetics


def test_lb30_a_dead_character_shows_no_wound_marks() -> None:
    """LB-30: the dead are out of play; their row said so in the state column, but still drew
    a row of wound pips as if they were in it. Now '-', and the living keep their pips."""
    script = load_script("lifeboat")
    position = msgspec.to_builtins(script.position)
    position["characters"]["kid"].update(wounds=4, dead=True)
    table = TutorialTable(msgspec.structs.replace(script, position=position), "ann")
    view = table.view(0)
    assert next(c for c in view.characters if c.id == "kid").state == "dead"
    for width in (78, 120):
        lines = {line.plain.split()[1]: line.plain for line in R.Boat(view).lines(width)[3:]}
        assert "●" not in lines["kid"] and "○" not in lines["kid"], lines["kid"]
        assert " - " in lines["kid"] and "dead" in lines["kid"]
        assert "○○○○○○○" in lines["captain"]


@pytest.mark.parametrize("size", SIZES)
async def test_a_two_line_message_keeps_the_map_at_its_scale(size: tuple[int, int]) -> None:
    """A message on two rows took a row from the map, which was then drawn again at another
    scale (everything moved). The error line keeps two rows, so a two-row message changes
    nothing on the map; a third row is lent by the map at its scale: its legend row gives way."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("bot", "sm_random")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=5)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        sea = screen.query_one(SeaMap)
        before, height = map_rows(app, sea), sea.region.height
        assert "N↑" in before[-1]
        screen.error("word " * (size[0] // 4))  # (a row and a half)
        await pilot.pause()
        assert screen.error_rows == 2 and sea.region.height == height
        assert map_rows(app, sea) == before, "a two-row message changed the map"
        screen.error("word " * (size[0] // 2))  # (two rows and a half)
        await pilot.pause()
        assert screen.error_rows == 3 and sea.region.height == height - 1
        after = map_rows(app, sea)
        assert after == before[: len(after)], "the map was drawn at another scale"
        assert not any("N↑" in row for row in after)
        screen.error("")
        await pilot.pause()
        assert map_rows(app, sea) == before


def map_rows(app: ShipwreckApp, sea: SeaMap) -> list[str]:
    r = sea.region
    return [row[r.x : r.right] for row in rows(app)[r.y : r.bottom]]


def test_a_pinned_ship_says_by_whom_in_a_narrow_fleet_panel() -> None:
    """SM-19: 'pinned b…' said neither by whom nor much else in the fleet panel (46 columns,
    at 80 and 120). The other ship is named by its map code, and pinned comes first."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("bot", "sm_random")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    view = table.view(0)
    assert isinstance(view, SpanishMainView)
    enemy = next(s for s in view.ships if s.owner != 0)
    pinned = msgspec.structs.replace(view.ships[0], pinned_by=enemy.id)
    view = msgspec.structs.replace(view, ships=(pinned, *view.ships[1:]))
    code = ship_codes(view)[enemy.id]
    for rows_ in (6, None):
        drawn = plain(RS.fleet(view, wide=False, rows=rows_), 45)
        row = next(line for line in drawn.splitlines() if pinned.id in line)
        assert f"pinned:{code}" in row, row
    wide = plain(RS.fleet(view, wide=True), 83)
    assert f"pinned by {enemy.id}" in wide


def plain(renderable: object, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


async def test_a_message_too_long_for_the_lobby_says_it_is_cut() -> None:
    """The lobby's message rows cut a long message (an echoed line, a long list) without a
    word; now the last row kept ends in '…', as at a table."""
    app = ShipwreckApp(lobby_with_tables(), "bob", "SHA256:b")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, LobbyScreen)
        screen.error(" ".join(f"word{i}" for i in range(80)))
        await pilot.pause()
        shown = [r for r in rows(app) if "word" in r]
        assert len(shown) == 3 and shown[-1].rstrip().endswith("…"), shown
        assert "word0" in shown[0]


def played(seed: int, steps: int) -> LifeboatView:
    """ann's view of a six-seat Lifeboat game after ``steps`` of her random legal commands."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("bot", "random")] * 5
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        view = table.view(0)
        assert isinstance(view, LifeboatView) and view.choices
        assert table.submit_text(0, format_command(pick.choice(list(view.choices)))).ok
    view = table.view(0)
    assert isinstance(view, LifeboatView)
    return view


@pytest.mark.parametrize(
    ("seed", "steps", "parts"),
    [
        (0, 9, "= treasure 5 + you 4 + friend 9"),  # the parts took two rows: cut
        (29, 39, "= treasure 4 + deaths 19 + friend 4"),  # LB-63 (enemy = you), 3 rows held
    ],
)
def test_the_you_panel_at_120_columns_shows_the_score_parts_whole(
    seed: int, steps: int, parts: str
) -> None:
    """LB-61: the "you" panel (36 columns at 120) cut the score's parts ('friend …'). They
    now take their brief form, and the ability line or the long words of a special case give
    way first, so that the parts are whole."""
    view = played(seed, steps)
    drawn = plain(R.me_panel(view), 40)
    assert "…" not in drawn, drawn
    assert parts in drawn, drawn
    assert f"score now {sum(score_now(view).parts.values())}" in drawn  # type: ignore[union-attr]
