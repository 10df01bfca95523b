"""The Spanish Main table screen, driven with Textual's pilot: flows and snapshots (fixed seeds
and sizes). Commands go in as structs through the table API (``table.submit``) wherever the
test is about the screen, not the command language; one test types a move."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from rich.console import Console
from sea_helpers import PLAN, SEED, both_explored, ok, screen_rows, sm_view, turn_toward, two_humans
from textual import events
from textual.pilot import Pilot

from shipwreck.botseat import RandomPlayer
from shipwreck.games.spanish_main.codes import ship_codes
from shipwreck.games.spanish_main.commands import (
    EndTurn,
    Explore,
    Move,
    MoveToward,
)
from shipwreck.lang import format_command
from shipwreck.lang.bots import BotPlayer
from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import AppScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main import render as R
from shipwreck.tui.spanish_main.screen import (
    PREVIEW_INTERVAL,
    SeaEndScreen,
    SeaHelpScreen,
    SeaMap,
    SpanishMainScreen,
)
from shipwreck.tui.widgets import CommandLine, EventLog

SIZE = (120, 40)


def map_text(app: ShipwreckApp) -> str:
    return str(app.screen.query_one("#sea", SeaMap).render())


async def type_line(pilot: Pilot[Any], line: str, enter: bool = True) -> None:
    await pilot.press(*line, *(["enter"] if enter else []))
    await pilot.pause()


# ------------------------------------------------------------------ flows


async def test_new_sm_from_the_lobby_shows_the_sea() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann", "SHA256:test")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, LobbyScreen)
        await type_line(pilot, "new sm 2")
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        table = screen.table
        assert table.game == "spanish_main" and screen.seat == 0
        assert [s.kind for s in table.seats] == ["human", "empty"]
        assert isinstance(table.bots[1], RandomPlayer)  # no bot script plays this game yet
        view = sm_view(table, 0)
        shown = map_text(app)
        for isl in view.islands:
            assert isl.id in shown
        assert "⌂red" in shown and "⌂blue" in shown
        codes = ship_codes(view)
        assert all(codes[s.id] in shown for s in view.ships)
        assert "spanish main" in screen.panel_text("title")
        assert "waiting to start" in screen.panel_text("prompt")  # a free seat: issue 16
        await type_line(pilot, "start")
        assert table.started
        assert "your turn" in screen.panel_text("prompt")


def error(app: ShipwreckApp) -> str:
    screen = app.screen
    assert isinstance(screen, AppScreen)
    return screen.panel_text("error")


async def test_new_sm_refuses_what_it_cannot_seat() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "new sm 5")
        assert "2 to 4 seats" in error(app)
        await type_line(pilot, "new sm 2 survivor")
        assert "plays Lifeboat, not Spanish Main" in error(app)
        await type_line(pilot, "new sm 2 ../bots/sm_random.bot")
        assert "bot names are" in error(app)
        assert not lobby.tables
        await type_line(pilot, "new sm 3 sm_hauler")
        assert isinstance(app.screen, SpanishMainScreen)
        table = app.screen.table
        assert [(s.kind, s.bot) for s in table.seats[1:]] == [("bot", "sm_hauler")] * 2
        assert all(isinstance(table.bots[s], BotPlayer) for s in (1, 2))
        app.screen.action_lobby()
        await pilot.pause()
        await type_line(pilot, "new spanish_main 3 free")
        assert isinstance(app.screen, SpanishMainScreen)
        assert len(app.screen.table.seats) == 3


async def test_end_turn_through_the_table_updates_the_screen() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "new sm 2")
        await type_line(pilot, "start")
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        table = screen.table
        assert "round 1" in screen.panel_text("title")
        ok(table, 0, EndTurn())  # blue's random stand-in plays its turn at once
        await pilot.pause()
        view = sm_view(table, 0)
        assert view.round == 2 and view.turn == 0
        assert "round 2" in screen.panel_text("title")
        shown = [line.plain for line in screen.query_one("#log", EventLog).texts]
        assert any("red ends the turn" in line for line in shown)
        assert any("blue ends the turn" in line for line in shown)
        assert table.bots[1].trace, "the stand-in keeps a trace like a bot script"


async def test_a_move_preview_draws_the_ghost_and_changes_nothing() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        cmd = MoveToward(*PLAN[0])
        before, commands = map_text(app), list(table.commands)
        screen.show_preview(cmd)
        await pilot.pause()
        sea = screen.query_one("#sea", SeaMap)
        assert sea.preview is not None and sea.ship == PLAN[0][0]
        assert map_text(app) != before
        assert "preview: plantagenet would end" in screen.panel_text("error")
        assert table.commands == commands
        preview = sea.preview
        ok(table, 0, cmd)  # the move goes where the preview said
        ship = next(s for s in sm_view(table, 0).ships if s.id == PLAN[0][0])
        assert (ship.x, ship.y) == pytest.approx((preview.x, preview.y))
        await pilot.pause()
        assert "had her action" in screen.panel_text("error")  # no ghost now
        screen.show_preview(None)
        assert screen.query_one("#sea", SeaMap).preview is None


async def test_typing_a_move_previews_it() -> None:
    """The command line tells the screen what is typed (``changes=True``; Lifeboat's does
    not), so a move is previewed before Enter, and nothing is played."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        commands = list(table.commands)
        await pilot.press(*"move plantagenet toward isla-1")
        await pilot.pause(2 * PREVIEW_INTERVAL)  # the last preview waits out the interval
        await pilot.pause()
        assert "preview: plantagenet would end" in screen.panel_text("error")
        assert screen.query_one("#sea", SeaMap).preview is not None
        assert table.commands == commands


