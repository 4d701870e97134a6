"""Tests for loki.assessment.weights: weight tables, card removal, the 0.01 floor and the field array."""

import numpy as np
import pytest

from loki.assessment.weights import (
    LOW_WEIGHT,
    WeightTable,
    apply_floor,
    field_array,
    live_weights,
    normalise,
    validate_weights,
)
from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask, live_holdings, parse_cards, parse_holding
from loki.errors import RangeError


def test_default_table_is_all_ones_and_read_only():
    t = WeightTable()
    assert t.weights.shape == (N_HOLDINGS,) and t.weights.dtype == np.float64
    assert np.all(t.weights == 1.0)
    with pytest.raises(ValueError):
        t.weights[0] = 2.0  # read-only view


def test_set_reset_copy_are_independent():
    rng = np.random.default_rng(1)
    w = rng.random(N_HOLDINGS)
    t = WeightTable(w)
    w[0] = 99.0  # the table holds its own copy
    assert t.weights[0] != 99.0
    c = t.copy()
    assert c == t and c.weights is not t.weights
    t.reset()
    assert np.all(t.weights == 1.0)
    assert not np.all(c.weights == 1.0)
    before = np.array(c.weights)
    c.scale(np.full(N_HOLDINGS, 2.0))
    assert np.array_equal(c.weights, 2 * before)
    assert np.array_equal(np.asarray(c), c.weights) and len(c) == N_HOLDINGS and c[0] == c.weights[0]


def test_live_zeroes_clashes_without_touching_storage():
    t = WeightTable(np.full(N_HOLDINGS, 0.5))
    dead = parse_cards("AhKs9c")
    live = t.live(dead)
    mask = live_holdings(dead)
    assert np.all(live[~mask] == 0.0) and np.all(live[mask] == 0.5)
    assert int((~mask).sum()) == 3 * 51 - 3
    assert np.all(t.weights == 0.5)
    assert t.live_total(dead) == pytest.approx(0.5 * mask.sum())
    assert np.array_equal(live_weights(t, dead), live)


def test_normalised_sums_to_one_over_live_holdings():
    rng = np.random.default_rng(2)
    t = WeightTable(rng.random(N_HOLDINGS) * 7)
    dead = parse_cards("2c3d")
    n = t.normalised(dead)
    assert n.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(n[(HOLDING_MASKS & np.uint64(cards_mask(dead))) != 0] == 0)
    with pytest.raises(ValueError, match="weight 0"):
        normalise(np.zeros(N_HOLDINGS))


def test_floor():
    w = np.linspace(0, 1, N_HOLDINGS)
    f = apply_floor(w)
    assert LOW_WEIGHT == 0.01
    assert f.min() == 0.01 and np.all(f[w >= 0.01] == w[w >= 0.01])
    t = WeightTable(w).apply_floor()
    assert t.weights.min() == 0.01
    assert apply_floor(w, 0.2).min() == 0.2
    with pytest.raises(ValueError, match="floor"):
        apply_floor(w, -1.0)


@pytest.mark.parametrize(
    "bad, match",
    [
        (np.ones(1325), "shape"),
        (np.ones((2, 1326)), "shape"),
        (np.r_[np.ones(1325), -0.5], "non-negative"),
        (np.r_[np.nan, np.ones(1325)], "finite"),
        (np.r_[np.inf, np.ones(1325)], "finite"),
        ("abc", "weights"),
    ],
)
def test_validation(bad, match):
    with pytest.raises(RangeError, match=match):
        validate_weights(bad)
    with pytest.raises(ValueError):
        WeightTable(bad)


def test_field_array_default_rule():
    """DEFAULT (§1.2): card-remove, normalise each to 1, average, clashes zero."""
    rng = np.random.default_rng(3)
    a = rng.random(N_HOLDINGS) * 100  # scale must not matter
    b = rng.random(N_HOLDINGS)
    dead = parse_cards("AsKs")
    f = field_array([a, WeightTable(b)], dead)
    m = live_holdings(dead)
    expect = (np.where(m, a, 0) / a[m].sum() + np.where(m, b, 0) / b[m].sum()) / 2
    assert np.allclose(f, expect, rtol=0, atol=1e-15)
    assert f.sum() == pytest.approx(1.0)
    assert np.all(f[~m] == 0)
    # one table: just the normalised live table
    assert np.allclose(field_array([a], dead), normalise(a, dead))
    assert np.allclose(field_array(WeightTable(a), dead), normalise(a, dead))


def test_field_array_errors_name_the_table():
    dead = parse_cards("AsKs")
    only_dead = np.zeros(N_HOLDINGS)
    only_dead[parse_holding("AsKs")] = 1.0
    with pytest.raises(ValueError, match=r"tables\[1\]"):
        field_array([np.ones(N_HOLDINGS), only_dead], dead)
    with pytest.raises(ValueError, match=r"tables\[0\]"):
        field_array([np.ones(3)])
    with pytest.raises(ValueError, match="at least one"):
        field_array([])


def test_field_kernel_gives_the_numpy_rules_floats():
    """combine_field's compiled pass equals, bit for bit, numpy's copy / zero the clashes / divide by
    np.sum / add / divide by k, and its pairwise sum equals np.sum at every length (numpy's summation order)."""
    from loki.assessment.weights import combine_field
    from loki.assessment.weights_kernels import pairwise_sum

    def numpy_rule(tables, clash):
        out = np.zeros(N_HOLDINGS)
        for t in tables:
            x = np.array(t, dtype=np.float64)
            x[clash] = 0.0
            x /= x.sum()
            out += x
        out /= len(tables)
        return out

    rng = np.random.default_rng(1815)
    for i in range(300):
        tables = [np.maximum(0.01, rng.random(N_HOLDINGS)) ** rng.integers(1, 6) for _ in range(1 + i % 6)]
        clash = rng.random(N_HOLDINGS) < 0.1
        assert np.array_equal(combine_field(tables, clash), numpy_rule(tables, clash))
    for n in list(range(1, 300)) + [1081, 1326, 5000, 20000]:
        y = rng.random(n) * 10.0 ** rng.integers(-3, 4, n)
        skip = rng.random(n) < 0.2
        assert pairwise_sum(y, skip, 0, n) == np.where(skip, 0.0, y).sum(), n
