"""The Simulator's numba kernels: sampling, play-out and a batch of trials (AAAI99 §5; reference §6).

:func:`sim_batch` runs a batch of trials of one decision for :func:`loki.simulator.simulate`
(which holds the rules, approximations and cut-off; read its docstring first): it samples the
opponents' holdings by their weights (:func:`_sample_holding`), deals the rest of the board,
computes the hand values the play-out needs on later streets (:func:`_hs_on_board`, HS_1 against
a uniform range; :func:`loki.assessment.outs.ppot_outs`) and plays each trial out twice
(:func:`playout`, our first action forced to check/call, then to bet/raise).  The betting of a
play-out (acting order, cap, legal actions, pot, payoff) is the :mod:`loki.betting` core, the same
code as the rules engine's.

Every kernel that ranks hands takes the evaluator tables as its last argument ``tables``
(:func:`loki.evaluator.kernel_tables`).  The holding tables of :mod:`loki.cards`
(``HOLDING_CARDS``, ``HOLDING_INDEX``, ``HOLDING_MASKS``) are read as globals: they are the fixed
canonical holding order, and :mod:`loki._jit` keys the disk cache by ``cards.py`` too.
"""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.assessment.outs import ppot_outs
from loki.betting import apply_action, award, can_raise, legalize
from loki.betting.layout import (
    BET,
    BETS,
    CALL_A,
    CUR,
    FOLD_A,
    FOLDED,
    MAX_BET,
    N_IN,
    NMAX,
    POT,
    RAISE_A,
    ROUND,
    SIZE,
    TOTAL,
    VOLUNTARY,
    N,
)
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, N_HOLDINGS
from loki.evaluator_kernels import rank7, rank_from_key
from loki.rule_chain import pt_kernel

__all__ = ["sim_batch", "playout"]

_HC = np.ascontiguousarray(HOLDING_CARDS.astype(np.int64))
_HM = np.ascontiguousarray(HOLDING_MASKS.astype(np.uint64))


@njit(cache=True)
def _sample_holding(w, cum, total, used):
    """Roulette-wheel draw from weights ``w`` among holdings disjoint from mask ``used``; −1 if none."""
    if total > 0.0:
        for _ in range(64):
            x = np.random.random() * total
            lo = 0
            hi = N_HOLDINGS - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if cum[mid] > x:
                    hi = mid
                else:
                    lo = mid + 1
            if w[lo] > 0.0 and (_HM[lo] & used) == 0:
                return lo
        # fallback: exact linear roulette over the live holdings
        s = 0.0
        for h in range(N_HOLDINGS):
            if (_HM[h] & used) == 0:
                s += w[h]
        if s > 0.0:
            x = np.random.random() * s
            acc = 0.0
            last = -1
            for h in range(N_HOLDINGS):
                if (_HM[h] & used) == 0 and w[h] > 0.0:
                    acc += w[h]
                    last = h
                    if acc > x:
                        return h
            return last
    # no live weight: uniform over live holdings
    n = 0
    for h in range(N_HOLDINGS):
        if (_HM[h] & used) == 0:
            n += 1
    if n == 0:
        return -1
    k = int(np.random.random() * n)
    for h in range(N_HOLDINGS):
        if (_HM[h] & used) == 0:
            if k == 0:
                return h
            k -= 1
    return -1


@njit(cache=True)
def _hs_on_board(board, nb, hole, active, m, out_hs, tables):
    """HS_1 (uniform range, card removal) of every active player's holding on ``board[:nb]``."""
    card_key, card_bit = tables[0], tables[1]
    bk = 0
    bb = 0
    bmask = np.uint64(0)
    for i in range(nb):
        bk += card_key[board[i]]
        bb |= card_bit[board[i]]
        bmask |= np.uint64(1) << np.uint64(board[i])
    ranks = np.zeros(N_HOLDINGS, dtype=np.int64)
    for h in range(N_HOLDINGS):
        if (_HM[h] & bmask) == 0:
            a = _HC[h, 0]
            b = _HC[h, 1]
            ranks[h] = rank_from_key(bk + card_key[a] + card_key[b], bb | card_bit[a] | card_bit[b], tables)
    for p in range(m):
        if not active[p]:
            continue
        hp = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
        mp = _HM[hp] | bmask
        rp = ranks[hp]
        ahead = 0.0
        tied = 0.0
        tot = 0.0
        for h in range(N_HOLDINGS):
            if (_HM[h] & mp) == 0:
                tot += 1.0
                if ranks[h] < rp:
                    ahead += 1.0
                elif ranks[h] == rp:
                    tied += 1.0
        out_hs[p] = (ahead + 0.5 * tied) / tot if tot > 0 else 0.0


