"""Plain words for a player about its own character: its ability (LB-1), and what its friend and
enemy mean for its score (LB-61..LB-64), the special cases included.

Two lengths: the long one fits a 36-column panel (the "you" panel at 120 columns), the short one
25 columns (at 80) and names characters by the id the player types.
"""

from __future__ import annotations

from shipwreck.games.lifeboat.cards import CHAR

ABILITY: dict[str, tuple[str, str]] = {
    "lauren": ("your jewels score double", "jewels score x2"),
    "stephen": ("your paintings score double", "paintings score x2"),
    "captain": ("your cash scores double", "cash scores x2"),
    "mate": ("no gift, but the strongest aboard", "strongest aboard"),
    "frenchy": ("swims: no wound for falling in", "swims: no fall wound"),
    "kid": ("robs a hidden item with no fight", "robs hidden: no fight"),
}
"""Each character's ability (LB-1, LB-24, LB-43, LB-61): (in words, in short)."""


def ability(char: str, short: bool = False) -> str:
    return ABILITY[char][1 if short else 0]


def name(char: str) -> str:
    """``the Captain`` -> ``Captain`` (the article reads badly after ``friend:``)."""
    return CHAR[char].name.removeprefix("the ")


NOT_FRIEND = "(not friend); your surv 0"
"""The short form's last line when my enemy is me (LB-63): my friend's death does not count,
and my own survival scores nothing (play-test: "survival 5 + friend 6" read as 11)."""


def relations(me: str, friend: str, enemy: str, short: bool = False) -> list[str]:
    """What my friend and enemy are worth to me, a line each, or the special case in words:
    ``friend: Kid, +9 if alive`` / ``enemy: Captain, +7 if dead``."""
    bonus, strength = CHAR[friend].bonus, CHAR[enemy].strength
    own = CHAR[me].bonus
    f, e = (friend, enemy) if short else (name(friend), name(enemy))
    if friend == me and enemy == me:  # LB-63 with LB-62: own survival once
        if short:
            return [f"friend+enemy = you: +{own}", "alive, +str of other dead"]
        return [
            "friend and enemy are both you:",
            f"+{own} if alive (once), +strength",
            "of each other character dead",
        ]
    if enemy == me:  # LB-63
        if short:
            return [f"friend: {f} +{bonus} alive", "enemy = you: +str of dead", NOT_FRIEND]
        return [
            f"friend: {f}, +{bonus} if alive",
            "enemy is you: a death (not your",
            "friend's) adds its strength; your",
            "own survival scores nothing",
        ]
    if friend == enemy:  # LB-64
        if short:
            return [f"friend+enemy: {f}", f"+{bonus} alive or +{strength} dead"]
        return [f"friend and enemy: {f}", f"+{bonus} if alive, or +{strength} if dead"]
    if friend == me:  # LB-62
        first = f"friend = you: +{own} again" if short else f"friend is you: +{own} again if alive"
    else:
        first = f"friend: {f} +{bonus} alive" if short else f"friend: {f}, +{bonus} if alive"
    return [first, f"enemy: {e} +{strength} dead" if short else f"enemy: {e}, +{strength} if dead"]


def relations_tight(me: str, friend: str, enemy: str) -> list[str]:
    """The short form in at most two lines of 34 columns (inside the "you" panel at 120
    columns, when many items leave it few rows): my enemy being me, in two lines, not three."""
    short = relations(me, friend, enemy, short=True)
    if enemy != me or friend == me:
        return short
    return [short[0], "enemy = you: +str of dead; surv 0"]
