"""Work to count with valgrind (instructions, which a busy machine does not move): N hauler
games, or K legality checks of typed moves on the move bench's position of 20 ships (``checks``:
legal and refused ones, the position seen, its obstacles made; ``cold``: K legal ones, the
position never seen: everything remembered is forgotten before each).

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/sm_count.py DIR hauler 8      # and 2: (I8 - I2) / 6 a game
    valgrind ... .venv/bin/python bench/sm_count.py DIR checks 1000    # and 0: a check
    valgrind ... .venv/bin/python bench/sm_count.py DIR cold 1000      # and 0

DIR is the checkout to count (e.g. ``git archive main | tar -x -C /tmp/sm-base``): its
``shipwreck`` is imported, so one script counts base and branch alike. Figures:
bench/spanish_main-results.md.
"""

from __future__ import annotations

import random
import sys
from typing import Any


def main(argv: list[str]) -> None:
    root, what, n = argv[0], argv[1], int(argv[2])
    sys.path[:0] = [f"{root}/bench", root]
    if what == "hauler":
        from shipwreck.resources import bots_dir
        from shipwreck.sim import simulate_bots

        hauler = str(bots_dir() / "sm_hauler.bot")
        simulate_bots("spanish_main", n, [hauler, hauler], 1, 2)
        return
    import spanish_main as bench  # (DIR's bench: its position, its check)

    from shipwreck.games.spanish_main import commands as C
    from shipwreck.games.spanish_main import rules

    state = bench.twenty_ships(1)
    state.step, state.acted = "turn", []
    rng = random.Random(1)
    ships = list(state.ships.values())
    checks = []
    for _ in range(n if what == "checks" else 1000):
        s = rng.choice(ships)
        kinds: list[C.LegKind] = ["S" if k == "S" else "L" for k in rules.move_legs(s)]
        checks.append(C.Move(s.id, tuple((k, rng.uniform(-90, 90), None) for k in kinds)))
    for s in ships:  # (the position seen, as the move bench has it)
        rules.obstacles(state, s, rules._body(state, s)[1])
    if what == "cold":  # (which are legal: worked out whatever K is, so it counts out)
        checks = [c for c in checks if _legal(rules, state, c)][:n]
    bench._check_all(state, checks, forget=what == "cold")


def _legal(rules: Any, state: Any, cmd: Any) -> bool:
    from shipwreck.engine.core import IllegalCommand

    state.turn = state.ships[cmd.ship].owner
    try:
        rules._validate_move(state, state.turn, cmd)
    except IllegalCommand:
        return False
    return True


if __name__ == "__main__":
    main(sys.argv[1:])
