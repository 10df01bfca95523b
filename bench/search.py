"""A search bot's cost: how long one decision thinks, and how long it holds the event loop.

    .venv/bin/python bench/search.py                  # admiral, 2 paced tables' worth
    .venv/bin/python bench/search.py --moves 120 --bot admiral

(a) Decision time: a table of five ``--bot`` seats and one human who answers with the safe
    default, played at once (no loop); every bot decision is timed (``BotPlayer.decide``) in
    CPU seconds of this process (one core's work, not inflated by other processes).
(b) Loop lag: the same table on a running asyncio loop with the server's scheduler
    (``runtime.table.LoopTurns``): a ticker awaits ``asyncio.sleep(0)`` and records how long each
    turn of the loop took to come back, while the bots think in slices. That is how long any other
    session would wait for its keystroke to be handled.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.runtime.table import LoopTurns, SeatSpec, Table  # noqa: E402
from shipwreck.sim import percentiles  # noqa: E402


def table(bot: str, seed: int, schedule: Any) -> Table:
    seats = [SeatSpec("human", player="ann"), *[SeatSpec("bot", bot)] * 5]
    return Table("lifeboat", seats, seed=seed, schedule=schedule)


def ann_moves(t: Table) -> None:
    if not t.over and t.view(0).choices:
        t.submit(0, t.rules.default(t.state, 0))


def decision_times(bot: str, seed: int, moves: int) -> tuple[list[float], list[float]]:
    """Every decision's seconds, and those of the decisions a search took."""
    t = table(bot, seed, None)
    spent: list[float] = []
    searched: list[float] = []
    for b in t.bots.values():
        decide = b.decide

        def timed(view: Any, kind: str, defer: bool = False, decide: Any = decide) -> Any:
            t0 = time.process_time()  # CPU seconds: one core's cost, whatever else runs
            d = decide(view, kind, defer)
            spent.append(time.process_time() - t0)
            if d.entry.search:
                searched.append(spent[-1])
            return d

        b.decide = timed  # type: ignore[method-assign]
    while not t.over and len(t.commands) < moves:
        before = len(t.commands)
        ann_moves(t)
        t._run_bots()
        if len(t.commands) == before:
            break
    return spent, searched


async def loop_lag(bot: str, seed: int, moves: int) -> tuple[list[float], list[float], int, float]:
    """Each loop turn's wall time, and its CPU time (the loop's own work: a busy machine's
    other processes do not count)."""
    turns = LoopTurns()
    t = table(bot, seed, turns)
    lags: list[float] = []
    work: list[float] = []
    start = time.perf_counter()
    while not t.over and len(t.commands) < moves:
        before, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(0)
        lags.append(time.perf_counter() - before)
        work.append(time.thread_time() - cpu)
        if not turns.ready and t._bots_pending is None:
            ann_moves(t)
    return lags, work, len(t.commands), time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="admiral")
    ap.add_argument("--moves", type=int, default=80)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    spent, searched = decision_times(args.bot, args.seed, args.moves)
    for what, xs in (("decisions", spent), ("of them searched", searched)):
        p50, p90, p99, top = percentiles(xs)
        print(f"(a) {args.bot}: {len(xs)} {what}; CPU ms p50 {p50} p90 {p90} p99 {p99} max {top}")
    lags, work, n, secs = asyncio.run(loop_lag(args.bot, args.seed, args.moves))
    print(f"(b) {len(lags)} loop turns, {n} commands in {secs:.1f} s")
    for what, xs in (("wall", lags), ("CPU", work)):
        p50, p90, p99, top = percentiles(xs)
        print(f"(b) loop turn, {what} ms: p50 {p50} p90 {p90} p99 {p99} max {top}")


if __name__ == "__main__":
    main()
