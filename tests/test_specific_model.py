"""Opponent-specific triples: calibration, no collapse, learning who the opponent is, model
quality, and the believed play-out against an exact path."""

from __future__ import annotations

import numpy as np
import pytest

from loki.assessment.weights import LOW_WEIGHT
from loki.cards import HOLDING_MASKS, cards_mask, parse_cards
from loki.engine import Action, ActionTaken, GameConfig, Showdown
from loki.modeler import (
    DEFAULT_FREQUENCIES,
    ModelingContext,
    ModelStore,
    OpponentModel,
    SpecificModelConfig,
    SpecificModeler,
    TripleModeler,
)
from loki.modeler.specific import frequency_triples, range_percentiles
from loki.players.registry import make_player
from loki.players.table import play_session
from loki.triples import TripleConfig


def test_frequency_triples_reproduce_the_frequencies_over_the_range():
    """Over a range, the frequency expert folds, calls and raises as often as the opponent does (the ramps are
    symmetric about the thresholds, so the average over uniformly spread percentiles is exact)."""
    q = (np.arange(20000) + 0.5) / 20000
    for F in ([0.5, 0.3, 0.2], [0.7, 0.2, 0.1], [0.25, 0.35, 0.4]):
        t = frequency_triples(q, np.array(F), facing=True, softness=0.1)
        assert np.allclose(t.mean(axis=0), F, atol=1e-3)
        assert np.all(t >= 0) and np.allclose(t.sum(axis=1), 1.0)
        assert t[0, 0] == 1.0 and t[-1, 2] > 0.99  # the weakest fold, the strongest raise
    t = frequency_triples(q, np.array([0.0, 0.5, 0.5]), facing=False, softness=0.1, rho=0.2)
    assert np.all(t[:, 0] == 0.0) and t.mean(axis=0)[2] == pytest.approx(0.5, abs=1e-3)
    assert t[-1, 2] == pytest.approx(0.8)  # a share rho of the best hands checks (to check-raise)


def test_range_percentiles_weighted_midranks():
    v = np.zeros(1326)
    v[:5] = [0.1, 0.4, 0.4, 0.8, 0.9]
    w = np.zeros(1326)
    w[:5] = [1.0, 2.0, 1.0, 0.0, 4.0]
    live = np.zeros(1326, bool)
    live[:5] = True
    got = range_percentiles(v, w, live)[:5]
    assert got.tolist() == pytest.approx([0.5 / 8, (1 + 1.5) / 8, (1 + 1.5) / 8, 4 / 8, (4 + 2) / 8])


def _ctx(hole="2s2d", board="Kh8d3c"):
    return ModelingContext(0, tuple(parse_cards(hole)), tuple(parse_cards(board)), GameConfig(n_players=3))


def test_check_raise_never_collapses_a_table():
    """After a check and then a raise (a check-raise), the observer's-generator model leaves every possible holding
    at the 0.01 floor (its rules check only to check-raise, which the observer cannot see coming); the
    opponent-specific model keeps the strong holdings on top."""
    ctx = _ctx()
    live = (HOLDING_MASKS & np.uint64(cards_mask(ctx.hole + ctx.board))) == 0
    results = {}
    for name, modeler in [
        ("observer", TripleModeler(TripleConfig())),
        ("specific", SpecificModeler(TripleConfig())),
    ]:
        store = ModelStore()
        store.begin_hand(0, 3)
        store.new_round()
        check = ActionTaken(1, Action.CALL, 0, 1, to_call=0, pot=30, bets=0, n_active=3)
        store.observe(check, modeler, ctx.game, ctx)
        ctx.follow(check)
        bet = ActionTaken(2, Action.RAISE, 10, 1, to_call=0, pot=30, bets=0, n_active=3)
        store.observe(bet, modeler, ctx.game, ctx)
        ctx.follow(bet)
        store.observe(
            ActionTaken(1, Action.RAISE, 20, 1, to_call=10, pot=40, bets=1, n_active=3), modeler, ctx.game, ctx
        )
        w = store[1].weights[live]
        results[name] = (store.quality.collapses, w)
        ctx = _ctx()
    assert results["specific"][0] == 0 and results["specific"][1].max() > 0.05
    assert results["observer"][0] >= 1  # the paper's model collapses here (in 2.6 % of R's re-weightings)


