"""Spanish Main engine speed: random-bot full games, hauler-vs-hauler games, and checking one move.

    .venv/bin/python bench/spanish_main.py     # 20 random games, 20 hauler games, the move bench
    .venv/bin/python bench/spanish_main.py --games 50 --seats 4 --moves 2000 --haul 60

The random bot answers every prompt through the engine's own API: ``prompts()``, then a random
kind of command among ``choices()`` (evenly, so it shoots and explores instead of nearly always
sailing), then a random command of that kind. Games end by SM-40 or at the round limit.

The hauler games are ``shipwreck sim --game spanish_main --bots sm_hauler,sm_hauler`` (the same
seeds and seats), played in this process.

The move bench sets up 4 fleets of 5 ships (20 ships) among the 12 islands of a 4-player sea and
times the legality check of one typed move, i.e. what ``apply`` does before it changes anything
(``rules._validate_move``: her turn, her pin, her legs, the placement and run of every leg against
every island, hull and the sea's edge, the refusals): on a position the rules have seen (its
obstacles made, as after listing the choices; the move itself new), on a position never seen (the
memo cleared first), and with the old stepped run (``geometry.sweep_stepped``) in the run's place,
the baseline. It also times planning alone and a whole ``apply`` of a move (planning, docking, the
after-move checks) on a copy, the copy's cost taken off; and reading one typed line as a table
does (the seat's names view, then the parse).

Figures, and how base and new were compared on this shared machine: bench/spanish_main-results.md.
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
from shipwreck.games.spanish_main import RULES, codes, memo, rules  # noqa: E402
from shipwreck.games.spanish_main import commands as C  # noqa: E402
from shipwreck.games.spanish_main import geometry as geo  # noqa: E402
from shipwreck.games.spanish_main.geometry import LEG_LENGTH  # noqa: E402
from shipwreck.games.spanish_main.state import SpanishMainState  # noqa: E402
from shipwreck.lang import parse_command  # noqa: E402
from shipwreck.resources import bots_dir  # noqa: E402
from shipwreck.sim import load_scripts, simulate_bots  # noqa: E402


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


def bench_haulers(games: int, seed: int) -> str:
    """Games per second as ``shipwreck sim`` counts them (the games alone), and per CPU second.
    The bot grammar is built once per process (about 0.1 s) before the clock starts: it is the
    process's start-up, not a game's, and with it 20 games would count a sixth more."""
    hauler = str(bots_dir() / "sm_hauler.bot")
    start = time.process_time()
    load_scripts("spanish_main", [hauler])
    loading = time.process_time() - start
    cpu = time.process_time()
    summary = simulate_bots("spanish_main", games, [hauler, hauler], seed, 2)
    cpu = time.process_time() - cpu
    return (
        f"hauler vs hauler (shipwreck sim --bots sm_hauler,sm_hauler --seed {seed}):"
        f" {games} in {summary.seconds:.2f} s = {games / summary.seconds:.2f} games/s"
        f" ({games / cpu:.2f} games per CPU second: what a machine to itself would do;"
        f" the grammar and the first script loaded before, {loading:.2f} s)"
    )


def _check_all(
    state: SpanishMainState, cases: list[C.Move], forget: bool
) -> tuple[float, float, int]:
    """Seconds per legality check of a legal move and of a refused one (its message names a move
    to try instead, found by planning others), and how many were legal; ``forget``: clear the
    memo before each."""
    spent = [0.0, 0.0]
    legal = 0
    for cmd in cases:
        if forget:
            memo.clear()
        state.turn = state.ships[cmd.ship].owner
        start = time.process_time()  # (CPU time: other work on the machine does not count)
        try:
            rules._validate_move(state, state.turn, cmd)
            ok = 1
        except IllegalCommand:
            ok = 0
        spent[1 - ok] += time.process_time() - start
        legal += ok
    return spent[0] / max(1, legal), spent[1] / max(1, len(cases) - legal), legal


def bench_moves(moves: int, seed: int) -> str:
    state = twenty_ships(seed)
    state.step, state.acted = "turn", []
    rng = random.Random(seed)
    ships = list(state.ships.values())
    cases = []
    checks: list[C.Move] = []
    for _ in range(moves):
        s = rng.choice(ships)
        plan = [(rng.uniform(-90, 90), LEG_LENGTH[k]) for k in rules.move_legs(s)]
        cases.append((s, plan))
        kinds: list[C.LegKind] = ["S" if k == "S" else "L" for k in rules.move_legs(s)]
        legs = tuple((k, turn, None) for k, (turn, _) in zip(kinds, plan, strict=True))
        checks.append(C.Move(s.id, legs))
    for s in ships:  # (the position seen: every ship's obstacles made, as listing choices does)
        rules.obstacles(state, s, rules._body(state, s)[1])
    warm, warm_no, legal = _check_all(state, checks, forget=False)
    cold, cold_no, _ = _check_all(state, checks, forget=True)
    solved = geo.sweep
    geo.sweep = geo.sweep_stepped  # (the baseline: the old stepped run in the run's place)
    try:
        stepped, stepped_no, legal_then = _check_all(state, checks, forget=True)
    finally:
        geo.sweep = solved
    memo.clear()
    memo.clear()
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
        f"legality check of one typed move among 20 ships and 12 islands ({legal} of {moves}"
        f" legal; legal / refused with a hint): {warm * 1e6:,.0f} / {warm_no * 1e6:,.0f} µs on a"
        f" position seen, {cold * 1e6:,.0f} / {cold_no * 1e6:,.0f} µs on one never seen; with"
        f" the old stepped run (baseline) {stepped * 1e6:,.0f} / {stepped_no * 1e6:,.0f} µs"
        f" ({legal_then} legal)\n"
        f"one move among 20 ships and 12 islands: plan {plan_t * 1e6:,.0f} µs"
        f" ({hits / moves:.0%} of moves stopped by a touch); whole apply"
        f" {apply_t * 1e6:,.0f} µs ({applied} of {len(copies)} applied; a state copy for"
        f" validating on a copy would add {copy_t * 1e6:,.0f} µs)"
    )


def bench_typed(seed: int, lines: int = 200) -> str:
    """Reading a typed line at a table of 20 ships (what ``Table.submit_text`` does before it
    submits): the seat's view for ship codes and ids, then the parse."""
    state = twenty_ships(seed)
    (p,) = RULES.prompts(state)
    s = next(s for s in state.ships.values() if s.owner == p.seat)
    text = f"move {codes.ship_codes(RULES.view(state, p.seat))[s.id]} S 0"
    spent = {}
    for name, make in (("full view", RULES.view), ("names view", RULES.names_view)):
        start = time.process_time()
        for _ in range(lines):
            cmd = parse_command("spanish_main", text, make(state, p.seat), check_ids=False)
        spent[name] = (time.process_time() - start) / lines
        assert isinstance(cmd, C.Move) and cmd.ship == s.id
    return (
        f"reading a typed line ('{text}') among 20 ships: {spent['names view'] * 1e6:,.0f} µs"
        f" with the names view (Table.submit_text), {spent['full view'] * 1e6:,.0f} µs with the"
        " full view (its legal commands worked out)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seats", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--haul", type=int, default=20, help="hauler-vs-hauler games (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    play_one(10**6, args.seats)  # warm up
    if args.games:
        print(bench_games(args.games, args.seats, args.seed))
    if args.haul:
        print(bench_haulers(args.haul, args.seed))
    print(bench_moves(args.moves, args.seed))
    print(bench_typed(args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
