"""The Action Selector (Loki-2 feature B; AAAI99 §4; PENA99 pena/node33).

One uniform random number ``u`` is drawn per hand and reused for every decision of that hand
(consistent aggressiveness within a hand, variety between hands).  Given a probability triple
``[f, c, r]``: fold if ``u < f``, check/call if ``u < f + c``, bet/raise otherwise.  It never folds
when checking is free, and it calls when raising is not allowed.

>>> select_action(ProbabilityTriple(0.1, 0.65, 0.25), 0.05, to_call=10).name
'FOLD'
>>> select_action(ProbabilityTriple(0.1, 0.65, 0.25), 0.05, to_call=0).name
'CALL'
>>> select_action(ProbabilityTriple(0.1, 0.65, 0.25), 0.9, to_call=10).name
'RAISE'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from loki.engine import Action, legalise
from loki.errors import ConfigError, InputError
from loki.triples import ProbabilityTriple, TripleConfig, generate_triple_with_rules
from loki.triples.ev import EVGeneratorConfig, calling_triple, ev_triple
from loki.triples.rule_chain import RULES, attribute, semi_bluff_gate
from loki.triples.spot import BettingSpot, HandValues

__all__ = ["select_action", "ActionSelector", "SelectorPolicy", "TripleDecision", "interval_probabilities"]


def select_action(pt: ProbabilityTriple, u: float, to_call: float, can_raise: bool = True) -> Action:
    """The selector rule for one decision.

    Args:
        pt: the triple.
        u: the hand's uniform number in [0, 1).
        to_call: chips to call (0: checking is free, so a fold becomes a check).
        can_raise: False when betting is capped (a raise becomes a call).

    Raises:
        ValueError: ``u`` outside [0, 1).
    """
    if not 0.0 <= u < 1.0:
        raise InputError(f"u={u!r}: expected a uniform number in [0, 1)")
    legal = (() if to_call <= 1e-9 else (Action.FOLD,)) + (Action.CALL,) + ((Action.RAISE,) if can_raise else ())
    return legalise(pt.action(u), legal)


class ActionSelector:
    """Holds the per-hand ``u`` (seeded) and applies :func:`select_action`.

    Attributes:
        u: the current hand's uniform number (drawn by :meth:`new_hand`).
    """

    def __init__(self, seed: int | np.random.Generator = 0):
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.u = float(self.rng.random())

    def new_hand(self) -> float:
        """Draw this hand's ``u``."""
        self.u = float(self.rng.random())
        return self.u

    def select(self, pt: ProbabilityTriple, to_call: float, can_raise: bool = True) -> Action:
        """The action for triple ``pt`` with this hand's ``u`` (:func:`select_action`; AAAI99 §4).

        Args:
            pt: the probability triple ``[f, c, r]``.
            to_call: amount to call (chips or bets: only compared with 0; 0 turns a fold into a check).
            can_raise: False when betting is capped (a raise becomes a call).

        Returns:
            ``Action.FOLD``, ``Action.CALL`` or ``Action.RAISE``.

        Raises:
            ValueError: ``u`` outside [0, 1) (only if it was set by hand: the constructor and
                :meth:`new_hand` draw it in [0, 1)).
        """
        return select_action(pt, self.u, to_call, can_raise)


@dataclass(frozen=True)
class TripleDecision:
    """One decision of the Action Selector: the action, the triple, the hand's ``u``, the rule of the chain that
    gave the action (:func:`loki.triples.rule_chain.attribute`), and the hand values and spot the triple came from;
    ``probabilities`` the distribution the action was drawn from, given what the hand's earlier actions revealed of
    ``u`` (:func:`interval_probabilities`)."""

    kind: ClassVar[str] = "selector"

    action: Action
    triple: ProbabilityTriple
    u: float
    rule: str
    values: HandValues
    spot: BettingSpot
    probabilities: tuple[float, float, float] = (0.0, 1.0, 0.0)


def interval_probabilities(
    pt: ProbabilityTriple, lo: float, hi: float, to_call: float, can_raise: bool
) -> tuple[tuple[float, float, float], tuple[tuple[float, float], ...]]:
    """The Action Selector's conditional action distribution when its hand number ``u`` is known only to lie in
    ``[lo, hi)`` (what its earlier actions in the hand revealed), and each action's interval of ``u``.

    ``u`` picks fold on ``[0, f)``, call on ``[f, f + c)``, raise on ``[f + c, 1)``; a fold when checking is free
    and a raise when the betting is capped are played as calls, so the played action's interval is still one
    interval.  Returns ``((p_fold, p_call, p_raise), (interval of fold, of call, of raise))``.

    >>> probs, _ = interval_probabilities(ProbabilityTriple(0.2, 0.5, 0.3), 0.0, 1.0, to_call=10, can_raise=True)
    >>> [round(p, 10) for p in probs]
    [0.2, 0.5, 0.3]
    >>> probs, _ = interval_probabilities(ProbabilityTriple(0.2, 0.5, 0.3), 0.6, 1.0, to_call=10, can_raise=True)
    >>> [round(p, 10) for p in probs]
    [0.0, 0.25, 0.75]
    """
    f, c = pt.f, pt.c
    cuts = [0.0, f, f + c, 1.0]
    if to_call <= 1e-9:  # fold is played as a call
        cuts[1] = 0.0
    if not can_raise:  # raise is played as a call
        cuts[2] = 1.0
    spans = tuple((cuts[k], cuts[k + 1]) for k in range(3))
    width = hi - lo
    probs = tuple(max(0.0, min(b, hi) - max(a, lo)) / width if width > 0 else 0.0 for a, b in spans)
    return (probs[0], probs[1], probs[2]), spans


