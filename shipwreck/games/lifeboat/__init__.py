"""Lifeboat: shipwreck survivors in one boat (rules: ``docs/rules/lifeboat.md``).

- :mod:`.cards` — characters, supply and navigation cards
- :mod:`.commands` — the command structs
- :mod:`.state` — the full (secret) game state
- :mod:`.setup` — dealing a new game or a fixed position
- :mod:`.rules` — the game's flow: prompts, legal commands, apply
- :mod:`.view` — the one hidden-information filter
- :mod:`.scoring` — LB-61..64
"""

from __future__ import annotations

from typing import cast

from shipwreck.engine.core import Event, Positions, Ruleset, Seat
from shipwreck.games import registry
from shipwreck.games.lifeboat import rules
from shipwreck.games.lifeboat.cards import CHAR_IDS
from shipwreck.games.lifeboat.commands import Command
from shipwreck.games.lifeboat.report import summary_lines
from shipwreck.games.lifeboat.setup import Position, check_reachable, from_position, new_game
from shipwreck.games.lifeboat.state import LifeboatState
from shipwreck.games.lifeboat.view import LifeboatView, view


class Lifeboat(Ruleset[LifeboatState, Command], Positions[LifeboatState, Position]):
    """The Lifeboat ruleset, as the engine's ``Ruleset`` protocol describes it.

    The hot methods are the rules module's functions themselves (no wrapper call per command).
    """

    name = "lifeboat"
    min_seats = 4
    max_seats = 6
    command_type: object = Command
    state_type = LifeboatState
    position_type = Position
    free_types: frozenset[type] = rules._FREE
    """Commands that answer no prompt (trades, gifts, drops, talk)."""

    def new_game(
        self, seed: int, seats: int = 6, options: dict[str, object] | None = None
    ) -> tuple[LifeboatState, list[Event]]:
        return new_game(seed, seats, cast("dict[str, bool] | None", options))

    def from_position(self, pos: Position) -> tuple[LifeboatState, list[Event]]:
        return from_position(pos)

    def check_position(self, pos: Position) -> None:
        """ValueError for a position no game reaches (the scenario loader refuses those)."""
        check_reachable(pos)

    prompts = staticmethod(rules.prompts)

    legal = staticmethod(rules.legal)

    choices = staticmethod(rules.choices)

    apply = staticmethod(rules.apply)

    apply_quiet = staticmethod(rules.apply_quiet)
    """``apply`` without events, for headless play (``shipwreck sim``, search playouts)."""

    default = staticmethod(rules.default)

    def view(self, state: LifeboatState, seat: Seat | None) -> LifeboatView:
        return view(state, seat)

    def is_over(self, state: LifeboatState) -> bool:
        return state.phase == "over"

    def scores(self, state: LifeboatState) -> dict[Seat, int]:
        return {state.players.index(c): s for c, s in (state.scores or {}).items()}

    def summary(self, state: LifeboatState) -> dict[str, object]:
        """The final-state report of ``shipwreck scenario run --json`` (docs/scenarios.md)."""
        out: dict[str, object] = {
            "over": state.phase == "over",
            "birds": state.birds,
            "round": state.round,
            "phase": state.phase,
            "step": state.step,
            "next": sorted(
                {state.players[p.seat] for p in rules.prompts(state) if p.blocking},
                key=state.boat.index,
            ),
            "navigation_table": list(state.nav_table),
            "characters": {
                cid: {
                    "seat": i + 1,
                    "wounds": c.wounds,
                    "state": c.state,
                    "hidden": list(c.hidden),
                    "revealed": list(c.revealed),
                    "friend": c.friend,
                    "enemy": c.enemy,
                    "rowed": c.rowed,
                    "fought": c.fought,
                }
                for i, cid in enumerate(state.boat)
                for c in (state.chars[cid],)
            },
        }
        if state.scores is not None:
            out["scores"] = dict(state.scores)
            best = max(state.scores.values(), default=0)
            out["winners"] = [c for c in state.boat if state.scores.get(c) == best]  # LB-61
        return out

    def seat_name(self, state: LifeboatState, seat: Seat) -> str:
        """The name a seat goes by in commands and logs: its character's id."""
        return state.players[seat]

    def seat_of(self, state: LifeboatState, name: str) -> Seat:
        return state.players.index(name)


RULES = Lifeboat()

GAME = registry.register(
    registry.Game(
        name=Lifeboat.name,
        title="Lifeboat",
        ruleset=lambda: RULES,
        min_seats=Lifeboat.min_seats,
        max_seats=Lifeboat.max_seats,
        default_seats=6,
        aliases=("lb",),
        rules_file="lifeboat.md",
        default_bots=("random", "survivor", "loyal", "predator", "hoarder"),
        summary_lines=summary_lines,
        seat_names=CHAR_IDS,
        default=True,
        timers={
            "turn": 120,
            "respond": 60,
            "fight": 45,
            "navigate": 60,
            "thirst": 60,
            "supply": 60,
            "overboard": 45,
            "keep": 60,
            "offer": 0,  # a standing offer (not blocking): it waits for an answer
        },
    )
)

__all__ = ["RULES", "Command", "Lifeboat", "LifeboatState", "LifeboatView", "Position"]
