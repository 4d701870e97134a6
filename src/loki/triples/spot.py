"""The shared inputs of every betting rule: a hand's values (:class:`HandValues`) and the public betting spot
(:class:`BettingSpot`); the rules and the odds they compare them with are in :mod:`loki.triples.rule_chain`.

Producers (the Situation, the Simulator's spots, feature R's opponent spots) and consumers (the rule chain, the
Bettor, the Triple Generators, the Action Selector, explanations) all import them from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from loki.errors import InputError

__all__ = ["HandValues", "BettingSpot"]


@dataclass(frozen=True)
class HandValues:
    """Hand assessment inputs of the Bettor (see :mod:`loki.assessment`), all probabilities in 0..1.

    ``ehs_prime`` = HS_n + (1 − HS_n)·PPot; ``ehs`` = HS_n·(1 − NPot) + (1 − HS_n)·PPot;
    ``ppot`` is the one-card PPot1 (DEFAULT, loki-algorithms.md §1.3).
    """

    ehs_prime: float
    ehs: float
    hs_n: float
    ppot: float


@dataclass(frozen=True)
class BettingSpot:
    """The public betting situation of our decision.

    Attributes:
        street: 1 flop, 2 turn, 3 river.
        pot: chips in the pot now, including every bet already made this round.
        to_call: chips we must add to call (0 if checking is free).
        bet_size: B, the bet size of this street in chips (small bet flop, big bet turn/river).
        bets_this_round: bets and raises so far this street.
        voluntarily_in: we already put chips in voluntarily this street.
        can_raise: a bet/raise is legal.
        first_to_act: nobody has acted before us this street.
        aggressor_behind: a live opponent who acts after us bet or raised on the previous street.
        semi_bluffing: we semi-bluffed on an earlier street of this hand.
        next_bet_size: bet size of the next street (0 on the river), for showdown odds.
    """

    street: int
    pot: float
    to_call: float
    bet_size: float
    bets_this_round: int
    voluntarily_in: bool = False
    can_raise: bool = True
    first_to_act: bool = False
    aggressor_behind: bool = False
    semi_bluffing: bool = False
    next_bet_size: float | None = None

    @property
    def next_bet(self) -> float:
        """B_next for the showdown odds: ``next_bet_size``, or by default the big bet on the turn, 0 on the river."""
        if self.next_bet_size is not None:
            return self.next_bet_size
        return self.bet_size if self.street == 2 else 0.0

    def __post_init__(self):
        if self.street not in (1, 2, 3):
            raise InputError(f"street={self.street!r}: the Bettor plays post-flop (1 flop, 2 turn, 3 river)")
        if self.pot < 0 or self.to_call < 0 or self.bet_size <= 0:
            raise InputError(f"bad amounts pot={self.pot!r}, to_call={self.to_call!r}, bet_size={self.bet_size!r}")
