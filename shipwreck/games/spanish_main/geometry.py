"""The sea's geometry: capsule hulls, round islands, swept motion (SM-1, SM-5, SM-12, SM-13).

Conventions (all floats, units of the rules: ``S = 5.0``, ``L = 7.0``):

- ``x`` grows east, ``y`` grows north; the sea is ``[0, width] x [0, height]``.
- Headings are compass degrees: 0 is north, 90 east. A positive turn is to starboard
  (clockwise), a negative one to port.
- A hull is a capsule (a segment with a radius of 0.8) of overall length ``2.5 + masts``. A ship's
  position is its **bow tip**; the axis runs from ``tip - r*u`` (the bow cap's centre) to
  ``tip - (length - r)*u`` (the stern cap's centre), ``u`` the heading's unit vector.

A turn is a *placement* (SM-12): the ship turns about the centre of her bow's rounding (the bow
cap's centre, so the rounded bow stays where it was) and is set down at her new heading; nothing
is swept. Only the straight run that follows is checked: it may begin lying on what the turn set
her down on if it sails clear of it, and must end clear. So a ship whose bow touches something
can always turn away from it.

A run stops where its gap to something first falls to half that thing's margin: never
overlapping, and close enough to count as touching (``TOUCH``). That place is solved for directly
(:func:`first_contact`): a hull runs along its own axis, so the first point of it to come within
reach of anything is the centre of its bow's rounding, and the first contact is where a ray from
there enters the obstacle's core (a point, a segment or a wall) grown by the reach. Things a hull
touches when it starts are probed: moving away from them is free, moving into them is *blocked*
at once. :func:`sweep_stepped` is the old way (stepping forward by ``gap - margin/2``, about 130
steps a run, which lands exactly there on a run straight at something and up to half a margin
short of it on a slant), kept as a reference for tests and the benchmark.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar, cast

from mypy_extensions import mypyc_attr

_T = TypeVar("_T")

S = 5.0
L = 7.0
LEG_LENGTH = {"S": S, "L": L}
HULL_RADIUS = 0.8
CONTACT = 0.01
"""A run stops where its gap to an island or a hull falls to half of this (its margin)."""
TOUCH = 0.02
"""Two shapes at most this far apart touch (dock, ram, tow, pin)."""
STANDOFF = 0.1
"""The margin kept from an enemy home island: a ship stops short, not touching (SM-14)."""
STERN_ZONE = 1.2
"""The part of a hull within this distance of its stern is named its stern (log lines)."""
SWING_STEPS = 8
"""A helper move (toward, dock) whose turn would set her down on something she cannot sail clear
of turns less: the largest k/8 of the turn that is free."""
TOW_GAP = 0.005
"""A towed derelict rides this far astern of its tower."""
PROBE = 0.02
"""How far (in hull displacement) a touching obstacle is probed to tell into from away."""
MAX_STEPS = 5000

ISLAND, SHIP, EDGE = 0, 1, 2


def hull_length(masts: int) -> float:
    """SM-5: 2.5 + 1.0 per mast (the masts on the card, not those left)."""
    return 2.5 + 1.0 * masts


def mast_frac(i: int, n: int) -> float:
    """SM-5: how far along the hull (0 = bow tip, 1 = stern) mast ``i`` of ``n`` stands."""
    return 0.6 if n <= 1 else 0.3 + 0.6 * i / (n - 1)


def bow_length(length: float) -> float:
    """SM-6: the bow runs from the bow tip to the first mast (ram, tow and pin contacts use it).
    ``length`` is the hull's (SM-5: 2.5 + masts on the card)."""
    masts = max(1, round(length - 2.5))
    return mast_frac(0, masts) * length


_UNITS: dict[float, tuple[float, float]] = {}
UNITS_KEPT = 4096


def unit(heading: float) -> tuple[float, float]:
    """The unit vector of a heading (remembered: the rules ask for the same few headings, every
    ship's and every listed turn's, many times over)."""
    got = _UNITS.get(heading)
    if got is None:
        rad = math.radians(heading)
        got = math.sin(rad), math.cos(rad)
        if heading != 0.0:  # (0.0 and -0.0 are one key but two answers: neither is kept)
            if len(_UNITS) >= UNITS_KEPT:
                _UNITS.clear()
            _UNITS[heading] = got
    return got


def norm_heading(h: float) -> float:
    h = math.fmod(h, 360.0)
    if h < 0:
        h += 360.0
    return 0.0 if h >= 360.0 else h


def turn_between(a: float, b: float) -> float:
    """The signed turn (degrees, -180..180, + = starboard) from heading ``a`` to heading ``b``."""
    d = math.fmod(b - a, 360.0)
    if d > 180.0:
        d -= 360.0
    elif d <= -180.0:
        d += 360.0
    return d


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """The compass heading from one point to another."""
    return norm_heading(math.degrees(math.atan2(x1 - x0, y1 - y0)))


Segment = tuple[float, float, float, float]


def axis(x: float, y: float, heading: float, length: float) -> Segment:
    """The axis segment (bow cap centre, stern cap centre) of a hull with its bow tip at x, y."""
    ux, uy = unit(heading)
    r = HULL_RADIUS
    back = length - r
    return x - r * ux, y - r * uy, x - back * ux, y - back * uy


def point_segment(px: float, py: float, seg: Segment) -> tuple[float, float]:
    """(distance, t): the distance from a point to a segment and where (0..1) it is closest."""
    ax, ay, bx, by = seg
    dx, dy = bx - ax, by - ay
    n = dx * dx + dy * dy
    t = 0.0 if n <= 0.0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n))
    cx, cy = ax + t * dx - px, ay + t * dy - py
    return math.sqrt(cx * cx + cy * cy), t


