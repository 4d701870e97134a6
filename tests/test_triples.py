"""Tests of probability triples, the Triple Generator, the Action Selector and triple re-weighting."""

from __future__ import annotations

import numpy as np
import pytest

from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask, parse_cards
from loki.engine import Action
from loki.modeler import OpponentModel, triple_reweight
from loki.selector import ActionSelector, select_action
from loki.triples import (
    ProbabilityTriple,
    TripleConfig,
    board_values,
    generate_triple,
    generate_triple_with_rules,
    opponent_triples,
    pt_kernel,
    triples_all,
    validate_triples,
)
from loki.triples.bettor import BettorConfig, decide
from loki.triples.rule_chain import RULE_ACTIONS, RULES, attribute
from loki.triples.spot import BettingSpot, HandValues
from reference_rules import reference_decide, reference_triples_all


# --------------------------------------------------------------------------- the type
def test_triple_validation():
    t = ProbabilityTriple(0.1, 0.65, 0.25)
    assert t.as_array().tolist() == [0.1, 0.65, 0.25]
    ProbabilityTriple(0.0, 1.0 - 1e-10, 0.0)  # within 1e-9
    for bad in [(0.5, 0.6, 0.0), (-0.1, 0.6, 0.5), (float("nan"), 0.5, 0.5), (0.0, 1.0, 1e-8), (0.2, 0.3, 0.4)]:
        with pytest.raises(ValueError):
            ProbabilityTriple(*bad)
    with pytest.raises(ValueError):
        ProbabilityTriple("a", 0.5, 0.5)
    with pytest.raises(ValueError):
        ProbabilityTriple.from_array([0.5, 0.5])
    with pytest.raises(ValueError):
        validate_triples(np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.1]]))
    validate_triples(np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]))


# --------------------------------------------------------------------------- generator
def _random_spot(rng, street=None):
    street = int(rng.integers(1, 4)) if street is None else street
    bet = 10.0 if street == 1 else 20.0
    facing = rng.random() < 0.6
    bets = int(rng.integers(1, 5)) if facing else 0
    to_call = bet * float(rng.choice([1, 2, 3])) if facing else 0.0
    to_call = min(to_call, bet * bets)
    return BettingSpot(
        street=street,
        pot=float(rng.uniform(15, 300)),
        to_call=to_call,
        bet_size=bet,
        bets_this_round=bets,
        voluntarily_in=bool(rng.random() < 0.3),
        can_raise=bets < 4,
        first_to_act=bool(rng.random() < 0.3),
        aggressor_behind=bool(rng.random() < 0.3),
        semi_bluffing=bool(rng.random() < 0.2),
        next_bet_size=20.0 if street < 3 else 0.0,
    )


def _random_config(rng, widths=True):
    make1 = float(rng.uniform(0.3, 0.7))
    make2 = float(rng.uniform(make1, 0.95))
    acr = None if rng.random() < 0.5 else float(rng.uniform(0.5, 0.8))
    w = (float(rng.uniform(0, 0.1)), float(rng.uniform(0, 0.1))) if widths else (0.0, 0.0)
    bettor = BettorConfig(make1=make1, make2=make2, semi_bluff=bool(rng.random() < 0.7), aggressive_call_raise=acr)
    return TripleConfig(bettor=bettor, make_width=w[0], odds_width=w[1])


def test_triples_valid_for_all_holdings_over_random_spots():
    rng = np.random.default_rng(1)
    for k in range(30):
        street = 1 + k % 3
        board = rng.choice(52, street + 2, replace=False).tolist()
        spot = _random_spot(rng, street)
        cfg = _random_config(rng)
        n_opp = int(rng.integers(1, 6))
        t = opponent_triples(board, spot, n_opp, cfg)
        validate_triples(t)
        assert t.shape == (N_HOLDINGS, 3)
        if spot.to_call == 0:
            assert np.all(t[:, 0] == 0.0)  # never folds when checking is free
        if not spot.can_raise:
            assert np.all(t[:, 2] == 0.0)
        # the nuts never folds
        hs1, _, _ = board_values(board)
        assert t[int(np.argmax(hs1)), 0] == 0.0


def test_rule_chain_matches_the_numpy_reference_exactly():
    rng = np.random.default_rng(2)
    for _ in range(200):
        spot = _random_spot(rng)
        cfg = _random_config(rng)
        k = 50
        hs_n = rng.random(k)
        pp = rng.random(k) * 0.5
        nn = rng.random(k) * 0.5
        e = hs_n + (1 - hs_n) * pp
        eh = hs_n * (1 - nn) + (1 - hs_n) * pp
        crf = bool(rng.random() < 0.3)
        t = triples_all(e, eh, hs_n, pp, spot, cfg, check_raise_flag=crf)
        # the earlier numpy implementation (tests/reference_rules.py) gives the same floats, bit for bit
        assert np.array_equal(t, reference_triples_all(e, eh, hs_n, pp, spot, cfg, check_raise_flag=crf))
        for i in range(k):
            f, c, r = pt_kernel(
                e[i],
                eh[i],
                hs_n[i],
                pp[i],
                spot.street,
                spot.pot,
                spot.to_call,
                spot.bet_size,
                spot.bets_this_round,
                spot.voluntarily_in,
                spot.can_raise,
                spot.next_bet_size,
                cfg.params(),
                crf,
                spot.semi_bluffing,
            )
            assert [f, c, r] == t[i].tolist()


