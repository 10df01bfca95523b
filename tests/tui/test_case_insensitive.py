"""Lifeboat commands read in any case: 'LAUREN: REST' in a scenario, 'REST' typed at a table
(issue 19). What follows 'say' keeps its case: those are the speaker's words."""

from __future__ import annotations

import pytest
from tui_helpers import SIZE, lobby_with_table, type_line

from shipwreck import scenario
from shipwreck.games.lifeboat import commands as C
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.lang import words as W
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.lifeboat.screen import HelpScreen, TableScreen
from shipwreck.tui.lobby.screen import LobbyHelpScreen


@pytest.mark.parametrize(
    ("line", "cmd"),
    [
        ("REST", C.Rest()),
        ("Swap KID", C.Swap("kid")),
        ("ROB Captain Hidden", C.Rob("captain")),
        ("Offer WATER to Mate FOR Knife", C.Offer("water", "mate", "knife")),
        ("TAKE Painting:2", C.Take("painting:2")),
        ("SAY Land HO, Captain!", C.Say("Land HO, Captain!")),
        ("say\tKeep  MY case", C.Say("Keep  MY case")),
    ],
)
def test_commands_read_in_any_case(line: str, cmd: C.Command) -> None:
    assert parse_command("lifeboat", line) == cmd


def test_a_wrong_word_in_capitals_is_still_pointed_at() -> None:
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("lifeboat", "ROB KIDD HIDDEN")
    assert str(e.value) == "column 5: unknown word 'KIDD'; did you mean 'rob kid hidden'?"


def test_lb12_a_scenario_line_in_capitals_plays() -> None:
    """LB-12: 'LAUREN: REST' is Lauren resting, as 'lauren: rest' would be."""
    sc = scenario.from_dict(
        {
            "phase": "actions",
            "seats": ["lauren", "captain", "mate", "kid"],
            "commands": ["LAUREN: REST", "Captain: Rest"],
        }
    )
    result = scenario.run(sc)
    assert result.error is None
    assert "lauren rests" in scenario.log_lines(result)
    assert "captain rests" in scenario.log_lines(result)


async def test_a_command_typed_in_capitals_at_a_table_plays() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.seat is not None
        before = len(table.commands)
        line = format_command(table.view(screen.seat).choices[0])
        await type_line(pilot, line.upper())
        assert (screen.seat, line) in table.commands[before:]


# ------------------------------------------------------------------ the lobby's and tables' words
# Fifth play-test: 'Help' and 'NEW SM' were refused in the lobby (and 'Start With Bots' at a
# table) where the lowercase line worked.


@pytest.mark.parametrize(
    ("where", "line", "word"),
    [
        ("lobby", "Help", W.Help()),
        ("lobby", "NEW SM", W.New("spanish_main")),
        ("lobby", "New Sm 2 Free", W.New("spanish_main", 2, ("free",))),
        ("lobby", "new Tutorial SM", W.Tutorial("spanish_main")),
        ("lobby", "JOIN 1 Frenchy", W.JoinTable(1, "frenchy")),
        ("lobby", "LADDER Sm", W.Ladder("spanish_main")),
        ("lobby", "Say Hi There", W.Say("Hi There")),
        ("table", "Start With Bots", W.Start(with_bots=True)),
        ("table", "RULES", W.Rules()),
        ("table", "Tell Bob Keep MY case", W.Tell("Bob", "Keep MY case")),
    ],
)
def test_lobby_and_table_words_read_in_any_case(where: W.Where, line: str, word: object) -> None:
    assert W.parse_words(where, line) == word


def test_a_wrong_word_after_capitals_is_still_pointed_at() -> None:
    """The refusal points at the word that is wrong, not at the capitals before it."""
    with pytest.raises(CommandSyntaxError) as e:
        W.parse_words("lobby", "JOIN One")
    assert str(e.value).startswith("column 6: unknown word 'One'")


async def test_help_and_new_sm_in_capitals_in_the_lobby() -> None:
    lobby, _ = lobby_with_table()
    app = ShipwreckApp(lobby, "bob")
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "Help")
        assert isinstance(app.screen, LobbyHelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await type_line(pilot, "NEW SM")
        screen = app.screen
        assert isinstance(screen, SeatScreen) and screen.table.game == "spanish_main"


async def test_help_and_tell_in_capitals_at_a_table() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "Help")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await type_line(pilot, f"Tell {table.seat_name(1).upper()} Hello There")
        assert isinstance(app.screen, TableScreen) and app.screen.panel_text("error") == ""
        said = [c for c in table.chat if "Hello There" in c.text]
        assert said and said[-1].to == 1
