"""The Action Selector box (AAAI99 §4, Figure 2; PENA99 pena/node33): one uniform number per hand samples the
Triple Generator's triple for our own hand (Loki-2 feature B).
"""

from __future__ import annotations

from loki.selector.policy import (
    ActionSelector,
    SelectorPolicy,
    TripleDecision,
    interval_probabilities,
    select_action,
)

__all__ = [
    "select_action",
    "ActionSelector",
    "SelectorPolicy",
    "TripleDecision",
    "interval_probabilities",
]