def _nearest_ends(s1: Segment, s2: Segment) -> tuple[float, float]:
    """(distance, t on s1) where the general formula is unsure: a segment that is all but a
    point, or two (nearly) parallel ones. Unless they cross, the nearest pair has an end of one of
    them; so: 0 where they cross, else the least of each end's distance to the other segment."""
    p1x, p1y, q1x, q1y = s1
    p2x, p2y, q2x, q2y = s2
    e1x, e1y, e2x, e2y = q1x - p1x, q1y - p1y, q2x - p2x, q2y - p2y
    side_p2 = e1x * (p2y - p1y) - e1y * (p2x - p1x)  # which side of s1's line each end of s2 is
    side_q2 = e1x * (q2y - p1y) - e1y * (q2x - p1x)
    side_p1 = e2x * (p1y - p2y) - e2y * (p1x - p2x)  # and each end of s1, of s2's line
    side_q1 = e2x * (q1y - p2y) - e2y * (q1x - p2x)
    if side_p2 * side_q2 < 0.0 and side_p1 * side_q1 < 0.0:
        return 0.0, side_p1 / (side_p1 - side_q1)
    best, t = point_segment(p1x, p1y, s2)[0], 0.0
    d = point_segment(q1x, q1y, s2)[0]
    if d < best:
        best, t = d, 1.0
    for x, y in ((p2x, p2y), (q2x, q2y)):
        d, on = point_segment(x, y, s1)
        if d < best:
            best, t = d, on
    return best, t


def segment_segment(s1: Segment, s2: Segment) -> tuple[float, float]:
    """(distance, t on s1) between two segments (Ericson, *Real-Time Collision Detection* 5.1.9)."""
    p1x, p1y, q1x, q1y = s1
    p2x, p2y, q2x, q2y = s2
    d1x, d1y = q1x - p1x, q1y - p1y
    d2x, d2y = q2x - p2x, q2y - p2y
    rx, ry = p1x - p2x, p1y - p2y
    a = d1x * d1x + d1y * d1y
    e = d2x * d2x + d2y * d2y
    f = d2x * rx + d2y * ry
    eps = 1e-12
    if a <= eps or e <= eps:  # one is all but a point
        return _nearest_ends(s1, s2)
    c = d1x * rx + d1y * ry
    b = d1x * d2x + d1y * d2y
    denom = a * e - b * b
    if denom <= eps:  # (nearly) parallel
        return _nearest_ends(s1, s2)
    s = max(0.0, min(1.0, (b * f - c * e) / denom))
    t = (b * s + f) / e
    if t < 0.0:
        t, s = 0.0, max(0.0, min(1.0, -c / a))
    elif t > 1.0:
        t, s = 1.0, max(0.0, min(1.0, (b - c) / a))
    cx = p1x + d1x * s - (p2x + d2x * t)
    cy = p1y + d1y * s - (p2y + d2y * t)
    return math.sqrt(cx * cx + cy * cy), s


@dataclass(slots=True)
class Obstacle:
    """Something a hull must not pass through: an island, another hull, or the sea's edge.

    ``a, b, c, d``: an island's centre (a, b); a hull's axis segment; the sea's (or one wall's)
    box, x from a to c and y from b to d. ``margin``: a motion stops against it at half this gap.
    """

    kind: int
    id: str
    a: float = 0.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    r: float = 0.0
    margin: float = CONTACT
    mx: float = field(default=0.0, init=False)
    my: float = field(default=0.0, init=False)
    rad: float = field(default=math.inf, init=False)
    """A circle (mx, my, rad) holding the whole shape (the edge: everything), to skip what is far
    without working out the gap."""
    parts: tuple[Obstacle, ...] = field(default=(), init=False)
    """The whole sea's edge (:func:`edge`) as its four walls: its gap is not convex along a run
    (each wall's is linear), so a run meets it wall by wall."""

    def __post_init__(self) -> None:
        if self.kind == ISLAND:
            self.mx, self.my, self.rad = self.a, self.b, self.r
        elif self.kind == SHIP:
            self.mx, self.my = (self.a + self.c) / 2, (self.b + self.d) / 2
            self.rad = math.hypot(self.c - self.a, self.d - self.b) / 2 + HULL_RADIUS

    def gap(self, seg: Segment) -> float:
        """The clearance between this and a hull of axis ``seg`` (negative: overlapping)."""
        if self.kind == ISLAND:
            return point_segment(self.a, self.b, seg)[0] - HULL_RADIUS - self.r
        if self.kind == SHIP:
            return segment_segment(seg, (self.a, self.b, self.c, self.d))[0] - HULL_RADIUS * 2
        ax, ay, bx, by = seg
        x0, y0, x1, y1 = self.a, self.b, self.c, self.d
        return min(ax - x0, bx - x0, ay - y0, by - y0, x1 - ax, x1 - bx, y1 - ay, y1 - by) - (
            HULL_RADIUS
        )

    def where(self, seg: Segment) -> float:
        """Where (0 = bow cap centre .. 1 = stern cap centre) on ``seg`` this is closest."""
        if self.kind == ISLAND:
            return point_segment(self.a, self.b, seg)[1]
        if self.kind == SHIP:
            return segment_segment(seg, (self.a, self.b, self.c, self.d))[1]
        ax, ay, bx, by = seg
        x0, y0, x1, y1 = self.a, self.b, self.c, self.d
        return (
            0.0
            if min(ax - x0, ay - y0, x1 - ax, y1 - ay) <= min(bx - x0, by - y0, x1 - bx, y1 - by)
            else 1.0
        )


