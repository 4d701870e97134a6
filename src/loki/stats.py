"""Intervals for means: Student's t quantiles and the two-sided interval of a mean.

Used wherever loki reports a mean with its interval: duplicate tournaments (the deal is the unit of sampling,
:mod:`loki.tournament.stats`), replays, the ACPC dealer's sb/hand, tuning studies.

>>> m, h = mean_ci([1.0, 2.0, 3.0, 4.0])
>>> round(m, 3), round(h, 3)
(2.5, 2.054)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from loki.errors import ConfigError

__all__ = ["mean_ci", "t_quantile"]


def t_quantile(p: float, df: int) -> float:
    """Quantile ``p`` of Student's t distribution with ``df`` degrees of freedom.

    Args:
        p: probability, in (0, 1) (e.g. 0.975 for a two-sided 95 % interval).
        df: degrees of freedom, >= 1 (``D - 1`` for ``D`` deals).

    Returns:
        The quantile (a float, unitless); the normal quantile for ``df > 10**6``, where the two agree.

    Raises:
        ConfigError: ``p`` outside (0, 1) or ``df`` < 1 (a ``ValueError``).

    Source: Student's t (``scipy.special.stdtrit``, the function ``scipy.stats.t.ppf`` evaluates; the normal quantile
    ``scipy.special.ndtri``).  ``scipy.special`` rather than ``scipy.stats``: importing ``scipy.stats`` adds ~50 MB to
    a process's peak memory (a tournament's), ``scipy.special`` ~10 MB, for the same floats.

    >>> round(t_quantile(0.975, 3), 3)
    3.182
    """
    from scipy.special import ndtri, stdtrit

    if not 0.0 < p < 1.0:
        raise ConfigError(f"t_quantile: p={p!r}: expected a probability in (0, 1)")
    if df < 1:
        raise ConfigError(f"t_quantile: df={df!r}: expected at least 1 degree of freedom")
    if df > 10**6:
        return float(ndtri(p))
    return float(stdtrit(df, p))


def mean_ci(x: Sequence[float] | np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Mean and half-width of the two-sided Student-t confidence interval of the mean.

    ``mean ± t(0.5 + level/2, D - 1) · sd(x, ddof=1) / sqrt(D)`` (module docstring).

    Args:
        x: ``(D,)`` values, one per deal (in the tournament: sb/hand, :func:`per_deal_sb`).
        level: confidence level in (0, 1) (default 95 %).

    Returns:
        ``(mean, half_width)`` in the units of ``x`` (sb/hand); the mean is NaN with no values,
        the half-width NaN with fewer than 2 values.

    Raises:
        ConfigError: ``level`` outside (0, 1), or ``x`` not a flat sequence of numbers (a ``ValueError``).

    Source: Student's t interval for a mean (sampling unit: the deal, module docstring).
    """
    if not 0.0 < level < 1.0:
        raise ConfigError(f"mean_ci: level={level!r}: expected a confidence level in (0, 1)")
    a = np.asarray(x, dtype=float)
    if a.ndim != 1:
        raise ConfigError(f"mean_ci: expected a flat sequence of values, got shape {a.shape}")
    n = a.size
    if n == 0:
        return math.nan, math.nan
    m = float(a.mean())
    if n < 2:
        return m, math.nan
    sd = float(a.std(ddof=1))
    return m, t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
