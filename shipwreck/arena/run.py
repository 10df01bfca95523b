"""Where a tournament's games are played: here, in worker processes, or on a Dask cluster.

All three play the same :class:`~shipwreck.arena.match.Job` list with the same
:func:`~shipwreck.arena.match.play_jobs` and hand the records back in game order, so the
ratings (computed afterwards, game by game) are the same whatever played them.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from shipwreck.arena.match import ArenaBot, GameRecord, Job, play_jobs

Progress = Callable[[int], None]
"""Told how many more games have finished."""


class ClusterError(Exception):
    """The Dask cluster could not be used (not installed, not reachable)."""


def batches(jobs: Sequence[Job], workers: int) -> list[list[Job]]:
    """Jobs in batches: a few per worker, so the progress bar moves and the last batch does not
    leave the other workers idle long, but a game's few milliseconds are not spent on
    messages."""
    size = max(1, min(16, len(jobs) // (workers * 8) or 1))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def _in_order(done: Iterator[list[GameRecord]], progress: Progress) -> list[GameRecord]:
    records: list[GameRecord] = []
    for batch in done:
        records.extend(batch)
        progress(len(batch))
    records.sort(key=lambda r: r.no)
    return records


def play_here(
    game: str, bots: Sequence[ArenaBot], jobs: Sequence[Job], progress: Progress
) -> list[GameRecord]:
    return _in_order((play_jobs(game, bots, b) for b in batches(jobs, 1)), progress)


def play_processes(
    game: str, bots: Sequence[ArenaBot], jobs: Sequence[Job], workers: int, progress: Progress
) -> list[GameRecord]:
    """In ``workers`` processes, started fresh ("spawn": nothing of this process, such as the
    progress bar's thread, is copied into them)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(play_jobs, game, list(bots), b) for b in batches(jobs, workers)]
        return _in_order((f.result() for f in as_completed(futures)), progress)


def play_cluster(
    game: str, bots: Sequence[ArenaBot], jobs: Sequence[Job], address: str, progress: Progress
) -> list[GameRecord]:
    """On the Dask distributed cluster whose scheduler is at ``address``; its workers need
    shipwreck installed (docs/arena.md)."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask: pip install 'shipwreck[cluster]' (dask[distributed])"
        ) from None
    try:
        client = Client(address, timeout="20s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        futures = [
            client.submit(play_jobs, game, list(bots), b, pure=False)
            for b in batches(jobs, workers)
        ]
        done = dask_completed(futures)  # type: ignore[no-untyped-call]
        return _in_order((f.result() for f in done), progress)
    finally:
        client.close()  # type: ignore[no-untyped-call]


def play_all(
    game: str,
    bots: Sequence[ArenaBot],
    jobs: Sequence[Job],
    workers: int = 1,
    cluster: str = "",
    progress: Progress = lambda n: None,
) -> list[GameRecord]:
    """Every job's record, in game order: on ``cluster`` if given, else in ``workers``
    processes (here, if one)."""
    if cluster:
        return play_cluster(game, bots, jobs, cluster, progress)
    if workers > 1:
        return play_processes(game, bots, jobs, workers, progress)
    return play_here(game, bots, jobs, progress)
