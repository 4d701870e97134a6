"""Loki-1's re-weighting (PAPP98 papp/node58-60; PENA99 pena/node27; loki-algorithms.md §4.3).

After each check/call or bet/raise the opponent's table is re-weighted with the μ/σ ramp (:func:`ramp_factors`) on
the hand value ``v``: IR before the flop, EHS' (with HS_1) after it; at most one effective re-weighting per opponent
per round, always applied to the copy stored at the start of the round and only when the new threshold is higher
(pena/node27).

μ and σ are not given by the sources; the **RECONSTRUCTED DEFAULT** of the reference (§4.3): observed check/call →
``μ = f``, bet/raise → ``μ = f + c``, on a percentile scale of hand value; ``σ = 0.5·min(μ, 1 − μ)`` floored at
0.05.  Post-flop μ is used directly as an EHS' value; pre-flop μ ± σ are converted to the IR scale through the
sorted IR values of the 1,326 holdings.

>>> ramp_factors(np.array([0.3, 0.5, 0.6, 0.7, 0.9]), lo=0.4, hi=0.8).round(3).tolist()
[0.01, 0.25, 0.5, 0.75, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from loki.assessment import ehs_prime, uniform_board_values
from loki.assessment.income_rate import TABLE_PLAYERS, holding_ir
from loki.assessment.weights import LOW_WEIGHT
from loki.cards import HOLDING_MASKS
from loki.engine import Action, ActionTaken
from loki.errors import ConfigError, InputError
from loki.modeler.kernels import (
    loki1_observe_row,
    loki1_reweight_row,
    mu_sigma,
    ramp_ends,
    ramp_factor,
    ramp_factors_into,
)
from loki.modeler.model import (
    COLLAPSE_WEIGHT,
    DEFAULT_FREQUENCIES,
    ModelingContext,
    OpponentModel,
    PlayoutPolicy,
    ReweightDetails,
)

__all__ = [
    "threshold_mu_sigma",
    "ramp_factors",
    "ramp_bounds",
    "loki1_reweight",
    "REWEIGHT_IR_TABLE",
    "preflop_hand_values",
    "postflop_hand_values",
    "Loki1Modeler",
    "RampLikelihood",
]


_NO_VALUES = np.empty(0)  # no IR scale after the flop (the ramp's ends are EHS' values)


def threshold_mu_sigma(action: Action, freqs: np.ndarray) -> tuple[float, float]:
    """μ and σ of the hand-value percentile needed for an observed action (RECONSTRUCTED DEFAULT, §4.3).

    Args:
        action: the observed CALL (check/call) or RAISE (bet/raise).
        freqs: ``(3,)`` blended [f, c, r] of the context.

    Returns:
        ``(mu, sigma)`` on the 0..1 percentile scale; ``sigma = max(0.05, 0.5·min(mu, 1 − mu))``.

    Raises:
        ValueError: a fold (folding players are not re-weighted).

    >>> threshold_mu_sigma(Action.RAISE, np.array([0.5, 0.3, 0.2]))
    (0.8, 0.09999999999999998)
    """
    if action == Action.FOLD:
        raise InputError("a fold carries no re-weighting threshold")
    mu, sigma = mu_sigma(int(action), float(freqs[0]), float(freqs[1]))
    return float(mu), float(sigma)


def ramp_factors(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Re-weighting factors of the μ/σ ramp (pena/node27): 0.01 below ``lo``, 1 above ``hi``, linear between.

    Args:
        values: ``(k,) float64`` hand values (EHS' or IR).
        lo, hi: the ramp's ends (μ − σ and μ + σ, on the values' scale).

    Returns:
        ``(k,) float64`` factors in [0.01, 1].
    """
    v = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(v.shape[0])
    ramp_factors_into(v, float(lo), float(hi), LOW_WEIGHT, out)
    return out


def ramp_bounds(mu: float, sigma: float, sorted_values: np.ndarray | None = None) -> tuple[float, float]:
    """Ramp ends μ − σ and μ + σ; with ``sorted_values`` (the 1,326 IR values sorted ascending) the
    percentiles are converted to that scale by nearest-point indexing (pena/node27)."""
    sv = _NO_VALUES if sorted_values is None else np.ascontiguousarray(sorted_values, dtype=np.float64)
    lo, hi = ramp_ends(float(mu), float(sigma), sv)
    return float(lo), float(hi)


