"""What a stranger's play-test over real OpenSSH found in a session (issue 16, s24): keys in one
burst on an end screen, free actions and the turn clock, a creator who walks away, reserved
names, a second session's notice at 80 columns, long pastes, the confirm box's words, and the
lobby telling me it is my turn."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.pilot import Pilot
from tui_helpers import lobby_with_table, play_my_seat_to_end

from shipwreck.runtime import Lobby, SeatSpec
from shipwreck.tui import ShipwreckApp
from shipwreck.tui.base import EndOfGame
from shipwreck.tui.lifeboat.screen import TableScreen
from shipwreck.tui.lobby.screen import LobbyScreen
from shipwreck.tui.widgets import CommandLine

SIZE = (80, 24)


async def burst(pilot: Pilot[Any], keys: str) -> None:
    """Post ``keys`` to the app all at once, as one SSH packet delivers them ('\\r' is Enter),
    then let the app handle them."""
    for ch in keys:
        pilot.app.post_message(events.Key("enter" if ch == "\r" else ch, ch))
    await pilot.pause()
    await pilot.pause()


def command_line(app: ShipwreckApp) -> CommandLine:
    return app.screen.query_one("#command", CommandLine)


# ------------------------------------------------------------------ 1. a burst on an end screen


async def test_keys_in_one_burst_close_the_lifeboat_end_screen_once() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        end = app.screen
        assert isinstance(end, EndOfGame)
        await burst(pilot, "xy")
        assert isinstance(app.screen, TableScreen), app.screen_stack
        assert end not in app.screen_stack
        assert command_line(app).value == "xy"  # every key typed, none lost on the box
        await burst(pilot, "\x7f\x7f")  # (backspace: an ordinary key again)
        command_line(app).value = ""
        await burst(pilot, "lobby\r")
        assert isinstance(app.screen, LobbyScreen)


async def test_a_burst_ending_in_enter_runs_the_line_below_the_end_screen() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        assert isinstance(app.screen, EndOfGame)
        await burst(pilot, "lobby\r")
        assert isinstance(app.screen, LobbyScreen), app.screen_stack


async def test_escape_then_keys_in_one_burst_close_the_end_screen_once() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await play_my_seat_to_end(pilot, app, table)
        assert isinstance(app.screen, EndOfGame)
        await burst(pilot, "\rab")  # Enter closes it; the rest are typed below
        assert isinstance(app.screen, TableScreen), app.screen_stack
        assert command_line(app).value == "ab"


async def test_a_spectator_types_lobby_in_one_burst_on_a_just_ended_game() -> None:
    lobby, table = lobby_with_table()
    seat = 0
    from tui_helpers import play_to_end

    player = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with player.run_test(size=SIZE) as pilot:
        await play_to_end(pilot, table, seat)
    watcher = ShipwreckApp(lobby, "bob")
    async with watcher.run_test(size=SIZE) as pilot:
        await burst(pilot, f"watch {table.id}\r")
        assert isinstance(watcher.screen, EndOfGame)
        await burst(pilot, "lobby\r")
        assert isinstance(watcher.screen, LobbyScreen), watcher.screen_stack


async def test_keys_in_one_burst_close_the_spanish_main_end_screen_once() -> None:
    from sea_helpers import ok, sm_view

    from shipwreck.tui.spanish_main.screen import SeaEndScreen, SpanishMainScreen

    lobby = Lobby(seed=1)
    table = lobby.create_table("spanish_main", [SeatSpec("human"), SeatSpec("empty")], "ann", 5)
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(300):
            if table.over:
                break
            ok(table, 0, sm_view(table, 0).choices[-1])
        await pilot.pause()
        assert isinstance(app.screen, SeaEndScreen)
        await burst(pilot, "abc")
        assert isinstance(app.screen, SpanishMainScreen), app.screen_stack
        assert command_line(app).value == "abc"


async def test_the_tutorials_last_word_typed_in_one_burst_goes_to_the_lobby() -> None:
    from tui_helpers import follow_the_coach, open_tutorial

    app = ShipwreckApp(Lobby(seed=1), "ann")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_tutorial(pilot, "tutorial")
        await follow_the_coach(pilot, table)
        await pilot.pause()
        assert isinstance(app.screen, EndOfGame)
        await burst(pilot, "lobby\r")
        assert isinstance(app.screen, LobbyScreen), app.screen_stack


# ------------------------------------------------------------------ 2. free actions and the clock


def test_free_actions_never_give_a_fresh_deadline() -> None:
    """Saying something or making an offer answers no prompt (LB-13: trades are free
    actions): the seat's countdown runs on instead of starting again."""
    from table_helpers import LIFEBOAT_KINDS, Clock, two_player_table

    from shipwreck.games.lifeboat import rules as lb_rules
    from shipwreck.lang import format_command

    clock = Clock()
    lobby = Lobby(seed=1, timers=dict.fromkeys(LIFEBOAT_KINDS, 120), clock=clock)
    table = two_player_table(lobby)
    table.set_connected("ann", True)
    table.set_connected("bob", True)
    table.prompt_shown(0)
    table.prompt_shown(1)
    seat = next(s for s in (0, 1) if table.deadline(s) is not None)
    clock.now += 14
    assert table.deadline(seat) == 106
    assert table.submit_text(seat, "say stalling").ok
    assert table.deadline(seat) == 106, "say gave a fresh deadline"
    offers = [c for c in lb_rules.free_actions(table.state, seat) if type(c).__name__ == "Offer"]
    if offers:
        clock.now += 1
        assert table.submit_text(seat, format_command(offers[0])).ok
        assert table.deadline(seat) == 105, "an offer gave a fresh deadline"
    answer = format_command(table.view(seat).choices[0])
    assert table.submit_text(seat, answer).ok  # answering the prompt ends this deadline
    assert table.deadline(seat) in (None, 120)


# ------------------------------------------------------------------ 8. the confirm box's words


async def test_escape_at_a_table_asks_about_the_lobby_and_says_the_seat_is_kept() -> None:
    """Escape keeps the seat (``leave`` is the word that gives it up): the question says so."""
    from shipwreck.tui.confirm import Confirm

    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        box = app.screen
        assert isinstance(box, Confirm)
        assert "leave" not in box.question
        assert "lobby" in box.question and "seat is kept" in box.question
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert table.seat_of_player("ann") == 0  # kept, as it said


# ------------------------------------------------------------------ 4. names that read like seats


def test_names_that_read_like_seats_or_bots_are_reserved() -> None:
    from shipwreck.lang.bots import shipped_names
    from shipwreck.names import reserved_player_name

    bots = set(shipped_names())
    for name in ("bot", "BOT", "B0T", "random", "free", "you", *sorted(bots)):
        assert reserved_player_name(name, bots), name
    for name in ("ann", "stephen", "robot", "bot_fan"):
        assert not reserved_player_name(name, bots), name


# ------------------------------------------------------------------ 6. a paste too long


async def test_a_paste_too_long_keeps_what_fits_and_says_so() -> None:
    lobby, table = lobby_with_table()
    app = ShipwreckApp(lobby, "ann", open_table=table.id, line_length=500)
    async with app.run_test(size=SIZE) as pilot:
        line = command_line(app)
        line.focus()
        await pilot.pause()
        line.post_message(events.Paste("say " + "x" * 600))
        await pilot.pause()
        assert line.value == ("say " + "x" * 600)[:500]
        screen: Any = app.screen
        assert "cut at 500 characters" in " ".join(screen.panel_text("error").split())
