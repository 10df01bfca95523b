"""Spanish Main: split fire (SM-25), ship abilities (SM-60) and crew (SM-61).

Each ability test names its card (the rule is SM-60). Positions and dice are fixed as in
``test_spanish_main.py``, whose scene helpers this file uses.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_spanish_main import BLUE, RED, do, game, kinds, refused

from shipwreck.games.spanish_main import RULES
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.setup import ShipPosition
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.lang.commands import format_command, parse_command

# --------------------------------------------------------------------------- split fire (SM-25)


def _two_targets(*dice: int, **kw: Any) -> SpanishMainState:
    """HMS Dover (red, 3S-3L-3L-3S) sailing east; El Leon (blue) alongside to the south within
    S of every mast; El Picador (blue) across to the north, 6 away (only the L cannons reach)."""
    return game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-leon", BLUE, 40, 27.5, 90),
        ShipPosition("el-picador", BLUE, 40, 36.8, 90),
        dice=dice,
        **kw,
    )


def test_sm25_split_fire_one_target_per_cannon() -> None:
    """SM-25: one shoot action may split its cannons: 1 and 4 at El Leon, 2 and 3 at El Picador;
    each cannon rolls once, against its own target, in order."""
    state = _two_targets(1, 1, 1, 1)
    log = do(state, RED, C.Shoot("dover", "el-leon", (1, 4), (("el-picador", (2, 3)),)))
    fired = [x.split(":")[0] for x in log if "'s cannon" in x]
    assert fired == [
        "dover's cannon 1 (3S) at el-leon",
        "dover's cannon 4 (3S) at el-leon",
        "dover's cannon 2 (3L) at el-picador",
        "dover's cannon 3 (3L) at el-picador",
    ]
    assert state.dice == [] and "dover" in state.acted and kinds(state) == [(RED, "turn")]


def test_sm25_split_fire_hits_each_target() -> None:
    """SM-25: a hit on the first target asks its owner for a mast, then the volley goes on at
    the second target."""
    state = _two_targets(6, 1, 6)
    do(state, RED, C.Shoot("dover", "el-leon", (1,), (("el-picador", (2, 3)),)))
    assert kinds(state) == [(BLUE, "eliminate")]
    do(state, BLUE, C.Eliminate(1))
    assert state.ships["el-leon"].masts_up == 2
    assert kinds(state) == [(BLUE, "eliminate")]  # cannon 3's 6 hit el-picador
    do(state, BLUE, C.Eliminate(2))
    assert state.ships["el-picador"].masts_up == 1 and kinds(state) == [(RED, "turn")]


def test_sm25_split_fire_no_masts_takes_the_cannons_left() -> None:
    """SM-25: an aim without masts takes every cannon that can fire at it and is named nowhere
    else."""
    state = _two_targets(1, 1, 1, 1)
    log = do(state, RED, C.Shoot("dover", "el-leon", (), (("el-picador", (2, 3)),)))
    assert [x.split(" at ")[0] for x in log if "'s cannon" in x] == [
        "dover's cannon 1 (3S)",
        "dover's cannon 4 (3S)",
        "dover's cannon 2 (3L)",
        "dover's cannon 3 (3L)",
    ]


@pytest.mark.parametrize(
    ("cmd", "match"),
    [
        (C.Shoot("dover", "el-leon", (1, 2), (("el-picador", (2,)),)), "mast 2 is listed twice"),
        (C.Shoot("dover", "el-leon", (1,), (("el-leon", (2,)),)), "el-leon is named twice"),
        (C.Shoot("dover", "el-leon", (), (("el-picador", (1,)),)), "cannot fire mast 1"),
        (C.Shoot("dover", "el-leon", (), (("el-picador", ()),)), "given another target"),
        (C.Shoot("dover", "el-leon", (1,), (("far-red", ()),)), "not an enemy"),
        (C.Shoot("dover", "el-leon", (1,), (("nobody", ()),)), "there is no ship 'nobody'"),
    ],
)
def test_sm25_split_fire_refusals(cmd: C.Shoot, match: str) -> None:
    """SM-25: one target per cannon; a refused split shot changes nothing (one-line error)."""
    refused(_two_targets(), RED, cmd, match)


def test_sm25_split_fire_text_and_choices() -> None:
    """SM-25: the text form reads back (comma optional), and the choices offer a split shot
    when no single target takes every cannon that can fire."""
    text = "shoot dover at el-leon with 1 4, at el-picador with 2 3"
    cmd = parse_command("spanish_main", text)
    assert cmd == C.Shoot("dover", "el-leon", (1, 4), (("el-picador", (2, 3)),))
    assert format_command(cmd) == text
    assert parse_command("spanish_main", text.replace(",", "")) == cmd
    state = game(
        ShipPosition("dover", RED, 40, 30, 90),
        ShipPosition("el-leon", BLUE, 46, 26, 90),  # off the bow: cannons 1, 2, 3 reach
        ShipPosition("el-picador", BLUE, 34, 35, 90),  # off the stern, across: 2, 3, 4 reach
    )
    shots = [c for c in RULES.choices(state, RED) if isinstance(c, C.Shoot)]
    assert C.Shoot("dover", "el-leon") in shots and C.Shoot("dover", "el-picador") in shots
    split = [c for c in shots if c.also]
    assert split == [C.Shoot("dover", "el-leon", (1, 2, 3), (("el-picador", (4,)),))]
    do(state, RED, split[0])
