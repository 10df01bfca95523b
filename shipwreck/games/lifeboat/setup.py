"""Starting a Lifeboat game: the usual deal (LB-2, LB-7, LB-10), or a fixed position.

A position fixes whatever a scenario wants to fix (seats, hands, decks, phase) and deals the rest
from the seeded RNG exactly as a real game would.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shipwreck.engine.core import Event, IllegalCommand
from shipwreck.engine.rng import Rng
from shipwreck.games.lifeboat import rules
from shipwreck.games.lifeboat.cards import CHAR, CHAR_IDS, NAV_NUMBERS, SUPPLY_DECK
from shipwreck.games.lifeboat.state import Character, LifeboatState


class CharacterPosition(msgspec.Struct, forbid_unknown_fields=True):
    """One character in a fixed position: it holds exactly what is listed."""

    friend: str | None = None
    enemy: str | None = None
    hidden: list[str] = msgspec.field(default_factory=list)
    revealed: list[str] = msgspec.field(default_factory=list)
    wounds: int = 0
    dead: bool = False
    rowed: bool = False
    fought: bool = False


class Position(msgspec.Struct, forbid_unknown_fields=True):
    """A starting position (the scenario file format, docs/scenarios.md)."""

    seed: int = 0
    phase: Literal["supply", "actions", "navigation"] = "supply"
    round: int = 1
    birds: int = 0
    seats: list[str] = msgspec.field(default_factory=lambda: list(CHAR_IDS))
    supply_deck: list[str] = msgspec.field(default_factory=list)
    navigation_deck: list[int] = msgspec.field(default_factory=list)
    navigation_table: list[int] = msgspec.field(default_factory=list)
    characters: dict[str, CharacterPosition] = msgspec.field(default_factory=dict)
    options: dict[str, bool] = msgspec.field(default_factory=dict)


_UNFIXED = CharacterPosition()
"""A character the position leaves to the deal (read only)."""


class SetupError(ValueError):
    """A position that cannot exist (unknown names, more cards than the deck has, …)."""


def new_game(
    seed: int, seats: int = 6, options: dict[str, bool] | None = None
) -> tuple[LifeboatState, list[Event]]:
    """LB-2, LB-10: deal ``seats`` characters at random, seated in canonical order."""
    if not 4 <= seats <= 6:
        raise SetupError(f"Lifeboat is for 4 to 6 seats, not {seats}")
    rng = Rng.from_seed(seed)
    chosen = list(CHAR_IDS)
    rng.shuffle(chosen)
    present = set(chosen[:seats])
    boat = [c for c in CHAR_IDS if c in present]
    players = chosen[:seats]
    return _build(seed, rng, boat, players, Position(seed=seed, options=options or {}))


def from_position(pos: Position) -> tuple[LifeboatState, list[Event]]:
    """A game starting from a fixed position; anything not fixed is dealt from ``pos.seed``.

    It may be one no game reaches (a unit test sets a scoring formula alone, everyone's friend
    the same character); scenario files are held to :func:`check_reachable` too."""
    if not 4 <= len(pos.seats) <= 6:
        raise SetupError(f"seats: Lifeboat is for 4 to 6 characters, not {len(pos.seats)}")
    for cid in pos.seats:
        _known_char(cid, "seats")
    if len(set(pos.seats)) != len(pos.seats):
        raise SetupError("seats: a character is listed twice")
    for cid in pos.characters:
        if cid not in pos.seats:
            raise SetupError(f"characters.{cid}: {cid} is not in seats")
    return _build(pos.seed, Rng.from_seed(pos.seed), list(pos.seats), list(pos.seats), pos)


def check_reachable(pos: Position) -> None:
    """SetupError for what no game can reach: birds end the game at 4 and never go below 0 (LB-41,
    LB-60), rounds count from 1, and each friend and enemy card is dealt once (LB-7)."""
    if not 0 <= pos.birds <= 3:
        raise SetupError(
            f"birds: {pos.birds} cannot happen; birds go from 0 to 3 (at 4 the game is over)"
        )
    if pos.round < 1:
        raise SetupError(f"round: {pos.round} cannot happen; the first round is 1")
    for field in ("friend", "enemy"):
        holder: dict[str, str] = {}
        for cid, cp in pos.characters.items():
            card = getattr(cp, field)
            if not card:
                continue
            if card in holder:
                raise SetupError(
                    f"characters.{cid}.{field}: {card} is already characters.{holder[card]}"
                    f".{field}; each {field} card is dealt to one character"
                )
            holder[card] = cid


def _known_char(cid: str, where: str) -> None:
    if cid not in CHAR:
        raise SetupError(f"{where}: unknown character {cid!r}; known: {', '.join(CHAR_IDS)}")


def _take_card(pool: list[str], ref: str, where: str) -> str:
    for i, card in enumerate(pool):
        if card == ref or (":" not in ref and card.split(":")[0] == ref):
            return pool.pop(i)
    raise SetupError(f"{where}: no {ref!r} left in the 42 supply cards")


def _build(
    seed: int, rng: Rng, boat: list[str], players: list[str], pos: Position
) -> tuple[LifeboatState, list[Event]]:
    fixed = pos.characters
    pool = list(SUPPLY_DECK)
    chars: dict[str, Character] = {}
    for cid in boat:
        cp = fixed.get(cid, _UNFIXED)
        where = f"characters.{cid}"
        strength = CHAR[cid].strength
        if cp.wounds < 0 or cp.wounds > strength + 1:
            raise SetupError(f"{where}.wounds: between 0 and {strength + 1}")
        chars[cid] = Character(
            id=cid,
            strength=strength,
            wounds=cp.wounds,
            dead=cp.dead or cp.wounds > strength,
            hidden=[_take_card(pool, r, where + ".hidden") for r in cp.hidden],
            revealed=[_take_card(pool, r, where + ".revealed") for r in cp.revealed],
            rowed=cp.rowed,
            fought=cp.fought,
        )
    top = [_take_card(pool, r, "supply_deck") for r in pos.supply_deck]
    _deal_relations(rng, boat, fixed, pos.options.get("redeal_self", False), chars)
    rng.shuffle(pool)
    for cid in boat:  # LB-10: one hidden supply card each, unless the position says otherwise
        if cid not in fixed and pool:
            chars[cid].hidden.append(pool.pop())
    nav_pool = list(NAV_NUMBERS)
    nav_fixed = pos.navigation_table + pos.navigation_deck
    for n in nav_fixed:
        if n not in nav_pool:
            raise SetupError(f"navigation card {n}: not a card (19-42) or listed twice")
        nav_pool.remove(n)
    rng.shuffle(nav_pool)
    state = LifeboatState(
        seed=seed,
        rng=rng,
        players=players,
        boat=boat,
        chars=chars,
        supply_deck=top + pool,
        nav_deck=list(pos.navigation_deck) + nav_pool,
        nav_table=list(pos.navigation_table),
        options=dict(pos.options),
        round=pos.round,
        birds=pos.birds,
    )
    log = rules._Log(state)
    for cid in boat:
        c = chars[cid]
        log.private("deal", f"{cid}: friend {c.friend}, enemy {c.enemy}; holds "
                    + (", ".join(c.hidden) or "nothing"), cid)  # fmt: skip
    try:
        if pos.phase == "supply":
            rules.start_round(state, log)
        elif pos.phase == "actions":
            rules._start_actions(state, log)
        else:
            rules._start_navigation(state, log)
    except IllegalCommand as e:  # pragma: no cover - starting never applies a command
        raise SetupError(str(e)) from e
    return state, log.events


def _deal_relations(
    rng: Rng,
    boat: list[str],
    fixed: dict[str, CharacterPosition],
    redeal_self: bool,
    chars: dict[str, Character],
) -> None:
    """LB-7: friends and enemies from two separately shuffled sets of the characters in play."""
    for field in ("friend", "enemy"):
        given = {cid: getattr(fixed[cid], field) for cid in fixed if getattr(fixed[cid], field)}
        for cid, other in given.items():
            _known_char(other, f"characters.{cid}.{field}")
            if other not in boat:
                raise SetupError(f"characters.{cid}.{field}: {other} is not in this boat")
        open_ = [cid for cid in boat if cid not in given]
        pool = [cid for cid in boat if cid not in given.values()] or list(boat)
        for _attempt in range(100):
            rng.shuffle(pool)
            deal = dict(zip(open_, pool, strict=False))
            if not redeal_self or all(
                k != v and (field == "friend" or chars[k].friend != v) for k, v in deal.items()
            ):
                break
        for cid in boat:
            setattr(chars[cid], field, given.get(cid) or deal.get(cid) or rng.choice(boat))