def test_zero_widths_reproduce_the_bettor():
    """Pure triples: with all widths 0 the PT puts probability 1 on the Bettor's action."""
    rng = np.random.default_rng(3)
    for _ in range(3000):
        spot = _random_spot(rng)
        cfg = _random_config(rng, widths=False)
        bc = cfg.bettor
        hs_n, pp, nn = rng.random(), rng.random() * 0.6, rng.random() * 0.5
        v = HandValues(ehs_prime=hs_n + (1 - hs_n) * pp, ehs=hs_n * (1 - nn) + (1 - hs_n) * pp, hs_n=hs_n, ppot=pp)
        t = generate_triple(v, spot, cfg)
        assert sorted(t.as_array().tolist()) == [0.0, 0.0, 1.0]
        want = decide(v, spot, bc, u=1.0).action  # u = 1: no check-raise coin
        assert Action(int(np.argmax(t.as_array()))) is want, (v, spot, cfg)


def test_default_generator_smooths_boundaries():
    spot = BettingSpot(street=1, pot=40.0, to_call=10.0, bet_size=10.0, bets_this_round=1)
    cfg = TripleConfig()
    at = lambda e: generate_triple(HandValues(e, e, e, 0.0), spot, cfg)  # noqa: E731
    assert at(0.85).r == pytest.approx(0.5)  # midway across the Make2 boundary
    assert at(0.95).r == 1.0 and at(0.75).r == 0.0
    assert at(0.5).c == pytest.approx(0.5) and at(0.5).f == pytest.approx(0.5)
    free = BettingSpot(street=1, pot=40.0, to_call=0.0, bet_size=10.0, bets_this_round=0)
    t = generate_triple(HandValues(0.1, 0.1, 0.1, 0.0), free, cfg)
    assert t.f == 0.0 and t.c == 1.0


def test_bettor_matches_the_python_reference_chain():
    """The Bettor (the rule chain at zero width) agrees with the earlier Python priority chain
    (tests/reference_rules.py) on the action and the rule's name, check-raise coin included."""
    rng = np.random.default_rng(4)
    seen = set()
    for _ in range(20000):
        spot = _random_spot(rng)
        bc = _random_config(rng, widths=False).bettor
        hs_n, pp, nn = rng.random(), rng.random() * 0.6, rng.random() * 0.5
        v = HandValues(ehs_prime=hs_n + (1 - hs_n) * pp, ehs=hs_n * (1 - nn) + (1 - hs_n) * pp, hs_n=hs_n, ppot=pp)
        u = float(rng.random()) if rng.random() < 0.9 else 1.0
        got, want = decide(v, spot, bc, u=u), reference_decide(v, spot, bc, u=u)
        assert (got.action, got.rule) == (want.action, want.rule), (v, spot, bc, u)
        seen.add(want.rule)
    assert seen == set(RULES) - {"bluff"}  # every rule of the chain (the bluff is a generator form, off here)


def test_rule_attribution_sums_to_the_triple():
    rng = np.random.default_rng(5)
    for _ in range(500):
        spot = _random_spot(rng)
        cfg = _random_config(rng)
        hs_n, pp, nn = rng.random(), rng.random() * 0.6, rng.random() * 0.5
        v = HandValues(ehs_prime=hs_n + (1 - hs_n) * pp, ehs=hs_n * (1 - nn) + (1 - hs_n) * pp, hs_n=hs_n, ppot=pp)
        t, contrib = generate_triple_with_rules(v, spot, cfg, check_raise_flag=spot.first_to_act)
        assert np.allclose(contrib.sum(axis=0), t.as_array(), atol=1e-12)
        for rule, action in enumerate(RULE_ACTIONS):
            if action >= 0:  # a rule with a fixed action never gives mass to another one
                assert np.all(np.delete(contrib[rule], action) == 0.0)
        u = float(rng.random())
        a = int(t.action(u))
        rule = attribute(contrib, a, u, t.f, t.c)
        assert contrib[rule, a] > 0.0


# --------------------------------------------------------------------------- selector
def test_selector_semantics():
    pt = ProbabilityTriple(0.1, 0.65, 0.25)
    assert select_action(pt, 0.0999, 10) is Action.FOLD
    assert select_action(pt, 0.1, 10) is Action.CALL
    assert select_action(pt, 0.7499, 10) is Action.CALL
    assert select_action(pt, 0.75, 10) is Action.RAISE
    assert select_action(pt, 0.05, 0) is Action.CALL  # never folds when checking is free
    assert select_action(pt, 0.9, 10, can_raise=False) is Action.CALL
    with pytest.raises(ValueError):
        select_action(pt, 1.0, 10)
    sel = ActionSelector(seed=4)
    us = []
    for _ in range(200):
        u = sel.new_hand()
        # the same u for every decision of the hand
        assert sel.u == u and sel.select(pt, 10) is select_action(pt, u, 10) is sel.select(pt, 10)
        us.append(u)
    # u uniform across hands; the action frequencies follow the triple
    acts = np.array([int(select_action(pt, u, 10)) for u in us])
    assert abs((acts == 0).mean() - 0.1) < 0.07 and abs((acts == 2).mean() - 0.25) < 0.1


