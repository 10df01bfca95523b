"""Learning without leaving the game (issue 16, section 1): the rules screen made from the
project's rules documents, the Lifeboat legend, and where they open from (typed words and keys,
in the lobby and at both tables); snapshots at 80×24 and 120×40."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console
from sea_helpers import two_humans
from textual.containers import VerticalScroll
from textual.widgets import Static
from tui_helpers import lobby_with_table, type_line

from shipwreck.lang.rules_text import LEGEND, reader_text, rules_markdown
from shipwreck.resources import rules_dir
from shipwreck.runtime import Lobby
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.learn import LegendScreen, RulesScreen
from shipwreck.tui.lifeboat.screen import HelpScreen, TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen

GAMES = {"lifeboat": "lifeboat.md", "spanish_main": "spanish-main.md"}


# ------------------------------------------------------------------ the text


@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_text_has_no_rule_ids_or_notes_for_developers(game: str) -> None:
    text = rules_markdown(game)
    assert not re.search(r"\b(LB|SM)-\d", text), "a rule id reached the reader"
    assert "filled" not in text and "Oracles" not in text and "Source of truth" not in text
    assert text.index("## How to win") < text.index("## 1.")


@pytest.mark.parametrize("game, file", list(GAMES.items()))
def test_the_rules_text_is_made_from_the_rules_document(game: str, file: str) -> None:
    """Every rule of the document (each ``**LB-n**``/``**SM-n**`` line) reaches the screen: the
    words after its id are in the reader's text."""
    doc = (rules_dir() / file).read_text(encoding="utf-8")
    rules = re.findall(r"\*\*(?:LB|SM)-\d+\*\*\s+(\S+(?: \S+){0,4})", doc)
    assert len(rules) > 10
    text = reader_text(game)
    for words in rules:
        assert words in text


def test_lifeboat_how_to_win_covers_scoring_and_land() -> None:
    """LB-41 (4 seagulls = land), LB-61 (what scores), LB-40 (the stern navigates)."""
    win = rules_markdown("lifeboat").split("## 1.")[0]
    for words in ("reaches **4**", "survival bonus", "treasure", "friend's", "enemy's",
                  "navigator", "stern", "‖oar", "⚔"):  # fmt: skip
        assert words in win


def test_spanish_main_how_to_win_states_the_goal_and_the_marks() -> None:
    """SM-40 (more than half the gold, or the last fleet afloat), masts like 3:SLLS, pts."""
    win = rules_markdown("spanish_main").split("## 1.")[0]
    for words in ("more than half of all the gold", "last player with a ship", "3:SLLS", "`pts`"):
        assert words in win


# ------------------------------------------------------------------ where they open


def reading(app: ShipwreckApp) -> RulesScreen | LegendScreen:
    screen = app.screen
    assert isinstance(screen, RulesScreen | LegendScreen), f"{screen} is not a reading screen"
    return screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_lobby_rules_open_close_and_scroll(size: tuple[int, int]) -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann", "SHA256:x")
    async with app.run_test(size=size) as pilot:
        await type_line(pilot, "rules")
        screen = reading(app)
        assert isinstance(screen, RulesScreen) and screen.game == "lifeboat"
        hint = screen.query_one("#reading-hint")
        assert "Escape closes" in str(hint.render())
        assert hint.region.y >= 0 and hint.region.bottom <= size[1], "the hint is off screen"
        body = screen.query_one("#reading-body", VerticalScroll)
        assert body.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0
        await pilot.press("g")  # the other game's rules
        await pilot.pause()
        screen = reading(app)
        assert isinstance(screen, RulesScreen) and screen.game == "spanish_main"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "rules sm")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "spanish_main"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "lifeboat"


async def test_rules_for_no_such_game_is_one_line_and_opens_nothing() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann", "SHA256:x")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "rules chess")
        assert isinstance(app.screen, LobbyScreen)
        error = app.screen.panel_text("error")  # (the grammar's: a caret under the word)
        assert "unknown word 'chess'" in error and "expected a game (lifeboat, sm)" in error
        assert "rules [GAME]" in error


async def test_a_lifeboat_table_opens_its_rules_and_legend_by_word_and_key() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        before = list(table.commands)
        for opener in ("rules", "f2"):
            if opener == "rules":
                await type_line(pilot, opener)
            else:
                await pilot.press(opener)
                await pilot.pause()
            assert isinstance(app.screen, RulesScreen) and app.screen.game == "lifeboat"
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
        await type_line(pilot, "rules sm")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "spanish_main"
        await pilot.press("escape")
        await pilot.pause()
        for opener in ("legend", "f3"):
            if opener == "legend":
                await type_line(pilot, opener)
            else:
                await pilot.press(opener)
                await pilot.pause()
            assert isinstance(app.screen, LegendScreen)
            await pilot.press("escape")
            await pilot.pause()
        assert table.commands == before, "reading the rules played a move"


async def test_a_spanish_main_table_opens_its_own_rules() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, SeatScreen)
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "spanish_main"
        await pilot.press("escape")
        await pilot.pause()
        await type_line(pilot, "rules")
        assert isinstance(app.screen, RulesScreen) and app.screen.game == "spanish_main"


async def test_a_spectator_may_read_the_rules() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "carol", "SHA256:x")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"watch {table.id}")
        assert isinstance(app.screen, TableScreen) and app.screen.seat is None
        await type_line(pilot, "rules")
        assert isinstance(app.screen, RulesScreen)


async def test_lifeboat_help_shows_the_legend() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=100, color_system=None)
        with console.capture() as cap:
            for static in app.screen.query(Static):
                console.print(static.content)
        shown = cap.get()
        assert "seagull track" in shown and "4 = land" in shown and "‖oar" in shown


def test_the_legend_names_every_glyph_the_board_draws() -> None:
    legend = LEGEND["lifeboat"]
    for glyph in ("≈", "v +1", "v̶ -1", "thirst", "⚔", "‖oar", "⎈", "◂", "●", "hid", "rowed",
                  "fought", "4 = land", "score now", "#27"):  # fmt: skip
        assert glyph in legend


# ------------------------------------------------------------------ snapshots


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_rules(snap_compare: Any, size: tuple[int, int]) -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    assert snap_compare(app, terminal_size=size, press=["f2"])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_legend(snap_compare: Any, size: tuple[int, int]) -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    assert snap_compare(app, terminal_size=size, press=["f3"])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_table_you_panel(snap_compare: Any, size: tuple[int, int]) -> None:
    """The board (ids a player types, the navigator ⎈, 4 = land) and the you panel (gift,
    friend and enemy in words, score now)."""
    lobby, table = lobby_with_table(seed=5)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    assert snap_compare(app, terminal_size=size)
