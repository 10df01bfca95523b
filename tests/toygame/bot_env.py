"""What a Tally bot's guards can read: ``mine`` and ``theirs`` (the two tallies), ``round``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toygame.rules import TallyView

VIEW = TallyView
DECISIONS: dict[str, str] = {"turn": "your turn: take"}
ATTRS: dict[type, dict[str, Callable[[Any], Any]]] = {}
ALL_ATTRS: frozenset[str] = frozenset()
CHARACTER_FIELDS: frozenset[str] = frozenset()
FUNCTIONS: dict[str, Callable[..., Any]] = {}
NAMES = frozenset({"mine", "theirs", "round", "true", "false"})


def names_for(view: TallyView, decision: str) -> dict[str, Any]:
    me = view.me or 0
    return {
        "mine": view.tallies[me],
        "theirs": view.tallies[1 - me],
        "round": view.round,
        "true": True,
        "false": False,
    }


def as_character(value: Any, ctx: Any) -> Any:
    return value


def word_for(value: Any) -> str:
    return str(value)
