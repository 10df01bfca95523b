"""Live tables: timers, autopilot, the one door into the engine (issue: never stall a table)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import msgspec
import pytest
from table_helpers import BOTS, FakeClock, Turns

from shipwreck.runtime import Lobby, SeatSpec, Table
from shipwreck.runtime import table as table_module
from shipwreck.runtime.table import LoopTurns


def table_with(
    clock: FakeClock, timers: dict[str, int], autopilot_after: int = 2, bob: bool = False
) -> Table:
    """Ann's table against bots; with ``bob``, bob sits at the second seat (two players)."""
    lobby = Lobby(seed=1, timers=timers, autopilot_after=autopilot_after, clock=clock)
    seats = [SeatSpec("human")] + [SeatSpec("empty")] * bob + [SeatSpec("bot", b) for b in BOTS]
    table = lobby.create_table("lifeboat", seats[:6], creator="ann", seed=7)
    if bob:
        assert table.sit(1, "bob") is None
    return table


def test_a_missed_deadline_plays_the_safe_default_from_the_system_seat() -> None:
    """At a table of two players; the clock starts once both screens have shown the game."""
    clock = FakeClock()
    kinds = ("supply", "turn", "keep", "fight", "respond", "navigate", "thirst", "overboard")
    table = table_with(clock, dict.fromkeys(kinds, 30), bob=True)
    view = table.view(0)
    assert view.choices, "ann has a decision to take"
    table.prompt_shown(0)
    assert table.deadline(0) is None, "bob's screen has not shown him the game yet"
    clock.now += 100
    assert table.tick() == 0
    table.prompt_shown(1)
    left = table.deadline(0)
    assert left is not None and 29.9 < left <= 30
    before = len(table.commands)
    clock.now += 29
    assert table.tick() == 0 and len(table.commands) == before
    clock.now += 2
    assert table.tick() == 1
    assert table.commands[before][0] == -1  # the system seat
    assert table.commands[before][1] == f"timeout {table.seat_name(0)}"
    assert any(e.kind == "timeout" for e in table.events)
    assert table.seats[0].misses == 1 and not table.seats[0].autopilot
    assert table.seats[0].played_for == "take " + view.supply_offer[0], "the one default played"


def test_missing_deadlines_in_a_row_starts_the_autopilot_and_acting_takes_it_back() -> None:
    """Bob, a second human who always answers at once, keeps the game going: so it is not
    over when ann's autopilot starts, and ``takeover`` must really give her the seat back."""
    clock = FakeClock()
    kinds = ("supply", "turn", "keep", "fight", "respond", "navigate", "thirst", "overboard")
    lobby = Lobby(seed=1, timers=dict.fromkeys(kinds, 10), autopilot_after=2, clock=clock)
    seats = [SeatSpec("human"), SeatSpec("human")] + [SeatSpec("bot", b) for b in BOTS[:4]]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=7)
    assert table.sit(1, "bob") is None
    table.prompt_shown(0)
    table.prompt_shown(1)

    def bob_answers() -> None:
        """Bob takes his open decision, if he has one."""
        if not table.over and table.deadline(1) is not None:
            assert table.submit(1, table.rules.default(table.state, 1)).ok

    def until_ann_must_act() -> None:
        for _ in range(50):
            if table.deadline(0) is not None:
                return
            bob_answers()
        raise AssertionError("the table never waited for ann")

    misses = 0
    while not table.seats[0].autopilot:
        until_ann_must_act()
        clock.now += 11
        assert table.tick() == 1
        misses += 1
        assert misses <= 2
    assert misses == 2 and not table.over
    ann_before = sum(seat == 0 for seat, _ in table.commands)
    for _ in range(10):  # the autopilot plays ann's seat; only bob is ever waited for
        if sum(seat == 0 for seat, _ in table.commands) > ann_before:
            break
        assert table.deadline(0) is None
        bob_answers()
    assert sum(seat == 0 for seat, _ in table.commands) > ann_before, "the autopilot idled"
    assert not table.over

    result = table.submit_text(0, "takeover")
    assert result.ok and result.message == "you have your seat back"
    assert not table.seats[0].autopilot and table.seats[0].misses == 0
    until_ann_must_act()  # the game goes on until it is ann's decision again, and waits there
    assert table.view(0).choices
    waiting = list(table.commands)
    bob_answers()
    clock.now += 9
    assert table.tick() == 0 and table.commands == waiting, "someone played ann's decision"


