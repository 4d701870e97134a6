"""Tests of the Loki-2 player: configurations, registry specs, feature R wiring, sessions."""

from __future__ import annotations

import numpy as np
import pytest

from loki.cards import HOLDING_MASKS, cards_mask, parse_cards
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig
from loki.players.loki import STYLES, Loki2Config, LokiPlayer, build_loki1, build_loki2
from loki.players.registry import make_player
from loki.players.table import play_session
from loki.selector import TripleDecision
from loki.simulator import SimDecision, SimResult
from loki.triples import board_values
from loki.triples.rule_chain import RULES


def test_registry_specs():
    p = make_player("loki2:BR", seed=1)
    assert isinstance(p, LokiPlayer) and p.config.features == frozenset("BR") and p.name == "Loki-2 BR"
    p = make_player("loki2:brs:LA", seed=1)
    assert p.config.features == frozenset("BRS") and p.config.tightness == "loose"
    assert p.config.triple.bettor.make1 == STYLES["LA"].bettor.make1 == 0.40  # the style drives the generator too
    assert p.postflop.config.triple.bettor.make2 == 0.75  # ... and the Simulator's play-outs
    p = make_player("loki2:S:trials=80:cutoff=paired:fast", seed=1)
    assert p.config.sim.trials == 80 and p.config.sim.cutoff == "paired" and p.config.sim.always_call
    for bad in ("loki2", "loki2:BX", "loki2:BB", "loki2:BR:XX", "loki2:S:cutoff=maybe"):
        with pytest.raises(ValueError):
            make_player(bad)
    assert Loki2Config(features="rb").features == frozenset("BR")


@pytest.mark.parametrize(
    "spec, needles",
    [
        ("loki2:S:trials=abc", ["trials='abc'", "positive integer"]),
        ("loki2:S:trials=0", ["trials='0'", "positive integer"]),
        ("loki2:S:trials=-5", ["trials='-5'", "positive integer"]),
        ("loki2:S:trials=", ["trials=''", "positive integer"]),
        ("loki2:BR:trials=5", ["need feature S", "trials"]),
        ("loki2:B:fast", ["need feature S", "fast"]),
        ("loki2:R:cutoff=paired", ["need feature S", "cutoff"]),
        ("loki2:S:trials=5:trials=6", ["repeated option 'trials=6'"]),
        ("loki2:BR:LA:TC", ["unknown or repeated option 'TC'"]),
        ("loki2:S:cutoff=maybe", ["cutoff='maybe'"]),
        ("loki2:BX", ["'loki2:BX'", "B, R, S"]),
    ],
)
def test_loki2_spec_errors_name_the_option(spec, needles):
    with pytest.raises(ValueError) as ei:
        make_player(spec)
    msg = str(ei.value)
    assert all(n in msg for n in needles), msg
    assert spec in msg and "\n" not in msg
    assert make_player("loki2:BRS:trials=7", seed=1).config.sim.trials == 7


def test_feature_r_reweights_in_the_opponents_situation():
    cfg = GameConfig(n_players=3)
    p = build_loki2(Loki2Config(features=frozenset("R")), seed=0)
    hole = tuple(parse_cards("2s2d"))
    p.begin_hand(0, cfg, hole, button=2)
    board = tuple(parse_cards("Kh8d3c"))
    p.observe(BoardDealt(1, board, board))
    w0 = p.models[1].weights.copy()
    # seat 1 bets 10 into 30 with 3 players active
    p.observe(ActionTaken(1, Action.RAISE, 10, 1, to_call=0, pot=30, bets=0, n_active=3))
    w1 = p.models[1].weights
    live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
    hs1, _, _ = board_values(board)
    strong, weak = live & (hs1 > 0.9), live & (hs1 < 0.3)
    assert w1[strong].mean() / w1[weak].mean() > 5 * w0[strong].mean() / w0[weak].mean()
    assert np.all(w1[~live] == w0[~live]) and np.all(w1 >= 0.01)
    assert np.all(p.models[2].weights == 1.0)  # other opponents untouched
    # pre-flop re-weighting is Loki-1's (same tables as a Loki-1 player after the same action)
    q1 = build_loki1(seed=0)
    q2 = build_loki2(Loki2Config(features=frozenset("R")), seed=0)
    for q in (q1, q2):
        q.begin_hand(0, cfg, hole, button=2)
        q.observe(ActionTaken(1, Action.RAISE, 20, 0, to_call=10, pot=15, bets=1, n_active=3))
    assert np.array_equal(q1.models[1].weights, q2.models[1].weights)


def _session(spec: str, n_hands: int, seed: int):
    cfg = GameConfig(n_players=10)
    players = [
        make_player(spec, seed=100 + i)
        if i in (2, 7)
        else make_player(("loki1", "loki1:TC", "loki1:LA")[i % 3], seed=i)
        for i in range(10)
    ]
    totals = play_session(cfg, players, n_hands=n_hands, seed=seed)
    return players, totals


@pytest.mark.parametrize("spec", ["loki2:B", "loki2:R", "loki2:BR", "loki2:S:trials=60", "loki2:BRS:trials=60"])
def test_variants_play_1000_hands(spec):
    players, totals = _session(spec, 1000, seed=2026)
    assert sum(totals) == 0
    last = players[2].last_postflop
    if "S" in spec:
        assert isinstance(last, SimDecision) and isinstance(last.result, SimResult) and 1 <= last.result.trials <= 60
    elif "B" in spec:
        assert isinstance(last, TripleDecision) and last.rule in RULES


def test_fast_simulator_variant_and_style_play():
    _, totals = _session("loki2:BRS:LA:trials=100:fast:cutoff=paired", 200, seed=7)
    assert sum(totals) == 0


def test_sessions_are_reproducible():
    _, a = _session("loki2:BRS:trials=40", 60, seed=3)
    _, b = _session("loki2:BRS:trials=40", 60, seed=3)
    assert a == b
