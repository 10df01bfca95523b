"""Fixes from a stranger's play-test (issue 16): refusals that said "waiting for" the player
themselves, ``say`` before a table starts, ``leave`` that asks first, ``join N SEAT-ID``, and
the hints of a watched seat and of ``legend`` at a Spanish Main table."""

from __future__ import annotations

import pytest

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.lifeboat import RULES as LIFEBOAT
from shipwreck.games.lifeboat import commands as LC
from shipwreck.games.spanish_main import RULES as SPANISH_MAIN
from shipwreck.games.spanish_main import commands as SC


def refusal(rules: object, state: object, seat: int, cmd: object) -> str:
    with pytest.raises(IllegalCommand) as e:
        rules.apply(state, seat, cmd)  # type: ignore[attr-defined]
    return str(e.value)


# ------------------------------------------------- 1. "waiting for" never names the player


def test_lb11_take_out_of_the_supply_phase_tells_the_turn_holder_it_is_their_turn() -> None:
    """LB-11: 'take' is for the supply phase; the seat whose turn it is hears what to do."""
    state, _ = LIFEBOAT.new_game(5, 6)
    while state.step == "pick":
        picker = state.players.index(state.pickers[0])
        LIFEBOAT.apply(state, picker, LC.Take(state.offer[0]))
    assert state.step == "turn"
    me = state.players.index(state.order[state.turn])
    text = refusal(LIFEBOAT, state, me, LC.Take("water"))
    assert text.startswith("'take' is for the supply phase; it is your turn: row, rest")
    assert f"waiting for {state.players[me]}" not in text
    other = (me + 1) % 6
    assert refusal(LIFEBOAT, state, other, LC.Take("water")).endswith(
        f"waiting for {state.players[me]} (turn)"
    )


def test_sm30_a_refusal_while_the_player_must_load_names_the_load_not_the_player() -> None:
    """SM-30: after an explore the explorer loads; their other commands say so."""
    state, _ = SPANISH_MAIN.new_game(3, 2)
    me = SPANISH_MAIN.prompts(state)[0].seat
    text = refusal(SPANISH_MAIN, state, me, SC.Load("x", ()))
    assert "it is your turn: move" in text
    assert f"waiting for {state.seats[me]}" not in text
    assert refusal(SPANISH_MAIN, state, 1 - me, SC.EndTurn()).endswith(
        f"waiting for {state.seats[me]} (turn)"
    )


# ------------------------------------------------------------------ the TUI

from typing import Any  # noqa: E402

from textual.pilot import Pilot  # noqa: E402

from shipwreck.runtime import Lobby, SeatSpec, Table  # noqa: E402
from shipwreck.tui import ShipwreckApp  # noqa: E402
from shipwreck.tui.app import TAKEN_OVER  # noqa: E402
from shipwreck.tui.base import AppScreen, SeatScreen  # noqa: E402
from shipwreck.tui.confirm import Confirm  # noqa: E402
from shipwreck.tui.lifeboat.screen import HelpScreen  # noqa: E402
from shipwreck.tui.lobby.screen import LobbyScreen  # noqa: E402
from shipwreck.tui.spanish_main.screen import SeaFleetScreen, SpanishMainScreen  # noqa: E402

BOTS = ["survivor", "loyal", "predator", "hoarder"]


async def type_line(pilot: Pilot[Any], line: str) -> None:
    await pilot.press(*line, "enter")
    await pilot.pause()


def error(app: ShipwreckApp) -> str:
    screen = app.screen
    assert isinstance(screen, AppScreen), screen
    return " ".join(screen.panel_text("error").split())


def seat_screen(app: ShipwreckApp) -> SeatScreen:
    assert isinstance(app.screen, SeatScreen), app.screen
    return app.screen


def waiting_table(lobby: Lobby) -> Table:
    """Ann's Lifeboat table, not started, with bob in its second seat."""
    seats = [SeatSpec("human"), SeatSpec("empty"), *(SeatSpec("bot", b) for b in BOTS)]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=11, gather=True)
    assert table.sit(1, "bob") is None and not table.started
    return table


# ------------------------------------------------- 2. say before the start is table chat


async def test_say_before_the_start_is_table_chat_and_the_hint_and_help_agree() -> None:
    lobby = Lobby(seed=1)
    table = waiting_table(lobby)
    bob = ShipwreckApp(lobby, "bob")
    async with bob.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"open {table.id}")
        screen = seat_screen(bob)
        hint = screen.panel_text("prompt")
        assert "'say TEXT' to talk meanwhile" in hint and "chat" not in hint
        await type_line(pilot, "say hello")
        assert error(bob) == "", "say works before the start"
        assert [(c.sender, c.text) for c in table.chat][-1] == ("bob", "hello")
        await type_line(pilot, "help")
        helped = bob.screen
        assert isinstance(helped, HelpScreen)
        listed = {e.usage: e.description for _, es in helped.sections() for e in es}
        assert "also while it waits to start" in listed["say TEXT"]


