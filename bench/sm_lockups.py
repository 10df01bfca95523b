"""How many sailing Spanish Main ships are locked up (no move takes them anywhere), SM-12.

    .venv/bin/python bench/sm_lockups.py                  # 40 random 2-seat games of 40 rounds
    .venv/bin/python bench/sm_lockups.py --games 100 --seats 3 --rounds 30

Plays random games (``tests/sm_moves.py``'s random player) up to a round count, then counts the
ships that are sailing and unpinned and whether each has a move that runs her at least 0.05
(a one-leg move at every 5 degrees of her arc, asked of the rules).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout
sys.path.insert(0, str(ROOT / "tests"))

from sm_moves import random_game, should_sail, stuck  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--min-run", type=float, default=0.05, help="a move must run this far (0: any accepted)"
    )
    ap.add_argument(
        "--no-come-about", action="store_true", help="do not count coming about as a way out"
    )
    args = ap.parse_args(argv)
    start = time.perf_counter()
    sailing = locked = 0
    examples: list[str] = []
    for g in range(args.games):
        state = random_game(args.seed + g, args.seats, args.rounds)
        sailing += sum(1 for s in state.ships.values() if should_sail(state, s))
        ids = stuck(state, args.min_run, not args.no_come_about)
        locked += len(ids)
        examples.extend(f"seed {args.seed + g}: {i}" for i in ids)
    print(
        f"{args.games} random {args.seats}-seat games of up to {args.rounds} rounds:"
        f" {locked} of {sailing} sailing, unpinned ships have no move running {args.min_run:g}+"
        f"{'' if args.no_come_about else ' and cannot come about'}"
        f" ({time.perf_counter() - start:.1f} s)"
    )
    for e in examples[:10]:
        print("  locked:", e)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