def test_a_long_raising_war_keeps_the_table_scaled_and_uncollapsed():
    """A maniac's many raises in one round: each mixture triple has ``T < 1`` everywhere, so without rescaling the
    product drifts towards the 0.01 floor.  The table keeps its maximum at 1 and nothing collapses."""
    ctx = _ctx()
    live = (HOLDING_MASKS & np.uint64(cards_mask(ctx.hole + ctx.board))) == 0
    modeler = SpecificModeler(TripleConfig())
    store = ModelStore()
    store.begin_hand(0, 3)
    store.new_round()
    pot, bets = 30, 0
    for k in range(12):
        seat = 1 + (k % 2)
        ev = ActionTaken(seat, Action.RAISE, 10 * (bets + 1), 1, to_call=10 * bets, pot=pot, bets=bets, n_active=3)
        before = seat == 1 or None
        store.observe(ev, modeler, ctx.game, ctx)
        ctx.follow(ev)
        if before is not None:
            assert store[1].weights[live].max() == pytest.approx(1.0)
        pot += 10 * (bets + 1)
        bets = min(bets + 1, 3)
    assert store.quality.collapses == 0 and store.quality.reweights == 12
    assert np.count_nonzero(store[1].weights[live] > 0.0101) > 0


def _feed(modeler, actions_and_holdings, n_hands):
    """Show ``modeler`` hands where the opponent (seat 1) bets the flop with the given holdings and shows down."""
    store = ModelStore()
    ctx = _ctx()
    rng = np.random.default_rng(0)
    for k in range(n_hands):
        store.begin_hand(0, 3)
        ctx = _ctx()
        store.new_round()
        holding, action = actions_and_holdings(rng)
        ev = ActionTaken(1, action, 10 if action == Action.RAISE else 0, 1, to_call=0, pot=30, bets=0, n_active=2)
        store.observe(ev, modeler, ctx.game, ctx)
        store.showdown(Showdown(((1, holding, 0),)), modeler, ctx)
    return store


def test_learns_a_card_blind_opponent_and_a_rules_opponent():
    """EM at showdowns: an opponent betting at random (whatever its cards) moves weight to the card-blind expert;
    one betting exactly its strong hands keeps the rules/frequency experts."""
    modeler = SpecificModeler(TripleConfig(), SpecificModelConfig())
    ctx = _ctx()
    dead = set(ctx.hole) | set(ctx.board)
    deck = [c for c in range(52) if c not in dead]
    strong = tuple(parse_cards("KsKc"))  # a set on K-8-3
    weak = tuple(parse_cards("7c4s"))

    def blind(rng):
        h = tuple(int(c) for c in rng.choice(deck, 2, replace=False))
        return h, (Action.RAISE if rng.random() < 0.5 else Action.CALL)

    def honest(rng):
        return (strong, Action.RAISE) if rng.random() < 0.5 else (weak, Action.CALL)

    pb = modeler.weights(_feed(modeler, blind, 200)[1])
    ph = modeler.weights(_feed(modeler, honest, 200)[1])
    prior = SpecificModelConfig().prior
    assert pb[2] > prior[2] + 0.2  # card-blind share grows
    assert ph[2] < prior[2]  # an honest opponent is not card-blind
    assert pb[2] > ph[2] + 0.3


def test_model_quality_in_a_session():
    """Against Loki-1 opponents the opponent-specific model never collapses, explains the shown hands' actions
    better than the observer's generator (higher log-likelihood) and ranks the shown holdings high (fixed seed)."""
    specs = [
        {"kind": "loki2", "features": "BR", "opponent_model": "specific"},
        "loki2:BR",
        "loki1",
        "loki1",
        "loki1",
        "loki1",
    ]
    players = [make_player(s, seed=10 + i) for i, s in enumerate(specs)]
    play_session(GameConfig(n_players=6), players, 150, seed=3)
    spec_q, obs_q = players[0].models.quality.summary(), players[1].models.quality.summary()
    assert spec_q["showdowns"] > 30 and spec_q["collapse_rate"] == 0.0
    assert spec_q["loglik_per_action"] > obs_q["loglik_per_action"]
    assert spec_q["median_percentile"] > 70


