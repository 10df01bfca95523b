"""Starting a Spanish Main game: the seeded sea (SM-1..SM-4), or a fixed position.

A new game places the islands, picks the homes, deals the coins face down and docks every fleet
at its home, all from the seed. A :class:`Position` fixes whatever a scenario or a test wants
(islands, ships, masts, cargo, coins, whose turn, and the next dice) and takes the rest from the
seed the same way.
"""

from __future__ import annotations

import itertools
import math
import re

import msgspec

from shipwreck.engine.core import Event
from shipwreck.engine.rng import Rng
from shipwreck.games.spanish_main import abilities, rules
from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.fleets import (
    ALL_PRESETS,
    fleet_problem,
)
from shipwreck.games.spanish_main.fleets import (
    fleet_cost as fleet_cost,
)
from shipwreck.games.spanish_main.ships import CARDS, CREW, DEFAULT_PRESETS
from shipwreck.games.spanish_main.state import (
    Coin,
    Crew,
    Island,
    Mast,
    Options,
    Ship,
    SpanishMainState,
)

SEAT_NAMES = ("red", "blue", "green", "gold")
SEA = {2: (70.0, 56.0), 3: (84.0, 63.0), 4: (98.0, 70.0)}
"""SM-1: the sea's width and height by the number of players."""
SHEET = (6, 5, 4, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4)
"""SM-3: the coin values of the first-set treasure sheets."""
ISLAND_GAP = 2 * geo.L
"""SM-2: islands' edges at least 2 L apart ..."""
ISLAND_NEAR = 4 * geo.L
"""... and each within 4 L of another."""
ISLAND_MARGIN = 2.0
"""An island keeps this much water between itself and the edge of the sea."""
ID = re.compile(r"[a-z][a-z0-9-]*")
"""What a ship or island id may be, so that commands can name it (grammar/spanish_main.lark)."""


def _check_id(where: str, given: str) -> None:
    if not ID.fullmatch(given):
        raise SetupError(
            f"{where}: {given!r} is not an id (a lowercase letter, then letters, digits or '-')"
        )


class SetupError(ValueError):
    """A table or position that cannot exist (unknown ships, overlapping hulls, …)."""


class ShipPosition(msgspec.Struct, forbid_unknown_fields=True):
    """One ship in a fixed position. A ship touching an island (not an enemy home) is docked."""

    card: str
    """The ship list id: ``dover``, ``el-picador``."""
    owner: int = 0
    x: float = 0.0
    """The bow tip."""
    y: float = 0.0
    heading: float = 0.0
    id: str | None = None
    """Defaults to the card id (with -2, -3 … when repeated)."""
    masts: int | list[int] | None = None
    """Masts standing: all (None), a count (the bow-most ones), or their numbers (1 = bow)."""
    cargo: list[int] = msgspec.field(default_factory=list)
    """Values of the coins aboard (known to the owner)."""
    crew: int | None = None
    aboard: list[str] = msgspec.field(default_factory=list)
    """Crew cards aboard (SM-61), by crew card id (``oarsman-english``)."""
    towing: str | None = None
    """A derelict (by id) this ship tows; it is placed astern."""


class IslandPosition(msgspec.Struct, forbid_unknown_fields=True):
    x: float
    y: float
    r: float = 5.0
    id: str | None = None
    """Defaults to ``isla-N`` by order."""
    home: int | None = None
    coins: list[int] = msgspec.field(default_factory=list)
    """Values of the coins there, face down."""


class Position(msgspec.Struct, forbid_unknown_fields=True):
    """A starting position (the scenario file format for ``game = "spanish_main"``)."""

    seed: int = 0
    seats: int = 2
    width: float | None = None
    height: float | None = None
    islands: list[IslandPosition] | None = None
    """None: placed from the seed (SM-2, SM-3)."""
    ships: list[ShipPosition] | None = None
    """None: the fleets of ``options`` docked at their homes (SM-4)."""
    dice: list[int] = msgspec.field(default_factory=list)
    """The next dice, used before the RNG (each 1-6; a d3 for a steal takes one too)."""
    turn: int | None = 0
    """Whose turn it is; None: rolled from the seed (a new game, SM-2)."""
    round: int = 1
    acted: list[str] = msgspec.field(default_factory=list)
    gold: list[int] = msgspec.field(default_factory=list)
    gold_total: int | None = None
    """SM-40's 'all gold'; by default every coin's value plus the gold already home."""
    options: Options = msgspec.field(default_factory=Options)
    fleet: dict[str, list[str] | str] | None = None
    """SM-4, SM-61: each seat's fleet by seat name (``red = "navy"``, a preset; or entries
    ``SHIP+CREW…``), docked at home; a seat left out takes its default preset. Only without
    ``ships``."""


