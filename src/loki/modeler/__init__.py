"""The Opponent Modeler box of AAAI99 Figure 2: what Loki believes about each opponent, and how it learns it.

- :mod:`loki.modeler.model`: the data — a weight table over the 1,326 holdings per opponent (reset each hand),
  action frequencies by context (kept across hands, blended with Table B.2 defaults), a seat-keyed
  :class:`ModelStore`, and the :class:`OpponentModeler` protocol (a re-weighting rule);
- :mod:`loki.modeler.loki1`: Loki-1's μ/σ re-weighting (PAPP98 papp/node58-60; pena/node27);
- :mod:`loki.modeler.triple_model`: Loki-2's triple re-weighting (feature R; AAAI99 §4; pena/node34) with the
  observer's own Triple Generator;
- :mod:`loki.modeler.specific`: triple re-weighting with opponent-specific triples: a per-opponent mixture of the
  rules, frequency-matched triples and card-blind frequencies, learned at showdowns (DEFAULT);
- :mod:`loki.modeler.quality`: model quality (showdown percentiles, log-likelihood, collapses);
- :mod:`loki.modeler.situation`: what a post-flop decision reads of the models: our hand against the field of the
  live opponents' weight tables, and the public betting spot (:class:`Situation`).
"""

from loki.modeler.loki1 import (
    REWEIGHT_IR_TABLE,
    Loki1Modeler,
    loki1_reweight,
    postflop_hand_values,
    preflop_hand_values,
    ramp_bounds,
    ramp_factors,
    threshold_mu_sigma,
)
from loki.modeler.model import (
    BLEND_OBSERVATIONS,
    DEFAULT_FREQUENCIES,
    ActionFrequencies,
    ModelingContext,
    ModelStore,
    OpponentModel,
    OpponentModeler,
    PlayoutPolicy,
    ReweightDetails,
    believed_of,
    playout_policy_of,
    reweight_details_of,
)
from loki.modeler.quality import ModelQuality, holding_percentile
from loki.modeler.situation import Situation
from loki.modeler.specific import SpecificModelConfig, SpecificModeler
from loki.modeler.triple_model import TripleModeler, triple_reweight

__all__ = [
    "DEFAULT_FREQUENCIES",
    "BLEND_OBSERVATIONS",
    "ActionFrequencies",
    "threshold_mu_sigma",
    "ramp_factors",
    "ramp_bounds",
    "OpponentModel",
    "loki1_reweight",
    "triple_reweight",
    "ModelStore",
    "ModelingContext",
    "OpponentModeler",
    "Loki1Modeler",
    "TripleModeler",
    "REWEIGHT_IR_TABLE",
    "preflop_hand_values",
    "postflop_hand_values",
    "ModelQuality",
    "SpecificModeler",
    "SpecificModelConfig",
    "holding_percentile",
    "Situation",
    "PlayoutPolicy",
    "ReweightDetails",
    "playout_policy_of",
    "believed_of",
    "reweight_details_of",
]
