"""Exact 5-, 6- and 7-card poker hand ranker, compiled with numba.

A **rank** is an ``int64`` in ``1..7462``; **higher is stronger** and two hands
tie exactly when their ranks are equal.  The 7,462 values are the distinct
5-card hand classes of Cactus Kev's evaluator (Kevin Suffecool, "Cactus Kev's
Poker Hand Evaluator", 2006; the same classes as phevaluator, whose ranks run the
other way: ``ours == 7463 - phevaluator_rank``), densely numbered from the worst
high card (``7-5-4-3-2``, rank 1) to the royal flush (rank 7462).  A 6- or 7-card
hand gets the rank of its best 5-card subset.

Categories occupy consecutive blocks (:data:`CATEGORY_FIRST_RANK`):

====  ===============  ==========  =======
cat   name             ranks       classes
====  ===============  ==========  =======
0     high card        1..1277     1277
1     pair             1278..4137  2860
2     two pair         4138..4995  858
3     three of a kind  4996..5853  858
4     straight         5854..5863  10
5     flush            5864..7140  1277
6     full house       7141..7296  156
7     four of a kind   7297..7452  156
8     straight flush   7453..7462  10
====  ===============  ==========  =======

The wheel ``A-2-3-4-5`` is the lowest straight (5854) and the lowest straight
flush (7453).

Design: one additive key per card (our own design, in the spirit of the
"rank key + suit count" evaluators such as SKPokerEval and OMPEval)
-------------------------------------------------------------------------------
Every card ``c = 4 * rank + suit`` has

* ``CARD_KEY[c] = RANK_KEYS[rank] << 16 | 1 << 4 * suit``: the high part sums
  per-rank keys, the low 16 bits hold four 4-bit suit counters;
* ``CARD_BIT[c] = 1 << (13 * suit + rank)``: the suit's 13-bit rank mask.

For any set of cards, ``key = sum(CARD_KEY[c])`` and ``bits = OR(CARD_BIT[c])``.
The 13 :data:`RANK_KEYS` were found offline by a greedy search (each key is the
smallest value above the previous one that keeps all sums distinct) so that
the rank-key sums of all rank multisets with at most 7 cards and at most 4 of a
rank are pairwise distinct (a test re-verifies this); the 73,775 multisets of 5,
6 and 7 cards have sums below 18,393,158.

:func:`rank_from_key` then does:

1. **flush test from the key alone**: with at most 7 cards every counter is at
   most 7, so adding ``0x3333`` sets bit 3 of a nibble exactly when that suit
   has 5 or more cards (no carry between nibbles).  At most one suit can;
   with 7 cards a flush also excludes quads and full houses, so the answer is
   ``FLUSH_TABLE[(bits >> 13 * suit) & 0x1FFF]`` (8,192 ``int16`` entries: best
   straight flush or flush within a 5..7-card rank mask);
2. otherwise the rank sum ``r = key >> 16`` is looked up through a
   row-displacement **perfect hash** (Tarjan and Yao, "Storing a sparse table",
   CACM 1979; first-fit decreasing): ``h = (r * HASH_MULT) mod 2**25`` (a
   bijection, which scatters the very regular sums), then
   ``RANK_TABLE[h + HASH_OFFSETS[h >> 11]]``.  ``RANK_TABLE`` has 74,338
   ``int16`` slots for the 73,775 multisets (149 kB) and ``HASH_OFFSETS``
   16,384 ``int32`` (64 kB): with ``FLUSH_TABLE`` (16 kB) everything stays in L2.

Both tables are built at import by numba kernels (cached on disk like every
``cache=True`` kernel, see ``NUMBA_CACHE_DIR``): every rank multiset and suited
mask is scored directly (category, then tie-break ranks packed in nibbles), and
the 7,462 distinct 5-card scores are sorted and densely numbered.

The tables are module-level arrays, so numba freezes them into every kernel
that calls :func:`rank_from_key` (they are constants inside the compiled code).
numba's on-disk cache does not track that dependency: after changing this
module, clear ``NUMBA_CACHE_DIR`` so cached callers in other modules recompile.

>>> evaluate("AsKsQsJsTs")
7462
>>> evaluate("7c5d4h3s2c")
1
>>> category_name(evaluate("AhAdKcKs2d9h3c")), describe(evaluate("AhAdKcKs2d9h3c"))
('two pair', 'two pair, Aces and Kings')
>>> evaluate("5s4h3d2cAc") < evaluate("6s5h4d3c2c")  # the wheel is the lowest straight
True
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from loki.cards import RANKS, parse_cards

__all__ = [
    "N_RANKS",
    "CATEGORY_NAMES",
    "CATEGORY_FIRST_RANK",
    "RANK_KEYS",
    "CARD_KEY",
    "CARD_BIT",
    "SUIT_BIAS",
    "FLUSH_CHECK",
    "FLUSH_TABLE",
    "RANK_TABLE",
    "HASH_OFFSETS",
    "HASH_MULT",
    "HASH_BITS",
    "HASH_SHIFT",
    "rank_from_key",
    "rank5",
    "rank6",
    "rank7",
    "rank_cards",
    "rank_batch",
    "hand_category",
    "evaluate",
    "evaluate_batch",
    "category_name",
    "describe",
    "class_ranks",
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

#: Bias added to the 16 suit-count bits of a key: bit ``4 * suit + 3`` of
#: ``key + SUIT_BIAS`` is set iff that suit has 5 or more cards.
SUIT_BIAS = 0x3333
#: Mask of the four flush-indicator bits (see :data:`SUIT_BIAS`).
FLUSH_CHECK = 0x8888
_RANK_SHIFT = 16
#: Perfect hash on the rank-key sum ``r``: ``h = (r * HASH_MULT) & (2**HASH_BITS - 1)``,
#: ``slot = h + HASH_OFFSETS[h >> HASH_SHIFT]`` (multiplier chosen offline for a tight table).
HASH_MULT = 32928279
HASH_BITS = 25
HASH_SHIFT = 11
_HASH_MASK = (1 << HASH_BITS) - 1

_S = np.arange(52, dtype=np.int64) & 3
_R = np.arange(52, dtype=np.int64) >> 2
#: ``(52,) int64``: additive key of each card: ``RANK_KEYS[rank] << 16 | 1 << (4 * suit)``.
CARD_KEY = (RANK_KEYS[_R] << _RANK_SHIFT) | (np.int64(1) << (4 * _S))
#: ``(52,) int64``: ``1 << (13 * suit + rank)``; OR them for a card set's suit masks.
CARD_BIT = np.int64(1) << (13 * _S + _R)
del _S, _R


# --------------------------------------------------------------------------- #
# table construction (runs once at import; the kernels are cached on disk)
# --------------------------------------------------------------------------- #

_CAT_SHIFT = 20  # score = category << 20 | up to five 4-bit tie-break ranks


@njit(cache=True)
def _straight_high(mask):
    """Highest straight's top rank (3 = five-high wheel) in a 13-bit rank mask, or -1."""
    for hi in range(12, 3, -1):
        w = 0x1F << (hi - 4)
        if mask & w == w:
            return hi
    if mask & 0x100F == 0x100F:  # A-2-3-4-5
        return 3
    return -1


