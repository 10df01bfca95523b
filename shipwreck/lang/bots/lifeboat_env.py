"""What a Lifeboat bot can read: names, attributes and functions, all made from its own view.

Everything here reads a :class:`~shipwreck.games.lifeboat.view.LifeboatView` and nothing else,
so a script cannot see what its seat may not (rules §5). docs/bots.md lists every entry; the
tables below are the single source the evaluator, the linter and the docs test agree on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from shipwreck.games.lifeboat.cards import (
    CHAR,
    CHAR_IDS,
    ITEM_KINDS,
    JEWEL_SET_VALUE,
    NAV,
    SUPPLY_COUNTS,
    WEAPONS,
    kind,
    named,
)
from shipwreck.games.lifeboat.view import (
    CharacterView,
    FightView,
    LifeboatView,
    RequestView,
    TradeView,
)
from shipwreck.lang.bots.kinds import KindTable
from shipwreck.lang.bots.script import BotRuntimeError, Context

GAME = "lifeboat"
VIEW = LifeboatView

DECISIONS: dict[str, str] = {
    "supply": "pick one card of the supply offer: `take ITEM`",
    "turn": "your action: row, swap, rob, use, fire flare, rest",
    "keep": "after rowing: `keep N…`, `keep none` or `keep where GUARD`",
    "respond": "someone wants your seat or an item: agree or resist",
    "fight": "a fight is open: join attacker/defender, reveal WEAPON, done",
    "navigate": "you navigate: `choose N` from the table",
    "overboard": "someone is in the water: throw preserver to X, play bait, pass",
    "thirst": "you or someone unconscious is thirsty: drink, wound, give water, pass",
    "offer": "someone offers you a trade: accept or decline",
}

ANSWERS: dict[str, frozenset[str]] = {
    "supply": frozenset({"take"}),
    "turn": frozenset({"row", "swap", "rob", "use", "fire", "rest"}),
    "keep": frozenset({"keep", "keep_where"}),
    "respond": frozenset({"agree", "resist"}),
    "fight": frozenset({"join", "reveal", "done"}),
    "navigate": frozenset({"choose"}),
    "overboard": frozenset({"throw", "bait", "pass"}),
    "thirst": frozenset({"drink", "wound", "give", "pass"}),
    "offer": frozenset({"accept", "decline"}),
}
"""The commands (grammar rules) that answer each decision: anything else a rule plays there is
refused at play time, so ``bot check`` says so first (checked against the engine's own choices
in the tests)."""

SIDE_ACTIONS = frozenset({"offer", "accept", "decline", "give", "drop", "say"})
"""Free actions: taken beside a decision, never as its answer (``give`` answers thirst)."""

LITERALS: dict[str, range] = {"CARD": range(19, 43)}
"""The values a literal may have, by its grammar terminal: navigation cards are 19-42 (LB-6)."""


class Card:
    """A navigation card as a script sees it (LB-6), relative to the deciding seat."""

    __slots__ = ("number", "view")

    def __init__(self, number: int, view: LifeboatView) -> None:
        self.number = number
        self.view = view

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.number == other.number
        return isinstance(other, int) and other == self.number

    def __hash__(self) -> int:
        return self.number

    def __repr__(self) -> str:
        return f"#{self.number}"


def _chars(view: LifeboatView, ids: list[str]) -> list[CharacterView]:
    by_id = {c.id: c for c in view.characters}
    return [by_id[i] for i in ids if i in by_id]


def _card_people(card: Card, spec: tuple[str, ...]) -> list[CharacterView]:
    return _chars(card.view, named(spec, [c.id for c in card.view.characters]))


def _card_thirst(card: Card) -> int:
    """How many times this card would make me thirsty (LB-50)."""
    v = card.view
    me = _me(v)
    if me is None:
        return 0
    nc = NAV[card.number]
    names = named(nc.thirsty, [c.id for c in v.characters])
    return int(me.rowed and nc.oar) + int(me.fought and nc.fight) + int(me.id in names)


def _me(v: LifeboatView) -> CharacterView | None:
    for c in v.characters:
        if c.id == v.me:
            return c
    return None


def _power(c: CharacterView) -> int:
    return c.strength + sum(WEAPONS.get(i, 0) for i in c.revealed)


def _items(c: CharacterView) -> list[str]:
    return list(c.hidden or ()) + list(c.revealed)


CHARACTER_ATTRS: dict[str, Callable[[CharacterView], object]] = {
    "id": lambda c: c.id,
    "strength": lambda c: c.strength,
    "bonus": lambda c: c.bonus,
    "wounds": lambda c: c.wounds,
    "seat": lambda c: c.seat,
    "state": lambda c: c.state,
    "ok": lambda c: c.state == "ok",
    "conscious": lambda c: c.state == "ok",
    "unconscious": lambda c: c.state == "unconscious",
    "dead": lambda c: c.state == "dead",
    "alive": lambda c: c.state != "dead",
    "revealed": lambda c: list(c.revealed),
    "hidden": lambda c: c.hidden_count,
    "items": _items,
    "rowed": lambda c: c.rowed,
    "fought": lambda c: c.fought,
    "power": _power,
    "left": lambda c: c.strength - c.wounds,
}
CARD_ATTRS: dict[str, Callable[[Card], object]] = {
    "number": lambda k: k.number,
    "birds": lambda k: NAV[k.number].birds,
    "overboard": lambda k: _card_people(k, NAV[k.number].overboard),
    "thirsty": lambda k: _card_people(k, NAV[k.number].thirsty),
    "fight": lambda k: NAV[k.number].fight,
    "oar": lambda k: NAV[k.number].oar,
    "thirst": _card_thirst,
}
FIGHT_ATTRS: dict[str, Callable[[FightView], object]] = {
    "attackers": lambda f: f.attackers,
    "defenders": lambda f: f.defenders,
    "attack": lambda f: f.attack_power,
    "defense": lambda f: f.defense_power,
    "kind": lambda f: f.request.kind,
    "item": lambda f: f.request.item,
    "attacker": lambda f: f.request.attacker,
    "defender": lambda f: f.request.target,
    "done": lambda f: f.done,
}
REQUEST_ATTRS: dict[str, Callable[[RequestView], object]] = {
    "kind": lambda r: r.kind,
    "attacker": lambda r: r.attacker,
    "target": lambda r: r.target,
    "item": lambda r: r.item,
}
TRADE_ATTRS: dict[str, Callable[[TradeView], object]] = {
    "source": lambda t: t.source,
    "target": lambda t: t.target,
    "item": lambda t: t.item,
    "ask": lambda t: t.ask,
}
ATTRS: dict[type, dict[str, Callable[[Any], Any]]] = {
    CharacterView: CHARACTER_ATTRS,
    Card: CARD_ATTRS,
    FightView: FIGHT_ATTRS,
    RequestView: REQUEST_ATTRS,
    TradeView: TRADE_ATTRS,
}
ALL_ATTRS = frozenset(a for table in ATTRS.values() for a in table)
CHARACTER_FIELDS = frozenset({"attackers", "defenders", "attacker", "defender", "target", "source"})
"""Attributes that name characters by id; the evaluator turns them into characters."""


def value_of(item: str, me: str | None, held: list[str]) -> int:
    """What one more ``item`` is worth to me at the end (LB-4, LB-61), given what I hold."""
    k = kind(item)
    double = 2 if me is not None and CHAR[me].doubles == k else 1
    if k == "cash":
        return double
    if k == "painting":
        return (int(item.split(":")[1]) if ":" in item else 2) * double
    if k == "jewels":
        n = min(3, sum(1 for i in held if i == "jewels"))
        return (JEWEL_SET_VALUE[min(3, n + 1)] - JEWEL_SET_VALUE[n]) * double
    return 0


def _holds(items: list[str], ref: str) -> int:
    return sum(1 for i in items if i == ref or (":" not in ref and kind(i) == ref))


def _fn_chance(ctx: Context, p: object) -> bool:
    if not isinstance(p, int) or isinstance(p, bool):
        raise BotRuntimeError("chance() needs a percentage, e.g. chance(30%)")
    return bool(ctx.rng.random() * 100 < p)


MY_ITEMS = "#items"
"""Where the functions find my items: a key no script name can shadow (``#`` is not a name)."""


def _view(ctx: Context) -> LifeboatView:
    """The decision's view (a Lifeboat script decides only on Lifeboat views: the runner checks
    ``VIEW`` first)."""
    return cast(LifeboatView, ctx.view)


def _my_items(ctx: Context) -> list[str]:
    return cast("list[str]", ctx.names[MY_ITEMS])  # (as names_for made them)


FUNCTIONS: dict[str, Callable[..., object]] = {
    "has": lambda ctx, item: _holds(_my_items(ctx), str(item)) > 0,
    "held": lambda ctx, item: _holds(_my_items(ctx), str(item)),
    "chance": _fn_chance,
    "value": lambda ctx, item: value_of(str(item), _view(ctx).me, _my_items(ctx)),
    "bonus": lambda ctx, item: WEAPONS.get(str(item), 0),
    "weapon": lambda ctx, item: str(item) in WEAPONS,
    "len": lambda ctx, xs: len(xs),
    "min": lambda ctx, *xs: min(xs),
    "max": lambda ctx, *xs: max(xs),
    "abs": lambda ctx, x: abs(x),
    "power": lambda ctx, xs: sum(_power(c) for c in xs),
    "side": lambda ctx, c: _side(_view(ctx).fight, c),
}
FUNCTION_HELP: dict[str, str] = {
    "has": "has(ITEM): do I hold one (hidden or revealed)?",
    "held": "held(ITEM): how many I hold",
    "chance": "chance(30%): true 30% of the time (the bot's own seeded dice)",
    "value": "value(ITEM): what one more of it is worth to me at the end",
    "bonus": "bonus(ITEM): its weapon bonus (0 if not a weapon)",
    "weapon": "weapon(ITEM): is it a weapon?",
    "len": "len(LIST): how many",
    "min": "min(A, B, …)",
    "max": "max(A, B, …)",
    "abs": "abs(N)",
    "power": "power(LIST): fight power of those characters",
    "side": "side(C): 'attacker', 'defender' or none in the open fight",
}


def _side(fight: FightView | None, c: object) -> str | None:
    if fight is None or not isinstance(c, CharacterView):
        return None
    if c.id in fight.attackers:
        return "attacker"
    if c.id in fight.defenders:
        return "defender"
    return None


NAME_HELP: dict[str, str] = {
    "me": "my character",
    "friend": "my friend's character (none if not in the boat)",
    "enemy": "my enemy's character",
    "characters": "everyone in the boat, bow to stern",
    "others": "everyone but me",
    "birds": "the seagull track (0-4)",
    "round": "the round number",
    "phase": "'supply', 'actions' or 'navigation'",
    "decision": "the kind of decision being taken ('turn', 'fight', …)",
    "table": "the navigation cards on the table",
    "drawn": "the cards I drew when rowing (in `keep`)",
    "offer": "the supply cards passed to me (in `supply`)",
    "items": "my items, hidden and revealed",
    "hidden": "my hidden items",
    "revealed": "my revealed items",
    "fight": "the open fight, or none",
    "request": "the swap or robbery waiting for an answer, or none",
    "asker": "who wants something of me (swap, rob, fight attacker), or none",
    "trade": "the trade offered to me (in `offer`), or none",
    "overboard": "who is in the water (in `overboard`)",
    "navigator": "who navigates this round",
    "thirst": "how many thirsts I still have to settle",
    "true": "true",
    "false": "false",
    "none": "nothing",
}
NAMES = (
    frozenset(NAME_HELP) | frozenset(CHAR_IDS) | frozenset(ITEM_KINDS) | frozenset(SUPPLY_COUNTS)
)


def names_for(view: LifeboatView, decision: str) -> dict[str, object]:
    """The names a guard can read, for one decision of one seat."""
    chars = {c.id: c for c in view.characters}
    me = chars.get(view.me or "")
    items = _items(me) if me is not None else []
    fight, request = view.fight, view.request
    asker_id = request.attacker if request else (fight.request.attacker if fight else None)
    trade = next((t for t in view.trades if t.target == view.me), None)
    names: dict[str, object] = {i: i for i in ITEM_KINDS}
    names.update({i: i for i in SUPPLY_COUNTS})
    names.update({cid: chars.get(cid) for cid in CHAR_IDS})
    names[MY_ITEMS] = items
    names.update(
        me=me,
        friend=chars.get(me.friend or "") if me else None,
        enemy=chars.get(me.enemy or "") if me else None,
        characters=list(view.characters),
        others=[c for c in view.characters if c.id != view.me],
        birds=view.birds,
        round=view.round,
        phase=view.phase,
        decision=decision,
        table=[Card(n, view) for n in view.navigation_table],
        drawn=[Card(n, view) for n in view.drawn],
        offer=list(view.supply_offer),
        items=items,
        hidden=list(me.hidden or ()) if me else [],
        revealed=list(me.revealed) if me else [],
        fight=fight,
        request=request,
        asker=chars.get(asker_id or ""),
        trade=trade,
        overboard=[chars[c] for c in view.overboard if c in chars],
        navigator=chars.get(view.navigator or ""),
        thirst=view.thirst.get(view.me or "", 0),
        true=True,
        false=False,
        none=None,
    )
    return names


def as_character(value: object, ctx: Context) -> object:
    """Ids in fight/request/trade fields read as characters, so ``asker == friend`` works."""
    if isinstance(value, str) and value in CHAR:
        return ctx.names.get(value)
    if isinstance(value, tuple | list) and value and isinstance(value[0], str):
        return [ctx.names.get(v) for v in value if v in CHAR]
    return value


def word_for(value: object) -> str:
    """The word a value stands for inside a command (a character's id, a card's number)."""
    if isinstance(value, CharacterView):
        return value.id
    if isinstance(value, Card):
        return str(value.number)
    if isinstance(value, bool) or value is None:
        raise BotRuntimeError("this names nothing here" if value is None else "not a name")
    return str(value)


_ITEM_IDS = tuple(SUPPLY_COUNTS)
KINDS = KindTable(
    names={
        **dict.fromkeys(("me", "friend", "enemy", "asker", "navigator", *CHAR_IDS), "character"),
        **dict.fromkeys(("characters", "others", "overboard"), "list:character"),
        **dict.fromkeys(("birds", "round", "thirst"), "number"),
        **dict.fromkeys(("table", "drawn"), "list:card"),
        **dict.fromkeys(("offer", "items", "hidden", "revealed"), "list:item"),
        "phase": "phase",
        "decision": "decision",
        "fight": "fight",
        "request": "request",
        "trade": "trade",
        "true": "bool",
        "false": "bool",
        "none": "none",
    },
    attrs={
        "character": {
            **dict.fromkeys(
                ("strength", "bonus", "wounds", "seat", "hidden", "power", "left"), "number"
            ),
            **dict.fromkeys(
                ("ok", "conscious", "unconscious", "dead", "alive", "rowed", "fought"), "bool"
            ),
            "id": "charid",
            "state": "state",
            "revealed": "list:item",
            "items": "list:item",
        },
        "card": {
            **dict.fromkeys(("number", "birds", "thirst"), "number"),
            **dict.fromkeys(("overboard", "thirsty"), "list:character"),
            **dict.fromkeys(("fight", "oar"), "bool"),
        },
        "fight": {
            **dict.fromkeys(("attackers", "defenders"), "list:character"),
            **dict.fromkeys(("attack", "defense"), "number"),
            **dict.fromkeys(("attacker", "defender"), "character"),
            "kind": "reqkind",
            "item": "item",
            "done": "list:charid",
        },
        "request": {
            "kind": "reqkind",
            "attacker": "character",
            "target": "character",
            "item": "item",
        },
        "trade": {"source": "character", "target": "character", "item": "item", "ask": "item"},
    },
    functions={
        "has": (("itemref",), "bool"),
        "held": (("itemref",), "number"),
        "chance": (("number",), "bool"),
        "value": (("itemref",), "number"),
        "bonus": (("itemref",), "number"),
        "weapon": (("itemref",), "bool"),
        "len": (("list:any|text",), "number"),
        "min": (("*number",), "number"),
        "max": (("*number",), "number"),
        "abs": (("number",), "number"),
        "power": (("list:character",), "number"),
        "side": (("character",), "side"),
    },
    commands={
        **dict.fromkeys(("swap", "throw", "accept", "decline"), ("character|charid",)),
        **dict.fromkeys(("reveal", "take", "drop"), ("itemref",)),
        "rob": ("character|charid", "itemref"),
        "use": ("itemref", "character|charid"),
        "give": ("itemref", "character|charid"),
        "offer": ("itemref", "character|charid", "itemref"),
        "join": ("side",),
        "choose": ("card|number",),
        "keep": ("*card|number",),
    },
    words={
        "character": "a character",
        "card": "a navigation card",
        "item": "an item",
        "itemref": "an item",
        "fight": "a fight",
        "request": "a request",
        "trade": "a trade",
        "charid": "a character id",
        "side": "a side",
        "state": "a state",
        "phase": "a phase",
        "decision": "a decision",
        "reqkind": "a request kind",
    },
    values={
        "item": _ITEM_IDS,
        "itemref": _ITEM_IDS + tuple(k for k in ITEM_KINDS if k not in SUPPLY_COUNTS),
        "charid": tuple(CHAR_IDS),
        "side": ("attacker", "defender"),
        "state": ("ok", "unconscious", "dead"),
        "phase": ("supply", "actions", "navigation", "over"),
        "decision": tuple(DECISIONS),
        "reqkind": ("swap", "rob"),
    },
    literal_names=frozenset(ITEM_KINDS) | frozenset(SUPPLY_COUNTS),
    literal_kind="itemref",
    equal=frozenset({("card", "number"), ("item", "itemref")}),
    fixes={("character", "charid"): "compare ids: write .id after the character (me.id)"},
    hints={"hidden": "'.hidden' counts them; my own hidden items are the list hidden"},
)
"""Every name, attribute and function above, by the kind of value it gives (``bot check``'s
kind check: :mod:`.kinds`)."""
