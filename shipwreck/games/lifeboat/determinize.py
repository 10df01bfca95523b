"""One seat's guess at the whole game: a full, legal state sampled from its view alone.

A search (:mod:`shipwreck.engine.ismcts`) plays thousands of games forward from "what might be
true". This module makes each of those worlds from a :class:`~.view.LifeboatView` and a seeded
RNG, and **never reads the real state**: it is given a view, so it cannot. What the seat knows is
copied; what it cannot know is drawn from what is still possible:

- others' hidden items: dealt from the unseen pool (the 42 supply cards less my own items and
  every revealed one), as many as each is seen to hold; a conscious character still asked about
  thirst must hold water (else the thirst step would not wait for them), so one is given when the
  pool has it;
- the supply deck and the cards out of the game: the rest of the pool, shuffled; a supply offer
  I cannot see likewise;
- others' friend and enemy: each a shuffle of the characters in the boat (LB-7), less mine;
- the navigation deck's order (and another rower's drawn cards): the cards not on the table and
  not in my hand, shuffled.

What the view does not carry is approximated from it: the action order is the boat as it sits now
(a swap earlier this round is forgotten), the umbrella has not yet spared anyone this round, and in
an overboard step everyone who could still throw or bait is still to answer.
"""

from __future__ import annotations

from collections import Counter

from shipwreck.engine.rng import Rng
from shipwreck.games.lifeboat import rules
from shipwreck.games.lifeboat.cards import NAV_NUMBERS, SUPPLY_DECK
from shipwreck.games.lifeboat.state import (
    Character,
    Fight,
    LifeboatState,
    Request,
    TradeOffer,
)
from shipwreck.games.lifeboat.view import LifeboatView


class NotDeterminizable(ValueError):
    """A view with no seat (a spectator's) or a finished game: nothing to guess for."""


def determinize(
    view: LifeboatView, rng: Rng, options: dict[str, bool] | None = None
) -> LifeboatState:
    """A full state consistent with everything ``view``'s seat knows, the rest drawn by ``rng``."""
    me = view.me
    if me is None or view.seat is None:
        raise NotDeterminizable("a spectator's view has no seat to guess for")
    boat = [c.id for c in view.characters]
    mine = next(c for c in view.characters if c.id == me)
    players = [""] * len(boat)
    for c in view.characters:
        players[c.player] = c.id

    # --- supply cards: what I see, and the pool of what I do not
    pool = Counter(SUPPLY_DECK)
    known: list[str] = list(mine.hidden or ())
    for c in view.characters:
        known.extend(c.revealed)
    known.extend(view.supply_offer)
    pool.subtract(known)
    unseen = sorted(pool.elements())
    rng.shuffle(unseen)

    chars: dict[str, Character] = {}
    for c in view.characters:
        if c.id == me:
            hidden = list(mine.hidden or ())
        else:
            hidden, unseen = unseen[: c.hidden_count], unseen[c.hidden_count :]
        chars[c.id] = Character(
            id=c.id,
            strength=c.strength,
            wounds=c.wounds,
            dead=c.state == "dead",
            hidden=hidden,
            revealed=list(c.revealed),
            rowed=c.rowed,
            fought=c.fought,
        )
    if view.step == "thirst":
        _water_for_the_asked(view, chars, me, unseen)
    offer = list(view.supply_offer)
    if not offer and view.supply_offer_count:
        offer, unseen = unseen[: view.supply_offer_count], unseen[view.supply_offer_count :]
    supply_deck, out = unseen[: view.supply_deck_count], unseen[view.supply_deck_count :]

    _relations(boat, chars, me, mine.friend or "", mine.enemy or "", rng, options or {})

    # --- navigation cards
    table = list(view.navigation_table)
    drawn = list(view.drawn)
    nav = [n for n in NAV_NUMBERS if n not in table and n not in drawn]
    rng.shuffle(nav)
    if view.step == "keep" and not drawn and view.actor is not None:  # someone else rowed
        k = max(0, len(nav) - view.navigation_deck_count)
        drawn, nav = nav[:k], nav[k:]

    state = LifeboatState(
        seed=0,
        rng=Rng(rng.next_u64()),
        players=players,
        boat=boat,
        chars=chars,
        supply_deck=supply_deck,
        nav_deck=nav,
        options=dict(options or {}),
        round=view.round,
        birds=view.birds,
        phase=view.phase,  # type: ignore[arg-type]
        step=view.step,  # type: ignore[arg-type]
        out=out,
        offer=offer,
        nav_table=table,
        drawn=drawn,
        thirst=dict(view.thirst),
        overboard=list(view.overboard),
        card=view.card or 0,
        trades=[TradeOffer(t.source, t.target, t.item, t.ask) for t in view.trades],
    )
    _flow(view, state)
    return state


