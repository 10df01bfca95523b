"""``serve --workers N`` with more workers than cores warns the operator (issue 21: two
workers sharing one core made every screen lag ten times more than one process on it)."""

from __future__ import annotations

from shipwreck.server.workers import too_many_workers, usable_cores


def test_as_many_workers_as_cores_or_fewer_is_not_warned_about() -> None:
    assert too_many_workers(2, 2) is None
    assert too_many_workers(1, 4) is None


def test_more_workers_than_cores_is_one_line_that_says_how_many_to_run() -> None:
    warning = too_many_workers(4, 2)
    assert warning is not None
    assert "\n" not in warning
    assert warning.startswith("4 workers on 2 cores")
    assert "--workers 2 or fewer" in warning
    assert too_many_workers(2, 1) == (
        "2 workers on 1 core: workers sharing a core wait for each other's turns and every"
        " player's screen lags; --workers 1 or fewer is faster (docs/deploy.md)"
    )


def test_the_cores_counted_are_the_ones_this_process_may_use() -> None:
    import os

    assert usable_cores() == len(os.sched_getaffinity(0))
