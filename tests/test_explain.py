"""Decision explanations: decision-neutral, and their numbers are those of the assessment functions."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from loki.assessment import assess
from loki.assessment.income_rate import holding_equity, load_tables
from loki.cards import CLASS_NAMES, HOLDING_CLASS, HOLDING_INDEX, class_holdings, parse_cards
from loki.cli import app
from loki.engine import GameConfig
from loki.errors import CardError, ConfigError
from loki.explain import ExplainedPlayer, class_grid, explanation_from_json
from loki.explain.grids import GRID_NAMES, class_means, likely_classes
from loki.explain.sources import explain_log, explain_spot
from loki.modeler import ramp_bounds, threshold_mu_sigma
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.preflop import GROUP_TABLE, choose_strategy
from loki.triples import generate_triple
from loki.triples.rule_chain import RULES

SPECS = ["loki1", "loki2:BR", "loki2:BRS:trials=60", "loki1:TA"]


def _play(wrapped: bool, hands: int = 12, seed: int = 5, snoop: bool = False):
    n = len(SPECS)
    cfg = GameConfig(n_players=n)
    bots = [make_player(s, seed=seed * 10 + i, name=f"{s}-{i}") for i, s in enumerate(SPECS)]
    if wrapped:
        bots = [(_Snoop if snoop else ExplainedPlayer)(b) for b in bots]
        for b in bots:
            b.names = [x.name for x in bots]
    rng = np.random.default_rng(seed)
    out = []
    probs = []
    for h in range(hands):
        st = play_hand(cfg, bots, h % n, rng)
        out.append((st.history, st.board, tuple(st.payoffs)))
    for b in bots:
        probs.append(b.action_probabilities())
    return out, bots, probs


class _Snoop(ExplainedPlayer):
    """Keeps, with each explanation, the inputs it must agree with: the opponents' weights at the decision and the
    player's own decision record."""

    def act(self, view, legal_actions):
        weights = {s: m.weights.copy() for s, m in self.inner.models.items()}
        folded = tuple(view.folded)
        a = super().act(view, legal_actions)
        self.snoops = getattr(self, "snoops", []) + [(weights, folded, self.inner.last_decision, self.inner)]
        return a


def test_explanations_do_not_change_any_decision():
    bare, _, p0 = _play(False)
    wrapped, bots, p1 = _play(True)
    assert bare == wrapped
    assert p0 == p1
    kinds = {e.kind for b in bots for e in b.explanations}
    assert kinds == {"preflop", "bettor", "selector", "simulator"}
    assert not [e.error for b in bots for e in b.explanations if e.error]


def test_a_frozen_player_is_explained_by_the_copy_that_decides():
    """A frozen player plays each hand with a restored copy (its decider): its decisions are explained from that
    copy's records and models, under the frozen player's name, and wrapping it changes nothing."""
    specs = ["frozen:loki2:BR", "frozen:loki1", "calling"]
    cfg = GameConfig(n_players=3)

    def play(wrapped):
        bots = [make_player(s, seed=7 + i) for i, s in enumerate(specs)]
        if wrapped:
            bots = [ExplainedPlayer(b, names=[f"p{i}" for i in range(3)]) for b in bots]
        rng = np.random.default_rng(3)
        return [play_hand(cfg, bots, h % 3, rng).history for h in range(8)], bots

    bare, _ = play(False)
    wrapped, bots = play(True)
    assert bare == wrapped
    for b in bots[:2]:
        kinds = {e.kind for e in b.explanations}
        assert "preflop" in kinds and kinds & {"selector", "bettor"} and "other" not in kinds, kinds
        assert all("(frozen)" in e.player for e in b.explanations)
        assert any(e.opponents for e in b.explanations)  # the copy's opponent models are read


@pytest.fixture(scope="module")
def snooped():
    _, bots, _ = _play(True, hands=10, seed=11, snoop=True)
    return bots


