"""Spanish Main's fast geometry (SM-13): a run's first contact is solved, and what the rules work
out is remembered per position, without changing a single game.

The solved run (:func:`geometry.sweep`) is checked against a fine-stepped reference on random
scenes: it stops where the reference first comes within half a margin (to one step), never nearer
than that before, never inside anything; and against the old stepping (:func:`sweep_stepped`):
never short of it, and it names the same obstacle unless the old one stopped for a slanting pass
the solve rightly lets by. The memo (:mod:`spanish_main.memo`, :class:`geometry.Waters`) must not
change a game: seeded games played with it forgotten before every command are byte for byte the
same as with it kept.
"""

from __future__ import annotations

import math
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sm_helpers import H, W, scenes

from shipwreck.games.spanish_main import RULES, memo, rules
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.state import SpanishMainState

STEP = 0.002
"""The fine reference's step along a run."""

Scene = tuple[list[geo.Obstacle], tuple[float, float, float, float]]


def _parts(obs: list[geo.Obstacle]) -> list[geo.Obstacle]:
    """The obstacles as the solved run meets them (the whole edge wall by wall)."""
    return [p for ob in obs for p in (ob.parts or (ob,))]


def _run_axis(x: float, y: float, h: float, ln: float, t: float) -> geo.Segment:
    ux, uy = geo.unit(h)
    return geo.axis(x + t * ux, y + t * uy, h, ln)


def test_sm13_first_contact_of_each_kind_is_exact() -> None:
    """SM-13: head-on at an island, against the side and the end of a hull, into a wall: the
    solve gives the distance at which the gap is exactly the one asked."""
    isl = geo.island("isla", 30.0, 10.0, 5.0)
    # bow's centre at (19.2, 10) heading east: the island's shore is 10.8 - 5 - 0.8 ahead
    assert geo.first_contact(isl, 19.2, 10.0, 1.0, 0.0, 0.005) == pytest.approx(5.0 - 0.005)
    assert geo.first_contact(isl, 19.2, 10.0, -1.0, 0.0, 0.005) == math.inf  # (going away)
    assert geo.first_contact(isl, 19.2, 20.0, 1.0, 0.0, 0.005) == math.inf  # (passes north)
    side = geo.hull("side", 30.0, 5.0, 0.0, 6.5)  # axis x = 30, y from 4.2 to -0.7
    t = geo.first_contact(side, 20.0, 2.0, 1.0, 0.0, 0.01)
    assert t == pytest.approx(10.0 - 1.6 - 0.01)
    end = geo.first_contact(side, 30.0, 20.0, 0.0, -1.0, 0.01)  # down onto its bow's centre
    assert end == pytest.approx(20.0 - 4.2 - 1.6 - 0.01)
    wall = geo.walls(W, H)[2]  # x <= W
    assert geo.first_contact(wall, 60.0, 5.0, 1.0, 0.0, 0.01) == pytest.approx(W - 60.0 - 0.81)
    slant = geo.first_contact(wall, 60.0, 5.0, math.sqrt(0.5), math.sqrt(0.5), 0.01)
    assert slant == pytest.approx((W - 60.0 - 0.81) * math.sqrt(2))


def _check_against_reference(scene: Scene, dist: float) -> None:
    obs, (x, y, h, ln) = scene
    sw = geo.sweep(x, y, h, ln, dist, obs)
    old = geo.sweep_stepped(x, y, h, ln, dist, obs)
    if sw.blocked or old.blocked:  # (decided where she begins: the same probe as before)
        assert (sw.blocked, sw.on, sw.hit) == (old.blocked, old.on, old.hit)
        return
    seg0 = geo.axis(x, y, h, ln)
    parts = _parts(obs)
    far = [p for p in parts if p.gap(seg0) > geo.near_gap(p)]  # (the rest she leaves behind)
    ux, uy = geo.unit(h)
    n = int(dist / STEP)
    first = None  # the reference: the first step within half a margin of anything
    for i in range(n + 1):
        t = min(dist, i * STEP)
        seg = _run_axis(x, y, h, ln, t)
        if t < sw.done - 1e-9:  # before she stops: never nearer than where she stops, nor inside
            for p in parts:
                assert p.gap(seg) >= min(p.margin / 2, max(0.0, p.gap(seg0))) - 1e-6, p.id
        if first is None and any(p.gap(seg) <= p.margin / 2 for p in far):
            first = t
    if sw.hit is None:
        assert sw.done == dist and (first is None or first >= dist - STEP)
    else:
        assert first is not None and first - STEP - 1e-9 <= sw.done <= first + 1e-9
        end = _run_axis(x, y, h, ln, sw.done)
        half = sw.hit.margin / 2  # (the edge: one of its walls)
        assert any(abs(p.gap(end) - half) <= 1e-6 for p in _parts([sw.hit]))
    assert (sw.x, sw.y) == pytest.approx((x + sw.done * ux, y + sw.done * uy))
    if len(far) < len(parts):
        return  # (the old stepping let her nearer than half a margin when the whole edge was near)
    # the old stepping stops between the margin and half of it: never beyond the solve (which
    # stops CONTACT_EPS short of half), and for the same obstacle unless it stopped for a pass
    # the solve lets by (never nearer than half the margin)
    assert old.done <= sw.done + geo.CONTACT_EPS + 1e-9
    if old.hit is not sw.hit:
        assert sw.hit is None or sw.done > old.done + 1e-9


