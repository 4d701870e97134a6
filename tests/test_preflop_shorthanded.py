"""Short-handed pre-flop: the expert system follows the sources heads-up and three-handed, and the
"adaptive" model (DEFAULT, beyond the sources) reads the opponent models."""

import numpy as np
import pytest

from loki.assessment.income_rate import holding_equity, load_class_equity, load_tables
from loki.cards import CLASS_NAMES, HOLDING_CARDS, class_holdings, format_cards
from loki.engine import Action, GameConfig, new_hand
from loki.errors import ConfigError
from loki.modeler import Loki1Modeler, ModelStore, OpponentModel
from loki.players.base import Player
from loki.players.loki import Loki1Config, Loki2Config, build_loki1, build_loki2
from loki.players.registry import make_player, parse_player
from loki.players.table import play_hand
from loki.preflop import (
    PROBABILITY_PLAY,
    SB_CALL_MARGIN,
    AdaptiveSettings,
    PreflopPolicy,
    PreflopThresholds,
    expected_players,
    modelled_expected_players,
    play_probability,
    yet_to_act_seats,
)
from loki.preflop.strategies import Strategy

TABLES = load_tables()
TH = PreflopThresholds.default()


def hand_with_ir(table: int, lo: float, hi: float, avoid: str = "") -> str:
    """Two cards (text) of a class whose IR in ``table`` lies in [lo, hi), sharing no card with ``avoid``."""
    for c in np.argsort(TABLES[table]):
        if lo <= TABLES[table][c] < hi:
            for h in class_holdings(int(c)):
                text = format_cards(int(x) for x in HOLDING_CARDS[h])
                if not any(text[i : i + 2] in avoid for i in (0, 2)):
                    return text
    raise AssertionError(f"no class with IR{table} in [{lo}, {hi})")


def spot(n: int, holes: list[str], actions: str = ""):
    """A pre-flop spot: ``n`` players, button on seat 0, ``actions`` applied; returns (state, view of the player to
    act, legal actions)."""
    st = new_hand(GameConfig(n_players=n), button=0, hole_cards=holes, rng=0)
    st.apply_many(actions)
    v = st.view(st.current_player)
    return st, v, st.legal_actions()


FILL = ["9s8s", "Td9d", "JcTc", "6h5h", "4c4d"]


def holes_for(n: int, seat: int, cards: str) -> list[str]:
    others = [h for h in FILL if not any(cards[i : i + 2] in h for i in (0, 2))]
    out = []
    for s in range(n):
        out.append(cards if s == seat else others.pop(0))
    return out


# --------------------------------------------------------------------------- the sources, short-handed (expert)
def test_heads_up_small_blind_first_decision_reads_ir2_at_position_1():
    # Heads-up the button is the small blind and acts first: num_inpot = 2 (both blinds, ourselves included),
    # nobody yet to act (the big blind is a blind), position = num_inpot − 1 = 1; E = 2 -> group "2" -> IR2.
    cards = "AsKd"
    st, v, legal = spot(2, holes_for(2, 0, cards))
    assert v.seat == st.small_blind_seat == 0
    assert v.preflop_situation() == (2, 0, 1)
    assert expected_players(2, 0) == 2.0
    p = PreflopPolicy()
    d = p.decide(v, legal)
    ch = d.choice
    assert (ch.group, ch.position, ch.small_blind, ch.expected) == ("2", 1, True, 2.0)
    assert ch.ir == TABLES[2][CLASS_NAMES.index("AKo")]
    assert ch.thresholds == TH.thresholds("2", "loose", 1)


def test_heads_up_big_blind_facing_a_raise_is_group_2_position_0():
    st, v, legal = spot(2, holes_for(2, 1, "QhJh"), "r")
    assert v.seat == st.big_blind_seat
    assert v.preflop_situation() == (2, 0, 0)
    ch = PreflopPolicy().decide(v, legal).choice
    assert (ch.group, ch.position, ch.small_blind, ch.call_limit) == ("2", 0, False, None)
    assert ch.ir == TABLES[2][CLASS_NAMES.index("QJs")]


