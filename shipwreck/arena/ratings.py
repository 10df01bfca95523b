"""Ratings from finished games: openskill's Plackett–Luce model, made for free-for-all games of
many players (both of ours).

A game's ranking is by score, best first; equal scores share a rank (see :func:`rate_seats` for
how a tie is rated), unless the game itself names its winners (Spanish Main breaks ties, SM-41),
who then rank above the rest. Every seat's rating changes.

One entrant may hold several seats of one game (an arena of two bots at a six-seat boat). Each of
its seats then enters with the rating it had before the game, and it takes the sum of its
seats' changes to ``mu`` and the product of their shrinkings of ``sigma`` (as if it had played
each seat as a game of its own). Its seats' changes against each other cancel out in ``mu``: a
bot gains nothing from beating itself.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import msgspec
from openskill.models import PlackettLuce

from shipwreck.store.ratings import Entrant, RatingRow, RatingStore

MODEL = PlackettLuce()
"""openskill's defaults: a newcomer is 25 ± 8.33."""

K = TypeVar("K", bound=Hashable)


class Rating(msgspec.Struct, frozen=True):
    """A skill estimate: ``mu`` (the mean) and ``sigma`` (how unsure), after ``games`` games."""

    mu: float = float(MODEL.mu)
    sigma: float = float(MODEL.sigma)
    games: int = 0

    @property
    def ordinal(self) -> float:
        """openskill's conservative display rating, ``mu - 3 * sigma``: the skill it is 99.7 %
        sure of. A newcomer shows 0 and climbs as games make ``sigma`` small."""
        return float(MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal())

    def shown(self) -> str:
        """``μ ± σ``, as players read it."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"


def ranks(scores: Sequence[float], winners: Sequence[bool] | None = None) -> list[int]:
    """Competition ranks (1, 1, 3, …) of seats with these scores: higher scores first, equal
    scores share a rank; seats marked in ``winners`` (the game's own winners) come before all
    others."""
    won = list(winners) if winners is not None else [False] * len(scores)
    keys = [(not w, -s) for w, s in zip(won, scores, strict=True)]
    return [1 + sum(1 for other in keys if other < k) for k in keys]


def _strict_orders(places: Sequence[int]) -> list[list[int]]:
    """Strict rankings (1..n, no ties) that break the ties in ``places`` every way in turn:
    each group of tied seats is rotated, so over the ``lcm`` of the group sizes each tied seat
    holds each of its group's places equally often."""
    groups: dict[int, list[int]] = {}
    for seat, place in enumerate(places):
        groups.setdefault(place, []).append(seat)
    turns = math.lcm(*(len(g) for g in groups.values()))
    orders = []
    for r in range(turns):
        strict = [0] * len(places)
        nxt = 1
        for place in sorted(groups):
            g = groups[place]
            for i in range(len(g)):
                strict[g[(i + r) % len(g)]] = nxt
                nxt += 1
        orders.append(strict)
    return orders


def rate_seats(
    current: Mapping[K, Rating], seats: Sequence[K], places: Sequence[int]
) -> dict[K, Rating]:
    """New ratings of every entrant in ``seats`` (one per seat; an entrant may hold several)
    after a game that ranked the seats ``places`` (1 is best; equal places are a tie).
    ``current`` lacks newcomers.

    Ties are not given to openskill as such: its Plackett–Luce update can leave two players
    tied for first below the third (openskill.py issues 155 and 201, still so in 6.2). Instead
    each tied seat's change is the mean of its changes over :func:`_strict_orders`, so a tie
    sits between the places it spans and equal ratings that tie stay equal.
    """
    if len(seats) != len(places):
        raise ValueError(f"{len(seats)} seats but {len(places)} places")
    if len(seats) < 2:
        raise ValueError("a rated game has at least two seats")
    before = {k: current.get(k, Rating()) for k in seats}
    teams = [[MODEL.rating(mu=before[k].mu, sigma=before[k].sigma)] for k in seats]
    orders = _strict_orders(places)
    seat_gain = [0.0] * len(seats)
    seat_var = [0.0] * len(seats)  # the mean share of the variance kept
    for strict in orders:
        after = MODEL.rate(teams, ranks=[float(p) for p in strict])
        for s, (k, team) in enumerate(zip(seats, after, strict=True)):
            seat_gain[s] += (float(team[0].mu) - before[k].mu) / len(orders)
            seat_var[s] += (float(team[0].sigma) / before[k].sigma) ** 2 / len(orders)
    gain: dict[K, float] = dict.fromkeys(before, 0.0)
    shrink: dict[K, float] = dict.fromkeys(before, 1.0)
    for s, k in enumerate(seats):
        gain[k] += seat_gain[s]
        shrink[k] *= seat_var[s]
    return {
        k: Rating(r.mu + gain[k], r.sigma * math.sqrt(shrink[k]), r.games + 1)
        for k, r in before.items()
    }


def rate_game(
    current: Mapping[K, Rating],
    seats: Sequence[K],
    scores: Sequence[float],
    winners: Sequence[bool] | None = None,
) -> dict[K, Rating]:
    """:func:`rate_seats` for a game that ended with these scores (see :func:`ranks`)."""
    return rate_seats(current, seats, ranks(scores, winners))


def record_game(
    store: RatingStore,
    game: str,
    seats: Sequence[Entrant],
    scores: Sequence[float],
    source: str,
    winners: Sequence[bool] | None = None,
) -> dict[Entrant, Rating]:
    """Rate one finished game of ``game`` from the stored ratings and store the new ones (with a
    history line each, in one transaction). Returns them."""
    current: dict[Entrant, Rating] = {}
    for e in dict.fromkeys(seats):
        row = store.get(game, e)
        if row is not None:
            current[e] = Rating(row.mu, row.sigma, row.games)
    new = rate_game(current, seats, scores, winners)
    store.record(game, [RatingRow(game, e, r.mu, r.sigma, r.games) for e, r in new.items()], source)
    return new
