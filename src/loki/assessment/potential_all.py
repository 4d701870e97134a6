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
    board_key,
    hs_all_state_counts,
    live_cards,
    radix_sort_by_rank,
    rank_holdings_kernel,
)
from loki.cards import HOLDING_INDEX, N_HOLDINGS
from loki.evaluator.kernels import rank_from_key

__all__ = ["hp1_all_kernel", "hp1_all_uniform_kernel", "board_triple_ranks", "local_pairs"]


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
    """The rank of the board with every three of the other cards, for the one-card look-ahead kernels.

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
    others, m = live_cards(dead)
    pos = np.full(52, -1, dtype=np.int64)
    for i in range(m):
        pos[others[i]] = i
    card_key, card_bit = tables[0], tables[1]
    bk, bb = board_key(board, tables)
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
def local_pairs(live, n):
    """The pairs of the live cards ``live[:n]`` (ascending), numbered ``0 .. P - 1`` with ``P = n (n - 1) / 2`` in
    the order ``(0, 1), (0, 2), ..., (n - 2, n - 1)`` of their local indices: the opponent holdings of the one-card
    look-ahead kernels.

    Returns:
        ``P``; ``pid (n, n) int64`` the pair of local cards ``i != j`` (symmetric, the diagonal 0); ``phold (P,)
        int64`` each pair's holding index (:data:`loki.cards.HOLDING_INDEX`); ``pa, pb (P,) int64`` its two local
        cards, ``pa < pb``.
    """
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
    return npairs, pid, phold, pa, pb


@njit(cache=True)
def _suit_images(board, dead, live, n, pid, pa, pb, npairs):
    """The board's suit symmetry, for :func:`hp1_all_uniform_kernel`: suits whose board cards and dead cards have the
    same ranks are interchangeable (swapping them maps the board and the dead cards to themselves, so every count of a
    next card of one equals the count of the swapped next card of the other, for the swapped pair).

    Returns ``canon (4,) int64`` (each suit's class representative, its smallest suit) and ``pmap (4, npairs) int64``
    (for a suit ``s`` that is not its own representative, ``pmap[s, q]``: the pair ``q`` with the suits ``s`` and
    ``canon[s]`` swapped; rows of representatives unused)."""
    ranks = np.zeros((4, 2), dtype=np.int64)  # per suit: the ranks of its board cards, of its dead cards (bit masks)
    for c in board:
        ranks[c & 3, 0] |= np.int64(1) << (c >> 2)
    for c in range(52):
        if dead[c]:
            ranks[c & 3, 1] |= np.int64(1) << (c >> 2)
    canon = np.arange(4)
    for s in range(4):
        for t in range(s):
            if canon[t] == t and ranks[s, 0] == ranks[t, 0] and ranks[s, 1] == ranks[t, 1]:
                canon[s] = t
                break
    loc = np.full(52, -1, dtype=np.int64)
    for i in range(n):
        loc[live[i]] = i
    pmap = np.zeros((4, npairs), dtype=np.int64)
    swapped = np.empty(n, dtype=np.int64)
    for s in range(4):
        t = canon[s]
        if t == s:
            continue
        for i in range(n):
            c = live[i]
            cs = c & 3
            swapped[i] = loc[(c & ~3) | (t if cs == s else (s if cs == t else cs))]
        for q in range(npairs):
            pmap[s, q] = pid[swapped[pa[q]], swapped[pb[q]]]
    return canon, pmap


@njit(cache=True)
def _current_order(r0, phold, npairs):
    # the pairs sorted by their rank on the current board (keys0[q] = that rank), with the sort's scratch arrays
    items = np.arange(npairs)
    keys0 = np.empty(npairs, dtype=np.int64)
    for q in range(npairs):
        keys0[q] = r0[phold[q]]
    order = np.empty(npairs, dtype=np.int64)
    tmp = np.empty(npairs, dtype=np.int64)
    cnt = np.empty(129, dtype=np.int64)
    radix_sort_by_rank(items, npairs, keys0, tmp, order, cnt)
    return keys0, order, tmp, cnt


@njit(cache=True)
def _dense_ranks(order, keys0, pa, pb, n, npairs):
    # dense ranks on the current board, from the pairs in current-rank order: global g0 (1..G) and, per pair, its
    # rank among the pairs holding its first card (ga) and its second card (gb), 1..M; with G and M
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
    return g0, ga, gb, g, cnt_c.max()


@njit(cache=True)
def _fill_next_ranks(r1, live, n, pid, r3, pos):
    # r1[x, q]: the rank of pair q with next card x (local indices), read from the board's 3-card ranks r3
    for i in range(n):
        pi = pos[live[i]]
        for j in range(i + 1, n):
            pj = pos[live[j]]
            pij = pid[i, j]
            for k in range(j + 1, n):
                r = r3[pi, pj, pos[live[k]]]
                r1[i, pid[j, k]] = r
                r1[j, pid[i, k]] = r
                r1[k, pij] = r


@njit(cache=True)
def _hp_tables(npairs, phold, counts, nstate, pre_lt, pre_eq, pre_gt, post_lt, post_eq, post_gt, kk, eps):
    # the HP tables of every pair from its sweep sums: per state now (lt, eq, gt: opponents we are ahead of, tied
    # with, behind), "pre" the weight that ranks below us with the next card, "post" below or equal; HPTotal from
    # the current counts; each cell snapped (values at or below eps are 0) and divided by K = kk
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
    return hp, hp_total


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
    live, n = live_cards(dead)
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

    npairs, pid, phold, pa, pb = local_pairs(live, n)

    keys0, order, tmp, cnt = _current_order(r0, phold, npairs)
    g0, ga, gb, big_g, big_m = _dense_ranks(order, keys0, pa, pb, n, npairs)
    wp = np.empty(npairs)
    for q in range(npairs):
        wp[q] = weights[phold[q]]

    # next-street ranks: r1[x, q] = rank of pair q with next card x, from the board's 3-card ranks
    r1 = np.zeros((n, npairs), dtype=np.int64)
    _fill_next_ranks(r1, live, n, pid, r3, pos)

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

    hp, hp_total = _hp_tables(npairs, phold, counts, nstate, pre_lt, pre_eq, pre_gt, post_lt, post_eq, post_gt, kk, eps)
    return hp, hp_total, npos


@njit(cache=True, inline="always")
def _popcount(x):
    # bits set in a uint64 (SWAR; numba has no portable popcount intrinsic)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _word_prefix(bit, i):
    # Fenwick prefix over the per-word counts of placed pairs
    s = 0
    while i > 0:
        s += bit[i]
        i &= i - 1
    return s


@njit(cache=True)
def _radix_sort_packed(vals, n, tmp, out, cnt):
    # stable LSD radix sort of vals[:n] (rank << 11 | item, ranks < 8192) by rank into out[:n]: 7 bits then 6
    for i in range(129):
        cnt[i] = 0
    for i in range(n):
        cnt[((vals[i] >> 11) & 127) + 1] += 1
    for i in range(128):
        cnt[i + 1] += cnt[i]
    for i in range(n):
        v = vals[i]
        d = (v >> 11) & 127
        tmp[cnt[d]] = v
        cnt[d] += 1
    for i in range(65):
        cnt[i] = 0
    for i in range(n):
        cnt[(tmp[i] >> 18) + 1] += 1
    for i in range(64):
        cnt[i + 1] += cnt[i]
    for i in range(n):
        v = tmp[i]
        d = v >> 18
        out[cnt[d]] = v
        cnt[d] += 1


@njit(cache=True, inline="always")
def _placed_counts(q, rec, mrec, below, words, cbits, geq, ceq, ctot, gtot, itself):
    # of the pairs placed so far that share no card with pair q (``itself`` 1 when q is placed: not counted), how
    # many rank below, equal to and above q on the current board
    one = np.uint64(1)
    i = rec[q, 0]
    j = rec[q, 1]
    f = rec[q, 2]
    wf = f >> 6
    lt = (
        _word_prefix(below, wf)
        + _popcount(words[wf] & ((one << np.uint64(f & 63)) - one))
        - _popcount(cbits[i] & mrec[q, 0])
        - _popcount(cbits[j] & mrec[q, 1])
    )
    eq = geq[rec[q, 3]] - ceq[i, rec[q, 4]] - ceq[j, rec[q, 5]] + itself
    gt = gtot - ctot[i] - ctot[j] + itself - lt - eq
    return lt, eq, gt


@njit(cache=True)
def hp1_all_uniform_kernel(board, dead, tables, r3, pos):  # noqa: C901 - the counting sweep of a numba kernel, kept whole
    """:func:`hp1_all_kernel` against the **uniform** range (every weight 1.0), counted in integers.

    The same ``hp``, ``hp_total`` and ``npos``, bit for bit: against the uniform range every sum
    :func:`hp1_all_kernel` forms is a whole number far below 2^53, so its floats are exact and its
    rounding snap never fires; here the same numbers are counted in integers and divided by ``K``
    at the end, as there (a test checks equality on flops and turns, with extra dead cards).

    The sweep is the same (per next card, the pairs in ascending order of their new rank), but a
    count is a bit: the pairs already placed are bits in current-rank order, globally (with a
    running count per 64-bit word) and per card (the 47 or 48 pairs holding a card fit one word),
    so "how many placed pairs rank below me now" is a word count plus a popcount instead of the
    Fenwick trees' O(log) dependent steps.  Next cards related by the board's suit symmetry (suits whose board and
    dead cards have the same ranks, :func:`_suit_images`) are swept once: the counts of a next card of an
    interchangeable suit are those of its representative's, for the swapped pairs (two suits missing from a two-tone
    flop: 13 of the 49 next cards are skipped; three from a monotone one: 26 of 49).  DEFAULT: used for the board-only values
    (:func:`loki.assessment.uniform_board_values`).

    Args:
        board, dead, tables, r3, pos: as :func:`hp1_all_kernel`.

    Returns:
        ``hp (1326, 3, 3) float64``, ``hp_total (1326, 3) float64``, ``npos (1326,) int64``: as
        :func:`hp1_all_kernel` with ``weights = np.ones(1326)``.
    """
    live, n = live_cards(dead)
    kk = n - 4
    r0 = rank_holdings_kernel(board, dead, tables)
    counts, nstate = hs_all_state_counts(r0, np.ones(N_HOLDINGS))
    npos = np.full(N_HOLDINGS, -1, dtype=np.int64)
    for h in range(N_HOLDINGS):
        if r0[h] > 0:
            npos[h] = nstate[0, h] + nstate[1, h] + nstate[2, h]

    npairs, pid, phold, pa, pb = local_pairs(live, n)

    # current-rank order: global position u, first position of the tie group gf, dense rank g0 (for the tie
    # counts); per card (a and b of the pair) the local position's bit and the bits of the pairs ranking below
    keys0, order, tmp, cnt = _current_order(r0, phold, npairs)
    g0, ga, gb, big_g, big_m = _dense_ranks(order, keys0, pa, pb, n, npairs)
    u = np.empty(npairs, dtype=np.int64)
    gf = np.empty(npairs, dtype=np.int64)
    bit_a = np.empty(npairs, dtype=np.uint64)
    bit_b = np.empty(npairs, dtype=np.uint64)
    low_a = np.empty(npairs, dtype=np.uint64)
    low_b = np.empty(npairs, dtype=np.uint64)
    n_c = np.zeros(n, dtype=np.int64)  # pairs of the card seen so far
    last_d = np.zeros(n, dtype=np.int64)  # the card's dense rank last seen (ranks start at 1)
    first_c = np.zeros(n, dtype=np.int64)  # local position where the card's current tie group starts
    one = np.uint64(1)
    last_g = 0
    first = 0
    for t in range(npairs):
        q = order[t]
        if g0[q] != last_g:
            last_g = g0[q]
            first = t
        u[q] = t
        gf[q] = first
        for side in range(2):
            c = pa[q] if side == 0 else pb[q]
            d = ga[q] if side == 0 else gb[q]
            if last_d[c] != d:
                last_d[c] = d
                first_c[c] = n_c[c]
            b = one << np.uint64(n_c[c])
            lo = (one << np.uint64(first_c[c])) - one
            n_c[c] += 1
            if side == 0:
                bit_a[q] = b
                low_a[q] = lo
            else:
                bit_b[q] = b
                low_b[q] = lo
    nwords = (npairs >> 6) + 1

    r1 = np.zeros((n, npairs), dtype=np.int16)  # ranks < 8192: int16 keeps the table in cache
    _fill_next_ranks(r1, live, n, pid, r3, pos)

    # each pair's facts in one record (the sweep visits pairs in a new order for every next card)
    rec = np.empty((npairs, 8), dtype=np.int64)
    mrec = np.empty((npairs, 4), dtype=np.uint64)
    for q in range(npairs):
        rec[q, 0] = pa[q]
        rec[q, 1] = pb[q]
        rec[q, 2] = gf[q]
        rec[q, 3] = g0[q]
        rec[q, 4] = ga[q]
        rec[q, 5] = gb[q]
        rec[q, 6] = u[q]
        mrec[q, 0] = low_a[q]
        mrec[q, 1] = low_b[q]
        mrec[q, 2] = bit_a[q]
        mrec[q, 3] = bit_b[q]
    acc = np.zeros((npairs, 8), dtype=np.int64)
    canon, pmap = _suit_images(board, dead, live, n, pid, pa, pb, npairs)
    images = np.zeros(4, dtype=np.int64)  # how many other suits each representative stands for
    for t in range(4):
        if canon[t] != t:
            images[canon[t]] += 1
    acc_x = np.zeros((npairs, 8), dtype=np.int64)  # one next card's counts, where other suits are its images
    words = np.zeros(nwords, dtype=np.uint64)  # placed pairs, bit u
    below = np.zeros(nwords + 1, dtype=np.int64)  # placed pairs in the words before
    geq = np.zeros(big_g + 1, dtype=np.int64)
    cbits = np.zeros(n, dtype=np.uint64)
    ceq = np.zeros((n, big_m + 1), dtype=np.int64)
    ctot = np.zeros(n, dtype=np.int64)
    # per next card, the pairs without it as (new rank << 11 | pair), sorted by rank (LSD radix, 7 + 6 bits)
    packed = np.empty(npairs, dtype=np.int64)
    keyed = np.empty(npairs, dtype=np.int64)
    for x in range(n):
        sx = live[x] & 3
        if canon[sx] != sx:
            continue  # an image of a next card of its representative suit, counted with it below
        dst = acc
        if images[sx] > 0:
            acc_x[:, :] = 0
            dst = acc_x
        row = r1[x]
        m = 0
        for q in range(npairs):
            if pa[q] != x and pb[q] != x:
                packed[m] = (np.int64(row[q]) << 11) | q
                m += 1
        _radix_sort_packed(packed, m, tmp, keyed, cnt)
        for t in range(m):
            order[t] = keyed[t] & 2047
        words[:] = 0
        below[:] = 0
        geq[:] = 0
        cbits[:] = 0
        ceq[:, :] = 0
        ctot[:] = 0
        gtot = 0
        s = 0
        while s < m:
            r = keyed[s] >> 11
            e = s + 1
            while e < m and (keyed[e] >> 11) == r:
                e += 1
            for t in range(s, e):
                q = order[t]
                lt, eq, gt = _placed_counts(q, rec, mrec, below, words, cbits, geq, ceq, ctot, gtot, 0)
                dst[q, 0] += lt
                dst[q, 1] += eq
                dst[q, 2] += gt
                if e - s == 1:
                    dst[q, 3] += lt
                    dst[q, 4] += eq
                    dst[q, 5] += gt
            for t in range(s, e):
                q = order[t]
                i = rec[q, 0]
                j = rec[q, 1]
                uq = rec[q, 6]
                wq = uq >> 6
                words[wq] |= one << np.uint64(uq & 63)
                k = wq + 1
                while k <= nwords:
                    below[k] += 1
                    k += k & (-k)
                geq[rec[q, 3]] += 1
                gtot += 1
                cbits[i] |= mrec[q, 2]
                ceq[i, rec[q, 4]] += 1
                ctot[i] += 1
                cbits[j] |= mrec[q, 3]
                ceq[j, rec[q, 5]] += 1
                ctot[j] += 1
            if e - s > 1:
                for t in range(s, e):
                    q = order[t]
                    lt, eq, gt = _placed_counts(q, rec, mrec, below, words, cbits, geq, ceq, ctot, gtot, 1)
                    dst[q, 3] += lt
                    dst[q, 4] += eq
                    dst[q, 5] += gt
            s = e
        if images[sx] > 0:  # this next card's counts, and those of its images in the suits it stands for
            for q in range(npairs):
                for k in range(6):
                    acc[q, k] += acc_x[q, k]
            for t in range(4):
                if t != sx and canon[t] == sx:
                    for q in range(npairs):
                        p = pmap[t, q]
                        for k in range(6):
                            acc[q, k] += acc_x[p, k]

    # whole numbers below 2^53: their floats are exact, and nothing is snapped (eps 0)
    f = acc.astype(np.float64)
    hp, hp_total = _hp_tables(
        npairs, phold, counts, nstate, f[:, 0], f[:, 1], f[:, 2], f[:, 3], f[:, 4], f[:, 5], kk, 0.0
    )
    return hp, hp_total, npos
