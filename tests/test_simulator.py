"""Tests of the selective-sampling Simulator (Loki-2 feature S)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from loki.assessment.outs import ppot_outs
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, N_HOLDINGS, cards_mask, parse_cards
from loki.engine import Action
from loki.evaluator import evaluate, kernel_tables
from loki.simulator import SimConfig, SimSpot, decide_from_evs, simulate
from loki.triples import TripleConfig, board_values


def one_hot(text: str, w: float = 1.0) -> np.ndarray:
    a, b = parse_cards(text)
    out = np.zeros(N_HOLDINGS)
    out[HOLDING_INDEX[a, b]] = w
    return out


def spot2(hole, board, opp_w, *, me=1, pot=100.0, round_bets=(20.0, 0.0), acted=(True, False), bets=1, **kw):
    """Heads-up spot: seat order [opponent, us] by default (the opponent acted first and bet)."""
    m = 2
    weights = np.ones((m, N_HOLDINGS))
    weights[1 - me] = opp_w
    return SimSpot(
        hole=tuple(parse_cards(hole)),
        board=tuple(parse_cards(board)),
        me=me,
        active=np.ones(m, bool),
        round_bets=np.array(round_bets, float),
        acted=np.array(acted, bool),
        vol_in=np.array(acted, bool),
        weights=weights,
        pot=pot,
        bets_this_round=bets,
        bet_sizes=(10.0, 10.0, 20.0, 20.0),
        **kw,
    )


AC = SimConfig(trials=200, cutoff="none", always_call=True)


# --------------------------------------------------------------------------- exact hand computations
def test_river_known_hands_always_call_exact():
    # We hold the nut flush, the opponent trips; the opponent bet 20 into 80 (pot now 100).
    s = spot2("AhKh", "2h7h9hTc9d", one_hot("9c9s"))  # quads for the opponent? 9c9s + 9h9d -> four nines
    r = simulate(s, AC, seed=1)
    # the opponent has quads: calling loses 20, raising loses 40 (opponent calls)
    assert r.ev_call == -20.0 and r.ev_raise == -40.0 and r.sd_call == 0.0
    assert r.action is Action.FOLD and r.trials == 200

    s = spot2("AhKh", "2h7h9hTc9d", one_hot("QcQs"))
    r = simulate(s, AC, seed=1)
    # call: pot 100 + our 20 = 120 won, minus 20 invested; raise: we put 40, opponent 20 → 160 − 40
    assert r.ev_call == 100.0 and r.ev_raise == 120.0 and r.action is Action.RAISE


def test_river_split_pot_exact():
    s = spot2("2c3d", "AhKdQsJcTh", one_hot("4c5d"))  # both play the board's straight
    r = simulate(s, AC, seed=3)
    assert r.ev_call == pytest.approx(120 / 2 - 20) and r.ev_raise == pytest.approx(160 / 2 - 40)


def test_three_way_always_call_exact():
    # order [opp A (bet), opp B (yet to act), us]; A has the best hand
    m = 3
    w = np.ones((m, N_HOLDINGS))
    w[0] = one_hot("AsAc")
    w[1] = one_hot("KsKc")
    s = SimSpot(
        tuple(parse_cards("QdQh")),
        tuple(parse_cards("2c7d9hTs3h")),
        me=2,
        active=np.ones(3, bool),
        round_bets=np.array([20.0, 0.0, 0.0]),
        acted=np.array([True, False, False]),
        vol_in=np.array([True, False, False]),
        weights=w,
        pot=100.0,
        bets_this_round=1,
        bet_sizes=(10, 10, 20, 20),
    )
    r = simulate(s, AC, seed=0)
    assert r.ev_call == -20.0 and r.ev_raise == -40.0


def test_river_pt_playout_fully_determined():
    """Pure triples (widths 0): the monster bets/raises, our air folds to any bet."""
    board = "2c7d9hTsKh"
    hs1, _, _ = board_values(parse_cards(board))
    opp, us = "KsKd", "3d4c"  # trips of kings vs nothing
    assert hs1[HOLDING_INDEX[tuple(parse_cards(opp))]] > 0.95
    assert hs1[HOLDING_INDEX[tuple(parse_cards(us))]] < 0.05
    cfg = SimConfig(trials=100, cutoff="none", triple=TripleConfig(make_width=0.0, odds_width=0.0))
    # we act first on the river with nothing to call: order [us, opponent]
    s = spot2(us, board, one_hot(opp), me=0, pot=100.0, round_bets=(0.0, 0.0), acted=(False, False), bets=0)
    r = simulate(s, cfg, seed=2)
    # check → opponent bets (Make2) → we fold: 0;  bet 20 → opponent raises (Make2) → we fold: −20
    assert r.ev_call == 0.0 and r.ev_raise == -20.0 and r.action is Action.CALL
    # swapped roles: we hold the monster, the opponent air (it folds to a bet, checks behind)
    s = spot2(opp, board, one_hot(us), me=0, pot=100.0, round_bets=(0.0, 0.0), acted=(False, False), bets=0)
    r = simulate(s, cfg, seed=2)
    # check → opponent checks (air, no semi-bluff on the river) → we win 100; bet → opponent folds → 100
    assert r.ev_call == 100.0 and r.ev_raise == 100.0 and r.action is Action.RAISE  # tie → aggressive


# --------------------------------------------------------------------------- convergence
def _brute_turn_always_call(hole, board, w, pot, to_call, bet):
    """Exact EV(call), EV(raise) by enumeration: one opponent, turn, everyone calls down."""
    dead = set(hole) | set(board)
    ev_c = ev_r = tot_w = 0.0
    for h in range(N_HOLDINGS):
        a, b = (int(x) for x in HOLDING_CARDS[h])
        if w[h] <= 0 or a in dead or b in dead:
            continue
        rivers = [c for c in range(52) if c not in dead and c not in (a, b)]
        sc = sr = 0.0
        for rv in rivers:
            full = list(board) + [rv]
            ours = evaluate(list(hole) + full)
            theirs = evaluate([a, b] + full)
            share = 1.0 if ours > theirs else (0.5 if ours == theirs else 0.0)
            # call: pot + to_call, then river bet/call by both (always call → checks) : no more money
            sc += share * (pot + to_call) - to_call
            sr += share * (pot + to_call + 2 * bet) - (to_call + bet)
        ev_c += w[h] * sc / len(rivers)
        ev_r += w[h] * sr / len(rivers)
        tot_w += w[h]
    return ev_c / tot_w, ev_r / tot_w


def test_turn_always_call_converges_to_enumeration():
    rng = np.random.default_rng(5)
    hole, board = parse_cards("AhJd"), parse_cards("Jh8h3c2s")
    w = np.zeros(N_HOLDINGS)
    support = rng.choice(N_HOLDINGS, 40, replace=False)
    w[support] = rng.uniform(0.05, 1.0, 40)
    pot, to_call, bet = 100.0, 20.0, 20.0
    ec, er = _brute_turn_always_call(hole, board, w, pot, to_call, bet)
    s = spot2("AhJd", "Jh8h3c2s", w, pot=pot)
    r, (oc, orr, _) = simulate(
        s, SimConfig(trials=20000, cutoff="none", always_call=True, check_every=2000), seed=11, return_samples=True
    )
    se_c, se_r = oc.std() / np.sqrt(len(oc)), orr.std() / np.sqrt(len(orr))
    assert abs(r.ev_call - ec) < 4 * se_c + 1e-9
    assert abs(r.ev_raise - er) < 4 * se_r + 1e-9


def _py_play_river(hole_us, board, holds, pot, bet):
    """Python reference: river, everyone calls down; returns our outcome after calling 0 (check)."""
    ranks = [evaluate(list(h) + list(board)) for h in [hole_us] + holds]
    best = max(ranks)
    if ranks[0] < best:
        return 0.0
    return pot / sum(1 for x in ranks if x == best)


def test_two_opponents_river_converges_to_python_monte_carlo():
    """Sampled hands for two opponents: the kernel vs a plain Python Monte Carlo of the same scheme."""
    rng = np.random.default_rng(9)
    hole, board = parse_cards("KcQc"), parse_cards("Kd9s4h2c7c")
    m = 3
    w = np.ones((m, N_HOLDINGS))
    for p in (0, 1):
        w[p] = rng.uniform(0.01, 1.0, N_HOLDINGS) ** 3
    s = SimSpot(
        tuple(hole),
        tuple(board),
        me=2,
        active=np.ones(3, bool),
        round_bets=np.zeros(3),
        acted=np.array([True, True, False]),
        vol_in=np.zeros(3, bool),
        weights=w,
        pot=60.0,
        bets_this_round=0,
        bet_sizes=(10, 10, 20, 20),
    )
    r, (oc, _, _) = simulate(
        s, SimConfig(trials=6000, cutoff="none", always_call=True, check_every=1000), seed=4, return_samples=True
    )
    # Python: sequential roulette with card removal
    n_py = 3000
    out = np.empty(n_py)
    for t in range(n_py):
        used = np.uint64(cards_mask(list(hole) + list(board)))
        holds = []
        for p in (0, 1):
            pw = np.where((HOLDING_MASKS & used) == 0, w[p], 0.0)
            h = rng.choice(N_HOLDINGS, p=pw / pw.sum())
            holds.append(tuple(int(x) for x in HOLDING_CARDS[h]))
            used |= HOLDING_MASKS[h]
        out[t] = _py_play_river(hole, board, holds, 60.0, 20.0)
    se = np.sqrt(oc.var() / len(oc) + out.var() / n_py)
    assert abs(r.ev_call - out.mean()) < 4 * se


# --------------------------------------------------------------------------- sampling
def test_sampled_holdings_follow_weights_chi_square_and_never_share_cards():
    rng = np.random.default_rng(21)
    hole, board = parse_cards("AsKs"), parse_cards("QsJd2h")
    m = 3
    w = np.zeros((m, N_HOLDINGS))
    sup0 = rng.choice(N_HOLDINGS, 25, replace=False)
    sup1 = rng.choice(N_HOLDINGS, 25, replace=False)
    w[0, sup0] = rng.uniform(0.1, 1.0, 25)
    w[1, sup1] = rng.uniform(0.1, 1.0, 25)
    w[2] = 1.0
    s = SimSpot(
        tuple(hole),
        tuple(board),
        me=2,
        active=np.ones(3, bool),
        round_bets=np.zeros(3),
        acted=np.array([True, True, False]),
        vol_in=np.zeros(3, bool),
        weights=w,
        pot=30.0,
        bets_this_round=0,
        bet_sizes=(10, 10, 20, 20),
    )
    n = 8000
    _, (_, _, holes) = simulate(
        s, SimConfig(trials=n, cutoff="none", always_call=True, check_every=n), seed=7, return_samples=True
    )
    dead = set(hole) | set(board)
    live = np.array([not (int(a) in dead or int(b) in dead) for a, b in HOLDING_CARDS])
    # first opponent: ∝ its weights over holdings that miss our cards and the board
    p0 = np.where(live, w[0], 0.0)
    p0 /= p0.sum()
    cnt0 = np.bincount(holes[:, 0], minlength=N_HOLDINGS)
    keep = p0 > 0
    assert cnt0[~keep].sum() == 0
    assert stats.chisquare(cnt0[keep], p0[keep] * n).pvalue > 1e-3
    # second opponent: the marginal of the sequential scheme (card removal of opponent 0's holding)
    p1 = np.zeros(N_HOLDINGS)
    masks = [set(int(x) for x in HOLDING_CARDS[h]) for h in range(N_HOLDINGS)]
    for h0 in np.flatnonzero(p0):
        ok = np.array([live[h] and not (masks[h] & masks[h0]) for h in range(N_HOLDINGS)])
        q = np.where(ok, w[1], 0.0)
        p1 += p0[h0] * q / q.sum()
    cnt1 = np.bincount(holes[:, 1], minlength=N_HOLDINGS)
    keep1 = p1 > 0
    assert cnt1[~keep1].sum() == 0
    assert stats.chisquare(cnt1[keep1], p1[keep1] * n).pvalue > 1e-3
    # never shared cards
    for h0, h1 in holes[:, :2]:
        cards = set(masks[h0]) | set(masks[h1])
        assert len(cards) == 4 and not (cards & dead)


# --------------------------------------------------------------------------- cut-off and decisions
def test_paper_cutoff_fires_on_an_obvious_move():
    s = spot2("AhKh", "2h7h9hTc9d", one_hot("QcQs"))
    r = simulate(s, SimConfig(trials=500, cutoff="paper", always_call=True, min_trials=50, check_every=25), seed=1)
    assert r.cutoff and r.trials == 50 and r.action is Action.RAISE and r.rule == "paper"
    r = simulate(s, SimConfig(trials=500, cutoff="paired", always_call=True, min_trials=50, check_every=25), seed=1)
    assert r.cutoff and r.trials == 50
    r = simulate(s, SimConfig(trials=500, cutoff="none", always_call=True), seed=1)
    assert not r.cutoff and r.trials == 500


def test_paired_rule_is_more_liberal_than_paper_on_noisy_spots():
    rng = np.random.default_rng(3)
    paper = paired = 0
    for k in range(12):
        w = rng.uniform(0.01, 1.0, N_HOLDINGS) ** 2
        s = spot2("AhJd", "Jh8h3c", w, pot=60.0, round_bets=(10.0, 0.0))
        rp = simulate(s, SimConfig(trials=300, cutoff="paper"), seed=k)
        rq = simulate(s, SimConfig(trials=300, cutoff="paired"), seed=k)
        paper += rp.cutoff
        paired += rq.cutoff
        for r in (rp, rq):
            assert 50 <= r.trials <= 300 and np.isfinite(r.ev_call) and np.isfinite(r.ev_raise)
    assert paired >= paper


def test_decide_from_evs_ties_go_aggressive():
    assert decide_from_evs(0.0, 0.0, to_call=10, can_raise=True) is Action.RAISE
    assert decide_from_evs(0.0, -5.0, to_call=10, can_raise=True) is Action.CALL  # call over fold
    assert decide_from_evs(-1.0, -2.0, to_call=10, can_raise=True) is Action.FOLD
    assert decide_from_evs(-1.0, -2.0, to_call=0, can_raise=True) is Action.CALL  # never fold for free
    assert decide_from_evs(1.0, 5.0, to_call=10, can_raise=False) is Action.CALL


def test_simulation_is_reproducible_and_pt_mode_runs_on_every_street():
    w = np.ones(N_HOLDINGS)
    for board in ("Jh8h3c", "Jh8h3c2s", "Jh8h3c2s9d"):
        s = spot2("AhJd", board, w)
        a = simulate(s, SimConfig(trials=100, cutoff="none"), seed=5)
        b = simulate(s, SimConfig(trials=100, cutoff="none"), seed=5)
        assert a == b and a.trials == 100 and a.sd_call > 0


def test_sampling_wheel_is_numpys_cumsum_and_refuses_bad_weights():
    """The sampler's wheel (:func:`sampling_wheel`, one pass in a kernel) holds ``np.cumsum``'s floats bit for bit for
    the drawn rows (weights of every magnitude, zeros, subnormals) and zeros elsewhere, their totals; a NaN, a negative
    or an infinite weight in any row, drawn or not, makes it refuse, and :func:`simulate` raises then."""
    import dataclasses

    from loki.errors import RangeError
    from loki.simulator.playout import sampling_wheel

    rng = np.random.default_rng(47)
    for k in range(6):
        m = 2 + k
        w = rng.random((m, N_HOLDINGS)) * 10.0 ** rng.integers(-300, 300, (m, 1))
        w[rng.random((m, N_HOLDINGS)) < 0.3] = 0.0
        w[0, :5] = 5e-324
        drawn = rng.random(m) < 0.7
        cum, totals = np.full((m, N_HOLDINGS), np.nan), np.full(m, np.nan)
        assert sampling_wheel(w, drawn, cum, totals)
        want = np.where(drawn[:, None], np.cumsum(w, axis=1), 0.0)
        assert np.array_equal(cum, want) and np.array_equal(totals, want[:, -1])
        for bad in (np.nan, -1e-300, np.inf, -np.inf):
            for row in (0, m - 1):
                w2 = w.copy()
                w2[row, int(rng.integers(N_HOLDINGS))] = bad
                assert not sampling_wheel(w2, drawn, cum, totals)
    sp = spot2("AhKh", "2c7d9s", np.ones(N_HOLDINGS))
    weights = np.array(sp.weights, dtype=float)
    weights[sp.me, 3] = np.nan  # our own row, never drawn: still refused
    with pytest.raises(RangeError):
        simulate(dataclasses.replace(sp, weights=weights), SimConfig(trials=10))


def test_spot_validation():
    with pytest.raises(ValueError):
        spot2("AhKh", "AhKd2c", np.ones(N_HOLDINGS))  # overlapping cards
    with pytest.raises(ValueError):
        SimConfig(cutoff="bogus")


def test_ppot_outs_heuristic():
    def po(hole, board):
        b = np.zeros(5, dtype=np.int64)
        bc = parse_cards(board)
        b[: len(bc)] = bc
        h = parse_cards(hole)
        return ppot_outs(h[0], h[1], b, len(bc), kernel_tables())

    assert po("AhKh", "2h7h9c") == pytest.approx((9 + 3) / 47)  # flush draw + two overcards
    assert po("8c9d", "6h7s2c") == pytest.approx((8 + 3) / 47)  # open-ended + two overcards
    assert po("8c9d", "6h5s2c") == pytest.approx((4 + 3) / 47)  # gutshot + two overcards
    assert po("8c9d", "6h7s2c5d") == 0.0  # made straight: no draw outs counted
    assert po("AhKh", "2h7h9c5d3s") == 0.0  # river
    assert po("5c5d", "Ah9s2c") == pytest.approx(2 / 47)  # set-up from a pair


def _py_pt_river(forced, hs, u, share_us, pot, cfg):
    """Python reference of the heads-up river play-out with PT actions (order [us, opponent], we act first)."""
    from loki.triples import triples_all
    from loki.triples.spot import BettingSpot

    active, rb, need, vol = [True, True], [0.0, 0.0], [True, True], [False, False]
    bets, maxbet, invest, first, cur = 0, 0.0, 0.0, True, 0
    while True:
        p = next((q for q in (cur, 1 - cur) if active[q] and need[q]), None)
        if p is None:
            break
        to_call, can = maxbet - rb[p], bets < 4
        if first:
            a, first = forced, False
        else:
            spot = BettingSpot(3, pot, to_call, 20.0, bets, vol[p], can, next_bet_size=0.0)
            f, c, _ = triples_all(hs[p], hs[p], hs[p], 0.0, spot, cfg)[0]
            a = 0 if u[p] < f else (1 if u[p] < f + c else 2)
        if a == 0 and to_call <= 0:
            a = 1
        if a == 2 and not can:
            a = 1
        need[p] = False
        if a == 0:
            active[p] = False
            break
        amt = to_call + (20.0 if a == 2 else 0.0)
        if amt > 0:
            rb[p] += amt
            pot += amt
            vol[p] = True
            invest += amt if p == 0 else 0.0
        if a == 2:
            maxbet += 20.0
            bets += 1
            need[1 - p] = True
        cur = 1 - p
    if not active[0]:
        return -invest
    if not active[1]:
        return pot - invest
    return share_us * pot - invest


def test_river_pt_playout_converges_to_python_reference():
    rng = np.random.default_rng(13)
    board = parse_cards("Qd9s5h2c7c")
    hole = parse_cards("Qc8c")
    w = rng.uniform(0.01, 1.0, N_HOLDINGS) ** 2
    cfg = SimConfig(trials=6000, cutoff="none", check_every=1000)
    s = spot2("Qc8c", "Qd9s5h2c7c", w, me=0, pot=100.0, round_bets=(0.0, 0.0), acted=(False, False), bets=0)
    r, (oc, orr, _) = simulate(s, cfg, seed=8, return_samples=True)
    hs1, _, _ = board_values(board)
    ours = evaluate(list(hole) + list(board))
    h_us = HOLDING_INDEX[hole[0], hole[1]]
    live = (HOLDING_MASKS & np.uint64(cards_mask(list(hole) + list(board)))) == 0
    pw = np.where(live, w, 0.0)
    n_py = 3000
    hs_opp = rng.choice(N_HOLDINGS, n_py, p=pw / pw.sum())
    out_c, out_r = np.empty(n_py), np.empty(n_py)
    for t, h in enumerate(hs_opp):
        theirs = evaluate([int(x) for x in HOLDING_CARDS[h]] + list(board))
        share = 1.0 if ours > theirs else (0.5 if ours == theirs else 0.0)
        u = rng.random(2)
        hs = [hs1[h_us], hs1[h]]
        out_c[t] = _py_pt_river(1, hs, u, share, 100.0, cfg.triple)
        out_r[t] = _py_pt_river(2, hs, u, share, 100.0, cfg.triple)
    for sim_o, py_o in ((oc, out_c), (orr, out_r)):
        se = np.sqrt(sim_o.var() / len(sim_o) + py_o.var() / n_py)
        assert abs(sim_o.mean() - py_o.mean()) < 4 * se


def test_values_on_board_equal_a_plain_loop():
    """The play-out's per-board hand values (ranks from the board cache shared by all players, branch-free sums,
    the board's uniform HS_1 for all-ones fields, and as the percentile of a player ranked among all the holdings) are
    the very floats of a plain loop adding the weights in holding order;
    only the players marked ``todo`` are computed, and a second request of a player's holding on a board is read
    from the decision's memo (the same floats, nothing recomputed)."""
    from loki.evaluator import rank_batch
    from loki.simulator.playout import _board_slot, _memo, _Trial, _values_on_board, board_cache

    tables = kernel_tables()
    rng = np.random.default_rng(15)
    m = 6
    cache = board_cache(8)
    for trial in range(12):
        cards = rng.choice(52, 5 + 2 * m, replace=False)
        board = cards[:5].astype(np.int64)
        hole = cards[5:].reshape(m, 2).astype(np.int64)
        active = rng.random(m) < 0.8
        field_w = np.ones((m, N_HOLDINGS))
        for p in range(m):
            if trial % 2 or p % 3 == 1:  # random fields, some zero weights; else all ones (the uniform play-out)
                field_w[p] = rng.random(N_HOLDINGS) * (rng.random(N_HOLDINGS) < 0.8)
        own_w = rng.random((m, N_HOLDINGS))
        own_w[rng.random(m) < 0.4] = 1.0  # ranked among all the holdings
        want_q = rng.random(m) < 0.6
        unit = np.array([bool(np.all(field_w[p] == 1.0)) for p in range(m)])
        rank_unit = np.array([bool(np.all(own_w[p] == 1.0)) for p in range(m)])
        memo = _memo(64)
        for nb in (3, 4, 5):
            slot, _ = _board_slot(cache, board, nb, tables)
            hs = np.full(m, -1.0)
            q = np.full(m, -1.0)
            t = _Trial(
                board, nb, hole, active, field_w, own_w, want_q, unit, rank_unit, hs, q, active.copy(), False, cache,
                memo,
            )  # fmt: skip
            _values_on_board(cache, slot, t, nb)
            ranks = rank_batch(np.concatenate([HOLDING_CARDS, np.tile(board[:nb], (N_HOLDINGS, 1))], axis=1))
            bmask = cards_mask([int(c) for c in board[:nb]])
            for p in range(m):
                if not active[p]:
                    assert hs[p] == -1.0 and q[p] == -1.0
                    continue
                hp = HOLDING_INDEX[hole[p, 0], hole[p, 1]]
                mp = int(HOLDING_MASKS[hp]) | bmask
                sums = [0.0] * 6  # ahead, tied, total against the field; the same in its own range
                for h in range(N_HOLDINGS):
                    if int(HOLDING_MASKS[h]) & mp == 0:
                        for k, w in ((0, field_w[p, h]), (3, own_w[p, h])):
                            sums[k + 2] += w
                            if ranks[h] < ranks[hp]:
                                sums[k] += w
                            elif ranks[h] == ranks[hp]:
                                sums[k + 1] += w
                assert hs[p] == ((sums[0] + 0.5 * sums[1]) / sums[2] if sums[2] > 0 else 0.0)
                if want_q[p]:
                    assert q[p] == ((sums[3] + 0.5 * sums[4]) / sums[5] if sums[5] > 0 else 0.5)
                else:
                    assert q[p] == -1.0
            kept = int(memo.used[0])
            assert kept == 0 or kept == int(active.sum()) * (nb - 2)  # one entry per player and board
            hs2 = np.full(m, -1.0)
            q2 = np.full(m, -1.0)
            todo = active & (np.arange(m) % 2 == 0)  # only these are asked for again
            t2 = t._replace(hs_tmp=hs2, q_tmp=q2, todo=todo)
            _values_on_board(cache, slot, t2, nb)
            assert int(memo.used[0]) == kept  # read from the memo
            assert np.array_equal(hs2[todo], hs[todo]) and np.all(hs2[~todo] == -1.0)
            assert np.array_equal(q2[todo & want_q], q[todo & want_q]) and np.all(q2[~(todo & want_q)] == -1.0)


