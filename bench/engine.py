"""Engine throughput: random-legal full Lifeboat games on one core.

    .venv/bin/python bench/engine.py --games 1000
    .venv/bin/python bench/engine.py --seconds 10 --seed 7
    .venv/bin/python bench/engine.py --games 500 --profile 25   # cProfile, top 25 by own time
    .venv/bin/python bench/engine.py --loud      # apply() with its events, as live tables play

The player is as cheap as a player can be while still playing through the engine's own API: it
asks ``prompts()`` who must decide, picks one of them at random, and plays a random one of its
``choices()``. No views, no free actions, no copies: what is timed is the engine, through
``apply_quiet`` (no events, as ``shipwreck sim`` and a search's playouts play) unless ``--loud``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.games.lifeboat import RULES  # noqa: E402


@dataclass
class Result:
    games: int
    commands: int
    seconds: float

    def report(self) -> str:
        s = max(self.seconds, 1e-9)
        return (
            f"{self.games} games, {self.commands} commands in {self.seconds:.2f} s: "
            f"{self.games / s:,.0f} games/s, {self.commands / s:,.0f} commands/s, "
            f"{self.commands / max(self.games, 1):.1f} commands/game"
        )


def play_one(seed: int, seats: int, rng: random.Random, loud: bool = False) -> int:
    """One random game from ``seed``; returns the number of commands it took."""
    prompts, choices, rnd = RULES.prompts, RULES.choices, rng.random
    apply = RULES.apply if loud else RULES.apply_quiet
    state, _ = RULES.new_game(seed, seats)
    n = 0
    while state.phase != "over":
        waiting = prompts(state)
        if not waiting[-1].blocking:  # non-blocking prompts (offers) come last
            waiting = [p for p in waiting if p.blocking]
        seat = waiting[0].seat if len(waiting) == 1 else waiting[int(rnd() * len(waiting))].seat
        answers = choices(state, seat)
        apply(state, seat, answers[int(rnd() * len(answers))])
        n += 1
    return n


def run(
    games: int | None, seconds: float | None, seed: int, seats: int, loud: bool = False
) -> Result:
    rng = random.Random(seed)
    done = commands = 0
    start = time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    while (games is None or done < games) and (deadline is None or time.perf_counter() < deadline):
        commands += play_one(seed + done, seats, rng, loud)
        done += 1
    return Result(done, commands, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=None, help="play this many games (default 1000)")
    ap.add_argument("--seconds", type=float, default=None, help="or play for this long")
    ap.add_argument("--seed", type=int, default=0, help="game i is dealt from seed+i")
    ap.add_argument("--seats", type=int, default=6, choices=(4, 5, 6))
    ap.add_argument("--loud", action="store_true", help="apply() with events (live tables)")
    ap.add_argument("--warmup", type=int, default=20, help="games played first, untimed")
    ap.add_argument(
        "--profile", type=int, metavar="N", default=0, help="run under cProfile; print top N"
    )
    args = ap.parse_args(argv)
    games = args.games if args.games is not None or args.seconds is not None else 1000

    run(args.warmup, None, args.seed + 10**9, args.seats)
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.enable()
        result = run(games, args.seconds, args.seed, args.seats, args.loud)
        prof.disable()
        print(result.report() + "  (under cProfile: slower than real)")
        stats = pstats.Stats(prof).strip_dirs()
        stats.sort_stats("tottime").print_stats(args.profile)
        stats.sort_stats("cumulative").print_stats(args.profile)
    else:
        result = run(games, args.seconds, args.seed, args.seats, args.loud)
        print(result.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