def test_believed_playout_agrees_with_the_exact_path():
    """The kernel's later-street values (outs potential, NPot 0) against exact HS/PPot/NPot on the same sampled
    worlds (experiments/opponent-models/scripts/playout_fidelity.py): same action on most recorded decisions, EVs within a small bet."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "experiments" / "opponent-models" / "scripts" / "playout_fidelity.py"
    spec = importlib.util.spec_from_file_location("playout_fidelity", path)
    fid = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fid)
    spots = [sp for sp in fid.record_spots(12, 1000) if len(sp.board) < 5][:4]
    rng = np.random.default_rng(1000)
    agree = 0
    for sp in spots:
        kc, kr, ec, er = fid.compare(sp, 30, rng)
        sb = sp.bet_sizes[1]
        assert abs(kc - ec) / sb < 1.0 and abs(kr - er) / sb < 1.0
        agree += (max(kc, kr, 0.0) == max(ec, er, 0.0)) or (kc > kr) == (ec > er)
    assert agree >= len(spots) - 1


def test_default_frequencies_unchanged():
    assert DEFAULT_FREQUENCIES.tolist() == [[0.0, 0.5, 0.5], [0.5, 0.3, 0.2], [0.7, 0.2, 0.1]]
    assert isinstance(OpponentModel().stats, dict)


def test_frequency_prior_learns_as_a_bayesian_mean():
    """``frequency_prior = k``: each round's counts weigh ``n / (n + k)`` against the estimate before them (one call
    facing a bet on the flop moves Table B.2's (0.5, 0.3, 0.2) a quarter of the way at k = 3); 0 keeps Loki-1's blend
    (a twentieth of the way), the frequencies every other model reads."""
    m = OpponentModel()
    m.tables.counts[m.row, 1, 1, 1] = 1  # one call facing a bet on the flop
    fast = SpecificModeler(TripleConfig(), SpecificModelConfig(frequency_prior=3.0))
    slow = SpecificModeler(TripleConfig(), SpecificModelConfig())
    np.testing.assert_allclose(fast.context_frequencies(m, 1, 1, True), [0.375, 0.475, 0.15], rtol=1e-12)
    np.testing.assert_allclose(slow.context_frequencies(m, 1, 1, True), [0.475, 0.335, 0.19], rtol=1e-12)
    assert np.array_equal(slow.context_frequencies(m, 1, 1, True), m.frequencies.blended(1, 1, specific=True))
    # two rounds chained: the turn's two calls over the flop's estimate, 2 / (2 + 3) of the way
    m.tables.counts[m.row, 2, 1, 1] = 2
    np.testing.assert_allclose(fast.context_frequencies(m, 2, 1, True), 0.6 * np.array([0.375, 0.475, 0.15]) + [0, 0.4, 0],
                               rtol=1e-12)  # fmt: skip


def test_kept_rules_orders_and_columns_equal_fresh_computations():
    """What the specific model keeps across decisions (the rules expert's triples, the holdings' order by the
    opponent's hand value, the mixture's column of the traced action) is the very floats computed afresh, on
    random boards, spots, hole cards and actions, folds included (fixed seed); a re-weighting with warm caches equals
    one with cold ones; the rules' column the re-weighting reads (the observer's kept column, with the check-raise
    flag) is the column of the rules expert's triples."""
    from loki.assessment import uniform_board_values
    from loki.modeler import specific as sp
    from loki.modeler import triple_model as tm
    from loki.modeler.triple_model import opponent_spot
    from loki.triples import opponent_triples

    rng = np.random.default_rng(24)
    cfg = TripleConfig()
    mod = SpecificModeler(cfg)
    game = GameConfig(n_players=4)
    for k in range(12):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        nb = 3 + k % 3
        board, hole = tuple(cards[:nb]), (cards[5], cards[6])
        ctx = ModelingContext(0, hole, board, game)
        live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
        assert np.array_equal(ctx.live_holdings(), live) and not ctx.live_holdings().flags.writeable
        n_active = int(rng.integers(2, 5))
        to_call = int(rng.choice([0, 10 if nb == 3 else 20]))
        ev = ActionTaken(
            seat=1, action=Action(int(rng.integers(0, 3))), amount=0, round=nb - 2, pot=int(rng.integers(20, 200)),
            to_call=to_call, bets=int(to_call > 0), voluntary=bool(rng.random() < 0.3), n_active=n_active,
        )  # fmt: skip
        spot = opponent_spot(ev, game)
        n_opp = max(1, n_active - 1)
        crf = bool(k % 2)
        kept = sp.rules_triples(board, spot, n_opp, cfg, cfg.params(), crf)
        assert np.array_equal(kept, opponent_triples(board, spot, n_opp, cfg, crf)) and not kept.flags.writeable
        assert sp.rules_triples(board, spot, n_opp, cfg, cfg.params(), crf) is kept  # kept
        hs1, pp, _ = uniform_board_values(board)
        hs_n = hs1**n_opp
        w_any = rng.random(1326) * (rng.random(1326) < 0.8)
        want = sp.range_percentiles(hs_n + (1.0 - hs_n) * pp, w_any, live)
        assert np.array_equal(sp.board_percentiles(board, n_opp, live, w_any), want)
        assert np.array_equal(sp.board_percentiles(board, n_opp, live, w_any), want)  # from the kept board order
        m_warm, m_cold = OpponentModel(), OpponentModel()
        w0 = rng.random(1326) + 0.01
        if k == 5:  # no weight left in the range: every percentile at 0.5 (the kernel's unranked branch)
            w0 = np.where(live, 0.0, w0)
        m_warm.weights, m_cold.weights = w0, w0
        mod.reweight(m_warm, ev, ev.bets, ctx)
        sp._RULES.clear()
        tm._COLUMNS.clear()
        sp._BOARD_ORDERS.clear()
        mod.reweight(m_cold, ev, ev.bets, ModelingContext(0, hole, board, game))
        assert np.array_equal(m_warm.weights, m_cold.weights)
        lik = m_warm.trace[-1][2]
        a = int(ev.action)
        assert lik.column is not None and np.array_equal(
            lik.probabilities(), lik.pi[0] * lik.rules + lik.pi[1] * lik.freq + lik.pi[2] * lik.blind
        )
        # feature R with the column, in numpy: w·T[a] floored at 0.01 on the live holdings (not for a fold), then the
        # live entries divided by their maximum when it is in (0, 1)
        want_w = w0.copy()
        if ev.action != Action.FOLD:
            x = w0 * lik.column
            want_w[live] = np.where(x > LOW_WEIGHT, x, LOW_WEIGHT)[live]
        top = want_w[live].max()
        if 0.0 < top < 1.0:
            want_w[live] = want_w[live] / top
        assert np.array_equal(m_warm.weights, want_w)
        m_ref = OpponentModel()  # the model as the re-weighting saw it: the weights before, the stats it counted
        m_ref.weights = w0
        m_ref.stats.update(m_cold.stats)
        rules, freq, F, _ = mod.experts(m_ref, ev, ev.bets, ctx)
        pi = mod.weights(m_ref)
        assert np.array_equal(lik.column, (pi[0] * rules + pi[1] * freq + pi[2] * F[None, :])[:, a])