@pytest.mark.parametrize(
    "actions, situation, group",
    [
        ("", (3, 0, 0), "3-4"),  # the button first: both blinds count as in the pot (papp/node44)
        ("f", (2, 0, 1), "2"),  # the small blind after the button folds
        ("c", (3, 0, 2), "3-4"),  # the small blind after the button limps: position num_inpot − 1
        ("fc", (2, 0, 0), "2"),  # the big blind after a fold and the small blind's completion
        ("rc", (3, 0, 0), "3-4"),  # the big blind after a raise and a call
        ("rf", (2, 0, 0), "2"),  # the big blind against the raiser alone
    ],
)
def test_three_handed_groups_follow_eq_6_2(actions, situation, group):
    st, v, legal = spot(3, FILL[:3], actions)
    assert v.preflop_situation() == situation
    inpot, yet, _ = situation
    ch = PreflopPolicy().decide(v, legal).choice
    assert ch.group == group and ch.expected == expected_players(inpot, yet)
    assert ch.ir == TABLES[{"2": 2, "3-4": 4}[group]][CLASS_NAMES.index(CLASS_NAMES[ch_class(v)])]


def ch_class(v) -> int:
    from loki.cards import HOLDING_CLASS, HOLDING_INDEX

    c0, c1 = v.hole_cards
    return int(HOLDING_CLASS[HOLDING_INDEX[c0, c1]])


def test_small_blind_call1_call2_defaults_heads_up():
    # DEFAULT (loki-algorithms.md §2.2): Call1 = T(Make1) − 100, Call2 = T(Make2) − 100 at position num_inpot − 1.
    t = TH.thresholds("2", "loose", 1)
    t1, t2 = t[Strategy.MAKE1], t[Strategy.MAKE2]
    assert t2 - SB_CALL_MARGIN < t1  # the group-2 loose row: Call2's band starts below Make1's threshold
    cases = [
        (hand_with_ir(2, t1 - SB_CALL_MARGIN, t2 - SB_CALL_MARGIN), Strategy.CALL1),
        (hand_with_ir(2, t2 - SB_CALL_MARGIN, t2), Strategy.CALL2),  # Call2 is more aggressive than Make1
        (hand_with_ir(2, -1000, t1 - SB_CALL_MARGIN), Strategy.MAKE0),
        (hand_with_ir(2, t2, t[Strategy.MAKE4]), Strategy.MAKE2),
    ]
    for cards, strategy in cases:
        st, v, legal = spot(2, holes_for(2, 0, cards))
        d = PreflopPolicy().decide(v, legal)
        assert d.choice.strategy is strategy, cards
        # Call1/Call2 complete the half bet; Make0 folds it; Make2 raises
        want = {Strategy.MAKE0: Action.FOLD, Strategy.MAKE2: Action.RAISE}.get(strategy, Action.CALL)
        assert d.action is want


