"""The games Shipwreck plays. Each is a self-contained package implementing the engine's Ruleset
and registering itself in :mod:`shipwreck.games.registry`; these are thin wrappers over it."""

from __future__ import annotations

from typing import Any

from shipwreck.engine.core import Positions
from shipwreck.games import registry
from shipwreck.games.registry import AnyRuleset

__all__ = ["AnyRuleset", "games", "get_ruleset", "positions", "seat_names", "title"]


def get_ruleset(name: str) -> AnyRuleset:
    """The ruleset object of the game called ``name`` (its id, as tables and logs store it; a
    KeyError listing the known games for any other word)."""
    game = registry.find(name)
    if game is None or game.name != name:
        known = ", ".join(games())
        raise registry.UnknownGame(f"unknown game {name!r}; known games: {known}")
    return game.ruleset()


def positions(rules: AnyRuleset) -> Positions[object, Any]:
    """``rules`` as a game that starts from a fixed position (scenarios, tutorials); TypeError
    for a game that cannot."""
    if not isinstance(rules, Positions):
        raise TypeError(f"the game {rules.name} cannot start from a fixed position")
    return rules


def games() -> tuple[str, ...]:
    """Every registered game's name."""
    return tuple(g.name for g in registry.all_games())


def title(game: str) -> str:
    """The game's name as players read it: ``spanish_main`` -> ``Spanish Main``."""
    found = registry.find(game)
    return found.title if found is not None else game


def seat_names() -> frozenset[str]:
    """Every game's names for its seats (Lifeboat's characters, Spanish Main's colours): a
    player named ``mate`` could not be told from the seat, and ``tell mate`` would reach the
    seat's player, not them."""
    return frozenset(n for g in registry.all_games() for n in g.seat_names)
