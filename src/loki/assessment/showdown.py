"""Exact all-in equities of known hands by board enumeration (numba): the showdown share each live hand wins,
averaged over every completion of the board (the AIVAT referee, :mod:`loki.aivat`, and the oracle generator read them).

An all-in equity is the share of the pot a live hand wins when the board is completed, averaged over
every completion that can still come: ties split the share equally.  The kernels count shares in
integer units of :data:`SHARE_UNITS` (2520 = lcm(1..10), so a tie between any 2..10 hands is an exact
integer per board), so sums are exact and independent of the order of the boards.

Two ways to get there:

* :func:`fill_board_ranks`: the rank of each of some hands on **every** 5-card board of a deck, in
  lexicographic board order, one ``int16`` row per hand (``C(m, 5)`` boards: 201,376 for the 32 cards
  left at a 10-player table, 1,712,304 heads-up).  A deal is replayed once per seating with the same
  cards, so these rows are computed once per hand per deal (lazily, for the hands that reach a flop) and
  :func:`row_share_counts` then gives the pre-flop equity of any set of live hands in one pass over the
  rows, without ranking anything again.
* :func:`runout_share_counts`: the equities of some hands on a flop, turn or river board, enumerating the
  ``C(m, 5 - len(board))`` completions directly (406 on a 10-player flop).

Both build the rank keys incrementally (:mod:`loki.evaluator`: a card set's key is the sum of its cards'
keys, its suit bits their OR): each nesting level of the enumeration adds one card to the partial key of
the level above, so the innermost loop costs one addition and one :func:`~loki.evaluator.kernels.rank_from_key`
lookup per hand and board.  Tables are passed as the last argument ``tables`` (:func:`loki.evaluator.kernel_tables`).

Inputs are not checked here (distinct card ints 0..51, a deck without the hands' or the board's cards,
``5 <= len(deck)`` for the rows); :class:`loki.aivat.EquityOracle` is the checked entry point.

Source of the method these kernels serve: Burch, Schmid, Moravčík, Morrill, Bowling, "AIVAT: A New
Variance Reduction Technique for Agent Evaluation in Imperfect Information Games", AAAI-18.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.cards import HOLDING_CARDS, N_HOLDINGS
from loki.evaluator.kernels import rank_from_key

__all__ = [
    "SHARE_UNITS",
    "n_boards",
    "fill_board_ranks",
    "row_share_counts",
    "runout_share_counts",
    "sampled_contest_share",
]

#: Integer share units of one board's pot: lcm(1, ..., 10), so that a k-way tie (k <= 10) gives each
#: winner exactly ``SHARE_UNITS // k``.
SHARE_UNITS = 2520


@njit(cache=True)
def n_boards(m, r):
    """``C(m, r)`` (int64): the ways to choose ``r`` cards from ``m``; 0 when ``r > m``."""
    if r < 0 or r > m:
        return np.int64(0)
    out = np.int64(1)
    for i in range(r):
        out = out * (m - i) // (i + 1)
    return out


@njit(cache=True)
def _card_keys(cards, ck, cb):
    """The rank keys and suit bits ``(m,) int64`` of ``cards`` from the evaluator's card tables."""
    m = cards.shape[0]
    dk = np.empty(m, np.int64)
    db = np.empty(m, np.int64)
    for i in range(m):
        c = np.uint64(cards[i])
        dk[i] = ck[c]
        db[i] = cb[c]
    return dk, db


@njit(cache=True)
def fill_board_ranks(holes, which, deck, rows, tables):
    """Rank every 5-card board of ``deck`` with each hand ``holes[which[j]]`` into ``rows[which[j]]``.

    Args:
        holes: ``(n, 2) int64`` hole cards of the deal's hands.
        which: ``(j,) int64`` the hands (row indices) to fill.
        deck: ``(m,) int64`` the cards a board can hold (no hole card), any order; boards are its 5-subsets
            in lexicographic order of positions.
        rows: ``(n, C(m, 5)) int16`` output; only the rows in ``which`` are written.
        tables: the evaluator tables.

    Ranks are the evaluator's 1..7462 (higher is stronger) of the 7 cards hand + board.
    """
    ck, cb = tables[0], tables[1]
    m = deck.shape[0]
    dk, db = _card_keys(deck, ck, cb)
    for jj in range(which.shape[0]):
        h = which[jj]
        h0 = np.uint64(holes[h, 0])
        h1 = np.uint64(holes[h, 1])
        k0 = ck[h0] + ck[h1]
        b0 = cb[h0] | cb[h1]
        out = rows[h]
        idx = 0
        for a in range(m - 4):
            ka = k0 + dk[a]
            ba = b0 | db[a]
            for b in range(a + 1, m - 3):
                kb = ka + dk[b]
                bb = ba | db[b]
                for c in range(b + 1, m - 2):
                    kc = kb + dk[c]
                    bc = bb | db[c]
                    for d in range(c + 1, m - 1):
                        kd = kc + dk[d]
                        bd = bc | db[d]
                        for e in range(d + 1, m):
                            out[idx] = np.int16(rank_from_key(kd + dk[e], bd | db[e], tables))
                            idx += 1