def test_a_lone_player_who_disconnects_pauses_the_table_until_they_are_back() -> None:
    """Issue 16: a dropped connection no longer hands a lone player's seat to the autopilot
    (which played the game out at once): the table pauses, and goes on when they are back."""
    clock = FakeClock()
    table = table_with(clock, {"supply": 5, "turn": 5, "keep": 5})
    assert table.deadline(0) is None, "a table with one player has no timers"
    while table.view(0).choices:  # ann plays a few decisions, then drops
        assert table.submit(0, table.rules.default(table.state, 0)).ok
        if len(table.commands) > 20:
            break
    table.set_connected("ann", False)
    assert not table.seats[0].autopilot and not table.seats[0].connected
    assert table.paused and not table.over
    before, view = list(table.commands), table.view(0)
    clock.now += 10_000
    assert table.tick() == 0 and table.commands == before, "someone played while ann was away"
    table.set_connected("ann", True)
    assert not table.paused and table.view(0).round == view.round
    assert table.view(0).choices == view.choices


def test_no_timer_means_the_table_waits() -> None:
    clock = FakeClock()
    table = table_with(clock, {})
    before = len(table.commands)
    clock.now += 10_000
    assert table.tick() == 0 and len(table.commands) == before
    assert table.deadline(0) is None


# ---------------------------------------------------------------------- paced bots (audit F4)


SM_BOTS = ("sm_raider", "sm_hauler", "sm_raider")
SM_PROMPTS = ("turn", "after_move", "board", "load", "respond", "fight")


def solo_autopilot(**kw: object) -> tuple[Lobby, FakeClock]:
    """A lobby whose lone players are timed and go on autopilot at their first miss: how a
    table comes to be played by nobody now that a dropped player's table pauses instead."""
    clock = FakeClock()
    timers = dict.fromkeys(SM_PROMPTS, 5)
    lobby = Lobby(seed=1, timers=timers, solo_timers=True, autopilot_after=1, clock=clock, **kw)  # type: ignore[arg-type]
    return lobby, clock


def miss_once(table: Table, clock: FakeClock, seat: int) -> None:
    """The player at ``seat`` lets their deadline pass: the autopilot takes the seat."""
    table.prompt_shown(seat)
    assert table.deadline(seat) is not None
    clock.now += 6
    assert table.tick() == 1 and table.seats[seat].autopilot


def sm_table(lobby: Lobby, seed: int, human_last: bool = False) -> Table:
    bots = [SeatSpec("bot", b) for b in SM_BOTS]
    seats = bots + [SeatSpec("human")] if human_last else [SeatSpec("human"), *bots]
    return lobby.create_table("spanish_main", seats, creator="ann", seed=seed)


def test_a_scheduled_turn_makes_at_most_k_bot_moves_then_yields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "BOT_SLICE_SECONDS", 60.0)  # only K bounds a turn here
    turns = Turns()
    lobby, clock = solo_autopilot(schedule=turns, bot_moves_per_turn=3, unattended_move_seconds=0.3)
    table = sm_table(lobby, seed=11)
    assert len(table.commands) <= 3, "creating the table made at most K moves"
    while not table.view(0).choices:  # SM-2 rolls who goes first: the bots may move before ann
        before = len(table.commands)
        assert turns.run_one().delay == 0.0
        assert len(table.commands) - before <= 3
    miss_once(table, clock, 0)  # on autopilot: nobody plays here now, so it is paced
    assert not table.over
    for _ in range(20):  # unattended: one move per turn, each turn asked for 0.3 s later
        before = len(table.commands)
        turn = turns.run_one()
        assert turn.delay == 0.3
        assert len(table.commands) == before + 1
    table.set_connected("ann", True)  # back: the autopilot is off, the bots are not paced
    assert turns.run_one().delay == 0.3  # (the slice asked for while nobody played)
    waited, per_turn = 0, []
    while not table.over:
        before = len(table.commands)
        if not any(not t.cancelled for t in turns.queue):  # the bots wait for ann
            assert table.view(0).choices
            assert table.submit(0, table.rules.default(table.state, 0)).ok
            waited += 1
            continue
        turn = turns.run_one()
        assert turn.delay == 0.0
        per_turn.append(len(table.commands) - before)
    assert waited > 5 and per_turn, "ann was asked to act between the bots' turns"
    assert max(per_turn) == 3, f"a loop turn made more than K bot moves, or never K: {per_turn}"


