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

import numpy as np

from loki.engine import Action
from loki.triples import ProbabilityTriple

__all__ = ["select_action", "ActionSelector"]


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
        raise ValueError(f"u={u!r}: expected a uniform number in [0, 1)")
    a = pt.action(u)
    if a is Action.FOLD and to_call <= 1e-9:
        return Action.CALL
    if a is Action.RAISE and not can_raise:
        return Action.CALL
    return a


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
