"""The opponent modeler's numba kernels: the frequency-matched triple (:mod:`loki.modeler.specific`), written once
for the modeler (over all holdings) and the Simulator's play-outs (one simulated opponent at a time)."""

from __future__ import annotations

from loki._jit import njit
from loki.rule_chain import _ramp  # the threshold ramp of the rule chain, written once

__all__ = ["freq_triple", "freq_triples_all"]


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
        p_raise = keep * _ramp(q, 1.0 - top, softness)
    p_fold = 1.0 - _ramp(q, f, softness) if f > 0.0 else 0.0
    over = p_raise + p_fold
    if over > 1.0:
        p_raise /= over
        p_fold /= over
    return p_fold, 1.0 - p_raise - p_fold, p_raise


@njit(cache=True)
def freq_triples_all(q, f, r, facing, softness, rho, out):
    """:func:`freq_triple` for every entry of ``q`` ``(k,) float64`` into ``out`` ``(k, 3) float64``."""
    for i in range(q.shape[0]):
        a, b, c = freq_triple(q[i], f, r, facing, softness, rho)
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
