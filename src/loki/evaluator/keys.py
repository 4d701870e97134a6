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
    "CARD_KEY7",
    "FLUSH_CHECK7",
    "CARD_BIT",
    "SUIT_SHIFT",
    "SUIT_BIAS",
    "FLUSH_CHECK",
    "RANK_SHIFT",
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

#: Bit of a key where its four 4-bit suit counters start (bits 0..15; the rank-key sum is in bits 32..63).
SUIT_SHIFT = 0
#: Bias added to a key's 16 suit-count bits: bit ``4 * suit + 3`` of ``(key >> SUIT_SHIFT) + SUIT_BIAS`` is set iff
#: that suit has 5 or more cards (each counter is at most 7, so no carry crosses a nibble).
SUIT_BIAS = 0x3333
#: Mask of the four flush-indicator bits (see :data:`SUIT_BIAS`).
FLUSH_CHECK = 0x8888
#: Bit of a key where its rank-key sum starts: bits 32..63 hold the cards' rank-key sum ``r`` (at most 18,393,157 for
#: 7 cards, so a key is never negative).
RANK_SHIFT = 32
#: Perfect hash on the rank-key sum ``r = key >> RANK_SHIFT``: ``slot = r + HASH_OFFSETS[r >> HASH_SHIFT]`` (rows
#: of 4,096 sums; 4,491 rows, so the offsets take 18 kB).  The sums themselves are the hash (no multiply): nearby
#: sums stay in nearby slots, which random 7-card hands read ~1.09x faster (478 against 438 M hands a second) than
#: a multiplicative hash that scatters them over a table less than half the size (BENCHMARKS.md, "The evaluator at
#: OMPEval's speed").
HASH_SHIFT = 12

_S = np.arange(52, dtype=np.int64) & 3
_R = np.arange(52, dtype=np.int64) >> 2
#: ``(52,) int64``: additive key of each card: ``RANK_KEYS[rank] << RANK_SHIFT | 1 << (SUIT_SHIFT + 4 * suit)``.
CARD_KEY = (RANK_KEYS[_R] << RANK_SHIFT) | (np.int64(1) << (SUIT_SHIFT + 4 * _S))
#: ``(52,) int64``: additive key of each card for sets of exactly **seven** cards (:func:`loki.evaluator.kernels.
#: rank_rows7_into`): the rank part of :data:`CARD_KEY` (bits 32..63) and four 5-bit suit fields (bits ``5 * s ..
#: 5 * s + 4``) to which a card adds 3 for its own suit and 1 for each other.  With seven cards a field holds
#: ``2 * count + 7`` (at most 21), so its top bit (16) is set iff that suit has 5 or more cards: the flush test is
#: one AND with :data:`FLUSH_CHECK7`, no bias to add.
CARD_KEY7 = (RANK_KEYS[_R] << RANK_SHIFT) + (np.int64(1 | 1 << 5 | 1 << 10 | 1 << 15) + (np.int64(2) << (5 * _S)))
#: Mask of the four flush-indicator bits of a seven-card key summed from :data:`CARD_KEY7` (bit ``5 * suit + 4``).
FLUSH_CHECK7 = 0x84210
#: ``(52,) int64``: ``1 << (13 * suit + rank)``; OR them for a card set's suit masks.
CARD_BIT = np.int64(1) << (13 * _S + _R)
CARD_KEY.setflags(write=False)
CARD_KEY7.setflags(write=False)
CARD_BIT.setflags(write=False)
del _S, _R


class EvalTables(NamedTuple):
    """The five read-only arrays every ranking kernel takes (as its last argument ``tables``).

    Attributes:
        card_key: ``(52,) int64``, :data:`CARD_KEY`.
        card_bit: ``(52,) int64``, :data:`CARD_BIT`.
        rank_table: ``(T,) int16`` (T = 233,954 with the shipped constants): rank of each
            non-flush rank multiset at its perfect-hash slot.
        flush_table: ``(8192,) int16``: rank of the best flush in a suit's 13-bit rank mask
            (0 below 5 bits).
        hash_offsets: ``(R,) int32`` (R = 4,491: one per row of ``2**HASH_SHIFT`` sums up to the largest):
            perfect-hash displacements, ``slot = r + hash_offsets[r >> HASH_SHIFT]`` with ``r`` the rank-key sum.
    """

    card_key: np.ndarray
    card_bit: np.ndarray
    rank_table: np.ndarray
    flush_table: np.ndarray
    hash_offsets: np.ndarray
