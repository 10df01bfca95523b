"""Arena throughput, and how many games it takes to tell two bots apart.

    .venv/bin/python bench/arena.py --games 200 --workers 1 2
    .venv/bin/python bench/arena.py --separate 40 --games 60     # 40 tournaments of 60 games

Throughput: one tournament of ``--games`` games of hoarder against random at 6 seats, per worker
count (the results are checked identical). Separation: ``--separate`` tournaments from different
seeds; for each game count n, the share of tournaments whose ratings after n games put hoarder
above random, the first n from which that share stays at 95 % or more, the mean rating gap
(mu) there, and (for comparison) after how many games openskill's own sigmas say so with 95 %
confidence (``ahead_from``; often never, as each game adds the model's drift to sigma).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.arena.league import ahead_from, ratings_history  # noqa: E402
from shipwreck.arena.tournament import load_bots, play  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes): on a
    shared machine, what a game costs, whatever else runs."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    p.add_argument("--separate", type=int, default=0, help="tournaments for the separation")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    bots = load_bots("lifeboat", ["hoarder", "random"])
    print(f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.2f}")
    first = None
    for k in a.workers:
        cpu = _cpu()
        t = play("lifeboat", bots, a.games, a.seed, 6, workers=k)
        cpu = _cpu() - cpu
        if first is None:
            first = t.games
        assert t.games == first, "results differ between worker counts"
        print(
            f"workers={k} games={a.games} seconds={t.seconds:.2f}"
            f" games_per_s={a.games / t.seconds:.1f} cpu_ms_per_game={1000 * cpu / a.games:.1f}"
        )
    if not a.separate:
        return
    right: list[int] = [0] * a.games
    gaps: list[list[float]] = [[] for _ in range(a.games)]
    confident: list[int | None] = []
    k = max(a.workers)
    for i in range(a.separate):
        t = play("lifeboat", bots, a.games, a.seed + 100_000 * (i + 1), 6, workers=k)
        h = ratings_history(t)
        for n in range(a.games):
            gap = h["hoarder"][n].mu - h["random"][n].mu
            gaps[n].append(gap)
            right[n] += gap > 0
        confident.append(ahead_from(t, "hoarder", "random"))
    share = [r / a.separate for r in right]
    since = next((n for n in range(a.games) if all(s >= 0.95 for s in share[n:])), None)
    for n in (1, 2, 3, 5, 10, 20, 40, a.games):
        if n <= a.games:
            print(
                f"after {n:>3} games: hoarder above random in {share[n - 1]:.0%}"
                f" of {a.separate}, mean gap {statistics.fmean(gaps[n - 1]):.2f}"
            )
    if since is not None:
        print(
            f"95 % of tournaments rank hoarder above random from game {since + 1} on;"
            f" mean mu gap there {statistics.fmean(gaps[since]):.2f}"
            f" (min {min(gaps[since]):.2f})"
        )
    reached = [c for c in confident if c is not None]
    print(
        f"openskill's sigmas say 95 % (and keep saying it) in {len(reached)} of {a.separate};"
        f" median game {statistics.median(reached) if reached else '-'}"
    )


if __name__ == "__main__":
    main()