@njit(cache=True)
def row_share_counts(rows, live):
    """Pot shares of the hands ``live`` summed over all boards of the rows (integer units).

    Args:
        rows: ``(n, B) int16`` board ranks (:func:`fill_board_ranks`).
        live: ``(k,) int64`` the live hands (row indices), 1 <= k <= 10.

    Returns:
        ``(k,) int64``: for each live hand, the sum over the ``B`` boards of ``SHARE_UNITS // t`` when it
        is among the ``t`` best of the live hands on that board, else 0.  Equity = value / (B * SHARE_UNITS).

    Written as whole-row passes (the best rank per board, then the number of hands holding it, then each
    hand's sum) so that the loops have no data-dependent branch and compile to vector code: about 5x faster
    than one board at a time.
    """
    k = live.shape[0]
    nb = rows.shape[1]
    share_of = np.zeros(16, np.int16)  # share per winner of a t-way tie, t = 1..10
    for t in range(1, 11):
        share_of[t] = SHARE_UNITS // t
    best = rows[live[0]].copy()
    for j in range(1, k):
        rj = rows[live[j]]
        for b in range(nb):
            if rj[b] > best[b]:
                best[b] = rj[b]
    share = np.zeros(nb, np.int16)
    for j in range(k):
        rj = rows[live[j]]
        for b in range(nb):
            share[b] += rj[b] == best[b]
    for b in range(nb):
        share[b] = share_of[share[b] & 15]
    acc = np.zeros(k, np.int64)
    for j in range(k):
        rj = rows[live[j]]
        s = 0
        for b in range(nb):
            s += np.int64((rj[b] == best[b]) * share[b])
        acc[j] = s
    return acc


@njit(cache=True)
def runout_share_counts(holes, board, deck, tables):
    """Pot shares of ``holes`` over every completion of ``board`` from ``deck`` (integer units).

    Args:
        holes: ``(k,) x 2`` as ``(k, 2) int64`` the live hands, k >= 1.
        board: ``(b,) int64`` the board so far, 0 <= b <= 5.
        deck: ``(m,) int64`` the cards that can still come (none of the hands' or the board's).
        tables: the evaluator tables.

    Returns:
        ``(shares (k,) int64, boards int64)``: shares as :func:`row_share_counts`, over the ``C(m, 5 - b)``
        completions (``boards``); equity = shares / (boards * SHARE_UNITS).
    """
    ck, cb = tables[0], tables[1]
    k = holes.shape[0]
    m = deck.shape[0]
    r = 5 - board.shape[0]
    hk = np.empty(k, np.int64)
    hb = np.empty(k, np.int64)
    bk = 0
    bbits = 0
    for i in range(board.shape[0]):
        c = np.uint64(board[i])
        bk += ck[c]
        bbits |= cb[c]
    for j in range(k):
        h0 = np.uint64(holes[j, 0])
        h1 = np.uint64(holes[j, 1])
        hk[j] = ck[h0] + ck[h1] + bk
        hb[j] = cb[h0] | cb[h1] | bbits
    dk, db = _card_keys(deck, ck, cb)
    acc = np.zeros(k, np.int64)
    rk = np.empty(k, np.int64)
    nb = np.int64(0)
    if r > m:
        return acc, nb
    # combination indices and partial keys: pk[t], pb[t] hold the first t chosen cards
    idx = np.empty(max(r, 1), np.int64)
    pk = np.zeros(r + 1, np.int64)
    pb = np.zeros(r + 1, np.int64)
    for t in range(r):
        idx[t] = t
    p = 0  # the first position whose partial key is stale
    while True:
        for t in range(p, r):
            pk[t + 1] = pk[t] + dk[idx[t]]
            pb[t + 1] = pb[t] | db[idx[t]]
        key = pk[r]
        bits = pb[r]
        best = -1
        cnt = 0
        for j in range(k):
            x = rank_from_key(hk[j] + key, hb[j] | bits, tables)
            rk[j] = x
            if x > best:
                best = x
                cnt = 1
            elif x == best:
                cnt += 1
        share = SHARE_UNITS // cnt
        for j in range(k):
            if rk[j] == best:
                acc[j] += share
        nb += 1
        # next combination: the rightmost index that can still move
        t = r - 1
        while t >= 0 and idx[t] == m - r + t:
            t -= 1
        if t < 0:
            break
        idx[t] += 1
        for u in range(t + 1, r):
            idx[u] = idx[u - 1] + 1
        p = t
    return acc, nb


