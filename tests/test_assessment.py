"""Tests for loki.assessment: HS, PPot/NPot, EHS, all-holdings kernels, against an independent oracle.

The oracle is a slow, straightforward Python enumeration that ranks hands with
**phevaluator** (lower = stronger there), never with loki.evaluator.  It follows the
reference formulas literally: every opponent holding, every completion, ``w/K`` added to
HP per completion.  It uses phevaluator's compiled entry points
``phevaluator._pheval.evaluate_{5,6,7}cards`` (about 5x faster than the public
``evaluate_cards``; private, hence phevaluator==0.6.0 is pinned in pyproject).  Card ids
are the same (4*rank + suit) in both libraries.

Case counts: HS 200 per street (cheap); PPot1/NPot1 200 per street (≈48k evaluations per
case); PPot2/NPot2 only 20 cases, because each needs the full 1,070,190-case enumeration
(≈0.7 s per case in Python even with the fast entry point, so 200 cases would take minutes).
"""

import itertools

import numpy as np
import pytest
from phevaluator._pheval import evaluate_5cards, evaluate_6cards, evaluate_7cards

from loki.assessment import (
    Assessment,
    assess,
    ehs,
    ehs_prime,
    ehs_prime_all,
    hand_potential,
    hand_potential_all,
    hand_potential_all_counts,
    hand_potential_counts,
    hand_strength,
    hand_strength_all,
    hand_strength_all_counts,
    hand_strength_counts,
    ppot_npot,
    rank_holdings,
)
from loki.assessment.potential import hp1_kernel
from loki.assessment.strength import hs_counts_kernel
from loki.assessment.weights import WeightTable, field_array
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, N_HOLDINGS, live_holdings, parse_cards, parse_holding
from loki.errors import CardError, ConfigError, RangeError
from loki.evaluator import kernel_tables

EV = {5: evaluate_5cards, 6: evaluate_6cards, 7: evaluate_7cards}
TOL = 1e-9
T = kernel_tables()  # the evaluator tables every kernel takes last


# ---------------------------------------------------------------------------------------
# the oracle
# ---------------------------------------------------------------------------------------
def _state(ours, theirs):
    """0 ahead, 1 tied, 2 behind, from phevaluator ranks (lower is stronger)."""
    return 0 if ours < theirs else (1 if ours == theirs else 2)


def bf_hs_counts(hole, board, w, dead=()):
    ev = EV[len(board) + 2]
    known = set(hole) | set(board) | set(dead)
    ours = ev(*hole, *board)
    tot = [0.0, 0.0, 0.0]
    for h in range(N_HOLDINGS):
        c0, c1 = (int(c) for c in HOLDING_CARDS[h])
        if c0 in known or c1 in known:
            continue
        tot[_state(ours, ev(c0, c1, *board))] += w[h]
    return np.array(tot)


def bf_hp(hole, board, w, n_next, dead=()):
    """HP (3x3, per-completion weight w/K) and HPTotal by literal enumeration."""
    ev_now = EV[len(board) + 2]
    ev_end = EV[len(board) + 2 + n_next]
    known = set(hole) | set(board) | set(dead)
    ours_now = ev_now(*hole, *board)
    deck = [c for c in range(52) if c not in known]
    ours_end = {comp: ev_end(*hole, *board, *comp) for comp in itertools.combinations(deck, n_next)}
    hp = np.zeros((3, 3))
    tot = np.zeros(3)
    for h in range(N_HOLDINGS):
        c0, c1 = (int(c) for c in HOLDING_CARDS[h])
        if c0 in known or c1 in known or w[h] == 0:
            continue
        now = _state(ours_now, ev_now(c0, c1, *board))
        tot[now] += w[h]
        rest = [c for c in deck if c != c0 and c != c1]
        comps = list(itertools.combinations(rest, n_next))
        k = len(comps)
        for comp in comps:
            hp[now, _state(ours_end[comp], ev_end(c0, c1, *board, *comp))] += w[h] / k
    return hp, tot


def bf_ppot_npot(hp, tot):
    dp = tot[2] + tot[1] / 2
    dn = tot[0] + tot[1] / 2
    pp = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / dp if dp > 0 else 0.0
    nn = (hp[0, 2] + hp[0, 1] / 2 + hp[1, 2] / 2) / dn if dn > 0 else 0.0
    return pp, nn


def random_weights(rng):
    """Non-uniform weights: a spread of magnitudes, about 20% exact zeros."""
    w = rng.random(N_HOLDINGS) ** 2 * rng.choice([0.01, 1.0, 5.0], N_HOLDINGS)
    w[rng.random(N_HOLDINGS) < 0.2] = 0.0
    return w


