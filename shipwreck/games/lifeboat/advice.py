"""Which navigation cards to keep after rowing (LB-20), judged from the rower's own view.

The tutorial's coach asks for the keep this module finds best. Each card is judged by what it
would do to the score the player would have at landfall (the scoring's own sums,
:func:`shipwreck.games.lifeboat.scoring.parts_of`): whom it throws overboard or makes thirsty,
and whether that could kill them, so a card that would drown the player's friend (or the player)
counts against it, and one that could drown the enemy for it. Only the player's view is read: its
own hidden items, friend and enemy, and what everyone sees (wounds, revealed items, the table).
Others' hidden items are unknown, so their hidden water or preserver is never counted (the
estimate is cautious for them).

The navigator (LB-40) picks one card of the table: the player's best if the player navigates;
anyone else's pick is unknown, so every card on the table counts alike. An empty table means the
deck's top card, unknown: every card not in sight counts alike.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from shipwreck.games.lifeboat.cards import CHAR, NAV, describe_nav, named
from shipwreck.games.lifeboat.commands import Keep
from shipwreck.games.lifeboat.scoring import parts_of, treasure_of
from shipwreck.games.lifeboat.view import CharacterView, LifeboatView

LAND = 4
"""Birds at which the boat reaches land (LB-41, LB-60)."""

BIRD_WEIGHT = 0.25
"""What a seagull is worth beside a point of score: enough to break ties, never to outweigh a
life."""

WOUND_WEIGHT = 0.1
"""What a wound to the player or its friend costs beside a point of score (a tie-breaker)."""


class KeepAdvice(msgspec.Struct, frozen=True):
    """The keep to type and why, in plain words."""

    command: str
    why: str


def _items(c: CharacterView) -> tuple[str, ...]:
    """The items of ``c`` the viewer knows of: its revealed items, and its hidden ones if the
    viewer holds them."""
    return c.revealed + (c.hidden or ())


def _wounds_from(view: LifeboatView, card: int, c: CharacterView) -> tuple[int, bool]:
    """The wounds ``card`` would give ``c`` at worst (unknown hidden water and preservers not
    counted), and whether it would die of them (LB-30, LB-42..LB-45, LB-50)."""
    if c.state == "dead":
        return 0, False
    nc = NAV[card]
    present = [x.id for x in view.characters]
    items = _items(c)
    wounds = c.wounds
    if c.id in named(nc.overboard, present):
        preserver = "preserver" in items
        wounds += 0 if c.id == "frenchy" or preserver else 1
        if wounds > c.strength or (wounds >= c.strength and not preserver):
            return wounds - c.wounds, True  # fainted in the water: drowned (LB-45)
    thirst = (c.rowed and nc.oar) + (c.fought and nc.fight) + (c.id in named(nc.thirsty, present))
    wounds += max(0, thirst - items.count("water"))
    return wounds - c.wounds, wounds > c.strength


def _card_value(view: LifeboatView, me: CharacterView, card: int) -> float:
    """What ``card`` would leave the player with: its score at landfall if the card's deaths
    happened now, plus a little for a seagull and less for each wound to it or its friend."""
    assert me.friend is not None and me.enemy is not None
    birds = NAV[card].birds
    land = view.birds + birds >= LAND  # LB-41: land at once, the rest of the card is ignored
    dead = {c.id: c.state == "dead" for c in view.characters}
    hurt = 0
    if not land:
        for c in view.characters:
            wounds, dies = _wounds_from(view, card, c)
            dead[c.id] = dead[c.id] or dies
            if c.id in (me.id, me.friend):
                hurt += wounds
    strength = {c.id: c.strength for c in view.characters}
    treasure = treasure_of(me.id, _items(me))
    score = sum(parts_of(me.id, me.friend, me.enemy, treasure, dead, strength).values())
    return score + BIRD_WEIGHT * birds - WOUND_WEIGHT * hurt


def _navigator(view: LifeboatView) -> str | None:
    """Who would steer if the navigation came now: the conscious one nearest the stern."""
    conscious = [c for c in view.characters if c.state == "ok"]
    return max(conscious, key=lambda c: c.seat).id if conscious else None


def _unseen(view: LifeboatView) -> list[int]:
    """The cards the deck's top card may be: every card not on the table or just drawn."""
    seen = set(view.navigation_table) | set(view.drawn)
    return [n for n in NAV if n not in seen]


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)


