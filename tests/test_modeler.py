"""Opponent Modeler: frequencies, the mu/sigma ramp, Loki-1 and triple re-weighting (PAPP98 §7; PENA99)."""

import numpy as np
import pytest

from loki.engine import Action
from loki.modeler import (
    DEFAULT_FREQUENCIES,
    ActionFrequencies,
    OpponentModel,
    loki1_reweight,
    ramp_bounds,
    ramp_factors,
    threshold_mu_sigma,
    triple_reweight,
)
from loki.triples import bets_to_call_bucket


def test_pena_ramp_example_mu_06_sigma_02():
    # pena/node27: median EHS 0.6 to call a flop bet, lower bound 0.4, upper 0.8.
    mu, sigma = threshold_mu_sigma(Action.CALL, np.array([0.6, 0.3, 0.1]))
    assert (mu, sigma) == pytest.approx((0.6, 0.2))
    lo, hi = ramp_bounds(mu, sigma)
    v = np.array([0.1, 0.39, 0.4, 0.5, 0.6, 0.7, 0.8, 0.81, 0.99])
    got = ramp_factors(v, lo, hi)
    assert got[[0, 1, 2]] == pytest.approx([0.01, 0.01, 0.01])
    assert got[3:6] == pytest.approx([0.25, 0.5, 0.75])
    assert got[6:] == pytest.approx([1.0, 1.0, 1.0])


def test_raise_facing_a_bet_threshold_is_papp_080():
    mu, _ = threshold_mu_sigma(Action.RAISE, DEFAULT_FREQUENCIES[1])
    assert mu == pytest.approx(0.8)  # papp/node60: "EHS' above mu = 0.80"


def test_check_with_nothing_to_call_changes_nothing():
    m = OpponentModel()
    values = np.random.default_rng(0).random(1326)
    before = m.weights.copy()
    changed = loki1_reweight(m, values, Action.CALL, DEFAULT_FREQUENCIES[bets_to_call_bucket(0)])
    assert not changed and np.array_equal(m.weights, before)


def test_raise_moves_weight_toward_strong_holdings_and_floor():
    rng = np.random.default_rng(1)
    values = rng.random(1326)
    m = OpponentModel()
    m.weights = rng.random(1326)
    m.new_round()
    assert loki1_reweight(m, values, Action.RAISE, DEFAULT_FREQUENCIES[1])
    w = m.weights
    assert w.min() >= 0.01
    strong, weak = values > 0.9, values < 0.7
    # mean weight of strong holdings relative to the start is preserved, weak ones are crushed
    assert np.allclose(w[strong], np.maximum(0.01, m.round_start[strong]))
    assert np.all(w[weak] <= 0.01 + 1e-12)
    # the weighted mean value rises
    assert (w * values).sum() / w.sum() > (m.round_start * values).sum() / m.round_start.sum()


def test_weights_never_below_floor_after_many_actions():
    rng = np.random.default_rng(2)
    m = OpponentModel()
    for _ in range(20):
        m.new_round()
        loki1_reweight(m, rng.random(1326), Action.RAISE, np.array([0.9, 0.05, 0.05]))
        triple_reweight(m, rng.dirichlet([1, 1, 1], size=1326), Action(int(rng.integers(1, 3))))
    assert m.weights.min() >= 0.01


def test_once_per_round_from_stored_copy():
    values = np.linspace(0, 1, 1326)
    m = OpponentModel()
    m.new_round()
    call_f = np.array([0.5, 0.3, 0.2])
    assert loki1_reweight(m, values, Action.CALL, call_f)  # mu = 0.5
    after_call = m.weights.copy()
    assert not loki1_reweight(m, values, Action.CALL, call_f)  # same threshold: no second re-weighting
    assert np.array_equal(m.weights, after_call)
    assert loki1_reweight(m, values, Action.RAISE, call_f)  # higher mu = 0.8: redo from the stored copy
    mu, s = threshold_mu_sigma(Action.RAISE, call_f)
    expect = np.maximum(0.01, np.ones(1326) * ramp_factors(values, mu - s, mu + s))
    assert np.allclose(m.weights, expect)  # not compounded on top of the call's re-weighting


def test_preflop_percentile_to_ir_scale():
    sorted_ir = np.sort(np.random.default_rng(3).normal(0, 500, 1326))
    lo, hi = ramp_bounds(0.6, 0.2, sorted_ir)
    assert lo == sorted_ir[round(0.4 * 1325)] and hi == sorted_ir[round(0.8 * 1325)]


def test_frequency_blending():
    fr = ActionFrequencies()
    assert np.allclose(fr.blended(0, 1), DEFAULT_FREQUENCIES[1])
    for _ in range(10):
        fr.record(0, 1, Action.RAISE)
    # 10 of 20 observations: half observed (0, 0, 1), half default (0.5, 0.3, 0.2)
    assert np.allclose(fr.blended(0, 1), [0.25, 0.15, 0.6])
    assert np.allclose(fr.blended(0, 1, specific=False), DEFAULT_FREQUENCIES[1])
    # the flop default is the blended pre-flop frequency of the same bucket
    assert np.allclose(fr.blended(1, 1), [0.25, 0.15, 0.6])
    for _ in range(30):
        fr.record(1, 1, Action.FOLD)
    assert np.allclose(fr.blended(1, 1), [1, 0, 0])
    with pytest.raises(ValueError):
        fr.record(4, 0, Action.CALL)
    assert [bets_to_call_bucket(x) for x in (0, 0.5, 1, 1.5, 2, 3)] == [0, 1, 1, 1, 2, 2]


def test_triple_reweighting_examples():
    # AAAI99: weight 0.7, PT [0, 0.2, 0.8], a call -> 0.14; PENA99: 0.9 -> 0.18.
    for w0, expect in ((0.7, 0.14), (0.9, 0.18)):
        m = OpponentModel()
        m.weights[:] = w0
        triple_reweight(m, np.tile([0.0, 0.2, 0.8], (1326, 1)), Action.CALL)
        assert m.weights == pytest.approx(np.full(1326, expect))
    m = OpponentModel()
    triple_reweight(m, np.tile([0.3, 0.7, 0.0], (1326, 1)), Action.RAISE)
    assert np.all(m.weights == 0.01)  # floor
    with pytest.raises(ValueError):
        triple_reweight(m, np.ones((10, 3)), Action.CALL)


def test_model_tables_start_every_row_of_a_hand_and_a_round():
    """``start_hand()`` (every row) resets the weights and the round-start copies that may differ from 1.0;
    ``start_round(copy=False)`` leaves the copies as they are, ``copy=True`` stores the weights."""
    from loki.modeler.model import ModelTables

    t = ModelTables(3)
    models = [OpponentModel(t) for _ in range(3)]
    t.weights[:] = np.linspace(0.1, 0.9, 3)[:, None]
    t.applied_mu[:] = 0.4
    t.start_round(copy=False)
    assert np.all(t.round_start == 1.0) and np.all(t.applied_mu == -1.0) and not t.rs_dirty
    t.start_round()
    np.testing.assert_array_equal(t.round_start, t.weights)
    t.start_hand()
    assert np.all(t.weights == 1.0) and np.all(t.round_start == 1.0) and not t.rs_dirty
    models[1].round_start[:5] = 0.25  # a copy written through the model's view: marked, reset by the next hand
    t.weights[2, :5] = 0.5
    t.start_hand()
    assert np.all(t.weights == 1.0) and np.all(t.round_start == 1.0)
