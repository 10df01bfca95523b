"""The whole truth of a Lifeboat game, hidden parts included.

Only :mod:`shipwreck.games.lifeboat.rules` changes it, and only
:func:`shipwreck.games.lifeboat.view.view` shows any of it to a seat.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shipwreck.engine.rng import Rng

Phase = Literal["supply", "actions", "navigation", "over"]
Step = Literal["pick", "turn", "keep", "respond", "fight", "choose", "overboard", "thirst", "end"]


class Character(msgspec.Struct):
    id: str
    strength: int
    wounds: int = 0
    dead: bool = False
    hidden: list[str] = msgspec.field(default_factory=list)
    revealed: list[str] = msgspec.field(default_factory=list)
    friend: str = ""
    enemy: str = ""
    rowed: bool = False
    fought: bool = False

    @property
    def conscious(self) -> bool:
        """Alive and awake (LB-30)."""
        return not self.dead and self.wounds < self.strength

    @property
    def state(self) -> str:
        if self.dead:
            return "dead"
        return "unconscious" if self.wounds >= self.strength else "ok"


class Request(msgspec.Struct):
    """A swap or robbery waiting for the victim to agree or resist (LB-21, LB-22)."""

    kind: Literal["swap", "rob"]
    attacker: str
    target: str
    item: str | None = None
    """For a robbery: the named revealed item, or ``None`` for a random hidden one."""
    candidates: list[str] = msgspec.field(default_factory=list)
    """For a hidden robbery: the victim's hidden items when the attempt began."""


class Fight(msgspec.Struct):
    """An open fight (LB-25): who is on which side and who has finished."""

    request: Request
    attackers: list[str]
    defenders: list[str]
    voters: list[str] = msgspec.field(default_factory=list)
    """Everyone conscious when it began, bow to stern: all are asked, all must say ``done``.
    (Nobody wakes or falls while a fight is open.)"""
    done: list[str] = msgspec.field(default_factory=list)


class TradeOffer(msgspec.Struct):
    source: str
    target: str
    item: str
    ask: str | None = None


class LifeboatState(msgspec.Struct):
    seed: int
    rng: Rng
    players: list[str]
    """Seat -> the character that player holds."""
    boat: list[str]
    """Character ids, bow -> stern."""
    chars: dict[str, Character]
    supply_deck: list[str]
    nav_deck: list[int]
    options: dict[str, bool] = msgspec.field(default_factory=dict)
    round: int = 1
    birds: int = 0
    phase: Phase = "supply"
    step: Step = "pick"
    out: list[str] = msgspec.field(default_factory=list)
    """Supply cards that have left the game (used, discarded, lost at sea)."""
    # supply phase
    offer: list[str] = msgspec.field(default_factory=list)
    pickers: list[str] = msgspec.field(default_factory=list)
    # action phase
    order: list[str] = msgspec.field(default_factory=list)
    turn: int = -1
    drawn: list[int] = msgspec.field(default_factory=list)
    request: Request | None = None
    fight: Fight | None = None
    nav_table: list[int] = msgspec.field(default_factory=list)
    trades: list[TradeOffer] = msgspec.field(default_factory=list)
    umbrella_round: int = 0
    """The round in which the open umbrella last cancelled a thirst wound (once per round)."""
    # navigation phase
    card: int = 0
    overboard: list[str] = msgspec.field(default_factory=list)
    responders: list[str] = msgspec.field(default_factory=list)
    baits: int = 0
    thirst: dict[str, int] = msgspec.field(default_factory=dict)
    """Character -> thirst causes still to settle in this navigation step."""
    passed: list[str] = msgspec.field(default_factory=list)
    """Water holders who said ``pass`` to an unconscious thirsty character this thirst step."""
    scores: dict[str, int] | None = None

    def seat_of(self, char: str) -> int:
        return self.players.index(char)

    def actor(self) -> str | None:
        """The character whose turn it is in the action phase, if any."""
        if self.phase == "actions" and 0 <= self.turn < len(self.order):
            return self.order[self.turn]
        return None
