"""Model quality: how well an observer's opponent models knew the cards they were about.

Measured at every showdown, for every opponent whose cards are shown there:

- **showdown percentile**: the percentile (0..100) of the shown holding in the observer's final weight table for
  that opponent, over the holdings still possible for the observer (not sharing a card with the board or its own
  hole cards); ties count half, so a table that knows nothing (all weights equal) gives 50;
- **log-likelihood**: the mean log-probability, per observed post-flop action of that opponent, of the action it
  took given the holding it showed, under the observer's modelling triples (the model's ``P(action | holding)``
  recorded when the action was re-weighted; Loki-1's μ/σ ramps imply one too, see
  :mod:`loki.modeler.loki1`).  Higher is better; ``log(1/3) = −1.10`` is a model that says nothing;
- **collapses**: re-weightings after which every possible holding sits at the 0.01 floor (the table has learned
  nothing but an impossibility; target 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from loki.cards import HOLDING_INDEX, HOLDING_MASKS, cards_mask
from loki.modeler.kernels import weight_rank_counts

__all__ = ["holding_percentile", "ModelQuality", "QualityTally", "PERCENTILE_BINS", "LIKELIHOOD_FLOOR"]

#: Probabilities below this count as this in log-likelihoods (a model that gives an observed action probability 0
#: would otherwise score minus infinity).
LIKELIHOOD_FLOOR = 1e-6


def holding_percentile(weights: np.ndarray, hole: Sequence[int], dead: Sequence[int]) -> float:
    """Percentile (0..100) of the holding ``hole`` within ``weights`` over the live holdings (not containing a
    ``dead`` card); ties count half.

    Args:
        weights: ``(1326,) float64`` weight table.
        hole: the two cards of the holding.
        dead: cards known to be elsewhere (board, the observer's hole cards).

    >>> from loki.cards import parse_cards
    >>> w = np.ones(1326); holding_percentile(w, parse_cards("AsKs"), parse_cards("2c3c4d"))
    50.0
    """
    w = np.ascontiguousarray(weights, dtype=np.float64)
    h = int(HOLDING_INDEX[hole[0], hole[1]])
    below, equal, n = weight_rank_counts(w, h, np.uint64(cards_mask(dead)), HOLDING_MASKS)
    if n == 0:
        return 50.0
    return float(100.0 * (below + 0.5 * equal) / n)


@dataclass
class ModelQuality:
    """An observer's model-quality counters (module docstring), additive over hands and blocks.

    Attributes:
        percentiles: showdown percentiles, one per (showdown, shown opponent).
        loglik: sum of ``log max(P(action | shown holding), LIKELIHOOD_FLOOR)`` over traced actions.
        actions: number of traced actions in ``loglik``.
        reweights: re-weightings done (non-fold actions observed).
        collapses: re-weightings that left every possible holding at the floor.
    """

    percentiles: list[float] = field(default_factory=list)
    loglik: float = 0.0
    actions: int = 0
    reweights: int = 0
    collapses: int = 0

    def add_likelihood(self, p: float) -> None:
        """Count one traced action whose model probability for the shown holding was ``p``."""
        self.loglik += math.log(max(float(p), LIKELIHOOD_FLOOR))
        self.actions += 1

    def merge(self, other: ModelQuality) -> None:
        """Add another observer's (or block's) counters to these."""
        self.percentiles.extend(other.percentiles)
        self.loglik += other.loglik
        self.actions += other.actions
        self.reweights += other.reweights
        self.collapses += other.collapses

    def as_dict(self) -> dict:
        """JSON-ready counters (percentiles rounded to 0.01)."""
        return {
            "percentiles": [round(p, 2) for p in self.percentiles],
            "loglik": self.loglik,
            "actions": self.actions,
            "reweights": self.reweights,
            "collapses": self.collapses,
        }

    @classmethod
    def from_dict(cls, d: dict) -> ModelQuality:
        """The inverse of :meth:`as_dict`."""
        return cls(
            list(d["percentiles"]), float(d["loglik"]), int(d["actions"]), int(d["reweights"]), int(d["collapses"])
        )

    def summary(self) -> dict:
        """``median_percentile``, ``mean_percentile``, ``showdowns``, ``loglik_per_action``, ``collapse_rate``
        (None where nothing was measured)."""
        p = self.percentiles
        return {
            "showdowns": len(p),
            "median_percentile": float(np.median(p)) if p else None,
            "mean_percentile": float(np.mean(p)) if p else None,
            "loglik_per_action": self.loglik / self.actions if self.actions else None,
            "collapse_rate": self.collapses / self.reweights if self.reweights else None,
        }


#: Bins of :class:`QualityTally`'s percentile histogram: one per percentile point, ``[k, k + 1)`` (100 in the last).
PERCENTILE_BINS = 100


@dataclass
class QualityTally:
    """Compact, additive model-quality counters for tournament journals: the showdown
    percentiles as a histogram instead of a list, so a block record stays small.

    Attributes:
        histogram: ``(100,) int64``: showdown percentiles counted in one-point bins ``[k, k + 1)``.
        percentile_sum: sum of the percentiles (exact mean).
        loglik, actions, reweights, collapses: as in :class:`ModelQuality`.
        model_weights: an adaptive modeler's candidate weights summed over the opponents it models at the end of each
            block (:meth:`loki.modeler.adaptive.AdaptiveModeler.weights_of`); weighed: how many such opponents.

    >>> t = QualityTally.from_quality(ModelQuality([10.0, 50.0, 90.0], -3.3, 3, 5, 0))
    >>> t.summary()["median_percentile"], t.summary()["mean_percentile"], round(t.summary()["loglik_per_action"], 2)
    (50.5, 50.0, -1.1)
    """

    histogram: np.ndarray = field(default_factory=lambda: np.zeros(PERCENTILE_BINS, np.int64))
    percentile_sum: float = 0.0
    loglik: float = 0.0
    actions: int = 0
    reweights: int = 0
    collapses: int = 0
    model_weights: dict[str, float] = field(default_factory=dict)
    weighed: int = 0

    @classmethod
    def from_quality(cls, q: ModelQuality) -> QualityTally:
        """The tally of one observer's :class:`ModelQuality`."""
        h = np.zeros(PERCENTILE_BINS, np.int64)
        if q.percentiles:
            idx = np.clip(np.floor(np.asarray(q.percentiles, dtype=np.float64)), 0, PERCENTILE_BINS - 1)
            np.add.at(h, idx.astype(np.int64), 1)
        return cls(h, float(sum(q.percentiles)), q.loglik, q.actions, q.reweights, q.collapses)

    def __add__(self, other: QualityTally) -> QualityTally:
        return QualityTally(
            self.histogram + other.histogram,
            self.percentile_sum + other.percentile_sum,
            self.loglik + other.loglik,
            self.actions + other.actions,
            self.reweights + other.reweights,
            self.collapses + other.collapses,
            {k: self.model_weights.get(k, 0.0) + other.model_weights.get(k, 0.0)
             for k in {**self.model_weights, **other.model_weights}},
            self.weighed + other.weighed,
        )  # fmt: skip

    def as_dict(self) -> dict:
        """JSON-ready (the histogram as a list of 100 ints)."""
        return {
            "histogram": [int(x) for x in self.histogram],
            "percentile_sum": self.percentile_sum,
            "loglik": self.loglik,
            "actions": self.actions,
            "reweights": self.reweights,
            "collapses": self.collapses,
            **({"model_weights": dict(self.model_weights), "weighed": self.weighed} if self.weighed else {}),
        }

    @classmethod
    def from_dict(cls, d: dict) -> QualityTally:
        """The inverse of :meth:`as_dict`.

        Raises:
            ValueError: a histogram that is not 100 non-negative integers, or missing keys.
        """
        h = np.asarray(d["histogram"], dtype=np.int64)
        if h.shape != (PERCENTILE_BINS,) or (h < 0).any():
            raise ValueError(f"histogram: expected {PERCENTILE_BINS} non-negative counts")
        return cls(
            h,
            float(d["percentile_sum"]),
            float(d["loglik"]),
            int(d["actions"]),
            int(d["reweights"]),
            int(d["collapses"]),
            {str(k): float(v) for k, v in dict(d.get("model_weights", {})).items()},
            int(d.get("weighed", 0)),
        )

    def summary(self) -> dict:
        """As :meth:`ModelQuality.summary`, the median interpolated within its one-point bin (the grouped median:
        within about a point of the exact one once the two middle percentiles share or neighbour a bin, i.e. with
        hundreds of showdowns; a handful of showdowns can differ more)."""
        n = int(self.histogram.sum())
        med = None
        if n:
            cum = np.cumsum(self.histogram)
            k = int(np.searchsorted(cum, n / 2.0))
            before = int(cum[k - 1]) if k else 0
            med = k + (n / 2.0 - before) / int(self.histogram[k])
        return {
            "showdowns": n,
            "median_percentile": med,
            "mean_percentile": self.percentile_sum / n if n else None,
            "loglik_per_action": self.loglik / self.actions if self.actions else None,
            "collapse_rate": self.collapses / self.reweights if self.reweights else None,
            **(
                {"model_weights": {k: v / self.weighed for k, v in sorted(self.model_weights.items())}}
                if self.weighed
                else {}
            ),
        }
