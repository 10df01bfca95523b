"""Does a Spanish Main ship have a move that takes her somewhere? (SM-12, the lock-up check.)

Shared by the property test (``tests/games/test_sm_lockup.py``) and the measurement script
(``bench/sm_lockups.py``). It asks the rules themselves: a ship is *free* when some one-leg move
of hers, at a first-leg heading change on a 5-degree grid across her whole arc, is accepted and
runs her forward at least ``MIN_RUN``; the turns that lay her along what her bow touches
(``rules.slide_turns``) are tried too. ``choices()`` lists only a sample, so it is not used.
"""

from __future__ import annotations

import copy
import random

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.state import Ship, SpanishMainState

MIN_RUN = 0.05
"""A move that runs less than this (shown as 0.0) goes nowhere."""
TURNS = tuple(float(t) for t in range(-90, 91, 5))


def runs_somewhere(
    state: SpanishMainState, s: Ship, min_run: float = MIN_RUN, come_about: bool = True
) -> bool:
    """Has ``s`` a move action that runs her at least ``min_run`` (0: any move accepted), or, if
    ``come_about``, may she come about (SM-16: a docked ship's move action)? Checked as if it
    were her owner's turn with no action given yet (the state is left as it was)."""
    saved = state.turn, state.step, state.acted
    state.turn, state.step, state.acted = s.owner, "turn", []
    try:
        if (  # SM-16 (docked, or her bow against something: this server's SM-12 promise)
            come_about
            and rules._can_move(state, s) is None
            and rules._come_about_problem(state, s) is None
        ):
            return True
        length, skip = rules._body(state, s)
        slides = rules.slide_turns(s, length, rules.obstacles(state, s, skip))
        for kind in dict.fromkeys(rules.move_legs(s)):
            leg: C.LegKind = "S" if kind == "S" else "L"
            for turn in (*TURNS, *slides):
                try:
                    _, path, _, _ = rules._validate_move(
                        state, s.owner, C.Move(s.id, ((leg, turn, None),))
                    )
                except IllegalCommand:
                    continue
                if min_run <= 0.0 or (path.legs and path.legs[0].ran >= min_run):
                    return True
        return bool(s.towing) and _free_once_cast_off(state, s, min_run, come_about)
    finally:
        state.turn, state.step, state.acted = saved


def _free_once_cast_off(state: SpanishMainState, s: Ship, min_run: float, come_about: bool) -> bool:
    """SM-17: a towing ship may let her tow go at any time in her turn (free): has she a move
    then? (Asked of a copy: the state is left as it was.)"""
    cast_off = copy.deepcopy(state)
    cast_off.turn, cast_off.step, cast_off.acted = s.owner, "turn", []
    RULES.apply(cast_off, s.owner, C.BreakTow(s.id))
    return runs_somewhere(cast_off, cast_off.ships[s.id], min_run, come_about)


def should_sail(state: SpanishMainState, s: Ship) -> bool:
    """SM-12's promise covers her: sailing (not derelict, not in tow) and not pinned (SM-19)."""
    return not s.derelict and s.towed_by is None and rules.pinned_by(state, s) is None


def stuck(state: SpanishMainState, min_run: float = MIN_RUN, come_about: bool = True) -> list[str]:
    """The ships SM-12 promises a move that have none."""
    return [
        s.id
        for s in state.ships.values()
        if should_sail(state, s) and not runs_somewhere(state, s, min_run, come_about)
    ]


def random_game(seed: int, seats: int, rounds: int) -> SpanishMainState:
    """A game of random legal answers (a random kind of command among ``choices()``, then one
    of that kind, as ``bench/spanish_main.py`` plays), up to ``rounds`` rounds or its end."""
    pick = random.Random(seed)
    state, _ = RULES.new_game(seed, seats)
    while not state.over and state.round <= rounds:
        (p,) = RULES.prompts(state)
        by: dict[type, list[C.Command]] = {}
        for c in RULES.choices(state, p.seat):
            by.setdefault(type(c), []).append(c)
        kind = pick.choice(sorted(by, key=lambda t: t.__name__))
        RULES.apply(state, p.seat, pick.choice(by[kind]))
    return state
