"""Bot seats at a table: a script decides from its view; the engine applies it like any command.

This is the one place a bot's decision meets the engine, for ``shipwreck sim`` now and for live
tables later. A missing or refused command becomes the decision's safe default, and the bot's
trace says why.

Bot scripts are written for one game (``bot "Random" for lifeboat``). A seat whose script is
for another game (a free seat's default stand-in, ``random``, is a Lifeboat script) is played by
a :class:`RandomPlayer`: a uniformly random legal answer from the seat's own view, with the same
``decide``/``refused``/``defaulted``/``trace`` interface as a script's
:class:`~shipwreck.lang.bots.BotPlayer`.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Protocol, TypeVar, cast

from shipwreck.engine.core import Event, IllegalCommand, Seat
from shipwreck.lang import format_command
from shipwreck.lang.bots import Decision, TraceEntry

S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)
C = TypeVar("C")


class BotRules(Protocol[S_in, C]):
    """The parts of a game's ruleset a bot seat's move goes through."""

    @property
    def free_types(self) -> frozenset[type]: ...

    def view(self, state: S_in, seat: Seat | None) -> object: ...

    def choices(self, state: S_in, seat: Seat) -> list[C]: ...

    def default(self, state: S_in, seat: Seat) -> C | None: ...

    def apply(self, state: S_in, seat: Seat, cmd: C) -> list[Event]: ...


class SeatBot(Protocol):
    """What a table needs of whatever plays a seat for it."""

    trace: deque[TraceEntry]

    @property
    def name(self) -> str: ...

    def decide(self, view: object, decision: str, defer: bool = False) -> Decision: ...

    def refused(self, decision: Decision, reason: str, fallback: object | None) -> None: ...

    def defaulted(self, decision: Decision, fallback: object | None) -> None: ...


def _text(cmd: object | None) -> str | None:
    """A command's canonical text for the trace (its struct's repr if the game has no
    formatter yet)."""
    if cmd is None:
        return None
    try:
        return format_command(cmd)
    except TypeError:
        return repr(cmd)


class RandomPlayer:
    """Plays any game: a uniformly random pick among ``view.choices``, from its own seeded dice.

    The stand-in for a free seat, bot seat or autopilot whose script is written for another game
    than the table's (a Spanish Main table's free seats get the default ``random``).
    """

    name = "random (engine)"

    def __init__(self, seed: int = 0, trace: int = 500) -> None:
        self.rng = random.Random(seed)
        self.trace: deque[TraceEntry] = deque(maxlen=trace)

    def decide(self, view: object, decision: str, defer: bool = False) -> Decision:
        entry = TraceEntry(int(getattr(view, "round", 0)), decision, None, None)
        options = list(getattr(view, "choices", ()))
        if not options:
            entry.note = "nothing to choose from: safe default"
            cmd = None
        else:
            cmd = self.rng.choice(options)
            entry.rule = "random choice"
            entry.command = _text(cmd)
        d = Decision(cmd, entry)
        self.trace.append(entry)
        return d

    def refused(self, decision: Decision, reason: str, fallback: object | None) -> None:
        decision.entry.note = f"refused ({reason}): safe default"
        decision.entry.command = _text(fallback)

    def defaulted(self, decision: Decision, fallback: object | None) -> None:
        decision.entry.command = _text(fallback)


def bot_move(
    rules: BotRules[S, C], state: S, seat: Seat, kind: str, bot: SeatBot
) -> tuple[C | None, list[Event]]:
    """Let ``bot`` answer ``seat``'s ``kind`` prompt; fall back to the safe default.

    Returns the command that was applied (``None`` if none was) and its events.
    """
    decision = bot.decide(bot_view(rules, state, seat), kind)
    return answer(rules, state, seat, kind, bot, decision)


def bot_view(rules: BotRules[S, C], state: S, seat: Seat) -> object:
    """What a bot decides from: the game's ``bot_view`` if it has one (Spanish Main's lists a
    ship's legal moves only when the bot asks for them), else the seat's view. Read it before
    anything else is applied."""
    see = getattr(rules, "bot_view", rules.view)
    return see(state, seat)


def answer(
    rules: BotRules[S, C], state: S, seat: Seat, kind: str, bot: SeatBot, decision: Decision
) -> tuple[C | None, list[Event]]:
    """Apply a bot's ``decision`` for ``seat``'s ``kind`` prompt, or the safe default when it
    has no command or the engine refuses it (the bot's trace says which)."""
    cmd = cast("C | None", decision.command)  # (a script of this game builds its commands)
    while cmd is not None and getattr(decision, "side", False):
        try:  # a side action (``on side:``): the decision stays open and is asked again
            return cmd, rules.apply(state, seat, cmd)
        except IllegalCommand as e:  # (not tried again this round: the bot's own limit)
            bot.refused(decision, str(e), None)
            decision = bot.decide(bot_view(rules, state, seat), kind)
            cmd = cast("C | None", decision.command)
    if (
        cmd is not None
        and kind != "offer"
        and type(cmd) in rules.free_types
        and cmd not in rules.choices(state, seat)  # (a gift of water may answer thirst: LB-50)
    ):
        # a free action (say, drop, offer…) would leave the decision open: not an answer
        fallback = rules.default(state, seat)
        bot.refused(decision, f"'{_text(cmd)}' does not answer '{kind}'", fallback)
    elif cmd is not None:
        try:
            events: list[Event] = rules.apply(state, seat, cmd)
            return cmd, events
        except IllegalCommand as e:
            fallback = rules.default(state, seat)
            bot.refused(decision, str(e), fallback)
    else:
        fallback = rules.default(state, seat)
        bot.defaulted(decision, fallback)
    if fallback is None:  # a non-blocking prompt (an offer): leaving it is safe
        return None, []
    return fallback, rules.apply(state, seat, fallback)
