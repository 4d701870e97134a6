"""The opponent modeler's numba kernels: the frequency-matched triple (:mod:`loki.modeler.specific`), written once
for the modeler (over all holdings) and the Simulator's play-outs (one simulated opponent at a time)."""

from __future__ import annotations

import numpy as np

from loki._jit import njit
from loki.triples.rule_chain import pt_kernel, ramp  # the rule chain, written once

#: Observations needed before a context's own frequencies are used unblended (papp/node56).
BLEND_OBSERVATIONS = 20

__all__ = [
    "np_sum",
    "mixture_into",
    "predictive_probability",
    "softmax_into",
    "model_average_into",
    "grouped_average_into",
    "grouped_log_weights_into",
    "blind_log_odds_step",
    "freq_triple",
    "freq_triples_all",
    "percentiles_into",
    "live_percentiles_into",
    "board_order_into",
    "any_above",
    "weight_rank_counts",
    "blend_frequencies",
    "pooled_counts_into",
    "blind_frequency_into",
    "blind_frequencies_into",
    "mu_sigma",
    "ramp_ends",
    "ramp_factor",
    "ramp_factors_into",
    "loki1_reweight_row",
    "loki1_observe_row",
    "triple_column",
    "reweight_row_live",
    "reweight_holding",
    "reweight_row",
    "specific_reweight_row",
]


@njit(cache=True)
def _pairwise_block(a, lo, n):
    # numpy's pairwise_sum for n <= 128: a plain loop below 8 values, else 8 accumulators and the rest
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@njit(cache=True)
def _pairwise(a, lo, n):
    """numpy's pairwise summation of ``a[lo:lo + n]`` (``pairwise_sum`` of numpy's ``loops_utils.h``: plain below 8
    values, 8 accumulators up to 128, above that the two halves, the first rounded down to a multiple of 8, summed
    apart and added), the very floats of ``np.add.reduce`` on a contiguous float64 array (with its initial 0.0,
    :func:`np_sum`).  numpy recurses; here the same tree is walked with an explicit stack (numba's disk cache
    cannot hold a recursive function)."""
    if n <= 128:
        return _pairwise_block(a, lo, n)
    t_lo = np.empty(128, dtype=np.int64)  # pending tasks: (lo, n) to sum, or n = -1: add the last two sums
    t_n = np.empty(128, dtype=np.int64)
    vals = np.empty(128)
    nt = 1
    nv = 0
    t_lo[0] = lo
    t_n[0] = n
    while nt > 0:
        nt -= 1
        lo_k = t_lo[nt]
        n_k = t_n[nt]
        if n_k < 0:
            nv -= 1
            vals[nv - 1] = vals[nv - 1] + vals[nv]
        elif n_k <= 128:
            vals[nv] = _pairwise_block(a, lo_k, n_k)
            nv += 1
        else:
            n2 = n_k // 2
            n2 -= n2 % 8
            t_n[nt] = -1
            t_lo[nt + 1] = lo_k + n2
            t_n[nt + 1] = n_k - n2
            t_lo[nt + 2] = lo_k
            t_n[nt + 2] = n2
            nt += 3
    return vals[0]


@njit(cache=True)
def np_sum(a):
    """``np.add.reduce(a)`` of a contiguous float64 vector, bit for bit (:func:`_pairwise`; the Simulator's cut-off
    and the adaptive model's mixture sum as numpy does)."""
    return 0.0 + _pairwise(a, 0, a.shape[0])


@njit(cache=True)
def mixture_into(tables, post, live, low, row):
    """The adaptive model's average of its candidates' tables (:meth:`loki.modeler.AdaptiveModeler.reweight`), the
    floats of its numpy form ``mixed = Σ_k post[k] · t_k / Σ_live t_k`` (candidates with no live weight left out, the
    sums numpy's pairwise ones: :func:`np_sum`), divided by its live maximum and floored at ``low``, written into
    ``row`` at the live holdings (nothing written when the live maximum is not positive).

    Args:
        tables: ``(k, 1326) float64`` the candidates' tables; post: ``(k,) float64`` their weights.
        live: ``(1326,) bool`` the holdings an opponent may hold; low: the floor (0.01).
        row: ``(1326,) float64`` the opponent's table (written in place).

    Returns:
        Whether ``row`` was written.
    """
    n = live.shape[0]
    idx = np.empty(n, dtype=np.int64)
    m = _live_index(live, idx)
    return _mixture_at(tables, post, idx, m, low, row, np.empty(n), np.empty(n))


@njit(cache=True)
def _live_index(live, idx):
    # the live holdings in holding order into idx; their number
    m = 0
    for h in range(live.shape[0]):
        if live[h]:
            idx[m] = h
            m += 1
    return m


@njit(cache=True)
def _mixture_at(tables, post, idx, m, low, row, buf, mixed):
    # mixture_into over the m live holdings idx[:m] (only the live entries of the average are read, so only they are
    # computed: the same floats, in the same order); each candidate's live entries gathered once into buf, which the
    # sum and the average both read (a contiguous loop the compiler vectorises, divisions included)
    for j in range(m):
        mixed[j] = 0.0
    for k in range(tables.shape[0]):
        for j in range(m):
            buf[j] = tables[k, idx[j]]
        s = np_sum(buf[:m])
        if s > 0.0:
            wk = post[k]
            for j in range(m):
                mixed[j] += wk * buf[j] / s
    top = 0.0
    for j in range(m):
        if j == 0 or mixed[j] > top:
            top = mixed[j]
    if not top > 0.0:
        return False
    for j in range(m):
        x = mixed[j] / top
        row[idx[j]] = x if x > low else low
    return True


