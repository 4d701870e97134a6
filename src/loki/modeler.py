"""The Opponent Modeler: action frequencies and weight-table re-weighting.

Loki-1 (PAPP98 papp/node52-62; PENA99 pena/node26-27; loki-algorithms.md §4):

- one weight table per opponent over the 1,326 holdings, reset each hand;
- action frequencies per opponent by context (round, bets to call 0 / 1 / 2+), kept across hands,
  blended linearly with Table B.2 defaults until 20 observations (:class:`ActionFrequencies`);
- after each check/call or bet/raise the opponent's table is re-weighted with the μ/σ ramp
  (:func:`ramp_factors`) on the hand value ``v``: IR before the flop, EHS' (with HS_1) after it;
- at most one effective re-weighting per opponent per round, always applied to the copy stored at
  the start of the round and only when the new threshold is higher (pena/node27).

Loki-2's triple re-weighting (feature R, AAAI99 §4; pena/node34) multiplies each holding's weight by
its probability-triple entry for the observed action (:func:`triple_reweight`); pre-flop stays Loki-1's.

μ and σ are not given by the sources; the **RECONSTRUCTED DEFAULT** of the reference (§4.3):
observed check/call → ``μ = f``, bet/raise → ``μ = f + c``, on a percentile scale of hand value;
``σ = 0.5·min(μ, 1 − μ)`` floored at 0.05.  Post-flop μ is used directly as an EHS' value; pre-flop
μ ± σ are converted to the IR scale through the sorted IR values of the 1,326 holdings.

>>> ramp_factors(np.array([0.3, 0.5, 0.6, 0.7, 0.9]), lo=0.4, hi=0.8).round(3).tolist()
[0.01, 0.25, 0.5, 0.75, 1.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import numpy as np

from loki.assessment import ehs_prime, uniform_board_values
from loki.bettor import BettingSpot
from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action, ActionTaken, GameConfig
from loki.income_rate import holding_ir
from loki.triples import TripleConfig, opponent_triples
from loki.weights import LOW_WEIGHT

__all__ = [
    "DEFAULT_FREQUENCIES",
    "BLEND_OBSERVATIONS",
    "bets_to_call_bucket",
    "ActionFrequencies",
    "threshold_mu_sigma",
    "ramp_factors",
    "ramp_bounds",
    "OpponentModel",
    "loki1_reweight",
    "triple_reweight",
    "ModelStore",
    "ModelingContext",
    "OpponentModeler",
    "Loki1Modeler",
    "TripleModeler",
    "REWEIGHT_IR_TABLE",
    "preflop_hand_values",
    "postflop_hand_values",
]

#: Table B.2 (PAPP98 papp/node76): default frequencies d'[bets to call 0/1/2+][fold, check/call, bet/raise].
DEFAULT_FREQUENCIES = np.array([[0.0, 0.5, 0.5], [0.5, 0.3, 0.2], [0.7, 0.2, 0.1]])
DEFAULT_FREQUENCIES.setflags(write=False)
#: Observations needed before a context's own frequencies are used unblended (papp/node56).
BLEND_OBSERVATIONS = 20


def bets_to_call_bucket(to_call_bets: float) -> int:
    """Context bucket of an amount to call in bets: 0, 1 or 2 (= 2 or more). The small blind's half bet counts as 1."""
    if to_call_bets <= 1e-9:
        return 0
    return 1 if to_call_bets < 2.0 - 1e-9 else 2