def keep_value(view: LifeboatView, me: CharacterView, kept: tuple[int, ...]) -> float:
    """What keeping ``kept`` is worth to the player (see the module docstring)."""
    table = list(view.navigation_table) + list(kept)
    values = [_card_value(view, me, n) for n in (table or _unseen(view))]
    return max(values) if table and _navigator(view) == me.id else _mean(values)


def _spared(view: LifeboatView, me: CharacterView, cards: Iterable[int]) -> list[str]:
    """The player and its friend, if alive, whom none of ``cards`` would kill."""
    cards = list(cards)
    ours = [c for c in view.characters if c.id in (me.id, me.friend) and c.state != "dead"]
    return [
        c.id
        for c in ours
        if not any(_wounds_from(view, n, c)[1] for n in cards if view.birds + NAV[n].birds < LAND)
    ]


def _why(view: LifeboatView, me: CharacterView, kept: tuple[int, ...]) -> str:
    cards = " and ".join(f"#{n}" for n in kept)
    if not kept:
        return "None of these cards helps you: keep none, and they go under the deck."
    if any(view.birds + NAV[n].birds >= LAND for n in kept):
        return f"Keep {cards}: its seagull would bring the boat to land now."
    safe = _spared(view, me, list(view.navigation_table) + list(kept))
    friend = me.friend
    whoever = "whatever card the navigator picks then"
    if friend is not None and friend in safe and friend != me.id:
        return f"Keep {cards}: {whoever}, {CHAR[friend].name}, your friend, lives."
    if me.id in safe:
        return f"Keep {cards}: {whoever}, you live."
    return f"Keep {cards}: of these choices, it costs you the least."


def _falls(keep: Keep) -> int:
    """How many 'overboard' signs the kept cards show (a tie-breaker: a card that brings land
    ignores its overboard sign, but a newcomer reads it)."""
    return sum(len(NAV[n].overboard) for n in keep.cards)


def best_keep(view: LifeboatView) -> KeepAdvice | None:
    """The keep among the view's choices worth most to the player (ties: the fewest cards, then
    the fewest overboard signs), or ``None`` if the player has no keep to decide or its view
    lacks its friend and enemy."""
    me = next((c for c in view.characters if c.id == view.me), None)
    keeps = [c for c in view.choices if isinstance(c, Keep)]
    if me is None or me.friend is None or me.enemy is None or not keeps:
        return None
    best = max(keeps, key=lambda k: (keep_value(view, me, k.cards), -len(k.cards), -_falls(k)))
    return KeepAdvice(_typed(best), _why(view, me, best.cards))


def keep_cost(view: LifeboatView, cmd: object) -> str | None:
    """What the coach says of a keep the player chose that is worth less to them than the best
    one (:func:`best_keep`), from the view they chose it in: what their cards do, and what the
    best keep would have done; None for any other command, or a keep as good as the best."""
    me = next((c for c in view.characters if c.id == view.me), None)
    best = best_keep(view)
    if not isinstance(cmd, Keep) or me is None or best is None:
        return None
    best_cards = next(
        c.cards for c in view.choices if isinstance(c, Keep) and _typed(c) == best.command
    )
    if keep_value(view, me, cmd.cards) >= keep_value(view, me, best_cards) - 1e-9:
        return None
    present = [c.id for c in view.characters]
    cards = "; ".join(describe_nav(n, present) for n in cmd.cards) or "none kept"
    why = best.why.split(": ", 1)[-1]
    return f"Risky: {cards}. '{best.command}' was better: {why}"


def _typed(keep: Keep) -> str:
    return "keep " + (" ".join(str(n) for n in keep.cards) or "none")
