"""A small seeded PRNG that lives inside the game state.

Why not :mod:`random`? Its state is 625 integers and its algorithms for ``randrange`` and
``shuffle`` are not promised to stay the same across Python versions. A game must replay byte
for byte from its seed, on any machine, forever; so the generator is ours: SplitMix64, whose
whole state is one 64-bit integer that serialises with the rest of the game.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

_MASK = (1 << 64) - 1
_SMALL = 64
_LIMITS = [0] + [_MASK - (_MASK + 1) % n for n in range(1, _SMALL)]
"""``below(n)``'s rejection bound for the small ``n`` games draw, worked out once."""
T = TypeVar("T")


class Rng(msgspec.Struct):
    """SplitMix64. ``state`` is the only field, so the RNG is saved with the game."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(state=(seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & _MASK)

    def next_u64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _LIMITS[n] if n < _SMALL else _MASK - (_MASK + 1) % n
        while True:  # next_u64(), inlined: shuffles call this a lot
            self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place, with :meth:`below`'s draws inlined (a deal shuffles 66 cards
        and a simulated game is short): the same numbers in the same order."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            limit = _LIMITS[i + 1] if i < _SMALL - 1 else _MASK - (_MASK + 1) % (i + 1)
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                x = z ^ (z >> 31)
                if x <= limit:
                    break
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = s

    def d6(self) -> int:
        return self.below(6) + 1
