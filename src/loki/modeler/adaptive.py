"""Adaptive opponent modelling: several models of each opponent, weighed by how well each predicts it.

Loki-2's thesis is opponent modelling, but which model explains an opponent depends on the opponent: at full tables
of Loki-1 the paper's design (the observer's own triples) is best, against a card-blind or reckless player the
opponent-specific mixture (:mod:`loki.modeler.specific`) is.  :class:`AdaptiveModeler` keeps the candidate models of
every opponent side by side (each its own weight table, re-weighted by its own rule) and weighs them online by
**Bayesian model averaging on the predictive likelihood** (reference/tuning-and-adaptation.md; Southey et al.,
"Bayes' Bluff", UAI 2005):

* after each post-flop action ``a`` of an opponent, candidate ``k`` predicted it with probability
  ``p_k(a) = Σ_h w_k(h) · P_k(a | h) / Σ_h w_k(h)`` over the holdings still possible (its table before the action,
  its own ``P_k(a | h)``: the column the action re-weights by); the evidence ``E_k ← γ·E_k + log max(p_k(a), floor)``
  (``γ`` forgets slowly, so an opponent that changes is followed);
* the weights are ``π_k ∝ prior_k · exp(E_k)``; the prior favours the paper's design until evidence arrives
  (DEFAULT 0.8 / 0.2; the adaptive Loki 0.7 / 0.15 / 0.15 with the card-blind candidate).  Pre-flop the card-driven
  candidates re-weight alike (Loki-1's rule) and the card-blind one not at all, so pre-flop actions are no evidence
  between them;
* the opponent's table, the one every decision reads, is the mixture ``Σ_k π_k · w_k / Σ w_k`` (rescaled to a
  maximum of 1, floored at 0.01): the posterior over holdings averaged over the models;
* the Simulator plays the opponent by the same average of the candidates' play-out policies (the mixture weights of
  rules, frequency expert and card-blind frequencies are averaged; :meth:`AdaptiveModeler.playout_policy`), and asks
  for believed play-outs once the models that are not the paper's weigh ``believed_from`` or more (a player with
  ``sim.play_outs = "auto"`` then plays them);
* with ``blindness_forgetting`` (and the card-blind candidate), the question whether the opponent's actions follow
  its cards is kept apart from which card-driven model explains it best: the card-blind candidate's evidence is its
  log-odds ``D`` against the card-driven candidates' mixture, forgotten at its own rate (a program does not turn from
  card-blind to card-driven, so its verdict may keep all its evidence, while the card-driven candidates, forgotten at
  ``forgetting``, follow an opponent that changes style), clipped at ``±blindness_bound``: with one evidence vector
  forgotten at ``forgetting`` the log-odds saturate at about ``1/(1 − γ)`` actions' worth of evidence, and an opponent
  whose actions only mildly favour the card-driven models stays mid-way between the hypotheses for ever;
* with ``showdown_evidence``, a showdown is evidence too: each candidate's evidence gains the log of the probability
  its weight table gave the holding shown (relative to a uniform table), so a model whose ranges the opponent's
  hands keep falling outside loses weight in a few showdowns;
* the card-blind hypothesis (:mod:`loki.modeler.blind`) can be a candidate: its weight is then the posterior
  probability that the opponent's actions do not follow its cards, moving with every action and showdown
  (:meth:`AdaptiveModeler.card_blindness`, with ``preflop_blindness = "none"``), and its never-narrowed table keeps
  the average as wide as that probability says, pre-flop included (the adaptive Loki, the sets A5 to A8);
* with the older two candidates, an opponent whose actions carry no information about its cards (the specific
  mixture's card-blind weight at least ``card_blind_from``) is not narrowed pre-flop either (``preflop_blindness =
  "threshold"``, the sets A1-A4).

Every weight is visible: in explanations (:meth:`AdaptiveModeler.reweight_details`), and in a tournament's
``model_quality`` (:meth:`AdaptiveModeler.weights_of`).  All DEFAULTs are in :class:`AdaptiveModelConfig`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from loki.assessment.weights import LOW_WEIGHT
from loki.cards import N_HOLDINGS
from loki.config import LokiModel, tunable
from loki.engine import ActionTaken
from loki.modeler.kernels import (
    blind_log_odds_step,
    grouped_average_into,
    grouped_log_weights_into,
    mixture_into,
    model_average_into,
    softmax_into,
)
from loki.modeler.model import (
    ModelingContext,
    ModelTables,
    OpponentModel,
    OpponentModeler,
    PlayoutPolicy,
    ReweightDetails,
    playout_policy_of,
)

__all__ = ["AdaptiveModelConfig", "AdaptiveModeler", "PAPER_MODEL"]

#: The candidate that is the paper's design (Loki-2's feature R with the observer's own triples).
PAPER_MODEL = "observer"
#: The card-blind hypothesis's candidate name (:mod:`loki.modeler.blind`).
BLIND_MODEL = "blind"


#: the fields that weigh the card-blind log-odds, which exist only with ``blindness_forgetting``
_GROUPED_FIELDS = frozenset({"blindness_actions", "blindness_actions_for", "blindness_showdowns", "blindness_bound"})


class AdaptiveModelConfig(LokiModel):
    """The DEFAULTs of the adaptive model (beyond the sources).

    These are the hand-set values; the ``adaptive`` spec option plays the set A8's (:data:`loki.players.kinds.ADAPTIVE_SET`):
    its candidates, prior, ``showdown_evidence``, ``preflop_blindness`` and card-blind log-odds
    (``blindness_forgetting``, ``blindness_actions``, ``blindness_showdowns``; experiments/exploitation), and A4's
    ``forgetting``, ``floor``, ``believed_from`` and ``card_blind_from`` (DEFAULT (tuned:
    experiments/adaptive-loki/tune/hu-adaptive)).

    Attributes:
        candidates: the candidate models, names of :data:`loki.modeler.registry.FEATURE_R_MODELS` (``"observer"``:
            the paper's; ``"specific"``: opponent-specific triples) or import paths ``"package.module:name"`` of
            plug-in modelers; the first is the paper's design when it is ``"observer"``.
        prior: the prior weight of each candidate (positive; normalised).
        forgetting: γ, how much of the old log-evidence each new action keeps (1: none is forgotten).
        floor: the smallest predictive probability an action counts with (one surprising action costs at most
            ``log floor``).
        believed_from: the weight of the models that are not the paper's from which the Simulator's play-outs
            (``play_outs = "auto"``) play the opponent as believed.
        card_blind_from: the specific mixture's card-blind weight from which the opponent's pre-flop actions
            re-weight nothing (its cards are random to its actions; ``preflop_blindness = "threshold"``).
        showdown_evidence: the candidates' evidence also counts the probability each one's weight table gave the
            holding an opponent showed down (:meth:`AdaptiveModeler.learn`).
        preflop_blindness: how the opponent's card-blindness ``c`` (:meth:`AdaptiveModeler.card_blindness`) enters
            its pre-flop re-weighting: ``"threshold"``, none below ``card_blind_from`` and no re-weighting from it; or
            ``"blend"``, the re-weighted table and the table before the action mixed as ``(1 − c)·after + c·before``
            (each as a distribution over the holdings): the posterior over its holdings averaged over the two
            hypotheses, its cards drive its actions or they do not; or ``"none"``: the candidates' tables only (with
            the card-blind candidate, :mod:`loki.modeler.blind`, which never narrows, the average is that blend).
        blindness_forgetting: with the card-blind candidate (``"blind"``) and at least one other: the forgetting of its
            log-odds against the card-driven candidates' mixture (module docstring; 1: none is forgotten); ``None``:
            one evidence vector for all the candidates, forgotten at ``forgetting``.
        blindness_actions: the weight of an action's evidence in those log-odds (0: only showdowns move them).  An
            action is evidence of how well a model predicts the opponent's frequencies, which the card-blind
            candidate learns directly in every context; a shown holding is the evidence of whether the opponent's
            actions follow its cards.
        blindness_actions_for: the weight of an action's evidence in those log-odds where it favours the card-blind
            hypothesis (None: ``blindness_actions``).  A card-driven model whose frequencies are still wrong in a
            session's first hands predicts a card-driven opponent's actions worse than the card-blind frequencies do,
            while its predicting them better is evidence that they follow the cards: a weight under
            ``blindness_actions`` lets actions refute the hypothesis and leaves confirming it mostly to showdowns.
        blindness_showdowns: the weight of a shown holding's evidence in those log-odds (1: its log-likelihood ratio
            as it is; more: a showdown counts as that many, where the card-driven candidates' actions mislead).
        blindness_bound: the clip of those log-odds (a verdict that may still be overturned by as much evidence).
        unseen_blindness: the card-blindness of an opponent not followed yet (none of its actions but folds seen, no
            play-out asked of it): ``"zero"`` (the sets A5 to A8) or ``"prior"``, the value its prior gives
            (:meth:`AdaptiveModeler.card_blindness`).

    Raises:
        ConfigError: a prior of another length than the candidates, a non-positive prior, an empty candidate list;
            ``blindness_actions``, ``blindness_actions_for``, ``blindness_showdowns`` or ``blindness_bound`` away
            from its default without ``blindness_forgetting`` (it would be ignored).
    """

    candidates: tuple[str, ...] = (PAPER_MODEL, "specific")
    prior: tuple[float, ...] = (0.8, 0.2)
    forgetting: float = tunable(0.995, 0.9, 1.0, source="DEFAULT (adaptive Loki)", ge=0.0, le=1.0)
    floor: float = tunable(0.02, 0.001, 0.2, source="DEFAULT (adaptive Loki)", log=True, gt=0.0, lt=1.0)
    believed_from: float = tunable(0.5, 0.1, 0.9, source="DEFAULT (adaptive Loki)", ge=0.0, le=1.0)
    card_blind_from: float = tunable(0.7, 0.3, 1.0, source="DEFAULT (adaptive Loki)", ge=0.0, le=1.0)
    max_candidates: int = Field(4, ge=1, le=8)
    showdown_evidence: bool = False
    preflop_blindness: Literal["threshold", "blend", "none"] = "threshold"
    blindness_forgetting: float | None = Field(None, ge=0.0, le=1.0)
    blindness_actions: float = Field(1.0, ge=0.0, le=1.0)
    blindness_actions_for: float | None = Field(None, ge=0.0, le=1.0)
    blindness_showdowns: float = Field(1.0, ge=0.0, le=10.0)
    blindness_bound: float = Field(20.0, gt=0.0, le=700.0)
    unseen_blindness: Literal["zero", "prior"] = "zero"

    @model_validator(mode="after")
    def _check(self) -> AdaptiveModelConfig:
        if not self.candidates or len(self.candidates) > self.max_candidates:
            raise ValueError(f"give 1 to {self.max_candidates} candidate models, got {len(self.candidates)}")
        if len(self.prior) != len(self.candidates) or min(self.prior) <= 0.0:
            raise ValueError(f"prior {self.prior}: one positive weight per candidate {self.candidates}")
        if "adaptive" in self.candidates:
            raise ValueError("the adaptive model cannot be its own candidate")
        if self.blindness_forgetting is not None and (BLIND_MODEL not in self.candidates or len(self.candidates) < 2):
            raise ValueError(
                f"blindness_forgetting needs the card-blind candidate {BLIND_MODEL!r} and another one, got candidates "
                f"{self.candidates}"
            )
        fields = type(self).model_fields
        grouped_only = sorted(f for f in _GROUPED_FIELDS if getattr(self, f) != fields[f].default)
        if self.blindness_forgetting is None and grouped_only:
            raise ValueError(
                f"{', '.join(grouped_only)}: the weights of the card-blind log-odds act only with "
                "blindness_forgetting; set it (e.g. 1.0) or leave them at their defaults"
            )
        return self


@dataclass
class _Opponent:
    """One opponent as the adaptive modeler sees it: the main model (the store's), a model per candidate, the
    candidates' log-evidence, and the hand and round the candidates were last brought to."""

    main: OpponentModel
    tables: ModelTables  # the candidates' tables: row i is candidate i's
    cands: list[OpponentModel]
    evidence: np.ndarray
    ctx: ModelingContext | None = None
    round: int = 0
    actions: int = 0
    post: np.ndarray | None = None  # the candidates' weights from the evidence, kept until the evidence changes


def _new_hand(o: _Opponent) -> None:
    # every candidate's OpponentModel.new_hand at once: the candidates' rows are every row of o.tables
    o.tables.start_hand()
    for m in o.cands:
        m.trace = []
        m.round_actions = []


def _new_round(o: _Opponent, copy: bool) -> None:
    # every candidate's OpponentModel.new_round at once (the round-start copies only if a candidate reads them)
    o.tables.start_round(copy=copy)
    for m in o.cands:
        m.round_actions = []


def _softmax(e: np.ndarray) -> np.ndarray:
    """``exp(e) / Σ exp(e)`` for the candidates' log-weights ``e`` ``(k,) float64`` (shifted by the maximum; the
    kernel :func:`loki.modeler.kernels.softmax_into`)."""
    out = np.empty(e.shape[0])
    softmax_into(np.ascontiguousarray(e, dtype=np.float64), out)
    return out


class _MixtureOfModels:
    """``P(action | h)`` of a traced action under the averaged models (model quality reads it at showdowns)."""

    __slots__ = ("columns", "weights")

    def __init__(self, columns: list[np.ndarray], weights: np.ndarray):
        self.columns = columns
        self.weights = weights

    def __call__(self, h: int) -> float:
        return float(sum(w * float(c[h]) for w, c in zip(self.weights, self.columns, strict=True)))

    def probabilities(self) -> np.ndarray:
        return sum(w * c for w, c in zip(self.weights, self.columns, strict=True))


class AdaptiveModeler:
    """Bayesian model averaging over candidate opponent models (module docstring).

    Args:
        candidates: ``(name, modeler)`` pairs; each modeler re-weights its own copy of every opponent's table.
        config: the DEFAULTs (:class:`AdaptiveModelConfig`).

    Attributes:
        names: the candidates' names; config: as given.
    """

    name = "adaptive"

    def __init__(self, candidates: Sequence[tuple[str, OpponentModeler]], config: AdaptiveModelConfig):
        self.names = tuple(n for n, _ in candidates)
        self.modelers = tuple(m for _, m in candidates)
        self.config = config
        p = np.asarray(config.prior, dtype=np.float64)
        self._log_prior = np.log(p / p.sum())
        # the card-blind candidate judged against the card-driven ones as a group (blindness_forgetting), or -1
        self._blind = self.names.index(BLIND_MODEL) if config.blindness_forgetting is not None else -1
        self._gamma_b = 1.0 if config.blindness_forgetting is None else float(config.blindness_forgetting)
        # the weight of an action's evidence in those log-odds where it favours the card-blind candidate
        self._lam_for = float(
            config.blindness_actions if config.blindness_actions_for is None else config.blindness_actions_for
        )
        self._opps: dict[int, _Opponent] = {}
        # whether a candidate's re-weighting after the flop reads its round-start copy (OpponentModeler protocol)
        self._round_copy = any(bool(getattr(k, "reads_round_start", True)) for k in self.modelers)
        # the candidates' card-blindness (an optional part of a modeler's protocol), looked up once
        self._blindness = tuple(getattr(k, "card_blindness", None) for k in self.modelers)
        self._unseen: float | None = None  # an unseen opponent's card-blindness with unseen_blindness = "prior"
        self._before = np.empty((len(self.modelers), N_HOLDINGS))  # the candidates' tables before the action
        self._cols = np.zeros((len(self.modelers), N_HOLDINGS))  # their P(action | holding)
        self._buf = np.empty(N_HOLDINGS)
        self._buf2 = np.empty(N_HOLDINGS)

    # ------------------------------------------------------------------------------------------ the opponents
    def _opponent(self, model: OpponentModel, ctx: ModelingContext | None) -> _Opponent:
        o = self._opps.get(id(model))
        if o is None or o.main is not model:
            t = ModelTables(len(self.modelers))
            cands = [OpponentModel(t) for _ in self.modelers]  # rows 0, 1, ... in candidate order
            o = self._opps[id(model)] = _Opponent(model, t, cands, np.zeros(len(cands)))
        if ctx is not None and o.ctx is not ctx:  # a new hand: fresh tables, the evidence kept
            _new_hand(o)
            o.ctx, o.round = ctx, 0
        return o

    def weights_of(self, model: OpponentModel) -> dict[str, float]:
        """The candidates' weights ``π`` for the opponent of ``model`` (the prior before any evidence)."""
        o = self._opps.get(id(model))
        w = self._weights(np.zeros(len(self.names))) if o is None else self._post(o)
        return {n: float(x) for n, x in zip(self.names, w, strict=True)}

    def _post(self, o: _Opponent) -> np.ndarray:
        # π from the evidence (read-only; kept on the opponent until its evidence changes: the same floats)
        if o.post is None:
            o.post = self._weights(o.evidence)
            o.post.setflags(write=False)
        return o.post

    def _weights(self, evidence: np.ndarray) -> np.ndarray:
        # π from the candidates' evidence (the card-blind one's as log-odds against the group when it is apart)
        if self._blind < 0:
            return _softmax(self._log_prior + evidence)
        e = np.empty(len(self.names))
        grouped_log_weights_into(self._log_prior, np.ascontiguousarray(evidence, dtype=np.float64), self._blind, e)
        return _softmax(e)

    def card_blindness(self, model: OpponentModel) -> float:
        """How little the opponent's actions follow its cards, in [0, 1]: with ``preflop_blindness = "none"`` the
        posterior average of the candidates' card-blindness (``Σ π_k·c_k``; a candidate without one counts 0, the
        card-blind candidate 1); otherwise the largest card-blind weight any candidate sees (0 when none can
        tell).

        An opponent this modeler has not followed yet (none of its actions but folds seen, and no play-out asked of
        it) counts 0 with ``unseen_blindness = "zero"`` (the fitted sets A5 to A8 were measured so; it decides the
        pre-flop contest's switch at four to six players and the Simulator's card-blind weight, and an opponent that
        folds every hand stays at 0), and with ``"prior"`` the value the prior gives (0.15 with the shipped prior),
        as :meth:`weights_of` does: measured on A8, no difference seen (experiments/exploitation, History)."""
        o = self._opps.get(id(model))
        if o is None:
            if self.config.unseen_blindness == "zero":
                return 0.0
            if self._unseen is None:  # the prior on fresh candidate models, once
                t = ModelTables(len(self.modelers))
                self._unseen = self._blindness_of(
                    self._weights(np.zeros(len(self.names))), [OpponentModel(t) for _ in self.modelers]
                )
            return self._unseen
        return self._blindness_of(self._post(o) if self.config.preflop_blindness == "none" else None, o.cands)

    def _blindness_of(self, post: np.ndarray | None, cands: list[OpponentModel]) -> float:
        # Σ π_k·c_k over the candidates that say (``post`` given), else the largest c_k any candidate sees
        if post is not None:
            return float(
                sum(
                    float(p) * float(f(m))
                    for p, m, f in zip(post, cands, self._blindness, strict=True)
                    if f is not None
                )
            )
        out = 0.0
        for m, f in zip(cands, self._blindness, strict=True):
            if f is not None:
                out = max(out, float(f(m)))
        return out

    # ------------------------------------------------------------------------------------------ the protocol
    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> bool | None:
        """Re-weight every candidate's table of the opponent, update the candidates' evidence with how well each
        predicted the action (post-flop), and set the opponent's table to their average (module docstring).

        Returns:
            False when the average was written (its live maximum is 1: not collapsed); None otherwise (the store
            tests the table).
        """
        o = self._opponent(model, ctx)
        blend = None
        if ev.round == 0 and self.config.preflop_blindness != "none":
            cb = self.card_blindness(model)
            if self.config.preflop_blindness == "blend":
                if cb > 0.0:
                    blend = (cb, model.tables.weights[model.row].copy())
            elif cb >= self.config.card_blind_from:  # "threshold"
                return None  # a card-blind opponent's pre-flop action says nothing about its cards
        if ev.round > o.round:
            _new_round(o, self._round_copy)
            o.round = ev.round
        live = ctx.live_holdings()
        t = o.tables
        stacked = t.weights  # (k, 1326) the candidates' tables, re-weighted in place below
        before, colbuf = self._before, self._cols  # (k, 1326) scratch
        np.copyto(before, stacked)  # read only when every candidate traced the action
        t.counts[:] = model.tables.counts[model.row]  # the frequencies before this action, as the main model has them
        cols: list[np.ndarray] = []
        traced = 0
        for i, (m, k) in enumerate(zip(o.cands, self.modelers, strict=True)):
            m.round_actions = list(model.round_actions)
            n_trace = len(m.trace)
            k.reweight(m, ev, bucket, ctx)
            if len(m.trace) > n_trace:
                col = m.trace[-1][2].probabilities()  # type: ignore[attr-defined]
                cols.append(col)
                colbuf[i] = col
                traced += 1
        update = traced == len(o.cands)
        row = model.tables.weights[model.row]
        if update:  # the evidence, the weights from it and the average in one kernel, into new weights (a trace
            post = o.post = np.empty(len(o.cands))  # keeps the old ones)
            c = self.config
            if self._blind < 0:
                written = model_average_into(
                    before, stacked, colbuf, live, c.forgetting, c.floor, self._log_prior, o.evidence, post,
                    LOW_WEIGHT, row, self._buf, self._buf2,
                )  # fmt: skip
            else:
                written = grouped_average_into(
                    before, stacked, colbuf, live, c.forgetting, self._gamma_b, c.blindness_actions, self._lam_for,
                    c.blindness_bound, c.floor, self._log_prior, o.evidence, post, LOW_WEIGHT, row, self._buf,
                    self._buf2, self._blind,
                )  # fmt: skip
            post.setflags(write=False)
            o.actions += 1
            model.trace.append((ev.round, ev.action, _MixtureOfModels(cols, post)))
        else:
            written = mixture_into(stacked, self._post(o), live, LOW_WEIGHT, row)
        if blend is not None:
            cb, before = blend
            live_w = np.where(live, row, 0.0)
            tb, ta = float(np.where(live, before, 0.0).sum()), float(live_w.sum())
            if tb > 0.0 and ta > 0.0:
                mixed = (1.0 - cb) * row / ta + cb * before / tb
                np.copyto(row, np.maximum(mixed / float(mixed[live].max()), LOW_WEIGHT))
                written = True
        if written:  # the average's live maximum is 1: not collapsed
            model.tables.touch(model.row)
            return False
        return None  # the store tests the table

    def learn(self, model: OpponentModel, h: int, ctx: ModelingContext) -> None:
        """At a showdown: with ``showdown_evidence`` each candidate's evidence gains the log of the probability its
        weight table gave the shown holding (relative to a uniform table over the holdings still possible, floored at
        ``floor``); then every candidate that learns (the specific mixture) learns from it.  An opponent that took no
        action in the hand (all in from its blind, with finite stacks) teaches nothing: its candidates' tables are
        another hand's."""
        o = self._opps.get(id(model))
        if o is None or o.ctx is not ctx:
            return
        if self.config.showdown_evidence:
            live = ctx.live_holdings()
            n_live = max(int(live.sum()), 1)
            gain = np.empty(len(o.cands))
            for i, m in enumerate(o.cands):
                w = m.weights
                total = float(w[live].sum())
                p = float(w[h]) / total * n_live if total > 0.0 else 1.0
                gain[i] = np.log(max(p, self.config.floor))
            if self._blind >= 0:  # the card-blind log-odds gain against the card-driven group's probability
                b = self._blind
                d = blind_log_odds_step(
                    self._log_prior, o.evidence, np.exp(gain), b, 1.0, self.config.blindness_showdowns,
                    self.config.blindness_showdowns, self.config.blindness_bound, self.config.floor,
                )  # fmt: skip
                gain[b] = d - float(o.evidence[b])
            o.evidence = o.evidence + gain
            o.post = None
        for m, k in zip(o.cands, self.modelers, strict=True):
            f = getattr(k, "learn", None)
            if f is not None:
                f(m, h, ctx)

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """The candidates' play-out policies averaged by their weights: the mixture weights of (rules, frequency
        expert, card-blind) averaged, the rules, frequencies, propensity, softness and ranking of the heaviest
        candidate that has them; believed play-outs asked for once the candidates that are not the paper's weigh ``believed_from``."""
        o = self._opponent(model, None)
        post = self._post(o)
        pols = [playout_policy_of(k, m) for m, k in zip(o.cands, self.modelers, strict=True)]
        w = [float(x) for x in post]
        m0 = m1 = m2 = 0.0  # Σ_k π_k · mix_k, normalised (in floats, the operations of numpy's element by element)
        for w_k, p in zip(w, pols, strict=True):
            a, b, c = p.mix
            m0 += w_k * float(a)
            m1 += w_k * float(b)
            m2 += w_k * float(c)
        total = m0 + m1 + m2
        m0, m1 = m0 / total, m1 / total
        order = sorted(range(len(w)), key=lambda i: -w[i])  # the heaviest first, ties in candidate order
        rules = next((pols[i].rules for i in order if pols[i].rules is not None), None)
        with_f = next((pols[i] for i in order if pols[i].frequencies is not None), None)
        label = "adaptive: " + ", ".join(f"{n} {x:.2f}" for n, x in zip(self.names, w, strict=True))
        if with_f is None:
            m0, m1 = 1.0, 0.0
        return PlayoutPolicy(
            label=label,
            rules=rules,
            mix=(m0, m1, max(1.0 - m0 - m1, 0.0)),
            frequencies=None if with_f is None else with_f.frequencies,
            check_raise=0.0 if with_f is None else with_f.check_raise,
            softness=0.1 if with_f is None else with_f.softness,
            believed=self._believed(w),
            ranking="range" if with_f is None else with_f.ranking,
        )

    def _believed(self, w: list[float]) -> bool:
        # believed play-outs once the candidates that are not the paper's design weigh believed_from or more
        return (
            float(sum(x for n, x in zip(self.names, w, strict=True) if n != PAPER_MODEL)) >= self.config.believed_from
        )

    def asks_believed(self, model: OpponentModel) -> bool:
        """Whether :meth:`playout_policy` asks for believed play-outs (answered from the candidates' weights alone)."""
        return self._believed([float(x) for x in self._post(self._opponent(model, None))])

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """``"adaptive"`` with the candidates' weights before the action, and the opponent's card-blindness
        (:meth:`card_blindness`) as ``"card-blind"``."""
        w = self.weights_of(model)
        return ReweightDetails("adaptive", model_weights=(*w.items(), ("card-blind", self.card_blindness(model))))

    def describe(self) -> dict[str, Any]:
        """The candidates, their prior and the DEFAULTs (for reports)."""
        return {"candidates": list(self.names), "prior": list(self.config.prior), **self.config.model_dump()}
