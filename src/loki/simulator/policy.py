"""Loki-2 feature S as a post-flop policy (AAAI99 §5): each decision simulated by :func:`loki.simulator.simulate`.

:class:`SimulatorPolicy` turns a :class:`loki.modeler.Situation` into a :class:`~loki.simulator.SimSpot` (post-flop
acting order) and takes the action of greatest expected value.  For the believed play-out it asks each opponent's
modeler how the opponent plays (:func:`beliefs_of`, through the modeler's ``playout_policy``: no concrete modeler class
is tested, so a plug-in model plays inside the play-outs as itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from loki.cards import HOLDING_INDEX, N_HOLDINGS
from loki.engine import Action
from loki.errors import InputError
from loki.modeler import Situation, believed_of, playout_policy_of
from loki.modeler.contest import ContestConfig, ContestSpot, contest_spot
from loki.simulator.driver import (
    PlayoutBeliefs,
    SimConfig,
    SimResult,
    SimSpot,
    decide_from_evs,
    simulate,
    softmax_choice,
)
from loki.triples.rule_chain import params_row

__all__ = ["SimDecision", "SimulatorPolicy", "beliefs_of", "BLIND_CERTAIN"]

#: The probability that every live opponent is card-blind from which the Simulator is not asked at all (the contest
#: valuation decides alone), and below ``1 − BLIND_CERTAIN`` of which the contest valuation is not asked.
BLIND_CERTAIN = 0.99


@dataclass(frozen=True)
class SimDecision:
    """One decision of the Simulator: the action, the :class:`~loki.simulator.SimResult` (EVs, sds, trials, cut-off)
    and the :class:`~loki.simulator.SimSpot` it simulated.  ``probabilities`` is the distribution the action was drawn
    from with the softmax choice (``(fold, call, raise)``, :func:`~loki.simulator.softmax_choice`); None with the
    argmax (the paper's choice: its only randomness is the trials' seed).

    With ``card_blind_values`` (:class:`SimulatorPolicy`): ``contest`` is the contest valuation of the spot and
    ``blind_weight`` the probability that every live opponent is card-blind that weighed it; ``result`` then holds
    the averaged values (``trials`` 0 and ``rule`` ``"card-blind"`` when the Simulator was not asked)."""

    kind: ClassVar[str] = "simulator"

    action: Action
    result: SimResult
    spot: SimSpot
    probabilities: tuple[float, float, float] | None = None
    contest: ContestSpot | None = None
    blind_weight: float = 0.0

    @property
    def action_values(self) -> tuple[float, float, float]:
        """The Simulator's EVs ``(fold, call, raise)`` in chips from the decision on: ``(0, EV(call), EV(raise))``
        (:class:`~loki.simulator.SimResult`; EV(raise) also when raising is capped, where its probability is 0).
        They are fixed before the softmax's draw, so AIVAT may use them as its action baselines
        (:func:`loki.aivat.hand_corrections`)."""
        return 0.0, float(self.result.ev_call), float(self.result.ev_raise)


def beliefs_of(sit: Situation, order: Sequence[int], own) -> PlayoutBeliefs:
    """Who each player of the believed play-out is believed to be (:class:`~loki.simulator.PlayoutBeliefs`), in
    post-flop acting ``order``: us by our own Triple Generator ``own`` (:class:`loki.triples.TripleParams`), each live
    opponent by the :class:`loki.modeler.PlayoutPolicy` its modeler gives (:func:`loki.modeler.playout_policy_of`;
    rules None: our own Triple Generator).

    Args:
        sit: the decision's situation (its ``modeler`` and ``models``).
        order: the seats in post-flop acting order.
        own: our Triple Generator's parameters.
    """
    v = sit.view
    m = len(order)
    params = np.empty((m, len(own)))
    params[:] = params_row(own)
    mix = np.zeros((m, 3))
    mix[:, 0] = 1.0
    freqs = np.zeros((m, 4, 3, 3))
    rho = np.zeros(m)
    softness = np.full(m, 0.1)
    deck = np.zeros(m, dtype=np.bool_)
    labels = []
    wanted = False
    folded = v.folded
    for i, s in enumerate(order):
        if s == sit.seat:
            labels.append("us")
            continue
        if folded[s] or s not in sit.models:
            labels.append("out")
            continue
        pol = playout_policy_of(sit.modeler, sit.models[s])
        if pol.rules is not None:
            params[i] = params_row(pol.rules)
        mix[i] = pol.mix
        if pol.frequencies is not None:
            freqs[i] = pol.frequencies
        rho[i] = pol.check_raise
        softness[i] = pol.softness
        deck[i] = pol.ranking == "deck"
        labels.append(pol.label)
        wanted = wanted or pol.believed
    raised = v.raised_last_round
    return PlayoutBeliefs(
        params, mix, freqs, rho, softness, np.zeros(m, dtype=np.bool_), np.array([bool(raised[s]) for s in order]),
        int(v.actions_this_round), tuple(labels), wanted, deck if deck.any() else None,
    )  # fmt: skip


class SimulatorPolicy:
    """Loki-2 feature S (AAAI99 §5): every post-flop decision asks the Simulator for EV(call) and EV(raise) and
    takes the best (EV(fold) = 0, ties to the more aggressive).

    With ``config.card_blind_values`` the decision is a Bayesian average over two hypotheses about the live
    opponents: all of them card-blind, with probability ``b = Π_j c_j`` (``c_j`` the modeller's ``card_blindness`` of
    opponent ``j``), where the contest valuation's values are exact (:mod:`loki.modeler.contest`: our equity against
    their ranges, their own frequencies, no play-outs), or not, where the Simulator's are.  Each action is valued
    ``b·V_contest + (1 − b)·EV_sim`` and the greatest wins (ties to the more aggressive); the Simulator is not asked
    when ``b ≥ BLIND_CERTAIN`` and the contest valuation not when ``b ≤ 1 − BLIND_CERTAIN``, so against players
    Loki knows to be card-blind a decision costs an equity instead of a simulation, and against Loki-style fields it
    is the Simulator's.

    Args:
        config: the Simulator's settings (trials, cut-off rule, always-call variant, Triple Generator).
        seed: seeds each decision's simulation (a generator on ``[seed, 3]``, one draw per decision).
        contest: the contest valuation's DEFAULTs (``card_blind_values`` only).
    """

    def __init__(self, config: SimConfig = SimConfig(), seed: int = 0, contest: ContestConfig | None = None):
        self.config = config
        self.rng = np.random.default_rng([seed, 3])
        self.contest = contest if contest is not None else ContestConfig()

    def begin_hand(self) -> None:
        """Nothing to reset: the Simulator keeps no per-hand state."""

    def sim_spot(self, sit: Situation) -> SimSpot:
        """The :class:`~loki.simulator.SimSpot` of ``sit`` (post-flop acting order)."""
        v = sit.view
        g = v.config
        order = v.postflop_order
        folded, committed = v.folded, v.committed
        acted, vol = v.acted_this_round, v.voluntary_this_round
        beliefs = None  # auto: the paper's play-out unless a live opponent's model asks to be played as believed
        mode = self.config.play_outs
        if mode == "believed" or (mode == "auto" and self._wanted(sit, order)):
            beliefs = beliefs_of(sit, order, self.config.triple.params())
        return SimSpot(
            hole=v.hole_cards,
            board=tuple(v.board),
            me=order.index(sit.seat),
            active=np.array([not folded[s] for s in order]),
            round_bets=np.array([float(committed[s]) for s in order]),
            acted=np.array([acted[s] for s in order]),
            vol_in=np.array([vol[s] for s in order]),
            weights=self._weights(sit, order),
            pot=float(v.pot),
            bets_this_round=int(v.bets_this_round),
            max_bets=int(g.max_bets),
            bet_sizes=tuple(float(b) for b in g.bet_sizes),
            beliefs=beliefs,
        )

    @staticmethod
    def _wanted(sit: Situation, order: Sequence[int]) -> bool:
        """Whether a live opponent's model asks for the believed play-out (:func:`loki.modeler.believed_of`; what
        :func:`beliefs_of` reports as ``wanted``, asked before the beliefs are built)."""
        folded = sit.view.folded
        return any(
            believed_of(sit.modeler, sit.models[s])
            for s in order
            if s != sit.seat and not folded[s] and s in sit.models
        )

    def _weights(self, sit: Situation, order: Sequence[int]) -> np.ndarray:
        """The weight tables the trials sample from: the models', or with an oracle (a cheat) the true holdings."""
        w = sit.weights_in_order(order)
        if self.config.oracle == "none":
            return w
        if sit.revealed is None:
            raise InputError(
                "an oracle Simulator needs every seat's hole cards: oracle players play in loki tournament"
            )
        folded = sit.view.folded
        for i, s in enumerate(order):
            if s == sit.seat or folded[s]:
                continue
            truth = np.zeros(N_HOLDINGS)
            truth[HOLDING_INDEX[sit.revealed[s][0], sit.revealed[s][1]]] = 1.0
            w[i] = truth if self.config.oracle == "perfect" else 0.5 * w[i] / w[i].sum() + 0.5 * truth
        return w

    def blind_weight(self, sit: Situation) -> float:
        """``b``, the probability that every live opponent is card-blind (class docstring); 0 when the modeller has
        no ``card_blindness``."""
        f = getattr(sit.modeler, "card_blindness", None)
        if f is None:
            return 0.0
        b = 1.0
        for s in sit.live_opponents:
            b *= float(f(sit.models[s])) if s in sit.models else 0.0
        return b

    def decide(self, sit: Situation) -> SimDecision:
        """Simulate the decision of ``sit`` and return the best action (with ``card_blind_values``, the class
        docstring's average)."""
        if self.config.card_blind_values:
            b = self.blind_weight(sit)
            if b > 1.0 - BLIND_CERTAIN:
                return self._blind_decision(sit, b)
        return self._simulate(sit)

    def _blind_decision(self, sit: Situation, b: float) -> SimDecision:
        contest = contest_spot(
            sit.view, sit.legal, sit.models, getattr(sit.modeler, "card_blindness", None), self.contest
        )
        _, call, raise_ = contest.decision_values
        spot = self.sim_spot(sit)
        can_raise = raise_ is not None
        rv = raise_ if raise_ is not None else call
        if b >= BLIND_CERTAIN:
            ev_c, ev_r, trials, cut, rule = call, rv, 0, False, "card-blind"
        else:
            res = simulate(spot, self.config, seed=int(self.rng.integers(2**31 - 1)))
            ev_c = b * call + (1.0 - b) * res.ev_call
            ev_r = b * rv + (1.0 - b) * res.ev_raise
            trials, cut, rule = res.trials, res.cutoff, res.rule
        action = decide_from_evs(ev_c, ev_r, spot.to_call, can_raise)
        result = SimResult(action, ev_c, ev_r, 0.0, 0.0, trials, cut, rule)  # averaged values: no standard errors
        return SimDecision(action, result, spot, None, contest, b)

    def _simulate(self, sit: Situation) -> SimDecision:
        spot = self.sim_spot(sit)
        res = simulate(spot, self.config, seed=int(self.rng.integers(2**31 - 1)))
        if self.config.choice == "argmax":
            return SimDecision(res.action, res, spot)
        u = float(self.rng.random())  # drawn only by the softmax choice: the argmax plays as it always did
        bet = float(spot.bet_sizes[spot.street])
        a, probs = softmax_choice(
            res.ev_call, res.ev_raise, spot.to_call, spot.can_raise, self.config.temperature, bet, u
        )
        return SimDecision(a, res, spot, probs)
