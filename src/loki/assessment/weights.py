"""Opponent weight tables and the field array (PAPP98 papp/node53-56, papp/node39; PENA99 pena/node26-27).

Loki models each opponent with a **weight table**: one non-negative number per two-card
holding, a ``(1326,) float64`` array in the canonical holding order of :mod:`loki.cards`.
A weight is the (unnormalised) relative likelihood that the opponent holds that holding
given the betting so far; only ratios matter (papp/node62), so tables are stored
unnormalised and start at 1.0 everywhere at the deal.

Card removal is never written into a table: holdings that clash with known cards (our
hole cards, the board) are zeroed only in the array handed to a computation
(:meth:`WeightTable.live`, :func:`live_weights`).  The stored weights stay untouched so that
the same table can be viewed from different sets of known cards.

Re-weighting never lets a weight fall below :data:`LOW_WEIGHT` = 0.01 (``low_wt``,
PENA99 pena/node27; PAPP98 papp/node58); :func:`apply_floor` implements that floor.

Several opponents are combined into a **field array** (:func:`field_array`) against which
HS_1 and the potentials are computed (PAPP98 papp/node39, papp/node41).

>>> t = WeightTable()
>>> float(t.weights.sum())
1326.0
>>> from loki.cards import parse_cards
>>> live = t.live(parse_cards("AhKs"))          # 101 holdings clash with Ah or Ks
>>> int((live == 0).sum()), float(t.weights.min())
(101, 1.0)
>>> round(float(t.normalised(parse_cards("AhKs")).sum()), 12)
1.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.errors import ConfigError, RangeError

__all__ = [
    "LOW_WEIGHT",
    "WeightTable",
    "validate_weights",
    "as_weights",
    "live_weights",
    "normalise",
    "apply_floor",
    "field_array",
    "combine_field",
]

#: Lowest weight a re-weighted holding may keep (``low_wt`` = 0.01; PENA99 pena/node27, PAPP98 papp/node58).
LOW_WEIGHT = 0.01


def validate_weights(weights, name: str = "weights") -> np.ndarray:
    """Check a weight array and return it as a ``(1326,) float64`` array (a copy only if needed).

    Args:
        weights: array-like of 1,326 non-negative finite numbers (canonical holding order),
            or a :class:`WeightTable`.
        name: how the input is named in error messages.

    Returns:
        ``(1326,) float64`` array.  It may share memory with the input; copy before mutating.

    Raises:
        RangeError: wrong shape, non-numeric, negative, NaN or infinite entries; the message
            names ``name`` and the first offending holding.
    """
    if isinstance(weights, WeightTable):
        return weights.weights
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise RangeError(f"{name}: expected a (1326,) array of weights, got {type(weights).__name__}") from None
    if w.shape != (N_HOLDINGS,):
        raise RangeError(f"{name}: expected shape (1326,), got {w.shape}")
    bad = ~np.isfinite(w)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise RangeError(f"{name}: weights must be finite, holding {i} is {w[i]!r}")
    if (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise RangeError(f"{name}: weights must be non-negative, holding {i} is {w[i]!r}")
    return w


def as_weights(obj, name: str = "weights") -> np.ndarray:
    """A :class:`WeightTable` or array-like as a validated ``(1326,) float64`` array (see :func:`validate_weights`)."""
    return validate_weights(obj, name)


def _dead_mask(dead_cards: Iterable[int] | None) -> np.uint64:
    return np.uint64(cards_mask(() if dead_cards is None else [int(c) for c in dead_cards]))


def live_weights(weights, dead_cards: Iterable[int] = (), name: str = "weights") -> np.ndarray:
    """Card-removed copy of a weight array: holdings sharing a card with ``dead_cards`` get weight 0.

    Args:
        weights: ``(1326,)`` weights or a :class:`WeightTable` (validated).
        dead_cards: card ints known not to be in the opponent's hand (our hole cards, the board).

    Returns:
        a new ``(1326,) float64`` array; the input is not modified.

    Raises:
        RangeError: invalid weights (see :func:`validate_weights`).
    """
    w = validate_weights(weights, name).copy()
    m = _dead_mask(dead_cards)
    if m:
        w[(HOLDING_MASKS & m) != 0] = 0.0
    return w


def normalise(weights, dead_cards: Iterable[int] = (), name: str = "weights") -> np.ndarray:
    """Card-removed weights scaled to sum to 1 over the live holdings.

    Returns:
        a new ``(1326,) float64`` array summing to 1 (clashing holdings 0).

    Raises:
        RangeError: invalid weights, or no positive weight on any live holding.
    """
    w = live_weights(weights, dead_cards, name)
    s = w.sum()
    if not s > 0:
        raise RangeError(f"{name}: all live holdings have weight 0 (nothing to normalise)")
    w /= s
    return w


def apply_floor(weights, floor: float = LOW_WEIGHT) -> np.ndarray:
    """``max(w, floor)`` entry-wise, as a new ``(1326,) float64`` array (PENA99 pena/node27 ``low_wt``).

    Re-weighting computes ``w_new[h] = max(0.01, w[h] * rwt(v(h)))``; this is the outer ``max``.

    >>> float(apply_floor(np.zeros(1326)).min())
    0.01

    Raises:
        RangeError: invalid weights.
        ConfigError: a floor that is negative or not finite.
    """
    f = float(floor)
    if not (np.isfinite(f) and f >= 0):
        raise ConfigError(f"floor: expected a finite non-negative number, got {floor!r}")
    return np.maximum(validate_weights(weights), f)


class WeightTable:
    """One opponent's weight table: a ``(1326,) float64`` array of non-negative weights.

    Args:
        weights: initial weights (validated and copied); default all 1.0 (the deal).

    Raises:
        RangeError: invalid initial weights (see :func:`validate_weights`).

    The stored array is exposed read-only as :attr:`weights`; change it with :meth:`set`,
    :meth:`reset`, :meth:`apply_floor` or :meth:`scale`.  Card removal is applied only to the
    arrays returned by :meth:`live` and :meth:`normalised`.
    """

    __slots__ = ("_w",)

    def __init__(self, weights=None):
        self._w = np.ones(N_HOLDINGS, dtype=np.float64)
        if weights is not None:
            self.set(weights)
        self._w.setflags(write=False)

    # -- state -------------------------------------------------------------------------
    @property
    def weights(self) -> np.ndarray:
        """The stored ``(1326,) float64`` weights (a read-only view)."""
        return self._w

    def set(self, weights) -> WeightTable:
        """Replace the stored weights by a validated copy of ``weights``; returns ``self``.

        Raises:
            RangeError: invalid weights.
        """
        w = np.array(validate_weights(weights), dtype=np.float64, copy=True)
        w.setflags(write=False)
        self._w = w
        return self

    def reset(self) -> WeightTable:
        """All weights back to 1.0 (start of a hand); returns ``self``."""
        w = np.ones(N_HOLDINGS, dtype=np.float64)
        w.setflags(write=False)
        self._w = w
        return self

    def copy(self) -> WeightTable:
        """An independent copy (used to keep the round-start table, PENA99 pena/node27)."""
        return WeightTable(self._w)

    def scale(self, factors) -> WeightTable:
        """Multiply entry-wise by ``(1326,)`` non-negative ``factors``; returns ``self``.

        Raises:
            RangeError: invalid factors (same rules as weights).
        """
        return self.set(self._w * validate_weights(factors, "factors"))

    def apply_floor(self, floor: float = LOW_WEIGHT) -> WeightTable:
        """Raise every weight below ``floor`` to ``floor`` in place (:func:`apply_floor`); returns ``self``."""
        return self.set(apply_floor(self._w, floor))

    # -- views for computations ---------------------------------------------------------
    def live(self, dead_cards: Iterable[int] = ()) -> np.ndarray:
        """Card-removed copy: holdings sharing a card with ``dead_cards`` weigh 0 (stored weights untouched).

        Returns:
            a new ``(1326,) float64`` array.
        """
        return live_weights(self._w, dead_cards)

    def normalised(self, dead_cards: Iterable[int] = ()) -> np.ndarray:
        """Card-removed weights scaled to sum 1 (see :func:`normalise`).

        Raises:
            RangeError: no positive weight on a live holding.
        """
        return normalise(self._w, dead_cards)

    def live_total(self, dead_cards: Iterable[int] = ()) -> float:
        """Sum of the card-removed weights."""
        return float(self.live(dead_cards).sum())

    # -- protocol --------------------------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        if dtype is None or np.dtype(dtype) == self._w.dtype:
            return self._w.copy() if copy else self._w
        return self._w.astype(dtype)

    def __len__(self) -> int:
        return N_HOLDINGS

    def __getitem__(self, index):
        return self._w[index]

    def __eq__(self, other) -> bool:
        if not isinstance(other, WeightTable):
            return NotImplemented
        return bool(np.array_equal(self._w, other._w))

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value: unhashable

    def __repr__(self) -> str:
        w = self._w
        return f"WeightTable(sum={w.sum():.4g}, min={w.min():.4g}, max={w.max():.4g})"


def field_array(tables: Sequence, dead_cards: Iterable[int] = ()) -> np.ndarray:
    """Combine several opponents' weights into one **field array** (PAPP98 papp/node39).

    The combination rule is UNKNOWN in the sources; this is the project **DEFAULT**
    (loki-algorithms.md §1.2): zero each table's holdings that clash with ``dead_cards``,
    normalise each card-removed table to sum 1 (so every opponent counts equally whatever the
    scale of its weights), and average entry by entry.  Clashing entries are 0 in the result,
    which sums to 1.  HS_1 and the potentials are then computed against it and HS_n = HS_1^n.

    Args:
        tables: one or more ``(1326,)`` weight arrays or :class:`WeightTable` objects.
        dead_cards: card ints known to everybody at the computation (our hole cards, board).

    Returns:
        ``(1326,) float64`` array summing to 1.

    Raises:
        RangeError: no tables, an invalid table, or a table with no live weight
            (the message names ``tables[i]``).

    >>> a = np.zeros(1326); a[0] = 2.0
    >>> b = np.zeros(1326); b[1] = 5.0
    >>> f = field_array([a, b])
    >>> float(f[0]), float(f[1]), float(f.sum())
    (0.5, 0.5, 1.0)
    """
    if isinstance(tables, (WeightTable, np.ndarray)):
        tables = [tables]
    tables = list(tables)
    if not tables:
        raise RangeError("tables: expected at least one weight table")
    clash = (HOLDING_MASKS & _dead_mask(dead_cards)) != 0
    checked = []
    for i, t in enumerate(tables):
        w = validate_weights(t, f"tables[{i}]")
        if not w[~clash].sum() > 0:
            raise RangeError(f"tables[{i}]: all live holdings have weight 0 (nothing to normalise)")
        checked.append(w)
    return combine_field(checked, clash)


def combine_field(tables: Sequence[np.ndarray], clash: np.ndarray) -> np.ndarray:
    """The field array of :func:`field_array` from checked inputs: each table with the ``clash`` holdings zeroed and
    scaled to sum 1, averaged entry by entry (DEFAULT, loki-algorithms.md §1.2).

    Args:
        tables: ``(1326,) float64`` weight arrays, each with positive weight off ``clash`` (not checked).
        clash: ``(1326,) bool``, the holdings that share a card with the dead cards.

    Returns:
        ``(1326,) float64`` array summing to 1.  One compiled pass (:func:`loki.assessment.weights_kernels.field_kernel`) with
        the floats of numpy's ``x = t.copy(); x[clash] = 0; x /= x.sum(); out += x`` per table, then ``out /= k``.
    """
    from loki.assessment.weights_kernels import (
        field_kernel,  # numba is imported on first use, not with loki.assessment.weights
    )

    out = np.empty(N_HOLDINGS, dtype=np.float64)
    field_kernel(np.array(tables, dtype=np.float64, ndmin=2), np.ascontiguousarray(clash, dtype=np.bool_), out)
    return out