def test_postflop_numbers_are_the_assessment_functions(snooped):
    checked = 0
    for b in snooped:
        post = [(e, s) for e, s in zip(b.explanations, b.snoops) if e.street > 0]
        for e, (weights, folded, d, inner) in post:
            opps = [s for s in range(len(folded)) if s != e.seat - 1 and not folded[s]]
            la = getattr(inner.postflop, "lookahead", 1) if e.street == 1 else 1
            a = assess(e.hole, e.board, [weights[s] for s in opps], n_opponents=len(opps), lookahead=la)
            v = e.values
            assert (v.hs, v.hs_n, v.ppot, v.npot, v.ehs, v.ehs_prime) == (
                a.hs,
                a.hs_n,
                a.ppot,
                a.npot,
                a.ehs,
                a.ehs_prime,
            )
            assert (v.ahead, v.tied, v.behind, v.n_opponents) == (a.ahead, a.tied, a.behind, len(opps))
            assert v.hs_n == pytest.approx(v.hs ** len(opps))
            assert v.ehs_prime == pytest.approx(v.hs_n + (1 - v.hs_n) * v.ppot)
            if e.kind in ("bettor", "selector"):  # what the policy itself read
                assert d.values.ehs_prime == v.ehs_prime and d.values.ppot == v.ppot and d.values.hs_n == v.hs_n
                assert e.rules.rule == d.rule and e.rules.rule in RULES
                shares = np.array([[s.fold, s.call, s.raise_] for s in e.rules.shares]).sum(axis=0)
                assert shares / shares.sum() == pytest.approx(e.rules.triple, abs=1e-5)
            if e.kind == "selector":
                pt = generate_triple(
                    d.values, d.spot, inner.postflop.triple, d.spot.first_to_act and d.spot.aggressor_behind
                )
                assert e.rules.triple == pytest.approx((pt.f, pt.c, pt.r), abs=1e-6)
                assert e.rules.u == d.u and e.probabilities == pytest.approx(d.probabilities, abs=1e-6)
            if e.kind == "simulator":
                r = d.result
                sim = e.simulation
                assert (sim.ev_call, sim.ev_raise, sim.sd_call, sim.sd_raise, sim.trials, sim.cutoff) == (
                    r.ev_call,
                    r.ev_raise,
                    r.sd_call,
                    r.sd_raise,
                    r.trials,
                    r.cutoff,
                )
                assert sim.max_trials == 60
            for o in e.opponents:  # the weight tables as they were
                dead = parse_cards(e.hole) + parse_cards(e.board)
                assert o.weights == class_grid(weights[o.seat - 1], dead)
            checked += 1
    assert checked >= 10


def test_preflop_numbers_are_the_tables(snooped):
    tables = load_tables()
    n = n_hu = 0
    for b in snooped:
        for e, (weights, _, d, inner) in zip(b.explanations, b.snoops):
            if e.kind != "preflop":
                continue
            p = e.preflop
            h = parse_cards(e.hole)
            cls = int(HOLDING_CLASS[HOLDING_INDEX[h[0], h[1]]])
            assert p.hand_class == CLASS_NAMES[cls]
            if p.heads_up is not None:  # the adaptive model's heads-up valuation (the default at 4 players)
                hu = p.heads_up
                want = holding_equity(h, weights[hu.seat - 1]) if hu.modelled else holding_equity(h, np.ones(1326))
                assert hu.equity == pytest.approx(want, abs=1e-6) and p.ir == pytest.approx(1000 * (2 * want - 1))
                assert d.choice.heads_up is not None and p.group == "2" and p.ir_table == 2
                assert (d.action.name == "RAISE") == (p.strategy in ("MAKE2", "MAKE4"))
                n_hu += 1
                continue
            assert p.ir == float(tables[GROUP_TABLE[p.group]][cls]) and p.ir_table == GROUP_TABLE[p.group]
            th = inner.preflop.thresholds.thresholds(p.group, inner.preflop.tightness, p.position)
            assert p.thresholds == {s.name: float(v) for s, v in th.items()}
            assert p.strategy == choose_strategy(p.ir, th, small_blind=p.small_blind).name == d.choice.strategy.name
            assert p.expected_players == pytest.approx(d.choice.expected)
            if p.threshold is not None:
                assert p.ir >= p.threshold
            if p.next_threshold is not None:
                assert p.ir < p.next_threshold
            n += 1
    assert n >= 10 and n_hu >= 1


