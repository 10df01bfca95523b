"""The whole truth of a Spanish Main game, coin values included.

Only :mod:`.rules` changes it and only :func:`.view.view` shows any of it to a seat. Positions are
floats rounded to 1e-6 after every move, so that a saved game is short and replays byte for byte.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from shipwreck.engine.rng import Rng

Step = Literal["turn", "after_move", "eliminate", "load", "board", "plunder", "end"]


class Mast(msgspec.Struct):
    rank: int
    range: Literal["S", "L"]
    up: bool = True
    """False once eliminated (with its cannon)."""


class Crew(msgspec.Struct):
    """A crew piece (SM-61): its card, its owner, and the cargo slots it takes (1; 0 for a card
    that takes none; -1 for one that adds a slot)."""

    id: str
    card: str
    name: str
    owner: int
    slots: int = 1


class Ship(msgspec.Struct):
    id: str
    card: str
    name: str
    owner: int
    points: int
    masts: list[Mast]
    cargo_slots: int
    move: list[str]
    x: float
    """The bow tip."""
    y: float
    heading: float
    length: float
    cargo: list[int] = msgspec.field(default_factory=list)
    """Coin numbers aboard."""
    crew: int = 0
    """Plain crew without a card (``options.crew``): only for a boarding party's kill."""
    aboard: list[Crew] = msgspec.field(default_factory=list)
    """Crew pieces aboard (SM-61), in cargo slots."""
    docked: str | None = None
    towing: str | None = None
    towed_by: str | None = None
    guns: int = 0
    """Cannons made of treasure (Carbon Charlie, SM-60): rank 3, S range, fired as a
    Musketeer's, lost only when she sinks."""

    @property
    def masts_up(self) -> int:
        return sum(1 for m in self.masts if m.up)

    @property
    def derelict(self) -> bool:
        """SM-11: no masts left. (A loop, not ``any()``: the rules ask this of every ship at
        every turn.)"""
        for m in self.masts:  # noqa: SIM110 - (a loop: no generator made)
            if m.up:
                return False
        return True

    @property
    def free_cargo(self) -> int:
        return self.cargo_slots - len(self.cargo) - sum(c.slots for c in self.aboard)

    @property
    def crew_count(self) -> int:
        """Every crew aboard, plain and pieces (SM-20: what a boarding party may eliminate)."""
        return self.crew + len(self.aboard)


SHIP_AT: dict[str, int] = {name: k for k, name in enumerate(Ship.__struct_fields__)}
"""Each field's place in ``msgspec.structs.astuple(ship)``: compiled code that reads several
fields of every ship (a position's key, its hulls, the pin scan) takes them from one astuple,
the very objects she holds; each ``ship.x`` costs a compiled module a lookup by name (~25 ns,
against 5 ns interpreted), an astuple of all her fields ~70 ns."""

# The places compiled code reads, as literal ``Final`` ints: the compiled modules that import
# them (``memo``, ``rules``) then hold each as a constant, not a lookup by name (a test checks
# them against :data:`SHIP_AT`).
AT_ID: Final = 0
AT_OWNER: Final = 3
AT_X: Final = 8
AT_Y: Final = 9
AT_HEADING: Final = 10
AT_LENGTH: Final = 11
AT_TOWING: Final = 16


class Island(msgspec.Struct):
    id: str
    x: float
    y: float
    r: float
    home: int | None = None
    """The seat whose home island this is, or None for a wild island."""
    coins: list[int] = msgspec.field(default_factory=list)
    crew: list[Crew] = msgspec.field(default_factory=list)
    """Crew dropped off here (SM-14, SM-61), waiting to be picked up by their owner."""


class Coin(msgspec.Struct):
    value: int
    known: list[int] = msgspec.field(default_factory=list)
    """Seats that have seen its value (SM-30); everyone once unloaded."""
    place: str = ""
    """``island:ID``, ``ship:ID``, ``home:SEAT`` or ``lost``."""


