"""Bot-script throughput: whole Lifeboat games per second, and the cost of one bot decision.

    .venv/bin/python bench/bots.py                 # 300 games each
    .venv/bin/python bench/bots.py --games 1000 --seed 7

Three tables, each timed over the same seeds:

(a) ``shipwreck.sim.simulate``: random legal engine-level players (no views, no scripts);
(b) ``shipwreck.sim.simulate_bots`` with the five shipped bots (random, survivor, loyal,
    predator, hoarder) cycled over six seats;
(c) the same with six copies of ``bots/random.bot``.

Then the mean wall time of one ``BotPlayer.decide`` (names from the view, guards, the command)
for (b) and (c), measured in a second pass so the timer does not slow the games above.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.lang.bots import BotPlayer, Decision, load_bot  # noqa: E402
from shipwreck.resources import bots_dir  # noqa: E402
from shipwreck.sim import play_bots, simulate, simulate_bots  # noqa: E402

FIVE = ["random", "survivor", "loyal", "predator", "hoarder"]
SIX_RANDOM = ["random"] * 6


class TimedBot(BotPlayer):
    """A BotPlayer that adds up the wall time of its decisions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = 0.0
        self.decisions = 0

    def decide(self, view: Any, decision: str) -> Decision:
        start = time.perf_counter()
        d = super().decide(view, decision)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return d


def files(names: list[str]) -> list[str]:
    return [str(bots_dir() / f"{n}.bot") for n in names]


def decision_cost(names: list[str], games: int, seed: int) -> tuple[int, float]:
    """(decisions, mean microseconds per decision) over ``games`` games."""
    scripts = [load_bot(f) for f in files(names)]
    decisions, seconds = 0, 0.0
    for g in range(games):
        bots = [TimedBot(scripts[i % len(scripts)], seed=(seed + g) * 1000 + i) for i in range(6)]
        play_bots("lifeboat", seed + g, list(bots))
        decisions += sum(b.decisions for b in bots)
        seconds += sum(b.seconds for b in bots)
    return decisions, seconds / max(decisions, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=300, help="games per table (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="game i is dealt from seed+i")
    args = ap.parse_args(argv)
    n, seed = args.games, args.seed

    simulate("lifeboat", 10, seed + 10**6)  # warm up: grammar, caches
    simulate_bots("lifeboat", 10, files(FIVE), seed + 10**6)

    engine = simulate("lifeboat", n, seed)
    five = simulate_bots("lifeboat", n, files(FIVE), seed)
    six = simulate_bots("lifeboat", n, files(SIX_RANDOM), seed)
    rows = [
        ("(a) engine, random legal players (sim.simulate)", engine.seconds),
        ("(b) five scripted bots: " + ", ".join(FIVE), five.seconds),
        ("(c) six random.bot", six.seconds),
    ]
    for label, seconds in rows:
        print(f"{label:<66} {n} games {seconds:7.2f} s {n / max(seconds, 1e-9):8.1f} games/s")

    for label, names in (("(b) five scripted bots", FIVE), ("(c) six random.bot", SIX_RANDOM)):
        decisions, micros = decision_cost(names, n, seed)
        print(
            f"{label:<66} {decisions} decisions ({decisions / n:.0f}/game), "
            f"mean {micros:.1f} us per decision"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