def test_reweighting_record_follows_the_modeler(snooped):
    seen = 0
    for b in snooped:
        for e in b.explanations:
            for o in e.opponents:
                w = o.reweight
                if w is None or w.method != "loki1":
                    continue
                assert w.mu is not None and w.frequencies is not None
                mu, sigma = threshold_mu_sigma(1 if w.action in ("check", "call") else 2, np.array(w.frequencies))
                assert (w.mu, w.sigma) == (mu, sigma)
                if w.street > 0:
                    assert (w.lo, w.hi) == ramp_bounds(mu, sigma)
                seen += 1
    assert seen > 5


def test_json_round_trip_and_errors(snooped):
    e = next(x for x in snooped[2].explanations if x.kind == "simulator")
    text = e.model_dump_json()
    assert explanation_from_json(text) == e
    d = json.loads(text)
    assert d["simulation"]["trials"] == e.simulation.trials and len(d["opponents"][0]["weights"]) == 13
    s = next(x for x in snooped[1].explanations if x.kind == "selector")
    assert "raise" in json.loads(s.model_dump_json())["rules"]["shares"][0]
    with pytest.raises(ConfigError, match="explanation JSON"):
        explanation_from_json('{"hand": 1}')
    with pytest.raises(ConfigError):
        explanation_from_json("not json")


def test_grid_layout():
    assert GRID_NAMES[0][0] == "AA" and GRID_NAMES[0][1] == "AKs" and GRID_NAMES[1][0] == "AKo"
    assert GRID_NAMES[12][12] == "22" and GRID_NAMES[11][12] == "32s" and GRID_NAMES[12][11] == "32o"
    w = np.full(1326, 0.01)
    w[class_holdings("AKs")] = 1.0
    g = class_grid(w)
    assert g[0][1] == 1.0 and g[1][0] == 0.01
    dead = parse_cards("AsKs")  # AKs keeps 3 of its 4 holdings; AA 3 of 6
    assert class_means(w, dead)[HOLDING_CLASS[HOLDING_INDEX[parse_cards("Ah")[0], parse_cards("Kh")[0]]]] == 1.0
    assert class_grid(np.ones(1326), parse_cards("AsAhAd"))[0][0] is None  # no AA left
    top = likely_classes(w, top=1)
    assert top[0][0] == "AKs" and top[0][1] == pytest.approx(4 / (4 + 0.01 * 1322), abs=1e-4)


def test_spot_explanations_and_errors():
    exps = explain_spot("AhKh", "Qh7h2c", "rcc/r", players=3, spec="loki1")
    assert [e.street for e in exps] == [0, 1] and exps[0].played == "call" and exps[-1].played is None
    last = exps[-1]
    assert last.kind == "bettor" and last.to_call == 10 and last.hole == "AhKh" and last.board == "Qh7h2c"
    a = assess("AhKh", "Qh7h2c", [np.ones(1326)] * 2, n_opponents=2)
    assert last.values.ehs_prime != a.ehs_prime  # the opponents' tables were re-weighted by their actions
    assert {o.reweight.action for o in last.opponents} == {"bet", "raise"}
    with pytest.raises(CardError, match="--board"):
        explain_spot("AhKh", "Qh7h", "rcc/r", players=3)
    with pytest.raises(CardError, match="share a card"):
        explain_spot("AhKh", "Ah7h2c", "rcc/r", players=3)
    with pytest.raises(ConfigError, match="--betting"):
        explain_spot("AhKh", "", "rcx", players=3)
    with pytest.raises(ConfigError, match="the hand is over"):
        explain_spot("AhKh", "", "rff", players=3)
    with pytest.raises(CardError, match="--hole"):
        explain_spot("AhKhQh", "", "", players=2)