def test_small_blind_call_limits_before_and_after_voluntary_money():
    t = TH.thresholds("3-4", "loose", 2)  # 3-handed, the button limped: SB at position num_inpot − 1 = 2
    call1 = hand_with_ir(4, t[Strategy.MAKE1] - SB_CALL_MARGIN, min(t[Strategy.MAKE1], t[Strategy.MAKE2] - 100))
    # Call1 ("call 0.5 bet"): completes after a limp, folds to a raise before putting money in
    st, v, legal = spot(3, holes_for(3, 1, call1), "c")
    d = PreflopPolicy().decide(v, legal)
    assert d.choice.strategy is Strategy.CALL1 and d.choice.call_limit == 0.5 and d.action is Action.CALL
    st, v, legal = spot(3, holes_for(3, 1, call1), "r")  # 1.5 bets to call
    p = PreflopPolicy()
    d = p.decide(v, legal)
    assert d.choice.small_blind and d.action is Action.FOLD
    # after completing (voluntary money in), Call1 calls a raise: the Make1/Call1 exception (papp/node44)
    st, v, legal = spot(3, holes_for(3, 1, call1), "c")
    p = PreflopPolicy()
    assert p.decide(v, legal).action is Action.CALL
    st.apply(Action.CALL)
    st.apply(Action.RAISE)  # the big blind raises
    st.apply(Action.CALL)  # the button calls
    v = st.view(1)
    assert st.current_player == 1 and v.to_call_bets() == 1.0
    assert p.decide(v, st.legal_actions()).action is Action.CALL
    # Call2 ("call 1.5 bets"): calls a raise, folds to a 3-bet before putting money in
    tb = TH.thresholds("3-4", "loose", 2)  # the button raised: num_inpot = 3, position 2
    call2 = hand_with_ir(4, tb[Strategy.MAKE2] - SB_CALL_MARGIN, tb[Strategy.MAKE2])
    st, v, legal = spot(3, holes_for(3, 1, call2), "r")
    d = PreflopPolicy().decide(v, legal)
    assert d.choice.position == 2 and d.choice.thresholds == tb
    assert d.choice.strategy is Strategy.CALL2 and d.choice.call_limit == 1.5 and d.action is Action.CALL
    # four-handed, UTG raises and the button re-raises: 2.5 bets to call, num_inpot = 4 (position 3)
    t4 = TH.thresholds("3-4", "loose", 3)
    call2 = hand_with_ir(4, t4[Strategy.MAKE2] - SB_CALL_MARGIN, t4[Strategy.MAKE2])
    st, v, legal = spot(4, holes_for(4, 1, call2), "rr")
    assert v.seat == 1 and v.to_call_bets() == 2.5 and v.preflop_situation() == (4, 0, 3)
    d = PreflopPolicy().decide(v, legal)
    assert d.choice.strategy is Strategy.CALL2 and d.action is Action.FOLD


def test_make1_special_fold_rule_in_play():
    # Make1 folds facing two or more bets unless it has voluntarily put money in this round (papp/node44).
    t = TH.thresholds("3-4", "loose", 0)
    make1 = hand_with_ir(4, t[Strategy.MAKE1], t[Strategy.MAKE2])
    # the big blind (a blind is not voluntary money) facing a raise and a re-raise: two bets to call -> fold
    st, v, legal = spot(3, holes_for(3, 2, make1), "rr")
    d = PreflopPolicy().decide(v, legal)
    assert d.choice.strategy is Strategy.MAKE1 and v.to_call_bets() == 2.0 and d.action is Action.FOLD
    # the button limps with Make1, then faces a raise and a re-raise: it is in voluntarily -> calls
    st, v, legal = spot(3, holes_for(3, 0, make1))
    p = PreflopPolicy()
    d = p.decide(v, legal)
    assert d.choice.strategy is Strategy.MAKE1 and d.action is Action.CALL
    st.apply(Action.CALL)
    st.apply(Action.RAISE)
    st.apply(Action.RAISE)
    v = st.view(0)
    assert st.current_player == 0 and v.to_call_bets() == 2.0 and v.voluntary_this_round[0]
    assert p.decide(v, st.legal_actions()).action is Action.CALL