def test_simulate_reuses_nothing_across_decisions():
    """What a decision keeps (its memo of later-street values) belongs to it, and the process's board cache holds
    functions of the board only: a decision on another board after it gives the same result as on its own."""
    rng = np.random.default_rng(3)
    spots = []
    for _ in range(2):
        cards = [int(c) for c in rng.choice(52, 5, replace=False)]
        w = np.ones((3, N_HOLDINGS))
        spots.append(
            SimSpot(
                (cards[0], cards[1]),
                tuple(cards[2:]),
                0,
                np.ones(3, bool),
                np.zeros(3),
                np.zeros(3, bool),
                np.zeros(3, bool),
                w,
                30.0,
                0,
                2,
                (10.0, 10.0, 20.0, 20.0),
            )  # fmt: skip
        )
    cfg = SimConfig(trials=100, cutoff="none")
    alone = simulate(spots[1], cfg, seed=5)
    simulate(spots[0], cfg, seed=5)
    assert simulate(spots[1], cfg, seed=5) == alone


def test_ppot_outs_kernel_equals_the_reference_counting():
    """The bit-mask ppot_outs against the first, array-counting version (tests/reference_rules.py), exactly,
    on 6,000 random flop and turn hands plus constructed straight and flush draws."""
    from reference_rules import reference_ppot_outs

    tables = kernel_tables()
    rng = np.random.default_rng(1515)
    spots = []
    for _ in range(6000):
        p = rng.permutation(52)[:7]
        spots.append((int(p[0]), int(p[1]), p[2:].astype(np.int64), 3 + int(rng.integers(0, 3))))
    for h, b in [("5h6h", "7h8c2d"), ("Ah2c", "3d4s9h"), ("KsQs", "JsTd2s"), ("9c9d", "9h5c2s"), ("AhKd", "QcJsTh")]:
        hc, bc = parse_cards(h), parse_cards(b)
        spots.append((hc[0], hc[1], np.array(bc + [0, 1], dtype=np.int64)[:5], 3))
    for c0, c1, board, nb in spots:
        assert ppot_outs(c0, c1, board, nb, tables) == reference_ppot_outs(c0, c1, board, nb)