def test_paced_bots_play_the_same_game_as_bots_at_once() -> None:
    """Same seed and the same human inputs: a table whose bots are spread over loop turns
    (and paced once nobody plays) logs the same commands and reaches the same game as one
    whose bots answer at once."""
    games: list[Table] = []
    for schedule in (None, Turns()):
        lobby, clock = solo_autopilot(schedule=schedule, bot_moves_per_turn=2)
        table = sm_table(lobby, seed=5, human_last=True)
        for _ in range(6):  # ann answers her own prompts six times, then goes away
            if isinstance(schedule, Turns):
                schedule.drain()
            assert table.view(3).choices, "ann has a decision to take"
            assert table.submit(3, table.rules.default(table.state, 3)).ok
        if isinstance(schedule, Turns):
            schedule.drain()
        miss_once(table, clock, 3)  # then lets her clock run out: the autopilot plays on
        if isinstance(schedule, Turns):
            assert not table.over, "an unattended table does not play on at once"
            assert schedule.drain() > 50
        assert table.over
        games.append(table)
    at_once, paced = games
    assert paced.commands == at_once.commands
    assert msgspec.json.encode(paced.state) == msgspec.json.encode(at_once.state)
    assert paced.events == at_once.events


async def test_loop_turns_share_one_slice_per_loop_turn_among_all_tables() -> None:
    """The server's scheduler: forty tables that always have bot work (each slice ~1 ms, then
    asking again at once) still leave the loop free every few milliseconds, and each of
    them gets turns."""
    turns = LoopTurns(budget=0.005)
    runs, stop = [0] * 40, False

    def work(i: int) -> Callable[[], None]:
        def slice_() -> None:
            runs[i] += 1
            end = time.perf_counter() + 0.001
            while time.perf_counter() < end:
                pass
            if not stop:
                turns(0.0, slice_)

        return slice_

    for i in range(40):
        turns(0.0, work(i))
    worst = 0.0
    for _ in range(100):
        before = time.perf_counter()
        await asyncio.sleep(0)
        worst = max(worst, time.perf_counter() - before)
        if worst >= 0.05:
            break
    stop = True
    assert worst < 0.05, f"a loop turn waited {worst:.3f} s behind the bots"
    assert min(runs) >= 2, f"some tables got no turn: {runs}"


def test_a_command_typed_while_bots_are_still_to_move_is_applied_in_order() -> None:
    """With bot work still scheduled, a human's free action goes in at once, where it was
    typed; the bots then carry on, and the log replays to the same game."""
    turns = Turns()
    lobby = Lobby(seed=1, schedule=turns, bot_moves_per_turn=1)
    seats = [SeatSpec("bot", b) for b in BOTS] + [SeatSpec("human")]
    table = lobby.create_table("lifeboat", seats, creator="ann", seed=3)
    for _ in range(20):  # ann answers until bots still have moves to make after her answer
        turns.drain()
        assert table.submit(5, table.rules.default(table.state, 5)).ok
        if any(not t.cancelled for t in turns.queue):
            break
    else:
        raise AssertionError("the bots never had more than one move to make")
    at = len(table.commands)
    result = table.submit_text(5, "say ahoy")
    assert result.ok, result.message
    assert table.commands[at] == (5, "say ahoy")
    turns.drain()
    assert len(table.commands) > at + 1 and table.view(5).choices
    again = Table("lifeboat", table.seat_specs(), table.seed, replay=table.commands)
    assert msgspec.json.encode(again.state) == msgspec.json.encode(table.state)