def random_case(rng, n_board):
    cards = rng.choice(52, 2 + n_board, replace=False)
    return [int(c) for c in cards[:2]], [int(c) for c in cards[2:]]


def _hs(counts):
    a, t, b = counts
    return (a + t / 2) / (a + t + b)


# ---------------------------------------------------------------------------------------
# published worked examples
# ---------------------------------------------------------------------------------------
def test_pena_example_ah8h():
    """PENA99 pena/node23: A♥8♥ on 9♥8♣2♣, uniform: 903/6/172 of 1,081, HS 0.84, HS^3 0.59."""
    a, t, b = hand_strength_counts("Ah8h", "9h8c2c", np.ones(N_HOLDINGS))
    assert (a, t, b) == (903.0, 6.0, 172.0) and a + t + b == 1081
    hs = hand_strength("Ah8h", "9h8c2c", np.ones(N_HOLDINGS))
    assert hs == pytest.approx(906 / 1081) and round(hs, 2) == 0.84
    assert round(hand_strength("Ah8h", "9h8c2c", np.ones(N_HOLDINGS), n_opponents=3), 2) == 0.59
    r = assess("Ah8h", "9h8c2c", WeightTable(), n_opponents=3)
    assert round(r.hs_n, 2) == 0.59 and r.hand_strength_counts == (903.0, 6.0, 172.0)


# Papp Table 5.1 (papp/node40), rows now ahead/tied/behind, columns after 7 cards.
PAPP_TABLE_5_1 = np.array([[449005, 3211, 169504], [0, 8370, 540], [91981, 1036, 346543]])


def test_papp_example_adqc():
    """A♦Q♣ on 3♥4♣J♥, uniform (papp/node40; AAAI98): HS 0.585 (628/9/444), PPot2 0.208, NPot2 0.274.

    The exact enumeration (w/K per completion, /2 denominators) gives exactly Papp's 3×3
    table: 1,070,190 cases, 91,981 of them behind-now/ahead-at-the-end.  Hence
    PPot2 = (91981 + 1036/2 + 0/2) / (990·444 + 990·9/2) = 92499/444015 = 0.208324 and
    NPot2 = (169504 + 3211/2 + 540/2) / (990·628 + 990·9/2) = 171379.5/626175 = 0.273693,
    the published 0.208 and 0.274 to three decimals: no difference to explain.
    The one-card look-ahead (turn only) gives PPot1 = 0.108312, NPot1 = 0.145402.
    """
    u = np.ones(N_HOLDINGS)
    assert hand_strength_counts("AdQc", "3h4cJh", u) == (628.0, 9.0, 444.0)
    assert round(hand_strength("AdQc", "3h4cJh", u), 3) == 0.585
    hp, tot = hand_potential_counts("AdQc", "3h4cJh", u, lookahead=2)
    assert np.allclose(hp * 990, PAPP_TABLE_5_1, rtol=0, atol=1e-8)
    assert np.array_equal(tot, [628.0, 9.0, 444.0])
    pp, nn = hand_potential("AdQc", "3h4cJh", u, lookahead=2)
    assert pp == pytest.approx(92499 / 444015, abs=1e-12) and round(pp, 3) == 0.208
    assert nn == pytest.approx(171379.5 / 626175, abs=1e-12) and round(nn, 3) == 0.274
    pp1, nn1 = hand_potential("AdQc", "3h4cJh", u, lookahead=1)
    assert pp1 == pytest.approx(0.108312, abs=5e-7) and nn1 == pytest.approx(0.145402, abs=5e-7)
    a = assess("AdQc", "3h4cJh", u, lookahead=2)
    assert a.ppot == pp and a.npot == nn
    assert a.ehs == pytest.approx(a.hs * (1 - nn) + (1 - a.hs) * pp)
    assert a.ehs_prime == pytest.approx(a.hs + (1 - a.hs) * pp)


# ---------------------------------------------------------------------------------------
# kernels against the oracle, random non-uniform ranges
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_hs_matches_oracle(n_board):
    rng = np.random.default_rng(100 + n_board)
    for _ in range(200):
        hole, board = random_case(rng, n_board)
        w = random_weights(rng)
        got = np.array(hand_strength_counts(hole, board, w))
        want = bf_hs_counts(hole, board, w)
        assert np.allclose(got, want, rtol=0, atol=TOL), (hole, board)
        assert hand_strength(hole, board, w) == pytest.approx(_hs(want), abs=TOL)


@pytest.mark.parametrize("n_board", [3, 4])
def test_ppot1_matches_oracle(n_board):
    rng = np.random.default_rng(200 + n_board)
    for _ in range(200):
        hole, board = random_case(rng, n_board)
        w = random_weights(rng)
        hp, tot = hand_potential_counts(hole, board, w, lookahead=1)
        bhp, btot = bf_hp(hole, board, w, 1)
        assert np.allclose(hp, bhp, rtol=0, atol=TOL) and np.allclose(tot, btot, rtol=0, atol=TOL)
        pp, nn = hand_potential(hole, board, w, lookahead=1)
        bpp, bnn = bf_ppot_npot(bhp, btot)
        assert pp == pytest.approx(bpp, abs=TOL) and nn == pytest.approx(bnn, abs=TOL)


