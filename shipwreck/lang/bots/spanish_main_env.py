"""What a Spanish Main bot can read: names, attributes and functions, all made from its own view.

Everything here reads a :class:`~shipwreck.games.spanish_main.view.SpanishMainView` and nothing
else, so a script cannot see what its seat may not (rules §6): a coin's value is ``none`` unless
this seat has seen it. docs/bots.md ("Spanish Main") lists every entry; the tables below are the
single source the evaluator, the linter and the docs test agree on.

Numbers a script computes with are whole: positions, headings and distances are rounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

from shipwreck.engine.core import IllegalCommand
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main import rules
from shipwreck.games.spanish_main.codes import ship_names
from shipwreck.games.spanish_main.fleets import ability_kinds, crew_kind
from shipwreck.games.spanish_main.state import SpanishMainState
from shipwreck.games.spanish_main.view import (
    Answers,
    BotView,
    CoinView,
    CrewView,
    IslandView,
    Listed,
    MastView,
    ShipView,
    SpanishMainView,
    sea,
)
from shipwreck.lang.bots.kinds import KindTable
from shipwreck.lang.bots.script import BotRuntimeError, Context, Names

GAME = "spanish_main"
VIEW = (SpanishMainView, BotView)
"""What a script decides from: a table's view of the seat, or the lighter one a bot seat is given
(:func:`~shipwreck.games.spanish_main.view.bot_view`: its legal commands listed when asked)."""

DECISIONS: dict[str, str] = {
    "turn": "your turn: one action per ship (move, shoot, explore, repair), then `end turn`",
    "after_move": "a ship has moved: `ram SHIP TARGET`, `tow SHIP TARGET` or `pass`",
    "eliminate": "one of your ships is hit: `eliminate MAST` (1 = bow)",
    "load": "after an explore: `load SHIP N…`, `load SHIP none` or `load SHIP where GUARD`",
    "board": "after a ram: `board kill`, `board steal` or `pass`",
    "plunder": "you won a boarding party: `board kill`, `board steal` or `pass`",
    "side": "before each answer in your turn: a free action (`drop off`, `pick up`,"
    " `transfer`, `look`, `trade`, `sacrifice`, `break tow`) or `pass`",
}

ANSWERS: dict[str, frozenset[str]] = {
    "turn": frozenset(
        {
            "move",
            "move_to",
            "move_toward",
            "move_dock",
            "come_about",
            "shoot",
            "explore",
            "repair",
            "tow",  # (her move where she lies: a derelict's bow against her, SM-17)
            "end_turn",
        }
    ),
    "after_move": frozenset({"ram", "tow", "pass"}),
    "eliminate": frozenset({"eliminate"}),
    "load": frozenset({"load", "load_where"}),
    "board": frozenset({"board", "pass"}),
    "plunder": frozenset({"board", "pass"}),
    "side": frozenset(
        {"break_tow", "drop_off", "pick_up", "transfer", "trade", "look", "sacrifice", "arm"}
        | {"cancel", "pass"}
    ),
}
"""The commands (grammar rules) that answer each decision (see ``lifeboat_env.ANSWERS``)."""

SIDE_ACTIONS = frozenset(
    {"break_tow", "drop_off", "pick_up", "transfer", "trade", "look", "sacrifice", "arm", "cancel"}
)
"""Free actions, in one's turn, beside its actions: ``break tow SHIP``, crew at a dock
(``drop off``, ``pick up``, ``transfer``: SM-61) and the cards' own (``trade``, ``look``,
``sacrifice``, ``arm``, ``cancel``: SM-60)."""
SIDE_BEFORE = frozenset({"turn"})
"""The decisions ``on side:`` is asked before (:mod:`shipwreck.lang.bots.runner`): a free action
is taken in one's turn (SM-10); the side handler may answer one, and is asked again after it,
until it passes (at most a few times before each answer)."""
LITERALS: dict[str, range] = {}


class Ship:
    """A ship as a script sees it, relative to the deciding seat."""

    __slots__ = ("s", "view")

    def __init__(self, s: ShipView, view: SpanishMainView) -> None:
        self.s = s
        self.view = view

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ship):
            return self.s.id == other.s.id
        return isinstance(other, str) and other == self.s.id

    def __hash__(self) -> int:
        return hash(self.s.id)

    def __repr__(self) -> str:
        return self.s.id


class Island:
    """An island as a script sees it, relative to the deciding seat."""

    __slots__ = ("i", "view")

    def __init__(self, i: IslandView, view: SpanishMainView) -> None:
        self.i = i
        self.view = view

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Island):
            return self.i.id == other.i.id
        return isinstance(other, str) and other == self.i.id

    def __hash__(self) -> int:
        return hash(self.i.id)

    def __repr__(self) -> str:
        return self.i.id


class CrewPiece:
    """A crew piece (SM-61) as a script sees it: public, like the ships."""

    __slots__ = ("c", "view")

    def __init__(self, c: CrewView, view: SpanishMainView) -> None:
        self.c = c
        self.view = view

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CrewPiece):
            return self.c.id == other.c.id
        return isinstance(other, str) and other == self.c.id

    def __hash__(self) -> int:
        return hash(self.c.id)

    def __repr__(self) -> str:
        return self.c.id


class Mast:
    """One mast of a ship, numbered from the bow as ``eliminate`` and ``shoot … with`` take it."""

    __slots__ = ("m", "number")

    def __init__(self, m: MastView, number: int) -> None:
        self.m = m
        self.number = number

    def __repr__(self) -> str:
        return str(self.number)


def _centre(s: ShipView) -> tuple[float, float]:
    ax, ay, bx, by = geo.axis(s.x, s.y, s.heading, s.length)
    return (ax + bx) / 2, (ay + by) / 2


def _known(coins: tuple[CoinView, ...]) -> int:
    return sum(c.value or 0 for c in coins)


def _island_of(sh: Ship, iid: str | None) -> Island | None:
    for i in sh.view.islands:
        if i.id == iid:
            return Island(i, sh.view)
    return None


def _ship_of(sh: Ship, sid: str | None) -> Ship | None:
    for s in sh.view.ships:
        if s.id == sid:
            return Ship(s, sh.view)
    return None


def _masts_up(h: Ship) -> int:
    return sum(1 for m in h.s.masts if m.up)


SHIP_ATTRS: dict[str, Callable[[Ship], object]] = {
    "id": lambda h: h.s.id,
    "name": lambda h: h.s.name,
    "owner": lambda h: h.s.owner,
    "mine": lambda h: h.view.seat is not None and h.s.owner == h.view.seat,
    "points": lambda h: h.s.points,
    "masts": lambda h: len(h.s.masts),
    "masts_up": _masts_up,
    "cannons": _masts_up,
    "damaged": lambda h: any(not m.up for m in h.s.masts),
    "rig": lambda h: [Mast(m, k) for k, m in enumerate(h.s.masts, 1)],
    "cargo": lambda h: list(h.s.cargo),
    "cargo_slots": lambda h: h.s.cargo_slots,
    "cargo_used": lambda h: len(h.s.cargo),
    "cargo_free": lambda h: max(
        0, h.s.cargo_slots - len(h.s.cargo) - sum(c.slots for c in h.s.aboard)
    ),  # (SM-61: crew pieces take cargo slots)
    "laden": lambda h: bool(h.s.cargo),
    "value": lambda h: _known(h.s.cargo),
    "unknown": lambda h: sum(1 for c in h.s.cargo if c.value is None),
    "crew": lambda h: h.s.crew + len(h.s.aboard),
    "aboard": lambda h: [CrewPiece(c, h.view) for c in h.s.aboard],
    "can": lambda h: ability_kinds(h.s.card, [c.card for c in h.s.aboard], h.s.ability),
    "docked": lambda h: h.s.docked is not None,
    "at": lambda h: _island_of(h, h.s.docked),
    "towing": lambda h: _ship_of(h, h.s.towing),
    "derelict": lambda h: h.s.derelict,
    "pinned": lambda h: h.s.pinned_by is not None,
    "acted": lambda h: h.s.acted,
    "x": lambda h: round(h.s.x),
    "y": lambda h: round(h.s.y),
    "heading": lambda h: round(h.s.heading) % 360,
}
ISLAND_ATTRS: dict[str, Callable[[Island], object]] = {
    "id": lambda i: i.i.id,
    "home": lambda i: i.i.home is not None,
    "mine": lambda i: i.view.seat is not None and i.i.home == i.view.seat,
    "wild": lambda i: i.i.home is None,
    "owner": lambda i: i.i.home,
    "coins": lambda i: len(i.i.coins),
    "treasure": lambda i: list(i.i.coins),
    "x": lambda i: round(i.i.x),
    "y": lambda i: round(i.i.y),
    "r": lambda i: round(i.i.r),
    "crew": lambda i: [CrewPiece(c, i.view) for c in i.i.crew],
}
CREW_ATTRS: dict[str, Callable[[CrewPiece], Any]] = {
    "id": lambda c: c.c.id,
    "card": lambda c: c.c.card,
    "name": lambda c: c.c.name,
    "owner": lambda c: c.c.owner,
    "mine": lambda c: c.view.seat is not None and c.c.owner == c.view.seat,
    "slots": lambda c: c.c.slots,
    "kind": lambda c: crew_kind(c.c.card),
}
COIN_ATTRS: dict[str, Callable[[CoinView], object]] = {
    "id": lambda c: c.id,
    "value": lambda c: c.value,
    "known": lambda c: c.value is not None,
}
MAST_ATTRS: dict[str, Callable[[Mast], object]] = {
    "number": lambda m: m.number,
    "rank": lambda m: m.m.rank,
    "range": lambda m: m.m.range,
    "up": lambda m: m.m.up,
}
ATTRS: dict[type, dict[str, Callable[[Any], Any]]] = {
    Ship: SHIP_ATTRS,
    Island: ISLAND_ATTRS,
    CoinView: COIN_ATTRS,
    Mast: MAST_ATTRS,
    CrewPiece: CREW_ATTRS,
}
ALL_ATTRS = frozenset(a for table in ATTRS.values() for a in table)
CHARACTER_FIELDS: frozenset[str] = frozenset()
"""No attribute names things by id here: ships and islands are already objects."""


def _point(x: object) -> tuple[float, float, float]:
    """A place to measure from: (x, y, radius)."""
    if isinstance(x, Ship):
        cx, cy = _centre(x.s)
        return cx, cy, 0.0
    if isinstance(x, Island):
        return x.i.x, x.i.y, x.i.r
    raise BotRuntimeError("distance() needs ships or islands")


def _distance(a: object, b: object) -> float:
    if isinstance(a, Ship) and isinstance(b, Ship):
        sa = geo.axis(a.s.x, a.s.y, a.s.heading, a.s.length)
        sb = geo.axis(b.s.x, b.s.y, b.s.heading, b.s.length)
        return max(0.0, geo.segment_segment(sa, sb)[0] - 2 * geo.HULL_RADIUS)
    ax, ay, ar = _point(a)
    bx, by, br = _point(b)
    return max(0.0, math.hypot(ax - bx, ay - by) - ar - br)


def _fn_distance(ctx: Context, a: object, b: object) -> int:
    return round(_distance(a, b))


def _fn_in_range(ctx: Context, ship: object, target: object) -> bool:
    """Could any cannon of ``ship`` reach ``target`` (range only; the line of fire may be
    blocked: ``can_shoot`` says whether the engine would take the shot)."""
    if not isinstance(ship, Ship) or not isinstance(target, Ship):
        raise BotRuntimeError("in_range() needs two ships")
    s, t = ship.s, target.s
    seg = geo.axis(t.x, t.y, t.heading, t.length)
    n = len(s.masts)
    for i, m in enumerate(s.masts):
        if m.up:
            px, py = geo.mast_point(s.x, s.y, s.heading, s.length, i, n)
            if geo.hull_distance(px, py, seg) <= geo.LEG_LENGTH[m.range] + 1e-9:
                return True
    return False


def _fn_nearest(ctx: Context, xs: object, to: object) -> object:
    if not isinstance(xs, list):
        raise BotRuntimeError("nearest() needs a list")
    best: object = None
    best_d = math.inf
    for x in xs:
        ctx.tick()
        d = _distance(x, to)
        if d < best_d:
            best, best_d = x, d
    return best


def by_id(sid: str) -> Callable[[Context], object]:
    """A ship or island written by its id in a script (``move ship to isla-2``)."""

    def run(ctx: Context) -> object:
        ships = cast("list[Ship]", ctx.names["ships"])  # (as names_for made them)
        for x in (*ships, *cast("list[Island]", ctx.names["islands"])):
            if _id(x) == sid:
                return x
        coded = ship_names(_view(ctx)).get(sid)  # a ship by her map code (``lw``)
        for x in ships:
            if _id(x) == coded:
                return x
        raise BotRuntimeError(f"there is no ship or island '{sid}'")

    return run


def alias(ctx: Context, word: str) -> str:
    """A ship written in a script's command by her map code (``explore lw``) is named by her
    id in the command played; any other word is itself."""
    return ship_names(_view(ctx)).get(word, word)


def _id(x: object) -> str:
    if isinstance(x, Ship):
        return x.s.id
    if isinstance(x, Island):
        return x.i.id
    raise BotRuntimeError("this names no ship or island")


def _offered(ctx: Context, ship: object, kinds: rules.Kinds) -> tuple[C.Command, ...]:
    """``ship``'s commands of these types among this decision's choices: each ship's listed
    only as a script asks about them (her sampled moves, most of the work, for only the ships
    whose moves it asks about)."""
    return _answers(ctx).of(_id(ship), kinds)


def _fn_can_move(ctx: Context, ship: object) -> bool:
    return bool(_offered(ctx, ship, (C.ComeAbout,)) or _offered(ctx, ship, rules.SAMPLED))


def _fn_can_toward(ctx: Context, ship: object, target: object) -> bool:
    tid = _id(target)
    return any(
        isinstance(c, C.MoveToward) and c.target == tid
        for c in _offered(ctx, ship, (C.MoveToward,))
    )


def _fn_can_dock(ctx: Context, ship: object, island: object) -> bool:
    iid = _id(island)
    return any(
        isinstance(c, C.MoveDock) and c.island == iid for c in _offered(ctx, ship, (C.MoveDock,))
    )


def _fn_can_shoot(ctx: Context, ship: object, target: object) -> bool:
    tid = _id(target)
    return any(isinstance(c, C.Shoot) and c.target == tid for c in _offered(ctx, ship, (C.Shoot,)))


def _fn_can_explore(ctx: Context, ship: object) -> bool:
    return bool(_offered(ctx, ship, (C.Explore,)))


def _fn_can_repair(ctx: Context, ship: object) -> bool:
    return bool(_offered(ctx, ship, (C.Repair,)))


def _crew_id(x: object) -> str:
    if isinstance(x, CrewPiece):
        return x.c.id
    raise BotRuntimeError("this names no crew piece")


def _free(ctx: Context, cmd: C.Command) -> bool:
    """Is ``cmd`` one of the free actions the seat may take now (the view's ``free``)?"""
    return cmd in _answers(ctx).free()


def _fn_can_drop(ctx: Context, crew: object, ship: object) -> bool:
    return _free(ctx, C.DropOff(_crew_id(crew), _id(ship)))


def _fn_can_pick(ctx: Context, crew: object, ship: object) -> bool:
    return _free(ctx, C.PickUp(_crew_id(crew), _id(ship)))


def _fn_can_transfer(ctx: Context, crew: object, ship: object, to: object) -> bool:
    return _free(ctx, C.Transfer(_crew_id(crew), _id(ship), _id(to)))


def _fn_can_look(ctx: Context, ship: object, coin: object) -> bool:
    if not isinstance(coin, CoinView):
        raise BotRuntimeError("can_look(SHIP, COIN) needs a coin")
    return _free(ctx, C.Look(_id(ship), coin.id))


_MOVES = (C.Move, C.MoveToward, C.MoveDock, C.ComeAbout)
Moving = C.Move | C.MoveToward | C.MoveDock | C.ComeAbout
_EDGE_ID = geo.edge(0.0, 0.0).id
AGROUND = 3.0
"""What ending against something other than the target counts as, in distance: she will have
to come about or turn off it first."""
TRAPPED = 20.0
"""What ending with her bow against the sea's edge or another ship counts as: pivoting on the bow
tip only swings her into it, so she may never get off (a docked ship can come about; these
cannot)."""
PREVIEW_STEPS = 20
"""What previewing one move costs of a decision's step budget: it sweeps the hull against
everything at sea, so a decision previews at most a couple of hundred moves."""
STAY = 1.5
"""What coming about counts as, in distance: it takes the same water, so it wins only where
every move would leave her farther away (then she turns to face open sea)."""


def _view(ctx: Context) -> SpanishMainView:
    """The decision's view (a Spanish Main script decides only on Spanish Main views: the
    runner checks ``VIEW`` first); read its legal commands with :func:`_answers`."""
    return _seen(cast("SpanishMainView | BotView", ctx.view))[0]


def _answers(ctx: Context) -> Answers:
    """The decision's legal commands, whole or one ship's (made once per decision)."""
    got = ctx.memo.get("answers")
    if got is None:
        got = ctx.memo["answers"] = _seen(cast("SpanishMainView | BotView", ctx.view))[1]
    return cast(Answers, got)


def _seen(view: SpanishMainView | BotView) -> tuple[SpanishMainView, Answers]:
    """A view's public part and its legal commands: a bot seat's :class:`BotView` lists them
    when asked; a table's view has them all."""
    if isinstance(view, BotView):
        return view.view, view.answers
    return view, Listed(view)


def _sea(ctx: Context) -> SpanishMainState:
    """The public sea of this decision's view (built once per decision)."""
    got = ctx.memo.get("sea")
    if got is None:
        got = ctx.memo["sea"] = sea(_view(ctx))
    assert isinstance(got, SpanishMainState)
    return got


def _end(ctx: Context, cmd: Moving) -> tuple[geo.Segment, str | None, bool] | None:
    """Where a move leaves the ship's hull, what stops her and whether it is her bow that touches
    it (None: the move is refused). Worked out once per decision: a script that asks for the
    best move to several targets previews each move once (a preview is ~10 ms of geometry, and
    one decision used to preview the same moves again for every target it weighed)."""
    key = ("end", cmd)  # (commands are frozen structs: hashable)
    if key in ctx.memo:
        return cast("tuple[geo.Segment, str | None, bool] | None", ctx.memo[key])
    _tick(ctx, cmd)
    end = ctx.memo[key] = _preview_end(ctx, cmd)
    return end


def _tick(ctx: Context, cmd: Moving) -> None:
    """What previewing ``cmd`` costs of the step budget, counted once per decision (whether it
    is previewed or, sure to lose, left out: :func:`best_move`)."""
    if ("ticked", cmd) not in ctx.memo:
        ctx.tick(PREVIEW_STEPS)
        ctx.memo[("ticked", cmd)] = True


def _preview_end(ctx: Context, cmd: Moving) -> tuple[geo.Segment, str | None, bool] | None:
    state = _sea(ctx)
    s = state.ships[cmd.ship]
    if isinstance(cmd, C.ComeAbout):
        x, y, h = rules.come_about_pose(s)
        return geo.axis(x, y, h, s.length), None, False
    try:
        seat = cast(int, _view(ctx).seat)  # (a bot decides for its own seat)
        pv = rules.preview(state, seat, cmd)
    except IllegalCommand:  # pragma: no cover - the choices are legal moves
        return None
    return geo.axis(pv.x, pv.y, pv.heading, s.length), pv.touches, pv.part == "bow"


def _gap(hull: geo.Segment, target: Ship | Island) -> float:
    """From a hull (its axis) to an island's shore or another ship's hull."""
    if isinstance(target, Island):
        i = target.i
        return max(0.0, geo.point_segment(i.x, i.y, hull)[0] - geo.HULL_RADIUS - i.r)
    t = target.s
    other = geo.axis(t.x, t.y, t.heading, t.length)
    return max(0.0, geo.segment_segment(hull, other)[0] - 2 * geo.HULL_RADIUS)


def best_move(ctx: Context, ship: object, target: object) -> tuple[Moving | None, float]:
    """``move SHIP to TARGET``: among the ship's moves on offer (those ``random`` picks from:
    sampled legs, toward, dock, come about), the one that leaves her nearest ``target`` (hull to
    shore or hull). Docking there beats everything; stopping against anything else counts
    ``AGROUND`` more, coming about ``STAY`` more. The first such move in the offer's order, and
    its gap (-1: she docks there); (None, inf) if she cannot move. Only the public sea is looked
    at: where the ships and islands are."""
    if not isinstance(ship, Ship) or not isinstance(target, Ship | Island):
        raise BotRuntimeError("move SHIP to TARGET needs a ship and a ship or an island")
    key = ("to", ship.s.id, _id(target))
    got = ctx.memo.get(key)
    if got is not None:
        return cast("tuple[Moving | None, float]", got)
    sid, tid = ship.s.id, key[2]
    moves = [c for c in _answers(ctx).of(sid) if isinstance(c, _MOVES)]
    for cmd in moves:  # (the budget as if each were previewed, in the offer's order)
        _tick(ctx, cmd)
    best: Moving | None = None
    best_gap = math.inf
    best_at = len(moves)
    # the moves that may end nearest first (:func:`_least_gap`, a bound worked out without
    # sailing the whole move), leaving out each that cannot end nearer than the best so far;
    # ties go to the first in the offer's order, as if every move were previewed in turn
    least = [_least_gap(ctx, c, target) for c in moves]
    for k in sorted(range(len(moves)), key=lambda k: (least[k], k)):
        cmd = moves[k]
        if ("end", cmd) not in ctx.memo and least[k] > best_gap + 1e-4:
            continue
        end = _end(ctx, cmd)
        if end is None:  # pragma: no cover
            continue
        hull, touch, bow = end
        if touch is not None and touch == tid and isinstance(target, Island):
            gap = -1.0
        else:
            gap = _gap(hull, target)
            if touch is not None and touch != tid:
                trap = bow and (touch == _EDGE_ID or touch in _sea(ctx).ships)
                gap += TRAPPED if trap else AGROUND
            gap += STAY if isinstance(cmd, C.ComeAbout) else 0.0
        if gap < best_gap or (gap == best_gap and k < best_at):
            best, best_gap, best_at = cmd, gap, k
    ctx.memo[key] = (best, best_gap)
    return best, best_gap


def _least_gap(ctx: Context, cmd: Moving, target: Ship | Island) -> float:
    """The least gap to ``target`` that :func:`best_move` could give ``cmd``, without sailing
    the whole move. A turn keeps the centre of her bow's rounding where it is and a run takes it
    at most the run's length, so that centre ends within the move's length of where it starts;
    her hull lies behind it along her last run. When she sails a move out, her last leg runs
    its full length (more than half her hull's axis): then her whole hull ends within the
    move's length (and what the axis reaches past the last run's start) of where she starts.
    When a touch stops her, her hull ends within the move's length and her axis of it, and the
    touch counts ``AGROUND`` more, or ends at the target (-1 at an island she docks at). The
    first leg is sailed here where that is cheap (a typed move's: the choices sailed it, it is
    remembered; a helper move's when she sails straight at her aim, no detour), and the bound
    taken from where it ends: the moves that head away are then left out."""
    if isinstance(cmd, C.ComeAbout):
        return -1.0  # (cheap to work out: never left out)
    state = _sea(ctx)
    s = state.ships[cmd.ship]
    r = geo.HULL_RADIUS
    axis_len = s.length - 2 * r
    first: tuple[geo.LegResult, float, float, float] | None = None
    if isinstance(cmd, C.Move):
        runs = [geo.LEG_LENGTH[k] if d is None else d for k, _, d in cmd.legs]
        first = rules.first_leg(state, s, cmd.legs[0][1], runs[0])
    else:
        runs = [geo.LEG_LENGTH[k] for k in rules.move_legs(s, state)]
        aim = rules.aim_of(state, s, cmd)
        first = None if aim is None else rules.first_leg_toward(state, s, aim)
    if first is not None:
        res, x1, y1, h1 = first
        if res.hit is not None or len(runs) == 1:  # (she ends where her first leg does)
            hull = geo.axis(x1, y1, h1, s.length)
            gap = _gap(hull, target) - 1e-5  # (a preview rounds where she ends)
            if res.hit is None:
                return gap
            if res.hit.id == _id(target):
                return -1.0 if isinstance(target, Island) else gap
            return gap + AGROUND
        ux, uy = geo.unit(h1)
        return _least_after(x1 - r * ux, y1 - r * uy, runs[1:], axis_len, target)
    ux, uy = geo.unit(s.heading)
    return _least_after(s.x - r * ux, s.y - r * uy, runs, axis_len, target)


def _least_after(
    cx: float, cy: float, runs: list[float], axis_len: float, target: Ship | Island
) -> float:
    """:func:`_least_gap` of legs ``runs`` sailed from the centre of her bow's rounding at
    (cx, cy), each in any direction."""
    run = sum(runs)
    near = _gap((cx, cy, cx, cy), target)
    sailed = max(0.0, near - run - max(0.0, axis_len - 2 * runs[-1]))
    return min(sailed, _touched(near - run - axis_len, target)) - 1e-5


def _touched(least: float, target: Ship | Island) -> float:
    """What a move stopped by a touch, her hull ``least`` or more from ``target``, counts at
    least: ``AGROUND`` more, unless the touch may be the target's."""
    if least <= 10 * geo.TOUCH:
        return -1.0 if isinstance(target, Island) else max(0.0, least)
    return least + AGROUND


def _fn_reach(ctx: Context, ship: object, target: object) -> int | None:
    """How near ``move SHIP to TARGET`` leaves her (0: touching or docked), or none."""
    cmd, gap = best_move(ctx, ship, target)
    return None if cmd is None else max(0, round(gap))


def _fn_chance(ctx: Context, p: object) -> bool:
    if not isinstance(p, int) or isinstance(p, bool):
        raise BotRuntimeError("chance() needs a percentage, e.g. chance(30%)")
    return bool(ctx.rng.random() * 100 < p)


def _fn_value(ctx: Context, x: object) -> int:
    if isinstance(x, Ship):
        return _known(x.s.cargo)
    if isinstance(x, CoinView):
        return x.value or 0
    if isinstance(x, list):
        return sum(_fn_value(ctx, y) for y in x)
    raise BotRuntimeError("value() needs a ship, a coin or a list of them")


FUNCTIONS: dict[str, Callable[..., object]] = {
    "distance": _fn_distance,
    "in_range": _fn_in_range,
    "nearest": _fn_nearest,
    "can_move": _fn_can_move,
    "can_toward": _fn_can_toward,
    "can_dock": _fn_can_dock,
    "can_shoot": _fn_can_shoot,
    "can_explore": _fn_can_explore,
    "can_repair": _fn_can_repair,
    "reach": _fn_reach,
    "can_drop": _fn_can_drop,
    "can_pick": _fn_can_pick,
    "can_transfer": _fn_can_transfer,
    "can_look": _fn_can_look,
    "value": _fn_value,
    "chance": _fn_chance,
    "len": lambda ctx, xs: len(xs),
    "min": lambda ctx, *xs: min(xs),
    "max": lambda ctx, *xs: max(xs),
    "abs": lambda ctx, x: abs(x),
}
FUNCTION_HELP: dict[str, str] = {
    "distance": "distance(A, B): the gap between two ships or islands (hull to hull, shore)",
    "in_range": "in_range(SHIP, TARGET): could any of SHIP's cannons reach TARGET?",
    "nearest": "nearest(LIST, TO): the element of LIST nearest TO (none if empty)",
    "can_move": "can_move(SHIP): may SHIP move (or come about) now?",
    "can_toward": "can_toward(SHIP, TARGET): may SHIP move toward TARGET now?",
    "can_dock": "can_dock(SHIP, ISLAND): can SHIP dock at ISLAND with this move?",
    "can_shoot": "can_shoot(SHIP, TARGET): would SHIP's cannons fire at TARGET now?",
    "can_explore": "can_explore(SHIP): may SHIP explore where she is docked?",
    "can_repair": "can_repair(SHIP): may SHIP repair a mast at home now?",
    "reach": "reach(SHIP, TARGET): how near `move SHIP to TARGET` leaves her bow (0: touching"
    " or docked), or none if she cannot move",
    "can_drop": "can_drop(CREW, SHIP): may SHIP put CREW ashore where she is docked now?",
    "can_pick": "can_pick(CREW, SHIP): may SHIP take CREW aboard from the island now?",
    "can_transfer": "can_transfer(CREW, SHIP, TO): may CREW move from SHIP to TO (docked"
    " together) now?",
    "can_look": "can_look(SHIP, COIN): may SHIP's card look at COIN now (once a turn)?",
    "value": "value(X): the known value of a ship's cargo, a coin, or a list of them",
    "chance": "chance(30%): true 30% of the time (the bot's own seeded dice)",
    "len": "len(LIST): how many",
    "min": "min(A, B, …)",
    "max": "max(A, B, …)",
    "abs": "abs(N)",
}

NAME_HELP: dict[str, str] = {
    "seat": "my seat number (0 = the first)",
    "ship": "the ship this decision is about (in `turn`: my first ship that can still act)",
    "target": "the other ship of the ram (in `board`, `plunder`), or none",
    "home": "my home island",
    "ships": "every ship at sea",
    "my_ships": "my ships",
    "enemy_ships": "the other seats' ships",
    "ready": "my ships that can still act this turn (in `turn`)",
    "islands": "every island",
    "wild": "the wild islands that still hold coins",
    "coins": "the coins at the island (in `load`)",
    "rams": "the enemy ships `ship` may ram now (in `after_move`)",
    "tows": "the derelicts `ship` may take in tow now (in `after_move`; in `turn`, where she lies)",
    "takes": "what a boarding party may take: 'kill', 'steal' (in `board`, `plunder`)",
    "gold": "the gold I have unloaded at home",
    "enemy_gold": "the most gold another seat has unloaded",
    "gold_total": "all the gold dealt at the start",
    "gold_in_play": "the gold still in play: all dealt, less coins lost (more than half wins)",
    "cargo_value": "the known value of the coins my ships carry",
    "round": "the round number",
    "decision": "the decision being taken ('turn', 'load', …)",
    "true": "true",
    "false": "false",
    "none": "nothing",
}
NAMES = frozenset(NAME_HELP)


def _ready(view: SpanishMainView, answers: Answers, s: ShipView) -> bool:
    """Is ``s`` my ship with her action still to take, and any to take (SM-10)?"""
    if s.owner != view.seat or s.acted:
        return False
    return answers.acts(s.id)


def _concerned(
    view: SpanishMainView, answers: Answers, decision: str
) -> tuple[str | None, str | None]:
    """The ship the decision is about and the other ship (a ram's), by id."""
    seat = view.seat
    if decision == "after_move":
        return view.moved, None
    if decision == "eliminate":
        return view.hit, None
    if decision == "load":
        return view.loading, None
    if decision in ("board", "plunder") and view.ram is not None:
        r = view.ram
        owners = {s.id: s.owner for s in view.ships}
        mine_id = r.winner if decision == "plunder" and r.winner else None
        if mine_id is None:
            mine_id = r.ship if owners.get(r.ship) == seat else r.target
        other = r.target if mine_id == r.ship else r.ship
        return mine_id, other
    if decision in ("turn", "side"):
        return next((s.id for s in view.ships if _ready(view, answers, s)), None), None
    return None, None


def names_for(view: SpanishMainView | BotView, decision: str) -> Names:
    """The names a guard can read, for one decision of one seat (``ready``, which may list
    every ship's moves, only if the script reads it)."""
    view, answers = _seen(view)
    seat = view.seat
    ships = [Ship(s, view) for s in view.ships]
    by_id = {s.s.id: s for s in ships}
    islands = [Island(i, view) for i in view.islands]
    mine = [s for s in ships if seat is not None and s.s.owner == seat]
    turn = decision in ("turn", "side")  # (side actions are taken in one's turn)
    ship_id, other_id = _concerned(view, answers, decision)
    ship = by_id.get(ship_id or "")
    coins: list[CoinView] = []
    if decision == "load" and ship is not None:
        at = next((i for i in view.islands if i.id == ship.s.docked), None)
        coins = list(at.coins) if at is not None else []
    gold = list(view.gold)
    # (a turn's choices hold no ram and no boarding take: they are not listed for those)
    answering = answers.choices() if view.step != "turn" else ()

    def ready() -> list[Ship]:
        return [s for s in mine if turn and _ready(view, answers, s.s)]

    names: dict[str, object] = {
        "seat": seat,
        "ship": ship,
        "target": by_id.get(other_id or ""),
        "home": next((i for i in islands if seat is not None and i.i.home == seat), None),
        "ships": ships,
        "my_ships": mine,
        "enemy_ships": [s for s in ships if s.s.owner != seat],
        "islands": islands,
        "wild": [i for i in islands if i.i.home is None and i.i.coins],
        "coins": coins,
        "rams": [by_id[c.target] for c in answering if isinstance(c, C.Ram)],
        "tows": [
            by_id[c.target]
            for c in (answers.of(ship_id, (C.Tow,)) if ship_id is not None else ())
            if isinstance(c, C.Tow)
        ],
        "takes": [c.take for c in answering if isinstance(c, C.Board)],
        "gold": gold[seat] if seat is not None and seat < len(gold) else 0,
        "enemy_gold": max((g for k, g in enumerate(gold) if k != seat), default=0),
        "gold_total": view.gold_total,
        "gold_in_play": view.gold_in_play,
        "cargo_value": sum(_known(s.s.cargo) for s in mine),
        "round": view.round,
        "decision": decision,
        "true": True,
        "false": False,
        "none": None,
    }
    return Names(names, {"ready": ready})


def as_character(value: object, ctx: Context) -> object:
    """Nothing to turn into an object here (kept for the evaluator's one interface)."""
    return value


def word_for(value: object) -> str:
    """The word a value stands for inside a command (a ship's or island's id, a coin's
    number)."""
    if isinstance(value, Ship):
        return value.s.id
    if isinstance(value, Island):
        return value.i.id
    if isinstance(value, CoinView):
        return str(value.id)
    if isinstance(value, Mast):
        return str(value.number)
    if isinstance(value, CrewPiece):
        return value.c.id
    if isinstance(value, bool) or value is None:
        raise BotRuntimeError("this names nothing here" if value is None else "not a name")
    return str(value)


KINDS = KindTable(
    names={
        **dict.fromkeys(("ship", "target"), "ship"),
        **dict.fromkeys(("ships", "my_ships", "enemy_ships", "ready", "rams", "tows"), "list:ship"),
        **dict.fromkeys(("islands", "wild"), "list:island"),
        **dict.fromkeys(
            ("seat", "gold", "enemy_gold", "gold_total", "gold_in_play", "cargo_value", "round"),
            "number",
        ),
        "home": "island",
        "coins": "list:coin",
        "takes": "list:take",
        "decision": "decision",
        "true": "bool",
        "false": "bool",
        "none": "none",
    },
    attrs={
        "ship": {
            **dict.fromkeys(
                (
                    "owner",
                    "points",
                    "masts",
                    "masts_up",
                    "cannons",
                    "cargo_slots",
                    "cargo_used",
                    "cargo_free",
                    "value",
                    "unknown",
                    "crew",
                    "x",
                    "y",
                    "heading",
                ),
                "number",
            ),
            **dict.fromkeys(
                ("mine", "damaged", "laden", "docked", "derelict", "pinned", "acted"), "bool"
            ),
            **dict.fromkeys(("id", "name"), "text"),
            "rig": "list:mast",
            "cargo": "list:coin",
            "at": "island",
            "towing": "ship",
            "aboard": "list:crew",
            "can": "list:text",
        },
        "island": {
            **dict.fromkeys(("owner", "coins", "x", "y", "r"), "number"),
            **dict.fromkeys(("home", "mine", "wild"), "bool"),
            "id": "text",
            "treasure": "list:coin",
            "crew": "list:crew",
        },
        "crew": {
            **dict.fromkeys(("id", "card", "name", "kind"), "text"),
            **dict.fromkeys(("owner", "slots"), "number"),
            "mine": "bool",
        },
        "coin": {"id": "number", "value": "number", "known": "bool"},
        "mast": {"number": "number", "rank": "number", "range": "range", "up": "bool"},
    },  # fmt: skip
    functions={
        "distance": (("ship|island", "ship|island"), "number"),
        "in_range": (("ship", "ship"), "bool"),
        "nearest": (("list:ship|list:island", "ship|island"), "elem:0"),
        "can_move": (("ship",), "bool"),
        **dict.fromkeys(("can_drop", "can_pick"), (("crew|text", "ship|text"), "bool")),
        "can_transfer": (("crew|text", "ship|text", "ship|text"), "bool"),
        "can_look": (("ship|text", "coin|number"), "bool"),
        "can_toward": (("ship", "ship|island"), "bool"),
        "can_dock": (("ship", "island"), "bool"),
        "can_shoot": (("ship", "ship"), "bool"),
        "can_explore": (("ship",), "bool"),
        "can_repair": (("ship",), "bool"),
        "reach": (("ship", "ship|island"), "number"),
        "value": (("ship|coin|list:ship|list:coin",), "number"),
        "chance": (("number",), "bool"),
        "len": (("list:any|text",), "number"),
        "min": (("*number",), "number"),
        "max": (("*number",), "number"),
        "abs": (("number",), "number"),
    },
    commands={
        **dict.fromkeys(("explore", "come_about", "break_tow"), ("ship|text",)),
        **dict.fromkeys(("move_toward", "move_to"), ("ship|text", "ship|island|text")),
        **dict.fromkeys(("tow", "ram"), ("ship|text", "ship|text")),
        "move_dock": ("ship|text", "island|text"),
        "repair": ("ship|text", "mast|number"),
        "eliminate": ("mast|number",),
        "load": ("ship|text", "*coin|number|list:coin|list:number"),
        "look": ("ship|text", "coin|number"),
    },
    words={
        "ship": "a ship",
        "island": "an island",
        "coin": "a coin",
        "mast": "a mast",
        "crew": "a crew piece",
        "take": "a boarding take",
        "range": "a cannon range",
        "decision": "a decision",
    },
    values={"take": ("kill", "steal"), "range": ("S", "L"), "decision": tuple(DECISIONS)},
    equal=frozenset({("ship", "text"), ("island", "text"), ("crew", "text")}),
)
"""Every name, attribute and function above, by the kind of value it gives (``bot check``'s
kind check: :mod:`.kinds`)."""
