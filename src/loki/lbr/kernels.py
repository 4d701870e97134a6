"""The local best response's numba kernel: our showdown chances against every opponent holding.

``WP`` of the look-ahead (:mod:`loki.lbr.player`) is our chance to win the showdown, ties half, against a range,
when the board is completed and nobody bets: ``Σ_h w(h)·e(h) / Σ_h w(h)``, with ``e(h)`` our equity against
holding ``h`` over every completion of the board that shares no card with it.  :func:`holding_equities` gives the
whole vector ``e`` once per street (about 1,000 completions × 1,000 holdings on the flop), after which every ``WP``
(against the range, against the part of it that would call a bet) is a dot product.

Ranks come from the evaluator's tables (``tables``, :func:`loki.evaluator.kernel_tables`; keys built incrementally
as in :mod:`loki.assessment.showdown`).  Counts are whole numbers (half-units for ties), so ``e`` is the exact
fraction, rounded once.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.cards import HOLDING_CARDS, N_HOLDINGS
from loki.evaluator.kernels import rank_from_key

__all__ = ["holding_equities"]


@njit(cache=True)
def holding_equities(c0, c1, board, tables):
    """Our all-in equity against every opponent holding, over every completion of the board.

    Args:
        c0, c1: our hole cards (int).
        board: ``(3..5,) int64`` the board shown, disjoint from our cards (not checked).
        tables: the evaluator tables.

    Returns:
        ``(1326,) float64``: for each holding ``h`` sharing no card with ours or the board, ``(wins + ties/2) / n``
        over the ``n`` completions that share no card with ``h``; 0 for other holdings.
    """
    ck, cb = tables[0], tables[1]
    dead = np.zeros(52, dtype=np.bool_)
    dead[c0] = True
    dead[c1] = True
    bk = 0
    bbits = 0
    for c in board:
        dead[c] = True
        bk += ck[c]
        bbits |= cb[c]
    deck = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if not dead[c]:
            deck[m] = c
            m += 1
    live = np.empty(N_HOLDINGS, dtype=np.int64)
    n = 0
    for h in range(N_HOLDINGS):
        a = HOLDING_CARDS[h, 0]
        b = HOLDING_CARDS[h, 1]
        if not dead[a] and not dead[b]:
            live[n] = h
            n += 1
    wins = np.zeros(N_HOLDINGS, dtype=np.int64)  # in half-units: a win 2, a tie 1
    count = np.zeros(N_HOLDINGS, dtype=np.int64)
    ours_k = bk + ck[c0] + ck[c1]
    ours_b = bbits | cb[c0] | cb[c1]
    r = 5 - board.shape[0]
    if r == 0:
        _tally(0, 0, -1, -1, ours_k, ours_b, bk, bbits, live, n, wins, count, tables)
    elif r == 1:
        for i in range(m):
            x = deck[i]
            _tally(ck[x], cb[x], x, -1, ours_k, ours_b, bk, bbits, live, n, wins, count, tables)
    else:
        for i in range(m):
            x = deck[i]
            for j in range(i + 1, m):
                y = deck[j]
                _tally(ck[x] + ck[y], cb[x] | cb[y], x, y, ours_k, ours_b, bk, bbits, live, n, wins, count, tables)
    out = np.zeros(N_HOLDINGS)
    for k in range(n):
        h = live[k]
        if count[h] > 0:
            out[h] = wins[h] / (2.0 * count[h])
    return out


@njit(cache=True, inline="always")
def _tally(rk, rb, x, y, ours_k, ours_b, bk, bbits, live, n, wins, count, tables):
    """One completion (its cards ``x``, ``y``, −1 for none; their key ``rk`` and bits ``rb``): compare our rank with
    every live holding that shares no card with it."""
    ck, cb = tables[0], tables[1]
    ours = rank_from_key(ours_k + rk, ours_b | rb, tables)
    kk = bk + rk
    bb = bbits | rb
    for k in range(n):
        h = live[k]
        a = HOLDING_CARDS[h, 0]
        b = HOLDING_CARDS[h, 1]
        if a == x or a == y or b == x or b == y:
            continue
        theirs = rank_from_key(kk + ck[a] + ck[b], bb | cb[a] | cb[b], tables)
        count[h] += 1
        if ours > theirs:
            wins[h] += 2
        elif ours == theirs:
            wins[h] += 1
