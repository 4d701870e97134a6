"""AIVAT-style variance reduction for duplicate tournaments and replays (Burch et al., AAAI-18): chance and action
corrections of each hand's payoffs, with exact all-in equities.

Modules: :mod:`~loki.aivat.estimator` (value function, corrections, :class:`AivatEstimator`); the exact equities
come from the Hand Evaluator (:mod:`loki.assessment.showdown`).
"""

from __future__ import annotations

from loki.aivat.estimator import (
    ESTIMATORS,
    GROWTH_TABLE,
    POT_EQUITY,
    VALUE_FUNCTION,
    ActionRecorder,
    AivatEstimator,
    EquityOracle,
    HandCorrections,
    PotEquityValue,
    hand_corrections,
    heads_up_key,
    heads_up_preflop_equity,
    heads_up_preflop_shares,
    named_estimator,
    pot_equity_values,
    shipped_value_function,
)

__all__ = [
    "VALUE_FUNCTION",
    "EquityOracle",
    "heads_up_key",
    "heads_up_preflop_equity",
    "heads_up_preflop_shares",
    "pot_equity_values",
    "PotEquityValue",
    "POT_EQUITY",
    "ActionRecorder",
    "HandCorrections",
    "hand_corrections",
    "AivatEstimator",
    "GROWTH_TABLE",
    "shipped_value_function",
    "ESTIMATORS",
    "named_estimator",
]
