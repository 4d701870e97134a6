"""Construction of the evaluator's lookup tables (see :mod:`loki.evaluator` for the design).

:func:`build_tables` scores every rank multiset of 5..7 cards (at most 4 of a rank) and every
suited 13-bit rank mask directly (category, then tie-break ranks packed in nibbles), sorts the
7,462 distinct 5-card scores and numbers them densely, places the multisets' rank-key sums in a
row-displacement perfect hash (Tarjan and Yao, "Storing a sparse table", CACM 1979; first-fit
decreasing) and returns the tables as an :class:`~loki.evaluator.EvalTables`.  It runs once per
process, on first use (:func:`loki.evaluator.build`), in about 0.1 s with warm kernels.

The construction kernels here read only the integer constants of :mod:`loki.evaluator`
(``RANK_KEYS`` is passed as an argument); their results are not frozen into any other kernel.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.evaluator.keys import (
    CARD_BIT,
    CARD_KEY,
    HASH_SHIFT,
    N_RANKS,
    RANK_KEYS,
    EvalTables,
)

__all__ = ["build_tables"]

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

    Each key (a rank-key sum ``r``, distinct by construction of ``RANK_KEYS``, which is checked) is split into row
    ``r >> HASH_SHIFT`` and column; rows are placed, largest first, at the first base where all their columns are
    free.  Free slots are tested 32 bases at a time with bit windows, and a row's search starts no lower than
    ``width`` below where the previous row of the same size went (a heuristic that keeps the build at ~40 ms; the
    table has 233,954 slots for the 73,775 keys, rows keeping their sums' order and nearness).

    Returns ``(off (rows,) int64, slots (M,) int64, table_size)`` with ``slots = r + off[r >> HASH_SHIFT]`` distinct
    and in ``0..table_size-1``, ``rows = (max r >> HASH_SHIFT) + 1``.

    Raises:
        RuntimeError: two equal keys (rank keys whose sums are not distinct).
    """
    shift = HASH_SHIFT
    width = 1 << shift
    h = keys  # the hash is the sum itself
    n_rows = (h.max() >> shift) + 1
    hs = np.sort(h)
    for i in range(1, hs.size):
        if hs[i] == hs[i - 1]:
            raise RuntimeError("perfect hash: two rank multisets have the same rank-key sum")
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
    nwords = (4 * keys.size + 2 * width) // 32 + 2
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


def build_tables() -> tuple[EvalTables, np.ndarray]:
    """Build the evaluator tables.

    Returns:
        ``(tables, class_scores)``: the :class:`~loki.evaluator.EvalTables` (all arrays
        read-only) and ``class_scores (7462,) int64``, the internal score of each rank
        (``rank - 1`` indexes it; category << 20 | tie-break ranks as nibbles, used by
        :func:`loki.evaluator.describe`).

    Raises:
        RuntimeError: a construction invariant failed (wrong number of classes, hash overflow);
            cannot happen with the shipped constants.
    """
    sums, counts = _enumerate_multisets(RANK_KEYS)
    scores, flush_scores = _build_scores(counts)
    sizes = counts.sum(axis=1)
    popcount = np.array([bin(m).count("1") for m in range(8192)])
    five = np.concatenate([scores[sizes == 5], flush_scores[popcount == 5]])
    classes = np.unique(five)  # sorted: dense rank = position + 1
    if classes.size != N_RANKS:  # pragma: no cover - construction invariant
        raise RuntimeError(f"expected {N_RANKS} hand classes, built {classes.size}")
    offsets, slots, size = _build_perfect_hash(sums)
    rank_table = np.zeros(size, np.int16)
    rank_table[slots] = np.searchsorted(classes, scores) + 1
    flush_table = np.zeros(8192, np.int16)
    has = flush_scores > 0
    flush_table[has] = np.searchsorted(classes, flush_scores[has]) + 1
    offs = offsets.astype(np.int32)
    for a in (rank_table, flush_table, offs, classes):
        a.setflags(write=False)
    return EvalTables(CARD_KEY, CARD_BIT, rank_table, flush_table, offs), classes
