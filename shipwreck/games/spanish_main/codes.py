"""Ships' short codes: what the map and the fleet panel show for a ship (``lw`` for
``lord-walpole``), and a name a command may use for her (``move lw S 0``). One definition, for
the screen that draws them and the language that reads them.

A code is a function of the table's ships, afloat and sunk, in a fixed order (not of which are
still afloat), so a ship keeps hers all game. It is unambiguous at the table: never another
ship's code or id, never an island's id or a crew card's, never a word of the command grammar.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from shipwreck.games.spanish_main.ships import CREW
from shipwreck.games.spanish_main.view import SpanishMainView

RESERVED = frozenset(
    """about and any all arm at best blue board bot break by cancel come count dock drop eliminate
    else end explore first for from gold green home in kill load look mast move none not off on
    or pass pick ram random red repair sacrifice ship shoot steal target timeout to toward tow
    trade transfer turn up when where with worst""".split()  # noqa: SIM905 (a list of words)
)
"""Words of the command grammars (``grammar/spanish_main.lark`` and its bot grammar) a code
must not be: a test checks that every word they quote is here."""

_NUMBERED = re.compile(r"(.*)-([0-9]+)")


def _base(sid: str) -> str:
    """The initials of a hyphenated id (``el-picador`` → ``ep``), else its first two letters
    (``dover`` → ``do``); a number part (``dover-2``) is left out."""
    parts = [p for p in sid.split("-") if p and not p.isdigit()]
    return "".join(p[0] for p in parts)[:3] if len(parts) > 1 else sid[:2]


def _order(sid: str) -> tuple[str, int, str]:
    """``dover`` before ``dover-2`` before ``dover-10``."""
    m = _NUMBERED.fullmatch(sid)
    return (m.group(1), int(m.group(2)), sid) if m else (sid, 0, sid)


def codes_of(ships: Iterable[str], avoid: Iterable[str] = ()) -> dict[str, str]:
    """A code for each ship id: :func:`_base`, with the id's number if it has one
    (``dover-2`` → ``do2``); where that is taken, the first free ``base2``, ``base3``...;
    never another ship's code or id, a word of ``avoid`` or of :data:`RESERVED`. Ships are
    coded in a fixed order (:func:`_order`), so the codes do not depend on the order they are
    given in; those that may have their own first (so ``dover-2`` is ``do2`` whatever else
    starts with ``do``)."""
    ids = sorted(set(ships), key=_order)
    taken = set(avoid) | RESERVED | set(ids)
    out: dict[str, str] = {}
    for sid in ids:  # first, each ship whose own code is free
        m = _NUMBERED.fullmatch(sid)
        code = _base(sid) + (m.group(2) if m else "")
        if code == sid or code not in taken:
            out[sid] = code
            taken.add(code)
    for sid in ids:  # then the others, numbered
        if sid in out:
            continue
        base, n = _base(sid), 2
        while f"{base}{n}" in taken:
            n += 1
        out[sid] = f"{base}{n}"
        taken.add(out[sid])
    return {sid: out[sid] for sid in ids}


def _avoid(view: SpanishMainView) -> set[str]:
    """What a code must not be at this table besides ships: its islands' ids, crew cards'."""
    return {i.id for i in view.islands} | set(CREW)


def table_codes(view: SpanishMainView) -> dict[str, str]:
    """Every ship's code at the table of ``view``, sunk ones too (so no code changes when a
    ship sinks)."""
    return codes_of([*(s.id for s in view.ships), *view.sunk], _avoid(view))


def ship_codes(view: SpanishMainView) -> dict[str, str]:
    """The code of each ship afloat in ``view`` (what the map and the fleet panel show)."""
    codes = table_codes(view)
    return {s.id: codes[s.id] for s in view.ships}


def short_codes(view: SpanishMainView) -> dict[str, str]:
    """A shorter form of a three-letter code for a crowded map (``pdp`` → ``pd``), for the
    ships that have one: the first two letters, if no other ship's code (sunk ones too) starts
    with them and they are nothing else at the table."""
    codes = table_codes(view)
    avoid = _avoid(view) | RESERVED | set(codes)
    out: dict[str, str] = {}
    for ship, code in codes.items():
        short = code[:2]
        if len(code) <= 2 or short in avoid:
            continue
        if not any(c.startswith(short) for s, c in codes.items() if s != ship):
            out[ship] = short
    return out


def ship_names(view: SpanishMainView) -> dict[str, str]:
    """Every other word a command may name a ship by at this table, and the ship's id: her
    code, and its short form (both as the map may show them)."""
    named = {code: ship for ship, code in table_codes(view).items()}
    named.update({short: ship for ship, short in short_codes(view).items()})
    return named
