"""Opponent-specific triples (issue 11, items 1-2): calibration, no collapse, learning who the opponent is, model
quality, and the believed play-out against an exact path."""

from __future__ import annotations

import numpy as np
import pytest

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
    assert results["observer"][0] >= 1  # the paper's model collapses here (issue 11: 2.6 % of R re-weightings)


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
    worlds (benchmarks/playout_fidelity.py): same action on most recorded decisions, EVs within a small bet."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "playout_fidelity.py"
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
