"""Opponent-specific probability triples: each opponent modelled as the opponent at the table .

Feature R as AAAI99 §4 describes it multiplies each holding's weight by the probability triple of *this particular
opponent* (seed ``001_…``: "the call value of 0.20 … reflects the uncertainty in Loki's beliefs about the actions of
this particular opponent").  The paper's Loki-2 (:class:`~loki.modeler.triple_model.TripleModeler`) models every
opponent with the observer's own Triple Generator, and its triples are mostly pure, so one surprising action leaves
a holding at the 0.01 floor.  This modeler (all **DEFAULT**; the sources give no formula) describes each opponent's
action in context as a mixture of three experts and learns, per opponent, how much each explains its play:

1. **rules** ``R(h)``: the Triple Generator (:mod:`loki.triples.rule_chain`) in the opponent's situation — its hand rated as
   it would rate it (HS_n and PPot1 against a uniform range), its check-raise condition from public facts
   (:meth:`~loki.modeler.model.ModelingContext.check_raise_condition`); right for opponents that play by rules like
   Loki's own;
2. **frequencies** ``M(h)``: frequency matched.  In the action's context (round, bets to call 0 / 1 / 2+), the
   opponent's blended frequencies ``F = (f, c, r)`` (observed counts blended with Table B.2 until 20 observations,
   papp/node56) say how often it folds, calls and raises; every holding's percentile ``q(h)`` *within the opponent's
   current range* (its weight table before the action, values as in 1.) places it: the bottom ``f`` of the range
   folds, the top ``r`` raises, with linear ramps of half-width ``softness`` (so that, over the range, the triples
   reproduce the frequencies).  Where it can bet (nothing to call) a share ``ρ`` of its betting hands checks
   instead: its check-raise propensity, learned from public actions (check-raises against bets when checked to);
3. **card-blind** ``F``: the context frequencies whatever it holds (how unpredictable it has been).

``T(h) = π_R·R(h) + π_M·M(h) + π_B·F`` with per-opponent weights ``π`` from a Dirichlet prior (``prior``, weight
``prior_weight`` actions) updated at every showdown by one expectation-maximisation step over the shown hand's
traced post-flop actions (responsibility of expert k for action a: ``π_k·expert_k(h)[a] / T(h)[a]``).  As
``π_B·F[a] > 0`` (frequencies floored at ``min_frequency``), no single action zeroes a holding.  Re-weighting as
feature R: ``w[h] ← max(0.01, w[h]·T(h)[action])`` for the holdings still possible, then those weights are divided
by their maximum (the table is a posterior up to a constant, so this keeps every ratio and makes the 0.01 floor
relative to the most likely holding: a long run of actions that all have ``T < 1`` — a maniac's raises — would
otherwise push every holding to the floor, a collapse; measured on the 3-player ACPC log, 150 hands: collapse rate
1.6 % without it, 0 with it).  Pre-flop stays Loki-1's (pena/node39).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
from pydantic import Field, field_validator

from loki.assessment.weights import LOW_WEIGHT
from loki.cards import N_HOLDINGS, live_holdings
from loki.config import LokiModel, tunable
from loki.engine import Action, ActionTaken
from loki.modeler.kernels import (
    board_order_into,
    context_frequencies_into,
    context_frequencies_post,
    freq_triples_all,
    live_percentiles_into,
    percentiles_into,
    specific_reweight_row,
)
from loki.modeler.loki1 import Loki1Modeler
from loki.modeler.model import (
    DEFAULT_FREQUENCIES,
    ModelingContext,
    OpponentModel,
    OpponentModeler,
    PlayoutPolicy,
    ReweightDetails,
    check_context,
    reweight_details_of,
)
from loki.modeler.triple_model import action_column, opponent_spot
from loki.triples import TripleConfig, opponent_hand_values, opponent_triples
from loki.triples.spot import BettingSpot

__all__ = [
    "SpecificModelConfig",
    "SpecificModeler",
    "range_percentiles",
    "percentile_order",
    "percentiles_in_order",
    "board_percentiles",
    "frequency_triples",
]


class SpecificModelConfig(LokiModel):
    """DEFAULTs of the opponent-specific model (module docstring; tuned on seeds ≥ 1000).

    Attributes:
        prior: prior weights of the experts (rules, frequencies, card-blind), summing to 1.
        prior_weight: weight of the prior, in showdown actions.
        softness: ramp half-width of the frequency expert, in percentile of the opponent's range.
        min_frequency: floor of each context frequency (renormalised).
        check_raise_prior: prior check-raise propensity ρ; check_raise_weight its weight in observations.
        frequency_prior: how the context frequencies learn: 0, Loki-1's blend (each round's counts weigh up to 20
            observations against Table B.2, papp/node56); ``k > 0``, a Bayesian mean with ``k`` pseudo-observations
            (:func:`loki.modeler.kernels.blend_frequencies`; DEFAULT 0, beyond the sources: the card-blind hypothesis
            of the adaptive model learns at 3, and its frequency expert then predicts every action as that hypothesis
            does, experiments/exploitation).
        frequency_ranking: where the frequency expert places a holding: ``"range"``, its percentile within the
            opponent's current range (the module docstring's 2.: over the range the triples reproduce the context
            frequencies); ``"deck"``, its percentile among all the holdings still possible, each alike (a player that
            acts by thresholds on its hand's value, whatever it has shown before: the top ``r`` of the deck raises).
            DEFAULT ``"range"``, beyond the sources.
    """

    prior: tuple[float, float, float] = (0.6, 0.25, 0.15)
    prior_weight: float = tunable(20.0, 1.0, 200.0, source="DEFAULT (opponent-specific model)", log=True, gt=0.0)
    softness: float = tunable(0.10, 0.02, 0.3, source="DEFAULT (opponent-specific model)", gt=0.0, le=0.5)
    min_frequency: float = tunable(0.02, 0.0, 0.1, source="DEFAULT (opponent-specific model)", ge=0.0, le=0.3)
    check_raise_prior: float = Field(0.10, ge=0.0, lt=1.0)
    check_raise_weight: float = Field(10.0, gt=0.0)
    card_blindness: Literal["mixture", "evidence"] = "mixture"
    evidence_floor: float = tunable(0.02, 0.001, 0.2, source="DEFAULT", log=True, gt=0.0, lt=1.0)
    frequency_prior: float = Field(0.0, ge=0.0, le=1000.0)
    frequency_ranking: Literal["range", "deck"] = "range"

    @field_validator("prior")
    @classmethod
    def _prior(cls, v: tuple[float, float, float]) -> tuple[float, float, float]:
        if min(v) < 0.0 or abs(sum(v) - 1.0) > 1e-9:
            raise ValueError(f"expected three non-negative weights summing to 1, got {v}")
        return v


def range_percentiles(values: np.ndarray, weights: np.ndarray, live: np.ndarray) -> np.ndarray:
    """``(1326,) float64``: each holding's percentile (0..1) of ``values`` within the range ``weights`` restricted to
    ``live`` holdings (weighted mid-rank: the weight below plus half the weight tied, over the total).  Holdings
    outside ``live`` get 0.5.

    >>> v = np.zeros(1326); v[:4] = [0.1, 0.2, 0.2, 0.9]
    >>> live = np.zeros(1326, bool); live[:4] = True
    >>> range_percentiles(v, np.ones(1326), live)[:4].tolist()
    [0.125, 0.5, 0.5, 0.875]
    """
    return percentiles_in_order(percentile_order(values, live), weights, values.shape[0])


def percentile_order(values: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, ...]:
    """What :func:`range_percentiles` needs of ``values`` and ``live`` alone (it does not depend on the weights, so a
    board's decisions share it): the live holdings ``idx``, their stable sort ``order`` by value, and for each live
    holding the ends ``lo``, ``hi`` of its tie block in that order."""
    idx = np.flatnonzero(live)
    v = values[idx]
    order = np.argsort(v, kind="stable")
    sv = v[order]
    return idx, order, np.searchsorted(sv, v, side="left"), np.searchsorted(sv, v, side="right")


def percentiles_in_order(pre: tuple[np.ndarray, ...], weights: np.ndarray, n: int = 1326) -> np.ndarray:
    """:func:`range_percentiles` from its :func:`percentile_order` (the same floats; the kernel
    :func:`loki.modeler.kernels.percentiles_into`)."""
    idx, order, lo, hi = pre
    out = np.full(n, 0.5)
    if idx.size:
        percentiles_into(idx, order, lo, hi, np.ascontiguousarray(weights, dtype=np.float64), out)
    return out


def frequency_triples(q: np.ndarray, freqs: np.ndarray, facing: bool, softness: float, rho: float = 0.0) -> np.ndarray:
    """``(k, 3) float64`` frequency-matched triples of holdings at range percentiles ``q`` (module docstring, 2.;
    the kernel :func:`loki.modeler.kernels.freq_triple`).

    Args:
        q: ``(k,)`` percentiles in [0, 1].
        freqs: ``(3,)`` context frequencies (fold, call, raise), summing to 1.
        facing: a bet is to be called (else folding is impossible: f = 0).
        softness: σ, the ramps' half-width.
        rho: check-raise propensity (only when not facing).
    """
    q = np.ascontiguousarray(q, dtype=np.float64)
    out = np.empty((q.shape[0], 3))
    freq_triples_all(q, float(freqs[0]), float(freqs[2]), bool(facing), float(softness), float(rho), out)
    return out


#: The rules expert's triples :func:`rules_triples` computed, by everything they depend on (read-only arrays; cleared
#: when full), as :func:`loki.modeler.triple_model.action_column` keeps the observer's columns: in a duplicate
#: tournament a deal's public actions recur in every seating.
_RULES: dict = {}
_RULES_MAX = 256

#: Every holding's value and the board's stable order of them (:func:`_board_order`), by board and opponents faced
#: (cleared when full): a board recurs in every seating of a duplicate deal and for every observer.
_BOARD_ORDERS: dict = {}
_ORDERS_MAX = 256

#: The uniform range of ``frequency_ranking = "deck"`` (read-only).
_UNIFORM = np.ones(N_HOLDINGS)
_UNIFORM.setflags(write=False)


def rules_triples(
    board: tuple[int, ...], spot: BettingSpot, n_opp: int, triple: TripleConfig, params, check_raise: bool
) -> np.ndarray:
    """``(1326, 3) float64`` read-only: :func:`loki.triples.opponent_triples` of the opponent's situation (the rules
    expert, module docstring 1.), kept by ``board``, ``spot``, ``n_opp``, the Triple Generator's ``params`` (those of
    ``triple``) and ``check_raise`` (the value is a function of these only, so a kept array is the same floats)."""
    key = (board, spot, n_opp, params, bool(check_raise))
    t = _RULES.get(key)
    if t is None:
        t = opponent_triples(board, spot, n_opp, triple, bool(check_raise))
        t.setflags(write=False)
        if len(_RULES) >= _RULES_MAX:
            _RULES.clear()
        _RULES[key] = t
    return t


@lru_cache(maxsize=64)
def _board_holdings(board: tuple[int, ...]) -> np.ndarray:
    # (k,) int64 read-only: the holdings sharing no card with the board, in holding order (one per board: its orders
    # for each number of opponents start from it)
    bidx = np.flatnonzero(live_holdings(board))
    bidx.setflags(write=False)
    return bidx


def _board_order(board: tuple[int, ...], n_opp: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # (values, by_value, starts): EHS' as the opponent rates its hand (HS_n against n_opp uniform ranges) of every
    # holding, the holdings disjoint from the board by value (stable sort), and where runs of equal values start in
    # that order, NaNs (sorted last) one run as numpy's searchsorted takes them; kept by (board, n_opp)
    key = (board, n_opp)
    bo = _BOARD_ORDERS.get(key)
    if bo is None:
        hs_n, pp, _ = opponent_hand_values(board, n_opp)  # HS_1 ** n_opp, kept per board (the rules' values)
        bidx = _board_holdings(board)
        values = np.empty(N_HOLDINGS)
        by_value = np.empty(bidx.shape[0], dtype=np.int64)
        starts = np.empty(bidx.shape[0], dtype=np.bool_)
        board_order_into(hs_n, pp, bidx, values, by_value, starts)  # numpy's stable order, by a radix sort
        bo = values, by_value, starts
        if len(_BOARD_ORDERS) >= _ORDERS_MAX:
            _BOARD_ORDERS.clear()
        _BOARD_ORDERS[key] = bo
    return bo


def board_percentiles(board: tuple[int, ...], n_opp: int, live: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``(1326,) float64``: :func:`range_percentiles` of EHS' as the opponent rates its hand on ``board`` (HS_n
    against ``n_opp`` uniform ranges, plus PPot) within the range ``weights`` restricted to ``live`` (a subset of the
    holdings disjoint from ``board``): the same floats, NaNs included, from the board's order of every holding, kept
    per board (:func:`loki.modeler.kernels.live_percentiles_into`, one pass)."""
    _, by_value, starts = _board_order(board, n_opp)
    out = np.full(N_HOLDINGS, 0.5)
    live_percentiles_into(
        by_value, starts, live, np.ascontiguousarray(weights, dtype=np.float64), np.empty(N_HOLDINGS), out
    )
    return out


