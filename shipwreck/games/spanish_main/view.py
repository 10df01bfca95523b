"""What one seat may know of a Spanish Main game: the one hidden-information filter (rules §6).

Everyone sees the sea, the islands, the ships, their masts, cargo counts, coin numbers, gold at
home and the public log. A coin's value is shown only to the seats that have seen it (its
explorer, whoever carried it) — everyone once it is unloaded, and everyone when the game is over.
Coin numbers are dealt after the values are shuffled, so they tell nothing.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from shipwreck.engine.core import Seat
from shipwreck.engine.rng import Rng
from shipwreck.games.spanish_main import abilities, rules, view_types
from shipwreck.games.spanish_main.commands import Command
from shipwreck.games.spanish_main.ships import CARDS
from shipwreck.games.spanish_main.state import (
    Crew,
    Island,
    Mast,
    Options,
    Ship,
    SpanishMainState,
    Step,
)

# The view's structs (their own module: :mod:`.view_types`), named here as ever.
CoinView = view_types.CoinView
CrewView = view_types.CrewView
MastView = view_types.MastView
ShipView = view_types.ShipView
IslandView = view_types.IslandView
RamView = view_types.RamView
SpanishMainView = view_types.SpanishMainView


def _coin(state: SpanishMainState, cid: int, seat: Seat | None) -> CoinView:
    c = state.coins[cid - 1]
    shown = state.over or (seat is not None and seat in c.known)
    return CoinView(cid, c.value if shown else None)


def _crew(c: Crew) -> CrewView:
    return CrewView(c.id, c.card, c.name, c.owner, c.slots)


def _ability(state: SpanishMainState, s: Ship) -> str:
    if not state.options.abilities:
        return ""
    card = CARDS.get(s.card)
    return card.ability if card is not None and abilities.plays(card.ability) else ""


def view(state: SpanishMainState, seat: Seat | None, legal: bool = True) -> SpanishMainView:
    """The game as ``seat`` (``None`` = a spectator) may see it. Without ``legal``, its
    ``choices`` and ``free`` are left empty: what a typed line may name (ships, their codes,
    islands, crew) is all there, for reading a line without working out every legal command."""
    me = state.seats[seat] if seat is not None and 0 <= seat < len(state.seats) else None
    if me is None:
        seat = None
    ships = tuple(
        ShipView(
            id=s.id,
            name=s.name,
            card=s.card,
            owner=s.owner,
            points=s.points,
            x=s.x,
            y=s.y,
            heading=s.heading,
            length=s.length,
            masts=tuple(MastView(m.rank, m.range, m.up) for m in s.masts),
            move=tuple(rules.move_legs(s, state)),
            cargo_slots=s.cargo_slots,
            cargo=tuple(_coin(state, c, seat) for c in s.cargo),
            crew=s.crew,
            docked=s.docked,
            towing=s.towing,
            towed_by=s.towed_by,
            derelict=s.derelict,
            pinned_by=(p.id if (p := rules.pinned_by(state, s)) is not None else None),
            acted=rules.has_acted(state, s),
            aboard=tuple(_crew(c) for c in s.aboard),
            ability=_ability(state, s),
        )
        for s in state.ships.values()
    )
    islands = tuple(
        IslandView(
            i.id,
            i.x,
            i.y,
            i.r,
            i.home,
            tuple(_coin(state, c, seat) for c in i.coins),
            tuple(_crew(c) for c in i.crew),
        )
        for i in state.islands.values()
    )
    homes = tuple(
        tuple(k + 1 for k, c in enumerate(state.coins) if c.place == f"home:{s}")
        for s in range(len(state.seats))
    )
    ram = state.ram
    return SpanishMainView(
        seat=seat,
        me=me,
        seats=tuple(state.seats),
        width=state.width,
        height=state.height,
        round=state.round,
        turn=state.turn,
        step=state.step,
        islands=islands,
        ships=ships,
        gold=tuple(state.gold),
        home_coins=homes,
        gold_total=state.gold_total,
        coins_lost=sum(1 for c in state.coins if c.place == "lost"),
        prompts=tuple(rules.prompts(state)),
        moved=state.after.ship if state.after is not None else None,
        hit=state.hit.ship if state.hit is not None else None,
        loading=state.loading,
        ram=RamView(ram.ship, ram.target, ram.winner or None) if ram is not None else None,
        volley=(state.volley.ship, state.volley.target) if state.volley is not None else None,
        sunk=tuple(state.sunk),
        choices=tuple(rules.choices(state, seat)) if seat is not None and legal else (),
        gold_in_play=rules.gold_in_play(state),
        free=tuple(rules.free_actions(state, seat)) if seat is not None and legal else (),
        over=state.over,
        end_reason=state.end_reason,
        winners=tuple(state.winners),
        options=msgspec.to_builtins(state.options),
    )


class Answers(Protocol):
    """A seat's legal commands now (a view's ``choices`` and ``free``), whole or one ship's."""

    def choices(self) -> tuple[Command, ...]: ...

    def free(self) -> tuple[Command, ...]: ...

    def of(self, ship: str, only: rules.Kinds | None = None) -> tuple[Command, ...]:
        """Her part of ``choices`` (the commands that name her), in its order; with ``only``,
        just her commands of those types."""
        ...

    def acts(self, ship: str) -> bool:
        """Has she any part in ``choices``?"""
        ...


