"""The compiled opponent modelling against the numpy paths it replaces, bit for bit.

The numpy functions (:func:`loki.modeler.loki1_reweight`, :func:`loki.modeler.triple_reweight` of
:func:`loki.triples.opponent_triples`, :meth:`ActionFrequencies.blended`, :func:`loki.assessment.assess`) are kept as
the slow paths; the kernels must give exactly the same floats (the tournaments' results must not change), so every
comparison here is ``array_equal``, not ``allclose``.
"""

import dataclasses
import math

import numpy as np
import pytest

from loki.assessment import assess, assess_field, ehs, ehs_prime, ppot_npot
from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action, ActionTaken, GameConfig
from loki.modeler import (
    ActionFrequencies,
    Loki1Modeler,
    ModelingContext,
    ModelStore,
    OpponentModel,
    TripleModeler,
    loki1_reweight,
    postflop_hand_values,
    preflop_hand_values,
    ramp_bounds,
    ramp_factors,
    threshold_mu_sigma,
    triple_reweight,
)
from loki.modeler.model import ModelTables
from loki.simulator.driver import _mean_sd
from loki.triples import TripleConfig, opponent_triples
from loki.triples.bettor import BettorConfig
from reference_rules import (
    reference_blended,
    reference_loki1_reweight,
    reference_mu_sigma,
    reference_ramp_bounds,
    reference_ramp_factors,
)

GAME = GameConfig(n_players=6)


def _random_counts(rng, m: OpponentModel) -> None:
    m.tables.counts[m.row] = rng.integers(0, 12, size=(4, 3, 3)) * (rng.random((4, 3, 3)) < 0.6)


def _board(rng, k: int) -> tuple[int, ...]:
    cards = rng.permutation(52)[: k + 2]
    return tuple(int(c) for c in cards[2:]), (int(cards[0]), int(cards[1]))


def _event(rng, round_: int, action: Action, seat: int = 1) -> ActionTaken:
    bets = int(rng.integers(0, 4))
    to_call = 0 if bets == 0 else int(rng.choice([5, 10, 20, 30, 40, 60]))
    return ActionTaken(
        seat=seat,
        action=action,
        amount=0,
        round=round_,
        to_call=to_call,
        pot=int(rng.integers(15, 300)),
        bets=bets,
        n_active=int(rng.integers(2, 7)),
        voluntary=bool(rng.random() < 0.3),
    )


def test_blend_frequencies_kernel_equals_the_numpy_blend():
    from loki.modeler.kernels import blend_frequencies
    from loki.modeler.model import DEFAULT_FREQUENCIES

    rng = np.random.default_rng(1500)
    for _ in range(300):
        m = OpponentModel()
        _random_counts(rng, m)
        r, b, spec = int(rng.integers(0, 4)), int(rng.integers(0, 3)), bool(rng.random() < 0.8)
        out = np.empty(3)
        blend_frequencies(m.tables.counts, m.row, r, b, spec, DEFAULT_FREQUENCIES, out, 0.0)
        expect = reference_blended(m.tables.counts[m.row], r, b, spec)
        assert np.array_equal(out, expect)
        assert np.array_equal(m.frequencies.blended(r, b, specific=spec), expect)


def test_mu_sigma_and_ramp_helpers_equal_the_numpy_rules():
    rng = np.random.default_rng(1550)
    sorted_ir = np.sort(rng.normal(0.0, 500.0, N_HOLDINGS))
    for _ in range(400):
        freqs = rng.dirichlet([1.0, 1.0, 1.0])
        if rng.random() < 0.2:
            freqs = np.array([0.5, 0.25, 0.25])  # exact binary fractions: ties of the nearest-point rounding
        action = Action(int(rng.integers(1, 3)))
        mu, sigma = threshold_mu_sigma(action, freqs)
        assert (mu, sigma) == reference_mu_sigma(int(action), freqs)
        assert ramp_bounds(mu, sigma) == reference_ramp_bounds(mu, sigma)
        assert ramp_bounds(mu, sigma, sorted_ir) == reference_ramp_bounds(mu, sigma, sorted_ir)
        v = rng.random(50)
        lo, hi = sorted(rng.random(2))
        assert np.array_equal(ramp_factors(v, lo, hi), reference_ramp_factors(v, lo, hi))
        assert np.array_equal(ramp_factors(v, hi, lo), reference_ramp_factors(v, hi, lo))  # the step case


