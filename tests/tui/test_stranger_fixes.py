"""What the stranger's play-test (issue 16, session 28's list) found, each fixed and held here:
capitals in Spanish Main, lobby errors that point at the real problem, chat that is never cut
silently, a lobby ``quit`` that asks, errors that go once the game moves on, labels that fit
80x24, and wording that says what to do."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from sea_helpers import hint_items, sm_view, two_humans
from tui_helpers import (
    BOTS,
    error,
    lobby_with_table,
    plain,
    rated_lobby,
    screen_text,
    type_line,
)

from shipwreck.games.spanish_main import commands as C
from shipwreck.lang import CommandSyntaxError, format_command, parse_command
from shipwreck.lang.words import complete_words
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.confirm import Confirm
from shipwreck.tui.ladder_screen import ladder_body
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.lobby.words import lobby_completions
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.end import final, gold_to_win
from shipwreck.tui.spanish_main.screen import SpanishMainScreen
from shipwreck.tui.widgets import CommandLine, EventLog

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
        ("Ladder XYZ", "unknown word 'XYZ'; expected a game (lifeboat, sm) or end"),
        ("LADDER xyz", "unknown word 'xyz'; expected a game (lifeboat, sm) or end"),
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


# ------------------------------------------------------------------ 6. labels at 80x24


async def test_a_free_seat_and_the_lifeboat_headers_fit_80x24() -> None:
    """'free seat (r…' was cut in Spanish Main's seat list; now its short form fits whole. In
    Lifeboat the title, the boat's header and a free seat ('free') are never cut either."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("bot", "sm_raider")]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "free (bot random)" in text
        assert "free seat (r…" not in text
    seats = [SeatSpec("human"), SeatSpec("empty")] + [SeatSpec("bot", b) for b in BOTS[:4]]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=3)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert "…" not in rows[0], rows[0]
        head = next(r for r in rows if r.startswith("#"))
        assert "revealed" in head and "…" not in head.split("─")[0], head
        assert f"{table.seat_name(1)}: free " in rows[1], rows[1]


# ------------------------------------------------------------------ 7. wording


def test_an_empty_ladder_says_how_to_get_on_it(tmp_path: Path) -> None:
    """'nobody rated yet' said nothing of what to do; a game with a bot counts (rated_seats)."""
    text = " ".join(plain(ladder_body(rated_lobby(tmp_path), "spanish_main", "ann"), 200).split())
    assert "nobody is rated in Spanish Main yet: finish a game against bots or other" in text
    assert "('new sm' starts one)" in text  # (the word for Spanish Main, session 29)


def test_gold_past_the_winning_line_reads_as_won() -> None:
    """SM-40: 'gold 11 of the 7 that wins' read oddly once past the line."""
    assert gold_to_win(3, 7) == "gold 3 of the 7 that wins"
    assert gold_to_win(7, 7) == "gold 7 (7 wins)"
    assert gold_to_win(11, 7) == "gold 11 (7 wins)"


def test_the_end_screen_says_won_for_gold_past_the_line() -> None:
    _, table = two_humans()
    view = msgspec.structs.replace(sm_view(table, 0), gold=(11, 2), gold_in_play=12, over=True)
    text = plain(final(view))
    assert "gold 11 (7 wins)" in text and "gold 2 of the 7 that wins" in text
    assert "of the 7 that wins (coins" in text and "11 of the" not in text


def test_a_dock_too_far_says_why_and_what_to_type_rounded() -> None:
    """SM-14: a dock out of reach says it is too far, by a whole number (not '12.9'), and the
    move that sails closer."""
    _, table = two_humans()
    view = sm_view(table, 0)
    ship = next(s.id for s in view.ships if s.owner == 0)
    said = [
        r.message
        for i in view.islands
        if not (r := table.submit(0, C.MoveDock(ship, i.id))).ok and "short" in r.message
    ]
    assert said
    for message in said:
        assert re.search(r"too far, her move would end (about \d+|less than 1) short", message)
        assert not re.search(r"\d\.\d", message), message
        assert f"'move {ship} toward isla-" in message and "then dock next turn" in message


