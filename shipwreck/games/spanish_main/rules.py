"""The whole of Spanish Main's rules: prompts, legal commands, and applying a command.

Read top to bottom: helpers, prompts and choices, then ``apply`` and one handler per command,
then the resolution loop (:func:`_settle`) that runs volleys, hits, rams and boarding parties
and decides who must answer next. The rule ids (``SM-…``) of ``docs/rules/spanish-main.md``
are named where they are enforced.

Every handler validates first and mutates after, so a command that raises
:class:`IllegalCommand` leaves the state exactly as it was. Moves are planned on a copy of the
geometry (:mod:`.geometry` is pure) and only then applied.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NoReturn

from msgspec.structs import astuple

from shipwreck.engine.core import SYSTEM, Event, IllegalCommand, Prompt, Seat, waiting_text
from shipwreck.games.spanish_main import abilities, memo, scoring
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.previews import MovePreview
from shipwreck.games.spanish_main.state import (
    AT_HEADING,
    AT_ID,
    AT_LENGTH,
    AT_OWNER,
    AT_X,
    AT_Y,
    AfterMove,
    Hit,
    Island,
    RamState,
    Salvo,
    Ship,
    SpanishMainState,
    Volley,
)

PROMPT_KINDS = ("turn", "after_move", "eliminate", "load", "board", "plunder")
_END_TURN = C.EndTurn()
_PASS = C.Pass()
_BOARD = {"kill": C.Board("kill"), "steal": C.Board("steal")}
_TURNS_1 = (-90.0, -45.0, 0.0, 45.0, 90.0)
_TURNS_2 = (-45.0, 0.0, 45.0)
"""The heading changes legal() lists for first and later legs (any within 90 are legal)."""


class _Log:
    """Collects the events one command produces."""

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[Event] = []

    def public(self, kind: str, text: str) -> None:
        self.events.append(Event(kind, text))

    def private(self, kind: str, text: str, *seats: int) -> None:
        self.events.append(Event(kind, text, tuple(sorted(set(seats)))))


# --------------------------------------------------------------------------- small helpers


def roll(state: SpanishMainState, sides: int = 6) -> int:
    """SM-50: one die from the table's RNG (or the next forced die of a scenario)."""
    if state.dice:
        d = state.dice.pop(0)
        return min(max(d, 1), sides)
    return state.rng.below(sides) + 1


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def _ship(state: SpanishMainState, sid: str) -> Ship:
    s = state.ships.get(sid)
    if s is None:
        if sid in state.sunk:
            raise IllegalCommand(f"{sid} has sunk")
        known = ", ".join(state.ships) or "none"
        raise IllegalCommand(f"there is no ship {sid!r}; ships: {known}")
    return s


def _island(state: SpanishMainState, iid: str) -> Island:
    isl = state.islands.get(iid)
    if isl is None:
        raise IllegalCommand(f"there is no island {iid!r}; islands: {', '.join(state.islands)}")
    return isl


def _mine(state: SpanishMainState, seat: Seat, sid: str) -> Ship:
    s = _ship(state, sid)
    if s.owner != seat:
        raise IllegalCommand(f"{sid} is {state.seats[s.owner]}'s ship, not yours")
    return s


def _home(state: SpanishMainState, seat: int) -> Island | None:
    for isl in state.islands.values():
        if isl.home == seat:
            return isl
    return None


def _axis(s: Ship) -> geo.Segment:
    return geo.axis(s.x, s.y, s.heading, s.length)


def _bow(s: Ship) -> geo.Segment:
    """The bow: the hull from the bow tip to the first mast (SM-6; for SM-17, SM-18, SM-19). As a
    segment of the hull's radius, it holds exactly the hull's points that far from the tip."""
    ux, uy = geo.unit(s.heading)
    r, m = geo.HULL_RADIUS, geo.bow_length(s.length)
    return s.x - r * ux, s.y - r * uy, s.x - m * ux, s.y - m * uy


def _touch(a: geo.Segment, b: geo.Segment) -> bool:
    return geo.segment_segment(a, b)[0] - 2 * geo.HULL_RADIUS <= geo.TOUCH


def bow_touches(a: Ship, b: Ship) -> bool:
    """Does any part of ``a``'s bow touch any part of ``b``? (Bow tips farther apart than both
    hulls are long cannot: that is looked at first, as most ships are far apart.)"""
    reach = a.length + b.length + 2 * geo.HULL_RADIUS + geo.TOUCH
    if abs(a.x - b.x) > reach or abs(a.y - b.y) > reach:
        return False
    return _touch(_bow(a), _axis(b))


def touches_island(s: Ship, isl: Island) -> bool:
    return geo.point_segment(isl.x, isl.y, _axis(s))[0] - geo.HULL_RADIUS - isl.r <= geo.TOUCH


def pinned_by(state: SpanishMainState, s: Ship) -> Ship | None:
    """SM-19 as the seed words it (the seed wins): a ship is pinned while her bow touches an enemy
    ship that is not derelict; she cannot move until that ship moves away or is derelict."""
    x, y, span, owner = s.x, s.y, s.length + 2 * geo.HULL_RADIUS + geo.TOUCH, s.owner
    for o in state.ships.values():  # (bow_touches' first look inlined: asked of every ship)
        f = astuple(o)  # (her fields at once: SHIP_AT)
        o_owner: int = f[AT_OWNER]
        if o_owner == owner:
            continue
        o_length: float = f[AT_LENGTH]
        o_x: float = f[AT_X]
        o_y: float = f[AT_Y]
        reach = span + o_length
        if abs(x - o_x) > reach or abs(y - o_y) > reach:
            continue
        if _touch(_bow(s), _axis(o)) and not o.derelict:
            return o
    return None


def move_legs(s: Ship, state: SpanishMainState | None = None) -> list[str]:
    """SM-12, SM-17: the base move (as her abilities in ``state`` make it, SM-60; without a
    state, the printed one), or S while towing."""
    if s.towing:
        return ["S"]
    if state is None:
        return list(s.move)
    if f"unload_move:{s.id}" in state.marks and has_acted(state, s):
        return ["S"]  # (SM-60, Pescados de Plata: a move of S after unloading)
    return abilities.legs(state, s)


def _body(state: SpanishMainState, s: Ship) -> tuple[float, set[str]]:
    """The length of what moves (a tower and its tow are one hull) and the ships that are it."""
    if s.towing:
        t = state.ships[s.towing]
        return s.length + geo.TOW_GAP + t.length, {s.id, t.id}
    return s.length, {s.id}


def may_dock(state: SpanishMainState, s: Ship, isl: Island) -> bool:
    """SM-14: a wild island or her own home; an enemy home only with a card that says so."""
    if isl.home is None or isl.home == s.owner:
        return True
    return abilities.has(state, s, "raid_home")


def obstacles(state: SpanishMainState, s: Ship, skip: set[str]) -> geo.Waters:
    """What ``s`` may touch but not pass: islands (an enemy home with a stand-off margin, SM-14),
    the other ships, the sea's edge (SM-1). Made once per position (:mod:`.memo`), with what has
    been planned against it: do not change it. Keyed by what makes two ships' waters differ:
    their owner, what they skip, and whether a card lets her dock at an enemy home (SM-60)."""
    raids = abilities.has(state, s, "raid_home")
    key = (s.owner, frozenset(skip), raids)
    return memo.waters(state, key, lambda: _obstacles(state, s.owner, skip, raids))


def _obstacles(
    state: SpanishMainState, owner: int, skip: set[str], raids: bool
) -> list[geo.Obstacle]:
    """(``raids``: she may dock at an enemy home, as :func:`may_dock` says, asked once)"""
    out = list(_islands(state, owner, raids))
    hulls = _HULLS
    for o in state.ships.values():  # (each hull by her pose: a loop, no call per ship)
        f = astuple(o)
        pose = (f[AT_ID], f[AT_X], f[AT_Y], f[AT_HEADING], f[AT_LENGTH])
        if pose[0] in skip:
            continue
        got = hulls.get(pose[0])
        if got is None or got[0] != pose:
            got = hulls[o.id] = (pose, geo.hull(o.id, o.x, o.y, o.heading, o.length))
        out.append(got[1])
    out.extend(_walls(state.width, state.height))
    return out


def _islands(state: SpanishMainState, owner: int, raids: bool) -> tuple[geo.Obstacle, ...]:
    """The islands as obstacles for ``owner``'s ships (``raids``: as for :func:`_obstacles`),
    made once per sea (islands never move: :func:`memo.islands_number`)."""
    key = (memo.islands_number(state), owner, raids)
    got = _ISLANDS.get(key)
    if got is None:
        if len(_ISLANDS) >= 256:  # (a server plays many seas: forget the old ones now and then)
            _ISLANDS.clear()
        got = _ISLANDS[key] = tuple(
            geo.island(
                i.id,
                i.x,
                i.y,
                i.r,
                geo.CONTACT if raids or i.home is None or i.home == owner else geo.STANDOFF,
            )
            for i in state.islands.values()
        )
    return got


_ISLANDS: dict[tuple[int, int, bool], tuple[geo.Obstacle, ...]] = {}

_HULLS: dict[str, tuple[tuple[Any, ...], geo.Obstacle]] = {}
"""Each ship's hull as an obstacle (:func:`geo.hull`), by her id, with the pose it is for: a new
position has moved one ship or two, and comparing a pose costs less than looking it up by its
hash."""


@functools.lru_cache(maxsize=16)
def _walls(width: float, height: float) -> tuple[geo.Obstacle, ...]:
    """The sea's edge as its walls, made once per size of sea (obstacles never change)."""
    return tuple(geo.walls(width, height))


def _astern(s: Ship, length_of_tow: float) -> tuple[float, float, float]:
    """Where a towed ship's bow tip rides: just astern of ``s``, same heading."""
    ux, uy = geo.unit(s.heading)
    back = s.length + geo.TOW_GAP
    return round(s.x - back * ux, 6), round(s.y - back * uy, 6), s.heading


def _room_astern(state: SpanishMainState, s: Ship, t: Ship) -> bool:
    x, y, h = _astern(s, t.length)
    seg = geo.axis(x, y, h, t.length)
    return all(ob.gap(seg) >= 0.0 for ob in obstacles(state, t, {s.id, t.id}))


def _coin_text(state: SpanishMainState, ids: list[int]) -> str:
    return ", ".join(f"coin {c} ({state.coins[c - 1].value})" for c in ids) or "nothing"


def _know(state: SpanishMainState, seat: int, coins: list[int]) -> None:
    for c in coins:
        known = state.coins[c - 1].known
        if seat not in known:
            known.append(seat)
            known.sort()


DO_NOW = {
    "turn": "move, shoot, explore, repair, come about… then 'end turn'",
    "after_move": "tow SHIP X, ram SHIP X, or pass",
    "eliminate": "eliminate N",
    "load": "load SHIP [coin…]",
    "board": "board kill, board steal, or pass",
    "plunder": "board kill, board steal, or pass",
}
"""What a seat can type for each prompt, named in a refusal when the table waits for it."""


def _waiting(state: SpanishMainState, seat: int) -> str:
    if state.over:
        return "the game is over"
    return waiting_text(seat, prompts(state), state.seats, DO_NOW)


# --------------------------------------------------------------------------- prompts


_PROMPTS: dict[tuple[int, str], Prompt] = {
    (seat, k): Prompt(seat, k) for seat in range(8) for k in PROMPT_KINDS
}


def prompts(state: SpanishMainState) -> list[Prompt]:
    """Who must decide now: always exactly one seat while the game runs."""
    if state.over:
        return []
    step = state.step
    if step == "turn":
        return [_PROMPTS[state.turn, "turn"]]
    if step == "after_move" and state.after is not None:
        return [_PROMPTS[state.ships[state.after.ship].owner, "after_move"]]
    if step == "eliminate" and state.hit is not None:
        chooser = state.hit.chooser
        seat = chooser if chooser is not None else state.ships[state.hit.ship].owner
        return [_PROMPTS[seat, "eliminate"]]
    if step == "load" and state.loading is not None:
        return [_PROMPTS[state.ships[state.loading].owner, "load"]]
    if step == "board" and state.ram is not None:
        return [_PROMPTS[_board_seat(state), "board"]]
    if step == "plunder" and state.ram is not None:
        return [_PROMPTS[state.ships[state.ram.winner].owner, "plunder"]]
    return []  # pragma: no cover - every step above has its pending record


def _board_seat(state: SpanishMainState) -> int:
    ram = state.ram
    assert ram is not None
    return state.ships[ram.ship if ram.offer == 0 else ram.target].owner


def prompt_of(state: SpanishMainState, seat: Seat) -> str | None:
    for p in prompts(state):
        if p.seat == seat:
            return p.kind
    return None


# --------------------------------------------------------------------------- legal commands


def choices(state: SpanishMainState, seat: Seat) -> list[C.Command]:
    """The legal answers to ``seat``'s prompt (no free actions)."""
    kind = prompt_of(state, seat)
    if kind is None:
        return []
    if kind == "turn":
        return turn_choices(state, seat, lambda s: _ship_part(state, s, None))
    if kind == "after_move":
        assert state.after is not None
        s = state.ships[state.after.ship]
        tows, rams = _after_options(state, s, state.after)
        return [*(C.Tow(s.id, t) for t in tows), *(C.Ram(s.id, t) for t in rams), _PASS]
    if kind == "eliminate":
        assert state.hit is not None
        t = state.ships[state.hit.ship]
        return [C.Eliminate(i + 1) for i, m in enumerate(t.masts) if m.up]
    if kind == "load":
        assert state.loading is not None
        s = state.ships[state.loading]
        isl = state.islands[s.docked or ""]
        room = min(s.free_cargo, len(isl.coins) - abilities.never_last(state, s))
        return [
            C.Load(s.id, combo)
            for n in range(room + 1)
            for combo in itertools.combinations(isl.coins, n)
        ]
    if kind == "board":
        return [*(_BOARD[t] for t in _takes(state, _board_seat(state))), _PASS]
    if kind == "plunder":
        assert state.ram is not None
        return [*(_BOARD[t] for t in _takes(state, state.ships[state.ram.winner].owner)), _PASS]
    return []  # pragma: no cover


SAMPLED = (C.Move, C.MoveToward, C.MoveDock)
"""The moves :func:`ship_choices` samples: a few headings, toward each island and enemy, docking
(most of the work of listing a ship's choices)."""

Kinds = tuple[type[C.Command], ...]


def ship_choices(state: SpanishMainState, s: Ship, only: Kinds | None = None) -> list[C.Command]:
    """``s``'s part of her owner's :func:`choices` in a turn, in their order. With ``only``,
    just her commands of those types, and nothing else is worked out: a bot asks whether each
    ship may explore, and for the sampled moves (:data:`SAMPLED`) of only the one it moves."""
    return list(_ship_part(state, s, only))


