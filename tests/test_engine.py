"""Tests of the fixed-limit rules engine: unit tests, a pokerkit oracle on random hands, and the
ACPC dealer logs reproduced hand by hand."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from loki.cards import format_cards, parse_cards
from loki.engine import (
    CALL,
    FOLD,
    RAISE,
    Action,
    ActionTaken,
    BlindPosted,
    BoardDealt,
    GameConfig,
    HandEnded,
    HandStarted,
    IllegalActionError,
    Showdown,
    new_hand,
    preflop_situation,
)

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
ACPC = SHARED / "acpc"

BROADWAY = "AsKdQhJcTs"  # rainbow broadway: every player plays the board (no flush, no pair)


def snapshot(s):
    return (
        s.history,
        s.committed,
        s.total_committed,
        s.stacks,
        s.folded,
        s.all_in,
        s.current_player,
        s.legal_actions(),
        len(s.events),
        s.round,
        s.board,
        s.pot,
        s.bets_this_round,
        s.is_terminal,
        repr(s),
    )


# --------------------------------------------------------------------------------------------
# configuration and actions


def test_config_defaults_and_validation():
    c = GameConfig()
    assert (c.n_players, c.small_bet, c.big_bet, c.small_blind, c.big_blind, c.max_bets, c.stacks) == (
        2,
        10,
        20,
        5,
        10,
        4,
        None,
    )
    assert c.bet_sizes == (10, 10, 20, 20) and c.raise_caps == (3, 4, 4, 4)
    assert GameConfig(n_players=3, stacks=50).stacks == (50, 50, 50)
    for bad in (
        dict(n_players=1),
        dict(n_players=11),
        dict(small_bet=0),
        dict(small_blind=20),
        dict(max_bets=0),
        dict(stacks=0),
        dict(n_players=3, stacks=(10, 10)),
        dict(odd_chip="random"),
        dict(n_players=2.5),
    ):
        with pytest.raises(ValueError, match="GameConfig"):
            GameConfig(**bad)


def test_action_parsing():
    assert [a.char for a in Action] == ["f", "c", "r"]
    assert Action.parse("f") is FOLD and Action.parse("Check") is CALL and Action.parse("bet") is RAISE
    assert Action.parse(2) is RAISE and Action.parse(np.int64(1)) is CALL
    for bad in ("x", 3, -1, None, True):
        with pytest.raises(ValueError):
            Action.parse(bad)


def test_new_hand_errors():
    cfg = GameConfig(n_players=3)
    with pytest.raises(ValueError, match="button"):
        new_hand(cfg, button=3, rng=0)
    with pytest.raises(ValueError, match="rng"):
        new_hand(cfg, 0)
    with pytest.raises(ValueError, match="duplicate"):
        new_hand(cfg, 0, hole_cards=["AsKs", "AsQd", "2c3c"], board=BROADWAY)
    with pytest.raises(ValueError, match="3 players"):
        new_hand(cfg, 0, hole_cards=["AsKs", "2c3c"], rng=1)


# --------------------------------------------------------------------------------------------
# legal actions, order, cap


def test_blinds_and_order_ring():
    cfg = GameConfig(n_players=6)
    s = new_hand(cfg, button=4, rng=1)
    assert (s.small_blind_seat, s.big_blind_seat) == (5, 0)
    assert s.committed == (10, 0, 0, 0, 0, 5)
    assert s.current_player == 1  # left of the big blind
    assert s.legal_actions() == (FOLD, CALL, RAISE)
    assert s.to_call() == 10 and s.to_call(5) == 5 and s.to_call_bets(5) == 0.5 and s.to_call(0) == 0
    assert s.pot == 15 and s.bets_this_round == 1
    for a in "ccccc":  # seats 1..5 call / complete
        s.apply(a)
    assert s.current_player == 0 and s.legal_actions() == (CALL, RAISE)  # big blind's option
    s.apply("c")
    assert s.round == 1 and s.street_name == "flop" and len(s.board) == 3
    assert s.current_player == 5  # first active seat left of the button
    assert s.legal_actions() == (CALL, RAISE)  # no fold when checking is free
    assert s.bets_this_round == 0 and s.committed == (0,) * 6 and s.pot == 60


def test_heads_up_order():
    cfg = GameConfig(n_players=2)
    s = new_hand(cfg, button=1, rng=3)  # ACPC reverse blinds: seat 1 posts 5 and acts first
    assert (s.small_blind_seat, s.big_blind_seat) == (1, 0)
    assert s.committed == (10, 5) and s.current_player == 1
    s.apply(CALL)
    assert s.current_player == 0 and s.legal_actions() == (CALL, RAISE)
    s.apply(CALL)
    assert s.round == 1 and s.current_player == 0  # big blind first after the flop
    s.apply(RAISE)
    assert s.current_player == 1 and s.to_call() == 10


def test_cap_preflop_three_raises_over_bb():
    s = new_hand(GameConfig(n_players=3), button=0, rng=2)
    for a in "rrr":
        assert RAISE in s.legal_actions()
        s.apply(a)
    assert s.bets_this_round == 4 and s.raises_left == 0
    assert s.legal_actions() == (FOLD, CALL)
    assert s.max_bet == 40
    with pytest.raises(IllegalActionError, match="capped"):
        s.apply(RAISE)
    s.apply_many("cc")
    assert s.round == 1
    for a in "rrrr":
        s.apply(a)
    assert s.bets_this_round == 4 and s.legal_actions() == (FOLD, CALL)
    s.apply_many("cc")
    assert s.history == "rrrcc/rrrrcc/" and s.round == 2 and s.bet_size == 20


def test_max_bets_config():
    s = new_hand(GameConfig(n_players=2, max_bets=2), button=0, rng=2)
    s.apply("r")
    assert s.legal_actions() == (FOLD, CALL)


def test_illegal_action_leaves_state_unchanged():
    s = new_hand(GameConfig(n_players=3), button=0, rng=4)
    s.apply_many("cc")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as ei:
        s.apply(FOLD)  # big blind can check
    e = ei.value
    assert e.seat == 2 and e.action is FOLD and e.legal == (CALL, RAISE)
    assert "seat 2" in str(e) and "FOLD" in str(e) and "CALL, RAISE" in str(e)
    assert isinstance(e, ValueError)
    for bad in ("x", 7):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    assert snapshot(s) == before
    s.apply_many("rrr")
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        s.apply("r")
    assert snapshot(s) == before


def test_apply_after_terminal():
    s = new_hand(GameConfig(n_players=2), button=0, rng=4)
    s.apply("f")
    assert s.is_terminal and s.current_player is None and s.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply("c")


# --------------------------------------------------------------------------------------------
# payoffs


def test_fold_win():
    cfg = GameConfig(n_players=4)
    s = new_hand(cfg, button=0, rng=5)
    s.apply_many("rff")  # seat 3 raises, seats 0 and 1 (SB) fold
    s.apply("f")  # big blind folds
    assert s.is_terminal and not s.went_to_showdown
    assert s.payoffs == (0, -5, -10, 15) and s.payoffs_sb == (0, -0.5, -1, 1.5)
    assert isinstance(s.events[-1], HandEnded) and not s.events[-1].showdown
    assert not any(isinstance(e, Showdown) for e in s.events)
    assert s.view(0).cards_of(3) is None  # no cards shown without a showdown
    assert s.board == ()


def test_payoffs_not_ready():
    s = new_hand(GameConfig(), button=0, rng=1)
    with pytest.raises(ValueError, match="not over"):
        s.payoffs


def test_showdown_best_hand_wins():
    s = new_hand(GameConfig(n_players=2), button=0, hole_cards=["AhAd", "7c2d"], board="AsKd9h4c3s")
    s.apply_many("ccccrccc")
    assert s.payoffs == (30, -30) and s.went_to_showdown
    assert s.history == "cc/cc/rc/cc"
    ranks = s.showdown_ranks
    assert ranks[0] > ranks[1]


@pytest.mark.parametrize("rule,expected", [("left_of_button", (-5, 3, 2)), ("split", (-5, 2.5, 2.5))])
def test_split_pot_and_odd_chip(rule, expected):
    # ACPC 3p hand 256 shape: button seat 2, SB seat 0 folds, seats 1 and 2 split 25 chips
    cfg = GameConfig(n_players=3, odd_chip=rule)
    s = new_hand(cfg, button=2, hole_cards=["8c9c", "5s6c", "5d6d"], board=BROADWAY)
    s.apply_many("cfc/cc/cc/cc")
    assert s.payoffs == expected
    assert sum(s.payoffs) == 0
    (pot,) = s.pots
    assert pot.amount == 25 and pot.winners == (1, 2)


def test_odd_chip_goes_left_of_button_heads_up():
    # heads-up pots are always even; three-way split of 20 chips (all limp pre-flop, SB completes)
    cfg = GameConfig(n_players=3, small_blind=5, big_blind=10)
    s = new_hand(cfg, button=0, hole_cards=["2c3c", "2d3d", "2h3h"], board=BROADWAY)
    s.apply_many("ccc/ccc/ccc/ccc")
    assert s.payoffs == (0, 0, 0)
    cfg = GameConfig(n_players=4, small_blind=5, big_blind=10)
    s = new_hand(cfg, button=1, hole_cards=["2c3c", "2d3d", "2h3h", "4c5c"], board=BROADWAY)
    # seat 0 (button+3) calls, seat 1 (button) calls, seat 2 (SB) folds, seat 3 (BB) checks
    s.apply_many("ccfc/ccc/ccc/ccc")
    assert s.pot == 35
    # 35 = 3 x 11 + 2: the whole remainder goes to the first winner left of the button (seat 3)
    (pot,) = s.pots
    assert pot.winners == (3, 0, 1) and pot.shares == (13, 11, 11)
    assert s.payoffs == (1, 1, -5, 3)


def test_side_pots():
    cfg = GameConfig(n_players=3, stacks=(30, 100, 100))
    s = new_hand(cfg, button=2, hole_cards=["AhAd", "KhKd", "7c2d"], board="Ks9h8c4d3s")
    s.apply_many("rrcc")  # seat 2 raises to 20, seat 0 raises all-in to 30, 1 and 2 call
    assert s.all_in == (True, False, False) and s.stacks == (0, 70, 70)
    assert s.round == 1 and s.current_player == 1
    s.apply_many("rc/cc/cc")
    assert s.total_committed == (30, 40, 40)
    # KK makes a set: it wins both the main pot (90) and the side pot (20)
    assert s.payoffs == (-30, 70, -40)
    # pokerkit merges the main and side pot when the same player wins both
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [(110, (0, 1, 2), (1,))]


def test_side_pot_short_stack_wins_main():
    cfg = GameConfig(n_players=3, stacks=(30, 100, 100))
    s = new_hand(cfg, button=2, hole_cards=["AhAd", "KhKd", "7c2d"], board="Qs9h8c4d3s")
    s.apply_many("rrcc/rc/cc/cc")
    assert s.payoffs == (60, -20, -40)
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [(90, (0, 1, 2), (0,)), (20, (1, 2), (1,))]


def test_uncalled_chips_returned_and_runout():
    cfg = GameConfig(n_players=2, stacks=(100, 15))
    s = new_hand(cfg, button=0, hole_cards=["AhAd", "KhKd"], board="Qs9h8c4d3s")
    s.apply("r")  # SB raises to 20; the BB has only 5 more chips
    assert s.to_call() == 5 and s.legal_actions() == (FOLD, CALL)
    s.apply("c")  # all-in for 15 total: 5 of the raise is returned
    assert s.is_terminal and s.history == "rc///"
    assert s.total_committed == (15, 15) and s.board == tuple(parse_cards("Qs9h8c4d3s"))
    assert s.payoffs == (15, -15)
    kinds = [type(e).__name__ for e in s.events]
    assert kinds == [
        "HandStarted",
        "BlindPosted",
        "BlindPosted",
        "ActionTaken",
        "ActionTaken",
        "BoardDealt",
        "BoardDealt",
        "BoardDealt",
        "Showdown",
        "HandEnded",
    ]


def test_blind_all_in():
    cfg = GameConfig(n_players=3, stacks=(3, 100, 100))
    s = new_hand(cfg, button=2, hole_cards=["AhAd", "KhKd", "7c2d"], board="Qs9h8c4d3s")
    assert s.all_in == (True, False, False) and s.committed == (3, 10, 0)
    s.apply_many("cc/cc/cc/cc")
    # main pot 3 x 3 = 9 won by AA (seat 0); side pot 7 + 7 = 14 won by KK (seat 1) over 72
    assert s.payoffs == (6, 4, -10)
    assert sum(s.payoffs) == 0


def test_payoffs_sum_to_zero_random():
    rng = np.random.default_rng(11)
    for i in range(300):
        n = int(rng.integers(2, 11))
        stacks = None if i % 2 else tuple(int(x) for x in rng.integers(1, 120, n))
        s = new_hand(GameConfig(n_players=n, stacks=stacks), button=int(rng.integers(n)), rng=rng)
        while not s.is_terminal:
            la = s.legal_actions()
            s.apply(la[int(rng.integers(len(la)))])
        assert sum(s.payoffs) == 0
        assert s.pot == sum(p.amount for p in s.pots)
        if stacks is not None:
            assert all(x >= -y for x, y in zip(s.payoffs, stacks))


# --------------------------------------------------------------------------------------------
# views, events, clone, determinism, replay


def test_view_hides_other_cards():
    s = new_hand(GameConfig(n_players=3), button=0, hole_cards=["AhAd", "KhKc", "7c2d"], board=BROADWAY)
    v = s.view(1)
    assert v.hole_cards == v.cards_of(1) == tuple(parse_cards("KhKc"))
    assert v.cards_of(0) is None and v.cards_of(2) is None
    assert v.pot == s.pot and v.current_player == s.current_player and v.board == ()
    with pytest.raises(AttributeError):
        v.hole_cards_of_everyone
    with pytest.raises(AttributeError):
        v.full_board
    s.apply_many("fcc/cc/cc/cc")  # seat 0 folds, 1 and 2 show down
    assert v.cards_of(2) == tuple(parse_cards("7c2d")) and v.cards_of(0) is None
    assert v.payoffs == s.payoffs


def test_view_reads_every_public_attribute_through():
    """Each public name of the state is a read-through property of the view (no failed lookup first)."""
    from loki.engine.view import VIEW_PUBLIC

    s = new_hand(GameConfig(n_players=4), button=1, rng=3)
    v = s.view(2)
    for moves in ("", "cr", "c/c"):
        s.apply_many(moves)
        for name in sorted(VIEW_PUBLIC):
            try:
                want = getattr(s, name)
            except (ValueError, AttributeError) as e:  # e.g. payoffs before the end: the view raises the same
                with pytest.raises(type(e)):
                    getattr(v, name)
                continue
            got = getattr(v, name)
            assert got == want or (isinstance(want, np.ndarray) and np.array_equal(got, want)), name
            assert isinstance(type(v).__dict__[name], property), name


def test_events_sequence():
    s = new_hand(GameConfig(n_players=2), button=0, hole_cards=["2h2d", "3h3d"], board=BROADWAY)
    s.apply_many("rc/cc/cc/cc")
    ev = s.events
    assert ev[0] == HandStarted(2, 0, None)
    assert ev[1] == BlindPosted(0, 5, "small") and ev[2] == BlindPosted(1, 10, "big")
    # the context before each action: 5 to call / pot 15 / 1 bet (the BB) for the SB's raise
    assert ev[3] == ActionTaken(0, RAISE, 15, 0, False, to_call=5, pot=15, bets=1, n_active=2)
    assert ev[4] == ActionTaken(1, CALL, 10, 0, False, to_call=10, pot=30, bets=2, n_active=2)
    assert ev[5] == BoardDealt(1, tuple(parse_cards("AsKdQh")), tuple(parse_cards("AsKdQh")))
    assert isinstance(ev[-2], Showdown) and isinstance(ev[-1], HandEnded)
    assert ev[-1].payoffs == (0, 0)  # both play the broadway board


def test_events_say_whether_a_raise_was_legal():
    """``could_raise``: what the player could do before acting (the expert system's ``RAISE in legal``) — not after a
    capped round, nor for a player whose call puts it all-in (finite stacks)."""
    s = new_hand(GameConfig(n_players=3), button=0, rng=1)
    s.apply_many("rrrc")
    assert [e.could_raise for e in s.events if isinstance(e, ActionTaken)] == [True, True, True, False]
    s = new_hand(GameConfig(n_players=2), button=0, rng=1, stacks=(100, 15))  # the big blind has 5 chips behind
    s.apply("r")  # the small blind raises to 20: calling puts the big blind all-in
    s.apply("c")
    ev = [e for e in s.events if isinstance(e, ActionTaken)]
    assert (ev[0].could_raise, ev[1].could_raise, ev[1].all_in, ev[1].amount, ev[1].to_call) == (
        True,
        False,
        True,
        5,
        10,
    )


def test_clone_is_independent():
    s = new_hand(GameConfig(n_players=3, stacks=200), button=0, rng=9)
    s.apply_many("rc")
    c = s.clone()
    before = snapshot(s)
    c.apply_many("cc")
    assert c.round == 1 and snapshot(s) == before
    d = s.clone()
    d.apply_many("cc")
    assert snapshot(d) == snapshot(c)


def test_deterministic_seed():
    cfg = GameConfig(n_players=5)
    a, b = new_hand(cfg, 2, rng=42), new_hand(cfg, 2, rng=42)
    assert [a.hole_cards(i) for i in range(5)] == [b.hole_cards(i) for i in range(5)]
    assert a.full_board == b.full_board
    c = new_hand(cfg, 2, rng=np.random.default_rng(42))
    assert c.full_board == a.full_board
    assert new_hand(cfg, 2, rng=43).full_board != a.full_board


def test_given_cards_replay_and_partial():
    cfg = GameConfig(n_players=2)
    s = new_hand(cfg, 0, hole_cards=[["Ah", "Ad"], [0, 1]], board=parse_cards(BROADWAY))
    assert s.hole_cards(1) == (0, 1)
    s.apply_many("cc")
    assert format_cards(s.board) == "AsKdQh"
    s.apply_many("cc")
    assert format_cards(s.board) == "AsKdQhJc"
    # hole cards given, board dealt from the rng around them
    t = new_hand(cfg, 0, hole_cards=["AhAd", "KhKd"], rng=1)
    assert len(set(t.full_board) | set(parse_cards("AhAdKhKd"))) == 9
    # a short board without rng is fine while the hand does not need it
    u = new_hand(cfg, 0, hole_cards=["AhAd", "KhKd"], board="")
    u.apply("f")
    assert u.payoffs == (-5, 5)


def test_repr():
    s = new_hand(GameConfig(n_players=2), button=0, rng=1)
    assert "preflop" in repr(s) and "to act: seat 0" in repr(s)
    s.apply("f")
    assert "payoffs" in repr(s)


# --------------------------------------------------------------------------------------------
# pokerkit oracle


def _pokerkit_state(cfg: GameConfig, stacks):
    pk = pytest.importorskip("pokerkit")
    A = pk.Automation
    autos = (
        A.ANTE_POSTING,
        A.BET_COLLECTION,
        A.BLIND_OR_STRADDLE_POSTING,
        A.HOLE_CARDS_SHOWING_OR_MUCKING,
        A.HAND_KILLING,
        A.CHIPS_PUSHING,
        A.CHIPS_PULLING,
    )
    # pokerkit's FixedLimitTexasHoldem allows 4 raises pre-flop: build the streets ourselves
    streets = (
        pk.Street(False, (False, False), 0, False, pk.Opening.POSITION, cfg.small_bet, cfg.max_bets - 1),
        pk.Street(True, (), 3, False, pk.Opening.POSITION, cfg.small_bet, cfg.max_bets),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, cfg.big_bet, cfg.max_bets),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, cfg.big_bet, cfg.max_bets),
    )
    return pk.State(
        autos,
        pk.Deck.STANDARD,
        (pk.StandardHighHand,),
        streets,
        pk.BettingStructure.FIXED_LIMIT,
        True,
        0,
        (cfg.small_blind, cfg.big_blind),
        0,
        stacks,
        cfg.n_players,
        mode=pk.Mode.TOURNAMENT,
    )


def _pk_legal(pks):
    out = []
    if pks.can_fold():
        out.append(FOLD)
    if pks.can_check_or_call():
        out.append(CALL)
    if pks.can_complete_bet_or_raise_to():
        out.append(RAISE)
    return tuple(out)


POLICIES = ((1, 1, 1), (0.1, 0.6, 0.3), (0.05, 0.45, 0.5), (0.2, 0.7, 0.1), (0.02, 0.5, 0.48))


def _random_stacks(rng, n):
    st = []
    for _ in range(n):
        u = rng.random()
        st.append(int(rng.integers(1, 31)) if u < 0.35 else int(rng.integers(31, 400)))
    return tuple(st)


def play_against_pokerkit(rng, n, button, finite, board=None):
    """One random hand played in lockstep on our engine and on pokerkit; returns both payoffs."""
    stacks = _random_stacks(rng, n) if finite else None
    cfg = GameConfig(n_players=n, stacks=stacks)
    s = new_hand(cfg, button, board=board, rng=rng)
    pk_index = [(button + 1 + i) % n for i in range(n)]  # pokerkit player i -> our seat (blinds first)
    pk_stacks = tuple(stacks[seat] for seat in pk_index) if finite else 10**9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pks = _pokerkit_state(cfg, pk_stacks)
        for seat in pk_index:
            pks.deal_hole(format_cards(s.hole_cards(seat)))
        full = s.full_board
        w = np.array(POLICIES[int(rng.integers(len(POLICIES)))])
        while True:
            while pks.status and pks.actor_index is None:
                if pks.can_burn_card():
                    pks.burn_card("??")
                elif pks.can_deal_board():
                    k = len(pks.board_cards)
                    pks.deal_board(format_cards(full[k : k + (3 if k == 0 else 1)]))
                else:
                    break
            if not pks.status or pks.actor_index is None:
                break
            seat = pk_index[pks.actor_index]
            assert s.current_player == seat, (s, pks.actor_index)
            legal = s.legal_actions()
            assert _pk_legal(pks) == legal, (s, legal)
            p = w[list(legal)]
            a = legal[int(rng.choice(len(legal), p=p / p.sum()))]
            s.apply(a)
            if a is FOLD:
                pks.fold()
            elif a is CALL:
                pks.check_or_call()
            else:
                pks.complete_bet_or_raise_to()
        assert s.is_terminal, s
        ours = s.payoffs
        theirs = [0] * n
        for i, seat in enumerate(pk_index):
            theirs[seat] = pks.payoffs[i]
    return s, ours, tuple(theirs)


N_CHUNKS = 10
HANDS_PER_CHUNK = 1000


@pytest.fixture
def memo_pokerkit_hands():
    """Memoise pokerkit's own ``StandardHighHand.from_game`` (a pure function of the cards).

    pokerkit re-evaluates every shown hand for every pot and player during its showdown, hand
    killing and chip pushing; caching the results keeps pokerkit's evaluation and comparisons (the
    oracle is unchanged) and halves the run time of the 10,000 hands.
    """
    pk = pytest.importorskip("pokerkit")
    func = pk.StandardHighHand.from_game.__func__
    clean = pk.Card.clean
    cache = {}

    def from_game(cls, hole_cards, board_cards=()):
        hole, board = tuple(clean(hole_cards)), tuple(clean(board_cards))
        key = (cls, hole, board)
        hand = cache.get(key)
        if hand is None:
            hand = cache[key] = func(cls, hole, board)
        return hand

    mp = pytest.MonkeyPatch()
    mp.setattr(pk.StandardHighHand, "from_game", classmethod(from_game))
    yield
    mp.undo()


@pytest.mark.parametrize("chunk", range(N_CHUNKS))
def test_random_hands_match_pokerkit(chunk, memo_pokerkit_hands):
    rng = np.random.default_rng(1000 + chunk)
    showdowns = splits = allins = 0
    for h in range(HANDS_PER_CHUNK):
        n = int(rng.integers(2, 11))
        finite = bool(h % 2)
        board = BROADWAY if rng.random() < 0.08 else None
        s, ours, theirs = play_against_pokerkit(rng, n, int(rng.integers(n)), finite, board)
        assert ours == theirs, (h, s, ours, theirs)
        assert sum(ours) == 0
        showdowns += s.went_to_showdown
        splits += any(len(p.winners) > 1 for p in s.pots)
        allins += any(s.all_in)
    # the sample exercises the interesting paths
    assert showdowns > 100 and splits > 20 and allins > 100


# --------------------------------------------------------------------------------------------
# ACPC dealer logs


def parse_acpc_log(path: Path):
    """``(hand, betting, hole cards per seat, board, payoffs, names)`` per STATE line."""
    out = []
    for line in path.read_text().splitlines():
        if not line.startswith("STATE:"):
            continue
        _, hand, betting, cards, payoffs, names = line.split(":")
        parts = cards.split("/")
        holes = parts[0].split("|")
        board = "".join(parts[1:])
        out.append((int(hand), betting, holes, board, [float(x) for x in payoffs.split("|")], names.split("|")))
    return out


@pytest.mark.parametrize("name,n,button", [("2p.limit.h1000.r0.log", 2, 1), ("3p.limit.h1000.r0.log", 3, 2)])
def test_acpc_logs_reproduced(name, n, button):
    path = ACPC / name
    if not path.exists():
        pytest.skip(f"ACPC log {path} not found (the shared material lives in ../shared next to the repo)")
    hands = parse_acpc_log(path)
    assert len(hands) == 1000
    cfg = GameConfig(n_players=n, odd_chip="split")  # ACPC divides pots exactly (doubles)
    totals = {}
    fractional = 0
    for hand, betting, holes, board, payoffs, names in hands:
        s = new_hand(cfg, button, hole_cards=holes, board=board)
        s.apply_many(betting)
        assert s.is_terminal, (hand, betting, s)
        assert s.history == betting
        assert list(s.payoffs) == payoffs, (hand, betting, s.payoffs, payoffs)
        fractional += any(x != int(x) for x in payoffs)
        for nm, x in zip(names, s.payoffs):
            totals[nm] = totals.get(nm, 0) + x
    # the SCORE line: per-player totals over the match
    score = [l for l in path.read_text().splitlines() if l.startswith("SCORE:")][0].split(":")
    expected = dict(zip(score[2].split("|"), (float(x) for x in score[1].split("|"))))
    assert totals == expected
    if n == 3:
        assert fractional == 2  # hands 256 and 964 split 5 chips: -5|2.5|2.5


def test_acting_orders_exposed_on_state_and_view():
    s = new_hand(GameConfig(n_players=6), button=2, rng=0)
    assert s.preflop_order == (5, 0, 1, 2, 3, 4)  # left of the big blind (seat 4) first
    assert s.postflop_order == (3, 4, 5, 0, 1, 2)  # left of the button first
    assert s.view(0).preflop_order == s.preflop_order
    h = new_hand(GameConfig(n_players=2), button=1, rng=0)
    assert h.preflop_order == (1, 0) and h.postflop_order == (0, 1)  # heads-up: the button acts first pre-flop
    assert h.current_player == h.preflop_order[0]


def _facts_from_events(events, n):
    """Recompute the per-round public facts from the event list (independent of the engine's bookkeeping)."""
    acted, vol, raised, prev = [False] * n, [False] * n, [False] * n, [False] * n
    count = 0
    for e in events:
        if isinstance(e, BoardDealt):
            prev, raised = raised, [False] * n
            acted, vol, count = [False] * n, [False] * n, 0
        elif isinstance(e, ActionTaken):
            assert e.voluntary == vol[e.seat]
            count += 1
            if e.action != FOLD:
                acted[e.seat] = True
                vol[e.seat] = vol[e.seat] or e.amount > 0
                raised[e.seat] = raised[e.seat] or e.action == RAISE
    return tuple(acted), tuple(vol), tuple(raised), tuple(prev), count


@pytest.mark.parametrize("stacks", [None, 60])
def test_round_facts_follow_events(stacks):
    rng = np.random.default_rng(11)
    for _ in range(300):
        n = int(rng.integers(2, 11))
        s = new_hand(GameConfig(n_players=n, stacks=stacks), button=int(rng.integers(n)), rng=rng)
        while not s.is_terminal:
            acted, vol, raised, prev, count = _facts_from_events(s.events, n)
            v = s.view(s.current_player)
            assert (v.acted_this_round, v.voluntary_this_round, v.raised_this_round) == (acted, vol, raised)
            assert (v.raised_last_round, v.actions_this_round) == (prev, count)
            if s.round == 0:
                folded = {i for i in range(n) if s.folded[i]}
                done = {i for i in range(n) if acted[i]}
                assert v.preflop_situation() == preflop_situation(
                    s.preflop_order, v.seat, s.small_blind_seat, s.big_blind_seat, folded, done
                )
            legal = s.legal_actions()
            s.apply(legal[int(rng.integers(len(legal)))])
        _facts_from_events(s.events, n)  # checks ActionTaken.voluntary on the last actions too


def test_a_views_seat_cannot_be_changed_to_read_another_seats_cards():
    from loki.engine import GameConfig, new_hand

    s = new_hand(GameConfig(n_players=3), button=0, rng=0)
    v = s.view(1)
    with pytest.raises(AttributeError):
        v.seat = 0  # type: ignore[misc]
    assert v.seat == 1 and v.hole_cards == s.hole_cards(1) and v.cards_of(0) is None