@pytest.mark.parametrize("round_", [0, 1, 2, 3])
def test_loki1_modeler_kernel_equals_the_numpy_reweighting(round_):
    """Loki1Modeler.reweight (one kernel call) and loki1_reweight against the numpy rule
    (tests/reference_rules.py) over a sequence of actions in a round: same weights, same applied μ, same 'once per
    round from the stored copy' behaviour."""
    rng = np.random.default_rng(1600 + round_)
    for _ in range(40):
        board, hole = _board(rng, (0, 3, 4, 5)[round_])
        ctx = ModelingContext(0, hole, board, GAME)
        fast, mid = OpponentModel(), OpponentModel()
        start = np.maximum(0.01, rng.random(N_HOLDINGS))
        for m in (fast, mid):
            m.weights = start
            m.new_round()
        _random_counts(rng, fast)
        mid.tables.counts[mid.row] = fast.tables.counts[fast.row]
        ref_w, ref_mu = start.copy(), -1.0
        modeler = Loki1Modeler(specific=bool(rng.random() < 0.8))
        for _ in range(3):
            ev = _event(rng, round_, Action(int(rng.integers(1, 3))))
            bucket = int(rng.integers(0, 3))
            freqs = reference_blended(fast.tables.counts[fast.row], round_, bucket, modeler.specific)
            modeler.reweight(fast, ev, bucket, ctx)
            if round_ == 0:
                values, sorted_values = preflop_hand_values()
            else:
                values, sorted_values = postflop_hand_values(board), None
            changed = loki1_reweight(mid, values, ev.action, freqs, sorted_values)
            new, ref_mu = reference_loki1_reweight(start, ref_mu, values, int(ev.action), freqs, sorted_values)
            assert changed == (new is not None)
            if new is not None:
                ref_w = new
            assert np.array_equal(fast.weights, ref_w) and np.array_equal(mid.weights, ref_w)
            assert fast.applied_mu == ref_mu == mid.applied_mu
        if round_ > 0:  # the traced likelihood is a probability
            lik = fast.trace[-1][2]
            h = int(rng.integers(0, N_HOLDINGS))
            assert 0.01 <= lik(h) <= 1.0


def test_triple_modeler_kernel_equals_opponent_triples_reweighting():
    """TripleModeler.reweight (triple_column, reweight_row_live) against triple_reweight of opponent_triples, with the dead-card
    mask; covers 1..5 opponents (numpy's ``a ** 2`` is a square, other powers libm's pow)."""
    rng = np.random.default_rng(1700)
    cfg = TripleConfig()
    modeler = TripleModeler(cfg)
    for i in range(60):
        round_ = 1 + i % 3
        board, hole = _board(rng, round_ + 2)
        ctx = ModelingContext(0, hole, board, GAME)
        fast, slow = OpponentModel(), OpponentModel()
        start = np.maximum(0.01, rng.random(N_HOLDINGS))
        fast.weights = start
        slow.weights = start
        ev = _event(rng, round_, Action(int(rng.integers(1, 3))))
        modeler.reweight(fast, ev, 1, ctx)
        from loki.modeler.triple_model import opponent_spot

        t = opponent_triples(board, opponent_spot(ev, GAME), max(1, ev.n_active - 1), cfg)
        live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
        triple_reweight(slow, t, ev.action, live)
        assert np.array_equal(fast.weights, slow.weights)
        numpy_rule = np.where(live, np.maximum(0.01, start * t[:, int(ev.action)]), start)  # the first version
        assert np.array_equal(slow.weights, numpy_rule)
        assert np.array_equal(fast.trace[-1][2].column, t[:, int(ev.action)])