def has_choice(state: SpanishMainState, s: Ship) -> bool:
    """Has ``s`` any part in her owner's :func:`choices` in a turn? Her cheaper actions are
    looked at first, and her sampled moves only as far as the first one."""
    cheap = (C.Explore, C.Repair, C.ComeAbout, C.Tow, C.Shoot)
    return any(True for _ in _ship_part(state, s, cheap)) or any(
        True for _ in _ship_part(state, s, SAMPLED)
    )


def _ship_part(state: SpanishMainState, s: Ship, only: Kinds | None) -> Iterator[C.Command]:
    if has_acted(state, s):
        acts: Iterable[C.Command] = _bonus_actions(state, s, only)
    elif must_leave(state, s) is not None:  # (SM-60: only a move that leaves)
        acts = [a for a in _ship_actions(state, s, None) if isinstance(a, _LEAVING)]
        away = _leaving_move(state, s, 0.0)  # (the one her refusals suggest)
        acts += [away] if away is not None and away not in acts else []
    else:
        first = _first_kind(state, s.id)
        acts = _ship_actions(state, s, only)
        if first is not None:
            acts = (a for a in acts if _action_kind(state, a) == first)
    return iter(acts) if only is None else (a for a in acts if isinstance(a, only))


def _wants(only: Kinds | None, *kinds: type[C.Command]) -> bool:
    """Are commands of any of ``kinds`` asked for (``None``: all are)?"""
    return only is None or any(k in only for k in kinds)


def turn_choices(
    state: SpanishMainState, seat: Seat, part: Callable[[Ship], Iterable[C.Command]]
) -> list[C.Command]:
    """:func:`choices` in ``seat``'s turn, each of its ships' part (:func:`ship_choices`) as
    ``part`` gives it (a seat's listing keeps the parts a bot asked for already), then ``end
    turn`` unless a ship must leave an enemy home first (SM-60)."""
    out: list[C.Command] = []
    for s in state.ships.values():
        if s.owner == seat:
            out.extend(part(s))
    if not any(s.owner == seat and must_leave(state, s) is not None for s in state.ships.values()):
        out.append(_END_TURN)
    return out


def free_actions(state: SpanishMainState, seat: Seat) -> list[C.Command]:
    """Free actions in your own turn: breaking a tow (SM-17); crew at a dock (SM-14, SM-61)."""
    if state.over or state.step != "turn" or state.turn != seat:
        return []
    out: list[C.Command] = [
        C.BreakTow(s.id) for s in state.ships.values() if s.owner == seat and s.towing
    ]
    out.extend(crew_moves(state, seat))
    out.extend(looks(state, seat))
    out.extend(
        C.Sacrifice(c.id, s.id)
        for s in state.ships.values()
        if s.owner == seat and _sacrifice_problem(state, s) is None
        for c in s.aboard
    )
    out.extend(
        C.Trade(s.id, t.id)
        for s in state.ships.values()
        if s.owner == seat
        for t in state.ships.values()
        if _trade_problem(state, s, t) is None
    )
    out.extend(_card_actions(state, seat))
    return out


def _card_actions(state: SpanishMainState, seat: int) -> list[C.Command]:
    """SM-60: Carbon Charlie's coins to arm with, Nemesio Diaz's abilities to cancel."""
    out: list[C.Command] = []
    for s in state.ships.values():
        if s.owner != seat:
            continue
        if _arm_problem(state, s) is None:
            out.extend(
                C.Arm(s.id, k) for k, c in enumerate(state.coins, 1) if c.place == f"home:{seat}"
            )
        if abilities.has(state, s, "cancel") and f"cancel:{s.id}" not in state.marks:
            for t in state.ships.values():
                out.extend(C.Cancel(h, s.id) for h in _cancellable(state, s, t))
    return out


def _arm_problem(state: SpanishMainState, s: Ship) -> str | None:
    """SM-60 (Carbon Charlie): why ``s`` may not turn a coin at home into a cannon now."""
    if not abilities.has(state, s, "arm"):
        return f"{s.id} has no card that turns treasure into a cannon"
    home = _home(state, s.owner)
    if home is None or s.docked != home.id:
        return f"{s.id} is not docked at your home island"
    if f"arm:{s.id}" in state.marks:
        return f"{s.id} has made a cannon this turn (once per turn)"
    return None


def _cancellable(state: SpanishMainState, s: Ship, t: Ship) -> list[str]:
    """SM-60 (Nemesio Diaz): what of ``t`` (her card, each crew aboard) ``s`` may cancel: an
    enemy ship within S of her, with an ability that plays and is not cancelled already."""
    if t.owner == s.owner or not _within_s(s, t):
        return []
    out = []
    if abilities.ability_of(t.card) is not None and not abilities.cancelled(state, t.id):
        out.append(t.id)
    for c in t.aboard:
        if abilities.ability_of(c.card) is not None and not abilities.cancelled(state, c.id):
            out.append(c.id)
    return out


def _within_s(s: Ship, t: Ship) -> bool:
    """Hull to hull within S (as the cards' "within S" is read, SM-60)."""
    return geo.segment_segment(_axis(s), _axis(t))[0] - 2 * geo.HULL_RADIUS <= geo.S + 1e-9


def _sacrifice_problem(state: SpanishMainState, s: Ship) -> str | None:
    """SM-60 (Captain Blackheart): why ``s`` may not lose a crew for an extra action now."""
    if not abilities.has(state, s, "crew_for_action"):
        return f"{s.id} has no card that trades a crew for an action"
    if f"sacrifice:{s.id}" in state.marks or s.id in state.extra:
        return f"{s.id} has an extra action this turn already"
    if abilities.crew_protected(state, s):
        return f"{s.id}'s crew cannot be eliminated (Ghost Crew) unless she sinks"
    return None


def _trade_problem(state: SpanishMainState, s: Ship, t: Ship) -> str | None:
    """SM-60 (David "Bones" Wiley): why ``s`` may not trade a coin with ``t`` now, or None."""
    if not abilities.has(state, s, "trade"):
        return f"{s.id} has no card that lets her trade coins"
    if f"trade:{s.id}" in state.marks:
        return f"{s.id} has traded this turn (once per turn)"
    if t.owner == s.owner:
        return f"{t.id} is not an enemy ship"
    if not s.cargo or not t.cargo:
        return "both ships must carry treasure to trade"
    gap = geo.segment_segment(_axis(s), _axis(t))[0] - 2 * geo.HULL_RADIUS
    if gap > geo.S + 1e-9:
        return f"{t.id} is {_fmt(gap)} away, not within S"
    return None


def looks(state: SpanishMainState, seat: int) -> list[C.Command]:
    """SM-60: the face-down coins ``seat``'s ships with a look card may see now."""
    out: list[C.Command] = []
    for s in state.ships.values():
        if s.owner != seat or f"look:{s.id}" in state.marks:
            continue
        wheres = {a.faction for a in abilities.of(state, s) if a.kind == "look"}
        for k, c in enumerate(state.coins, 1):
            where = c.place.split(":", 1)[0]
            if where in wheres and seat not in c.known:
                out.append(C.Look(s.id, k))
    return out


def crew_moves(state: SpanishMainState, seat: int) -> list[C.Command]:
    """SM-14, SM-61: every crew move open to ``seat``'s docked ships now."""
    out: list[C.Command] = []
    docked = [s for s in state.ships.values() if s.owner == seat and s.docked is not None]
    for s in docked:
        isl = state.islands[s.docked or ""]
        out.extend(C.DropOff(c.id, s.id) for c in s.aboard)
        out.extend(
            C.PickUp(c.id, s.id) for c in isl.crew if c.owner == seat and c.slots <= s.free_cargo
        )
        for o in docked:
            if o.id != s.id and o.docked == s.docked:
                out.extend(
                    C.Transfer(c.id, s.id, o.id) for c in s.aboard if c.slots <= o.free_cargo
                )
    return out


def legal(state: SpanishMainState, seat: Seat) -> list[C.Command]:
    return choices(state, seat) + free_actions(state, seat)


def default(state: SpanishMainState, seat: Seat) -> C.Command | None:
    """The safe answer to a seat's prompt (timeouts, failing bots): end the turn, pass, load
    nothing, lose the bow-most mast, take what can be taken."""
    kind = prompt_of(state, seat)
    if kind is None:
        return None
    if kind == "turn":
        return _leaving_default(state, seat) or _END_TURN
    if kind in ("after_move", "board"):
        return _PASS
    if kind == "load":
        assert state.loading is not None
        return C.Load(state.loading, ())
    opts = choices(state, seat)
    return opts[0]


def _ship_actions(state: SpanishMainState, s: Ship, only: Kinds | None) -> Iterator[C.Command]:
    """A finite sample of the ship's legal actions: moves at a few headings (any within the arcs
    are legal), toward each island and enemy, dock where reachable, come about, shoot, explore,
    repair; with ``only``, those of these types (others may come too)."""
    if _wants(only, *SAMPLED, C.ComeAbout, C.Tow) and _can_move(state, s) is None:
        if _wants(only, *SAMPLED):  # (her pin is looked for only if a move is asked for)
            yield from _sample_moves(state, s)
        if _wants(only, C.ComeAbout) and _come_about_problem(state, s) is None:
            yield C.ComeAbout(s.id)
        if _wants(only, C.Tow):
            yield from (C.Tow(s.id, t) for t in _tows_in_place(state, s))
    if _wants(only, C.Shoot) and not s.derelict:
        yield from _shoot_choices(state, s)
    if _wants(only, C.Explore) and _explore_problem(state, s) is None:
        yield C.Explore(s.id)
    if _wants(only, C.Repair) and s.masts_up < len(s.masts) and _repair_problem(state, s) is None:
        yield C.Repair(s.id)


def _repair_problem(state: SpanishMainState, s: Ship) -> str | None:
    """SM-32: repair at home; SM-60 (Shipwright): at sea or at any island."""
    if abilities.repairs_anywhere(state, s):
        return None
    home = _home(state, s.owner)
    if home is None or s.docked != home.id:
        return f"{s.id} is not docked at your home island (SM-32)"
    return None


def _bonus_actions(state: SpanishMainState, s: Ship, only: Kinds | None) -> Iterator[C.Command]:
    """What a ship that has had her action may still do, by her abilities (SM-60): shoot after
    moving, explore where she just docked, move S after unloading (``only``: as for
    :func:`_ship_actions`)."""
    if _wants(only, C.Shoot) and f"move_shoot:{s.id}" in state.marks and not s.derelict:
        yield from _shoot_choices(state, s)
    if (
        _wants(only, C.Explore)
        and f"dock_explore:{s.id}" in state.marks
        and _explore_problem(state, s) is None
    ):
        yield C.Explore(s.id)
    moves = _wants(only, *SAMPLED) and f"unload_move:{s.id}" in state.marks
    if moves and _can_move(state, s) is None:
        yield from _sample_moves(state, s)


def _shoot_choices(state: SpanishMainState, s: Ship) -> list[C.Command]:
    """SM-25: a shoot action at each enemy some cannon can reach; and, when no one target takes
    every cannon that can fire, one split action giving each cannon the first target it reaches."""
    reach: dict[str, list[int]] = {}
    for t in state.ships.values():
        if t.owner != s.owner:
            ready = [i for i, _ in _firing(state, s, t, quick=True)]
            if ready:
                reach[t.id] = ready
    out: list[C.Command] = [C.Shoot(s.id, t) for t in reach]
    every = set().union(*reach.values()) if reach else set()
    if len(reach) > 1 and all(set(r) != every for r in reach.values()):
        given: dict[str, list[int]] = {}
        for i in sorted(every):
            tid = next(t for t, r in reach.items() if i in r)
            given.setdefault(tid, []).append(i + 1)
        aims = [(t, tuple(m)) for t, m in given.items()]
        out.append(C.Shoot(s.id, aims[0][0], aims[0][1], tuple(aims[1:])))
    return out


def _sample_moves(state: SpanishMainState, s: Ship) -> Iterator[C.Command]:
    """Her sampled moves (:data:`SAMPLED`), each worked out as it is asked for (whether she has
    any needs only the first: :func:`has_choice`)."""
    length, skip = _body(state, s)
    reach = _reach(state, s, length, skip)
    legs = move_legs(s, state)
    kinds: list[C.LegKind] = ["S" if k == "S" else "L" for k in legs]
    orders = list(dict.fromkeys(itertools.permutations(kinds)))
    slides: list[tuple[float, ...]] | None = None
    for order in orders:
        dist = geo.LEG_LENGTH[order[0]]
        turns: list[float] = []
        for turn in _TURNS_1:
            if not _first_leg_blocked(s, length, turn, dist, reach):
                turns.append(turn)
                yield from _moves_turning(s, order, turn)
        if slides is None:
            slides = slide_choices(s, length, reach)
        for group in slides:  # (the coarsest turn of each that is free: whole degrees if any)
            free = (t for t in group if not _first_leg_blocked(s, length, t, dist, reach))
            slide = next(free, None)
            if slide is not None and slide not in turns:
                turns.append(slide)
                yield from _moves_turning(s, order, slide)
    total = sum(geo.LEG_LENGTH[k] for k in legs)
    for isl in state.islands.values():
        if _first_leg_toward_blocked(s, length, isl.x, isl.y, reach, legs[0]):
            continue
        yield C.MoveToward(s.id, isl.id)
        gap = math.hypot(isl.x - s.x, isl.y - s.y) - isl.r
        if gap <= total + 0.5 and may_dock(state, s, isl) and s.docked != isl.id:
            try:
                _plan_dock(state, s, isl)
            except IllegalCommand:
                continue
            yield C.MoveDock(s.id, isl.id)
    for t in state.ships.values():
        if t.owner != s.owner:
            cx, cy = _centre(t)
            if not _first_leg_toward_blocked(s, length, cx, cy, reach, legs[0]):
                yield C.MoveToward(s.id, t.id)


def _moves_turning(s: Ship, order: tuple[C.LegKind, ...], t1: float) -> Iterator[C.Move]:
    """The sampled moves whose legs run in ``order`` and whose first leg turns ``t1``."""
    first = order[0]
    if len(order) == 1:
        yield C.Move(s.id, ((first, t1, None),))
        return
    for t2 in _TURNS_2:
        rest = tuple((k, t2, None) for k in order[1:])
        yield C.Move(s.id, ((first, t1, None), *rest))


