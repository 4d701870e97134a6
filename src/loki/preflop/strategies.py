"""Loki-1's betting strategies Make0, Call1, Make1, Call2, Make2, Make4.

Defined in PAPP98 §6.1 (papp/node44; seed ``003_923e8d673a614235.txt``) for the
pre-flop, and reused by the post-flop Bettor as ``Make(n)`` (papp/node45-48):

- **Make0**: fold if it costs more than zero to continue, otherwise check.
- **Call1**: fold if it costs two or more bets to continue *and we have not already
  voluntarily put money in the pot this round*; otherwise check/call.
- **Make1**: like Call1, except bet if there has not been a bet this round (with the
  big blind this cannot happen pre-flop, where the big blind counts as the first bet).
- **Call2**: always check/call, any amount.
- **Make2**: bet/raise if fewer than two bets/raises have been made this round, otherwise call.
- **Make4**: bet/raise until the betting is capped, then call.

>>> from loki.engine import Action
>>> strategy_action(Strategy.MAKE2, to_call_bets=1.0, bets_this_round=1, voluntarily_in=False, can_raise=True).name
'RAISE'
>>> strategy_action(Strategy.CALL1, to_call_bets=2.0, bets_this_round=3, voluntarily_in=False, can_raise=True).name
'FOLD'
"""

from __future__ import annotations

from enum import IntEnum

from loki.engine import Action
from loki.errors import InputError

__all__ = ["Strategy", "strategy_action"]


class Strategy(IntEnum):
    """The six strategies, in increasing order of aggressiveness (PAPP98 papp/node44)."""

    MAKE0 = 0
    CALL1 = 1
    MAKE1 = 2
    CALL2 = 3
    MAKE2 = 4
    MAKE4 = 5


def strategy_action(
    strategy: Strategy,
    to_call_bets: float,
    bets_this_round: int,
    voluntarily_in: bool,
    can_raise: bool,
    max_call_bets: float | None = None,
) -> Action:
    """The action a strategy takes in the current spot.

    Args:
        strategy: one of :class:`Strategy`.
        to_call_bets: amount to call in bets of the current round (0, 0.5 for the small blind, 1, 1.5, 2, ...).
        bets_this_round: bets and raises made this round so far (pre-flop the big blind counts as one).
        voluntarily_in: we already voluntarily put money in the pot this round (a blind does not count).
        can_raise: a bet/raise is legal (the round is not capped and we are not all-in).
        max_call_bets: for the small blind's Call1/Call2 ("call 0.5 bet" / "call 1.5 bets", PENA99): fold
            when more than this is to call and we have not voluntarily put money in this round.

    Returns:
        ``Action.FOLD`` only when facing a bet (never folds when checking is free).

    Raises:
        ValueError: unknown strategy or negative amounts.
    """
    if to_call_bets < 0 or bets_this_round < 0:
        raise InputError(f"negative to_call_bets={to_call_bets!r} or bets_this_round={bets_this_round!r}")
    s = Strategy(strategy)
    free = to_call_bets <= 1e-9
    if max_call_bets is not None and not voluntarily_in and to_call_bets > max_call_bets + 1e-9:
        return Action.FOLD
    if s is Strategy.MAKE0:
        return Action.CALL if free else Action.FOLD
    if s in (Strategy.CALL1, Strategy.MAKE1):
        if s is Strategy.MAKE1 and bets_this_round == 0 and can_raise:
            return Action.RAISE
        if to_call_bets >= 2.0 - 1e-9 and not voluntarily_in:
            return Action.FOLD
        return Action.CALL
    if s is Strategy.CALL2:
        return Action.CALL
    if s is Strategy.MAKE2:
        return Action.RAISE if bets_this_round < 2 and can_raise else Action.CALL
    return Action.RAISE if can_raise else Action.CALL
