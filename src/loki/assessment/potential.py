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

Kernels (``@njit(cache=True)``, array in, array out; the last argument ``tables`` is the
evaluator tables, :func:`loki.evaluator.kernel_tables`, which the Python wrappers pass):

* :func:`hp1_kernel`: one holding, one-card look-ahead (flop→turn, turn→river).  The
  opponent's next-street hand depends only on the 3-card set {next card, his two cards}, so
  each set is ranked once and used for its 3 splits: C(47,3) = 16,215 evaluations instead
  of 48,645 on the flop.  It is two kernels: :func:`hp1_counts_kernel` counts, per opponent
  holding, the next cards that leave us ahead, tied or behind (no weights: a player's
  decisions on one board share them), and :func:`hp1_from_counts` weights the counts with a
  range (``w × count`` is the ``w/K`` of each completion, grouped; K divided out at the end).
* :func:`hp2_kernel`: one holding, two-card look-ahead from the flop (PPot2).  The
  opponent's 7-card hand depends only on the 4-card set {turn, river, his two cards}:
  C(47,4) = 178,365 evaluations serve the 6 splits, the 1,070,190 (holding × turn+river)
  cases of papp/node40.
* :func:`~loki.assessment.potential_all.hp1_all_kernel` (in
  :mod:`loki.assessment.potential_all`, re-exported here): the 3×3 table, hence PPot1/NPot1,
  of **every** holding at once against one range (input to re-weighting), by a radix sort
  and Fenwick-tree sweep per next card; it agrees with the one-holding kernel to ~1e-12
  relative.

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
from functools import lru_cache

import numpy as np

from loki._jit import njit
from loki.assessment.potential_all import board_triple_ranks, hp1_all_kernel, hp1_all_uniform_kernel, local_pairs
from loki.assessment.strength import (
    AHEAD,
    BEHIND,
    TIED,
    board_key,
    check_cards,
    dead_array,
    hs_all_counts_from_ranks,
    hs_counts_kernel,
    live_cards,
    rank_holdings_kernel,
)
from loki.assessment.weights import validate_weights
from loki.cards import HOLDING_INDEX, N_HOLDINGS
from loki.errors import CardError, ConfigError
from loki.evaluator import kernel_tables
from loki.evaluator.kernels import rank_from_key