def loki1_reweight(
    model: OpponentModel, values: np.ndarray, action: Action, freqs: np.ndarray, sorted_values: np.ndarray | None = None
) -> bool:
    """Loki-1 re-weighting of one opponent after one action (pena/node27; loki-algorithms.md §4.3).

    ``w = max(0.01, w_round_start × ramp(v))`` applied only when μ is higher than any μ already applied
    this round (so at most one effective re-weighting per round, always from the stored copy).

    Args:
        model: the opponent's model (updated in place).
        values: ``(1326,) float64`` hand value of every holding (IR pre-flop, EHS' post-flop).
        action: the observed action (a fold does nothing).
        freqs: ``(3,)`` blended [f, c, r] of the context.
        sorted_values: IR values sorted ascending pre-flop (percentile → IR conversion); None post-flop.

    Returns:
        True if the table changed.
    """
    if action == Action.FOLD:
        return False
    t = model.tables
    t.touch(model.row)
    return bool(
        loki1_reweight_row(
            t.weights,
            t.round_start,
            t.applied_mu,
            model.row,
            int(action),
            np.ascontiguousarray(freqs, dtype=np.float64),
            np.ascontiguousarray(values, dtype=np.float64),
            _NO_VALUES if sorted_values is None else np.ascontiguousarray(sorted_values, dtype=np.float64),
            LOW_WEIGHT,
        )  # fmt: skip
    )


#: DEFAULT: the IR table that gives opponents' pre-flop hand values for re-weighting (loki-algorithms.md §4.3).
REWEIGHT_IR_TABLE = 7


#: no known cards (a pre-flop re-weighting called without a context: the collapse test reads every holding)
_NO_DEAD = np.uint64(0)


@lru_cache(maxsize=4)
def preflop_hand_values(n_players: int = REWEIGHT_IR_TABLE) -> tuple[np.ndarray, np.ndarray]:
    """``((1326,) IR of every holding, (1326,) the same sorted ascending)`` from ``IR{n_players}`` (IR ×1000; DEFAULT
    IR7, Loki-1's; 2 and 4 are the other shipped tables).

    Raises:
        ConfigError: ``n_players`` not 2, 4 or 7.
    """
    v = holding_ir(n_players).copy()
    s = np.sort(v)
    v.setflags(write=False)
    s.setflags(write=False)
    return v, s


@lru_cache(maxsize=256)
def _postflop_values_cached(board: tuple[int, ...]) -> np.ndarray:
    hs1, ppot1, _ = uniform_board_values(board)
    v = ehs_prime(hs1, ppot1)
    v.setflags(write=False)
    return v


def postflop_hand_values(board: Sequence[int]) -> np.ndarray:
    """``(1326,) float64`` EHS' (HS_1 + (1 − HS_1)·PPot1 vs a uniform range) of every holding on ``board``.

    The opponent's hand value for post-flop re-weighting (papp/node60, with exact PPot1 instead of the
    crude PPot_c: a documented deviation), from :func:`loki.assessment.uniform_board_values`.  It depends
    on the board only (not on the observer's cards), so it is cached per board and shared by every
    player in the process; holdings that clash with the board get 0.
    """
    return _postflop_values_cached(tuple(sorted(int(c) for c in board)))


class RampLikelihood:
    """The action probabilities Loki-1's μ/σ ramps imply (for model quality): ``P(call or raise | v)`` is the
    check/call ramp, ``P(raise | v)`` the bet/raise ramp, each clipped to [0.01, 1]; ``P(call) = P(call or raise) −
    P(raise)`` (at least 0.01).  Called with a holding index, it reads the holding's value ``values[h]``.

    Args:
        values: ``(1326,) float64`` the hand values the ramps apply to (EHS').
        call, raise_: the check/call and bet/raise ramps' ends ``(μ − σ, μ + σ)``
            (``ramp_bounds(*threshold_mu_sigma(action, freqs))``).
        action: the traced action.
    """

    __slots__ = ("values", "call", "raise_", "action")

    def __init__(self, values: np.ndarray, call: tuple[float, float], raise_: tuple[float, float], action: Action):
        self.values = values
        self.call = call
        self.raise_ = raise_
        self.action = action

    def __call__(self, h: int) -> float:
        v = float(self.values[h])
        p_raise = ramp_factor(v, *self.raise_, LOW_WEIGHT)
        if self.action == Action.RAISE:
            return p_raise
        return max(LOW_WEIGHT, ramp_factor(v, *self.call, LOW_WEIGHT) - p_raise)

    def probabilities(self) -> np.ndarray:
        """``(1326,) float64`` ``P(action | holding)`` of every holding (:meth:`__call__` of each)."""
        return np.fromiter((self(h) for h in range(self.values.shape[0])), dtype=np.float64, count=self.values.shape[0])


