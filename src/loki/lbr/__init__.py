"""Local best response (LBR): a lower bound on a fixed strategy's exploitability, heads-up limit hold'em.

Lisý & Bowling, "Equilibrium Approximation Quality of Current No-Limit Poker Bots", AAAI-17 workshops (arXiv
1612.07547).  Modules: :mod:`~loki.lbr.oracle` (the measured player's probabilities for every holding, read from
copies of the player), :mod:`~loki.lbr.player` (the LBR player, kind ``lbr``), :mod:`~loki.lbr.run` (a measurement
as a duplicate match with AIVAT, ``loki lbr``).  ``../shared/reference/exploitability.md`` summarises the method
and its pitfalls.
"""

from loki.lbr.oracle import HoldingView, ShadowHand, StrategyOracle
from loki.lbr.player import LBR, LBRConfig, LBRPlayer, lbr_values, preflop_equity_row

__all__ = [
    "HoldingView",
    "ShadowHand",
    "StrategyOracle",
    "LBR",
    "LBRConfig",
    "LBRPlayer",
    "lbr_values",
    "preflop_equity_row",
]