def test_log_explanations(tmp_path):
    from loki.io.phh import write_phh
    from loki.tournament.replay import load_log

    cfg = GameConfig(n_players=3)
    bots = [make_player("loki1", seed=i, name=f"b{i}") for i in range(3)]
    rng = np.random.default_rng(2)
    states = [play_hand(cfg, bots, h % 3, rng) for h in range(4)]
    path = tmp_path / "s.phhs"
    write_phh(path, [(s, ["ann", "bob", "cid"], i + 1) for i, s in enumerate(states)])
    recs, skipped, _ = load_log(path)
    exps, bad = explain_log(recs, "bob", "loki1")
    assert not skipped and not bad
    logged = []
    for rec in recs:  # bob's logged actions, in order
        st = rec.replay()
        seat = list(rec.names).index("bob")
        logged += [ev for ev in st.events if type(ev).__name__ == "ActionTaken" and ev.seat == seat]
    assert len(exps) == len(logged) > 0
    assert all(e.player == "loki1@bob" and e.played for e in exps)
    assert [e.hand for e in exps][0] == recs[0].hand_id
    # seat 2 as the table numbered it: the PHH `seats` field the writer keeps and read_phh reads (bob sat in seat 2)
    assert all(rec.extra["seats"] for rec in recs)
    assert explain_log(recs, "2", "loki1")[0] == explain_log(recs, "bob", "loki1")[0]
    with pytest.raises(ConfigError, match="no player 'zed'"):
        explain_log(recs, "zed")


def test_cli_explain(tmp_path):
    r = CliRunner().invoke(
        app,
        [
            "explain",
            "--hole",
            "AhKh",
            "--board",
            "Qh7h2c",
            "--betting",
            "rcc/r",
            "--players",
            "3",
            "--player",
            "loki2:BR",
            "--json",
        ],
    )
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()  # stdout only (a first-run compile message goes to stderr): one object a line
    data = [json.loads(x) for x in lines]
    assert len(lines) == 2 and all(x.startswith("{") and x.endswith("}") for x in lines)
    assert [d["kind"] for d in data] == ["preflop", "selector"] and data[1]["rules"]["u"] is not None
    r = CliRunner().invoke(
        app, ["explain", "--hole", "AhKh", "--board", "Qh7h2c", "--betting", "rcc/r", "--players", "3", "--grids"]
    )
    assert r.exit_code == 0 and "rule chain" in r.output and "pre-flop strategy" in r.output and "AKs" in r.output
    r = CliRunner().invoke(app, ["explain", "--hole", "AhKh", "--board", "Qh7", "--betting", "rcc/r", "--players", "3"])
    assert r.exit_code == 2 and "error: --board" in r.output
    r = CliRunner().invoke(app, ["explain"])
    assert r.exit_code == 2 and "--hole" in r.output
    r = CliRunner().invoke(app, ["explain", str(tmp_path / "nope.phhs")])
    assert r.exit_code == 2 and "no such file" in r.output
    r = CliRunner().invoke(app, ["explain", "--hole", "AhKh", "--player", "nobot"])
    assert r.exit_code == 2 and "error: --player" in r.output


def test_cli_explain_acpc_log():
    from pathlib import Path

    log = Path(__file__).resolve().parents[2] / "shared" / "acpc" / "3p.limit.h1000.r0.log"
    if not log.exists():
        log = Path("/work/shared/acpc/3p.limit.h1000.r0.log")
    if not log.exists():
        pytest.skip("the shared ACPC logs are not beside this checkout")
    r = CliRunner().invoke(app, ["explain", str(log), "--hands", "6", "--who", "p1", "--json"])
    assert r.exit_code == 0, r.output
    data = [json.loads(x) for x in r.stdout.splitlines()]  # one object a line
    assert data and all(d["played"] for d in data)
    # seats numbered from 1 as the log numbers them: p1 sits in ACPC position (0 - hand) mod 3 of each hand
    assert {d["seat"] for d in data} == {(0 - d["hand"]) % 3 + 1 for d in data}
    assert len({d["seat"] for d in data}) > 1  # the log rotates its seats
    for d in data:
        assert {o["seat"] for o in d["opponents"]} == {1, 2, 3} - {d["seat"]}