@njit(cache=True)
def _top_ranks(mask, n, exclude1, exclude2):
    """Pack the ``n`` highest ranks of ``mask`` (skipping two ranks) as nibbles, highest first."""
    v = 0
    got = 0
    r = 12
    while got < n and r >= 0:
        if (mask >> r) & 1 and r != exclude1 and r != exclude2:
            v = (v << 4) | r
            got += 1
        r -= 1
    return v << (4 * (5 - n))  # left-align so scores of one category compare as numbers


@njit(cache=True)
def _score_counts(counts):
    """Score of the best non-flush 5-card hand in a multiset of ranks (``counts[13]``)."""
    mask = 0
    quad = -1
    trip1 = -1
    trip2 = -1
    pair1 = -1
    pair2 = -1
    for r in range(12, -1, -1):
        c = counts[r]
        if c > 0:
            mask |= 1 << r
        if c == 4:
            if quad < 0:
                quad = r
        elif c == 3:
            if trip1 < 0:
                trip1 = r
            elif trip2 < 0:
                trip2 = r
        elif c == 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
    if quad >= 0:
        return (7 << _CAT_SHIFT) | (quad << 16) | _top_ranks(mask, 1, quad, -1) >> 4
    if trip1 >= 0 and (trip2 >= 0 or pair1 >= 0):
        p = max(trip2, pair1)
        return (6 << _CAT_SHIFT) | (trip1 << 16) | (p << 12)
    sh = _straight_high(mask)
    if sh >= 0:
        return (4 << _CAT_SHIFT) | (sh << 16)
    if trip1 >= 0:
        return (3 << _CAT_SHIFT) | (trip1 << 16) | _top_ranks(mask, 2, trip1, -1) >> 4
    if pair2 >= 0:
        return (2 << _CAT_SHIFT) | (pair1 << 16) | (pair2 << 12) | _top_ranks(mask, 1, pair1, pair2) >> 8
    if pair1 >= 0:
        return (1 << _CAT_SHIFT) | (pair1 << 16) | _top_ranks(mask, 3, pair1, -1) >> 4
    return _top_ranks(mask, 5, -1, -1)


