"""Every Lifeboat command, as frozen msgspec structs (a tagged union on ``cmd``).

Characters are named by id (``kid``), navigation cards by number (19-42), items by id
(``water``, ``painting:3``; a bare ``painting`` means any painting). The canonical text of each
command lives in :mod:`shipwreck.lang.lifeboat`.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class _Cmd(msgspec.Struct, frozen=True, tag_field="cmd"):
    pass


# The action phase: one of these on your turn (LB-12).
class Row(_Cmd, tag="row"):
    pass


class Swap(_Cmd, tag="swap"):
    target: str


class Rob(_Cmd, tag="rob"):
    target: str
    item: str | None = None
    """A revealed item of the victim, or ``None`` for a random hidden one."""


class Use(_Cmd, tag="use"):
    """A special action: ``use umbrella [on X]`` or ``use medkit [on X]`` (LB-23)."""

    item: str
    target: str | None = None


class FireFlare(_Cmd, tag="fire"):
    pass


class Rest(_Cmd, tag="rest"):
    pass


# Answers to prompts.
class Keep(_Cmd, tag="keep"):
    cards: tuple[int, ...] = ()


class Agree(_Cmd, tag="agree"):
    pass


class Resist(_Cmd, tag="resist"):
    pass


class Join(_Cmd, tag="join"):
    side: Literal["attacker", "defender"]


class Reveal(_Cmd, tag="reveal"):
    item: str


class Done(_Cmd, tag="done"):
    pass


class Take(_Cmd, tag="take"):
    """Pick a card from the supply offer (LB-11)."""

    item: str


class Choose(_Cmd, tag="choose"):
    """The navigator picks a card from the navigation table (LB-40)."""

    card: int


class ThrowPreserver(_Cmd, tag="throw"):
    """Throw your preserver to a conscious character in the water (LB-42)."""

    target: str


class PlayBait(_Cmd, tag="bait"):
    pass


class Pass(_Cmd, tag="pass"):
    """End your part in the overboard step without throwing or playing anything more."""


class Drink(_Cmd, tag="drink"):
    pass


class Wound(_Cmd, tag="wound"):
    pass


# Free actions: any time they are allowed, without a prompt (LB-13, LB-32, LB-50).
class Offer(_Cmd, tag="offer"):
    item: str
    target: str
    ask: str | None = None


class Accept(_Cmd, tag="accept"):
    source: str | None = None
    """Whose offer; may be left out when only one offer is waiting for you."""


class Decline(_Cmd, tag="decline"):
    source: str | None = None


class Give(_Cmd, tag="give"):
    """Give without asking: a preserver put on someone in advance (LB-32), or water to an
    unconscious thirsty character in the thirst step (LB-50)."""

    item: str
    target: str


class Drop(_Cmd, tag="drop"):
    """Throw one of your items overboard; it leaves the game (LB-13)."""

    item: str


class Say(_Cmd, tag="say"):
    text: str


class Timeout(_Cmd, tag="timeout"):
    """From the system seat: apply the safe default to a character's open prompt."""

    target: str


Command = (
    Row | Swap | Rob | Use | FireFlare | Rest | Keep | Agree | Resist | Join | Reveal | Done
    | Take | Choose | ThrowPreserver | PlayBait | Pass | Drink | Wound | Offer | Accept | Decline
    | Give | Drop | Say | Timeout
)  # fmt: skip
