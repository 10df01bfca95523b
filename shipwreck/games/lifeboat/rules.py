"""The whole of Lifeboat's rules: prompts, legal commands, and applying a command.

One file holds the game's flow, as in OpenSpiel's Python games; the rule ids (``LB-…``) of
``docs/rules/lifeboat.md`` are named where they are enforced.

Every ``_cmd_*`` handler validates first and mutates after, so a command that raises
:class:`IllegalCommand` leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shipwreck.engine.core import SYSTEM, Event, IllegalCommand, Prompt, Seat, waiting_text
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.cards import (
    CHAR_IDS,
    ITEM_KINDS,
    ITEM_NAMES,
    NAV,
    SUPPLY_COUNTS,
    WEAPONS,
    describe_nav,
    kind,
    named,
)
from shipwreck.games.lifeboat.scoring import score_all
from shipwreck.games.lifeboat.state import Character, Fight, LifeboatState, Request, TradeOffer

KNOWN_ITEMS = frozenset(ITEM_KINDS) | frozenset(SUPPLY_COUNTS)
VARIED_KINDS = frozenset(kind(i) for i in SUPPLY_COUNTS if ":" in i)
"""Kinds whose cards differ (``painting``): a bare kind name matches any of them."""


# Commands are frozen, so the common ones are built once and shared (``choices`` is hot).
_ROW, _REST, _DONE, _AGREE, _RESIST, _PASS = (
    C.Row(),
    C.Rest(),
    C.Done(),
    C.Agree(),
    C.Resist(),
    C.Pass(),
)
_JOIN_ATTACKER, _JOIN_DEFENDER = C.Join("attacker"), C.Join("defender")
_THIRST = (C.Drink(), C.Wound())
_SWAP = {cid: C.Swap(cid) for cid in CHAR_IDS}
_ROB_HIDDEN = {cid: C.Rob(cid) for cid in CHAR_IDS}
_SWAP_ROB = {cid: (_SWAP[cid], _ROB_HIDDEN[cid]) for cid in CHAR_IDS}
_TAKE = {item: C.Take(item) for item in KNOWN_ITEMS}
_CHOOSE = {n: C.Choose(n) for n in NAV}
_REVEAL = {w: C.Reveal(w) for w in WEAPONS}
_ROB_OF: dict[str, dict[str, C.Rob]] = {
    cid: {item: C.Rob(cid, item) for item in KNOWN_ITEMS} for cid in CHAR_IDS
}
"""``rob X ITEM`` for every character and card: revealed items are real cards."""
_THIRSTY = {n: frozenset(named(card.thirsty, list(CHAR_IDS))) for n, card in NAV.items()}
"""Who each navigation card makes thirsty by name, of all characters (LB-50)."""
_SPECIAL_ITEMS = frozenset({"umbrella", "medkit", "flare"})
"""The items that add turn choices of their own."""
_FIRE = C.FireFlare()
_USE: dict[str, dict[str | None, C.Use]] = {
    item: {cid: C.Use(item, cid) for cid in (None, *CHAR_IDS)} for item in ("umbrella", "medkit")
}
"""``use ITEM on X`` made once; ``None``: on oneself."""
_KEEPS: dict[tuple[int, ...], tuple[C.Keep, ...]] = {}
"""The ``keep`` answers to each drawn hand, made once per hand (every subset, as ``choices``
lists them)."""


def _keeps(drawn: list[int]) -> tuple[C.Keep, ...]:
    key = tuple(drawn)
    keeps = _KEEPS.get(key)
    if keeps is None:
        n = len(drawn)
        keeps = _KEEPS[key] = tuple(
            C.Keep(tuple(drawn[i] for i in range(n) if mask >> i & 1)) for mask in range(1 << n)
        )
    return keeps


_TAKES: dict[tuple[str, ...], tuple[C.Take, ...]] = {}
"""The ``take`` answers to each supply offer met, made once (each card kind once, in order)."""


def _takes(offer: list[str]) -> list[C.Command]:
    key = tuple(offer)
    takes = _TAKES.get(key)
    if takes is None:
        if len(_TAKES) >= 4096:  # offers are many (up to 6 of 15 kinds, in order): stay small
            _TAKES.clear()
        takes = _TAKES[key] = tuple(_TAKE[i] for i in dict.fromkeys(offer))
    return list(takes)


PROMPT_KINDS = ("supply", "turn", "keep", "respond", "fight", "navigate", "overboard", "thirst")
# Prompts are frozen: one shared instance per (seat, kind), listed by seat for each kind.
_PROMPTS: dict[str, list[Prompt]] = {
    k: [Prompt(seat, k) for seat in range(len(CHAR_IDS))] for k in PROMPT_KINDS
}
_FIGHT_PROMPTS = _PROMPTS["fight"]
_THIRST_PROMPTS = _PROMPTS["thirst"]
_SEATS: dict[tuple[str, ...], dict[str, int]] = {}
"""Character -> seat for each seating met (at most 1,800: 6 characters in 4 to 6 seats)."""
_last_seats: tuple[list[str], dict[str, int]] = ([], {})


def _seat_map(state: LifeboatState) -> dict[str, int]:
    """Character -> seat of ``state`` (``players`` never changes in a game). Why: a dict lookup
    is cheaper than ``players.index``'s scan, and a fight asks everyone at every answer. The last
    seating is kept with its list (compared by identity), so one game's prompts find it at once."""
    global _last_seats
    players = state.players
    last = _last_seats
    if last[0] is players:
        return last[1]
    key = tuple(players)
    seats = _SEATS.get(key)
    if seats is None:
        seats = _SEATS[key] = {cid: i for i, cid in enumerate(players)}
    _last_seats = (players, seats)
    return seats


class _Log:
    """Collects the events one command produces.

    Every call is guarded by ``if log.on:`` so a quiet log (:data:`_QUIET`) costs no text at all:
    headless play (``shipwreck sim``, a search's playouts) reads no event, and building their
    words was a sixth of its time."""

    __slots__ = ("events", "state")
    on = True

    def __init__(self, state: LifeboatState) -> None:
        self.state = state
        self.events: list[Event] = []

    def public(self, kind_: str, text: str) -> None:
        self.events.append(Event(kind_, text))

    def _seats(self, chars: tuple[str, ...]) -> tuple[int, ...]:
        index = self.state.players.index
        return (index(chars[0]),) if len(chars) == 1 else tuple(sorted({index(c) for c in chars}))

    def private(self, kind_: str, text: str, *chars: str) -> None:
        self.events.append(Event(kind_, text, self._seats(chars)))

    def secret(self, kind_: str, public: str, private: str, *chars: str) -> None:
        """One line for everyone: the ``public`` words, except for ``chars``, who read the
        ``private`` ones that say more (not both: the play-test read them as a duplicate)."""
        seats = self._seats(chars)
        self.events.append(Event(kind_, public, hide=seats))
        self.events.append(Event(kind_, private, seats))


class _Quiet(_Log):
    """The log of :func:`apply_quiet`: it is off, so nothing is written to it."""

    __slots__ = ()
    on = False

    def __init__(self) -> None:
        self.events = []

    def public(self, kind_: str, text: str) -> None:
        pass

    def private(self, kind_: str, text: str, *chars: str) -> None:
        pass

    def secret(self, kind_: str, public: str, private: str, *chars: str) -> None:
        pass


_QUIET = _Quiet()