# --------------------------------------------------------------------------- the class-equity matrix
def test_class_equity_matrix_agrees_with_ir2_and_is_antisymmetric():
    m = load_class_equity()
    assert np.allclose(m + m.T, 1.0, atol=2e-4) and np.allclose(np.diag(m), 0.5)  # 4 decimals in the file
    # against a uniform range the matrix gives the IR2 table's showdown share: E = (IR2/1000 + 1)/2
    for name in ("AA", "72o", "32s", "T9s", "AKo", "55"):
        h = class_holdings(name)[0]
        eq = holding_equity(tuple(int(x) for x in HOLDING_CARDS[h]), np.ones(1326))
        assert abs(eq - (TABLES[2][CLASS_NAMES.index(name)] / 1000 + 1) / 2) < 0.004, name
    aa, kk = CLASS_NAMES.index("AA"), CLASS_NAMES.index("KK")
    assert 0.80 < m[aa, kk] < 0.84  # AA against KK: about 82 %
    with pytest.raises(ValueError):
        holding_equity((0, 1), np.ones(5))
    with pytest.raises(ValueError):
        holding_equity((0, 1), np.zeros(1326))


def test_holding_equity_is_the_weighted_class_average_summed_in_holding_order():
    # oracle: a loop over the 1,326 holdings with an exactly rounded sum (math.fsum); the function's pairwise sum is
    # within a few ulps of it, and it is numpy's sum of the products (no BLAS: the same floats on every CPU)
    import math

    from loki.cards import HOLDING_CLASS

    m = load_class_equity()
    rng = np.random.default_rng(5)
    for _ in range(20):
        w = rng.random(1326) * (rng.random(1326) < 0.7)
        hole = tuple(int(x) for x in HOLDING_CARDS[int(rng.integers(1326))])
        c = int(HOLDING_CLASS[[h for h in range(1326) if set(HOLDING_CARDS[h]) == set(hole)][0]])
        live = [h for h in range(1326) if not set(int(x) for x in HOLDING_CARDS[h]) & set(hole)]
        num = math.fsum(float(w[h]) * float(m[c, HOLDING_CLASS[h]]) for h in live)
        den = math.fsum(float(w[h]) for h in live)
        got = holding_equity(hole, w)
        assert abs(got - num / den) <= 1e-14
        wl = np.where([not set(int(x) for x in HOLDING_CARDS[h]) & set(hole) for h in range(1326)], w, 0.0)
        assert got == float(np.add.reduce(wl * m[c][HOLDING_CLASS])) / float(wl.sum())


def test_load_class_equity_rejects_a_bad_file(tmp_path):
    bad = tmp_path / "eq.csv"
    bad.write_text("class,AA\nAA,0.5\n")
    with pytest.raises(ConfigError, match="eq.csv"):
        load_class_equity(bad)


# --------------------------------------------------------------------------- the adaptive model
def counts_model(fold: int, call: int, raise_: int, bucket: int = 1) -> OpponentModel:
    m = OpponentModel()
    for a, k in ((Action.FOLD, fold), (Action.CALL, call), (Action.RAISE, raise_)):
        for _ in range(k):
            m.frequencies.record(0, bucket, a)
    return m


def test_play_probability_blends_from_the_060_default():
    assert play_probability(None, 1) == PROBABILITY_PLAY == 0.6
    assert play_probability(OpponentModel(), 1) == 0.6
    assert play_probability(counts_model(0, 5, 5), 1) == pytest.approx(0.5 * 1.0 + 0.5 * 0.6)  # 10 of 20
    assert play_probability(counts_model(40, 10, 0), 1) == pytest.approx(0.2)  # enough observations: observed
    assert play_probability(counts_model(40, 10, 0), 2) == 0.6  # another context
    s = AdaptiveSettings(observations=5, default_play=0.5)
    assert play_probability(counts_model(0, 5, 0), 1, s) == 1.0
    with pytest.raises(ValueError):
        play_probability(None, 0)
    with pytest.raises(ConfigError):
        AdaptiveSettings(realization=0.0)
    with pytest.raises(ConfigError):
        AdaptiveSettings(default_play=1.5)


