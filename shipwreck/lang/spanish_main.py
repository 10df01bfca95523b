"""Spanish Main's command text: the Lark tree -> command structs, and structs -> canonical text.

Numbers. A leg's heading change and distance are floats. The canonical text of a float is
Python's ``repr`` of it, the shortest decimal that reads back as exactly the same float, without
a trailing ``.0``: ``30``, ``-15``, ``4.5``, ``0.1``, ``0.30000000000000004``, ``1e-05``,
``1e+16`` (``repr`` writes an exponent below 1e-4 and from 1e16 on). ``-0.0`` is written ``0``.
The parser reads a number with ``float()``, which rounds correctly, so ``parse(format(c)) == c``
for every finite float, and no number's text is longer than 24 characters. The parser turns
``-0`` into ``0.0`` and refuses, with its column, a number too large for a float (``1e400``);
the formatter refuses NaN and infinities (no command holds them legally).

A leg is ``KIND TURN [DISTANCE]``; a bare ``S`` is ``S 0`` (straight ahead, the whole leg), and
the canonical text always writes the turn. ``load dover`` and ``load dover none`` both load
nothing; the canonical text is ``load dover none``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import permutations

from lark import Token, Transformer

from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.codes import ship_names
from shipwreck.games.spanish_main.setup import SEAT_NAMES
from shipwreck.games.spanish_main.view import SpanishMainView
from shipwreck.lang import registry
from shipwreck.lang.bots import spanish_main_env
from shipwreck.lang.build import builds
from shipwreck.lang.errors import BadValue
from shipwreck.lang.help import SPANISH_MAIN_SECTIONS
from shipwreck.lang.registry import Term
from shipwreck.lang.rules_text import SPANISH_MAIN_HOW_TO_WIN


def _number(tok: Token) -> float:
    value = float(str(tok)) + 0.0  # ``+ 0.0`` turns -0.0 into 0.0
    if not math.isfinite(value):
        raise BadValue(f"the number {str(tok)[:40]!r} is too large", tok.start_pos or 0)
    return value


@builds(C.Command)
class ToCommand(Transformer[Token, C.Command]):
    """Builds a command struct from a parse tree of ``grammar/spanish_main.lark``: every rule is
    named after its struct and built from its fields (:mod:`shipwreck.lang.build`), but the leg:
    a tuple of a kind and numbers, read with :func:`_number`."""

    def leg(self, a: list[Token | None]) -> C.Leg:
        kind: C.LegKind = "S" if str(a[0]).upper() == "S" else "L"
        turn = _number(a[1]) if a[1] is not None else 0.0
        dist = _number(a[2]) if a[2] is not None else None
        return (kind, turn, dist)

    def aim(self, a: list[Token | None]) -> C.Aim:
        """One more target of a split shoot action: ``at SHIP [with MAST...]``."""
        return (str(a[0]), tuple(int(str(m)) for m in a[1:] if m is not None))

    def shoot(self, a: list[Token | C.Aim | None]) -> C.Shoot:
        """``shoot SHIP at SHIP [with MAST...] [, at SHIP [with MAST...]]...`` (SM-25)."""
        also = tuple(x for x in a[2:] if isinstance(x, tuple))
        masts = tuple(int(str(m)) for m in a[2:] if m is not None and not isinstance(m, tuple))
        return C.Shoot(str(a[0]), str(a[1]), masts, also)


def format_number(x: float) -> str:
    """The canonical text of a float: its ``repr`` (the shortest decimal that reads back as
    ``x``) without a trailing ``.0`` (``30``, ``-15``, ``4.5``, ``1e-05``); ``-0.0`` is ``0``."""
    value = float(x) + 0.0  # ``+ 0.0`` turns -0.0 into 0.0
    if not math.isfinite(value):
        raise ValueError(f"no text for the number {x!r}")
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def format_leg(leg: C.Leg) -> str:
    kind, turn, dist = leg
    text = f"{kind} {format_number(turn)}"
    return text if dist is None else f"{text} {format_number(dist)}"


def _aim_text(target: str, masts: tuple[int, ...]) -> str:
    return f"at {target}" + (" with " + " ".join(map(str, masts)) if masts else "")


def format_spanish_main(cmd: C.Command) -> str:
    """The canonical text of a Spanish Main command."""
    match cmd:
        case C.Move(ship, legs):
            return " ".join(["move", ship, *(format_leg(leg) for leg in legs)])
        case C.MoveToward(ship, target):
            return f"move {ship} toward {target}"
        case C.MoveDock(ship, island):
            return f"move {ship} dock {island}"
        case C.ComeAbout(ship):
            return f"come about {ship}"
        case C.Shoot(ship, target, masts, also):
            aims = [_aim_text(target, masts), *(_aim_text(t, m) for t, m in also)]
            return f"shoot {ship} " + ", ".join(aims)
        case C.Explore(ship):
            return f"explore {ship}"
        case C.Repair(ship, mast):
            return f"repair {ship}" + (f" mast {mast}" if mast is not None else "")
        case C.EndTurn():
            return "end turn"
        case C.Load(ship, coins):
            return f"load {ship} " + (" ".join(map(str, coins)) if coins else "none")
        case C.Tow(ship, target):
            return f"tow {ship} {target}"
        case C.Ram(ship, target):
            return f"ram {ship} {target}"
        case C.Board(take):
            return f"board {take}"
        case C.Pass():
            return "pass"
        case C.Eliminate(mast):
            return f"eliminate {mast}"
        case C.BreakTow(ship):
            return f"break tow {ship}"
        case C.DropOff(crew, ship):
            return f"drop off {crew} from {ship}"
        case C.PickUp(crew, ship):
            return f"pick up {crew} with {ship}"
        case C.Transfer(crew, ship, to):
            return f"transfer {crew} from {ship} to {to}"
        case C.Look(ship, coin):
            return f"look {ship} at {coin}"
        case C.Trade(ship, target):
            return f"trade {ship} with {target}"
        case C.Sacrifice(crew, ship):
            return f"sacrifice {crew} from {ship}"
        case C.Arm(ship, coin):
            return f"arm {ship} with {coin}"
        case C.Cancel(what, ship):
            return f"cancel {what} with {ship}"
        case C.Timeout(target):
            return f"timeout {target}"
    raise TypeError(f"not a Spanish Main command: {cmd!r}")


# --------------------------------------------------------------------------- names and views


def static_names() -> dict[str, tuple[str, ...]]:
    """The names the grammar's open terminals stand for when no view is at hand: ship list ids
    and the seeded sea's island ids (what a typo is corrected to)."""
    from shipwreck.games.spanish_main.setup import GRID
    from shipwreck.games.spanish_main.ships import CARDS

    ships = tuple(CARDS)
    most = max(cols * rows for cols, rows in GRID.values())
    islands = tuple(f"isla-{k}" for k in range(1, most + 1))
    from shipwreck.games.spanish_main.ships import CREW

    crew = tuple(CREW)
    return {
        "SHIP": ships,
        "ISLAND": islands,
        "TARGET": ships + islands,
        "CREW": crew,
        "HOLDER": ships + crew,
    }