def test_ppot2_matches_oracle():
    """20 flop cases only: the oracle needs ~1M phevaluator calls per case (see module doc)."""
    rng = np.random.default_rng(300)
    for _ in range(20):
        hole, board = random_case(rng, 3)
        w = random_weights(rng)
        hp, tot = hand_potential_counts(hole, board, w, lookahead=2)
        bhp, btot = bf_hp(hole, board, w, 2)
        assert np.allclose(hp, bhp, rtol=0, atol=TOL) and np.allclose(tot, btot, rtol=0, atol=TOL)
        pp, nn = hand_potential(hole, board, w, lookahead=2)
        bpp, bnn = bf_ppot_npot(bhp, btot)
        assert pp == pytest.approx(bpp, abs=TOL) and nn == pytest.approx(bnn, abs=TOL)


def test_river_potential_is_zero():
    w = np.ones(N_HOLDINGS)
    hp, tot = hand_potential_counts("AdQc", "3h4cJh9s2d", w)
    assert np.all(hp == 0) and np.allclose(tot, bf_hs_counts(parse_cards("AdQc"), parse_cards("3h4cJh9s2d"), w))
    assert hand_potential("AdQc", "3h4cJh9s2d", w) == (0.0, 0.0)
    a = assess("AdQc", "3h4cJh9s2d", w)
    assert a.ppot == a.npot == 0.0 and a.ehs == a.hs_n == a.ehs_prime


# ---------------------------------------------------------------------------------------
# every holding at once
# ---------------------------------------------------------------------------------------
def _live_w(w, dead):
    return np.where(live_holdings(dead), w, 0.0)


@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_hs_all_matches_per_holding(n_board):
    rng = np.random.default_rng(400 + n_board)
    for trial in range(6):
        board = [int(c) for c in rng.choice(52, n_board, replace=False)]
        rest = [c for c in range(52) if c not in board]
        dead = [int(c) for c in rng.choice(rest, 2 * (trial % 2), replace=False)]
        w = random_weights(rng)
        if trial == 5:
            w = np.ones(N_HOLDINGS)
        counts, npos = hand_strength_all_counts(board, w, dead)
        hs = hand_strength_all(board, w, dead)
        wl = _live_w(w, board + dead)
        alive = live_holdings(board + dead)
        assert np.all(npos[~alive] == -1) and np.all(np.isnan(hs[~alive]))
        bd = np.array(board, dtype=np.int64)
        for h in np.flatnonzero(alive):
            c0, c1 = (int(c) for c in HOLDING_CARDS[h])
            one = np.array(hs_counts_kernel(c0, c1, bd, wl, T))
            assert np.allclose(counts[:, h], one, rtol=0, atol=TOL)
            assert hs[h] == pytest.approx(_hs(one), abs=TOL)
        # and a few straight against the oracle
        for h in rng.choice(np.flatnonzero(alive), 5, replace=False):
            want = bf_hs_counts([int(c) for c in HOLDING_CARDS[h]], board, w, dead)
            assert np.allclose(counts[:, h], want, rtol=0, atol=TOL)


def test_hs_of_several_ranges_sorted_once_equals_one_range_at_a_time():
    """``hs_all_rows_into`` (the holdings sorted by rank once for several ranges) writes the very floats of
    ``hs_from_counts(hs_all_counts_from_ranks(...))`` range by range, rows with zero weights included, and only the
    rows asked for; ``fields_of_others_into`` those of ``combine_field`` player by player, for the players asked for."""
    from loki.assessment.strength import (
        dead_array,
        hs_all_counts_from_ranks,
        hs_all_rows_into,
        hs_from_counts,
        rank_holdings_kernel,
    )
    from loki.assessment.weights import combine_field
    from loki.assessment.weights_kernels import fields_of_others_into

    rng = np.random.default_rng(91)
    for n_board in (3, 4, 5):
        board = [int(c) for c in rng.choice(52, n_board, replace=False)]
        ranks = rank_holdings_kernel(np.array(board, dtype=np.int64), dead_array(board), T)
        w = rng.random((5, N_HOLDINGS)) * (rng.random((5, N_HOLDINGS)) < 0.8)
        w[2, :] = 0.0  # no weight: HS undefined everywhere
        rows = np.array([0, 2, 4], dtype=np.int64)
        out = np.full((5, N_HOLDINGS), -7.0)
        hs_all_rows_into(ranks, w, rows, 0.5, out)
        for r in range(5):
            if r in rows:
                want = hs_from_counts(*hs_all_counts_from_ranks(ranks, w[r]), 0.5)
                assert np.array_equal(out[r], want)
            else:
                assert np.all(out[r] == -7.0)
        clash = ~live_holdings(board)
        players, me = np.array([0, 1, 3, 4], dtype=np.int64), 3
        for asked in (players, np.array([me], dtype=np.int64), np.array([4, 0], dtype=np.int64)):
            fields = np.full((5, N_HOLDINGS), -7.0)
            fields_of_others_into(w, players, asked, me, clash, fields)
            for p in range(5):
                if p in asked:
                    tables = [w[o] if o != me else np.ones(N_HOLDINGS) for o in players if o != p]
                    assert np.array_equal(fields[p], combine_field(tables, clash))
                else:
                    assert np.all(fields[p] == -7.0)


