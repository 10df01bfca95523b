"""Rich renderables for a Spanish Main table, made from one seat's view and nothing else.

Pure functions (view in, renderable out) so the screen stays thin and snapshots stay stable.

The map is drawn in braille: every terminal cell holds 2 x 4 dots, and a cell is about twice as
tall as it is wide, so the dots are square and one scale serves both axes. Each shape (island
disc, home ring, hull capsule, move track, preview ghost) is rasterised dot by dot with the
game's own geometry (:mod:`shipwreck.games.spanish_main.geometry`); a cell takes the colour of
the highest layer that drew in it, and only that layer's dots, so a docked hull keeps its exact
outline against its island. Text (island names, coins, ship codes, bow arrows) is laid on top.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Sequence

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from shipwreck.engine.core import Event
from shipwreck.games.spanish_main import commands as C
from shipwreck.games.spanish_main.codes import ship_codes, short_codes
from shipwreck.games.spanish_main.geometry import HULL_RADIUS, LEG_LENGTH, axis, point_segment
from shipwreck.games.spanish_main.previews import MovePreview
from shipwreck.games.spanish_main.ships import CARDS, CREW
from shipwreck.games.spanish_main.view import CoinView, ShipView, SpanishMainView
from shipwreck.lang import format_command
from shipwreck.lang.spanish_main import emptied_islands
from shipwreck.tui.packed import Packed
from shipwreck.tui.standings import ToWidth
from shipwreck.tui.title import Part, part, table_title

OWNER = ("#ff5f5f", "#5fafff", "#5fd75f", "#ffd75f")
"""Seat colours, in seat order (red, blue, green, gold)."""
OWNER_DIM = ("#a04848", "#3f6f99", "#3f8a3f", "#99873f")
"""Home rings and derelicts' codes: the owner's colour, darker."""
DERELICT = "#8a8a8a"
SEA = "#0b2239"
ISLAND = "#b89b64"
ISLAND_TEXT = f"bold #20180a on {ISLAND}"
GHOST = "#ffffff"
TRACK = "#c8c8c8"
ARROWS = "↑↗→↘↓↙←↖"

_ISLAND, _RING, _TRACK, _SHIP, _GHOST = 1, 2, 3, 4, 5
"""Map layers, lowest first."""
_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""The braille dot bit for (row 0..3, column 0..1) of a cell."""

PROMPT_TEXT = {
    "turn": "your turn: one action per ship, then 'end turn' · F3: your ships and the goal",
    "after_move": "your ship's move is done: tow SHIP X, ram SHIP X, or pass",
    "eliminate": "{hit} is hit: eliminate N (the mast she loses, 1 = bow)",
    "load": "you explored: load SHIP [coin…] (the coins to take aboard)",
    "board": "after the ram: board kill, board steal, or pass",
    "plunder": "your boarding party won: board kill, board steal, or pass",
}


def owner_colour(seat: int) -> str:
    return OWNER[seat % len(OWNER)]


def arrow(heading: float) -> str:
    """The arrow nearest a compass heading."""
    return ARROWS[round(heading / 45.0) % 8]


def coin_text(coin: CoinView) -> str:
    return f"coin {coin.id} = {coin.value}" if coin.value is not None else f"coin {coin.id} = ?"


# ------------------------------------------------------------------ the map