# --------------------------------------------------------------------------- small helpers


def _find(cards: list[str], ref: str) -> int:
    """The index of the first card answering to ``ref`` (``painting`` = any painting), or -1."""
    if ref in cards:
        return cards.index(ref)
    if ref in VARIED_KINDS:
        for i, card in enumerate(cards):
            if kind(card) == ref:
                return i
    return -1


def holds(c: Character, ref: str) -> bool:
    if ref in c.hidden or ref in c.revealed:
        return True
    return ref in VARIED_KINDS and (_find(c.hidden, ref) >= 0 or _find(c.revealed, ref) >= 0)


def _take(c: Character, ref: str, prefer_revealed: bool = False) -> tuple[str, bool]:
    """Remove a card answering to ``ref`` from ``c``; returns ``(card, was_revealed)``."""
    lists = (c.revealed, c.hidden) if prefer_revealed else (c.hidden, c.revealed)
    for lst in lists:
        i = _find(lst, ref)
        if i >= 0:
            return lst.pop(i), lst is c.revealed
    raise AssertionError(f"{c.id} holds no {ref}")  # callers check holds() first


def _name(item: str) -> str:
    return ITEM_NAMES[kind(item)] + (f" ({item.split(':')[1]})" if ":" in item else "")


def _check_item(ref: str) -> None:
    if ref not in KNOWN_ITEMS:
        raise IllegalCommand(f"unknown item {ref!r}; items are: {', '.join(ITEM_KINDS)}")


def _char(state: LifeboatState, cid: str) -> Character:
    c = state.chars.get(cid)
    if c is None:
        present = ", ".join(state.boat)
        raise IllegalCommand(f"{cid!r} is not in this boat; characters here: {present}")
    return c


def _wound(state: LifeboatState, log: _Log, c: Character, n: int, why: str) -> None:
    """Give ``n`` wounds (LB-30): wounds = strength is unconscious, more is dead."""
    if n <= 0 or c.dead:
        return
    was_awake = c.wounds < c.strength
    c.wounds += n
    if c.wounds > c.strength:
        c.dead = True
    if log.on:
        log.public("wound", f"{c.id} takes {n} wound{'s' if n > 1 else ''} ({why})")
    if c.dead or (was_awake and c.wounds >= c.strength):  # its state changed
        if log.on:
            log.public("state", f"{c.id} is {'dead' if c.dead else 'unconscious'}")
        _lapse_trades(state, c)


def _lapse_stale_trades(state: LifeboatState) -> None:
    """An offer lapses once its maker no longer holds the item (so 'accept' never fails on
    something the accepter cannot see)."""
    chars = state.chars
    state.trades = [t for t in state.trades if holds(chars[t.source], t.item)]


def _lapse_trades(state: LifeboatState, c: Character) -> None:
    """Offers to or from someone who can no longer answer lapse (LB-30)."""
    if state.trades:
        state.trades = [t for t in state.trades if c.id not in (t.source, t.target)]


def _kill(state: LifeboatState, log: _Log, c: Character, why: str) -> None:
    if not c.dead:
        c.dead = True
        if log.on:
            log.public("state", f"{c.id} is dead ({why})")
        _lapse_trades(state, c)


def navigator(state: LifeboatState) -> str | None:
    """The conscious character nearest the stern (LB-40)."""
    chars = state.chars
    for cid in reversed(state.boat):
        c = chars[cid]
        if not c.dead and c.wounds < c.strength:  # c.conscious, inlined: a hot path
            return cid
    return None


def _robbery_under_way(state: LifeboatState) -> bool:
    req = state.fight.request if state.fight else state.request
    return req is not None and req.kind == "rob"


DO_NOW = {
    "supply": "take ITEM",
    "turn": "row, rest, swap X, rob X ITEM, use ITEM, fire flare",
    "keep": "keep N… or keep none",
    "respond": "agree or resist",
    "fight": "join attacker|defender, reveal WEAPON, done",
    "navigate": "choose N",
    "overboard": "throw preserver to X, play bait, pass",
    "thirst": "drink or wound; or give water to X, pass",
}
"""What a seat can type for each prompt, named in a refusal when the table waits for it."""


def _waiting_for(state: LifeboatState, me: str) -> str:
    return waiting_text(
        state.players.index(me), prompts(state), state.players, DO_NOW, ("overboard", "thirst")
    )


# --------------------------------------------------------------------------- prompts


def prompts(state: LifeboatState) -> list[Prompt]:
    """Who must (or may) decide now. Trades waiting for an answer are non-blocking prompts."""
    step = state.step
    out: list[Prompt]
    # The most frequent steps first: a fight asks everyone, one answer at a time.
    if step == "fight":
        last = _last_seats  # _seat_map's usual answer, without the call: a fight's hot path
        seat = last[1] if last[0] is state.players else _seat_map(state)
        f = state.fight
        assert f is not None
        done = f.done
        fight = _FIGHT_PROMPTS
        if done:
            out = [fight[seat[cid]] for cid in f.voters if cid not in done]
        else:
            out = [fight[seat[cid]] for cid in f.voters]
    elif step == "turn":  # one seat to find: players.index beats building the map
        out = [_PROMPTS["turn"][state.players.index(state.order[state.turn])]]
    elif step == "pick":
        out = [_PROMPTS["supply"][state.players.index(state.pickers[0])]]
    elif step == "respond":
        assert state.request is not None
        out = [_PROMPTS["respond"][state.players.index(state.request.target)]]
    elif step == "thirst":
        seat, thirst = _seat_map(state), _THIRST_PROMPTS
        out = [thirst[seat[cid]] for cid in _thirst_prompted(state)]
    elif step == "keep":
        out = [_PROMPTS["keep"][state.players.index(state.order[state.turn])]]
    elif step == "overboard":
        seat, overboard = _seat_map(state), _PROMPTS["overboard"]
        out = [overboard[seat[cid]] for cid in state.responders]
    elif step == "choose":
        nav = navigator(state)
        out = [_PROMPTS["navigate"][state.players.index(nav)]] if nav else []
    else:
        return []
    if state.trades:
        seat = _seat_map(state)
        seen = {p.seat for p in out if p.kind == "offer"}
        for t in state.trades:
            s = seat[t.target]
            if s not in seen:
                seen.add(s)
                out.append(Prompt(s, "offer", blocking=False))
    return out


def _thirst_prompted(state: LifeboatState) -> list[str]:
    """Who the thirst step asks, bow to stern (LB-50): each conscious water holder with a
    thirst of its own (drink or wound), and, while an unconscious character is still thirsty,
    every other conscious water holder who has not passed (give it water, or pass)."""
    thirst = state.thirst
    asked: list[str] = []
    if not thirst:
        return asked
    chars = state.chars
    for cid, n in thirst.items():  # in seat order; one pass, a hot path
        if n > 0:
            c = chars[cid]
            if c.dead:
                continue
            if c.wounds >= c.strength:
                break  # an unconscious one is thirsty: every conscious water holder is asked
            if "water" in c.hidden or "water" in c.revealed:
                asked.append(cid)
    else:  # only the thirsty are asked
        return asked
    passed = state.passed
    return [
        cid
        for cid in state.boat
        if ("water" in (c := chars[cid]).hidden or "water" in c.revealed)
        and not c.dead
        and c.wounds < c.strength
        and (thirst.get(cid, 0) > 0 or cid not in passed)
    ]


