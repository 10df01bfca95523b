"""Spanish Main engine speed: random-bot full games, and validating one move (swept collision).

    .venv/bin/python bench/spanish_main.py     # 20 games of 2 seats, then the move bench
    .venv/bin/python bench/spanish_main.py --games 50 --seats 4 --moves 2000

The random bot answers every prompt through the engine's own API: ``prompts()``, then a random
kind of command among ``choices()`` (evenly, so it shoots and explores instead of nearly always
sailing), then a random command of that kind. Games end by SM-40 or at the round limit.

The move bench sets up 4 fleets of 5 ships (20 ships) among the 12 islands of a 4-player sea and
times planning one move, i.e. what ``apply`` does to validate it: the swept pivot and run of every
leg against every island, hull and the sea's edge. It also times a whole ``apply`` of a move
(planning, docking, the after-move checks) on a copy, the copy's cost taken off.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from shipwreck.engine.core import IllegalCommand  # noqa: E402
from shipwreck.games.spanish_main import RULES, rules  # noqa: E402
from shipwreck.games.spanish_main import commands as C  # noqa: E402
from shipwreck.games.spanish_main.geometry import LEG_LENGTH  # noqa: E402
from shipwreck.games.spanish_main.state import SpanishMainState  # noqa: E402


def play_one(seed: int, seats: int) -> tuple[int, int]:
    """One random game; returns (commands, rounds)."""
    rng = random.Random(seed)
    state, _ = RULES.new_game(seed, seats)
    n = 0
    while not state.over:
        (p,) = RULES.prompts(state)
        by: dict[type, list[C.Command]] = {}
        for c in RULES.choices(state, p.seat):
            by.setdefault(type(c), []).append(c)
        kind = rng.choice(sorted(by, key=lambda t: t.__name__))
        RULES.apply(state, p.seat, rng.choice(by[kind]))
        n += 1
    return n, state.round


def bench_games(games: int, seats: int, seed: int) -> str:
    start = time.perf_counter()
    commands = rounds = 0
    for g in range(games):
        n, r = play_one(seed + g, seats)
        commands += n
        rounds += r
    t = time.perf_counter() - start
    return (
        f"random games ({seats} seats): {games} in {t:.2f} s = {games / t:.2f} games/s,"
        f" {commands / t:,.0f} commands/s, {commands / games:.0f} commands and"
        f" {rounds / games:.1f} rounds a game"
    )


FLEET = ["dover", "el-picador", "el-leon", "plantagenet", "gallowglass"]


def twenty_ships(seed: int) -> SpanishMainState:
    state, _ = RULES.new_game(seed, 4, {"fleets": [FLEET] * 4, "points": 100})
    assert len(state.ships) == 20 and len(state.islands) == 12
    rng = random.Random(seed)
    for _ in range(30):  # sail them about a little so they are not all at home
        (p,) = RULES.prompts(state)
        options = [c for c in RULES.choices(state, p.seat) if isinstance(c, C.Move | C.EndTurn)]
        RULES.apply(state, p.seat, rng.choice(options))
        while RULES.prompts(state)[0].kind != "turn":
            (p,) = RULES.prompts(state)
            RULES.apply(state, p.seat, RULES.default(state, p.seat) or C.Pass())
    return state


def bench_moves(moves: int, seed: int) -> str:
    state = twenty_ships(seed)
    rng = random.Random(seed)
    ships = list(state.ships.values())
    cases = []
    for _ in range(moves):
        s = rng.choice(ships)
        plan = [(rng.uniform(-90, 90), LEG_LENGTH[k]) for k in rules.move_legs(s)]
        cases.append((s, plan))
    start = time.perf_counter()
    hits = 0
    for s, plan in cases:
        path = rules._plan(state, s, plan)
        hits += path.hit is not None
    plan_t = (time.perf_counter() - start) / moves

    blob = msgspec.json.encode(state)
    copies = [msgspec.json.decode(blob, type=SpanishMainState) for _ in range(200)]
    start = time.perf_counter()
    for _ in range(200):
        msgspec.json.decode(blob, type=SpanishMainState)
    copy_t = (time.perf_counter() - start) / 200
    applied = 0
    start = time.perf_counter()
    for k, st in enumerate(copies):
        st.turn = k % 4
        mine = [s for s in st.ships.values() if s.owner == st.turn]
        s = rng.choice(mine)
        legs: tuple[C.Leg, ...] = tuple(
            ("S" if x == "S" else "L", rng.uniform(-90, 90), None) for x in rules.move_legs(s)
        )
        try:
            RULES.apply(st, st.turn, C.Move(s.id, legs))
            applied += 1
        except IllegalCommand:
            pass
    apply_t = (time.perf_counter() - start) / len(copies)
    return (
        f"one move among 20 ships and 12 islands: plan (swept collision) {plan_t * 1e6:,.0f} µs"
        f" ({hits / moves:.0%} of moves stopped by a touch); whole apply"
        f" {apply_t * 1e6:,.0f} µs ({applied} of {len(copies)} applied; a state copy for"
        f" validating on a copy would add {copy_t * 1e6:,.0f} µs)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    play_one(10**6, args.seats)  # warm up
    print(bench_games(args.games, args.seats, args.seed))
    print(bench_moves(args.moves, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
