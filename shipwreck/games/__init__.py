"""The games Shipwreck plays. Each is a self-contained package implementing the engine's Ruleset."""

from __future__ import annotations

from typing import Any


def get_ruleset(name: str) -> Any:
    """The ruleset object for a game name (``lifeboat``, ``spanish_main``)."""
    if name == "lifeboat":
        from shipwreck.games.lifeboat import RULES

        return RULES
    if name == "spanish_main":
        from shipwreck.games.spanish_main import RULES as SM_RULES

        return SM_RULES
    raise KeyError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")


GAMES = ("lifeboat", "spanish_main")

TITLES: dict[str, str] = {"lifeboat": "Lifeboat", "spanish_main": "Spanish Main"}
"""What a player reads for each game (what they type stays ``lifeboat``, ``sm``)."""


def title(game: str) -> str:
    """The game's name as players read it: ``spanish_main`` -> ``Spanish Main``."""
    return TITLES.get(game, game)


def seat_names() -> frozenset[str]:
    """Every game's names for its seats (Lifeboat's characters, Spanish Main's colours): a
    player named ``mate`` could not be told from the seat, and ``tell mate`` would reach the
    seat's player, not them."""
    from shipwreck.games.lifeboat.cards import CHAR_IDS
    from shipwreck.games.spanish_main.setup import SEAT_NAMES

    return frozenset(CHAR_IDS) | frozenset(SEAT_NAMES)