@njit(cache=True)
def predictive_probability(before, col, live, buf, buf2):
    """How well a candidate model predicted an action: ``Σ_live before · col / Σ_live before``, the probability of
    the action under the candidate's table before it (:meth:`loki.modeler.AdaptiveModeler.reweight`).

    Both sums are numpy's pairwise sums (:func:`np_sum`) of the live entries in holding order: the denominator the
    floats of ``before[live].sum()``, the numerator the pairwise sum of the products (``np.dot`` would add them in
    the order of the machine's BLAS kernel, which differs between CPUs in the last bits; this order is the same on
    every machine).

    Args:
        before: ``(1326,) float64`` the candidate's table before the action; col: ``(1326,) float64`` its
            ``P(action | holding)``; live: ``(1326,) bool`` the holdings an opponent may hold.
        buf, buf2: ``(1326,) float64`` scratch.

    Returns:
        The probability (NaN when no live weight is left).
    """
    idx = np.empty(live.shape[0], dtype=np.int64)
    return _predictive_at(before, col, idx, _live_index(live, idx), buf, buf2)


@njit(cache=True)
def _predictive_at(before, col, idx, m, buf, buf2):
    # predictive_probability over the m live holdings idx[:m]
    for j in range(m):
        b = before[idx[j]]
        buf[j] = b
        buf2[j] = b * col[idx[j]]
    s = np_sum(buf[:m])
    if not s > 0.0:
        return np.nan
    return np_sum(buf2[:m]) / s


@njit(cache=True)
def softmax_into(e, out):
    """``out = exp(e - max e) / Σ exp(e - max e)``: the adaptive model's weights ``π`` from its candidates' log-weights
    ``e`` ``(k,) float64`` (the sum numpy's pairwise one, :func:`np_sum`; ``exp`` the C library's)."""
    top = e[0]
    for i in range(1, e.shape[0]):
        if e[i] > top:
            top = e[i]
    for i in range(e.shape[0]):
        out[i] = np.exp(e[i] - top)
    s = np_sum(out)
    for i in range(e.shape[0]):
        out[i] = out[i] / s


@njit(cache=True)
def model_average_into(before, tables, cols, live, gamma, floor, log_prior, evidence, post, low, row, buf, buf2):
    """The adaptive model's step after its candidates re-weighted an opponent's table
    (:meth:`loki.modeler.AdaptiveModeler.reweight`, one kernel) when every candidate traced the action: each
    candidate's predictive probability ``p_k`` (:func:`predictive_probability`) updates its log-evidence
    ``E_k ← γ·E_k + log max(p_k, floor)`` (a NaN ``p_k``, no live weight left, counts as ``floor``) and the weights
    ``π = softmax(log prior + E)`` are written into ``post`` (:func:`softmax_into`); then the candidates' tables are
    averaged by ``post`` into ``row`` (:func:`mixture_into`).

    Args:
        before, tables, cols: ``(k, 1326) float64`` each candidate's table before the action, after it, and its
            ``P(action | holding)``.
        live: ``(1326,) bool`` the holdings an opponent may hold.
        gamma, floor: the forgetting factor and the smallest predictive probability.
        log_prior: ``(k,) float64``; evidence: ``(k,) float64`` (updated in place).
        post: ``(k,) float64`` the new weights (written).
        low: the floor of the averaged table (0.01); row: ``(1326,) float64`` the opponent's table (written in
            place); buf, buf2: ``(1326,) float64`` scratch.

    Returns:
        Whether ``row`` was written (:func:`mixture_into`).
    """
    k = tables.shape[0]
    n = live.shape[0]
    idx = np.empty(n, dtype=np.int64)
    m = _live_index(live, idx)
    e = np.empty(k)
    for i in range(k):
        p = _predictive_at(before[i], cols[i], idx, m, buf, buf2)
        evidence[i] = gamma * evidence[i] + np.log(p if p > floor else floor)
        e[i] = log_prior[i] + evidence[i]
    softmax_into(e, post)
    return _mixture_at(tables, post, idx, m, low, row, buf, np.empty(n))


@njit(cache=True)
def grouped_log_weights_into(log_prior, evidence, blind, out):
    """The candidates' log-weights when the card-blind candidate ``blind`` keeps its evidence as log-odds against the
    card-driven candidates' mixture (:meth:`loki.modeler.AdaptiveModeler.reweight`): the card-driven ones
    ``log prior_d + E_d``; the card-blind one ``log prior_b + D + logsumexp_d(log prior_d + E_d) − logsumexp_d(log
    prior_d)``, so that after :func:`softmax_into` its weight is ``σ(log(prior_b / Σ_d prior_d) + D)`` and the
    card-driven candidates share the rest in the ratios of their own evidence.

    Args:
        log_prior, evidence: ``(k,) float64`` (``evidence[blind]`` is ``D``); blind: the card-blind candidate's index.
        out: ``(k,) float64`` (written).
    """
    k = log_prior.shape[0]
    top = -np.inf
    top_p = -np.inf
    for i in range(k):
        if i != blind:
            out[i] = log_prior[i] + evidence[i]
            if out[i] > top:
                top = out[i]
            if log_prior[i] > top_p:
                top_p = log_prior[i]
    s = 0.0
    sp = 0.0
    for i in range(k):
        if i != blind:
            s += np.exp(out[i] - top)
            sp += np.exp(log_prior[i] - top_p)
    out[blind] = log_prior[blind] + evidence[blind] + (top + np.log(s)) - (top_p + np.log(sp))