def _asked_to_drink(state: LifeboatState, c: Character) -> bool:
    """LB-50: a conscious water holder with a thirst of its own is asked: drink or wound."""
    return (
        state.thirst.get(c.id, 0) > 0
        and not c.dead
        and c.wounds < c.strength
        and ("water" in c.hidden or "water" in c.revealed)
    )


def _asked_to_aid(state: LifeboatState, c: Character) -> bool:
    """LB-50: a conscious water holder with no thirst of its own, who has not passed, is asked
    while an unconscious character is still thirsty: give it water, or pass."""
    return (
        state.thirst.get(c.id, 0) <= 0
        and not c.dead
        and c.wounds < c.strength
        and ("water" in c.hidden or "water" in c.revealed)
        and c.id not in state.passed
        and bool(_aid_targets(state))
    )


def prompt_of(state: LifeboatState, seat: Seat) -> str | None:
    """The kind of ``seat``'s blocking prompt, if it has one."""
    for p in prompts(state):
        if p.seat == seat and p.blocking:
            return p.kind
    return None


# --------------------------------------------------------------------------- legal commands


def choices(state: LifeboatState, seat: Seat) -> list[C.Command]:
    """The legal answers to ``seat``'s blocking prompt (no free actions)."""
    if seat == SYSTEM or state.phase == "over":
        return []
    me = state.players[seat]
    c = state.chars[me]
    step = state.step
    out: list[C.Command] = []
    if step == "fight":  # the most frequent steps first
        f = state.fight
        if f is not None and not c.dead and c.wounds < c.strength and me not in f.done:
            if me in f.attackers or me in f.defenders:
                for w in c.hidden:  # each hidden weapon once
                    r = _REVEAL.get(w)
                    if r is not None and r not in out:
                        out.append(r)
                out.append(_DONE)
            else:
                out = [_JOIN_ATTACKER, _JOIN_DEFENDER, _DONE]
    elif step == "turn":
        if state.order[state.turn] == me:
            out = _turn_choices(state, c)
    elif step == "pick":
        if state.pickers[0] == me:
            out = _takes(state.offer)
    elif step == "respond":
        if state.request is not None and state.request.target == me:
            out = [_AGREE, _RESIST]
    elif step == "thirst":
        if _asked_to_drink(state, c):
            out = list(_THIRST)
        elif _asked_to_aid(state, c):
            out = [C.Give("water", tid) for tid in _aid_targets(state)]
            out.append(_PASS)
    elif step == "keep":
        if state.order[state.turn] == me:
            out = list(_keeps(state.drawn))
    elif step == "overboard":
        if me in state.responders:
            if holds(c, "preserver"):
                out = [C.ThrowPreserver(t) for t in state.overboard if state.chars[t].conscious]
            if holds(c, "bait"):
                out.append(C.PlayBait())
            out.append(_PASS)
    elif step == "choose" and navigator(state) == me:
        out = [_CHOOSE[n] for n in state.nav_table]
    return out


def _turn_choices(state: LifeboatState, c: Character) -> list[C.Command]:
    out: list[C.Command] = [_ROW, _REST]
    chars = state.chars
    me = c.id
    for tid in state.boat:
        if tid != me:
            t = chars[tid]
            if t.hidden:
                out += _SWAP_ROB[tid]  # swap, then rob a hidden item
            else:
                out.append(_SWAP[tid])
            revealed = t.revealed
            if revealed:
                rob = _ROB_OF[tid]
                if len(revealed) == 1:
                    out.append(rob[revealed[0]])
                else:
                    out += [rob[i] for i in dict.fromkeys(revealed)]
    if _SPECIAL_ITEMS.isdisjoint(c.hidden) and _SPECIAL_ITEMS.isdisjoint(c.revealed):
        return out
    if holds(c, "umbrella"):
        use = _USE["umbrella"]
        if _find(c.hidden, "umbrella") >= 0:
            out.append(use[None])
        out += [use[tid] for tid in state.boat if tid != me and not chars[tid].dead]
    if holds(c, "medkit"):
        use = _USE["medkit"]
        out += [
            use[None if tid == me else tid]
            for tid in state.boat
            if not (t := chars[tid]).dead and t.wounds > 0
        ]
    if holds(c, "flare"):
        out.append(_FIRE)
    return out


def free_actions(state: LifeboatState, seat: Seat) -> list[C.Command]:
    """Legal commands that answer no prompt: trades, gifts, drops (``say`` is free text)."""
    if seat == SYSTEM or state.phase == "over":
        return []
    me = state.players[seat]
    c = state.chars[me]
    if not c.conscious:
        return []
    out: list[C.Command] = []
    mine = list(dict.fromkeys(c.hidden + c.revealed))
    if _trading_allowed(state) is None and me not in state.overboard:
        for t in state.trades:
            if t.target == me:
                if t.source not in state.overboard and (t.ask is None or holds(c, t.ask)):
                    out.append(C.Accept(t.source))
                out.append(C.Decline(t.source))
        partners = [
            tid
            for tid in state.boat
            if tid != me and state.chars[tid].conscious and tid not in state.overboard
        ]
        # Offers are listed without ``for ITEM``: any item may be asked in return.
        for item in mine:
            out.extend(C.Offer(item, tid) for tid in partners)
        if "preserver" in mine:
            out.extend(
                C.Give("preserver", tid)
                for tid in state.boat
                if tid != me and not state.chars[tid].dead and tid not in state.overboard
            )
    # Asked only to give (LB-50), giving is one of the prompt's choices, not a free action.
    if state.step == "thirst" and "water" in mine and not _asked_to_aid(state, c):
        out.extend(C.Give("water", tid) for tid in _aid_targets(state))
    if _drop_allowed(state) is None:
        fight = state.fight is not None
        out.extend(C.Drop(i) for i in dict.fromkeys(c.hidden if fight else mine))
    return out


def legal(state: LifeboatState, seat: Seat) -> list[C.Command]:
    return choices(state, seat) + free_actions(state, seat)


def default(state: LifeboatState, seat: Seat) -> C.Command | None:
    """The safe answer to a seat's blocking prompt (timeouts, failing bots)."""
    kind_ = prompt_of(state, seat)
    if kind_ is None:
        return None
    me = state.players[seat]
    match kind_:
        case "supply":
            return C.Take(state.offer[0])
        case "turn":
            return C.Rest()
        case "keep":
            return C.Keep(())
        case "respond":
            return C.Agree()
        case "fight":
            return C.Done()
        case "navigate":
            return C.Choose(state.nav_table[0])
        case "overboard":
            return C.Pass()
        case "thirst":
            if state.thirst.get(me, 0) <= 0:
                return C.Pass()  # asked only to give water (LB-50)
            return C.Drink() if holds(state.chars[me], "water") else C.Wound()
    return None


# --------------------------------------------------------------------------- apply


def apply(state: LifeboatState, seat: Seat, cmd: C.Command) -> list[Event]:
    """Apply one command from ``seat``. Raises IllegalCommand (state unchanged) if not allowed."""
    log = _Log(state)
    apply_quiet(state, seat, cmd, log)
    return log.events