def test_observers_of_one_action_share_its_column():
    """The observers of one action (different hole cards, so different dead cards) read one column
    (``action_column``): the same array, equal to a fresh computation's; each observer's row is re-weighted outside
    its own dead cards only.  Another event, other parameters or another board compute a new column."""
    from loki.modeler.triple_model import action_column, opponent_spot

    rng = np.random.default_rng(1701)
    cfg = TripleConfig()
    board, _ = _board(rng, 3)
    ev = _event(rng, 1, Action.RAISE)
    holes = [(c, d) for c, d in [(a, a + 1) for a in range(0, 52, 2)] if c not in board and d not in board][:3]
    t = opponent_triples(board, opponent_spot(ev, GAME), max(1, ev.n_active - 1), cfg)
    columns = []
    for hole in holes:
        ctx = ModelingContext(0, hole, board, GAME)
        model = OpponentModel()
        start = np.maximum(0.01, rng.random(N_HOLDINGS))
        model.weights = start
        TripleModeler(cfg).reweight(model, ev, 1, ctx)
        column = model.trace[-1][2].column
        columns.append(column)
        assert np.array_equal(column, t[:, 2]) and not column.flags.writeable
        live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
        assert np.array_equal(model.weights, np.where(live, np.maximum(0.01, start * t[:, 2]), start))
    assert columns[1] is columns[0] and columns[2] is columns[0]
    ctx = ModelingContext(0, holes[0], board, GAME)
    params = cfg.params()
    again = _event(rng, 1, Action.RAISE)
    assert action_column(again, ctx, params) is not columns[0]  # another event
    assert action_column(dataclasses.replace(again), ctx, params) is action_column(again, ctx, params)  # an equal one
    # the same action by another seat (another seating of the deal): the column does not depend on the seat
    assert action_column(dataclasses.replace(again, seat=again.seat + 1), ctx, params) is action_column(
        again, ctx, params
    )
    before = action_column(again, ctx, params)
    again.to_call, again.bets = 20, 2  # an event changed after it was seen: the column of its new values
    moved = action_column(again, ctx, params)
    assert not np.array_equal(moved, before)
    want = opponent_triples(board, opponent_spot(again, GAME), max(1, again.n_active - 1), cfg)
    assert np.array_equal(moved, want[:, 2])
    tight_cfg = TripleConfig(bettor=BettorConfig(make1=0.7))
    tight = tight_cfg.params()
    assert tight != params
    other = action_column(again, ctx, tight)
    want = opponent_triples(board, opponent_spot(again, GAME), max(1, again.n_active - 1), tight_cfg)
    assert np.array_equal(other, want[:, 2])
    board2 = tuple(c for c in range(52) if c not in board and c not in holes[0])[:4]
    on_turn = action_column(again, ModelingContext(0, holes[0], board2, GAME), tight)
    want = opponent_triples(board2, opponent_spot(again, GAME), max(1, again.n_active - 1), tight_cfg)
    assert np.array_equal(on_turn, want[:, 2])


def test_holding_percentile_equals_the_numpy_rule():
    """The showdown percentile (weight_rank_counts) against the first numpy version, with ties (weights on a coarse
    grid) and dead cards; exact equality."""
    from loki.cards import HOLDING_CARDS, live_holdings
    from loki.modeler import holding_percentile

    rng = np.random.default_rng(1702)
    for i in range(200):
        w = np.round(rng.random(N_HOLDINGS), 1 + i % 3) + 0.01
        dead = tuple(int(c) for c in rng.choice(52, int(rng.integers(0, 8)), replace=False))
        live = live_holdings(dead)
        h = int(rng.choice(np.flatnonzero(live)))
        hole = tuple(int(c) for c in HOLDING_CARDS[h])
        x = w[h]
        wl = w[live]
        want = float(100.0 * ((wl < x).sum() + 0.5 * (wl == x).sum()) / wl.size)
        assert holding_percentile(w, hole, dead) == want


