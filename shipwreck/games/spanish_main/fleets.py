"""Building fleets (SM-4, SM-61): what an entry costs, which crew may sail on which ship, and the
crewed preset fleets a table may choose.

A fleet is a list of entries ``SHIP[+CREW...]``: a ship of the list (``dover``) and the crew
cards that start aboard her (``dover+explorer-english+powder-pete``). A crew card naming a
nation is bought only onto a ship of that nation, or one whose card (Royal Fortune, Bonny Kate)
or a crew beside it (Brother Virgil) lets that nation's crew work there (SM-61): a crew card that
could never use its ability aboard is refused when the fleet is built, with the fix.

The crewed presets are each exactly :data:`CREWED_POINTS` points, so any mix of them is fair
by points. The lobby's ``new sm N fleet NAME…`` picks them (:func:`table_fleets`). Equal points
are not equal strength, so the presets are also balanced by play: between two copies of
``sm_hauler``, each preset red in half the games, every pairing is within 40-60 %
(``bench/spanish_main_fleets.py``; the figures are in the note of :data:`CREWED`).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from shipwreck.games.spanish_main import abilities
from shipwreck.games.spanish_main.ships import CARDS, CREW, PRESETS, ShipCard
from shipwreck.games.spanish_main.state import Options

CREWED_POINTS = 30
"""Every crewed preset costs exactly this (the default point limit, SM-4)."""

CREWED: dict[str, tuple[str, ...]] = {
    "navy": (
        "dover+oarsman-english",
        "lord-walpole+explorer-english",
        "gallowglass+explorer-english+oarsman-english",
    ),
    "armada": (
        "el-duque+explorer-spanish",
        "pescados-de-plata+master-bianco+explorer-spanish",
        "el-picador+oarsman-spanish",
    ),
    "corsairs": (
        "pandora+explorer-pirate+lucky-the-parrot",
        "greyhound+silver-helmsman",
        "treachery+explorer-pirate",
    ),
    "smugglers": (
        "royal-fortune+master-bianco+explorer-spanish",
        "bonny-kate+explorer-english",
        "darkhawk-ii+explorer-pirate",
    ),
}
"""Crewed preset fleets (SM-4, SM-61), :data:`CREWED_POINTS` points each. ``smugglers`` sails
Pirate ships whose cards take Spanish and English crew, and Darkhawk II's big hold.