@functools.lru_cache(maxsize=4096)
def island(id_: str, x: float, y: float, r: float, margin: float = CONTACT) -> Obstacle:
    """An island as an obstacle. Obstacles are never changed once made, so the same arguments
    give the same one (the rules ask again for every move they plan)."""
    return Obstacle(ISLAND, id_, x, y, 0.0, 0.0, r, margin)


@functools.lru_cache(maxsize=4096)
def hull(id_: str, x: float, y: float, heading: float, length: float) -> Obstacle:
    """A hull (bow tip at x, y) as an obstacle; like :func:`island`, made once per pose."""
    ax, ay, bx, by = axis(x, y, heading, length)
    return Obstacle(SHIP, id_, ax, ay, bx, by, HULL_RADIUS)


EDGE_ID = "the edge of the sea"


def edge(width: float, height: float) -> Obstacle:
    ob = Obstacle(EDGE, EDGE_ID, 0.0, 0.0, width, height)
    ob.parts = tuple(walls(width, height))
    return ob


def walls(width: float, height: float) -> list[Obstacle]:
    """The sea's edge as its four walls: each wall's gap is linear along a run (the whole edge's
    is not), so a run that starts on one wall and clears it cannot slip through another."""
    inf = math.inf
    return [
        Obstacle(EDGE, EDGE_ID, 0.0, -inf, inf, inf),
        Obstacle(EDGE, EDGE_ID, -inf, 0.0, inf, inf),
        Obstacle(EDGE, EDGE_ID, -inf, -inf, width, inf),
        Obstacle(EDGE, EDGE_ID, -inf, -inf, inf, height),
    ]


def around(obstacles: list[Obstacle], x: float, y: float, reach: float) -> list[Obstacle]:
    """Those of ``obstacles`` that may come within ``reach`` of the point (x, y), in order: a
    cheap cut before a plan, which cannot meet anything farther than it sails and is long."""
    out = []
    for ob in obstacles:
        if ob.kind == EDGE:
            near = min(x - ob.a, y - ob.b, ob.c - x, ob.d - y) <= reach
        else:
            dx, dy, lim = ob.mx - x, ob.my - y, ob.rad + reach
            near = dx * dx + dy * dy <= lim * lim
        if near:
            out.append(ob)
    return out


def clear_of(seg: Segment, obstacles: list[Obstacle]) -> bool:
    """Does a hull of axis ``seg`` overlap nothing (every gap >= 0)? What is clearly far is
    skipped without working out its gap."""
    ax, ay, bx, by = seg
    mx, my = (ax + bx) / 2, (ay + by) / 2
    half = math.hypot(bx - ax, by - ay) / 2 + HULL_RADIUS
    for ob in obstacles:
        dx, dy, lim = ob.mx - mx, ob.my - my, ob.rad + half
        if dx * dx + dy * dy > lim * lim:
            continue
        if ob.gap(seg) < 0.0:
            return False
    return True


@mypyc_attr(native_class=False)  # (a list subclass: mypyc compiles this module, not this class)
class Waters(list[Obstacle]):
    """The obstacles of one position, never changed once made, with a ``memo`` of what has been
    worked out against them: :func:`sail_leg`, :func:`aim_turn` and :func:`plan` look there
    first, so listing a ship's moves, previewing them and making one share the work. Their
    results are kept as they are: treat them as read-only.

    A shorter list may share the memo of the whole (``Waters(some, whole.memo)``) if it holds
    everything the legs asked of it can meet (all within their reach): then each answer is the
    one the whole would give."""

    __slots__ = ("memo",)

    def __init__(
        self, obstacles: Iterable[Obstacle] = (), memo: dict[Hashable, object] | None = None
    ):
        super().__init__(obstacles)
        self.memo: dict[Hashable, object] = {} if memo is None else memo


_MISSING = object()


def _remember(obstacles: list[Obstacle], key: tuple[Hashable, ...], work: Callable[[], _T]) -> _T:
    """``work()``, or what it gave before for ``key`` against the same :class:`Waters`."""
    if not isinstance(obstacles, Waters):
        return work()
    got = obstacles.memo.get(key, _MISSING)
    if got is _MISSING:
        got = obstacles.memo[key] = work()
    return cast(_T, got)  # (what ``work`` gave for this key)


@dataclass(slots=True)
class Sweep:
    """The outcome of one run."""

    done: float
    """The distance run."""
    hit: Obstacle | None = None
    """What stopped it (touching it now), if anything."""
    blocked: bool = False
    """Stopped at once: it began against ``hit`` and moving this way goes into it."""
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0
    on: bool = False
    """The run would end lying on ``hit`` (it began on it, after a turn, and does not clear it):
    it cannot be sailed at all."""


def away(g0: float, gh: float) -> bool:
    """Is a motion that takes a gap from ``g0`` to ``gh`` over a short probe free to go on?
    Away from the obstacle, or sliding along it (a straight run along a hull or an island never
    comes back into it: the gap between convex shapes is convex in the distance run). A gap of
    (almost) nothing must open up."""
    if g0 < 1e-6:
        return gh > g0 + 1e-7
    return gh >= g0 - 1e-9


def near_gap(ob: Obstacle) -> float:
    """Closer than this, a motion must be probed: it may go into ``ob`` at once."""
    return max(TOUCH, ob.margin * 1.5)


NEAR_MAX = max(TOUCH, STANDOFF * 1.5)
"""The largest :func:`near_gap` of any obstacle the rules make."""
CONTACT_EPS = 1e-8
"""A run stops this much short of half the margin of what it meets, so float noise never takes
it nearer."""

