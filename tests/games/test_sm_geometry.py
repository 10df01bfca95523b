"""Spanish Main geometry (SM-1, SM-5, SM-12, SM-13): distances, swept moves, and their properties.

The properties run :func:`geometry.plan` on random scenes (islands, hulls, the sea's edge) with
random legs and check what a player must be able to trust: a ship never ends a move overlapping
anything, never passes through anything on the way (checked on a fine sampling of the path it
actually sailed), and never turns or runs more than its legs allow.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sm_helpers import H, W, scenes

from shipwreck.games.spanish_main import geometry as geo


def test_compass_convention() -> None:
    """SM-1: headings are compass degrees, 0 north (+y), 90 east (+x); a + turn is starboard."""
    assert geo.unit(0) == pytest.approx((0.0, 1.0))
    assert geo.unit(90) == pytest.approx((1.0, 0.0))
    assert geo.bearing(0, 0, 1, 0) == pytest.approx(90.0)
    assert geo.turn_between(350, 10) == pytest.approx(20.0)
    assert geo.turn_between(10, 350) == pytest.approx(-20.0)
    assert geo.norm_heading(-90) == pytest.approx(270.0)


def test_hull_is_a_capsule() -> None:
    """SM-5: length 2.5 + 1 per mast, radius 0.8; the axis runs between the caps' centres, and
    masts sit from 30 % to 90 % of the length from the bow tip."""
    assert geo.hull_length(4) == 6.5
    ax, ay, bx, by = geo.axis(10.0, 10.0, 90.0, 6.5)
    assert (ax, ay) == pytest.approx((9.2, 10.0))
    assert (bx, by) == pytest.approx((10.0 - 5.7, 10.0))
    assert geo.mast_point(10.0, 10.0, 90.0, 6.5, 0, 4) == pytest.approx((10.0 - 1.95, 10.0))
    assert geo.mast_point(10.0, 10.0, 90.0, 6.5, 3, 4) == pytest.approx((10.0 - 5.85, 10.0))


def _brute_segments(s1: geo.Segment, s2: geo.Segment) -> float:
    best = math.inf
    for i in range(201):
        t = i / 200
        px, py = s1[0] + t * (s1[2] - s1[0]), s1[1] + t * (s1[3] - s1[1])
        best = min(best, geo.point_segment(px, py, s2)[0])
    return best


coord = st.floats(-20, 20, allow_nan=False)


@settings(max_examples=300)
@given(a=st.tuples(coord, coord, coord, coord), b=st.tuples(coord, coord, coord, coord))
# Found by runs, where the general formula was up to 1e-6 off: nearly parallel, meeting end to
# end; a point against a segment of 1e-6; and a short segment crossing a long one.
@example(a=(1.0, 0.0, 0.0, 1.0), b=(0.0, 1.0, 1.0, -1e-06))
@example(a=(0.0, 0.0, 0.0, 0.0), b=(0.0, 1e-06, 0.0, 0.0))
@example(a=(-1.0, 5e-7, 1.0, 5e-7), b=(0.0, 1e-06, 0.0, 0.0))
def test_segment_distance_matches_brute_force(a: geo.Segment, b: geo.Segment) -> None:
    """SM-13: the closed-form segment distance (used by every collision) agrees with
    sampling."""
    d, _ = geo.segment_segment(a, b)
    brute = _brute_segments(a, b)
    assert d <= brute + 1e-7
    seglen = math.hypot(a[2] - a[0], a[3] - a[1])
    assert brute <= d + seglen / 200 + 1e-7


def test_run_stops_at_first_touch_head_on() -> None:
    """SM-13: a ship running at an island stops touching it (between CONTACT/2 and CONTACT)."""
    isl = geo.island("isla", 30.0, 10.0, 5.0)
    path = geo.plan(20.0, 10.0, 90.0, 4.5, 4.5, [(0.0, 7.0)], [isl])
    assert path.hit is isl and path.legs[0].part == "bow"
    assert 5.0 - geo.CONTACT <= path.legs[0].ran <= 5.0 - geo.CONTACT / 2
    seg = geo.axis(path.x, path.y, path.heading, 4.5)
    assert geo.CONTACT / 2 - 1e-9 <= isl.gap(seg) <= geo.CONTACT + 1e-9


def test_touch_ends_the_whole_move() -> None:
    """SM-13: once touched, the remaining legs are lost."""
    isl = geo.island("isla", 30.0, 10.0, 5.0)
    path = geo.plan(22.0, 10.0, 90.0, 4.5, 4.5, [(0.0, 5.0), (0.0, 7.0)], [isl])
    assert len(path.legs) == 1 and path.hit is isl


def test_sm12_turn_is_a_placement_not_a_sweep() -> None:
    """SM-12: a turn is a placement about the centre of the bow's rounding: a hull the stern
    would have swept through on the way round does not stop her, and the bow cap stays put."""
    other = geo.hull("other", 10.0, 4.0, 90.0, 4.5)  # a hull lying east-west, south-west of us
    path = geo.plan(10.0, 10.0, 0.0, 6.5, 6.5, [(-90.0, 5.0)], [other])
    assert path.hit is None and path.legs[0].turned == -90.0 and path.legs[0].ran == 5.0
    r = geo.HULL_RADIUS
    assert geo.turn_pose(10.0, 10.0, 0.0, -90.0) == pytest.approx((10.0 - r, 10.0 - r, 270.0))
    assert (path.x, path.y) == pytest.approx((10.0 - r - 5.0, 10.0 - r))


def test_sm12_turn_onto_something_she_cannot_sail_clear_of_is_not_sailed() -> None:
    """SM-12: a turn that sets her down on a hull she does not sail clear of is ``swung``: the
    leg is not sailed and she stays where she was."""
    other = geo.hull(
        "other", 13.0, 8.0, 0.0, 6.5
    )  # north-south, where a turn to port puts the stern
    path = geo.plan(10.0, 10.0, 0.0, 6.5, 6.5, [(-45.0, 1.0)], [other])
    leg = path.legs[0]
    assert leg.swung and leg.hit is other and (leg.turned, leg.ran) == (0.0, 0.0)
    assert (path.x, path.y, path.heading) == pytest.approx((10.0, 10.0, 0.0))
    assert not path.moved


def test_sm12_bow_against_the_edge_can_always_turn_away() -> None:
    """SM-12: a ship run bow-first into the sea's edge at a slant (her stern would be set down
    past the edge by any turn that points her away) sails off it: the run clears her."""
    walls = geo.walls(W, H)
    path = geo.plan(30.0, 5.0, 196.0, 4.5, 4.5, [(0.0, 7.0)], walls)  # runs into the south edge
    assert path.hit is not None and path.hit.id == geo.EDGE_ID
    out = geo.plan(path.x, path.y, path.heading, 4.5, 4.5, [(90.0, 5.0)], walls)
    assert not out.legs[0].swung and out.legs[0].ran == 5.0
    end = geo.axis(out.x, out.y, out.heading, 4.5)
    assert all(w.gap(end) >= 0 for w in walls)
    short = geo.plan(path.x, path.y, path.heading, 4.5, 4.5, [(90.0, 0.5)], walls)
    assert short.legs[0].swung  # too short a run to clear her stern: not sailed


def test_moving_away_from_a_touch_is_free_and_into_it_blocked() -> None:
    """SM-13: a ship touching an island may sail away from it; into it, it does not move."""
    isl = geo.island("isla", 30.0, 10.0, 5.0)
    x = 25.0 - 0.005  # bow tip 0.005 from the island's edge, heading east: docked bow-first
    into = geo.plan(x, 10.0, 90.0, 4.5, 4.5, [(0.0, 5.0)], [isl])
    assert into.legs[0].blocked and not into.moved
    away_seg = geo.axis(x - 4.5 - 0.01, 10.0, 270.0, 4.5)  # same water, come about: bow west
    assert isl.gap(away_seg) > -1e-9
    away = geo.plan(x - 4.5, 10.0, 270.0, 4.5, 4.5, [(0.0, 5.0)], [isl])
    assert away.hit is None and away.legs[0].ran == 5.0


def test_edge_stops_a_move() -> None:
    """SM-1: the sea's edge stops a move like an island."""
    path = geo.plan(65.0, 10.0, 90.0, 4.5, 4.5, [(0.0, 7.0)], [geo.edge(W, H)])
    assert path.hit is not None and path.hit.kind == geo.EDGE
    assert W - geo.HULL_RADIUS - path.x <= geo.CONTACT + 1e-9