def apply_quiet(state: LifeboatState, seat: Seat, cmd: C.Command, log: _Log = _QUIET) -> None:
    """:func:`apply` for headless play (simulation, a search's playouts): the same rules, the
    same checks and the same state after, but no events are made. Live tables keep ``apply``
    (which passes its own ``log``)."""
    if state.phase == "over":
        raise IllegalCommand("the game is over")
    cls = type(cmd)
    handler = _HANDLERS.get(cls)
    if handler is not None and 0 <= seat < len(state.players):  # the common case first
        me = state.chars[state.players[seat]]
        if me.dead:
            raise IllegalCommand("you are dead: the dead are silent until the end of the voyage")
        handler(state, log, me, cmd)
        if state.trades:
            _lapse_stale_trades(state)
        if cls in _FREE and state.step in _RECHECK_STEPS:
            _recheck(state, log)
        return
    if seat == SYSTEM:
        if not isinstance(cmd, C.Timeout):
            raise IllegalCommand("the system seat only sends 'timeout CHARACTER'")
        target = _char(state, cmd.target)
        tseat = state.players.index(target.id)
        fallback = default(state, tseat)
        if fallback is None:
            raise IllegalCommand(f"{target.id} has nothing to decide now")
        if log.on:
            log.public("timeout", f"{target.id} ran out of time")
        _HANDLERS[type(fallback)](state, log, target, fallback)
        return
    if not 0 <= seat < len(state.players):
        raise IllegalCommand(f"seat {seat} is not at this table")
    if isinstance(cmd, C.Timeout):
        raise IllegalCommand("only the table's timer sends 'timeout'")
    raise IllegalCommand(f"not a Lifeboat command: {cmd!r}")


def _recheck(state: LifeboatState, log: _Log) -> None:
    """A free action (a drop, a gift) can leave someone with nothing left to decide."""
    if state.step == "overboard":
        _after_response(state, log)
    elif state.step == "thirst":
        _settle_thirst(state, log)


# --- supply (LB-11)


def _cmd_take(state: LifeboatState, log: _Log, me: Character, cmd: C.Take) -> None:
    if state.step != "pick":
        raise IllegalCommand(f"'take' is for the supply phase; {_waiting_for(state, me.id)}")
    if state.pickers[0] != me.id:
        raise IllegalCommand(f"it is {state.pickers[0]}'s pick from the supply")
    offer = state.offer
    if cmd.item in offer:  # a card on offer is a known item: the usual case, checked at once
        i = offer.index(cmd.item)
    else:
        _check_item(cmd.item)
        i = _find(offer, cmd.item)
        if i < 0:
            on_offer = ", ".join(offer)
            raise IllegalCommand(f"there is no {cmd.item} on offer; you may take: {on_offer}")
    card = offer.pop(i)
    me.hidden.append(card)
    state.pickers.pop(0)
    if log.on:
        log.secret(
            "supply", f"{me.id} takes a supply card", f"{me.id} takes {card} from the supply", me.id
        )
    if not state.pickers:
        state.supply_deck.extend(state.offer)
        state.offer = []
        _start_actions(state, log)


def start_round(state: LifeboatState, log: _Log) -> None:
    """LB-11: the bow draws one card per living, conscious character; each takes one in order."""
    state.phase = "supply"
    state.step = "pick"
    state.trades = []
    chars = state.chars
    awake = [cid for cid in state.boat if not (c := chars[cid]).dead and c.wounds < c.strength]
    k = min(len(awake), len(state.supply_deck))
    state.offer = state.supply_deck[:k]
    del state.supply_deck[:k]
    state.pickers = awake[:k]
    if log.on:
        cards = "1 supply card is" if k == 1 else f"{k} supply cards are"
        log.public("round", f"round {state.round} begins: {cards} passed sternward")
    if not state.pickers:
        _start_actions(state, log)


# --- actions (LB-12..LB-28)


def _start_actions(state: LifeboatState, log: _Log) -> None:
    state.phase = "actions"
    state.order = list(state.boat)  # LB-12: the order as the seats were at the start
    state.turn = -1
    state.drawn = []
    _next_turn(state, log)


def _next_turn(state: LifeboatState, log: _Log) -> None:
    state.step = "turn"
    state.request = None
    state.fight = None
    order, chars = state.order, state.chars
    t = state.turn + 1
    n = len(order)
    while t < n:
        c = chars[order[t]]
        if not c.dead and c.wounds < c.strength:  # c.conscious, inlined: a hot path
            break
        t += 1
    state.turn = t
    if t >= len(order):
        _start_navigation(state, log)


def _require_turn(state: LifeboatState, me: Character, what: str) -> None:
    if state.step != "turn":
        if state.phase == "actions" and state.order[state.turn] == me.id:
            raise IllegalCommand(f"you cannot {what} now; {_waiting_for(state, me.id)}")
        raise IllegalCommand(
            f"you cannot {what} now: it is not your turn; {_waiting_for(state, me.id)}"
        )
    if state.order[state.turn] != me.id:
        raise IllegalCommand(f"it is not your turn: {state.order[state.turn]} is to act")


def _cmd_row(state: LifeboatState, log: _Log, me: Character, cmd: C.Row) -> None:
    """LB-20: draw 2 (3 with an oar), keep any on the navigation table."""
    _require_turn(state, me, "row")
    n = 3 if holds(me, "oar") else 2
    drawn = state.nav_deck[:n]
    del state.nav_deck[:n]
    me.rowed = True
    if log.on:
        log.public("row", f"{me.id} rows and draws {len(drawn)} navigation cards")
    if not drawn:
        _next_turn(state, log)
        return
    state.drawn = drawn
    state.step = "keep"
    if log.on:
        cards = "; ".join(describe_nav(x, state.boat) for x in drawn)
        log.private("drawn", f"{me.id} draws {cards}", me.id)


def _cmd_keep(state: LifeboatState, log: _Log, me: Character, cmd: C.Keep) -> None:
    if state.step != "keep" or state.order[state.turn] != me.id:
        raise IllegalCommand(f"'keep' answers your own row; {_waiting_for(state, me.id)}")
    keep = list(cmd.cards)
    for n in keep:
        if n not in state.drawn:
            drawn = " ".join(str(x) for x in state.drawn)
            raise IllegalCommand(f"you did not draw #{n}; you drew {drawn}")
    if len(set(keep)) != len(keep):
        raise IllegalCommand("each card can be kept once")
    state.nav_table.extend(keep)
    state.nav_deck.extend(x for x in state.drawn if x not in keep)
    state.drawn = []
    if keep:
        if log.on:
            log.public("keep", f"{me.id} keeps {', '.join(f'#{x}' for x in keep)} on the table")
    else:
        if log.on:
            log.public("keep", f"{me.id} keeps no card")
    _next_turn(state, log)


def _cmd_rest(state: LifeboatState, log: _Log, me: Character, cmd: C.Rest) -> None:
    _require_turn(state, me, "rest")
    if log.on:
        log.public("rest", f"{me.id} rests")
    _next_turn(state, log)


def _cmd_swap(state: LifeboatState, log: _Log, me: Character, cmd: C.Swap) -> None:
    """LB-21: the dead and unconscious cannot refuse; the conscious agree or resist."""
    _require_turn(state, me, "swap")
    target = _char(state, cmd.target)
    if target.id == me.id:
        raise IllegalCommand("you cannot swap seats with yourself; name another character")
    req = Request(kind="swap", attacker=me.id, target=target.id)
    if log.on:
        log.public("swap", f"{me.id} wants {target.id}'s seat")
    if target.conscious:
        state.request = req
        state.step = "respond"
    else:
        _succeed(state, log, req)
        _next_turn(state, log)


