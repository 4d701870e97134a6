"""AIVAT-style variance reduction: exact equities, zero-mean corrections, unbiased estimates.

Source of the method: Burch, Schmid, Moravčík, Morrill, Bowling, "AIVAT: A New Variance Reduction Technique for
Agent Evaluation in Imperfect Information Games", AAAI-18.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from loki.aivat import (
    POT_EQUITY,
    ActionRecorder,
    AivatEstimator,
    EquityOracle,
    PotEquityValue,
    hand_corrections,
    pot_equity_values,
)
from loki.assessment.showdown import SHARE_UNITS, fill_board_ranks, n_boards, row_share_counts, runout_share_counts
from loki.cards import format_card, parse_cards
from loki.engine import CALL, FOLD, RAISE, Action, GameConfig, new_hand
from loki.errors import CardError, EstimatorError
from loki.evaluator import kernel_tables
from loki.players import CallingStation
from loki.players.base import Player
from loki.players.simple import EquityPlayer
from loki.players.table import play_hand
from loki.stats import mean_ci
from loki.tournament import config_from_dict, run_tournament
from loki.tournament.results import write_results
from loki.tournament.schedule import deal_cards
from loki.tournament.stats import per_deal_sb

CFG3 = GameConfig(n_players=3)
HOLES3 = ["AsKs", "QdQc", "7h6h"]


def pairs(holes):
    return tuple(tuple(parse_cards(h)) for h in holes)


def finish_by_calling(st):
    while not st.is_terminal:
        st.apply(CALL)
    return st


def hand(cfg, holes, board, betting, button=0):
    st = new_hand(cfg, button, hole_cards=holes, board=board)
    st.apply_many(betting)
    return st


def rest_of_deck(*cards):
    used = {c for x in cards for c in (parse_cards(x) if isinstance(x, str) else x)}
    return [c for c in range(52) if c not in used]


# ------------------------------------------------------------------------------------ exact equities


def test_runout_equities_match_phevaluator_brute_force():
    """Flop equities of three hands over the 990-ish completions, against phevaluator (an independent
    evaluator; its ranks run the other way)."""
    from phevaluator import evaluate_cards

    holes = pairs(HOLES3)
    board = parse_cards("Kd8h2h")
    deck = rest_of_deck(*holes, board)
    want = np.zeros(3)
    nb = 0
    for t, r in itertools.combinations(deck, 2):
        full = [format_card(c) for c in (*board, t, r)]
        ranks = [-evaluate_cards(*(format_card(c) for c in h), *full) for h in holes]
        best = max(ranks)
        win = [x == best for x in ranks]
        for j in range(3):
            want[j] += win[j] / sum(win)
        nb += 1
    shares, got_nb = runout_share_counts(
        np.array(holes, np.int64), np.array(board, np.int64), np.array(deck, np.int64), kernel_tables()
    )
    assert got_nb == nb == math.comb(len(deck), 2)
    np.testing.assert_allclose(shares / (nb * SHARE_UNITS), want / nb, rtol=0, atol=1e-12)
    eq = EquityOracle().equities(holes, [True, True, True], board)
    np.testing.assert_allclose(eq, want / nb, rtol=0, atol=1e-12)


@pytest.mark.parametrize("n", [10, 2])
def test_preflop_rows_and_direct_enumeration_agree_exactly(n):
    """The cached per-hand board ranks (one pass per set of live hands) give the same integer shares as a
    direct enumeration of every board, for every tested set of live hands."""
    holes, _ = deal_cards(seed=3, deal=1, n_players=n)
    h = np.array(holes, np.int64)
    dead = {c for p in holes for c in p}
    deck = np.array([c for c in range(52) if c not in dead], np.int64)
    nb = int(n_boards(len(deck), 5))
    assert nb == math.comb(52 - 2 * n, 5)
    rows = np.empty((n, nb), np.int16)
    fill_board_ranks(h, np.arange(n, dtype=np.int64), deck, rows, kernel_tables())
    for live in ([0, 1], [0, 1, 2], list(range(n))):
        live = [x for x in live if x < n]
        idx = np.array(live, np.int64)
        direct, dnb = runout_share_counts(h[idx], np.zeros(0, np.int64), deck, kernel_tables())
        assert dnb == nb
        assert row_share_counts(rows, idx).tolist() == direct.tolist()
        assert int(direct.sum()) == nb * SHARE_UNITS  # every board's pot is shared out exactly


def test_equities_sum_to_one_are_cached_per_deal_and_reject_bad_cards():
    holes = pairs(["AsAd", "KsKd", "2c7h", "9s9c"])
    o = EquityOracle()
    eq = o.equities(holes, [True, True, False, True])
    assert eq[2] == 0.0 and abs(eq.sum() - 1.0) < 1e-12 and eq[0] > eq[1] > eq[3]
    assert o.equities(holes, [True, True, False, True]) is eq  # memoised
    assert o.stats["rows"] == 3  # the folded hand was never ranked
    o.equities(holes, [True, True, True, True])
    assert o.stats["rows"] == 4
    assert o.equities(holes, [False, True, False, False]).tolist() == [0.0, 1.0, 0.0, 0.0]
    with pytest.raises(CardError):
        o.equities(holes, [True] * 4, parse_cards("As8h2h"))  # a hole card on the board
    with pytest.raises(CardError):
        o.equities(holes, [True] * 4, parse_cards("8h2h"))  # two board cards
    with pytest.raises(CardError):
        o.equities(pairs(["AsAd", "AsKd"]), [True, True])
    with pytest.raises(EstimatorError):
        o.equities(holes, [False] * 4)


# ------------------------------------------------------------------- chance corrections: exact enumeration


def test_value_is_a_martingale_at_a_reveal():
    """E_c[v(h·c)] = v(h): pot and contributions do not change at a reveal and exact equity is a martingale
    (every card that can come: the deck minus every hole card, the folded hand's included)."""
    holes = pairs(["AsKs", "QdQc", "7h6h", "2c2d"])
    o = EquityOracle()
    committed = [40, 40, 10, 40]
    live = [True, True, False, True]
    for board in (parse_cards("Kd8h2h"), parse_cards("Kd8h2hTd")):
        v = pot_equity_values(committed, live, board, holes, o)
        nxt = [pot_equity_values(committed, live, (*board, c), holes, o) for c in rest_of_deck(*holes, board)]
        np.testing.assert_allclose(np.mean(nxt, axis=0), v, rtol=0, atol=1e-9)
        assert abs(v.sum()) < 1e-9 and v[2] == -10.0


@pytest.mark.parametrize("fold_on_turn", [False, True])
def test_river_chance_correction_has_mean_zero_over_every_river_card(fold_on_turn):
    flop_turn = "Kd8h2hTd"
    turn = "crcf" if fold_on_turn else "crcc"
    corr = []
    for c in rest_of_deck(*HOLES3, flop_turn):
        st = hand(CFG3, HOLES3, flop_turn + format_card(c), f"ccc/rcc/{turn}/")
        finish_by_calling(st)
        hc = hand_corrections(st, None, EquityOracle())
        assert hc.action.tolist() == [0.0, 0.0, 0.0]
        corr.append(hc.chance_by_street[3])
        assert abs(hc.chance.sum()) < 1e-9
    corr = np.array(corr)
    assert len(corr) == 52 - 6 - 4
    np.testing.assert_allclose(corr.mean(axis=0), 0.0, atol=1e-9)
    assert np.abs(corr).max() > 10  # the river matters: the test is not vacuous
    if fold_on_turn:
        assert np.all(corr[:, 1] == 0.0)  # seat 1 folded on the turn: no chance correction


def test_turn_chance_correction_has_mean_zero_over_every_turn_card():
    flop = "Kd8h2h"
    corr = []
    for c in rest_of_deck(*HOLES3, flop):
        river = next(x for x in rest_of_deck(*HOLES3, flop) if x != c)
        st = hand(CFG3, HOLES3, flop + format_card(c) + format_card(river), "ccc/rcc/")
        finish_by_calling(st)
        corr.append(hand_corrections(st, None, EquityOracle()).chance_by_street[2])
    corr = np.array(corr)
    np.testing.assert_allclose(corr.mean(axis=0), 0.0, atol=1e-9)
    assert np.abs(corr).max() > 5


def test_flop_chance_correction_has_mean_zero_over_every_flop_at_ten_players():
    """Three of ten hands see the flop; the 4,960 flops of the 32 undealt cards average to a zero correction
    (the pre-flop equity comes from the cached board ranks, each flop's from its 406 completions)."""
    cfg = GameConfig(n_players=10)
    holes, _ = deal_cards(seed=5, deal=0, n_players=10)
    betting = "ffffff" + "rcc" + "c"  # seats 3..8 fold, 9 raises, 0 and 1 call, 2 calls: 4 live
    deck = rest_of_deck(*holes)
    o = EquityOracle()
    corr = np.zeros(10)
    count = 0
    for flop in itertools.combinations(deck, 3):
        tr = [x for x in deck if x not in flop][:2]
        st = new_hand(cfg, 0, hole_cards=list(holes), board=[*flop, *tr])
        st.apply_many(betting)
        assert st.round == 1 and st.num_active == 4
        while st.round == 1:
            st.apply(CALL)
        c = hand_corrections(finish_by_calling(st), None, o)
        corr += c.chance_by_street[1]
        count += 1
    assert count == math.comb(32, 3)
    np.testing.assert_allclose(corr / count, 0.0, atol=1e-9)
    assert o.stats["rows"] == 4  # four live hands ranked once for the whole deal


def test_hand_ended_preflop_has_no_chance_correction():
    st = hand(CFG3, HOLES3, "Kd8h2hTd3c", "rff")
    hc = hand_corrections(st, None, EquityOracle())
    assert hc.chance.tolist() == [0.0, 0.0, 0.0] and hc.action.tolist() == [0.0, 0.0, 0.0]
    st = hand(CFG3, HOLES3, "", "rff")  # the board is never needed
    assert hand_corrections(st, None, EquityOracle()).chance.tolist() == [0.0, 0.0, 0.0]


# ------------------------------------------------------------------------------- action corrections


def _after(board, prefix, a):
    """The 3-handed hand played to ``prefix``, then ``a``, then called down: ``(state, actor of a, index of a among
    the actions, number of actions)``."""
    st = hand(CFG3, HOLES3, board, prefix)
    actor = st.current_player
    k = len([x for x in prefix if x != "/"])
    st.apply(a)
    finish_by_calling(st)
    return st, actor, k, len([x for x in st.history if x != "/"])


@pytest.mark.parametrize(
    "prefix, probs",
    [
        ("ccc/r", (0.2, 0.5, 0.3)),  # flop: seat 2 facing a bet (fold alternative changes the live hands)
        ("c", (0.0, 0.6, 0.4)),  # pre-flop: seat 1 (small blind) calls or raises
        ("r", (0.25, 0.25, 0.5)),  # pre-flop: seat 1 facing a raise (fold changes the pre-flop live set)
        ("ccc/rcc/crcc/c", (0.0, 0.7, 0.3)),  # river: check or bet
    ],
)
def test_action_correction_has_mean_zero_under_the_known_policy(prefix, probs):
    """Σ_a π(a) · correction(a taken) = 0: the correction at a decision is Σ_b π(b) v(h·b) − v(h·a)."""
    board = "Kd8h2hTd3c"
    total = np.zeros(3)
    seen = []
    for a in (FOLD, CALL, RAISE):
        if probs[a] == 0:
            continue
        st, _, k, n_actions = _after(board, prefix, a)
        p = [None] * n_actions
        p[k] = probs
        hc = hand_corrections(st, p, EquityOracle())
        street = prefix.count("/")
        others = np.delete(hc.action_by_street, street, axis=0)
        assert np.all(others == 0.0)
        seen.append(hc.action_by_street[street])
        total += probs[a] * hc.action_by_street[street]
        assert abs(hc.action.sum()) < 1e-9
    np.testing.assert_allclose(total, 0.0, atol=1e-9)
    assert np.abs(np.array(seen)).max() > 1.0


@pytest.mark.parametrize(
    "prefix, probs, own",
    [
        ("ccc/r", (0.2, 0.5, 0.3), (0.0, 14.5, -23.0)),  # flop, facing a bet: fold, call or raise
        ("ccc/rcc/crcc/c", (0.0, 0.7, 0.3), (0.0, -3.25, 41.0)),  # river: check or bet
        ("r", (0.25, 0.25, 0.5), (0.0, 7.0, 7.0)),  # pre-flop facing a raise
    ],
)
def test_action_correction_with_the_players_own_values_has_mean_zero(prefix, probs, own):
    """With the player's own values as baselines (the Simulator's EVs, fixed before the draw): Σ_a π(a) ·
    correction(a taken) = 0 exactly for every seat, the actor's correction is Σ_b π(b) E_b − E_a, and the seats'
    corrections sum to 0."""
    board = "Kd8h2hTd3c"
    total = np.zeros(3)
    for a in (FOLD, CALL, RAISE):
        if probs[a] == 0:
            continue
        st, actor, k, n_actions = _after(board, prefix, a)
        p = [None] * n_actions
        p[k] = probs
        base = [None] * n_actions
        base[k] = own
        hc = hand_corrections(st, p, EquityOracle(), POT_EQUITY, base)
        street = prefix.count("/")
        corr = hc.action_by_street[street]
        assert np.all(np.delete(hc.action_by_street, street, axis=0) == 0.0)
        assert corr[actor] == pytest.approx(sum(q * e for q, e in zip(probs, own)) - own[a], abs=1e-9)
        assert abs(corr.sum()) < 1e-9
        total += probs[a] * corr
    np.testing.assert_allclose(total, 0.0, atol=1e-9)
    with pytest.raises(EstimatorError, match="finite"):
        hand_corrections(st, p, EquityOracle(), POT_EQUITY, [None] * k + [(0.0, math.nan, 1.0)] + base[k + 1 :])
    with pytest.raises(EstimatorError, match="action values"):
        hand_corrections(st, p, EquityOracle(), POT_EQUITY, base[:-1])


class Softmaxish(Player):
    """Calls or raises at random with known probabilities, and says what it thinks each action is worth."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, view, legal):
        self.p = (0.0, 0.6, 0.4) if RAISE in legal else (0.0, 1.0, 0.0)
        return RAISE if self.rng.random() >= self.p[1] else CALL

    def action_probabilities(self):
        return self.p

    def action_values(self):
        return (0.0, 5.0, -5.0)


def test_recorder_keeps_the_players_values_and_the_estimator_uses_them_if_asked():
    """The recorder stores each decision's ``action_values`` (None for a player without them); the estimator with
    ``action_baselines`` passes them on, without it the value function's are used."""
    players = [Softmaxish(1), CallingStation(), Softmaxish(2)]
    with_own = AivatEstimator(POT_EQUITY, action_baselines=True)
    plain = AivatEstimator(POT_EQUITY)
    differ = 0
    for h in range(20):
        st = play_hand(CFG3, players, h % 3, 100 + h, on_action=with_own.start_hand())
        rec = with_own.recorder
        assert len(rec.values) == len(rec.probs) == len(rec.seats)
        for seat, v in zip(rec.seats, rec.values):
            assert v == ((0.0, 5.0, -5.0) if seat != 1 else None)
        a = with_own.corrections(st)
        plain.recorder.probs[:] = rec.probs
        b = hand_corrections(st, rec.probs, plain.oracle, POT_EQUITY)
        assert np.array_equal(a.chance, b.chance)
        differ += int(not np.allclose(a.action, b.action))
        assert abs(a.total.sum()) < 1e-9
    assert differ > 0
    assert with_own.describe()["action_baselines"] == "player values"
    assert plain.describe() == {
        "value_function": {"name": "pot-equity", "version": "", "provenance": None},
        "action_baselines": "value function",
    }


def test_simulator_decisions_report_their_evs_as_action_values():
    """A Simulator decision's action values are ``(0, EV(call), EV(raise))`` of its result, for the argmax and the
    softmax choice alike (only the softmax reports probabilities)."""
    from loki.players.registry import make_player

    for choice in ("argmax", "softmax"):
        p = make_player({"kind": "loki2", "features": "S", "sim": {"trials": 50, "choice": choice}}, seed=4)
        rec = ActionRecorder()
        players = [p, CallingStation(), CallingStation()]
        seen = 0
        for h in range(6):
            rec.clear()
            play_hand(CFG3, players, h % 3, 40 + h, on_action=rec)
            for seat, v, pr in zip(rec.seats, rec.values, rec.probs):
                if seat == 0 and v is not None:
                    assert v[0] == 0.0 and all(math.isfinite(x) for x in v)
                    assert (pr is None) == (choice == "argmax")
                    seen += 1
        assert seen > 0


class OneHot(Player):
    """Raises when it can, reporting the one-hot distribution of that pure choice."""

    def act(self, view, legal):
        self.last = RAISE if RAISE in legal else CALL
        return self.last

    def action_probabilities(self):
        return (0.0, 0.0, 1.0) if self.last is RAISE else (0.0, 1.0, 0.0)


def test_pure_policies_get_no_action_correction_and_corrections_sum_to_zero():
    est = AivatEstimator()
    rng = np.random.default_rng(11)
    players = [CallingStation(), EquityPlayer(), OneHot(), CallingStation()]
    cfg = GameConfig(n_players=4)
    chance_seen = 0.0
    for h in range(30):
        st = play_hand(cfg, players, h % 4, rng, on_action=est.start_hand())
        assert len(est.recorder.probs) == len([x for x in st.history if x != "/"])
        assert all(p is not None and max(p) == 1.0 for p in est.recorder.probs)
        c = est.corrections(st)
        assert np.all(c.action_by_street == 0.0)
        assert abs(c.total.sum()) < 1e-9
        chance_seen += float(np.abs(c.chance).sum())
    assert chance_seen > 0


def test_recorder_sees_each_decision_before_it_is_applied():
    seen = []

    def hook(state, seat, action, player):
        seen.append((state.history, seat, action, state.current_player))

    st = play_hand(CFG3, [CallingStation(), OneHot(), CallingStation()], 0, 3, on_action=hook)
    acts = [x for x in st.history if x != "/"]
    assert [Action.parse(a) for a in acts] == [s[2] for s in seen]
    assert all(seat == cur for _, seat, _, cur in seen)
    assert seen[0][0] == "" and seen[1][0] == "c"
    rec = ActionRecorder()
    play_hand(CFG3, [CallingStation(), OneHot(), CallingStation()], 0, 3, on_action=rec)
    assert rec.seats == [s[1] for s in seen] and rec.actions == [s[2] for s in seen]


@pytest.mark.parametrize(
    "probs, needle",
    [
        ((0.5, 0.6, 0.0), "sum to"),
        ((0.5, 0.5, 0.0), "illegal FOLD"),  # nothing to call at the big blind's check
        ((0.0, 0.0, 1.0), "give 0 to the action taken"),
        ((0.0, -0.5, 1.5), "non-negative"),
        ("xyz", "not three numbers"),
    ],
)
def test_bad_distributions_are_refused(probs, needle):
    st = hand(CFG3, HOLES3, "Kd8h2hTd3c", "ccc/ccc/ccc/ccc")
    p = [None] * 12
    p[2] = probs  # the big blind checks pre-flop: FOLD illegal
    with pytest.raises(EstimatorError, match=needle):
        hand_corrections(st, p, EquityOracle())
    with pytest.raises(EstimatorError, match="recorded decisions"):
        hand_corrections(st, p[:5], EquityOracle())
    with pytest.raises(EstimatorError, match="finished"):
        hand_corrections(hand(CFG3, HOLES3, "Kd8h2hTd3c", "cc"), None, EquityOracle())


def test_growth_value_function_keeps_corrections_zero_mean():
    """The linear family v = (pot + G) eq − committed − G/k: the river correction still averages to 0."""
    g = np.zeros((4, 11))
    g[3, 3] = 60.0
    g[3, 2] = 40.0
    vf = PotEquityValue(g, name="test")
    flop_turn = "Kd8h2hTd"
    corr = []
    for c in rest_of_deck(*HOLES3, flop_turn):
        st = finish_by_calling(hand(CFG3, HOLES3, flop_turn + format_card(c), "ccc/rcc/crcc/"))
        plain = hand_corrections(st, None, EquityOracle()).chance_by_street[3]
        grown = hand_corrections(st, None, EquityOracle(), vf).chance_by_street[3]
        pot = 10 * 3 + 10 * 3 + 20 * 3
        np.testing.assert_allclose(grown, plain * (pot + 60) / pot, atol=1e-9)
        corr.append(grown)
    np.testing.assert_allclose(np.mean(corr, axis=0), 0.0, atol=1e-9)
    with pytest.raises(ValueError):
        PotEquityValue(np.zeros((3, 11)))
    assert POT_EQUITY.name == "pot-equity"


# --------------------------------------------------------------------------- unbiasedness, statistically

FIELD = {
    "name": "aivat-field",
    "deals": 200,
    "block_deals": 50,
    "seed": 4,
    "histories": False,
    "estimator": "aivat",
    "players": [
        {"type": "random", "count": 2},
        {"type": "maniac", "count": 2},
        {"type": "equity", "count": 1},
        {"type": "calling", "count": 1},
    ],
    "compare": [{"enhanced": ["equity"], "control": ["maniac"]}],
}


@pytest.fixture(scope="module")
def field_run(tmp_path_factory):
    """200 independent deals x 6 seatings of memoryless players (no opponent models: every correction has
    expectation exactly 0 given the hand before it)."""
    cfg = config_from_dict(FIELD)
    run = run_tournament(cfg, workers=0)
    out = tmp_path_factory.mktemp("aivat-field")
    summary = write_results(run, out, plots=False)
    return cfg, run, summary, out


def test_mean_correction_is_zero_and_the_estimators_agree(field_run):
    """For every player type and the comparison: the mean correction is 0 within its 99 % interval, and the
    plain and AIVAT means differ by less than the half-widths of their 99 % intervals combined
    (sqrt(h_plain² + h_aivat²); fixed seed 4).  The random and maniac players get action corrections."""
    cfg, run, summary, _ = field_run
    chance, action = run.corrections
    n, sb = cfg.n_players, cfg.game_config().small_bet
    x = per_deal_sb(run.chips, n, sb)
    c = per_deal_sb(chance, n, sb) + per_deal_sb(action, n, sb)
    assert np.abs(c.sum(axis=1)).max() < 1e-6  # zero-sum per deal
    from loki.tournament.stats import _groups

    gx, gc = _groups(cfg, x), _groups(cfg, c)
    for xs, cs in zip(gx[1] + gx[2], gc[1] + gc[2]):
        m, h = mean_ci(cs, 0.99)
        assert abs(m) <= h, (m, h)
        mp, hp = mean_ci(xs, 0.99)
        ma, ha = mean_ci(xs + cs, 0.99)
        assert abs(mp - ma) <= math.hypot(hp, ha)
    assert np.abs(per_deal_sb(action, n, sb)).sum() > 0  # random, maniac: known randomised policies


def test_summary_reports_both_estimators(field_run):
    cfg, run, summary, out = field_run
    d = json.loads((out / "summary.json").read_text())
    assert d["config"]["estimator"] == "aivat"
    av = d["aivat"]
    assert av["value_function"] == "pot-equity+growth" and av["value_function_version"] == "v1"
    prov = av["value_function_provenance"]
    assert prov["script"].startswith("benchmarks/aivat_value_function.py")
    assert all(p["seed"] >= 2000 for p in prov["presets"])  # never fitted on evaluated seeds
    assert av["action_baselines"] == "value function"
    assert [e["type"] for e in av["types"]] == [e["type"] for e in d["types"]]
    for plain, a in zip(d["types"] + d["comparisons"], av["types"] + av["comparisons"]):
        assert a["deals"] == plain["deals"] == 200
        assert math.isclose(a["plain_sd"] ** 2 * a["variance_ratio"], a["sd"] ** 2, rel_tol=1e-9)
        assert math.isclose(a["ci"] / plain["ci"], math.sqrt(a["variance_ratio"]), rel_tol=1e-9)
        assert math.isclose(
            a["sb_per_hand"], plain["sb_per_hand"] + a["chance_correction"] + a["action_correction"], abs_tol=1e-12
        )
    ratios = {e["type"]: e["variance_ratio"] for e in av["types"]}
    assert ratios["random"] < 0.8 and ratios["maniac"] < 0.8  # measured 0.4-0.6 at seed 4
    rows = (out / "deals-aivat.csv").read_text().splitlines()
    assert len(rows) == 201 and rows[0] == (out / "deals.csv").read_text().splitlines()[0]


# ------------------------------------------------------------------------- tournaments and matches


HEADS_UP = {
    "name": "hu",
    "deals": 10,
    "block_deals": 5,
    "histories": False,
    "players": [{"type": "loki1"}, {"type": "maniac"}],
    "compare": [{"enhanced": ["loki1"], "control": ["maniac"]}],
}


def test_heads_up_match_with_aivat_plays_the_same_hands(tmp_path):
    """A 2-player config is a heads-up duplicate match: with the aivat estimator the play and every plain
    figure are unchanged (deals.csv and the plain summary fields identical); the summary gains 'aivat'."""
    plain = config_from_dict(HEADS_UP)
    aivat = plain.with_overrides(estimator="aivat")
    assert "estimator" not in plain.to_dict() and plain.fingerprint() != aivat.fingerprint()
    outs = {}
    for name, cfg in (("plain", plain), ("aivat", aivat)):
        run = run_tournament(cfg, workers=0, out=tmp_path / name)
        write_results(run, tmp_path / name, plots=False)
        outs[name] = json.loads((tmp_path / name / "summary.json").read_text())
    assert (tmp_path / "plain" / "deals.csv").read_bytes() == (tmp_path / "aivat" / "deals.csv").read_bytes()
    p, a = outs["plain"], outs["aivat"]
    assert "aivat" not in p and "estimator" not in p["config"]
    a_cfg = dict(a.pop("config"))
    assert a_cfg.pop("estimator") == "aivat" and a_cfg == p.pop("config")
    a.pop("aivat")
    assert a == p
    # a resumed/reused run reads the corrections back from the journal
    again = run_tournament(aivat, workers=0, out=tmp_path / "aivat")
    assert again.played_blocks == 0 and again.corrections is not None
    s2 = write_results(again, tmp_path / "again", plots=False)
    assert s2.to_json() == (tmp_path / "aivat" / "summary.json").read_text()


def test_journal_of_an_aivat_run_is_checked(tmp_path):
    from loki.errors import JournalError
    from loki.tournament.journal import journal_key
    from loki.tournament.runner import read_journal, signed_line

    cfg = config_from_dict(
        {**HEADS_UP, "players": [{"type": "calling"}, {"type": "maniac"}], "compare": [], "estimator": "aivat"}
    )
    run_tournament(cfg, workers=0, out=tmp_path)
    j = tmp_path / "journal.jsonl"
    lines = j.read_text().splitlines()
    rec = json.loads(lines[1])
    assert len(rec["aivat"]["chance"]) == 5 and len(rec["aivat"]["action"][0]) == 2
    rec["aivat"]["chance"] = rec["aivat"]["chance"][:3]
    rec.pop("sum")  # re-signed: the record's own check must catch the shape, not the checksum
    j.write_text("\n".join([lines[0], signed_line(rec, journal_key(tmp_path)), *lines[2:]]) + "\n")
    with pytest.raises(JournalError, match="'aivat' 'chance' must be 5 deals x 2 numbers"):
        read_journal(j)
    del rec["aivat"]
    j.write_text("\n".join([lines[0], signed_line(rec, journal_key(tmp_path)), *lines[2:]]) + "\n")
    with pytest.raises(JournalError, match="without 'aivat'"):
        read_journal(j)


def test_cli_tournament_estimator_option(tmp_path):
    from typer.testing import CliRunner

    from loki.cli import app

    toml = tmp_path / "hu.toml"
    toml.write_text(
        'name = "hu"\ndeals = 6\nblock_deals = 3\nhistories = false\n'
        '[[players]]\ntype = "calling"\n[[players]]\ntype = "random"\n'
        '[[compare]]\nenhanced = ["calling"]\ncontrol = ["random"]\n'
    )
    r = CliRunner().invoke(
        app,
        [
            "tournament",
            "--config",
            str(toml),
            "--estimator",
            "aivat",
            "--workers",
            "0",
            "--no-plots",
            "--quiet",
            "--out",
            str(tmp_path / "o"),
        ],  # fmt: skip
    )
    assert r.exit_code == 0, r.output
    assert "AIVAT estimate" in r.output and "plain estimate above" in r.output
    assert "aivat" in json.loads((tmp_path / "o" / "summary.json").read_text())
    r = CliRunner().invoke(app, ["tournament", "--config", str(toml), "--estimator", "magic", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "estimator" in r.output and "Traceback" not in r.output


# --------------------------------------------------------------------------------------------- replays

ACPC = Path(__file__).resolve().parents[2] / "shared" / "acpc"


@pytest.mark.skipif(not (ACPC / "3p.limit.h1000.r0.log").exists(), reason="../shared/acpc is not available")
def test_replay_of_a_real_log_gets_chance_corrections_only():
    from loki.tournament.replay import load_log, replay_hands

    recs, _, _ = load_log(ACPC / "3p.limit.h1000.r0.log")
    report = replay_hands(recs[:60], "calling", estimator="aivat")
    assert report.hand_corrections is not None
    names = list(report.hand_chips)
    per_hand = np.array([report.hand_corrections[nm] for nm in names])
    assert per_hand.shape == (3, 60)
    assert np.abs(per_hand.sum(axis=0)).max() < 1e-9
    assert np.abs(per_hand).sum() > 0
    est = report.estimates()
    assert [e["name"] for e in est] == names
    for e in est:
        assert e["hands"] == 60 and e["variance_ratio"] is not None
        assert math.isclose(e["aivat_sb_per_hand"], e["sb_per_hand"] + e["correction"], abs_tol=1e-12)
    plain = replay_hands(recs[:60], "calling")
    assert plain.hand_corrections is None and "aivat_ci" not in plain.estimates()[0]
    with pytest.raises(ValueError):
        replay_hands(recs[:2], "calling", estimator="magic")


# ------------------------------------------------------------------------------ heads-up pre-flop table


def test_heads_up_key_is_invariant_under_suit_permutations_and_order():
    from loki.aivat import heads_up_key

    rng = np.random.default_rng(2)
    for _ in range(200):
        c = rng.choice(52, 4, replace=False).tolist()
        a, b = c[:2], c[2:]
        key, sw = heads_up_key(a, b)
        key2, sw2 = heads_up_key(b, a)
        assert key == key2 and (sw != sw2 or key == heads_up_key(a[::-1], b)[0])
        perm = rng.permutation(4)
        pa = [(x & ~3) | int(perm[x & 3]) for x in a]
        pb = [(x & ~3) | int(perm[x & 3]) for x in b]
        assert heads_up_key(pa, pb)[0] == key


def test_heads_up_table_equals_direct_enumeration():
    """The shipped table against a fresh enumeration of all 1,712,304 boards (exact integer shares), for random
    matchups in both orders; the oracle uses it for 2-seat deals only."""
    from loki.aivat import heads_up_preflop_shares

    rng = np.random.default_rng(8)
    tables = kernel_tables()
    for _ in range(6):
        c = rng.choice(52, 4, replace=False).tolist()
        a, b = (c[0], c[1]), (c[2], c[3])
        deck = np.array([x for x in range(52) if x not in c], np.int64)
        direct, nb = runout_share_counts(np.array([a, b], np.int64), np.zeros(0, np.int64), deck, tables)
        assert heads_up_preflop_shares(a, b) == (int(direct[0]), nb * SHARE_UNITS)
        assert heads_up_preflop_shares(b, a) == (int(direct[1]), nb * SHARE_UNITS)
    o = EquityOracle()
    eq = o.equities(((51, 50), (47, 46)), [True, True])
    assert o.stats["heads_up_table"] == 1 and o.stats["rows"] == 0 and eq.sum() == 1.0


def test_shipped_value_function_is_fixed_zero_mean_and_pot_equity_stays_selectable():
    """The shipped table is a (4, 11) growth table of the linear family, fitted on seeds ≥ 2000; its river
    and turn chance corrections average to 0 exactly over every card; ``aivat-pot-equity`` still names the plain
    pot-equity estimator, and a tournament configuration accepts both."""
    from loki.aivat import ESTIMATORS, named_estimator, shipped_value_function

    vf = shipped_value_function()
    assert vf.growth.shape == (4, 11) and np.all(vf.growth >= 0) and vf.growth.max() > 0
    assert vf.version == "v1" and min(p["seed"] for p in vf.provenance["presets"]) >= 2000
    for prefix, known, street in (("ccc/rcc/crcc/", "Kd8h2hTd", 3), ("ccc/rcc/", "Kd8h2h", 2)):
        corr = []
        for c in rest_of_deck(*HOLES3, known):
            b = (
                known
                + format_card(c)
                + ("" if street == 3 else format_card(next(x for x in rest_of_deck(*HOLES3, known) if x != c)))
            )
            st = finish_by_calling(hand(CFG3, HOLES3, b, prefix))
            corr.append(hand_corrections(st, None, EquityOracle(), vf).chance_by_street[street])
        np.testing.assert_allclose(np.mean(corr, axis=0), 0.0, atol=1e-9)
    assert ESTIMATORS == ("aivat", "aivat-pot-equity", "aivat-sim-evs")
    assert named_estimator("aivat-sim-evs").describe()["action_baselines"] == "player values"
    assert named_estimator("aivat-pot-equity").describe()["value_function"]["name"] == "pot-equity"
    assert named_estimator("aivat").describe()["value_function"]["name"] == "pot-equity+growth"
    with pytest.raises(EstimatorError):
        named_estimator("aivat-magic")
    for name in ESTIMATORS:
        cfg = config_from_dict(
            {"name": "t", "players": [{"type": "calling", "count": 2}], "estimator": name}, check_players=False
        )
        assert cfg.estimator == name


@pytest.mark.parametrize("stacks", [None, 70])
def test_corrections_from_the_recorded_states_equal_the_replay(stacks):
    """The estimator's corrections from the states its recorder kept while the hand was played (no replay) are the
    very floats of the replay on the engine, with random choices, own values, folds and (short stacks) all-ins."""
    from loki.players import RandomPlayer
    from loki.players.registry import make_player

    kw = {} if stacks is None else {"stacks": stacks}
    cfg = GameConfig(n_players=5, **kw)
    players = [RandomPlayer(1), Softmaxish(3), make_player("loki2:BR", seed=5), CallingStation(), RandomPlayer(7)]
    est = AivatEstimator(POT_EQUITY, action_baselines=True)
    seen_action = seen_chance = 0
    for h in range(60):
        st = play_hand(cfg, players, h % 5, 500 + h, on_action=est.start_hand())
        rec = est.recorder
        a = est.corrections(st)
        assert any(s is not None for s in rec.snaps) or not st.board
        b = hand_corrections(st, rec.probs, EquityOracle(), POT_EQUITY, rec.values)
        assert np.array_equal(a.chance_by_street, b.chance_by_street)
        assert np.array_equal(a.action_by_street, b.action_by_street)
        seen_action += int(np.any(a.action != 0))
        seen_chance += int(np.any(a.chance != 0))
    assert seen_action > 5 and seen_chance > 5