async def test_a_stream_of_keys_is_previewed_ten_times_a_second_and_its_last_line() -> None:
    """F6: a move typed, then digit/backspace pairs as fast as the keys go in: the line is
    previewed at most once per `PREVIEW_INTERVAL` (each preview parses the line, asks the table
    and draws the map), and the line as it was left is previewed in the end."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        shown: list[Any] = []
        show_preview = screen.show_preview

        def counted(cmd: Any | None) -> None:
            shown.append(cmd)
            show_preview(cmd)

        screen.show_preview = counted  # type: ignore[method-assign]
        ship = PLAN[0][0]
        await pilot.press(*f"move {ship} L 3")
        await pilot.pause(2 * PREVIEW_INTERVAL)
        shown.clear()
        start = time.monotonic()
        for burst in range(20):  # as the SSH driver hands them over: turn by turn
            keys = "5\x7f" * 16 + ("\x7f2" if burst == 19 else "")
            for key in keys:
                name = "backspace" if key == "\x7f" else key
                app.post_message(events.Key(name, None if key == "\x7f" else key))
            await asyncio.sleep(0)
        await pilot.pause()
        elapsed = time.monotonic() - start
        await pilot.pause(2 * PREVIEW_INTERVAL)
        await pilot.pause()
        assert len(shown) <= elapsed / PREVIEW_INTERVAL + 2, (len(shown), elapsed)
        assert shown[-1] == Move(ship, (("L", 2.0, None),))
        sea = screen.query_one("#sea", SeaMap)
        preview = table.preview(0, shown[-1])
        assert sea.preview == preview and sea.ship == ship
        assert f"bow at ({preview.x:.1f}, {preview.y:.1f})" in screen.panel_text("error")


async def test_a_line_changed_just_before_the_interval_is_up_is_previewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """F6 (CI, 2026-12): a change that comes a microsecond before the last preview is
    `PREVIEW_INTERVAL` old waits a microsecond. Textual's ``set_timer`` skips a one-shot timer
    whose delay has passed when its task first reads the clock, so the preview never came and
    every later change waited for it: the player saw the first line's preview for good."""
    from shipwreck.tui.spanish_main import screen as sea_screen

    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        ship = PLAN[0][0]
        await pilot.press(*f"move {ship} L 3")
        await pilot.pause(2 * PREVIEW_INTERVAL)
        frozen = time.monotonic()
        monkeypatch.setattr(sea_screen, "time", type("Clock", (), {"monotonic": lambda: frozen}))
        screen._previewed_at = frozen - PREVIEW_INTERVAL + 1e-9  # due in a nanosecond
        await pilot.press("backspace", "2")
        await pilot.pause(0.2)
        await pilot.pause()
        preview = table.preview(0, Move(ship, (("L", 2.0, None),)))
        assert screen.query_one("#sea", SeaMap).preview == preview
        assert f"bow at ({preview.x:.1f}, {preview.y:.1f})" in screen.panel_text("error")


async def test_an_illegal_preview_says_why() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE):
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        screen.show_preview(Move("el-tirador", (("L", 0.0, None),)))  # not ann's ship
        assert screen.query_one("#sea", SeaMap).preview is None
        assert "preview:" in screen.panel_text("error")


async def test_an_80x24_terminal_shows_the_sea_every_panel_and_a_log() -> None:
    """80×24, the smallest size the app accepts: the map, the seats, my ships in full (their
    last column too), the coins, a log of a few lines, the prompt and the command line, all on
    screen at once; typing plays; a taller terminal gets the full layout back."""
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen) and screen.has_class("-compact")
        await pilot.pause()
        assert screen.max_scroll_y == 0, "part of the table is scrolled out of sight"
        for wid in ("title", "sea", "seats", "fleet", "treasure", "log", "prompt", "command"):
            region = screen.panel_region(wid)
            assert region and region.bottom <= 24, f"{wid} is not all on screen"
        log = screen.query_one("#log", EventLog)
        assert log.scrollable_content_region.height >= 2
        view = sm_view(table, 0)
        text = "\n".join(screen_rows(app))
        assert "ann (you)" in text and "bob" in text
        for ship in (s for s in view.ships if s.owner == 0):
            row = next(line for line in text.splitlines() if ship.id in line)
            assert row.rstrip().endswith(R.status(ship, ship_codes(view))), (
                f"{ship.id}'s row is cut: {row!r}"
            )
        before = len(table.commands)  # (a move: 'end turn' with ships idle asks first)
        await type_line(pilot, format_command(next(c for c in view.choices if isinstance(c, Move))))
        assert len(table.commands) > before
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert not screen.has_class("-compact")
        fleet = screen.panel_region("fleet")
        assert fleet and fleet.height == len(view.ships) + 2  # all listed