def _options(options: dict[str, object] | Options | None) -> Options:
    if isinstance(options, Options):
        return options
    try:
        return msgspec.convert(options or {}, Options)
    except msgspec.ValidationError as e:
        raise SetupError(f"options: {e}") from None


def new_game(
    seed: int, seats: int = 2, options: dict[str, object] | None = None
) -> tuple[SpanishMainState, list[Event]]:
    """SM-1..SM-4: a seeded sea, homes, face-down coins and the fleets docked at home."""
    return from_position(Position(seed=seed, seats=seats, turn=None, options=_options(options)))


def from_position(pos: Position) -> tuple[SpanishMainState, list[Event]]:
    """A game from a fixed position; whatever it leaves out comes from ``pos.seed``."""
    n = pos.seats
    if n not in SEA:
        raise SetupError(f"seats: Spanish Main is for 2 to 4 players, not {n}")
    opts = _options(pos.options)
    rng = Rng.from_seed(pos.seed)
    width = pos.width or SEA[n][0]
    height = pos.height or SEA[n][1]
    if pos.fleet is not None and pos.ships is not None:
        raise SetupError(
            "fleet: [[ships]] places every ship; a [fleet] is docked at home only without them"
        )
    fleets = _fleets(opts, n, pos.fleet) if pos.ships is None else []
    if pos.islands is None:
        islands, coins, placed = _seeded_sea(rng, n, width, height, fleets, opts)
    else:
        islands, coins = _fixed_islands(pos.islands, n, width, height)
        placed = []
        if pos.ships is None:
            docked = _dock_fleets(islands, fleets, width, height, opts)
            if docked is None:
                raise SetupError("ships: the fleets do not fit around their home islands")
            placed = docked
    if pos.ships is not None:
        ships = _fixed_ships(pos.ships, n, coins, opts)
    else:
        ships = _new_ships(fleets, placed or [], opts)
    gold = list(pos.gold) or [0] * n
    if len(gold) != n:
        raise SetupError(f"gold: one number per seat ({n})")
    total = pos.gold_total
    if total is None:
        total = sum(c.value for c in coins) + sum(gold)
    for d in pos.dice:
        if not 1 <= d <= 6:
            raise SetupError(f"dice: {d} is not a die roll (1-6)")
    state = SpanishMainState(
        seed=pos.seed,
        rng=rng,
        seats=list(SEAT_NAMES[:n]),
        width=width,
        height=height,
        islands={i.id: i for i in islands},
        ships={s.id: s for s in ships},
        coins=coins,
        options=opts,
        dice=list(pos.dice),
        gold=gold,
        gold_total=total,
        round=pos.round,
    )
    _check_positions(state)
    _tows(state, pos.ships or [])
    _check_positions(state)
    for s in state.ships.values():
        s.docked = next(
            (
                i.id
                for i in state.islands.values()
                if (i.home is None or i.home == s.owner) and rules.touches_island(s, i)
            ),
            None,
        )
    state.contested = len({s.owner for s in state.ships.values() if not s.derelict}) >= 2
    log = rules._Log()
    _announce(state, log)
    if pos.turn is None:  # SM-2: the first player is rolled
        first = state.rng.below(n)
        log.public("setup", f"a d{n} picks who goes first: {state.seats[first]}")
    elif 0 <= pos.turn < n:
        first = pos.turn
    else:
        raise SetupError(f"turn: a seat 0..{n - 1}")
    state.first = first
    rules.start_turn(state, log, first)
    state.acted = list(pos.acted)
    return state, log.events


