"""The oracle ablations (cheats, for experiments only): what they see, and where they are refused."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from loki.assessment import equity_against
from loki.cards import HOLDING_INDEX
from loki.engine import Action, GameConfig, new_hand
from loki.errors import ConfigError, PlayerSpecError
from loki.modeler import ModelStore, Situation, TripleModeler
from loki.players.registry import make_player, parse_player
from loki.simulator import SimConfig, SimulatorPolicy
from loki.triples import TripleConfig

PERFECT_S = {"kind": "loki2", "features": "S", "sim": {"oracle": "perfect", "trials": 60}}
ORACLE_B = {"kind": "loki2", "features": "B", "generator": "oracle"}


def _flop(revealed: bool):
    s = new_hand(GameConfig(n_players=3), button=0, rng=7)
    while s.round == 0:
        s.apply(Action.CALL)
    seat = s.current_player
    models = ModelStore()
    models.begin_hand(seat, 3)
    holes = [s.hole_cards(q) for q in range(3)] if revealed else None
    return s, Situation(s.view(seat), s.legal_actions(), models, TripleModeler(TripleConfig()), holes)


def test_the_perfect_model_samples_the_true_holdings_only():
    s, sit = _flop(True)
    pol = SimulatorPolicy(SimConfig(oracle="perfect", trials=50, cutoff="none"), seed=1)
    spot = pol.sim_spot(sit)
    order = s.view(sit.seat).postflop_order
    for i, q in enumerate(order):
        if q == sit.seat:
            continue
        h = HOLDING_INDEX[s.hole_cards(q)[0], s.hole_cards(q)[1]]
        assert spot.weights[i, h] == 1.0 and spot.weights[i].sum() == 1.0
    mixed = SimulatorPolicy(SimConfig(oracle="mixed"), seed=1).sim_spot(sit)
    i = next(i for i, q in enumerate(order) if q != sit.seat)
    q = order[i]
    h = HOLDING_INDEX[s.hole_cards(q)[0], s.hole_cards(q)[1]]
    assert mixed.weights[i, h] > 0.5 and mixed.weights[i].sum() == pytest.approx(1.0)
    with pytest.raises(Exception, match="hole cards"):
        pol.sim_spot(_flop(False)[1])  # not revealed: refused, not guessed


def test_the_oracle_generator_rates_the_hand_by_its_true_equity():
    s, sit = _flop(True)
    v = sit.oracle_values()
    opps = [s.hole_cards(q) for q in sit.live_opponents]
    e = equity_against(s.hole_cards(sit.seat), s.board, opps)
    assert v.ehs_prime == v.ehs == v.hs_n == v.ppot == e


def test_oracles_play_in_tournaments_only():
    for spec in (PERFECT_S, ORACLE_B):
        assert parse_player(spec).cheats
        with pytest.raises(PlayerSpecError, match="oracle"):
            make_player(spec)
        p = make_player(spec, oracles=True)
        from loki.players.table import play_hand

        with pytest.raises(ConfigError, match="oracle"):
            play_hand(GameConfig(n_players=2), [p, make_player("calling")], 0, 1)
    assert not parse_player("loki2:BRS").cheats
    from loki.tournament import config_from_dict, run_tournament

    cfg = config_from_dict(
        {"deals": 2, "block_deals": 1, "players": [{"config": PERFECT_S}, {"config": ORACLE_B}, {"type": "loki1"}]}
    )
    run = run_tournament(cfg, workers=1)
    assert len(run.chips) == 2


@pytest.mark.parametrize("command", ["play", "acpc", "match"])
def test_the_commands_that_meet_people_or_dealers_refuse_oracles(command):
    from loki.cli import app

    spec = 'loki2{"features":"S","sim":{"oracle":"perfect"}}'
    args = {
        "play": ["play", "--player", spec, "--hands", "1"],
        "acpc": ["acpc", "127.0.0.1", "9", "--player", spec, "--no-warmup"],
        "match": ["match", "--player", spec, "--player", "calling", "--hands", "1", "--no-warmup"],
    }[command]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "oracle" in r.output and "Traceback" not in r.output


def test_every_trial_of_the_perfect_model_deals_the_true_holdings():
    from loki.simulator import simulate

    s, sit = _flop(True)
    cfg = SimConfig(oracle="perfect", trials=100, cutoff="none")
    spot = SimulatorPolicy(cfg, seed=2).sim_spot(sit)
    _, (_, _, holes) = simulate(spot, cfg, seed=3, return_samples=True)
    order = s.view(sit.seat).postflop_order
    for i, q in enumerate(order):
        if q != sit.seat:
            assert set(holes[:, i].tolist()) == {int(HOLDING_INDEX[s.hole_cards(q)[0], s.hole_cards(q)[1]])}