_CLEARING, _LATER, _INTO = 0, 1, 2


def _probe(ob: Obstacle, g0: float, seg_probe: Segment, total: float) -> tuple[int, float]:
    """A run that begins within :func:`near_gap` of ``ob`` (gap ``g0``), probed a short way:
    ``_CLEARING`` it began on it and is not going deeper; ``_LATER`` it leaves or slides along it
    (with the gap at which it would stop); ``_INTO`` it goes straight in (blocked)."""
    gh = ob.gap(seg_probe)
    if total > 0.0 and (away(g0, gh) or (g0 < 0.0 and gh >= g0 - 1e-9)):
        if g0 < 0.0:  # (not closing now, so by convexity never: cleared or ``on``)
            return _CLEARING, 0.0
        return _LATER, min(ob.margin, min(g0, gh) / 2)
    return _INTO, 0.0


def _ray_circle(
    ax: float, ay: float, ux: float, uy: float, cx: float, cy: float, reach: float
) -> float:
    """How far a point from (ax, ay) along the unit (ux, uy) goes before it comes within
    ``reach`` of (cx, cy); inf if never. It must begin farther away than ``reach``."""
    wx, wy = cx - ax, cy - ay
    ahead = wx * ux + wy * uy
    if ahead <= 0.0:
        return math.inf
    off = wx * uy - wy * ux
    q = reach * reach - off * off
    if q < 0.0:
        return math.inf
    return ahead - math.sqrt(q)


def _ray_capsule(ax: float, ay: float, ux: float, uy: float, seg: Segment, reach: float) -> float:
    """How far a point from (ax, ay) along the unit (ux, uy) goes before it comes within
    ``reach`` of the segment ``seg``; inf if never. It must begin farther away than ``reach``.
    The grown segment is a stadium: a ray enters it through one of its end circles or, lying
    within the segment's span there, one of its long sides."""
    px, py, qx, qy = seg
    t = min(_ray_circle(ax, ay, ux, uy, px, py, reach), _ray_circle(ax, ay, ux, uy, qx, qy, reach))
    ex, ey = qx - px, qy - py
    n2 = ex * ex + ey * ey
    if n2 <= 0.0:
        return t
    n = math.sqrt(n2)
    side = ((ax - px) * -ey + (ay - py) * ex) / n  # (signed distance from the segment's line)
    closing = (ux * -ey + uy * ex) / n
    if side > reach and closing < 0.0:
        ts = (side - reach) / -closing
    elif side < -reach and closing > 0.0:
        ts = (-reach - side) / closing
    else:
        return t
    if ts < t:
        k = ((ax + ts * ux - px) * ex + (ay + ts * uy - py) * ey) / n2
        if 0.0 <= k <= 1.0:
            return ts
    return t


def first_contact(ob: Obstacle, ax: float, ay: float, ux: float, uy: float, gap: float) -> float:
    """How far a hull runs along its own axis (the unit ux, uy), the centre of its bow's rounding
    at (ax, ay), before its gap to ``ob`` first falls to ``gap``; inf if never. It must begin
    farther from ``ob`` than ``gap``. Then the bow's centre leads (every other point of the axis
    only reaches where it has already been), so this is where a ray from it enters ``ob``'s core
    (its centre, its axis, or each wall of the edge) grown by both radii and ``gap``."""
    kind = ob.kind
    if kind == ISLAND:
        return _ray_circle(ax, ay, ux, uy, ob.a, ob.b, HULL_RADIUS + ob.r + gap)
    if kind == SHIP:
        return _ray_capsule(ax, ay, ux, uy, (ob.a, ob.b, ob.c, ob.d), 2 * HULL_RADIUS + gap)
    reach = HULL_RADIUS + gap  # (a wall at infinity gives inf)
    t = math.inf
    if ux < 0.0:
        t = (ax - ob.a - reach) / -ux
    elif ux > 0.0:
        t = (ob.c - ax - reach) / ux
    if uy < 0.0:
        t = min(t, (ay - ob.b - reach) / -uy)
    elif uy > 0.0:
        t = min(t, (ob.d - ay - reach) / uy)
    return t