def _reach(state: SpanishMainState, s: Ship, length: float, skip: set[str]) -> geo.Waters:
    """All a first leg of ``s`` could meet. It shares the memo of all her obstacles: what a first
    leg meets is all in it, so each first leg worked out against it holds for the whole."""
    obs = obstacles(state, s, skip)
    key = ("reach", s.x, s.y, s.heading, length)
    got = obs.memo.get(key)
    if got is None:
        seg = geo.axis(s.x, s.y, s.heading, length)
        far = 1.5 * length + geo.L + 0.2  # (a turn swings her up to ~1.42 lengths, a leg <= L)
        got = obs.memo[key] = geo.Waters((ob for ob in obs if _within(ob, seg, far)), obs.memo)
    assert isinstance(got, geo.Waters)
    return got


def _within(ob: geo.Obstacle, seg: geo.Segment, far: float) -> bool:
    """Is ``ob`` at most ``far`` from a hull of axis ``seg``? What the circles holding both
    shapes put clearly farther is not measured: its gap is more than that."""
    if ob.kind != geo.EDGE:
        ax, ay, bx, by = seg
        half = math.hypot(bx - ax, by - ay) / 2 + geo.HULL_RADIUS
        dx, dy, lim = ob.mx - (ax + bx) / 2, ob.my - (ay + by) / 2, far + half + ob.rad + 1e-6
        if dx * dx + dy * dy > lim * lim:
            return False
    return ob.gap(seg) <= far


def slide_turns(s: Ship, length: float, obs: list[geo.Obstacle]) -> list[float]:
    """Every turn of :func:`slide_choices`, coarsest first within each thing she touches."""
    return [t for group in slide_choices(s, length, obs) for t in group]


def slide_choices(s: Ship, length: float, obs: list[geo.Obstacle]) -> list[tuple[float, ...]]:
    """SM-12's way out: for each thing her bow touches, the turn (within her arc) that lays her
    along it, so she slides off it; a few degrees toward it may not do. Each as a few values,
    to try in order: whole degrees (what a player is shown and types), then tenths, then the
    exact turn, each rounded away from what she touches (past the line along it, never into
    it). A whole degree nearly always does; between two things, only a finer turn may."""
    ux, uy = geo.unit(s.heading)
    cx, cy = s.x - geo.HULL_RADIUS * ux, s.y - geo.HULL_RADIUS * uy
    bow = _bow(s)
    out: list[tuple[float, ...]] = []
    for ob in obs:
        if ob.gap(bow) > geo.TOUCH:
            continue
        if ob.kind == geo.ISLAND:
            toward = geo.bearing(cx, cy, ob.a, ob.b)
        elif ob.kind == geo.SHIP:
            seg = (ob.a, ob.b, ob.c, ob.d)
            _, k = geo.point_segment(cx, cy, seg)
            toward = geo.bearing(cx, cy, ob.a + k * (ob.c - ob.a), ob.b + k * (ob.d - ob.b))
        else:
            walls = ((cx - ob.a, 270.0), (cy - ob.b, 180.0), (ob.c - cx, 90.0), (ob.d - cy, 0.0))
            toward = min(walls)[1]
        for side in (90.0, -90.0):
            exact = round(geo.turn_between(s.heading, toward + side), 6)
            # (laid along it with it to port, more turn to starboard is further from it)
            away = math.ceil if side > 0 else math.floor
            group = dict.fromkeys((float(away(exact)), away(exact * 10) / 10, exact))
            turns = tuple(t for t in group if abs(t) <= 90.0)
            if turns and all(turns != g for g in out):
                out.append(turns)
    return out


def _first_leg_blocked(
    s: Ship, length: float, turn: float, dist: float, reach: list[geo.Obstacle]
) -> bool:
    """Would a first leg go nowhere: its turn sets her down on something she does not sail
    clear of (SM-12), or a touch stops her run before MIN_RUN (SM-13, refused)? ``reach``: all
    a first leg could meet. The whole leg is sailed (a run's first contact is solved, so that
    costs little more than its first MIN_RUN): a preview or a move of it finds it remembered."""
    res, _, _, _ = geo.sail_leg(s.x, s.y, s.heading, length, s.length, turn, dist, reach)
    return res.swung or (res.hit is not None and res.ran < MIN_RUN)


def first_leg(
    state: SpanishMainState, s: Ship, turn: float, dist: float
) -> tuple[geo.LegResult, float, float, float]:
    """The first leg of a typed move of ``s`` (turn, then run ``dist``): what it meets and where
    her bow tip ends, as the move itself sails it (:func:`geo.sail_leg`). Listing the choices
    sails the first leg of every move it lists, so for those this is remembered."""
    length, skip = _body(state, s)
    reach = _reach(state, s, length, skip)
    return geo.sail_leg(s.x, s.y, s.heading, length, s.length, float(turn), dist, reach)


def aim_of(
    state: SpanishMainState, s: Ship, cmd: C.MoveToward | C.MoveDock
) -> tuple[float, float] | None:
    """Where a helper move of ``s`` aims (an island's centre, a ship's middle); None if it
    names nothing at sea (or herself)."""
    target = cmd.target if isinstance(cmd, C.MoveToward) else cmd.island
    if target == s.id or (target not in state.islands and target not in state.ships):
        return None
    return _target_point(state, s, target)


def first_leg_toward(
    state: SpanishMainState, s: Ship, aim: tuple[float, float]
) -> tuple[geo.LegResult, float, float, float] | None:
    """The first leg of a helper move of ``s`` toward ``aim`` (toward, dock) as the move sails
    it, when her turn is the one straight at it (:func:`geo.straight_on`); None when she might
    take a detour (then only the move itself tells)."""
    length, skip = _body(state, s)
    legs = _toward_legs(state, s)
    x, y, h = s.x + 0.0, s.y + 0.0, s.heading + 0.0
    near = geo.plan_near(x, y, h, length, legs, obstacles(state, s, skip))
    dist = legs[0][1]
    turn = geo.straight_on(x, y, h, length, dist, aim, near, sum(d for _, d in legs))
    if turn is None:
        return None
    return geo.sail_leg(x, y, h, length, s.length, turn, dist, near)


def _first_leg_toward_blocked(
    s: Ship, length: float, x: float, y: float, reach: list[geo.Obstacle], leg: str
) -> bool:
    """Is a helper move toward (x, y) left out of the sample? When its first leg, straight at
    it, goes nowhere. Else the move goes somewhere, whether it sails straight or takes a detour
    (:func:`geo.aim_turn`; a detour's first leg runs further than ``MIN_RUN``:
    ``geo.DETOUR_MIN_RUN``), so every listed move is legal. One whose only way is a detour is
    not listed (working detours out for every island and enemy costs too much to list them):
    typed, it sails."""
    dist = geo.LEG_LENGTH[leg]
    turn = geo.straight_at(s.x, s.y, s.heading, length, dist, (x, y), reach)
    return _first_leg_blocked(s, length, turn, dist, reach)


def _centre(s: Ship) -> tuple[float, float]:
    ax, ay, bx, by = _axis(s)
    return (ax + bx) / 2, (ay + by) / 2


def _after_options(
    state: SpanishMainState, s: Ship, after: AfterMove
) -> tuple[list[str], list[str]]:
    """SM-17, SM-18: the derelicts ``s`` may take in tow and the enemies it may ram now."""
    tows: list[str] = []
    rams: list[str] = []
    if not after.towed and s.towing is None and not s.derelict:
        hull = _axis(s)
        for t in state.ships.values():
            if (
                t.id != s.id
                and t.derelict
                and t.towed_by is None
                and t.towing is None
                and _touch(hull, _bow(t))
                and _room_astern(state, s, t)
            ):
                tows.append(t.id)
    if not after.rammed:
        for t in state.ships.values():
            if t.owner != s.owner and t.id not in after.before and bow_touches(s, t):
                rams.append(t.id)
    return tows, rams


def _takes(state: SpanishMainState, seat: int) -> list[str]:
    """SM-20: what the side of ``seat`` in the ram could take from the other side."""
    ram = state.ram
    assert ram is not None
    mine_id, theirs_id = (
        (ram.ship, ram.target) if state.ships[ram.ship].owner == seat else (ram.target, ram.ship)
    )
    if ram.winner:
        mine_id = ram.winner
        theirs_id = ram.target if ram.winner == ram.ship else ram.ship
    mine, theirs = state.ships[mine_id], state.ships[theirs_id]
    out = []
    if theirs.crew_count > 0 and not abilities.crew_protected(state, theirs):
        out.append("kill")
    if theirs.cargo and mine.free_cargo > 0:
        out.append("steal")
    return out


# --------------------------------------------------------------------------- checks


def _can_move(state: SpanishMainState, s: Ship) -> str | None:
    """Why ``s`` cannot be given a move action now, or None."""
    if has_acted(state, s) and f"unload_move:{s.id}" not in state.marks:
        return f"{s.id} has had her action this turn"
    if s.derelict and not abilities.sails_derelict(state, s):
        return f"{s.id} is derelict (no masts): she cannot move (SM-11)"
    if s.towed_by is not None:  # pragma: no cover - only derelicts are towed
        return f"{s.id} is in tow"
    pin = pinned_by(state, s)
    if pin is not None:
        return f"{s.id} is pinned: her bow is against {pin.id} until {pin.id} moves away (SM-19)"
    return None


def derelict_to_explore(state: SpanishMainState, s: Ship) -> Ship | None:
    """SM-60 (Harbinger, El Dorado, Commander Temple): a derelict she touches, that her explore
    would make hers, or None."""
    if not abilities.has(state, s, "own_derelict") or s.derelict:
        return None
    hull = _axis(s)
    for t in state.ships.values():
        if t.id != s.id and t.derelict and t.towed_by is None and _touch(hull, _axis(t)):
            return t
    return None


def _explore_problem(state: SpanishMainState, s: Ship) -> str | None:
    if derelict_to_explore(state, s) is not None and not has_acted(state, s):
        return None
    if f"dock_explore:{s.id}" in state.marks and s.docked is not None:
        isl = state.islands[s.docked]
        if isl.home is not None or not isl.coins:
            return f"{isl.id} has no treasure to explore"
        return None  # (SM-60, Explorer: dock and explore with the same move action)
    began = state.began_docked.get(s.id)
    if began is None or s.docked != began:
        return f"{s.id} did not begin this turn docked at an island (SM-30)"
    if has_acted(state, s):
        return f"{s.id} has had her action this turn"
    isl = state.islands[began]
    if isl.home is not None:
        return f"{isl.id} is a home island, not a wild one (SM-30)"
    if not isl.coins:
        return f"{isl.id} has no treasure left"
    return None


def _firing(
    state: SpanishMainState, s: Ship, t: Ship, quick: bool = False
) -> list[tuple[int, str | None]]:
    """SM-25: for each remaining mast of ``s``, None if its cannon can fire at ``t`` (in range,
    measured from the mast, with a clear line of fire), else why not. ``quick`` returns only the
    masts that can fire, and nothing as soon as ``t`` is clearly out of range."""
    tseg = _axis(t)
    longest = geo.L * abilities.range_factor(state, s)
    if quick and geo.segment_segment(_axis(s), tseg)[0] - geo.HULL_RADIUS > longest + 1e-9:
        return []
    n = len(s.masts)
    out: list[tuple[int, str | None]] = []
    blockers: list[geo.Obstacle] | None = None
    for i, m in enumerate(s.masts):
        if not abilities.cannon_stands(state, s, i):
            continue
        px, py = geo.mast_point(s.x, s.y, s.heading, s.length, i, n)
        rng = abilities.cannon_range(state, s, m.range)
        if abilities.range_immune(state, t, rng):
            if not quick:
                out.append((i, f"mast {i + 1} ({m.rank}{rng}): {t.id} cannot be hit by L"))
            continue
        reach = geo.LEG_LENGTH[rng] * abilities.range_factor(state, s)
        d = geo.hull_distance(px, py, tseg)
        if d > reach + 1e-9:
            if not quick:
                out.append((i, f"mast {i + 1} ({m.rank}{m.range}): {t.id} is {_fmt(d)} away"))
            continue
        if blockers is None:
            blockers = _blockers(state, s, t)
        blocked = _blocked(px, py, tseg, reach, blockers)
        if blocked is None:
            out.append((i, None))
        elif not quick:
            out.append((i, f"mast {i + 1} ({m.rank}{m.range}): {blocked} blocks the line of fire"))
    for k in range(abilities.muskets(state, s)):  # (SM-60, Musketeer: 3S from any mast)
        if blockers is None:
            blockers = _blockers(state, s, t)
        points = [geo.mast_point(s.x, s.y, s.heading, s.length, j, n) for j in range(n)]
        ok = any(
            geo.hull_distance(px, py, tseg) <= geo.S + 1e-9
            and _blocked(px, py, tseg, geo.S, blockers) is None
            for px, py in points
        )
        if ok:
            out.append((n + k, None))
        elif not quick:
            out.append((n + k, f"musket {n + k + 1} (3S): {t.id} is out of reach or blocked"))
    return out


def _blocked(
    px: float, py: float, tseg: geo.Segment, reach: float, blockers: list[geo.Obstacle]
) -> str | None:
    """SM-25: None if a straight line from (px, py) to one of the target's aim points within
    ``reach`` is clear, else what blocks the last one tried."""
    why: str | None = "nothing in reach"
    for qx, qy in geo.aim_points(px, py, tseg):
        if math.hypot(qx - px, qy - py) > reach + 1e-9:
            continue
        ob = geo.line_blocked(px, py, qx, qy, blockers)
        if ob is None:
            return None
        why = ob.id
    return why


def cannon_of(s: Ship, i: int) -> tuple[int, str]:
    """(rank, printed range) of cannon ``i``: a mast's, or past the masts a Musketeer's 3S."""
    if i < len(s.masts):
        return s.masts[i].rank, s.masts[i].range
    return 3, "S"


def _blockers(state: SpanishMainState, s: Ship, t: Ship) -> list[geo.Obstacle]:
    """Islands and ships (not the shooter or the target) near enough to block a line of fire."""
    sx, sy = s.x, s.y
    far = s.length + geo.L * abilities.range_factor(state, s) + 8.0
    out = [
        geo.island(i.id, i.x, i.y, i.r)
        for i in state.islands.values()
        if math.hypot(i.x - sx, i.y - sy) - i.r <= far
    ]
    if abilities.clear_line(state, s):  # (SM-60: other ships do not block her fire)
        return out
    out.extend(
        geo.hull(o.id, o.x, o.y, o.heading, o.length)
        for o in state.ships.values()
        if o.id not in (s.id, t.id) and math.hypot(o.x - sx, o.y - sy) - o.length <= far
    )
    return out


# --------------------------------------------------------------------------- apply