def test_percentile_kernel_equals_the_numpy_form():
    """The percentiles' kernel gives the floats of the numpy form (cumulative sums in sorted order, mid-ranks of
    tie blocks) on random values with ties, random ranges (zero weights included) and live sets (fixed seed)."""
    from loki.modeler.specific import percentile_order, percentiles_in_order

    rng = np.random.default_rng(7)
    for k in range(20):
        v = np.round(rng.random(1326), 1 + k % 3)  # ties
        w = rng.random(1326) * (rng.random(1326) < 0.7) * 10.0 ** rng.integers(-3, 3)
        live = rng.random(1326) < (0.9 if k else 0.0)
        pre = percentile_order(v, live)
        idx, order, lo, hi = pre
        want = np.full(1326, 0.5)
        if idx.size:
            cum = np.concatenate(([0.0], np.cumsum(w[idx][order])))
            if cum[-1] > 0.0:
                want[idx] = (cum[lo] + 0.5 * (cum[hi] - cum[lo])) / cum[-1]
        assert np.array_equal(percentiles_in_order(pre, w), want)
    assert np.array_equal(percentiles_in_order(percentile_order(v, live), np.zeros(1326)), np.full(1326, 0.5))


def test_context_frequencies_equal_the_numpy_form():
    """The context frequencies (blended, floored, fold impossible when not facing, normalised) are the floats of the
    numpy form, on random counts (fixed seed), every context."""
    rng = np.random.default_rng(5)
    mod = SpecificModeler(TripleConfig(), SpecificModelConfig(min_frequency=0.03))
    for _ in range(20):
        m = OpponentModel()
        m.tables.counts[m.row] = rng.integers(0, 30, size=(4, 3, 3)) * (rng.random((4, 3, 3)) < 0.7)
        for r in range(1, 4):
            for b in range(3):
                for facing in (False, True):
                    F = np.maximum(m.frequencies.blended(r, b, specific=True).astype(np.float64), 0.03)
                    if not facing:
                        F[0] = 0.0
                    assert np.array_equal(mod.context_frequencies(m, r, b, facing), F / F.sum())


