"""The ``search N [using BOT]`` action: choose by information-set Monte Carlo tree search.

The search (:mod:`shipwreck.engine.ismcts`) plays ``N`` games forward from worlds drawn from the
seat's own view (:mod:`shipwreck.games.lifeboat.determinize`), so it knows no more than the
script does. Its dice come from the bot's own seeded dice, one 64-bit draw per decision: the same
seat seed and the same view give the same choice. The rollouts are uniformly random, or played by
a shipped bot (``using survivor``), which then plays every seat of every imagined game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import msgspec

from shipwreck.engine.core import Seat
from shipwreck.engine.ismcts import random_rollout
from shipwreck.engine.rng import Rng
from shipwreck.lang.bots.registry import shipped_bot, shipped_names
from shipwreck.lang.bots.runner import BotPlayer
from shipwreck.lang.bots.script import (
    SPECIAL_ACTIONS,
    THINKING,
    Action,
    BotError,
    BotScript,
    Context,
)
from shipwreck.lang.commands import format_command

if TYPE_CHECKING:
    from shipwreck.games.lifeboat.commands import Command
    from shipwreck.games.lifeboat.search import LifeboatRollout, LifeboatSearch
    from shipwreck.games.lifeboat.state import LifeboatState
    from shipwreck.games.lifeboat.view import LifeboatView

MAX_PLAYOUTS = 5_000
"""The most playouts one search may ask for (about ten seconds of thinking)."""


GREEDY = "greedy"
"""``using greedy``: the game's own fast playout policy (not a script; no bot may take the name)."""


class SearchSpec(msgspec.Struct, frozen=True):
    """What a ``search`` action asks for, checked when the script is compiled."""

    playouts: int
    using: str | None = None


def check_spec(playouts: int, using: str | None, game: str) -> str | None:
    """Why a ``search`` action in a ``game`` script cannot be played, in one line, or None."""
    if not 1 <= playouts <= MAX_PLAYOUTS:
        return f"search takes 1 to {MAX_PLAYOUTS} playouts, not {playouts}; try 'search 300'"
    if using is None or using == GREEDY:
        return None
    from shipwreck.games import title

    names = shipped_names(game)
    if using not in names:
        return (
            f"there is no shipped {title(game)} bot {using!r} to play the rollouts; try one of "
            + (", ".join([GREEDY, *(n for n in names if not _searches(n))]))
        )
    if _searches(using):
        return f"bot {using!r} searches itself: rollouts must be played by a bot that does not"
    return None


def _searches(name: str) -> bool:
    """Does a shipped bot itself search? (It then cannot play a search's rollouts.)"""
    lines = shipped_bot(name).source.splitlines()
    return any("-> search" in line.split("#")[0] for line in lines)


def bot_rollout(script: BotScript, seed: int) -> LifeboatRollout:
    """A rollout policy playing ``script`` for every seat, each from its own view. An answer
    the script does not give, or one not among the choices, is a random choice."""
    from shipwreck.games.lifeboat import RULES  # lang reads games; imported when used

    player = BotPlayer(script, seed=seed, trace=1)

    def rollout(
        state: LifeboatState, seat: Seat, kind: str, choices: list[Command], rng: Rng
    ) -> Command:
        cmd = player.decide(RULES.view(state, seat), kind).command
        for choice in choices:
            if choice == cmd:
                return choice
        return choices[rng.below(len(choices))]

    return rollout


def start(ctx: Context, spec: SearchSpec) -> LifeboatSearch | None:
    """The search for this decision (None when there is nothing to choose between)."""
    from shipwreck.games.lifeboat.search import greedy_rollout, new_search

    choices = list(ctx.view.choices)
    if len(choices) < 2:
        return None
    rng: random.Random = ctx.rng
    seed = rng.getrandbits(64)
    rollout: LifeboatRollout = random_rollout
    if spec.using == GREEDY:
        rollout = greedy_rollout
    elif spec.using is not None:
        rollout = bot_rollout(shipped_bot(spec.using), seed)
    view = cast("LifeboatView", ctx.view)  # (search plays Lifeboat: check_spec says so)
    return new_search(view, spec.playouts, Rng.from_seed(seed), rollout)


def summary(spec: SearchSpec, search: LifeboatSearch) -> str:
    """The trace's words: the search, its playouts, and its top three choices with values."""
    top = ", ".join(
        f"{format_command(c.command)} {c.value:.2f} ({c.visits})" for c in search.ranking()[:3]
    )
    using = f" using {spec.using}" if spec.using else ""
    return f"search {spec.playouts}{using}: {search.done} playouts; best {top}"


class Thinking:
    """A search handed back to be run a slice at a time (a server table never blocks its loop
    on one decision); :meth:`answer` gives the command and the trace's words once it is done."""

    def __init__(self, spec: SearchSpec, search: LifeboatSearch) -> None:
        self.spec = spec
        self.search = search

    @property
    def finished(self) -> bool:
        return self.search.finished

    def run_until(self, deadline: float, clock: Callable[[], float] | None = None) -> None:
        """Playouts until ``deadline`` (``time.perf_counter``) or the budget; at least one."""
        import time

        now = clock or time.perf_counter
        while not self.search.finished:
            self.search.run(1)
            if now() >= deadline:
                return

    def answer(self) -> tuple[Command, str]:
        """The chosen command and the trace's words (run it to the end first)."""
        self.search.run()
        return self.search.best(), summary(self.spec, self.search)


def compile_search(playouts: int, using: str | None, where: str, game: str) -> Action:
    """The action closure of ``search N [using BOT]`` in a ``game`` script; raises BotError
    (``where``: file:line:col) when it cannot be played."""
    why = check_spec(playouts, using, game)
    if why:
        raise BotError(f"{where}: {why}")
    spec = SearchSpec(playouts, using)

    def act(ctx: Context) -> object:
        choices = ctx.view.choices
        if not choices:
            return None
        search = start(ctx, spec)
        if search is None:
            return choices[0]
        if ctx.defer:
            ctx.memo["thinking"] = Thinking(spec, search)
            return THINKING
        search.run()
        ctx.memo["search"] = summary(spec, search)
        return search.best()

    return act


SPECIAL_ACTIONS["search"] = compile_search