@njit(cache=True)
def blind_log_odds_step(log_prior, evidence, p, blind, gamma_b, lam, lam_for, bound, floor):
    """The card-blind candidate's log-odds against the card-driven candidates' mixture after one piece of evidence
    (an action, :func:`grouped_average_into`; a shown holding, :meth:`loki.modeler.AdaptiveModeler.learn`):
    ``γ_b·D + λ·L``, clipped to ``[−bound, bound]``, with ``L = log p_b − log max(Σ_d π_d·p_d, floor)``, ``π_d`` the
    card-driven candidates' weights within their group before the evidence, and ``λ = lam_for`` where ``L > 0`` (the
    evidence favours the card-blind hypothesis), ``lam`` otherwise.

    Args:
        log_prior, evidence: ``(k,) float64`` (``evidence[blind]`` is ``D``; read only).
        p: ``(k,) float64`` each candidate's probability of the evidence, at least ``floor``.
        blind: the card-blind candidate's index; gamma_b, lam, lam_for, bound, floor: as :func:`grouped_average_into`.

    Returns:
        the new ``D`` (float).
    """
    k = log_prior.shape[0]
    e = np.empty(k)
    for i in range(k):
        e[i] = log_prior[i] + evidence[i] if i != blind else -np.inf
    within = np.empty(k)
    softmax_into(e, within)  # the card-driven candidates' weights within their group (the card-blind one 0)
    p_group = 0.0
    for i in range(k):
        if i != blind:
            p_group += within[i] * p[i]
    if not p_group > floor:
        p_group = floor
    ratio = np.log(p[blind]) - np.log(p_group)
    d = gamma_b * evidence[blind] + (lam_for if ratio > 0.0 else lam) * ratio
    return min(max(d, -bound), bound)


@njit(cache=True)
def grouped_average_into(
    before,
    tables,
    cols,
    live,
    gamma,
    gamma_b,
    lam,
    lam_for,
    bound,
    floor,
    log_prior,
    evidence,
    post,
    low,
    row,
    buf,
    buf2,
    blind,
):
    """:func:`model_average_into` with the card-blind candidate ``blind`` judged against the card-driven candidates
    as a group (:class:`loki.modeler.adaptive.AdaptiveModelConfig` ``blindness_forgetting``): each card-driven
    candidate's log-evidence ``E_d ← γ·E_d + log max(p_d, floor)``; the card-blind one's log-odds against their mixture
    ``D`` by :func:`blind_log_odds_step`; the weights by :func:`grouped_log_weights_into` and
    :func:`softmax_into`, the tables averaged by them (:func:`mixture_into`).

    Args:
        before, tables, cols, live, floor, log_prior, evidence, post, low, row, buf, buf2: as
            :func:`model_average_into`.
        gamma: the card-driven candidates' forgetting; gamma_b: the card-blind log-odds' forgetting; lam: the weight
            ``λ`` of an action's evidence in them, ``lam_for`` where it favours the card-blind hypothesis; bound: their
            clip; blind: the card-blind candidate's index.

    Returns:
        Whether ``row`` was written.
    """
    k = tables.shape[0]
    n = live.shape[0]
    idx = np.empty(n, dtype=np.int64)
    m = _live_index(live, idx)
    p = np.empty(k)
    for i in range(k):
        p[i] = _predictive_at(before[i], cols[i], idx, m, buf, buf2)
        if not p[i] > floor:  # NaN (no live weight) or under the floor
            p[i] = floor
    d = blind_log_odds_step(log_prior, evidence, p, blind, gamma_b, lam, lam_for, bound, floor)
    for i in range(k):
        if i != blind:
            evidence[i] = gamma * evidence[i] + np.log(p[i])
    evidence[blind] = d
    e = np.empty(k)
    grouped_log_weights_into(log_prior, evidence, blind, e)
    softmax_into(e, post)
    return _mixture_at(tables, post, idx, m, low, row, buf, np.empty(n))


@njit(cache=True)
def freq_triple(q, f, r, facing, softness, rho):
    """The frequency expert's ``(fold, call, raise)`` for a holding at percentile ``q`` (0..1) of its range.

    The bottom ``f`` of the range folds (only when ``facing`` a bet), the top ``r`` raises, with linear ramps of
    half-width ``softness``; with nothing to call a share ``rho`` of the betting hands checks (a check-raise
    propensity), the raise threshold moving so that the range still bets ``r`` of the time.  Where the ramps
    overlap (``c`` small) fold and raise are scaled to sum to 1.
    """
    if not facing:
        f = 0.0
    p_raise = 0.0
    if r > 0.0:
        keep = 1.0 - (rho if not facing else 0.0)
        top = r / keep
        if top > 1.0:
            top = 1.0
        p_raise = keep * ramp(q, 1.0 - top, softness)
    p_fold = 1.0 - ramp(q, f, softness) if f > 0.0 else 0.0
    over = p_raise + p_fold
    if over > 1.0:
        p_raise /= over
        p_fold /= over
    return p_fold, 1.0 - p_raise - p_fold, p_raise


