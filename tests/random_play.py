"""Whole games of random legal moves, prompt by prompt, for tests that check a table against
every situation the rules produce (the bot environments' answer and kind tables)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from shipwreck.engine.core import Prompt
from shipwreck.games import get_ruleset


def random_prompts(
    game: str, seats: int, games: int, steps: int
) -> Iterator[tuple[Any, Any, list[Prompt]]]:
    """``(rules, state, prompts)`` at each step of ``games`` seeded games (seeds 0, 1, …) of
    random legal moves, at most ``steps`` a game; the first blocking prompt is then answered."""
    rules = get_ruleset(game)
    for seed in range(games):
        state, _ = rules.new_game(seed, seats)
        pick = random.Random(seed)
        for _ in range(steps):
            prompts = rules.prompts(state)
            yield rules, state, prompts
            blocking = [p for p in prompts if p.blocking]
            if not blocking:
                break
            p = blocking[0]
            rules.apply(state, p.seat, pick.choice(list(rules.choices(state, p.seat))))