def test_playout_policy_frequencies_equal_the_context_frequencies():
    """The believed play-out's frequencies of an opponent (one kernel for every post-flop context,
    :func:`loki.modeler.kernels.context_frequencies_post`) are the floats of :meth:`SpecificModeler.context_frequencies`
    context by context (facing a bet from bucket 1 on), on random counts (fixed seed), row 0 zeros; both raise
    ZeroDivisionError when a context has nothing to normalise."""
    rng = np.random.default_rng(24)
    for low in (0.0, 0.02, 0.07):
        mod = SpecificModeler(TripleConfig(), SpecificModelConfig(min_frequency=low))
        for _ in range(15):
            m = OpponentModel()
            m.tables.counts[m.row] = rng.integers(0, 30, size=(4, 3, 3)) * (rng.random((4, 3, 3)) < 0.6)
            try:
                want = [[mod.context_frequencies(m, r, b, b > 0) for b in range(3)] for r in range(1, 4)]
            except ZeroDivisionError:  # no frequency left to normalise (min_frequency 0): both raise
                with pytest.raises(ZeroDivisionError):
                    mod.playout_policy(m)
                continue
            freqs = np.asarray(mod.playout_policy(m).frequencies)
            assert np.array_equal(freqs[0], np.zeros((3, 3)))
            assert np.array_equal(freqs[1:], np.array(want))


def test_live_percentiles_from_the_board_order_equal_the_numpy_form():
    """The one-pass percentiles from a whole order (:func:`loki.modeler.kernels.live_percentiles_into`) are the
    floats of :func:`range_percentiles` on the live subset, on random values with many ties (zeros of both signs
    included), random live subsets (none, all) and ranges (zero weights, a zero total), fixed seed."""
    from loki.modeler.kernels import live_percentiles_into

    rng = np.random.default_rng(24)
    for case in range(60):
        v = np.round(rng.random(1326), int(rng.integers(1, 4)))
        v[rng.random(1326) < 0.1] = 0.0
        v[rng.random(1326) < 0.05] = -0.0
        whole = np.flatnonzero(rng.random(1326) < 0.9)  # the holdings disjoint from a board
        by_value = whole[np.argsort(v[whole], kind="stable")]
        sv = v[by_value]
        starts = np.ones(by_value.shape[0], dtype=np.bool_)
        starts[1:] = sv[1:] != sv[:-1]
        live = np.zeros(1326, dtype=np.bool_)
        share = 0.0 if case == 0 else (1.0 if case == 1 else rng.random())
        live[whole[rng.random(whole.shape[0]) < share]] = True
        w = rng.random(1326) * (rng.random(1326) < 0.7) * 10.0 ** float(rng.integers(-3, 3))
        if case == 2:
            w[:] = 0.0
        out = np.full(1326, 0.5)
        live_percentiles_into(by_value, starts, live, w, np.empty(1326), out)
        assert np.array_equal(out, range_percentiles(v, w, live))


