"""The ladder's ratings of live tables: which finished games count, and for whom.

A finished game counts when a player sat at it and at least two of its seats are rated: its
players and its bots (a shipped bot by its name, a player's saved bot as ``owner/name``). A free
seat's stand-in holds no rating and is left out of the ranking. Tutorials are never stored, so
never rated. The ratings themselves are :mod:`shipwreck.arena.ratings`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from shipwreck.arena.ratings import Rating, record_game
from shipwreck.games import registry, title
from shipwreck.store.ratings import Entrant, RatingStore

if TYPE_CHECKING:
    from shipwreck.runtime.seat_link import SeatLink
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


def seat_rating(ratings: RatingStore | None, table: SeatLink, seat: int) -> Rating | None:
    """The rating of whoever plays ``seat`` in ``table``'s game, if they have one (read through
    :meth:`RatingStore.recent`: cheap enough for every repaint)."""
    who = entrant(table.seats[seat]) if ratings is not None else None
    row = ratings.recent(table.game, who) if ratings is not None and who is not None else None
    return Rating(row.mu, row.sigma, row.games) if row is not None else None


class Place(msgspec.Struct, frozen=True):
    """One line of a game's ladder."""

    place: int
    entrant: Entrant
    rating: Rating
    change: float | None = None
    """How much the display rating moved in its last rated game (``None``: its first)."""


def ladder(
    ratings: RatingStore, game: str, player: str | None = None, top: int = 10
) -> tuple[list[Place], Place | None]:
    """The ``top`` places of ``game``'s ladder (best display rating first), and ``player``'s own
    place with its last change (``None`` if they have no rating in that game yet)."""
    rows = ratings.board(game)
    best = [
        Place(i, r.entrant, Rating(r.mu, r.sigma, r.games)) for i, r in enumerate(rows[:top], 1)
    ]
    mine = None
    for i, r in enumerate(rows, 1):
        if r.entrant == Entrant("player", player or ""):
            history = ratings.history(game, r.entrant)
            now = Rating(r.mu, r.sigma, r.games)
            change = None
            if len(history) >= 2:
                before = Rating(history[-2].mu, history[-2].sigma)
                change = now.ordinal - before.ordinal
            elif history:
                change = now.ordinal - Rating().ordinal
            mine = Place(i, r.entrant, now, change)
            break
    return best, mine


def nobody_rated(game: str) -> str:
    """What an empty ladder says: how to get on it (a finished game with yourself and at
    least one other player or bot counts, :func:`rated_seats`)."""
    g = registry.get(game)
    new = "new" if g.name == registry.default_game().name else f"new {g.word}"
    return (
        f"nobody is rated in {title(game)} yet: finish a game against bots or other players"
        f" ('{new}' starts one) and you are on it"
    )


def format_ladder(game: str, best: list[Place], mine: Place | None) -> list[str]:
    """The ladder as plain text lines (for ``ssh host ladder`` and the lobby's ladder screen)."""
    lines = [f"{title(game)} ladder: rating = μ − 3σ, the skill the games are sure of"]
    if not best:
        return [*lines, nobody_rated(game)]
    lines.append(" #  who                      rating  μ ± σ         games")
    for p in best:
        lines.append(_line(p))
    if mine is not None:
        moved = "" if mine.change is None else f" (last game {mine.change:+.1f})"
        if all(p.entrant != mine.entrant for p in best):
            lines.append(_line(mine))
        lines.append(f"you are #{mine.place}{moved}")
    return lines


def _line(p: Place) -> str:
    who = p.entrant.name + (" (bot)" if p.entrant.kind == "bot" else "")
    return (
        f"{p.place:>2}  {who[:24]:<24} {p.rating.ordinal:>6.1f}  {p.rating.shown():<13}"
        f" {p.rating.games:>5}"
    )