class SelectorPolicy:
    """Loki-2 feature B (AAAI99 §4): the Triple Generator's PT for our hand, sampled by the Action Selector with
    one uniform number per hand.

    Args:
        triple: the Triple Generator (thresholds and widths).
        lookahead: 1 (PPot1) or 2 (PPot2 on the flop) for the hand assessment.
        seed: seeds the per-hand numbers (a generator on ``[seed, 2]``; one draw at construction, one per hand).

    Attributes:
        semi_bluffing: we bet inside the semi-bluff gate earlier in this hand (DEFAULT: only a bet with EHS'
            below ``make1 − make_width`` and PPot at least ``Pot_Odds2 − odds_width`` counts, so the chain's
            continuation rule keeps betting while nobody else bets).
    """

    def __init__(
        self,
        triple: TripleConfig = TripleConfig(),
        lookahead: int = 1,
        seed: int = 0,
        generator: str = "rules",
        ev: EVGeneratorConfig | None = None,
    ):
        if generator not in ("rules", "ev", "calling", "oracle"):
            raise ConfigError(f"generator={generator!r}: expected 'rules', 'ev', 'calling' or 'oracle'")
        self.triple = triple
        self.generator = generator
        self.ev = ev if ev is not None else EVGeneratorConfig()
        self.lookahead = lookahead
        self.selector = ActionSelector(np.random.default_rng([seed, 2]))
        self.semi_bluffing = False

    def begin_hand(self) -> None:
        """A new hand: draw its ``u``; no semi-bluff in progress."""
        self.selector.new_hand()
        self.semi_bluffing = False
        self._lo, self._hi = 0.0, 1.0  # what this hand's actions so far reveal of u (for action_probabilities)
        self._before: tuple | None = None  # the state before the last decision (taken)

    def decide(self, sit) -> TripleDecision:
        """The selector's action for the :class:`loki.modeler.situation.Situation` ``sit``."""
        # the oracle (a cheat) rates the hand by its exact equity against the opponents' true holdings
        values = sit.oracle_values() if self.generator == "oracle" else sit.hand_values(self.lookahead)
        spot = sit.betting_spot(self.semi_bluffing)
        if self.generator == "ev":
            return self._decide_ev(sit, values, spot)
        pt, contrib = generate_triple_with_rules(
            values, spot, self.triple, check_raise_flag=spot.first_to_act and spot.aggressor_behind
        )
        if self.generator == "calling":
            pt, _evs = calling_triple(
                pt, values, spot, self._fold_frequencies(sit, spot), self.triple.bettor.make1, self.ev
            )
        a = self.selector.select(pt, spot.to_call, spot.can_raise)
        gate = spot.to_call <= 1e-9 and bool(
            semi_bluff_gate.py_func(values.ehs_prime, values.ppot, spot.pot, spot.bet_size, self.triple.params())
        )
        u = self.selector.u
        probs, spans = interval_probabilities(pt, self._lo, self._hi, spot.to_call, spot.can_raise)
        self._follow(a, spans, gate)
        rule = RULES[attribute(contrib, int(a), u, pt.f, pt.c)]
        return TripleDecision(a, pt, u, rule, values, spot, probs)

    def _follow(self, a: Action, spans, gate: bool) -> None:
        """What taking ``a`` at the decision just made reveals: ``u`` lies in ``a``'s interval, and a bet inside the
        semi-bluff gate (Bettor rule 4) starts a semi-bluff that the chain's continuation rule keeps going.  The
        state before the decision is kept, so that :meth:`taken` can follow another action instead."""
        self._before = (self._lo, self._hi, self.semi_bluffing, spans, gate, a)
        lo, hi = spans[int(a)]
        self._lo, self._hi = max(self._lo, lo), min(self._hi, hi)
        if a is Action.RAISE and gate:
            self.semi_bluffing = True

    def taken(self, action: Action) -> None:
        """The action actually played at the last decision (the player observes its own action).  The selector's
        state then follows it, not its own draw: the same state in play, where the two are the same action; the
        state of this policy *had it taken* ``action`` for a copy of the player asked what it would do with other
        cards (:mod:`loki.lbr`, the range of a local best response), whose own draw is never played."""
        before = getattr(self, "_before", None)
        if before is None or before[5] is action:
            return
        lo, hi, semi, spans, gate, _ = before
        self._lo, self._hi, self.semi_bluffing = lo, hi, semi
        self._follow(action, spans, gate)

    @staticmethod
    def _fold_frequencies(sit, spot: BettingSpot) -> list[float]:
        """Each live opponent's blended fold frequency facing a bet (one bet if none was made, else two)."""
        bucket = 1 if spot.bets_this_round == 0 else 2
        return [float(sit.models[s].frequencies.blended(spot.street, bucket)[0]) for s in sit.live_opponents]

    def _decide_ev(self, sit, values: HandValues, spot: BettingSpot) -> TripleDecision:
        """The EV generator's triple (:mod:`loki.triples.ev`), sampled with this hand's ``u``."""
        folds = self._fold_frequencies(sit, spot)
        p_called = sit.called_strength(folds, self.lookahead) if spot.can_raise else None
        pt, _evs = ev_triple(values, spot, folds, self.ev, p_called)
        a = self.selector.select(pt, spot.to_call, spot.can_raise)
        probs, spans = interval_probabilities(pt, self._lo, self._hi, spot.to_call, spot.can_raise)
        self._follow(a, spans, False)
        return TripleDecision(a, pt, self.selector.u, "ev", values, spot, probs)
