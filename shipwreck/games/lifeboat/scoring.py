"""End-of-game scoring (LB-61..LB-64).

The sums are written once, over plain facts (who is dead, what each one's strength is, what
the player holds), so that the real scoring (from the state) and a player's own "score now"
estimate (from that player's view, :mod:`shipwreck.games.lifeboat.score_now`) cannot drift
apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shipwreck.games.lifeboat.cards import CHAR, JEWEL_SET_VALUE
from shipwreck.games.lifeboat.state import Character, LifeboatState


def treasure_of(char: str, items: Iterable[str]) -> int:
    """Cash 1 each, jewels 1/4/8 as a set, paintings by their value; doubled by the character's
    own kind (LB-4, LB-61). Hidden and revealed items both count."""
    items = list(items)
    cash = items.count("cash")
    jewels = JEWEL_SET_VALUE[min(3, items.count("jewels"))]
    # A painting's id is ``painting:VALUE``. Why not ``kind(i) == "painting"``: a search's greedy
    # playouts score holdings all the time, and that call was a third of this function's time.
    paintings = (
        sum(int(i.split(":")[1]) for i in items if i.startswith("painting:")) if items else 0
    )
    doubles = CHAR[char].doubles
    return (
        cash * (2 if doubles == "cash" else 1)
        + jewels * (2 if doubles == "jewels" else 1)
        + paintings * (2 if doubles == "painting" else 1)
    )


def treasure(c: Character) -> int:
    return treasure_of(c.id, c.hidden + c.revealed)


def parts_of(
    char: str,
    friend: str,
    enemy: str,
    treasure_value: int,
    dead: Mapping[str, bool],
    strength: Mapping[str, int],
) -> dict[str, int]:
    """The parts of one player's score, by name: ``dead`` and ``strength`` for every character
    in play."""
    parts: dict[str, int] = {"treasure": treasure_value}
    if enemy == char:
        # LB-63 psychopath: every dead character but itself and its friend; its friend's survival;
        # its own survival only as a narcissist (friend == self), and then once.
        parts["deaths"] = sum(
            s for cid, s in strength.items() if dead[cid] and cid not in (char, friend)
        )
        parts["friend"] = 0 if dead[friend] else CHAR[friend].bonus
        return parts
    # LB-61; LB-62 (narcissist) and LB-64 (same friend and enemy) follow from the general sum.
    parts["survival"] = 0 if dead[char] else CHAR[char].bonus
    parts["friend"] = 0 if dead[friend] else CHAR[friend].bonus
    parts["enemy"] = strength[enemy] if dead[enemy] else 0
    return parts


def breakdown(state: LifeboatState, char: str) -> dict[str, int]:
    """The parts of one player's score, by name, for the end screen."""
    chars = state.chars
    me = chars[char]
    return parts_of(
        char,
        me.friend,
        me.enemy,
        treasure(me),
        {cid: c.dead for cid, c in chars.items()},
        {cid: c.strength for cid, c in chars.items()},
    )


def score_all(state: LifeboatState) -> dict[str, int]:
    return {cid: sum(breakdown(state, cid).values()) for cid in state.boat}