@njit(cache=True)
def _score_suited(mask):
    """Score of the best straight flush / flush in a 13-bit mask of one suit's ranks (5..7 bits)."""
    sh = _straight_high(mask)
    if sh >= 0:
        return (8 << _CAT_SHIFT) | (sh << 16)
    return (5 << _CAT_SHIFT) | _top_ranks(mask, 5, -1, -1)


@njit(cache=True)
def _enumerate_multisets(rank_keys):
    """All rank multisets with 5..7 cards and at most 4 per rank.

    Returns ``(sums (M,) int64, counts (M, 13) int8)`` with ``sums`` the rank-key sums.
    """
    # odometer over the 13 counts, pruned on the total
    out_n = 0
    cap = 80000
    sums = np.empty(cap, np.int64)
    counts = np.empty((cap, 13), np.int8)
    c = np.zeros(13, np.int64)
    total = 0
    while True:
        if total >= 5:
            s = 0
            for r in range(13):
                s += c[r] * rank_keys[r]
                counts[out_n, r] = c[r]
            sums[out_n] = s
            out_n += 1
        # next count vector with total <= 7
        r = 0
        while r < 13:
            if c[r] < 4 and total < 7:
                c[r] += 1
                total += 1
                break
            total -= c[r]
            c[r] = 0
            r += 1
        if r == 13:
            break
    return sums[:out_n], counts[:out_n]