# --------------------------------------------------------------------------- re-weighting (R)
def test_reweighting_paper_examples():
    pt = np.tile([0.0, 0.2, 0.8], (N_HOLDINGS, 1))
    m = OpponentModel()
    m.weights[:] = 0.7
    triple_reweight(m, pt, Action.CALL)
    assert m.weights[0] == pytest.approx(0.14)  # AAAI99
    m.weights[:] = 0.9
    triple_reweight(m, pt, Action.CALL)
    assert m.weights[0] == pytest.approx(0.18)  # Peña's thesis
    m.weights[:] = 0.9
    triple_reweight(m, np.tile([0.0, 0.0, 1.0], (N_HOLDINGS, 1)), Action.CALL)
    assert m.weights[0] == 0.01  # the floor


def test_reweighting_in_opponent_situation_moves_weight():
    board = parse_cards("Kh8d3c")
    hole = parse_cards("2s2d")
    live = (HOLDING_MASKS & np.uint64(cards_mask(board + hole))) == 0
    hs1, _, _ = board_values(board)
    strong = live & (hs1 > 0.9)
    weak = live & (hs1 < 0.3)
    assert strong.sum() > 20 and weak.sum() > 100
    facing = BettingSpot(street=1, pot=60.0, to_call=10.0, bet_size=10.0, bets_this_round=1, next_bet_size=20.0)
    free = BettingSpot(street=1, pot=50.0, to_call=0.0, bet_size=10.0, bets_this_round=0, next_bet_size=20.0)

    def after(spot, action):
        m = OpponentModel()
        triple_reweight(m, opponent_triples(board, spot, 2), action, live)
        return m.weights[strong].mean() / m.weights[weak].mean()

    assert after(facing, Action.RAISE) > 5.0  # a raise makes strong holdings relatively more likely
    assert after(facing, Action.CALL) > 1.0  # calling a bet still filters out the weakest hands
    assert after(free, Action.CALL) < 1.0  # a check (Loki-1 ignored it) makes strong holdings less likely
    assert after(facing, Action.RAISE) > after(facing, Action.CALL)


def test_generator_forms_default_to_the_papers_form_and_do_what_they_say():
    """The generator's forms beyond the paper's: asymmetric ramps, implied odds and a bluff; the defaults are the
    paper's chain, float for float."""
    from loki.triples import GeneratorForm, TripleConfig
    from loki.triples.rule_chain import chain_rules, ramp, ramp2

    for x in np.linspace(0.0, 1.0, 41):
        assert ramp2(x, 0.5, 0.05, 0.05) == ramp(x, 0.5, 0.05) and ramp2(x, 0.5, 0.0, 0.0) == ramp(x, 0.5, 0.0)
    assert ramp2(0.5, 0.5, 0.1, 0.0) == pytest.approx(1.0) and ramp2(0.45, 0.5, 0.1, 0.0) == pytest.approx(0.5)
    assert ramp2(0.39, 0.5, 0.1, 0.0) == 0.0 and ramp2(0.51, 0.5, 0.1, 0.0) == 1.0
    paper, same = TripleConfig().params(), TripleConfig(form=GeneratorForm()).params()
    assert paper == same
    spot = (1, 40.0, 0.0, 10.0, 0, False, True, 20.0)  # flop, nothing to call

    def triple(params, e=0.1, pp=0.05, to_call=0.0):
        sp = list(spot)
        sp[2] = to_call
        return chain_rules(e, e, e, pp, *sp, params, False, False, None)

    # a bluff: a hand no rule bets bets with the form's probability when nobody has bet
    assert triple(paper) == (0.0, 1.0, 0.0)
    f, c, r = triple(TripleConfig(form=GeneratorForm(bluff=0.2)).params())
    assert (f, round(c, 12), round(r, 12)) == (0.0, 0.8, 0.2)
    # implied odds lower the price of a flop call: a draw folds at the pot odds, calls with implied odds
    tight = TripleConfig(make_width=0.0, odds_width=0.0)
    pp = 0.18  # pot odds 10 / (40 + 10) = 0.2
    assert triple(tight.params(), e=0.2, pp=pp, to_call=10.0)[0] == 1.0
    loose = TripleConfig(make_width=0.0, odds_width=0.0, form=GeneratorForm(implied=1.0)).params()
    assert triple(loose, e=0.2, pp=pp, to_call=10.0)[0] == 0.0  # 10 / (40 + 10 + 20) = 0.143 <= 0.18