def apply(state: SpanishMainState, seat: Seat, cmd: C.Command) -> list[Event]:
    """Apply one command from ``seat``. Raises IllegalCommand (state unchanged) if not allowed."""
    if state.over:
        raise IllegalCommand("the game is over")
    log = _Log()
    if seat == SYSTEM:
        if not isinstance(cmd, C.Timeout):
            raise IllegalCommand("the system seat only sends 'timeout SEAT'")
        if cmd.target not in state.seats:
            raise IllegalCommand(f"no seat {cmd.target!r}; seats: {', '.join(state.seats)}")
        tseat = state.seats.index(cmd.target)
        fallback = default(state, tseat)
        if fallback is None:
            raise IllegalCommand(f"{cmd.target} has nothing to decide now")
        log.public("timeout", f"{cmd.target} ran out of time")
        _HANDLERS[type(fallback)](state, log, tseat, fallback)
        _settle(state, log)
        return log.events
    if not 0 <= seat < len(state.seats):
        raise IllegalCommand(f"seat {seat} is not at this table")
    handler = _HANDLERS.get(type(cmd))
    if handler is None:
        if isinstance(cmd, C.Timeout):
            raise IllegalCommand("only the table's timer sends 'timeout'")
        raise IllegalCommand(f"not a Spanish Main command: {cmd!r}")
    _check_same(state, cmd)
    _check_leaving(state, seat, cmd)
    handler(state, log, seat, cmd)
    _note_action(state, cmd)
    _settle(state, log)
    return log.events


_LEAVING = (C.Move, C.MoveToward, C.MoveDock)
"""The actions a raider that must leave may take (coming about, or a tow where she lies, keeps
her docked)."""

_KIND_OF: dict[type, str] = {
    C.Move: "move", C.MoveToward: "move", C.MoveDock: "move", C.ComeAbout: "move",
    C.Shoot: "shoot", C.Explore: "explore", C.Repair: "repair",
}  # fmt: skip
"""Action kinds, for "the same action twice" (SM-60)."""


def _action_kind(state: SpanishMainState, cmd: C.Command) -> str | None:
    """The kind of action ``cmd`` is, or None for an answer or a free action. A tow on the
    turn, where she lies, is her move action (SM-17); after a move it is that move's answer."""
    if isinstance(cmd, C.Tow):
        return "move" if state.step == "turn" else None
    return _KIND_OF.get(type(cmd))


def _first_kind(state: SpanishMainState, sid: str) -> str | None:
    """The kind of the first action of a ship that may take the same action twice, or None."""
    if f"same:{sid}" not in state.marks:
        return None
    did = next((m for m in state.marks if m.startswith(f"did:{sid}:")), None)
    return did.rsplit(":", 1)[1] if did is not None else None


def _check_same(state: SpanishMainState, cmd: C.Command) -> None:
    kind = _action_kind(state, cmd)
    sid = getattr(cmd, "ship", "")
    first = _first_kind(state, sid) if kind is not None else None
    if first is not None and first != kind:
        raise IllegalCommand(f"{sid}'s second action must be the same as her first: {first}")


def must_leave(state: SpanishMainState, s: Ship) -> str | None:
    """SM-60 (Shadow, Freedom, El Fantasma, Fernando Sanchez): the enemy home ``s`` must leave
    this turn, "if able" (her action not given yet, still docked there, and a move of hers runs
    her somewhere: :func:`_try_instead` finds one), or None."""
    if f"leave:{s.id}" not in state.marks or s.docked is None or has_acted(state, s):
        return None
    if state.islands[s.docked].home in (None, s.owner) or _can_move(state, s) is not None:
        return None
    return s.docked if _leaving_move(state, s, 0.0) is not None else None


def _check_leaving(state: SpanishMainState, seat: int, cmd: C.Command) -> None:
    """A raider that must leave (:func:`must_leave`) takes no other action than a move, and
    her turn does not end before she has moved."""
    if isinstance(cmd, C.EndTurn) and state.turn == seat and state.step == "turn":
        for ship in state.ships.values():
            isl = must_leave(state, ship) if ship.owner == seat else None
            if isl is not None:
                raise IllegalCommand(
                    f"{ship.id} must leave {isl} this turn (her card: if able, she must leave)"
                    f"{_try_instead(state, ship, 0.0)}"
                )
    sid = getattr(cmd, "ship", None)
    kind = _action_kind(state, cmd)
    if isinstance(cmd, _LEAVING) or kind is None or not isinstance(sid, str):
        return
    s = state.ships.get(sid)
    if s is not None and s.owner == seat and (isl := must_leave(state, s)) is not None:
        stays = "a tow where she lies keeps her there, so " if isinstance(cmd, C.Tow) else ""
        raise IllegalCommand(
            f"{s.id} must leave {isl} this turn: {stays}her action is a move that takes her away"
            f"{_try_instead(state, s, 0.0)}"
        )


def _leaving_default(state: SpanishMainState, seat: int) -> C.Command | None:
    """The safe answer to the turn of a seat with a raider that must leave: her leaving move
    (ending the turn is refused until she has moved, SM-60)."""
    for s in state.ships.values():
        if s.owner == seat and must_leave(state, s) is not None:
            return _leaving_move(state, s, 0.0)
    return None


def _note_action(state: SpanishMainState, cmd: C.Command) -> None:
    kind = _action_kind(state, cmd)
    sid = getattr(cmd, "ship", "")
    if kind is not None and f"same:{sid}" in state.marks and _first_kind(state, sid) is None:
        state.marks.append(f"did:{sid}:{kind}")


def _my_turn(state: SpanishMainState, seat: int, what: str) -> None:
    if state.step != "turn" or state.turn != seat:
        raise IllegalCommand(f"you cannot {what} now; {_waiting(state, seat)}")


def has_acted(state: SpanishMainState, s: Ship) -> bool:
    """SM-10: has ``s`` had all her actions this turn (one, or two after an extra-action roll)?"""
    return state.acted.count(s.id) >= 1 + (s.id in state.extra)


def _ready(state: SpanishMainState, s: Ship) -> None:
    if has_acted(state, s):
        raise IllegalCommand(f"{s.id} has had her action this turn (SM-10)")


# --- moves (SM-12..SM-19)


def _check_legs(
    state: SpanishMainState, s: Ship, legs: tuple[C.Leg, ...]
) -> list[tuple[float, float]]:
    base = move_legs(s, state)
    if not legs:
        raise IllegalCommand("a move needs at least one leg, e.g. 'move dover S'")
    if len(legs) > len(base):
        raise IllegalCommand(
            f"{s.id} moves {'+'.join(base)}: at most {len(base)} leg{'s' if len(base) > 1 else ''}"
        )
    left = list(base)
    out = []
    for i, (kind, turn, dist) in enumerate(legs, 1):
        if kind not in left:
            why = "towing, her base move is S" if s.towing else f"her base move is {'+'.join(base)}"
            raise IllegalCommand(f"leg {i} is {kind}, but {s.id} has no {kind} leg left ({why})")
        left.remove(kind)
        if not math.isfinite(turn) or abs(turn) > 90.0 + 1e-9:
            raise IllegalCommand(f"leg {i} turns {abs(turn):g}°, at most 90° (SM-12)")
        full = geo.LEG_LENGTH[kind]
        d = full if dist is None else dist
        if not math.isfinite(d) or d < 0:
            raise IllegalCommand(f"leg {i}: a distance is 0 or more, not {d:g}")
        if d > full + 1e-9:
            raise IllegalCommand(f"leg {i} is {kind}: at most {full:g}, not {d:g} (SM-12)")
        out.append((float(turn), min(d, full)))
    return out


def _plan(
    state: SpanishMainState,
    s: Ship,
    legs: list[tuple[float, float]],
    aim: tuple[float, float] | None = None,
) -> geo.Path:
    length, skip = _body(state, s)
    return geo.plan(s.x, s.y, s.heading, length, s.length, legs, obstacles(state, s, skip), aim=aim)


MIN_RUN = 0.05
"""A move stopped by a touch before she has run this far (it shows as 0.0) went nowhere: it is
refused, not spent (SM-13)."""


def _refuse_nowhere(
    state: SpanishMainState, s: Ship, path: geo.Path, turns: list[float] | None = None
) -> None:
    """A move that goes nowhere is refused, naming what is in the way and a move to try instead:
    a turn that would set her down on something (SM-12), a run stopped where it begins (SM-13),
    or no turn and no distance. ``turns``: the turns asked, leg by leg (typed moves)."""
    leg = path.legs[-1] if path.legs else None
    hit = path.hit
    ran = sum(g.ran for g in path.legs)
    if leg is not None and hit is not None and leg.swung and (len(path.legs) == 1 or ran < MIN_RUN):
        n = len(path.legs)
        asked = turns[n - 1] if turns else leg.turned
        which = "" if n == 1 else f" for leg {n}"
        raise IllegalCommand(
            f"{s.id} cannot turn {asked:+g}°{which} there: her {leg.part} would swing onto"
            f" {hit.id}{_way_out(state, s, turns[0] if turns else 0.0)}"
        )
    if leg is not None and hit is not None and ran < MIN_RUN:
        if hit.id in _tows_in_place(state, s):
            hint = f"; to take her in tow where she lies: 'tow {s.id} {hit.id}'"
        elif (
            s.docked is not None and leg.part == "bow" and not s.towing and not must_leave(state, s)
        ):
            hint = f"; come about first: 'come about {s.id}'"
        else:
            hint = _way_out(state, s, turns[0] if turns else 0.0)
        raise IllegalCommand(f"{s.id} cannot go that way: her {leg.part} is against {hit.id}{hint}")
    if not path.moved:
        raise IllegalCommand(f"that move does not move {s.id}: give a turn or a distance")


def _stop_text(path: geo.Path) -> str:
    """Why a move ended early, for the log and the preview: "her bow touches isla-3 after 2.1 of
    leg 1", or "turning for leg 2 would swing her stern onto dover" (SM-12, SM-13)."""
    leg, hit = path.legs[-1], path.hit
    assert hit is not None
    n = len(path.legs)
    if leg.swung:
        return f"turning for leg {n} would swing her {leg.part} onto {hit.id}"
    what = "stops short of" if hit.margin == geo.STANDOFF else "touches"
    return f"her {leg.part} {what} {hit.id} after {_fmt(leg.ran)} of leg {n}"


def _way_out(state: SpanishMainState, s: Ship, near: float) -> str:
    """:func:`_try_instead`, or when no turn takes her anywhere, coming about if she may."""
    hint = _try_instead(state, s, near)
    if not hint and _come_about_problem(state, s) is None:
        hint = f"; no turn takes her clear: 'come about {s.id}' turns her round"
    return hint


def _try_instead(state: SpanishMainState, s: Ship, near: float) -> str:
    """'; try 'move SHIP S -45'': a one-leg move that does take her somewhere, the turn nearest
    ``near`` first; or "" if none of the headings legal() lists does."""
    move = _leaving_move(state, s, near)
    if move is None:
        return ""
    ((kind, turn, _),) = move.legs
    return f"; try 'move {s.id} {kind}{f' {turn:g}' if turn else ''}'"


def _leaving_move(state: SpanishMainState, s: Ship, near: float) -> C.Move | None:
    """A one-leg move (a whole leg) that does take her somewhere, the turn nearest ``near``
    first; or None if none of the headings legal() lists does."""
    length, skip = _body(state, s)
    slides = slide_turns(s, length, obstacles(state, s, skip))
    # (whole degrees first, nearest ``near`` first: a finer turn only where none of them does)
    fine = {t: 0 if t.is_integer() else 1 if (t * 10).is_integer() else 2 for t in slides}
    for turn in sorted([*_TURNS_1, *slides], key=lambda t: (fine.get(t, 0), abs(t - near), t)):
        for kind in dict.fromkeys(move_legs(s, state)):
            path = _plan(state, s, [(turn, geo.LEG_LENGTH[kind])])
            if not path.legs[0].swung and path.legs[0].ran >= MIN_RUN:
                return C.Move(s.id, (("S" if kind == "S" else "L", turn, None),))
    return None


_Planned = tuple[Ship, geo.Path, list[str], list[float]]


def _validate_move(
    state: SpanishMainState, seat: int, cmd: C.Move | C.MoveToward | C.MoveDock
) -> _Planned:
    """Check a move and plan it, changing nothing: (ship, path, leg kinds, distances asked)."""
    _my_turn(state, seat, "move")
    s = _mine(state, seat, cmd.ship)
    why = _can_move(state, s)
    if why:
        raise IllegalCommand(why)
    if isinstance(cmd, C.Move):
        legs = _check_legs(state, s, cmd.legs)
        path = _plan(state, s, legs)
        _refuse_nowhere(state, s, path, [turn for turn, _ in legs])
        return s, path, [k for k, _, _ in cmd.legs], [d for _, d in legs]
    if isinstance(cmd, C.MoveToward):
        aim = _target_point(state, s, cmd.target)
        path = _plan(state, s, _toward_legs(state, s), aim=aim)
        _refuse_nowhere(state, s, path)
    else:
        isl = _island(state, cmd.island)
        try:
            path = _plan_dock(state, s, isl)
        except IllegalCommand as e:
            raise IllegalCommand(str(e) + _dock_advice(state, seat, s, isl)) from None
    return s, path, move_legs(s, state), [d for _, d in _toward_legs(state, s)]


def _cmd_move(
    state: SpanishMainState, log: _Log, seat: int, cmd: C.Move | C.MoveToward | C.MoveDock
) -> None:
    _sail(state, log, *_validate_move(state, seat, cmd))


def preview(
    state: SpanishMainState, seat: int, cmd: C.Move | C.MoveToward | C.MoveDock
) -> MovePreview:
    """The outcome of a move without making it; raises IllegalCommand exactly as ``apply``."""
    _, path, _, _ = _validate_move(state, seat, cmd)
    stop = _stop_text(path) if path.hit is not None else None
    return MovePreview(
        path.x,
        path.y,
        path.heading,
        tuple((leg.turned, leg.ran) for leg in path.legs),
        stop,
        path.hit.id if path.hit is not None else None,
        path.legs[-1].part if path.hit is not None else "",
    )


def _toward_legs(state: SpanishMainState, s: Ship) -> list[tuple[float, float]]:
    return [(0.0, geo.LEG_LENGTH[k]) for k in move_legs(s, state)]


def _target_point(state: SpanishMainState, s: Ship, target: str) -> tuple[float, float]:
    if target in state.islands:
        isl = state.islands[target]
        return isl.x, isl.y
    if target == s.id:
        raise IllegalCommand(f"{s.id} cannot sail toward herself")
    return _centre(_ship(state, target))