def view_names(view: SpanishMainView) -> dict[str, tuple[str, ...]]:
    """The ids in ``view``: every ship afloat (and sunk, which the engine explains), island."""
    ships = tuple(dict.fromkeys([*(s.id for s in view.ships), *view.sunk]))
    islands = tuple(i.id for i in view.islands)
    crew = tuple(
        dict.fromkeys(
            [
                *(c.id for s in view.ships for c in s.aboard),
                *(c.id for i in view.islands for c in i.crew),
            ]
        )
    )
    return {
        "SHIP": ships,
        "ISLAND": islands,
        "TARGET": ships + islands,
        "CREW": crew,
        "HOLDER": ships + crew,
    }


def view_aliases(view: SpanishMainView) -> dict[str, dict[str, str]]:
    """The other names of ships in ``view``: their codes as the map and the fleet panel show
    them (:mod:`shipwreck.games.spanish_main.codes`), wherever a ship may be named."""
    named = ship_names(view)
    return {"SHIP": named, "TARGET": named, "HOLDER": named}


# --------------------------------------------------------------------------- completion


_LEGS = frozenset({"S", "L"})
MAX_ORDERS = 120
"""At most this many orders of a load's coins are listed (5 coins: 120)."""


def legal_texts(view: SpanishMainView) -> Iterator[str]:
    """Every legal command text of ``view``'s seat now, with variants the engine does not list:
    a load's coins in any order, a repair naming the mast."""
    for cmd in (*view.choices, *view.free):
        yield format_spanish_main(cmd)
        if isinstance(cmd, C.Load) and len(cmd.coins) > 1:
            for k, order in enumerate(permutations(cmd.coins)):
                if k >= MAX_ORDERS:
                    break
                yield format_spanish_main(C.Load(cmd.ship, order))
        elif isinstance(cmd, C.Repair) and cmd.mast is None:
            ship = next((s for s in view.ships if s.id == cmd.ship), None)
            if ship is not None:
                for k, m in enumerate(ship.masts, 1):
                    if not m.up:
                        yield format_spanish_main(C.Repair(cmd.ship, k))


