"""Spanish Main preset fairness: every pairing of the crewed presets (navy, armada, corsairs,
smugglers), one shipped bot on both sides, the fleets swapped between the seats half the time.

    .venv/bin/python bench/spanish_main_fleets.py                 # 20 games a pairing, sm_hauler
    .venv/bin/python bench/spanish_main_fleets.py --games 80 --bot sm_raider --seed 5000

Each pairing plays ``--games`` games: half with the first preset red (seeds from ``--seed``),
half with it blue (seeds from ``--seed`` + 1000), so neither the first seat nor a layout favours
one side. The target: every pairing within 40-60 %.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.games.spanish_main.fleets import CREWED, fleet_options  # noqa: E402
from shipwreck.resources import bots_dir  # noqa: E402
from shipwreck.sim import simulate_bots  # noqa: E402


def pairing(a: str, b: str, games: int, bot: str, seed: int) -> float:
    """How many of ``games`` games preset ``a`` wins against ``b`` (a shared win counts half)."""
    wins = 0.0
    for k, (red, blue) in enumerate(((a, b), (b, a))):
        n = games // 2 + (games % 2 if k == 0 else 0)
        s = simulate_bots(
            "spanish_main", n, [bot, bot], seed + 1000 * k, 2, options=fleet_options(2, [red, blue])
        )
        wins += s.seat_wins[0] if red == a else s.seat_wins[1]
    return wins


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=20, help="games a pairing")
    ap.add_argument("--bot", default="sm_hauler")
    ap.add_argument("--seed", type=int, default=3000)
    args = ap.parse_args(argv)
    bot = str(bots_dir() / f"{args.bot}.bot")
    start = time.perf_counter()
    worst = 0.0
    for a, b in itertools.combinations(CREWED, 2):
        w = pairing(a, b, args.games, bot, args.seed)
        share = w / args.games
        worst = max(worst, abs(share - 0.5))
        print(f"{a} vs {b}: {a} wins {w:g} of {args.games} ({share:.0%})", flush=True)
    print(
        f"{args.bot} on both sides, {args.games} games a pairing from seed {args.seed}:"
        f" the farthest from even is {50 + 100 * worst:.0f} % ({time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
