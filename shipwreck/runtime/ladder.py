"""The ladder's ratings of live tables: which finished games count, and for whom.

A finished game counts when a player sat at it and at least two of its seats are rated: its
players and its bots (a shipped bot by its name, a player's saved bot as ``owner/name``). A free
seat's stand-in holds no rating and is left out of the ranking. Tutorials are never stored, so
never rated. The ratings themselves are :mod:`shipwreck.arena.ratings`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shipwreck.arena.ratings import Rating, record_game
from shipwreck.store.ratings import Entrant, RatingStore

if TYPE_CHECKING:
    from shipwreck.runtime.table import SeatInfo, Table


def entrant(info: SeatInfo) -> Entrant | None:
    """Who holds the rating of a seat, or ``None`` (a free seat's stand-in)."""
    if info.kind == "human" and info.player:
        return Entrant("player", info.player)
    if info.kind == "bot" and info.bot:
        return Entrant("bot", info.bot if info.owner is None else f"{info.owner}/{info.bot}")
    return None


def rated_seats(table: Table) -> list[tuple[int, Entrant]]:
    """The seats of ``table`` that count, with who holds each; empty if the game does not."""
    seats = [(i, e) for i, info in enumerate(table.seats) if (e := entrant(info)) is not None]
    if len(seats) < 2 or not any(e.kind == "player" for _, e in seats):
        return []
    return seats


def rate_finished(ratings: RatingStore, table: Table) -> dict[Entrant, Rating]:
    """Rate ``table``'s finished game (if it counts) and store the new ratings; returns them."""
    if not table.over:
        raise ValueError(f"table {table.id} has not finished")
    seats = rated_seats(table)
    if not seats:
        return {}
    scores = table.rules.scores(table.state)
    named = table.rules.summary(table.state).get("winners")
    winners = None
    if isinstance(named, list) and named:  # the game breaks its own ties (SM-41)
        winners = [table.rules.seat_name(table.state, s) in named for s, _ in seats]
    return record_game(
        ratings,
        table.game,
        [e for _, e in seats],
        [scores[s] for s, _ in seats],
        f"table {table.id}",
        winners,
    )