def is_number(word: str) -> bool:
    try:
        return math.isfinite(float(word)) and word.lstrip("+-")[:1].isdigit()
    except ValueError:
        return False


def move_words(view: SpanishMainView, words: list[str]) -> set[str]:
    """After ``move SHIP`` and some legs typed, with any numbers: the leg kinds the ship has left
    once a leg's turn is given, and the turns the engine's sample uses for a new leg's kind.

    A move is legal once its first leg moves the ship at all, so once the first leg turns the way
    a sampled one does, any further leg is legal; numbers are only offered from the sample."""
    if len(words) < 2 or words[0] != "move":
        return set()
    samples = [c for c in view.choices if isinstance(c, C.Move) and c.ship == words[1]]
    ship = next((s for s in view.ships if s.id == words[1]), None)
    if not samples or ship is None:
        return set()
    legs: list[list[str]] = []
    for w in words[2:]:
        if w.upper() in _LEGS:
            legs.append([w.upper()])
        elif legs and len(legs[-1]) < 3 and is_number(w):
            legs[-1].append(w)
        else:
            return set()
    left = list(ship.move)
    for leg in legs:
        if leg[0] not in left:
            return set()
        left.remove(leg[0])
    if not legs:
        return {c.legs[0][0] for c in samples}
    i, last = len(legs) - 1, legs[-1]
    if len(last) == 1:
        prefix = [leg[0] for leg in legs]
        return {
            format_number(c.legs[i][1])
            for c in samples
            if len(c.legs) > i and [k for k, _, _ in c.legs[: i + 1]] == prefix
        }
    if i == 0 and not _may_move(samples, last):
        return set()  # this first leg may not move the ship at all: offer nothing more
    return set(left)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _may_move(samples: list[C.Move], leg: list[str]) -> bool:
    """Does a first leg (kind, turn[, distance]) look like it moves the ship? The sample has a
    first leg of that kind turning the same way (or straight on), so nothing is against the
    ship that way; and straight on, the distance is not 0."""
    turn = float(leg[1])
    if turn == 0 and len(leg) == 3 and float(leg[2]) == 0:
        return False
    return any(c.legs[0][0] == leg[0] and _sign(c.legs[0][1]) == _sign(turn) for c in samples)


# --------------------------------------------------------------------------- hints

USEFUL_SHARE = 0.5
"""A suggested move sails at least this share of the ship's whole move (or docks)."""
MAX_TRIES = 6
"""Moves previewed per ship at most, to find one to suggest (each is a geometry plan), unless
none of them moves her at all."""
_HINTS: dict[tuple[object, ...], dict[str, str]] = {}
"""The last suggestions, by what they were worked out from (a repaint per command at a
table asks again for the same sea)."""


