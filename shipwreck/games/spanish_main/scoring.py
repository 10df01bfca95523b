"""SM-41: most gold at home wins; a tie goes to the larger value of ships still afloat."""

from __future__ import annotations

from shipwreck.games.spanish_main.state import SpanishMainState


def afloat_value(state: SpanishMainState, seat: int) -> int:
    """The point cost of the seat's ships still afloat (derelicts and tows included)."""
    return sum(s.points for s in state.ships.values() if s.owner == seat)


def ranking_key(state: SpanishMainState, seat: int) -> tuple[int, int]:
    return state.gold[seat], afloat_value(state, seat)


def winners(state: SpanishMainState) -> list[int]:
    keys = {seat: ranking_key(state, seat) for seat in range(len(state.seats))}
    best = max(keys.values())
    return [seat for seat, k in keys.items() if k == best]


def score_all(state: SpanishMainState) -> dict[int, int]:
    """The score of a seat is its gold at home."""
    return {seat: state.gold[seat] for seat in range(len(state.seats))}
