"""The card-blind hypothesis: an opponent whose actions say nothing about its cards (DEFAULT, beyond the sources).

Some players act whatever they hold: a calling station calls, a maniac raises about half the time, a random player
draws its actions; the ACPC's example player is one of them.  As an opponent model (an :class:`OpponentModeler`),
the hypothesis is simple:

* ``P(action | holding) = F(action)``, the opponent's own frequency of the action in its context (round, bets to
  call 0 / 1 / 2+), the same for every holding: the Bayesian mean of its counts in that context under a prior of
  ``prior_weight`` observations at Table B.2's frequencies (papp/node76), so that a few actions move it;
* its weight table is never narrowed (a holding is as likely after any action as before: the table stays the
  uniform range over the holdings the board and our cards leave);
* in the Simulator's believed play-out it plays by those frequencies (:meth:`BlindModeler.playout_policy`).

It is meant as a candidate of the adaptive model (:mod:`loki.modeler.adaptive`), which weighs it against the
card-driven models by how well each predicts the opponent's actions and the holdings it shows down: its weight is
the posterior probability that the opponent is card-blind, and every decision reads it through the averaged weight
table, the averaged play-out policy and :meth:`loki.modeler.adaptive.AdaptiveModeler.card_blindness`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import Field

from loki.cards import N_HOLDINGS
from loki.config import LokiModel
from loki.engine import Action, ActionTaken
from loki.modeler.kernels import blind_frequencies_into, blind_frequency_into
from loki.modeler.model import (
    DEFAULT_FREQUENCIES,
    ModelingContext,
    OpponentModel,
    PlayoutPolicy,
    ReweightDetails,
    check_context,
    frequency_counts,
)

__all__ = ["BlindModelConfig", "BlindModeler", "blind_frequencies", "blind_frequency"]


class BlindModelConfig(LokiModel):
    """The DEFAULTs of the card-blind hypothesis (module docstring).

    Attributes:
        prior_weight: pseudo-observations of Table B.2's frequencies in each context (DEFAULT 3: one action of the
            opponent moves a frequency by a quarter of the way).
        min_frequency: the floor of each frequency (renormalised), so that no action is impossible.
        pool: weight of a count in a neighbour context (:func:`loki.modeler.model.pooled_counts`).
    """

    prior_weight: float = Field(3.0, gt=0.0, le=1000.0)
    min_frequency: float = Field(0.02, ge=0.0, le=0.3)
    pool: float = Field(0.5, ge=0.0, le=1.0)


def blind_frequencies(counts: np.ndarray, config: BlindModelConfig) -> np.ndarray:
    """``(4, 3, 3) float64`` the context frequencies [round][bets to call 0/1/2+][fold, call, raise] of an opponent's
    counts ``(4, 3, 3)`` (module docstring): in each context the Bayesian mean (:func:`loki.modeler.model.
    bayesian_mean`) of its pooled counts (:func:`loki.modeler.model.pooled_counts_all`) under Table B.2's prior, fold
    impossible with nothing to call, each frequency floored at ``min_frequency`` and renormalised: one kernel
    (:func:`loki.modeler.kernels.blind_frequencies_into`), the floats of those numpy operations.

    Raises:
        InputError: counts of another shape than ``(4, 3, 3)``.

    >>> c = np.zeros((4, 3, 3)); c[1, 1] = (0, 9, 0)  # called nine bets on the flop
    >>> blind_frequencies(c, BlindModelConfig())[1, 1].round(3).tolist()
    [0.125, 0.825, 0.05]
    >>> blind_frequencies(c, BlindModelConfig())[3, 1].round(3).tolist()  # the river learns from the flop
    [0.2, 0.72, 0.08]
    """
    out = np.empty((4, 3, 3))
    c = config
    blind_frequencies_into(
        frequency_counts(counts), float(c.pool), float(c.prior_weight), float(c.min_frequency), DEFAULT_FREQUENCIES, out
    )
    return out


def blind_frequency(counts: np.ndarray, street: int, bucket: int, config: BlindModelConfig) -> np.ndarray:
    """``(3,) float64`` the opponent's ``(fold, call, raise)`` frequencies in one context (``street`` 0..3, ``bucket``
    of bets to call 0..2): :func:`blind_frequencies`'s entry, bit for bit, computed for that context alone
    (:func:`loki.modeler.kernels.blind_frequency_into`).

    Raises:
        InputError: ``street`` or ``bucket`` out of range, counts of another shape than ``(4, 3, 3)``.

    >>> c = np.zeros((4, 3, 3)); c[1, 1] = (0, 9, 0)
    >>> blind_frequency(c, 3, 1, BlindModelConfig()).round(3).tolist()
    [0.2, 0.72, 0.08]
    """
    check_context(street, bucket)
    out = np.empty(3)
    c = config
    blind_frequency_into(
        frequency_counts(counts), int(street), int(bucket), float(c.pool), float(c.prior_weight), float(c.min_frequency),
        DEFAULT_FREQUENCIES, out,
    )  # fmt: skip
    return out


@dataclass(frozen=True)
class _BlindLikelihood:
    """``P(action | h)``: the same frequency for every holding (a traced action of the card-blind hypothesis)."""

    value: float

    def __call__(self, h: int) -> float:
        return self.value

    def probabilities(self) -> np.ndarray:
        return np.full(N_HOLDINGS, self.value)


@dataclass(frozen=True)
class BlindModeler:
    """The card-blind hypothesis as an opponent modeler (module docstring).

    Attributes:
        config: the DEFAULTs.
    """

    config: BlindModelConfig = BlindModelConfig()
    name = "blind"
    #: nothing is re-weighted
    reads_round_start = False

    def frequencies(self, model: OpponentModel) -> np.ndarray:
        """``(4, 3, 3)`` the opponent's context frequencies (:func:`blind_frequencies`)."""
        return blind_frequencies(model.tables.counts[model.row], self.config)

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> None:
        """Trace the action's probability (post-flop: pre-flop actions are no evidence between the candidates of the
        adaptive model, which all re-weight alike there); the weight table is left as it is."""
        if ev.round == 0 or ev.action is Action.FOLD:
            return
        f = blind_frequency(model.tables.counts[model.row], ev.round, bucket, self.config)[int(ev.action)]
        model.trace.append((ev.round, ev.action, _BlindLikelihood(float(f))))

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """The believed play-out plays the opponent by its context frequencies, whatever it holds."""
        return PlayoutPolicy(
            label="card-blind", mix=(0.0, 0.0, 1.0), frequencies=self.frequencies(model), believed=True
        )

    def asks_believed(self, model: OpponentModel) -> bool:
        """A card-blind opponent is played as believed (the paper's play-out would play it by Loki's triples)."""
        return True

    def card_blindness(self, model: OpponentModel) -> float:
        """1: this is the hypothesis that the opponent's actions do not follow its cards."""
        return 1.0

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """``"blind"``: nothing is re-weighted."""
        return ReweightDetails("blind")
