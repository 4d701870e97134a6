"""Tournament statistics: sb/hand with confidence intervals over deals, and style statistics.

The unit of sampling is the **deal**: the replays of a deal share their cards and are strongly
(negatively) correlated, so a player's result on deal ``d`` is its net chips over the deal's
``n`` replays divided by ``n`` hands and by the small bet, ``x_d`` (sb/hand).  The estimate is the
mean of ``x_d`` over the ``D`` deals, with the Student-t interval
``mean ± t(0.975, D - 1) · sd(x) / sqrt(D)``.  A player type's ``x_d`` is the mean over the players
of that type; a comparison's ``x_d`` is (mean of the enhanced types' ``x_d``) minus (mean of the
control types' ``x_d``), each type weighing the same, so the difference is paired by deal.

With the ``aivat`` estimator (:mod:`loki.aivat`) each game's payoffs get the AIVAT corrections; they are
summed per deal like the payoffs, ``y_d = x_d + (chance_d + action_d) / (n · small bet)``, and ``y`` goes
through the same statistics (the deal stays the unit of sampling).  The summary then has an ``aivat``
section next to the plain figures: the AIVAT estimate with its interval, the variance ratio
``var(y) / var(x)`` (deals needed for a given interval scale with it), both standard deviations and the mean
chance and action corrections (each has expectation 0).

Style statistics (counted over all hands played, :mod:`loki.tournament.handstats` has the definitions): ``vpip``,
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
from loki.stats import mean_ci
from loki.tournament.handstats import HandCounts

__all__ = ["summarize", "comparison_series", "per_deal_sb", "aivat_summary", "quality_summary"]


def per_deal_sb(chips: Sequence[Sequence[float]] | np.ndarray, n_players: int, small_bet: int) -> np.ndarray:
    """Each player's result per deal, in small bets per hand.

    Args:
        chips: ``(D, n)`` net chips per deal (deal order) and player (tournament index), nested sequences or an
            array: the sum over the deal's ``n`` replays (:attr:`loki.tournament.runner.TournamentRun.chips`).
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


def summarize(config, chips, counters, level: float = 0.95, corrections=None, quality=None) -> dict:
    """The tournament's results as a JSON-able dict (``players``, ``types``, ``comparisons``, and
    ``aivat`` when ``corrections`` are given).

    Args:
        config: the :class:`~loki.tournament.config.TournamentConfig`.
        chips: net chips per deal and player (deal order).
        counters: per-player counters (dicts with the :data:`loki.tournament.handstats.COUNTERS` keys).
        corrections: None, or the AIVAT corrections ``(chance, action)``, each ``(D, n)`` chips like
            ``chips`` (:attr:`loki.tournament.runner.TournamentRun.corrections`); adds the ``aivat``
            section (:func:`aivat_summary`).
        quality: None, or per player a model-quality tally dict or None
            (:attr:`loki.tournament.runner.TournamentRun.quality`); adds the ``model_quality`` section
            (:func:`quality_summary`) when some player keeps opponent models.
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
    out = {
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
    if corrections is not None:
        out["aivat"] = aivat_summary(config, chips, corrections[0], corrections[1], level)
    if quality is not None and any(q is not None for q in quality):
        out["model_quality"] = quality_summary(config, quality)
    return out


def quality_summary(config, quality) -> list[dict]:
    """The ``model_quality`` section: per player type whose players keep opponent models, the model quality of
    their models of every opponent, summed over the type's players
    (:class:`loki.modeler.QualityTally`): ``type``, ``showdowns``, ``median_percentile`` (grouped median, within
    one point), ``mean_percentile`` (50 = no information), ``loglik_per_action`` (−1.099 = uninformative) and
    ``collapse_rate`` (target 0).

    Args:
        config: the :class:`~loki.tournament.config.TournamentConfig`.
        quality: per player (table order) a :class:`~loki.modeler.QualityTally` dict or None.
    """
    from loki.modeler.quality import QualityTally

    out = []
    for lab in config.labels:
        tallies = [
            QualityTally.from_dict(quality[si.index])
            for si in config.seats
            if si.label == lab and quality[si.index] is not None
        ]
        if not tallies:
            continue
        tot = tallies[0]
        for t in tallies[1:]:
            tot = tot + t
        out.append({"type": lab, **tot.summary()})
    return out


def _groups(config, x: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Per-deal series ``(D,)`` of each player, each type (mean over its players) and each comparison
    (enhanced types' mean minus control types' mean), as :func:`summarize` forms them."""
    seats = config.seats
    players = [x[:, si.index] for si in seats]
    type_x = {}
    for lab in config.labels:
        idx = [si.index for si in seats if si.label == lab]
        type_x[lab] = x[:, idx].mean(axis=1)
    comps = [
        np.mean([type_x[t] for t in c.enhanced], axis=0) - np.mean([type_x[t] for t in c.control], axis=0)
        for c in config.compare
    ]
    return players, list(type_x.values()), comps