def _cmd_rob(state: LifeboatState, log: _Log, me: Character, cmd: C.Rob) -> None:
    """LB-22: a revealed item by name, or a random hidden one; LB-24: the Kid steals hidden."""
    _require_turn(state, me, "rob")
    target = _char(state, cmd.target)
    if target.id == me.id:
        raise IllegalCommand("you cannot rob yourself; name another character")
    if cmd.item is None:
        if not target.hidden:
            raise IllegalCommand(f"{target.id} has no hidden items; rob a revealed one instead")
        req = Request(kind="rob", attacker=me.id, target=target.id)
        req.candidates = list(target.hidden)
        if log.on:
            log.public("rob", f"{me.id} tries to rob {target.id} of a hidden item")
    else:
        _check_item(cmd.item)
        i = _find(target.revealed, cmd.item)
        if i < 0:
            shown = ", ".join(target.revealed) or "nothing"
            raise IllegalCommand(
                f"{target.id} has no revealed {cmd.item} (revealed: {shown}); "
                f"try 'rob {target.id} hidden'"
            )
        req = Request(kind="rob", attacker=me.id, target=target.id, item=target.revealed[i])
        if log.on:
            log.public("rob", f"{me.id} tries to rob {target.id} of the {_name(req.item or '')}")
    if not target.conscious or (me.id == "kid" and cmd.item is None):
        _succeed(state, log, req)
        _next_turn(state, log)
    else:
        state.request = req
        state.step = "respond"


def _succeed(state: LifeboatState, log: _Log, req: Request) -> None:
    """The attacker gets what it asked for: the seat, or the item (LB-21, LB-22, LB-25)."""
    a, t = state.chars[req.attacker], state.chars[req.target]
    if req.kind == "swap":
        boat = state.boat
        i, j = boat.index(a.id), boat.index(t.id)
        boat[i], boat[j] = boat[j], boat[i]
        if log.on:
            log.public("swapped", f"{a.id} and {t.id} swap seats")
        return
    if req.item is not None:
        i = _find(t.revealed, req.item)
        if i < 0:
            if log.on:
                log.public("robbed", f"{t.id} no longer holds the {_name(req.item)}")
            return
        card = t.revealed.pop(i)
        a.revealed.append(card)
        if log.on:
            log.public("robbed", f"{a.id} takes the {_name(card)} from {t.id}")
        return
    held = [x for x in req.candidates if x in t.hidden or x in t.revealed]
    if not held:
        if log.on:
            log.public("robbed", f"{t.id} has nothing left to take")
        return
    card = state.rng.choice(held)
    if card in t.hidden:
        t.hidden.remove(card)
        a.hidden.append(card)
        if log.on:
            public = f"{a.id} takes a hidden item from {t.id}"
            log.secret("robbed", public, f"{a.id} takes {card} from {t.id}", a.id, t.id)
    else:  # revealed during the fight: it stays revealed (LB-25)
        t.revealed.remove(card)
        a.revealed.append(card)
        if log.on:
            log.public("robbed", f"{a.id} takes the {_name(card)} from {t.id}")


def _cmd_use(state: LifeboatState, log: _Log, me: Character, cmd: C.Use) -> None:
    """LB-23: open the umbrella over someone, or use the medkit (LB-31)."""
    _check_item(cmd.item)
    if cmd.item not in ("umbrella", "medkit"):
        raise IllegalCommand(
            f"the {_name(cmd.item)} has no special action; use the umbrella or the medkit,"
            " or 'fire flare'"
        )
    _require_turn(state, me, f"use the {cmd.item}")
    if not holds(me, cmd.item):
        raise IllegalCommand(f"you have no {cmd.item}")
    target = _char(state, cmd.target) if cmd.target is not None else me
    if target.dead:
        raise IllegalCommand(f"{target.id} is dead; the dead cannot be helped")
    if cmd.item == "umbrella":
        if target is me and _find(me.hidden, "umbrella") < 0:
            raise IllegalCommand("your umbrella is already open; 'use umbrella on X' passes it on")
        card, _ = _take(me, "umbrella")
        target.revealed.append(card)
        if log.on:
            log.public("umbrella", f"{me.id} opens the umbrella over {target.id}")
    else:
        if target.wounds == 0:
            raise IllegalCommand(f"{target.id} has no wounds to heal")
        card, _ = _take(me, "medkit")
        state.out.append(card)
        was = target.state
        target.wounds -= 1
        if log.on:
            log.public("medkit", f"{me.id} uses a first-aid kit on {target.id}: one wound healed")
        if was != target.state and log.on:
            log.public("state", f"{target.id} wakes up")
    _next_turn(state, log)


def _cmd_fire(state: LifeboatState, log: _Log, me: Character, cmd: C.FireFlare) -> None:
    """LB-33: three navigation cards, only their birds count; at 4 the game ends at once."""
    _require_turn(state, me, "fire the flare gun")
    if not holds(me, "flare"):
        raise IllegalCommand("you have no flare gun")
    card, _ = _take(me, "flare")
    state.out.append(card)
    cards = state.nav_deck[:3]
    del state.nav_deck[:3]
    state.nav_deck.extend(cards)
    if log.on:
        log.public("flare", f"{me.id} fires the flare gun: " + ", ".join(f"#{x}" for x in cards))
    for x in cards:
        if _add_birds(state, log, NAV[x].birds):
            return
    _next_turn(state, log)


def _add_birds(state: LifeboatState, log: _Log, n: int) -> bool:
    """LB-41: birds never go below 0; at 4 the game is over. Returns True if it ended."""
    if n == 0:
        return False
    state.birds = max(0, state.birds + n)
    if log.on:
        log.public(
            "birds", f"{'a seagull' if n > 0 else 'a crossed-out seagull'}: birds {state.birds}"
        )
    if state.birds >= 4:
        _end_game(state, log)
        return True
    return False


def _cmd_respond(state: LifeboatState, log: _Log, me: Character, cmd: C.Agree | C.Resist) -> None:
    req = state.request
    if state.step != "respond" or req is None or req.target != me.id:
        raise IllegalCommand(f"nobody is asking you for anything; {_waiting_for(state, me.id)}")
    if isinstance(cmd, C.Agree):
        if log.on:
            log.public("agree", f"{me.id} agrees")
        _succeed(state, log, req)
        _next_turn(state, log)
        return
    if log.on:
        log.public("fight", f"{me.id} resists: a fight between {req.attacker} and {me.id}!")
    chars = state.chars
    voters = [
        cid for cid in state.boat if not (c := chars[cid]).dead and c.wounds < c.strength
    ]  # the conscious
    state.fight = Fight(request=req, attackers=[req.attacker], defenders=[me.id], voters=voters)
    state.request = None
    state.step = "fight"


def _require_fight(state: LifeboatState, me: Character) -> Fight:
    f = state.fight
    if state.step != "fight" or f is None:
        raise IllegalCommand(f"there is no fight now; {_waiting_for(state, me.id)}")
    if me.dead or me.wounds >= me.strength:  # not me.conscious, inlined: a hot path
        raise IllegalCommand("you are unconscious and cannot fight (LB-26)")
    if me.id in f.done:
        raise IllegalCommand("you said 'done': your part in this fight is over")
    return f


