"""Every Spanish Main command, as frozen msgspec structs (a tagged union on ``cmd``).

Ships and islands are named by id (``dover``, ``el-picador-2``, ``isla-3``), coins by number
(``7``), masts by number bow -> stern (``1..n``). Headings turn in degrees, + to starboard.
The text forms the action language will give them:

=========================================  ==============================================
``move dover S 30 S -15 3.5``             ``Move("dover", (("S", 30.0, None), ("S", -15.0, 3.5)))``
``move dover toward el-picador``           ``MoveToward("dover", "el-picador")``
``move dover dock isla-2``                 ``MoveDock("dover", "isla-2")``
``come about dover``                       ``ComeAbout("dover")``
``shoot dover at el-picador [with 2 3]``   ``Shoot("dover", "el-picador", (2, 3))``
``shoot dover at a with 1 2, at b with 3``  ``Shoot("dover", "a", (1, 2), (("b", (3,)),))``
``explore dover`` / ``load dover 4 7``     ``Explore("dover")`` / ``Load("dover", (4, 7))``
``repair dover [mast 2]``                  ``Repair("dover", 2)``
``tow dover el-picador`` / ``break tow dover``  ``Tow(...)`` / ``BreakTow("dover")``
``ram dover el-picador``                   ``Ram("dover", "el-picador")``
``board kill`` / ``board steal``           ``Board("kill")`` / ``Board("steal")``
``pass``                                   ``Pass()``
``eliminate 2``                            ``Eliminate(2)``
``end turn``                               ``EndTurn()``
``timeout red``                            ``Timeout("red")`` (the system seat only)
=========================================  ==============================================

Crew at a dock (SM-61), by crew id: ``drop off gunn from dover`` is ``DropOff("gunn", "dover")``,
``pick up gunn with dover`` is ``PickUp("gunn", "dover")``, ``transfer gunn from dover to titan``
is ``Transfer("gunn", "dover", "titan")``. (The crew comes first: a crew id never follows a
ship id, so the parser, which reads both as the same kind of word, knows which is which.)
"""

from __future__ import annotations

from typing import Literal

import msgspec

LegKind = Literal["S", "L"]
Leg = tuple[LegKind, float, float | None]
"""(kind, heading change in degrees (+ = starboard), distance or None for the whole leg)."""


class _Cmd(msgspec.Struct, frozen=True, tag_field="cmd", gc=False):
    pass


# --- actions: one per ship per turn (SM-10)


class Move(_Cmd, tag="move", frozen=True):
    """SM-12: the legs of the base move, in any order; fewer legs than the base move is allowed."""

    ship: str
    legs: tuple[Leg, ...]


class MoveToward(_Cmd, tag="move-toward", frozen=True):
    """Helper: each leg turns (as far as its arc allows) toward ``target`` and runs its whole
    length, stopping at the first touch."""

    ship: str
    target: str


class MoveDock(_Cmd, tag="move-dock", frozen=True):
    """Helper: as ``toward``, but refused unless the ship ends docked at ``island``."""

    ship: str
    island: str


class ComeAbout(_Cmd, tag="come-about", frozen=True):
    """SM-16: a docked ship (or one whose bow is against something) turns in place, bow where
    the stern was. It is that ship's move."""

    ship: str


Aim = tuple[str, tuple[int, ...]]
"""(target, masts) of one part of a split shoot action; no masts: every cannon left that can."""


class Shoot(_Cmd, tag="shoot", frozen=True):
    """SM-25: the ship's cannons (all in range, or only ``masts``) fire at ``target``; ``also``
    splits the action: each further (target, masts) takes its own cannons, one target per cannon.
    An aim with no masts takes every cannon that can fire at it and is not named elsewhere."""

    ship: str
    target: str
    masts: tuple[int, ...] = ()
    also: tuple[Aim, ...] = ()


class Explore(_Cmd, tag="explore", frozen=True):
    """SM-30: see the coins at the wild island the ship began the turn docked at; then ``load``."""

    ship: str