def sweep(
    x: float, y: float, heading: float, length: float, amount: float, obstacles: list[Obstacle]
) -> Sweep:
    """Run ``amount`` ahead, stopping at the first touch (SM-13). ``length`` is the whole moving
    body (a tower with its tow is one long hull).

    A run may begin lying on something (a turn sets the ship down, SM-12): if it sails off it,
    it is free of it (the distance between convex shapes is convex along a straight run: not
    closing at the start, it never closes), but it must be clear of it where it ends, else the
    run is ``on`` it and cannot be sailed. For the same reason what she begins near and leaves or
    slides along never stops her. Everything else stops her where her gap to it falls to half its
    margin (:func:`first_contact`), the nearest such place first (in the list's order on a tie)."""
    total = max(0.0, amount)
    ux, uy = unit(heading)
    r = HULL_RADIUS
    back = length - r
    ax, ay, bx, by = x - r * ux, y - r * uy, x - back * ux, y - back * uy  # (= axis())
    seg0 = (ax, ay, bx, by)
    # circles holding the hull where she begins, and all the water the run crosses
    half0 = (back - r) / 2
    m0x, m0y = (ax + bx) / 2, (ay + by) / 2
    half = half0 + total / 2
    msx, msy = m0x + total / 2 * ux, m0y + total / 2 * uy
    seg_probe: Segment | None = None
    clearing: list[Obstacle] = []
    worst: tuple[float, Obstacle] | None = None
    best, hit = math.inf, None
    for whole in obstacles:
        for ob in whole.parts or (whole,):
            dx, dy = ob.mx - msx, ob.my - msy
            far = half + r + ob.rad + NEAR_MAX
            if dx * dx + dy * dy > far * far:
                continue  # (nowhere on the run within reach, nor near where she begins)
            dx, dy = ob.mx - m0x, ob.my - m0y
            near = half0 + r + ob.rad + NEAR_MAX
            if dx * dx + dy * dy <= near * near:
                g0 = ob.gap(seg0)
                if g0 - ob.margin > total:
                    continue
                if g0 <= near_gap(ob):
                    if seg_probe is None:
                        p = min(PROBE, total)
                        seg_probe = (ax + p * ux, ay + p * uy, bx + p * ux, by + p * uy)
                    how, _ = _probe(ob, g0, seg_probe, total)
                    if how == _CLEARING or (how != _INTO and g0 < 0.0):
                        clearing.append(whole)  # (set down on it: clear of it where she ends?)
                    elif (
                        how == _INTO
                        and (g0 < 0.0 or total > 0.0)
                        and (worst is None or g0 < worst[0])
                    ):
                        worst = (g0, whole)
                    continue  # (_LATER: leaving it or sliding along, it never stops her)
            t = first_contact(ob, ax, ay, ux, uy, ob.margin / 2 + CONTACT_EPS)
            if t < best:
                best, hit = t, whole
    if worst is not None or total <= 0.0:  # she stays where she begins: clear of it all?
        under = next((ob for ob in clearing if ob.gap(seg0) < 0.0), None)
        if worst is not None:
            on = worst[0] < 0.0 or under is not None
            return Sweep(0.0, worst[1], True, x, y, heading, on=on)
        if under is not None:
            return Sweep(0.0, under, True, x, y, heading, on=True)
        return Sweep(0.0, x=x, y=y, heading=heading)
    if best > total:
        s, hit = total, None
    else:
        s = max(0.0, best)
    if clearing:
        seg = (ax + s * ux, ay + s * uy, bx + s * ux, by + s * uy)
        for ob in clearing:
            if ob.gap(seg) < 0.0:
                return Sweep(0.0, ob, True, x, y, heading, on=True)
    return Sweep(s, hit, False, x + s * ux, y + s * uy, norm_heading(heading))


def swept(
    x: float, y: float, heading: float, length: float, amount: float, obstacles: list[Obstacle]
) -> Sweep:
    """:func:`sweep`, or what it gave before from the same place against the same
    :class:`Waters`: a leg listed among the choices, the run a helper move tries straight at its
    aim and the same run again in a preview or a detour are one sweep. Read-only, like every
    remembered answer."""
    # (+ 0.0 turns -0.0 into 0.0: equal keys must give the same answer, whichever came first)
    x, y, heading, amount = x + 0.0, y + 0.0, heading + 0.0, amount + 0.0
    if not isinstance(obstacles, Waters):
        return sweep(x, y, heading, length, amount, obstacles)
    key = ("sweep", x, y, heading, length, amount)  # (as _remember, inlined: every run asks)
    got = obstacles.memo.get(key)
    if got is None:
        got = obstacles.memo[key] = sweep(x, y, heading, length, amount, obstacles)
    return cast(Sweep, got)


def sweep_stepped(
    x: float, y: float, heading: float, length: float, amount: float, obstacles: list[Obstacle]
) -> Sweep:
    """:func:`sweep` as it was, by *conservative advancement*: every distance here changes at
    most 1 per unit run, so stepping by ``gap - margin/2`` can never pass through anything; it
    stops when a gap falls to its obstacle's margin, which leaves the hull between half the margin
    and the margin away: exactly where :func:`sweep` stops on a run straight at it, up to half a
    margin short of that on a slant (and a slanting run that passes within the margin stops). Far
    slower (about 130 steps a run); kept as the reference :func:`sweep` is tested and benchmarked
    against."""
    total = max(0.0, amount)
    seg0 = axis(x, y, heading, length)
    ux, uy = unit(heading)
    ax, ay, bx, by = seg0

    def at(s: float) -> Segment:  # (the axis after running s: a translation of seg0)
        return ax + s * ux, ay + s * uy, bx + s * ux, by + s * uy

    probe = min(PROBE, total)
    seg_probe = at(probe)
    active: list[tuple[Obstacle, float]] = []
    later: list[tuple[Obstacle, float]] = []
    clearing: list[Obstacle] = []
    worst: tuple[float, Obstacle] | None = None
    for ob in obstacles:
        g0 = ob.gap(seg0)
        if g0 - ob.margin > total:
            continue
        if g0 <= near_gap(ob):
            how, thr = _probe(ob, g0, seg_probe, total)
            if how == _CLEARING:
                clearing.append(ob)
            elif how == _LATER:
                later.append((ob, thr))
            elif (g0 < 0.0 or total > 0.0) and (worst is None or g0 < worst[0]):
                worst = (g0, ob)
            continue
        active.append((ob, ob.margin))
    if worst is not None:
        return Sweep(0.0, worst[1], True, x, y, heading, on=worst[0] < 0.0)
    if total <= 0.0:
        return Sweep(0.0, x=x, y=y, heading=heading)
    s = 0.0
    for _ in range(MAX_STEPS):
        if later and s >= probe:
            active.extend(later)
            later = []
        seg = at(s)
        step = math.inf
        stop: Obstacle | None = None
        for ob, thr in active:
            g = ob.gap(seg)
            if g <= thr:
                stop = ob
                break
            st = g - thr / 2
            if st < step:
                step = st
        if stop is not None or s >= total:
            for ob in clearing:
                if ob.gap(seg) < 0.0:
                    return Sweep(0.0, ob, True, x, y, heading, on=True)
            return Sweep(s, stop, False, x + s * ux, y + s * uy, norm_heading(heading))
        if later:
            step = min(step, probe - s)
        s = min(total, s + step)
    # pragma: no cover - a safe place to stop
    return Sweep(s, None, False, x + s * ux, y + s * uy, norm_heading(heading))  # pragma: no cover