def test_hs_all_undefined_where_no_live_opponent_weight():
    board = parse_cards("2c7d9h")
    w = np.zeros(N_HOLDINGS)
    w[parse_holding("AsKs")] = 1.0  # the only opponent holding
    hs = hand_strength_all(board, w)
    assert np.isnan(hs[parse_holding("AsQd")])  # shares the As: faces nothing
    assert np.isnan(hs[parse_holding("AsKs")])
    assert hs[parse_holding("QdQc")] == 1.0 and hs[parse_holding("3d4s")] == 0.0
    assert hand_strength_all(board, w, fill=-1.0)[parse_holding("AsQd")] == -1.0
    assert np.array_equal(rank_holdings(board) > 0, live_holdings(board))


@pytest.mark.parametrize("n_board", [3, 4])
def test_ppot1_all_matches_per_holding(n_board):
    rng = np.random.default_rng(500 + n_board)
    for trial in range(4):
        board = [int(c) for c in rng.choice(52, n_board, replace=False)]
        w = np.ones(N_HOLDINGS) if trial == 0 else random_weights(rng)
        hp, tot, npos = hand_potential_all_counts(board, w)
        pp, nn = hand_potential_all(board, w)
        alive = live_holdings(board)
        assert np.all(np.isnan(pp[~alive])) and np.all(hp[~alive] == 0)
        bd = np.array(board, dtype=np.int64)
        for h in np.flatnonzero(alive):
            c0, c1 = (int(c) for c in HOLDING_CARDS[h])
            one_hp, one_tot = hp1_kernel(c0, c1, bd, w, T)
            assert np.allclose(hp[h], one_hp, rtol=0, atol=TOL), (board, h)
            assert np.allclose(tot[h], one_tot, rtol=0, atol=TOL)
            opp, onn = ppot_npot(one_hp, one_tot)
            assert pp[h] == pytest.approx(opp, abs=TOL) and nn[h] == pytest.approx(onn, abs=TOL)


@pytest.mark.parametrize("n_board", [3, 4])
def test_ppot1_all_with_dead_cards_matches_oracle(n_board):
    """Extra dead cards (e.g. our hole cards) leave the range and the deck of next cards."""
    rng = np.random.default_rng(600 + n_board)
    for _ in range(2):
        cards = [int(c) for c in rng.choice(52, n_board + 2, replace=False)]
        board, dead = cards[:n_board], cards[n_board:]
        w = random_weights(rng)
        hp, tot, npos = hand_potential_all_counts(board, w, dead)
        assert np.all(npos[~live_holdings(board + dead)] == -1)
        for h in rng.choice(np.flatnonzero(live_holdings(board + dead)), 4, replace=False):
            bhp, btot = bf_hp([int(c) for c in HOLDING_CARDS[h]], board, w, 1, dead)
            assert np.allclose(hp[h], bhp, rtol=0, atol=TOL) and np.allclose(tot[h], btot, rtol=0, atol=TOL)


def test_all_holdings_on_the_river_and_ehs_prime_all():
    rng = np.random.default_rng(7)
    w = random_weights(rng)
    river = parse_cards("2c7d9hTsJs")
    pp, nn = hand_potential_all(river, w)
    alive = live_holdings(river)
    assert np.all(pp[alive] == 0) and np.all(nn[alive] == 0) and np.all(np.isnan(pp[~alive]))
    assert np.allclose(ehs_prime_all(river, w), hand_strength_all(river, w), equal_nan=True)
    flop = parse_cards("2c7d9h")
    e = ehs_prime_all(flop, w, dead=parse_cards("AsAd"))
    hs = hand_strength_all(flop, w, dead=parse_cards("AsAd"))
    pp, _ = hand_potential_all(flop, w, dead=parse_cards("AsAd"))
    assert np.allclose(e, hs + (1 - hs) * pp, equal_nan=True)
    assert np.isnan(e[parse_holding("AsKd")]) and np.isnan(e[parse_holding("2c3c")])


