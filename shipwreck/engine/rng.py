"""A small seeded PRNG that lives inside the game state.

Why not :mod:`random`? Its state is 625 integers and its algorithms for ``randrange`` and
``shuffle`` are not promised to stay the same across Python versions. A game must replay byte
for byte from its seed, on any machine, forever; so the generator is ours: SplitMix64, whose
whole state is one 64-bit integer that serialises with the rest of the game.
"""

from __future__ import annotations

import struct
from typing import TypeVar

import msgspec

_MASK = (1 << 64) - 1
_SMALL = 64
_LIMITS = [0] + [_MASK - (_MASK + 1) % n for n in range(1, _SMALL)]
"""``below(n)``'s rejection bound for the small ``n`` games draw, worked out once."""
T = TypeVar("T")
_GAMMA = 0x9E3779B97F4A7C15
_LANE = 128
"""Bits per output when many are worked out at once: a 64-bit value times a 64-bit constant
fits, so no carry reaches the next lane."""
_PACKS: dict[int, tuple[int, int, int, struct.Struct, int]] = {}


def _pack(n: int) -> tuple[int, int, int, struct.Struct, int]:
    """For ``n`` lanes: a 1 in each, ``(k + 1) * gamma`` in lane ``k``, a 64-bit mask in each,
    the reader of each lane's low 8 bytes, and the highest draw a shuffle of ``n + 1`` items
    never rejects (the least of ``below(m)``'s bounds for ``m`` up to ``n + 1``)."""
    got = _PACKS.get(n)
    if got is None:
        ones = sum(1 << (_LANE * k) for k in range(n))
        steps = sum(((k + 1) * _GAMMA) << (_LANE * k) for k in range(n))
        reader = struct.Struct("<" + "Q8x" * n)
        safe = min(_MASK - (_MASK + 1) % m for m in range(2, n + 2))
        got = (ones, steps, ones * _MASK, reader, safe)
        if n <= 256:
            _PACKS[n] = got
    return got


def _outputs(
    state: int, ones: int, steps: int, mask: int, reader: struct.Struct
) -> tuple[int, ...]:
    """The next outputs of SplitMix64 from ``state`` (which is not advanced), one per lane of
    :func:`_pack`, each as :meth:`Rng.next_u64` makes it. Why: the ``k``-th state is
    ``state + k * gamma``, so all the states and their mixing are worked out side by side in one
    long integer (masked after each shift, so no lane reads its neighbour): a dozen operations
    on one long integer instead of a dozen on each of many small ones."""
    s = (state * ones + steps) & mask
    z = (((s ^ (s >> 30)) & mask) * 0xBF58476D1CE4E5B9) & mask
    z = (((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB) & mask
    z = (z ^ (z >> 31)) & mask
    return reader.unpack(z.to_bytes(reader.size, "little"))


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
        """Fisher-Yates, in place, with the draws of ``below(i + 1)`` for ``i`` from the top
        down. They are made together by :func:`_outputs` (a 6-seat deal makes 79 draws, and one
        at a time they were 70 % of a new game's instructions); :meth:`_shuffle_slow` makes them
        one by one when one of them is to be rejected (about once in 2**58 draws)."""
        n = len(items)
        if n < 2:
            return
        ones, steps, mask, reader, safe = _pack(n - 1)
        xs = _outputs(self.state, ones, steps, mask, reader)
        if max(xs) > safe:
            self._shuffle_slow(items)
            return
        for i, x in zip(range(n - 1, 0, -1), xs, strict=True):
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = (self.state + (n - 1) * _GAMMA) & _MASK

    def _shuffle_slow(self, items: list[T]) -> None:
        """:meth:`shuffle` one draw at a time: what it stands for."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def d6(self) -> int:
        return self.below(6) + 1
