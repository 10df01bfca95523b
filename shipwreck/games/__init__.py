"""The games Shipwreck plays. Each is a self-contained package implementing the engine's Ruleset."""

from __future__ import annotations

from typing import Any


def get_ruleset(name: str) -> Any:
    """The ruleset object for a game name (``lifeboat``)."""
    if name == "lifeboat":
        from shipwreck.games.lifeboat import RULES

        return RULES
    raise KeyError(f"unknown game {name!r}; known games: lifeboat")


GAMES = ("lifeboat",)