# ---------------------------------------------------------------------------------------
# EHS, assess(), several opponents
# ---------------------------------------------------------------------------------------
def test_ehs_formulas_scalar_and_vector():
    assert ehs(0.6, 0.2, 0.3) == pytest.approx(0.6 * 0.7 + 0.4 * 0.2)
    assert ehs_prime(0.6, 0.2) == pytest.approx(0.6 + 0.4 * 0.2)
    hs = np.linspace(0, 1, 5)
    assert np.allclose(ehs(hs, 0.5, 0.0), ehs_prime(hs, 0.5))
    assert ehs_prime(1.0, 0.9) == 1.0 and ehs(0.0, 0.0, 0.5) == 0.0


def test_assess_fields_and_multiway_field_array():
    rng = np.random.default_rng(9)
    w1, w2 = random_weights(rng), random_weights(rng)
    hole, board = parse_cards("KsQs"), parse_cards("Js8s2d")
    a = assess("KsQs", "Js8s2d", [w1, WeightTable(w2)])
    assert isinstance(a, Assessment) and a.n_opponents == 2 and a.lookahead == 1
    f = field_array([w1, w2], hole + board)
    assert a.hs == pytest.approx(hand_strength(hole, board, f), abs=1e-12)
    assert a.hs_n == pytest.approx(a.hs**2)
    assert (a.ppot, a.npot) == pytest.approx(hand_potential(hole, board, f), abs=1e-12)
    assert a.ehs == pytest.approx(a.hs_n * (1 - a.npot) + (1 - a.hs_n) * a.ppot)
    assert a.ehs_prime == pytest.approx(a.hs_n + (1 - a.hs_n) * a.ppot)
    assert np.allclose(a.hp.sum(axis=1), a.hp_total) and tuple(a.hp_total) == a.hand_strength_counts
    with pytest.raises(Exception):
        a.hs = 0.5  # frozen
    with pytest.raises(ValueError):
        a.hp[0, 0] = 1.0  # read-only
    assert assess(hole, board, [w1, w2], n_opponents=4).hs_n == pytest.approx(a.hs**4)
    assert assess(hole, board, np.stack([w1, w2])).n_opponents == 2
    one = assess(hole, board, [w1])
    assert one.n_opponents == 1 and one.hs == pytest.approx(hand_strength(hole, board, w1))
    assert assess(hole, board, list(w1)).n_opponents == 1  # a plain list of 1,326 numbers is one range


# ---------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------
U = np.ones(N_HOLDINGS)


@pytest.mark.parametrize(
    "hole, board, ranges, kw, match",
    [
        ("AhAh", "2c3c4c", U, {}, "hole"),
        ("AhKh", "Ah3c4c", U, {}, "overlapping"),
        ("AhKh", "2c3c", U, {}, "board"),
        ("AhKh", "2c3c4c5c6c7c", U, {}, "board"),
        ("AhKh", "2c3c4x", U, {}, "board"),
        ("Ah", "2c3c4c", U, {}, "hole"),
        ("AhKh", "2c3c4c", np.ones(1325), {}, "ranges"),
        ("AhKh", "2c3c4c", np.r_[-1.0, np.ones(1325)], {}, "ranges"),
        ("AhKh", "2c3c4c", np.r_[np.nan, np.ones(1325)], {}, "ranges"),
        ("AhKh", "2c3c4c", [U, np.ones(5)], {}, r"ranges\[1\]"),
        ("AhKh", "2c3c4c", [], {}, "ranges"),
        ("AhKh", "2c3c4c", U, {"n_opponents": 0}, "n_opponents"),
        ("AhKh", "2c3c4c", U, {"lookahead": 3}, "lookahead"),
        ("AhKh", "2c3c4c5d", U, {"lookahead": 2}, "lookahead"),
    ],
)
def test_assess_value_errors(hole, board, ranges, kw, match):
    # one error family (loki.errors), all ValueErrors: cards, ranges, options
    kind = {"hole": CardError, "overlapping": CardError, "board": CardError, "n_opponents": ConfigError}
    with pytest.raises(kind.get(match, ConfigError if match == "lookahead" else RangeError), match=match):
        assess(hole, board, ranges, **kw)


def test_all_zero_live_range_raises():
    w = np.zeros(N_HOLDINGS)
    w[parse_holding("AhQd")] = 1.0  # only holding containing our Ah: dead
    with pytest.raises(ValueError, match="ranges"):
        assess("AhKh", "2c3c4c", w)
    with pytest.raises(ValueError, match="ranges"):
        assess("AhKh", "2c3c4c", [w, U])  # field array: tables[0] has no live weight
    with pytest.raises(ValueError, match="weight 0"):
        hand_strength("AhKh", "2c3c4c", w)