def turn_pose(x: float, y: float, heading: float, turn: float) -> tuple[float, float, float]:
    """SM-12: where the bow tip ends when a ship (bow tip at x, y) turns ``turn`` degrees about
    the centre of her bow's rounding."""
    if turn == 0.0:
        return x, y, heading
    r = HULL_RADIUS
    ux, uy = unit(heading)
    h = heading + turn
    vx, vy = unit(h)
    return x - r * ux + r * vx, y - r * uy + r * vy, norm_heading(h)


@dataclass(slots=True)
class LegResult:
    turned: float
    ran: float
    hit: Obstacle | None
    blocked: bool
    part: str = ""
    """Which part of the hull touched ``hit``: bow, stern, port side, starboard side, tow."""
    swung: bool = False
    """The leg's turn would set her down on ``hit`` (SM-12): the leg was not sailed at all."""


@dataclass(slots=True)
class Path:
    legs: list[LegResult] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0

    @property
    def moved(self) -> bool:
        return any(abs(leg.turned) > 0.0 or leg.ran > 0.0 for leg in self.legs)

    @property
    def hit(self) -> Obstacle | None:
        return self.legs[-1].hit if self.legs else None


def sail_leg(
    x: float,
    y: float,
    heading: float,
    length: float,
    own_length: float,
    turn: float,
    dist: float,
    obstacles: list[Obstacle],
) -> tuple[LegResult, float, float, float]:
    """One leg from a bow tip: turn in place (SM-12, :func:`turn_pose`), then run ``dist``
    straight, stopping at the first touch (SM-13). Returns the leg and where the bow tip ends.
    A leg whose turn sets her down on something she does not then sail clear of is ``swung``:
    it is not sailed at all (she stays where she was)."""
    # (+ 0.0 turns -0.0 into 0.0: equal keys must give the same answer, whichever came first)
    x, y, heading, turn = x + 0.0, y + 0.0, heading + 0.0, turn + 0.0
    key = ("leg", x, y, heading, length, own_length, turn, dist)
    return _remember(
        obstacles, key, lambda: _sail_leg(x, y, heading, length, own_length, turn, dist, obstacles)
    )


def _sail_leg(
    x: float,
    y: float,
    heading: float,
    length: float,
    own_length: float,
    turn: float,
    dist: float,
    obstacles: list[Obstacle],
) -> tuple[LegResult, float, float, float]:
    px, py, ph = turn_pose(x, y, heading, turn)
    sw = swept(px, py, ph, length, dist, obstacles)
    if sw.on and sw.hit is not None:
        part = part_of(px, py, ph, length, own_length, sw.hit)
        return LegResult(0.0, 0.0, sw.hit, True, part, swung=True), x, y, heading
    res = LegResult(turn, sw.done, sw.hit, sw.blocked)
    if sw.hit is not None:
        res.part = part_of(sw.x, sw.y, sw.heading, length, own_length, sw.hit)
    return res, sw.x, sw.y, sw.heading


def aim_turn(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
    ahead: float | None = None,
) -> float:
    """The turn a helper move (toward, dock) makes toward ``aim``: as far as the 90-degree arc
    allows (aimed from the turn's centre, so she then runs straight at it), or, if that leg
    would be ``swung``, the largest k/SWING_STEPS of it that is not (0 at worst); then, if the
    way straight at it is blocked, one around what is in the way (:func:`_around`). ``ahead``:
    all she has left to sail, this leg's ``dist`` and the later legs' (default: ``dist``)."""
    x, y, heading = x + 0.0, y + 0.0, heading + 0.0
    ahead = dist if ahead is None else max(dist, ahead)
    key = ("aim", x, y, heading, length, dist, aim, ahead)
    return _remember(
        obstacles, key, lambda: _aim_turn(x, y, heading, length, dist, aim, obstacles, ahead)
    )


def _aim_turn(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
    ahead: float,
) -> float:
    straight = straight_at(x, y, heading, length, dist, aim, obstacles)
    return _around(x, y, heading, length, dist, aim, obstacles, straight, ahead)


def straight_at(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
) -> float:
    """The turn toward ``aim`` as far as the 90-degree arc allows (aimed from the turn's
    centre), or, if that leg would be ``swung``, the largest k/SWING_STEPS of it that is not
    (0 at worst): what a helper move turns when nothing is in its way."""
    x, y, heading = x + 0.0, y + 0.0, heading + 0.0
    key = ("straight", x, y, heading, length, dist, aim)
    return _remember(
        obstacles, key, lambda: _straight_at(x, y, heading, length, dist, aim, obstacles)
    )


def _straight_at(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
) -> float:
    ux, uy = unit(heading)
    cx, cy = x - HULL_RADIUS * ux, y - HULL_RADIUS * uy
    want = max(-90.0, min(90.0, turn_between(heading, bearing(cx, cy, aim[0], aim[1]))))
    for k in range(SWING_STEPS, 0, -1):
        turn = want * k / SWING_STEPS
        px, py, ph = turn_pose(x, y, heading, turn)
        if clear_of(axis(px, py, ph, length), obstacles):  # (set down clear: nothing to sail off)
            return turn
        if not swept(px, py, ph, length, dist, obstacles).on:
            return turn
    return 0.0


