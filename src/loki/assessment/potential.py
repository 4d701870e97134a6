"""Hand potential: PPot and NPot (PAPP98 papp/node40; PENA99 pena/node23; AAAI98).

For every opponent holding ``h`` (weight ``w[h]``) we note our state **now**, on the
current board, and at the **end**, after the next card(s), each one of ahead / tied /
behind (indices :data:`~loki.assessment.strength.AHEAD` = 0, ``TIED`` = 1, ``BEHIND`` = 2)::

    HPTotal[now]    += w[h]                       once per holding
    HP[now][end]    += w[h] / K                   once per board completion

    PPot = (HP[B][A] + HP[B][T]/2 + HP[T][A]/2) / (HPTotal[B] + HPTotal[T]/2)
    NPot = (HP[A][B] + HP[A][T]/2 + HP[T][B]/2) / (HPTotal[A] + HPTotal[T]/2)

``K`` is the number of completions of the board for one (our holding, opponent holding)
pair: 45 turn cards on the flop (PPot1), 44 river cards on the turn (PPot1), 990
turn+river pairs on the flop (PPot2).  Adding ``w/K`` per completion, not ``w``, is the
**normalisation pitfall** of loki-algorithms.md §1.3: HP is accumulated K times per holding
but HPTotal once, and several public implementations forget to divide (GHCODE).  The
denominators carry the ``/2`` of the Wikipedia/CHAL02/GHCODE form; with both choices an
exact enumeration reproduces the published A♦Q♣ figures (below).

Conventions (DEFAULT, ours): a zero denominator gives 0 (PPot = 0 when we are ahead of
every opponent holding now; NPot = 0 when we are behind all of them).  On the river there
is no card to come: PPot = NPot = 0 and HP is all zeros (the 0/0 of the formulas is defined
as 0).  A 3×3 ``hp`` is indexed ``hp[now, end]``; ``hp_total`` is ``(ahead, tied, behind)``
in the same weight units as the HS counts.

Kernels (``@njit(cache=True)``, array in, array out):

* :func:`hp1_kernel`: one holding, one-card look-ahead (flop→turn, turn→river).  The
  opponent's next-street hand depends only on the 3-card set {next card, his two cards}, so
  each set is ranked once and used for its 3 splits: C(47,3) = 16,215 evaluations instead
  of 48,645 on the flop.
* :func:`hp2_kernel`: one holding, two-card look-ahead from the flop (PPot2).  The
  opponent's 7-card hand depends only on the 4-card set {turn, river, his two cards}:
  C(47,4) = 178,365 evaluations serve the 6 splits, the 1,070,190 (holding × turn+river)
  cases of papp/node40.
* :func:`hp1_all_kernel`: the 3×3 table, hence PPot1/NPot1, of **every** holding at once
  against one range (input to re-weighting).  Per next card: rank every holding once (a
  rank table filled from 3-card sets), radix-sort by the new rank, and sweep with Fenwick
  trees over the current-board rank (global, plus one per card for exact card removal by
  inclusion-exclusion).  One sweep gives, for every holding, the weight of opponent
  holdings in each (now, end) cell.  Inclusion-exclusion subtracts large sums, so a cell
  that is truly 0 can come out as a rounding residue (~1e-16 x the range's total weight);
  a row whose now-state holds no positive-weight holding (exact integer counts) is set to
  0, and cells below 2^-36 (~1.5e-11) x the total live weight are taken as 0.  Otherwise
  the results agree with the one-holding kernels to ~1e-12 relative.

Worked example (papp/node40, Table 5.1; AAAI98): A♦Q♣ on 3♥4♣J♥ against a uniform range.
Exact enumeration gives the 3×3 table (raw counts, rows now A/T/B, columns end A/T/B)
``[[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]]``, the published table,
so PPot2 = 92499/444015 = 0.2083 and NPot2 = 171379.5/626175 = 0.2737: the published 0.208
and 0.274, to three decimals.

>>> import numpy as np
>>> pp, npot = hand_potential("AdQc", "3h4cJh", np.ones(1326), lookahead=2)
>>> round(pp, 4), round(npot, 4)
(0.2083, 0.2737)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numba import njit

from loki.assessment.strength import (
    AHEAD,
    BEHIND,
    TIED,
    _board_key,
    _dead_array,
    check_cards,
    hs_all_counts_from_ranks,
    hs_all_state_counts,
    radix_sort_by_rank,
    rank_holdings_kernel,
)
from loki.cards import HOLDING_INDEX, N_HOLDINGS
from loki.evaluator import CARD_BIT, CARD_KEY, rank_from_key
from loki.weights import validate_weights

__all__ = [
    "hp1_kernel",
    "hp2_kernel",
    "hp1_all_kernel",
    "ppot_npot",
    "hand_potential_counts",
    "hand_potential",
    "hand_potential_all_counts",
    "hand_potential_all",
]


# ---------------------------------------------------------------------------------------
# kernels
# ---------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _state(ours, theirs):
    # 0 ahead, 1 tied, 2 behind
    if ours > theirs:
        return 0
    if ours == theirs:
        return 1
    return 2


@njit(cache=True)
def _live_cards(dead):
    live = np.empty(52, dtype=np.int64)
    n = 0
    for c in range(52):
        if not dead[c]:
            live[n] = c
            n += 1
    return live, n


@njit(cache=True)
def _pair_tables(c0, c1, board, weights):
    """Shared set-up of the one-holding kernels: live cards, our current rank, and per local
    pair (i, j) of live cards the opponent weight ``wq`` and ``3 * now_state`` (``base``)."""
    dead = np.zeros(52, dtype=np.bool_)
    for c in board:
        dead[c] = True
    dead[c0] = True
    dead[c1] = True
    live, n = _live_cards(dead)
    bk, bb = _board_key(board)
    ok = bk + CARD_KEY[c0] + CARD_KEY[c1]
    ob = bb | CARD_BIT[c0] | CARD_BIT[c1]
    ours_now = rank_from_key(ok, ob)
    wq = np.zeros((n, n))
    base = np.zeros((n, n), dtype=np.int64)
    hp_total = np.zeros(3)
    for i in range(n):
        a = live[i]
        ka = bk + CARD_KEY[a]
        ba = bb | CARD_BIT[a]
        for j in range(i + 1, n):
            b = live[j]
            w = weights[HOLDING_INDEX[a, b]]
            if w == 0.0:
                continue
            s = _state(ours_now, rank_from_key(ka + CARD_KEY[b], ba | CARD_BIT[b]))
            wq[i, j] = w
            wq[j, i] = w
            base[i, j] = 3 * s
            base[j, i] = 3 * s
            hp_total[s] += w
    return live, n, bk, bb, ok, ob, wq, base, hp_total


@njit(cache=True)
def hp1_kernel(c0, c1, board, weights):
    """3×3 HP and HPTotal of holding ``(c0, c1)`` with a one-card look-ahead (PAPP98 papp/node40).

    Args:
        c0, c1: our hole cards.
        board: ``(3,)`` or ``(4,) int64`` board, disjoint from the hole cards (not checked).
        weights: ``(1326,) float64`` opponent weights; clashing holdings are ignored.

    Returns:
        ``hp (3, 3) float64`` (``hp[now, end]``, each completion weighted ``w/K``, K = 45 on
        the flop, 44 on the turn) and ``hp_total (3,) float64`` (ahead, tied, behind now).
    """
    live, n, bk, bb, ok, ob, wq, base, hp_total = _pair_tables(c0, c1, board, weights)
    our_end = np.empty(n, dtype=np.int64)
    for i in range(n):
        x = live[i]
        our_end[i] = rank_from_key(ok + CARD_KEY[x], ob | CARD_BIT[x])
    hp = np.zeros(9)
    for i in range(n):
        ci = live[i]
        ki = bk + CARD_KEY[ci]
        bi = bb | CARD_BIT[ci]
        for j in range(i + 1, n):
            cj = live[j]
            kij = ki + CARD_KEY[cj]
            bij = bi | CARD_BIT[cj]
            wij = wq[i, j]
            for k in range(j + 1, n):
                wik = wq[i, k]
                wjk = wq[j, k]
                if wij == 0.0 and wik == 0.0 and wjk == 0.0:
                    continue
                ck = live[k]
                r = rank_from_key(kij + CARD_KEY[ck], bij | CARD_BIT[ck])
                # next card i, opponent (j, k); next card j, opponent (i, k); next card k, opponent (i, j)
                hp[base[j, k] + _state(our_end[i], r)] += wjk
                hp[base[i, k] + _state(our_end[j], r)] += wik
                hp[base[i, j] + _state(our_end[k], r)] += wij
    kk = n - 2
    out = np.empty((3, 3))
    for s in range(3):
        for e in range(3):
            out[s, e] = hp[3 * s + e] / kk
    return out, hp_total


@njit(cache=True)
def hp2_kernel(c0, c1, board, weights):
    """3×3 HP and HPTotal of holding ``(c0, c1)`` with the two-card look-ahead from the flop (PPot2).

    Args:
        c0, c1: our hole cards.
        board: ``(3,) int64`` flop, disjoint from the hole cards (not checked).
        weights: ``(1326,) float64`` opponent weights; clashing holdings are ignored.

    Returns:
        ``hp (3, 3) float64`` (each of the 990 turn+river completions weighted ``w/990``)
        and ``hp_total (3,) float64``.  1,070,190 (holding, completion) cases with a
        uniform range (papp/node40), from 178,365 hand evaluations.
    """
    live, n, bk, bb, ok, ob, wq, base, hp_total = _pair_tables(c0, c1, board, weights)
    our_end = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        ki = ok + CARD_KEY[live[i]]
        bi = ob | CARD_BIT[live[i]]
        for j in range(i + 1, n):
            r = rank_from_key(ki + CARD_KEY[live[j]], bi | CARD_BIT[live[j]])
            our_end[i, j] = r
            our_end[j, i] = r
    hp = np.zeros(9)
    for i in range(n):
        ki = bk + CARD_KEY[live[i]]
        bi = bb | CARD_BIT[live[i]]
        for j in range(i + 1, n):
            kij = ki + CARD_KEY[live[j]]
            bij = bi | CARD_BIT[live[j]]
            oij = our_end[i, j]
            wij = wq[i, j]
            bsij = base[i, j]
            for k in range(j + 1, n):
                kijk = kij + CARD_KEY[live[k]]
                bijk = bij | CARD_BIT[live[k]]
                oik = our_end[i, k]
                ojk = our_end[j, k]
                wik = wq[i, k]
                wjk = wq[j, k]
                bsik = base[i, k]
                bsjk = base[j, k]
                for m in range(k + 1, n):
                    cm = live[m]
                    r = rank_from_key(kijk + CARD_KEY[cm], bijk | CARD_BIT[cm])
                    # (turn+river | opponent): (ij|km) (ik|jm) (im|jk) (jk|im) (jm|ik) (km|ij)
                    hp[base[k, m] + _state(oij, r)] += wq[k, m]
                    hp[base[j, m] + _state(oik, r)] += wq[j, m]
                    hp[bsjk + _state(our_end[i, m], r)] += wjk
                    hp[base[i, m] + _state(ojk, r)] += wq[i, m]
                    hp[bsik + _state(our_end[j, m], r)] += wik
                    hp[bsij + _state(our_end[k, m], r)] += wij
    kk = (n - 2) * (n - 3) // 2
    out = np.empty((3, 3))
    for s in range(3):
        for e in range(3):
            out[s, e] = hp[3 * s + e] / kk
    return out, hp_total


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
def hp1_all_kernel(board, dead, weights):
    """3×3 HP and HPTotal of **every** holding against one range, one-card look-ahead.

    For each holding ``h`` sharing no card with ``dead`` (which must contain the board) the
    same numbers as :func:`hp1_kernel` would give for ``h`` against ``weights`` with the
    extra ``dead`` cards removed from the opponent's holdings and from the next cards.

    Args:
        board: ``(3,)`` or ``(4,) int64`` board.
        dead: ``(52,) bool`` known cards (board plus any extra dead cards).
        weights: ``(1326,) float64`` opponent weights.

    Returns:
        ``hp (1326, 3, 3) float64`` (``hp[h, now, end]``, completions weighted ``w/K``,
        K = 52 - #dead - 4), ``hp_total (1326, 3) float64`` and ``npos (1326,) int64`` (number
        of positive-weight opponent holdings each holding faces; -1 for dead holdings, whose
        rows are 0).
    """
    live, n = _live_cards(dead)
    kk = n - 4
    bk, bb = _board_key(board)
    r0 = rank_holdings_kernel(board, dead)
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

    # next-street ranks: r1[x, q] = rank of pair q with next card x, from 3-card sets
    r1 = np.zeros((n, npairs), dtype=np.int64)
    for i in range(n):
        ki = bk + CARD_KEY[live[i]]
        bi = bb | CARD_BIT[live[i]]
        for j in range(i + 1, n):
            kij = ki + CARD_KEY[live[j]]
            bij = bi | CARD_BIT[live[j]]
            pij = pid[i, j]
            for k in range(j + 1, n):
                ck = live[k]
                r = rank_from_key(kij + CARD_KEY[ck], bij | CARD_BIT[ck])
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


@njit(cache=True)
def ppot_npot_kernel(hp, hp_total):
    """PPot, NPot from one ``hp (3, 3)`` and ``hp_total (3,)`` (0 where a denominator is 0)."""
    dp = hp_total[2] + 0.5 * hp_total[1]
    dn = hp_total[0] + 0.5 * hp_total[1]
    pp = (hp[2, 0] + 0.5 * hp[2, 1] + 0.5 * hp[1, 0]) / dp if dp > 0.0 else 0.0
    nn = (hp[0, 2] + 0.5 * hp[0, 1] + 0.5 * hp[1, 2]) / dn if dn > 0.0 else 0.0
    return pp, nn


# ---------------------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------------------
def ppot_npot(hp, hp_total):
    """PPot and NPot from HP tables (PAPP98 papp/node40; /2 denominators, loki-algorithms.md §1.3).

    Args:
        hp: ``(3, 3)`` or ``(N, 3, 3)`` float64, ``hp[..., now, end]`` already normalised per
            completion (``w/K``).
        hp_total: ``(3,)`` or ``(N, 3)`` float64 (ahead, tied, behind now).

    Returns:
        ``(ppot, npot)``: floats, or ``(N,) float64`` arrays.  0 where a denominator is 0 (DEFAULT).

    >>> hp = np.array([[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]]) / 990
    >>> [round(float(v), 3) for v in ppot_npot(hp, np.array([628.0, 9.0, 444.0]))]
    [0.208, 0.274]
    """
    hp = np.asarray(hp, dtype=np.float64)
    tot = np.asarray(hp_total, dtype=np.float64)
    A, T, B = AHEAD, TIED, BEHIND
    dp = tot[..., B] + 0.5 * tot[..., T]
    dn = tot[..., A] + 0.5 * tot[..., T]
    num_p = hp[..., B, A] + 0.5 * hp[..., B, T] + 0.5 * hp[..., T, A]
    num_n = hp[..., A, B] + 0.5 * hp[..., A, T] + 0.5 * hp[..., T, B]
    with np.errstate(divide="ignore", invalid="ignore"):
        pp = np.where(dp > 0, num_p / np.where(dp > 0, dp, 1.0), 0.0)
        nn = np.where(dn > 0, num_n / np.where(dn > 0, dn, 1.0), 0.0)
    if pp.ndim == 0:
        return float(pp), float(nn)
    return pp, nn


def _check_lookahead(lookahead, board_len: int) -> int:
    if lookahead not in (1, 2) or isinstance(lookahead, bool):
        raise ValueError(f"lookahead: expected 1 or 2, got {lookahead!r}")
    if lookahead == 2 and board_len != 3:
        raise ValueError(f"lookahead: the two-card look-ahead (PPot2) needs a 3-card board, got {board_len} cards")
    return int(lookahead)


def hand_potential_counts(hole, board, weights, lookahead: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The 3×3 HP table and HPTotal of our holding against one range (PAPP98 papp/node40).

    Args:
        hole: our two hole cards (text or ints).
        board: 3, 4 or 5 cards.
        weights: ``(1326,)`` opponent weights or a WeightTable.
        lookahead: 1 (next card: 45 on the flop, 44 on the turn) or 2 (turn and river, flop only).

    Returns:
        ``hp (3, 3) float64`` (``hp[now, end]``, normalised ``w/K``) and
        ``hp_total (3,) float64``.  On the river ``hp`` is all zeros (no card to come).

    Raises:
        ValueError: bad or overlapping cards, wrong board size, invalid weights,
            ``lookahead`` not 1 or 2, or 2 off the flop.
    """
    h, b, _ = check_cards(hole, board)
    la = _check_lookahead(lookahead, len(b))
    w = validate_weights(weights, "weights")
    bd = np.asarray(b, dtype=np.int64)
    if len(b) == 5:
        from loki.assessment.strength import hs_counts_kernel

        return np.zeros((3, 3)), np.array(hs_counts_kernel(h[0], h[1], bd, w))
    if la == 2:
        return hp2_kernel(h[0], h[1], bd, w)
    return hp1_kernel(h[0], h[1], bd, w)