class Listed:
    """The :class:`Answers` of a view that lists them all (:func:`view`)."""

    __slots__ = ("_of", "_view")

    def __init__(self, v: SpanishMainView) -> None:
        self._view = v
        self._of: dict[str, tuple[Command, ...]] = {}

    def choices(self) -> tuple[Command, ...]:
        return self._view.choices

    def free(self) -> tuple[Command, ...]:
        return self._view.free

    def of(self, ship: str, only: rules.Kinds | None = None) -> tuple[Command, ...]:
        got = self._of.get(ship)
        if got is None:
            got = self._of[ship] = _naming(self._view.choices, ship)
        return got if only is None else _only(got, only)

    def acts(self, ship: str) -> bool:
        return bool(self.of(ship))


class Listing:
    """The :class:`Answers` of the seat whose turn it is, each ship's part worked out the first
    time it is asked for. A bot asks for the moves of the one ship it moves, and whether the
    others may explore: listing every ship's sampled moves again after each sister's move was
    a fifth of a hauler game. What it gives is what :func:`view` lists, part for part
    (``tests/games/test_sm_listing.py``).

    It reads the state when asked, so it holds only while the state stays as it was: it is made
    for one decision (:func:`bot_view`), and refuses (RuntimeError) once a command has changed
    the turn, its step, the actions taken or the marks of once-per-turn abilities."""

    __slots__ = ("_acts", "_choices", "_free", "_moment", "_of", "_only", "_state")

    def __init__(self, state: SpanishMainState) -> None:
        self._state = state
        self._moment = _moment(state)
        self._of: dict[str, tuple[Command, ...]] = {}
        self._only: dict[tuple[str, rules.Kinds], tuple[Command, ...]] = {}
        self._acts: dict[str, bool] = {}
        self._choices: tuple[Command, ...] | None = None
        self._free: tuple[Command, ...] | None = None

    def _read(self) -> SpanishMainState:
        """The state, once it is sure to be as it was."""
        if _moment(self._state) != self._moment:
            raise RuntimeError("a seat's legal commands were asked for after the game moved on")
        return self._state

    def _mine(self, ship: str) -> Ship | None:
        """Her, if she is one of the seat's ships: only those have a part in its turn."""
        state = self._read()
        s = state.ships.get(ship)
        return s if s is not None and s.owner == state.turn else None

    def _part(self, s: Ship) -> tuple[Command, ...]:
        got = self._of.get(s.id)
        if got is None:
            got = self._of[s.id] = tuple(rules.ship_choices(self._state, s))
        return got

    def choices(self) -> tuple[Command, ...]:
        state = self._read()
        if self._choices is None:
            self._choices = tuple(rules.turn_choices(state, state.turn, self._part))
        return self._choices

    def free(self) -> tuple[Command, ...]:
        state = self._read()
        if self._free is None:
            self._free = tuple(rules.free_actions(state, state.turn))
        return self._free

    def of(self, ship: str, only: rules.Kinds | None = None) -> tuple[Command, ...]:
        s = self._mine(ship)
        if s is None:
            return ()
        if only is None or ship in self._of or any(k in only for k in rules.SAMPLED):
            # (her sampled moves are most of her part: once they are asked for, all of it is)
            return self._part(s) if only is None else _only(self._part(s), only)
        got = self._only.get((ship, only))
        if got is None:
            got = self._only[ship, only] = tuple(rules.ship_choices(self._state, s, only))
        return got

    def acts(self, ship: str) -> bool:
        s = self._mine(ship)
        if s is None or ship in self._of:
            return bool(self.of(ship))
        got = self._acts.get(ship)
        if got is None:
            got = self._acts[ship] = rules.has_choice(self._state, s)
        return got