# ------------------------------------------------------------------------- per-decision kernel, board cache
def _random_spot(rng, street=3, m=6):
    """A random spot at a ``m``-seat table, 3 to 4 live players, random weight tables (the kernel tests' input)."""
    cards = rng.choice(52, 4 + street, replace=False)
    live = np.sort(rng.choice(m, int(rng.integers(3, 5)), replace=False))
    active = np.zeros(m, bool)
    active[live] = True
    me = int(live[int(rng.integers(len(live)))])
    w = rng.random((m, N_HOLDINGS)) * (rng.random((m, N_HOLDINGS)) < 0.5)
    facing = rng.random() < 0.5
    rb = np.zeros(m)
    acted = np.zeros(m, bool)
    if facing:  # the first live player bet, the others before us called
        for s in live[: list(live).index(me)]:
            rb[s] = 10.0
            acted[s] = True
    return SimSpot(
        hole=(int(cards[0]), int(cards[1])),
        board=tuple(int(c) for c in cards[2:]),
        me=me,
        active=active,
        round_bets=rb,
        acted=acted,
        vol_in=rb > 0,
        weights=w,
        pot=60.0 + float(rb.sum()),
        bets_this_round=int(rb.max() > 0),
    )


def test_uniform_hs_of_the_board_cache_equals_the_per_player_loop():
    """The board cache's HS_1 (ranks once per board, one holding at a time, kept as the whole number of its count)
    is the very float the play-out's per-player loop (:func:`_values_on_board`, all-ones field) computes, on 4- and
    5-card boards; the live holdings it packs on its first request are those disjoint from the board in holding
    order; a 4-card board gets a row of outs potentials, none asked yet; a full cache is emptied and refilled."""
    from loki.evaluator import rank_batch
    from loki.simulator.playout import _board_slot, _hs_of, _memo, _Trial, _uniform_code, _values_on_board, board_cache

    tables = kernel_tables()
    rng = np.random.default_rng(25)
    cache = board_cache(8)
    rows = 0
    for k in range(10):
        nb = 4 + k % 2
        board = np.zeros(5, np.int64)
        board[:nb] = rng.choice(52, nb, replace=False)
        slot, bmask = _board_slot(cache, board, nb, tables)
        assert bmask == cards_mask([int(c) for c in board[:nb]])
        assert cache.used[0] <= 6  # 3/4 of 8 slots, then emptied
        assert not cache.hs[slot].any()  # no HS_1 asked yet
        row = cache.tp[slot]  # a row of potentials for a 4-card board while one is left (one in a cache of 8 slots)
        assert row == -1 if nb == 5 else (row == -1 or (cache.pp[row] == -1.0).all())
        rows += row >= 0
        n = int(cache.n[slot])
        live = np.flatnonzero((HOLDING_MASKS & np.uint64(bmask)) == 0)
        ranks = rank_batch(np.concatenate([HOLDING_CARDS, np.tile(board[:nb], (N_HOLDINGS, 1))], axis=1))
        assert np.array_equal(cache.lr[slot, :n], ranks[live]) and np.array_equal(cache.r[slot, live], ranks[live])
        hole = HOLDING_CARDS[live].astype(np.int64)
        ones = np.ones((n, N_HOLDINGS))
        hs = np.zeros(n)
        t = _Trial(
            board, nb, hole, np.ones(n, bool), ones, ones, np.zeros(n, bool), np.ones(n, bool), np.ones(n, bool), hs,
            np.zeros(n), np.ones(n, bool), False, cache, _memo(4),
        )  # fmt: skip
        assert not cache.packed[slot]
        _values_on_board(cache, slot, t, nb)
        assert cache.packed[slot] and n == live.size and np.array_equal(cache.lh[slot, :n], live)
        codes = [_uniform_code(cache.r, cache.lr, cache.n[slot], slot, int(h), bmask) for h in live]
        assert np.array_equal(np.array([_hs_of(c, cache.n[slot], nb) for c in codes]), hs)
        for i in range(0, n, 7):  # against the counts themselves: the holdings disjoint from the board and the hand
            others = live[(HOLDING_MASKS[live] & HOLDING_MASKS[live[i]]) == 0]
            r, rp = ranks[others], ranks[live[i]]
            assert hs[i] == (float((r < rp).sum()) + 0.5 * float((r == rp).sum())) / float(others.size)
        assert 0 < min(codes) and max(codes) < 2**16  # fits the cache's uint16 row, 0 left for "not asked yet"
        if nb == 4:  # the cached PPot is read for either order of the hole cards: ppot_outs is symmetric
            for h in live[::7]:
                a, b = (int(c) for c in HOLDING_CARDS[h])
                assert ppot_outs(a, b, board, nb, tables) == ppot_outs(b, a, board, nb, tables)
        assert _board_slot(cache, board, nb, tables)[0] == slot  # found again
        cache.hs[slot] = 7  # as if every value were asked: a new board in this slot must clear them
        if row >= 0:
            cache.pp[row] = 0.5
    assert rows >= 2  # the row is given again after the cache is emptied


