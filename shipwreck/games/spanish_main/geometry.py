"""The sea's geometry: capsule hulls, round islands, swept motion (SM-1, SM-5, SM-12, SM-13).

Conventions (all floats, units of the rules: ``S = 5.0``, ``L = 7.0``):

- ``x`` grows east, ``y`` grows north; the sea is ``[0, width] x [0, height]``.
- Headings are compass degrees: 0 is north, 90 east. A positive turn is to starboard
  (clockwise), a negative one to port.
- A hull is a capsule (a segment with a radius of 0.8) of overall length ``2.5 + masts``. A ship's
  position is its **bow tip**; the axis runs from ``tip - r*u`` (the bow cap's centre) to
  ``tip - (length - r)*u`` (the stern cap's centre), ``u`` the heading's unit vector.

Swept motion uses *conservative advancement*: every distance here changes at most ``K`` per unit of
motion (1 for a straight run, the hull length per radian for a pivot on the bow tip), so stepping
by ``(gap - margin/2) / K`` can never pass through anything. A motion stops when a gap falls to its
obstacle's margin, which leaves the hull between half the margin and the margin away: never
overlapping, and close enough to count as touching (``TOUCH``). Things a hull touches when it
starts are probed: moving away from them is free, moving into them is *blocked* at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

S = 5.0
L = 7.0
LEG_LENGTH = {"S": S, "L": L}
HULL_RADIUS = 0.8
CONTACT = 0.01
"""A motion stops when a gap falls to this; it ends between CONTACT/2 and CONTACT away."""
TOUCH = 0.02
"""Two shapes at most this far apart touch (dock, ram, tow, pin)."""
STANDOFF = 0.1
"""The margin kept from an enemy home island: a ship stops short, not touching (SM-14)."""
BOW_ZONE = 1.2
"""The part of a hull within this distance of its bow tip is its bow (ram, pin, tow)."""
TOW_GAP = 0.005
"""A towed derelict rides this far astern of its tower."""
PROBE = 0.02
"""How far (in hull displacement) a touching obstacle is probed to tell into from away."""
MAX_STEPS = 5000

ISLAND, SHIP, EDGE = 0, 1, 2


def hull_length(masts: int) -> float:
    """SM-5: 2.5 + 1.0 per mast (the masts on the card, not those left)."""
    return 2.5 + 1.0 * masts


def unit(heading: float) -> tuple[float, float]:
    rad = math.radians(heading)
    return math.sin(rad), math.cos(rad)


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
    if a <= eps and e <= eps:
        return math.hypot(rx, ry), 0.0
    if a <= eps:
        s, t = 0.0, max(0.0, min(1.0, f / e))
    else:
        c = d1x * rx + d1y * ry
        if e <= eps:
            t, s = 0.0, max(0.0, min(1.0, -c / a))
        else:
            b = d1x * d2x + d1y * d2y
            denom = a * e - b * b
            s = max(0.0, min(1.0, (b * f - c * e) / denom)) if denom > eps else 0.0
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

    ``a, b, c, d``: an island's centre (a, b); a hull's axis segment; the sea's width and height
    (c, d). ``margin``: the gap at which a motion stops against it.
    """

    kind: int
    id: str
    a: float = 0.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    r: float = 0.0
    margin: float = CONTACT

    def gap(self, seg: Segment) -> float:
        """The clearance between this and a hull of axis ``seg`` (negative: overlapping)."""
        if self.kind == ISLAND:
            return point_segment(self.a, self.b, seg)[0] - HULL_RADIUS - self.r
        if self.kind == SHIP:
            return segment_segment(seg, (self.a, self.b, self.c, self.d))[0] - HULL_RADIUS * 2
        ax, ay, bx, by = seg
        w, h = self.c, self.d
        return min(ax, bx, ay, by, w - ax, w - bx, h - ay, h - by) - HULL_RADIUS

    def where(self, seg: Segment) -> float:
        """Where (0 = bow cap centre .. 1 = stern cap centre) on ``seg`` this is closest."""
        if self.kind == ISLAND:
            return point_segment(self.a, self.b, seg)[1]
        if self.kind == SHIP:
            return segment_segment(seg, (self.a, self.b, self.c, self.d))[1]
        ax, ay, bx, by = seg
        w, h = self.c, self.d
        return 0.0 if min(ax, ay, w - ax, h - ay) <= min(bx, by, w - bx, h - by) else 1.0


def island(id_: str, x: float, y: float, r: float, margin: float = CONTACT) -> Obstacle:
    return Obstacle(ISLAND, id_, x, y, 0.0, 0.0, r, margin)


def hull(id_: str, x: float, y: float, heading: float, length: float) -> Obstacle:
    ax, ay, bx, by = axis(x, y, heading, length)
    return Obstacle(SHIP, id_, ax, ay, bx, by, HULL_RADIUS)


def edge(width: float, height: float) -> Obstacle:
    return Obstacle(EDGE, "the edge of the sea", 0.0, 0.0, width, height)


@dataclass(slots=True)
class Sweep:
    """The outcome of one pivot or one run."""

    done: float
    """Degrees turned (signed) or distance run."""
    hit: Obstacle | None = None
    """What stopped it (touching it now), if anything."""
    blocked: bool = False
    """Stopped at once: it began against ``hit`` and moving this way goes into it."""
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0


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


