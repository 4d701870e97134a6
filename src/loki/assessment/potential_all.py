"""PPot1/NPot1 tables of **every** holding at once against one range (PAPP98 papp/node40; input to re-weighting).

:func:`hp1_all_kernel` gives, for each of the 1,326 holdings, the 3×3 HP table and HPTotal that
:func:`loki.assessment.potential.hp1_kernel` gives for one holding (one-card look-ahead; the
definitions, conventions and the ``w/K`` normalisation are in :mod:`loki.assessment.potential`).

Method: per next card, rank every holding once (a rank table filled from 3-card sets),
radix-sort by the new rank, and sweep with Fenwick trees over the current-board rank (global,
plus one per card for exact card removal by inclusion-exclusion).  One sweep gives, for every
holding, the weight of opponent holdings in each (now, end) cell.  Inclusion-exclusion subtracts
large sums, so a cell that is truly 0 can come out as a rounding residue (~1e-16 x the range's
total weight); a row whose now-state holds no positive-weight holding (exact integer counts) is
set to 0, and cells below 2^-36 (~1.5e-11) x the total live weight are taken as 0.  Otherwise the
results agree with the one-holding kernel to ~1e-12 relative.

The Python entry points are :func:`loki.assessment.potential.hand_potential_all_counts` and
:func:`loki.assessment.potential.hand_potential_all`.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.assessment.strength import (
    _board_key,
    _live_cards,
    hs_all_state_counts,
    radix_sort_by_rank,
    rank_holdings_kernel,
)
from loki.cards import HOLDING_INDEX, N_HOLDINGS
from loki.evaluator_kernels import rank_from_key

__all__ = ["hp1_all_kernel", "board_triple_ranks"]


@njit(cache=True, inline="always")
def _snap(x, eps):
    # Inclusion-exclusion (global minus per-card sums) leaves residues of order
    # 1e-16 x total weight where the true value is 0; values below ``eps`` = 2^-36 x total
    # live weight (~1.5e-11 x total) are taken as 0.  A true cell this small needs opponent
    # weights 1e-10 times smaller than the range's total, far below the 0.01 floor.
    return x if x > eps else 0.0


@njit(cache=True, inline="always")
def _bit_add(bit, row, i, n, w):
    while i <= n:
        bit[row, i] += w
        i += i & (-i)


@njit(cache=True, inline="always")
def _bit_prefix(bit, row, i):
    s = 0.0
    while i > 0:
        s += bit[row, i]
        i &= i - 1
    return s


@njit(cache=True)
def board_triple_ranks(board, tables):
    """The rank of the board with every three of the other cards, for :func:`hp1_kernel_ranked`.

    Each of a board's one-card look-aheads ranks the board plus the next card plus an opponent's two cards: three
    cards from the ``m = 52 − len(board)`` others, whoever holds which.  Computed once per board (C(49, 3) = 18,424
    evaluations on the flop), they serve every holding's potential on it.

    Args:
        board: ``(3,)`` or ``(4,) int64`` board.
        tables: the evaluator tables.

    Returns:
        ``r3 (m, m, m) int16`` (``r3[i, j, k]`` for positions ``i < j < k`` of the other cards in ascending card
        order; other entries 0) and ``pos (52,) int64`` (each card's position; −1 for board cards).
    """
    dead = np.zeros(52, dtype=np.bool_)
    for c in board:
        dead[c] = True
    others, m = _live_cards(dead)
    pos = np.full(52, -1, dtype=np.int64)
    for i in range(m):
        pos[others[i]] = i
    card_key, card_bit = tables[0], tables[1]
    bk, bb = _board_key(board, tables)
    r3 = np.zeros((m, m, m), dtype=np.int16)
    for i in range(m):
        ki = bk + card_key[others[i]]
        bi = bb | card_bit[others[i]]
        for j in range(i + 1, m):
            kij = ki + card_key[others[j]]
            bij = bi | card_bit[others[j]]
            for k in range(j + 1, m):
                ck = others[k]
                r3[i, j, k] = rank_from_key(kij + card_key[ck], bij | card_bit[ck], tables)
    return r3, pos


@njit(cache=True)
def hp1_all_kernel(board, dead, weights, tables, r3, pos):
    """3×3 HP and HPTotal of **every** holding against one range, one-card look-ahead.

    For each holding ``h`` sharing no card with ``dead`` (which must contain the board) the
    same numbers as :func:`hp1_kernel` would give for ``h`` against ``weights`` with the
    extra ``dead`` cards removed from the opponent's holdings and from the next cards.

    Args:
        board: ``(3,)`` or ``(4,) int64`` board.
        dead: ``(52,) bool`` known cards (board plus any extra dead cards).
        weights: ``(1326,) float64`` opponent weights.
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).
        r3, pos: the board's ranks with every three further cards (:func:`board_triple_ranks` of ``board``).

    Returns:
        ``hp (1326, 3, 3) float64`` (``hp[h, now, end]``, completions weighted ``w/K``,
        K = 52 - #dead - 4), ``hp_total (1326, 3) float64`` and ``npos (1326,) int64`` (number
        of positive-weight opponent holdings each holding faces; -1 for dead holdings, whose
        rows are 0).
    """
    live, n = _live_cards(dead)
    kk = n - 4
    r0 = rank_holdings_kernel(board, dead, tables)
    counts, nstate = hs_all_state_counts(r0, weights)
    npos = np.full(N_HOLDINGS, -1, dtype=np.int64)
    total = 0.0
    for h in range(N_HOLDINGS):
        if r0[h] > 0:
            npos[h] = nstate[0, h] + nstate[1, h] + nstate[2, h]
            total += weights[h]
    # cells below this are rounding residues of the inclusion-exclusion (see _snap)
    eps = total * 2.0**-36

    # local pair ids: pid[i, j] for i < j, with holding index and cards
    npairs = n * (n - 1) // 2
    pid = np.zeros((n, n), dtype=np.int64)
    phold = np.empty(npairs, dtype=np.int64)
    pa = np.empty(npairs, dtype=np.int64)
    pb = np.empty(npairs, dtype=np.int64)
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            pid[i, j] = p
            pid[j, i] = p
            phold[p] = HOLDING_INDEX[live[i], live[j]]
            pa[p] = i
            pb[p] = j
            p += 1

    # dense ranks on the current board: global g0 (1..G) and per card (1..M) for each holding
    items = np.arange(npairs)
    keys0 = np.empty(npairs, dtype=np.int64)
    for q in range(npairs):
        keys0[q] = r0[phold[q]]
    order = np.empty(npairs, dtype=np.int64)
    tmp = np.empty(npairs, dtype=np.int64)
    cnt = np.empty(129, dtype=np.int64)
    radix_sort_by_rank(items, npairs, keys0, tmp, order, cnt)
    g0 = np.empty(npairs, dtype=np.int64)
    ga = np.empty(npairs, dtype=np.int64)
    gb = np.empty(npairs, dtype=np.int64)
    last_c = np.full(n, -1, dtype=np.int64)
    cnt_c = np.zeros(n, dtype=np.int64)
    g = 0
    last = -1
    for t in range(npairs):
        q = order[t]
        r = keys0[q]
        if r != last:
            g += 1
            last = r
        g0[q] = g
        i = pa[q]
        if last_c[i] != r:
            cnt_c[i] += 1
            last_c[i] = r
        ga[q] = cnt_c[i]
        j = pb[q]
        if last_c[j] != r:
            cnt_c[j] += 1
            last_c[j] = r
        gb[q] = cnt_c[j]
    big_g = g
    big_m = 0
    for i in range(n):
        if cnt_c[i] > big_m:
            big_m = cnt_c[i]
    wp = np.empty(npairs)
    for q in range(npairs):
        wp[q] = weights[phold[q]]

    # next-street ranks: r1[x, q] = rank of pair q with next card x, from the board's 3-card ranks
    r1 = np.zeros((n, npairs), dtype=np.int64)
    for i in range(n):
        pi = pos[live[i]]
        for j in range(i + 1, n):
            pj = pos[live[j]]
            pij = pid[i, j]
            for k in range(j + 1, n):
                r = np.int64(r3[pi, pj, pos[live[k]]])
                r1[i, pid[j, k]] = r
                r1[j, pid[i, k]] = r
                r1[k, pij] = r

    pre_lt = np.zeros(npairs)
    pre_eq = np.zeros(npairs)
    pre_gt = np.zeros(npairs)
    post_lt = np.zeros(npairs)
    post_eq = np.zeros(npairs)
    post_gt = np.zeros(npairs)
    gbit = np.zeros((1, big_g + 1))
    geq = np.zeros(big_g + 1)
    cbit = np.zeros((n, big_m + 1))
    ceq = np.zeros((n, big_m + 1))
    ctot = np.zeros(n)
    m_items = np.empty(npairs, dtype=np.int64)
    for x in range(n):
        row = r1[x]
        m = 0
        for q in range(npairs):
            if pa[q] != x and pb[q] != x:
                m_items[m] = q
                m += 1
        radix_sort_by_rank(m_items, m, row, tmp, order, cnt)
        gbit[0, :] = 0.0
        geq[:] = 0.0
        cbit[:, :] = 0.0
        ceq[:, :] = 0.0
        ctot[:] = 0.0
        gtot = 0.0
        s = 0
        while s < m:
            r = row[order[s]]
            e = s + 1
            while e < m and row[order[e]] == r:
                e += 1
            for t in range(s, e):
                q = order[t]
                i = pa[q]
                j = pb[q]
                gq = g0[q]
                ia = ga[q]
                ib = gb[q]
                lt = _bit_prefix(gbit, 0, gq - 1) - _bit_prefix(cbit, i, ia - 1) - _bit_prefix(cbit, j, ib - 1)
                eq = geq[gq] - ceq[i, ia] - ceq[j, ib]
                gt = gtot - ctot[i] - ctot[j] - lt - eq
                pre_lt[q] += lt
                pre_eq[q] += eq
                pre_gt[q] += gt
                if e - s == 1:
                    post_lt[q] += lt
                    post_eq[q] += eq
                    post_gt[q] += gt
            for t in range(s, e):
                q = order[t]
                w = wp[q]
                if w == 0.0:
                    continue
                i = pa[q]
                j = pb[q]
                gq = g0[q]
                _bit_add(gbit, 0, gq, big_g, w)
                geq[gq] += w
                gtot += w
                _bit_add(cbit, i, ga[q], big_m, w)
                ceq[i, ga[q]] += w
                ctot[i] += w
                _bit_add(cbit, j, gb[q], big_m, w)
                ceq[j, gb[q]] += w
                ctot[j] += w
            if e - s > 1:
                for t in range(s, e):
                    q = order[t]
                    w = wp[q]
                    i = pa[q]
                    j = pb[q]
                    gq = g0[q]
                    ia = ga[q]
                    ib = gb[q]
                    lt = _bit_prefix(gbit, 0, gq - 1) - _bit_prefix(cbit, i, ia - 1) - _bit_prefix(cbit, j, ib - 1)
                    eq = geq[gq] - ceq[i, ia] - ceq[j, ib] + w
                    gt = gtot - ctot[i] - ctot[j] + w - lt - eq
                    post_lt[q] += lt
                    post_eq[q] += eq
                    post_gt[q] += gt
            s = e

    hp = np.zeros((N_HOLDINGS, 3, 3))
    hp_total = np.zeros((N_HOLDINGS, 3))
    for q in range(npairs):
        h = phold[q]
        ta = counts[0, h]
        tt = counts[1, h]
        tb = counts[2, h]
        hp_total[h, 0] = ta
        hp_total[h, 1] = tt
        hp_total[h, 2] = tb
        plt = pre_lt[q]
        peq = pre_eq[q]
        pgt = pre_gt[q]
        # rows of a state with no positive-weight opponent holding are exactly 0
        if nstate[0, h] > 0:
            hp[h, 0, 0] = _snap(plt, eps) / kk
            hp[h, 0, 1] = _snap(post_lt[q] - plt, eps) / kk
            hp[h, 0, 2] = _snap(kk * ta - post_lt[q], eps) / kk
        if nstate[1, h] > 0:
            hp[h, 1, 0] = _snap(peq, eps) / kk
            hp[h, 1, 1] = _snap(post_eq[q] - peq, eps) / kk
            hp[h, 1, 2] = _snap(kk * tt - post_eq[q], eps) / kk
        if nstate[2, h] > 0:
            hp[h, 2, 0] = _snap(pgt, eps) / kk
            hp[h, 2, 1] = _snap(post_gt[q] - pgt, eps) / kk
            hp[h, 2, 2] = _snap(kk * tb - post_gt[q], eps) / kk
    return hp, hp_total, npos
