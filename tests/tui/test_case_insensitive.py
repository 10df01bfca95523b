"""Lifeboat commands read in any case: 'LAUREN: REST' in a scenario, 'REST' typed at a table
(issue 19). What follows 'say' keeps its case: those are the speaker's words."""

from __future__ import annotations

import pytest
from tui_helpers import SIZE, lobby_with_table, type_line

from shipwreck import scenario
from shipwreck.games.lifeboat import commands as C
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.screens import TableScreen


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