def test_feature_r_modelers_are_named():
    """Pre-flop the feature-R modelers re-weight as Loki-1 (with its μ/σ); post-flop by triples."""
    exps = explain_spot("AhKh", "Qh7h2c", "rcc/r", players=3, spec="loki2:BR")
    methods = {(o.reweight.street, o.reweight.method) for o in exps[-1].opponents}
    assert methods == {(0, "loki1"), (1, "triple")}
    exps = explain_spot("AhKh", "Qh7h2c", "rcc/r", players=3, spec={"kind": "loki2", "opponent_model": "specific"})
    methods = {(o.reweight.street, o.reweight.method) for o in exps[-1].opponents}
    assert methods == {(0, "loki1"), (1, "specific")} and not exps[-1].error


def test_other_feature_b_generators_are_named():
    for gen, shares in (("ev", 0), ("calling", 1)):
        e = explain_spot("AhKh", "Qh7h2c", "rcc/r", players=3, spec={"kind": "loki2", "generator": gen})[-1]
        assert e.kind == "selector" and e.rules.generator == gen and not e.error
        assert (len(e.rules.shares) > 0) == bool(shares) and f"({gen} generator)" in e.summary


# ------------------------------------------------------------------ one consistent sentence, 1-based seats

_COMPARE = re.compile(r"(at least|below) the (\w+) threshold (-?\d+)")


def _check_preflop_summary(e) -> None:
    """The summary names the model that decided, and every threshold comparison it states is true of the record."""
    p = e.preflop
    assert e.summary.startswith(f"{e.action}: {p.hand_class}: ")
    if p.heads_up is not None:
        assert p.model == "adaptive" and "the adaptive pre-flop model" in e.summary and "heads-up" in e.summary
    else:
        assert ("the expert system" in e.summary) == (p.model == "expert")
        assert ("the adaptive pre-flop model" in e.summary) == (p.model == "adaptive")
        assert f"plays {p.strategy.title()}" in e.summary
    assert "below every threshold" not in e.summary
    keys = {"Make1": "MAKE1", "Make2": "MAKE2", "Make4": "MAKE4", "Call1": "CALL1", "Call2": "CALL2"}
    for how, name, value in _COMPARE.findall(e.summary):
        t = float(value)
        if keys[name] in p.thresholds:
            assert round(p.thresholds[keys[name]]) == t
        assert (round(p.ir) >= t) if how == "at least" else (round(p.ir) < t), (e.summary, p.ir)


def test_preflop_explanations_say_which_model_decided_and_why(snooped):
    n = 0
    for b in snooped:
        for e in b.explanations:
            if e.kind == "preflop":
                _check_preflop_summary(e)
                n += 1
    assert n >= 10


def test_heads_up_aks_call_is_explained_by_the_adaptive_model():
    """Once explained wrongly: heads-up, AKs calls a re-raise: the adaptive model's valuation, not the expert system's
    thresholds (it said "IR 283 below every threshold (Make1 needs 58)")."""
    e = explain_spot("AsKs", "", "rrr", players=2, spec="loki2:BR")[-1]
    assert e.action == "call" and e.preflop.heads_up is not None and e.preflop.model == "adaptive"
    assert "the adaptive pre-flop model values the hand at IR2 283" in e.summary and "so it calls" in e.summary
    _check_preflop_summary(e)
    e = explain_spot("AsKs", "", "", players=10, spec="loki1")[-1]
    assert e.preflop.model == "expert" and "the expert system plays Make2" in e.summary
    _check_preflop_summary(e)


def test_seats_are_numbered_from_one_everywhere():
    e = explain_spot("AhKh", "Qh7h2c", "rcc/r", players=3, spec="loki1")[-1]
    assert e.seat == 2 and sorted(o.seat for o in e.opponents) == [1, 3]  # the big blind acts after the bet
    assert {o.name for o in e.opponents} == {"seat 1", "seat 3"}
    d = json.loads(e.model_dump_json())
    assert d["seat"] == 2 and d["version"] == 2
    hu = explain_spot("AsKs", "", "rrr", players=2, spec="loki2:BR")[-1]
    assert hu.preflop.heads_up.seat == 2 and "against seat 2" in hu.summary  # seat 1 is the small blind here


