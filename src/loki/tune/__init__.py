"""The tuning lab: Optuna studies of the values the sources leave open, scored by AIVAT duplicate
tournaments on tuning seeds (≥ 1000), resumable, validated on seeds the search never saw (``loki tune``).

Modules: :mod:`~loki.tune.study` (the study: spec, objective, storage, recovery of killed trials, outputs).
"""

from __future__ import annotations

from loki.tune.study import (
    GRACE,
    Evaluation,
    Pruned,
    StudySpec,
    apply_values,
    base_player,
    check_scored,
    checked_validation_seeds,
    confidently_worse,
    counted,
    evaluate,
    finish_study,
    load_target,
    load_targets,
    open_study,
    panel_player,
    param_text,
    parse_param,
    queue_start,
    recover_stale,
    run_study,
    search_space,
    start_values,
    trial_config,
    tuning_space,
    validation_seeds,
)

__all__ = [
    "GRACE",
    "StudySpec",
    "Evaluation",
    "Pruned",
    "load_target",
    "load_targets",
    "panel_player",
    "check_scored",
    "base_player",
    "search_space",
    "tuning_space",
    "parse_param",
    "start_values",
    "param_text",
    "apply_values",
    "trial_config",
    "evaluate",
    "confidently_worse",
    "open_study",
    "queue_start",
    "recover_stale",
    "counted",
    "run_study",
    "finish_study",
    "validation_seeds",
    "checked_validation_seeds",
]