def test_model_tables_rows_follow_their_models():
    st = ModelStore()
    st.begin_hand(me=0, n_players=4)
    assert st.tables.weights.shape[0] >= 3
    rows = {s: m.row for s, m in st.items()}
    assert len(set(rows.values())) == 3
    st[1].weights[:] = 0.5
    st[2].tables.counts[st[2].row, 1, 1, 2] = 7
    st.reseat({1: 3, 2: 1, 3: 2, 0: 0})
    assert float(st[3].weights[0]) == 0.5 and st[1].frequencies.counts[1, 1, 2] == 7
    st.begin_hand(me=0, n_players=4)  # a new hand: weights back to 1, counts kept
    assert np.all(st.tables.weights == 1.0) and st[1].frequencies.counts[1, 1, 2] == 7
    st.begin_hand(me=0, n_players=8)  # more seats: the arrays grow, existing models keep their rows' contents
    assert len(st) == 7 and st[1].frequencies.counts[1, 1, 2] == 7
    assert len({m.row for m in st.values()}) == 7
    st[5].weights[:3] = 0.2
    st.new_round()
    assert st[5].round_start[:4].tolist() == [0.2, 0.2, 0.2, 1.0] and st[5].applied_mu == -1.0
    st.reseat({s: s for s in range(1, 4)})  # seats 4..7 gone: their rows are free for new models
    t = ModelTables(2)
    a, b = t.add_row(), t.add_row()
    t.free_row(a)
    assert t.add_row() == a and b != a


def test_collapse_count_uses_the_live_holdings():
    st = ModelStore()
    st.begin_hand(me=0, n_players=2)
    board = (0, 5, 10)
    ctx = ModelingContext(0, (20, 30), board, GAME)
    m = st[1]
    m.weights[:] = 0.01
    clash = (HOLDING_MASKS & np.uint64(cards_mask((20, 30) + board))) != 0
    m.weights[np.flatnonzero(clash)[0]] = 1.0  # weight only on a dead holding: still a collapse

    class Keep:
        def reweight(self, model, ev, bucket, ctx):
            pass

    ev = ActionTaken(seat=1, action=Action.CALL, amount=10, round=1, to_call=10, pot=40, bets=1, n_active=2)
    st.observe(ev, Keep(), GAME, ctx)
    assert st.quality.collapses == 1
    m.weights[np.flatnonzero(~clash)[0]] = 0.02
    st.observe(ev, Keep(), GAME, ctx)
    assert st.quality.collapses == 1 and st.quality.reweights == 2