@settings(max_examples=300, deadline=None)
@given(scene=scenes(), dist=st.sampled_from([0.5, 2.0, 5.0, 7.0, 13.0]))
def test_sm13_solved_run_matches_a_fine_stepped_reference(scene: Scene, dist: float) -> None:
    """SM-13: on random scenes the solved first contact is where a fine-stepped run first comes
    within half a margin (to one step), the run is never nearer anything before it (and never
    inside it), and the old stepping never runs farther."""
    _check_against_reference(scene, dist)


def test_sm13_solved_run_slides_along_a_wall_then_meets_the_next() -> None:
    """SM-13: along the south edge (touching it) and into the east one: the whole edge is met
    wall by wall, so sliding along one does not let her through the next."""
    edge = geo.edge(W, H)
    y = geo.HULL_RADIUS + 0.004  # touching the south wall, heading east
    sw = geo.sweep(W - 3.0, y, 90.0, 4.5, 7.0, [edge])
    assert sw.hit is edge and not sw.blocked
    assert W - sw.x == pytest.approx(geo.CONTACT / 2, abs=1e-6)  # (x: her bow tip)
    _check_against_reference(([edge], (W - 3.0, y, 90.0, 4.5)), 7.0)


def _random_game(seed: int, forget: bool) -> tuple[bytes, list[str]]:
    """A seeded game of random commands (the bench's player); with ``forget``, the memo is
    cleared before every command. The final state and every log line."""
    rng = random.Random(seed)
    state, events = RULES.new_game(seed, 2)
    lines = [e.text for e in events]
    while not state.over and state.round <= 12:
        if forget:
            memo.clear()
        (p,) = RULES.prompts(state)
        by: dict[type, list[C.Command]] = {}
        for c in RULES.choices(state, p.seat):
            by.setdefault(type(c), []).append(c)
        kind = rng.choice(sorted(by, key=lambda t: t.__name__))
        cmd = rng.choice(by[kind])
        if isinstance(cmd, C.Move | C.MoveToward | C.MoveDock):
            rules.preview(state, p.seat, cmd)  # (what a bot does first: fills the memo)
        lines += [e.text for e in RULES.apply(state, p.seat, cmd)]
    return msgspec.json.encode(state), lines


@pytest.mark.parametrize("seed", [3, 11])
def test_memo_changes_no_game(seed: int) -> None:
    """Determinism: a seeded game is byte for byte the same whether what the rules worked out
    is remembered or forgotten before every command."""
    memo.clear()
    kept = _random_game(seed, forget=False)
    memo.clear()
    assert _random_game(seed, forget=True) == kept


@pytest.mark.parametrize("dist", [0.0, geo.S])
def test_sm12_a_turn_that_sets_her_down_on_an_island_at_the_edge_is_swung(dist: float) -> None:
    """SM-12, SM-13: a turn sets her down lying on an island with her bow at the sea's edge, so
    the run that follows cannot take her off it: she may not end there (the leg is ``swung``).
    Found in random games: the edge stopped her at once and she was left 1.6 inside isla-9."""
    length = 6.0
    x, y, heading = 0.005, 20.0, 270.0  # bow tip at the western edge, heading into it
    mid_x = x + length / 2  # (heading 270 runs toward -x: the hull lies east of her bow)
    isle = geo.island("isla-9", mid_x, y + geo.HULL_RADIUS + 2.0 - 0.5, 2.0)
    seg = geo.axis(x, y, heading, length)
    assert isle.gap(seg) < 0.0, "the scene: she lies on the island"
    sw = geo.sweep(x, y, heading, length, dist, [isle, *geo.walls(W, H)])
    assert sw.on and sw.done == 0.0 and sw.hit is not None
    leg, bx, by, bh = geo.sail_leg(
        x, y, heading, length, length, 0.0, dist, [isle, *geo.walls(W, H)]
    )
    assert leg.swung and (bx, by, bh) == (x, y, heading)


def test_memo_key_names_each_seas_own_islands() -> None:
    """The position key keeps its islands' part (a number for them) for the sea asked last:
    asked of two seas in turn, each key still stands for its own islands, and a copy of a sea (a
    state rebuilt from its bytes, as a bot's preview rebuilds one) gets the same key."""
    a, _ = RULES.new_game(1, 2)
    b, _ = RULES.new_game(2, 2)
    key_a, key_b = memo.sea_key(a), memo.sea_key(b)
    assert key_a[2] != key_b[2]
    for state, key in ((a, key_a), (b, key_b), (a, key_a)):
        assert memo.sea_key(state) == key
    copy = msgspec.json.decode(msgspec.json.encode(a), type=SpanishMainState)
    assert copy.islands is not a.islands
    assert memo.sea_key(copy) == key_a
    copy.islands["isla-1"].r += 1.0  # (not done in play: a sea whose islands differ)
    copy.islands = dict(copy.islands)
    assert memo.sea_key(copy)[2] != key_a[2]


def test_the_ship_field_places_compiled_code_reads_are_where_the_fields_are() -> None:
    """``state.AT_…`` are literal ints (compiled ``memo`` and ``rules`` hold them as
    constants); a field added to or moved in ``Ship`` must move them too."""
    from shipwreck.games.spanish_main import state

    names = ("id", "owner", "x", "y", "heading", "length", "towing")
    places = tuple(getattr(state, f"AT_{n.upper()}") for n in names)
    assert places == tuple(state.SHIP_AT[n] for n in names)
    game, _events = RULES.new_game(5, 2)
    ship = next(iter(game.ships.values()))
    fields = msgspec.structs.astuple(ship)
    assert fields[state.AT_ID] == ship.id and fields[state.AT_TOWING] == ship.towing
    assert fields[state.AT_X] == ship.x and fields[state.AT_HEADING] == ship.heading
