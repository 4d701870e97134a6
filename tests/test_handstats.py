"""Per-hand player statistics (loki.tournament.handstats) on hand-built hands.

Three players, ``button=2``: seat 0 posts the small blind, seat 1 the big blind, seat 2 acts first
pre-flop; post-flop seat 0 acts first.
"""

import pytest

from loki.engine import GameConfig, new_hand
from loki.tournament.handstats import COUNTERS, HandCounts, hand_counts

CFG3 = GameConfig(n_players=3)


def hand(actions, hole=("AsAh", "KsKh", "2c7d"), board="3c8d9hJsQc", cfg=CFG3, button=2):
    s = new_hand(cfg, button=button, hole_cards=list(hole), board=board)
    s.apply_many(actions)
    assert s.is_terminal
    return s


def column(counts, name):
    return [getattr(c, name) for c in counts]


def test_limped_pot_bb_free_check_is_not_vpip_sb_completion_is():
    s = hand("ccc/ccc/ccc/ccc")
    c = hand_counts(s)
    assert column(c, "hands") == [1, 1, 1]
    assert column(c, "vpip") == [1, 0, 1]  # SB completes: VPIP; BB checks for free: not VPIP
    assert column(c, "pfr") == [0, 0, 0]
    assert column(c, "saw_flop") == [1, 1, 1]
    assert column(c, "pf_raises") == [0, 0, 0]
    assert column(c, "pf_calls") == [0, 0, 0]  # checks are not calls
    assert column(c, "showdowns") == [1, 1, 1]
    assert column(c, "showdown_wins") == [1, 0, 0]  # aces win
    assert s.payoffs == (20, -10, -10)


def test_heads_up_sb_completion_and_bb_check():
    s = hand("cc/cc/cc/cc", hole=("AsAh", "KsKh"), cfg=GameConfig(n_players=2), button=0)
    # heads-up the button (seat 0) posts the small blind and acts first pre-flop
    assert column(hand_counts(s), "vpip") == [1, 0]


def test_preflop_raise_is_vpip_and_pfr_and_a_fold_win_has_no_showdown():
    s = hand("rff")
    c = hand_counts(s)
    assert column(c, "vpip") == [0, 0, 1]  # the blinds do not count
    assert column(c, "pfr") == [0, 0, 1]
    assert column(c, "saw_flop") == [0, 0, 0]
    assert column(c, "showdowns") == [0, 0, 0]
    assert column(c, "showdown_wins") == [0, 0, 0]
    assert not s.went_to_showdown and s.payoffs == (-5, -10, 15)


def test_big_blind_raising_its_option_is_vpip_and_pfr():
    s = hand("ccrcc/ccc/ccc/ccc")
    c = hand_counts(s)
    assert column(c, "vpip") == [1, 1, 1]
    assert column(c, "pfr") == [0, 1, 0]


def test_postflop_bets_raises_calls_and_wtsd():
    # pre-flop: seat 2 raises, both blinds call; flop: 0 checks, 1 bets, 2 raises, 0 and 1 call;
    # turn: 0 bets, 1 folds, 2 calls; river: 0 bets, 2 calls; aces beat queens
    s = hand("rcc/crrcc/rfc/rc", hole=("AsAh", "KsKh", "QsQh"), board="2c5d9h3sJc")
    c = hand_counts(s)
    assert column(c, "vpip") == [1, 1, 1]
    assert column(c, "pfr") == [0, 0, 1]
    assert column(c, "saw_flop") == [1, 1, 1]
    assert column(c, "pf_raises") == [2, 1, 1]
    assert column(c, "pf_calls") == [1, 1, 2]
    assert column(c, "showdowns") == [1, 0, 1]  # seat 1 folded the turn
    assert column(c, "showdown_wins") == [1, 0, 0]
    t = sum(c, HandCounts())
    assert t.astuple() == (3, 3, 1, 3, 4, 4, 2, 1)
    assert t.af == 1.0 and t.wtsd_pct == pytest.approx(200 / 3) and t.wsd_pct == 50.0


def test_split_pot_is_a_showdown_win_for_both():
    # royal flush on the board: seats 0 and 2 split, seat 1 folded pre-flop
    s = hand("rcf/cc/cc/cc", hole=("2c3d", "4c5d", "6c7d"), board="AsKsQsJsTs")
    c = hand_counts(s)
    assert column(c, "showdowns") == [1, 0, 1]
    assert column(c, "showdown_wins") == [1, 0, 1]
    assert s.payoffs == (5, -10, 5)


def test_winning_only_a_side_pot_counts_and_an_all_in_player_sees_the_flop():
    # seat 0 (15 chips) calls all-in pre-flop with the best hand: it wins the main pot, seat 1
    # (second best) wins the side pot, seat 2 wins nothing
    cfg = GameConfig(n_players=3, stacks=(15, 100, 100))
    s = hand("rcc/cc/cc/cc", hole=("AsAh", "KsKh", "QsQh"), board="2c5d9h3sJc", cfg=cfg)
    c = hand_counts(s)
    assert [len(p.winners) for p in s.pots] == [1, 1]
    assert column(c, "saw_flop") == [1, 1, 1]
    assert column(c, "showdowns") == [1, 1, 1]
    assert column(c, "showdown_wins") == [1, 1, 0]
    assert s.payoffs == (30, -10, -20)


def test_events_input_and_errors():
    s = hand("rcc/crrcc/rfc/rc", hole=("AsAh", "KsKh", "QsQh"), board="2c5d9h3sJc")
    assert hand_counts(s.events) == hand_counts(s)
    assert hand_counts(s.events[1:], n_players=3) == hand_counts(s)  # without HandStarted
    with pytest.raises(ValueError, match="n_players"):
        hand_counts(s.events[1:])
    unfinished = new_hand(CFG3, button=2, hole_cards=["AsAh", "KsKh", "QsQh"], board="2c5d9h3sJc")
    unfinished.apply_many("rcc")
    with pytest.raises(ValueError, match="not finished"):
        hand_counts(unfinished)


def test_accumulator_ratios():
    empty = HandCounts()
    assert empty.fractions() == {"vpip": None, "pfr": None, "af": None, "wtsd": None, "wsd": None}
    assert empty.vpip_pct is None and empty.af is None
    c = HandCounts(hands=8, vpip=2, pfr=1, saw_flop=4, pf_raises=3, pf_calls=2, showdowns=2, showdown_wins=1)
    assert (c.vpip_pct, c.pfr_pct, c.af, c.wtsd_pct, c.wsd_pct) == (25.0, 12.5, 1.5, 50.0, 50.0)
    assert c.fractions() == {"vpip": 0.25, "pfr": 0.125, "af": 1.5, "wtsd": 0.5, "wsd": 0.5}
    assert list(c.as_dict()) == list(COUNTERS) and HandCounts.from_dict(c.as_dict()) == c
    d = c + c
    assert d.astuple() == tuple(2 * x for x in c.astuple()) and c.hands == 8
    c += HandCounts(hands=1)
    assert c.hands == 9 and c.vpip == 2