@dataclass(frozen=True)
class Loki1Modeler:
    """Loki-1's re-weighting (PAPP98 papp/node58-60; pena/node27): the μ/σ ramp on IR7 pre-flop and on
    EHS' (HS_1 + PPot1 against a uniform range) post-flop, once per round from the stored copy.

    Attributes:
        specific: thresholds from each opponent's blended observed frequencies (specific modelling, SOM);
            False: always Table B.2's defaults (generic modelling, GOM).
        frequency_prior: how the observed frequencies are blended: 0, Loki-1's blend (each round's counts weigh up to
            20 observations against Table B.2, papp/node56); ``k > 0``, a Bayesian mean with the defaults as ``k``
            pseudo-observations (DEFAULT, beyond the sources: a player who never folds is read as one after a few
            actions instead of 20; :func:`loki.modeler.kernels.blend_frequencies`).
        ir: the IR table the pre-flop ramp ranks holdings by: ``"IR7"`` (Loki-1's, whatever the table) or
            ``"active"``, the table of the players still in when the opponent acted (2: IR2, 3-4: IR4, more or not
            known: IR7; DEFAULT, beyond the sources: heads-up a hand's value is its value against one hand).

    Raises:
        ConfigError: a ``frequency_prior`` outside [0, 1000] (or NaN), an ``ir`` other than those two.
    """

    specific: bool = True
    frequency_prior: float = 0.0
    ir: str = "IR7"
    #: after the flop too, the ramp re-weights the round's stored copy (the OpponentModeler protocol)
    reads_round_start = True
    #: the ramp reads the opponent's actions, the board and the IR tables only (the observer's cards serve the collapse
    #: test alone): observers with equal modelers hold equal models (the OpponentModeler protocol)
    public_only = True

    def __post_init__(self) -> None:
        if not 0.0 <= self.frequency_prior <= 1000.0:  # NaN fails too
            raise ConfigError(f"frequency_prior={self.frequency_prior!r}: expected pseudo-observations in [0, 1000]")
        if self.ir not in ("IR7", "active"):
            raise ConfigError(f"ir={self.ir!r}: expected 'IR7' or 'active'")

    def _ir_players(self, ev: ActionTaken) -> int:
        # the IR table of the pre-flop ramp for this action (``ir``): with "active", the smallest shipped table for at
        # least the players still in (the largest beyond it; IR7 when not known)
        if self.ir == "IR7" or ev.n_active <= 1:
            return REWEIGHT_IR_TABLE
        return next((n for n in TABLE_PLAYERS if ev.n_active <= n), TABLE_PLAYERS[-1])

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> bool | None:
        """:func:`loki1_reweight` with the frequencies of the context (round, bets to call): one kernel call
        (:func:`~loki.modeler.kernels.loki1_observe_row`: blend, re-weight, the ramps' ends for the trace, the
        collapse test) on the model's row of its :class:`~loki.modeler.model.ModelTables`; post-flop the action is
        traced with its :class:`RampLikelihood`.  Returns whether the table collapsed (None for a fold)."""
        if ev.action == Action.FOLD:
            return None
        t = model.tables
        t.touch(model.row)
        out = np.empty(7)
        if ev.round == 0:
            values, sorted_values = preflop_hand_values(self._ir_players(ev))
        else:
            values, sorted_values = ctx.per_board("loki1.ehs_prime", postflop_hand_values), _NO_VALUES
        collapsed = loki1_observe_row(
            t.counts, t.weights, t.round_start, t.applied_mu, model.row, ev.round, bucket, int(ev.action),
            self.specific, DEFAULT_FREQUENCIES, values, sorted_values, LOW_WEIGHT, out,
            _NO_DEAD if ctx is None else ctx.dead_mask(), HOLDING_MASKS, COLLAPSE_WEIGHT, float(self.frequency_prior),
        )  # fmt: skip
        if ev.round > 0:
            lo_c, hi_c, lo_r, hi_r = out[3:].tolist()
            model.trace.append((ev.round, ev.action, RampLikelihood(values, (lo_c, hi_c), (lo_r, hi_r), ev.action)))
        return collapsed

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """Loki-1's model has no triples of its own: the believed play-out plays the opponent by the observer's."""
        return PlayoutPolicy(label="Loki-1 ramp model, played by the observer's triples")

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """The μ, σ, ramp ends and frequencies :meth:`reweight` is about to use for ``ev`` (pure; before it runs)."""
        if ev.action == Action.FOLD:
            return ReweightDetails("loki1")
        freqs = model.frequencies.blended(ev.round, bucket, specific=self.specific, prior_obs=self.frequency_prior)
        mu, sigma = threshold_mu_sigma(Action(ev.action), freqs)
        lo, hi = ramp_bounds(mu, sigma, preflop_hand_values(self._ir_players(ev))[1] if ev.round == 0 else None)
        return ReweightDetails("loki1", mu, sigma, lo, hi, (float(freqs[0]), float(freqs[1]), float(freqs[2])))
