"""Tally, a toy third game: two seats take turns; ``take`` adds one to your tally; the first to
three wins. Defined here, in the tests, to show a game needs no file outside its own."""

from __future__ import annotations

from typing import Any

import msgspec

from shipwreck.engine.core import SYSTEM, Event, IllegalCommand, Prompt, Seat

NAME = "tally"
GOAL = 3
SEATS = ("north", "south")


class Take(msgspec.Struct, frozen=True, tag="take"):
    """``take``: one more on your tally."""


Command = Take


class Position(msgspec.Struct):
    tallies: list[int] = msgspec.field(default_factory=lambda: [0, 0])
    turn: int = 0


class TallyState(msgspec.Struct):
    seats: list[str]
    tallies: list[int]
    turn: int = 0
    round: int = 1
    over: bool = False


class TallyView(msgspec.Struct):
    """What a seat knows: everything (the game hides nothing)."""

    me: Seat | None
    seats: list[str]
    tallies: list[int]
    turn: int
    round: int
    over: bool
    choices: list[Take]


class Tally:
    """The toy ruleset, as the engine's ``Ruleset`` protocol describes it."""

    name = NAME
    min_seats = 2
    max_seats = 2
    command_type: Any = Command
    position_type = Position
    free_types: frozenset[type] = frozenset()

    def new_game(
        self, seed: int, seats: int = 2, options: dict[str, Any] | None = None
    ) -> tuple[TallyState, list[Event]]:
        return TallyState(list(SEATS[:seats]), [0] * seats), [Event("start", "tally begins")]

    def from_position(self, pos: Position) -> tuple[TallyState, list[Event]]:
        return TallyState(list(SEATS), list(pos.tallies), pos.turn), []

    def prompts(self, state: TallyState) -> list[Prompt]:
        return [] if state.over else [Prompt(state.turn, "turn")]

    def choices(self, state: TallyState, seat: Seat) -> list[Take]:
        return [Take()] if not state.over and seat == state.turn else []

    legal = choices

    def apply(self, state: TallyState, seat: Seat, cmd: Take) -> list[Event]:
        if state.over:
            raise IllegalCommand("the game is over")
        if seat != state.turn and seat != SYSTEM:
            raise IllegalCommand(f"it is {state.seats[state.turn]}'s turn")
        who = state.turn
        state.tallies[who] += 1
        events = [Event("take", f"{state.seats[who]} takes one ({state.tallies[who]})")]
        if state.tallies[who] >= GOAL:
            state.over = True
            events.append(Event("over", f"{state.seats[who]} wins"))
        else:
            state.turn = 1 - who
            state.round += who
        return events

    def default(self, state: TallyState, seat: Seat) -> Take | None:
        return Take() if not state.over else None

    def view(self, state: TallyState, seat: Seat | None) -> TallyView:
        return TallyView(
            seat,
            list(state.seats),
            list(state.tallies),
            state.turn,
            state.round,
            state.over,
            self.choices(state, seat) if seat is not None else [],
        )

    def is_over(self, state: TallyState) -> bool:
        return state.over

    def scores(self, state: TallyState) -> dict[Seat, int]:
        return dict(enumerate(state.tallies))

    def summary(self, state: TallyState) -> dict[str, Any]:
        return {"over": state.over, "round": state.round, "tallies": list(state.tallies)}

    def seat_name(self, state: TallyState, seat: Seat) -> str:
        return state.seats[seat]

    def seat_of(self, state: TallyState, name: str) -> Seat:
        return state.seats.index(name)


RULES = Tally()