def test_assess_field_equals_assess():
    rng = np.random.default_rng(1800)
    for i in range(120):
        board, hole = _board(rng, 3 + i % 3)
        k = 1 + i % 4
        tables = [np.maximum(0.01, rng.random(N_HOLDINGS)) for _ in range(k)]
        la = 2 if (len(board) == 3 and i % 5 == 0) else 1
        a = assess(hole, board, tables, n_opponents=k, lookahead=la)
        b = assess_field(hole, board, tables, k, la)
        for f in ("hs", "hs_n", "ppot", "npot", "ehs", "ehs_prime", "ahead", "tied", "behind", "hp", "hp_total"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
        # the scalar PPot/NPot/EHS/EHS' of the assessment are exactly the numpy functions' values
        pp, nn = ppot_npot(a.hp, a.hp_total)
        assert (a.ppot, a.npot) == (pp, nn)
        assert a.ehs == ehs(a.hs_n, pp, nn) and a.ehs_prime == ehs_prime(a.hs_n, pp)


def test_cutoff_statistics_equal_numpy():
    rng = np.random.default_rng(1900)
    for n in list(range(1, 300)) + [500, 1000, 2500]:
        x = rng.normal(0.0, 9.0, n)
        m, s = _mean_sd(x)
        assert m == float(x.mean())
        assert s == (float(x.std(ddof=1)) if n > 1 else math.inf)


def test_frequencies_view_writes_through():
    m = OpponentModel()
    m.frequencies.record(2, 1, Action.RAISE)
    assert m.tables.counts[m.row, 2, 1, 2] == 1
    assert isinstance(m.frequencies, ActionFrequencies)


def test_potential_memo_returns_the_kernels_numbers():
    """The own-hand potential is kept per (hole, board, look-ahead, weight bytes): a repeated decision
    reads the kernel's numbers, and a weight table changed in place is not mistaken for the one seen before."""
    from loki.assessment.potential import hp1_kernel_ranked, hp2_kernel, triple_ranks
    from loki.evaluator import kernel_tables

    rng = np.random.default_rng(1815)
    tabs = kernel_tables()
    for i in range(12):
        board, hole = _board(rng, 3 + i % 2)
        la = 2 if (len(board) == 3 and i % 4 == 0) else 1
        w = np.maximum(0.01, rng.random(N_HOLDINGS))
        for _ in range(2):  # the second call is a hit
            a = assess_field(hole, board, [w], 1, la)
            bd = np.asarray(board, dtype=np.int64)
            if la == 2:
                hp, tot = hp2_kernel(hole[0], hole[1], bd, w, tabs)
            else:
                hp, tot = hp1_kernel_ranked(hole[0], hole[1], bd, w, tabs, *triple_ranks(tuple(sorted(board))))
            assert np.array_equal(a.hp, hp) and np.array_equal(a.hp_total, tot)
            w[rng.integers(N_HOLDINGS)] *= 0.5  # the same array, other values: must not read the old entry


def test_new_hand_resets_every_written_row():
    """Only rows marked as written are reset at a new hand and copied at a new round; every way of
    writing a row marks it, so a new hand still starts every table at 1.0 and a round copies what changed."""
    st = ModelStore()
    st.begin_hand(me=0, n_players=6)
    ctx = ModelingContext(0, (20, 30), (), GAME)
    view = st[1].weights
    view[:5] = 0.3  # through a view from the getter
    st[2].weights = np.full(N_HOLDINGS, 0.4)  # the setter
    loki1_reweight(st[3], preflop_hand_values()[0], Action.RAISE, np.array([0.2, 0.5, 0.3]), preflop_hand_values()[1])
    triple_reweight(st[4], np.tile([0.0, 0.2, 0.8], (N_HOLDINGS, 1)), Action.CALL)
    ev = ActionTaken(seat=5, action=Action.RAISE, amount=20, round=0, to_call=10, pot=30, bets=1, n_active=6)
    st.observe(ev, Loki1Modeler(), GAME, ctx)
    assert all(not np.all(st[s].tables.weights[st[s].row] == 1.0) for s in range(1, 6))
    st.new_round(folded={2})
    t = st.tables
    for s in (1, 3, 4, 5):
        assert np.array_equal(t.round_start[st[s].row], t.weights[st[s].row])
    assert np.all(t.round_start[st[2].row] == 1.0)  # folded: no copy
    # a second round: only seat 3 changes; every live row's copy still equals its weights
    view[5:9] = 0.7  # the old view of seat 1 (same hand): written after the copy
    loki1_reweight(st[3], preflop_hand_values()[0], Action.RAISE, np.array([0.1, 0.3, 0.6]), preflop_hand_values()[1])
    st.new_round(folded={2})
    for s in (1, 3, 4, 5):
        assert np.array_equal(t.round_start[st[s].row], t.weights[st[s].row]), s
    st[4].round_start[:2] = 0.9  # a round-start copy written through its view
    st.begin_hand(me=0, n_players=6)
    assert np.all(t.weights == 1.0) and np.all(t.round_start == 1.0) and np.all(t.applied_mu == -1.0)
    st.new_round()
    assert np.all(t.round_start == 1.0)


def test_loki1_reports_the_same_collapses_as_the_store_test():
    """Loki-1's kernel tests the row for a collapse itself; its answer is the store's own test (any live
    holding above COLLAPSE_WEIGHT), with collapses and non-collapses both seen."""
    from loki.modeler.kernels import any_above
    from loki.modeler.model import COLLAPSE_WEIGHT

    rng = np.random.default_rng(1815)
    seen = set()
    for i in range(60):
        st = ModelStore()
        st.begin_hand(me=0, n_players=3)
        board = tuple(int(c) for c in rng.choice(np.arange(8, 52), 3, replace=False))
        ctx = ModelingContext(0, (0, 5), board, GAME)
        m = st[1]
        rs = np.full(N_HOLDINGS, 0.01)
        rs[rng.choice(N_HOLDINGS, 1 + i % 5, replace=False)] = 1.0  # a few holdings above the floor
        m.weights = rs
        m.round_start = rs
        act = Action.RAISE if i % 2 else Action.CALL
        ev = ActionTaken(seat=1, action=act, amount=10, round=1, to_call=10 * (i % 2), pot=40, bets=1, n_active=3)
        got = Loki1Modeler().reweight(m, ev, i % 3, ctx)
        want = not any_above(st.tables.weights, m.row, ctx.dead_mask(), HOLDING_MASKS, COLLAPSE_WEIGHT)
        assert got == want
        seen.add(got)
    assert seen == {True, False}
