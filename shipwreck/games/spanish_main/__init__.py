"""Spanish Main: fleets, islands and buried gold (rules: ``shared/rules/spanish-main.md``).

- :mod:`.geometry` — capsule hulls, circular islands, swept motion that stops at the first touch
- :mod:`.ships` — the first set's ship list (``data/ships.csv``) and preset fleets
- :mod:`.commands` — the command structs
- :mod:`.state` — the full (secret) game state
- :mod:`.setup` — the seeded sea, or a fixed position
- :mod:`.rules` — the game's flow: prompts, legal commands, apply
- :mod:`.view` — the one hidden-information filter
- :mod:`.scoring` — SM-41

Seats are named ``red``, ``blue``, ``green``, ``gold`` in turn order.
"""

from __future__ import annotations

from typing import Any

from shipwreck.engine.core import Event, Seat
from shipwreck.games.spanish_main import rules
from shipwreck.games.spanish_main.commands import Command
from shipwreck.games.spanish_main.scoring import score_all
from shipwreck.games.spanish_main.setup import Position, from_position, new_game
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import SpanishMainView, view


class SpanishMain:
    """The Spanish Main ruleset, as the engine's ``Ruleset`` protocol describes it."""

    name = "spanish_main"
    min_seats = 2
    max_seats = 4
    command_type: Any = Command
    state_type = SpanishMainState
    position_type = Position
    free_types: frozenset[type] = rules.FREE_TYPES
    """Commands that answer no prompt (breaking a tow)."""

    def new_game(
        self, seed: int, seats: int = 2, options: dict[str, Any] | None = None
    ) -> tuple[SpanishMainState, list[Event]]:
        return new_game(seed, seats, options)

    def from_position(self, pos: Position) -> tuple[SpanishMainState, list[Event]]:
        return from_position(pos)

    prompts = staticmethod(rules.prompts)

    legal = staticmethod(rules.legal)

    choices = staticmethod(rules.choices)

    apply = staticmethod(rules.apply)

    default = staticmethod(rules.default)

    def view(self, state: SpanishMainState, seat: Seat | None) -> SpanishMainView:
        return view(state, seat)

    def is_over(self, state: SpanishMainState) -> bool:
        return state.over

    def scores(self, state: SpanishMainState) -> dict[Seat, int]:
        return score_all(state)

    def summary(self, state: SpanishMainState) -> dict[str, Any]:
        """The final-state report of ``shipwreck scenario run --json``."""
        return {
            "over": state.over,
            "round": state.round,
            "turn": state.seats[state.turn],
            "step": state.step,
            "next": [state.seats[p.seat] for p in rules.prompts(state)],
            "gold": dict(zip(state.seats, state.gold, strict=True)),
            "end_reason": state.end_reason,
            "winners": [state.seats[s] for s in state.winners],
            "sunk": list(state.sunk),
            "ships": {
                s.id: {
                    "owner": state.seats[s.owner],
                    "x": s.x,
                    "y": s.y,
                    "heading": s.heading,
                    "masts": s.masts_up,
                    "cargo": len(s.cargo),
                    "docked": s.docked,
                    "towing": s.towing,
                    "derelict": s.derelict,
                }
                for s in state.ships.values()
            },
        }

    def seat_name(self, state: SpanishMainState, seat: Seat) -> str:
        return state.seats[seat]

    def seat_of(self, state: SpanishMainState, name: str) -> Seat:
        return state.seats.index(name)


RULES = SpanishMain()

__all__ = ["RULES", "Command", "Position", "SpanishMain", "SpanishMainState", "SpanishMainView"]
