"""Local best response (loki.lbr): the known values, an independent closed-form player, the oracle's fidelity to the
measured player, and the frozen players it measures.

Known values (heads-up, blinds ½ and 1 small bet, sb/hand):

* against ``folding`` (folds to every bet, checks otherwise): exactly 0.75 — it loses its small blind (0.5) when on
  the button and its big blind (1) to LBR's raise otherwise; every deal gives 1.5 over its two hands, so the
  interval is 0;
* against ``calling`` (always checks or calls) the look-ahead is the exact best response (its cards never change the
  calling station's play, so every bet is worth ``B·(2·e − 1)`` with ``e`` the equity when it is made) and its value
  is ``(10·E0 + 10·E1 + 20·E2 + 20·E3) / 10`` with ``Es = E[(2·e_s − 1)+]`` over random holdings and boards: computed
  here independently of loki.lbr (class equities pre-flop, :func:`loki.assessment.equity` after);
* against ``raising`` (bets or raises whenever it may, calls at the cap) its range stays uniform and nothing folds
  to a bet, so LBR raises with ``e > ½`` and otherwise calls while ``e·(pot + c) > c`` (folds else): each street is
  capped, called once, or folded; its value, the mean over random holdings and boards of those rules played out
  (blinds, betting order and cap of each seat, the showdown at the river's equity), is computed here without
  loki.lbr or the rules engine;
* against the card-blind ``calling``, ``raising``, ``random`` and ``maniac`` and the card-driven ``equity`` the
  machinery (oracle, range, kernel, forks) plays deal for deal what a closed-form player written from the formulas
  plays, with WP from :func:`loki.assessment.equity` and the range and fold probabilities from the players'
  definitions.

The tolerance of a statistical comparison is the 95 % interval's half-width of the difference (the match's AIVAT
interval and the Monte Carlo's, combined), times 1.5 for margin: a test that fails by chance about once in a few
hundred runs at a fixed seed never fails (the seeds are fixed).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from loki.aivat import heads_up_preflop_equity
from loki.assessment import equity, equity_all
from loki.assessment.income_rate import load_class_equity, load_tables
from loki.cards import HOLDING_CARDS, HOLDING_CLASS, HOLDING_INDEX, HOLDING_MASKS
from loki.engine import CALL, FOLD, RAISE, ActionTaken, BoardDealt, GameConfig, new_hand
from loki.errors import ConfigError
from loki.lbr import HoldingView, LBRConfig, LBRPlayer, lbr_values
from loki.lbr.kernels import holding_equities
from loki.lbr.oracle import live_mask
from loki.lbr.player import preflop_equity_row
from loki.lbr.run import frozen_config, lbr_tournament, run_lbr
from loki.players.base import Player
from loki.players.frozen import FrozenConfig, FrozenPlayer, Snapshot
from loki.players.registry import PlayerKind, make_player, register_kind
from loki.players.table import play_hand
from loki.tournament.runner import run_tournament


def _measure(spec, deals, seed, tmp_path, **kw):
    cfg = lbr_tournament(frozen_config(spec), deals, seed, **kw)
    return run_lbr(cfg, tmp_path / f"{spec}-{seed}", workers=0)


# ------------------------------------------------------------------------------------- the kernel and equities
def test_holding_equities_give_the_same_wp_as_assessment_equity():
    """WP by the kernel's vector (a dot product) equals :func:`loki.assessment.equity` against the same weighted
    range, on flops, turns and rivers, for random ranges."""
    from loki.evaluator import kernel_tables

    rng = np.random.default_rng(5)
    for n_board in (3, 4, 5, 3, 4):
        cards = rng.choice(52, 2 + n_board, replace=False)
        hole, board = (int(cards[0]), int(cards[1])), tuple(int(c) for c in cards[2:])
        e = holding_equities(hole[0], hole[1], np.array(board, dtype=np.int64), kernel_tables())
        live = live_mask(hole + board)
        assert np.all(e[~live] == 0.0) and np.all((e[live] >= 0) & (e[live] <= 1))
        w = np.where(live, rng.random(1326) ** 3, 0.0)
        assert float(w @ e) / float(w.sum()) == pytest.approx(equity(hole, board, w), abs=1e-12)


def test_preflop_rows_are_the_exact_heads_up_equities():
    rng = np.random.default_rng(2)
    for h in rng.choice(1326, 3, replace=False):
        hole = tuple(int(c) for c in HOLDING_CARDS[h])
        row = preflop_equity_row(hole)
        for o in rng.choice(np.flatnonzero(live_mask(hole)), 5, replace=False):
            assert row[o] == heads_up_preflop_equity(hole, tuple(int(c) for c in HOLDING_CARDS[o]))
        assert np.all(row[~live_mask(hole)] == 0.0)


def test_equity_all_is_assessment_equity_for_every_holding():
    rng = np.random.default_rng(7)
    for n_board in (3, 4, 5):
        board = tuple(int(c) for c in rng.choice(52, n_board, replace=False))
        e = equity_all(board)
        live = live_mask(board)
        assert np.all(np.isnan(e[~live]))
        for h in rng.choice(np.flatnonzero(live), 12, replace=False):
            assert e[h] == pytest.approx(equity(tuple(int(c) for c in HOLDING_CARDS[h]), board), abs=1e-12)


def test_a_holding_view_shows_its_holding_not_the_states_cards():
    s = new_hand(GameConfig(n_players=2), button=0, hole_cards=["AsKs", "2c2d"], board="8s4h6d5sJs")
    v = HoldingView(s, 0, (12, 13))  # the button, to act
    assert v.hole_cards == (12, 13) and v.cards_of(0) == (12, 13) and v.cards_of(1) is None
    assert v.pot == s.pot and v.legal_actions() == s.legal_actions()


# ------------------------------------------------------------------------------------- the known values
def test_always_folding_loses_exactly_three_quarters_of_a_small_bet(tmp_path):
    r = _measure("folding", 30, 0, tmp_path)
    assert r["lbr_sb_per_hand"] == 0.75 and r["plain_sb_per_hand"] == 0.75 and r["ci"] == 0.0
    s = json.loads((tmp_path / "folding-0" / "summary.json").read_text())
    assert s["deals"] == 30 and s["hands"] == 60


def _preflop_equities() -> np.ndarray:
    """``(1326,) float64``: each holding's equity against a uniform range of the live holdings, from the class-equity
    matrix (every holding against every live holding)."""
    m = load_class_equity()
    cls = HOLDING_CLASS
    e0 = np.empty(1326)
    for h in range(1326):
        live = (HOLDING_MASKS & HOLDING_MASKS[h]) == 0
        e0[h] = m[cls[h], cls[live]].mean()
    return e0


def _calling_station_value(samples: int, seed: int) -> tuple[float, float]:
    """``(value, half-width of its 95 % interval)``, sb/hand, of the best response to an always-calling player (module
    docstring), without loki.lbr: pre-flop from the class-equity matrix (every holding against every live holding),
    flop, turn and river by Monte Carlo over random holdings and boards with exact equities."""
    e0 = _preflop_equities()
    v = 10.0 * float(np.maximum(2.0 * e0 - 1.0, 0.0).mean())
    rng = np.random.default_rng(seed)
    xs = np.zeros(samples)
    for i in range(samples):
        c = [int(x) for x in rng.choice(52, 7, replace=False)]
        hole = (c[0], c[1])
        xs[i] = sum(b * max(2.0 * equity(hole, c[2:k]) - 1.0, 0.0) for b, k in ((10, 5), (20, 6), (20, 7)))
    return (v + float(xs.mean())) / 10.0, 1.96 * float(xs.std(ddof=1)) / math.sqrt(samples) / 10.0


def _against_raising(wps: list[float], button: bool) -> float:
    """LBR's winnings, sb, in one hand against ``raising`` (module docstring): ``wps`` its equity on each street
    against the uniform range (the last, the river's, also its showdown chance), ``button`` whether it is the button
    (the small blind, first to act pre-flop and last after).  Heads-up fixed limit: blinds ½ and 1, bets 1 (pre-flop,
    flop) and 2 (turn, river), at most 4 bets a round, the big blind counting as the first."""
    put = [0.5, 1.0] if button else [1.0, 0.5]  # [LBR, raising]
    for street, wp in enumerate(wps):
        b = 1.0 if street < 2 else 2.0
        bets = 1 if street == 0 else 0
        me_first = button if street == 0 else not button
        actor, acted = (0 if me_first else 1), set()
        while True:
            c = max(put) - put[actor]
            acted.add(actor)
            if actor == 1:  # raising: bets or raises while it may, calls at the cap
                if bets == 4:
                    put[1] += c
                    break
                put[1], bets, actor = max(put) + b, bets + 1, 0
                continue
            pot = sum(put)
            u_call, u_raise = wp * (pot + c) - c, wp * (pot + c + 2 * b) - c - b
            raises = bets < 4 and u_raise > u_call  # ties: call, then raise, then fold
            if c > 0 and (u_raise if raises else u_call) < 0.0:
                return -put[0]  # folds
            if raises:
                put[0], bets, actor = max(put) + b, bets + 1, 1
                continue
            put[0] += c
            if acted == {0, 1}:
                break
            actor = 1
    return wps[-1] * sum(put) - put[0]


def _raising_value(samples: int, seed: int) -> tuple[float, float]:
    """``(value, half-width of its 95 % interval)``, sb/hand, of LBR against ``raising`` (module docstring), without
    loki.lbr or the rules engine: Monte Carlo over random holdings and boards, each played in both seats, with the
    equities of :func:`_preflop_equities` and :func:`loki.assessment.equity`."""
    e0 = _preflop_equities()
    rng = np.random.default_rng(seed)
    xs = np.zeros(samples)
    for i in range(samples):
        c = [int(x) for x in rng.choice(52, 7, replace=False)]
        hole = (c[0], c[1])
        wps = [float(e0[HOLDING_INDEX[c[0], c[1]]])] + [equity(hole, tuple(c[2:k])) for k in (5, 6, 7)]
        xs[i] = (_against_raising(wps, True) + _against_raising(wps, False)) / 2.0
    return float(xs.mean()), 1.96 * float(xs.std(ddof=1)) / math.sqrt(samples)


@pytest.mark.parametrize(
    "opponent,deals,seed,computed,samples,about",
    [
        ("calling", 200, 1, _calling_station_value, 600, (0.9, 1.4)),
        ("raising", 300, 2, _raising_value, 4000, (3.0, 4.2)),
    ],
)
def test_lbr_wins_the_value_computed_without_it(opponent, deals, seed, computed, samples, about, tmp_path):
    """Against ``calling`` the best response's value (about 1.1 sb/hand), against ``raising`` the value of LBR's
    rules played out (about 3.5): module docstring."""
    r = _measure(opponent, deals, seed, tmp_path)
    value, mc_ci = computed(samples, seed + 10)
    tol = 1.5 * math.hypot(r["ci"], mc_ci)
    assert abs(r["lbr_sb_per_hand"] - value) < tol, (r["lbr_sb_per_hand"], r["ci"], value, mc_ci)
    assert about[0] < value < about[1]


# ------------------------------------------------------------------------------ an independent closed-form player
class _ClosedForm(Player):
    """The look-ahead written from the formulas, without loki.lbr: WP by :func:`loki.assessment.equity` (pre-flop:
    the exact heads-up equities averaged) against a range kept by the opponent's definition, its fold probability to
    a bet from its definition."""

    def __init__(self, opponent: str):
        self.opponent = opponent
        self.name = f"closed form against {opponent}"

    def begin_hand(self, seat, config, hole_cards, button):
        self.seat, self.hole = seat, (int(hole_cards[0]), int(hole_cards[1]))
        self.range = live_mask(self.hole).astype(float)
        self.board: tuple[int, ...] = ()
        self.facing = None  # what the opponent faced at its decision: could it raise

    def observe(self, ev):
        if isinstance(ev, BoardDealt):
            self.board = tuple(ev.board)
            self.range *= live_mask(self.board)
        elif isinstance(ev, ActionTaken) and ev.seat != self.seat and self.opponent == "equity":
            if ev.could_raise:  # the equity player raises exactly the holdings over one half
                if self.board:
                    eq = np.nan_to_num(equity_all(self.board), nan=0.0)
                else:
                    eq = (load_tables()[2][HOLDING_CLASS] / 1000.0 + 1.0) / 2.0
                self.range *= (eq > 0.5) if ev.action is RAISE else (eq <= 0.5)

    def _wp(self, w):
        if self.board:
            return equity(self.hole, self.board, w)
        tot = 0.0
        for o in np.flatnonzero(w):
            tot += w[o] * heads_up_preflop_equity(self.hole, tuple(int(c) for c in HOLDING_CARDS[o]))
        return tot / w.sum()

    def _fold_to_bet(self, bets_after):
        can_raise = bets_after < 4
        return {"calling": 0.0, "raising": 0.0, "equity": 0.0, "maniac": 0.06, "random": 1 / (3 if can_raise else 2)}[
            self.opponent
        ]

    def act(self, view, legal):
        w = self.range
        wp = self._wp(w)
        pot, c, b = float(view.pot), float(view.to_call()), float(view.bet_size)
        fp = self._fold_to_bet(view.bets_this_round + 1)
        u = {CALL: wp * (pot + c) - c}
        if RAISE in legal:
            u[RAISE] = fp * pot + (1 - fp) * (wp * (pot + c + 2 * b) - c - b)
        if FOLD in legal:
            u[FOLD] = 0.0
        best = CALL
        for a in (RAISE, FOLD):
            if a in u and u[a] > u[best]:
                best = a
        self.last = best
        return best

    def action_probabilities(self):
        return tuple(1.0 if a is self.last else 0.0 for a in (FOLD, CALL, RAISE))


@pytest.mark.parametrize(
    "opponent,deals", [("calling", 40), ("raising", 40), ("random", 40), ("maniac", 40), ("equity", 12)]
)
def test_the_machinery_plays_the_closed_form_deal_for_deal(opponent, deals, tmp_path):
    """Against players whose range and answers are known in closed form, the oracle, the range, the kernel and the
    forks give the closed-form player's play: the same chips on every deal (the same frozen opponent, seeded the
    same)."""
    register_kind(PlayerKind(name=f"closedform-{opponent}", build=lambda cfg, seed, name: _ClosedForm(opponent)))
    cfg = lbr_tournament(frozen_config(opponent), deals, 3, block_deals=deals)
    d = cfg.to_dict()
    d["players"][0] = {"type": f"closedform-{opponent}", "label": "LBR"}
    from loki.tournament.config import config_from_dict

    closed = config_from_dict(d, "closed form")
    a = run_tournament(cfg, workers=0)
    b = run_tournament(closed, workers=0)
    assert a.chips == b.chips
    assert sum(row[0] for row in a.chips) > 0  # LBR wins


def test_lbr_values_follow_the_formulas():
    u_fold, u_call, u_raise = lbr_values(wp=0.6, wp_called=0.4, fp=0.25, pot=40.0, to_call=10.0, bet=10.0)
    assert u_fold == 0.0
    assert u_call == pytest.approx(0.6 * 50 - 10)
    assert u_raise == pytest.approx(0.25 * 40 + 0.75 * (0.4 * 70 - 20))


# ------------------------------------------------------------------------------ fidelity to the measured player
class _Witness(Player):
    """Wraps the measured player: records its hole cards and, at each decision, the probabilities it reports."""

    def __init__(self, inner, log):
        self.inner, self.name, self.log = inner, inner.name, log

    def begin_hand(self, seat, config, hole, button):
        self.hole = (int(hole[0]), int(hole[1]))
        self.inner.begin_hand(seat, config, hole, button)

    def observe(self, ev):
        self.inner.observe(ev)

    def act(self, view, legal):
        a = self.inner.act(view, legal)
        self.log.append((int(HOLDING_INDEX[self.hole[0], self.hole[1]]), view.round, self.inner.action_probabilities()))
        return a

    def action_probabilities(self):
        return self.inner.action_probabilities()


@pytest.mark.parametrize(
    "spec,hands", [("loki1", 4), ("loki1:TA", 4), ("loki2:B", 4), ("loki2:BR", 4), ("loki2:BRS:adaptive", 2)]
)
def test_the_oracles_row_for_the_true_holding_is_what_the_player_reports(spec, hands):
    """At every decision of the measured player, the oracle's probabilities for the holding it really holds are, to
    the last bit, those the player itself reports (the same code on the same state: its copy of that holding);
    Simulator decisions, whose randomness is a seed, are samples: only its pre-flop decisions are compared then."""
    game = GameConfig(n_players=2)
    lbr = LBRPlayer(LBRConfig(opponent=spec), seed=1)
    rows: list = []
    ask = lbr.oracle.probabilities

    def recorded(state, legal):
        out = ask(state, legal)
        rows.append(out.copy())
        return out

    lbr.oracle.probabilities = recorded  # type: ignore[method-assign]
    log: list = []
    sigma = _Witness(make_player(f"frozen:{spec}", seed=2), log)
    rng = np.random.default_rng(4)
    for h in range(hands):
        play_hand(game, [lbr, sigma] if h % 2 else [sigma, lbr], 0, rng)
    assert len(rows) == len(log) > 0
    simulator = spec.startswith("loki2") and "S" in spec.split(":")[1]
    compared = 0
    for row, (h, street, probs) in zip(rows, log):
        if simulator and street > 0:  # a sample per holding: one-hot rows
            asked = row[row.sum(axis=1) > 0]
            assert np.all(np.isin(asked, (0.0, 1.0))) and np.all(asked.sum(axis=1) == 1.0)
            continue
        assert probs is not None
        assert tuple(row[h]) == tuple(probs), (spec, street, row[h], probs)
        compared += 1
    assert compared > 0


# ------------------------------------------------------------------------------ frozen players and snapshots
def test_a_frozen_player_is_restored_every_hand():
    cfg = FrozenConfig(player="loki1", warmup=40)
    p = FrozenPlayer(cfg, seed=3)
    counts0 = p.snapshot.restore(0).models[1].tables.counts.sum()
    assert counts0 > 0  # it learned during the warm-up
    game = GameConfig(n_players=2)
    rng = np.random.default_rng(1)
    for h in range(12):
        play_hand(game, [make_player("equity"), p] if h % 2 else [p, make_player("equity")], 0, rng)
    p.begin_hand(0, game, (0, 1), 0)
    assert p.inner.models[1].tables.counts.sum() == counts0  # nothing it saw since counts


def test_frozen_copies_share_the_immutable_parts_and_draw_anew():
    snap = Snapshot(make_player("loki2:BR", seed=1))
    a, b = snap.restore(1), snap.restore(2)
    assert a.config is b.config and a.postflop.triple is b.postflop.triple
    assert a.postflop.selector.rng.random() != b.postflop.selector.rng.random()
    assert snap.restore(5).postflop.selector.rng.random() == snap.restore(5).postflop.selector.rng.random()
    assert snap.generators == 1


def test_frozen_refuses_oracles_and_nesting():
    with pytest.raises(ConfigError, match="frozen already"):
        FrozenConfig(player="frozen:loki1")
    with pytest.raises(ConfigError):
        make_player({"kind": "frozen", "player": "loki1", "warmup": 5}).begin_hand(
            0, GameConfig(n_players=3), (0, 1), 0
        )


def test_lbr_plays_heads_up_only():
    with pytest.raises(ConfigError, match="heads-up"):
        LBRPlayer(LBRConfig(opponent="calling")).begin_hand(0, GameConfig(n_players=3), (0, 1), 0)


# ------------------------------------------------------------------------------ sampling, resuming, the command
def test_sampled_holdings_and_fold_samples_run_and_win(tmp_path):
    r = _measure("loki1", 3, 2, tmp_path, holdings=40, fold_samples=16)
    assert r["variant"] == {"preflop": "lbr", "called_range": True, "holdings": 40, "fold_samples": 16}
    assert math.isfinite(r["lbr_sb_per_hand"])


def test_loki_lbr_command(tmp_path):
    from loki.cli import app

    out = tmp_path / "f"
    res = CliRunner().invoke(app, ["lbr", "folding", "--deals", "8", "--workers", "0", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout.strip().splitlines()[-1])
    assert doc["lbr_sb_per_hand"] == 0.75 and doc["deals"] == 8
    assert json.loads((out / "lbr.json").read_text()) == doc
    again = CliRunner().invoke(app, ["lbr", "folding", "--deals", "8", "--workers", "0", "--out", str(out), "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout.strip().splitlines()[-1])["lbr_sb_per_hand"] == 0.75
    bad = CliRunner().invoke(app, ["lbr", "nosuchplayer", "--deals", "2"])
    assert bad.exit_code == 2 and "nosuchplayer" in bad.output


def test_loki_lbr_refuses_an_empty_out_and_a_bad_variant(tmp_path, monkeypatch):
    from loki.cli import app

    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["lbr", "folding", "-n", "2", "-o", ""])
    assert res.exit_code == 2 and "expected a path" in res.output and list(tmp_path.iterdir()) == []
    res = CliRunner().invoke(app, ["lbr", "folding", "-n", "2", "--preflop", "raise"])
    assert res.exit_code == 2 and "--preflop" in res.output
    res = CliRunner().invoke(app, ["lbr", "frozen:loki1", "-n", "2", "--warmup", "5"])
    assert res.exit_code == 2 and "frozen already" in res.output


def test_a_sample_of_one_holding_is_drawn_again_when_its_copy_is_lost():
    """``holdings=1``: when σ's action leaves the sampled holding without weight, a new holding is drawn and brought
    up to date (before, ``1 // 2`` is 0 and the sample was never refilled: every later decision of the hand read an
    empty range and a fold probability of 0)."""
    from loki.engine import GameConfig
    from loki.lbr import LBRConfig, LBRPlayer
    from loki.players.table import play_hand

    lbr = LBRPlayer(LBRConfig(opponent="loki1", holdings=1), seed=1)
    sigma = make_player("frozen:loki1", seed=2)
    rng = np.random.default_rng(1)
    for h in range(30):
        play_hand(GameConfig(n_players=2), [lbr, sigma] if h % 2 else [sigma, lbr], 0, rng)
    decisions = lbr.counts["fold"] + lbr.counts["call"] + lbr.counts["raise"]
    assert lbr.oracle.stats["replayed"] > 0  # holdings drawn anew, their hands replayed
    assert lbr.counts["empty"] < decisions / 4, (lbr.counts, decisions)  # 31 of 64 decisions before
