"""What the stranger's play-test (issue 16, session 28's list) found, each fixed and held here:
capitals in Spanish Main, lobby errors that point at the real problem, chat that is never cut
silently, a lobby ``quit`` that asks, errors that go once the game moves on, labels that fit
80x24, and wording that says what to do."""

from __future__ import annotations

import pytest
from sea_helpers import sm_view, two_humans
from tui_helpers import error, lobby_with_table, type_line

from shipwreck.games.spanish_main import commands as C
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.confirm import Confirm
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main.screen import SpanishMainScreen

# ------------------------------------------------------------------ 1. capitals in Spanish Main


@pytest.mark.parametrize(
    ("line", "cmd"),
    [
        ("MOVE DOVER S 0", C.Move("dover", (("S", 0.0, None),))),
        ("move Dover s 0", C.Move("dover", (("S", 0.0, None),))),
        ("move dover s 0", C.Move("dover", (("S", 0.0, None),))),
        ("Move dover l 30 S -15", C.Move("dover", (("L", 30.0, None), ("S", -15.0, None)))),
        ("END TURN", C.EndTurn()),
        ("Shoot Dover At Hulk With 1 2", C.Shoot("dover", "hulk", (1, 2))),
    ],
)
def test_spanish_main_reads_any_case(line: str, cmd: C.Command) -> None:
    """Ships, legs and keywords in any case; the command is the canonical one (ids lower
    case, legs upper case)."""
    assert parse_command("spanish_main", line) == cmd


def test_a_wrong_ship_in_capitals_is_quoted_as_typed() -> None:
    """The refusal quotes the word as typed; the correction is in the grammar's case."""
    _, table = two_humans()
    view = sm_view(table, 0)
    ship = next(s.id for s in view.ships if s.owner == 0)
    wrong = ship[:-1].upper() + "X"
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", f"MOVE {wrong} S 0", view)
    assert str(e.value).startswith(f"column 6: unknown ship {wrong!r}")
    with pytest.raises(CommandSyntaxError) as e:
        parse_command("spanish_main", f"move {ship} x 0")
    assert str(e.value).startswith(f"column {len(ship) + 7}: unknown word 'x'")


@pytest.mark.parametrize("case", [str.upper, str.title, str.lower])
async def test_a_move_typed_in_any_case_at_the_table_sails(case: object) -> None:
    """'MOVE DOVER S 0', 'Move Dover S 0' and 'move dover s 0' all sail, as 'move dover S 0'."""
    lobby, table = two_humans()
    view = sm_view(table, 0)
    move = next(c for c in view.choices if isinstance(c, C.Move))
    line = format_command(move)
    typed = case(line)  # type: ignore[operator]
    assert typed != line or case is str.lower
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, SpanishMainScreen)
        before = len(table.commands)
        await type_line(pilot, typed)
        assert error(app) == ""
        assert (0, line) in table.commands[before:]


# ------------------------------------------------------------------ 2. lobby errors in capitals


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("Ladder XYZ", "unknown word 'XYZ'; expected 'lifeboat'"),
        ("LADDER xyz", "unknown word 'xyz'; expected 'lifeboat'"),
        ("JOIN x", "join which table? a table's id, e.g. 'join 1'"),
        ("Watch", "watch which table? a table's id, e.g. 'watch 1'"),
        ("Quit Now", "unknown word 'Now'; expected end of command"),
    ],
)
async def test_a_lobby_error_after_a_capital_points_at_the_real_problem(
    line: str, wanted: str
) -> None:
    """'Ladder XYZ' is refused for 'XYZ' (not a game), never for 'Ladder' (a lobby word in any
    case)."""
    lobby, _ = lobby_with_table()
    app = ShipwreckApp(lobby, "bob")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, line)
        shown = error(app)
        assert wanted in shown
        assert "unknown lobby command" not in shown
        assert isinstance(app.screen, LobbyScreen)


# ------------------------------------------------------------------ 4. quit in the lobby


async def test_quit_in_the_lobby_asks_when_a_seat_is_left_behind() -> None:
    """ann sits at a game not over: 'quit' in the lobby asks (n stays, y quits; the seat is
    kept). bob sits nowhere: nothing is lost, 'quit' quits at once."""
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "lobby")
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "quit")
        assert isinstance(app.screen, Confirm)
        question = str(app.screen.query_one("#question").render())
        assert f"your seat at table {table.id} is kept" in question
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.is_running
        await type_line(pilot, "Quit")
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    assert table.seat_of_player("ann") == 0
    app = ShipwreckApp(lobby, "bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "quit")
        assert not app.is_running


# ------------------------------------------------------------------ 5. stale errors


async def test_an_error_goes_once_the_game_asks_something_else() -> None:
    """ann's refused line stays while the game still asks the same; once another player's
    answer moves the game on, it goes, but only after it was shown ERROR_KEPT seconds."""
    lobby, table = lobby_with_table(("ann", "bob"))
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        screen.ERROR_KEPT = 0.5
        bob = table.seat_of_player("bob")
        assert bob is not None
        for _ in range(40):  # play ann's seat until the game waits for bob
            if any(p.seat == bob for p in table.view(bob).prompts):  # type: ignore[attr-defined]
                break
            await type_line(pilot, format_command(table.view(0).choices[0]))  # type: ignore[attr-defined]
        else:
            raise AssertionError("the game never waited for bob")
        await type_line(pilot, "frobnicate")
        assert "frobnicate" in error(app)
        await pilot.pause(0.6)
        assert "frobnicate" in error(app), "the game asks the same: the error stays"
        await type_line(pilot, "frobnicate again")
        assert table.submit(bob, table.view(bob).choices[0]).ok  # type: ignore[attr-defined]
        await pilot.pause()
        assert "frobnicate" in error(app), "just shown: it stays a while"
        await pilot.pause(0.7)
        assert error(app) == ""
