"""The tutorial's coach: what to say to the player now, read from their own view only.

A tutorial (:mod:`shipwreck.runtime.tutorial`) is a list of steps, each teaching one of the
player's decisions (a prompt kind) with the command to type. The coach never reads the game's
state, only what the player's screen shows: the player's view (their prompt, their choices) and
the public log. So it cannot give away another seat's hidden cards, and it follows whatever
actually happens: a step is taken when its command is answered, even out of order; another
answer takes the step at hand; and when no step's command is legal now (the game went another
way), a plain hint for the decision at hand names one that is. A tutorial never dead-ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

import msgspec

from shipwreck.engine.core import Event, Prompt
from shipwreck.games.lifeboat import GAME as LIFEBOAT
from shipwreck.games.lifeboat.advice import KeepAdvice, best_keep, keep_cost
from shipwreck.lang import CommandSyntaxError, format_command, parse_command


class CoachedView(Protocol):
    """What the coach reads of every game's view by its type; the rest (is it over, my score)
    games name differently, and the coach looks it up by name."""

    @property
    def prompts(self) -> Sequence[Prompt]: ...

    @property
    def choices(self) -> Sequence[object]: ...


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One lesson: when the player must take a ``kind`` decision, explain it and ask for a
    command."""

    kind: str
    """The player's prompt kind this step answers (``supply``, ``turn``, ``fight``, …)."""
    say: str
    """What the coach explains."""
    type: str
    """The command the coach asks for."""
    other: str = ""
    """What the coach says when the player answers with another (legal) command."""


