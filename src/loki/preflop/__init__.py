"""Loki's pre-flop decision (PAPP98 §6.1; loki-algorithms.md §2): the strategies Make0…Make4, the expert system on
income-rate thresholds, and the adaptive model that reads the opponent models.

Modules: :mod:`~loki.preflop.strategies`, :mod:`~loki.preflop.expert` (:class:`PreflopPolicy`),
:mod:`~loki.preflop.adaptive` (expected players and heads-up contests from the opponent models).
"""

from __future__ import annotations

from loki.preflop.adaptive import (
    PREFLOP_MODELS,
    PROBABILITY_PLAY,
    AdaptiveSettings,
    HeadsUpSpot,
    SeatModels,
    model_of,
    modelled_expected_players,
    play_probability,
    yet_to_act_seats,
)
from loki.preflop.expert import (
    GROUP_TABLE,
    GROUPS,
    MAKE1_CALIBRATION,
    SB_CALL_LIMIT,
    SB_CALL_MARGIN,
    TIGHTNESS,
    PreflopChoice,
    PreflopDecision,
    PreflopPolicy,
    PreflopThresholds,
    choose_strategy,
    expected_players,
    group_for,
    table_model,
)
from loki.preflop.strategies import (
    Strategy,
    strategy_action,
)

__all__ = [
    "Strategy",
    "strategy_action",
    "PROBABILITY_PLAY",
    "PREFLOP_MODELS",
    "AdaptiveSettings",
    "SeatModels",
    "model_of",
    "HeadsUpSpot",
    "yet_to_act_seats",
    "play_probability",
    "modelled_expected_players",
    "GROUPS",
    "TIGHTNESS",
    "GROUP_TABLE",
    "MAKE1_CALIBRATION",
    "expected_players",
    "group_for",
    "PreflopThresholds",
    "choose_strategy",
    "table_model",
    "SB_CALL_LIMIT",
    "SB_CALL_MARGIN",
    "PreflopChoice",
    "PreflopDecision",
    "PreflopPolicy",
]
