"""The game RNG's shuffle draws its numbers together (packed in one long integer) but must deal
exactly what one ``below()`` call per card deals: every seeded game depends on it."""

from __future__ import annotations

from shipwreck.engine.rng import _GAMMA, _MASK, Rng

C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def reference_shuffle(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates with one ``below(i + 1)`` per position, top down: what ``shuffle`` means."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def state_before(output: int) -> int:
    """The RNG state whose next draw is ``output`` (SplitMix64's mixing is invertible)."""
    z = output ^ (output >> 31) ^ (output >> 62)
    y = (z * pow(C2, -1, 1 << 64)) & _MASK
    z = y ^ (y >> 27) ^ (y >> 54)
    y = (z * pow(C1, -1, 1 << 64)) & _MASK
    s = y ^ (y >> 30) ^ (y >> 60)
    return (s - _GAMMA) & _MASK


def test_state_before_inverts_the_mixing() -> None:
    for out in (0, 1, 12345, _MASK, _MASK - 7, 0x0123456789ABCDEF):
        assert Rng(state_before(out)).next_u64() == out


def test_shuffle_deals_as_one_below_per_card() -> None:
    """Same permutation and same state after, for many seeds and sizes (past the 64 of the
    bounds table and the 256 lanes kept), as the draws made one at a time."""
    for seed in range(300):
        for n in (0, 1, 2, 3, 5, 6, 23, 41, 42, 63, 64, 65, 66, 130, 257, 300):
            fast, slow = Rng.from_seed(seed * 7919 + n), Rng.from_seed(seed * 7919 + n)
            a, b = list(range(n)), list(range(n))
            fast.shuffle(a)
            reference_shuffle(slow, b)
            assert a == b, (seed, n)
            assert fast.state == slow.state, (seed, n)


def test_a_rejected_draw_is_skipped_as_below_skips_it() -> None:
    """A draw above ``below(m)``'s bound is thrown away and the next one used; the shuffle
    then uses one draw more. Forced here: the second draw of a 10-card shuffle (``m = 9``,
    which does not divide 2**64) is the largest 64-bit number."""
    start = (state_before(_MASK) - _GAMMA) & _MASK
    probe = Rng(start)
    probe.next_u64()
    assert probe.next_u64() == _MASK
    fast, slow = Rng(start), Rng(start)
    a, b = list(range(10)), list(range(10))
    fast.shuffle(a)
    reference_shuffle(slow, b)
    assert a == b
    assert fast.state == slow.state == (start + 10 * _GAMMA) & _MASK  # 9 draws + 1 rejected