Balanced by play: sm_hauler on both sides, each preset red in half the games
(``bench/spanish_main_fleets.py --games 120 --seed 21000``, then ``--games 80 --seed 3000``),
the first preset of each pairing won: navy-armada 54 % / 44 %, navy-corsairs 61 % / 51 %,
navy-smugglers 54 % / 48 %, armada-corsairs 52 % / 50 %, armada-smugglers 57 % / 48 %,
corsairs-smugglers 58 % / 51 % (of the 200 games of a pairing, 50-57 %). Before, navy won
70 %, 62 % and 81 % of its pairings and smugglers lost to armada too (34 %; ``--games 50``):
Powder Pete's extra gold on every unload made navy's hauls worth more, and smugglers had room
for five coins (Longshanks, Skyme the Monkey and Oarsmen, which a hauler never uses). Now navy
sails without Powder Pete and Dover without an Explorer, smugglers sail Darkhawk II, armada El
Duque (faster than El Tirador) and corsairs Treachery (a slot more than Carrion Crow)."""

NATIONS = {"navy": "English", "armada": "Spanish", "corsairs": "Pirate", "smugglers": "mixed"}
"""Whose ships each crewed preset sails (for the lobby's messages)."""

ALL_PRESETS: dict[str, tuple[str, ...]] = {**PRESETS, **CREWED}
"""Every preset a table option ``fleets`` may name: the plain ones and the crewed ones."""


class FleetError(ValueError):
    """A fleet that cannot be built; the message is one line saying what to change."""


def split(entry: str) -> tuple[str, list[str]]:
    """``dover+explorer-english`` -> (``dover``, [``explorer-english``])."""
    ship, *crew = entry.split("+")
    return ship, crew


def fleet_cost(entry: str) -> int:
    """SM-4, SM-61: the points of a fleet entry ``SHIP[+CREW...]``: the ship, and each crew
    card less 1 for each discount card (Gaspar Zuan, Countess Diana Doone) placed with it."""
    ship, crew = split(entry)
    discount = [_is_discount(c) for c in crew]
    cost = CARDS[ship].points
    for c, own in zip(crew, discount, strict=True):
        cost += max(0, CREW[c].points - (sum(discount) - own))
    return cost


def points(entries: Sequence[str]) -> int:
    return sum(fleet_cost(e) for e in entries)


def _is_discount(cid: str) -> bool:
    a = abilities.TEXTS.get(CREW[cid].ability)
    return a is not None and a.kind == "discount"


def _kind(text: str) -> str:
    a = abilities.TEXTS.get(text)
    return a.kind if a is not None else ""


def crew_kind(card_id: str) -> str:
    """The kind of a crew card's ability (``dock_explore``, ``look``, ``treasure_plus``…)."""
    c = CREW.get(card_id)
    return _kind(c.ability) if c is not None else ""


def crew_nations(card: ShipCard, crew: list[str]) -> set[str] | None:
    """The nations whose crew work aboard ``card`` with ``crew`` beside them (SM-61): hers, and
    any her card allows; None when a crew card lets every nation's work there."""
    if any(_kind(CREW[c].ability) == "any_crew" for c in crew):
        return None
    nations = {card.faction}
    own = abilities.TEXTS.get(card.ability)
    if own is not None and own.kind == "foreign_crew":
        nations.add(own.faction)
    return nations


def ability_kinds(card_id: str, crew: list[str], text: str | None = None) -> list[str]:
    """The kinds of ability (:data:`abilities.TEXTS`: ``look``, ``dock_explore``, ``trade``…)
    a ship of ``card_id`` has with ``crew`` aboard: her card's (``text`` if given: a view's, empty
    when abilities are off), and each crew card's that works aboard her (SM-61). Public, as the
    cards are."""
    card = CARDS.get(card_id)
    if card is None:
        return []
    own = _kind(card.ability if text is None else text)
    kinds = [own] if own else []
    nations = crew_nations(card, crew)
    for cid in crew:
        c = CREW.get(cid)
        if c is not None and _kind(c.ability) and (nations is None or c.faction in nations):
            kinds.append(_kind(c.ability))
    return kinds


def entry_problem(entry: str) -> str | None:
    """Why a fleet entry cannot be bought (an unknown ship or crew card, a crew card that
    could never work aboard her, more crew than cargo slots), or None."""
    ship, crew = split(entry)
    if ship not in CARDS:
        return f"{ship!r} is not on the ship list{_close(ship, CARDS)}"
    card = CARDS[ship]
    for cid in crew:
        if cid not in CREW:
            return f"{cid!r} is not a crew card{_close(cid, CREW)}"
    nations = crew_nations(card, crew)
    for cid in crew:
        c = CREW[cid]
        if nations is not None and c.faction not in nations:
            return (
                f"{cid} is {c.faction} crew: it works only on {c.faction} ships (or one whose"
                f" card takes {c.faction} crew), and {ship} is {card.faction}"
            )
    slots = sum(abilities.crew_slots(c) for c in crew)
    if slots > card.cargo:
        return (
            f"{ship} has {card.cargo} cargo slots, and her crew would take {slots}:"
            " put the crew on another ship"
        )
    return None


POINT_LIMIT = Options().points
"""SM-4: a table's point limit when its options name none (the lobby's tables)."""


def fleet_problem(
    entries: Sequence[str], limit: int = POINT_LIMIT, with_abilities: bool = True
) -> str | None:
    """SM-4, SM-61: why the fleet ``entries`` (``SHIP+CREW…``) cannot sail, in one line that
    says what to change, or None. The one check of a built fleet: a scenario's, a table
    option's (:mod:`.setup`) and one built in the app."""
    if not entries:
        return "an empty fleet: add a ship"
    for entry in entries:
        problem = entry_problem(entry)
        if problem is not None:
            return problem
        if "+" in entry and not with_abilities:
            return "crew play only with abilities on"
    total = points(entries)
    if total > limit:
        return (
            f"{total} points, over the limit of {limit}: drop a ship or crew, or pick cheaper"
            " ones (SM-4)"
        )
    return None


BUILT_SEPARATOR = " "
"""Between the entries of a fleet built in the app, kept as one seat's ``fleet`` word (the
table's seats, so a restart and a replay deal the same fleet)."""


def built(entries: Sequence[str]) -> str:
    """A built fleet as one seat's fleet word: ``dover+explorer-english lord-walpole``."""
    return BUILT_SEPARATOR.join(entries)


def seat_fleet(word: str) -> list[str]:
    """A seat's fleet word as table options name it: a preset's name, or a built fleet's
    entries (:func:`built`)."""
    return [word] if word in ALL_PRESETS else word.split(BUILT_SEPARATOR)


def _close(word: str, names: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def describe(name: str) -> str:
    """One line for a crewed preset: ``navy (English, 30 points): dover with explorer-english,
    powder-pete; lord-walpole with …``."""
    parts = []
    for entry in CREWED[name]:
        ship, crew = split(entry)
        parts.append(f"{ship} with {', '.join(crew)}" if crew else ship)
    return f"{name} ({NATIONS[name]}, {points(CREWED[name])} points): " + "; ".join(parts)


def table_fleets(seats: int, named: list[str] | tuple[str, ...]) -> list[str]:
    """The crewed preset of each seat of a new table (``new sm N fleet NAME…``): the names
    given, seat by seat from the first (the creator's), then for the seats left the crewed
    presets not yet named, in :data:`CREWED`'s order (a name may be given twice: all cost the
    same). Raises :class:`FleetError` with one line for a name that is not a crewed preset, or
    more names than seats."""
    names = list(named)
    if len(names) > seats:
        raise FleetError(
            f"{len(names)} fleets named for {seats} seats: name at most one a seat, yours first"
        )
    for name in names:
        if name not in CREWED:
            close = difflib.get_close_matches(name, list(CREWED), n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise FleetError(f"no fleet {name!r}; {hint}the fleets: {', '.join(CREWED)}")
    rest = [f for f in CREWED if f not in names]  # (4 presets: enough for 4 seats)
    return names + rest[: seats - len(names)]


def fleet_options(seats: int, names: list[str]) -> dict[str, object]:
    """The table options that sail each seat's named preset or built fleet (a table's seats,
    ``new sm N fleet …``; ``sim --fleets``); ``["crewed"]``: the crewed presets as the lobby
    deals them. FleetError, one line, for a name that is no preset, a built fleet that cannot
    sail (:func:`fleet_problem`) or a count that is not the seats'."""
    if names == ["crewed"]:
        names = table_fleets(seats, [])
    if len(names) != seats:
        raise FleetError(f"one fleet per seat ({seats}), not {len(names)}")
    for name in names:
        entries = seat_fleet(name)
        if name in ALL_PRESETS:
            continue
        if len(entries) == 1 and split(name)[0] not in CARDS:  # (nor a fleet built in the app)
            close = difflib.get_close_matches(name, list(ALL_PRESETS), n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise FleetError(f"no fleet {name!r}; {hint}the fleets: {', '.join(ALL_PRESETS)}")
        problem = fleet_problem(entries)
        if problem is not None:
            raise FleetError(f"fleet {name!r}: {problem}")
    return {"fleets": [seat_fleet(f) for f in names]}