__all__ = [
    "showdown_counts_kernel",
    "hp1_kernel",
    "hp1_kernel_ranked",
    "hp1_counts_kernel",
    "hp1_from_counts",
    "board_triple_ranks",
    "triple_ranks",
    "hp2_kernel",
    "hp1_all_kernel",
    "hp1_all_uniform_kernel",
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
    # 0 ahead, 1 tied, 2 behind (without branches: the outcomes of an enumeration are not predictable)
    return (ours == theirs) + 2 * (ours < theirs)


@njit(cache=True)
def _hand_keys(c0, c1, board, tables):
    """The live cards (``live[:n]``), the board's evaluator key and bits ``(bk, bb)`` and our hand's ``(ok, ob)``."""
    dead = np.zeros(52, dtype=np.bool_)
    for c in board:
        dead[c] = True
    dead[c0] = True
    dead[c1] = True
    live, n = live_cards(dead)
    card_key, card_bit = tables[0], tables[1]
    bk, bb = board_key(board, tables)
    return live, n, bk, bb, bk + card_key[c0] + card_key[c1], bb | card_bit[c0] | card_bit[c1]


@njit(cache=True)
def _pair_tables(c0, c1, board, weights, tables):
    """Set-up of :func:`hp2_kernel`: live cards, our current rank, and per local pair (i, j) of live cards the
    opponent weight ``wq`` and ``3 * now_state`` (``base``)."""
    live, n, bk, bb, ok, ob = _hand_keys(c0, c1, board, tables)
    card_key, card_bit = tables[0], tables[1]
    ours_now = rank_from_key(ok, ob, tables)
    wq = np.zeros((n, n))
    base = np.zeros((n, n), dtype=np.int64)
    hp_total = np.zeros(3)
    for i in range(n):
        a = live[i]
        ka = bk + card_key[a]
        ba = bb | card_bit[a]
        for j in range(i + 1, n):
            b = live[j]
            w = weights[HOLDING_INDEX[a, b]]
            if w == 0.0:
                continue
            s = _state(ours_now, rank_from_key(ka + card_key[b], ba | card_bit[b], tables))
            wq[i, j] = w
            wq[j, i] = w
            base[i, j] = 3 * s
            base[j, i] = 3 * s
            hp_total[s] += w
    return live, n, bk, bb, ok, ob, wq, base, hp_total


@njit(cache=True)
def hp1_kernel(c0, c1, board, weights, tables):
    """3×3 HP and HPTotal of holding ``(c0, c1)`` with a one-card look-ahead (PAPP98 papp/node40).

    :func:`hp1_counts_kernel` (how many next cards leave us ahead, tied, behind each opponent holding) read by
    :func:`hp1_from_counts` (the weighted sums).

    Args:
        c0, c1: our hole cards.
        board: ``(3,)`` or ``(4,) int64`` board, disjoint from the hole cards (not checked).
        weights: ``(1326,) float64`` opponent weights; clashing holdings are ignored.
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        ``hp (3, 3) float64`` (``hp[now, end]``, each completion weighted ``w/K``, K = 45 on
        the flop, 44 on the turn) and ``hp_total (3,) float64`` (ahead, tied, behind now).
    """
    hold, now, ends, k = _hp1_counts(c0, c1, board, tables, _NO_R3, _NO_POS, False)
    return hp1_from_counts(hold, now, ends, k, weights)


@njit(cache=True)
def hp1_kernel_ranked(c0, c1, board, weights, tables, r3, pos):
    """:func:`hp1_kernel` with the board's ranks of every three further cards read from ``r3``
    (:func:`board_triple_ranks` of the same board) instead of evaluated: the same numbers."""
    hold, now, ends, k = hp1_counts_kernel(c0, c1, board, tables, r3, pos)
    return hp1_from_counts(hold, now, ends, k, weights)


_NO_R3 = np.zeros((0, 0, 0), dtype=np.int16)
_NO_POS = np.zeros(0, dtype=np.int64)


@njit(cache=True)
def hp1_counts_kernel(c0, c1, board, tables, r3, pos):
    """The one-card look-ahead of holding ``(c0, c1)`` counted per opponent holding, independent of any weights
    (PAPP98 papp/node40: the HP table's completions, grouped by opponent holding).

    The opponent's next-street hand depends only on the 3-card set {next card, his two cards}, so each set of three
    live cards is ranked once (read from ``r3``) and counted for its 3 splits.

    Args:
        c0, c1: our hole cards.
        board: ``(3,)`` or ``(4,) int64`` board, disjoint from the hole cards (not checked).
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).
        r3, pos: the board's ranks with every three further cards (:func:`board_triple_ranks` of ``board``).

    Returns:
        ``hold (P,) int16`` the opponent holdings sharing no card with ours or the board, P = C(n, 2) for the n live
        cards, in the order of their cards (the live cards ascending, the pairs ``i < j`` lexicographically); ``now
        (P,) int8`` our state against each now (0 ahead, 1 tied, 2 behind); ``ends (P, 3) int8``: of the ``K = n - 2``
        next cards (at most 45), how many leave us ahead, tied, behind it; and ``K``.  :func:`hp1_from_counts` weights them.
    """
    return _hp1_counts(c0, c1, board, tables, r3, pos, True)


@njit(cache=True)
def _hp1_counts(c0, c1, board, tables, r3, pos, ranked):
    live, n, bk, bb, ok, ob = _hand_keys(c0, c1, board, tables)
    card_key, card_bit = tables[0], tables[1]
    ours_now = rank_from_key(ok, ob, tables)
    npairs, slot, phold, pa, pb = local_pairs(live, n)
    hold = phold.astype(np.int16)
    now = np.empty(npairs, dtype=np.int8)
    for p in range(npairs):
        a = live[pa[p]]
        b = live[pb[p]]
        now[p] = _state(ours_now, rank_from_key(bk + card_key[a] + card_key[b], bb | card_bit[a] | card_bit[b], tables))
    our_end = np.empty(n, dtype=np.int64)
    for i in range(n):
        x = live[i]
        our_end[i] = rank_from_key(ok + card_key[x], ob | card_bit[x], tables)
    ends = np.zeros((npairs, 3), dtype=np.int8)
    for i in range(n):
        ci = live[i]
        ki = bk + card_key[ci]
        bi = bb | card_bit[ci]
        pi = pos[ci] if ranked else 0
        oi = our_end[i]
        for j in range(i + 1, n):
            cj = live[j]
            kij = ki + card_key[cj]
            bij = bi | card_bit[cj]
            pj = pos[cj] if ranked else 0
            oj = our_end[j]
            # the opponent (i, j)'s counts (next card k) in registers; (j, k) and (i, k) in memory (a new row each k)
            e0 = 0
            e1 = 0
            e2 = 0
            for k in range(j + 1, n):
                ck = live[k]
                if ranked:
                    r = np.int64(r3[pi, pj, pos[ck]])
                else:
                    r = rank_from_key(kij + card_key[ck], bij | card_bit[ck], tables)
                # next card i, opponent (j, k); next card j, opponent (i, k); next card k, opponent (i, j)
                ends[slot[j, k], _state(oi, r)] += 1
                ends[slot[i, k], _state(oj, r)] += 1
                s = _state(our_end[k], r)
                e0 += s == 0
                e1 += s == 1
                e2 += s == 2
            q = slot[i, j]
            ends[q, 0] += e0
            ends[q, 1] += e1
            ends[q, 2] += e2
    return hold, now, ends, n - 2


@njit(cache=True)
def hp1_from_counts(hold, now, ends, k, weights):
    """3×3 HP and HPTotal from :func:`hp1_counts_kernel`'s counts and a range (PAPP98 papp/node40).

    Each opponent holding ``h`` of weight ``w > 0``, in the order of ``hold``, adds ``w`` to ``HPTotal[now]`` and
    ``w × ends[e]`` to ``HP[now][e]`` for each end state ``e`` (the ``w/K`` of each of its completions, grouped); the
    sums are divided by ``K`` at the end.  The floats are those of these sums in this order.

    Args:
        hold, now, ends, k: :func:`hp1_counts_kernel`'s ``(P,)`` holdings, ``(P,)`` states now, ``(P, 3)`` counts of
            end states and K.
        weights: ``(1326,) float64`` opponent weights (finite, >= 0).

    Returns:
        ``hp (3, 3) float64`` and ``hp_total (3,) float64``, as :func:`hp1_kernel`.
    """
    hp = np.zeros(9)
    hp_total = np.zeros(3)
    for p in range(hold.shape[0]):
        w = weights[hold[p]]
        if w == 0.0:
            continue
        s = np.int64(now[p])
        hp_total[s] += w
        hp[3 * s] += w * ends[p, 0]
        hp[3 * s + 1] += w * ends[p, 1]
        hp[3 * s + 2] += w * ends[p, 2]
    out = np.empty((3, 3))
    for s in range(3):
        for e in range(3):
            out[s, e] = hp[3 * s + e] / k
    return out, hp_total


@njit(cache=True)
def _our_end_ranks(live, n, ok, ob, tables):
    """``(n, n) int64``: our final rank (key ``ok``, bits ``ob``: hole cards and flop) with the turn and river
    ``live[i]``, ``live[j]``, symmetric (the diagonal 0)."""
    card_key, card_bit = tables[0], tables[1]
    out = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        ki = ok + card_key[live[i]]
        bi = ob | card_bit[live[i]]
        for j in range(i + 1, n):
            r = rank_from_key(ki + card_key[live[j]], bi | card_bit[live[j]], tables)
            out[i, j] = r
            out[j, i] = r
    return out


@njit(cache=True)
def hp2_kernel(c0, c1, board, weights, tables):
    """3×3 HP and HPTotal of holding ``(c0, c1)`` with the two-card look-ahead from the flop (PPot2).

    Args:
        c0, c1: our hole cards.
        board: ``(3,) int64`` flop, disjoint from the hole cards (not checked).
        weights: ``(1326,) float64`` opponent weights; clashing holdings are ignored.
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        ``hp (3, 3) float64`` (each of the 990 turn+river completions weighted ``w/990``)
        and ``hp_total (3,) float64``.  1,070,190 (holding, completion) cases with a
        uniform range (papp/node40), from 178,365 hand evaluations.
    """
    live, n, bk, bb, ok, ob, wq, base, hp_total = _pair_tables(c0, c1, board, weights, tables)
    card_key, card_bit = tables[0], tables[1]
    our_end = _our_end_ranks(live, n, ok, ob, tables)
    hp = np.zeros(9)
    for i in range(n):
        ki = bk + card_key[live[i]]
        bi = bb | card_bit[live[i]]
        for j in range(i + 1, n):
            kij = ki + card_key[live[j]]
            bij = bi | card_bit[live[j]]
            oij = our_end[i, j]
            wij = wq[i, j]
            bsij = base[i, j]
            for k in range(j + 1, n):
                kijk = kij + card_key[live[k]]
                bijk = bij | card_bit[live[k]]
                oik = our_end[i, k]
                ojk = our_end[j, k]
                wik = wq[i, k]
                wjk = wq[j, k]
                bsik = base[i, k]
                bsjk = base[j, k]
                for m in range(k + 1, n):
                    cm = live[m]
                    r = rank_from_key(kijk + card_key[cm], bijk | card_bit[cm], tables)
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


@njit(cache=True)
def _flop_counts_into(live, n, bk, bb, ok, ob, hidx, tables, out):
    # showdown_counts_kernel on the flop: every 4 live cards once, each of their 6 splits into turn+river and opponent
    card_key, card_bit = tables[0], tables[1]
    our2 = _our_end_ranks(live, n, ok, ob, tables)
    # the counts by the opponent's pair of live cards (a < b): rows read and written in order of the inner loop
    cnt = np.zeros((n, n), dtype=np.int64)
    rk = np.zeros(n, dtype=np.int64)
    for i in range(n):
        ki = bk + card_key[live[i]]
        bi = bb | card_bit[live[i]]
        for j in range(i + 1, n):
            kij = ki + card_key[live[j]]
            bij = bi | card_bit[live[j]]
            o_ij = our2[i, j]
            n_ij = 0  # the opponent (i, j)'s count, summed over k and m in a register
            for k in range(j + 1, n):
                kijk = kij + card_key[live[k]]
                bijk = bij | card_bit[live[k]]
                o_ik, o_jk = our2[i, k], our2[j, k]
                n_ik = n_jk = 0  # the opponents (i, k) and (j, k), summed over m
                for m in range(k + 1, n):  # the ranks first: independent lookups the processor overlaps
                    rk[m] = rank_from_key(kijk + card_key[live[m]], bijk | card_bit[live[m]], tables)
                for m in range(k + 1, n):
                    r = rk[m]
                    # (turn+river | opponent): (ij|km) (ik|jm) (im|jk) (jk|im) (jm|ik) (km|ij)
                    cnt[k, m] += _wins2(o_ij, r)
                    cnt[j, m] += _wins2(o_ik, r)
                    n_jk += _wins2(our2[i, m], r)
                    cnt[i, m] += _wins2(o_jk, r)
                    n_ik += _wins2(our2[j, m], r)
                    n_ij += _wins2(our2[k, m], r)
                cnt[j, k] += n_jk
                cnt[i, k] += n_ik
            cnt[i, j] += n_ij
    for i in range(n):
        for j in range(i + 1, n):
            out[hidx[i, j]] = cnt[i, j]


@njit(cache=True)
def showdown_counts_kernel(c0, c1, board, tables):
    """Per opponent holding, how often holding ``(c0, c1)`` wins at showdown over every completion of ``board``:
    ``2·wins + ties`` (exact integers; the equity against any range is their weighted sum over ``2·K·Σ w``, with K
    the completions of a holding: 990 on the flop, 44 on the turn, 1 on the river).

    The enumeration of :func:`hp2_kernel` (every 4 live cards once, both their splits into completion and opponent
    holding), keeping each holding's outcome instead of the 3×3 table.  On the flop (178,365 sets of four cards) the
    ranks of one three-card prefix's completions are looked up first, in one loop the processor overlaps, then counted
    without branches into an ``(n, n)`` table by the opponent's pair of live cards, whose rows the inner loop walks
    in order; the three opponents fixed in the inner loop are summed in registers (1.6× the direct enumeration,
    BENCHMARKS.md).

    Args:
        c0, c1: our hole cards; board: ``(3,)``, ``(4,)`` or ``(5,) int64``, disjoint from them (not checked).
        tables: the evaluator tables (:func:`loki.evaluator.kernel_tables`).

    Returns:
        ``(1326,) int64`` (0 for the holdings that clash with our cards or the board) and K.
    """
    live, n, bk, bb, ok, ob = _hand_keys(c0, c1, board, tables)
    card_key, card_bit = tables[0], tables[1]
    out = np.zeros(N_HOLDINGS, dtype=np.int64)
    hidx = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if i != j:
                hidx[i, j] = HOLDING_INDEX[live[i], live[j]]
    to_come = 5 - board.shape[0]
    if to_come == 0:
        ours = rank_from_key(ok, ob, tables)
        for i in range(n):
            ki = bk + card_key[live[i]]
            bi = bb | card_bit[live[i]]
            for j in range(i + 1, n):
                r = rank_from_key(ki + card_key[live[j]], bi | card_bit[live[j]], tables)
                out[hidx[i, j]] += _wins2(ours, r)
        return out, 1
    if to_come == 1:
        our_end = np.empty(n, dtype=np.int64)
        for i in range(n):
            our_end[i] = rank_from_key(ok + card_key[live[i]], ob | card_bit[live[i]], tables)
        for i in range(n):
            ki = bk + card_key[live[i]]
            bi = bb | card_bit[live[i]]
            for j in range(i + 1, n):
                kij = ki + card_key[live[j]]
                bij = bi | card_bit[live[j]]
                for k in range(j + 1, n):
                    r = rank_from_key(kij + card_key[live[k]], bij | card_bit[live[k]], tables)
                    # river i, opponent (j, k); river j, opponent (i, k); river k, opponent (i, j)
                    out[hidx[j, k]] += _wins2(our_end[i], r)
                    out[hidx[i, k]] += _wins2(our_end[j], r)
                    out[hidx[i, j]] += _wins2(our_end[k], r)
        return out, n - 2
    _flop_counts_into(live, n, bk, bb, ok, ob, hidx, tables, out)
    return out, (n - 2) * (n - 3) // 2


@njit(cache=True, inline="always")
def _wins2(ours, theirs):
    # 2 for a win, 1 for a tie, 0 for a loss (without branches: the outcomes of one enumeration are not predictable)
    return np.int64(ours >= theirs) + np.int64(ours > theirs)


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
        raise ConfigError(f"lookahead: expected 1 or 2, got {lookahead!r}")
    if lookahead == 2 and board_len != 3:
        raise ConfigError(f"lookahead: the two-card look-ahead (PPot2) needs a 3-card board, got {board_len} cards")
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
        CardError: bad or overlapping cards, wrong board size.
        RangeError: invalid weights.
        ConfigError: ``lookahead`` not 1 or 2, or 2 off the flop.
    """
    h, b, _ = check_cards(hole, board)
    la = _check_lookahead(lookahead, len(b))
    w = validate_weights(weights, "weights")
    bd = np.asarray(b, dtype=np.int64)
    tables = kernel_tables()
    if len(b) == 5:
        return np.zeros((3, 3)), np.array(hs_counts_kernel(h[0], h[1], bd, w, tables))
    if la == 2:
        return hp2_kernel(h[0], h[1], bd, w, tables)
    return hp1_kernel(h[0], h[1], bd, w, tables)


def hand_potential(hole, board, weights, lookahead: int = 1) -> tuple[float, float]:
    """``(PPot, NPot)`` of our holding against one range (PAPP98 papp/node40; PENA99 pena/node23).

    PPot1/NPot1 with ``lookahead=1`` (flop or turn), PPot2/NPot2 with ``lookahead=2`` (flop
    only).  ``(0.0, 0.0)`` on the river (DEFAULT: nothing to come).

    Raises:
        CardError, RangeError, ConfigError: as :func:`hand_potential_counts`.
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
        CardError: bad or overlapping cards, or so many dead cards that no next card is left.
        RangeError: invalid weights.
    """
    _, b, d = check_cards(None, board, dead=dead)
    w = validate_weights(weights, "weights")
    if len(b) < 5 and 52 - len(b) - len(d) < 5:
        raise CardError(f"dead: {len(d)} dead cards leave no next card for a pair of holdings")
    bd = np.asarray(b, dtype=np.int64)
    dd = dead_array(b + d)
    if len(b) == 5:
        counts, npos = hs_all_counts_from_ranks(rank_holdings_kernel(bd, dd, kernel_tables()), w)
        return np.zeros((N_HOLDINGS, 3, 3)), np.ascontiguousarray(counts.T), npos
    r3, pos = triple_ranks(tuple(sorted(b)))
    if np.all(w == 1.0):  # the uniform range: the integer-count kernel, the same numbers
        return hp1_all_uniform_kernel(bd, dd, kernel_tables(), r3, pos)
    return hp1_all_kernel(bd, dd, w, kernel_tables(), r3, pos)


@lru_cache(maxsize=8)
def triple_ranks(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~loki.assessment.potential_all.board_triple_ranks` of a sorted 3- or 4-card board, kept for the last 8
    boards (about 235 KB each): the one-card look-ahead of every holding on a board, our own (:func:`hp1_counts_kernel`)
    and all holdings' at once (:func:`hp1_all_kernel`), reads the same ranks."""
    return board_triple_ranks(np.asarray(board, dtype=np.int64), kernel_tables())


def hand_potential_all(board, weights, dead: Iterable = (), fill: float = np.nan) -> tuple[np.ndarray, np.ndarray]:
    """PPot1 and NPot1 of every holding against one range, ``(1326,) float64`` each.

    ``fill`` (NaN by default) where a holding clashes with ``board``/``dead`` or faces no
    positive opponent weight; 0 on the river.  Same values as :func:`hand_potential` per
    holding (with ``dead`` removed from the range and the deck).

    Raises:
        CardError, RangeError: as :func:`hand_potential_all_counts`.
    """
    hp, tot, npos = hand_potential_all_counts(board, weights, dead)
    pp, nn = ppot_npot(hp, tot)
    bad = npos <= 0
    pp[bad] = fill
    nn[bad] = fill
    return pp, nn
