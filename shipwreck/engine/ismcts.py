"""Information-set Monte Carlo tree search (ISMCTS), for any game of the engine contract.

The design follows Cowling, Powley and Whitehouse (2012) as OpenSpiel's ``ismcts.py`` does:

- every iteration starts from a fresh **determinization**: a full state sampled by the game's
  determinizer from the searching seat's view alone (the search never sees the real state);
- tree nodes are **information sets**, not states: a node is keyed by what the searching seat
  has observed along the path (each move as it looks to that seat: another seat's secret pick
  is just "someone picked"), so statistics are shared by every determinization that agrees;
- selection is UCT over the moves legal in *this* determinization, with **availability
  counts** (a move's exploration term uses how often it was available, not the parent's
  visits), so a move that exists only in some worlds is not over-explored;
- one node is added per iteration, then a rollout (uniformly random, or a policy the caller
  gives) plays the game to its end, and every node on the path is credited with the reward of
  the seat that moved there.

A search has a playout budget, never a wall-clock one, and draws all its chance from one
:class:`~shipwreck.engine.rng.Rng`: the same seed and view give the same decision on any
machine. It can run in slices (:meth:`Search.run`), so a caller on an event loop can think a
little at a time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

import msgspec

from shipwreck.engine.core import Event, Prompt, Seat
from shipwreck.engine.rng import Rng

EXPLORE = 0.7
"""The UCT exploration constant (rewards are in [0, 1])."""
MAX_MOVES = 5_000
"""A playout that has not ended after this many moves is scored where it stands."""


S = TypeVar("S")
"""A game's full state (a determinization: the search never holds the real one)."""
C = TypeVar("C")
"""A game's command type."""
S_in = TypeVar("S_in", contravariant=True)


class Game(Protocol[S_in, C]):
    """The parts of a :class:`~shipwreck.engine.core.Ruleset` a search uses."""

    def prompts(self, state: S_in) -> list[Prompt]: ...

    def choices(self, state: S_in, seat: Seat) -> list[C]: ...

    def apply(self, state: S_in, seat: Seat, cmd: C) -> list[Event]: ...

    def is_over(self, state: S_in) -> bool: ...

    def scores(self, state: S_in) -> dict[Seat, int]: ...


Sampler = Callable[[Rng], S]
"""Draws one determinization (a full state) for this search, from the view the caller holds."""
Rollout = Callable[[S, Seat, str, list[C], Rng], C]
"""``(state, seat, prompt kind, choices, rng) -> command``: a playout's move for ``seat``."""
Observe = Callable[[S | None, Seat, C], Hashable]
"""``(state, seat, command) -> key``: the move as the searching seat sees it (before it is
applied; ``None`` at the root). Another seat's secret choice must map to one key whatever it
was."""


class Choice(msgspec.Struct, Generic[C], frozen=True):
    """One root choice after the search: how often it was tried and its mean reward."""

    command: C
    visits: int
    value: float


class _Node:
    """One information set of the tree: per move, [visits, reward sum, availability]."""

    __slots__ = ("stats",)

    def __init__(self) -> None:
        self.stats: dict[Hashable, list[float]] = {}


def first_blocking(game: Game[S, C], state: S) -> tuple[Seat, str] | None:
    """Who moves next in a playout: the first blocking prompt (as ``shipwreck sim`` does)."""
    for p in game.prompts(state):
        if p.blocking:
            return p.seat, p.kind
    return None


def win_share(game: Game[S, C], state: S, seats: int) -> list[float]:
    """A finished game's reward per seat: mostly the win (shared by a tie), a little score so
    that a lost game played better still counts for something."""
    scores = game.scores(state)
    out = [0.0] * seats
    if not scores:
        return out
    best = max(scores.values())
    top = max(1, best)
    winners = [s for s, v in scores.items() if v == best]
    for s, v in scores.items():
        out[s] = 0.2 * max(0, v) / top + (0.8 / len(winners) if s in winners else 0.0)
    return out


def random_rollout(state: S, seat: Seat, kind: str, choices: list[C], rng: Rng) -> C:
    return choices[rng.below(len(choices))]


def _plain(state: S | None, seat: Seat, cmd: C) -> Hashable:
    return (seat, cmd)


