"""A loaded bot script: its header, handlers and rules, compiled to small Python closures.

Why closures and not a tree walker? A decision runs a handful of guards for every prompt of a
whole game, thousands of times in a tournament; a closure per node is several times faster than
re-dispatching on tree nodes (``bench/bots.py`` measures a decision), and it keeps the
evaluator in one readable file (compile.py).
"""

from __future__ import annotations

import random
import re
from _collections_abc import dict_items, dict_keys, dict_values
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import Protocol

import msgspec


class BotError(ValueError):
    """A script that cannot be loaded. The message is ``file:line:column: what is wrong``."""


class OverBudget(Exception):
    """A decision used more evaluation steps than its budget."""


class BotRuntimeError(Exception):
    """A guard or action failed while deciding (e.g. a name that is none here)."""


class Choosing(Protocol):
    """What the evaluator reads of every game's view: the seat's legal answers now (the rest a
    game's environment reads from its own view type)."""

    @property
    def choices(self) -> Sequence[object]: ...


class Names(dict[str, object]):
    """A decision's names, some worked out only when a script reads them (``lazy``: each such
    name and how to work it out): a name that costs much to make (Spanish Main's ``ready``
    lists every ship's moves) costs nothing to a script that never reads it. Reading the whole
    (iterating, comparing, ``len``) works every name out first, so it is the dict it would be
    with all of them made at once."""

    __slots__ = ("_lazy",)

    def __init__(self, names: dict[str, object], lazy: dict[str, Callable[[], object]]) -> None:
        super().__init__(names)
        self._lazy = {k: make for k, make in lazy.items() if k not in names}

    def __missing__(self, name: str) -> object:
        make = self._lazy.pop(name, None)
        if make is None:
            raise KeyError(name)
        value = super().setdefault(name, make())
        return value

    def _fill(self) -> None:
        for name in list(self._lazy):
            self[name]  # noqa: B018 - (works it out)

    def get(self, name: str, default: object = None) -> object:
        return self[name] if name in self._lazy else super().get(name, default)

    def __contains__(self, name: object) -> bool:
        return name in self._lazy or super().__contains__(name)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def __eq__(self, other: object) -> bool:
        self._fill()
        return super().__eq__(other)

    def keys(self) -> dict_keys[str, object]:
        self._fill()
        return super().keys()

    def values(self) -> dict_values[str, object]:
        self._fill()
        return super().values()

    def items(self) -> dict_items[str, object]:
        self._fill()
        return super().items()


class Context:
    """What one decision evaluates against: names from the seat's view, a step budget, dice."""

    __slots__ = ("budget", "defer", "memo", "names", "rng", "steps", "view")

    def __init__(
        self,
        names: dict[str, object],
        view: Choosing,
        rng: random.Random,
        budget: int,
        defer: bool = False,
    ) -> None:
        self.names = names
        self.view = view
        self.rng = rng
        self.budget = budget
        self.defer = defer
        """A ``search`` action hands its search back unrun (the caller thinks in slices)."""
        self.steps = 0
        self.memo: dict[Hashable, object] = {}
        """What a game's environment worked out once for this decision (e.g. previewed moves)."""

    def tick(self, steps: int = 1) -> None:
        self.steps += steps
        if self.steps > self.budget:
            raise OverBudget(f"over the budget of {self.budget} steps")


Expr = Callable[[Context], object]
"""A guard or expression: a script's values are whatever its game's environment names (numbers,
words, lists, the view's records); the evaluator checks them where it combines them."""
Action = Callable[[Context], object]
"""Builds the command (or ``None`` for 'no command': use the safe default)."""


class Rule(msgspec.Struct):
    line: int
    column: int
    text: str
    """The rule as written, for traces and lint messages."""
    guard: Expr | None
    """``None`` for ``else``."""
    action: Action
    always: bool = False
    """The guard is constant true (``else``, ``when true``): later rules can never fire."""


class Handler(msgspec.Struct):
    kind: str
    line: int
    rules: list[Rule]


class BotScript(msgspec.Struct):
    name: str
    """The name in the header, as written (``bot "SM Raider" for …``)."""
    game: str
    path: str
    handlers: dict[str, Handler]
    source: str = ""

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"

    @property
    def bot_name(self) -> str:
        """The name the bot goes by everywhere (``sim``, ``arena``, the ladder, ``new 4 NAME``):
        its header's, as a bot name (:func:`name_for`). Never its file's: two files of one name
        are not one bot, and one bot keeps its name whatever its file is called."""
        return name_for(self.name)


def name_for(title: str) -> str:
    """A header's name as a bot name: lower case, each run of spaces or ``-`` one ``_``
    (``"SM Raider"`` is ``sm_raider``). ``bot check`` refuses a header whose name this does not
    make a valid bot name (:data:`shipwreck.names.BOT_NAME`)."""
    return re.sub(r"[\s-]+", "_", title.strip().lower())


THINKING = object()
"""What a deferred ``search`` action returns: its search is in ``ctx.memo["thinking"]``."""

SPECIAL_ACTIONS: dict[str, Callable[..., Action]] = {}
"""Actions built by a module above the compiler, by rule name (``search``: its module,
:mod:`.search`, needs the shipped bots and the runner, which need the compiler). That module
puts its builder here when it loads; the package loads it (``lang/bots/__init__.py``)."""