def test_outs_potential_rows_go_in_turn_the_oldest_board_losing_its_row():
    """A 4-card board of the :class:`BoardCache` gets a row of outs potentials even when every row is given: rows go
    in turn and the oldest board's row is taken (that board keeps its ranks, its potentials are then computed when
    asked, the same floats: :func:`ppot_outs`)."""
    from loki.simulator.playout import _board_slot, _cached_ppot, board_cache

    tables = kernel_tables()
    rng = np.random.default_rng(43)
    cache = board_cache(64)  # 8 rows of potentials
    n_rows = cache.pp.shape[0]
    assert n_rows == 8
    boards, slots = [], []
    while len(boards) < 12:
        board = np.zeros(5, np.int64)
        board[:4] = rng.choice(52, 4, replace=False)
        if any(set(board[:4]) == set(b[:4]) for b in boards):
            continue
        slot, _ = _board_slot(cache, board, 4, tables)
        row = int(cache.tp[slot])
        assert row == len(boards) % n_rows and (cache.pp[row] == -1.0).all()  # in turn, none asked yet
        boards.append(board)
        slots.append(slot)
    rows = [int(cache.tp[s]) for s in slots]
    assert rows[:4] == [-1] * 4 and sorted(rows[4:]) == list(range(n_rows))  # the four oldest lost theirs
    for board, slot in zip(boards, slots, strict=True):
        assert _board_slot(cache, board, 4, tables)[0] == slot  # still in the cache, ranked
        live = np.flatnonzero((HOLDING_MASKS & np.uint64(cards_mask([int(c) for c in board[:4]]))) == 0)
        for h in live[::97]:
            a, b = (int(c) for c in HOLDING_CARDS[h])
            want = ppot_outs(a, b, board, 4, tables)
            assert _cached_ppot(cache.pp, cache.tp[slot], int(h), board, 4, tables) == want
            if cache.tp[slot] >= 0:
                assert cache.pp[cache.tp[slot], h] == want  # kept in the board's row


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 127, 128, 129, 250, 500, 1000, 4099])
def test_kernel_sums_are_numpys_pairwise_sums(n):
    """``_np_sum`` and ``_mean_sd`` give numpy's floats bit for bit (the cut-off must decide as numpy would)."""
    from loki.modeler.kernels import np_sum as _np_sum
    from loki.simulator.playout import _mean_sd

    rng = np.random.default_rng(n)
    for scale in (1.0, 1e3, 1e-3):
        x = rng.normal(size=n) * scale + rng.choice([0.0, 55.0])
        assert _np_sum(x) == np.add.reduce(x)
        m, s = _mean_sd(x)
        assert m == x.mean()
        if n > 1:
            assert s == x.std(ddof=1)


