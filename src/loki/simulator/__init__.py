"""The Simulator box (AAAI99 §5, Figure 2; PENA99 pena/node40-46): selective sampling of the opponents' holdings from
their weight tables and play-outs of each decision by probability triples (Loki-2 feature S).

Modules: :mod:`~loki.simulator.driver` (:func:`simulate`, cut-off rules, :class:`SimulatorPolicy`),
:mod:`~loki.simulator.playout` (the numba kernels).
"""

from __future__ import annotations

from loki.simulator.driver import (
    CUTOFF_RULES,
    PlayoutBeliefs,
    SimConfig,
    SimResult,
    SimSpot,
    decide_from_evs,
    playout_policies,
    simulate,
    softmax_choice,
    spot_state,
)
from loki.simulator.policy import (
    SimDecision,
    SimulatorPolicy,
    beliefs_of,
)

__all__ = [
    "SimSpot",
    "spot_state",
    "SimConfig",
    "SimResult",
    "simulate",
    "decide_from_evs",
    "softmax_choice",
    "playout_policies",
    "CUTOFF_RULES",
    "PlayoutBeliefs",
    "SimDecision",
    "SimulatorPolicy",
    "beliefs_of",
]
