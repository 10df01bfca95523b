"""SM-60: ship (and crew) abilities as data, and one small function per kind of trigger.

Every printed ability text of the card list maps to an :class:`Ability`: a ``kind`` and its
parameters (``TEXTS``). The rules never look at a card's name or text: at each trigger they ask
this module one question (``cannon_bonus``, ``range_immune``, ``legs``, ``on_hit`` …), and
each question reads the abilities of the ships involved (:func:`of`). A text with no entry in
``TEXTS`` does not play yet (:func:`plays`, listed in ``docs/rules/spanish-main.md``).

The table option ``abilities = false`` (SM-6) turns all of it off: :func:`of` returns nothing,
so every ship sails as a plain hull.

This module reads the state and returns answers; it changes nothing. The rules apply what it
says (rolls, hits, marks), so that every die still comes from the table's RNG and is logged.
"""

from __future__ import annotations

from dataclasses import dataclass

from shipwreck.games.spanish_main import geometry as geo
from shipwreck.games.spanish_main.ships import CARDS, CREW
from shipwreck.games.spanish_main.state import Ship, SpanishMainState


@dataclass(frozen=True, slots=True)
class Ability:
    kind: str
    """What it does, one word per trigger-and-effect (see the kinds below)."""
    value: int = 0
    faction: str = ""
    leg: str = ""


