"""The reference players: maniac and equity, against independent computations."""

from __future__ import annotations

import numpy as np
from scipy import stats

from loki.assessment import hand_strength
from loki.engine import CALL, FOLD, RAISE, GameConfig, new_hand
from loki.players.registry import make_player
from loki.players.simple import EquityPlayer, Maniac


def test_maniac_frequencies_and_card_blindness():
    """Facing a bet it folds 6 % and raises half of the rest (binomial tests at the 0.1 % level, fixed seed);
    the same seed gives the same actions whatever the cards."""
    a, b = Maniac(seed=7), Maniac(seed=7)
    facing = new_hand(GameConfig(n_players=2), button=0, hole_cards=["AsAh", "7c2d"], board="2s3s4s5d6d")
    other = new_hand(GameConfig(n_players=2), button=0, hole_cards=["7c2d", "AsAh"], board="KhQhJh9c8c")
    legal = facing.legal_actions()
    acts = [a.act(facing.view(0), legal) for _ in range(20000)]
    assert acts == [b.act(other.view(0), legal) for _ in range(20000)]  # never looks at its cards
    n_fold = acts.count(FOLD)
    n_raise = acts.count(RAISE)
    assert stats.binomtest(n_fold, len(acts), 0.06).pvalue > 1e-3
    assert stats.binomtest(n_raise, len(acts) - n_fold, 0.5).pvalue > 1e-3
    free = new_hand(GameConfig(n_players=2), button=0, rng=1)
    free.apply("c")  # the big blind may check
    assert FOLD not in {Maniac(seed=s).act(free.view(1), free.legal_actions()) for s in range(200)}


def test_equity_player_raises_exactly_above_one_half():
    rng = np.random.default_rng(3)
    p = EquityPlayer()
    for _ in range(40):
        cards = rng.choice(52, 9, replace=False).tolist()
        s = new_hand(GameConfig(n_players=2), button=0, hole_cards=[cards[0:2], cards[2:4]], board=cards[4:9])
        s.apply_many("cc/cc/cc/")  # to the river, seat 1 first to act (heads-up the big blind acts first)
        seat = s.current_player
        hs = hand_strength(s.hole_cards(seat), s.board, np.ones(1326))  # equity on the river = HS against uniform
        want = RAISE if hs > 0.5 else CALL
        assert p.act(s.view(seat), s.legal_actions()) is want
    pre = new_hand(GameConfig(n_players=2), button=0, hole_cards=["AsAh", "7c2d"], board="2s3s4s5d6d")
    assert p.act(pre.view(0), pre.legal_actions()) is RAISE  # AA: IR2 > 0
    pre = new_hand(GameConfig(n_players=2), button=0, hole_cards=["7c2d", "AsAh"], board="2s3s4s5d6d")
    assert p.act(pre.view(0), pre.legal_actions()) is CALL  # 72o never folds


def test_reference_kinds_in_the_registry():
    assert make_player("maniac", seed=1).name == "maniac" and make_player("equity").name == "equity"