def test_function_level_value_errors():
    with pytest.raises(CardError, match="overlapping"):
        hand_strength_all("2c3c4c", U, dead="2c")
    with pytest.raises(RangeError, match="weights"):
        hand_potential_all("2c3c4c", np.ones(10))
    with pytest.raises(ConfigError, match="lookahead"):
        hand_potential("AhKh", "2c3c4c5c", U, lookahead=2)
    with pytest.raises(CardError, match="board"):
        rank_holdings("2c3c")
    with pytest.raises(RangeError, match="weight 0"):
        hand_strength("AhKh", "2c3c4c", np.zeros(N_HOLDINGS))
    with pytest.raises(CardError, match="dead"):
        hand_potential_all_counts("2c3c4c", U, dead=[c for c in range(52) if c not in (0, 4, 8)][:45])


def test_hp1_with_the_boards_triple_ranks_equals_the_evaluating_kernel():
    """hp1_kernel_ranked (ranks read from board_triple_ranks) gives exactly hp1_kernel's numbers."""
    from loki.assessment.potential import board_triple_ranks, hp1_kernel, hp1_kernel_ranked
    from loki.evaluator import kernel_tables

    tables = kernel_tables()
    rng = np.random.default_rng(1234)
    for it in range(24):
        cards = rng.permutation(52)
        board = np.sort(cards[2 : 5 + it % 2]).astype(np.int64)
        r3, pos = board_triple_ranks(board, tables)
        assert r3.shape == (52 - len(board),) * 3 and (pos[board] == -1).all()
        w = np.ones(1326) if it % 3 == 0 else np.maximum(0.01, rng.random(1326))
        for _ in range(3):
            rest = [int(c) for c in rng.permutation(52) if c not in board]
            c0, c1 = rest[0], rest[1]
            a = hp1_kernel(c0, c1, board, w, tables)
            b = hp1_kernel_ranked(c0, c1, board, w, tables, r3, pos)
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def _hp1_sums_in_kernel_order(hole, board, w):
    """The one-card look-ahead's nine HP sums as the kernel forms them: for every opponent holding of live cards
    ``a < b`` (pairs in card order), ``w × (the number of next cards that leave us in each end state)`` added to the
    row of our state now, then every sum divided by K; ranks from phevaluator (an independent evaluator)."""
    ev6, ev5 = EV[len(board) + 3], EV[len(board) + 2]
    live = [c for c in range(52) if c not in set(hole) | set(board)]
    ours_now = ev5(*hole, *board)
    ours_end = {x: ev6(*hole, *board, x) for x in live}
    hp = [0.0] * 9
    for a, b in itertools.combinations(live, 2):
        ends = [0, 0, 0]
        for x in live:
            if x not in (a, b):
                ends[_state(ours_end[x], ev6(a, b, x, *board))] += 1
        s = _state(ours_now, ev5(a, b, *board))
        for e in range(3):
            hp[3 * s + e] += w[HOLDING_INDEX[a, b]] * ends[e]
    return np.array(hp).reshape(3, 3) / (len(live) - 2)


@pytest.mark.parametrize("n_board", [3, 4])
def test_hp1_kernel_adds_the_weights_in_its_documented_order(n_board):
    """Bit for bit the sums of :func:`_hp1_sums_in_kernel_order`: the kernel counts the end states per opponent
    holding (:func:`hp1_counts_kernel`) and must weight and add them in the documented order (floating-point addition
    is not associative: the play of every preset depends on these exact floats); the unranked kernel agrees."""
    from loki.assessment.potential import board_triple_ranks, hp1_counts_kernel, hp1_from_counts, hp1_kernel_ranked

    rng = np.random.default_rng(77 + n_board)
    cards = [int(c) for c in rng.permutation(52)]
    hole, board = cards[:2], cards[2 : 2 + n_board]
    w = np.maximum(0.01, rng.random(N_HOLDINGS)) * rng.choice([1.0, 1e-3, 7.0], N_HOLDINGS)
    bd = np.array(sorted(board), dtype=np.int64)
    r3, pos = board_triple_ranks(bd, T)
    got, _ = hp1_kernel_ranked(hole[0], hole[1], bd, w, T, r3, pos)
    assert np.array_equal(got, _hp1_sums_in_kernel_order(hole, board, w))
    assert np.array_equal(hp1_kernel(hole[0], hole[1], bd, w, T)[0], got)
    hold, now, ends, k = hp1_counts_kernel(hole[0], hole[1], bd, T, r3, pos)
    assert k == 52 - 2 - n_board - 2 and (ends.sum(axis=1) == k).all() and len(set(hold.tolist())) == len(hold)
    assert np.array_equal(hp1_from_counts(hold, now, ends, k, w)[0], got)