# Kinds, by trigger:
#   roll:   cannon_vs (+value vs faction ships), shot_by (faction ships get +value at her),
#           cannon_per_friend (+1 per friendly ship within S), boarding (+value)
#   range:  l_immune (L-range cannons cannot hit her), clear_line (ships do not block her fire),
#           double_range (may double range; such shots need a 6)
#   move:   derelict_move (derelict: base move S), full_slow (at cargo limit: base move S),
#           empty_fast (no cargo: +leg), masts_fast (all masts: +leg)
#   hit:    double_hit (one hit eliminates two masts), walpole (the shooter picks the mast),
#           two_hits (two hits of one shoot action for one mast), ignore_first (ignores the
#           first hit each turn with all masts), cargo_on_hit (eliminates one cargo),
#           repair_on_sink, sinks_at_last, misfire (a 1 on her cannon roll costs her a mast)
#   ram:    ram_immune (ramming cannot eliminate her masts)
#   turn:   extra_action (once per turn a d6: 5-6 gives an extra action)
#   load:   never_last (never loads an island's last coin)
#   none:   no_forts (there are no forts in this game: nothing to do)
#   crew:   kill_crew_on_hit (once per turn a hit also eliminates one crew), captain (+1 to
#           cannon rolls with a Captain crew aboard), foreign_crew / any_crew (crew of that or
#           any nation work aboard), cargo_plus (+1 slot: the piece takes -1), plus_leg,
#           all_l (every cannon has L range), repair_anywhere, ghost (her crew cannot be
#           eliminated by boarding or hits), treasure_plus (+value to one coin unloaded),
#           discount (other crew placed aboard at setup cost 1 less), arm (docked at home, a
#           coin there becomes her cannon), cancel (once per turn, an enemy ship's or crew's
#           ability is off for the rest of the turn), shoot_again (once per turn, the first
#           cannon of hers that misses rolls again: a second chance costs nothing, so it is
#           always taken)
TEXTS: dict[str, Ability] = {
    "This ship gets +1 to her cannon rolls against English ships.": Ability(
        "cannon_vs", 1, "English"
    ),
    "This ship gets +1 to her cannon rolls against Spanish ships.": Ability(
        "cannon_vs", 1, "Spanish"
    ),
    "This ship gets +1 to her cannon rolls against Pirate ships.": Ability(
        "cannon_vs", 1, "Pirate"
    ),
    "English ships get +1 to their cannon rolls against this ship.": Ability(
        "shot_by", 1, "English"
    ),
    "Spanish ships get +1 to their cannon rolls against this ship.": Ability(
        "shot_by", 1, "Spanish"
    ),
    "This ship gets +1 to her cannon rolls for every friendly ship within S of her.": Ability(
        "cannon_per_friend", 1
    ),
    "This ship gets +1 to her boarding rolls.": Ability("boarding", 1),
    "L-range cannons cannot hit this ship.": Ability("l_immune"),
    "Other ships do not block this ship's line of fire.": Ability("clear_line"),
    "You may double the range of this ship's cannons each turn, but you must roll a 6 to hit.": (
        Ability("double_range")
    ),
    "If derelict, this ship gains a base move of S.": Ability("derelict_move", leg="S"),
    "This ship's base move becomes S when she reaches her cargo limit.": Ability("full_slow"),
    "When this ship carries no cargo, she gets +S to her base move.": Ability(
        "empty_fast", leg="S"
    ),
    "This ship gets +L to her base move if she has all of her masts.": Ability(
        "masts_fast", leg="L"
    ),
    "This ship eliminates two masts with one hit.": Ability("double_hit"),
    "When this ship hits another ship, you choose which mast is eliminated.": Ability("walpole"),
    "Two hits from the same shoot action are required to eliminate one of this ship's masts.": (
        Ability("two_hits")
    ),
    "This ship ignores the first hit she takes each turn as long as she has all of her masts.": (
        Ability("ignore_first")
    ),
    "When this ship hits an enemy ship, you may also eliminate one cargo from that ship.": (
        Ability("cargo_on_hit")
    ),
    "Once per turn, when this ship hits an enemy ship, you may also eliminate one cargo from"
    " that ship.": Ability("cargo_on_hit", 1),
    "When this ship sinks another ship, you may repair one of this ship's masts.": Ability(
        "repair_on_sink"
    ),
    "This ship sinks when her last mast is eliminated.": Ability("sinks_at_last"),
    "Eliminate one of this ship's masts when she rolls a 1 on any cannon roll.": Ability("misfire"),
    "Ramming cannot eliminate this ship's masts.": Ability("ram_immune"),
    "Once per turn, roll a d6. On a 5 or 6, this ship may be given an extra action.": Ability(
        "extra_action"
    ),
    "This ship may never load the last treasure from an island.": Ability("never_last"),
    "Forts cannot shoot at this ship.": Ability("no_forts"),
    "This ship's cannons may not be eliminated (masts still may be). If derelict, she cannot"
    " shoot.": Ability("cannons_stay"),
    "On the turn this ship is pinned, eliminate one crew from the enemy ship.": Ability(
        "pinned_kill"
    ),
    "Once per turn, this ship may move S after unloading cargo.": Ability("unload_move", leg="S"),
    "This ship may move and shoot using the same move action.": Ability("move_shoot"),
    "This ship may move and shoot using the same move action. On the turn this ship is pinned,"
    " eliminate one crew from the enemy ship.": Ability("move_shoot_pinned_kill"),
    "This ship may dock at an enemy home island and load one treasure. If able, she must leave"
    " on your next turn.": Ability("raid_home"),
    "Once per turn, this ship may look at one face-down treasure on any island.": Ability(
        "look", 0, "island"
    ),
    "Once per turn, this ship may look at one face-down cargo on any ship.": Ability(
        "look", 0, "ship"
    ),
    "You own any derelict this ship explores; both ships become docked at your home island.": (
        Ability("own_derelict")
    ),
    "Once per turn, if this ship carries treasure and is within S of an enemy ship, you may"
    " randomly trade one treasure with that ship.": Ability("trade"),
    "This ship may move and shoot using the same move action. Once per turn, you may eliminate"
    " one of this ship's crew to give her an extra action.": Ability("blackheart"),
    "This ship gains one rank 3 cannon with S range cannon that may not have its range or cannon"
    " roll increased. It can shoot from any mast (even an eliminated mast).": Ability("musket"),
    "This ship may dock and explore a wild island using the same move action.": Ability(
        "dock_explore"
    ),
    "This ship may move and shoot using the same move action, plus. Once per turn when this ship"
    " hits an enemy ship, also eliminate one crew from that ship.": Ability("move_shoot_kill_crew"),
    "This ship may unload cargo at your home island if she's within S of it.": Ability(
        "unload_near"
    ),
    "Once per turn, this ship may randomly take one treasure from any ship she touches.": Ability(
        "take_on_touch", 1
    ),
    "When touching a Pirate ship, this ship may load as much of that ship's treasure as she can"
    " carry.": Ability("take_on_touch", 99, "Pirate"),
    "Once per turn before you give this ship an action, roll a d6. On a 5 or 6, this ship may be"
    " given the same action twice.": Ability("same_twice"),
    "Once per turn before you give this ship an action, roll a D6. On a 5 or 6, this ship may be"
    " given the same action twice.": Ability("same_twice"),
    "Once per turn when this ship hits an enemy ship, also eliminate one crew from that ship.": (
        Ability("kill_crew_on_hit")
    ),
    "If this ship has a Captain crew, she gets +1 to her cannon rolls.": Ability("captain", 1),
    "Spanish crew may use their abilities on this ship.": Ability("foreign_crew", 0, "Spanish"),
    "English crew may use their abilities on this ship.": Ability("foreign_crew", 0, "English"),
    # crew cards (SM-61)
    "If derelict, this ship gains a base move of S. This crew takes up no cargo space.": Ability(
        "derelict_move", leg="S"
    ),
    "This ship gets +1 cargo spaces. This crew takes up no cargo space.": Ability("cargo_plus"),
    "This ship gets +S to her base move.": Ability("plus_leg", leg="S"),
    "All of this ship's cannons have L range.": Ability("all_l"),
    "Once per turn, one of this ship's cannons may shoot again if it misses.": Ability(
        "shoot_again"
    ),
    "This ship may repair at sea or at any island.": Ability("repair_anywhere"),
    "This ship's crew cannot be eliminated unless she sinks.": Ability("ghost"),
    "One of this ship's treasures is worth +2 gold when she docks at your home island.": Ability(
        "treasure_plus", 2
    ),
    "One of this ship's treasures is worth +1 gold when she docks at your home island.": Ability(
        "treasure_plus", 1
    ),
    "Place this crew face up during setup. Reduce the cost of all other crew placed on this ship"
    " by 1.": Ability("discount", 1),
    "Crew of any nationality may use their abilities on this ship.": Ability("any_crew"),
    "When this ship is docked at your home island, you may eliminate one treasure. It becomes a"
    " rank 3 cannon that shoots short range and can only be eliminated when the ship sinks.": (
        Ability("arm")
    ),
    "Once per turn, cancel the ability of one crew or ship within S of this ship.": Ability(
        "cancel"
    ),
}
"""Printed text -> ability. The choices made where a text reads two ways are written next to
the card in docs/rules/spanish-main.md."""