def _announce(state: SpanishMainState, log: rules._Log) -> None:
    homes = ", ".join(
        f"{i.id} is {state.seats[i.home]}'s home"
        for i in state.islands.values()
        if i.home is not None
    )
    log.public(
        "setup",
        f"a sea of {state.width:g} x {state.height:g} with {len(state.islands)} islands; {homes}",
    )
    log.public("setup", f"{state.gold_total} gold in {len(state.coins)} coins, face down")
    for seat, name in enumerate(state.seats):
        fleet = [s.id for s in state.ships.values() if s.owner == seat]
        log.public("setup", f"{name}'s fleet: {', '.join(fleet) or 'none'}")


# --------------------------------------------------------------------------- fleets (SM-4)


def _fleets(opts: Options, n: int, named: dict[str, list[str] | str] | None) -> list[list[str]]:
    """Each seat's fleet: a scenario's ``[fleet]`` (by seat name; a seat left out takes its
    default preset), else ``options.fleets``, else the default presets."""
    if named is not None:
        return _named_fleets(named, n, opts)
    chosen = opts.fleets or [[DEFAULT_PRESETS[i]] for i in range(n)]
    if len(chosen) != n:
        raise SetupError(f"options.fleets: one fleet per seat ({n}), not {len(chosen)}")
    return [_fleet(f"options.fleets[{seat}]", fleet, opts) for seat, fleet in enumerate(chosen)]


def _named_fleets(named: dict[str, list[str] | str], n: int, opts: Options) -> list[list[str]]:
    """A scenario's ``[fleet]`` table: ``red = "navy"`` (a preset) or ``blue = ["dover+explorer-
    english", "el-picador"]`` (entries)."""
    seats = list(SEAT_NAMES[:n])
    if opts.fleets is not None:
        raise SetupError("fleet: the fleets are named twice ([fleet] and options.fleets): keep one")
    for name in named:
        if name not in seats:
            raise SetupError(f"fleet.{name}: not a seat at this table ({', '.join(seats)})")
    out = []
    for seat, name in enumerate(seats):
        given = named.get(name, DEFAULT_PRESETS[seat])
        out.append(_fleet(f"fleet.{name}", [given] if isinstance(given, str) else given, opts))
    return out


def _fleet(where: str, fleet: list[str], opts: Options) -> list[str]:
    """SM-4, SM-61: one seat's fleet (entries ``SHIP+CREW…``, or one preset's name), checked:
    every ship and crew card known, crew only where it can work, within the point limit."""
    if len(fleet) == 1 and fleet[0] in ALL_PRESETS:
        ids = list(ALL_PRESETS[fleet[0]])
    else:
        ids = list(fleet)
    problem = fleet_problem(ids, opts.points, opts.abilities)
    if problem is not None:
        raise SetupError(f"{where}: {problem}")
    return ids


def _unique(card: str, taken: set[str]) -> str:
    sid, k = card, 2
    while sid in taken:
        sid, k = f"{card}-{k}", k + 1
    taken.add(sid)
    return sid


def _make_ship(
    sid: str, card_id: str, owner: int, x: float, y: float, h: float, opts: Options
) -> Ship:
    card = CARDS[card_id]
    return Ship(
        id=sid,
        card=card.id,
        name=card.name,
        owner=owner,
        points=card.points,
        masts=[Mast(rank, rng) for rank, rng in card.cannons],
        cargo_slots=card.cargo,
        move=list(card.move),
        x=round(x, 6),
        y=round(y, 6),
        heading=geo.norm_heading(round(h, 6)),
        length=geo.hull_length(card.masts),
        crew=opts.crew,
    )


def _new_ships(
    fleets: list[list[str]], placed: list[list[tuple[float, float, float]]], opts: Options
) -> list[Ship]:
    taken: set[str] = set()
    crew_ids: set[str] = set()
    out = []
    for seat, fleet in enumerate(fleets):
        for k, (entry, (x, y, h)) in enumerate(zip(fleet, placed[seat], strict=True)):
            card_id, *crew = entry.split("+")
            ship = _make_ship(_unique(card_id, taken), card_id, seat, x, y, h, opts)
            _board_crew(ship, crew, crew_ids, f"options.fleets[{seat}][{k}]", opts)
            out.append(ship)
    return out