async def test_a_refusal_while_the_table_waits_is_cleared_when_it_starts() -> None:
    lobby = Lobby(seed=1)
    table = waiting_table(lobby)
    bob = ShipwreckApp(lobby, "bob")
    async with bob.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"open {table.id}")
        await type_line(pilot, "row")
        assert "has not started" in error(bob)
        assert table.start("ann") is None
        await pilot.pause(0.2)
        assert table.started and "waiting to start" not in seat_screen(bob).panel_text("prompt")
        assert error(bob) == ""


# ------------------------------------------------- 3. leave asks, and the lobby says so


async def test_leave_asks_before_giving_up_the_seat_and_the_lobby_says_so() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new")
        table = seat_screen(app).table
        await type_line(pilot, "leave")
        assert isinstance(app.screen, Confirm)
        assert app.screen.question == f"give up your seat at table {table.id}?"
        await pilot.press("n")
        await pilot.pause()
        assert seat_screen(app).table is table and table.seat_of_player("ann") == 0
        await type_line(pilot, "leave")
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert table.seat_of_player("ann") is None
        assert error(app) == (
            f"you left table {table.id}; 'join {table.id}' sits again if the seat is free"
        )


# ------------------------------------------------- 4. join N SEAT-ID


async def test_join_takes_a_seat_by_its_id_and_a_wrong_id_lists_the_free_seats() -> None:
    lobby = Lobby(seed=1)
    seats = [
        SeatSpec("human"),
        SeatSpec("empty"),
        SeatSpec("empty"),
        *(SeatSpec("bot", b) for b in BOTS),
    ]
    table = lobby.create_table("lifeboat", seats[:6], creator="ann", seed=11, gather=True)
    second, third = table.seat_name(1), table.seat_name(2)
    bob = ShipwreckApp(lobby, "bob")
    async with bob.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"join {table.id} nobody")
        assert error(bob) == (
            f"table {table.id} has no seat 'nobody'; free: {second}, {third}"
            f" (e.g. 'join {table.id} {second}')"
        )
        await type_line(pilot, f"join {table.id} {table.seat_name(0)}")
        assert error(bob).startswith(f"seat 1 is taken; free: {second}, {third}")
        await type_line(pilot, f"join {table.id} {third}")
        assert seat_screen(bob).seat == 2 and table.seat_of_player("bob") == 2


# ------------------------------------------------- 5. a watched seat, and legend at sea


async def test_a_seat_taken_by_another_session_says_takeover_which_takes_it_back() -> None:
    lobby = Lobby(seed=1)
    first = ShipwreckApp(lobby, "ann")
    async with first.run_test(size=(80, 24)) as p1:
        await type_line(p1, "new")
        table = seat_screen(first).table
        second = ShipwreckApp(lobby, "ann")
        async with second.run_test(size=(80, 24)) as p2:
            await type_line(p2, f"open {table.id}")
            assert seat_screen(second).seat == 0
            await p1.pause(0.2)
            assert seat_screen(first).seat is None
            assert TAKEN_OVER in error(first)  # whole, at 80 columns
            await type_line(p1, "takeover")
            await p1.pause(0.2)
            assert seat_screen(first).seat == 0 and seat_screen(first).table is table
            assert len(first.screen_stack) == 2, first.screen_stack  # replaced, not stacked
            await p2.pause(0.2)
            assert seat_screen(second).seat is None


async def test_legend_at_a_spanish_main_table_opens_the_fleet_screen_and_says_why() -> None:
    lobby = Lobby(seed=1)
    app = ShipwreckApp(lobby, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "new sm 2 sm_raider")
        await type_line(pilot, "start")
        screen = app.screen
        assert isinstance(screen, SpanishMainScreen)
        await type_line(pilot, "legend")
        assert isinstance(app.screen, SeaFleetScreen)
        assert screen.panel_text("error").startswith("Spanish Main has no legend: F3 (or 'ships')")


def test_a_refusal_never_names_a_prompt_by_its_program_word() -> None:
    """Play-test: "your decision now: after_move: tow SHIP X…" showed a prompt's kind as the
    program spells it. The seat that must decide hears what to type; the others, the kind in
    words."""
    from shipwreck.engine.core import Prompt, waiting_text

    do_now = {"after_move": "tow SHIP X, ram SHIP X, or pass"}
    prompts = [Prompt(0, "after_move")]
    mine = waiting_text(0, prompts, ["red", "blue"], do_now)
    assert mine == "decide first: tow SHIP X, ram SHIP X, or pass"
    assert waiting_text(0, prompts, ["red", "blue"], {}) == "decide first (after move)"
    assert waiting_text(1, prompts, ["red", "blue"], do_now) == "waiting for red (after move)"
    hidden = waiting_text(1, prompts, ["red", "blue"], do_now, hidden=("after_move",))
    assert hidden == "waiting for the after move step to finish"
    assert "_" not in mine + hidden