def plays(text: str) -> bool:
    """Does this printed ability play (an empty text plays: a plain hull)?"""
    return not text or text in TEXTS


_CARD_ABILITY: dict[str, list[Ability]] = {
    cid: [TEXTS[c.ability]] for cid, c in CARDS.items() if c.ability in TEXTS
}
"""Each ship card's own ability, as :func:`of` gives it (read-only: shared by every call)."""
_NONE: list[Ability] = []


def of(state: SpanishMainState, s: Ship) -> list[Ability]:
    """The abilities ``s`` has now: her card's (SM-60) and those of the crew aboard that may use
    theirs on her (SM-61: crew of her nation, or of a nation her card or a crew card allows);
    none with ``abilities = false``. Read-only (a crewless ship's list is shared)."""
    if not state.options.abilities:
        return []
    if not s.aboard:  # (no crew: her card's alone; the rules ask this for every move)
        own = _CARD_ABILITY.get(s.card) or _NONE
        return _NONE if own and cancelled(state, s.id) else own
    card = CARDS.get(s.card)
    own = [TEXTS[card.ability]] if card is not None and card.ability in TEXTS else []
    if own and cancelled(state, s.id):
        own = []
    crew = [
        (CREW[c.card], TEXTS.get(CREW[c.card].ability))
        for c in s.aboard
        if c.card in CREW and not cancelled(state, c.id)
    ]
    nations = {card.faction} if card is not None else set()
    nations |= {a.faction for a in own if a.kind == "foreign_crew"}
    anyone = any(a is not None and a.kind == "any_crew" for _, a in crew)
    own.extend(a for cc, a in crew if a is not None and (anyone or cc.faction in nations))
    return own