class Repair(_Cmd, tag="repair", frozen=True):
    """SM-32: at home, restore one eliminated mast (``mast``, or the bow-most one)."""

    ship: str
    mast: int | None = None


# --- answers to prompts


class Load(_Cmd, tag="load", frozen=True):
    """Answers ``load`` after an explore: the coins to take aboard (any, up to free cargo)."""

    ship: str
    coins: tuple[int, ...] = ()


class Tow(_Cmd, tag="tow", frozen=True):
    """SM-17 (``after_move``): take the derelict whose bow the ship touches in tow."""

    ship: str
    target: str


class Ram(_Cmd, tag="ram", frozen=True):
    """SM-18 (``after_move``): ram the enemy ship the bow touches."""

    ship: str
    target: str


class Board(_Cmd, tag="board", frozen=True):
    """SM-20: start the boarding party after a ram (``board``), saying what you take if you win;
    or, having won one started by the other side, take it (``plunder``)."""

    take: Literal["kill", "steal"]


class Pass(_Cmd, tag="pass", frozen=True):
    """Decline: no ram or tow (``after_move``), no boarding (``board``), nothing (``plunder``)."""


class Eliminate(_Cmd, tag="eliminate", frozen=True):
    """SM-18, SM-25 (``eliminate``): the hit ship's owner picks the mast it loses (1 = bow)."""

    mast: int


class EndTurn(_Cmd, tag="end-turn", frozen=True):
    pass


# --- free actions


class BreakTow(_Cmd, tag="break-tow", frozen=True):
    """SM-17: let the tow go (any time in your turn); the derelict stays where it is, yours."""

    ship: str


class DropOff(_Cmd, tag="drop-off", frozen=True):
    """SM-14, SM-61: a docked ship puts one of her crew ashore on the island (free, your turn)."""

    crew: str
    ship: str


class PickUp(_Cmd, tag="pick-up", frozen=True):
    """SM-14, SM-61: a docked ship takes aboard a crew of yours waiting on the island (free)."""

    crew: str
    ship: str


class Transfer(_Cmd, tag="transfer", frozen=True):
    """SM-14, SM-61: move a crew between two of your ships docked at the same island (free)."""

    crew: str
    ship: str
    to: str


class Look(_Cmd, tag="look", frozen=True):
    """SM-60 (Raven's Neck, Lucky the Parrot): once per turn, see one face-down coin (free)."""

    ship: str
    coin: int


class Trade(_Cmd, tag="trade", frozen=True):
    """SM-60 (David "Bones" Wiley): once per turn, swap one coin at random with an enemy ship
    within S (free, your turn)."""

    ship: str
    target: str


class Sacrifice(_Cmd, tag="sacrifice", frozen=True):
    """SM-60 (Captain Blackheart): once per turn, eliminate one of a ship's crew to give her an
    extra action (free, your turn)."""

    crew: str
    ship: str


class Arm(_Cmd, tag="arm", frozen=True):
    """SM-60 (Carbon Charlie): docked at home, once per turn, turn one coin unloaded there into
    a rank 3 short-range cannon for the ship (free, your turn); its gold is lost."""

    ship: str
    coin: int


class Cancel(_Cmd, tag="cancel", frozen=True):
    """SM-60 (Nemesio Diaz): once per turn, cancel the ability of one enemy ship or one crew
    aboard it, within S of the ship, for the rest of the turn (free, your turn)."""

    what: str
    """The ship (her card's ability) or the crew piece (its own), by id."""
    ship: str


class Timeout(_Cmd, tag="timeout", frozen=True):
    """From the system seat: apply the safe default to a seat's open prompt."""

    target: str


Command = (
    Move | MoveToward | MoveDock | ComeAbout | Shoot | Explore | Repair | Load | Tow | Ram | Board
    | Pass | Eliminate | EndTurn | BreakTow | DropOff | PickUp | Transfer | Look | Trade
    | Sacrifice | Arm | Cancel | Timeout
)  # fmt: skip