@njit(cache=True)
def playout(forced, me, st0, bet_sizes, hs1, pp, nn, u, ranks, always_call, params, st, pots, shares, win, trace):
    """Play one trial from the decision point; returns our chips won minus chips put in from now on.

    The betting is the :mod:`loki.betting` core on a copy of the state vector ``st0`` (the spot:
    players in post-flop acting order, seat ``me`` to act, unlimited stacks, the ``"split"`` pot rule,
    chips already in the pot as ``DEAD``).  Our first action is ``forced`` (1 check/call, 2 bet/raise);
    afterwards each player samples its PT (:func:`loki.rule_chain.pt_kernel`, hand values ``hs1``,
    ``pp``, ``nn`` per player and round) with its uniform number ``u[p]``, or checks/calls in the
    ``always_call`` variant; a wanted action that is not legal becomes the nearest legal one
    (:func:`loki.betting.legalize`).  The pot goes to the best ``ranks`` (:func:`loki.betting.award`).

    Args:
        st, pots, shares, win: scratch arrays (``(SIZE,) int64``, ``(NMAX, 3) int64``,
            ``(NMAX, m) float64``, ``(m,) float64``); afterwards ``st`` holds the final state and
            ``win`` the chips each player won.
        trace: ``(k, SIZE + 1) int64``: if ``k > 0``, row ``i`` receives the state vector before the
            ``i``-th action of the play-out and, in its last column, the action taken (tests compare
            the play-out with the engine); ``k = 0`` in play.

    Returns:
        float64 chips: ``win[me] - invest`` if we win (a share of) the pot, else ``-invest``, where
        ``invest`` is what we put in from the decision on.
    """
    st[:] = st0
    first = True
    i = 0
    while st[CUR] >= 0:
        p = st[CUR]
        s = st[ROUND]
        if first:
            a = forced
            first = False
        elif always_call:
            a = CALL_A
        else:
            n_opp = st[N_IN] - 1
            h1 = hs1[p, s]
            hs_n = h1**n_opp if n_opp > 0 else 1.0
            ppp = pp[p, s]
            e = hs_n + (1.0 - hs_n) * ppp
            eh = hs_n * (1.0 - nn[p, s]) + (1.0 - hs_n) * ppp
            nb = bet_sizes[s + 1] if s < 3 else 0.0
            to_call = float(st[MAX_BET] - st[BET + p])
            f, c, r = pt_kernel(
                e,
                eh,
                hs_n,
                ppp,
                s,
                float(st[POT]),
                to_call,
                bet_sizes[s],
                st[BETS],
                st[VOLUNTARY + p] != 0,
                can_raise(st, p),
                nb,
                params,
                False,
                False,
            )
            if u[p] < f:
                a = FOLD_A
            elif u[p] < f + c:
                a = CALL_A
            else:
                a = RAISE_A
        a = legalize(st, a)
        if i < trace.shape[0]:
            trace[i, :SIZE] = st
            trace[i, SIZE] = a
            i += 1
        apply_action(st, a)
    k = award(st, ranks, pots, shares, win)
    invest = float(st[TOTAL + me] - st0[TOTAL + me])
    for j in range(k):
        if (pots[j, 2] >> me) & 1:
            return win[me] - invest
    return -invest