def start_block(
    kind: Literal["turn", "run"],
    x: float,
    y: float,
    heading: float,
    length: float,
    amount: float,
    near: list[Obstacle],
) -> Obstacle | None:
    """The obstacle (among ``near``, see :func:`near_obstacles`) that blocks this pivot or run at
    once, if any: a cheap check that a move goes somewhere."""
    sign = 1.0 if amount >= 0 else -1.0
    if kind == "turn":
        total, k = math.radians(abs(amount)), length
    else:
        total, k = max(0.0, amount), 1.0
    if total <= 0.0 or not near:
        return None
    seg0 = axis(x, y, heading, length)
    px, py, ph = _pose(kind, x, y, heading, sign, min(PROBE / k, total))
    seg1 = axis(px, py, ph, length)
    for ob in near:
        g0 = ob.gap(seg0)
        if g0 <= near_gap(ob) and not away(g0, ob.gap(seg1)):
            return ob
    return None


def near_obstacles(
    x: float, y: float, heading: float, length: float, obstacles: list[Obstacle]
) -> list[Obstacle]:
    seg = axis(x, y, heading, length)
    return [ob for ob in obstacles if ob.gap(seg) <= near_gap(ob)]


def _pose(
    kind: Literal["turn", "run"], x: float, y: float, h: float, sign: float, s: float
) -> tuple[float, float, float]:
    if kind == "turn":
        return x, y, h + sign * math.degrees(s)
    ux, uy = unit(h)
    return x + s * ux, y + s * uy, h


def sweep(
    kind: Literal["turn", "run"],
    x: float,
    y: float,
    heading: float,
    length: float,
    amount: float,
    obstacles: list[Obstacle],
) -> Sweep:
    """Pivot on the bow tip by ``amount`` degrees, or run ``amount`` ahead, stopping at the first
    touch (SM-13). ``length`` is the whole moving body (a tower with its tow is one long hull)."""
    sign = 1.0 if amount >= 0 else -1.0
    if kind == "turn":
        total, k = math.radians(abs(amount)), length
    else:
        total, k = max(0.0, amount), 1.0
    if total <= 0.0:
        return Sweep(0.0, x=x, y=y, heading=heading)
    seg0 = axis(x, y, heading, length)
    reach = k * total
    probe = min(PROBE / k, total)
    active: list[tuple[Obstacle, float]] = []
    later: list[tuple[Obstacle, float]] = []
    worst: tuple[float, Obstacle] | None = None
    for ob in obstacles:
        g0 = ob.gap(seg0)
        if g0 - ob.margin > reach:
            continue
        if g0 <= near_gap(ob):
            px, py, ph = _pose(kind, x, y, heading, sign, probe)
            gh = ob.gap(axis(px, py, ph, length))
            if away(g0, gh):
                later.append((ob, min(ob.margin, min(g0, gh) / 2)))
            elif worst is None or g0 < worst[0]:
                worst = (g0, ob)
            continue
        active.append((ob, ob.margin))
    if worst is not None:
        return Sweep(0.0, worst[1], blocked=True, x=x, y=y, heading=heading)
    s = 0.0
    for _ in range(MAX_STEPS):
        if later and s >= probe:
            active.extend(later)
            later = []
        px, py, ph = _pose(kind, x, y, heading, sign, s)
        seg = axis(px, py, ph, length)
        step = math.inf
        for ob, thr in active:
            g = ob.gap(seg)
            if g <= thr:
                return _done(kind, sign, s, ob, px, py, ph)
            st = (g - thr / 2) / k
            if st < step:
                step = st
        if s >= total:
            return _done(kind, sign, s, None, px, py, ph)
        if later:
            step = min(step, probe - s)
        s = min(total, s + step)
    px, py, ph = _pose(kind, x, y, heading, sign, s)  # pragma: no cover - a safe place to stop
    return _done(kind, sign, s, None, px, py, ph)  # pragma: no cover


def _done(
    kind: str, sign: float, s: float, hit: Obstacle | None, x: float, y: float, h: float
) -> Sweep:
    done = sign * math.degrees(s) if kind == "turn" else s
    return Sweep(done, hit, False, x, y, norm_heading(h))


@dataclass(slots=True)
class LegResult:
    turned: float
    ran: float
    hit: Obstacle | None
    blocked: bool
    part: str = ""
    """Which part of the hull touched ``hit``: bow, stern, port side, starboard side, tow."""


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
    """Sail ``legs`` (turn degrees, distance) from a bow tip; a touch ends the whole move (SM-13).

    ``own_length`` is the ship's own hull within ``length`` (the rest is a tow astern). With
    ``aim``, each leg instead turns toward that point, as far as its 90-degree arc allows."""
    path = Path(x=x, y=y, heading=heading)
    for turn, dist in legs:
        if aim is not None:
            want = turn_between(path.heading, bearing(path.x, path.y, aim[0], aim[1]))
            turn = max(-90.0, min(90.0, want))
        res = LegResult(0.0, 0.0, None, False)
        path.legs.append(res)
        sw = sweep("turn", path.x, path.y, path.heading, length, turn, obstacles)
        res.turned = sw.done
        path.x, path.y, path.heading = sw.x, sw.y, sw.heading
        if sw.hit is None:
            sw = sweep("run", path.x, path.y, path.heading, length, dist, obstacles)
            res.ran = sw.done
            path.x, path.y, path.heading = sw.x, sw.y, sw.heading
        if sw.hit is not None:
            res.hit, res.blocked = sw.hit, sw.blocked
            res.part = part_of(path.x, path.y, path.heading, length, own_length, sw.hit)
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
    if along <= BOW_ZONE:
        return "bow"
    if along >= own_length - BOW_ZONE:
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
    frac = 0.6 if n <= 1 else 0.3 + 0.6 * i / (n - 1)
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