@njit(cache=True)
def percentiles_into(idx, order, lo, hi, weights, out):
    """Weighted mid-rank percentiles (:func:`loki.modeler.specific.percentiles_in_order`, the same floats as its
    numpy form: the cumulative weights in sorted order added one at a time, as ``np.cumsum`` does).

    Args:
        idx: ``(k,) int64`` the holdings ranked; order: ``(k,) int64`` their stable sort by value (positions in
            ``idx``); lo, hi: ``(k,) int64`` the ends of each holding's tie block in that order.
        weights: ``(1326,) float64`` the range.
        out: ``(1326,) float64``, written at ``idx`` (left as it is when the range has no weight there).
    """
    k = idx.shape[0]
    cum = np.empty(k + 1)
    cum[0] = 0.0
    acc = 0.0
    for i in range(k):
        acc += weights[idx[order[i]]]
        cum[i + 1] = acc
    total = cum[k]
    if not total > 0.0:
        return
    for i in range(k):
        a = cum[lo[i]]
        out[idx[i]] = (a + 0.5 * (cum[hi[i]] - a)) / total


@njit(cache=True)
def _live_midranks(by_value, starts, live, weights, num):
    # the live holdings' weighted mid-ranks into num (each run of equal values in the board's order shares one: the
    # cumulative weight before the run plus half the run's), in the board's order; returns the live weights' total
    m = by_value.shape[0]
    acc = 0.0
    i = 0
    while i < m:
        e = i + 1
        while e < m and not starts[e]:
            e += 1
        a = acc
        for t in range(i, e):
            h = by_value[t]
            if live[h]:
                acc += weights[h]
        mid = a + 0.5 * (acc - a)
        for t in range(i, e):
            h = by_value[t]
            if live[h]:
                num[h] = mid
        i = e
    return acc


@njit(cache=True)
def live_percentiles_into(by_value, starts, live, weights, num, out):
    """Weighted mid-rank percentiles of the ``live`` holdings from a board's order of every holding (the floats of
    :func:`percentiles_into` on :func:`loki.modeler.specific.percentile_order` of the live holdings, in one pass and
    without the live holdings' own order): a stable sort of a subset is the subsequence of the stable sort of the
    whole, and the live holdings' tie blocks are the board's runs of equal values restricted to them, so the
    cumulative weights are added in the same order and each block's ends are the same sums.

    Args:
        by_value: ``(m,) int64`` the holdings sharing no card with the board, by value (stable sort).
        starts: ``(m,) bool`` where a run of equal values begins in ``by_value`` (the first entry True).
        live: ``(1326,) bool`` the holdings ranked (a subset of ``by_value``).
        weights: ``(1326,) float64`` the range.
        num: ``(1326,) float64`` scratch.
        out: ``(1326,) float64``, written at the live holdings (left as it is when the range has no weight there).
    """
    m = by_value.shape[0]
    total = _live_midranks(by_value, starts, live, weights, num)
    if not total > 0.0:
        return
    for t in range(m):
        h = by_value[t]
        if live[h]:
            out[h] = num[h] / total


#: a float64's sign bit, and every bit, as the unsigned integers of its order key (:func:`board_order_into`)
_SIGN_BIT = np.uint64(0x8000000000000000)
_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def board_order_into(hs_n, pp, holdings, values, by_value, starts):
    """The opponent-specific model's order of a board's holdings by the value an opponent gives its hand (EHS' with
    HS_n, :func:`loki.modeler.specific.board_percentiles`): ``values = HS_n + (1 − HS_n)·PPot`` of every holding (the
    floats of the numpy expression, element by element), ``by_value`` the ``holdings`` sorted by value **stably** (the
    permutation of ``holdings[np.argsort(values[holdings], kind="stable")]``, NaNs last) and ``starts`` where a run
    of equal values begins (NaNs one run), as :func:`live_percentiles_into` reads them.

    A least-significant-digit radix sort of the values' IEEE-754 bits (11 bits a pass; a pass whose digit every value
    shares is skipped): non-negative floats order as their bits read as unsigned integers, a negative one as its bits
    inverted, −0.0 is taken as +0.0 (they compare equal) and every NaN as the largest key.  A radix sort is stable,
    and ``holdings`` come in holding order, so ties keep holding order as numpy's stable sort does; about half the
    CPU of numpy's sort for a board's ~1,100 holdings.  Unchecked, as the module's other kernels: the caller passes
    a board's values and its holdings (DEFAULT design of the opponent-specific model, :mod:`loki.modeler.specific`).

    Args:
        hs_n, pp: ``(1326,) float64`` HS_n and PPot of every holding (:func:`loki.triples.opponent_hand_values`).
        holdings: ``(m,) int64`` the holdings sharing no card with the board, ascending.
        values: ``(1326,) float64`` (written).
        by_value: ``(m,) int64``, starts: ``(m,) bool`` (written).
    """
    for h in range(values.shape[0]):
        values[h] = hs_n[h] + (1.0 - hs_n[h]) * pp[h]
    m = holdings.shape[0]
    v = np.empty(m)
    for i in range(m):
        v[i] = values[holdings[i]] + 0.0  # −0.0 + 0.0 is +0.0
    bits = v.view(np.uint64)
    keys = np.empty(m, dtype=np.uint64)
    idx = np.empty(m, dtype=np.int64)
    for i in range(m):
        x = v[i]
        b = bits[i]
        if x != x:
            keys[i] = _ALL_BITS
        elif b & _SIGN_BIT:
            keys[i] = b ^ _ALL_BITS
        else:
            keys[i] = b | _SIGN_BIT
        idx[i] = holdings[i]
    keys2 = np.empty(m, dtype=np.uint64)
    idx2 = np.empty(m, dtype=np.int64)
    count = np.empty(2048, dtype=np.int64)
    for p in range(6):  # 6 x 11 bits cover the 64
        shift = np.uint64(11 * p)
        count[:] = 0
        for i in range(m):
            count[np.int64((keys[i] >> shift) & np.uint64(2047))] += 1
        shared = False
        for d in range(2048):
            if count[d] != 0:
                shared = count[d] == m
                break
        if shared:
            continue
        total = 0
        for d in range(2048):
            c = count[d]
            count[d] = total
            total += c
        for i in range(m):
            d = np.int64((keys[i] >> shift) & np.uint64(2047))
            j = count[d]
            count[d] = j + 1
            keys2[j] = keys[i]
            idx2[j] = idx[i]
        keys, keys2 = keys2, keys
        idx, idx2 = idx2, idx
    for i in range(m):
        by_value[i] = idx[i]
        starts[i] = i == 0 or keys[i] != keys[i - 1]