@njit(cache=True)
def _build_perfect_hash(keys):
    """Row-displacement perfect hash (Tarjan and Yao 1979, first-fit decreasing).

    Each key ``r`` is mixed to ``h = (r * HASH_MULT) & (2**HASH_BITS - 1)`` (a bijection
    on ``HASH_BITS``-bit ints), split into row ``h >> HASH_SHIFT`` and column; rows
    are placed, largest first, at the first base where all their columns are free.
    Free slots are tested 32 bases at a time with bit windows, and a row's search
    starts no lower than ``width`` below where the previous row of the same size
    went (a heuristic that keeps the build at ~20 ms and the table within 1% of
    the 73,775 keys).

    Returns ``(off (rows,) int64, slots (M,) int64, table_size)`` with
    ``slots = h + off[h >> HASH_SHIFT]`` distinct and in ``0..table_size-1``.
    """
    shift = HASH_SHIFT
    width = 1 << shift
    n_rows = 1 << (HASH_BITS - shift)
    h = (keys * HASH_MULT) & ((1 << HASH_BITS) - 1)
    row_n = np.zeros(n_rows, np.int64)
    for x in h:
        row_n[x >> shift] += 1
    order = np.argsort(-row_n, kind="mergesort")
    start = np.zeros(n_rows + 1, np.int64)
    for i in range(n_rows):
        start[i + 1] = start[i] + row_n[i]
    fill = start[:-1].copy()
    cols = np.empty(keys.size, np.int64)
    for i in range(keys.size):
        row = h[i] >> shift
        cols[fill[row]] = h[i] & (width - 1)
        fill[row] += 1
    nwords = (2 * keys.size + 2 * width) // 32 + 2
    occ = np.zeros(nwords, np.int64)  # 32 slots per word
    off = np.zeros(n_rows, np.int64)
    size = 0
    lo = 0  # every slot below lo is taken
    last = np.zeros(width + 1, np.int64)  # base of the last placed row, by row size
    for t in range(n_rows):
        row = order[t]
        a, b = start[row], start[row + 1]
        if a == b:
            off[row] = -(row << shift)  # unused row: keep its (never used) slots in range
            continue
        cmin = width
        for m in range(a, b):
            cmin = min(cmin, cols[m])
        while (occ[lo >> 5] >> (lo & 31)) & 1:
            lo += 1
        base = max(0, lo - cmin, last[b - a] - width)
        while True:
            cand = 0xFFFFFFFF  # bit i: base + i still possible
            for m in range(a, b):
                p = base + cols[m]
                w = p >> 5
                cand &= ~(((occ[w] | (occ[w + 1] << 32)) >> (p & 31)) & 0xFFFFFFFF)
                if cand == 0:
                    break
            if cand != 0:
                break
            base += 32
            if ((base + width) >> 5) + 2 >= nwords:
                raise RuntimeError("perfect hash table overflow")
        while not cand & 1:
            cand >>= 1
            base += 1
        last[b - a] = base
        for m in range(a, b):
            p = base + cols[m]
            occ[p >> 5] |= 1 << (p & 31)
            size = max(size, p + 1)
        off[row] = base - (row << shift)
    slots = np.empty(keys.size, np.int64)
    for i in range(keys.size):
        slots[i] = h[i] + off[h[i] >> shift]
    return off, slots, size


@njit(cache=True)
def _build_scores(counts):
    """Scores ``(M,) int64`` of every multiset and ``(8192,) int64`` of every suited mask (0 if < 5 bits)."""
    m = counts.shape[0]
    scores = np.empty(m, np.int64)
    for i in range(m):
        scores[i] = _score_counts(counts[i])
    flush = np.zeros(8192, np.int64)
    for mask in range(8192):
        n = 0
        for r in range(13):
            n += (mask >> r) & 1
        if n >= 5:
            flush[mask] = _score_suited(mask)
    return scores, flush


def _build_tables():
    sums, counts = _enumerate_multisets(RANK_KEYS)
    scores, flush_scores = _build_scores(counts)
    sizes = counts.sum(axis=1)
    popcount = np.array([bin(m).count("1") for m in range(8192)])
    five = np.concatenate([scores[sizes == 5], flush_scores[popcount == 5]])
    classes = np.unique(five)  # sorted: dense rank = position + 1
    if classes.size != N_RANKS:  # pragma: no cover - construction invariant
        raise RuntimeError(f"expected {N_RANKS} hand classes, built {classes.size}")
    if sums.max() >> HASH_BITS:  # pragma: no cover - construction invariant
        raise RuntimeError("rank-key sums exceed HASH_BITS")
    offsets, slots, size = _build_perfect_hash(sums)
    rank_table = np.zeros(size, np.int16)
    rank_table[slots] = np.searchsorted(classes, scores) + 1
    flush_table = np.zeros(8192, np.int16)
    has = flush_scores > 0
    flush_table[has] = np.searchsorted(classes, flush_scores[has]) + 1
    offs = offsets.astype(np.int32)
    for a in (rank_table, flush_table, offs, classes):
        a.setflags(write=False)
    return rank_table, flush_table, offs, classes