def test_board_order_is_numpys_stable_sort():
    """The board's order by a radix sort of the values' bits (:func:`loki.modeler.kernels.board_order_into`) is numpy's
    stable argsort of the live holdings' values, with the values the numpy expression's floats and the runs of ties
    where numpy's comparisons put them: on real boards (HS_n and PPot of 1, 2 and 4 opponents) and on random values
    with many ties, zeros of both signs and NaNs (sorted last, one run), random subsets of holdings; fixed seed."""
    from loki.modeler.kernels import board_order_into
    from loki.triples import opponent_hand_values

    def numpy_form(hs, pp, hold):
        values = hs + (1.0 - hs) * pp
        by_value = hold[np.argsort(values[hold], kind="stable")]
        sv = values[by_value]
        starts = np.ones(by_value.shape[0], dtype=np.bool_)
        nan = np.isnan(sv)
        starts[1:] = (sv[1:] != sv[:-1]) & ~(nan[1:] & nan[:-1])
        return values, by_value, starts

    rng = np.random.default_rng(31)
    cases = []
    for _ in range(12):
        board = tuple(int(c) for c in rng.choice(52, int(rng.integers(3, 6)), replace=False))
        hold = np.flatnonzero((HOLDING_MASKS & np.uint64(cards_mask(board))) == 0)
        for n in (1, 2, 4):
            hs_n, pp, _ = opponent_hand_values(board, n)
            cases.append((hs_n, pp, hold))
    for case in range(60):
        hs = np.round(rng.random(1326), int(rng.integers(1, 4)))
        pp = np.round(rng.random(1326), 2) * (rng.random(1326) < 0.5)
        hs[rng.random(1326) < 0.05] = np.nan if case % 3 == 0 else 0.0
        pp[rng.random(1326) < 0.05] = -0.0
        cases.append((hs, pp, np.flatnonzero(rng.random(1326) < 0.85)))
    for hs, pp, hold in cases:
        values, by_value, starts = np.empty(1326), np.empty(hold.shape[0], np.int64), np.empty(hold.shape[0], bool)
        board_order_into(hs, pp, hold, values, by_value, starts)
        want = numpy_form(hs, pp, hold)
        assert np.array_equal(values, want[0], equal_nan=True)
        assert np.array_equal(by_value, want[1]) and np.array_equal(starts, want[2])


def test_board_percentiles_fall_back_to_numpy_with_a_nan(monkeypatch):
    """With NaNs among a board's values the percentiles are numpy's form's: the board's order puts them last as one
    run of ties, as numpy's searchsorted takes them."""
    import loki.modeler.specific as sp

    rng = np.random.default_rng(5)
    hs1, pp = rng.random(1326), rng.random(1326)
    hs1[[3, 700, 900, 1200]] = np.nan
    monkeypatch.setattr(sp, "opponent_hand_values", lambda board, n: (hs1**n, pp, None))
    monkeypatch.setattr(sp, "_BOARD_ORDERS", {})
    board = (0, 9, 18)
    live = (HOLDING_MASKS & np.uint64(cards_mask(board + (40, 41)))) == 0
    w = rng.random(1326)
    want = range_percentiles(hs1**2 + (1.0 - hs1**2) * pp, w, live)
    assert np.array_equal(sp.board_percentiles(board, 2, live, w), want, equal_nan=True)
    values, by_value, starts = sp._BOARD_ORDERS[(board, 2)]
    k = int(np.isnan(values[by_value]).sum())  # the NaNs sorted last, one run of ties
    assert k >= 2 and np.isnan(values[by_value[-k:]]).all() and starts[-k] and not starts[-k + 1 :].any()
    # the re-weighting takes numpy's percentiles there too: its traced column is the experts' mixture column, and the
    # table is feature R with it (floored at 0.01 on the live holdings, rescaled to a maximum of 1)
    mod = SpecificModeler(TripleConfig())
    ctx = ModelingContext(0, (40, 41), board, GameConfig(n_players=3))
    ev = ActionTaken(seat=1, action=Action.CALL, amount=0, round=1, pot=60, to_call=10, bets=1, n_active=3)
    m, ref = OpponentModel(), OpponentModel()
    m.weights, ref.weights = w, w
    mod.reweight(m, ev, 1, ctx)
    rules, freq, F, live_ = mod.experts(ref, ev, 1, ctx)
    pi = mod.weights(ref)
    col = (pi[0] * rules + pi[1] * freq + pi[2] * F[None, :])[:, 1]
    assert np.array_equal(m.trace[-1][2].probabilities(), col)
    expect = w.copy()
    expect[live_] = np.maximum(0.01, w[live_] * col[live_])
    top = expect[live_].max()
    if 0.0 < top < 1.0:
        expect[live_] /= top
    assert np.allclose(m.weights, expect, rtol=0, atol=1e-15)