def test_end_turn_comes_before_free_actions_once_every_ship_has_acted() -> None:
    """The hint offered 'drop off …' first when all that was sensible was 'end turn'."""
    _, table = two_humans()
    view = sm_view(table, 0)
    ship = next(s for s in view.ships if s.owner == 0)
    done = msgspec.structs.replace(
        view, choices=(C.EndTurn(),), free=(C.DropOff("crew-x", ship.id),)
    )
    items = hint_items(done)
    assert items[0] == "end turn", items
    assert f"drop off crew-x from {ship.id}" in items


# ------------------------------------------------------------------ 3. say is never cut silently

LONG = " ".join(f"w{i:03d}" for i in range(40))  # 199 characters


async def test_a_long_say_is_kept_and_shown_whole() -> None:
    """A 199-character 'say' (the play-test saw one end at 108) reaches the lobby's chat
    whole, and every word of it is on the screen."""
    lobby, _ = lobby_with_table()
    app = ShipwreckApp(lobby, "bob")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "say " + LONG)
        assert error(app) == ""
        assert lobby.chat[-1].text == LONG
        shown = " ".join(screen_text(app).split())
        assert all(f"w{i:03d}" in shown for i in range(40))


async def test_a_say_longer_than_a_line_says_how_much_is_kept() -> None:
    """Past the longest line the rest is not typed, and the screen says where it was cut: what
    is said is what the line kept, never less."""
    lobby, _ = lobby_with_table()
    app = ShipwreckApp(lobby, "bob", line_length=60)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "say " + LONG[:80], enter=False)
        assert "cut at 60 characters" in error(app)
        await pilot.press("enter")
        await pilot.pause()
        assert lobby.chat[-1].text == LONG[:56]


# ------------------------------------------------------------------ 8. the log at 80x24


@pytest.mark.parametrize("bots", [1, 2, 3])
async def test_the_sea_log_gets_the_rows_the_fleet_does_not_use_at_80x24(bots: int) -> None:
    """The fleet panel kept six rows under its header whatever it drew, so the log had two
    lines at two or three seats; now it has the rows the other fleets in brief leave (four,
    three; two at four seats), and every panel stays."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("bot", "sm_raider")] * bots
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#log", EventLog)
        assert log.content_size.height >= {1: 4, 2: 3, 3: 2}[bots], log.content_size
        text = screen_text(app)
        for seat in sm_view(table, 0).seats[1:]:
            assert f"{seat}:" in text  # (the other fleets, in brief)
        assert "coins you know" in text and "your turn" in text


@pytest.mark.parametrize("bots", [1, 2, 3])
@pytest.mark.parametrize("sunk", [(), ("el-picador", "lord-walpole")])
def test_the_fleet_takes_the_rows_it_draws(bots: int, sunk: tuple[str, ...]) -> None:
    """The side gives the fleet what :func:`R.fleet_height` says; that is what it draws at
    that width (the "sunk:" list included), no blank rows and none cut."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("bot", "sm_raider")] * bots
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=3)
    view = msgspec.structs.replace(sm_view(table, 0), sunk=sunk)
    rows = SpanishMainScreen.COMPACT_SHIPS
    for width in (45, 60):
        drawn = plain(R.fleet(view, rows=rows), width).rstrip("\n").split("\n")
        assert len(drawn) - 1 == R.fleet_height(view, rows, width), drawn
        assert "more: F3" not in drawn[-1] or R.fleet_height(view, rows, width) == rows


def test_tab_in_the_lobby_reads_any_case_as_the_lobby_does() -> None:
    """A stranger who types in capitals gets the same Tab as in lower case (``NEW s`` offered
    nothing before): the words are read in any case, and the word completed is the lobby's."""
    assert complete_words("lobby", "NEW s") == complete_words("lobby", "new s")
    assert "sm" in complete_words("lobby", "NEW s")
    assert complete_words("lobby", "New SM 2 Fleet ") == complete_words("lobby", "new sm 2 fleet ")
    assert complete_words("lobby", "HE") == ["help"]
    lobby = Lobby(seed=1)
    table = lobby.create_table("lifeboat", [SeatSpec("human"), SeatSpec("empty")] * 2, "ann")
    assert lobby_completions(lobby, "bob", "JOIN ") == [str(table.id)]


async def test_tab_completes_a_word_typed_in_capitals_on_the_command_line() -> None:
    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "NEW SM 2 FLEET smu", enter=False)
        await pilot.press("tab")
        assert app.screen.query_one("#command", CommandLine).value == "NEW SM 2 FLEET smugglers "