def _goal_islands(view: SpanishMainView, ship_id: str) -> list[str]:
    """Where a ship would want to go, best first: home when she carries coins (sail home),
    else the wild islands that still hold coins, nearest first, those another ship of mine
    has claimed this turn (:func:`_claimed`) last."""
    ship = next(s for s in view.ships if s.id == ship_id)
    home = [i for i in view.islands if i.home == ship.owner]
    if ship.cargo and home:
        return [home[0].id]
    wild = [i for i in view.islands if i.home is None and i.coins and i.id != ship.docked]
    claimed = _claimed(view, ship_id)
    wild.sort(key=lambda i: (i.id in claimed, math.hypot(i.x - ship.x, i.y - ship.y)))
    return [i.id for i in wild]


def emptied_islands(view: SpanishMainView) -> set[str]:
    """The wild islands not worth a dock to suggest: no coins left on them (all loaded or
    none dealt) and no crew of mine ashore to pick up. A hint never sends a ship there."""
    return {
        i.id
        for i in view.islands
        if i.home is None and not i.coins and all(c.owner != view.seat for c in i.crew)
    }


AHEAD = 45.0
"""An island at most this many degrees off a ship's bow is one she is heading for."""


def _claimed(view: SpanishMainView, ship_id: str) -> set[str]:
    """The wild islands my other ships have taken for themselves: where one lies docked (she
    explores there), and where one that has already moved this turn is heading (the island
    with coins most nearly ahead of her bow, within `AHEAD`), so that a second ship is not
    sent after the first."""
    out: set[str] = set()
    wild = [i for i in view.islands if i.home is None and i.coins]
    for s in view.ships:
        if s.owner != view.seat or s.id == ship_id or s.cargo:
            continue
        if s.docked is not None:
            out.add(s.docked)
            continue
        ahead = [(_off_bow(s.x, s.y, s.heading, i.x, i.y), i.id) for i in wild]
        ahead = [(off, i) for off, i in ahead if off <= AHEAD]
        if s.acted and ahead:
            out.add(min(ahead)[1])
    return out


def _off_bow(x: float, y: float, heading: float, tx: float, ty: float) -> float:
    """How many degrees (0..180) the point (tx, ty) is off a bow at (x, y) heading ``heading``
    (compass degrees: 0 north, 90 east)."""
    bearing = math.degrees(math.atan2(tx - x, ty - y))
    return abs((bearing - heading + 180.0) % 360.0 - 180.0)


def _candidates(view: SpanishMainView, ship_id: str) -> list[C.Command]:
    """Moves worth previewing for a ship, most useful first: docking where she wants to go,
    sailing toward it (whether or not the engine's sample lists them: the preview checks
    them), straight on, the engine's sampled headings, smallest turn first, then her other
    legal moves (toward another island or ship, docking elsewhere)."""
    mine = [c for c in view.choices if getattr(c, "ship", None) == ship_id]
    goals = _goal_islands(view, ship_id)[:2]
    out: list[C.Command] = []
    for goal in goals:
        for cmd in (C.MoveDock(ship_id, goal), C.MoveToward(ship_id, goal)):
            if cmd not in out:
                out.append(cmd)
    samples = [c for c in mine if isinstance(c, C.Move)]
    straight = [c for c in samples if all(turn == 0 for _, turn, _ in c.legs)]
    turning = sorted(
        (c for c in samples if c not in straight),
        key=lambda c: sum(abs(turn) for _, turn, _ in c.legs),
    )
    emptied = emptied_islands(view)
    rest = [
        c
        for c in mine
        if isinstance(c, MOVES) and c not in out and c not in samples and _target(c) not in emptied
    ]
    return out + straight + turning + rest


def _target(cmd: C.Command) -> str:
    return cmd.island if isinstance(cmd, C.MoveDock) else getattr(cmd, "target", "")


