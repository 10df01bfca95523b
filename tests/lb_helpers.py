"""Lifeboat helpers the property and scoring tests share: random legal games and state clones.
Plain functions, not tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from shipwreck.engine.core import Event, Prompt
from shipwreck.games.lifeboat import RULES
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.state import LifeboatState

MAX_COMMANDS = 2000


"""No random game has needed more than ~250 commands (6000 games sampled); 8x that is a hang."""


FREE_P = 0.08


"""How often the random player takes a free action instead of answering a prompt."""


FREE_TYPES: tuple[type, ...] = (C.Offer, C.Accept, C.Decline, C.Give, C.Drop)


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def clone(state: LifeboatState) -> LifeboatState:
    """A deep copy through msgspec JSON, exactly as a saved game would be restored."""
    return msgspec.json.decode(encode(state), type=LifeboatState)


def blocking_prompts(state: LifeboatState) -> list[Prompt]:
    return [p for p in RULES.prompts(state) if p.blocking]


@dataclass
class Move:
    """One step of a random game: who sent what (``seat``/``cmd`` are None for the deal)."""

    seat: int | None
    cmd: C.Command | None
    events: list[Event]


def random_free_action(state: LifeboatState, rng: random.Random) -> tuple[int, C.Command] | None:
    """A random free action of a random seat, its kind (offer, accept, ...) picked evenly."""
    seat = rng.randrange(len(state.players))
    by_kind: dict[type, list[C.Command]] = {}
    for cmd in RULES.legal(state, seat):
        if isinstance(cmd, FREE_TYPES):
            by_kind.setdefault(type(cmd), []).append(cmd)
    if not by_kind:
        return None
    kind_ = rng.choice(sorted(by_kind, key=lambda t: t.__name__))
    return seat, rng.choice(by_kind[kind_])


def random_game(
    seed: int,
    seats: int,
    *,
    free_p: float = FREE_P,
    max_commands: int = MAX_COMMANDS,
) -> Iterator[tuple[LifeboatState, Move]]:
    """Play one random game, yielding the live state after the deal and after every command.

    Callers must not mutate the yielded state (use :func:`clone`). Raises AssertionError if the
    game gets stuck (no blocking prompt while not over) or does not end in ``max_commands``.
    """
    rng = random.Random(seed)
    state, events = RULES.new_game(seed, seats)
    yield state, Move(None, None, events)
    for _ in range(max_commands):
        if RULES.is_over(state):
            return
        waiting = blocking_prompts(state)
        assert waiting, f"stuck: nobody to ask in {state.phase}/{state.step} (seed {seed})"
        pick: tuple[int, C.Command] | None = None
        if rng.random() < free_p:
            pick = random_free_action(state, rng)
        if pick is None:
            prompt = rng.choice(waiting)
            answers = RULES.choices(state, prompt.seat)
            assert answers, f"{prompt} has no choices (seed {seed})"
            pick = (prompt.seat, rng.choice(answers))
        seat, cmd = pick
        events = RULES.apply(state, seat, cmd)
        yield state, Move(seat, cmd, events)
    raise AssertionError(f"game {seed} with {seats} seats did not end in {max_commands} commands")
