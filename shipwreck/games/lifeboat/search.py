"""Lifeboat's side of a search (:mod:`shipwreck.engine.ismcts`): worlds from a view, and moves
as one seat sees them.

The search itself is game-agnostic; Lifeboat gives it the determinizer (:mod:`.determinize`:
a seat's view in, a full state out) and says which moves of others the seat cannot see: a supply
pick is "someone took a card" to everyone but the picker, so all picks of another seat share one
node of the tree.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from shipwreck.engine.core import Seat
from shipwreck.engine.ismcts import Rollout, Search, random_rollout
from shipwreck.engine.rng import Rng
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.determinize import determinize
from shipwreck.games.lifeboat.view import LifeboatView


def observer(me: Seat) -> Any:
    """The move as ``me`` sees it: another seat's supply pick is secret (LB-11)."""

    def observe(state: Any, seat: Seat, cmd: Any) -> Hashable:
        if seat != me and type(cmd) is C.Take:
            return (seat, "take")
        return (seat, cmd)

    return observe


def new_search(
    view: LifeboatView,
    playouts: int,
    rng: Rng,
    rollout: Rollout = random_rollout,
    options: dict[str, bool] | None = None,
) -> Search:
    """A search over ``view.choices`` for the view's seat; every world is drawn from the view."""
    if view.seat is None:
        raise ValueError("a spectator has nothing to decide")
    return Search(
        RULES,
        view.seat,
        len(view.characters),
        lambda r: determinize(view, r, options),
        list(view.choices),
        playouts,
        rng,
        rollout=rollout,
        observe=observer(view.seat),
    )
