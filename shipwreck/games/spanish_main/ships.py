"""The ship list of the first set (``data/ships.csv``, a copy of the shared card list) and fleets.

Ships are named by a slug of their name (``HMS Dover`` -> ``dover``, ``El Picador`` ->
``el-picador``); the ``HMS`` prefix is dropped. Promo reprints (``GS-…``, ``PP…``) that repeat
a name are left out: the first printing of a name wins.

SM-6, SM-60: every ship is offered. With abilities on (the default) each plays its printed
ability, where it plays yet (:mod:`.abilities`); with ``abilities = false`` all sail as plain hulls.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Literal

Range = Literal["S", "L"]


@dataclass(frozen=True, slots=True)
class ShipCard:
    id: str
    number: str
    name: str
    faction: str
    points: int
    masts: int
    cargo: int
    move: tuple[str, ...]
    """Base move legs, e.g. ("S", "L")."""
    cannons: tuple[tuple[int, Range], ...]
    """(rank, range) per mast, bow -> stern."""
    ability: str


def slug(name: str) -> str:
    """``HMS Dover`` -> ``dover``; ``Raven's Neck`` -> ``ravens-neck``."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    text = re.sub(r"^hms\s+", "", text).replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _cannon(text: str) -> tuple[int, Range]:
    rank, rng = int(text[:-1]), text[-1]
    if rng not in ("S", "L"):
        raise ValueError(f"bad cannon {text!r}")
    return rank, "S" if rng == "S" else "L"


def _load() -> dict[str, ShipCard]:
    raw = (
        resources.files("shipwreck.games.spanish_main")
        .joinpath("data/ships.csv")
        .read_text(encoding="utf-8")
    )
    out: dict[str, ShipCard] = {}
    for row in csv.DictReader(io.StringIO(raw)):
        if row["type"] != "Ship":
            continue
        sid = slug(row["name"])
        if sid in out:
            continue
        masts = int(float(row["masts"]))
        cannons = tuple(_cannon(c) for c in row["cannons"].split("-"))
        if len(cannons) != masts:  # pragma: no cover - the data is checked by a test
            raise ValueError(f"{row['name']}: {masts} masts but cannons {row['cannons']}")
        out[sid] = ShipCard(
            id=sid,
            number=row["number"],
            name=row["name"],
            faction=row["faction"],
            points=int(float(row["point_cost"])),
            masts=masts,
            cargo=int(float(row["cargo"])),
            move=tuple(row["base_move"].split("+")),
            cannons=cannons,
            ability=row["ability"].strip(),
        )
    return out


CARDS: dict[str, ShipCard] = _load()


@dataclass(frozen=True, slots=True)
class CrewCard:
    """A crew card (SM-61): a piece carried in a cargo slot that gives its ship an ability."""

    id: str
    number: str
    name: str
    faction: str
    points: int
    ability: str


def _load_crew() -> dict[str, CrewCard]:
    """Crew cards by slug; a name printed for several nations (``Explorer``) gets the nation
    after it (``explorer-english``). The first printing of a name in a nation wins. The generic
    crew (``Crew/T``: Captain, Cannoneer, Helmsman...) count as crew cards of their nation."""
    raw = (
        resources.files("shipwreck.games.spanish_main")
        .joinpath("data/ships.csv")
        .read_text(encoding="utf-8")
    )
    rows = [r for r in csv.DictReader(io.StringIO(raw)) if r["type"] in ("Crew", "Crew/T")]
    nations: dict[str, set[str]] = {}
    for r in rows:
        nations.setdefault(slug(r["name"]), set()).add(r["faction"])
    out: dict[str, CrewCard] = {}
    for r in rows:
        cid = slug(r["name"])
        if len(nations[cid]) > 1:
            cid = f"{cid}-{r['faction'].lower()}"
        if cid in out:
            continue
        text = " ".join(r["ability"].split())
        out[cid] = CrewCard(
            cid, r["number"], r["name"], r["faction"], int(float(r["point_cost"])), text
        )
    return out


CREW: dict[str, CrewCard] = _load_crew()


def offered(abilities: bool = True) -> dict[str, ShipCard]:
    """The ships a fleet may be built from (SM-6; see the module docstring): all of them, with
    or without their abilities."""
    return CARDS


PRESETS: dict[str, tuple[str, ...]] = {
    "english": ("dover", "lord-walpole", "plantagenet"),
    "spanish": ("el-picador", "el-leon", "el-tirador", "pescados-de-plata"),
    "pirate": ("pandora", "greyhound", "longshanks", "carrion-crow"),
    "plain": ("dover", "el-picador", "el-picador", "el-picador", "el-picador"),
}
"""Ready-made fleets of at most 30 points (SM-4). ``plain`` uses only ships with no ability."""
DEFAULT_PRESETS = ("english", "spanish", "pirate", "english")
"""Seat i takes DEFAULT_PRESETS[i] unless the table says otherwise."""


def fleet_points(ids: list[str] | tuple[str, ...]) -> int:
    return sum(CARDS[i].points for i in ids)