@njit(cache=True)
def freq_triples_all(q, f, r, facing, softness, rho, out):
    """:func:`freq_triple` for every entry of ``q`` ``(k,) float64`` into ``out`` ``(k, 3) float64``."""
    for i in range(q.shape[0]):
        a, b, c = freq_triple(q[i], f, r, facing, softness, rho)
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c


# ------------------------------------------------------------------ re-weighting over the store's rows
@njit(cache=True)
def any_above(weights, row, dead, masks, threshold):
    """True if a holding of ``weights[row]`` that shares no card with ``dead`` weighs more than ``threshold``.

    Args:
        weights: ``(rows, 1326) float64`` weight tables; row: the table to read.
        dead: ``uint64`` mask of the cards no opponent holds; masks: ``(1326,) uint64`` holding masks.
        threshold: weight (the collapse test uses ``0.01·(1 + 1e-9)``).
    """
    # from the last holding down: the holdings of high cards come last, and after a bet or a raise they are the ones
    # above the floor, so the answer is found early (the answer does not depend on the order)
    for h in range(masks.shape[0] - 1, -1, -1):
        if (masks[h] & dead) == 0 and weights[row, h] > threshold:
            return True
    return False


@njit(cache=True)
def weight_rank_counts(weights, h, dead, masks):
    """``(below, equal, n)``: of the ``n`` holdings sharing no card with ``dead`` (``uint64`` card mask; ``masks``
    ``(1326,) uint64`` holding masks), how many weigh less than holding ``h`` in ``weights`` (``(1326,) float64``)
    and how many the same (the showdown percentile, :func:`loki.modeler.quality.holding_percentile`)."""
    x = weights[h]
    below = 0
    equal = 0
    n = 0
    for k in range(masks.shape[0]):
        if (masks[k] & dead) == 0:
            w = weights[k]
            n += 1
            if w < x:
                below += 1
            elif w == x:
                equal += 1
    return below, equal, n


@njit(cache=True)
def blend_frequencies(counts, row, round_, bucket, specific, defaults, out, prior_obs):
    """The context's blended ``(fold, call, raise)`` frequencies into ``out`` ``(3,) float64`` (RECONSTRUCTED
    Eq. 7.4, :meth:`loki.modeler.model.ActionFrequencies.blended`, the same operations in the same order).

    Args:
        counts: ``(rows, 4, 3, 3) int64`` action counts; row: the opponent's row.
        round_, bucket: the context (round 0..3, bets-to-call bucket 0..2).
        specific: blend the opponent's own counts (False: Table B.2 only).
        defaults: ``(3, 3) float64`` Table B.2.
        prior_obs: 0: each round's ``n`` counts weigh ``min(n, 20) / 20`` against the estimate before them (Eq. 7.4);
            ``k > 0``: ``n / (n + k)``, the Bayesian mean of the counts under the estimate before them as ``k``
            pseudo-observations (DEFAULT, beyond the sources: the opponent-specific model's ``frequency_prior``).
    """
    d0 = defaults[bucket, 0]
    d1 = defaults[bucket, 1]
    d2 = defaults[bucket, 2]
    if specific:
        for r in range(round_ + 1):
            c0 = counts[row, r, bucket, 0]
            c1 = counts[row, r, bucket, 1]
            c2 = counts[row, r, bucket, 2]
            n = c0 + c1 + c2
            if n == 0:
                continue
            if prior_obs > 0.0:
                a = n / (n + prior_obs)
            else:
                a = min(n, BLEND_OBSERVATIONS) / BLEND_OBSERVATIONS
            b = 1.0 - a
            d0 = a * (c0 / n) + b * d0
            d1 = a * (c1 / n) + b * d1
            d2 = a * (c2 / n) + b * d2
    out[0] = d0
    out[1] = d1
    out[2] = d2


@njit(cache=True, error_model="python")  # raises ZeroDivisionError as its Python twin does
def context_frequencies_into(counts, row, round_, bucket, facing, low, defaults, out, prior_obs):
    """The frequencies the specific mixture plays in a context (:meth:`loki.modeler.SpecificModeler.context_frequencies`)
    into ``out`` ``(3,) float64``: the blended frequencies (:func:`blend_frequencies`, ``prior_obs`` as there), fold 0
    when not ``facing`` a bet, each floored at ``low`` and divided by their sum added from the left."""
    blend_frequencies(counts, row, round_, bucket, True, defaults, out, prior_obs)
    _floored_into(out[0], out[1], out[2], not facing, low, out)


@njit(cache=True, inline="always")
def _floored_into(f, c, x, no_fold, low, out):
    # (fold, call, raise) frequencies into out: fold 0 when there is no bet to fold to, each floored at low (a NaN
    # too), divided by their sum added from the left
    f = 0.0 if no_fold else (f if f > low else low)
    c = c if c > low else low
    x = x if x > low else low
    s = f + c + x
    out[0] = f / s
    out[1] = c / s
    out[2] = x / s