def test_deck_ranking_places_holdings_among_all_possible_ones():
    """``frequency_ranking = "deck"``: the frequency expert's column of an action is the frequency triples at each
    holding's percentile among all the live holdings alike (:func:`range_percentiles` with a uniform range), whatever
    the opponent's range; ``"range"`` takes it within the range, so the two agree on a uniform range and differ on a
    narrowed one (random boards, actions and ranges, fixed seed)."""
    from loki.assessment import uniform_board_values

    rng = np.random.default_rng(31)
    game = GameConfig(n_players=2)
    deck_mod = SpecificModeler(TripleConfig(), SpecificModelConfig(frequency_ranking="deck"))
    range_mod = SpecificModeler(TripleConfig())
    differ = 0
    for k in range(8):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        nb = 3 + k % 3
        board, hole = tuple(cards[:nb]), (cards[5], cards[6])
        live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
        to_call = int(rng.choice([0, 10 if nb == 3 else 20]))
        action = Action(int(rng.integers(1, 3)))
        ev = ActionTaken(
            seat=1, action=action, amount=0, round=nb - 2, pot=40, to_call=to_call, bets=int(to_call > 0),
            voluntary=False, n_active=2,
        )  # fmt: skip
        hs1, pp, _ = uniform_board_values(board)
        values = hs1 + (1.0 - hs1) * pp
        narrowed = np.where(values > np.nanmedian(values[live]), 1.0, 0.05) * (rng.random(1326) + 0.5)
        for w0 in (np.ones(1326), narrowed):
            cols, models = [], []
            for mod in (deck_mod, range_mod):
                m = OpponentModel()
                m.weights = w0
                mod.reweight(m, ev, ev.bets, ModelingContext(0, hole, board, game))
                cols.append(m.trace[-1][2].freq)
                models.append(m)
            F = deck_mod.context_frequencies(models[0], ev.round, ev.bets, to_call > 0)
            rho = 0.0 if to_call > 0 else deck_mod.check_raise_propensity(models[0])  # a bet counted first
            q = range_percentiles(values, np.ones(1326), live)
            want = frequency_triples(q, F, to_call > 0, 0.1, rho)[:, int(action)]
            assert np.allclose(cols[0][live], want[live], rtol=0.0, atol=1e-12)
            if w0 is narrowed:
                differ += not np.allclose(cols[0][live], cols[1][live])
            else:
                assert np.array_equal(cols[0][live], cols[1][live])
    assert differ >= 6


@pytest.mark.parametrize("prior", [(0.0, 0.0, 1.0), (0.5, 0.5, 0.0), (1.0, 0.0, 0.0)])
def test_a_certain_card_blind_prior_plays_with_the_evidence_rule(prior):
    """``card_blindness = "evidence"`` with a prior that is certain either way (``prior[2]`` 0 or 1): the posterior
    stays where the prior puts it, whatever the showdowns say, and the experts' weights stay a distribution (before,
    a prior of (0, 0, 1) ended the session on a math domain error at the first re-weighting)."""
    spec = {"kind": "loki2", "features": "BR", "opponent_model": "specific"}
    spec["specific_model"] = {"prior": list(prior), "card_blindness": "evidence"}
    p = make_player(spec, seed=1)
    play_session(GameConfig(n_players=2), [p, make_player("maniac", seed=2)], 40, seed=3)
    modeler, (model,) = p.modeler, list(p.models.values())
    assert model.stats.get("blind_lbf", 0.0) != 0.0  # showdowns gave evidence
    assert modeler.blind_posterior(model) == prior[2]
    pi = modeler.weights(model)
    assert min(pi) >= 0.0 and sum(pi) == pytest.approx(1.0) and pi[2] == pytest.approx(prior[2])