def test_modelled_expected_players_counts_each_opponent_yet_to_act():
    # six-handed, the thesis example: two folds, Loki (seat 5) to act, the button (seat 0) behind
    st, v, legal = spot(6, ["2c3d", "4h5s", "6c7d", "8h9s", "TcJd", "QhKs"], "ff")
    folded = {s for s, f in enumerate(v.folded) if f}
    acted = {s for s, a in enumerate(v.acted_this_round) if a}
    assert yet_to_act_seats(v.preflop_order, 5, 1, 2, folded, acted) == [0]
    assert modelled_expected_players(v, None) == pytest.approx(3.6)  # no models: Eq. 6.2 as published
    store = {0: counts_model(38, 1, 1)}  # the button folds 95 % of the time
    assert modelled_expected_players(v, store) == pytest.approx(3 + 0.05)
    store = {0: counts_model(0, 30, 10)}
    assert modelled_expected_players(v, store) == pytest.approx(4.0)
    # UTG of a 10-handed table: seven players yet to act, each with its own probability
    st, v, legal = spot(10, [f"{r}c{r}d" for r in "23456789TJ"])
    models = {s: counts_model(16, 4, 0) for s in range(10)}  # 20 % players
    assert modelled_expected_players(v, models) == pytest.approx(3 + 7 * 0.2)
    p = PreflopPolicy(model="adaptive")
    assert p.decide(v, legal, models).choice.group == "3-4"  # 4.4, where the 0.60 default gives 7.2 -> "5+"
    assert PreflopPolicy().decide(v, legal, models).choice.group == "5+"


def test_expert_model_ignores_the_models():
    st, v, legal = spot(10, [f"{r}c{r}d" for r in "23456789TJ"])
    models = {s: counts_model(16, 4, 0) for s in range(10)}
    a, b = PreflopPolicy(), PreflopPolicy()
    assert a.decide(v, legal, models) == b.decide(v, legal)
    with pytest.raises(ValueError):
        PreflopPolicy(model="clairvoyant")