@njit(cache=True)
def specific_reweight_row(weights, row, counts, round_, bucket, facing, min_freq, defaults, rho, by_value, starts, live,
                          rules_col, softness, pi0, pi1, pi2, action, low, reweight, q, num, freq_col, col, freqs,
                          prior_obs, rank_weights):  # fmt: skip
    """The opponent-specific model's post-flop step (:meth:`loki.modeler.SpecificModeler.reweight`) in one call, the
    floats of its parts: the context frequencies ``F`` (:func:`context_frequencies_into`) into ``freqs``, every
    holding's percentile in the range ``rank_weights`` (:func:`live_percentiles_into`, 0.5 outside
    ``live``) into ``q``, then the mixture: the frequency expert's probability of ``action`` (:func:`freq_triple` at
    each holding's percentile) into ``freq_col``, the mixture's ``col[h] = pi0·rules_col[h] + pi1·freq_col[h] +
    pi2·F[action]``, then, if ``reweight``, feature R on the live holdings (:func:`reweight_holding`) and the live
    entries divided by their maximum when it is in (0, 1).  The frequency expert's entry is computed once per run of
    equal values in the board's order (they share a percentile) and once for all holdings outside ``live`` (at 0.5):
    the floats of computing it holding by holding.

    Args:
        weights, counts, row: the store's tables (``(rows, 1326) float64``, ``(rows, 4, 3, 3) int64``) and the
            opponent's row (its weights written in place).
        round_, bucket, facing, min_freq, defaults: the context (:func:`context_frequencies_into`).
        rho: the check-raise propensity (0 when facing a bet).
        by_value, starts: the board's order of every holding and where its runs of equal values start
            (:func:`live_percentiles_into`); live: ``(1326,) bool``, a subset of ``by_value`` (holdings sharing a card
            with the board are never live; a live holding outside ``by_value`` would get no entries).
        rules_col: ``(1326,) float64`` the rules expert's probability of ``action``.
        softness: the frequency expert's ramps (:func:`freq_triple`); pi0, pi1, pi2: the experts' weights (rules,
            frequency, card-blind); action: 0 fold, 1 check/call, 2 bet/raise; low: the floor (0.01); reweight:
            apply feature R (False for a fold).
        q, num: ``(1326,) float64`` scratch (``q`` holds the percentiles afterwards).
        freq_col, col: ``(1326,) float64`` outputs (the frequency expert's and the mixture's probabilities of
            ``action``); freqs: ``(3,) float64`` output.
        prior_obs: how the frequencies learn (:func:`blend_frequencies`).
        rank_weights: ``(1326,) float64`` the range the percentiles are taken in: ``weights[row]`` (the opponent's
            range before the action) or a uniform one (every live holding alike: percentiles of the deck).
    """
    context_frequencies_into(counts, row, round_, bucket, facing, min_freq, defaults, freqs, prior_obs)
    f, r, blind = freqs[0], freqs[2], pi2 * freqs[action]
    n = q.shape[0]
    # the frequency expert's entry at q = 0.5: every holding outside the range (and all of them when the range has
    # no weight) is at 0.5; a holding's entry is a function of its q only, so it is computed once per distinct q
    # (a run of equal values in the board's order shares its percentile), the same floats as holding by holding
    ff, fc, fr = freq_triple(0.5, f, r, facing, softness, rho)
    m_half = ff if action == 0 else (fc if action == 1 else fr)
    for h in range(n):
        q[h] = 0.5
        if not live[h]:
            freq_col[h] = m_half
            col[h] = pi0 * rules_col[h] + pi1 * m_half + blind
    # the live holdings' percentiles (live_percentiles_into: each run's mid-rank into num), then the mixture run by
    # run, in the board's order: every holding's entries depend on it alone
    m = by_value.shape[0]
    total = _live_midranks(by_value, starts, live, rank_weights, num)
    ranked = total > 0.0
    last_q = np.nan
    mq = m_half
    for t in range(m):
        hh = by_value[t]
        if not live[hh]:
            continue
        if ranked:
            qh = num[hh] / total
            q[hh] = qh
        else:
            qh = 0.5
        if not qh == last_q:  # a new value (a NaN is never the last one)
            ff, fc, fr = freq_triple(qh, f, r, facing, softness, rho)
            mq = ff if action == 0 else (fc if action == 1 else fr)
            last_q = qh
        freq_col[hh] = mq
        x = pi0 * rules_col[hh] + pi1 * mq + blind
        col[hh] = x
        if reweight:
            reweight_holding(weights, row, hh, x, low)
    _rescale_live(weights, row, live)


@njit(cache=True)
def _pooled_at(c, street, bucket, action, pool, pp):
    # one context's pooled count of ``action`` (:func:`loki.modeler.model.pooled_counts_all`'s entry, its additions in
    # its order): its own, its other bucket's facing a bet, then each other post-flop street's (bucket, other bucket)
    other = 3 - bucket
    x = c[street, bucket, action]
    if bucket > 0:
        x = x + pool * c[street, other, action]
    if street > 0:
        for s in range(1, 4):
            if s != street:
                x = x + pool * c[s, bucket, action]
                if bucket > 0:
                    x = x + pp * c[s, other, action]
    return x


@njit(cache=True)
def pooled_counts_into(c, pool, out):
    """Every context's pooled counts (:func:`_pooled_at`, the rule of :func:`loki.modeler.model.pooled_counts_all`)
    of ``c`` ``(4, 3, 3) float64`` into ``out`` ``(4, 3, 3) float64``."""
    pp = pool * pool
    for r in range(4):
        for b in range(3):
            for a in range(3):
                out[r, b, a] = _pooled_at(c, r, b, a, pool, pp)