CANCELLED = "cancelled:"
"""A mark (``state.marks``, cleared as each turn begins): this ship's card, or this crew
piece, has no ability for the rest of the turn (Nemesio Diaz)."""


def cancelled(state: SpanishMainState, holder: str) -> bool:
    """Is the ability of ``holder`` (a ship, or a crew piece, by id) cancelled this turn?"""
    return bool(state.marks) and CANCELLED + holder in state.marks


def ability_of(holder_card: str) -> Ability | None:
    """The ability printed on a ship or crew card (by card id), if it plays."""
    card = CARDS.get(holder_card)
    text = card.ability if card is not None else CREW[holder_card].ability
    return TEXTS.get(text)


def crew_slots(card_id: str) -> int:
    """SM-61: the cargo slots a crew piece takes: 1, or 0 ("takes up no cargo space"), or -1
    when it also gives the ship a slot."""
    text = CREW[card_id].ability
    if "takes up no cargo space" not in text:
        return 1
    return -1 if TEXTS.get(text, Ability("")).kind == "cargo_plus" else 0


def crew_plays(text: str) -> bool:
    return text in TEXTS


_PARTS = {
    "move_shoot_pinned_kill": ("move_shoot", "pinned_kill"),
    "move_shoot_kill_crew": ("move_shoot", "kill_crew_on_hit"),
    "blackheart": ("move_shoot", "crew_for_action"),
}
"""A text that holds two abilities (Captain Jack Hawkins) answers to both kinds."""


def _kinds(state: SpanishMainState, s: Ship, kind: str) -> list[Ability]:
    return [a for a in of(state, s) if a.kind == kind or kind in _PARTS.get(a.kind, ())]


def has(state: SpanishMainState, s: Ship, kind: str) -> bool:
    held = of(state, s)
    if not held:  # (most ships hold none: asked of every ship for every move planned)
        return False
    return any(a.kind == kind or kind in _PARTS.get(a.kind, ()) for a in held)


def faction(s: Ship) -> str:
    card = CARDS.get(s.card)
    return card.faction if card is not None else ""


# --------------------------------------------------------------------------- on roll


def cannon_bonus(state: SpanishMainState, s: Ship, t: Ship) -> int:
    """What ``s`` adds to a cannon roll at ``t``: against a faction, for friends within S, and
    what ``t``'s own card gives a shooter of a faction."""
    bonus = 0
    for a in of(state, s):
        if a.kind == "cannon_vs" and faction(t) == a.faction:
            bonus += a.value
        elif a.kind == "cannon_per_friend":
            bonus += a.value * friends_within_s(state, s)
        elif a.kind == "captain" and any(_captain(c.name) for c in s.aboard):
            bonus += a.value
    for a in of(state, t):
        if a.kind == "shot_by" and faction(s) == a.faction:
            bonus += a.value
    return bonus


def _captain(name: str) -> bool:
    """A Captain crew (HMS King Edward, El Duque): a crew card whose name says Captain."""
    return "captain" in name.lower() or "capitán" in name.lower()


def friends_within_s(state: SpanishMainState, s: Ship) -> int:
    """Friendly ships whose hulls are within S of ``s``'s hull."""
    me = geo.axis(s.x, s.y, s.heading, s.length)
    n = 0
    for o in state.ships.values():
        if o.id == s.id or o.owner != s.owner:
            continue
        d = geo.segment_segment(me, geo.axis(o.x, o.y, o.heading, o.length))[0]
        if d - 2 * geo.HULL_RADIUS <= geo.S + 1e-9:
            n += 1
    return n


def boarding_bonus(state: SpanishMainState, s: Ship) -> int:
    return sum(a.value for a in _kinds(state, s, "boarding"))