def test_kernel_cutoff_equals_the_python_rule():
    """The per-decision kernel's cut-off (numba) agrees with the driver's numpy rule on random outcomes, near-ties
    included, for both rules and every candidate set."""
    from loki.simulator.driver import _cutoff as py_cutoff
    from loki.simulator.playout import RULE_PAIRED, RULE_PAPER, _cutoff

    rng = np.random.default_rng(7)
    fired = {"paper": 0, "paired": 0}
    for k in range(400):
        n = int(rng.integers(2, 300))
        oc = np.round(rng.normal(float(rng.normal(0, 5)), 20, n) * 2) / 2
        orr = oc + np.round(rng.normal(float(rng.normal(0, 3)), 8, n))
        to_call = float(rng.choice([0.0, 10.0]))
        can_raise = bool(rng.random() < 0.8)
        for rule, code in (("paper", RULE_PAPER), ("paired", RULE_PAIRED)):
            want = py_cutoff(rule, 3.0, oc, orr, to_call, can_raise)
            assert _cutoff(code, 3.0, oc, orr, to_call, can_raise) == want
            fired[rule] += want
    assert 20 < fired["paper"] < 380 and 20 < fired["paired"] < 380


def _kernel_arguments(sp, cfg, seed):
    """The ``(pspot, ranges, policies, tables)`` that ``simulate(sp, cfg, seed)`` hands the ``sim_decision`` kernel
    (captured by wrapping it for one call)."""
    import loki.simulator.driver as drv

    grab = {}
    orig = drv.sim_decision

    def capture(*a):
        grab["a"] = a
        return orig(*a)

    drv.sim_decision = capture
    try:
        simulate(sp, cfg, seed=seed)
    finally:
        drv.sim_decision = orig
    a = grab["a"]
    return a[8], a[9], a[10], a[15]


@pytest.mark.parametrize("cutoff", ["paper", "paired", "none"])
def test_one_kernel_call_per_decision_equals_the_batches(cutoff):
    """``sim_decision`` (every batch and cut-off check in one kernel call) gives the trials, outcomes and sampled
    holdings of the batch-by-batch driver (``sim_batch`` per batch, the numpy cut-off between them)."""
    from loki.betting import can_raise as bt_can_raise
    from loki.betting import to_call as bt_to_call
    from loki.simulator.driver import _cutoff as py_cutoff
    from loki.simulator.driver import spot_state
    from loki.simulator.playout import board_cache, sim_batch

    rng = np.random.default_rng(3)
    cfg = SimConfig(trials=300, cutoff=cutoff, min_trials=50, check_every=25)
    for k in range(6):
        sp = _random_spot(rng, street=1 + k % 3)
        seed = int(rng.integers(2**31 - 1))
        res, (oc, orr, holes) = simulate(sp, cfg, seed=seed, return_samples=True)
        pspot, ranges, policies, tables = _kernel_arguments(sp, cfg, seed)
        st0 = spot_state(sp)
        tc, cr = float(bt_to_call(st0, sp.me)), bool(bt_can_raise(st0, sp.me))
        n = cfg.trials
        c2, r2, h2 = np.zeros(n), np.zeros(n), np.full((n, len(sp.active)), -1, np.int64)
        done, batch, bc = 0, 0, board_cache(64)
        while done < n:
            kk = min(cfg.check_every, n - done)
            bseed = (seed * 1_000_003 + batch * 7919 + 12345) % (2**31 - 1)
            sim_batch(bseed, kk, pspot, ranges, policies, c2[done:], r2[done:], h2[done:], bc, tables)
            done += kk
            batch += 1
            if (
                cutoff != "none"
                and cfg.min_trials <= done < n
                and py_cutoff(cutoff, cfg.z, c2[:done], r2[:done], tc, cr)
            ):
                break
        assert res.trials == done
        assert np.array_equal(oc, c2[:done]) and np.array_equal(orr, r2[:done]) and np.array_equal(holes, h2[:done])