@njit(cache=True)
def blind_frequency_into(c, street, bucket, pool, prior_weight, low, defaults, out):
    """One context's card-blind frequencies (:func:`loki.modeler.blind.blind_frequencies`' entry, bit for bit) into
    ``out`` ``(3,) float64``: the Bayesian mean of the pooled counts (:func:`_pooled_at`) under ``prior_weight``
    pseudo-observations at Table B.2's ``defaults[bucket]``, no fold in bucket 0, each floored at ``low``, divided by
    their sum added from the left.

    Args:
        c: ``(4, 3, 3) float64`` the opponent's counts [round][bets to call 0/1/2+][fold, call, raise].
        street, bucket: the context (0..3, 0..2); pool: a neighbour context's weight (``pp`` = ``pool²``).
    """
    pp = pool * pool
    o0 = _pooled_at(c, street, bucket, 0, pool, pp)
    o1 = _pooled_at(c, street, bucket, 1, pool, pp)
    o2 = _pooled_at(c, street, bucket, 2, pool, pp)
    t = (o0 + o1 + o2) + prior_weight
    f0 = (o0 + prior_weight * defaults[bucket, 0]) / t
    f1 = (o1 + prior_weight * defaults[bucket, 1]) / t
    f2 = (o2 + prior_weight * defaults[bucket, 2]) / t
    _floored_into(f0, f1, f2, bucket == 0, low, out)  # t > 0: no NaN, np.maximum's floats


@njit(cache=True)
def blind_frequencies_into(c, pool, prior_weight, low, defaults, out):
    """Every context's :func:`blind_frequency_into` into ``out`` ``(4, 3, 3) float64`` (the card-blind hypothesis's
    table, :func:`loki.modeler.blind.blind_frequencies`)."""
    for r in range(4):
        for b in range(3):
            blind_frequency_into(c, r, b, pool, prior_weight, low, defaults, out[r, b])


@njit(cache=True, error_model="python")  # raises ZeroDivisionError as its Python twin does
def context_frequencies_post(counts, row, low, defaults, out, prior_obs):
    """Every post-flop context's :func:`context_frequencies_into` (the believed play-out's ``freqs``; facing a bet in
    buckets 1 and 2) into ``out`` ``(4, 3, 3) float64`` rows 1..3 (row 0 untouched)."""
    for r in range(1, 4):
        for b in range(3):
            context_frequencies_into(counts, row, r, b, b > 0, low, defaults, out[r, b], prior_obs)


@njit(cache=True)
def mu_sigma(action, f, c):
    """μ and σ of the hand-value percentile an observed action needs (RECONSTRUCTED DEFAULT, loki-algorithms.md
    §4.3): ``μ = f`` for a check/call (``action`` 1), ``f + c`` for a bet/raise (2), clipped to [0, 1];
    ``σ = max(0.05, 0.5·min(μ, 1 − μ))``.  ``f, c``: the context's blended fold and call frequencies."""
    mu = f if action == 1 else f + c
    mu = min(max(mu, 0.0), 1.0)
    return mu, max(0.05, 0.5 * min(mu, 1.0 - mu))


@njit(cache=True)
def ramp_ends(mu, sigma, sorted_values):
    """The ramp's ends ``μ − σ, μ + σ``; with ``sorted_values`` ``(k,) float64`` ascending (the IR values pre-flop;
    an empty array post-flop) the percentiles are taken to that scale by nearest-point indexing, ties to even
    (pena/node27)."""
    lo = mu - sigma
    hi = mu + sigma
    if sorted_values.shape[0] > 0:
        last = sorted_values.shape[0] - 1
        lo = sorted_values[int(np.rint(min(max(lo, 0.0), 1.0) * last))]
        hi = sorted_values[int(np.rint(min(max(hi, 0.0), 1.0) * last))]
    return lo, hi


@njit(cache=True, inline="always")
def ramp_factor(v, lo, hi, low):
    """The μ/σ ramp of a hand value (pena/node27): ``low`` below ``lo``, 1 above ``hi``, linear between (a step at
    ``hi`` when ``hi <= lo``), clipped to [low, 1]."""
    x = (1.0 if v >= hi else low) if hi <= lo else (v - lo) / (hi - lo)
    return min(max(x, low), 1.0)


@njit(cache=True)
def ramp_factors_into(values, lo, hi, low, out):
    """:func:`ramp_factor` of every entry of ``values`` ``(k,) float64`` into ``out`` ``(k,) float64``."""
    for i in range(values.shape[0]):
        out[i] = ramp_factor(values[i], lo, hi, low)


@njit(cache=True)
def loki1_reweight_row(weights, round_start, applied_mu, row, action, freqs, values, sorted_values, low):
    """Loki-1's μ/σ re-weighting of one row in place (pena/node27; loki-algorithms.md §4.3).

    With ``μ, σ`` of :func:`mu_sigma`: when μ is above the round's applied μ (and above 0), every holding's weight
    becomes ``max(low, w_round_start · ramp(v))`` (:func:`ramp_factor` between the :func:`ramp_ends`), so at most one
    effective re-weighting per round, always from the stored copy.

    Args:
        weights, round_start: ``(rows, 1326) float64``; applied_mu: ``(rows,) float64``; row: the opponent's row.
        action: 1 check/call, 2 bet/raise.
        freqs: ``(3,) float64`` the context's blended frequencies.
        values: ``(1326,) float64`` hand values (IR pre-flop, EHS' post-flop).
        sorted_values: ``(1326,) float64`` IR values ascending pre-flop; an empty array post-flop.
        low: the floor (0.01).

    Returns:
        True if the table changed.
    """
    mu, sigma = mu_sigma(action, freqs[0], freqs[1])
    if mu <= applied_mu[row] or mu <= 0.0:
        return False
    lo, hi = ramp_ends(mu, sigma, sorted_values)
    for h in range(values.shape[0]):
        w = round_start[row, h] * ramp_factor(values[h], lo, hi, low)
        weights[row, h] = w if w > low else low
    applied_mu[row] = mu
    return True


