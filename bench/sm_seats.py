"""Is any Spanish Main seat favoured (SM-2)? Two copies of one bot, seats rotating.

    .venv/bin/python bench/sm_seats.py --games 400                  # the default fleets
    .venv/bin/python bench/sm_seats.py --games 400 --fleet english  # the same fleet for both

Prints the first seat's (red's) share of the wins, and the share of the player who moved first
(rolled at setup), with each fleet's share: the default two-seat fleets differ (English for red,
Spanish for blue), so a seat's share also measures its fleet.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.botseat import bot_move  # noqa: E402
from shipwreck.games.spanish_main import RULES  # noqa: E402
from shipwreck.lang.bots import BotPlayer, load_bot  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="sm_hauler")
    ap.add_argument("--fleet", default=None, help="a preset both seats take (default: per seat)")
    args = ap.parse_args(argv)
    script = load_bot(args.bot)
    opts = {"fleets": [[args.fleet], [args.fleet]]} if args.fleet else {}
    red = first = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        state, _ = RULES.new_game(seed, 2, opts)
        went_first = state.first
        players = [BotPlayer(script, seed=seed * 1000 + i) for i in range(2)]
        while not state.over:
            (p,) = RULES.prompts(state)
            bot_move(RULES, state, p.seat, p.kind, players[p.seat])
        share = 1 / len(state.winners)
        red += share if 0 in state.winners else 0.0
        first += share if went_first in state.winners else 0.0
    n = args.games
    print(
        f"{n} games of {args.bot} against itself, fleets {args.fleet or 'per seat'}:"
        f" the first seat (red) wins {red:g} ({red / n:.1%}), the player who moved first"
        f" {first:g} ({first / n:.1%}) ({time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