def test_uniform_playout_outcomes_do_not_depend_on_the_board_cache():
    """The uniform play-out reads its later streets' HS_1 and PPot from the :class:`BoardCache` (computed on first
    request, 0 and -1 before): a fresh cache, the same cache warm (every value read back) and a cache of 4 slots
    (emptied every third board, so values are recomputed, with one row of potentials, so some 4-card boards have
    none) give the same outcomes, bit for bit."""
    from loki.simulator.playout import board_cache, sim_batch

    rng = np.random.default_rng(31)
    cfg = SimConfig(trials=60, cutoff="none")
    for k in range(6):
        sp = _random_spot(rng, street=1 + k % 2)
        pspot, ranges, policies, tables = _kernel_arguments(sp, cfg, k)
        assert not policies.believed
        fresh, tiny = board_cache(64), board_cache(4)
        outs = []
        for bc in (fresh, fresh, tiny):
            n = cfg.trials
            oc, orr, holes = np.zeros(n), np.zeros(n), np.full((n, len(sp.active)), -1, np.int64)
            sim_batch(k + 1, n, pspot, ranges, policies, oc, orr, holes, bc, tables)
            outs.append((oc, orr, holes))
        assert fresh.hs.any() and tiny.pp.shape[0] == 1
        for oc, orr, holes in outs[1:]:
            assert np.array_equal(oc, outs[0][0]) and np.array_equal(orr, outs[0][1])
            assert np.array_equal(holes, outs[0][2])