class _Canvas:
    """A braille raster over the sea: dots in layers, and text on top."""

    def __init__(self, cols: int, rows: int, width: float, height: float) -> None:
        self.cols, self.rows = cols, rows
        self.w, self.h = cols * 2, rows * 4
        self.sea_w, self.sea_h = width, height
        self.scale = min(self.w / width, self.h / height)
        self.ox = (self.w - width * self.scale) / 2
        self.oy = (self.h - height * self.scale) / 2
        n = cols * rows
        self.layer = [0] * n
        self.bits = [0] * n
        self.style = [""] * n
        self.text: dict[int, tuple[str, str]] = {}

    def to_dot(self, x: float, y: float) -> tuple[float, float]:
        return self.ox + x * self.scale, self.oy + (self.sea_h - y) * self.scale

    def to_sea(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.ox) / self.scale, self.sea_h - (py - self.oy) / self.scale

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        px, py = self.to_dot(x, y)
        return int(px // 2), int(py // 4)

    def dot(self, px: int, py: int, layer: int, style: str) -> None:
        if not (0 <= px < self.w and 0 <= py < self.h):
            return
        c = (py // 4) * self.cols + px // 2
        bit = _BITS[py % 4][px % 2]
        if layer > self.layer[c]:
            self.layer[c], self.bits[c], self.style[c] = layer, bit, style
        elif layer == self.layer[c]:
            self.bits[c] |= bit

    def fill(
        self,
        inside: Callable[[float, float], bool],
        box_: tuple[float, float, float, float],
        layer: int,
        style: str,
    ) -> None:
        """Every dot whose centre is ``inside`` the shape, within the sea box (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = box_
        px0, py0 = self.to_dot(x0, y1)
        px1, py1 = self.to_dot(x1, y0)
        for py in range(max(0, int(py0) - 1), min(self.h, int(py1) + 2)):
            for px in range(max(0, int(px0) - 1), min(self.w, int(px1) + 2)):
                if inside(*self.to_sea(px + 0.5, py + 0.5)):
                    self.dot(px, py, layer, style)

    def line(
        self, a: tuple[float, float], b: tuple[float, float], layer: int, style: str, gap: int = 0
    ) -> None:
        """A line of dots from sea point ``a`` to ``b``; ``gap`` dots left out between each."""
        (ax, ay), (bx, by) = self.to_dot(*a), self.to_dot(*b)
        n = max(1, int(math.hypot(bx - ax, by - ay)))
        for i in range(0, n + 1, gap + 1):
            t = i / n
            self.dot(int(ax + (bx - ax) * t), int(ay + (by - ay) * t), layer, style)

    def free(self, col: int, row: int, n: int) -> bool:
        if row < 0 or row >= self.rows or col < 0 or col + n > self.cols:
            return False
        cells = range(row * self.cols + col, row * self.cols + col + n)
        return all(self.layer[c] == 0 and c not in self.text for c in cells)

    def put(self, col: int, row: int, text: str, style: str) -> None:
        for i, ch in enumerate(text):
            if 0 <= row < self.rows and 0 <= col + i < self.cols:
                self.text[row * self.cols + col + i] = (ch, style)

    def in_sea(self, c: int) -> bool:
        col, row = c % self.cols, c // self.cols
        x, y = self.to_sea(col * 2 + 1, row * 4 + 2)
        return 0 <= x <= self.sea_w and 0 <= y <= self.sea_h

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for row in range(self.rows):
            if row:
                out.append("\n")
            run, run_style = "", ""
            for col in range(self.cols):
                c = row * self.cols + col
                bg = f" on {SEA}" if self.in_sea(c) else ""
                if c in self.text:
                    ch, style = self.text[c]
                    if " on " not in style:
                        style += bg
                elif self.bits[c]:
                    ch, style = chr(0x2800 + self.bits[c]), self.style[c] + bg
                else:
                    ch, style = " ", bg.strip()
                if style != run_style and run:
                    out.append(run, run_style or None)
                    run = ""
                run_style = style
                run += ch
            if run:
                out.append(run, run_style or None)
        return out


def _capsule(seg: tuple[float, float, float, float], r: float) -> Callable[[float, float], bool]:
    return lambda x, y: point_segment(x, y, seg)[0] <= r


def _annulus(cx: float, cy: float, r0: float, r1: float) -> Callable[[float, float], bool]:
    """A disc (``r0`` = 0) or a ring around (cx, cy)."""
    return lambda x, y: r0 <= math.hypot(x - cx, y - cy) <= r1


def _hull_box(
    seg: tuple[float, float, float, float], r: float
) -> tuple[float, float, float, float]:
    ax, ay, bx, by = seg
    return min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r


def _draw_hull(
    cv: _Canvas, x: float, y: float, heading: float, length: float, layer: int, style: str
) -> tuple[int, int, int, int]:
    """Fill one hull; returns its cell box (col0, row0, col1, row1)."""
    seg = axis(x, y, heading, length)
    bx = _hull_box(seg, HULL_RADIUS)
    cv.fill(_capsule(seg, HULL_RADIUS), bx, layer, style)
    c0, r1 = cv.cell_of(bx[0], bx[1])
    c1, r0 = cv.cell_of(bx[2], bx[3])
    return c0, r0, c1, r1


def _bow_cell(cv: _Canvas, x: float, y: float, heading: float) -> tuple[int, int]:
    """The cell of the bow: half a hull width back from the tip."""
    rad = math.radians(heading)
    return cv.cell_of(x - math.sin(rad) * HULL_RADIUS, y - math.cos(rad) * HULL_RADIUS)


_LABEL_ROWS = (0, -1, 1, -2, 2)
"""Where an island's label may go, in rows from where it belongs, nearest first."""
_LABEL_SHIFTS = (0, -2, 2, -4, 4)
"""And in columns (a row nearer beats a column nearer)."""


def _place(
    cv: _Canvas,
    texts: Sequence[str],
    col: int,
    row: int,
    style: str,
    rows: Sequence[int] = _LABEL_ROWS,
) -> int | None:
    """Put the first of ``texts`` that fits, centred on ``col`` in ``row`` or a cell near it
    (:data:`_LABEL_ROWS`, :data:`_LABEL_SHIFTS`), moved back inside the map if it would run
    off an edge, where it covers no other text and no hull, track or ghost (an island's own
    dots it may cover).
    Returns the row it went in, or ``None`` if none fits anywhere near (it is left out rather
    than drawn over something)."""
    for text in texts:
        n = len(text)
        for dy in rows:
            for dx in _LABEL_SHIFTS:
                left = max(0, min(cv.cols - n, col - n // 2 + dx))
                if _clear(cv, left, row + dy, n):
                    cv.put(left, row + dy, text, style)
                    return row + dy
    return None


def _clear(cv: _Canvas, col: int, row: int, n: int) -> bool:
    """May a label of ``n`` cells go at (col, row)? Over nothing but sea and island dots, with
    no other label right beside it (two would read as one word)."""
    if row < 0 or row >= cv.rows or col < 0 or col + n > cv.cols:
        return False
    cells = range(row * cv.cols + col, row * cv.cols + col + n)
    return all(cv.layer[c] <= _RING and c not in cv.text for c in cells) and _apart(cv, col, row, n)


def _apart(cv: _Canvas, col: int, row: int, n: int) -> bool:
    """No label's letter in the cells just left and right of (col, row)..(col + n - 1, row)."""
    for c in (col - 1, col + n):
        if 0 <= c < cv.cols and cv.text.get(row * cv.cols + c, (" ",))[0] not in _NOT_LETTERS:
            return False
    return True


_NOT_LETTERS = " " + ARROWS


def _label_ship(
    cv: _Canvas,
    code: str,
    cells: tuple[int, int, int, int],
    style: str,
    short: str = "",
    hull: Sequence[tuple[int, int]] = (),
) -> bool:
    """Put ``code`` beside her hull, where it covers nothing and touches no other label: the
    nearest places first (:func:`_label_spots`); crowded, ``short`` (a shorter form no other
    ship's code has) in those places, then ``code`` a cell further out. Returns whether it
    went anywhere (crowded beyond that, it is left out rather than drawn over a label)."""
    tries = [(code, _nearest_first(_label_spots(cells, len(code), 2), len(code), hull))]
    if short:
        tries.append((short, _nearest_first(_label_spots(cells, len(short), 2), len(short), hull)))
    tries.append((code, _label_spots(cells, len(code), 3)[16:]))
    for text in dict.fromkeys(t for t in (short, code) if t):  # crowded still: anywhere near
        tries.append((text, _nearest_first(_box_spots(cells, len(text), 3), len(text), hull)))
    for text, spots in tries:
        for col, row in spots:
            if cv.free(col, row, len(text)) and _apart(cv, col, row, len(text)):
                cv.put(col, row, text, style)
                return True
    return False


def _nearest_first(
    spots: list[tuple[int, int]], n: int, hull: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """``spots`` for a label of ``n`` cells, those nearest the ``hull``'s own cells first (in
    cells, either way; ties keep their order). A hull's box is square, and a slanted hull
    fills one diagonal of it: a spot beside the box's empty corner is far from her (a docked
    ship, her near side on her island, had her code there)."""
    if not hull:
        return spots

    def away(spot: tuple[int, int]) -> int:
        col, row = spot
        return min(max(max(col - c, 0, c - (col + n - 1)), abs(row - r)) for c, r in hull)

    return sorted(spots, key=away)


def _hull_cells(cv: _Canvas, s: ShipView) -> list[tuple[int, int]]:
    """The cells with a dot of her hull in them (as :func:`_draw_hull` fills it)."""
    seg = axis(s.x, s.y, s.heading, s.length)
    inside = _capsule(seg, HULL_RADIUS)
    c0, r1 = cv.cell_of(*_hull_box(seg, HULL_RADIUS)[:2])
    c1, r0 = cv.cell_of(*_hull_box(seg, HULL_RADIUS)[2:])
    return [
        (col, row)
        for row in range(r0 - 1, r1 + 2)
        for col in range(c0 - 1, c1 + 2)
        if any(
            inside(*cv.to_sea(col * 2 + dx + 0.5, row * 4 + dy + 0.5))
            for dy in range(4)
            for dx in range(2)
        )
    ]


def _label_spots(cells: tuple[int, int, int, int], n: int, far: int) -> list[tuple[int, int]]:
    """Where a label of ``n`` cells may go beside a hull's ``cells``: beside her, then a cell
    further (``far`` 3: and one more ring)."""
    c0, r0, c1, r1 = cells
    mid_r, mid_c = (r0 + r1) // 2, (c0 + c1) // 2
    spots = [
        (c1 + 1, mid_r),
        (c0 - n, mid_r),
        (mid_c - n // 2, r0 - 1),
        (mid_c - n // 2, r1 + 1),
        (c1 + 1, r0 - 1),
        (c0 - n, r1 + 1),
        (c1 + 1, r1 + 1),
        (c0 - n, r0 - 1),
        (c1 + 2, mid_r),
        (c0 - n - 1, mid_r),
        (mid_c - n // 2, r0 - 2),
        (mid_c - n // 2, r1 + 2),
        (c1 + 2, r0 - 1),
        (c1 + 2, r1 + 1),
        (c0 - n - 1, r0 - 1),
        (c0 - n - 1, r1 + 1),
    ]
    if far >= 3:
        spots += [
            (c1 + 3, mid_r),
            (c0 - n - 2, mid_r),
            (mid_c - n // 2, r0 - 3),
            (mid_c - n // 2, r1 + 3),
            (c1 + 1, r0 - 2),
            (c0 - n, r1 + 2),
            (c1 + 1, r1 + 2),
            (c0 - n, r0 - 2),
            (c1 + 3, r0 - 1),
            (c1 + 3, r1 + 1),
            (c0 - n - 2, r0 - 1),
            (c0 - n - 2, r1 + 1),
        ]
    return spots


def _box_spots(cells: tuple[int, int, int, int], n: int, far: int) -> list[tuple[int, int]]:
    """Every place for a label of ``n`` cells within ``far`` cells of a hull's ``cells`` box
    (the last resort of a crowded map, taken nearest first by :func:`_nearest_first`)."""
    c0, r0, c1, r1 = cells
    return [
        (col, row)
        for row in range(r0 - far, r1 + far + 1)
        for col in range(c0 - n - far + 1, c1 + far + 1)
    ]


def track(ship: ShipView, preview: MovePreview) -> list[tuple[float, float]]:
    """The bow tip's path for a previewed move: each leg pivots on the tip, then runs."""
    x, y, h = ship.x, ship.y, ship.heading
    points = [(x, y)]
    for turned, ran in preview.legs:
        h += turned
        x += math.sin(math.radians(h)) * ran
        y += math.cos(math.radians(h)) * ran
        points.append((x, y))
    return points


def sea_map(
    view: SpanishMainView,
    cols: int,
    rows: int,
    preview: MovePreview | None = None,
    ship: str | None = None,
) -> Text:
    """The sea in ``cols`` x ``rows`` cells (the last row is the legend): islands with names,
    coins (values only where this seat knows them), home rings, hulls in owner colours with
    their bow arrows and codes, and the ``preview`` of ``ship``'s move as a white ghost."""
    cols, rows = max(cols, 10), max(rows, 3)
    cv = _Canvas(cols, rows - 1, view.width, view.height)
    for isl in view.islands:
        r = isl.r
        bx = (isl.x - r, isl.y - r, isl.x + r, isl.y + r)
        cv.fill(_annulus(isl.x, isl.y, 0.0, r), bx, _ISLAND, ISLAND)
        if isl.home is not None:
            w = 0.9 / cv.scale
            ring = (isl.x - r - w, isl.y - r - w, isl.x + r + w, isl.y + r + w)
            style = OWNER_DIM[isl.home % len(OWNER_DIM)]
            cv.fill(_annulus(isl.x, isl.y, r - w, r + w), ring, _RING, style)
    moving = next((s for s in view.ships if s.id == ship), None) if preview else None
    if moving is not None and preview is not None:
        points = track(moving, preview)
        for a, b in zip(points, points[1:], strict=False):
            cv.line(a, b, _TRACK, TRACK, gap=1)
    hulls: list[tuple[ShipView, tuple[int, int, int, int]]] = []
    for s in view.ships:
        colour = DERELICT if s.derelict else owner_colour(s.owner)
        hulls.append((s, _draw_hull(cv, s.x, s.y, s.heading, s.length, _SHIP, colour)))
    if moving is not None and preview is not None:
        _draw_hull(cv, preview.x, preview.y, preview.heading, moving.length, _GHOST, GHOST)
    # text: bow arrows first (each marks an exact point), then island names and what lies
    # under them, each placed where it covers no other text and no hull, then ship codes
    for s, _cells in hulls:
        col, row = _bow_cell(cv, s.x, s.y, s.heading)
        colour = DERELICT if s.derelict else owner_colour(s.owner)
        cv.put(col, row, arrow(s.heading), f"bold {colour}")
    if moving is not None and preview is not None:
        col, row = _bow_cell(cv, preview.x, preview.y, preview.heading)
        cv.put(col, row, arrow(preview.heading), f"bold {GHOST}")
    for isl in view.islands:
        col, row = cv.cell_of(isl.x, isl.y)
        under: tuple[str, ...]
        if isl.home is not None:
            under = (f"⌂{view.seats[isl.home]}", "⌂")
            under_style = f"bold {owner_colour(isl.home)} on {SEA}"
        else:
            coins = "".join(str(c.value) if c.value is not None else "●" for c in isl.coins)
            under = (coins,) if coins else ()
            under_style = f"bold #5a3d00 on {ISLAND}"
        names = (isl.id, isl.id.removeprefix("isla-"))  # crowded: the number alone
        at = _place(cv, names, col, row, ISLAND_TEXT)
        if at is not None and under:
            _place(cv, under, col, at + 1, under_style, rows=(0, 1, -2, 2, -3, 3))
    codes, shorts = ship_codes(view), short_codes(view)
    for s, cells in hulls:
        colour = (OWNER_DIM if s.derelict else OWNER)[s.owner % len(OWNER)]
        short = shorts.get(s.id, "")
        _label_ship(cv, codes[s.id], cells, f"bold {colour}", short, _hull_cells(cv, s))
    out = cv.render()
    out.append("\n")
    out.append_text(legend(cv.scale))
    return out


def _bar(dots: int) -> str:
    """A horizontal braille bar ``dots`` dots long."""
    return "⠒" * (dots // 2) + ("⠂" if dots % 2 else "")


def legend(scale: float) -> Text:
    """The compass and the two leg lengths at the map's scale (``scale`` dots per unit)."""
    t = Text(" N↑  ", style="bold")
    for kind in ("S", "L"):
        t.append(f"{kind} ", style="bold")
        t.append(_bar(round(LEG_LENGTH[kind] * scale)), style=TRACK)
        t.append("  ")
    t.append("⌂ home  ● coin  ", style="dim")
    t.append("ghost", style=f"bold {GHOST}")
    t.append(" = preview", style="dim")
    return t


# ------------------------------------------------------------------ panels


def title(
    view: SpanishMainView, table_name: str, signed_in: str, started: bool = True
) -> list[Part]:
    """The title bar's parts (:mod:`shipwreck.tui.title`): who I am and whose turn it is are
    shortened last, the round before them. (A table waiting for its players has no turn yet.)"""
    if view.me is not None and view.seat is not None:
        colour = f"bold {owner_colour(view.seat)}"
        mine = Text.assemble(("you are ", "bold"), (view.me, colour))
        me = part(mine, Text(view.me, colour), "", rank=7)
    else:
        me = part("spectator", "", rank=7)
    if view.over:
        turn = part("game over", "", rank=8)
    elif not started:
        turn = part("waiting to start", "waiting", "", rank=8)
    else:
        colour = f"bold {owner_colour(view.turn)}"
        turn = part(f"{view.seats[view.turn]}'s turn", "", rank=8, style=colour)
    rounds = part(f"round {view.round}", f"r{view.round}", "", rank=3)
    return table_title(table_name, "spanish main", me, rounds, turn, signed_in=signed_in)


def _masts(s: ShipView) -> Text:
    t = Text()
    ranks = {m.rank for m in s.masts}
    if len(ranks) == 1:
        t.append(f"{next(iter(ranks))}:", style="dim")
    for m in s.masts:
        label = m.range if len(ranks) == 1 else f"{m.rank}{m.range}"
        t.append(label if m.up else "x", style="green" if m.up else "dim red")
    return t


def status(s: ShipView, codes: dict[str, str] | None = None) -> str:
    """Where a ship is, in a few words: docked, towing, towed, derelict, pinned. With the map's
    ship ``codes`` (a narrow fleet panel: nine columns for this), the other ship is named by
    its code, and only what matters most is said: ``pinned:ep``, not ``pinned b…`` (play-test;
    where she is docked shows on the map, and a wide screen says it all)."""
    if codes is not None:
        return _status_brief(s, codes)
    if s.towed_by:
        return f"towed by {s.towed_by}"
    parts = []
    if s.derelict:
        parts.append("derelict")
    if s.docked:
        parts.append(f"at {s.docked}")
    if s.towing:
        parts.append(f"tows {s.towing}")
    if s.pinned_by:
        parts.append(f"pinned by {s.pinned_by}")
    if s.aboard:
        parts.append(f"{len(s.aboard)} crew")
    return ", ".join(parts) or "at sea"


def _status_brief(s: ShipView, codes: dict[str, str]) -> str:
    def code(ship: str) -> str:
        return codes.get(ship, ship)

    if s.towed_by:
        return f"towed:{code(s.towed_by)}"
    parts = []
    if s.pinned_by:
        parts.append(f"pinned:{code(s.pinned_by)}")
    if s.derelict:
        parts.append("derelict")
    if s.docked:  # (the column is "where": ``isla-12``, not ``at isla…``, play-test)
        parts.append(s.docked)
    if s.towing:
        parts.append(f"tows:{code(s.towing)}")
    if s.aboard:
        parts.append(f"{len(s.aboard)} crew")
    return parts[0] if parts else "at sea"  # the first that applies


SHIP_ID_NARROW, SHIP_ID_WIDE = 12, 18
"""The fleet panel's ship column, narrow (46 columns) and wide: :func:`ship_label` fits each id."""

_NUMBERED = re.compile(r"(.+?)(-\d+)?")
"""A ship id: her card's id, then her number at the table if the card is repeated (``-10``)."""


def ship_label(ship: str, width: int) -> str:
    """A ship's id in ``width`` columns: whole if it fits, else her card's id cut and her
    number kept, ``el-picad…-10``. (Cut at the end, ``el-picador-10`` to ``-16`` all read
    ``el-picador-…``, session 30; no two cards share the letters kept, a test holds it.)"""
    if len(ship) <= width:
        return ship
    found = _NUMBERED.fullmatch(ship)
    card, number = (found.group(1), found.group(2) or "") if found else (ship, "")
    return card[: width - 1 - len(number)].rstrip("-") + "…" + number


def fleet(view: SpanishMainView, wide: bool = False, rows: int | None = None) -> RenderableType:
    """Every ship: code and bow arrow, masts (cannon ranges, x = eliminated), cargo, the move
    left this turn and where she is (``wide``: room for the longest id, and a longer where).
    ``rows``: the rows under the header, when they are fewer than the ships need (80×24):
    my fleet keeps its rows and the other fleets are listed by their map codes, several to a
    row (:func:`fleets_in_brief`); a ship is never left out without saying so."""
    t = Table(box=None, expand=True, padding=(0, 1, 0, 0), show_edge=False, pad_edge=False)
    codes = ship_codes(view)
    longest = max((len(c) for c in codes.values()), default=3)  # (``ep10``: 4 seats, 16 ships)
    t.add_column("", no_wrap=True, width=2 + max(3, longest))
    id_width = SHIP_ID_WIDE if wide else SHIP_ID_NARROW
    t.add_column("ship", no_wrap=True, overflow="ellipsis", max_width=id_width)
    if wide:  # (46 columns have no room for it: F3's cards say it)
        t.add_column("nation", no_wrap=True)
    t.add_column("masts", no_wrap=True)
    t.add_column("hold", no_wrap=True, justify="right")
    t.add_column("move", no_wrap=True)
    t.add_column("where", no_wrap=True, overflow="ellipsis", ratio=1)
    full, brief = _fleet_rows(view, rows)
    for s in full:
        colour = (OWNER_DIM if s.derelict else OWNER)[s.owner % len(OWNER)]
        mine = view.seat is not None and s.owner == view.seat
        if s.acted:
            move = Text("done", style="dim")
        elif s.derelict or s.towed_by:
            move = Text("-", style="dim")
        else:
            move = Text("+".join(s.move), style="bold" if mine else "")
        t.add_row(
            Text(f"{arrow(s.heading)} {codes[s.id]}", style=f"bold {colour}"),
            Text(ship_label(s.id, id_width), style=colour),
            *([Text(nation(s))] if wide else []),
            _masts(s),
            f"{len(s.cargo)}/{s.cargo_slots - sum(c.slots for c in s.aboard)}",
            move,
            status(s, None if wide else codes),
        )
    parts: list[RenderableType] = [t]
    if rows is not None and brief is not None:
        lines = rows - len(full)
        items = fleets_in_brief(view, brief, codes)
        parts.append(ToWidth(lambda width: Group(*_in_brief(items, lines).pack(width))))
    elif view.sunk:
        parts.append(Text("sunk: " + ", ".join(view.sunk), style="dim"))
    return Group(*parts)


def _in_brief(items: list[Text], lines: int) -> Packed:
    """The other fleets in brief, on at most ``lines`` lines (F3 lists every ship)."""
    return Packed(Text(), items, lines, "F3", " ")


def fleet_height(view: SpanishMainView, rows: int, width: int) -> int:
    """The rows :func:`fleet` with ``rows`` draws under its header at ``width`` columns: the
    ships with a row of their own, then the lines the others in brief take (80×24: the rows
    they leave go to the log). A sinking may need one more (the "sunk:" list)."""
    full, brief = _fleet_rows(view, rows)
    if brief is None:
        return len(full) + bool(view.sunk)
    items = fleets_in_brief(view, brief, ship_codes(view))
    return len(full) + len(_in_brief(items, rows - len(full)).pack(width))


def _fleet_rows(
    view: SpanishMainView, rows: int | None
) -> tuple[list[ShipView], list[ShipView] | None]:
    """The ships with a row of their own (mine first), and those listed in brief (``None``:
    every ship has a row, and the sunk ones a line). A fleet keeps its rows while the fleets
    after it still have a row left for their brief list."""
    ships = sorted(view.ships, key=lambda s: (s.owner != view.seat, s.owner))
    if rows is None or len(ships) + bool(view.sunk) <= rows:
        return ships, None
    full: list[ShipView] = []
    for owner in dict.fromkeys(s.owner for s in ships):
        fleet_ = [s for s in ships if s.owner == owner]
        after = len(full) + len(fleet_)
        if after + 1 > rows:  # (the fleets after it, and the sunk, need a row)
            break
        full += fleet_
    return full, [s for s in ships if s not in full]


def fleets_in_brief(
    view: SpanishMainView, ships: Sequence[ShipView], codes: dict[str, str]
) -> list[Text]:
    """Ships as the map shows them (bow arrow and code), each fleet after its seat's name,
    then the sunk: ``blue: ↖ep ↖el ←et  green: ↘lo``. F3 has every ship's card."""
    items: list[Text] = []
    owner = None
    for s in ships:
        colour = (OWNER_DIM if s.derelict else OWNER)[s.owner % len(OWNER)]
        item = Text(f"{arrow(s.heading)}{codes[s.id]}", style=f"bold {colour}")
        if s.owner != owner:
            owner = s.owner
            item = Text.assemble((f"{view.seats[s.owner]}:", colour), " ", item)
        items.append(item)
    if view.sunk:
        items.append(Text("sunk: " + ", ".join(view.sunk), style="dim"))
    return items


def seats(
    view: SpanishMainView, players: Sequence[str], rated: Sequence[str] = ()
) -> RenderableType:
    """Each seat: who plays it (``players``, from the table), gold at home, ships afloat; and
    a rating column when someone at the table has one (``rated``: each seat's, or ``""``)."""
    t = Table(box=None, expand=True, padding=(0, 1, 0, 0), show_edge=False, pad_edge=False)
    t.add_column("seat", no_wrap=True)
    t.add_column("player", no_wrap=True, overflow="ellipsis", ratio=1)
    if any(rated):
        t.add_column("rated", no_wrap=True, justify="right")  # ("rating" would cut a bot's name)
    t.add_column("gold", no_wrap=True, justify="right")
    t.add_column("afloat", no_wrap=True, justify="right")
    for i, name in enumerate(view.seats):
        afloat = [s for s in view.ships if s.owner == i]
        who = Text(players[i] if i < len(players) else "")
        if i == view.seat:  # "ann (you) (autopilot)": "(you)" first, so a cut keeps it
            player, gap, tag = who.plain.partition(" ")
            who = Text.assemble(player, (" (you)", "bold"), (gap + tag, "yellow"))
        t.add_row(
            Text(name, style=f"bold {owner_colour(i)}"),
            who,
            *([rated[i] if i < len(rated) else ""] if any(rated) else []),
            Text(str(view.gold[i]), style="bold yellow"),
            f"{len(afloat)} ships, {sum(s.points for s in afloat)} pts",
        )
    return t


def gold_lost(view: SpanishMainView) -> int:
    """The gold gone down with sunk ships (each lost coin's value, revealed as it sank): gold,
    as every other count on the panel, not the number of coins."""
    return view.gold_total - view.gold_in_play


def treasure(view: SpanishMainView, compact: bool = False) -> RenderableType:
    """The coin values this seat has seen (hidden from the others), and the gold in play
    (compact: two lines, the coins packed on the second)."""
    lost = gold_lost(view)
    gold = f"{view.gold_total} gold dealt in coins; {lost} gold lost"
    if view.seat is None:
        return Text.assemble(("spectators see no hidden coin value", "dim"), "\n", (gold, "dim"))
    items = known_coins(view)
    if compact:
        head = Text.assemble(
            ("coins you know", "bold"),
            (" (secret)", "dim"),
            (f" · {view.gold_total} gold, {lost} lost", "dim"),
        )
        tokens = compact_coins(view)
        if not tokens:
            return Packed(head, items, lines=1, more="F3")
        return Packed(head, [t for t, _ in tokens], 1, "F3", joins=[j for _, j in tokens])
    t = Text.assemble(("coins you know", "bold"), (" (hidden from the others)", "dim"))
    for item in items:
        t.append("\n  ")
        t.append_text(item)
    t.append(f"\n{gold}", style="dim")
    return t


def compact_coins(view: SpanishMainView) -> list[tuple[Text, str]]:
    """The coins this seat knows, one item a coin (``#3=4``), the first of each place with the
    place's name (``lord-walpole #3=2``), each with what goes before it on a line (a space
    within a place, `` · `` between places): so a narrow panel shows every coin that fits,
    whole, and counts the rest, instead of dropping a whole place that is too long."""
    out: list[tuple[Text, str]] = []
    for _, where, coins in _known(view):
        for i, c in enumerate(coins):
            item = Text(f"{where} ", style="default") if i == 0 else Text()
            item.append(f"#{c.id}={c.value}", style="bold yellow")
            out.append((item, " " if i else " · "))
    return out


def _known(view: SpanishMainView) -> list[tuple[str, str, list[CoinView]]]:
    """The places (islands, then ships' holds) with coins whose value this seat's view
    shows, each as (long name, short name, those coins)."""
    known: list[tuple[str, str, list[CoinView]]] = []
    for isl in view.islands:
        seen = [c for c in isl.coins if c.value is not None]
        if seen:
            known.append((isl.id, isl.id, seen))
    for s in view.ships:
        seen = [c for c in s.cargo if c.value is not None]
        if seen:
            known.append((f"aboard {s.id}", s.id, seen))
    return known


def known_coins(view: SpanishMainView) -> list[Text]:
    """Where the coins whose value this seat has seen are, with their values (one item a
    place), or a line saying how to see some."""
    return [
        Text.assemble(f"{where}: ", (", ".join(f"#{c.id}={c.value}" for c in coins), "bold yellow"))
        for where, _, coins in _known(view)
    ] or [Text("none yet: explore an island to see them", style="dim")]


_HINT_ORDER = (C.Explore, C.Shoot, C.Tow, C.MoveDock, C.Move, C.Repair, C.ComeAbout)
"""The kinds of hint on my turn's line, most useful first (a move is the one to try)."""


def prompt_head(view: SpanishMainView, kind: str) -> str:
    """What my open decision is, in a line (:data:`PROMPT_TEXT`), naming the ship it is about
    where that is not plain (a hit: which of my ships loses a mast)."""
    return PROMPT_TEXT.get(kind, kind).format(hit=view.hit or "your ship")


def compass(heading: float) -> int:
    """A heading in whole degrees, 0 to 359 (359.7 reads 0, not 360; -0.2 reads 0, not -0)."""
    return round(heading) % 360


def hint_commands(
    choices: Iterable[C.Command],
    suggested: dict[str, str],
    loaded: Collection[str] = (),
    emptied: Collection[str] = (),
) -> list[str]:
    """My turn's hints, each a whole command that works if typed, most useful first: which
    ships may explore, shoot, tow a derelict against them, dock where, the move to try for each
    ship that may move (``suggested``), repair, come about. A ship with no move to try gets no
    move hint (the engine's sampled moves are headings, not advice; Tab lists them). The
    ``loaded`` ships' (those carrying coins) move and come-about hints come before all: their
    move to try sails home (:func:`shipwreck.lang.spanish_main.suggested_moves`), and a line of
    hints too long for the panel cuts its end, never the way home. No dock hint names one of
    the ``emptied`` islands (:func:`shipwreck.lang.spanish_main.emptied_islands`)."""
    ranked: list[tuple[int, str]] = []
    for c in choices:
        match c:
            case C.Move(ship) | C.MoveToward(ship):
                if ship not in suggested:
                    continue
                rank, text = _HINT_ORDER.index(C.Move), suggested[ship]
            case C.MoveDock(ship, island):
                if island in emptied:
                    continue  # (nothing left there to explore)
                text = format_command(c)
                if suggested.get(ship) == text:
                    continue  # (the move to try says it)
                rank = _HINT_ORDER.index(C.MoveDock)
            case C.Explore() | C.Shoot() | C.Tow() | C.Repair() | C.ComeAbout():
                rank, text = _HINT_ORDER.index(type(c)), format_command(c)
            case _:
                continue
        if isinstance(c, (C.Move, C.MoveToward, C.ComeAbout)) and c.ship in loaded:
            rank = -1  # (sail home first)
        if (rank, text) not in ranked:
            ranked.append((rank, text))
    ranked.sort(key=lambda item: item[0])  # (stable: the engine's order within a kind)
    return [text for _, text in ranked]


def prompt(view: SpanishMainView, suggested: dict[str, str] | None = None) -> RenderableType:
    """What I must decide now (one line), and my legal choices on the two lines below
    (:class:`Packed`), each a whole command (in a turn: :func:`hint_commands`). ``suggested``:
    a move to try per ship (:func:`shipwreck.lang.spanish_main.suggested_moves`)."""
    mine = [p for p in view.prompts if p.seat == view.seat and p.blocking]
    if view.over:
        return Text(f"the game is over: {view.end_reason}", style="bold")
    if view.seat is None or not mine:
        waiting = sorted({view.seats[p.seat] for p in view.prompts if p.blocking})
        who = ", ".join(waiting) if waiting else "the table"
        return Text(f"waiting for {who}", style="dim")
    kind = mine[0].kind
    head = Text(prompt_head(view, kind), style="bold cyan")
    items: list[Text] = []
    if kind == "turn":
        loaded = {s.id for s in view.ships if s.owner == view.seat and s.cargo}
        emptied = emptied_islands(view)
        for line in hint_commands(view.choices, suggested or {}, loaded, emptied):
            items.append(Text(line, style="bold" if line.startswith("move ") else ""))
        if not items:  # (every ship has had her action: ending the turn is what is left)
            items.append(Text("end turn", style="bold"))
        items += [Text(format_command(c)) for c in view.free]  # (free actions: a tow to break)
    else:
        items = [Text(format_command(c)) for c in view.choices]
        items[0] = Text.assemble(("choices: ", "bold"), items[0])
    return Packed(head, items)


_DICE = re.compile(r"d6 = \d+")
_OUTCOME = re.compile(r"\b(hits|hit|misses|miss|no effect|sinks|wins|derelict)\b")


def log_line(event: Event) -> Text:
    """One log event: dice (with what they were rolled for: it is in the text) stand out;
    lines only this seat may read are marked."""
    t = Text()
    if event.to is not None:
        t.append("(secret) ", style="magenta")
    style = {"turn": "bold", "end": "bold", "winner": "bold yellow", "setup": "dim"}.get(
        event.kind, ""
    )
    body = Text(event.text, style=style)
    if event.to is not None:
        body.stylize("magenta")
    body.highlight_regex(_DICE, "bold yellow")
    body.highlight_regex(_OUTCOME, "bold")
    t.append_text(body)
    return t


# ------------------------------------------------------------------ the fleet and goal screen


def _glossary(rows: Iterable[tuple[Text | str, Text | str]]) -> Table:
    """Two columns: a term as the screen shows it, and what it means (wrapped)."""
    t = Table.grid(padding=(0, 2, 0, 2))
    t.add_column(no_wrap=True, style="bold")
    t.add_column(ratio=1)
    for term, meaning in rows:
        t.add_row(term, meaning)
    return t


def goal(view: SpanishMainView) -> Text:
    """How the game ends and who wins (SM-40, SM-41), as this table's options set it."""
    options = view.options
    t = Text()
    if options.get("end", "half") == "all":
        t.append("The game ends once every coin is unloaded at a home island or lost")
    else:
        t.append("The game ends when one player has ")
        t.append("more than half of all the gold still in play", style="bold")
        t.append(f" ({view.gold_in_play} now: all dealt, less coins lost) at home,")
        t.append(" or once every coin is unloaded at a home island or lost")
    t.append(", or when only one player still has a ship afloat with a mast standing. ")
    t.append("Most gold at home wins", style="bold")
    t.append("; a tie goes to the larger points value of ships still afloat. ")
    t.append(
        "Gold counts once a ship carrying coins docks at her own home island (⌂): she unloads"
        " there. Coins lie face down on the wild islands: dock, explore, load, sail home."
    )
    return t


def _mixed_example(view: SpanishMainView) -> Text:
    """The mast notation of a ship at this table whose cannons differ in rank (``3S2L3S``), or
    a made-up one if none has."""
    mixed = next((s for s in view.ships if len({m.rank for m in s.masts}) > 1), None)
    return _masts(mixed) if mixed is not None else Text("3S2L3S", style="green")


def _abilities_note(view: SpanishMainView) -> str:
    if view.options.get("abilities", True):
        return "abilities are on: each ship and crew plays its card (unless marked not yet)"
    return "abilities are off at this table: every ship sails and fights as a plain hull"


def nation(s: ShipView) -> str:
    """Her card's nation (``English``, ``Spanish``, ``Pirate``), which some cards name; "" if
    her card is not on the ship list."""
    card = CARDS.get(s.card)
    return card.faction if card is not None else ""


def ship_card(s: ShipView, abilities: bool = True) -> RenderableType:
    """One ship's card: name, points, masts, move, hold, and her ability's text (the card's),
    indented under it."""
    colour = (OWNER_DIM if s.derelict else OWNER)[s.owner % len(OWNER)]
    t = Text(s.id, style=f"bold {colour}")
    if s.name.lower() != s.id.replace("-", " "):
        t.append(f" ({s.name})", style=colour)
    if nation(s):  # (a card may name a nation: "+1 ... against Pirate ships")
        t.append(f" · {nation(s)}")
    t.append(f" · {s.points} pts · masts ")
    t.append_text(_masts(s))
    t.append(f" · move {'+'.join(s.move)} · hold {s.cargo_slots}")
    card = CARDS.get(s.card)
    ability = card.ability if card is not None else ""
    text = Text(ability or "no ability", style="italic" if ability else "dim")
    if abilities and ability and not s.ability:
        text.append(" (not in play yet: a plain hull)", style="dim")
    lines: list[RenderableType] = [t, Padding(text, (0, 0, 0, 4))]
    for c in s.aboard:  # (SM-61: crew is public)
        crew = CREW.get(c.card)
        line = Text(f"crew {c.name} ({c.id})", style=colour)
        line.append(f": {crew.ability}" if crew is not None else "", style="italic")
        lines.append(Padding(line, (0, 0, 0, 4)))
    return Group(*lines)


def fleet_info(view: SpanishMainView) -> RenderableType:
    """The goal, what the fleet panel's notation means, and every ship's card (mine first):
    what a newcomer needs to read the table, from the public view only."""
    gte = view.options.get("hit_rule", "gte") == "gte"
    hits = "a die roll of 3 or more hits" if gte else "a die roll above 3 hits"
    parts: list[RenderableType] = [
        Text("How to win", style="bold underline"),
        goal(view),
        Text(""),
        Text("Reading the fleet", style="bold underline"),
        _glossary(
            (
                (
                    "3:SLLS",
                    f"masts from bow to stern, one cannon each; 3 is the cannon's rank:"
                    f" {hits}. S fires as far as {LEG_LENGTH['S']:g}, L as far"
                    f" as {LEG_LENGTH['L']:g}; x is a mast shot away. Each hit takes a mast; a"
                    " ship with none left is a derelict, and a derelict that is hit sinks.",
                ),
                (
                    _mixed_example(view),
                    "masts whose cannons differ in rank: each mast's own rank, then its"
                    " range, from bow to stern (e.g. 3S2L: the bow's cannon is rank 3 and"
                    " short range, the next mast's rank 2 and long range).",
                ),
                (
                    "S+S",
                    f"her base move: the legs of one move, S = {LEG_LENGTH['S']:g},"
                    f" L = {LEG_LENGTH['L']:g}, each after a turn of up to 90°, e.g."
                    " 'move dover S 0 S 30' (straight on, then 30° to starboard).",
                ),
                ("0/5", "hold: coins aboard / room for coins"),
                ("28 pts", "the points value of a player's ships afloat (breaks a tie in gold)"),
                ("done", "she has had her one action this turn; 'end turn' when all are done"),
                ("↑ do", "her bow's heading on the map, and her code there"),
            )
        ),
        Text(""),
        Text("Your ships" if view.seat is not None else "The ships", style="bold underline"),
    ]
    mine = [s for s in view.ships if s.owner == view.seat]
    others = [s for s in view.ships if s.owner != view.seat]
    on = bool(view.options.get("abilities", True))
    parts += [ship_card(s, on) for s in mine or others]
    if mine and others:
        parts += [Text(""), Text("The other fleets", style="bold underline")]
        parts += [ship_card(s, on) for s in others]
    parts.append(Text(_abilities_note(view), style="dim"))
    if view.seat is not None:
        parts += [Text(""), Text("Coins you know (only you see them)", style="bold underline")]
        parts += [Padding(item, (0, 0, 0, 2)) for item in known_coins(view)]
    return Group(*parts)
