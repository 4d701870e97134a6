"""The evaluator's keys and table format: card keys, suit bits, the perfect hash's constants, :class:`EvalTables`.

Shared by the table builder (:mod:`loki.evaluator.build`), the kernels (:mod:`loki.evaluator.kernels`) and the
Python API (:mod:`loki.evaluator.api`); the design is described in :mod:`loki.evaluator.api`.  Plain numpy: importing
this module neither imports numba nor builds a table.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "N_RANKS",
    "CATEGORY_NAMES",
    "CATEGORY_FIRST_RANK",
    "RANK_KEYS",
    "CARD_KEY",
    "CARD_BIT",
    "SUIT_SHIFT",
    "SUIT_BIAS",
    "FLUSH_CHECK",
    "RANK_MASK",
    "HASH_MULT",
    "HASH_BITS",
    "HASH_SHIFT",
    "EvalTables",
]

#: Number of distinct hand ranks (5-card equivalence classes).
N_RANKS = 7462

#: Category names indexed by :func:`hand_category` (0 = weakest).
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

#: ``(9,) int64``: the lowest rank of each category (index = category 0..8).
CATEGORY_FIRST_RANK = np.array([1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453], dtype=np.int64)

#: ``(13,) int64``: per-rank additive keys (index = rank 0..12 for 2..A); sums over
#: any multiset of at most 7 ranks with at most 4 of each are distinct.
RANK_KEYS = np.array([1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520], dtype=np.int64)

#: Bit of a key where its four 4-bit suit counters start (the rank-key sum is in the bits below).
SUIT_SHIFT = 32
#: Bias added to a key's 16 suit-count bits ``key >> SUIT_SHIFT``: bit ``4 * suit + 3`` of
#: ``(key >> SUIT_SHIFT) + SUIT_BIAS`` is set iff that suit has 5 or more cards.
SUIT_BIAS = 0x3333
#: Mask of the four flush-indicator bits (see :data:`SUIT_BIAS`).
FLUSH_CHECK = 0x8888
#: Mask of a key's rank-key sum (its low 32 bits; at most 18,393,157 for 7 cards).
RANK_MASK = (1 << SUIT_SHIFT) - 1
#: Perfect hash on the rank-key sum ``r``: ``h = ((r * HASH_MULT) mod 2**32) >> (32 - HASH_BITS)`` (the top
#: ``HASH_BITS`` bits of a 32-bit product: one multiply and one shift, no mask), ``slot = h + HASH_OFFSETS[h >>
#: HASH_SHIFT]``.  The multiplier was chosen offline: of 400 random odd 32-bit numbers for which ``h`` is distinct
#: over every rank multiset of 5..7 cards (the build checks it), the one with the smallest table (85,682 slots for
#: the 73,775 multisets; rows of 4,096, so the offsets fit in 32 kB).
HASH_MULT = 1838087895
HASH_BITS = 25
HASH_SHIFT = 12

_S = np.arange(52, dtype=np.int64) & 3
_R = np.arange(52, dtype=np.int64) >> 2
#: ``(52,) int64``: additive key of each card: ``RANK_KEYS[rank] | 1 << (SUIT_SHIFT + 4 * suit)``.
CARD_KEY = RANK_KEYS[_R] | (np.int64(1) << (SUIT_SHIFT + 4 * _S))
#: ``(52,) int64``: ``1 << (13 * suit + rank)``; OR them for a card set's suit masks.
CARD_BIT = np.int64(1) << (13 * _S + _R)
CARD_KEY.setflags(write=False)
CARD_BIT.setflags(write=False)
del _S, _R


class EvalTables(NamedTuple):
    """The five read-only arrays every ranking kernel takes (as its last argument ``tables``).

    Attributes:
        card_key: ``(52,) int64``, :data:`CARD_KEY`.
        card_bit: ``(52,) int64``, :data:`CARD_BIT`.
        rank_table: ``(T,) int16`` (T = 85,682 with the shipped constants): rank of each
            non-flush rank multiset at its perfect-hash slot.
        flush_table: ``(8192,) int16``: rank of the best flush in a suit's 13-bit rank mask
            (0 below 5 bits).
        hash_offsets: ``(2**(HASH_BITS - HASH_SHIFT),) int32``: perfect-hash displacements,
            ``slot = h + hash_offsets[h >> HASH_SHIFT]`` with ``h`` the mixed rank-key sum.
    """

    card_key: np.ndarray
    card_bit: np.ndarray
    rank_table: np.ndarray
    flush_table: np.ndarray
    hash_offsets: np.ndarray