@njit(cache=True)
def sim_batch(
    seed,
    n_trials,
    hole_me,
    board0,
    nb0,
    me,
    st0,
    bet_sizes,
    weights,
    cum,
    totals,
    hs_now,
    pp_now,
    nn_now,
    always_call,
    params,
    out_call,
    out_raise,
    out_holes,
    tables,
):
    """Play ``n_trials`` trials of one decision (see :mod:`loki.simulator`), both branches each.

    Writes per trial ``out_call[i]`` / ``out_raise[i]`` (our chips won minus chips put in from the
    decision on, first action forced to check/call resp. bet/raise) and ``out_holes[i, p]`` (the
    holding sampled for opponent ``p``; untouched for us and folded players).  ``st0`` is the
    betting state vector of the decision (:func:`loki.simulator.spot_state`), ``bet_sizes`` the
    ``(4,) float64`` bet sizes, ``tables`` the evaluator tables; the other arguments are the arrays
    :func:`loki.simulator.simulate` prepares.  Seeds numba's generator with ``seed`` first, so a batch
    is reproducible.
    """
    np.random.seed(seed)
    m = st0[N]
    street = nb0 - 2
    active0 = np.zeros(m, dtype=np.bool_)
    for p in range(m):
        active0[p] = st0[FOLDED + p] == 0
    hole = np.zeros((m, 2), dtype=np.int64)
    hole[me, 0] = hole_me[0]
    hole[me, 1] = hole_me[1]
    board = np.zeros(5, dtype=np.int64)
    for i in range(nb0):
        board[i] = board0[i]
    hs1 = np.zeros((m, 4))
    pp = np.zeros((m, 4))
    nn = np.zeros((m, 4))
    u = np.zeros(m)
    ranks = np.zeros(m, dtype=np.int64)
    hs_tmp = np.zeros(m)
    deck = np.zeros(52, dtype=np.int64)
    st = np.zeros(SIZE, dtype=np.int64)
    pots = np.zeros((NMAX, 3), dtype=np.int64)
    shares = np.zeros((NMAX, m))
    win = np.zeros(m)
    no_trace = np.zeros((0, SIZE + 1), dtype=np.int64)
    base_used = np.uint64(0)
    base_used |= np.uint64(1) << np.uint64(hole_me[0])
    base_used |= np.uint64(1) << np.uint64(hole_me[1])
    for i in range(nb0):
        base_used |= np.uint64(1) << np.uint64(board0[i])
    for i_trial in range(n_trials):
        used = base_used
        for p in range(m):
            if p == me or not active0[p]:
                continue
            h = _sample_holding(weights[p], cum[p], totals[p], used)
            hole[p, 0] = _HC[h, 0]
            hole[p, 1] = _HC[h, 1]
            used |= _HM[h]
            out_holes[i_trial, p] = h
        # deal the rest of the board
        nd = 0
        for c in range(52):
            if (used >> np.uint64(c)) & np.uint64(1) == 0:
                deck[nd] = c
                nd += 1
        for i in range(nb0, 5):
            j = i - nb0 + int(np.random.random() * (nd - (i - nb0)))
            tmp = deck[i - nb0]
            deck[i - nb0] = deck[j]
            deck[j] = tmp
            board[i] = deck[i - nb0]
        for p in range(m):
            u[p] = np.random.random()
            if active0[p]:
                a0 = hole[p, 0]
                a1 = hole[p, 1]
                ranks[p] = rank7(a0, a1, board[0], board[1], board[2], board[3], board[4], tables)
        if not always_call:
            for p in range(m):
                if active0[p]:
                    h = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
                    hs1[p, street] = hs_now[h]
                    pp[p, street] = pp_now[h]
                    nn[p, street] = nn_now[h]
            for s in range(street + 1, 4):
                nb = s + 2
                _hs_on_board(board, nb, hole, active0, m, hs_tmp, tables)
                for p in range(m):
                    if active0[p]:
                        hs1[p, s] = hs_tmp[p]
                        pp[p, s] = ppot_outs(hole[p, 0], hole[p, 1], board, nb, tables)
                        nn[p, s] = 0.0
        out_call[i_trial] = playout(
            CALL_A, me, st0, bet_sizes, hs1, pp, nn, u, ranks, always_call, params, st, pots, shares, win, no_trace
        )
        out_raise[i_trial] = playout(
            RAISE_A, me, st0, bet_sizes, hs1, pp, nn, u, ranks, always_call, params, st, pots, shares, win, no_trace
        )
