"""The structs a seat's view of a Spanish Main game is made of (:mod:`.view` makes them).

Their own module because a ``msgspec.Struct`` with field defaults cannot sit in a module mypyc
compiles (:mod:`shipwreck._native`), and :mod:`.view`, which every decision of a bot reads, is
compiled. :mod:`.view` names them too: import them from there.
"""

from __future__ import annotations

import msgspec

from shipwreck.engine.core import Prompt, Seat
from shipwreck.games.spanish_main.commands import Command


class CoinView(msgspec.Struct, frozen=True):
    id: int
    value: int | None
    """None unless this seat has seen it."""


class CrewView(msgspec.Struct, frozen=True):
    """A crew piece (SM-61): public, like the ships."""

    id: str
    card: str
    name: str
    owner: int
    slots: int


class MastView(msgspec.Struct, frozen=True):
    rank: int
    range: str
    up: bool


class ShipView(msgspec.Struct, frozen=True):
    id: str
    name: str
    card: str
    owner: int
    points: int
    x: float
    """The bow tip."""
    y: float
    heading: float
    """Compass degrees: 0 north, 90 east."""
    length: float
    masts: tuple[MastView, ...]
    """Bow -> stern."""
    move: tuple[str, ...]
    """The base move now (S while towing)."""
    cargo_slots: int
    cargo: tuple[CoinView, ...]
    crew: int
    docked: str | None
    towing: str | None
    towed_by: str | None
    derelict: bool
    pinned_by: str | None
    acted: bool
    aboard: tuple[CrewView, ...] = ()
    """Crew pieces aboard (SM-61)."""
    ability: str = ""
    """Her card's ability text, if it plays in this game (SM-60)."""


class IslandView(msgspec.Struct, frozen=True):
    id: str
    x: float
    y: float
    r: float
    home: int | None
    coins: tuple[CoinView, ...]
    crew: tuple[CrewView, ...] = ()
    """Crew dropped off here (SM-61)."""


class RamView(msgspec.Struct, frozen=True):
    ship: str
    target: str
    winner: str | None


class SpanishMainView(msgspec.Struct, frozen=True):
    seat: Seat | None
    me: str | None
    seats: tuple[str, ...]
    width: float
    height: float
    round: int
    turn: int
    """The seat whose turn it is."""
    step: str
    islands: tuple[IslandView, ...]
    ships: tuple[ShipView, ...]
    gold: tuple[int, ...]
    """Gold unloaded at home, per seat."""
    home_coins: tuple[tuple[int, ...], ...]
    gold_total: int
    coins_lost: int
    prompts: tuple[Prompt, ...]
    moved: str | None
    """The ship whose move opened the free actions (``after_move``)."""
    hit: str | None
    """The ship whose owner picks a mast to lose (``eliminate``)."""
    loading: str | None
    ram: RamView | None
    volley: tuple[str, str] | None
    """(shooter, target) while a volley is being resolved."""
    sunk: tuple[str, ...]
    choices: tuple[Command, ...] = ()
    """My legal answers to my open decision (empty if I have none)."""
    gold_in_play: int = 0
    """SM-40: the gold still in play (unloaded, or in coins not lost); more than half of it
    ends the game. Public: a lost coin is revealed."""
    free: tuple[Command, ...] = ()
    over: bool = False
    end_reason: str = ""
    winners: tuple[int, ...] = ()
    options: dict[str, object] = msgspec.field(default_factory=dict)