def _plan_dock(state: SpanishMainState, s: Ship, isl: Island) -> geo.Path:
    if not may_dock(state, s, isl):
        raise IllegalCommand(
            f"{isl.id} is {state.seats[isl.home or 0]}'s home: no one docks there (SM-14)"
        )
    if s.docked == isl.id:
        raise IllegalCommand(f"{s.id} is already docked at {isl.id}")
    path = _plan(state, s, _toward_legs(state, s), aim=(isl.x, isl.y))
    hit = path.hit
    if hit is not None and hit.id == isl.id and hit.kind == geo.ISLAND:
        return path
    if hit is not None:
        raise IllegalCommand(
            f"{s.id} cannot dock at {isl.id} this turn: her {path.legs[-1].part} touches"
            f" {hit.id} first"
        )
    gap = geo.point_segment(isl.x, isl.y, geo.axis(path.x, path.y, path.heading, s.length))[0]
    short = gap - geo.HULL_RADIUS - isl.r
    raise IllegalCommand(
        f"{s.id} cannot reach {isl.id} this turn: too far, her move would end {_about(short)} short"
    )


def _about(x: float) -> str:
    """A distance as a player reads it: ``about 13``, ``less than 1`` (not ``12.9``)."""
    return "less than 1" if x < 1 else f"about {round(x)}"


def _dock_advice(state: SpanishMainState, seat: int, s: Ship, isl: Island) -> str:
    """What to do instead of a dock refused for her heading or her distance (SM-14, SM-16), as
    "; ..." naming a command that is legal now, or "" (another cause, or nothing helps).

    Her heading: docked, and after coming about she would get further toward the island (she
    faces away from it): come about. Else, when she cannot start toward it at all (her turn
    sweeps her into what lies alongside): sail straight out first. Her distance: she sails
    toward it and stops short, so ``move SHIP toward ISLAND`` takes her as far."""
    if s.docked == isl.id or not may_dock(state, s, isl):
        return ""  # (refused for another cause: she is there already, or it is an enemy home)
    path = _plan(state, s, _toward_legs(state, s), aim=(isl.x, isl.y))
    if path.moved and path.hit is None:
        toward = C.MoveToward(s.id, isl.id)
        if _legal_move(state, seat, toward):
            return f"; sail closer first: 'move {s.id} toward {isl.id}', then dock next turn"
        return ""
    if path.moved and path.hit is not None and path.legs[0].ran > 0:
        return ""  # (something lies in her way out there: not her heading)
    if s.docked is not None and not s.towing and _nearer_after_coming_about(state, s, isl, path):
        return f"; she faces the wrong way: 'come about {s.id}' turns her (her action this turn)"
    kinds = move_legs(s, state)
    straight = C.Move(s.id, tuple(("S" if k == "S" else "L", 0.0, None) for k in kinds))
    if _legal_move(state, seat, straight):  # (typed as the bare kinds: 'move dover S S')
        typed = f"move {s.id} {' '.join(kinds)}"
        return f"; she cannot turn toward it here: sail clear first, e.g. '{typed}'"
    return ""


def _nearer_after_coming_about(
    state: SpanishMainState, s: Ship, isl: Island, now: geo.Path
) -> bool:
    """SM-16: would she dock at ``isl``, or end nearer it, sailing toward it once come about?"""
    length, skip = _body(state, s)
    x, y, heading = come_about_pose(s)
    legs, obs = _toward_legs(state, s), obstacles(state, s, skip)
    then = geo.plan(x, y, heading, length, s.length, legs, obs, aim=(isl.x, isl.y))
    if then.hit is not None and then.hit.id == isl.id:
        return True
    return math.hypot(then.x - isl.x, then.y - isl.y) < math.hypot(now.x - isl.x, now.y - isl.y)


def _legal_move(state: SpanishMainState, seat: int, cmd: C.Move | C.MoveToward) -> bool:
    try:
        _validate_move(state, seat, cmd)
    except IllegalCommand:
        return False
    return True


def _sail(
    state: SpanishMainState,
    log: _Log,
    s: Ship,
    path: geo.Path,
    kinds: list[str],
    wanted: list[float],
) -> None:
    """Apply a planned move, then what it triggers: dock and unload (SM-14, SM-15), the tow
    following astern (SM-17), and the free actions it opens (tow, ram)."""
    before = [t.id for t in state.ships.values() if t.owner != s.owner and bow_touches(s, t)]
    sailed = [leg for leg in path.legs if not leg.swung]
    parts = [
        f"{k} {round(leg.turned):+d}° {_fmt(leg.ran)}"  # (round: -0.3 reads +0°, not -0°)
        for k, leg in zip(kinds, sailed, strict=False)
    ]
    bonus = f"unload_move:{s.id}"
    if bonus in state.marks and has_acted(state, s):
        state.marks.remove(bonus)
        state.marks.append(f"unload_move_used:{s.id}")
    else:
        state.acted.append(s.id)
        if abilities.has(state, s, "move_shoot"):
            state.marks.append(f"move_shoot:{s.id}")
    s.x, s.y, s.heading = path.x, path.y, path.heading
    s.docked = None
    log.public("move", f"{s.id} sails " + ", ".join(parts))
    hit = path.hit
    if hit is not None:
        leg = path.legs[-1]
        short = len(path.legs) < len(kinds) or leg.ran < wanted[len(path.legs) - 1] - 1e-6
        lost = " (the rest of her move is lost)" if short else ""
        log.public("stop", f"{s.id} stops: {_stop_text(path)}{lost}")
    if s.towing:
        t = state.ships[s.towing]
        t.x, t.y, t.heading = _astern(s, t.length)
        t.docked = None
    _dock(state, log, s, hit.id if hit is not None and hit.kind == geo.ISLAND else None)
    _after_docking(state, s)
    _unload_near(state, log, s)
    _take_on_touch(state, log, s)
    state.after = AfterMove(s.id, before=before)


def _unload_near(state: SpanishMainState, log: _Log, s: Ship) -> None:
    """SM-60 (Bianco's Haulers): she unloads at her home island from within S of it."""
    home = _home(state, s.owner)
    if home is None or s.docked == home.id or not s.cargo:
        return
    if not abilities.has(state, s, "unload_near"):
        return
    gap = geo.point_segment(home.x, home.y, _axis(s))[0] - geo.HULL_RADIUS - home.r
    if gap <= geo.S + 1e-9:
        log.public("ability", f"{s.id} is within S of {home.id}: her crew unloads there")
        _unload(state, log, s, home)


def _take_on_touch(state: SpanishMainState, log: _Log, s: Ship) -> None:
    """SM-60 (La Resolucion, Skyme the Monkey, L'Aguila): after her move she takes treasure, a
    die picking each coin, from an enemy ship she touches (choice: "may" is always taken)."""
    for a in abilities.takes_on_touch(state, s):
        mark = f"take_on_touch:{s.id}"
        if a.value == 1 and mark in state.marks:
            continue
        for t in state.ships.values():
            if t.owner == s.owner or not t.cargo or s.free_cargo <= 0:
                continue
            if a.faction and abilities.faction(t) != a.faction:
                continue
            if not _touch(_axis(s), _axis(t)):
                continue
            if a.value == 1:
                state.marks.append(mark)
            taken: list[int] = []
            while t.cargo and s.free_cargo > 0 and len(taken) < a.value:
                n = len(t.cargo)
                d = roll(state, n)
                coin = t.cargo.pop(d - 1)
                s.cargo.append(coin)
                state.coins[coin - 1].place = f"ship:{s.id}"
                taken.append(coin)
                log.public("ability", f"{s.id} takes a coin from {t.id} (d{n} = {d} picks it)")
            _know(state, s.owner, taken)
            log.private("ability", f"{s.id} takes {_coin_text(state, taken)}", s.owner, t.owner)
            if a.value == 1:
                break


def _after_docking(state: SpanishMainState, s: Ship) -> None:
    """SM-60 marks a move leaves: Explorer may explore the wild island she just docked at."""
    if s.docked is None or not abilities.has(state, s, "dock_explore"):
        return
    if state.islands[s.docked].home is None:
        state.marks.append(f"dock_explore:{s.id}")


def _dock(state: SpanishMainState, log: _Log, s: Ship, first: str | None) -> None:
    """SM-14: dock at the island the ship touches (never an enemy home); SM-15: unload at home;
    SM-17: a tow docks with its tower."""
    touched = [i for i in state.islands.values() if may_dock(state, s, i) and touches_island(s, i)]
    if not touched:
        return
    touched.sort(key=lambda i: i.id != first)
    isl = touched[0]
    s.docked = isl.id
    log.public("dock", f"{s.id} docks at {isl.id}")
    _unload(state, log, s, isl)
    _raid(state, log, s, isl)
    if s.towing:
        t = state.ships[s.towing]
        t.docked = isl.id
        log.public("dock", f"{t.id}, in tow, docks at {isl.id} with {s.id}")
        _unload(state, log, t, isl)


def _raid(state: SpanishMainState, log: _Log, s: Ship, isl: Island) -> None:
    """SM-60 (Shadow, Freedom, El Fantasma, Fernando Sanchez): docked at an enemy home she loads
    one of its unloaded coins (a die picks it; its value leaves that player's gold)."""
    if isl.home is None or isl.home == s.owner:
        return
    state.raiders[s.id] = isl.id  # (if able, she must leave on her owner's next turn)
    if s.free_cargo <= 0:
        return
    there = [k + 1 for k, c in enumerate(state.coins) if c.place == f"home:{isl.home}"]
    if not there:
        log.public("ability", f"{s.id} finds no treasure at {isl.id}")
        return
    n = len(there)
    d = roll(state, n)
    coin = there[d - 1]
    state.coins[coin - 1].place = f"ship:{s.id}"
    state.gold[isl.home] -= state.coins[coin - 1].value
    s.cargo.append(coin)
    log.public(
        "ability",
        f"{s.id} loads {_coin_text(state, [coin])} at {isl.id} (d{n} = {d} picks it):"
        f" {state.seats[isl.home]} now has {state.gold[isl.home]} gold",
    )


def _unload(state: SpanishMainState, log: _Log, s: Ship, isl: Island) -> None:
    if isl.home != s.owner or not s.cargo:
        return
    coins = list(s.cargo)
    value = sum(state.coins[c - 1].value for c in coins)
    for c in coins:
        coin = state.coins[c - 1]
        coin.place = f"home:{s.owner}"
        coin.known = list(range(len(state.seats)))
    s.cargo = []
    if abilities.has(state, s, "unload_move") and f"unload_move_used:{s.id}" not in state.marks:
        state.marks.append(f"unload_move:{s.id}")
        log.public("ability", f"{s.id} may move S after unloading")
    bonus = abilities.treasure_bonus(state, s)
    if bonus:
        value += bonus
        log.public("ability", f"{s.id}'s crew makes one of her coins worth {bonus} more")
    state.gold[s.owner] += value
    log.public(
        "unload",
        f"{s.id} unloads {_coin_text(state, coins)}: {value} gold for {state.seats[s.owner]}"
        f" (now {state.gold[s.owner]})",
    )


def come_about_pose(s: Ship) -> tuple[float, float, float]:
    """SM-16: where a ship's bow tip ends when she comes about (x, y, heading)."""
    ux, uy = geo.unit(s.heading)
    x, y = round(s.x - s.length * ux, 6), round(s.y - s.length * uy, 6)
    return x, y, geo.norm_heading(round(s.heading + 180.0, 6))


def _cmd_come_about(state: SpanishMainState, log: _Log, seat: int, cmd: C.ComeAbout) -> None:
    """SM-16: the hull is a capsule, so coming about takes exactly the same water."""
    _my_turn(state, seat, "come about")
    s = _mine(state, seat, cmd.ship)
    why = _can_move(state, s) or _come_about_problem(state, s)
    if why:
        raise IllegalCommand(why)
    against = None if s.docked is not None else bow_against(state, s)
    s.x, s.y, s.heading = come_about_pose(s)
    state.acted.append(s.id)
    where = f"at {s.docked}" if s.docked is not None else f"against {against.id}" if against else ""
    log.public("come-about", f"{s.id} comes about {where}".rstrip())


def _come_about_problem(state: SpanishMainState, s: Ship) -> str | None:
    """Why ``s`` may not come about now (besides :func:`_can_move`'s reasons), or None.

    SM-16 lets a docked ship come about. This server also lets a ship whose bow is against an
    island, a ship or the sea's edge come about, to keep SM-12's promise that every sailing ship
    that is not pinned has a move: a turn about her bow can swing her hull into what lies
    alongside, so a ship boxed in by a derelict ahead and an island astern had none, for good
    (bot games, seed 9). Coming about takes exactly the water she lies in (her hull is a
    capsule), so it is never blocked, and her bow is then where her stern was."""
    if s.towing:
        return f"{s.id} is towing {s.towing}: break the tow first"
    if s.docked is None and bow_against(state, s) is None:
        return (
            f"{s.id} is not docked and her bow is against nothing: only a docked ship, or one"
            " whose bow is against an island, a ship or the sea's edge, comes about (SM-16)"
        )
    return None


def bow_against(state: SpanishMainState, s: Ship) -> geo.Obstacle | None:
    """What her bow is against (an island, a ship, the sea's edge): what stops her running
    straight ahead where she lies (SM-13), or None."""
    length, skip = _body(state, s)
    sw = geo.sweep(s.x, s.y, s.heading, length, MIN_RUN, obstacles(state, s, skip))
    return sw.hit if sw.hit is not None and sw.done < MIN_RUN else None


# --- after a move: tow and ram (SM-17, SM-18)


def _after_turn(state: SpanishMainState, seat: int, sid: str) -> tuple[Ship, AfterMove]:
    after = state.after
    if state.step != "after_move" or after is None:
        raise IllegalCommand(f"that follows a move; {_waiting(state, seat)}")
    s = state.ships[after.ship]
    if s.owner != seat:
        raise IllegalCommand(f"{_waiting(state, seat)}")
    if sid != s.id:
        raise IllegalCommand(f"only {s.id}, which just moved, may do that now")
    return s, after


def _tows_in_place(state: SpanishMainState, s: Ship) -> list[str]:
    """SM-17 with a move of no distance: the derelicts whose bow ``s`` touches where she lies
    (one she has just made derelict against her bow, say), which she may take in tow as her
    move action, without sailing (every run would take her off, or into, that bow). She must
    be free to move (SM-10, SM-19) and tow nothing yet."""
    if s.towing is not None or _can_move(state, s) is not None:
        return []
    tows, _ = _after_options(state, s, AfterMove(s.id))
    return tows