#: ``RANK_TABLE (T,) int16``: rank of each non-flush rank multiset at its perfect-hash slot.
#: ``FLUSH_TABLE (8192,) int16``: rank of the best flush in a suit's 13-bit rank mask (0 below 5 bits).
#: ``HASH_OFFSETS (2**(HASH_BITS - HASH_SHIFT),) int32``: perfect-hash displacements,
#: ``slot = h + HASH_OFFSETS[h >> HASH_SHIFT]`` with ``h`` the mixed rank-key sum.
#: ``_CLASS_SCORES (7462,) int64``: the internal score of each rank (``rank - 1`` indexes it).
RANK_TABLE, FLUSH_TABLE, HASH_OFFSETS, _CLASS_SCORES = _build_tables()


# --------------------------------------------------------------------------- #
# kernels
# --------------------------------------------------------------------------- #


@njit(cache=True)
def rank_from_key(key, bits):
    """Rank 1..7462 (int64, higher is stronger) of a 5..7-card set from its key and suit bits.

    Args:
        key: ``sum(CARD_KEY[c])`` over the cards (int64).
        bits: ``CARD_BIT[c]`` OR-ed over the same cards (int64).

    The caller guarantees 5..7 distinct cards; nothing is checked (other
    counts give meaningless results or an out-of-range read).

    >>> cs = [51, 47, 43, 39, 35, 0, 1]          # As Ks Qs Js Ts 2c 2d
    >>> key = int(CARD_KEY[cs].sum()); bits = int(np.bitwise_or.reduce(CARD_BIT[cs]))
    >>> rank_from_key(key, bits)
    7462
    """
    f = (key + SUIT_BIAS) & FLUSH_CHECK
    if f != 0:
        if f & 0x8:
            m = bits
        elif f & 0x80:
            m = bits >> 13
        elif f & 0x800:
            m = bits >> 26
        else:
            m = bits >> 39
        return np.int64(FLUSH_TABLE[m & 0x1FFF])
    h = ((key >> _RANK_SHIFT) * HASH_MULT) & _HASH_MASK
    return np.int64(RANK_TABLE[h + HASH_OFFSETS[h >> HASH_SHIFT]])


@njit(cache=True)
def rank5(c0, c1, c2, c3, c4):
    """Rank (int64 1..7462) of five distinct card ints 0..51; unchecked.

    >>> rank5(51, 47, 43, 39, 35)  # AsKsQsJsTs
    7462
    """
    key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]
    bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4]
    return rank_from_key(key, bits)


@njit(cache=True)
def rank6(c0, c1, c2, c3, c4, c5):
    """Rank (int64 1..7462) of the best 5 of six distinct card ints 0..51; unchecked.

    >>> rank6(51, 47, 43, 39, 35, 0)
    7462
    """
    key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5]
    bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4] | CARD_BIT[c5]
    return rank_from_key(key, bits)


@njit(cache=True)
def rank7(c0, c1, c2, c3, c4, c5, c6):
    """Rank (int64 1..7462) of the best 5 of seven distinct card ints 0..51; unchecked.

    >>> rank7(51, 47, 43, 39, 35, 0, 1)
    7462
    """
    key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6]
    bits = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4] | CARD_BIT[c5] | CARD_BIT[c6]
    return rank_from_key(key, bits)


