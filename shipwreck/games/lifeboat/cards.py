"""Lifeboat's components: characters (LB-1), supply cards (LB-4), navigation cards (LB-6)."""

from __future__ import annotations

import msgspec


class CharacterCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    letter: str
    strength: int
    bonus: int
    doubles: str | None
    """The treasure kind this character scores double (LB-61), if any."""


# LB-1: canonical seat order, bow -> stern.
CHARACTERS: tuple[CharacterCard, ...] = (
    CharacterCard("lauren", "Lady Lauren", "L", 4, 8, "jewels"),
    CharacterCard("stephen", "Sir Stephen", "S", 5, 7, "painting"),
    CharacterCard("captain", "the Captain", "C", 7, 5, "cash"),
    CharacterCard("mate", "the First Mate", "M", 8, 4, None),
    CharacterCard("frenchy", "Frenchy", "F", 6, 6, None),
    CharacterCard("kid", "the Kid", "K", 3, 9, None),
)
CHAR: dict[str, CharacterCard] = {c.id: c for c in CHARACTERS}
CHAR_IDS: tuple[str, ...] = tuple(c.id for c in CHARACTERS)
BY_LETTER: dict[str, str] = {c.letter: c.id for c in CHARACTERS}

# LB-4: the 42 supply cards. A kind whose cards differ carries its value after a colon.
SUPPLY_COUNTS: dict[str, int] = {
    "water": 16,
    "cash": 6,
    "jewels": 3,
    "painting:3": 2,
    "painting:2": 1,
    "medkit": 3,
    "bait": 2,
    "oar": 2,
    "umbrella": 1,
    "compass": 1,
    "flare": 1,
    "knife": 1,
    "club": 1,
    "gaff": 1,
    "preserver": 1,
}
SUPPLY_DECK: tuple[str, ...] = tuple(i for i, n in SUPPLY_COUNTS.items() for _ in range(n))
assert len(SUPPLY_DECK) == 42

ITEM_KINDS: tuple[str, ...] = (
    "water", "cash", "jewels", "painting", "medkit", "bait", "oar", "umbrella",
    "compass", "flare", "knife", "club", "gaff", "preserver",
)  # fmt: skip
ITEM_NAMES: dict[str, str] = {
    "water": "water",
    "cash": "bundle of cash",
    "jewels": "jewels",
    "painting": "painting",
    "medkit": "first-aid kit",
    "bait": "shark bait",
    "oar": "oar",
    "umbrella": "umbrella",
    "compass": "compass",
    "flare": "flare gun",
    "knife": "knife",
    "club": "club",
    "gaff": "gaff hook",
    "preserver": "life preserver",
}
WEAPONS: dict[str, int] = {"oar": 1, "club": 2, "knife": 3, "gaff": 4, "flare": 8}
JEWEL_SET_VALUE = (0, 1, 4, 8)


def kind(item: str) -> str:
    """``painting:3`` -> ``painting``; other ids are their own kind."""
    return item.split(":", 1)[0]


def matches(item: str, ref: str) -> bool:
    """Does a held card ``item`` answer to the name ``ref`` (``painting`` matches any painting)?"""
    return item == ref or (":" not in ref and kind(item) == ref)


class NavCard(msgspec.Struct, frozen=True):
    number: int
    overboard: tuple[str, ...]
    """Character ids, or ``("*",)`` for everyone in play."""
    birds: int
    thirsty: tuple[str, ...]
    """Character ids; ``("*",)`` = everyone; ``("-", id)`` = everyone but ``id``."""
    fight: bool
    oar: bool


def _names(spec: str) -> tuple[str, ...]:
    if spec == "nobody":
        return ()
    if spec == "ALL":
        return ("*",)
    if spec.startswith("all but "):
        return ("-", BY_LETTER[spec.removeprefix("all but ")])
    return tuple(BY_LETTER[x.strip()] for x in spec.split(","))


# LB-6: number | overboard | bird | thirsty | fight | oar
_NAV_TABLE = """
19|M||C, M||x
20|K||all but K||x
21|K|+1|all but L|x|x
22|ALL||ALL|x|
23|C|+1|M|x|
24|S||C, S||
25|nobody|+1|nobody||
26|S|+1|C, K||x
27|C||F||
28|L|-1|ALL||x
29|K||all but L|x|
30|M||L||
31|ALL|+1|ALL|x|x
32|F|+1|C, M, S||
33|S||C, M, F|x|x
34|F||C, M, K||x
35|M||C, F|x|x
36|F||C, M, L|x|
37|F||C, M, F, S|x|x
38|K||C, M, F, L||
39|M|+1|K|x|
40|S||C, L|x|
41|C||S|x|x
42|C||C||
"""


def _parse_nav() -> dict[int, NavCard]:
    cards: dict[int, NavCard] = {}
    for line in _NAV_TABLE.strip().splitlines():
        num, ob, bird, thirsty, fight, oar = line.split("|")
        cards[int(num)] = NavCard(
            number=int(num),
            overboard=_names(ob),
            birds=int(bird) if bird else 0,
            thirsty=_names(thirsty),
            fight=fight == "x",
            oar=oar == "x",
        )
    return cards


NAV: dict[int, NavCard] = _parse_nav()
NAV_TEXT: dict[int, str] = {}  # filled below, once describe_nav exists
NAV_NUMBERS: tuple[int, ...] = tuple(sorted(NAV))
assert tuple(range(19, 43)) == NAV_NUMBERS


def named(spec: tuple[str, ...], present: list[str]) -> list[str]:
    """The characters a card names, among those present (absent names are ignored, LB-2)."""
    if not spec:
        return []
    if spec == ("*",):
        return list(present)
    if spec and spec[0] == "-":
        return [c for c in present if c != spec[1]]
    return [c for c in present if c in spec]


def describe_nav(n: int, present: list[str] | None = None) -> str:
    """One line for a navigation card; given the characters ``present``, it names only them
    (absent names are ignored, LB-2), as the card faces on the board do.

    E.g. ``#21 overboard K, +1 bird, thirsty all but L, fight, oar``.
    """
    c = NAV[n]

    def who(spec: tuple[str, ...]) -> str:
        if spec == ("*",) or (present is not None and spec and spec[0] == "-"
                              and spec[1] not in present):  # fmt: skip
            return "ALL"
        if spec and spec[0] == "-":
            return "all but " + CHAR[spec[1]].letter
        shown = [x for x in spec if present is None or x in present]
        return ", ".join(CHAR[x].letter for x in shown) or "nobody"

    parts = [f"#{n} overboard {who(c.overboard)}"]
    if c.birds:
        parts.append(f"{c.birds:+d} bird")
    parts.append(f"thirsty {who(c.thirsty)}")
    if c.fight:
        parts.append("fight")
    if c.oar:
        parts.append("oar")
    return ", ".join(parts)


NAV_TEXT.update({n: describe_nav(n) for n in NAV})