def test_a_session_log_explains_you_in_your_seat_and_hand(tmp_path):
    """``loki play`` says "seat 1, hand 1": so does ``loki explain --who you`` on its log."""
    import itertools

    from rich.console import Console

    from loki.cli.human import play_human_session

    answers = itertools.cycle(["c"])
    path = tmp_path / "s.phhs"
    play_human_session(
        3, 3, seed=4, opponent_type="calling", input_fn=lambda p: next(answers), console=Console(record=True),
        phh_path=path,
    )  # fmt: skip
    r = CliRunner().invoke(app, ["explain", str(path), "--who", "you", "--json"])
    assert r.exit_code == 0, r.output
    data = [json.loads(x) for x in r.stdout.splitlines()]
    assert data and {d["seat"] for d in data} == {1} and {d["hand"] for d in data} <= {1, 2, 3} and data[0]["hand"] == 1
    r = CliRunner().invoke(app, ["explain", str(path), "--who", "1", "--json", "--hands", "1"])
    assert r.exit_code == 0 and {json.loads(x)["player"] for x in r.stdout.splitlines()} == {"loki1@you"}


def test_piped_output_is_never_cut(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    r = CliRunner().invoke(
        app, ["explain", "--hole", "AhKh", "--board", "Qh7h2c", "--betting", "rcc/r", "--players", "3"]
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.stdout and max(len(x) for x in r.stdout.splitlines()) > 80
    assert max(len(x) for x in r.stdout.splitlines() if set(x) == {"─"}) <= 100  # rules stay short


@pytest.mark.parametrize("values", ["field", "uniform", "own"])
def test_a_believed_playout_says_what_its_hands_were_rated_against(values):
    """An explanation of a Simulator decision on believed play-outs names the hands' values
    (``sim.believed_values``): against the fields, "on uniform values", or "the opponents on uniform values"."""
    from rich.console import Console

    from loki.explain.render import render_explanation

    spec = {
        "kind": "loki2",
        "features": "BRS",
        "sim": {"play_outs": "believed", "trials": 30, "believed_values": values},
    }
    me = ExplainedPlayer(make_player(spec, seed=1))
    seats = [me, make_player("calling", seed=2), make_player("calling", seed=3)]
    rng = np.random.default_rng(7)
    for h in range(6):
        play_hand(GameConfig(n_players=3), seats, h % 3, rng)
    sims = [e for e in me.explanations if e.simulation is not None]
    assert sims and all(e.simulation.play_outs == "believed" for e in sims)
    assert {e.simulation.believed_values for e in sims} == {values}
    console = Console(record=True, width=200)
    console.print(render_explanation(sims[0]))
    text = console.export_text()
    assert "believed play-outs" in text and ("on uniform values" in text) == (values != "field")
    assert ("the opponents on uniform values" in text) == (values == "own")
    assert explanation_from_json(sims[0].model_dump_json()).simulation.believed_values == values


def test_a_card_blind_valued_decisions_summary_says_what_decided():
    """With the card-blind values (the adaptive Loki against a maniac) a Simulator decision's values are averaged with
    the contest valuation's, or are the contest valuation's alone: the one-line summary says which, and gives no
    standard deviation (none is computed for averaged values) where it once printed "± 0.0" and "over 0 trials"."""
    cfg = GameConfig(n_players=2)
    bots = [ExplainedPlayer(make_player("loki2:BRS:adaptive", seed=3)), ExplainedPlayer(make_player("maniac", seed=4))]
    for b in bots:
        b.names = [x.name for x in bots]
    rng = np.random.default_rng(7)
    for h in range(30):
        play_hand(cfg, bots, h % 2, rng)
    sims = [e for e in bots[0].explanations if e.simulation is not None]
    valued = [e for e in sims if e.simulation.contest is not None]
    assert valued, "no decision of the adaptive Loki used the card-blind values"
    for e in valued:
        assert "±" not in e.summary and "the contest valuation" in e.summary, e.summary
        if e.simulation.trials == 0:
            assert "by the contest valuation" in e.summary and "trials" not in e.summary, e.summary
        else:
            assert f"over {e.simulation.trials} trials" in e.summary, e.summary
