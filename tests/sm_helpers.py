"""Spanish Main game helpers the rule tests share: a game from ship and island positions, do a
command, refused commands, end turns, geometry scenes. Plain functions, not tests."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import strategies as st

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import RULES, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.setup import (
    IslandPosition,
    Position,
    ShipPosition,
)
from shipwreck.games.spanish_main.state import Options, SpanishMainState

RED, BLUE = 0, 1


ISLANDS = [
    IslandPosition(10, 28, 5, id="isla-1", home=RED),
    IslandPosition(60, 28, 5, id="isla-2", home=BLUE),
    IslandPosition(35, 45, 5, id="isla-3", coins=[3, 1, 5]),
    IslandPosition(35, 10, 4, id="isla-4", coins=[2, 6]),
]


FAR = [
    ShipPosition("albion", RED, 10, 52, 90, id="far-red"),
    ShipPosition("albion", BLUE, 60, 52, 90, id="far-blue"),
]


def encode(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def clone(state: SpanishMainState) -> SpanishMainState:
    return msgspec.json.decode(encode(state), type=SpanishMainState)


def game(
    *ships: ShipPosition,
    dice: tuple[int, ...] = (),
    turn: int = RED,
    far: bool = True,
    islands: list[IslandPosition] | None = None,
    **options: Any,
) -> SpanishMainState:
    pos = Position(
        seed=7,
        seats=2,
        islands=list(ISLANDS if islands is None else islands),
        ships=[*ships, *(FAR if far else [])],
        dice=list(dice),
        turn=turn,
        options=Options(**options),
    )
    state, _ = RULES.from_position(pos)
    return state


def do(state: SpanishMainState, seat: int, cmd: C.Command) -> list[str]:
    return [e.text for e in RULES.apply(state, seat, cmd)]


def refused(state: SpanishMainState, seat: int, cmd: C.Command, match: str) -> str:
    before = encode(state)
    with pytest.raises(IllegalCommand, match=match) as e:
        RULES.apply(state, seat, cmd)
    assert encode(state) == before
    assert "\n" not in str(e.value)
    return str(e.value)


def kinds(state: SpanishMainState) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in RULES.prompts(state)]


def end_turns(state: SpanishMainState, *seats: int) -> None:
    for seat in seats:
        do(state, seat, C.EndTurn())


def raider_beside_a_derelict() -> SpanishMainState:
    """Shadow (red) docked at blue's home since red's last turn, so she must leave it now; Snipe
    (blue, derelict) lies with her bow against Shadow's side (however she came there), so a tow
    where Shadow lies would be her move (SM-17) were she free to stay."""
    state = game(
        ShipPosition("shadow", RED, 60, 16, 0),
        ShipPosition("snipe", BLUE, 20, 40, 90, masts=0),
        dice=(1,),
    )
    do(state, RED, C.Move("shadow", (("L", 0.0, None),)))
    end_turns(state, RED, BLUE)
    s, t = state.ships["shadow"], state.ships["snipe"]
    t.x, t.y, t.heading = s.x + 0.8, s.y - 3, 270  # (Snipe's bow against Shadow's side)
    assert rules.must_leave(state, s) == "isla-2" and s.docked == "isla-2"
    return state


def scramble(state: SpanishMainState, keep: set[int], rng: random.Random) -> SpanishMainState:
    """A copy in which every coin value not numbered in ``keep`` is redrawn (the RNG is kept)."""
    s = clone(state)
    for k, c in enumerate(s.coins, 1):
        if k not in keep:
            c.value = rng.randint(1, 6)
    return s


def known_to(state: SpanishMainState, seat: int | None) -> set[int]:
    if state.over:
        return set(range(1, len(state.coins) + 1))
    return {
        k
        for k, c in enumerate(state.coins, 1)
        if (seat is not None and seat in c.known)
        or c.place.startswith("home:")
        or c.place == "lost"
    }


W, H = 70.0, 56.0


@st.composite
def scenes(draw: st.DrawFn) -> tuple[list[geo.Obstacle], tuple[float, float, float, float]]:
    """A few islands and hulls that do not overlap, and a free ship (x, y, heading, length)."""
    obs: list[geo.Obstacle] = [geo.edge(W, H)]
    segs: list[geo.Segment] = []
    for _ in range(draw(st.integers(0, 5))):
        r = draw(st.floats(1.0, 6.0))
        x, y = draw(st.floats(r, W - r)), draw(st.floats(r, H - r))
        obs.append(geo.island(f"i{len(obs)}", x, y, r, draw(st.sampled_from([0.01, 0.1]))))
    for _ in range(draw(st.integers(0, 4))):
        x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
        h, ln = draw(st.floats(0, 360)), draw(st.sampled_from([3.5, 5.5, 7.5]))
        seg = geo.axis(x, y, h, ln)
        if all(o.gap(seg) >= 0 for o in obs):
            obs.append(geo.hull(f"s{len(obs)}", x, y, h, ln))
            segs.append(seg)
    near = draw(st.booleans()) and len(obs) > 1  # start close to something, to hit it
    for _ in range(50):
        if near:
            base = obs[draw(st.integers(1, len(obs) - 1))]
            x, y = base.a + draw(st.floats(-10, 10)), base.b + draw(st.floats(-10, 10))
        else:
            x, y = draw(st.floats(0, W)), draw(st.floats(0, H))
        h, ln = draw(st.floats(0, 360)), draw(st.sampled_from([3.5, 4.5, 6.5, 7.5, 13.0]))
        seg = geo.axis(x, y, h, ln)
        if all(o.gap(seg) >= 0 for o in obs):
            return obs, (x, y, h, ln)
    return [geo.edge(W, H)], (35.0, 28.0, 0.0, 4.5)


S0: C.Leg = ("S", 0.0, None)
