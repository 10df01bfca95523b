"""Action-language throughput: parse + format of legal commands, on one core.

    .venv/bin/python bench/lang.py
    .venv/bin/python bench/lang.py --games 50 --commands 100000 --repeat 5
    .venv/bin/python bench/lang.py --game spanish_main --games 10
    .venv/bin/python bench/lang.py --profile 25   # cProfile of parse+format, top 25 by own time

The corpus: the commands legal (``RULES.legal``) for the seats asked to decide, and one other
seat, at every position of random games, formatted; sampled down to ``--commands`` lines in game
order (so common commands are common). Timed: ``parse_command`` then
``format_command`` of each line (the main figure), each alone, and the error path on the same
lines with one word misspelt. The best of ``--repeat`` runs is reported.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.games import get_ruleset  # noqa: E402
from shipwreck.lang import CommandSyntaxError, format_command, parse_command  # noqa: E402
from shipwreck.sim import default_seats  # noqa: E402


def corpus(games: int, limit: int, seed: int, game: str = "lifeboat") -> list[str]:
    """Formatted legal commands over random games: at every position, those of the seats asked
    to decide and of one other seat; a random ``limit`` of them, in game order."""
    RULES = get_ruleset(game)
    n_seats = default_seats(game)
    rng = random.Random(seed)
    out: list[str] = []
    for g in range(games):
        state, _ = RULES.new_game(seed + g, n_seats)
        while not RULES.is_over(state):
            waiting = [p for p in RULES.prompts(state) if p.blocking]
            seats = {p.seat for p in waiting} | {rng.randrange(n_seats)}
            for seat in sorted(seats):
                out.extend(format_command(c) for c in RULES.legal(state, seat))
            prompt = rng.choice(waiting)
            RULES.apply(state, prompt.seat, rng.choice(RULES.choices(state, prompt.seat)))
    if len(out) > limit:
        keep = sorted(rng.sample(range(len(out)), limit))
        out = [out[i] for i in keep]
    return out


def misspell(lines: list[str], seed: int) -> list[str]:
    """Each line with one letter of one word dropped (most no longer parse)."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        words = line.split(" ")
        i = rng.randrange(len(words))
        w = words[i]
        if len(w) > 2:
            j = rng.randrange(len(w))
            words[i] = w[:j] + w[j + 1 :]
        out.append(" ".join(words))
    return out


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    ap.add_argument("--game", default="lifeboat", help="lifeboat or spanish_main")
    ap.add_argument("--games", type=int, default=30, help="random games for the corpus")
    ap.add_argument("--commands", type=int, default=50_000, help="corpus size, at most")
    ap.add_argument("--errors", type=int, default=5_000, help="misspelt lines timed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing; best is shown")
    ap.add_argument("--profile", type=int, metavar="N", default=0, help="cProfile; top N")
    args = ap.parse_args(argv)

    GAME = args.game
    lines = corpus(args.games, args.commands, args.seed, GAME)
    cmds = [parse_command(GAME, s) for s in lines]  # also warms the parser up
    bad = misspell(lines[: args.errors], args.seed)
    n = len(lines)
    print(f"corpus: {n} legal command lines from {args.games} random games, "
          f"{len(set(lines))} distinct")  # fmt: skip

    def round_trip() -> None:
        for s in lines:
            format_command(parse_command(GAME, s))

    def parse_only() -> None:
        for s in lines:
            parse_command(GAME, s)

    def format_only() -> None:
        for c in cmds:
            format_command(c)

    def errors() -> None:
        for s in bad:
            with contextlib.suppress(CommandSyntaxError):
                parse_command(GAME, s)

    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(round_trip)
        pstats.Stats(prof).strip_dirs().sort_stats("tottime").print_stats(args.profile)
        return 0

    t = best_of(args.repeat, round_trip)
    print(f"parse+format: {n / t:,.0f} commands/s ({t * 1e6 / n:.1f} us each)")
    t = best_of(args.repeat, parse_only)
    print(f"parse:        {n / t:,.0f} commands/s")
    t = best_of(args.repeat, format_only)
    print(f"format:       {n / t:,.0f} commands/s")
    t = best_of(1, errors)
    print(f"misspelt:     {len(bad) / t:,.0f} lines/s (error message with suggestion)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
