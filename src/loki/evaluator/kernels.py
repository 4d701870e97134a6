"""The hand-ranking numba kernels (design and rank scale: :mod:`loki.evaluator`).

Every kernel that looks a hand up takes the evaluator tables as its **last argument** ``tables``: the
five arrays of :class:`~loki.evaluator.EvalTables` in that order, ``(card_key, card_bit,
rank_table, flush_table, hash_offsets)``, as a plain tuple (:func:`loki.evaluator.kernel_tables`,
what the Python wrappers pass) or the :class:`~loki.evaluator.EvalTables` itself (the same code;
numba compiles one version per tuple type, and dispatching a plain tuple from Python is about
0.5 µs cheaper).  Callers pass ``tables`` down unchanged, so no kernel reads a table as a global and
numba freezes no table into compiled code.

Inputs are not checked (the caller guarantees 5..7 distinct card ints 0..51); the validated
entry points are :func:`loki.evaluator.evaluate` and :func:`loki.evaluator.evaluate_batch`.

>>> from loki.evaluator import CARD_BIT, CARD_KEY, kernel_tables
>>> tables = kernel_tables()
>>> cs = [51, 47, 43, 39, 35, 0, 1]          # As Ks Qs Js Ts 2c 2d
>>> key = int(CARD_KEY[cs].sum()); bits = int(np.bitwise_or.reduce(CARD_BIT[cs]))
>>> int(rank_from_key(key, bits, tables)), int(rank7(51, 47, 43, 39, 35, 0, 1, tables))
(7462, 7462)
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit, unlikely
from loki.evaluator.keys import FLUSH_CHECK, FLUSH_CHECK7, HASH_SHIFT, RANK_SHIFT, SUIT_BIAS, SUIT_SHIFT

__all__ = [
    "rank_from_key",
    "rank5",
    "rank6",
    "rank7",
    "rank_cards",
    "rank_batch",
    "rank_batch_into",
    "rank_rows7_into",
    "hand_category",
]


@njit(cache=True, nrt=False, inline="always")
def _hash_rank(key, rank_table, hash_offsets):
    # the rank of a key's rank multiset (no flush): its rank-key sum r (bits 32..63) through the perfect hash (keys.
    # HASH_SHIFT); r and the slot are never negative, so they are read as unsigned (no wraparound code)
    r = np.uint64(key) >> np.uint64(RANK_SHIFT)
    return np.int64(rank_table[np.uint64(np.int64(r) + hash_offsets[r >> np.uint64(HASH_SHIFT)])])


@njit(cache=True, nrt=False, inline="always")
def _flush_bits(key):
    # bit 4 * suit + 3 set iff that suit has 5 or more cards: the key's suit counters plus SUIT_BIAS (each counter is
    # at most 7, so no carry crosses a nibble); 32-bit constants, which need no register of their own in a loop
    return ((key >> SUIT_SHIFT) + SUIT_BIAS) & FLUSH_CHECK


@njit(cache=True, nrt=False, inline="always")
def _flush_rank(f, bits, flush_table):
    # the rank of the flush of a 5..7-card set whose flush bits (_flush_bits) are f (one suit's at most: two flushes
    # need 10 cards), from its suit bits; the suit without branches (which suit it is cannot be predicted)
    return _suit_flush_rank(np.uint64((f >= 0x80) + (f >= 0x800) + (f >= 0x8000)), bits, flush_table)


@njit(cache=True, nrt=False, inline="always")
def _flush_rank7(f, bits, flush_table):
    # _flush_rank for the flush bits f = key & FLUSH_CHECK7 of a seven-card key (bit 5 * suit + 4)
    return _suit_flush_rank(np.uint64((f >= 0x200) + (f >= 0x4000) + (f >= 0x80000)), bits, flush_table)


@njit(cache=True, nrt=False, inline="always")
def _suit_flush_rank(s, bits, flush_table):
    # the rank of the best flush in suit s (uint64 0..3) of a card set's suit bits
    return np.int64(flush_table[(np.uint64(bits) >> (np.uint64(13) * s)) & np.uint64(0x1FFF)])


@njit(cache=True, nrt=False)
def rank_from_key(key, bits, tables):
    """Rank 1..7462 (int64, higher is stronger) of a 5..7-card set from its key and suit bits.

    Args:
        key: ``sum(card_key[c])`` over the cards (int64).
        bits: ``card_bit[c]`` OR-ed over the same cards (int64).
        tables: the evaluator tables (module docstring).

    The caller guarantees 5..7 distinct cards; nothing is checked (other counts give
    meaningless results or an out-of-range read).

    Compiled without reference counting (it allocates nothing): a call binds five table arrays, and counting
    their references made callers' loops ~10x slower.  The hash lookup is made for every hand (for 5..7 cards a
    flush's rank multiset is in the hash too, so the read is in range) and the flush table is read only in the rare
    flush branch, which the compiler is told is rare (:func:`loki._jit.unlikely`).  A test checks that the compiled
    function holds no reference-count call.
    """
    f = _flush_bits(key)
    _, _, rank_table, flush_table, hash_offsets = tables
    r = _hash_rank(key, rank_table, hash_offsets)
    if unlikely(f != 0):
        r = _flush_rank(f, bits, flush_table)
    return r


@njit(cache=True)
def rank5(c0, c1, c2, c3, c4, tables):
    """Rank (int64 1..7462) of five distinct card ints 0..51; ``tables`` the tables; unchecked."""
    ck, cb = tables[0], tables[1]
    key = ck[c0] + ck[c1] + ck[c2] + ck[c3] + ck[c4]
    bits = cb[c0] | cb[c1] | cb[c2] | cb[c3] | cb[c4]
    return rank_from_key(key, bits, tables)


@njit(cache=True)
def rank6(c0, c1, c2, c3, c4, c5, tables):
    """Rank (int64 1..7462) of the best 5 of six distinct card ints 0..51; unchecked."""
    ck, cb = tables[0], tables[1]
    key = ck[c0] + ck[c1] + ck[c2] + ck[c3] + ck[c4] + ck[c5]
    bits = cb[c0] | cb[c1] | cb[c2] | cb[c3] | cb[c4] | cb[c5]
    return rank_from_key(key, bits, tables)


@njit(cache=True)
def rank7(c0, c1, c2, c3, c4, c5, c6, tables):
    """Rank (int64 1..7462) of the best 5 of seven distinct card ints 0..51; unchecked."""
    ck, cb = tables[0], tables[1]
    key = ck[c0] + ck[c1] + ck[c2] + ck[c3] + ck[c4] + ck[c5] + ck[c6]
    bits = cb[c0] | cb[c1] | cb[c2] | cb[c3] | cb[c4] | cb[c5] | cb[c6]
    return rank_from_key(key, bits, tables)


@njit(cache=True)
def rank_cards(cards, tables):
    """Rank (int64 1..7462) of a 1-D int array of 5..7 distinct card ints; cards unchecked.

    Raises:
        ValueError: fewer than 5 or more than 7 cards.
    """
    ck, cb = tables[0], tables[1]
    n = cards.shape[0]
    if n < 5 or n > 7:
        raise ValueError("rank_cards needs 5..7 cards")
    key = 0
    bits = 0
    for i in range(n):
        c = np.int64(cards[i])
        key += ck[c]
        bits |= cb[c]
    return rank_from_key(key, bits, tables)


@njit(cache=True)
def rank_batch_into(hands, out, tables):
    """Write the ranks of ``hands`` ``(N, k) int`` (any integer dtype, k = 5, 6 or 7) into ``out`` ``(N,)`` and
    return ``out``; unchecked.

    ``out`` may be any integer dtype that holds 1..7462 (``int16`` is the narrowest, and writing into a reused
    array saves the allocation and first-touch page faults of a fresh ``int64`` output on every call).  Card ints
    are used as unsigned indices (no negative-index wraparound code in the loop; a card outside 0..51 gives a
    meaningless rank, as it always did).  The Python API's :func:`loki.evaluator.rank_batch` ranks seven-card rows
    with the faster :func:`rank_rows7_into` (the same ranks).

    Raises:
        ValueError: k outside 5..7, or ``out`` shorter than ``hands``.
    """
    ck, cb = tables[0], tables[1]
    n, k = hands.shape
    if k < 5 or k > 7:
        raise ValueError("rank_batch needs 5..7 cards per row")
    if out.shape[0] < n:
        raise ValueError("rank_batch_into: out is shorter than hands")
    for i in range(n):
        key = 0
        bits = 0
        for j in range(k):
            c = np.uint64(hands[i, j])
            key += ck[c]
            bits |= cb[c]
        out[i] = rank_from_key(key, bits, tables)
    return out


@njit(cache=True, nrt=False)
def rank_rows7_into(flat, again, out, tables, card_key7):
    """Write the ranks of ``N = flat.size // 7`` seven-card rows into ``out[:N]``; unchecked.

    Args:
        flat: ``(7 N,)`` C-contiguous card ints (any integer dtype), row ``i`` at ``7 i``.
        again: the same array as ``flat``, passed a second time (below).
        out: ``(N,)`` or longer, any integer dtype that holds 1..7462.
        tables: the evaluator tables (module docstring).
        card_key7: ``(52,) int64`` :data:`~loki.evaluator.CARD_KEY7`, the seven-card keys.

    What :func:`loki.evaluator.rank_batch` ranks seven-card rows with (the same ranks as :func:`rank_from_key`).
    The keys are the seven-card ones, whose flush test is one AND (no bias to add; :data:`~loki.evaluator.
    CARD_KEY7`).  Rows are read at one offset stepped by 7 (no row stride in a register).  The suit bits are needed
    only for a flush (~3 % of random hands): the rare flush branch ORs them from the row read again from ``again``.
    Compiled on its own, the compiler cannot tell the two arrays are one and reads the cards again there; where it
    can (this kernel inlined into a caller that passes one array twice) it keeps the seven cards in registers
    through every hand for that branch, runs out of registers for the table addresses and reads them from the stack
    on every hand (~6 % slower).  With the flush test marked rare, ~1.4x the hands a second of ranking every hand's
    bits and key together (benchmarks/bench_evaluator_omp.py).
    """
    cb, rank_table, flush_table, hash_offsets = tables[1], tables[2], tables[3], tables[4]
    ck = card_key7
    p = np.uint64(0)
    for i in range(flat.shape[0] // 7):
        key = ck[np.uint64(flat[p])] + ck[np.uint64(flat[p + np.uint64(1)])] + ck[np.uint64(flat[p + np.uint64(2)])]
        key += ck[np.uint64(flat[p + np.uint64(3)])] + ck[np.uint64(flat[p + np.uint64(4)])]
        key += ck[np.uint64(flat[p + np.uint64(5)])] + ck[np.uint64(flat[p + np.uint64(6)])]
        f = key & FLUSH_CHECK7
        r = _hash_rank(key, rank_table, hash_offsets)
        if unlikely(f != 0):
            bits = 0
            for j in range(7):
                bits |= cb[np.uint64(again[p + np.uint64(j)])]
            r = _flush_rank7(f, bits, flush_table)
        out[i] = r
        p += np.uint64(7)


@njit(cache=True)
def rank_batch(hands, tables):
    """Ranks ``(N,) int64`` of ``hands`` ``(N, k) int`` (any integer dtype, k = 5, 6 or 7); unchecked.

    :func:`rank_batch_into` a new ``int64`` array.

    Raises:
        ValueError: k outside 5..7.
    """
    return rank_batch_into(hands, np.empty(hands.shape[0], np.int64), tables)


@njit(cache=True)
def hand_category(rank):
    """Category 0..8 (int64, index into :data:`~loki.evaluator.CATEGORY_NAMES`) of a rank 1..7462; unchecked.

    Reads no table (the category boundaries are :data:`~loki.evaluator.CATEGORY_FIRST_RANK`).

    >>> int(hand_category(7462)), int(hand_category(1))
    (8, 0)
    """
    if rank >= 5854:
        if rank >= 7141:
            if rank >= 7453:
                return np.int64(8)
            if rank >= 7297:
                return np.int64(7)
            return np.int64(6)
        if rank >= 5864:
            return np.int64(5)
        return np.int64(4)
    if rank >= 4138:
        if rank >= 4996:
            return np.int64(3)
        return np.int64(2)
    if rank >= 1278:
        return np.int64(1)
    return np.int64(0)
