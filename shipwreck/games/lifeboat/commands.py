"""Every Lifeboat command, as frozen msgspec structs (a tagged union on ``cmd``).

Characters are named by id (``kid``), navigation cards by number (19-42), items by id
(``water``, ``painting:3``; a bare ``painting`` means any painting). The canonical text of each
command lives in :mod:`shipwreck.lang.lifeboat`.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class _Cmd(msgspec.Struct, frozen=True, tag_field="cmd", gc=False):
    pass


# The action phase: one of these on your turn (LB-12).
class Row(_Cmd, tag="row", frozen=True):
    pass


class Swap(_Cmd, tag="swap", frozen=True):
    target: str


class Rob(_Cmd, tag="rob", frozen=True):
    target: str
    item: str | None = None
    """A revealed item of the victim, or ``None`` for a random hidden one."""


class Use(_Cmd, tag="use", frozen=True):
    """A special action: ``use umbrella [on X]`` or ``use medkit [on X]`` (LB-23)."""

    item: str
    target: str | None = None


class FireFlare(_Cmd, tag="fire", frozen=True):
    pass


class Rest(_Cmd, tag="rest", frozen=True):
    pass


# Answers to prompts.
class Keep(_Cmd, tag="keep", frozen=True):
    cards: tuple[int, ...] = ()


class Agree(_Cmd, tag="agree", frozen=True):
    pass


class Resist(_Cmd, tag="resist", frozen=True):
    pass


class Join(_Cmd, tag="join", frozen=True):
    side: Literal["attacker", "defender"]


class Reveal(_Cmd, tag="reveal", frozen=True):
    item: str


class Done(_Cmd, tag="done", frozen=True):
    pass


class Take(_Cmd, tag="take", frozen=True):
    """Pick a card from the supply offer (LB-11)."""

    item: str


class Choose(_Cmd, tag="choose", frozen=True):
    """The navigator picks a card from the navigation table (LB-40)."""

    card: int


class ThrowPreserver(_Cmd, tag="throw", frozen=True):
    """Throw your preserver to a conscious character in the water (LB-42)."""

    target: str


class PlayBait(_Cmd, tag="bait", frozen=True):
    pass


class Pass(_Cmd, tag="pass", frozen=True):
    """End your part in the overboard step without throwing or playing anything more."""


class Drink(_Cmd, tag="drink", frozen=True):
    pass


class Wound(_Cmd, tag="wound", frozen=True):
    pass


# Free actions: any time they are allowed, without a prompt (LB-13, LB-32, LB-50).
class Offer(_Cmd, tag="offer", frozen=True):
    item: str
    target: str
    ask: str | None = None


class Accept(_Cmd, tag="accept", frozen=True):
    source: str | None = None
    """Whose offer; may be left out when only one offer is waiting for you."""


class Decline(_Cmd, tag="decline", frozen=True):
    source: str | None = None


class Give(_Cmd, tag="give", frozen=True):
    """Give without asking: a preserver put on someone in advance (LB-32), or water to an
    unconscious thirsty character in the thirst step (LB-50)."""

    item: str
    target: str


class Drop(_Cmd, tag="drop", frozen=True):
    """Throw one of your items overboard; it leaves the game (LB-13)."""

    item: str


class Say(_Cmd, tag="say", frozen=True):
    text: str


class Timeout(_Cmd, tag="timeout", frozen=True):
    """From the system seat: apply the safe default to a character's open prompt."""

    target: str


Command = (
    Row | Swap | Rob | Use | FireFlare | Rest | Keep | Agree | Resist | Join | Reveal | Done
    | Take | Choose | ThrowPreserver | PlayBait | Pass | Drink | Wound | Offer | Accept | Decline
    | Give | Drop | Say | Timeout
)  # fmt: skip
