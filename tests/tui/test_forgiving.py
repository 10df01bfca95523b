"""Tables that forgive (issue 16, section 3), driven with Textual's pilot: a lone player's table
waits and pauses, several players' clocks are visible, warn, play one default and announce the
autopilot, ``new N free`` waits for ``start``, and Ctrl+C / Esc ask before leaving."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import FORGIVING_BOTS, LIFEBOAT_KINDS, Clock, two_player_table
from textual.pilot import Pilot

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.store import Store
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import SeatScreen
from shipwreck.tui.clock import WARN_SECONDS, welcome_back
from shipwreck.tui.confirm import BACK_TO_LOBBY, Confirm
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.spanish_main.screen import SpanishMainScreen

SIZES = [(80, 24), (120, 40)]
SEA_KINDS = ("turn", "after_move", "eliminate", "load", "board", "plunder")


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    screen = app.screen
    assert isinstance(screen, SeatScreen), screen
    return screen


# ---------------------------------------------------------------------- one player: the game waits


async def test_a_lone_players_table_has_no_clock_and_pauses_while_they_are_away() -> None:
    """The server's timers are on, yet a table with one player has none; dropping the session
    pauses it (nothing played for her, no autopilot, the lobby says 'paused'), and coming back
    finds the same round and the same prompt."""
    clock = Clock()
    lobby = Lobby(seed=1, timers=dict.fromkeys(LIFEBOAT_KINDS, 30), clock=clock)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new")
        screen = seat_screen(app)
        table = screen.table
        assert table.started and table.seat_of_player("ann") == 0
        assert table.view(0).choices and table.deadline(0) is None
        assert "s to decide" not in screen.panel_text("title")
    assert table.paused and not table.seats[0].autopilot and not table.seats[0].connected
    assert lobby.row(table)[4] == "paused" and "ann (away)" in lobby.row(table)[5]
    before, view = list(table.commands), table.view(0)
    clock.now += 3600
    lobby.tick()
    assert table.commands == before, "something was played while ann was away"

    again = ShipwreckApp(lobby, "ann")
    async with again.run_test(size=(80, 24)) as pilot:
        screen = seat_screen(again)
        assert screen.table is table and screen.seat == 0
        assert "welcome back: the table waited for you" in screen.panel_text("error")
        assert not table.paused and lobby.row(table)[4] == "running"
        assert table.commands == before
        now = table.view(0)
        assert (now.round, now.phase, now.choices) == (view.round, view.phase, view.choices)


# ---------------------------------------------------------------------- several players: timers


async def test_the_clock_waits_until_every_player_has_been_shown_the_game() -> None:
    clock = Clock()
    lobby = Lobby(seed=1, timers=dict.fromkeys(LIFEBOAT_KINDS, 30), clock=clock)
    table = two_player_table(lobby)
    ann = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with ann.run_test(size=(120, 40)) as p1:
        await p1.pause()
        assert 0 in table.seen and table.clock_waits()
        assert table.deadlines == {}, "the clock ran before bob saw the game"
        bob = ShipwreckApp(lobby, "bob", open_table=table.id)
        async with bob.run_test(size=(120, 40)) as p2:
            await p2.pause()
            assert not table.clock_waits()
            waiting = [s for s in (0, 1) if table.view(s).choices]
            assert waiting and all(table.deadline(s) == 30 for s in waiting)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
async def test_the_countdown_warns_plays_one_default_then_announces_the_autopilot(
    game: str, size: tuple[int, int]
) -> None:
    """At every size, in both games: the countdown in the title bar; at WARN_SECONDS a red line
    saying what the table will play; after the deadline one safe default and a line saying
    so; the autopilot only after ``autopilot_after`` misses, announced; typing takes it back."""
    clock = Clock()
    kinds = LIFEBOAT_KINDS if game == "lifeboat" else SEA_KINDS
    lobby = Lobby(seed=1, timers=dict.fromkeys(kinds, 40), autopilot_after=2, clock=clock)
    table = two_player_table(lobby, game)
    ann = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with ann.run_test(size=size) as pilot:
        screen = seat_screen(ann)
        assert isinstance(screen, TableScreen if game == "lifeboat" else SpanishMainScreen)
        table.prompt_shown(1)  # bob's screen (his session is not part of this test)
        table.set_connected("bob", False)  # ... and he is away: his clock runs too

        def title() -> str:
            screen.refresh_clock()  # (what the screen's one-second timer does)
            return screen.panel_text("title")

        def until_ann_is_asked() -> None:
            for _ in range(40):
                if table.deadline(0) is not None:
                    return
                clock.now += 41  # bob misses his
                lobby.tick()
            raise AssertionError("ann was never asked")

        until_ann_is_asked()
        await pilot.pause()
        assert "⏱ 40 s to decide" in title()
        move = table.default_text(0)
        assert move
        clock.now += 40 - WARN_SECONDS + 1
        shown = title()
        assert f"⏱ {WARN_SECONDS - 1} s left" in shown, shown
        assert f"type your choice or the table plays '{move}' for you" in shown
        assert shown.index("for you") < size[0] - 2, "the warning is cut at this width"
        before = len(table.commands)
        clock.now += WARN_SECONDS
        lobby.tick()
        assert table.commands[before] == (-1, f"timeout {table.seat_name(0)}")
        assert table.seats[0].misses == 1 and not table.seats[0].autopilot, "ONE default"
        await pilot.pause()
        assert "time ran out: the table played" in title()
        until_ann_is_asked()
        clock.now += 41
        lobby.tick()
        assert table.seats[0].autopilot, "the second miss starts the autopilot"
        await pilot.pause()
        assert "you are on autopilot — type anything to take your seat back" in title()
        await type_line(pilot, "chat sorry, back")  # anything at all
        assert not table.seats[0].autopilot
        assert "on autopilot" not in title()


async def test_a_player_who_comes_back_is_off_autopilot() -> None:
    clock = Clock()
    lobby = Lobby(seed=1, timers=dict.fromkeys(LIFEBOAT_KINDS, 30), autopilot_after=1, clock=clock)
    table = two_player_table(lobby)
    table.prompt_shown(0)
    table.prompt_shown(1)
    table.set_connected("ann", False)
    for _ in range(40):
        if table.seats[0].autopilot:
            break
        clock.now += 31
        lobby.tick()
    assert table.seats[0].autopilot, "at a table of two, an absent player's misses count"
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)):
        assert seat_screen(app).seat == 0
        assert not table.seats[0].autopilot and table.seats[0].connected
        assert "a bot played your seat while you were away" in seat_screen(app).panel_text("error")


# ---------------------------------------------------------------------- new N free waits for start


async def test_new_with_free_seats_waits_for_start_and_shows_who_joined() -> None:
    lobby = Lobby(seed=1)
    ann = ShipwreckApp(lobby, "ann")
    async with ann.run_test(size=(80, 24)) as p1:
        await type_line(p1, "new 4 free survivor loyal")
        screen = seat_screen(ann)
        table = screen.table
        assert not table.started and table.commands == [], "nothing is played before the start"
        assert lobby.row(table)[4] == "waiting"
        shown = screen.panel_text("prompt")
        assert "waiting to start" in shown and "type 'start'" in shown
        assert table.seat_name(1) in shown.split("free:")[1]
        await type_line(p1, "take water")
        assert "has not started" in screen.panel_text("error")

        bob = ShipwreckApp(lobby, "bob")
        async with bob.run_test(size=(80, 24)) as p2:
            await type_line(p2, "join 1")
            bobs = seat_screen(bob)
            await p1.pause()
            assert f"{table.seat_name(1)} bob" in screen.panel_text("prompt")
            assert "every seat is taken" in screen.panel_text("prompt")
            assert "ann starts the game" in bobs.panel_text("prompt")
            await type_line(p2, "start")
            assert not table.started and "ann starts this table" in bobs.panel_text("error")
            await type_line(p1, "start now")
            assert not table.started and "start with bots" in screen.panel_text("error")
            await type_line(p1, "start")
            await p2.pause()
            assert table.started and lobby.row(table)[4] == "running"
            assert "waiting to start" not in bobs.panel_text("prompt")


@pytest.mark.parametrize(("words", "kind"), [("start", "empty"), ("start with bots", "bot")])
async def test_start_gives_free_seats_their_stand_in_and_start_with_bots_keeps_them(
    words: str, kind: str
) -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await type_line(pilot, "new sm 3 free sm_raider")
        table = seat_screen(app).table
        assert not table.started and table.commands == []
        await type_line(pilot, words)
        assert table.started
        assert table.seats[1].kind == kind and 1 in table.bots
        assert lobby.row(table)[4] == ("open" if kind == "empty" else "running")


def test_a_waiting_table_starts_by_itself_after_auto_start_seconds_and_waits_after_restart(
    tmp_path: Any,
) -> None:
    clock = Clock()
    lobby = Lobby(seed=1, clock=clock, auto_start_seconds=60)
    lobby.attach_store(Store(tmp_path / "s.db"))
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("bot", "loyal"), SeatSpec("empty")]
    table = lobby.create_table("lifeboat", seats, creator="ann", gather=True)
    assert not table.started
    again = Lobby(seed=2)
    assert again.attach_store(Store(tmp_path / "s.db")) == 1
    restored = again.get(table.id)
    assert restored is not None and not restored.started, "a restart does not start it"
    clock.now += 59
    lobby.tick()
    assert not table.started and table.commands == []
    clock.now += 1
    lobby.tick()
    assert table.started


# ---------------------------------------------------------------------- Ctrl+C and Escape ask first


@pytest.mark.parametrize("key", ["ctrl+c", "escape"])
async def test_ctrl_c_and_escape_at_a_table_ask_before_leaving(key: str) -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new")
        table = seat_screen(app).table
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and app.screen.question == BACK_TO_LOBBY
        await pilot.press("n")
        await pilot.pause()
        assert seat_screen(app).table is table
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert table.seat_of_player("ann") == 0 and table.seats[0].connected  # seat kept


@pytest.mark.parametrize("key", ["ctrl+c", "escape"])
async def test_ctrl_c_and_escape_go_to_the_lobby_at_once_where_no_seat_waits(key: str) -> None:
    """A stranger was asked "back to the lobby? your seat is kept" at a finished game: a
    spectator, or a player whose game is over, has no seat waiting, so nothing is asked."""
    from tui_helpers import lobby_with_table, play_my_seat_to_end

    lobby, table = lobby_with_table(("ann",))
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_my_seat_to_end(pilot, app, table)
        assert table.over
        await pilot.press(key)
        await pilot.pause()
        if key == "escape":  # (the first closes the end screen, and asks nothing)
            assert isinstance(app.screen, SeatScreen), app.screen
            await pilot.press(key)
            await pilot.pause()
        assert isinstance(app.screen, LobbyScreen), app.screen
    watcher = ShipwreckApp(lobby, "bob")
    async with watcher.run_test(size=(80, 24)) as pilot:
        running = lobby.create_table("lifeboat", [SeatSpec("bot", "loyal")] * 4, creator="ann")
        await type_line(pilot, f"watch {running.id}")
        await pilot.pause()
        assert isinstance(watcher.screen, SeatScreen) and watcher.screen.seat is None
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(watcher.screen, LobbyScreen), watcher.screen


async def test_ctrl_c_in_the_lobby_asks_before_quitting() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and app.screen.question == "quit Shipwreck?"
        await pilot.press("ctrl+c")  # a second Ctrl+C does not answer for the player
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and app.is_running
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen) and app.is_running
        await pilot.press("ctrl+c")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running


# ---------------------------------------------------------------------- snapshots


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_a_table_waiting_for_players(snap_compare: Any, size: tuple[int, int]) -> None:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), SeatSpec("empty"), SeatSpec("empty"), SeatSpec("bot", "loyal")]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=5, gather=True)
    assert table.sit(1, "bob") is None
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["lifeboat", "spanish_main"])
def test_snapshot_the_warning_before_the_table_plays_for_you(
    snap_compare: Any, game: str, size: tuple[int, int]
) -> None:
    clock = Clock()
    kinds = LIFEBOAT_KINDS if game == "lifeboat" else SEA_KINDS
    lobby = Lobby(seed=1, timers=dict.fromkeys(kinds, 40), clock=clock)
    table = two_player_table(lobby, game)
    table.prompt_shown(1)
    table.set_connected("bob", False)
    for _ in range(40):  # bob's decisions time out until it is ann's turn
        if table.deadline(0) is not None or table.view(0).choices:
            break
        clock.now += 41
        lobby.tick()
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        assert table.deadline(0) == 40
        clock.now += 33
        seat_screen(app).refresh_clock()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_snapshot_ctrl_c_asks_before_leaving_the_table(snap_compare: Any) -> None:
    lobby = Lobby(seed=1)
    seats = [SeatSpec("human"), *(SeatSpec("bot", b) for b in FORGIVING_BOTS)]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=5)
    app = ShipwreckApp(lobby, "ann", "SHA256:ann", open_table=table.id)
    assert snap_compare(app, terminal_size=(80, 24), press=["ctrl+c"])


def test_coming_back_says_how_long_is_left_to_decide_and_nothing_when_no_decision_waits() -> None:
    """A timed table's player coming back is told the time left for the decision waiting for
    them ("your clock ran while you were away" was wrong after a table moved to another worker,
    whose clocks start afresh), and nothing about a clock when no decision of theirs waits."""
    clock = Clock()
    lobby = Lobby(seed=1, timers=dict.fromkeys(LIFEBOAT_KINDS, 30), clock=clock)
    table = two_player_table(lobby)
    for player in ("ann", "bob"):
        table.set_connected(player, True)
        table.prompt_shown(table.seat_of_player(player))  # (both screens showed the game)
        table.set_connected(player, False)
    waiting = {p.seat for p in table.rules.prompts(table.state) if p.blocking}
    assert table.timed and waiting & {0, 1}, "one of them should have a decision"
    for seat in (0, 1):
        if seat in waiting:
            left = table.deadline(seat)
            assert left is not None
            assert (
                welcome_back(table, seat) == f"welcome back: {int(left)} s left for your decision"
            )
        else:
            assert table.deadline(seat) is None and welcome_back(table, seat) == ""
