"""Loki-1 strategies and post-flop Bettor rules on hand-built situations (PAPP98 §6; loki-algorithms.md §3)."""

import pytest

from loki.engine import Action
from loki.preflop.strategies import Strategy, strategy_action
from loki.triples.bettor import BettorConfig, decide
from loki.triples.rule_chain import pot_odds, pot_odds2, showdown_odds
from loki.triples.spot import BettingSpot, HandValues

F, C, R = Action.FOLD, Action.CALL, Action.RAISE


@pytest.mark.parametrize(
    "strategy, to_call, bets, vol, can_raise, expected",
    [
        (Strategy.MAKE0, 0.0, 1, False, True, C),  # free check (the big blind unraised)
        (Strategy.MAKE0, 1.0, 1, False, True, F),
        (Strategy.CALL1, 1.0, 1, False, True, C),
        (Strategy.CALL1, 2.0, 2, False, True, F),  # costs two bets, not voluntarily in
        (Strategy.CALL1, 2.0, 3, True, True, C),  # ... unless we already put money in voluntarily
        (Strategy.CALL1, 1.5, 2, False, True, C),  # the small blind facing a raise: 1.5 bets
        (Strategy.MAKE1, 0.0, 0, False, True, R),  # nobody has bet: bet
        (Strategy.MAKE1, 1.0, 1, False, True, C),
        (Strategy.MAKE1, 2.0, 2, False, True, F),
        (Strategy.CALL2, 3.0, 4, False, False, C),
        (Strategy.MAKE2, 1.0, 1, False, True, R),  # big blind counts as the first bet: raise to 2
        (Strategy.MAKE2, 1.0, 2, True, True, C),  # two bets made: call
        (Strategy.MAKE4, 1.0, 3, True, True, R),
        (Strategy.MAKE4, 1.0, 4, True, False, C),  # capped
    ],
)
def test_strategy_action(strategy, to_call, bets, vol, can_raise, expected):
    assert strategy_action(strategy, to_call, bets, vol, can_raise) is expected


def test_small_blind_call_limits():
    # PENA99: the small blind's Call1 is "call 0.5 bet", Call2 "call 1.5 bets"
    assert strategy_action(Strategy.CALL1, 0.5, 1, False, True, max_call_bets=0.5) is C
    assert strategy_action(Strategy.CALL1, 1.5, 2, False, True, max_call_bets=0.5) is F
    assert strategy_action(Strategy.CALL2, 1.5, 2, False, True, max_call_bets=1.5) is C
    assert strategy_action(Strategy.CALL2, 2.5, 3, False, True, max_call_bets=1.5) is F
    assert strategy_action(Strategy.CALL1, 1.0, 3, True, True, max_call_bets=0.5) is C  # already in


def test_strategy_errors():
    with pytest.raises(ValueError):
        strategy_action(Strategy.MAKE1, -1, 0, False, True)
    with pytest.raises(ValueError):
        strategy_action(9, 0, 0, False, True)


def spot(**kw):
    base = dict(street=1, pot=40.0, to_call=0.0, bet_size=10.0, bets_this_round=0)
    base.update(kw)
    return BettingSpot(**base)


def hv(e, ehs=None, hs=None, ppot=0.0):
    return HandValues(ehs_prime=e, ehs=e if ehs is None else ehs, hs_n=e if hs is None else hs, ppot=ppot)


def test_pot_odds_example_20_pot_4_call():
    # papp/node48: pot $20, call $4, 20% to win -> 4/24 = 0.167 <= 0.20 -> call (+$0.80 on average).
    assert pot_odds(20, 4) == pytest.approx(4 / 24)
    d = decide(hv(0.3, ppot=0.20), spot(pot=20.0, to_call=4.0, bet_size=4.0, bets_this_round=1))
    assert (d.action, d.rule) == (C, "pot odds")
    assert 0.20 * 24 - 4 == pytest.approx(0.80)
    # a $12 pot: 4/16 = 0.25 > 0.20 -> fold (EV -$0.80)
    d = decide(hv(0.3, ppot=0.20), spot(pot=12.0, to_call=4.0, bet_size=4.0, bets_this_round=1))
    assert (d.action, d.rule) == (F, "fold")


