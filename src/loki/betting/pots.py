"""Pots and payoffs of a finished hand on a state vector: :func:`award`, :func:`pot_share`.

Main and side pots as pokerkit 0.7.7 forms them; the odd chip by ``"left_of_button"`` (pokerkit) or
``"split"`` (the ACPC dealer).  See the :mod:`loki.betting` docstring.  Amounts are chips.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.betting.layout import BUTTON, DEAD, FOLDED, FOLDED_OUT, NMAX, POT, SPLIT, STATUS, TOTAL, UNLIMITED, N

__all__ = ["pot_share", "award", "award_into", "AWARD_WORK"]

#: Rows of :func:`award_into`'s work array ``(AWARD_WORK, NMAX) int64``: the sorted contribution levels, the layers'
#: amounts and their eligible players.
AWARD_WORK = 3


@njit(cache=True, nrt=False)
def pot_share(amount, k, split, j):
    """Chips the ``j``-th of ``k`` winners of a pot of ``amount`` chips gets (winners counted from the
    button's left, ``j = 0`` first); float64.

    ``split`` (the ACPC dealer's rule): ``amount / k`` each, exact (fractional when uneven).  Else
    (``"left_of_button"``, pokerkit 0.7.7 ``divmod``): ``amount // k`` each and the whole remainder to the
    first winner.
    """
    if split:
        return amount / k if amount % k else float(amount // k)
    q = amount // k
    return float(q + (amount - q * k) if j == 0 else q)


@njit(cache=True, nrt=False)
def _best_in(st, ranks, mask):
    """Mask of the seats of ``mask`` holding its best rank."""
    best = -1
    for s in range(st[N]):
        if (mask >> s) & 1 and ranks[s] > best:
            best = ranks[s]
    won = 0
    for s in range(st[N]):
        if (mask >> s) & 1 and ranks[s] == best:
            won |= 1 << s
    return won


@njit(cache=True)
def award(st, ranks, pots, shares, win):
    """Award the pot(s) of a finished hand.

    Args:
        st: a state vector with ``STATUS`` ``FOLDED_OUT`` or ``SHOWDOWN``.
        ranks: ``(>= N,) int64`` hand ranks per seat (higher is stronger; read for the players in at
            a showdown only).
        pots: ``(>= NMAX, 3) int64`` output: per pot ``amount`` (chips), ``eligible`` and
            ``winners`` (bit ``1 << seat`` masks); rows from the returned count on are not written.
        shares: ``(>= NMAX, >= N) float64`` output: chips each seat gets from each pot (rows as
            ``pots``).
        win: ``(>= N,) float64`` output: chips won per seat, all pots summed in pot order (the
            payoff is ``win - TOTAL``).

    Returns:
        The number of pots.  After a fold-out the last player in wins the whole pot; at a showdown
        with unlimited stacks, or when every player in put in the same amount, there is one pot;
        otherwise the pot is cut into layers at every distinct total contribution (folded players'
        chips included, ``DEAD`` chips in the lowest layer), a layer belongs to the players in who
        put in at least its level, and consecutive layers with the same winning claimants are merged
        (pokerkit 0.7.7 kills the hands that win no layer before pushing chips; the merged pot keeps
        its first layer's eligible players).  Each pot goes to its best hands, divided by
        :func:`pot_share`.
    """
    return award_into(st, ranks, pots, shares, win, np.zeros((AWARD_WORK, NMAX), dtype=np.int64))


@njit(cache=True, nrt=False)
def award_into(st, ranks, pots, shares, win, work):  # noqa: C901 - the pot layers and the odd chip in one numba kernel
    """:func:`award` with its work array given: ``work`` ``(AWARD_WORK, NMAX) int64`` (overwritten).  Compiled
    without numba's reference counting (it allocates nothing), so a kernel that calls it once per hand (the
    Simulator's play-outs) pays no atomic increment and decrement per array argument."""
    n = st[N]
    for s in range(n):
        win[s] = 0.0
        shares[0, s] = 0.0
    if st[STATUS] == FOLDED_OUT:
        w = 0
        while st[FOLDED + w]:
            w += 1
        pots[0, 0] = st[POT]
        pots[0, 1] = 1 << w
        pots[0, 2] = 1 << w
        shares[0, w] = st[POT]
        win[w] = st[POT]
        return 1
    contenders = 0
    equal = True
    t0 = -1
    for s in range(n):
        if st[FOLDED + s] == 0:
            contenders |= 1 << s
            if t0 < 0:
                t0 = st[TOTAL + s]
            elif st[TOTAL + s] != t0:
                equal = False
    k = 0
    if st[UNLIMITED] or equal:
        pots[0, 0] = st[POT]
        pots[0, 1] = contenders
        k = 1
    else:
        # layers at every distinct total, lowest first: (amount, eligible)
        levels = work[0]
        lay_amt = work[1]
        lay_elig = work[2]
        for j in range(n):  # the totals in ascending order (insertion sort: at most NMAX values)
            v = st[TOTAL + j]
            i = j
            while i > 0 and levels[i - 1] > v:
                levels[i] = levels[i - 1]
                i -= 1
            levels[i] = v
            lay_amt[j] = 0
            lay_elig[j] = 0
        nl = 0
        prev = 0
        won = 0
        for j in range(n):
            lv = levels[j]
            if j > 0 and lv == levels[j - 1]:
                continue
            cnt = 0
            elig = 0
            for s in range(n):
                if st[TOTAL + s] >= lv:
                    cnt += 1
                    if (contenders >> s) & 1:
                        elig |= 1 << s
            if elig == 0:  # cannot happen with these rules (pokerkit would burn the chips)
                raise AssertionError("side pot with no eligible player")
            lay_amt[nl] = (lv - prev) * cnt
            lay_elig[nl] = elig
            nl += 1
            prev = lv
            won |= _best_in(st, ranks, elig)
        lay_amt[0] += st[DEAD]
        last_claim = -1
        for j in range(nl):
            claim = lay_elig[j] & won
            if k > 0 and claim == last_claim:
                pots[k - 1, 0] += lay_amt[j]
            else:
                pots[k, 0] = lay_amt[j]
                pots[k, 1] = lay_elig[j]
                k += 1
                last_claim = claim
    first = st[BUTTON] + 1 if st[BUTTON] + 1 < n else 0
    for i in range(k):
        for s in range(n):
            shares[i, s] = 0.0
        winners = _best_in(st, ranks, pots[i, 1])
        pots[i, 2] = winners
        nw = 0
        for s in range(n):
            nw += (winners >> s) & 1
        j = 0
        s = first
        for _ in range(n):  # winners from the button's left
            if (winners >> s) & 1:
                x = pot_share(pots[i, 0], nw, st[SPLIT], j)
                shares[i, s] = x
                win[s] += x
                j += 1
            s = s + 1 if s + 1 < n else 0
    return k
