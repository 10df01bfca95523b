"""The contract every game implements, and the types that cross it.

A game is fully determined by ``(seed, options, command log)``: all chance comes from the RNG in
the state, and timers, disconnects and bot fallbacks enter as ordinary commands (from
:data:`SYSTEM` when no player sent them).
"""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

import msgspec

Seat = int
"""A player's place at the table, ``0..n-1``. What it controls is the game's business."""

SYSTEM: Seat = -1
"""The seat of the table itself: timeouts and fallbacks are commands sent from here."""


class IllegalCommand(Exception):
    """Raised by :meth:`Ruleset.apply` for a command that is not allowed now.

    The message is one line a player can act on ("you have no medkit"). The state is unchanged.
    """


def waiting_text(
    me: Seat,
    prompts: list[Prompt],
    names: list[str],
    do_now: dict[str, str],
    hidden: tuple[str, ...] = (),
) -> str:
    """The end of a refusal: whom the table waits for, from the blocking ``prompts``.

    Why: a player told "waiting for mate" while they are the mate is lost; when the seat
    waited for is ``me``, the text says what they can do now instead (``do_now``: the
    commands for a prompt's kind, in a player's words). Kinds in ``hidden`` do not name the
    others waited for (naming them would tell who holds what).
    """
    ps = [p for p in prompts if p.blocking]
    if not ps:
        return "nothing is waiting"
    kind = ps[0].kind
    words = kind.replace("_", " ")  # (a prompt's kind is a program's word: after_move)
    if any(p.seat == me for p in ps):
        hint = do_now.get(kind)
        if kind == "turn":
            return f"it is your turn: {hint}" if hint else "it is your turn"
        return f"decide first: {hint}" if hint else f"decide first ({words})"
    if kind in hidden:
        return f"waiting for the {words} step to finish"
    who = ", ".join(sorted({names[p.seat] for p in ps}))
    return f"waiting for {who} ({words})"


class Event(msgspec.Struct, frozen=True, gc=False):
    """Something that happened, as a line of text with who may read it.

    ``to`` is ``None`` for a public event (but for the seats in ``hide``), else the seats that
    may see it. The log a seat reads
    is made only from the events it may see; see :func:`visible`.
    """

    kind: str
    text: str
    to: tuple[Seat, ...] | None = None
    hide: tuple[Seat, ...] = ()
    """A public event that these seats do not read (they are told more in a private one)."""

    def visible_to(self, seat: Seat | None) -> bool:
        """May ``seat`` (``None`` = spectator) see this event?"""
        if self.to is None:
            return seat is None or seat not in self.hide
        return seat is not None and seat in self.to


def visible(events: list[Event], seat: Seat | None) -> list[Event]:
    """The events one seat (or a spectator, ``None``) may see, in order."""
    return [e for e in events if e.visible_to(seat)]


class Prompt(msgspec.Struct, frozen=True, gc=False):
    """A decision a seat must (``blocking``) or may take now.

    Several prompts can be open at once (a fight asks every conscious character). Non-blocking
    prompts are standing offers such as a proposed trade: the game goes on without them.
    """

    seat: Seat
    kind: str
    blocking: bool = True


S = TypeVar("S")
C = TypeVar("C")
P = TypeVar("P")
S_co = TypeVar("S_co", covariant=True)
S_in = TypeVar("S_in", contravariant=True)
C_in = TypeVar("C_in", contravariant=True)


class Ruleset(Protocol[S, C]):
    """What the layers above call on a game: ``S`` is its state, ``C`` its command union.

    A game's ruleset class declares it implements this (``class Lifeboat(Ruleset[...])``), so
    mypy checks every method against it. The game registry hands rulesets out by name, so above
    the games the two parameters are erased (``AnyRuleset`` in ``shipwreck.games``); a view is
    ``object`` there, narrowed by the game's own screen, formatter and bot environment.
    """

    name: str
    min_seats: int
    max_seats: int
    command_type: object
    """The msgspec tagged union of the game's commands (for decoding logs)."""
    free_types: frozenset[type]
    """Commands that answer no prompt (trades, talk, breaking a tow): never a bot's answer."""

    def new_game(
        self, seed: int, seats: int, options: dict[str, object] | None = None
    ) -> tuple[S, list[Event]]: ...

    def prompts(self, state: S) -> list[Prompt]: ...

    def legal(self, state: S, seat: Seat) -> list[C]:
        """Every legal command for ``seat`` now that can be enumerated (free text excluded)."""
        ...

    def choices(self, state: S, seat: Seat) -> list[C]:
        """The legal answers to ``seat``'s blocking prompt (no free actions); [] if none."""
        ...

    def apply(self, state: S, seat: Seat, cmd: C) -> list[Event]:
        """Apply ``cmd`` from ``seat``, mutating ``state``.

        Raises IllegalCommand, changing nothing, if the command is not allowed now.
        """
        ...

    def default(self, state: S, seat: Seat) -> C | None:
        """The safe answer to ``seat``'s blocking prompt, used on timeouts and bot failures."""
        ...

    def view(self, state: S, seat: Seat | None) -> object:
        """What ``seat`` (``None`` = spectator) may know: the only hidden-information filter."""
        ...

    def is_over(self, state: S) -> bool: ...

    def scores(self, state: S) -> dict[Seat, int]: ...

    def summary(self, state: S) -> dict[str, object]:
        """The final-state report (``shipwreck scenario run --json``; ``winners`` by seat name)."""
        ...

    def seat_name(self, state: S, seat: Seat) -> str:
        """The name a seat goes by in commands and logs."""
        ...

    def seat_of(self, state: S, name: str) -> Seat: ...


@runtime_checkable
class Positions(Protocol[S_co, P]):
    """A game that starts from a fixed position ``P`` (scenarios, tutorials), not only a seed."""

    position_type: type[P]

    def from_position(self, pos: P) -> tuple[S_co, list[Event]]: ...


@runtime_checkable
class ChoosesFleets(Protocol):
    """A game whose players choose what they start with (Spanish Main's fleets, SM-4): the
    options of :meth:`Ruleset.new_game` that deal each seat's choice."""

    def fleet_options(self, seats: int, names: list[str]) -> dict[str, object]:
        """The options dealing ``names`` (one a seat); ValueError, one line, for a bad one."""
        ...


@runtime_checkable
class NamesView(Protocol[S_in]):
    """A game whose typed lines name things by what a seat's view shows (a Spanish Main ship's
    map code), and which can make that view cheaply for reading a line: everything a line may
    name, without the legal commands a full view works out."""

    def names_view(self, state: S_in, seat: Seat | None) -> object:
        """``view(state, seat)`` with no legal commands listed."""
        ...


@runtime_checkable
class Previews(Protocol[S_in, C_in]):
    """A game that can tell what a command would do without doing it (a Spanish Main move:
    where it ends and what stops it), for the screen to draw before it is sent."""

    def preview(self, state: S_in, seat: Seat, cmd: C_in) -> object:
        """What ``cmd`` would do; raises IllegalCommand when ``apply`` would refuse it."""
        ...
