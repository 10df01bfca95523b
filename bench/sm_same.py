"""Do two checkouts play the same Spanish Main games? Results, every bot's trace and the final
state of seeds 100-105: hauler against hauler, hauler against raider, random bots, and uniformly
random legal play (``sim.play_random``), written as one JSON document.

    .venv/bin/python bench/sm_same.py DIR > /tmp/a.json     # e.g. main, as sm_count.py's DIR
    .venv/bin/python bench/sm_same.py . > /tmp/b.json && cmp /tmp/a.json /tmp/b.json

A speed-up must leave the output byte for byte the same (bench/spanish_main-results.md).
"""

from __future__ import annotations

import sys

SEEDS = range(100, 106)
MATCHES = (("sm_hauler", "sm_hauler"), ("sm_hauler", "sm_raider"), ("sm_random", "sm_random"))


def main(argv: list[str]) -> None:
    sys.path[:0] = [argv[0]]
    import msgspec

    from shipwreck.botseat import bot_move
    from shipwreck.games import get_ruleset
    from shipwreck.lang.bots import BotPlayer
    from shipwreck.lang.bots.checked import load_named
    from shipwreck.resources import bots_dir
    from shipwreck.sim import play_random

    rules = get_ruleset("spanish_main")
    out: dict[str, object] = {}
    for names in MATCHES:
        scripts = load_named("spanish_main", [str(bots_dir() / f"{n}.bot") for n in names])
        for seed in SEEDS:
            players = [BotPlayer(sc, seed=seed * 1000 + s) for s, sc in enumerate(scripts)]
            state, _ = rules.new_game(seed, 2)
            while not rules.is_over(state):
                p = next(p for p in rules.prompts(state) if p.blocking)
                bot_move(rules, state, p.seat, p.kind, players[p.seat])
            out[f"{'-'.join(names)} {seed}"] = {
                "scores": rules.scores(state),
                "summary": rules.summary(state),
                "traces": [list(b.trace) for b in players],
                "state": state,
            }
    for seed in SEEDS:
        out[f"play_random {seed}"] = play_random("spanish_main", seed, 2)
    text = msgspec.json.format(msgspec.json.encode(out)).replace(str(bots_dir()).encode(), b"bots")
    sys.stdout.buffer.write(text + b"\n")


if __name__ == "__main__":
    main(sys.argv[1:])