DETOUR_STEP = 15.0
"""A helper move whose way straight at its aim meets something else tries other headings this
many degrees apart (all within her arc) to sail around it."""


DETOUR_MIN_RUN = 0.1
"""A detour's first leg runs at least this far (more than the rules' least run, so a helper
move that takes a detour is never refused as going nowhere: the choices rely on it)."""


def holds(ob: Obstacle, point: tuple[float, float]) -> bool:
    """Is ``point`` within ``ob`` (the island or hull a helper move aims at)?"""
    if ob.kind == ISLAND:
        return math.hypot(ob.a - point[0], ob.b - point[1]) <= ob.r + 1e-9
    if ob.kind == SHIP:
        return point_segment(point[0], point[1], (ob.a, ob.b, ob.c, ob.d))[0] <= HULL_RADIUS
    return False


def _around(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
    straight: float,
    ahead: float,
) -> float:
    """A helper move sees what is in its way: the last (best) of :func:`_detours`, or
    ``straight`` if there is none. A detour's first leg always runs ``DETOUR_MIN_RUN`` or
    more: a helper move whose first leg straight at its aim goes somewhere still does."""
    chosen = straight
    for better in _detours(x, y, heading, length, dist, aim, obstacles, straight, ahead):
        chosen = better
    return chosen


def _detours(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
    straight: float,
    ahead: float,
) -> Iterator[float]:
    """When sailing on at ``straight`` (the turn toward ``aim``) for all she has ``ahead``
    would stop against something that is not what she aims at (SM-13 would end her whole move
    there), each turn within her arc is tried, looking one step on: this leg, then the rest of
    her move straight at ``aim``. Yields each turn that ends nearer ``aim`` than ``straight``
    and every turn before it, and nearer than she is now (on it: nearest of all, the last).
    Every run is :func:`sweep`'s, as the move itself sails it."""

    def run(px: float, py: float, ph: float, turn: float, amount: float) -> Sweep:
        qx, qy, qh = turn_pose(px, py, ph, turn)
        return swept(qx, qy, qh, length, amount, obstacles)

    whole = run(x, y, heading, straight, ahead)
    if whole.hit is None or whole.on or holds(whole.hit, aim):
        return

    def score(turn: float) -> float:
        sw = run(x, y, heading, turn, dist)
        if sw.on or (sw.hit is not None and sw.done < DETOUR_MIN_RUN):
            return math.inf  # (a detour that goes nowhere is none: never a refused move)
        if sw.hit is not None:  # (a touch ends her move: on what she aims at, she is there)
            return 0.0 if holds(sw.hit, aim) else math.hypot(sw.x - aim[0], sw.y - aim[1])
        rest = ahead - dist
        if rest > 0.0:
            then = straight_at(sw.x, sw.y, sw.heading, length, rest, aim, obstacles)
            sw = run(sw.x, sw.y, sw.heading, then, rest)
            if sw.hit is not None and holds(sw.hit, aim):
                return 0.0
        return math.hypot(sw.x - aim[0], sw.y - aim[1])

    def hopeful(turn: float, best: float) -> bool:
        """Could ``turn`` end nearer than ``best``? Not if every point of her first run is
        farther from ``aim`` than ``best`` and the rest of her move: no sweep needed."""
        qx, qy, qh = turn_pose(x, y, heading, turn)
        ux, uy = unit(qh)
        near = point_segment(aim[0], aim[1], (qx, qy, qx + dist * ux, qy + dist * uy))[0]
        return near - (ahead - dist) < best

    # (a detour must end nearer than she is now, too: one that only sails away is no help)
    best = min(score(straight), math.hypot(x - aim[0], y - aim[1]))
    steps = int(180.0 / DETOUR_STEP)
    for k in range(1, steps + 1):
        for turn in (straight + k * DETOUR_STEP, straight - k * DETOUR_STEP):
            if abs(turn) > 90.0 or not hopeful(turn, best):
                continue
            got = score(turn)
            if got < best - 1e-9:
                best = got
                yield turn
                if got == 0.0:
                    return  # (she gets there: the least detour that does)


def plan(
    x: float,
    y: float,
    heading: float,
    length: float,
    own_length: float,
    legs: list[tuple[float, float]],
    obstacles: list[Obstacle],
    aim: tuple[float, float] | None = None,
) -> Path:
    """Sail ``legs`` (turn degrees, distance) from a bow tip (:func:`sail_leg`); a touch ends the
    whole move (SM-13), and so does a ``swung`` leg (a first one is refused by the rules).

    ``own_length`` is the ship's own hull within ``length`` (the rest is a tow astern). With
    ``aim``, each leg instead turns toward that point (:func:`aim_turn`)."""
    x, y, heading = x + 0.0, y + 0.0, heading + 0.0
    key = ("plan", x, y, heading, length, own_length, tuple(legs), aim)
    return _remember(
        obstacles, key, lambda: _plan(x, y, heading, length, own_length, legs, obstacles, aim)
    )


def _near(
    obstacles: list[Obstacle], x: float, y: float, heading: float, reach: float
) -> list[Obstacle]:
    """Those of ``obstacles`` within ``reach`` of the centre of the bow's rounding of a hull with
    its bow tip at (x, y) (:func:`around`), sharing their memo."""
    ux, uy = unit(heading)
    near = around(obstacles, x - HULL_RADIUS * ux, y - HULL_RADIUS * uy, reach)
    return Waters(near, obstacles.memo) if isinstance(obstacles, Waters) else near