def _water_for_the_asked(
    view: LifeboatView, chars: dict[str, Character], me: str, unseen: list[str]
) -> None:
    """LB-50: a conscious thirsty character the step still waits for holds water."""
    for cid, n in view.thirst.items():
        c = chars[cid]
        if cid == me or n <= 0 or not c.conscious or rules.holds(c, "water") or not c.hidden:
            continue
        if "water" in unseen:
            unseen[unseen.index("water")] = c.hidden[0]
            c.hidden[0] = "water"


def _relations(
    boat: list[str],
    chars: dict[str, Character],
    me: str,
    friend: str,
    enemy: str,
    rng: Rng,
    options: dict[str, bool],
) -> None:
    """LB-7: friends and enemies are two shuffles of the characters in play; mine are known."""
    others = [cid for cid in boat if cid != me]
    for _attempt in range(100):
        friends = [cid for cid in boat if cid != friend]
        enemies = [cid for cid in boat if cid != enemy]
        rng.shuffle(friends)
        rng.shuffle(enemies)
        ok = not options.get("redeal_self") or all(
            f != cid and e != cid and f != e
            for cid, f, e in zip(others, friends, enemies, strict=True)
        )
        if ok:
            break
    chars[me].friend, chars[me].enemy = friend, enemy
    for cid, f, e in zip(others, friends, enemies, strict=True):
        chars[cid].friend, chars[cid].enemy = f, e


def _flow(view: LifeboatView, state: LifeboatState) -> None:
    """Who picks, whose turn, the open request or fight: rebuilt from the public view."""
    chars = state.chars
    if view.step == "pick":
        first = next((p.seat for p in view.prompts if p.kind == "supply"), None)
        if first is not None:
            awake = [cid for cid in state.boat if chars[cid].conscious]
            start = awake.index(state.players[first]) if state.players[first] in awake else 0
            state.pickers = awake[start : start + len(state.offer)]
    if view.phase == "actions":
        state.order = list(state.boat)
        state.turn = state.boat.index(view.actor) if view.actor is not None else len(state.boat)
    if view.request is not None:
        r = view.request
        state.request = Request(r.kind, r.attacker, r.target, r.item)  # type: ignore[arg-type]
        if r.kind == "rob" and r.item is None:
            state.request.candidates = list(chars[r.target].hidden)
    if view.fight is not None:
        f = view.fight
        r = f.request
        req = Request(r.kind, r.attacker, r.target, r.item)  # type: ignore[arg-type]
        if r.kind == "rob" and r.item is None:
            req.candidates = list(chars[r.target].hidden)
        state.fight = Fight(
            request=req,
            attackers=list(f.attackers),
            defenders=list(f.defenders),
            voters=[cid for cid in state.boat if chars[cid].conscious],
            done=list(f.done),
        )
    if view.step == "overboard":
        state.responders = [
            cid
            for cid in state.boat
            if cid not in state.overboard and rules._can_respond(state, cid)
        ]