def _cmd_tow(state: SpanishMainState, log: _Log, seat: int, cmd: C.Tow) -> None:
    if state.step == "turn" and state.turn == seat:
        _tow_in_place(state, log, seat, cmd)
        return
    s, after = _after_turn(state, seat, cmd.ship)
    t = _ship(state, cmd.target)
    tows, _ = _after_options(state, s, after)
    if t.id not in tows:
        _refuse_tow(s, t, s.towing is not None or after.towed)
    after.towed = True
    _take_in_tow(state, log, s, t, f"{s.id} takes {t.id} in tow")


def _tow_in_place(state: SpanishMainState, log: _Log, seat: int, cmd: C.Tow) -> None:
    """``tow SHIP DERELICT`` on the turn: her move action, of no distance (SM-17)."""
    s = _mine(state, seat, cmd.ship)
    t = _ship(state, cmd.target)
    if t.id not in _tows_in_place(state, s):
        why = _can_move(state, s)
        if why and t.derelict:
            raise IllegalCommand(f"{why}: a tow is taken with her move")
        _refuse_tow(s, t, s.towing is not None)
    state.acted.append(s.id)
    _take_in_tow(state, log, s, t, f"{s.id} stays where she is (her move) and takes {t.id} in tow")


def _refuse_tow(s: Ship, t: Ship, towing: bool) -> NoReturn:
    if not t.derelict:
        raise IllegalCommand(f"{t.id} is not derelict: only a derelict can be towed (SM-17)")
    if towing:
        raise IllegalCommand(f"{s.id} already tows a ship: one at a time (SM-17)")
    if not _touch(_axis(s), _bow(t)):
        raise IllegalCommand(f"{s.id} does not touch {t.id}'s bow (SM-17)")
    raise IllegalCommand(f"there is no room astern of {s.id} for {t.id}")


def _take_in_tow(state: SpanishMainState, log: _Log, s: Ship, t: Ship, says: str) -> None:
    """SM-17: ``t`` joins ``s``'s fleet, with its crew and treasure, and rides astern."""
    s.towing, t.towed_by = t.id, s.id
    was = t.owner
    t.owner = s.owner
    t.x, t.y, t.heading = _astern(s, t.length)
    t.docked = s.docked
    _know(state, s.owner, t.cargo)
    joined = "" if was == s.owner else f"; {t.id} joins {state.seats[s.owner]}'s fleet"
    log.public("tow", f"{says}{joined}")  # (the tow joins, not the tower)
    if t.cargo and was != s.owner:
        log.private("tow", f"{t.id} carries {_coin_text(state, t.cargo)}", s.owner)
    if s.docked is not None:  # she docked with this move: her tow docks along (SM-17, SM-15)
        _unload(state, log, t, state.islands[s.docked])


def _cmd_break_tow(state: SpanishMainState, log: _Log, seat: int, cmd: C.BreakTow) -> None:
    _my_turn(state, seat, "break a tow")
    s = _mine(state, seat, cmd.ship)
    if s.towing is None:
        raise IllegalCommand(f"{s.id} is not towing anything")
    t = state.ships[s.towing]
    s.towing, t.towed_by = None, None
    log.public("tow", f"{s.id} casts off {t.id}")


def _cmd_ram(state: SpanishMainState, log: _Log, seat: int, cmd: C.Ram) -> None:
    s, after = _after_turn(state, seat, cmd.ship)
    t = _ship(state, cmd.target)
    _, rams = _after_options(state, s, after)
    if t.id not in rams:
        if after.rammed:
            raise IllegalCommand(f"{s.id} has rammed already")
        if t.owner == s.owner:
            raise IllegalCommand(f"{t.id} is not an enemy ship")
        if t.id in after.before:
            raise IllegalCommand(
                f"{s.id}'s bow was against {t.id} before she moved: no ram (SM-18)"
            )
        raise IllegalCommand(f"{s.id}'s bow does not touch {t.id} (SM-18)")
    after.rammed = True
    if abilities.ram_immune(state, t):
        log.public("ram", f"{s.id} rams {t.id}: ramming cannot eliminate {t.id}'s masts")
        state.ram = RamState(s.id, t.id)
        return
    d = roll(state)
    n = t.masts_up
    if d > n and n > 0:
        log.public("ram", f"{s.id} rams {t.id}: ram d6 = {d} vs {n} masts: hit")
        state.hit = Hit(t.id, f"rammed by {s.id}")
    elif d > n:
        log.public("ram", f"{s.id} rams {t.id}: ram d6 = {d} vs 0 masts: no mast to lose")
    else:
        log.public("ram", f"{s.id} rams {t.id}: ram d6 = {d} vs {n} masts: no effect")
    state.ram = RamState(s.id, t.id)


def _cmd_pass(state: SpanishMainState, log: _Log, seat: int, cmd: C.Pass) -> None:
    kind = prompt_of(state, seat)
    if kind == "after_move":
        assert state.after is not None
        log.public("pass", f"{state.after.ship} takes no further free action")
        state.after = None
    elif kind == "board":
        ram = state.ram
        assert ram is not None
        log.public("board", f"{state.seats[seat]} starts no boarding party")
        ram.offer += 1
    elif kind == "plunder":
        log.public("board", f"{state.seats[seat]} takes nothing")
        state.ram = None
    else:
        raise IllegalCommand(f"there is nothing to pass; {_waiting(state, seat)}")


# --- board (SM-20)


def _cmd_board(state: SpanishMainState, log: _Log, seat: int, cmd: C.Board) -> None:
    kind = prompt_of(state, seat)
    ram = state.ram
    if kind not in ("board", "plunder") or ram is None:
        raise IllegalCommand(f"boarding follows a ram (SM-20); {_waiting(state, seat)}")
    if cmd.take not in _takes(state, seat):
        raise IllegalCommand(_no_take(state, seat, cmd.take))
    if kind == "plunder":
        _plunder(state, log, ram.winner, cmd.take)
        state.ram = None
        return
    mine_id, theirs_id = (ram.ship, ram.target) if ram.offer == 0 else (ram.target, ram.ship)
    mine, theirs = state.ships[mine_id], state.ships[theirs_id]
    ram.offer = 2
    a, b = roll(state), roll(state)
    pa, pb = abilities.boarding_bonus(state, mine), abilities.boarding_bonus(state, theirs)
    ta, tb = a + mine.masts_up + pa, b + theirs.masts_up + pb
    xa = f" + {pa} ability" if pa else ""
    xb = f" + {pb} ability" if pb else ""
    log.public(
        "board",
        f"{mine.id} boards {theirs.id}: boarding d6 = {a} + {mine.masts_up} masts{xa} = {ta}"
        f" vs d6 = {b} + {theirs.masts_up} masts{xb} = {tb}",
    )
    if ta == tb:
        log.public("board", "a tie: nothing happens")
        state.ram = None
    elif ta > tb:
        log.public("board", f"{mine.id}'s party wins")
        _plunder(state, log, mine.id, cmd.take)
        state.ram = None
    else:
        log.public("board", f"{theirs.id}'s party wins")
        ram.winner = theirs.id


def _why_no_boarding(state: SpanishMainState, seat: int) -> str:
    """SM-20: the one line saying why ``seat`` is not offered a boarding party after a ram
    (nothing its party could take), from what every seat sees: crew and coin counts, slots."""
    ram = state.ram
    assert ram is not None
    mine, theirs = (
        (ram.ship, ram.target) if state.ships[ram.ship].owner == seat else (ram.target, ram.ship)
    )
    s, t = state.ships[mine], state.ships[theirs]
    crew = f"{t.id} has no crew" if t.crew_count == 0 else f"{t.id}'s crew cannot be harmed"
    if not t.cargo:
        why = f"{crew} and no coins aboard" if t.crew_count == 0 else f"{crew}, and no coins"
    else:
        why = f"{crew}{' aboard' if t.crew_count == 0 else ''}, and {s.id} has no free cargo slot"
    return f"{state.seats[seat]} cannot board {t.id}: {why}"


def _no_take(state: SpanishMainState, seat: int, take: str) -> str:
    if take == "kill":
        return "there is no crew aboard the other ship to eliminate"
    return "there is no treasure aboard the other ship, or no free cargo slot to put it in"


def _plunder(state: SpanishMainState, log: _Log, winner_id: str, take: str) -> None:
    ram = state.ram
    assert ram is not None
    w = state.ships[winner_id]
    loser = state.ships[ram.target if winner_id == ram.ship else ram.ship]
    if take == "kill":
        _kill_crew(state, log, loser, f"{w.id}'s party")
        return
    if not loser.cargo or w.free_cargo <= 0:  # the winner may have lost the chance: no-op
        log.public("board", f"{w.id}'s party finds nothing to steal")
        return
    n = len(loser.cargo)
    d = roll(state, n)
    coin = loser.cargo.pop(d - 1)
    w.cargo.append(coin)
    state.coins[coin - 1].place = f"ship:{w.id}"
    _know(state, w.owner, [coin])
    log.public("board", f"{w.id}'s party steals a coin from {loser.id} (d{n} = {d} picks it)")
    log.private("board", f"{w.id} steals {_coin_text(state, [coin])}", w.owner, loser.owner)


def _kill_crew(state: SpanishMainState, log: _Log, t: Ship, by: str) -> None:
    """SM-20, SM-61: one crew of ``t`` is eliminated: a crew piece (a die picks which, if more
    than one), else a plain crew. Ghost Crew aboard: none is (SM-60)."""
    if abilities.crew_protected(state, t):
        log.public("crew", f"{t.id}'s crew cannot be eliminated while she floats")
        return
    if t.aboard:
        n = len(t.aboard)
        d = roll(state, n) if n > 1 else 1
        gone = t.aboard.pop(d - 1)
        pick = f" (d{n} = {d} picks it)" if n > 1 else ""
        log.public("crew", f"{by} eliminates {gone.name} of {t.id}'s crew{pick}")
    elif t.crew > 0:
        t.crew -= 1
        log.public("crew", f"{by} eliminates one of {t.id}'s crew")


# --- eliminate (SM-18, SM-25)


def _cmd_eliminate(state: SpanishMainState, log: _Log, seat: int, cmd: C.Eliminate) -> None:
    hit = state.hit
    if prompt_of(state, seat) != "eliminate" or hit is None:
        raise IllegalCommand(f"no mast of yours is to be eliminated; {_waiting(state, seat)}")
    t = state.ships[hit.ship]
    if not 1 <= cmd.mast <= len(t.masts) or not t.masts[cmd.mast - 1].up:
        up = " ".join(str(i + 1) for i, m in enumerate(t.masts) if m.up)
        raise IllegalCommand(f"{t.id} has no mast {cmd.mast} standing; choose one of {up}")
    _eliminate(state, log, t, cmd.mast - 1)


def _eliminate(state: SpanishMainState, log: _Log, t: Ship, i: int) -> None:
    """Resolve the pending hit on ``t``: mast ``i`` goes; a card that takes two masts a hit
    leaves one more to choose."""
    hit = state.hit
    state.hit = None
    _drop_mast(state, log, t, i)
    if hit is not None and hit.more > 0 and t.id in state.ships and not t.derelict:
        state.hit = Hit(t.id, hit.why, hit.more - 1, hit.chooser)


def _drop_mast(state: SpanishMainState, log: _Log, t: Ship, i: int) -> None:
    m = t.masts[i]
    m.up = False
    log.public("mast", f"{t.id} loses mast {i + 1} ({m.rank}{m.range}); {t.masts_up} left")
    if t.derelict:
        log.public("derelict", f"{t.id} is derelict: no masts left, she cannot move")
        if t.towing:
            tow = state.ships[t.towing]
            t.towing, tow.towed_by = None, None
            log.public("tow", f"{t.id} can tow no more: {tow.id} is cast off")
        if abilities.has(state, t, "sinks_at_last"):
            _sink(state, log, t, "her last mast is gone")


def _sink(state: SpanishMainState, log: _Log, t: Ship, why: str) -> None:
    """SM-11: a derelict that is hit sinks with her cargo; SM-40: her coins are revealed and
    leave play."""
    lost = list(t.cargo)
    for c in lost:
        state.coins[c - 1].place = "lost"
        state.coins[c - 1].known = list(range(len(state.seats)))
    if t.towing:
        state.ships[t.towing].towed_by = None
    if t.towed_by:
        state.ships[t.towed_by].towing = None
    del state.ships[t.id]
    state.sunk.append(t.id)
    n = len(lost)
    cargo = f" with {n} coin{'s' if n != 1 else ''}" if n else ""
    log.public("sink", f"{t.id} sinks{cargo} ({why})")
    if lost:
        value = sum(state.coins[c - 1].value for c in lost)
        log.public(
            "sink",
            f"lost with her: {_coin_text(state, lost)}; {value} gold leaves play"
            f" ({gold_in_play(state)} still in play)",
        )


# --- shoot (SM-25)


def _cmd_shoot(state: SpanishMainState, log: _Log, seat: int, cmd: C.Shoot) -> None:
    _my_turn(state, seat, "shoot")
    s = _mine(state, seat, cmd.ship)
    mark = f"move_shoot:{s.id}"  # (SM-60: she may move and shoot with the same action)
    if mark not in state.marks:
        _ready(state, s)
    if s.derelict:
        raise IllegalCommand(f"{s.id} is derelict (no masts): she cannot shoot (SM-11)")
    salvos = _aim(state, s, [(cmd.target, cmd.masts), *cmd.also])
    if mark in state.marks:
        state.marks.remove(mark)
    else:
        state.acted.append(s.id)
    state.soak = []
    for k, salvo in enumerate(salvos):
        ready = salvo.masts
        cannons = ", ".join(f"{i + 1} ({''.join(map(str, cannon_of(s, i)))})" for i in ready)
        verb = "shoots" if k == 0 else "and"
        log.public(
            "shoot",
            f"{s.id} {verb} at {salvo.target} with cannon{'s' if len(ready) > 1 else ''} {cannons}",
        )
    first = salvos[0]
    state.volley = Volley(s.id, first.target, first.masts, salvos[1:])