def suggested_moves(view: SpanishMainView) -> dict[str, str]:
    """For each of my ships that may move now, one legal move that takes her somewhere: the
    text of the first of :func:`_candidates` that docks or sails at least `USEFUL_SHARE` of her
    move, as the preview (from the public sea of ``view`` only) says; failing that, the one
    tried that sails furthest. A ship with none (every way is blocked) is left out. At most
    `MAX_TRIES` previews a ship (more only while none moves her), remembered per sea."""
    from shipwreck.engine.core import IllegalCommand
    from shipwreck.games.spanish_main.geometry import LEG_LENGTH
    from shipwreck.games.spanish_main.rules import preview
    from shipwreck.games.spanish_main.view import sea

    if view.seat is None or not view.choices:
        return {}
    islands = tuple((i.id, i.x, i.y, len(i.coins)) for i in view.islands)
    key = (view.seat, view.step, view.ships, islands)
    if key in _HINTS:
        return _HINTS[key]
    state = sea(view)
    out: dict[str, str] = {}
    ships = dict.fromkeys(c.ship for c in view.choices if isinstance(c, MOVES))
    for ship_id in ships:
        ship = next(s for s in view.ships if s.id == ship_id)
        whole = sum(LEG_LENGTH[k] for k in ship.move)
        furthest: tuple[float, C.Command] | None = None
        for tried, cmd in enumerate(_candidates(view, ship_id)):
            if tried >= MAX_TRIES and furthest is not None:
                break  # (past MAX_TRIES, only while nothing found moves her at all)
            assert isinstance(cmd, MOVES)
            try:
                p = preview(state, view.seat, cmd)
            except IllegalCommand:
                continue
            ran = sum(d for _, d in p.legs)
            if isinstance(cmd, C.MoveDock) or ran >= USEFUL_SHARE * whole:
                furthest = (math.inf, cmd)
                break
            if ran > 0 and (furthest is None or ran > furthest[0]):
                furthest = (ran, cmd)
        if furthest is not None:  # (else every way tried is blocked: no hint for her)
            out[ship_id] = format_spanish_main(furthest[1])
    if len(_HINTS) > 64:
        _HINTS.clear()
    _HINTS[key] = out
    return out


MOVES = (C.Move, C.MoveToward, C.MoveDock)


def names() -> tuple[str, ...]:
    """The names Spanish Main's grammar patterns stand for (in error messages)."""
    return (*SEAT_NAMES, "S", "L", "kill", "steal")


LANG = registry.register(
    registry.LangGame(
        name="spanish_main",
        to_command=ToCommand,
        command_type=C.Command,
        format=format_spanish_main,
        names=names,
        terms={
            "SHIP": Term("a ship", show=False, open=True),
            "ISLAND": Term("an island", show=False, open=True),
            "TARGET": Term("a ship or island", show=False, open=True),
            "SEAT": Term("a seat"),
            "LEG": Term("a leg"),
            "NUMBER": Term("a number", show=False),
            "INT": Term("a number", show=False),
            "TAKE": Term("what to take"),
            "CREW": Term("a crew", show=False, open=True),
            "HOLDER": Term("a ship or crew", show=False, open=True),
        },
        legal_texts=legal_texts,
        view_type=SpanishMainView,
        help=SPANISH_MAIN_SECTIONS,
        term_names=static_names,
        view_names=view_names,
        aliases=view_aliases,
        more_words=move_words,
        upper_words=_LEGS,
        any_case=True,
        how_to_win=SPANISH_MAIN_HOW_TO_WIN,
        scenario_form="'SEAT: COMMAND', e.g. 'red: move dover S 0'",
        scenario_view=True,
        tutorial="spanish_main",
        bot_env=spanish_main_env,
        bot_words={
            "REF": "ship/target/home",
            "SHIP": "a ship",
            "ISLAND": "an island",
            "TARGET": "a ship or an island",
            "LEGNUM": "a number",
            "INT": "a number",
            "LEG": "S or L",
            "TAKE": "kill or steal",
            "CREW": "a crew",
            "HOLDER": "a ship or a crew",
            "SEAT": "a seat",
        },
        bot_tokens=True,
    )
)