def comparison_series(config, chips, chance=None, action=None) -> list[np.ndarray]:
    """Each comparison's per-deal series ``(D,) float64`` in sb/hand (enhanced types' mean minus control types' mean,
    paired by deal, as :func:`summarize` forms it); with the AIVAT corrections ``chance`` and ``action`` (``(D, n)``
    chips like ``chips``) the AIVAT series of :func:`aivat_summary`.  A tuning study's objective
    (:mod:`loki.tune`).

    Raises:
        ConfigError: arrays that are not ``D`` rows of ``n`` numbers.
    """
    n = config.n_players
    sb = config.game_config().small_bet
    x = per_deal_sb(chips, n, sb)
    if chance is not None and action is not None:
        x = x + per_deal_sb(chance, n, sb) + per_deal_sb(action, n, sb)
    return _groups(config, x)[2]


def _sd(x: np.ndarray) -> float | None:
    return float(x.std(ddof=1)) if x.size > 1 else None


def _aivat_entry(x: np.ndarray, chance: np.ndarray, action: np.ndarray, level: float) -> dict:
    y = x + chance + action
    e = _ci_entry(y, level)
    sx, sy = _sd(x), _sd(y)
    e["variance_ratio"] = (sy / sx) ** 2 if sx and sy is not None else None
    e["sd"] = sy
    e["plain_sd"] = sx
    e["chance_correction"] = float(chance.mean()) if chance.size else math.nan
    e["action_correction"] = float(action.mean()) if action.size else math.nan
    _, h = mean_ci(chance + action, level)
    e["correction_ci"] = None if math.isnan(h) else h
    return e


def aivat_summary(config, chips, chance, action, level: float = 0.95) -> dict:
    """The ``aivat`` section of the summary: the AIVAT estimates next to the plain ones.

    Args:
        config: the tournament configuration.
        chips, chance, action: ``(D, n)`` net chips, chance corrections and action corrections (chips)
            per deal and player.
        level: confidence level.

    Returns:
        ``{"value_function", "value_function_version", "value_function_provenance", "action_baselines", "players",
        "types", "comparisons"}`` (the value function's name, version and provenance and the action baselines of
        the run's estimator, :func:`loki.aivat.named_estimator`); each entry has its key fields (``index``
        and ``name``; ``type``; ``name``) and ``sb_per_hand``, ``ci`` (half-width), ``deals`` of the AIVAT
        estimate, ``variance_ratio`` (AIVAT / plain per-deal variance; None without variance), ``sd`` and
        ``plain_sd`` (per-deal standard deviations, sb/hand), ``chance_correction`` and
        ``action_correction`` (mean corrections, sb/hand) and ``correction_ci`` (half-width of the mean
        total correction's interval; 0 lies inside it unless something is wrong).

    Raises:
        ConfigError: arrays that are not ``D`` rows of ``n`` numbers.

    Source: Burch, Schmid, Moravčík, Morrill, Bowling, AIVAT, AAAI-18 (:mod:`loki.aivat`).
    """
    from loki.aivat import named_estimator

    setup = named_estimator(getattr(config, "estimator", "aivat")).describe()
    n = config.n_players
    sb = config.game_config().small_bet
    x = per_deal_sb(chips, n, sb)
    xc = per_deal_sb(chance, n, sb)
    xa = per_deal_sb(action, n, sb)
    if xc.shape != x.shape or xa.shape != x.shape:
        raise ConfigError(f"aivat_summary: corrections of shapes {xc.shape}, {xa.shape} for chips {x.shape}")
    gx, gc, ga = _groups(config, x), _groups(config, xc), _groups(config, xa)
    players = [
        {"index": si.index, "name": si.name, **_aivat_entry(gx[0][i], gc[0][i], ga[0][i], level)}
        for i, si in enumerate(config.seats)
    ]
    types = [{"type": lab, **_aivat_entry(gx[1][i], gc[1][i], ga[1][i], level)} for i, lab in enumerate(config.labels)]
    comps = [
        {"name": c.name, **_aivat_entry(gx[2][i], gc[2][i], ga[2][i], level)} for i, c in enumerate(config.compare)
    ]
    vf = setup["value_function"]
    return {
        "value_function": vf["name"],
        "value_function_version": vf["version"],
        "value_function_provenance": vf["provenance"],
        "action_baselines": setup["action_baselines"],
        "players": players,
        "types": types,
        "comparisons": comps,
    }