def plan_near(
    x: float,
    y: float,
    heading: float,
    length: float,
    legs: list[tuple[float, float]],
    obstacles: list[Obstacle],
) -> list[Obstacle]:
    """What :func:`plan` sails ``legs`` against (the bow tip at x, y, already ``+ 0.0``): turns
    keep the centre of her bow's rounding where it is and runs take it at most their distance,
    so the hull never gets farther from where it is now than this; what lies farther is left
    out, and the legs share the whole list's memo."""
    reach = sum(max(0.0, d) for _, d in legs) + length - HULL_RADIUS + NEAR_MAX
    return _remember(
        obstacles, ("near", x, y, heading, reach), lambda: _near(obstacles, x, y, heading, reach)
    )


def straight_on(
    x: float,
    y: float,
    heading: float,
    length: float,
    dist: float,
    aim: tuple[float, float],
    obstacles: list[Obstacle],
    ahead: float,
) -> float | None:
    """:func:`aim_turn`'s turn when it is :func:`straight_at`'s, known without looking for a
    detour (nothing but what she aims at is in the way of all she has ``ahead``); None when a
    detour might be taken. The same runs as :func:`aim_turn` (remembered alike)."""
    x, y, heading = x + 0.0, y + 0.0, heading + 0.0
    ahead = max(dist, ahead)
    straight = straight_at(x, y, heading, length, dist, aim, obstacles)
    qx, qy, qh = turn_pose(x, y, heading, straight)
    whole = swept(qx, qy, qh, length, ahead, obstacles)
    if whole.hit is None or whole.on or holds(whole.hit, aim):
        return straight
    return None


def _plan(
    x: float,
    y: float,
    heading: float,
    length: float,
    own_length: float,
    legs: list[tuple[float, float]],
    obstacles: list[Obstacle],
    aim: tuple[float, float] | None,
) -> Path:
    path = Path(x=x, y=y, heading=heading)
    near = plan_near(x, y, heading, length, legs, obstacles)
    left = sum(max(0.0, d) for _, d in legs)
    for turn, dist in legs:
        if aim is not None:
            turn = aim_turn(path.x, path.y, path.heading, length, dist, aim, near, left)
        left -= max(0.0, dist)
        res, path.x, path.y, path.heading = sail_leg(
            path.x, path.y, path.heading, length, own_length, turn, dist, near
        )
        path.legs.append(res)
        if res.hit is not None:
            break
    path.x, path.y, path.heading = round(path.x, 6), round(path.y, 6), round(path.heading, 6)
    path.heading = norm_heading(path.heading)
    return path


def part_of(
    x: float, y: float, heading: float, length: float, own_length: float, ob: Obstacle
) -> str:
    """Name the part of a hull (bow tip at x, y) nearest ``ob``."""
    seg = axis(x, y, heading, length)
    t = ob.where(seg)
    along = HULL_RADIUS + t * (length - 2 * HULL_RADIUS)
    if along > own_length:
        return "tow"
    if along <= bow_length(own_length):
        return "bow"
    if along >= own_length - STERN_ZONE:
        return "stern"
    ux, uy = unit(heading)
    ax, ay, bx, by = seg
    px, py = ax + t * (bx - ax), ay + t * (by - ay)
    if ob.kind == ISLAND:
        ox, oy = ob.a - px, ob.b - py
    elif ob.kind == SHIP:
        _, t2 = segment_segment((ob.a, ob.b, ob.c, ob.d), seg)
        ox, oy = ob.a + t2 * (ob.c - ob.a) - px, ob.b + t2 * (ob.d - ob.b) - py
    else:
        return "side"
    # starboard is to the right of the heading: cross(u, o) < 0 in x-east/y-north axes
    return "starboard side" if ux * oy - uy * ox < 0 else "port side"


def mast_point(
    x: float, y: float, heading: float, length: float, i: int, n: int
) -> tuple[float, float]:
    """SM-5: mast ``i`` (0-based, bow first) of ``n`` sits 30 %..90 % of the way from bow tip."""
    frac = mast_frac(i, n)
    ux, uy = unit(heading)
    return x - frac * length * ux, y - frac * length * uy


def aim_points(px: float, py: float, target: Segment) -> list[tuple[float, float]]:
    """Points on a target hull's surface a cannon at (px, py) may aim at: the nearest one, and the
    hull's points abeam of its axis at fifths (each on the side facing the gun)."""
    ax, ay, bx, by = target
    _, tn = point_segment(px, py, target)
    out = []
    for t in (tn, 0.0, 0.25, 0.5, 0.75, 1.0):
        cx, cy = ax + t * (bx - ax), ay + t * (by - ay)
        dx, dy = px - cx, py - cy
        d = math.hypot(dx, dy)
        if d <= HULL_RADIUS:
            out.append((px, py))
            continue
        out.append((cx + dx / d * HULL_RADIUS, cy + dy / d * HULL_RADIUS))
    return out


def line_blocked(
    px: float, py: float, qx: float, qy: float, blockers: list[Obstacle]
) -> Obstacle | None:
    """The first island or hull the straight line of fire p->q passes through (a graze is clear)."""
    seg = (px, py, qx, qy)
    for ob in blockers:
        if ob.kind == ISLAND:
            if point_segment(ob.a, ob.b, seg)[0] < ob.r - 1e-9:
                return ob
        elif (
            ob.kind == SHIP
            and segment_segment(seg, (ob.a, ob.b, ob.c, ob.d))[0] < HULL_RADIUS - 1e-9
        ):
            return ob
    return None


def hull_distance(px: float, py: float, target: Segment) -> float:
    """From a point to a hull's surface (0 inside)."""
    return max(0.0, point_segment(px, py, target)[0] - HULL_RADIUS)
