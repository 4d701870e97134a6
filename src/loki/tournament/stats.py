"""Tournament statistics: sb/hand with confidence intervals over deals, and style statistics.

The unit of sampling is the **deal**: the replays of a deal share their cards and are strongly
(negatively) correlated, so a player's result on deal ``d`` is its net chips over the deal's
``n`` replays divided by ``n`` hands and by the small bet, ``x_d`` (sb/hand).  The estimate is the
mean of ``x_d`` over the ``D`` deals, with the Student-t interval
``mean ± t(0.975, D - 1) · sd(x) / sqrt(D)``.  A player type's ``x_d`` is the mean over the players
of that type; a comparison's ``x_d`` is (mean of the enhanced types' ``x_d``) minus (mean of the
control types' ``x_d``), each type weighing the same, so the difference is paired by deal.

Style statistics (counted over all hands played, :mod:`loki.handstats` has the definitions): ``vpip``,
``pfr``, ``af`` (post-flop aggression factor), ``wtsd`` and ``wsd`` (W$SD), as fractions (0..1; AF
is bets+raises per call), None when the denominator is 0.

>>> m, h = mean_ci([1.0, 2.0, 3.0, 4.0])
>>> round(m, 3), round(h, 3)
(2.5, 2.054)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from loki.errors import ConfigError
from loki.handstats import HandCounts

__all__ = ["mean_ci", "t_quantile", "summarize", "per_deal_sb"]


def t_quantile(p: float, df: int) -> float:
    """Quantile ``p`` of Student's t distribution with ``df`` degrees of freedom.

    Args:
        p: probability, in (0, 1) (e.g. 0.975 for a two-sided 95 % interval).
        df: degrees of freedom, >= 1 (``D - 1`` for ``D`` deals).

    Returns:
        The quantile (a float, unitless); the normal quantile for ``df > 10**6``, where the two agree.

    Raises:
        ConfigError: ``p`` outside (0, 1) or ``df`` < 1 (a ``ValueError``).

    Source: Student's t (``scipy.stats.t.ppf``).

    >>> round(t_quantile(0.975, 3), 3)
    3.182
    """
    from scipy.stats import norm, t

    if not 0.0 < p < 1.0:
        raise ConfigError(f"t_quantile: p={p!r}: expected a probability in (0, 1)")
    if df < 1:
        raise ConfigError(f"t_quantile: df={df!r}: expected at least 1 degree of freedom")
    if df > 10**6:
        return float(norm.ppf(p))
    return float(t.ppf(p, df))


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


def per_deal_sb(chips: Sequence[Sequence[float]], n_players: int, small_bet: int) -> np.ndarray:
    """Each player's result per deal, in small bets per hand.

    Args:
        chips: ``(D, n)`` net chips per deal (deal order) and player (tournament index): the sum
            over the deal's ``n`` replays (:attr:`loki.tournament.runner.TournamentRun.chips`).
        n_players: ``n``, the players (= replays per deal).
        small_bet: the small bet, in chips (> 0).

    Returns:
        ``(D, n) float64``: ``chips / (n * small_bet)``, sb/hand (each deal is ``n`` hands).

    Raises:
        ConfigError: ``n_players`` < 1, ``small_bet`` <= 0, or ``chips`` not ``D`` rows of
            ``n_players`` numbers.

    Source: the duplicate-tournament statistic of AAAI-99 §6 (module docstring).

    >>> per_deal_sb([[20, -20], [0, 0]], 2, 10).tolist()
    [[1.0, -1.0], [0.0, 0.0]]
    """
    if n_players < 1 or small_bet <= 0:
        raise ConfigError(f"per_deal_sb: need n_players >= 1 and small_bet > 0, got {n_players} and {small_bet}")
    try:
        a = np.asarray(chips, dtype=float)
    except (ValueError, TypeError):
        raise ConfigError(f"per_deal_sb: chips must be D rows of {n_players} numbers") from None
    if a.size == 0:
        return np.zeros((0, n_players))
    if a.ndim != 2 or a.shape[1] != n_players:
        raise ConfigError(f"per_deal_sb: chips must be D rows of {n_players} numbers, got shape {a.shape}")
    return a / (n_players * small_bet)


def _style(c: HandCounts) -> dict:
    return {"hands": c.hands, **c.fractions()}


def _ci_entry(x: np.ndarray, level: float) -> dict:
    m, h = mean_ci(x, level)
    return {"sb_per_hand": m, "ci": None if math.isnan(h) else h, "deals": int(x.size)}


def summarize(config, chips, counters, level: float = 0.95) -> dict:
    """The tournament's results as a JSON-able dict (``players``, ``types``, ``comparisons``).

    Args:
        config: the :class:`~loki.tournament.config.TournamentConfig`.
        chips: net chips per deal and player (deal order).
        counters: per-player counters (dicts with the :data:`loki.handstats.COUNTERS` keys).
    """
    n = config.n_players
    sb = config.game_config().small_bet
    x = per_deal_sb(chips, n, sb)
    seats = config.seats
    players = []
    for si in seats:
        e = {"index": si.index, "name": si.name, "type": si.label, "spec": si.spec}
        e.update(_ci_entry(x[:, si.index], level))
        e.update(_style(HandCounts.from_dict(counters[si.index])))
        players.append(e)
    types = {}
    type_x = {}
    for lab in config.labels:
        idx = [si.index for si in seats if si.label == lab]
        type_x[lab] = x[:, idx].mean(axis=1)
        tot = sum((HandCounts.from_dict(counters[i]) for i in idx), HandCounts())
        e = {"type": lab, "spec": seats[idx[0]].spec, "players": len(idx)}
        e.update(_ci_entry(type_x[lab], level))
        e.update(_style(tot))
        types[lab] = e
    comps = []
    for c in config.compare:
        d = np.mean([type_x[t] for t in c.enhanced], axis=0) - np.mean([type_x[t] for t in c.control], axis=0)
        e = {"name": c.name, "enhanced": list(c.enhanced), "control": list(c.control)}
        e.update(_ci_entry(d, level))
        comps.append(e)
    return {
        "name": config.name,
        "description": config.description,
        "seed": config.seed,
        "deals": int(x.shape[0]),
        "hands": int(x.shape[0]) * n,
        "n_players": n,
        "block_deals": config.block_deals,
        "confidence": level,
        "players": players,
        "types": list(types.values()),
        "comparisons": comps,
    }