class Options(msgspec.Struct, forbid_unknown_fields=True):
    points: int = 30
    """SM-4: the fleet point limit."""
    hit_rule: Literal["gte", "gt"] = "gte"
    """SM-25: a cannon hits on d6 >= rank (``gte``) or d6 > rank (``gt``)."""
    end: Literal["half", "all"] = "half"
    """SM-40: end at more than half the gold still in play (``half``), or only once every coin
    is unloaded or lost (``all``; ``half`` ends then too)."""
    max_rounds: int = 1000
    """A safety cap the rules do not have (SM-40: no round cap decides a game): after this many
    rounds the game ends and is scored (SM-41). The shipped bots never reach it. 0: no cap."""
    abilities: bool = True
    """SM-6, SM-60: every ship plays its printed ability (those that play yet, see
    docs/rules/spanish-main.md); off: plain hulls."""
    crew: int = 0
    """SM-6: crew is off by default; >0 gives every ship that many plain crew (for SM-20 kill)."""
    start: Literal["out", "in"] = "out"
    """SM-4: ships start docked facing out (stern touching) or bow in (then they come about)."""
    fleets: list[list[str]] | None = None
    """Per seat: ship ids, or one preset name (``["english"]``)."""


class Salvo(msgspec.Struct):
    """One target of a split shoot action and the masts that fire at it (SM-25)."""

    target: str
    masts: list[int]


class Volley(msgspec.Struct):
    """A shoot action being resolved cannon by cannon (SM-25)."""

    ship: str
    target: str
    masts: list[int]
    """0-based masts still to fire at ``target``."""
    later: list[Salvo] = msgspec.field(default_factory=list)
    """The further targets of a split shoot action, in order."""


class Hit(msgspec.Struct):
    """A mast to eliminate, waiting for the target's owner to choose which (SM-18, SM-25)."""

    ship: str
    why: str
    more: int = 0
    """Masts still to go after this one (a card that eliminates two masts with one hit)."""
    chooser: int | None = None
    """The seat that picks the mast, if not the ship's owner (a card says so, SM-60)."""


class RamState(msgspec.Struct):
    """A ram and its boarding party (SM-18, SM-20)."""

    ship: str
    target: str
    offer: int = 0
    """0: the turn's player may board; 1: the target's owner may; 2: offers are over."""
    take: str = ""
    winner: str = ""
    """The ship whose side won the boarding party, while it chooses (``plunder``)."""


class AfterMove(msgspec.Struct):
    """The free actions a move opened (SM-17, SM-18), until taken or passed."""

    ship: str
    rammed: bool = False
    towed: bool = False
    before: list[str] = msgspec.field(default_factory=list)
    """Enemy ships the bow already touched before the move: no ram on those (SM-18)."""


class SpanishMainState(msgspec.Struct):
    seed: int
    rng: Rng
    seats: list[str]
    width: float
    height: float
    islands: dict[str, Island]
    ships: dict[str, Ship]
    coins: list[Coin]
    """Coin n is coins[n - 1]."""
    options: Options
    dice: list[int] = msgspec.field(default_factory=list)
    """Forced dice (scenarios, tests): used before the RNG."""
    gold: list[int] = msgspec.field(default_factory=list)
    gold_total: int = 0
    """All gold dealt, announced at setup; less the coins lost, the gold in play (SM-40)."""
    turn: int = 0
    first: int = 0
    """The seat that went first (rolled, SM-2): a new round begins at its turn."""
    round: int = 1
    step: Step = "turn"
    acted: list[str] = msgspec.field(default_factory=list)
    extra: list[str] = msgspec.field(default_factory=list)
    """Ships that may be given one more action this turn (SM-60: an extra-action roll)."""
    marks: list[str] = msgspec.field(default_factory=list)
    """Once-per-turn abilities used this turn, as ``KIND:SHIP`` (SM-60); cleared each turn."""
    soak: list[str] = msgspec.field(default_factory=list)
    """Ships hit once by the current shoot action that need a second hit to lose a mast."""
    began_docked: dict[str, str] = msgspec.field(default_factory=dict)
    """Ship -> the island it was docked at when this turn began (SM-30)."""
    raiders: dict[str, str] = msgspec.field(default_factory=dict)
    """Ship -> the enemy home she docked at (SM-60: Shadow, Freedom, El Fantasma, Fernando
    Sanchez): "if able, she must leave on your next turn"; that turn, it is a ``leave:`` mark."""
    after: AfterMove | None = None
    volley: Volley | None = None
    hit: Hit | None = None
    ram: RamState | None = None
    loading: str | None = None
    """The ship that explored and is choosing what to load."""
    sunk: list[str] = msgspec.field(default_factory=list)
    contested: bool = True
    """Did two or more players have a sailing ship at the start? Only then does the game end
    when one is left (SM-40); a one-fleet scenario would otherwise be over before it began."""
    over: bool = False
    winners: list[int] = msgspec.field(default_factory=list)
    end_reason: str = ""