def _cmd_join(state: LifeboatState, log: _Log, me: Character, cmd: C.Join) -> None:
    f = _require_fight(state, me)
    if me.id in f.attackers or me.id in f.defenders:
        raise IllegalCommand("you are already in this fight; 'reveal ITEM' or 'done'")
    (f.attackers if cmd.side == "attacker" else f.defenders).append(me.id)
    if log.on:
        log.public("join", f"{me.id} joins the {cmd.side}s")


def _cmd_reveal(state: LifeboatState, log: _Log, me: Character, cmd: C.Reveal) -> None:
    f = _require_fight(state, me)
    if me.id not in f.attackers and me.id not in f.defenders:
        raise IllegalCommand("only fighters reveal weapons; 'join attacker' or 'join defender'")
    _check_item(cmd.item)
    if cmd.item not in WEAPONS:
        raise IllegalCommand(
            f"the {_name(cmd.item)} is not a weapon; weapons: {', '.join(WEAPONS)}"
        )
    i = _find(me.hidden, cmd.item)
    if i < 0:
        raise IllegalCommand(f"you have no hidden {cmd.item}")
    me.revealed.append(me.hidden.pop(i))
    if log.on:
        log.public("reveal", f"{me.id} reveals the {_name(cmd.item)} (+{WEAPONS[cmd.item]})")


def _cmd_done(state: LifeboatState, log: _Log, me: Character, cmd: C.Done) -> None:
    f = _require_fight(state, me)
    f.done.append(me.id)
    if len(f.done) == len(f.voters):
        _resolve_fight(state, log, f)


def power(state: LifeboatState, side: list[str]) -> int:
    """A side's fight power: strength plus revealed weapons (LB-25, LB-3)."""
    total = 0
    chars = state.chars
    for cid in side:
        c = chars[cid]
        total += c.strength
        for i in c.revealed:
            if i in WEAPONS:
                total += WEAPONS[i]
    return total


def _resolve_fight(state: LifeboatState, log: _Log, f: Fight) -> None:
    """LB-25: higher power wins, ties to the defenders, every loser takes a wound."""
    a, d = power(state, f.attackers), power(state, f.defenders)
    attackers_win = a > d
    winner = "attackers" if attackers_win else "defenders"
    if log.on:
        log.public("fight", f"the fight ends: attackers {a}, defenders {d}; the {winner} win")
    for cid in f.attackers + f.defenders:
        c = state.chars[cid]
        c.fought = True
        while "flare" in c.revealed:  # LB-27
            c.revealed.remove("flare")
            state.out.append("flare")
            if log.on:
                log.public("flare", f"{cid}'s flare gun is spent")
    for cid in f.defenders if attackers_win else f.attackers:
        _wound(state, log, state.chars[cid], 1, "lost the fight")
    if attackers_win:
        _succeed(state, log, f.request)
    _next_turn(state, log)  # LB-25: either way the attacker's turn ends


# --- free actions (LB-13, LB-32)


def _trading_allowed(state: LifeboatState) -> str | None:
    """Why items cannot change hands now, or None if they can (LB-13, LB-28)."""
    if state.phase == "supply":
        return "no trading in the supply phase"
    if state.fight is not None:
        return "no items change hands during a fight"
    return None


def _in_water(state: LifeboatState, *chars: Character) -> None:
    """Nobody hands things to or from someone in the water (LB-42: only a thrown preserver)."""
    for c in chars:
        if c.id in state.overboard:
            raise IllegalCommand(f"{c.id} is in the water; only a preserver can be thrown to them")


def _drop_allowed(state: LifeboatState) -> str | None:
    if _robbery_under_way(state):
        return "nothing may be thrown overboard while a robbery is under way"
    return None


def _require_awake(me: Character, what: str) -> None:
    if not me.conscious:
        raise IllegalCommand(f"you are unconscious and cannot {what}")


def _cmd_offer(state: LifeboatState, log: _Log, me: Character, cmd: C.Offer) -> None:
    _require_awake(me, "trade")
    why = _trading_allowed(state)
    if why:
        raise IllegalCommand(why)
    target = _char(state, cmd.target)
    _check_item(cmd.item)
    if cmd.ask is not None:
        _check_item(cmd.ask)
    if target.id == me.id:
        raise IllegalCommand("you cannot trade with yourself")
    if not target.conscious:
        raise IllegalCommand(f"{target.id} cannot accept: {target.state}")
    if not holds(me, cmd.item):
        raise IllegalCommand(f"you have no {cmd.item} to offer")
    _in_water(state, me, target)
    state.trades = [t for t in state.trades if (t.source, t.target) != (me.id, target.id)]
    state.trades.append(TradeOffer(me.id, target.id, cmd.item, cmd.ask))
    if log.on:
        ask = f" for {cmd.ask}" if cmd.ask else ""
        log.private("offer", f"{me.id} offers {cmd.item} to {target.id}{ask}", me.id, target.id)


def _find_trade(state: LifeboatState, me: Character, source: str | None) -> TradeOffer:
    mine = [t for t in state.trades if t.target == me.id]
    if source is not None:
        mine = [t for t in mine if t.source == source]
    if not mine:
        raise IllegalCommand("no offer is waiting for you" + (f" from {source}" if source else ""))
    if len(mine) > 1:
        who = ", ".join(t.source for t in mine)
        raise IllegalCommand(f"several offers wait for you (from {who}); say whose: 'accept NAME'")
    return mine[0]


def _cmd_accept(state: LifeboatState, log: _Log, me: Character, cmd: C.Accept) -> None:
    _require_awake(me, "trade")
    t = _find_trade(state, me, cmd.source)
    why = _trading_allowed(state)
    if why:
        raise IllegalCommand(why)
    src = state.chars[t.source]
    _in_water(state, me, src)
    if not src.conscious or not holds(src, t.item):
        raise IllegalCommand(f"{src.id} can no longer give you {t.item}; 'decline' it")
    if t.ask is not None and not holds(me, t.ask):
        raise IllegalCommand(f"you have no {t.ask} to give {src.id}; 'decline' the offer")
    state.trades.remove(t)
    got = _move(state, log, src, me, t.item)
    gave = _move(state, log, me, src, t.ask) if t.ask else None
    if log.on:
        detail = f"{src.id} gives {got} to {me.id}" + (f" for {gave}" if gave else "")
        log.private("trade", detail, src.id, me.id)


def _move(state: LifeboatState, log: _Log, a: Character, b: Character, ref: str) -> str:
    """Hand one item from ``a`` to ``b``; it stays hidden or revealed as it was."""
    card, was_revealed = _take(a, ref)
    (b.revealed if was_revealed else b.hidden).append(card)
    if log.on:
        shown = f"the {_name(card)}" if was_revealed else "a hidden item"
        log.public("trade", f"{a.id} hands {shown} to {b.id}")
    return card


def _cmd_decline(state: LifeboatState, log: _Log, me: Character, cmd: C.Decline) -> None:
    _require_awake(me, "trade")
    t = _find_trade(state, me, cmd.source)
    state.trades.remove(t)
    if log.on:
        log.private("decline", f"{me.id} declines {t.source}'s offer", me.id, t.source)