def _aim(state: SpanishMainState, s: Ship, aims: list[C.Aim]) -> list[Salvo]:
    """SM-25: check each (target, masts) of a shoot action and give each its cannons, one target
    per cannon: the masts named, or every cannon that can fire at it and is named nowhere else."""
    targets = [tid for tid, _ in aims]
    for tid in targets:
        if targets.count(tid) > 1:
            raise IllegalCommand(
                f"{tid} is named twice: list all the masts for it in one 'at {tid}'"
            )
    named = [m for _, masts in aims for m in masts]
    for m in named:
        if named.count(m) > 1:
            raise IllegalCommand(f"mast {m} is listed twice: each cannon fires at one target")
    out: list[Salvo] = []
    taken = set(m - 1 for m in named)
    for tid, masts in aims:
        t = _ship(state, tid)
        if t.owner == s.owner:
            raise IllegalCommand(f"{t.id} is not an enemy ship")
        status = _firing(state, s, t)
        ready = [i for i, why in status if why is None and i not in taken]
        if masts:
            why_of = dict(status)
            for m in masts:
                musket = len(s.masts) < m <= len(s.masts) + abilities.muskets(state, s)
                real = 1 <= m <= len(s.masts) and abilities.cannon_stands(state, s, m - 1)
                if not (musket or real):
                    raise IllegalCommand(f"{s.id} has no mast {m} standing")
                if why_of.get(m - 1) is not None:
                    raise IllegalCommand(f"cannot fire {why_of[m - 1]}")
            ready = [m - 1 for m in masts]
        if not ready:
            reasons = "; ".join(why for _, why in status if why) or "no cannon"
            if any(why is None for _, why in status):
                reasons = "every cannon that can is given another target"
            raise IllegalCommand(f"no cannon of {s.id} can fire at {t.id}: {reasons}")
        taken.update(ready)
        out.append(Salvo(t.id, ready))
    return out


def _fire_next(state: SpanishMainState, log: _Log) -> None:
    v = state.volley
    assert v is not None
    s, t = state.ships.get(v.ship), state.ships.get(v.target)
    if s is None or s.derelict:  # (she lost her last mast to her own misfire)
        state.volley = None
        return
    if t is None or not v.masts:
        _next_salvo(state)
        return
    i = v.masts.pop(0)
    rank, printed = cannon_of(s, i)
    musket = i >= len(s.masts)
    if not musket and abilities.cannon_range(state, s, printed) != printed:
        printed = f"{printed}, {abilities.cannon_range(state, s, printed)} range"  # (a crew's)
    d = roll(state)
    bonus = 0 if musket else abilities.cannon_bonus(state, s, t)  # (a musket gets no bonus)
    far = not musket and _beyond_printed_range(state, s, i, t)
    if far:  # (SM-60, HMS Meresman: a doubled-range shot needs a 6)
        hit, need = d == 6, "needs a 6 at double range"
    else:
        rule = ">=" if state.options.hit_rule == "gte" else ">"
        total = d + bonus
        hit = total >= rank if state.options.hit_rule == "gte" else total > rank
        need = f"needs {rule} {rank}"
    plus = f" {bonus:+d} = {d + bonus}" if bonus and not far else ""
    log.public(
        "cannon",
        f"{s.id}'s cannon {i + 1} ({rank}{printed}) at {t.id}: d6 = {d}{plus}"
        f" {'hits' if hit else 'misses'} ({need})",
    )
    if not hit and not musket and _shoots_again(state, s):
        log.public("ability", f"{s.id}'s cannon {i + 1} shoots again (once a turn)")
        v.masts.insert(0, i)
    if not v.masts:
        _next_salvo(state)
    if abilities.misfires(state, s, d) and not musket and s.masts[i].up:
        log.public("ability", f"{s.id} rolled a 1: she loses the mast that fired")
        _drop_mast(state, log, s, i)
    if hit:
        _on_hit(state, log, s, t)


def _shoots_again(state: SpanishMainState, s: Ship) -> bool:
    """SM-60 (Cannoneer): "once per turn, one of this ship's cannons may shoot again if it
    misses": the first miss of her turn is fired again (a second chance costs nothing)."""
    if not abilities.has(state, s, "shoot_again") or f"again:{s.id}" in state.marks:
        return False
    state.marks.append(f"again:{s.id}")
    return True


def _beyond_printed_range(state: SpanishMainState, s: Ship, i: int, t: Ship) -> bool:
    """Is ``t`` beyond mast ``i``'s printed range (so only a doubled range reaches, SM-60)?"""
    if abilities.range_factor(state, s) == 1.0:
        return False
    rng = abilities.cannon_range(state, s, s.masts[i].range)
    px, py = geo.mast_point(s.x, s.y, s.heading, s.length, i, len(s.masts))
    return geo.hull_distance(px, py, _axis(t)) > geo.LEG_LENGTH[rng] + 1e-9


def _on_hit(state: SpanishMainState, log: _Log, s: Ship, t: Ship) -> None:
    """SM-25 and the on-hit abilities (SM-60): a derelict sinks; else the target may ignore
    the hit or need a second one; then a mast (two for some cards) is eliminated, chosen by
    the target's owner (or the shooter, for some cards), and the shooter's card may eliminate
    a cargo."""
    if t.derelict:
        _sink(state, log, t, f"hit by {s.id} while derelict")
        if state.volley is not None and state.volley.target == t.id:
            _next_salvo(state)
        _after_sinking(state, log, s)
        return
    if abilities.has(state, t, "ignore_first") and t.masts_up == len(t.masts):
        mark = f"ignore_first:{t.id}"
        if mark not in state.marks:
            state.marks.append(mark)
            log.public("ability", f"{t.id} ignores the first hit she takes this turn")
            return
    if abilities.has(state, t, "two_hits"):
        if t.id not in state.soak:
            state.soak.append(t.id)
            log.public(
                "ability", f"{t.id} needs a second hit from this shoot action to lose a mast"
            )
            return
        state.soak.remove(t.id)
    if abilities.has(state, s, "cargo_on_hit") and t.cargo:
        _cargo_on_hit(state, log, s, t)
    mark = f"kill_crew_on_hit:{s.id}"
    if abilities.has(state, s, "kill_crew_on_hit") and t.crew_count and mark not in state.marks:
        state.marks.append(mark)
        _kill_crew(state, log, t, f"{s.id}'s hit")
    more = min(abilities.masts_per_hit(state, s), t.masts_up) - 1
    chooser = s.owner if abilities.shooter_picks(state, s) else None
    state.hit = Hit(t.id, f"hit by {s.id}", more, chooser)


def _cargo_on_hit(state: SpanishMainState, log: _Log, s: Ship, t: Ship) -> None:
    """SM-60 (Asesino de la Nave): one of the target's coins, picked by a die, is lost."""
    once = any(a.kind == "cargo_on_hit" and a.value for a in abilities.of(state, s))
    mark = f"cargo_on_hit:{s.id}"
    if once and mark in state.marks:
        return
    if once:
        state.marks.append(mark)
    n = len(t.cargo)
    d = roll(state, n)
    coin = t.cargo.pop(d - 1)
    state.coins[coin - 1].place = "lost"
    state.coins[coin - 1].known = list(range(len(state.seats)))
    log.public(
        "ability",
        f"{s.id}'s hit eliminates a coin of {t.id}'s cargo (d{n} = {d} picks it):"
        f" {_coin_text(state, [coin])} leaves play",
    )


def _after_sinking(state: SpanishMainState, log: _Log, s: Ship) -> None:
    """SM-60 (El Ladron, HMS Gallowglass): the ship that sank another repairs one mast."""
    if not abilities.has(state, s, "repair_on_sink") or s.id not in state.ships:
        return
    down = [i for i, m in enumerate(s.masts) if not m.up]
    if down:
        s.masts[down[0]].up = True
        log.public("ability", f"{s.id} sank a ship: she repairs mast {down[0] + 1}")


def _next_salvo(state: SpanishMainState) -> None:
    """SM-25: the volley's current target is done: go on to the next of a split action."""
    v = state.volley
    assert v is not None
    if not v.later:
        state.volley = None
        return
    nxt = v.later.pop(0)
    v.target, v.masts = nxt.target, nxt.masts


# --- explore, load, repair (SM-30, SM-32)


def _cmd_explore(state: SpanishMainState, log: _Log, seat: int, cmd: C.Explore) -> None:
    _my_turn(state, seat, "explore")
    s = _mine(state, seat, cmd.ship)
    why = _explore_problem(state, s)
    if why:
        raise IllegalCommand(why)
    t = derelict_to_explore(state, s)
    if t is not None:
        state.acted.append(s.id)
        _claim_derelict(state, log, s, t)
        return
    isl = state.islands[s.docked or ""]
    mark = f"dock_explore:{s.id}"
    if mark in state.marks:
        state.marks.remove(mark)
    else:
        state.acted.append(s.id)
    _know(state, seat, isl.coins)
    n = len(isl.coins)
    log.public("explore", f"{s.id} explores {isl.id} ({n} coin{'s' if n != 1 else ''})")
    log.private("explore", f"{isl.id} holds {_coin_text(state, isl.coins)}", seat)
    state.loading = s.id


def _claim_derelict(state: SpanishMainState, log: _Log, s: Ship, t: Ship) -> None:
    """SM-60: the explored derelict is hers; both ships dock at her home island (each on a free
    spot of its shore, facing out; one that finds none stays where she is) and unload."""
    was = t.owner
    t.owner = s.owner
    if t.towing:
        state.ships[t.towing].towed_by, t.towing = None, None
    _know(state, s.owner, t.cargo)
    log.public(
        "explore", f"{s.id} explores the derelict {t.id}: she is {state.seats[s.owner]}'s now"
    )
    if t.cargo and was != s.owner:
        log.private("explore", f"{t.id} carries {_coin_text(state, t.cargo)}", s.owner)
    home = _home(state, s.owner)
    if home is None:
        return
    for ship in (s, t):
        spot = _home_spot(state, home, ship)
        if spot is None:
            continue
        ship.x, ship.y, ship.heading = spot
        ship.docked = home.id
        log.public("dock", f"{ship.id} docks at {home.id}")
        _unload(state, log, ship, home)