@njit(cache=True)
def rank_cards(cards):
    """Rank (int64 1..7462) of a 1-D int array of 5..7 distinct card ints; cards unchecked.

    Raises:
        ValueError: fewer than 5 or more than 7 cards.

    >>> rank_cards(np.array([0, 5, 10, 15, 16]))  # 2c 3d 4h 5s 6c: six-high straight
    5855
    """
    n = cards.shape[0]
    if n < 5 or n > 7:
        raise ValueError("rank_cards needs 5..7 cards")
    key = 0
    bits = 0
    for i in range(n):
        c = np.int64(cards[i])
        key += CARD_KEY[c]
        bits |= CARD_BIT[c]
    return rank_from_key(key, bits)


@njit(cache=True)
def rank_batch(hands):
    """Ranks ``(N,) int64`` of ``hands`` ``(N, k) int`` (any integer dtype, k = 5, 6 or 7); unchecked.

    Use :func:`evaluate_batch` for validated input.

    Raises:
        ValueError: k outside 5..7.

    >>> rank_batch(np.array([[51, 47, 43, 39, 35, 0, 1], [0, 4, 8, 12, 49, 30, 22]], np.int8))
    array([7462, 5854])
    """
    n, k = hands.shape
    if k < 5 or k > 7:
        raise ValueError("rank_batch needs 5..7 cards per row")
    out = np.empty(n, np.int64)
    if k == 7:
        for i in range(n):
            c0 = np.int64(hands[i, 0])
            c1 = np.int64(hands[i, 1])
            c2 = np.int64(hands[i, 2])
            c3 = np.int64(hands[i, 3])
            c4 = np.int64(hands[i, 4])
            c5 = np.int64(hands[i, 5])
            c6 = np.int64(hands[i, 6])
            key = CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6]
            bits = (
                CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4] | CARD_BIT[c5] | CARD_BIT[c6]
            )
            out[i] = rank_from_key(key, bits)
    else:
        for i in range(n):
            key = 0
            bits = 0
            for j in range(k):
                c = np.int64(hands[i, j])
                key += CARD_KEY[c]
                bits |= CARD_BIT[c]
            out[i] = rank_from_key(key, bits)
    return out