class Search(Generic[S, C]):
    """One decision's search for ``seat``: give it a sampler and a budget, then :meth:`run`."""

    def __init__(
        self,
        game: Game[S, C],
        seat: Seat,
        seats: int,
        sample: Sampler[S],
        root: list[C],
        playouts: int,
        rng: Rng,
        rollout: Rollout[S, C] = random_rollout,
        observe: Observe[S, C] = _plain,
        explore: float = EXPLORE,
    ) -> None:
        if not root:
            raise ValueError("a search needs at least one choice")
        self.game = game
        self.seat = seat
        self.seats = seats
        self.sample = sample
        self.root = list(root)
        self.playouts = max(1, playouts)
        self.rng = rng
        self.rollout = rollout
        self.observe = observe
        self.explore = explore
        self._apply: Callable[[S, Seat, C], object] = getattr(game, "apply_quiet", game.apply)
        """Nobody reads a playout's events: a game's quiet apply (same state, no event text)
        when it has one. Lifeboat's makes a playout about a fifth cheaper."""
        self.done = 0
        """Playouts made so far."""
        self.nodes: dict[tuple[Hashable, ...], _Node] = {}

    @property
    def finished(self) -> bool:
        return self.done >= self.playouts or len(self.root) == 1

    def run(self, n: int | None = None) -> int:
        """Make up to ``n`` more playouts (all that are left if ``None``); returns how many."""
        todo = self.playouts - self.done if n is None else min(n, self.playouts - self.done)
        if len(self.root) == 1:
            return 0
        for _ in range(max(0, todo)):
            self._iterate()
            self.done += 1
        return max(0, todo)

    def ranking(self) -> list[Choice[C]]:
        """The root choices, best first: most visited, then best mean, then as offered."""
        stats = self.nodes.get((), _Node()).stats
        out: list[tuple[int, float, int, Choice[C]]] = []
        for i, cmd in enumerate(self.root):
            v, total, _ = stats.get(self.observe(None, self.seat, cmd), (0, 0.0, 0))
            mean = total / v if v else 0.0
            out.append((-int(v), -mean, i, Choice(cmd, int(v), round(mean, 3))))
        out.sort(key=lambda t: t[:3])
        return [t[3] for t in out]

    def best(self) -> C:
        """The chosen command (run the search first)."""
        return self.ranking()[0].command

    # ------------------------------------------------------------------ one iteration

    def _iterate(self) -> None:
        game, rng, observe, apply = self.game, self.rng, self.observe, self._apply
        state = self.sample(rng)
        path: list[tuple[_Node, Hashable, Seat]] = []
        key: tuple[Hashable, ...] = ()
        in_rollout = False
        moves = 0
        while not game.is_over(state):
            if moves == 0:  # the root is this seat's decision (others may be asked at once)
                seat, kind, options = self.seat, "", self.root
            else:
                turn = first_blocking(game, state)
                if turn is None:
                    break
                seat, kind = turn
                options = game.choices(state, seat)
            if not options:
                break
            if len(options) == 1:
                cmd = options[0]
            elif in_rollout:
                cmd = self.rollout(state, seat, kind, options, rng)
            else:
                keys = [observe(state, seat, c) for c in options]
                if len(set(keys)) == 1:  # a secret choice of another seat: no node of ours
                    cmd = options[rng.below(len(options))]
                else:
                    node = self.nodes.get(key)
                    if node is None:
                        node = self.nodes[key] = _Node()
                    i, in_rollout = self._select(node, keys)
                    cmd = options[i]
                    path.append((node, keys[i], seat))
            if not in_rollout:
                key = (*key, observe(state, seat, cmd))
            apply(state, seat, cmd)
            moves += 1
            if moves > MAX_MOVES:
                break
        reward = win_share(game, state, self.seats) if game.is_over(state) else None
        for node, move, seat in path:
            s = node.stats[move]
            s[0] += 1
            s[1] += reward[seat] if reward is not None else 0.0

    def _select(self, node: _Node, keys: list[Hashable]) -> tuple[int, bool]:
        """UCT with availability counts over the moves legal here (by their keys); an untried
        move is expanded first (then the second value is True: the playout goes on by rollout).
        """
        stats = node.stats
        untried = []
        seen: set[Hashable] = set()
        for i, k in enumerate(keys):
            if k in seen:
                continue
            seen.add(k)
            s = stats.get(k)
            if s is None:
                s = stats[k] = [0, 0.0, 0]
            s[2] += 1
            if s[0] == 0:
                untried.append(i)
        if untried:
            return untried[self.rng.below(len(untried))], True
        best_i, best_v = 0, -1.0
        c = self.explore
        for i, k in enumerate(keys):
            v, total, avail = stats[k]
            u = total / v + c * math.sqrt(math.log(avail) / v)
            if u > best_v:
                best_i, best_v = i, u
        return best_i, False