def _home_spot(state: SpanishMainState, home: Island, s: Ship) -> tuple[float, float, float] | None:
    """A free place for ``s`` docked at ``home``, stern touching, facing out: the first of a
    ring of bearings (from the one toward the middle of the sea) where her hull meets nothing."""
    base = geo.bearing(home.x, home.y, state.width / 2, state.height / 2)
    near = home.r + geo.CONTACT / 2
    for k in range(60):
        ang = base + (6.0 * ((k + 1) // 2)) * (1 if k % 2 else -1)
        ux, uy = geo.unit(ang)
        x, y = round(home.x + (near + s.length) * ux, 6), round(home.y + (near + s.length) * uy, 6)
        h = geo.norm_heading(round(ang, 6))
        seg = geo.axis(x, y, h, s.length)
        obs = [ob for ob in obstacles(state, s, {s.id}) if ob.id != home.id]
        if all(ob.gap(seg) >= 0.1 for ob in obs):
            return x, y, h
    return None


def _cmd_load(state: SpanishMainState, log: _Log, seat: int, cmd: C.Load) -> None:
    if prompt_of(state, seat) != "load" or state.loading is None:
        raise IllegalCommand(f"loading follows an explore (SM-30); {_waiting(state, seat)}")
    s = state.ships[state.loading]
    if cmd.ship != s.id:
        raise IllegalCommand(f"{s.id} is the ship loading now")
    isl = state.islands[s.docked or ""]
    if len(set(cmd.coins)) != len(cmd.coins):
        raise IllegalCommand("a coin is listed twice")
    for c in cmd.coins:
        if c not in isl.coins:
            raise IllegalCommand(
                f"coin {c} is not at {isl.id}; there: {' '.join(map(str, isl.coins))}"
            )
    if len(cmd.coins) > s.free_cargo:
        raise IllegalCommand(f"{s.id} has room for {s.free_cargo} coin(s), not {len(cmd.coins)}")
    if cmd.coins and len(cmd.coins) == len(isl.coins) and abilities.never_last(state, s):
        raise IllegalCommand(f"{s.id} may never load the last coin from an island; leave one")
    for c in cmd.coins:
        isl.coins.remove(c)
        s.cargo.append(c)
        state.coins[c - 1].place = f"ship:{s.id}"
    state.loading = None
    n = len(cmd.coins)
    log.public("load", f"{s.id} loads {n} coin{'s' if n != 1 else ''} at {isl.id}")
    if n:
        log.private("load", f"{s.id} loads {_coin_text(state, list(cmd.coins))}", seat)


def _cmd_repair(state: SpanishMainState, log: _Log, seat: int, cmd: C.Repair) -> None:
    _my_turn(state, seat, "repair")
    s = _mine(state, seat, cmd.ship)
    _ready(state, s)
    why = _repair_problem(state, s)
    if why:
        raise IllegalCommand(why)
    down = [i for i, m in enumerate(s.masts) if not m.up]
    if not down:
        raise IllegalCommand(f"{s.id} has all her masts")
    i = down[0]
    if cmd.mast is not None:
        if cmd.mast - 1 not in down:
            raise IllegalCommand(
                f"{s.id}'s mast {cmd.mast} is not down; down: {' '.join(str(d + 1) for d in down)}"
            )
        i = cmd.mast - 1
    state.acted.append(s.id)
    s.masts[i].up = True
    log.public("repair", f"{s.id} repairs mast {i + 1} ({s.masts[i].rank}{s.masts[i].range})")
    if s.towed_by is not None:
        tower = state.ships[s.towed_by]
        s.towed_by, tower.towing = None, None
        log.public("tow", f"{s.id} sails again: {tower.id} casts off the tow")


# --- end of turn, end of game (SM-10, SM-40, SM-41)


def _cmd_end_turn(state: SpanishMainState, log: _Log, seat: int, cmd: C.EndTurn) -> None:
    _my_turn(state, seat, "end the turn")
    log.public("turn", f"{state.seats[seat]} ends the turn")
    n = len(state.seats)
    nxt = seat
    for _ in range(n):
        nxt = (nxt + 1) % n
        if nxt == state.first:
            state.round += 1
        if any(s.owner == nxt for s in state.ships.values()):
            break
    limit = state.options.max_rounds
    if limit and state.round > limit:  # (a safety cap: the shipped bots never reach it)
        _game_over(state, log, f"{limit} rounds have been played")
        return
    start_turn(state, log, nxt)


def start_turn(state: SpanishMainState, log: _Log, seat: int) -> None:
    state.turn = seat
    state.step = "turn"
    state.acted = []
    state.after = None
    state.began_docked = {}
    state.extra, state.marks = [], []
    for s in state.ships.values():
        if s.owner == seat and s.docked is not None:
            state.began_docked[s.id] = s.docked
        if s.owner == seat and state.raiders.pop(s.id, None) == s.docked is not None:
            state.marks.append(f"leave:{s.id}")
    log.public("turn", f"round {state.round}: {state.seats[seat]}'s turn")
    _turn_rolls(state, log, seat)


def _turn_rolls(state: SpanishMainState, log: _Log, seat: int) -> None:
    """SM-60, once per turn: each ship of ``seat`` with an extra-action card rolls a d6; on a 5
    or 6 she may be given one more action this turn (rolled as the turn begins, so that a
    refused command never spends a die)."""
    for s in list(state.ships.values()):
        pin = pinned_by(state, s) if s.owner == seat else None
        if pin is not None and abilities.has(state, s, "pinned_kill") and pin.crew_count:
            _kill_crew(state, log, pin, f"{s.id}, pinned,")
    for s in state.ships.values():
        if s.owner != seat or not abilities.has(state, s, "same_twice"):
            continue
        d = roll(state)
        if d >= 5:
            state.extra.append(s.id)
            state.marks.append(f"same:{s.id}")
        got = "she may be given the same action twice" if d >= 5 else "one action"
        log.public("ability", f"{s.id}'s same-action d6 = {d}: {got}")
    for s in state.ships.values():
        if s.owner != seat or not abilities.extra_action(state, s):
            continue
        d = roll(state)
        if d >= 5:
            state.extra.append(s.id)
        got = "she may be given an extra action" if d >= 5 else "no extra action"
        log.public("ability", f"{s.id}'s extra-action d6 = {d}: {got}")


def gold_in_play(state: SpanishMainState) -> int:
    """SM-40: the gold still in play: all that was dealt (and any home at the start) less the
    coins lost, whose values were revealed as they sank."""
    return state.gold_total - sum(c.value for c in state.coins if c.place == "lost")


def _check_end(state: SpanishMainState, log: _Log) -> bool:
    """SM-40: more than half the gold still in play; every coin unloaded or lost; one fleet left
    afloat and sailing."""
    if state.over:
        return True
    if state.options.end == "half":
        in_play = gold_in_play(state)
        for seat, g in enumerate(state.gold):
            if g * 2 > in_play:
                _game_over(
                    state, log, f"{state.seats[seat]} has more than half of the gold still in play"
                )
                return True
    settled = all(c.place.startswith("home:") or c.place == "lost" for c in state.coins)
    if settled and state.coins:
        _game_over(state, log, "every coin is unloaded or lost")
        return True
    sailing = {s.owner for s in state.ships.values() if not s.derelict}
    if len(sailing) <= 1 and state.contested:
        who = state.seats[next(iter(sailing))] if sailing else "no one"
        _game_over(state, log, f"only {who} has a ship that is not derelict")
        return True
    return False


def _game_over(state: SpanishMainState, log: _Log, why: str) -> None:
    """SM-41: most gold at home wins; ties go to the larger value of ships still afloat."""
    state.over = True
    state.step = "end"
    state.end_reason = why
    state.after = state.volley = state.hit = state.ram = None
    state.loading = None
    for c in state.coins:
        c.known = list(range(len(state.seats)))
    log.public("end", f"the game is over: {why}")
    state.winners = scoring.winners(state)
    for seat in range(len(state.seats)):
        log.public(
            "score",
            f"{state.seats[seat]}: {state.gold[seat]} gold, ships afloat worth"
            f" {scoring.afloat_value(state, seat)} points",
        )
    log.public("winner", "winner: " + ", ".join(state.seats[s] for s in state.winners))


# --------------------------------------------------------------------------- the resolution loop


def _settle(state: SpanishMainState, log: _Log) -> None:
    """Resolve what needs no decision and find who decides next: a mast to choose, the next
    cannon of a volley, the boarding offers after a ram, loading, the free actions after a move,
    and otherwise the turn's player."""
    while not state.over:
        if state.hit is not None:
            t = state.ships.get(state.hit.ship)
            if t is None or t.derelict:
                state.hit = None
                continue
            up = [i for i, m in enumerate(t.masts) if m.up]
            if len(up) == 1:
                _eliminate(state, log, t, up[0])
                _check_end(state, log)
                continue
            state.step = "eliminate"
            return
        if state.volley is not None:
            _fire_next(state, log)
            _check_end(state, log)
            continue
        ram = state.ram
        if ram is not None:
            if ram.ship not in state.ships or ram.target not in state.ships:
                state.ram = None
                continue
            if ram.winner:
                if _takes(state, state.ships[ram.winner].owner):
                    state.step = "plunder"
                    return
                log.public("board", f"{ram.winner}'s party finds nothing to take")
                state.ram = None
                continue
            if ram.offer < 2:
                seat = _board_seat(state)
                if _takes(state, seat):
                    state.step = "board"
                    return
                log.public("board", _why_no_boarding(state, seat))
                ram.offer += 1
                continue
            state.ram = None
            continue
        if state.loading is not None:
            state.step = "load"
            return
        if state.after is not None:
            s = state.ships.get(state.after.ship)
            if s is not None:
                tows, rams = _after_options(state, s, state.after)
                if tows or rams:
                    state.step = "after_move"
                    return
            state.after = None
            continue
        if _check_end(state, log):
            return
        state.step = "turn"
        return


# --- crew at a dock (SM-14, SM-61)


def _docked_mine(state: SpanishMainState, seat: int, sid: str, what: str) -> Ship:
    _my_turn(state, seat, what)
    s = _mine(state, seat, sid)
    if s.docked is None:
        raise IllegalCommand(f"{s.id} is not docked: crew go ashore or aboard only at a dock")
    return s


def _crew_of(s: Ship, cid: str) -> int:
    for k, c in enumerate(s.aboard):
        if c.id == cid:
            return k
    aboard = ", ".join(c.id for c in s.aboard) or "none"
    raise IllegalCommand(f"{cid!r} is not aboard {s.id}; aboard: {aboard}")


def _room_for(s: Ship, slots: int, cid: str) -> None:
    if slots > s.free_cargo:
        raise IllegalCommand(f"{s.id} has no free cargo slot for {cid}")


def _cmd_drop_off(state: SpanishMainState, log: _Log, seat: int, cmd: C.DropOff) -> None:
    s = _docked_mine(state, seat, cmd.ship, "drop off crew")
    k = _crew_of(s, cmd.crew)
    c = s.aboard[k]
    if c.slots < 0 and s.free_cargo < -c.slots:
        raise IllegalCommand(f"{c.id} gives {s.id} a cargo slot that is in use: unload first")
    s.aboard.pop(k)
    state.islands[s.docked or ""].crew.append(c)
    log.public("crew", f"{s.id} drops off {c.name} ({c.id}) at {s.docked}")


def _cmd_pick_up(state: SpanishMainState, log: _Log, seat: int, cmd: C.PickUp) -> None:
    s = _docked_mine(state, seat, cmd.ship, "pick up crew")
    isl = state.islands[s.docked or ""]
    waiting = [c for c in isl.crew if c.owner == seat]
    c = next((c for c in waiting if c.id == cmd.crew), None)
    if c is None:
        there = ", ".join(c.id for c in waiting) or "none"
        raise IllegalCommand(
            f"no crew of yours called {cmd.crew!r} waits at {isl.id}; there: {there}"
        )
    _room_for(s, c.slots, c.id)
    isl.crew.remove(c)
    s.aboard.append(c)
    log.public("crew", f"{s.id} picks up {c.name} ({c.id}) at {isl.id}")


def _cmd_transfer(state: SpanishMainState, log: _Log, seat: int, cmd: C.Transfer) -> None:
    s = _docked_mine(state, seat, cmd.ship, "transfer crew")
    o = _mine(state, seat, cmd.to)
    if o.id == s.id or o.docked != s.docked:
        raise IllegalCommand(f"{o.id} is not docked at {s.docked} with {s.id}")
    k = _crew_of(s, cmd.crew)
    c = s.aboard[k]
    if c.slots < 0 and s.free_cargo < -c.slots:
        raise IllegalCommand(f"{c.id} gives {s.id} a cargo slot that is in use: unload first")
    _room_for(o, c.slots, c.id)
    s.aboard.pop(k)
    o.aboard.append(c)
    log.public("crew", f"{c.name} ({c.id}) moves from {s.id} to {o.id} at {s.docked}")


def _cmd_look(state: SpanishMainState, log: _Log, seat: int, cmd: C.Look) -> None:
    _my_turn(state, seat, "look at a coin")
    s = _mine(state, seat, cmd.ship)
    wheres = {a.faction for a in abilities.of(state, s) if a.kind == "look"}
    if not wheres:
        raise IllegalCommand(f"{s.id} has no card that lets her look at coins")
    if f"look:{s.id}" in state.marks:
        raise IllegalCommand(f"{s.id} has looked at a coin this turn (once per turn)")
    if not 1 <= cmd.coin <= len(state.coins):
        raise IllegalCommand(f"there is no coin {cmd.coin}; coins are 1..{len(state.coins)}")
    coin = state.coins[cmd.coin - 1]
    where = coin.place.split(":", 1)[0]
    if where not in wheres:
        on = " or ".join(f"on {'an' if w == 'island' else 'a'} {w}" for w in sorted(wheres))
        raise IllegalCommand(f"{s.id} may look only at a coin {on}; coin {cmd.coin} is not")
    if seat in coin.known:
        raise IllegalCommand(f"you know coin {cmd.coin} already: it is {coin.value}")
    state.marks.append(f"look:{s.id}")
    _know(state, seat, [cmd.coin])
    log.public("look", f"{s.id} looks at coin {cmd.coin}")
    log.private("look", f"coin {cmd.coin} is worth {coin.value}", seat)


def _cmd_sacrifice(state: SpanishMainState, log: _Log, seat: int, cmd: C.Sacrifice) -> None:
    _my_turn(state, seat, "sacrifice a crew")
    s = _mine(state, seat, cmd.ship)
    why = _sacrifice_problem(state, s)
    if why:
        raise IllegalCommand(why)
    k = _crew_of(s, cmd.crew)
    gone = s.aboard.pop(k)
    state.marks.append(f"sacrifice:{s.id}")
    state.extra.append(s.id)
    log.public("crew", f"{s.id} loses {gone.name} ({gone.id}) for an extra action this turn")


def _cmd_arm(state: SpanishMainState, log: _Log, seat: int, cmd: C.Arm) -> None:
    """SM-60 (Carbon Charlie): a coin unloaded at home leaves play (its gold with it: it is no
    longer in play, SM-40) and the ship gains a rank 3 short-range cannon until she sinks."""
    _my_turn(state, seat, "arm a ship")
    s = _mine(state, seat, cmd.ship)
    why = _arm_problem(state, s)
    if why:
        raise IllegalCommand(why)
    home = [k for k, c in enumerate(state.coins, 1) if c.place == f"home:{seat}"]
    if cmd.coin not in home:
        have = " ".join(map(str, home)) or "none"
        raise IllegalCommand(f"coin {cmd.coin} is not one of your coins at home; yours: {have}")
    coin = state.coins[cmd.coin - 1]
    coin.place = "lost"
    state.gold[seat] -= coin.value
    s.guns += 1
    state.marks.append(f"arm:{s.id}")
    n = len(s.masts) + abilities.muskets(state, s)
    log.public(
        "ability",
        f"{s.id} turns coin {cmd.coin} ({coin.value}) into cannon {n} (3S);"
        f" {state.seats[seat]} has {state.gold[seat]} gold",
    )
    _check_end(state, log)


def _cmd_cancel(state: SpanishMainState, log: _Log, seat: int, cmd: C.Cancel) -> None:
    """SM-60 (Nemesio Diaz): the ability of an enemy ship or crew within S is off until this
    turn ends (the marks are cleared as the next turn begins)."""
    _my_turn(state, seat, "cancel an ability")
    s = _mine(state, seat, cmd.ship)
    if not abilities.has(state, s, "cancel"):
        raise IllegalCommand(f"{s.id} has no card that cancels abilities")
    if f"cancel:{s.id}" in state.marks:
        raise IllegalCommand(f"{s.id} has cancelled an ability this turn (once per turn)")
    holder = next(
        (
            t
            for t in state.ships.values()
            if cmd.what == t.id or any(c.id == cmd.what for c in t.aboard)
        ),
        None,
    )
    if holder is None:
        raise IllegalCommand(f"there is no ship or crew aboard one called {cmd.what!r}")
    if cmd.what not in _cancellable(state, s, holder):
        if holder.owner == s.owner:
            raise IllegalCommand(f"{holder.id} is yours: cancel an enemy's ability")
        if not _within_s(s, holder):
            raise IllegalCommand(f"{holder.id} is not within S of {s.id}")
        raise IllegalCommand(f"{cmd.what} has no ability to cancel")
    state.marks += [f"cancel:{s.id}", abilities.CANCELLED + cmd.what]
    whose = holder.id if cmd.what == holder.id else f"{cmd.what} aboard {holder.id}"
    log.public("ability", f"{s.id} cancels the ability of {whose} until this turn ends")


def _cmd_trade(state: SpanishMainState, log: _Log, seat: int, cmd: C.Trade) -> None:
    _my_turn(state, seat, "trade")
    s = _mine(state, seat, cmd.ship)
    t = _ship(state, cmd.target)
    why = _trade_problem(state, s, t)
    if why:
        raise IllegalCommand(why)
    state.marks.append(f"trade:{s.id}")
    n, m = len(s.cargo), len(t.cargo)
    a, b = roll(state, n), roll(state, m)
    mine, theirs = s.cargo.pop(a - 1), t.cargo.pop(b - 1)
    s.cargo.append(theirs)
    t.cargo.append(mine)
    state.coins[theirs - 1].place, state.coins[mine - 1].place = f"ship:{s.id}", f"ship:{t.id}"
    _know(state, s.owner, [theirs])
    _know(state, t.owner, [mine])
    log.public("trade", f"{s.id} trades a coin with {t.id} (d{n} = {a}, d{m} = {b} pick them)")
    log.private("trade", f"{s.id} gets {_coin_text(state, [theirs])}", s.owner)
    log.private("trade", f"{t.id} gets {_coin_text(state, [mine])}", t.owner)


_HANDLERS: dict[type, Callable[[SpanishMainState, _Log, int, Any], None]] = {
    C.Move: _cmd_move,
    C.MoveToward: _cmd_move,
    C.MoveDock: _cmd_move,
    C.ComeAbout: _cmd_come_about,
    C.Shoot: _cmd_shoot,
    C.Explore: _cmd_explore,
    C.Load: _cmd_load,
    C.Repair: _cmd_repair,
    C.Tow: _cmd_tow,
    C.BreakTow: _cmd_break_tow,
    C.Ram: _cmd_ram,
    C.Board: _cmd_board,
    C.Pass: _cmd_pass,
    C.Eliminate: _cmd_eliminate,
    C.EndTurn: _cmd_end_turn,
    C.DropOff: _cmd_drop_off,
    C.PickUp: _cmd_pick_up,
    C.Transfer: _cmd_transfer,
    C.Look: _cmd_look,
    C.Trade: _cmd_trade,
    C.Sacrifice: _cmd_sacrifice,
    C.Arm: _cmd_arm,
    C.Cancel: _cmd_cancel,
}

FREE_TYPES: frozenset[type] = frozenset(
    {C.BreakTow, C.DropOff, C.PickUp, C.Transfer, C.Look, C.Trade, C.Sacrifice, C.Arm, C.Cancel}
)