@njit(cache=True)
def hand_category(rank):
    """Category 0..8 (int64, index into :data:`CATEGORY_NAMES`) of a rank 1..7462; unchecked.

    >>> hand_category(7462), hand_category(1)
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


# --------------------------------------------------------------------------- #
# Python API (validated)
# --------------------------------------------------------------------------- #


def evaluate(cards: str | Iterable[str] | Iterable[int]) -> int:
    """Rank (Python int 1..7462, higher is stronger) of 5..7 cards.

    Args:
        cards: text such as ``"AsKsQsJsTs"`` / ``"As Ks Qs Js Ts 2c"``, or a
            sequence of card strings or card ints 0..51.

    Raises:
        ValueError: a malformed or duplicate card, or not 5..7 cards.

    >>> evaluate("AsKsQsJsTs"), evaluate(["Ah", "Kh", "Qh", "Jh", "9h", "2c", "2d"])
    (7462, 7140)
    """
    cs = parse_cards(cards, count=(5, 6, 7))
    return int(rank_cards(np.array(cs, dtype=np.int64)))


def evaluate_batch(hands) -> np.ndarray:
    """Validated :func:`rank_batch`: ranks ``(N,) int64`` of ``hands`` ``(N, k)``, k in 5..7.

    Args:
        hands: array-like ``(N, k)`` of card ints 0..51 (any integer dtype).

    Raises:
        ValueError: not 2-D, k outside 5..7, not integers, a value outside
            0..51 or a repeated card within a row (the message names the row).

    >>> evaluate_batch([[51, 47, 43, 39, 35], [0, 4, 8, 12, 49]])
    array([7462, 5854])
    """
    a = np.asarray(hands)
    if a.ndim != 2 or not 5 <= a.shape[1] <= 7:
        raise ValueError(f"hands must have shape (N, 5..7), got {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"hands must hold integer card ids 0..51, got dtype {a.dtype}")
    if a.shape[0] == 0:
        return np.empty(0, np.int64)
    bad = np.flatnonzero(((a < 0) | (a > 51)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"row {i}: card ids must be 0..51, got {a[i].tolist()}")
    s = np.sort(a, axis=1)
    bad = np.flatnonzero((s[:, 1:] == s[:, :-1]).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"row {i}: duplicate card in {a[i].tolist()}")
    return rank_batch(a)


def category_name(rank: int) -> str:
    """Category name of a rank 1..7462 (``"pair"``, ``"flush"``, ...).

    Raises:
        ValueError: rank outside 1..7462.

    >>> category_name(7462), category_name(1)
    ('straight flush', 'high card')
    """
    r = _check_rank(rank)
    return CATEGORY_NAMES[int(hand_category(r))]


_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
_PLURALS = (
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)


def describe(rank: int) -> str:
    """Plain-English description of a rank, e.g. ``"pair of Kings"``.

    The text names the category and its defining ranks; kickers are left out,
    so different ranks may share a description (:func:`class_ranks` gives all
    five card ranks).

    Raises:
        ValueError: rank outside 1..7462.

    >>> [describe(evaluate(h)) for h in ("AsKsQsJsTs", "5h4h3h2hAh", "KdKc7s6h2c", "9c9d9h4s4c")]
    ['royal flush', 'straight flush, Five high', 'pair of Kings', 'full house, Nines full of Fours']
    """
    r = _check_rank(rank)
    cat = int(hand_category(r))
    score = int(_CLASS_SCORES[r - 1])
    a, b = (score >> 16) & 15, (score >> 12) & 15
    if cat == 8:
        return "royal flush" if a == 12 else f"straight flush, {_NAMES[a]} high"
    if cat == 7:
        return f"four of a kind, {_PLURALS[a]}"
    if cat == 6:
        return f"full house, {_PLURALS[a]} full of {_PLURALS[b]}"
    if cat == 5:
        return f"flush, {_NAMES[a]} high"
    if cat == 4:
        return f"straight, {_NAMES[a]} high"
    if cat == 3:
        return f"three of a kind, {_PLURALS[a]}"
    if cat == 2:
        return f"two pair, {_PLURALS[a]} and {_PLURALS[b]}"
    if cat == 1:
        return f"pair of {_PLURALS[a]}"
    return f"high card, {_NAMES[a]}"


def class_ranks(rank: int) -> str:
    """The five card ranks of a hand class, best-first, as ``RANKS`` letters (e.g. ``"KK762"``).

    Raises:
        ValueError: rank outside 1..7462.

    >>> class_ranks(7462), class_ranks(1), class_ranks(5854), class_ranks(evaluate("9c9d9h4s4c"))
    ('AKQJT', '75432', '5432A', '99944')
    """
    r = _check_rank(rank)
    cat = int(hand_category(r))
    score = int(_CLASS_SCORES[r - 1])
    nib = [(score >> (16 - 4 * i)) & 15 for i in range(5)]
    if cat in (4, 8):
        hi = nib[0]
        seq = [hi - i for i in range(5)] if hi > 3 else [3, 2, 1, 0, 12]
    elif cat == 7:
        seq = [nib[0]] * 4 + [nib[1]]
    elif cat == 6:
        seq = [nib[0]] * 3 + [nib[1]] * 2
    elif cat == 3:
        seq = [nib[0]] * 3 + nib[1:3]
    elif cat == 2:
        seq = [nib[0]] * 2 + [nib[1]] * 2 + [nib[2]]
    elif cat == 1:
        seq = [nib[0]] * 2 + nib[1:4]
    else:
        seq = nib
    return "".join(RANKS[x] for x in seq)


def _check_rank(rank) -> int:
    try:
        r = int(rank)
    except (TypeError, ValueError):
        raise ValueError(f"invalid rank {rank!r}: expected an int 1..{N_RANKS}") from None
    if r != rank or not 1 <= r <= N_RANKS:
        raise ValueError(f"invalid rank {rank!r}: expected an int 1..{N_RANKS}")
    return r