def _board_crew(s: Ship, cards: list[str], taken: set[str], where: str, opts: Options) -> None:
    """SM-61: crew pieces start aboard, each in a cargo slot (or none, or giving one)."""
    if cards and not opts.abilities:
        raise SetupError(f"{where}: crew play only with abilities on (SM-6)")
    for cid in cards:
        if cid not in CREW:
            close = ", ".join(k for k in CREW if k.split("-")[0] == cid.split("-")[0]) or "none"
            raise SetupError(f"{where}: {cid!r} is not a crew card (close: {close})")
        card = CREW[cid]
        piece = Crew(_unique(cid, taken), cid, card.name, s.owner, abilities.crew_slots(cid))
        if piece.slots > s.free_cargo:
            raise SetupError(f"{where}: no cargo slot left aboard {s.id} for {cid}")
        s.aboard.append(piece)


def _fixed_ships(given: list[ShipPosition], n: int, coins: list[Coin], opts: Options) -> list[Ship]:
    taken: set[str] = set()
    crew_ids: set[str] = set()
    out = []
    for k, sp in enumerate(given):
        where = f"ships[{k}]"
        if sp.card not in CARDS:
            raise SetupError(f"{where}.card: {sp.card!r} is not on the ship list")
        if not 0 <= sp.owner < n:
            raise SetupError(f"{where}.owner: a seat 0..{n - 1}")
        sid = sp.id or _unique(sp.card, taken)
        if sp.id is not None:
            _check_id(f"{where}.id", sp.id)
            if sid in taken:
                raise SetupError(f"{where}.id: {sid!r} is used twice")
            taken.add(sid)
        s = _make_ship(sid, sp.card, sp.owner, sp.x, sp.y, sp.heading, opts)
        if sp.crew is not None:
            s.crew = sp.crew
        if sp.masts is not None:
            up = list(range(1, sp.masts + 1)) if isinstance(sp.masts, int) else sp.masts
            if any(not 1 <= m <= len(s.masts) for m in up) or len(up) > len(s.masts):
                raise SetupError(f"{where}.masts: {s.id} has masts 1..{len(s.masts)}")
            for i, m in enumerate(s.masts):
                m.up = (i + 1) in up
        _board_crew(s, sp.aboard, crew_ids, f"{where}.aboard", opts)
        if len(sp.cargo) > s.free_cargo:
            raise SetupError(f"{where}.cargo: {s.id} holds {s.free_cargo} coins with her crew")
        for v in sp.cargo:
            coins.append(Coin(v, [sp.owner], f"ship:{sid}"))
            s.cargo.append(len(coins))
        out.append(s)
    return out


def _tows(state: SpanishMainState, given: list[ShipPosition]) -> None:
    for k, sp in enumerate(given):
        if sp.towing is None:
            continue
        s = state.ships[sp.id or list(state.ships)[k]]
        t = state.ships.get(sp.towing)
        if t is None or not t.derelict or t.towed_by is not None:
            raise SetupError(f"ships[{k}].towing: {sp.towing!r} is not a free derelict")
        s.towing, t.towed_by, t.owner = t.id, s.id, s.owner
        t.x, t.y, t.heading = rules._astern(s, t.length)


# --------------------------------------------------------------------------- the sea (SM-1..SM-3)


def _uniform(rng: Rng, a: float, b: float) -> float:
    return a + (b - a) * rng.below(1_000_001) / 1_000_000


def _seeded_sea(
    rng: Rng, n: int, width: float, height: float, fleets: list[list[str]], opts: Options
) -> tuple[list[Island], list[Coin], list[list[tuple[float, float, float]]]]:
    for _attempt in range(500):
        spots = _place_islands(rng, 3 * n, width, height)
        if spots is None:
            continue
        islands = [Island(f"isla-{k + 1}", x, y, r) for k, (x, y, r) in enumerate(spots)]
        values = _draw_values(rng, n)
        homes = _pick_homes(islands, values, n)
        rng.shuffle(homes)
        for seat, k in enumerate(homes):
            islands[k].home = seat
        placed = _dock_fleets(islands, fleets, width, height, opts) if fleets else []
        if placed is None:
            continue
        return islands, _deal(islands, values), placed
    raise SetupError("could not place the islands")  # pragma: no cover - never seen