def _cmd_give(state: LifeboatState, log: _Log, me: Character, cmd: C.Give) -> None:
    """A preserver put on someone in advance (LB-32); water for an unconscious thirsty one."""
    _require_awake(me, "give anything")
    target = _char(state, cmd.target)
    _check_item(cmd.item)
    if target.id == me.id:
        raise IllegalCommand("you cannot give to yourself")
    if not holds(me, cmd.item):
        raise IllegalCommand(f"you have no {cmd.item}")
    if cmd.item == "preserver":
        why = _trading_allowed(state)
        if why:
            raise IllegalCommand(why)
        if target.dead:
            raise IllegalCommand(f"{target.id} is dead")
        _in_water(state, me, target)
        card, _ = _take(me, "preserver")
        target.revealed.append(card)
        if log.on:
            log.public("give", f"{me.id} puts the life preserver on {target.id}")
        return
    if cmd.item == "water":
        if state.step != "thirst" or target.id not in _aid_targets(state):
            raise IllegalCommand(
                "water is given this way only in the thirst step, to an unconscious thirsty"
                " character; to trade it, 'offer water to X'"
            )
        _take(me, "water", prefer_revealed=True)
        state.out.append("water")
        state.thirst[target.id] -= 1
        if log.on:
            log.public("drink", f"{me.id} gives water to {target.id}, who drinks")
        return
    raise IllegalCommand(
        f"only the preserver or water can be given; to hand over {cmd.item}, 'offer' it"
    )


def _cmd_drop(state: LifeboatState, log: _Log, me: Character, cmd: C.Drop) -> None:
    """LB-13: throw items overboard at any moment, except during a robbery attempt."""
    _require_awake(me, "throw anything")
    why = _drop_allowed(state)
    if why:
        raise IllegalCommand(why)
    _check_item(cmd.item)
    if not holds(me, cmd.item):
        raise IllegalCommand(f"you have no {cmd.item}")
    fight = state.fight is not None
    if fight and _find(me.hidden, cmd.item) < 0:
        raise IllegalCommand("revealed items stay with their owners until the fight is over")
    card, was_revealed = _take(me, cmd.item, prefer_revealed=not fight)
    state.out.append(card)
    if was_revealed:
        if log.on:
            log.public("drop", f"{me.id} throws the {_name(card)} overboard")
    else:
        if log.on:
            public = f"{me.id} throws a hidden item overboard"
            log.secret("drop", public, f"{me.id} throws {card} overboard", me.id)


def _cmd_say(state: LifeboatState, log: _Log, me: Character, cmd: C.Say) -> None:
    _require_awake(me, "speak")
    text = " ".join(cmd.text.split())
    if not text:
        raise IllegalCommand("say what? 'say TEXT'")
    if len(text) > 500:
        raise IllegalCommand("that is too long to say: at most 500 characters")
    if log.on:
        log.public("say", f"{me.id}: {text}")


# --- navigation (LB-40..LB-51)


def _start_navigation(state: LifeboatState, log: _Log) -> None:
    state.phase = "navigation"
    nav = navigator(state)
    if nav is None:
        if log.on:
            log.public("navigate", "nobody is conscious to navigate: the top card is used")
        _resolve_card(state, log, None)
        return
    if log.on:
        log.public("navigate", f"{nav} navigates")
    if holds(state.chars[nav], "compass") and state.nav_deck:
        top = state.nav_deck.pop(0)
        state.nav_table.append(top)
        if log.on:
            log.public("compass", f"{nav} uses the compass: #{top} joins the navigation table")
    if len(state.nav_table) >= 2:
        state.step = "choose"
    elif state.nav_table:
        _resolve_card(state, log, state.nav_table[0])
    else:
        _resolve_card(state, log, None)


def _cmd_choose(state: LifeboatState, log: _Log, me: Character, cmd: C.Choose) -> None:
    if state.step != "choose" or navigator(state) != me.id:
        raise IllegalCommand(f"only the navigator chooses a card; {_waiting_for(state, me.id)}")
    if cmd.card not in state.nav_table:
        table = " ".join(str(x) for x in state.nav_table)
        raise IllegalCommand(f"#{cmd.card} is not on the navigation table; choose one of {table}")
    _resolve_card(state, log, cmd.card)


def _resolve_card(state: LifeboatState, log: _Log, card: int | None) -> None:
    """Birds, then overboard, then thirst (LB-40). Used cards go under the deck."""
    if card is None:
        card = state.nav_deck.pop(0)
    else:
        state.nav_table.remove(card)
    state.nav_deck.extend(state.nav_table)
    state.nav_deck.append(card)
    state.nav_table = []
    state.card = card
    if log.on:
        log.public("card", f"navigation card {describe_nav(card, state.boat)}")
    nc = NAV[card]
    if _add_birds(state, log, nc.birds):
        return
    state.overboard = named(nc.overboard, state.boat)
    if not state.overboard:
        _start_thirst(state, log)
        return
    if log.on:
        log.public("overboard", "overboard: " + ", ".join(state.overboard))
    state.responders = [
        cid for cid in state.boat if cid not in state.overboard and _can_respond(state, cid)
    ]
    state.baits = 0
    if state.responders:
        state.step = "overboard"
    else:
        _resolve_overboard(state, log)


def _overboard_turn(state: LifeboatState, me: Character) -> None:
    if state.step != "overboard" or me.id not in state.responders:
        raise IllegalCommand(
            f"you have nothing to do for those overboard; {_waiting_for(state, me.id)}"
        )


def _can_respond(state: LifeboatState, cid: str) -> bool:
    """LB-42: a conscious character in the boat with bait, or a preserver and someone to save."""
    chars = state.chars
    c = chars[cid]
    if c.dead or c.wounds >= c.strength:
        return False
    hidden, revealed = c.hidden, c.revealed  # holds(), inlined: a hot path
    if "bait" in hidden or "bait" in revealed:
        return True
    return ("preserver" in hidden or "preserver" in revealed) and any(
        not chars[t].dead and chars[t].wounds < chars[t].strength for t in state.overboard
    )


def _after_response(state: LifeboatState, log: _Log) -> None:
    """A responder's part ends by itself once it holds nothing more to throw or play."""
    state.responders = [cid for cid in state.responders if _can_respond(state, cid)]
    if not state.responders:
        _resolve_overboard(state, log)


def _cmd_throw(state: LifeboatState, log: _Log, me: Character, cmd: C.ThrowPreserver) -> None:
    """LB-42, LB-32: a preserver thrown to a conscious character in the water, who keeps it."""
    _overboard_turn(state, me)
    target = _char(state, cmd.target)
    if not holds(me, "preserver"):
        raise IllegalCommand("you have no life preserver")
    if target.id not in state.overboard:
        raise IllegalCommand(f"{target.id} is not in the water")
    if not target.conscious:
        raise IllegalCommand(f"{target.id} is {target.state}: a preserver cannot be thrown to them")
    card, _ = _take(me, "preserver")
    target.revealed.append(card)
    if log.on:
        log.public("throw", f"{me.id} throws the life preserver to {target.id}")
    _after_response(state, log)


def _cmd_bait(state: LifeboatState, log: _Log, me: Character, cmd: C.PlayBait) -> None:
    """LB-44: every bait played gives everyone overboard a wound."""
    _overboard_turn(state, me)
    if not holds(me, "bait"):
        raise IllegalCommand("you have no shark bait")
    card, _ = _take(me, "bait")
    state.out.append(card)
    state.baits += 1
    if log.on:
        log.public("bait", f"{me.id} throws shark bait into the water")
    _after_response(state, log)