@njit(cache=True)
def loki1_observe_row(counts, weights, round_start, applied_mu, row, round_, bucket, action, specific, defaults,
                      values, sorted_values, low, out, dead, masks, collapse_at, prior_obs):  # fmt: skip
    """:func:`blend_frequencies` then :func:`loki1_reweight_row`, in one call (Loki-1's modeler after an action), then
    the collapse test of the row (``not any_above(weights, row, dead, masks, collapse_at)``).  ``prior_obs``: how the
    frequencies learn, as :func:`blend_frequencies` (0: Loki-1's blend, Eq. 7.4).

    ``out`` ``(7,) float64`` receives the blended frequencies ``(f, c, r)`` and the check/call and bet/raise ramps'
    ends on the 0..1 percentile scale, ``(μ_c − σ_c, μ_c + σ_c, μ_r − σ_r, μ_r + σ_r)`` (for the likelihood traced
    for model quality).  ``dead``, ``masks``, ``collapse_at``: as :func:`any_above`.  Returns True if no holding
    sharing no card with ``dead`` weighs more than ``collapse_at`` after the re-weighting (a collapse).
    """
    blend_frequencies(counts, row, round_, bucket, specific, defaults, out, prior_obs)
    for k in range(2):
        mu, sigma = mu_sigma(k + 1, out[0], out[1])
        out[3 + 2 * k] = mu - sigma
        out[4 + 2 * k] = mu + sigma
    loki1_reweight_row(weights, round_start, applied_mu, row, action, out, values, sorted_values, low)
    return not any_above(weights, row, dead, masks, collapse_at)


@njit(cache=True, inline="always")
def reweight_holding(weights, row, h, p, low):
    """Feature R for one holding (AAAI99 §4; pena/node34): ``w ← max(low, w·p)``, ``p`` its probability of the
    observed action (DEFAULT, reference §5.4: cumulative, floor 0.01)."""
    w = weights[row, h] * p
    weights[row, h] = w if w > low else low


@njit(cache=True)
def reweight_row(weights, row, column, live, low):
    """:func:`reweight_holding` of every holding with ``live[h]``: ``column`` ``(1326,) float64`` the probabilities
    of the observed action, ``live`` ``(1326,) bool``."""
    for h in range(column.shape[0]):
        if live[h]:
            reweight_holding(weights, row, h, column[h], low)


@njit(cache=True)
def triple_column(hs_n, ppot, npot, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet, params,
                  check_raise_flag, action, column):  # fmt: skip
    """Feature R's likelihoods (AAAI99 §4; pena/node34; :func:`loki.triples.opponent_triples`): every holding's
    probability of the observed ``action`` in the opponent's situation, from its triple by the rule chain on its
    uniform-range values ``HS_n``, ``EHS' = HS_n + (1 − HS_n)·PPot``, ``EHS = HS_n·(1 − NPot) + (1 − HS_n)·PPot``.
    It depends on the board and the public spot only, not on who observes, so one column serves every observer
    of the action (:class:`loki.modeler.triple_model.TripleModeler`); :func:`reweight_row_live` applies it.

    Args:
        hs_n, ppot, npot: ``(1326,) float64`` the board's uniform-range ``HS_1 ** n`` (``n`` the opponents the
            acting player faced; computed by numpy, whose array power can differ from libm's ``pow`` in the last
            bit), PPot1 and NPot1.
        the spot's values, ``params`` and ``check_raise_flag``: as :func:`loki.triples.rule_chain.chain_all` (no semi-bluff
            continuation).
        action: 1 check/call, 2 bet/raise.
        column: ``(1326,) float64`` output, every holding's probability of ``action``.
    """
    for h in range(hs_n.shape[0]):
        x = hs_n[h]
        pp = ppot[h]
        e = x + (1.0 - x) * pp
        eh = x * (1.0 - npot[h]) + (1.0 - x) * pp
        f, c, r = pt_kernel(e, eh, x, pp, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet,
                            params, check_raise_flag, False)  # fmt: skip
        column[h] = c if action == 1 else (r if action == 2 else f)


@njit(cache=True)
def reweight_row_live(weights, row, column, dead, masks, low):
    """:func:`reweight_holding` of every holding sharing no card with ``dead`` (``uint64`` card mask; ``masks``
    ``(1326,) uint64`` the holdings' masks), ``column`` ``(1326,) float64`` the probabilities of the observed
    action (:func:`triple_column`); the other holdings are left as they are."""
    for h in range(column.shape[0]):
        if (masks[h] & dead) == 0:
            reweight_holding(weights, row, h, column[h], low)


@njit(cache=True)
def _rescale_live(weights, row, live):
    # the live entries of weights[row] divided by their maximum when it is in (0, 1)
    top = 0.0
    seen = False
    for h in range(live.shape[0]):
        if live[h]:
            w = weights[row, h]
            if not seen or w > top:
                top = w
            seen = True
    if 0.0 < top < 1.0:
        for h in range(live.shape[0]):
            if live[h]:
                weights[row, h] = weights[row, h] / top
