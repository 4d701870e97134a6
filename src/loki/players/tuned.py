"""Sets of values found by ``loki tune`` (issue 27), shipped by name: ``tuned = "NAME"`` in a Loki-2 configuration
(spec option ``tuned=NAME``, e.g. ``loki2:B:tuned=B1``) applies one, the fields a configuration gives explicitly
override it, and the values used before stay what a configuration without ``tuned`` plays.

Every value here is a DEFAULT (tuned: <study>): found on tuning seeds (≥ 1000), validated on seeds the study never
played, and reported on seeds 0 and 1 in docs/EXPERIMENTS.md ("Tuning studies"), where the study, its trials and
the validation are; the study's files are in ``experiments/2026-11-25/tune/``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TUNED_SETS", "apply_tuned"]

#: name -> a partial Loki-2 configuration (nested tables merge key by key).
TUNED_SETS: dict[str, dict[str, Any]] = {}


def apply_tuned(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its ``tuned`` set's values under it: the set first, the explicitly given fields over them (the
    ``bettor``, ``form`` and ``sim`` tables merged key by key).  An unknown name is left for validation to report."""
    name = data.get("tuned")
    if name is None or name not in TUNED_SETS:
        return data
    merged: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in TUNED_SETS[name].items()}
    for k, v in data.items():
        if isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = {**merged[k], **v}
        else:
            merged[k] = v
    return merged