def raised_model(raise_freq: float) -> OpponentModel:
    """A model of an opponent seen to raise ``raise_freq`` of the time facing one bet pre-flop, re-weighted by
    Loki-1's rule after it raised (papp/node58-60)."""
    n = 100
    r = int(round(raise_freq * n))
    m = counts_model(n - r - (n - r) // 2, (n - r) // 2, r)
    from loki.engine import ActionTaken

    ev = ActionTaken(seat=0, action=Action.RAISE, amount=15, round=0, to_call=5, pot=15, bets=1, n_active=2)
    m.new_hand()
    Loki1Modeler().reweight(m, ev, 1, None)
    return m


def test_heads_up_defends_against_wild_raisers_and_folds_to_tight_ones():
    # the big blind holds a middling hand facing the small blind's raise
    cards = "9h6d"
    st, v, legal = spot(2, holes_for(2, 1, cards), "r")
    p = PreflopPolicy(model="adaptive")
    wild = p.decide(v, legal, {0: raised_model(0.9)})
    assert wild.action is Action.CALL and wild.choice.heads_up.modelled
    hu = wild.choice.heads_up
    assert hu.price == pytest.approx(1 / 4) and hu.required == pytest.approx(1.3 / 4)
    assert hu.equity >= hu.required and hu.value == pytest.approx(1000 * (2 * hu.equity - 1))
    tight = PreflopPolicy(model="adaptive").decide(v, legal, {0: raised_model(0.05)})
    assert tight.action is Action.FOLD and tight.choice.heads_up.equity < hu.equity
    # the expert system folds this hand either way (group-2 Make1 at position 0)
    assert PreflopPolicy().decide(v, legal).action is Action.FOLD
    # strong hands re-raise (Make4's threshold: two bets are in) against the wide range, only call the narrow one
    st, v, legal = spot(2, holes_for(2, 1, "QhQd"), "r")
    assert PreflopPolicy(model="adaptive").decide(v, legal, {0: raised_model(0.9)}).action is Action.RAISE
    assert PreflopPolicy(model="adaptive").decide(v, legal, {0: raised_model(0.05)}).action is Action.CALL


def test_heads_up_small_blind_completes_on_pot_odds():
    # against an unmodelled big blind (uniform range) the small blind completes any hand with equity ≥ 1.3 × 1/4
    for cards, act in (("7c2d", Action.CALL), ("Jc4d", Action.CALL), ("AsAd", Action.RAISE)):
        st, v, legal = spot(2, holes_for(2, 0, cards))
        d = PreflopPolicy(model="adaptive").decide(v, legal, None)
        assert d.action is act, cards
        assert d.choice.heads_up.price == pytest.approx(0.25) and not d.choice.heads_up.modelled
    st, v, legal = spot(2, holes_for(2, 0, "7c2d"))
    d = PreflopPolicy(model="adaptive", settings=AdaptiveSettings(realization=1.5)).decide(v, legal, None)
    assert d.action is Action.FOLD  # 72o has 0.32 against a random hand: below 1.5 × 0.25


def play_blind_defence(opponent, hands: int = 300) -> float:
    """Heads-up: the fraction of the adaptive Loki-1's big-blind hands facing a raise in which it folds."""
    me = build_loki1(Loki1Config(preflop_model="adaptive"), seed=1)
    rng = np.random.default_rng(7)
    faced = folds = 0
    for h in range(hands):
        st = play_hand(GameConfig(n_players=2), [opponent, me], button=0, rng=rng)
        evs = [e for e in st.events if getattr(e, "seat", None) == 1 and getattr(e, "round", None) == 0]
        if evs and evs[0].to_call > 0 and evs[0].bets >= 2:
            faced += 1
            folds += evs[0].action is Action.FOLD
    assert faced > 20
    return folds / faced


class AlwaysRaise(Player):
    """Raises with anything (card-blind)."""

    name = "raiser"

    def act(self, view, legal):
        return Action.RAISE if Action.RAISE in legal else Action.CALL


class NutRaiser(AlwaysRaise):
    """Raises pre-flop with the top ~8 % of hands (IR2 ≥ 300), folds the rest facing a bet; checks/calls post-flop."""

    def act(self, view, legal):
        from loki.cards import HOLDING_CLASS, HOLDING_INDEX

        if view.round == 0:
            c0, c1 = view.hole_cards
            strong = TABLES[2][HOLDING_CLASS[HOLDING_INDEX[c0, c1]]] >= 300
            if strong:
                return Action.RAISE if Action.RAISE in legal else Action.CALL
            return Action.FOLD if Action.FOLD in legal else Action.CALL
        return Action.CALL


def test_adaptive_loki_defends_blinds_against_a_wild_raiser_not_a_tight_one():
    wild = play_blind_defence(AlwaysRaise())
    tight = play_blind_defence(NutRaiser(), hands=600)
    assert wild < 0.15 and tight > 0.5, (wild, tight)


# --------------------------------------------------------------------------- configuration
def test_preflop_model_option_builds_the_policy():
    assert Loki1Config().preflop_model == "auto" and Loki2Config().preflop_model == "auto"
    p = build_loki1(Loki1Config(preflop_model="adaptive", preflop_realization=1.1))
    assert p.preflop.model == "adaptive" and p.preflop.settings.realization == 1.1
    assert build_loki2(Loki2Config(features="BR", preflop_model="adaptive")).preflop.model == "adaptive"
    assert build_loki1().preflop.model == "auto"
    cfg = parse_player({"kind": "loki2", "features": "BRS", "preflop_model": "adaptive"})
    assert make_player(cfg).preflop.model == "adaptive"
    with pytest.raises(ConfigError):
        parse_player({"kind": "loki1", "preflop_model": "clever"})
    with pytest.raises(ConfigError):
        parse_player({"kind": "loki1", "preflop_realization": 0})
    # generic modelling: every opponent plays with the 0.60 default
    assert not build_loki1(Loki1Config(preflop_model="adaptive", modelling="generic")).preflop.specific


def test_the_player_passes_its_model_store_to_the_policy():
    me = build_loki1(Loki1Config(preflop_model="adaptive"), seed=1)
    seen = []
    real = me.preflop.decide
    me.preflop.decide = lambda view, legal, models=None, blindness=None: (
        seen.append(models) or real(view, legal, models)
    )
    play_hand(GameConfig(n_players=2), [AlwaysRaise(), me], button=0, rng=3)
    assert seen and all(m is me.models for m in seen) and isinstance(me.models, ModelStore)
    assert me.models[0].frequencies.counts[0].sum() >= 1


def test_full_tables_keep_the_expert_system_in_heads_up_contests():
    # ten-handed, folded round to the small blind: a heads-up contest, but at a full table the adaptive model keeps
    # Table B.1 (the calibrated 10-player system; AdaptiveSettings.short_handed = 6)
    st, v, legal = spot(10, holes_for_ten(1, "7h2s"), "ffffffff")
    assert v.seat == 1 and v.preflop_situation() == (2, 0, 1)
    adaptive = PreflopPolicy(model="adaptive").decide(v, legal, None)
    expert = PreflopPolicy().decide(v, legal)
    assert adaptive.choice.heads_up is None and adaptive.action == expert.action == Action.FOLD
    assert adaptive.choice.strategy is expert.choice.strategy
    # the same spot six-handed: the heads-up valuation (72o completes on pot odds against a uniform range)
    st, v, legal = spot(6, holes_for_ten(1, "7h2s")[:6], "ffff")
    assert v.seat == 1 and v.preflop_situation() == (2, 0, 1)
    d = PreflopPolicy(model="adaptive").decide(v, legal, None)
    assert d.choice.heads_up is not None and d.action is Action.CALL
    with pytest.raises(ConfigError):
        AdaptiveSettings(short_handed=1)


def holes_for_ten(seat: int, cards: str) -> list[str]:
    pool = [f"{a}{b}" for a, b in zip(["Ac", "Kc", "Qc", "Jc", "Tc", "9c", "8c", "6c", "5c", "4c"],
                                       ["Ad", "Kd", "Qd", "Jd", "Td", "9d", "8d", "6d", "5d", "4d"])]  # fmt: skip
    pool[seat] = cards
    return pool


def test_auto_model_is_adaptive_short_handed_and_the_expert_system_at_full_tables():
    """The players' default pre-flop model: ``auto`` plays exactly the expert system at 10 players (same seed, same
    session) and the adaptive model heads-up (same seed, same session as ``adaptive``)."""
    from loki.engine import GameConfig
    from loki.players.registry import make_player
    from loki.players.table import play_session

    def session(n, model, hands):
        players = [make_player({"kind": "loki1", "preflop_model": model}, seed=i) for i in range(n)]
        return play_session(GameConfig(n_players=n), players, n_hands=hands, seed=5)

    assert make_player("loki1").preflop.model == "auto"
    assert session(10, "auto", 60) == session(10, "expert", 60)
    hu_auto = session(2, "auto", 300)
    assert hu_auto == session(2, "adaptive", 300) and hu_auto != session(2, "expert", 300)


def test_the_short_handed_limit_is_a_setting_of_the_player():
    """``preflop_short_handed`` moves the table size up to which ``auto`` plays its short-handed model: with 3, a
    5-handed session of ``auto`` players is exactly the expert system's; with the default 6 it is not."""
    from loki.engine import GameConfig
    from loki.players.registry import make_player
    from loki.players.table import play_session

    def session(model, limit=None):
        extra = {} if limit is None else {"preflop_short_handed": limit}
        players = [make_player({"kind": "loki1", "preflop_model": model, **extra}, seed=i) for i in range(5)]
        return play_session(GameConfig(n_players=5), players, n_hands=80, seed=7)

    assert make_player({"kind": "loki1", "preflop_short_handed": 3}).preflop.settings.short_handed == 3
    assert session("auto", 3) == session("expert")
    assert session("auto") != session("expert")
