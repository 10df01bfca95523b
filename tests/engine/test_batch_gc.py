"""The garbage collector's batch schedule (``shipwreck.batch_gc``): on while a batch of games
plays, everything put back after, and the games the same either way."""

from __future__ import annotations

import gc

from shipwreck.batch_gc import YOUNG_THRESHOLD, batch_gc
from shipwreck.resources import bots_dir
from shipwreck.sim import simulate_bots


def test_a_batch_freezes_and_collects_young_objects_less_often_then_puts_everything_back() -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with batch_gc():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, before[1], before[2])
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_batch_inside_a_process_with_its_own_schedule_leaves_that_schedule_alone() -> None:
    """The server freezes start-up and sets its own thresholds (server/gc_policy)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(12_345, 7, 3)
    try:
        frozen = gc.get_freeze_count()
        with batch_gc():
            assert gc.get_threshold() == (12_345, 7, 3)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_batch_puts_the_schedule_back_when_a_game_fails() -> None:
    before = gc.get_threshold()
    try:
        with batch_gc():
            raise ValueError("a bot file refused mid-batch")
    except ValueError:
        pass
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_games_of_a_batch_are_the_same_with_the_collector_on_its_batch_schedule() -> None:
    """SM-40 ends, scores and seats: the schedule changes when memory is freed, never a game."""
    hauler = str(bots_dir() / "sm_hauler.bot")
    batch = simulate_bots("spanish_main", 3, [hauler, hauler], 5, 2)
    gc.freeze()  # (batch_gc then leaves Python's own schedule in force)
    try:
        python = simulate_bots("spanish_main", 3, [hauler, hauler], 5, 2)
    finally:
        gc.unfreeze()
    assert batch.standings == python.standings
    assert batch.ends == python.ends
    assert batch.seat_wins == python.seat_wins
