"""End-of-game scoring (LB-61..LB-64)."""

from __future__ import annotations

from shipwreck.games.lifeboat.cards import CHAR, JEWEL_SET_VALUE, kind
from shipwreck.games.lifeboat.state import Character, LifeboatState


def treasure(c: Character) -> int:
    """Cash 1 each, jewels 1/4/8 as a set, paintings by their value; doubled by the character's
    own kind (LB-4, LB-61). Hidden and revealed items both count."""
    items = c.hidden + c.revealed
    cash = sum(1 for i in items if i == "cash")
    jewels = JEWEL_SET_VALUE[min(3, sum(1 for i in items if i == "jewels"))]
    paintings = sum(int(i.split(":")[1]) for i in items if kind(i) == "painting")
    doubles = CHAR[c.id].doubles
    return (
        cash * (2 if doubles == "cash" else 1)
        + jewels * (2 if doubles == "jewels" else 1)
        + paintings * (2 if doubles == "painting" else 1)
    )


def breakdown(state: LifeboatState, char: str) -> dict[str, int]:
    """The parts of one player's score, by name, for the end screen."""
    chars = state.chars
    me = chars[char]
    friend, enemy = me.friend, me.enemy
    alive = {cid: not c.dead for cid, c in chars.items()}
    parts: dict[str, int] = {"treasure": treasure(me)}
    if enemy == char:
        # LB-63 psychopath: every dead character but itself and its friend; its friend's survival;
        # its own survival only as a narcissist (friend == self), and then once.
        parts["deaths"] = sum(
            c.strength for cid, c in chars.items() if c.dead and cid not in (char, friend)
        )
        parts["friend"] = CHAR[friend].bonus if alive[friend] else 0
        return parts
    # LB-61; LB-62 (narcissist) and LB-64 (same friend and enemy) follow from the general sum.
    parts["survival"] = CHAR[char].bonus if alive[char] else 0
    parts["friend"] = CHAR[friend].bonus if alive[friend] else 0
    parts["enemy"] = chars[enemy].strength if not alive[enemy] else 0
    return parts


def score_all(state: LifeboatState) -> dict[str, int]:
    return {cid: sum(breakdown(state, cid).values()) for cid in state.boat}
