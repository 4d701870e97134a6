"""The Triple Generator box (AAAI99 §4, Figure 2) and Loki-1's Bettor it grew from: the betting rules written once as a
soft priority chain, the probability triples it gives, and the two EV-based generator designs.

Modules: :mod:`~loki.triples.spot` (the rules' inputs: :class:`HandValues`, :class:`BettingSpot`, pot odds),
:mod:`~loki.triples.rule_chain` (the rules, numba), :mod:`~loki.triples.bettor` (the chain at zero width, Loki-1),
:mod:`~loki.triples.generator` (:class:`TripleConfig`, triples for our hand and every holding),
:mod:`~loki.triples.ev` (EV-based generators).
"""

from __future__ import annotations

from loki.triples.bettor import (
    BettorConfig,
    BettorPolicy,
    Decision,
    decide,
    pick_action,
)
from loki.triples.ev import (
    ActionEVs,
    EVGeneratorConfig,
    action_evs,
    calling_triple,
    ev_triple,
)
from loki.triples.generator import (
    DEFAULT_MAKE_WIDTH,
    DEFAULT_ODDS_WIDTH,
    ProbabilityTriple,
    TripleConfig,
    board_values,
    generate_triple,
    generate_triple_with_rules,
    opponent_hand_values,
    opponent_triples,
    triples_all,
    triples_from_potentials,
    validate_triples,
)
from loki.triples.rule_chain import (
    N_RULES,
    RULE_ACTIONS,
    RULES,
    TripleParams,
    attribute,
    bets_to_call_bucket,
    chain_all,
    chain_rules,
    chain_spot,
    pot_odds,
    pot_odds2,
    pt_kernel,
    ramp,
    ramp_above,
    semi_bluff_gate,
    showdown_odds,
    spot_args,
)
from loki.triples.spot import (
    BettingSpot,
    HandValues,
)

__all__ = [
    "HandValues",
    "BettingSpot",
    "TripleParams",
    "ramp",
    "ramp_above",
    "pot_odds",
    "pot_odds2",
    "showdown_odds",
    "semi_bluff_gate",
    "bets_to_call_bucket",
    "RULES",
    "RULE_ACTIONS",
    "N_RULES",
    "pt_kernel",
    "chain_rules",
    "chain_all",
    "attribute",
    "spot_args",
    "chain_spot",
    "BettorConfig",
    "Decision",
    "decide",
    "pick_action",
    "BettorPolicy",
    "ProbabilityTriple",
    "TripleConfig",
    "DEFAULT_MAKE_WIDTH",
    "DEFAULT_ODDS_WIDTH",
    "validate_triples",
    "opponent_hand_values",
    "generate_triple",
    "generate_triple_with_rules",
    "triples_all",
    "triples_from_potentials",
    "board_values",
    "opponent_triples",
    "EVGeneratorConfig",
    "ActionEVs",
    "action_evs",
    "ev_triple",
    "calling_triple",
]