@dataclass(frozen=True)
class _MixtureLikelihood:
    """``P(action | h)`` of a traced action under the mixture, with each expert's column for the showdown learning
    (and, when given, the mixture's column as :meth:`probabilities` computes it, kept from the re-weighting)."""

    rules: np.ndarray  # (1326,) the rules expert's probability of the action
    freq: np.ndarray  # (1326,) the frequency expert's
    blind: float  # F[action]
    pi: tuple[float, float, float]  # the weights when the action was modelled
    column: np.ndarray | None = None  # (1326,) pi[0]·rules + pi[1]·freq + pi[2]·blind

    def parts(self, h: int) -> tuple[float, float, float]:
        return (self.pi[0] * float(self.rules[h]), self.pi[1] * float(self.freq[h]), self.pi[2] * self.blind)

    def __call__(self, h: int) -> float:
        return sum(self.parts(h))

    def probabilities(self) -> np.ndarray:
        """``(1326,) float64`` ``P(action | holding)`` of every holding under the mixture."""
        if self.column is not None:
            return self.column
        return self.pi[0] * self.rules + self.pi[1] * self.freq + self.pi[2] * self.blind


@dataclass(frozen=True)
class SpecificModeler:
    """Feature R with opponent-specific triples (module docstring).

    Attributes:
        triple: the Triple Generator of the rules expert (the observer's thresholds and widths).
        config: the DEFAULTs.
        preflop: the pre-flop re-weighting (Loki-1's).
    """

    triple: TripleConfig
    config: SpecificModelConfig = SpecificModelConfig()
    preflop: OpponentModeler = Loki1Modeler()
    #: after the flop the mixture re-weights the current table (the round's stored copy is the pre-flop rule's)
    reads_round_start = False

    @cached_property
    def _params(self):
        return self.triple.params()

    # ---- per-opponent learned quantities ---------------------------------------------------------
    def weights(self, model: OpponentModel) -> tuple[float, float, float]:
        """``(π_R, π_M, π_B)`` of this opponent: the prior plus the showdown evidence.  With ``card_blindness =
        "evidence"``, ``π_B`` is the posterior probability that its actions do not follow its cards
        (:meth:`blind_posterior`) and ``π_R : π_M`` the learned share of the two card-driven experts."""
        c = self.config
        s = model.stats
        w = c.prior_weight
        r = (
            c.prior[0] * w + s.get("resp0", 0.0),
            c.prior[1] * w + s.get("resp1", 0.0),
            c.prior[2] * w + s.get("resp2", 0.0),
        )
        if c.card_blindness == "evidence":
            b = self.blind_posterior(model)
            driven = r[0] + r[1]
            if driven <= 0.0:  # a prior of (0, 0, 1): card-blind for certain (b is 1), no share to split
                return 0.0, 0.0, 1.0
            pr, pm = (1.0 - b) * r[0] / driven, (1.0 - b) * r[1] / driven
            return pr, pm, max(1.0 - pr - pm, 0.0)
        total = sum(r)
        return r[0] / total, r[1] / total, r[2] / total

    def blind_posterior(self, model: OpponentModel) -> float:
        """The posterior probability that the opponent is card-blind (``card_blindness = "evidence"``): the prior
        ``prior[2]`` updated by the log Bayes factor its showdowns gave (:meth:`learn`), in [0, 1].

        Two hypotheses about the whole opponent: its actions follow its cards (the rules and frequency experts,
        in their learned proportion) or they do not (its context frequencies whatever it holds).  Every post-flop
        action of a hand it showed down adds ``log((ε + P_driven(a | h)) / (ε + F(a)))`` (``ε = evidence_floor``) to
        the log Bayes factor in favour of the first; the posterior is
        ``1 / (1 + (1 − p_B)/p_B · exp(log Bayes factor))`` (0 or 1 whatever the evidence when ``p_B`` is).  Unlike
        the mixture's weights (an EM step per showdown, whose likelihood is flat near a card-blind opponent), the factor
        moves by a few units per showdown either way: after a handful of a maniac's showdowns it is near 1, after a
        handful of Loki-1's near 0.  DEFAULT beyond the sources (reference/tuning-and-adaptation.md: Bayesian model
        comparison, Southey et al. 2005).
        """
        p = self.config.prior[2]
        if p <= 0.0 or p >= 1.0:  # a certain prior: no evidence moves it
            return 0.0 if p <= 0.0 else 1.0
        x = float(model.stats.get("blind_lbf", 0.0)) + math.log((1.0 - p) / p)
        return 1.0 / (1.0 + math.exp(min(x, 700.0))) if x > -700.0 else 1.0

    def check_raise_propensity(self, model: OpponentModel) -> float:
        """ρ of this opponent: check-raises among its check-raises and bets when checked to (module docstring)."""
        c = self.config
        s = model.stats
        cr, bets = s.get("check_raises", 0.0), s.get("bets_unopened", 0.0)
        return (c.check_raise_prior * c.check_raise_weight + cr) / (c.check_raise_weight + cr + bets)

    def context_frequencies(self, model: OpponentModel, round_: int, bucket: int, facing: bool) -> np.ndarray:
        """``(3,)`` the opponent's blended frequencies in the context, fold impossible when not facing, each
        floored at ``min_frequency`` and renormalised."""
        check_context(round_, bucket)
        out = np.empty(3)
        context_frequencies_into(
            model.tables.counts, model.row, int(round_), int(bucket), bool(facing),
            float(self.config.min_frequency), DEFAULT_FREQUENCIES, out, float(self.config.frequency_prior),
        )  # fmt: skip
        return out

    def experts(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext):
        """``(R, M, F, live)``: the rules' and the frequency expert's ``(1326, 3)`` triples, the context frequencies
        ``(3,)`` and the ``(1326,) bool`` holdings still possible, for the opponent's post-flop action ``ev``.  The
        rules' triples (read-only) and the order of the holdings by the opponent's hand value are functions of the
        public spot and the board only, kept across decisions, hands and seatings (:func:`rules_triples`,
        :func:`_board_order`)."""
        q, F, facing, rho, live = self._context(model, ev, bucket, ctx)
        n_opp = max(1, int(ev.n_active) - 1)
        crf = ctx.check_raise_condition(ev.seat)
        rules = rules_triples(tuple(ctx.board), opponent_spot(ev, ctx.game), n_opp, self.triple, self._params, crf)
        freq = frequency_triples(q, F, facing, self.config.softness, rho)
        return rules, freq, F, live

    def _context(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext):
        # (q (1326,) percentiles in the range, F (3,), facing, rho, live (1326,) bool): the frequency expert's inputs
        n_opp = max(1, int(ev.n_active) - 1)
        live = ctx.live_holdings()
        q = board_percentiles(tuple(ctx.board), n_opp, live, self._rank_weights(model))
        facing = ev.to_call > 0
        F = self.context_frequencies(model, ev.round, bucket, facing)
        rho = 0.0 if facing else self.check_raise_propensity(model)
        return q, F, facing, rho, live

    def _rank_weights(self, model: OpponentModel) -> np.ndarray:
        # (1326,) the range the frequency expert's percentiles are taken in (SpecificModelConfig.frequency_ranking)
        if self.config.frequency_ranking == "deck":
            return _UNIFORM
        return model.weights

    def triples(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> np.ndarray:
        """``(1326, 3)`` the mixture triples ``T`` of the opponent's post-flop action ``ev``."""
        rules, freq, F, _ = self.experts(model, ev, bucket, ctx)
        pr, pm, pb = self.weights(model)
        return pr * rules + pm * freq + pb * F[None, :]

    # ---- the OpponentModeler protocol --------------------------------------------------------------
    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> None:
        """Pre-flop Loki-1's re-weighting; post-flop the mixture triples (module docstring), traced for the
        showdown; public check-raise evidence counted."""
        if ev.round == 0:
            self.preflop.reweight(model, ev, bucket, ctx)
            return
        a = int(ev.action)
        if ev.action == Action.RAISE:
            key = "bets_unopened" if ev.to_call <= 0 else None
            if ev.to_call > 0 and (Action.CALL, False) in model.round_actions:
                key = "check_raises"  # it checked earlier this round and raises now
            if key:
                model.stats[key] = model.stats.get(key, 0.0) + 1.0
        # the rules expert's column of the action: the observer's column (the same floats as the rules' triples,
        # :func:`rules_triples`), kept per action and read by every model of it
        rules_a = action_column(ev, ctx, self._params, ctx.check_raise_condition(ev.seat))
        pi = self.weights(model)
        freq_a = np.empty(N_HOLDINGS)
        col = np.empty(N_HOLDINGS)
        model.tables.touch(model.row)
        _, by_value, starts = _board_order(tuple(ctx.board), max(1, int(ev.n_active) - 1))
        # the context frequencies F, the range percentiles q and the mixture's column of the action
        # T = π_R·R + π_M·M + π_B·F; feature R w ← max(0.01, w·T[a]) on the live holdings (not for a fold), then the
        # live entries rescaled to a maximum of 1: one kernel (the floats of _context's parts and of the mixture
        # holding by holding)
        check_context(ev.round, bucket)
        facing = ev.to_call > 0
        F = np.empty(3)
        scratch = np.empty((2, N_HOLDINGS))
        specific_reweight_row(
            model.tables.weights, model.row, model.tables.counts, int(ev.round), int(bucket), bool(facing),
            float(self.config.min_frequency), DEFAULT_FREQUENCIES,
            0.0 if facing else float(self.check_raise_propensity(model)), by_value, starts, ctx.live_holdings(),
            rules_a, float(self.config.softness), pi[0], pi[1], float(pi[2]), a, LOW_WEIGHT,
            ev.action != Action.FOLD, scratch[0], scratch[1], freq_a, col, F, float(self.config.frequency_prior),
            self._rank_weights(model),
        )  # fmt: skip
        lik = _MixtureLikelihood(rules_a, freq_a, float(F[a]), pi, col)
        model.trace.append((ev.round, ev.action, lik))

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """The believed play-out plays the opponent by its mixture: the rules with this modeler's Triple Generator, the
        frequency expert and its card-blind frequencies, weighted by :meth:`weights`."""
        freqs = np.zeros((4, 3, 3))  # context_frequencies(model, r, b, b > 0) for r 1..3, b 0..2 in one kernel
        context_frequencies_post(
            model.tables.counts, model.row, float(self.config.min_frequency), DEFAULT_FREQUENCIES, freqs,
            float(self.config.frequency_prior),
        )  # fmt: skip
        return PlayoutPolicy(
            label="specific mixture",
            rules=self.triple.params(),
            mix=self.weights(model),
            frequencies=freqs,
            check_raise=self.check_raise_propensity(model),
            softness=self.config.softness,
            believed=self.asks_believed(model),
            ranking=self.config.frequency_ranking,
        )

    def asks_believed(self, model: OpponentModel) -> bool:
        """The specific mixture always asks for believed play-outs (its opponents are played as modelled)."""
        return True

    def card_blindness(self, model: OpponentModel) -> float:
        """π_B: the weight of the card-blind expert, how little the opponent's actions say about its cards."""
        return self.weights(model)[2]

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """Pre-flop the pre-flop modeler's details; after the flop ``"specific"``."""
        if ev.round == 0:
            return reweight_details_of(self.preflop, model, ev, bucket)
        return ReweightDetails("specific")

    def learn(self, model: OpponentModel, h: int, ctx: ModelingContext) -> None:
        """At a showdown: each expert's responsibility for the shown hand's traced post-flop actions is added to
        its evidence (one EM step)."""
        s = model.stats
        evidence = self.config.card_blindness == "evidence"
        eps = self.config.evidence_floor
        for rnd, _action, lik in model.trace:
            if rnd == 0 or not isinstance(lik, _MixtureLikelihood):
                continue
            if evidence:
                r, m = lik.pi[0], lik.pi[1]
                driven = (r * float(lik.rules[h]) + m * float(lik.freq[h])) / (r + m) if r + m > 0.0 else 0.0
                s["blind_lbf"] = s.get("blind_lbf", 0.0) + math.log((eps + driven) / (eps + lik.blind))
            parts = lik.parts(h)
            total = sum(parts)
            if total <= 0.0:
                continue
            for k in range(3):
                s[f"resp{k}"] = s.get(f"resp{k}", 0.0) + parts[k] / total