def hand_potential(hole, board, weights, lookahead: int = 1) -> tuple[float, float]:
    """``(PPot, NPot)`` of our holding against one range (PAPP98 papp/node40; PENA99 pena/node23).

    PPot1/NPot1 with ``lookahead=1`` (flop or turn), PPot2/NPot2 with ``lookahead=2`` (flop
    only).  ``(0.0, 0.0)`` on the river (DEFAULT: nothing to come).

    Raises:
        ValueError: as :func:`hand_potential_counts`.
    """
    hp, tot = hand_potential_counts(hole, board, weights, lookahead)
    return ppot_npot(hp, tot)


def hand_potential_all_counts(board, weights, dead: Iterable = ()):
    """HP tables of **every** holding at once, one-card look-ahead (input to re-weighting).

    Args:
        board: 3, 4 or 5 cards (on the river ``hp`` is all zeros).
        weights: ``(1326,)`` opponent weights or a WeightTable.
        dead: extra known cards, removed from opponent holdings and from the next cards.

    Returns:
        ``hp (1326, 3, 3)``, ``hp_total (1326, 3)`` float64 and ``npos (1326,) int64``
        (see :func:`hp1_all_kernel`).

    Raises:
        ValueError: bad or overlapping cards, invalid weights.
    """
    _, b, d = check_cards(None, board, dead=dead)
    w = validate_weights(weights, "weights")
    if len(b) < 5 and 52 - len(b) - len(d) < 5:
        raise ValueError(f"dead: {len(d)} dead cards leave no next card for a pair of holdings")
    bd = np.asarray(b, dtype=np.int64)
    dd = _dead_array(b + d)
    if len(b) == 5:
        counts, npos = hs_all_counts_from_ranks(rank_holdings_kernel(bd, dd), w)
        return np.zeros((N_HOLDINGS, 3, 3)), np.ascontiguousarray(counts.T), npos
    return hp1_all_kernel(bd, dd, w)


def hand_potential_all(board, weights, dead: Iterable = (), fill: float = np.nan) -> tuple[np.ndarray, np.ndarray]:
    """PPot1 and NPot1 of every holding against one range, ``(1326,) float64`` each.

    ``fill`` (NaN by default) where a holding clashes with ``board``/``dead`` or faces no
    positive opponent weight; 0 on the river.  Same values as :func:`hand_potential` per
    holding (with ``dead`` removed from the range and the deck).

    Raises:
        ValueError: as :func:`hand_potential_all_counts`.
    """
    hp, tot, npos = hand_potential_all_counts(board, weights, dead)
    pp, nn = ppot_npot(hp, tot)
    bad = npos <= 0
    pp[bad] = fill
    nn[bad] = fill
    return pp, nn