def _naming(cmds: tuple[Command, ...], ship: str) -> tuple[Command, ...]:
    return tuple(c for c in cmds if getattr(c, "ship", None) == ship)


def _only(cmds: tuple[Command, ...], only: rules.Kinds) -> tuple[Command, ...]:
    return tuple(c for c in cmds if isinstance(c, only))


def _moment(state: SpanishMainState) -> tuple[object, ...]:
    """What any command changes (whose turn, its step, the actions taken, the once-per-turn
    marks): cheap to compare, so a listing checks it before it reads the state again."""
    return (state.round, state.turn, state.step, len(state.acted), len(state.marks), state.over)


class BotView:
    """What a bot decides from: the seat's view without its legal commands (:func:`view` with
    ``legal=False``) and those commands as :class:`Answers`, each ship's worked out when asked
    for (:class:`Listing`). Its ``choices`` are all of them (a ``random`` pick)."""

    __slots__ = ("answers", "view")

    def __init__(self, v: SpanishMainView, answers: Answers) -> None:
        self.view = v
        self.answers = answers

    @property
    def choices(self) -> tuple[Command, ...]:
        return self.answers.choices()

    @property
    def round(self) -> int:
        return self.view.round


def bot_view(state: SpanishMainState, seat: Seat) -> BotView:
    """``seat``'s :class:`BotView` for one decision (read it before anything is applied): in
    its turn, its legal commands listed ship by ship as asked for; else the few it has, whole."""
    if rules.prompt_of(state, seat) != "turn":
        v = view(state, seat)
        return BotView(v, Listed(v))
    return BotView(view(state, seat, legal=False), Listing(state))


def waiting_ships(v: SpanishMainView) -> list[str]:
    """My ships that have not had their action this turn and still may (SM-10): the rules
    list an action for each (a derelict, a ship pinned or with nothing in reach has none).
    Empty unless it is my turn."""
    if v.seat is None or v.step != "turn" or v.turn != v.seat:
        return []
    able = {getattr(c, "ship", None) for c in v.choices}
    return [s.id for s in v.ships if s.owner == v.seat and not s.acted and s.id in able]


def sea(v: SpanishMainView) -> SpanishMainState:
    """The public sea of a view as a state without treasure or dice: enough to preview a move
    (where she would end, what would stop her) from what the seat may see, and nothing more.

    No coin is in it (cargo and islands are empty), so nothing computed from it can depend on a
    value the seat has not seen."""
    ships = {
        s.id: Ship(
            id=s.id,
            card=s.card,
            name=s.name,
            owner=s.owner,
            points=s.points,
            masts=[Mast(m.rank, "S" if m.range == "S" else "L", m.up) for m in s.masts],
            cargo_slots=s.cargo_slots,
            move=list(s.move),
            x=s.x,
            y=s.y,
            heading=s.heading,
            length=s.length,
            crew=s.crew,
            docked=s.docked,
            towing=s.towing,
            towed_by=s.towed_by,
        )
        for s in v.ships
    }
    return SpanishMainState(
        seed=0,
        rng=Rng(0),
        seats=list(v.seats),
        width=v.width,
        height=v.height,
        islands={i.id: Island(i.id, i.x, i.y, i.r, i.home) for i in v.islands},
        ships=ships,
        coins=[],
        # (the view's base moves already hold her abilities' legs, and no cargo is in this
        # sea: with abilities on, a card would add or take legs a second time)
        options=msgspec.convert({**v.options, "abilities": False}, Options),
        gold=list(v.gold),
        turn=v.turn,
        round=v.round,
        step=msgspec.convert(v.step, Step),
        acted=[s.id for s in v.ships if s.acted],
        sunk=list(v.sunk),
        over=v.over,
    )