def test_a_decisions_potential_reweights_the_counts_of_its_hand_and_board():
    """A decision's HP table (:func:`assess_field`: the end-state counts of its hole cards and board kept, weighted
    by each decision's range) is bit for bit :func:`hp1_kernel`'s, for the board's cards in any order, for a second
    and third range on the same hand and board (the kept counts read again) and for a multi-way field."""
    from loki.assessment import assess_field, hand_potential_counts
    from loki.assessment.hand import _own_hp1_counts

    rng = np.random.default_rng(2026)
    for it in range(12):
        cards = [int(c) for c in rng.permutation(52)]
        hole, board = (cards[0], cards[1]), tuple(cards[2 : 5 + it % 2])  # not sorted
        hits = _own_hp1_counts.cache_info().hits
        for k in (1, 1, 2):
            tables = [np.maximum(0.01, rng.random(N_HOLDINGS)) * rng.choice([1.0, 1e-3], N_HOLDINGS) for _ in range(k)]
            got = assess_field(hole, board, tables, k)
            field = tables[0] if k == 1 else field_array(tables, list(hole + board))
            hp, tot = hand_potential_counts(hole, board, field)
            assert np.array_equal(got.hp, hp) and np.array_equal(got.hp_total, tot)
        assert _own_hp1_counts.cache_info().hits >= hits + 2


def test_uniform_potential_kernel_equals_the_weighted_kernel_bit_for_bit():
    """Against the uniform range the integer-count kernel gives exactly the weighted kernel's floats,
    on flops and turns, with and without extra dead cards, on boards with and without a suit symmetry, and
    ``hand_potential_all_counts`` picks it for all-ones weights only."""
    from loki.assessment.potential import dead_array
    from loki.assessment.potential_all import board_triple_ranks, hp1_all_kernel, hp1_all_uniform_kernel

    rng = np.random.default_rng(1815)
    tabs = kernel_tables()
    ones = np.ones(N_HOLDINGS)
    for i in range(8):
        nb, extra = 3 + i % 2, (0, 2, 5, 0)[i % 4]
        cards = rng.choice(52, nb + extra, replace=False)
        board = np.sort(cards[:nb]).astype(np.int64)
        dead = dead_array([int(c) for c in cards])
        r3, pos = board_triple_ranks(board, tabs)
        want = hp1_all_kernel(board, dead, ones, tabs, r3, pos)
        got = hp1_all_uniform_kernel(board, dead, tabs, r3, pos)
        for a, b in zip(want, got):
            assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))
    # boards with a suit symmetry (the kernel sweeps one next card per class of interchangeable suits), with extra
    # dead cards that keep it (Qc Qs on a board without clubs and spades) or break it (Qc alone)
    for text in ("Ah Kh 7h", "Ah Kh 7d", "Ah As Kd", "2c 2d 2h", "Ah Kh 7d 2d", "As Ks 7s 2d", "Ah As Kd Kc"):
        for extra in ((), ("Qc", "Qs"), ("Qc",)):
            board = np.sort(np.array(parse_cards(text), dtype=np.int64))
            dead = dead_array([int(c) for c in board] + parse_cards(" ".join(extra)))
            r3, pos = board_triple_ranks(board, tabs)
            want = hp1_all_kernel(board, dead, ones, tabs, r3, pos)
            got = hp1_all_uniform_kernel(board, dead, tabs, r3, pos)
            for a, b in zip(want, got):
                assert np.array_equal(a.view(np.uint8), b.view(np.uint8)), (text, extra)
    w = ones.copy()
    live = [h for h in range(N_HOLDINGS) if not set(HOLDING_CARDS[h].tolist()) & {0, 9, 22}]
    w[live[100]] = 0.5  # not uniform: the weighted kernel, whose values differ
    hp_u, _, _ = hand_potential_all_counts([0, 9, 22], ones)
    hp_w, _, _ = hand_potential_all_counts([0, 9, 22], w)
    assert not np.array_equal(hp_u, hp_w)


