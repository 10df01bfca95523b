"""Spanish Main fixes from a stranger's play-test (issue 18): whole-degree suggestions, hints
and ``toward`` that see what is in the way, towing what lies against the bow, boarding skipped
with a reason, gold (not coins) in the summary, and the last two crew cards."""

from __future__ import annotations

import copy
import math
import re

import pytest
from test_spanish_main import RED, S0, game

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import ShipPosition
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang import parse_command

# =========================================================================== suggested turns


def _bow_against_a_slanting_hull(heading: float, slant: float) -> SpanishMainState:
    """HMS Dover (red) with her bow just touching the side of HMS Titan (red too, so no pin),
    whose hull lies at ``slant`` degrees: the turn that lays Dover along Titan is no whole
    number of degrees."""
    ux, uy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
    x, y = 40.0, 25.0
    cx, cy = x - 0.8 * ux, y - 0.8 * uy  # her bow cap's centre
    vx, vy = math.sin(math.radians(slant)), math.cos(math.radians(slant))
    nx, ny = -vy, vx
    if nx * ux + ny * uy < 0:
        nx, ny = -nx, -ny
    px, py = cx + nx * 1.605, cy + ny * 1.605  # (two hull radii and a little apart)
    tip = (round(px + 3 * vx, 4), round(py + 3 * vy, 4))
    return game(
        ShipPosition("titan", RED, tip[0], tip[1], slant),
        ShipPosition("dover", RED, x, y, heading),
    )


SLANTS = [(h, t) for h in (10.0, 25.0, 33.0, 47.0) for t in (93.7, 101.3, 77.2)]


@pytest.mark.parametrize(("heading", "slant"), SLANTS)
def test_sm12_a_refused_move_suggests_a_whole_degree_turn_that_is_legal(
    heading: float, slant: float
) -> None:
    """SM-12, SM-13: a move refused because her bow is against something suggests a turn in
    whole degrees ('try 'move dover S 84'', not 'S 83.7'), rounded past the line along what
    she touches, and that suggestion, typed as shown, is taken. Rounded the other way (into
    what she touches) it would be refused: the rounding is the safe one, not any."""
    state = _bow_against_a_slanting_hull(heading, slant)
    with pytest.raises(IllegalCommand) as e:
        RULES.apply(copy.deepcopy(state), RED, C.Move("dover", (S0,)))
    found = re.search(r"try '(move dover S (-?[0-9.]+))'", str(e.value))
    assert found, str(e.value)
    typed, turn = found.group(1), found.group(2)
    assert re.fullmatch(r"-?\d+", turn), f"not a whole number of degrees: {typed!r}"
    cmd = parse_command("spanish_main", typed, RULES.view(state, RED))
    events = RULES.apply(copy.deepcopy(state), RED, cmd)
    assert any(e.text.startswith("dover sails S") for e in events)
    inward = int(turn) - 1 if int(turn) > 0 else int(turn) + 1
    with pytest.raises(IllegalCommand, match="against titan"):
        RULES.apply(copy.deepcopy(state), RED, C.Move("dover", (("S", float(inward), None),)))


@pytest.mark.parametrize(("heading", "slant"), SLANTS[:4])
def test_sm12_sampled_moves_and_hints_turn_whole_degrees(heading: float, slant: float) -> None:
    """SM-12: the moves the engine lists (Tab, the hint line, the bots) turn whole degrees."""
    state = _bow_against_a_slanting_hull(heading, slant)
    for c in RULES.choices(state, RED):
        if isinstance(c, C.Move):
            assert all(float(t).is_integer() for _, t, _ in c.legs), c
