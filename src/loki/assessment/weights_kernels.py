"""Numba kernels of :mod:`loki.assessment.weights`: the field array of several weight tables in one pass.

:func:`field_kernel` gives, entry for entry, the floats of the numpy rule it replaces in
:func:`loki.assessment.weights.combine_field` (copy, zero the clashing holdings, divide by the sum, add up, divide by the
number of tables).  The one operation whose order matters is the sum: :func:`pairwise_sum` is numpy's pairwise
summation of a contiguous float64 array (blocks of eight partial sums up to 128 elements, halves beyond), so the
sum, and so every decision that reads the field, is the same as numpy's; a test checks it against ``np.sum``.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit

__all__ = ["pairwise_sum", "field_kernel", "fields_of_others_into"]


@njit(cache=True, inline="always")
def _block_sum(a, skip, lo, n):
    # numpy's pairwise_sum for n <= 128: plain below 8, else eight partial sums combined as a tree
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += 0.0 if skip[i] else a[i]
        return res
    r0 = 0.0 if skip[lo] else a[lo]
    r1 = 0.0 if skip[lo + 1] else a[lo + 1]
    r2 = 0.0 if skip[lo + 2] else a[lo + 2]
    r3 = 0.0 if skip[lo + 3] else a[lo + 3]
    r4 = 0.0 if skip[lo + 4] else a[lo + 4]
    r5 = 0.0 if skip[lo + 5] else a[lo + 5]
    r6 = 0.0 if skip[lo + 6] else a[lo + 6]
    r7 = 0.0 if skip[lo + 7] else a[lo + 7]
    m = n - n % 8
    i = lo + 8
    while i < lo + m:
        r0 += 0.0 if skip[i] else a[i]
        r1 += 0.0 if skip[i + 1] else a[i + 1]
        r2 += 0.0 if skip[i + 2] else a[i + 2]
        r3 += 0.0 if skip[i + 3] else a[i + 3]
        r4 += 0.0 if skip[i + 4] else a[i + 4]
        r5 += 0.0 if skip[i + 5] else a[i + 5]
        r6 += 0.0 if skip[i + 6] else a[i + 6]
        r7 += 0.0 if skip[i + 7] else a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < lo + n:
        res += 0.0 if skip[i] else a[i]
        i += 1
    return res


@njit(cache=True)
def pairwise_sum(a, skip, lo, n):
    """Sum of ``a[lo:lo + n]`` ``(k,) float64`` with entries where ``skip`` ``(k,) bool`` is True read as 0.0, in
    numpy's pairwise order (``np.sum`` of the array with those entries zeroed; numpy ``pairwise_sum``: blocks of at
    most 128 summed by :func:`_block_sum`, a longer range split at ``n // 2`` rounded down to a multiple of 8 and the
    halves' sums added).  The recursion runs on an explicit stack (numba cannot cache a recursive function)."""
    if n <= 128:
        return _block_sum(a, skip, lo, n)
    # frames: start, length, stage (0 new, 1 left done, 2 right done), left sum
    f_lo = np.empty(64, dtype=np.int64)
    f_n = np.empty(64, dtype=np.int64)
    f_stage = np.zeros(64, dtype=np.int64)
    f_left = np.empty(64)
    top = 0
    f_lo[0] = lo
    f_n[0] = n
    f_stage[0] = 0
    ret = 0.0
    while top >= 0:
        fl = f_lo[top]
        fn = f_n[top]
        if fn <= 128:
            ret = _block_sum(a, skip, fl, fn)
            top -= 1
            continue
        n2 = fn // 2
        n2 -= n2 % 8
        st = f_stage[top]
        if st == 0:
            f_stage[top] = 1
            top += 1
            f_lo[top] = fl
            f_n[top] = n2
            f_stage[top] = 0
        elif st == 1:
            f_left[top] = ret
            f_stage[top] = 2
            top += 1
            f_lo[top] = fl + n2
            f_n[top] = fn - n2
            f_stage[top] = 0
        else:
            ret = f_left[top] + ret
            top -= 1
    return ret


@njit(cache=True)
def field_kernel(tables, clash, out):
    """The field array of the rows of ``tables`` ``(k, m) float64`` into ``out`` ``(m,) float64``: each row with the
    ``clash`` ``(m,) bool`` entries zeroed and divided by its sum, the rows added in order, the total divided by
    ``k`` (DEFAULT, loki-algorithms.md §1.2; the floats of :func:`loki.assessment.weights.combine_field`'s numpy rule).
    Every row must have a positive sum off ``clash`` (not checked)."""
    k, m = tables.shape
    for h in range(m):
        out[h] = 0.0
    for t in range(k):
        row = tables[t]
        s = pairwise_sum(row, clash, 0, m)
        for h in range(m):
            out[h] += (0.0 if clash[h] else row[h]) / s
    for h in range(m):
        out[h] /= k


@njit(cache=True)
def fields_of_others_into(weights, players, rows, me, clash, out):
    """Each player of ``rows``'s field: :func:`field_kernel` of the other listed players' rows of ``weights``, in
    their order, the row of ``me`` read as a table of ones (a uniform range: our own hand as the others see it), into
    ``out[p]`` (the floats of :func:`loki.assessment.weights.combine_field` on those tables, player by player;
    DEFAULT, loki-algorithms.md §1.2, as :func:`field_kernel`).

    Args:
        weights: ``(m, 1326) float64`` the players' tables; players: ``(j,) int64`` the players in the hand (j ≥ 2);
            rows: ``(r,) int64`` the players whose fields are wanted (listed players; all of them: ``players``);
            me: our seat (a listed player); clash: ``(1326,) bool`` the holdings that clash with the board.
        out: ``(m, 1326) float64``, rows ``rows`` written.  Every other player's row must have a positive sum off
            ``clash`` (not checked).
    """
    j = players.shape[0]
    n = weights.shape[1]
    others = np.empty((j - 1, n))
    for i in range(rows.shape[0]):
        p = rows[i]
        k = 0
        for t in range(j):
            o = players[t]
            if o == p:
                continue
            if o == me:
                others[k, :] = 1.0
            else:
                others[k, :] = weights[o]
            k += 1
        field_kernel(others, clash, out[p])
