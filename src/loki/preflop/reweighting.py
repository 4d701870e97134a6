"""Opponents' pre-flop actions read through our own pre-flop expert system (beyond the sources).

Feature R re-weights after the flop by asking what our own Triple Generator would do with each holding in the
opponent's situation (the generic opponent model, AAAI99 §4, pena/node34); before the flop the paper keeps Loki-1's
μ/σ ramp on IR7 (pena/node39), whose thresholds come from the opponent's observed frequencies but know nothing of
its position or of how many players are in.  :class:`StrategyReweighting` applies feature R's idea before the flop
as well: each holding's weight is multiplied by ``1`` if our expert system (PAPP98 §6.1, Figure 6.1 and Table B.1,
with our tightness and threshold shift) would take the observed action with that holding in the opponent's spot,
and by ``leak`` if it would not (DEFAULT 0.05), floored at 0.01 as every re-weighting.

The spot is the one the expert system reads: the opponent's strategy is chosen at its first pre-flop decision from
``(num_inpot, num_yet_to_act, position)`` (:func:`loki.engine.preflop_situation`, Eq. 6.1-6.2) and kept for the
round, and each of its actions is the strategy's action in the spot it faced (:func:`strategy_action`).  The rule is
exact for an opponent that plays our expert system (the Loki-1 fields of Figure 3: the true holding is never
leaked); for any other it is the generic model's assumption, softened by ``leak``.  At short-handed tables, where
our own decisions come from the adaptive model (:meth:`PreflopPolicy.model_for`), and when the button is unknown, the
ramp (``fallback``) re-weights instead.

>>> r = StrategyReweighting(); r.leak
0.05
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from loki.assessment.income_rate import load_tables
from loki.assessment.weights import LOW_WEIGHT
from loki.cards import HOLDING_CLASS
from loki.engine import Action, ActionTaken, preflop_situation
from loki.engine.seats import seat_orders
from loki.errors import ConfigError
from loki.modeler.loki1 import Loki1Modeler
from loki.modeler.model import ModelingContext, OpponentModel, PlayoutPolicy, ReweightDetails, reweight_details_of
from loki.preflop.adaptive import PREFLOP_MODELS, AdaptiveSettings
from loki.preflop.expert import (
    GROUP_TABLE,
    SB_CALL_LIMIT,
    TIGHTNESS,
    PreflopThresholds,
    choose_strategy,
    expected_players,
    group_for,
    table_model,
)
from loki.preflop.strategies import Strategy, strategy_action

__all__ = ["StrategyReweighting", "class_strategies", "DEFAULT_LEAK"]

#: DEFAULT: the factor of a holding with which our expert system would not have taken the observed action.
DEFAULT_LEAK = 0.05

_STATS_KEY = "preflop_strategy"  # model.stats: (this hand's round_actions list, (169,) int8 strategies, small blind)
_APPLIES_KEY = "preflop_strategy_applies"  # model.stats: whether the rule re-weighted the last pre-flop action


@lru_cache(maxsize=64)
def _thresholds(preflop_shift: float) -> PreflopThresholds:
    return PreflopThresholds.default().shifted(preflop_shift)


@lru_cache(maxsize=4096)
def class_strategies(tightness: str, preflop_shift: float, group: str, position: int, small_blind: bool) -> np.ndarray:
    """The strategy Figure 6.1 chooses for each of the 169 hand classes in one spot.

    Args:
        tightness: "tight", "moderate" or "loose" (Table B.1's column).
        preflop_shift: IR ×1000 added to every threshold base.
        group: "2", "3-4" or "5+" (the expected-players group of Eq. 6.2).
        position: Eq. 6.1's position.
        small_blind: the small blind's first decision (six strategies).

    Returns:
        ``(169,) int8`` read-only, :class:`~loki.preflop.Strategy` values by hand class
        (:data:`loki.cards.HOLDING_CLASS`).

    Raises:
        ConfigError: an unknown group or tightness; InputError: a negative position
        (:meth:`PreflopThresholds.thresholds`).

    >>> from loki.cards import HOLDING_CLASS, HOLDING_INDEX
    >>> s = class_strategies("loose", 0.0, "5+", 0, False)
    >>> Strategy(int(s[HOLDING_CLASS[HOLDING_INDEX[48, 49]]])).name  # a pair of aces
    'MAKE4'
    """
    ir = load_tables()[GROUP_TABLE[group]]
    t = _thresholds(float(preflop_shift)).thresholds(group, tightness, int(position))
    out = np.array([int(choose_strategy(float(v), t, small_blind=small_blind)) for v in ir], dtype=np.int8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1024)
def _strategy_factors(
    to_call_bets: float, bets: int, voluntary: bool, can_raise: bool, small_blind: bool, action: int, leak: float
) -> np.ndarray:
    """``(6,) float64`` read-only: 1 for each strategy whose action in the spot (:func:`strategy_action`) is ``action``,
    ``leak`` for the others (the small blind's first-decision strategies with their call limits)."""
    out = np.empty(6, dtype=np.float64)
    for s in Strategy:
        limit = SB_CALL_LIMIT.get(s) if small_blind else None
        a = strategy_action(s, to_call_bets, bets, voluntary, can_raise, max_call_bets=limit)
        out[int(s)] = 1.0 if int(a) == action else leak
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class StrategyReweighting:
    """Pre-flop re-weighting by our own expert system (module docstring; DEFAULT, beyond the sources).

    A modeler (:class:`loki.modeler.OpponentModeler`): pre-flop it re-weights by the expert system, after the flop it
    hands every call to ``fallback``; as the pre-flop modeler of feature R's models (:mod:`loki.modeler.registry`) only
    its pre-flop part is used.

    Attributes:
        tightness, preflop_shift: the expert system the opponents are assumed to play (ours).
        model: our own pre-flop model (``"auto"``, ``"expert"`` or ``"adaptive"``): the rule is used where it is the
            expert system (:func:`loki.preflop.expert.table_model`).
        short_handed: :attr:`loki.preflop.AdaptiveSettings.short_handed`.
        leak: ``(0, 1]`` the factor of a holding inconsistent with the observed action (DEFAULT 0.05).
        fallback: Loki-1's ramp, used where the rule is not (above) and after the flop.

    Raises:
        ConfigError: unknown tightness or model, or ``leak`` outside ``(0, 1]``.
    """

    tightness: str = "loose"
    preflop_shift: float = 0.0
    model: str = "auto"
    short_handed: int = AdaptiveSettings().short_handed
    leak: float = DEFAULT_LEAK
    fallback: Loki1Modeler = field(default_factory=Loki1Modeler)

    def __post_init__(self) -> None:
        if self.tightness not in TIGHTNESS:
            raise ConfigError(f"unknown tightness {self.tightness!r}: expected one of {TIGHTNESS}")
        if self.model not in PREFLOP_MODELS:
            raise ConfigError(f"unknown pre-flop model {self.model!r}: expected one of {PREFLOP_MODELS}")
        if not 0.0 < self.leak <= 1.0:
            raise ConfigError(f"leak={self.leak!r}: expected a factor in (0, 1]")

    def applies(self, ctx: ModelingContext | None) -> bool:
        """Whether the expert-system rule re-weights at this table (else the ramp does)."""
        if ctx is None or ctx.button < 0:
            return False
        return table_model(self.model, ctx.game.n_players, self.short_handed) == "expert"

    def factors(self, model: OpponentModel, ev: ActionTaken, ctx: ModelingContext) -> np.ndarray:
        """``(169,) float64`` each hand class's factor for the pre-flop action ``ev``: 1 where the expert system takes
        it, ``leak`` where it does not.

        The opponent's first pre-flop action of the hand fixes its strategies, kept in ``model.stats`` with the
        round's list of actions (:attr:`OpponentModel.round_actions`, a new list every hand), so that they are never
        read in another hand; call it before :meth:`loki.modeler.ModelStore.observe` records the action.  Had the
        model missed the opponent's first action, its strategies would be chosen in the spot of this one.  The
        action's legality and amount are the ones the player saw: ``ev.could_raise``, and for an all-in call the
        amount it put in (``ev.to_call`` is not capped by the stack).
        """
        game = ctx.game
        kept = model.stats.get(_STATS_KEY)
        if kept is None or kept[0] is not model.round_actions:  # its first decision of the hand: Figure 6.1's spot
            sb, bb, order, _ = seat_orders(game.n_players, ctx.button)
            inpot, yet, pos = preflop_situation(order, ev.seat, sb, bb, ctx.folded, ctx.acted)
            group = group_for(expected_players(inpot, yet))
            small_blind = ev.seat == sb and ev.seat not in ctx.acted
            strategies = class_strategies(self.tightness, float(self.preflop_shift), group, pos, small_blind)
            kept = model.stats[_STATS_KEY] = (model.round_actions, strategies, small_blind)
        _, strategies, small_blind = kept
        to_call = ev.amount if ev.all_in and ev.action == Action.CALL else ev.to_call
        taken = _strategy_factors(
            to_call / game.bet_sizes[0], ev.bets, ev.voluntary, ev.could_raise, small_blind, int(ev.action), self.leak
        )
        return taken[strategies]

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> bool | None:
        """Pre-flop: ``w[h] ← max(0.01, w[h] × factor[class(h)])`` (:meth:`factors`), cumulative over the round's
        actions; elsewhere the ramp.  Returns None (the store tests the table for a collapse)."""
        if ev.round != 0:
            return self.fallback.reweight(model, ev, bucket, ctx)
        applies = model.stats[_APPLIES_KEY] = self.applies(ctx)
        if not applies:
            return self.fallback.reweight(model, ev, bucket, ctx)
        if ev.action == Action.FOLD:
            return None
        f = self.factors(model, ev, ctx)[HOLDING_CLASS]
        t = model.tables
        t.touch(model.row)
        w = t.weights[model.row]
        np.maximum(w * f, LOW_WEIGHT, out=w)
        return None

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """The fallback's (this rule plays no part after the flop)."""
        return self.fallback.playout_policy(model)

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """``"preflop strategy"`` for a pre-flop action where the rule re-weights, the fallback's details otherwise.
        The table is not known here: whether the rule applies is read from the model's last pre-flop re-weighting
        (the same table), so a model's very first pre-flop action is named by the rule even at a short-handed table."""
        if ev.round == 0 and model.stats.get(_APPLIES_KEY, True):
            return ReweightDetails("preflop strategy")
        return reweight_details_of(self.fallback, model, ev, bucket)