# --------------------------------------------------------------------------- range, line of fire


def range_immune(state: SpanishMainState, t: Ship, rng: str) -> bool:
    """Can a cannon of range ``rng`` not hit ``t`` (so it may not fire at her)?"""
    return rng == "L" and has(state, t, "l_immune")


def clear_line(state: SpanishMainState, s: Ship) -> bool:
    """Do other ships not block ``s``'s line of fire (islands still do)?"""
    return has(state, s, "clear_line")


def cannon_range(state: SpanishMainState, s: Ship, printed: str) -> str:
    """A cannon's range now: L for every cannon with a crew that says so, else as printed."""
    return "L" if has(state, s, "all_l") else printed


def range_factor(state: SpanishMainState, s: Ship) -> float:
    """How far ``s``'s cannons reach, as a multiple of their printed range."""
    return 2.0 if has(state, s, "double_range") else 1.0


# --------------------------------------------------------------------------- on move


def legs(state: SpanishMainState, s: Ship) -> list[str]:
    """SM-12 with abilities: her base move now (before towing, which the rules apply)."""
    base = list(s.move)
    for a in of(state, s):
        if a.kind == "derelict_move" and s.derelict:
            return [a.leg]
        if a.kind == "full_slow" and s.cargo_slots and s.free_cargo <= 0:
            return ["S"]
        if a.kind == "empty_fast" and not s.cargo:
            base.append(a.leg)
        if a.kind == "masts_fast" and all(m.up for m in s.masts):
            base.append(a.leg)
        if a.kind == "plus_leg":
            base.append(a.leg)
    return base


def sails_derelict(state: SpanishMainState, s: Ship) -> bool:
    """May ``s`` be given a move action although derelict (SM-11 with an ability)?"""
    return s.derelict and has(state, s, "derelict_move")


# --------------------------------------------------------------------------- on hit, on sink


def masts_per_hit(state: SpanishMainState, s: Ship) -> int:
    return 2 if has(state, s, "double_hit") else 1


def shooter_picks(state: SpanishMainState, s: Ship) -> bool:
    return has(state, s, "walpole")


def misfires(state: SpanishMainState, s: Ship, die: int) -> bool:
    return die == 1 and has(state, s, "misfire")


def ram_immune(state: SpanishMainState, t: Ship) -> bool:
    return has(state, t, "ram_immune")


def extra_action(state: SpanishMainState, s: Ship) -> bool:
    return has(state, s, "extra_action")


def never_last(state: SpanishMainState, s: Ship) -> bool:
    return has(state, s, "never_last")


def repairs_anywhere(state: SpanishMainState, s: Ship) -> bool:
    return has(state, s, "repair_anywhere")


def crew_protected(state: SpanishMainState, s: Ship) -> bool:
    """Ghost Crew: her crew cannot be eliminated unless she sinks."""
    return has(state, s, "ghost")


def treasure_bonus(state: SpanishMainState, s: Ship) -> int:
    """Gold added when she unloads (one coin worth more per such crew card)."""
    return sum(a.value for a in _kinds(state, s, "treasure_plus"))


def cannon_stands(state: SpanishMainState, s: Ship, i: int) -> bool:
    """May mast ``i``'s cannon fire: its mast stands, or (HMS Belle of Exeter) her cannons
    stay when masts go, while she is not derelict."""
    return s.masts[i].up or (not s.derelict and has(state, s, "cannons_stay"))


def takes_on_touch(state: SpanishMainState, s: Ship) -> list[Ability]:
    """La Resolucion, Skyme the Monkey (one coin, once per turn), L'Aguila (as many as she can
    carry, from Pirate ships): what she takes from an enemy ship she touches after her move."""
    return _kinds(state, s, "take_on_touch")


def muskets(state: SpanishMainState, s: Ship) -> int:
    """Musketeers aboard, and cannons made of treasure (Carbon Charlie): each gives her one
    more 3S cannon, numbered after her masts."""
    return len(_kinds(state, s, "musket")) + s.guns