def test_class_ranked_river_boards_give_every_holding_the_same_hs():
    """A river board with at most four cards of a suit is ranked by rank class for the uniform play-out
    (:func:`_board_slot_uniform`: 169 class ranks, and the holdings that make a flush one by one);
    :func:`_class_code` counts the same integers as :func:`_uniform_code` on the board ranked by holding, so every
    live holding gets the same HS_1, with no, three and four cards of a suit on the board.  Five suited cards and turn
    boards are ranked by holding; :func:`_board_slot` ranks a class slot by holding when another reader asks for the
    board, its known HS_1 kept."""
    from loki.simulator.playout import (
        _board_slot,
        _board_slot_uniform,
        _class_code,
        _flush_suit,
        _uniform_code,
        board_cache,
    )

    tables = kernel_tables()
    rng = np.random.default_rng(26)
    by_class, by_holding = board_cache(64), board_cache(64)
    n_class = np.zeros(6, int)
    for k in range(60):
        nb = 4 if k % 8 == 0 else 5
        board = np.zeros(5, np.int64)
        if k % 10 == 3:  # four or five cards of a suit (random boards rarely have them)
            suited = rng.choice(13, 4 + k % 20 // 10, replace=False) * 4 + int(rng.integers(4))
            rest = [c for c in rng.permutation(52) if c not in suited][: 5 - suited.size]
            board[:] = np.concatenate([suited, rest])
        else:
            board[:nb] = rng.choice(52, nb, replace=False)
        bmask = np.uint64(cards_mask([int(c) for c in board[:nb]]))
        most = np.bincount(board[:nb] % 4, minlength=4).max()
        assert _flush_suit(bmask)[1] == (most if most >= 3 else 0)
        slot = _board_slot_uniform(by_class, board, nb, tables)
        ref, _ = _board_slot(by_holding, board, nb, tables)
        want_nf = {0: 0, 1: 0, 2: 0, 3: 45, 4: 378}.get(int(most), -1)
        assert by_class.keys[slot] == bmask
        assert by_class.cls[slot] == (1 + want_nf if nb == 5 and most <= 4 else 0)
        assert by_class.n[slot] == by_holding.n[ref] and not by_class.hs[slot].any()
        live = np.flatnonzero((HOLDING_MASKS & bmask) == 0)
        want = [_uniform_code(by_holding.r, by_holding.lr, by_holding.n[ref], ref, int(h), bmask) for h in live]
        if not by_class.cls[slot]:
            continue
        n_class[most] += 1
        nf = int(by_class.cls[slot]) - 1
        got = [_class_code(by_class.lr, by_class.r, by_class.lh, nf, slot, int(h), bmask) for h in live]
        assert got == want
        by_class.hs[slot, live[:2]] = want[:2]  # two values known: kept when the slot is ranked by holding
        assert _board_slot(by_class, board, nb, tables)[0] == slot
        n = int(by_class.n[slot])
        assert not by_class.cls[slot] and list(by_class.hs[slot, live[:2]]) == want[:2]
        assert np.array_equal(by_class.r[slot, live], by_holding.r[ref, live])
        assert np.array_equal(by_class.lr[slot, :n], by_holding.lr[ref, :n])
    assert n_class[2] >= 10 and n_class[3] >= 5 and n_class[4] >= 1


def test_class_rank_table_holds_the_evaluators_rank_of_every_class_without_a_flush():
    """:func:`class_rank_table` (read for every river board ranked by class): its row of a board's multiset of card
    ranks (:func:`_rank_multiset`, one index per multiset of five ranks with at most four of each, all of them
    distinct) holds, for every class of two card ranks with two cards left that make no flush, the evaluator's rank
    of those seven cards as cards (:func:`loki.evaluator.evaluate`: suits and all, not the rank sum), on boards with
    no, three and four cards of a suit; -1 only where the seven would hold five cards of a rank."""
    import itertools

    from loki.simulator.playout import N_RANK_MULTISETS, _class_column, _flush_suit, _rank_multiset, class_rank_table

    table = class_rank_table()
    assert table.shape == (N_RANK_MULTISETS, 91) and table.dtype == np.int16 and not table.flags.writeable
    assert sorted(_class_column(x, y) for x in range(13) for y in range(x + 1)) == list(range(91))  # one per class
    seen = set()
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards = [4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)]  # suits free: any cards of the ranks
        idx = int(_rank_multiset(np.uint64(cards_mask(cards))))
        assert 0 <= idx < N_RANK_MULTISETS and idx not in seen
        seen.add(idx)
        for x in range(13):
            for y in range(x + 1):
                five = ranks.count(x) + 1 + (x == y) > 4 or ranks.count(y) + 1 > 4
                assert (table[idx, _class_column(x, y)] == -1) == five
    assert len(seen) == 6175  # multisets of five ranks, at most four of each
    rng = np.random.default_rng(41)
    checked = np.zeros(5, int)
    for k in range(150):
        if k % 3 == 0:  # three or four cards of a suit
            suit = int(rng.integers(4))
            suited = [int(4 * r + suit) for r in rng.choice(13, 3 + k % 2, replace=False)]
            board = suited + [int(c) for c in rng.permutation(52) if c not in suited][: 5 - len(suited)]
        else:
            board = [int(c) for c in rng.choice(52, 5, replace=False)]
        bmask = np.uint64(cards_mask(board))
        fs, fc = _flush_suit(bmask)
        if fc == 5:
            continue
        checked[fc] += 1
        row = table[int(_rank_multiset(bmask))]
        off = [c for c in range(52) if c not in board]
        for a, b in itertools.combinations(off, 2):
            if fs >= 0 and fc + (a % 4 == fs) + (b % 4 == fs) >= 5:
                continue  # a flush: ranked one by one
            x, y = max(a // 4, b // 4), min(a // 4, b // 4)
            if (a + b) % 7 == 0:  # a sample of the holdings (every class is reached many times)
                assert row[_class_column(x, y)] == evaluate(board + [a, b]), (board, a, b)
    assert checked[0] >= 30 and checked[3] >= 20 and checked[4] >= 20


def test_uniform_playout_outcomes_are_those_of_river_boards_ranked_by_holding():
    """The uniform play-out of a turn decision with every river board already in the cache ranked by holding
    (:func:`_board_slot`, read by :func:`_uniform_code`) and with a fresh cache (the boards without a flush ranked by
    class, read by :func:`_class_code`) gives the same outcomes, bit for bit."""
    from loki.simulator.playout import _board_slot, board_cache, sim_batch

    rng = np.random.default_rng(32)
    cfg = SimConfig(trials=80, cutoff="none")
    tables = kernel_tables()
    n_class = 0
    for k in range(6):
        sp = _random_spot(rng, street=2)
        pspot, ranges, policies, tables = _kernel_arguments(sp, cfg, k)
        fresh, ranked = board_cache(256), board_cache(256)
        board = np.zeros(5, np.int64)
        board[:4] = sp.board
        for c in range(52):
            if c not in sp.board:
                board[4] = c
                _board_slot(ranked, board, 5, tables)
        outs = []
        for bc in (fresh, ranked):
            n = cfg.trials
            oc, orr, holes = np.zeros(n), np.zeros(n), np.full((n, len(sp.active)), -1, np.int64)
            sim_batch(k + 1, n, pspot, ranges, policies, oc, orr, holes, bc, tables)
            outs.append((oc, orr, holes))
        n_class += int((fresh.cls != 0).sum())
        assert not ranked.cls.any()
        assert np.array_equal(outs[0][0], outs[1][0]) and np.array_equal(outs[0][1], outs[1][1])
        assert np.array_equal(outs[0][2], outs[1][2])
    assert n_class > 0


def test_seeds_past_the_int64_range_of_the_kernel_give_the_batch_seeds_of_python_integers():
    """The batch seeds are ``(seed · 1,000,003 + b · 7919 + 12345) mod (2³¹ − 1)`` in Python integers; a seed beyond
    what int64 arithmetic could multiply gives the same decision as its residue."""
    sp = _random_spot(np.random.default_rng(9), street=2)
    cfg = SimConfig(trials=100, cutoff="none")
    big = 2**70 + 12345
    a = simulate(sp, cfg, seed=big)
    b = simulate(sp, cfg, seed=big % (2**31 - 1))
    assert (a.ev_call, a.ev_raise, a.trials) == (b.ev_call, b.ev_raise, b.trials)


def test_the_kept_state_of_a_spot_is_its_spot_state():
    """``simulate``, ``SimSpot.to_call`` and ``SimSpot.can_raise`` read the state vector built once per spot: the one
    :func:`spot_state` builds, kept (the same array on every read), and the answers are those of a fresh build."""
    from loki.betting import can_raise as bt_can_raise
    from loki.betting import to_call as bt_to_call
    from loki.simulator.driver import spot_state

    rng = np.random.default_rng(41)
    for k in range(8):
        sp = _random_spot(rng, street=1 + k % 3)
        fresh = spot_state(sp)
        assert sp.to_call == float(bt_to_call(fresh, sp.me)) and sp.can_raise == bool(bt_can_raise(fresh, sp.me))
        kept = sp.state
        assert np.array_equal(kept, fresh) and sp.state is kept


def test_believed_values_equal_the_plain_player_by_player_computation():
    """The believed play-out's values on the decision's street (fields, HS_1 against them, percentiles in the own
    ranges, or among all the holdings for deck-ranked players), with the checks done once and the holdings ranked once
    for every player, are the very floats of field_array and hand_strength_all player by player
    (:func:`_believed_values_plain`), on 3- to 5-card boards, with folded players, zero weights and players with and
    without percentiles."""
    from types import SimpleNamespace

    from loki.assessment import hand_strength_all
    from loki.simulator.driver import _believed_values, _believed_values_plain, _rank_rows

    rng = np.random.default_rng(2024)
    for case in range(12):
        m = 2 + case % 5
        board = tuple(int(c) for c in rng.choice(52, 3 + case % 3, replace=False))
        active = rng.random(m) < 0.75
        me = int(rng.integers(m))
        active[me] = True
        active[(me + 1) % m] = True
        w = rng.random((m, N_HOLDINGS)) * (rng.random((m, N_HOLDINGS)) < 0.7)
        mix = np.zeros((m, 3))
        mix[:, 0] = 1.0
        mixed = rng.random(m) < 0.5
        mix[mixed] = (0.6, 0.3, 0.1)
        deck = rng.random(m) < 0.5 if case % 2 else None  # players ranked among all the holdings alike
        spot = SimpleNamespace(active=active, me=me, board=board, beliefs=SimpleNamespace(mix=mix, deck=deck))
        rank_w = _rank_rows(w, deck)
        assert (rank_w is w) == (deck is None or not deck.any())
        for got, want in zip(_believed_values(spot, w, rank_w), _believed_values_plain(spot, w, rank_w), strict=True):
            assert got.shape == want.shape == (m, N_HOLDINGS)
            assert np.array_equal(got, want)
        q_now = _believed_values(spot, w, rank_w)[2]
        for p in range(m):  # a deck-ranked player's percentile is HS_1 against a uniform range
            if deck is not None and deck[p] and active[p] and mixed[p]:
                assert np.array_equal(q_now[p], hand_strength_all(list(board), np.ones(N_HOLDINGS), fill=0.5))


def test_deck_percentiles_are_hs1_against_a_table_of_ones():
    """A deck-ranked player's percentiles on a board, read from the board's uniform HS_1 (kept per board), are the
    very floats of ``hand_strength_all(board, ones, fill=0.5)`` on 3-, 4- and 5-card boards."""
    from loki.assessment import hand_strength_all
    from loki.simulator.driver import _deck_percentiles

    rng = np.random.default_rng(77)
    for case in range(60):
        board = tuple(int(c) for c in rng.choice(52, 3 + case % 3, replace=False))
        want = hand_strength_all(list(board), np.ones(N_HOLDINGS), fill=0.5)
        assert np.array_equal(_deck_percentiles(board), want), board


def test_sampler_draws_only_positive_weights_without_reading_them():
    """``_sample_holding`` skips the weight check of the holding its binary search lands on (the first whose running
    sum exceeds the draw has a positive weight): on rows with many zero, tiny and huge weights it draws exactly what
    the sampler with the check draws, number for number, and never a zero-weight holding."""
    from numba import njit

    from loki.simulator.playout import _HM, _sample_holding

    @njit
    def with_check(weights, cum_w, p, total, used, seed, n):  # the sampler as it was: the weight read and tested
        np.random.seed(seed)
        out = np.empty(n, np.int64)
        for k in range(n):
            out[k] = -1
            for _ in range(64):
                x = np.random.random() * total
                lo, hi = 0, N_HOLDINGS - 1
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if cum_w[p, mid] > x:
                        hi = mid
                    else:
                        lo = mid + 1
                if weights[p, lo] > 0.0 and (_HM[lo] & used) == 0:
                    out[k] = lo
                    break
            if out[k] < 0:  # the exact linear roulette of the live holdings (the sampler's fallback)
                s = 0.0
                for h in range(N_HOLDINGS):
                    if (_HM[h] & used) == 0:
                        s += weights[p, h]
                x = np.random.random() * s
                acc = 0.0
                for h in range(N_HOLDINGS):
                    if (_HM[h] & used) == 0 and weights[p, h] > 0.0:
                        acc += weights[p, h]
                        out[k] = h
                        if acc > x:
                            break
        return out

    @njit
    def without(weights, cum_w, p, total, used, seed, n):
        np.random.seed(seed)
        out = np.empty(n, np.int64)
        for k in range(n):
            out[k] = _sample_holding(weights, cum_w, p, total, used)
        return out

    rng = np.random.default_rng(44)
    for trial in range(8):
        w = rng.random((2, N_HOLDINGS)) ** rng.integers(1, 30)  # tiny weights too
        w[:, rng.random(N_HOLDINGS) < 0.7] = 0.0
        w[1, rng.integers(N_HOLDINGS)] = 1e12  # drawn nearly always: when it shares a card, the fallback draws
        cum = np.cumsum(w, axis=1)
        used = np.uint64(cards_mask([int(c) for c in rng.choice(52, 7, replace=False)]))
        for p in (0, 1):
            a = with_check(w, cum, p, cum[p, -1], used, trial, 2000)
            b = without(w, cum, p, cum[p, -1], used, trial, 2000)
            assert np.array_equal(a, b) and (w[p, b[b >= 0]] > 0).all()


def test_believed_playout_on_uniform_values_reads_the_board_cache_as_the_per_player_loop_counts():
    """``believed_values = "uniform"``: the believed play-out rates every simulated hand against a uniform range (its
    fields and the ranges its percentiles are taken in all ones; on the decision's street the board's uniform HS_1 and
    percentiles among all the holdings) and reads its later streets' values from the :class:`BoardCache`, a
    percentile among all the holdings being the uniform HS_1 itself.  Those are the very floats of the per-player loop
    (:func:`_values_on_board` on rows of ones): the same ranges forced through the loop (a rank row made unequal to
    one at a holding that shares a card with the board, which is never counted) give the same outcomes bit for bit,
    on flop and turn spots with mixed and rules-only players; the fields of ``"field"`` give other outcomes."""
    import dataclasses

    from loki.simulator.driver import PlayoutBeliefs, _deck_percentiles
    from loki.simulator.playout import _context, board_cache, sim_batch
    from loki.triples.rule_chain import params_row

    rng = np.random.default_rng(77)
    own = params_row(TripleConfig().params())
    differ = 0
    for k in range(6):
        sp = _random_spot(rng, street=1 + k % 2)
        m = len(sp.active)
        mix = np.zeros((m, 3))
        mix[:, 0] = 1.0
        mix[rng.random(m) < 0.6] = (0.5, 0.35, 0.15)
        mix[(sp.me + 1) % m] = (0.2, 0.5, 0.3)
        freqs = rng.random((m, 4, 3, 3)) + 0.05
        freqs /= freqs.sum(axis=3, keepdims=True)
        beliefs = PlayoutBeliefs(
            np.tile(own, (m, 1)), mix, freqs, np.full(m, 0.1), np.full(m, 0.1), np.zeros(m, bool), np.zeros(m, bool)
        )
        sp = dataclasses.replace(sp, beliefs=beliefs)
        cfg = SimConfig(trials=80, cutoff="none", play_outs="believed", believed_values="uniform")
        pspot, ranges, policies, tables = _kernel_arguments(sp, cfg, k)
        assert policies.believed and (ranges.field == 1.0).all() and (ranges.rank == 1.0).all()
        board = tuple(sp.board)
        assert np.array_equal(ranges.hs_now[0], board_values(board)[0])
        assert np.array_equal(ranges.q_now[m - 1], _deck_percentiles(board))
        clash = HOLDING_INDEX[board[0], board[1]]  # shares the board's cards: never counted
        rank = ranges.rank.copy()
        rank[:, clash] = 2.0
        looped = ranges._replace(rank=rank)
        assert _context(pspot, ranges, policies, board_cache(8))[0].uniform
        assert not _context(pspot, looped, policies, board_cache(8))[0].uniform
        outs = []
        for r in (ranges, looped):
            n = cfg.trials
            oc, orr, holes = np.zeros(n), np.zeros(n), np.full((n, m), -1, np.int64)
            sim_batch(k + 1, n, pspot, r, policies, oc, orr, holes, board_cache(64), tables)
            outs.append((oc, orr, holes))
        for a, b in zip(outs[0], outs[1], strict=True):
            assert np.array_equal(a, b)
        field = simulate(sp, cfg.model_copy(update={"believed_values": "field"}), seed=k)
        uniform = simulate(sp, cfg, seed=k)
        differ += (field.ev_call, field.ev_raise) != (uniform.ev_call, uniform.ev_raise)
    assert differ >= 4


def test_believed_playout_on_own_values_rates_only_our_hand_against_the_fields():
    """``believed_values = "own"``: our hand is rated against the others' weight tables (the rows of ``"field"``), every
    other player's HS_1 against a uniform range (the rows of ``"uniform"``), every percentile in the range its model
    ranks it in (the rows of ``"field"``, players ranked within their range or among all the holdings); heads-up that
    is ``"field"`` itself (the opponent's field is our own row, uniform), outcome for outcome."""
    import dataclasses

    from loki.simulator.driver import PlayoutBeliefs
    from loki.triples.rule_chain import params_row

    rng = np.random.default_rng(78)
    own = params_row(TripleConfig().params())
    for k in range(6):
        heads_up = k % 2 == 0
        if heads_up:  # we act first on the street, nothing bet yet
            cards = rng.choice(52, 6 + k % 3 // 2, replace=False)
            w = rng.random((2, N_HOLDINGS)) * (rng.random((2, N_HOLDINGS)) < 0.5)
            sp = SimSpot(
                hole=(int(cards[0]), int(cards[1])), board=tuple(int(c) for c in cards[2:]), me=0,
                active=np.ones(2, bool), round_bets=np.zeros(2), acted=np.zeros(2, bool), vol_in=np.zeros(2, bool),
                weights=w, pot=40.0, bets_this_round=0,
            )  # fmt: skip
        else:
            sp = _random_spot(rng, street=1 + k % 3 // 2)
        m = len(sp.active)
        mix = np.zeros((m, 3))
        mix[:, 0] = 1.0
        mix[np.arange(m) != sp.me] = (0.5, 0.35, 0.15)
        freqs = rng.random((m, 4, 3, 3)) + 0.05
        freqs /= freqs.sum(axis=3, keepdims=True)
        deck = (np.arange(m) != sp.me) & (
            rng.random(m) < 0.5
        )  # some ranked among all the holdings, some in their range
        beliefs = PlayoutBeliefs(
            np.tile(own, (m, 1)),
            mix,
            freqs,
            np.full(m, 0.1),
            np.full(m, 0.1),
            np.zeros(m, bool),
            np.zeros(m, bool),
            deck=deck,
        )
        sp = dataclasses.replace(sp, beliefs=beliefs)
        cfg = {v: SimConfig(trials=60, cutoff="none", play_outs="believed", believed_values=v)
               for v in ("field", "uniform", "own")}  # fmt: skip
        args = {v: _kernel_arguments(sp, c, k) for v, c in cfg.items()}
        r_own, r_field, r_uni = args["own"][1], args["field"][1], args["uniform"][1]
        others = np.arange(m) != sp.me
        live_others = others & sp.active
        for name in ("field", "hs_now", "q_now", "rank"):
            got, field = getattr(r_own, name), getattr(r_field, name)
            assert np.array_equal(got[sp.me], field[sp.me]), name
            if name in ("q_now", "rank"):
                assert np.array_equal(got, field), name
            else:
                assert np.array_equal(got[live_others], getattr(r_uni, name)[live_others]), name
        res = {v: simulate(sp, c, seed=k) for v, c in cfg.items()}
        if heads_up:
            assert (res["own"].ev_call, res["own"].ev_raise) == (res["field"].ev_call, res["field"].ev_raise)
