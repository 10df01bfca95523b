"""Spanish Main's hint line gives whole commands (play-test #14): every item shown on my turn
parses and is legal in the engine as typed, at the start and as the game goes on. A ship with
no move worth trying gets no ``move: SHIP`` stub."""

from __future__ import annotations

import copy

import pytest
from sea_helpers import hint_items

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES as GAME
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import parse_command
from shipwreck.lang.spanish_main import suggested_moves


def assert_all_work(state: SpanishMainState, seat: int) -> list[str]:
    """SM-10: each hint, typed as shown, parses and the engine takes it (on a copy)."""
    view = GAME.view(state, seat)
    assert isinstance(view, SpanishMainView)
    items = hint_items(view)
    assert items, "an empty hint line"
    for text in items:
        cmd = parse_command("spanish_main", text, view)
        try:
            GAME.apply(copy.deepcopy(state), seat, cmd)
        except IllegalCommand as e:
            raise AssertionError(f"the hint {text!r} is refused: {e}") from None
    return items


def turn_seat(state: SpanishMainState) -> int | None:
    return next((p.seat for p in GAME.prompts(state) if p.kind == "turn"), None)


def settle(state: SpanishMainState) -> None:
    """Answer whatever follows a command (tow or ram, a load, a lost mast) with the default,
    once each of its choices shown (after the ``choices:`` label) is checked as typed."""
    while not state.over:
        open_ = [p for p in GAME.prompts(state) if p.blocking and p.kind != "turn"]
        if not open_:
            return
        view = GAME.view(state, open_[0].seat)
        assert isinstance(view, SpanishMainView)
        for text in hint_items(view):
            cmd = parse_command("spanish_main", text.removeprefix("choices: "), view)
            GAME.apply(copy.deepcopy(state), open_[0].seat, cmd)
        cmd = GAME.default(state, open_[0].seat)
        assert cmd is not None
        GAME.apply(state, open_[0].seat, cmd)


@pytest.mark.parametrize("seats", (2, 3, 4))
@pytest.mark.parametrize("seed", (1, 2, 3, 5, 7))
def test_every_hint_is_a_whole_legal_command_at_the_start_and_as_play_goes_on(
    seats: int, seed: int
) -> None:
    """SM-10, SM-12..SM-16: for each ship, at the start and after each command of four rounds
    (each seat plays the first hint, then the next, as the sea then is), every hint shown
    parses and is legal; a ship that may move is offered a move when one moves her at all."""
    state, _ = GAME.new_game(seed, seats)
    checked = 0
    for _ in range(4 * seats):
        seat = turn_seat(state)
        if seat is None or state.over:
            break
        for _ in range(6):  # at most one action per ship (plus what follows it)
            items = assert_all_work(state, seat)
            checked += len(items)
            assert not any(": " in text for text in items), items  # no "move: dover" stub
            actions = [t for t in items if t != "end turn" and not t.startswith("break tow")]
            if not actions or turn_seat(state) != seat:
                break
            view = GAME.view(state, seat)
            GAME.apply(state, seat, parse_command("spanish_main", actions[0], view))
            settle(state)
            if turn_seat(state) != seat:
                break
        if turn_seat(state) == seat:
            GAME.apply(state, seat, C.EndTurn())
            settle(state)
    assert checked > 10 * seats


def test_a_ship_whose_useful_moves_are_blocked_still_gets_a_whole_move_or_none() -> None:
    """The play-test's ``move: plantagenet``: with her neighbours moved away on one side, a
    harbour ship's best way out may sail little; the hint is then the furthest legal move
    tried, never the ship's name alone. Each ship's hint, if any, starts 'move SHIP '."""
    for seed in (2, 3, 4, 5, 6, 7):
        state, _ = GAME.new_game(seed, 2)
        for _ in range(3):  # a few rounds of the first hint each, so the harbours crowd
            seat = turn_seat(state)
            assert seat is not None
            view = GAME.view(state, seat)
            hints = suggested_moves(view)
            for ship, text in hints.items():
                assert text.startswith(f"move {ship} "), text
            for text in assert_all_work(state, seat)[:1]:
                if text != "end turn":
                    GAME.apply(state, seat, parse_command("spanish_main", text, view))
                    settle(state)
            if turn_seat(state) == seat:
                GAME.apply(state, seat, C.EndTurn())
                settle(state)
