"""Running a bot script for one seat: from its view and decision kind to a command.

The runner never sees the game state: it gets the seat's view, like a human's screen. What it
returns goes through the same door as a typed command (the engine's ``apply``); when it has no
command, or the command is refused, the caller plays the decision's safe default and tells the
runner so it lands in the trace.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, cast

import msgspec

from shipwreck.lang.bots.compile import env_for
from shipwreck.lang.bots.script import (
    THINKING,
    BotRuntimeError,
    BotScript,
    Choosing,
    Context,
    Handler,
    OverBudget,
)

if TYPE_CHECKING:
    from shipwreck.lang.bots.search import Thinking
from shipwreck.lang.commands import format_command

DEFAULT_BUDGET = 5_000
"""Evaluation steps one decision may take (a guard's every operation is a step)."""
SIDE_LIMIT = 3
"""At most this many side actions (``on side:``) before each answer: a script whose side rules
undo one another (a crew moved there and back) cannot loop."""
_SCRIPT_ERRORS = (
    BotRuntimeError,
    ValueError,
    TypeError,
    AttributeError,
    OverflowError,
    MemoryError,
    RecursionError,
)
"""What a rule's guard or action may raise at play time (the decision falls back)."""


def _tag(cmd: object) -> str:
    """A command's struct tag as the grammar's rule names it (``drop_off``)."""
    config = getattr(type(cmd), "__struct_config__", None)
    return str(getattr(config, "tag", "")).replace("-", "_")


class TraceEntry(msgspec.Struct):
    """One decision: which rule fired (file:line) and what was played, or why the default was."""

    round: int
    decision: str
    rule: str | None
    command: str | None
    note: str = ""
    search: str = ""
    """For a ``search`` action: its playouts and its top three choices with their values."""


class Decision(msgspec.Struct):
    command: object | None
    entry: TraceEntry
    thinking: Thinking | None = None
    """A ``search`` still to run (``decide(defer=True)``): run it, then :meth:`conclude`."""
    side: bool = False
    """A side action from ``on side:`` (a free action before the answer): applied as it is,
    and the same decision is asked again (:func:`shipwreck.botseat.answer`)."""

    def conclude(self) -> None:
        """The search has run: its choice becomes this decision's command, its words the note."""
        if self.thinking is not None:
            self.command, self.entry.search = self.thinking.answer()
            self.entry.command = format_command(self.command)
            self.thinking = None


class _Once:
    """A decision's names, made the first time they are read: a turn with ``on side:`` reads
    them twice, for the side rules and then for the turn (a Spanish Main seat's names list
    every ship and island: a tenth of a hauler game's time was making them twice)."""

    __slots__ = ("_make", "_names")

    def __init__(self, make: Callable[[], dict[str, object]]) -> None:
        self._make = make
        self._names: dict[str, object] | None = None

    def get(self) -> dict[str, object]:
        if self._names is None:
            self._names = self._make()
        return self._names

    @contextmanager
    def reading(self, decision: str) -> Iterator[dict[str, object]]:
        """The names with ``decision`` reading ``decision`` until the block ends."""
        names = self.get()
        had, was = "decision" in names, names.get("decision")
        names["decision"] = decision
        try:
            yield names
        finally:
            if had:
                names["decision"] = was
            else:
                del names["decision"]


class BotPlayer:
    """One seat driven by one script. ``seed`` feeds its ``chance()`` and ``random``."""

    def __init__(
        self, script: BotScript, seed: int = 0, budget: int = DEFAULT_BUDGET, trace: int = 500
    ) -> None:
        self.script = script
        self.rng = random.Random(seed)
        self.budget = budget
        self.trace: deque[TraceEntry] = deque(maxlen=trace)
        self._sides = 0
        """Side actions played since the last answer (at most :data:`SIDE_LIMIT`)."""
        self._refused: tuple[int, set[str]] = (0, set())
        """The side actions the engine refused this round (not tried again until the next)."""

    @property
    def name(self) -> str:
        return self.script.name

    def decide(self, view: object, decision: str, defer: bool = False) -> Decision:
        """The command this script plays for ``decision``, or ``None`` (use the safe default).

        With ``defer``, a ``search`` action is not run here: the decision comes back with its
        ``thinking`` for the caller to run in slices and then :meth:`Decision.conclude`."""
        env = env_for(self.script.game)
        names = _Once(lambda: env.names_for(view, decision))
        side = self._side(view, decision, names)
        if side is not None:
            return side
        self._sides = 0
        handler = self.script.handlers.get(decision)
        entry = TraceEntry(getattr(view, "round", 0), decision, None, None)
        if handler is None:
            entry.note = f"no 'on {decision}:' handler: safe default"
            return self._done(Decision(None, entry))
        if not isinstance(view, env.VIEW):
            entry.note = f"a {self.script.game} script cannot read this game: safe default"
            return self._done(Decision(None, entry))
        seen = cast(Choosing, view)  # (of the script's game: checked above)
        ctx = Context(names.get(), seen, self.rng, self.budget, defer)
        for rule in handler.rules:
            entry.rule = self.script.where(rule.line)
            try:
                if rule.guard is not None and not rule.guard(ctx):
                    continue
                cmd = rule.action(ctx)
            except OverBudget as e:
                entry.note = f"line {rule.line}: {e}: safe default"
                return self._done(Decision(None, entry))
            except _SCRIPT_ERRORS as e:
                entry.note = f"line {rule.line}: {e}: safe default"
                return self._done(Decision(None, entry))
            if cmd is THINKING:
                entry.search = "thinking"
                thinking = cast("Thinking", ctx.memo["thinking"])  # (what THINKING says)
                return self._done(Decision(None, entry, thinking))
            if cmd is None:
                entry.note = "nothing to choose from: safe default"
                return self._done(Decision(None, entry))
            entry.command = format_command(cmd)
            if "search" in ctx.memo:  # the search, its playouts and its top three choices
                entry.search = str(ctx.memo["search"])
            return self._done(Decision(cmd, entry))
        entry.rule = None
        entry.note = "no rule matched: safe default"
        return self._done(Decision(None, entry))

    def _side(self, view: object, decision: str, names: _Once) -> Decision | None:
        """Before a decision the game takes side actions at (its environment's
        ``SIDE_BEFORE``: Spanish Main's turn), the first rule of ``on side:`` that fires, as a
        side decision; None to go on to the decision itself (no rule fired, ``pass``, or
        :data:`SIDE_LIMIT` side actions since the last answer).

        ``on side:`` reads the names of the decision it comes before (the same view: side
        actions are taken in that decision's turn), with ``decision`` reading ``side``; they are
        made once for both, and handed back with ``decision`` as it was."""
        handler = self.script.handlers.get("side")
        env = env_for(self.script.game)
        if (
            handler is None
            or decision not in getattr(env, "SIDE_BEFORE", ())
            or self._sides >= SIDE_LIMIT
            or not isinstance(view, env.VIEW)
        ):
            return None
        if self._refused[0] != view.round:
            self._refused = (view.round, set())
        with names.reading("side") as side_names:
            return self._first_side(cast(Choosing, view), decision, handler, side_names)

    def _first_side(
        self, view: Choosing, decision: str, handler: Handler, names: dict[str, object]
    ) -> Decision | None:
        env = env_for(self.script.game)
        ctx = Context(names, view, self.rng, self.budget, False)
        entry = TraceEntry(getattr(view, "round", 0), "side", None, None)
        for rule in handler.rules:
            try:
                if rule.guard is not None and not rule.guard(ctx):
                    continue
                cmd = rule.action(ctx)
            except (OverBudget, *_SCRIPT_ERRORS) as e:
                entry.rule = self.script.where(rule.line)
                entry.note = f"line {rule.line}: {e}: on to 'on {decision}:'"
                self.trace.append(entry)
                return None
            tag = _tag(cmd)
            if cmd is None or tag == "pass":
                return None
            text = format_command(cmd)
            if text in self._refused[1]:
                continue  # (refused this round already: the next rule)
            entry.rule, entry.command = self.script.where(rule.line), text
            if tag not in getattr(env, "SIDE_ACTIONS", ()):
                entry.note = f"'{text}' is not a side action: on to 'on {decision}:'"
                self.trace.append(entry)
                return None
            self._sides += 1
            return self._done(Decision(cmd, entry, side=True))
        return None

    def refused(self, decision: Decision, reason: str, fallback: object | None) -> None:
        """The engine refused the command: note why, and what was played instead (a refused
        side action: nothing; it is not tried again this round)."""
        if decision.side:
            decision.entry.note = f"refused ({reason}): on to the decision"
            self._refused[1].add(decision.entry.command or "")
            return
        decision.entry.note = f"refused ({reason}): safe default"
        decision.entry.command = format_command(fallback) if fallback is not None else None

    def defaulted(self, decision: Decision, fallback: object | None) -> None:
        decision.entry.command = format_command(fallback) if fallback is not None else None

    def _done(self, d: Decision) -> Decision:
        self.trace.append(d.entry)
        return d