GRID = {2: (3, 2), 3: (3, 3), 4: (4, 3)}
"""Islands sit near the points of a jittered grid (columns, rows) by the number of players: at
SM-2's spacing (2 L between edges, radius up to 6) the islands nearly fill the sea, so a grid is
what fits them all."""


def _place_islands(
    rng: Rng, count: int, width: float, height: float
) -> list[tuple[float, float, float]] | None:
    """SM-2: radius 4-6, edges at least 2 L apart and each within 4 L of another."""
    cols, rows = GRID[count // 3]
    x0, sx, jx = _spread(rng, width, cols)
    y0, sy, jy = _spread(rng, height, rows)
    spots: list[tuple[float, float, float]] = []
    for row in range(rows):
        for col in range(cols):
            x = round(x0 + col * sx + _uniform(rng, -jx, jx), 3)
            y = round(y0 + row * sy + _uniform(rng, -jy, jy), 3)
            room = min(
                [x - ISLAND_MARGIN, width - ISLAND_MARGIN - x, y - ISLAND_MARGIN]
                + [height - ISLAND_MARGIN - y, 6.0]
                + [math.hypot(x - px, y - py) - pr - ISLAND_GAP for px, py, pr in spots]
            )
            r = min(4.0 + rng.below(201) / 100, math.floor(room * 100) / 100)
            if r < 4.0:
                return None
            spots.append((x, y, r))
    for k, (x, y, r) in enumerate(spots):
        gaps = [
            math.hypot(x - px, y - py) - r - pr for j, (px, py, pr) in enumerate(spots) if j != k
        ]
        if min(gaps) < ISLAND_GAP or min(gaps) > ISLAND_NEAR:  # pragma: no cover - by design
            return None
    return spots


def _spread(rng: Rng, size: float, n: int) -> tuple[float, float, float]:
    """(first, spacing, jitter) of n grid lines across ``size``: spacing 27-31 where it fits,
    jitter up to 1.5, always leaving room for radius-4 islands 2 L apart and off the edge."""
    want = _uniform(rng, 27.0, 31.0)
    for j in (1.5, 1.0, 0.5, 0.0):
        m = ISLAND_MARGIN + 4.0 + j
        s = min(want, (size - 2 * m) / (n - 1))
        if s - 2 * j >= 24.0:
            break
    return _uniform(rng, m, size - m - s * (n - 1)), s, j


def _draw_values(rng: Rng, n: int) -> list[int]:
    """SM-3: the 6 coin values per player, drawn from the sheets in the order they are dealt."""
    pool = list(SHEET) * math.ceil(6 * n / len(SHEET))
    rng.shuffle(pool)
    return pool[: 6 * n]


def _edge_gap(a: Island, b: Island) -> float:
    return math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r


def _access(islands: list[Island], values: list[int], homes: tuple[int, ...]) -> list[float]:
    """SM-2: each home's treasure access: every wild island's gold (as :func:`_deal` would put
    it there), shared among the homes by nearness (a share of 1/distance each, distances
    edge to edge plus an L, the way out and back)."""
    wild = [k for k in range(len(islands)) if k not in homes]
    gold = dict.fromkeys(wild, 0)
    for j, v in enumerate(values):
        gold[wild[j % len(wild)]] += v
    out = [0.0] * len(homes)
    for w in wild:
        near = [1.0 / (_edge_gap(islands[h], islands[w]) + geo.L) for h in homes]
        total = sum(near)
        for i, x in enumerate(near):
            out[i] += gold[w] * x / total
    return out


HOME_SLACK = 0.02
"""Home sets within this share of the gold of the most equal one count as equal (SM-2)."""


def _pick_homes(islands: list[Island], values: list[int], n: int) -> list[int]:
    """SM-2: the set of homes that makes every player's treasure access (:func:`_access`) as
    equal as the map allows; among sets about as equal, the one whose homes lie farthest apart
    (what players choosing homes for one another do). Seats are then given the homes at random
    by the caller: the set is fair to all, so no seat is favoured."""
    total = sum(values)
    scored = []
    for homes in itertools.combinations(range(len(islands)), n):
        acc = _access(islands, values, homes)
        apart = min(_edge_gap(islands[a], islands[b]) for a, b in itertools.combinations(homes, 2))
        scored.append(((max(acc) - min(acc)) / total, -apart, homes))
    best = min(s[0] for s in scored)
    fair = [s for s in scored if s[0] <= best + HOME_SLACK]
    return list(min(fair, key=lambda s: (s[1], s[0]))[2])


def _deal(islands: list[Island], values: list[int]) -> list[Coin]:
    """SM-3: the coins, face down, evenly over the wild islands (in island order)."""
    wild = [i for i in islands if i.home is None]
    coins = []
    for k, v in enumerate(values):
        isl = wild[k % len(wild)]
        coins.append(Coin(v, [], f"island:{isl.id}"))
        isl.coins.append(len(coins))
    return coins


def _fixed_islands(
    given: list[IslandPosition], n: int, width: float, height: float
) -> tuple[list[Island], list[Coin]]:
    islands, coins = [], []
    for k, ip in enumerate(given):
        iid = ip.id or f"isla-{k + 1}"
        _check_id(f"islands[{k}].id", iid)
        if ip.home is not None and not 0 <= ip.home < n:
            raise SetupError(f"islands[{k}].home: a seat 0..{n - 1}")
        if not (ip.r > 0 and ip.r <= ip.x <= width - ip.r and ip.r <= ip.y <= height - ip.r):
            raise SetupError(f"islands[{k}]: {iid} is not inside the sea")
        isl = Island(iid, ip.x, ip.y, ip.r, ip.home)
        for v in ip.coins:
            coins.append(Coin(v, [], f"island:{iid}"))
            isl.coins.append(len(coins))
        islands.append(isl)
    if len({i.id for i in islands}) != len(islands):
        raise SetupError("islands: an id is used twice")
    return islands, coins


def _dock_fleets(
    islands: list[Island],
    fleets: list[list[str]],
    width: float,
    height: float,
    opts: Options,
) -> list[list[tuple[float, float, float]]] | None:
    """SM-4: each fleet docked at its home, facing out (stern touching) or bow in, spread around
    the side of the island that looks toward the middle of the sea."""
    out = []
    taken: list[geo.Segment] = []
    for seat, fleet in enumerate(fleets):
        home = next((i for i in islands if i.home == seat), None)
        if home is None:
            raise SetupError(f"islands: seat {seat} has no home island")
        base = geo.bearing(home.x, home.y, width / 2, height / 2)
        angles = [
            base + sign * 6.0 * k for k in range(31) for sign in ((1,) if k == 0 else (1, -1))
        ]
        spots = []
        for card_id in fleet:
            length = geo.hull_length(CARDS[card_id.split("+")[0]].masts)
            for ang in angles:
                ux, uy = geo.unit(ang)
                near = home.r + geo.CONTACT / 2
                if opts.start == "out":
                    x, y, h = home.x + (near + length) * ux, home.y + (near + length) * uy, ang
                else:
                    x, y, h = home.x + near * ux, home.y + near * uy, ang + 180.0
                x, y, h = round(x, 6), round(y, 6), geo.norm_heading(round(h, 6))
                seg = geo.axis(x, y, h, length)
                if geo.edge(width, height).gap(seg) < 0.5:
                    continue
                if any(
                    geo.island(i.id, i.x, i.y, i.r).gap(seg) < 0.5 for i in islands if i is not home
                ):
                    continue
                if any(geo.segment_segment(seg, o)[0] - 2 * geo.HULL_RADIUS < 0.3 for o in taken):
                    continue
                taken.append(seg)
                spots.append((x, y, h))
                angles.remove(ang)
                break
            else:
                return None
        out.append(spots)
    return out


def _check_positions(state: SpanishMainState) -> None:
    """No hull may overlap an island, another hull, or the edge."""
    for s in state.ships.values():
        seg = rules._axis(s)
        tow = {s.towing} if s.towing else {s.towed_by} if s.towed_by else set()
        for ob in rules.obstacles(state, s, {s.id} | tow):
            if ob.gap(seg) < -1e-6:
                raise SetupError(f"ships: {s.id} overlaps {ob.id}")