def test_river_pot_odds_use_hs_n():
    s = spot(street=3, pot=100.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    assert decide(hv(0.3, hs=0.3, ppot=0.0), s).action is C  # 20/120 = 0.167 <= 0.3
    assert decide(hv(0.1, hs=0.1, ppot=0.9), s).action is F  # PPot ignored on the river


def test_strong_hand_make2():
    assert decide(hv(0.9), spot()).action is R
    assert decide(hv(0.9), spot(to_call=10.0, bets_this_round=1)).action is R
    d = decide(hv(0.9), spot(to_call=10.0, bets_this_round=2, voluntarily_in=True))
    assert (d.action, d.rule) == (C, "make2")
    assert decide(hv(0.9), spot(to_call=10.0, bets_this_round=1, can_raise=False)).action is C


def test_medium_hand_make1():
    assert decide(hv(0.6), spot()).action is R  # bet when nobody has bet
    d = decide(hv(0.6), spot(to_call=10.0, bets_this_round=1))
    assert (d.action, d.rule) == (C, "make1")
    # facing two bets without having put money in: Make1 would fold; the odds rules decide.
    d = decide(hv(0.6, ppot=0.05), spot(pot=60.0, to_call=20.0, bets_this_round=2))
    assert (d.action, d.rule) == (F, "fold")
    d = decide(hv(0.6, ppot=0.3), spot(pot=60.0, to_call=20.0, bets_this_round=2))
    assert (d.action, d.rule) == (C, "pot odds")
    d = decide(hv(0.6, ppot=0.05), spot(pot=60.0, to_call=10.0, bets_this_round=2, voluntarily_in=True))
    assert (d.action, d.rule) == (C, "make1")


def test_semi_bluff():
    s = spot(pot=40.0, bet_size=10.0)
    po2 = pot_odds2(40.0, 10.0)
    assert po2 == pytest.approx(20 / 100)
    assert decide(hv(0.3, ppot=po2 + 0.01), s).rule == "semi-bluff"
    assert decide(hv(0.3, ppot=po2 - 0.01), s).action is C
    assert decide(hv(0.3, ppot=0.5), s, BettorConfig(semi_bluff=False)).action is C
    # continuation on a later street while nobody bets
    s2 = spot(street=2, pot=80.0, bet_size=20.0, semi_bluffing=True)
    assert decide(hv(0.3, ppot=0.0), s2).rule == "semi-bluff continuation"
    assert (
        decide(
            hv(0.2, ppot=0.0), spot(street=2, pot=80, bet_size=20, to_call=20, bets_this_round=1, semi_bluffing=True)
        ).action
        is F
    )


def test_showdown_odds_turn():
    s = spot(street=2, pot=200.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    need = showdown_odds(200.0, 20.0, 20.0)
    assert need == pytest.approx(40 / 260)
    d = decide(hv(0.2, ehs=need + 0.01, hs=0.0, ppot=0.0), s)
    assert (d.action, d.rule) == (C, "showdown odds")
    assert decide(hv(0.2, ehs=need - 0.01, hs=0.0, ppot=0.0), s).action is F


def test_check_raise():
    s = spot(first_to_act=True, aggressor_behind=True)
    assert decide(hv(0.9), s, u=0.2).rule == "check-raise"
    assert decide(hv(0.9), s, u=0.7).action is R
    assert decide(hv(0.9), spot(first_to_act=True), u=0.2).action is R  # no aggressor behind
    # after checking, facing a bet: raise
    assert decide(hv(0.9), spot(to_call=10.0, bets_this_round=1), u=0.2).action is R


def test_aggressive_pot_odds_raise():
    s = spot(pot=20.0, to_call=4.0, bet_size=4.0, bets_this_round=1)
    cfg = BettorConfig(make1=0.4, make2=0.75, aggressive_call_raise=0.65)
    assert decide(hv(0.3, ppot=0.2), s, cfg).action is C
    # EHS' 0.7 >= make1 0.4: the Make1 call becomes a raise above 0.65 (the style's point)
    d = decide(hv(0.7, ppot=0.2), s, cfg)
    assert (d.action, d.rule) == (R, "make1 (aggressive raise)")
    assert decide(hv(0.6, ppot=0.2), s, cfg).rule == "make1"
    assert (
        decide(
            hv(0.7, ppot=0.2), spot(pot=20.0, to_call=4.0, bet_size=4.0, bets_this_round=1, can_raise=False), cfg
        ).action
        is C
    )
    # facing two bets without money in, Make1 passes the hand on; the pot-odds call raises above 0.65
    d = decide(hv(0.7, ppot=0.5), spot(pot=60.0, to_call=20.0, bets_this_round=2), cfg)
    assert (d.action, d.rule) == (R, "pot odds (aggressive raise)")


def test_never_fold_when_free_never_raise_when_capped():
    import itertools

    for e, pp, street in itertools.product([0.0, 0.3, 0.6, 0.95], [0.0, 0.5], [1, 2, 3]):
        d = decide(hv(e, ppot=pp), spot(street=street, can_raise=False))
        assert d.action is C
        d = decide(hv(e, ppot=pp), spot(street=street, to_call=10.0, bets_this_round=4, can_raise=False))
        assert d.action in (F, C)


def test_bad_spots():
    with pytest.raises(ValueError):
        BettingSpot(street=0, pot=10, to_call=0, bet_size=10, bets_this_round=0)
    with pytest.raises(ValueError):
        BettorConfig(make1=0.9, make2=0.5)
