"""Why Loki plays as it does: decision explanations as data.

- :mod:`loki.explain.records`: the typed, JSON-serialisable :class:`DecisionExplanation` and its parts;
- :mod:`loki.explain.grids`: weight tables as 13×13 hand-class grids;
- :mod:`loki.explain.core`: :func:`explain_decision` and the decision-neutral :class:`ExplainedPlayer` wrapper;
- :mod:`loki.explain.render`: explanations as rich tables for the terminal;
- :mod:`loki.explain.sources`: explanations of every decision of one player in a hand history, or of a spot.
"""

from loki.explain.core import ExplainedPlayer, ReweightNote, action_word, explain_decision
from loki.explain.grids import GRID_NAMES, GRID_RANKS, class_grid, likely_classes
from loki.explain.records import DecisionExplanation, explanation_from_json

__all__ = [
    "DecisionExplanation",
    "ExplainedPlayer",
    "ReweightNote",
    "GRID_NAMES",
    "GRID_RANKS",
    "action_word",
    "class_grid",
    "explain_decision",
    "explanation_from_json",
    "likely_classes",
]
