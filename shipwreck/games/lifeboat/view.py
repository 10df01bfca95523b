"""What one seat may know of a Lifeboat game: the one hidden-information filter (rules §5).

Every screen, bot, spectator and log reads a :class:`LifeboatView`, never the state. Hidden
items, friends and enemies of others, the decks' order, a rower's drawn cards and a robbery's
candidates never enter a view that is not their owner's — until the game is over, when
everything is shown.
"""

from __future__ import annotations

import msgspec

from shipwreck.engine.core import Prompt, Seat
from shipwreck.games.lifeboat import rules
from shipwreck.games.lifeboat.cards import CHAR
from shipwreck.games.lifeboat.commands import Command
from shipwreck.games.lifeboat.scoring import breakdown
from shipwreck.games.lifeboat.state import LifeboatState, Request


class CharacterView(msgspec.Struct, frozen=True):
    id: str
    seat: int
    """1 = bow."""
    strength: int
    bonus: int
    wounds: int
    state: str
    revealed: tuple[str, ...]
    hidden_count: int
    rowed: bool
    fought: bool
    player: int
    """The table seat of the player holding this character."""
    hidden: tuple[str, ...] | None = None
    """Only for my own character, or everyone's once the game is over."""
    friend: str | None = None
    enemy: str | None = None


class RequestView(msgspec.Struct, frozen=True):
    kind: str
    attacker: str
    target: str
    item: str | None
    """The named revealed item; ``None`` for a hidden one."""


class FightView(msgspec.Struct, frozen=True):
    request: RequestView
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    attack_power: int
    defense_power: int
    done: tuple[str, ...]


class TradeView(msgspec.Struct, frozen=True):
    source: str
    target: str
    item: str
    ask: str | None


class LifeboatView(msgspec.Struct, frozen=True):
    seat: Seat | None
    me: str | None
    round: int
    birds: int
    phase: str
    step: str
    characters: tuple[CharacterView, ...]
    """Bow -> stern."""
    navigation_table: tuple[int, ...]
    navigation_deck_count: int
    supply_deck_count: int
    prompts: tuple[Prompt, ...]
    actor: str | None
    navigator: str | None
    card: int | None
    """The navigation card being resolved."""
    overboard: tuple[str, ...]
    request: RequestView | None
    fight: FightView | None
    thirst: dict[str, int]
    drawn: tuple[int, ...] = ()
    """My own drawn cards while I decide what to keep."""
    supply_offer: tuple[str, ...] = ()
    """The supply cards passed to me, while it is my pick."""
    supply_offer_count: int = 0
    trades: tuple[TradeView, ...] = ()
    """Offers I made or received."""
    choices: tuple[Command, ...] = ()
    """My legal answers to my open decision (empty if I have none)."""
    free: tuple[Command, ...] = ()
    """My legal free actions now (offers are listed without ``for ITEM``; any item may be
    asked in return)."""
    scores: dict[str, int] | None = None
    score_parts: dict[str, dict[str, int]] | None = None
    winners: tuple[str, ...] = ()


def _request(req: Request | None) -> RequestView | None:
    if req is None:
        return None
    return RequestView(req.kind, req.attacker, req.target, req.item)


def _shown(p: Prompt, seat: Seat | None) -> bool:
    """Others' prompts are public, except those that would tell what someone holds: who may
    help in the overboard step (preserver, bait) or drink (water), and private trade offers."""
    return p.seat == seat or p.kind not in ("overboard", "thirst", "offer")


def view(state: LifeboatState, seat: Seat | None) -> LifeboatView:
    """The game as ``seat`` (``None`` = a spectator) may see it."""
    me = state.players[seat] if seat is not None and 0 <= seat < len(state.players) else None
    over = state.phase == "over"
    chars = []
    for i, cid in enumerate(state.boat):
        c = state.chars[cid]
        mine = over or cid == me
        chars.append(
            CharacterView(
                id=cid,
                seat=i + 1,
                strength=c.strength,
                bonus=CHAR[cid].bonus,
                wounds=c.wounds,
                state=c.state,
                revealed=tuple(c.revealed),
                hidden_count=len(c.hidden),
                rowed=c.rowed,
                fought=c.fought,
                player=state.players.index(cid),
                hidden=tuple(c.hidden) if mine else None,
                friend=c.friend if mine else None,
                enemy=c.enemy if mine else None,
            )
        )
    f = state.fight
    fight = None
    if f is not None:
        req = _request(f.request)
        assert req is not None
        fight = FightView(
            request=req,
            attackers=tuple(f.attackers),
            defenders=tuple(f.defenders),
            attack_power=rules.power(state, f.attackers),
            defense_power=rules.power(state, f.defenders),
            done=tuple(f.done),
        )
    picking = state.step == "pick" and state.pickers and state.pickers[0] == me
    scores = state.scores if over else None
    best = max(scores.values()) if scores else None
    return LifeboatView(
        seat=seat,
        me=me,
        round=state.round,
        birds=state.birds,
        phase=state.phase,
        step=state.step,
        characters=tuple(chars),
        navigation_table=tuple(state.nav_table),
        navigation_deck_count=len(state.nav_deck),
        supply_deck_count=len(state.supply_deck),
        prompts=tuple(p for p in rules.prompts(state) if _shown(p, seat)),
        actor=state.actor(),
        navigator=rules.navigator(state) if state.phase == "navigation" else None,
        card=state.card if state.step in ("overboard", "thirst") else None,
        overboard=tuple(state.overboard),
        request=_request(state.request),
        fight=fight,
        thirst=dict(state.thirst),
        drawn=tuple(state.drawn) if me is not None and me == state.actor() else (),
        supply_offer=tuple(state.offer) if picking else (),
        supply_offer_count=len(state.offer),
        trades=tuple(
            TradeView(t.source, t.target, t.item, t.ask)
            for t in state.trades
            if me in (t.source, t.target)
        ),
        choices=tuple(rules.choices(state, seat)) if me is not None and seat is not None else (),
        free=tuple(rules.free_actions(state, seat)) if me is not None and seat is not None else (),
        scores=scores,
        score_parts={cid: breakdown(state, cid) for cid in state.boat} if over else None,
        winners=tuple(cid for cid, s in (scores or {}).items() if s == best),
    )
