"""Lifeboat's side of a search (:mod:`shipwreck.engine.ismcts`): worlds from a view, and moves
as one seat sees them.

The search itself is game-agnostic; Lifeboat gives it the determinizer (:mod:`.determinize`:
a seat's view in, a full state out) and says which moves of others the seat cannot see: a supply
pick is "someone took a card" to everyone but the picker, so all picks of another seat share one
node of the tree.
"""

from __future__ import annotations

from collections.abc import Hashable

from shipwreck.engine.core import Seat
from shipwreck.engine.ismcts import Observe, Rollout, Search, random_rollout
from shipwreck.engine.rng import Rng
from shipwreck.games.lifeboat import RULES, rules
from shipwreck.games.lifeboat import commands as C
from shipwreck.games.lifeboat.cards import NAV, WEAPONS, named
from shipwreck.games.lifeboat.cards import kind as kind_of
from shipwreck.games.lifeboat.determinize import determinize
from shipwreck.games.lifeboat.scoring import treasure_of
from shipwreck.games.lifeboat.state import Character, LifeboatState
from shipwreck.games.lifeboat.view import LifeboatView

LifeboatSearch = Search[LifeboatState, C.Command]
LifeboatRollout = Rollout[LifeboatState, C.Command]


def observer(me: Seat) -> Observe[LifeboatState, C.Command]:
    """The move as ``me`` sees it: another seat's supply pick is secret (LB-11)."""

    def observe(state: LifeboatState | None, seat: Seat, cmd: C.Command) -> Hashable:
        if seat != me and type(cmd) is C.Take:
            return (seat, "take")
        return (seat, cmd)

    return observe


GREEDY_NOISE = 8
"""One move in this many of a greedy playout is uniformly random (worlds need some variety)."""


def greedy_rollout(
    state: LifeboatState, seat: Seat, kind: str, choices: list[C.Command], rng: Rng
) -> C.Command:
    """A fast playout policy: every seat plays like a simple treasure hunter, read straight from
    the imagined world (never the real game: a playout only ever sees a determinization).

    Takes the supply card worth most to it (else water, else a weapon), heals itself near
    death, strips the helpless, rows when it has water, keeps and chooses the cards with a
    seagull that do not throw it overboard, resists only when its side is stronger, drinks.
    About fifty times cheaper than a bot script's playout, which must build a view each move.
    """
    if rng.below(GREEDY_NOISE) == 0:
        return choices[rng.below(len(choices))]
    chars = state.chars
    me = chars[state.players[seat]]
    if kind == "supply":
        have = me.hidden + me.revealed
        now = treasure_of(me.id, have)  # once, not once per card on offer

        def gain(cmd: C.Command) -> int:
            assert isinstance(cmd, C.Take)
            item = cmd.item
            worth = treasure_of(me.id, [*have, item]) - now
            water = item == "water" and "water" not in have
            return 10 * worth + 5 * water + WEAPONS.get(kind_of(item), 0)

        return max(choices, key=gain)
    if kind == "turn":
        return _greedy_turn(state, me, choices)
    if kind == "keep":
        return max(choices, key=lambda c: _keep_worth(state, me.id, c))
    if kind == "navigate":
        return max(choices, key=lambda c: _choose_worth(state, me.id, c))
    if kind == "respond":
        req = state.request
        if req is not None and rules.power(state, [me.id]) >= rules.power(state, [req.attacker]):
            return _RESIST if _RESIST in choices else choices[0]
        return _AGREE if _AGREE in choices else choices[0]
    for quiet in (_DONE, _PASS, _DRINK):  # fight, overboard, thirst
        if quiet in choices:
            return quiet
    return choices[0]


_ROW, _REST, _RESIST, _AGREE = C.Row(), C.Rest(), C.Resist(), C.Agree()
_DONE, _PASS, _DRINK = C.Done(), C.Pass(), C.Drink()


def _card_worth(state: LifeboatState, me: str, number: int) -> int:
    card = NAV[number]
    return 10 * card.birds - 6 * (me in named(card.overboard, state.boat))


def _keep_worth(state: LifeboatState, me: str, cmd: C.Command) -> int:
    assert isinstance(cmd, C.Keep)  # the choices of a "keep" prompt
    return sum(_card_worth(state, me, n) for n in cmd.cards)


def _choose_worth(state: LifeboatState, me: str, cmd: C.Command) -> int:
    assert isinstance(cmd, C.Choose)  # the choices of a "navigate" prompt
    return _card_worth(state, me, cmd.card)


def _greedy_turn(state: LifeboatState, me: Character, choices: list[C.Command]) -> C.Command:
    if me.wounds > 0 and me.strength - me.wounds <= 1:
        heal = C.Use("medkit")
        if heal in choices:
            return heal
    chars = state.chars
    for cmd in choices:
        if type(cmd) is C.Rob and cmd.item is None and not chars[cmd.target].conscious:
            return cmd
    return _ROW if rules.holds(me, "water") and _ROW in choices else _REST


def new_search(
    view: LifeboatView,
    playouts: int,
    rng: Rng,
    rollout: LifeboatRollout = random_rollout,
    options: dict[str, bool] | None = None,
) -> LifeboatSearch:
    """A search over ``view.choices`` for the view's seat; every world is drawn from the view."""
    if view.seat is None:
        raise ValueError("a spectator has nothing to decide")
    return Search(
        RULES,
        view.seat,
        len(view.characters),
        lambda r: determinize(view, r, options),
        list(view.choices),
        playouts,
        rng,
        rollout=rollout,
        observe=observer(view.seat),
    )
