"""Weight tables as 13×13 hand-class grids (the usual starting-hands chart).

Row ``i`` and column ``j`` are ranks from the ace down (``GRID_RANKS = "AKQJT98765432"``); the diagonal holds the
pairs, a suited class sits above it (row = its high card) and an offsuit class below it (column = its high
card).  In :mod:`loki.cards`' class layout (class id ``13·row + col`` with rank 0 = deuce) this is exactly the
class array reversed in both axes: cell ``(i, j)`` is class ``13·(12 − i) + (12 − j)``.

>>> GRID_NAMES[0][:3], GRID_NAMES[1][0], GRID_NAMES[12][12]
(['AA', 'AKs', 'AQs'], 'AKo', '22')
>>> import numpy as np
>>> g = class_grid(np.ones(1326))
>>> g[0][0], len(g), len(g[0])
(1.0, 13, 13)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from loki.assessment.weights import validate_weights
from loki.cards import CLASS_NAMES, HOLDING_CLASS, N_CLASSES, live_holdings

__all__ = ["GRID_RANKS", "GRID_NAMES", "grid_class_ids", "class_means", "class_grid", "likely_classes"]

GRID_RANKS = "AKQJT98765432"
#: ``(13, 13)`` class ids of the grid cells.
_IDS = (np.arange(N_CLASSES).reshape(13, 13))[::-1, ::-1].copy()
_IDS.setflags(write=False)
#: The class name of each cell (``GRID_NAMES[0][1] == "AKs"``).
GRID_NAMES: list[list[str]] = [[CLASS_NAMES[int(c)] for c in row] for row in _IDS]


def grid_class_ids() -> np.ndarray:
    """``(13, 13) int64`` class id of each grid cell (read-only)."""
    return _IDS


def class_means(weights, dead: Iterable[int] = ()) -> np.ndarray:
    """``(169,) float64`` mean weight of each class over its holdings that share no card with ``dead`` (NaN for a
    class with none left).

    Raises:
        RangeError: invalid weights (:func:`loki.assessment.weights.validate_weights`).
    """
    w = validate_weights(weights, "weights")
    live = live_holdings(list(dead))
    sums = np.bincount(HOLDING_CLASS[live], weights=w[live], minlength=N_CLASSES)
    counts = np.bincount(HOLDING_CLASS[live], minlength=N_CLASSES)
    out = np.full(N_CLASSES, np.nan)
    ok = counts > 0
    out[ok] = sums[ok] / counts[ok]
    return out


def class_grid(weights, dead: Iterable[int] = (), digits: int = 4) -> list[list[float | None]]:
    """The weight table as a 13×13 grid of class means (module docstring), rounded to ``digits``; ``None`` where no
    holding of the class is possible.

    Raises:
        RangeError: invalid weights.
    """
    m = class_means(weights, dead)[_IDS]
    return [[None if np.isnan(x) else round(float(x), digits) for x in row] for row in m]


def likely_classes(weights, dead: Iterable[int] = (), top: int = 8) -> list[tuple[str, float]]:
    """The ``top`` hand classes holding most of the table's mass over the possible holdings, with their shares.

    >>> likely_classes(np.ones(1326), top=2)  # offsuit classes have 12 holdings, the most
    [('AKo', 0.009), ('AQo', 0.009)]
    """
    w = validate_weights(weights, "weights")
    live = live_holdings(list(dead))
    mass = np.bincount(HOLDING_CLASS[live], weights=w[live], minlength=N_CLASSES)
    total = float(mass.sum())
    if total <= 0:
        return []
    order = sorted(range(N_CLASSES), key=lambda c: (-mass[c], -c))[:top]
    return [(CLASS_NAMES[c], round(float(mass[c]) / total, 4)) for c in order]