def _cmd_pass(state: LifeboatState, log: _Log, me: Character, cmd: C.Pass) -> None:
    if state.step == "thirst":
        _pass_aid(state, log, me)
        return
    _overboard_turn(state, me)
    state.responders.remove(me.id)
    if not state.responders:
        _resolve_overboard(state, log)


def _resolve_overboard(state: LifeboatState, log: _Log) -> None:
    """LB-42..LB-45: lost revealed items, the fall, the sharks, drowning."""
    chars = state.chars
    baits = state.baits
    for cid in state.overboard:
        baits += chars[cid].revealed.count("bait")
    for cid in state.overboard:
        c = chars[cid]
        if c.dead:  # LB-45: the dead lose everything
            lost = c.hidden + c.revealed
            c.hidden, c.revealed = [], []
            state.out.extend(lost)
            if lost and log.on:
                log.public("lost", f"{cid}'s body sinks with {len(lost)} items")
            continue
        lost = [i for i in c.revealed if i != "preserver"] if c.revealed else []
        if lost:
            c.revealed = [i for i in c.revealed if i == "preserver"]
            state.out.extend(lost)
            if log.on:
                log.public("lost", f"{cid} loses " + ", ".join(_name(i) for i in lost))
        preserver = holds(c, "preserver")
        fall = 0 if cid == "frenchy" or preserver else 1  # LB-42, LB-43
        _wound(state, log, c, fall + min(baits, 2), "overboard")  # LB-44: at most 3
        if not c.dead and not c.conscious and not preserver:
            _kill(state, log, c, "drowned")  # LB-45
        if c.dead:  # LB-45: a body in the water sinks with everything it held
            lost = c.hidden + c.revealed
            c.hidden, c.revealed = [], []
            state.out.extend(lost)
            if lost and log.on:
                log.public("lost", f"{cid}'s body sinks with {len(lost)} items")
    state.overboard = []
    state.responders = []
    state.baits = 0
    _start_thirst(state, log)


def _start_thirst(state: LifeboatState, log: _Log) -> None:
    """LB-50: one thirst per true cause: the oar, the fight sign, the name."""
    nc = NAV[state.card]
    named_ = _THIRSTY[state.card]
    oar, fight = nc.oar, nc.fight
    thirst: dict[str, int] = {}
    state.thirst = thirst
    state.passed = []
    chars = state.chars
    for cid in state.boat:
        c = chars[cid]
        if c.dead:
            continue
        n = (c.rowed and oar) + (c.fought and fight) + (cid in named_)
        if n:
            thirst[cid] = n
    if thirst and log.on:
        log.public("thirst", "thirsty: " + ", ".join(f"{k} x{v}" for k, v in state.thirst.items()))
    state.step = "thirst"
    _settle_thirst(state, log)


def _aid_targets(state: LifeboatState) -> list[str]:
    chars = state.chars
    return [
        cid
        for cid, n in state.thirst.items()
        if n > 0 and not chars[cid].dead and chars[cid].wounds >= chars[cid].strength
    ]


def _thirst_wound(state: LifeboatState, log: _Log, c: Character) -> None:
    """One thirst wound, unless the holder's open umbrella cancels it (once a round)."""
    if "umbrella" in c.revealed and state.umbrella_round != state.round:
        state.umbrella_round = state.round
        if log.on:
            log.public("umbrella", f"{c.id}'s umbrella spares one thirst wound")
        return
    _wound(state, log, c, 1, "thirst")


def _settle_thirst(state: LifeboatState, log: _Log) -> None:
    """Conscious characters without water take their wounds now; those with water are asked.
    When nobody is left to ask, the unconscious take theirs and the round ends."""
    thirst, chars = state.thirst, state.chars
    left = False  # any thirst still to settle
    for cid in thirst:  # (wounds never change thirst's keys)
        c = chars[cid]
        while (
            thirst[cid] > 0
            and not c.dead
            and c.wounds < c.strength  # conscious
            and "water" not in c.hidden
            and "water" not in c.revealed
        ):
            thirst[cid] -= 1
            _thirst_wound(state, log, c)
        left = left or thirst[cid] > 0
    if left:
        if _thirst_prompted(state):
            return
        for cid, n in thirst.items():
            for _ in range(n):
                _thirst_wound(state, log, chars[cid])
    state.thirst = {}
    state.passed = []
    _end_round(state, log)


def _pass_aid(state: LifeboatState, log: _Log, me: Character) -> None:
    """LB-50: a water holder asked to give water to an unconscious one declines."""
    if not _asked_to_aid(state, me):
        raise IllegalCommand(f"you have nothing to pass on now; {_waiting_for(state, me.id)}")
    state.passed.append(me.id)
    _settle_thirst(state, log)


def _cmd_thirst(state: LifeboatState, log: _Log, me: Character, cmd: C.Drink | C.Wound) -> None:
    if state.step != "thirst" or not _asked_to_drink(state, me):
        raise IllegalCommand(f"you are not thirsty now; {_waiting_for(state, me.id)}")
    state.thirst[me.id] -= 1
    if isinstance(cmd, C.Drink):
        _take(me, "water", prefer_revealed=True)
        state.out.append("water")
        if log.on:
            log.public("drink", f"{me.id} drinks water")
    else:
        _thirst_wound(state, log, me)
    _settle_thirst(state, log)


def _end_round(state: LifeboatState, log: _Log) -> None:
    """LB-51: clear the marks; the next round's order follows the current seats."""
    for c in state.chars.values():
        c.rowed = c.fought = False
    state.round += 1
    start_round(state, log)


def _end_game(state: LifeboatState, log: _Log) -> None:
    """LB-41, LB-60: land! Everything is revealed and scored."""
    state.phase = "over"
    state.step = "end"
    state.trades = []
    state.request = None
    state.fight = None
    state.scores = score_all(state)
    if log.on:
        log.public("land", "the boat reaches land: the game is over")
    for cid in state.boat:
        c = state.chars[cid]
        items = ", ".join(c.hidden + c.revealed) or "nothing"
        if log.on:
            log.public(
                "score",
                f"{cid} ({c.state}): friend {c.friend}, enemy {c.enemy}, holds {items};"
                f" scores {state.scores[cid]}",
            )


_FREE: frozenset[type] = frozenset({C.Offer, C.Accept, C.Decline, C.Give, C.Drop, C.Say})
_RECHECK_STEPS = frozenset({"overboard", "thirst"})

_HANDLERS: dict[type, Callable[[LifeboatState, _Log, Character, Any], None]] = {
    C.Take: _cmd_take,
    C.Row: _cmd_row,
    C.Keep: _cmd_keep,
    C.Rest: _cmd_rest,
    C.Swap: _cmd_swap,
    C.Rob: _cmd_rob,
    C.Use: _cmd_use,
    C.FireFlare: _cmd_fire,
    C.Agree: _cmd_respond,
    C.Resist: _cmd_respond,
    C.Join: _cmd_join,
    C.Reveal: _cmd_reveal,
    C.Done: _cmd_done,
    C.Offer: _cmd_offer,
    C.Accept: _cmd_accept,
    C.Decline: _cmd_decline,
    C.Give: _cmd_give,
    C.Drop: _cmd_drop,
    C.Say: _cmd_say,
    C.Choose: _cmd_choose,
    C.ThrowPreserver: _cmd_throw,
    C.PlayBait: _cmd_bait,
    C.Pass: _cmd_pass,
    C.Drink: _cmd_thirst,
    C.Wound: _cmd_thirst,
}