# --------------------------------------------------------------------------- properties


legs_st = st.lists(
    st.tuples(st.floats(-90, 90), st.sampled_from([0.0, 2.0, 5.0, 7.0])), min_size=1, max_size=2
)


def _sample_path(
    start: tuple[float, float, float, float], path: geo.Path
) -> list[tuple[float, float, float, bool]]:
    """Poses along what was actually sailed: each leg's placement (marked True), then every
    ~0.05 of its run."""
    x, y, h, ln = start
    out = [(x, y, h, False)]
    for leg in path.legs:
        x, y, h = geo.turn_pose(x, y, h, leg.turned)  # SM-12: a placement, nothing swept
        out.append((x, y, h, True))
        ux, uy = geo.unit(h)
        n = max(1, int(leg.ran / 0.05))
        for i in range(1, n + 1):
            out.append((x + ux * leg.ran * i / n, y + uy * leg.ran * i / n, h, False))
        x, y = x + ux * leg.ran, y + uy * leg.ran
    return out


@settings(max_examples=250, deadline=None)
@given(scene=scenes(), legs=legs_st)
@example(  # found in a full run: the turn is made, then the run is blocked where it began
    scene=(
        [geo.edge(W, H), geo.island("i2", 11.5, 27.4375, 1.0, 0.01)]
        + [geo.island("i3", 19.75, 31.5625, 4.1875, 0.1)],
        (18.5, 27.4375, 17.0, 4.5),
    ),
    legs=[(-1.0, 2.0)],
)
def test_moves_never_overlap_or_pass_through(
    scene: tuple[list[geo.Obstacle], tuple[float, float, float, float]],
    legs: list[tuple[float, float]],
) -> None:
    """SM-13: the final hull overlaps nothing, and no pose along the sailed path does either
    (within float noise), except what a turn set her down on and she sails clear of, never going
    deeper; SM-12: no leg turns more than asked (at most 90°) or runs farther than asked; a hit
    ends the move."""
    obs, start = scene
    x, y, h, ln = start
    path = geo.plan(x, y, h, ln, ln, legs, obs)
    assert len(path.legs) <= len(legs)
    for want, got in zip(legs, path.legs, strict=False):
        assert abs(got.turned) <= abs(want[0]) + 1e-9 <= 90 + 1e-9
        assert got.turned == 0 or math.copysign(1, got.turned) == math.copysign(1, want[0])
        assert 0.0 <= got.ran <= want[1] + 1e-9
    for leg in path.legs[:-1]:
        assert leg.hit is None
    end = geo.axis(path.x, path.y, path.heading, ln)
    for o in obs:
        assert o.gap(end) >= -1e-6, f"ends overlapping {o.id}"
    last: dict[int, float] = {}
    for px, py, ph, placed in _sample_path(start, path):
        seg = geo.axis(px, py, ph, ln)
        for k, o in enumerate(obs):
            g = o.gap(seg)
            if placed:
                last[k] = min(g, 0.0)
                continue
            # SM-12: a turn may set her down on something she then sails clear of; she never
            # goes deeper into it, and never into anything else
            assert g >= min(-1e-3, last.get(k, 0.0) - 1e-6), f"passes through {o.id}"
            last[k] = g
    if path.hit is not None and not path.legs[-1].swung:  # (a swung leg: see the test below)
        # Touching: within the obstacle's margin; or, for a motion blocked where it began (it
        # began closer than geo.near_gap and would go straight in, SM-13: a turn refused before
        # it turned at all, or a run refused where the leg's whole turn left her), within
        # near_gap.
        last, asked = path.legs[-1], legs[len(path.legs) - 1]
        stood = last.ran == 0 and last.turned in (0, asked[0])
        touch = geo.near_gap(path.hit) if stood else path.hit.margin
        assert path.hit.gap(end) <= touch + 1e-6


@settings(max_examples=150, deadline=None)
@given(scene=scenes(), legs=legs_st)
def test_sm12_a_swung_leg_is_set_down_on_what_it_names(
    scene: tuple[list[geo.Obstacle], tuple[float, float, float, float]],
    legs: list[tuple[float, float]],
) -> None:
    """SM-12: a leg is ``swung`` (not sailed) only when its turn sets her down on what it names
    and its run does not clear her of it; otherwise she ends clear of everything."""
    obs, (x, y, h, ln) = scene
    turn, dist = legs[0]
    res, ex, ey, eh = geo.sail_leg(x, y, h, ln, ln, turn, dist, obs)
    if res.swung:
        assert res.hit is not None and (ex, ey, eh) == (x, y, h)
        placed = geo.axis(*geo.turn_pose(x, y, h, turn), ln)
        assert res.hit.gap(placed) < 0.0
    else:
        end = geo.axis(ex, ey, eh, ln)
        assert all(o.gap(end) >= -1e-6 for o in obs)