async def test_four_fleets_are_listed_ship_by_ship() -> None:
    """Four seats bring 14 ships: the fleet panel is as tall as the table needs (it was cut at
    nine), and the log still has rows."""
    lobby = Lobby(seed=1)
    table = lobby.create_table(
        "spanish_main", [SeatSpec("human")] + [SeatSpec("empty")] * 3, creator="ann", seed=SEED
    )
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen) and screen.max_scroll_y == 0
        fleet = screen.panel_region("fleet")
        assert fleet is not None
        rows = screen_rows(app)
        listed = "\n".join(row[fleet.x : fleet.right] for row in rows[fleet.y : fleet.bottom])
        ships = sm_view(table, 0).ships
        assert len(ships) == 14
        assert all(s.id[:11] in listed for s in ships), listed  # (long names end in …)
        assert screen.query_one("#log", EventLog).scrollable_content_region.height >= 3


async def test_a_typed_move_is_previewed_before_it_is_sent() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        ship, island = PLAN[0]
        await type_line(pilot, f"move {ship} toward {island}", enter=False)
        assert screen.query_one("#sea", SeaMap).preview is not None
        assert not table.commands
        await pilot.press("enter")
        await pilot.pause()
        assert len(table.commands) == 1
        assert screen.query_one("#sea", SeaMap).preview is None


async def test_tab_completes_my_ships() -> None:
    lobby, table = two_humans()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "move pl", enter=False)
        await pilot.press("tab")
        assert app.screen.query_one("#command", CommandLine).value == "move plantagenet "


async def test_each_seat_sees_only_its_own_coin_values() -> None:
    lobby, table = two_humans()
    both_explored(table)
    ann, bob = sm_view(table, 0), sm_view(table, 1)
    shown_ann, shown_bob = str(R.treasure(ann)), str(R.treasure(bob))
    red, blue = (f"aboard {ship}" for ship, _ in PLAN.values())
    assert red in shown_ann and red not in shown_bob
    assert blue in shown_bob and blue not in shown_ann
    spectator = str(R.treasure(sm_view(table, None)))
    assert "spectators see no hidden coin value" in spectator


def test_the_map_fills_its_cells_and_shows_only_my_coin_values() -> None:
    lobby, table = two_humans()
    ship, island = PLAN[0]
    for _ in range(10):  # red sails until she may explore, then looks (the load is open)
        if Explore(ship) in sm_view(table, 0).choices:
            ok(table, 0, Explore(ship))
            break
        turn_toward(table, 0, ship, island)
        ok(table, 1, EndTurn())
    else:
        raise AssertionError("red never explored")
    red, blue = sm_view(table, 0), sm_view(table, 1)
    docked = next(s.docked for s in red.ships if s.id == ship)
    isl = next(i for i in red.islands if i.id == docked)
    values = "".join(str(c.value) for c in isl.coins)
    for view, coins in ((red, values), (blue, "●" * len(isl.coins))):
        lines = R.sea_map(view, 70, 30).plain.split("\n")
        assert len(lines) == 30 and all(len(line) == 70 for line in lines[:-1])
        assert any(coins in line for line in lines)
    assert not any(values in line for line in R.sea_map(blue, 70, 30).plain.split("\n"))


async def test_help_lists_the_commands_and_the_end_shows_the_winner() -> None:
    lobby = Lobby(seed=1)
    table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", 5)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, SeaHelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, SpanishMainScreen)
        for _ in range(300):
            if table.over:
                break
            ok(table, 0, sm_view(table, 0).choices[-1])
        await pilot.pause()
        assert isinstance(app.screen, SeaEndScreen)
        assert app.screen.view.winners
        console = Console(width=100, record=True)
        console.print(app.screen.result())
        assert "winner" in console.export_text()


def test_random_stand_ins_play_a_whole_game() -> None:
    """A human who only ends turns, against three random stand-ins: the table never stalls."""
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("empty") for _ in range(3)]
    table = lobby.create_table("spanish_main", seats, creator="ann", seed=5)
    for _ in range(200):
        if table.over:
            break
        ok(table, 0, sm_view(table, 0).choices[-1])  # end turn, pass, the last mast…
    assert table.over
    assert all(isinstance(table.bots[s], RandomPlayer) for s in (1, 2, 3))


def test_a_game_without_preview_previews_nothing() -> None:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human")] + [SeatSpec("bot", "random") for _ in range(3)]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=1)
    assert table.preview(0, None) is None


# ------------------------------------------------------------------ snapshots


def test_snapshot_sea_two_seats_differ(snap_compare: Any) -> None:
    """The same moment seen by red (ann) and blue (bob): each knows the coins it explored."""
    lobby, table = two_humans()
    both_explored(table)
    commands = list(table.commands)
    ann = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    bob = ShipwreckApp(lobby, "bob", "SHA256:bob", open_table=table.id)
    assert snap_compare(ann, terminal_size=SIZE)
    assert table.commands == commands
    assert snap_compare(bob, terminal_size=SIZE)
