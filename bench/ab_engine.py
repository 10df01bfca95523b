"""Engine speed, old against new, on a busy machine: two checkouts measured side by side.

    git worktree add --detach /tmp/base 091193c
    .venv/bin/python bench/ab_engine.py /tmp/base . --rounds 10 --games 150

Why not two runs of ``bench/engine.py``: on shared cores the speed of a run swings by half from
one minute to the next. Here one worker process per checkout plays chunks of games in turn
(A B, then B A, ...), each timed by its own CPU time (``time.process_time``), so both see the same
load; the report gives the medians and the median of the paired new/old ratios. Three workloads:
``engine`` (bench/engine.py's random player through ``apply_quiet`` where the checkout has it),
``loud`` (the same through ``apply``, as live tables play) and ``sim`` (``shipwreck sim``'s
``play_random``).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = ("engine", "loud", "sim")


def worker(checkout: str) -> None:
    """Read ``WORKLOAD GAMES`` lines; answer ``cpu_games_per_s wall_games_per_s`` for each."""
    root = Path(checkout).resolve()
    sys.path[:0] = [str(root), str(root / "bench")]
    import engine  # bench/engine.py of that checkout

    from shipwreck import sim

    loud_ok = "loud" in engine.run.__code__.co_varnames  # the base's run() has no such flag
    for line in sys.stdin:
        what, count = line.split()
        n = int(count)
        cpu, wall = time.process_time(), time.perf_counter()
        if what == "sim":
            for i in range(n):
                sim.play_random("lifeboat", 1 + i, 6)
        elif what == "loud" and loud_ok:
            engine.run(n, None, 0, 6, True)
        else:
            engine.run(n, None, 0, 6)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(n / cpu, n / wall, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("base", help="the old checkout (a git worktree)")
    ap.add_argument("new", help="the new checkout")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--games", type=int, default=150, help="games per chunk")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.base)
        return 0
    procs = {
        side: subprocess.Popen(
            [sys.executable, __file__, path, path, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd="/",
        )
        for side, path in (
            ("base", str(Path(args.base).resolve())),
            ("new", str(Path(args.new).resolve())),
        )
    }

    def ask(side: str, what: str, n: int) -> tuple[float, float]:
        p = procs[side]
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(f"{what} {n}\n")
        p.stdin.flush()
        cpu, wall = map(float, p.stdout.readline().split())
        return cpu, wall

    for what in WORKLOADS:  # warm up: caches, imports
        for side in procs:
            ask(side, what, 20)
    got: dict[tuple[str, str], list[tuple[float, float]]] = {
        (s, w): [] for s in procs for w in WORKLOADS
    }
    for r in range(args.rounds):
        for what in WORKLOADS:
            for side in ("base", "new") if r % 2 == 0 else ("new", "base"):
                got[side, what].append(ask(side, what, args.games))
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    for what in WORKLOADS:
        b, n = got["base", what], got["new", what]
        ratio = statistics.median(x[0] / y[0] for x, y in zip(n, b, strict=True))
        print(
            f"{what:6}: base {statistics.median(x[0] for x in b):6.0f} games/cpu-s"
            f" ({statistics.median(x[1] for x in b):5.0f}/wall-s) | new"
            f" {statistics.median(x[0] for x in n):6.0f} games/cpu-s"
            f" ({statistics.median(x[1] for x in n):5.0f}/wall-s) | new/base {ratio:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