@njit(cache=True)
def _draw_holding(cum, total, used, tries):
    """A holding index drawn by the weights whose cumulative sums are ``cum`` (``(1326,)``), sharing no card with
    ``used`` (``(52,) bool``): rejection, at most ``tries`` draws; -1 when every draw collided."""
    for _ in range(tries):
        u = np.random.random() * total
        h = np.searchsorted(cum, u, side="right")
        if h >= N_HOLDINGS:
            h = N_HOLDINGS - 1
        if not used[HOLDING_CARDS[h, 0]] and not used[HOLDING_CARDS[h, 1]]:
            return h
    return -1


@njit(cache=True)
def sampled_contest_share(c0, c1, board, cum, totals, play, n_samples, seed, tables):  # noqa: C901 - one sampling loop of a numba kernel
    """Monte Carlo estimate of our share of a contested pot: in every sample each opponent takes part with its own
    probability, holds a holding drawn from its weight table (none of the cards already out), the board is completed
    at random, and our share of the showdown is counted (ties split; 1 when no opponent takes part).

    Args:
        c0, c1: our hole cards (ints 0..51).
        board: ``(b,) int64`` the board so far, 0 <= b <= 5 (pre-flop: empty).
        cum: ``(k, 1326) float64`` the opponents' weight tables as cumulative sums (k >= 0).
        totals: ``(k,) float64`` their totals (the last cumulative sum); an opponent with total 0 never takes part.
        play: ``(k,) float64`` each opponent's probability of taking part, in [0, 1].
        n_samples: samples (>= 1); seed: numba's generator seed (the same seed, the same estimate).
        tables: the evaluator tables.

    Returns:
        ``(mean share, variance of one sample's share)`` as floats: the estimate and what its standard error is made
        of (``sqrt(var / n_samples)``).
    """
    ck, cb = tables[0], tables[1]
    np.random.seed(seed)
    k = cum.shape[0]
    nb = board.shape[0]
    used = np.zeros(52, np.bool_)
    free = np.empty(52, np.int64)
    oa = np.empty(max(k, 1), np.int64)
    ob = np.empty(max(k, 1), np.int64)
    total = 0.0
    total_sq = 0.0
    for _ in range(n_samples):
        for c in range(52):
            used[c] = False
        used[c0] = True
        used[c1] = True
        for i in range(nb):
            used[board[i]] = True
        n_in = 0
        for j in range(k):
            if totals[j] <= 0.0 or np.random.random() >= play[j]:
                continue
            h = _draw_holding(cum[j], totals[j], used, 64)
            if h < 0:
                continue
            a = HOLDING_CARDS[h, 0]
            b = HOLDING_CARDS[h, 1]
            used[a] = True
            used[b] = True
            oa[n_in] = a
            ob[n_in] = b
            n_in += 1
        if n_in == 0:
            total += 1.0
            total_sq += 1.0
            continue
        m = 0
        for c in range(52):
            if not used[c]:
                free[m] = c
                m += 1
        bk = 0
        bbits = 0
        for i in range(nb):
            c = np.uint64(board[i])
            bk += ck[c]
            bbits |= cb[c]
        for i in range(5 - nb):
            t = i + np.random.randint(m - i)
            x = free[t]
            free[t] = free[i]
            free[i] = x
            c = np.uint64(x)
            bk += ck[c]
            bbits |= cb[c]
        ours = rank_from_key(
            bk + ck[np.uint64(c0)] + ck[np.uint64(c1)], bbits | cb[np.uint64(c0)] | cb[np.uint64(c1)], tables
        )
        tied = 1
        lost = False
        for j in range(n_in):
            a = np.uint64(oa[j])
            b = np.uint64(ob[j])
            r = rank_from_key(bk + ck[a] + ck[b], bbits | cb[a] | cb[b], tables)
            if r > ours:
                lost = True
                break
            if r == ours:
                tied += 1
        share = 0.0 if lost else 1.0 / tied
        total += share
        total_sq += share * share
    mean = total / n_samples
    return mean, max(total_sq / n_samples - mean * mean, 0.0)