@dataclass
class ActionFrequencies:
    """Counts of an opponent's actions by context, kept across hands (papp/node56).

    ``counts`` is ``(4, 3, 3) int64``: [round 0..3][bets-to-call bucket 0..2][fold, check/call, bet/raise].
    """

    counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 3, 3), dtype=np.int64))

    def record(self, round_: int, bucket: int, action: Action) -> None:
        """Count one observed action.

        Raises:
            ValueError: round not 0..3 or bucket not 0..2.
        """
        if not (0 <= round_ <= 3 and 0 <= bucket <= 2):
            raise ValueError(f"bad context round={round_!r} bucket={bucket!r}: expected 0..3 and 0..2")
        self.counts[round_, bucket, int(action)] += 1

    def blended(self, round_: int, bucket: int, specific: bool = True) -> np.ndarray:
        """``(3,) float64`` frequencies [f, c, r] for a context (RECONSTRUCTED Eq. 7.4).

        With n observations in the context, ``f' = f·n/20 + d·(1 − n/20)`` for n < 20, where the default
        d is Table B.2 pre-flop and the blended frequency of the previous round (same bucket) afterwards.
        ``specific=False`` is generic modelling: always Table B.2.
        """
        d = DEFAULT_FREQUENCIES[bucket].copy()
        if not specific:
            return d
        for r in range(round_ + 1):
            cnt = self.counts[r, bucket]
            n = int(cnt.sum())
            if n == 0:
                continue
            f = cnt / n
            a = min(n, BLEND_OBSERVATIONS) / BLEND_OBSERVATIONS
            d = a * f + (1.0 - a) * d
        return d


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
        raise ValueError("a fold carries no re-weighting threshold")
    f, c, _ = (float(x) for x in freqs)
    mu = f if action == Action.CALL else f + c
    mu = min(max(mu, 0.0), 1.0)
    return mu, max(0.05, 0.5 * min(mu, 1.0 - mu))


