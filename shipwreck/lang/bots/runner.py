"""Running a bot script for one seat: from its view and decision kind to a command.

The runner never sees the game state: it gets the seat's view, like a human's screen. What it
returns goes through the same door as a typed command (the engine's ``apply``); when it has no
command, or the command is refused, the caller plays the decision's safe default and tells the
runner so it lands in the trace.
"""

from __future__ import annotations

import random
from collections import deque
from typing import TYPE_CHECKING, cast

import msgspec

from shipwreck.lang.bots.compile import env_for
from shipwreck.lang.bots.script import (
    THINKING,
    BotRuntimeError,
    BotScript,
    Choosing,
    Context,
    OverBudget,
)

if TYPE_CHECKING:
    from shipwreck.lang.bots.search import Thinking
from shipwreck.lang.commands import format_command

DEFAULT_BUDGET = 5_000
"""Evaluation steps one decision may take (a guard's every operation is a step)."""


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

    def conclude(self) -> None:
        """The search has run: its choice becomes this decision's command, its words the note."""
        if self.thinking is not None:
            self.command, self.entry.search = self.thinking.answer()
            self.entry.command = format_command(self.command)
            self.thinking = None


class BotPlayer:
    """One seat driven by one script. ``seed`` feeds its ``chance()`` and ``random``."""

    def __init__(
        self, script: BotScript, seed: int = 0, budget: int = DEFAULT_BUDGET, trace: int = 500
    ) -> None:
        self.script = script
        self.rng = random.Random(seed)
        self.budget = budget
        self.trace: deque[TraceEntry] = deque(maxlen=trace)

    @property
    def name(self) -> str:
        return self.script.name

    def decide(self, view: object, decision: str, defer: bool = False) -> Decision:
        """The command this script plays for ``decision``, or ``None`` (use the safe default).

        With ``defer``, a ``search`` action is not run here: the decision comes back with its
        ``thinking`` for the caller to run in slices and then :meth:`Decision.conclude`."""
        handler = self.script.handlers.get(decision)
        entry = TraceEntry(getattr(view, "round", 0), decision, None, None)
        if handler is None:
            entry.note = f"no 'on {decision}:' handler: safe default"
            return self._done(Decision(None, entry))
        env = env_for(self.script.game)
        if not isinstance(view, env.VIEW):
            entry.note = f"a {self.script.game} script cannot read this game: safe default"
            return self._done(Decision(None, entry))
        seen = cast(Choosing, view)  # (of the script's game: checked above)
        ctx = Context(env.names_for(view, decision), seen, self.rng, self.budget, defer)
        for rule in handler.rules:
            entry.rule = self.script.where(rule.line)
            try:
                if rule.guard is not None and not rule.guard(ctx):
                    continue
                cmd = rule.action(ctx)
            except OverBudget as e:
                entry.note = f"line {rule.line}: {e}: safe default"
                return self._done(Decision(None, entry))
            except (
                BotRuntimeError,
                ValueError,
                TypeError,
                AttributeError,
                OverflowError,
                MemoryError,
                RecursionError,
            ) as e:
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

    def refused(self, decision: Decision, reason: str, fallback: object | None) -> None:
        """The engine refused the command: note why, and what was played instead."""
        decision.entry.note = f"refused ({reason}): safe default"
        decision.entry.command = format_command(fallback) if fallback is not None else None

    def defaulted(self, decision: Decision, fallback: object | None) -> None:
        decision.entry.command = format_command(fallback) if fallback is not None else None

    def _done(self, d: Decision) -> Decision:
        self.trace.append(d.entry)
        return d
