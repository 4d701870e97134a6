"""The EV-based Triple Generator designs (loki.triples.ev): the one-step estimates against the
module docstring's formulas worked by hand, the softmax, slow play and bluffs, and the designs inside a player."""

from __future__ import annotations

import math

import numpy as np
import pytest

from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_session
from loki.triples import ProbabilityTriple
from loki.triples.ev import EVGeneratorConfig, action_evs, calling_triple, ev_triple
from loki.triples.spot import BettingSpot, HandValues

CFG = EVGeneratorConfig()


def _vals(ehs, ehs_prime=None):
    return HandValues(ehs_prime=ehs if ehs_prime is None else ehs_prime, ehs=ehs, hs_n=ehs, ppot=0.0)


def test_river_estimates_by_hand():
    """River (no implied odds): pot 100, 20 to call, bet 20, one opponent folding 30 % to a raise, p = 0.6.
    EV(call) = 0.6·120 − 20 = 52; p' = 0.6·0.85 = 0.51; showdown = 0.51·(100 + 20 + 20 + 0.7·40) − 40 = 45.68;
    EV(raise) = 0.3·100 + 0.7·45.68 = 61.976."""
    spot = BettingSpot(street=3, pot=100.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    e = action_evs(_vals(0.6), spot, [0.3], CFG)
    assert e.fold == 0.0 and e.call == pytest.approx(52.0) and e.phi == pytest.approx(0.3)
    assert e.raise_ == pytest.approx(0.3 * 100 + 0.7 * (0.51 * 168.0 - 40.0))


def test_flop_implied_odds_and_two_opponents():
    """Flop, nothing to call: k = 2 later streets, β = 0.5, next bet 20 → I = 2·0.5·20·(2p − 1); two opponents
    fold 50 % and 20 %, so φ = 0.1 and m = 1.3 expected callers; p' = p·δ (or the given p_called)."""
    spot = BettingSpot(street=1, pot=40.0, to_call=0.0, bet_size=10.0, bets_this_round=0, next_bet_size=20.0)
    p = 0.7
    e = action_evs(_vals(p), spot, [0.5, 0.2], CFG)
    implied = 2 * 0.5 * 20 * (2 * p - 1)
    assert e.fold is None and e.call == pytest.approx(p * 40 + implied)
    pp = p * 0.85
    showdown = pp * (40 + 10 + 1.3 * 10) - 10
    assert e.raise_ == pytest.approx(0.1 * 40 + 0.9 * (showdown + 2 * 0.5 * 20 * (2 * pp - 1)))
    e2 = action_evs(_vals(p), spot, [0.5, 0.2], CFG, p_called=0.4)
    showdown2 = 0.4 * (40 + 10 + 1.3 * 10) - 10
    assert e2.raise_ == pytest.approx(0.1 * 40 + 0.9 * (showdown2 + 2 * 0.5 * 20 * (2 * 0.4 - 1)))


def test_capped_betting_has_no_raise_and_the_triple_is_a_softmax():
    spot = BettingSpot(street=2, pot=200.0, to_call=20.0, bet_size=20.0, bets_this_round=4, can_raise=False)
    t, e = ev_triple(_vals(0.4), spot, [0.1])
    assert e.raise_ is None and t.r == 0.0
    scale = CFG.temperature * 20.0
    want_c = 1.0 / (1.0 + math.exp((e.fold - e.call) / scale))
    assert t.c == pytest.approx(want_c) and t.f + t.c == pytest.approx(1.0)


def test_temperature_mixes_close_estimates_and_sharpens_far_ones():
    spot = BettingSpot(street=3, pot=100.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    # p where EV(call) = EV(fold) = 0 on the river: p·120 = 20
    close, _ = ev_triple(_vals(20 / 120), spot, [0.0], EVGeneratorConfig(caller_discount=1.0))
    assert close.f == pytest.approx(close.c, rel=1e-9) and close.r < close.f
    sharp, _ = ev_triple(_vals(0.95), spot, [0.0], EVGeneratorConfig(temperature=0.05))
    assert sharp.r > 0.99
    hot, _ = ev_triple(_vals(0.95), spot, [0.0], EVGeneratorConfig(temperature=10.0))
    assert 0.2 < hot.r < 0.6 and hot.f > 0.1


def test_slow_play_moves_a_share_of_the_bets_to_checks():
    spot = BettingSpot(street=1, pot=40.0, to_call=0.0, bet_size=10.0, bets_this_round=0, next_bet_size=20.0)
    base, _ = ev_triple(_vals(0.95), spot, [0.2], EVGeneratorConfig(slowplay=0.0))
    slow, _ = ev_triple(_vals(0.95), spot, [0.2], EVGeneratorConfig(slowplay=0.4))
    assert slow.r == pytest.approx(base.r * 0.6) and slow.c == pytest.approx(base.c + base.r * 0.4)
    weak, _ = ev_triple(_vals(0.5), spot, [0.2], EVGeneratorConfig(slowplay=0.4))
    weak0, _ = ev_triple(_vals(0.5), spot, [0.2], EVGeneratorConfig(slowplay=0.0))
    assert weak == weak0  # below slowplay_strength nothing moves


def test_calling_design_overrules_folds_only_when_the_call_pays():
    spot = BettingSpot(street=3, pot=200.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    rules = ProbabilityTriple(0.8, 0.2, 0.0)
    good, e = calling_triple(rules, _vals(0.3), spot, [0.3], make1=0.5)  # EV(call) = 0.3·220 − 20 = 46
    keep = 1.0 / (1.0 + math.exp(-e.call / (CFG.temperature * 20.0)))
    assert good.c == pytest.approx(0.2 + 0.8 * keep) and good.r == 0.0
    bad, e = calling_triple(rules, _vals(0.02), spot, [0.3], make1=0.5)  # EV(call) < 0: the fold mostly stays
    keep = 1.0 / (1.0 + math.exp(-e.call / (CFG.temperature * 20.0)))
    assert e.call < 0 and keep < 0.1 and bad.f == pytest.approx(0.8 * (1.0 - keep))
    # nothing to call, weak hand, high fold equity: a share of the checks becomes a bluff
    free = BettingSpot(street=3, pot=200.0, to_call=0.0, bet_size=20.0, bets_this_round=0)
    t, e = calling_triple(ProbabilityTriple(0.0, 1.0, 0.0), _vals(0.1), free, [0.7], make1=0.5)
    assert e.phi >= CFG.bluff_fold_equity and t.r == pytest.approx(CFG.bluff)
    t, _ = calling_triple(ProbabilityTriple(0.0, 1.0, 0.0), _vals(0.1), free, [0.2], make1=0.5)
    assert t.r == 0.0  # too little fold equity: no bluff


@pytest.mark.parametrize("generator", ["ev", "calling"])
def test_designs_play_legal_seeded_sessions(generator):
    """Each design drives a B+R player through 150 six-handed hands: legal play (the engine raises on an illegal
    action), chips conserved, and the same seed gives the same session."""
    spec = {"kind": "loki2", "features": "BR", "generator": generator}

    def run():
        players = [make_player(spec, seed=7)] + [make_player("loki1", seed=i) for i in range(5)]
        res = play_session(GameConfig(n_players=6), players, n_hands=150, seed=11)
        return np.asarray(res, dtype=float)

    a, b = run(), run()
    assert np.array_equal(a, b) and a.sum() == pytest.approx(0.0)