def ramp_factors(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Re-weighting factors of the μ/σ ramp (pena/node27): 0.01 below ``lo``, 1 above ``hi``, linear between.

    Args:
        values: ``(k,) float64`` hand values (EHS' or IR).
        lo, hi: the ramp's ends (μ − σ and μ + σ, on the values' scale).

    Returns:
        ``(k,) float64`` factors in [0.01, 1].
    """
    v = np.asarray(values, dtype=np.float64)
    if hi <= lo:
        out = np.where(v >= hi, 1.0, LOW_WEIGHT)
    else:
        out = (v - lo) / (hi - lo)
    return np.clip(out, LOW_WEIGHT, 1.0)


def ramp_bounds(mu: float, sigma: float, sorted_values: np.ndarray | None = None) -> tuple[float, float]:
    """Ramp ends μ − σ and μ + σ; with ``sorted_values`` (the 1,326 IR values sorted ascending) the
    percentiles are converted to that scale by nearest-point indexing (pena/node27)."""
    lo, hi = mu - sigma, mu + sigma
    if sorted_values is None:
        return lo, hi
    n = len(sorted_values) - 1

    def at(p: float) -> float:
        return float(sorted_values[int(round(min(max(p, 0.0), 1.0) * n))])

    return at(lo), at(hi)


@dataclass
class OpponentModel:
    """What we know about one opponent: the hand's weight table and the long-run frequencies.

    Attributes:
        weights: ``(1326,) float64`` current weight table (1.0 at the deal).
        round_start: ``(1326,) float64`` copy stored at the start of the round (Loki-1's stored-copy rule).
        applied_mu: the highest μ applied this round (−1 when none).
        frequencies: :class:`ActionFrequencies`, kept across hands.
    """

    weights: np.ndarray = field(default_factory=lambda: np.ones(N_HOLDINGS))
    round_start: np.ndarray = field(default_factory=lambda: np.ones(N_HOLDINGS))
    applied_mu: float = -1.0
    frequencies: ActionFrequencies = field(default_factory=ActionFrequencies)

    def new_hand(self) -> None:
        """Reset the weight table to 1.0 (frequencies are kept)."""
        self.weights = np.ones(N_HOLDINGS)
        self.new_round()

    def new_round(self) -> None:
        """Store a copy of the weights for this round's (single) Loki-1 re-weighting."""
        self.round_start = self.weights.copy()
        self.applied_mu = -1.0


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
    mu, sigma = threshold_mu_sigma(action, freqs)
    if mu <= model.applied_mu or mu <= 0.0:
        return False
    lo, hi = ramp_bounds(mu, sigma, sorted_values)
    model.weights = np.maximum(LOW_WEIGHT, model.round_start * ramp_factors(values, lo, hi))
    model.applied_mu = mu
    return True


def triple_reweight(model: OpponentModel, triples: np.ndarray, action: Action, live: np.ndarray | None = None) -> None:
    """Loki-2 feature R: ``w[h] ← max(0.01, w[h] × PT_h[action])`` (AAAI99 §4; pena/node34).

    DEFAULT (reference §5.4): cumulative on every observed action, floor 0.01, no stored-copy rule.

    Args:
        model: the opponent's model (weights updated in place).
        triples: ``(1326, 3) float64`` the PT of every holding in the opponent's situation.
        action: observed action (FOLD is ignored: the player leaves the hand).
        live: optional ``(1326,) bool``; holdings outside it are left unchanged.

    Raises:
        ValueError: ``triples`` not of shape ``(1326, 3)`` (checked only for a non-fold action).

    >>> m = OpponentModel(); m.weights[:] = 0.7
    >>> pt = np.tile([0.0, 0.2, 0.8], (1326, 1))
    >>> triple_reweight(m, pt, Action.CALL); round(float(m.weights[0]), 10)
    0.14
    """
    if action == Action.FOLD:
        return
    t = np.asarray(triples, dtype=np.float64)
    if t.shape != (N_HOLDINGS, 3):
        raise ValueError(f"triples must have shape (1326, 3), got {t.shape}")
    new = np.maximum(LOW_WEIGHT, model.weights * t[:, int(action)])
    if live is not None:
        new = np.where(live, new, model.weights)
    model.weights = new


# ------------------------------------------------------------------------------ the model store
class ModelStore:
    """The Opponent Modeler's data: one :class:`OpponentModel` per opponent seat (AAAI99 Figure 2).

    Keyed by seat; the weight tables are reset every hand (:meth:`begin_hand`) and the action
    frequencies kept across hands; :meth:`reseat` re-keys the models when the players change seats
    (duplicate tournaments), so each model follows its opponent.  Mapping-like: ``store[seat]``,
    ``seat in store``, ``len(store)``, ``store.items()``, ``store.values()``.

    >>> st = ModelStore(); st.begin_hand(me=0, n_players=3); sorted(st.models)
    [1, 2]
    >>> st.reseat({0: 2, 1: 0, 2: 1}); sorted(st.models)
    [0, 1]
    """

    def __init__(self) -> None:
        self.models: dict[int, OpponentModel] = {}

    def begin_hand(self, me: int, n_players: int) -> None:
        """A hand starts at a table of ``n_players`` with us at ``me``: every other seat gets a model (new
        ones for new seats) and every weight table goes back to 1.0."""
        for s in range(n_players):
            if s != me:
                self.models.setdefault(s, OpponentModel()).new_hand()

    def new_round(self) -> None:
        """A betting round starts: every model stores its round-start copy (Loki-1's stored-copy rule)."""
        for m in self.models.values():
            m.new_round()

    def reseat(self, mapping: dict[int, int]) -> None:
        """Players moved: ``mapping[old_seat] = new_seat``; models of seats not in it are dropped."""
        self.models = {mapping[s]: m for s, m in self.models.items() if s in mapping}

    def observe(self, ev: ActionTaken, modeler: OpponentModeler, game: GameConfig, ctx: ModelingContext) -> None:
        """An opponent acted: re-weight its table with ``modeler`` (thresholds from the frequencies *before*
        this action; a fold re-weights nothing), then count the action in its frequencies (papp/node56)."""
        model = self.models[ev.seat]
        bucket = bets_to_call_bucket(ev.to_call / game.bet_sizes[ev.round])
        if ev.action != Action.FOLD:
            modeler.reweight(model, ev, bucket, ctx)
        model.frequencies.record(ev.round, bucket, ev.action)

    def __getitem__(self, seat: int) -> OpponentModel:
        return self.models[seat]

    def __contains__(self, seat: object) -> bool:
        return seat in self.models

    def __len__(self) -> int:
        return len(self.models)

    def items(self):
        return self.models.items()

    def values(self):
        return self.models.values()

    def keys(self):
        return self.models.keys()


@dataclass
class ModelingContext:
    """What the observer knows when it re-weights: its own seat and hole cards (dead cards for the
    opponent's possible holdings), the visible board and the rules."""

    seat: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    game: GameConfig


class OpponentModeler(Protocol):
    """A re-weighting rule: updates one opponent's weight table after one of its (non-fold) actions.

    ``reweight(model, ev, bucket, ctx)`` gets the opponent's model, the ``ActionTaken`` event (the
    situation it faced before acting), its bets-to-call bucket (0, 1, 2+) and the observer's
    :class:`ModelingContext`; it changes ``model.weights`` in place or replaces them.  Frequencies
    are counted by :meth:`ModelStore.observe` after the call.
    """

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> None: ...


#: DEFAULT: the IR table that gives opponents' pre-flop hand values for re-weighting (loki-algorithms.md §4.3).
REWEIGHT_IR_TABLE = 7


@lru_cache(maxsize=1)
def preflop_hand_values() -> tuple[np.ndarray, np.ndarray]:
    """``((1326,) IR of every holding, (1326,) the same sorted ascending)`` from IR7 (DEFAULT table, IR ×1000)."""
    v = holding_ir(REWEIGHT_IR_TABLE).copy()
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


@dataclass(frozen=True)
class Loki1Modeler:
    """Loki-1's re-weighting (PAPP98 papp/node58-60; pena/node27): the μ/σ ramp on IR7 pre-flop and on
    EHS' (HS_1 + PPot1 against a uniform range) post-flop, once per round from the stored copy.

    Attributes:
        specific: thresholds from each opponent's blended observed frequencies (specific modelling, SOM);
            False: always Table B.2's defaults (generic modelling, GOM).
    """

    specific: bool = True

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> None:
        """:func:`loki1_reweight` with the frequencies of the context (round, bets to call)."""
        freqs = model.frequencies.blended(ev.round, bucket, specific=self.specific)
        if ev.round == 0:
            values, sorted_values = preflop_hand_values()
            loki1_reweight(model, values, ev.action, freqs, sorted_values)
        else:
            loki1_reweight(model, postflop_hand_values(ctx.board), ev.action, freqs)


@dataclass(frozen=True)
class TripleModeler:
    """Loki-2 feature R (AAAI99 §4; pena/node34): post-flop, each holding's weight times its probability
    triple's entry for the observed action, the triples computed in the opponent's situation with
    ``triple``; pre-flop, Loki-1's re-weighting (``preflop``; pena/node39).

    Attributes:
        triple: the Triple Generator that models the opponents (:class:`loki.triples.TripleConfig`).
        preflop: the pre-flop re-weighting (Loki-1's).
    """

    triple: TripleConfig
    preflop: Loki1Modeler = Loki1Modeler()

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> None:
        """Triple re-weighting after the flop (holdings sharing a card with our hand or the board are left
        as they are); Loki-1's method before it."""
        if ev.round == 0:
            self.preflop.reweight(model, ev, bucket, ctx)
            return
        g = ctx.game
        spot = BettingSpot(
            street=ev.round,
            pot=float(ev.pot),
            to_call=float(ev.to_call),
            bet_size=float(g.bet_sizes[ev.round]),
            bets_this_round=int(ev.bets),
            voluntarily_in=ev.voluntary,
            can_raise=int(ev.bets) < g.max_bets,
            next_bet_size=float(g.bet_sizes[ev.round + 1]) if ev.round < 3 else 0.0,
        )
        triples = opponent_triples(ctx.board, spot, max(1, int(ev.n_active) - 1), self.triple)
        dead = np.uint64(cards_mask(ctx.hole + tuple(ctx.board)))
        live = (HOLDING_MASKS & dead) == 0
        triple_reweight(model, triples, ev.action, live)