class Hint(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The coach's words for a decision no step covers (the game went another way)."""

    say: str
    type: str | list[str] = ""
    """Commands to suggest, best first: the first that is legal then; if none is, the first
    legal answer."""

    def commands(self) -> list[str]:
        return [self.type] if isinstance(self.type, str) else list(self.type)


class CoachWords(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the coach says between and around the steps."""

    finish: str
    """Once the game is over; ``{score}`` and ``{parts}`` are the player's own."""
    wait: str = "The others are playing; your turn comes next."
    good: str = "Good."
    other: str = "That works too; the game goes on."
    wrong: str = "Not quite; nothing changed (see the red line)."
    free: str = "That needs no turn; your decision is open."


ADVISERS: dict[tuple[str, str], Callable[[Any], KeepAdvice | None]] = {
    (LIFEBOAT.name, "keep"): best_keep,
}
"""Decisions whose best answer depends on the position (which cards to keep), by game and
prompt kind: off the script, the coach asks for the adviser's answer, judged from the player's
own view, rather than a hint's fixed command (the first legal answer, 'keep none', once let the
player's friend drown)."""


JUDGES: dict[tuple[str, str], Callable[[Any, object], str | None]] = {
    (LIFEBOAT.name, "keep"): keep_cost,
}
"""Decisions whose off-script answers the coach judges, by game and prompt kind: for a command
the player chose in the view it was chosen in, what it may cost them and what was better (a
keep that threw everyone overboard was once praised as "that works too"), or None."""


class CoachLine(msgspec.Struct, frozen=True):
    """What the coach panel shows."""

    text: str
    command: str | None = None
    """The command the coach asks the player to type, if any."""
    note: str = ""
    """How the coach took the player's last command."""


class Coach:
    """Follows one player through a tutorial's steps. See the module docstring."""

    def __init__(
        self,
        game: str,
        seat: int,
        steps: Sequence[Step],
        hints: dict[str, Hint],
        words: CoachWords,
    ) -> None:
        self.game = game
        self.seat = seat
        self.steps = list(steps)
        self.hints = hints
        self.words = words
        self.done: set[int] = set()
        """Steps taken (or given up: their command was refused, the game went elsewhere)."""
        self.note = ""

    # ------------------------------------------------------------------ what to say

    def line(self, view: object, public_log: Sequence[Event] = ()) -> CoachLine:
        """The coach's line for the player's ``view`` (and the public log, for what happened)."""
        if _over(view):
            return CoachLine(self._finish(view), "lobby", self.note)
        kind = self._my_prompt(view)
        if kind is None:
            last = f" (last: {public_log[-1].text})" if public_log else ""
            return CoachLine(self.words.wait + last, None, self.note)
        j = self._active(kind)
        step = self.steps[j] if j is not None else None
        if step is not None and _answers(self.game, view, step.type):
            return CoachLine(step.say, step.type, self.note)
        adviser = ADVISERS.get((self.game, kind))
        advice = adviser(view) if adviser is not None else None
        if advice is not None and _answers(self.game, view, advice.command):
            return CoachLine(advice.why, advice.command, self.note)
        hint = self.hints.get(kind, Hint(f"Decide: {kind}."))
        command = next((c for c in hint.commands() if c and _answers(self.game, view, c)), None)
        choices = cast(CoachedView, view).choices
        if command is None and choices:
            command = format_command(choices[0])
        return CoachLine(hint.say, command, self.note)

    def heard(self, before: object, text: str, ok: bool) -> None:
        """The player typed ``text`` with ``before`` on screen; it was accepted or not.

        Refused: the step stays (unless it was the step's own command: the game went elsewhere,
        so the coach gives that step up and hints instead). Accepted as an answer: the step it
        is the command of is taken, even out of order; another answer takes the step at hand."""
        kind = self._my_prompt(before)
        typed = _canonical(self.game, before, text)
        if kind is None or typed is None:
            self.note = self.words.wrong if not ok else ""
            return
        pending = [j for j in range(len(self.steps)) if j not in self.done]
        ours = [j for j in pending if self.steps[j].kind == kind]
        same = [j for j in ours if _canonical(self.game, before, self.steps[j].type) == typed]
        if not ok:
            self.done.update(same[:1])
            self.note = self.words.wrong
        elif not _answers(self.game, before, text):
            self.note = self.words.free
        elif same:
            self.done.add(same[0])
            self.note = self.words.good
        elif ours:
            self.done.add(ours[0])
            self.note = self._judged(kind, before, text) or self.steps[ours[0]].other
            self.note = self.note or self.words.other
        else:
            self.note = ""

    def _judged(self, kind: str, before: object, text: str) -> str | None:
        judge = JUDGES.get((self.game, kind))
        cmd = _parse(self.game, before, text)
        return judge(before, cmd) if judge is not None and cmd is not None else None

    # ------------------------------------------------------------------ reading the view

    def _my_prompt(self, view: object) -> str | None:
        for p in cast(CoachedView, view).prompts:
            if p.seat == self.seat and p.blocking:
                return str(p.kind)
        return None

    def _active(self, kind: str) -> int | None:
        """The first step not taken that teaches a ``kind`` decision."""
        for j, step in enumerate(self.steps):
            if step.kind == kind and j not in self.done:
                return j
        return None

    def _finish(self, view: object) -> str:
        score, parts = _score(view)
        return self.words.finish.format(score=score, parts=parts)


def _over(view: object) -> bool:
    return bool(getattr(view, "over", False) or getattr(view, "phase", "") == "over")


def _score(view: object) -> tuple[str, str]:
    """The player's score and its parts, as the end of the game shows them to everyone.
    (Games name them differently: Lifeboat's ``scores`` by character, Spanish Main's ``gold``
    by seat; the coach looks them up by name.)"""
    scores: dict[str, int] | None = getattr(view, "scores", None)
    me: str | None = getattr(view, "me", None)
    if scores is not None and me in scores:
        score_parts: dict[str, dict[str, int]] | None = getattr(view, "score_parts", None)
        parts = (score_parts or {}).get(me, {})
        words = " + ".join(f"{name} {n}" for name, n in parts.items() if n)
        return str(scores[me]), words or "nothing"
    gold: list[int] | None = getattr(view, "gold", None)
    seat: int | None = getattr(view, "seat", None)
    if gold is not None and seat is not None:
        return str(gold[seat]), f"{gold[seat]} gold at home"
    return "?", "?"


def _parse(game: str, view: object, text: str) -> object | None:
    try:
        return parse_command(game, text, view)
    except CommandSyntaxError:
        return None


def _canonical(game: str, view: object, text: str) -> str | None:
    cmd = _parse(game, view, text)
    return None if cmd is None else format_command(cmd)


def _answers(game: str, view: object, text: str) -> bool:
    """Whether ``text`` answers the player's open decision (not a free action).

    The view lists the legal answers; a move's headings and distances are endless, so it lists
    a sample of them: a move answers if the view offers that ship a move of that kind."""
    cmd = _parse(game, view, text)
    if cmd is None:
        return False
    canonical = format_command(cmd)
    for choice in cast(CoachedView, view).choices:
        if format_command(choice) == canonical:
            return True
        if (
            type(choice) is type(cmd)
            and getattr(cmd, "legs", None) is not None
            and getattr(choice, "ship", None) == getattr(cmd, "ship", "")
        ):
            return True
    return False