def test_suit_images_find_the_interchangeable_suits():
    """Suits whose board and dead cards have the same ranks are one class, represented by the smallest: a monotone
    heart flop makes clubs, diamonds and spades one class; Ah As Kd makes hearts and spades one (both hold an ace
    only); an extra dead Qc separates clubs from a class; and a swap maps each pair to the pair with the suits
    swapped."""
    from loki.assessment.potential import dead_array
    from loki.assessment.potential_all import _suit_images, local_pairs
    from loki.assessment.strength import live_cards

    def images(text, extra=""):
        board = np.array(parse_cards(text), dtype=np.int64)
        dead = dead_array([int(c) for c in board] + parse_cards(extra))
        live, n = live_cards(dead)
        npairs, pid, phold, pa, pb = local_pairs(live, n)
        canon, pmap = _suit_images(board, dead, live, n, pid, pa, pb, npairs)
        return canon.tolist(), pmap, live, phold

    c, d, h, s = (parse_cards(x)[0] & 3 for x in ("2c", "2d", "2h", "2s"))
    canon, pmap, live, phold = images("Ah Kh 7h")
    assert canon[d] == canon[s] == c and canon[h] == h
    q = int(np.flatnonzero(phold == parse_holding("2s3c"))[0])
    assert phold[pmap[s, q]] == parse_holding("2c3s")  # spades stand for clubs: the swap of s and c
    assert images("Ah As Kd")[0][s] == h and images("Ah As Kd")[0][c] != h
    assert images("Ah Kh 7h", "Qc")[0][c] == c and images("Ah Kh 7h", "Qc")[0][s] == d


@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_showdown_counts_match_the_oracle_and_range_equity_is_equity(n_board):
    """Our showdown counts against each holding (``2·wins + ties`` over every completion) against the phevaluator
    enumeration (every holding on the turn and river, 80 random holdings on the flop), 0 for clashing holdings; and
    :func:`range_equity` from them equals :func:`equity` (the HP tables' sums) within 1e-12 on random ranges."""
    from loki.assessment import equity, range_equity, showdown_counts

    rng = np.random.default_rng(400 + n_board)
    for case in range(4):
        hole, board = random_case(rng, n_board)
        counts, k = showdown_counts(hole, board)
        known = set(hole) | set(board)
        deck = [c for c in range(52) if c not in known]
        assert k == {3: 990, 4: 44, 5: 1}[n_board]
        holdings = [h for h in range(N_HOLDINGS) if not known & {int(c) for c in HOLDING_CARDS[h]}]
        assert all(counts[h] == 0 for h in range(N_HOLDINGS) if h not in set(holdings))
        if n_board == 3:
            holdings = [int(h) for h in rng.choice(holdings, 80, replace=False)]
        for h in holdings:
            c0, c1 = (int(c) for c in HOLDING_CARDS[h])
            rest = [c for c in deck if c != c0 and c != c1]
            want = 0
            for comp in itertools.combinations(rest, 5 - n_board):
                ours, theirs = evaluate_7cards(*hole, *board, *comp), evaluate_7cards(c0, c1, *board, *comp)
                want += 2 if ours < theirs else (1 if ours == theirs else 0)
            assert counts[h] == want, (hole, board, h)
        w = random_weights(rng)
        assert range_equity(hole, board, w) == pytest.approx(equity(hole, board, w), abs=1e-12)
    with pytest.raises(RangeError):
        range_equity(hole, board, np.zeros(N_HOLDINGS))
    with pytest.raises(CardError):
        showdown_counts(hole, [hole[0], *board[1:]])


def test_uniform_board_values_skip_the_check_only_for_tuples_of_card_ints_checked_before(monkeypatch):
    """A board given as a tuple of Python ints that passed the card check is not parsed again (the Simulator and the
    re-weighting ask for the same boards at every decision): every spelling gives the same arrays, a tuple of other
    numbers equal to those ints is checked as before, bad cards still raise, and the kept boards are bounded."""
    import loki.assessment.hand as hand

    calls = []
    real = hand.check_cards

    def counted(*a, **k):
        calls.append(a)
        return real(*a, **k)

    monkeypatch.setattr(hand, "check_cards", counted)
    monkeypatch.setattr(hand, "_CHECKED_BOARDS", {})
    want = hand.uniform_board_values([0, 5, 9])
    assert len(calls) == 1
    for spelling in ((0, 5, 9), (0, 5, 9), "2c3d4d", (9, 0, 5)):
        got = hand.uniform_board_values(spelling)
        assert all(g is w for g, w in zip(got, want, strict=True))
    assert len(calls) == 4  # the list, the first int tuple, the text, the other order: the second (0, 5, 9) was kept
    for other in ((0.0, 5, 9), (np.int64(0), 5, 9), (False, 5, 9)):
        n = len(calls)
        hand.uniform_board_values(other)
        assert len(calls) == n + 1 and calls[-1][1] is other  # equal to a kept tuple, but checked
    with pytest.raises(CardError):
        hand.uniform_board_values((0, 5, 52))
    with pytest.raises(CardError):
        hand.uniform_board_values((0, 5, 5))
    monkeypatch.setattr(hand, "_CHECKED_BOARDS", {(i, 50, 51): (i, 50, 51) for i in range(4096)})
    hand.uniform_board_values((1, 2, 3))
    assert hand._CHECKED_BOARDS == {(1, 2, 3): (1, 2, 3)}  # full: emptied, then the new board kept
