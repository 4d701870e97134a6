"""Unit tests of the betting core (loki.betting) on hand-made state vectors.

The engine tests (pokerkit oracle, ACPC logs) exercise the same functions through HandState; these
check single rules directly, each against numbers worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from loki import betting as bt

SIZES = (10, 10, 20, 20)
CAPS = (3, 4, 4, 4)


def state(n, button, stacks=None, split=False):
    return bt.new_state(n, button, 5, 10, SIZES, CAPS, stacks, split)


def seats(st, block):
    return [int(x) for x in st[block : block + int(st[bt.N])]]


def play(st, actions):
    for a in actions:
        res = bt.apply_action(st, "fcr".index(a))
        assert res >= 0, (a, res)


@pytest.mark.parametrize(
    "n,button,blinds,pre,post",
    [
        (2, 0, (0, 1), 0, 1),  # heads-up: the button posts the small blind and acts first pre-flop
        (2, 1, (1, 0), 1, 0),
        (3, 2, (0, 1), 2, 0),
        (6, 4, (5, 0), 1, 5),
        (10, 9, (0, 1), 2, 0),
    ],
)
def test_blind_seats_and_first_to_act(n, button, blinds, pre, post):
    assert bt.blind_seats(n, button) == blinds
    assert (bt.first_seat(n, button, 0), bt.first_seat(n, button, 1), bt.first_seat(n, button, 3)) == (pre, post, post)


def test_start_hand_posts_blinds_and_opens_left_of_the_big_blind():
    st = state(4, 0)
    assert bt.start_hand(st) == 0
    assert seats(st, bt.BET) == [0, 5, 10, 0] and int(st[bt.POT]) == 15 and int(st[bt.MAX_BET]) == 10
    assert int(st[bt.CUR]) == 3 and seats(st, bt.NEED) == [1, 1, 1, 1]
    assert bt.bets_this_round(st) == 1 and bt.to_call(st, 1) == 5 and bt.to_call(st, 2) == 0


def test_legal_mask_fold_only_facing_a_bet_and_the_cap():
    st = state(3, 0)
    bt.start_hand(st)
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL | bt.CAN_RAISE
    play(st, "rrr")  # three raises over the big blind: the pre-flop cap
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL
    play(st, "cc")
    assert int(st[bt.ROUND]) == 1 and int(st[bt.CUR]) == 1  # post-flop: left of the button
    assert bt.legal_mask(st) == bt.CAN_CALL | bt.CAN_RAISE  # checking is free: no fold
    play(st, "rrrr")
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL  # 4 bets post-flop


def test_illegal_actions_return_codes_and_leave_the_state_unchanged():
    st = state(3, 0)
    bt.start_hand(st)
    play(st, "rrr")
    before = st.copy()
    assert bt.apply_action(st, bt.RAISE_A) == bt.ERR_CAPPED
    assert np.array_equal(st, before)
    play(st, "cc")
    before = st.copy()
    assert bt.apply_action(st, bt.FOLD_A) == bt.ERR_FREE_FOLD
    assert np.array_equal(st, before)
    play(st, "rf")
    play(st, "f")  # everyone else folded: over
    assert int(st[bt.STATUS]) == bt.FOLDED_OUT and int(st[bt.CUR]) == -1
    assert bt.apply_action(st, bt.CALL_A) == bt.ERR_OVER


def test_last_action_block_and_round_flags():
    st = state(3, 0)
    bt.start_hand(st)  # seat 0 (button) first pre-flop with 3 players
    play(st, "r")
    last = st[bt.LAST : bt.LAST + bt.LAST_SIZE].tolist()
    # seat 0 raised 20 chips facing 10, pot 15 before, 1 bet (the big blind), 3 in, not voluntary yet, round 0
    assert last == [0, 2, 20, 0, 10, 15, 1, 3, 0, 0]
    play(st, "fc")  # SB folds, BB calls: flop
    assert int(st[bt.ROUND]) == 1
    assert seats(st, bt.RAISED_LAST) == [1, 0, 0] and seats(st, bt.RAISED) == [0, 0, 0]
    assert seats(st, bt.ACTED) == [0, 0, 0] and int(st[bt.N_ACTIONS]) == 0
    play(st, "c")  # the big blind (seat 2) checks first on the flop (seat 1 folded)
    assert seats(st, bt.ACTED) == [0, 0, 1] and seats(st, bt.VOLUNTARY) == [0, 0, 0]


def test_legalise():
    st = state(2, 0)
    bt.start_hand(st)
    play(st, "c")  # the small blind completes; the big blind may check
    assert bt.legalise(st, bt.FOLD_A) == bt.CALL_A
    assert bt.legalise(st, bt.RAISE_A) == bt.RAISE_A
    play(st, "rrr")
    assert bt.legalise(st, bt.RAISE_A) == bt.CALL_A and bt.legalise(st, bt.FOLD_A) == bt.FOLD_A


@pytest.mark.parametrize("mask", range(1, 8))
def test_nearest_legal_and_engine_legalise_agree(mask):
    from loki.engine import Action, legalise

    legal = tuple(Action(b) for b in range(3) if mask >> b & 1)
    for a in range(3):
        want = a if mask >> a & 1 else (bt.CALL_A if mask & bt.CAN_CALL else min(legal))
        assert bt.nearest_legal(mask, a) == want
        assert legalise(Action(a), legal) is Action(want) and legalise(Action(a), list(legal)) is Action(want)
    assert bt.nearest_legal(0, bt.CALL_A) == -1
    with pytest.raises(IndexError):
        legalise(Action.CALL, ())


def test_short_call_is_all_in_and_to_call_capped_by_the_stack():
    st = state(2, 0, stacks=(100, 15))
    bt.start_hand(st)
    play(st, "r")  # the small blind raises to 20; the big blind has 5 behind
    assert bt.to_call(st, 1) == 5 and bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL
    assert bt.apply_action(st, bt.CALL_A) == bt.ROUND_ENDED | bt.HAND_ENDED
    # 5 chips of the raise nobody matched go back; the board runs out
    assert seats(st, bt.TOTAL) == [15, 15] and seats(st, bt.STACK) == [85, 0] and int(st[bt.POT]) == 30
    assert int(st[bt.ROUND]) == 3 and int(st[bt.STATUS]) == bt.SHOWDOWN


def test_incomplete_all_in_raise_does_not_reopen_the_betting():
    # pokerkit 0.7.7: on the flop seat 0 bets 10, seat 1 goes all-in for 5 more (less than a full raise);
    # seat 2 has not acted and may raise; seat 0, facing only the incomplete raise, may call, not raise
    st = state(3, 2, stacks=(200, 25, 200))
    bt.start_hand(st)
    play(st, "ccc")  # flop, 10 chips each in; seat 1 has 15 behind
    assert int(st[bt.CUR]) == 0
    play(st, "r")
    assert int(st[bt.RAISE_AMT]) == 10
    play(st, "r")  # seat 1 all-in to 15: an increment of 5 < 10
    assert seats(st, bt.ALL_IN) == [0, 1, 0] and int(st[bt.SHORT]) == 5 and int(st[bt.MAX_BET]) == 15
    assert int(st[bt.CUR]) == 2 and bt.can_raise(st, 2)
    play(st, "c")
    assert int(st[bt.CUR]) == 0 and not bt.can_raise(st, 0)
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL


def test_no_raise_when_nobody_could_call_it():
    st = state(2, 0, stacks=(100, 20))
    bt.start_hand(st)
    play(st, "r")  # small blind raises to 20: the big blind (10 behind) can only call all-in
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL
    st = state(2, 0, stacks=(100, 10))  # the big blind is all-in from the blind
    bt.start_hand(st)
    assert seats(st, bt.ALL_IN) == [0, 1]
    assert bt.legal_mask(st) == bt.CAN_FOLD | bt.CAN_CALL  # nobody could answer a raise


def test_effective_stack_rule_and_uncalled_blind():
    # the small blind is all-in for 5; the big blind's 10 already exceed what anyone could match: nobody acts,
    # the 5 chips nobody matched go back and the board runs out
    st = state(2, 0, stacks=(5, 100))
    assert bt.start_hand(st) == bt.ROUND_ENDED | bt.HAND_ENDED
    assert int(st[bt.CUR]) == -1 and int(st[bt.STATUS]) == bt.SHOWDOWN and int(st[bt.ROUND]) == 3
    assert seats(st, bt.TOTAL) == [5, 5] and seats(st, bt.STACK) == [0, 95] and int(st[bt.POT]) == 10


def test_start_round_effective_stack():
    st = state(3, 2, stacks=(100, 100, 30))
    bt.start_hand(st)
    play(st, "rrc")  # seat 2 raises to 20, 0 to 30, 1 calls... seat 2 has 10 left
    assert int(st[bt.CUR]) == 2
    play(st, "c")  # seat 2 calls all-in (30)
    assert int(st[bt.ROUND]) == 1 and seats(st, bt.ALL_IN) == [0, 0, 1]
    assert seats(st, bt.NEED) == [1, 1, 0] and int(st[bt.CUR]) == 0


@pytest.mark.parametrize("split,expected", [(False, [13.0, 11.0, 11.0]), (True, [35 / 3] * 3)])
def test_pot_share(split, expected):
    assert [bt.pot_share(35, 3, split, j) for j in range(3)] == expected
    assert [bt.pot_share(36, 3, split, j) for j in range(3)] == [12.0, 12.0, 12.0]


def _award(st, ranks):
    pots = np.zeros((bt.NMAX, 3), dtype=np.int64)
    shares = np.zeros((bt.NMAX, int(st[bt.N])))
    win = np.zeros(int(st[bt.N]))
    k = bt.award(st, np.asarray(ranks, dtype=np.int64), pots, shares, win)
    return pots[:k].tolist(), win.tolist()


def test_award_fold_out():
    st = state(3, 0)
    bt.start_hand(st)
    play(st, "rff")
    assert _award(st, [0, 0, 0]) == ([[35, 1, 1]], [35.0, 0.0, 0.0])  # 20 + 5 + 10


def test_award_side_pots_and_merging():
    st = state(3, 2, stacks=(30, 100, 100))
    bt.start_hand(st)
    play(st, "rrccrccccc")  # seat 0 all-in for 30; seats 1 and 2 bet 10 more on the flop
    assert seats(st, bt.TOTAL) == [30, 40, 40]
    # seat 0 best: main pot 90 to seat 0, side pot 20 to the better of 1 and 2 (seat 2)
    assert _award(st, [9, 5, 7]) == ([[90, 0b111, 0b001], [20, 0b110, 0b100]], [90.0, 0.0, 20.0])
    # seat 2 best: it wins both layers, merged into one pot (pokerkit)
    assert _award(st, [5, 7, 9]) == ([[110, 0b111, 0b100]], [0.0, 0.0, 110.0])


@pytest.mark.parametrize("split,win", [(False, [0.0, 13.0, 12.0]), (True, [0.0, 12.5, 12.5])])
def test_award_odd_chip(split, win):
    # 25 chips split by seats 1 and 2: the odd chip to the first winner left of the button (seat 2 is the
    # button: seat 0 first, then seat 1) under "left_of_button", exactly under "split"
    st = state(3, 2, split=split)
    bt.start_hand(st)
    play(st, "cfccccccc")
    assert int(st[bt.POT]) == 25
    assert _award(st, [0, 7, 7]) == ([[25, 0b110, 0b110]], win)


def test_dead_chips_join_the_pot():
    st = state(2, 1)
    bt.start_hand(st)
    st[bt.DEAD] = 40
    st[bt.POT] += 40
    play(st, "cccccccc")
    assert _award(st, [3, 3]) == ([[60, 0b11, 0b11]], [30.0, 30.0])
