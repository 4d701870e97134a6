"""The adaptive opponent model: the candidates' weights follow the model that explains the opponent."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from loki.engine import GameConfig
from loki.modeler.adaptive import AdaptiveModelConfig
from loki.players.registry import make_player, parse_player, spec_of
from loki.players.table import play_session

HANDS = 150  # heads-up hands per session; the tolerances below hold with these seeds (checked, see the asserts)
#: the adaptive model with the two candidates of the sets A1-A4 (the observer and the opponent-specific mixture): the
#: mechanism the tests below follow; the default's three candidates (set A5) are tested at the end of the block
TWO = "loki2:BR:adaptive:tuned=A4"


def _session(me_spec, opponent: str, seed: int = 3, hands: int = HANDS):
    me = make_player(me_spec, seed=1)
    play_session(GameConfig(n_players=2), [me, make_player(opponent, seed=2)], hands, seed=seed)
    return me, me.models[1]


@pytest.mark.parametrize("seed", [3, 4])
def test_weights_move_to_the_observer_model_against_a_player_that_plays_by_it(seed):
    """A Loki-2 B+R opponent acts by the very Triple Generator the observer model predicts with."""
    me, m = _session(TWO, "loki2:BR", seed)
    w = me.modeler.weights_of(m)
    assert w["observer"] > 0.95, w


@pytest.mark.parametrize("opponent", ["maniac", "random"])
def test_weights_move_to_the_specific_model_against_a_card_blind_player(opponent):
    """A card-blind player's actions say nothing about its cards: the mixture's frequency and card-blind experts explain
    them, the observer's triples (strong hands raise) do not."""
    me, m = _session(TWO, opponent)
    w = me.modeler.weights_of(m)
    assert w["specific"] > 0.95, w
    # before any evidence the prior favours the paper's design
    fresh = make_player(TWO, seed=1)
    assert fresh.modeler.weights_of(m) == pytest.approx({"observer": 0.8, "specific": 0.2})


@pytest.mark.parametrize(("opponent", "seed"), [("maniac", 3), ("random", 3), ("loki2:BR", 3), ("loki2:BR", 4)])
def test_the_default_weighs_the_card_blind_hypothesis_by_the_evidence(opponent, seed):
    """The default's three candidates (set A5): against a card-blind player the card-blind hypothesis takes the
    weight; against a player whose actions follow its cards (Loki-2 B+R) it loses it, and the observer, which
    predicts with that player's own Triple Generator, keeps the most.  Its card-blindness is that posterior."""
    me, m = _session("loki2:BR:adaptive", opponent, seed)
    w = me.modeler.weights_of(m)
    if opponent == "loki2:BR":
        assert w["blind"] < 0.01 and w["observer"] == max(w.values()), w
        assert me.modeler.card_blindness(m) < 0.01
    else:
        assert w["blind"] > 0.95, w
        assert me.modeler.card_blindness(m) > 0.95
    fresh = make_player("loki2:BR:adaptive", seed=1)
    assert fresh.modeler.weights_of(m) == pytest.approx({"observer": 0.7, "specific": 0.15, "blind": 0.15})


def test_the_spec_and_its_settings():
    cfg = parse_player("loki2:BRS:adaptive")
    assert cfg.opponent_model == "adaptive" and cfg.sim.play_outs == "auto" and spec_of(cfg) == "loki2:BRS:adaptive"
    with pytest.raises(Exception, match="feature R"):
        parse_player("loki2:BS:adaptive")
    # its Simulator's budget: ADAPTIVE_TRIALS unless trials=N is given; the paper's 500 elsewhere
    from loki.players.kinds import ADAPTIVE_TRIALS

    assert ADAPTIVE_TRIALS == 100 and cfg.sim.trials == ADAPTIVE_TRIALS
    assert parse_player("loki2:BRS").sim.trials == 500 == parse_player("loki2:BR:adaptive").sim.trials
    full = parse_player("loki2:BRS:adaptive:trials=500")
    assert full.sim.trials == 500 and parse_player(spec_of(full)) == full and spec_of(full) != "loki2:BRS:adaptive"
    assert parse_player("loki2:BRS:trials=100:adaptive") == cfg
    # the option plays the set A8's design: the card-blind hypothesis among the candidates, weighed by actions and
    # showdowns apart from the card-driven candidates, which learn frequencies fast (the opponent-specific one ranking a
    # holding among all the holdings), the contest valuation before the flop (at four to six players only at
    # card-blind tables) and in the Simulator's values, believed play-outs rating the opponents' hands against a
    # uniform range, no card-blind best response; the hand-set values stay the classes' defaults
    from loki.modeler.adaptive import AdaptiveModelConfig as AMC
    from loki.players.exploit import ExploitConfig
    from loki.players.kinds import ADAPTIVE_SET
    from loki.players.tuned import TUNED_SETS

    a8 = TUNED_SETS[ADAPTIVE_SET]
    assert ADAPTIVE_SET == "A8" and cfg.adaptive_model == AMC(**a8["adaptive_model"])
    assert cfg.adaptive_model.blindness_forgetting == 1.0 and cfg.adaptive_model.blindness_showdowns == 0.5
    assert cfg.specific_model.frequency_ranking == "deck" and cfg.specific_model.frequency_prior == 3.0
    assert cfg.ramp_frequency_prior == 3.0
    assert cfg.contest.preflop_card_blind == 0.15 and cfg.contest.preflop_players == 3
    assert cfg.adaptive_model.candidates == ("observer", "specific", "blind") and cfg.adaptive_model.showdown_evidence
    assert cfg.exploit == ExploitConfig() and not cfg.exploit.card_blind
    assert cfg.preflop_model == "contest" and cfg.sim.card_blind_values and cfg.specific_model.prior[2] == 0.0
    assert cfg.sim.play_outs == "auto" and cfg.sim.believed_values == "own"
    assert parse_player("loki2:BRS:adaptive:tuned=A8").model_dump(exclude={"tuned"}) == cfg.model_dump(
        exclude={"tuned"}
    )
    a7 = parse_player("loki2:BRS:adaptive:tuned=A7")  # A7: every believed play-out hand against its field
    assert a7.sim.believed_values == "field"
    assert a7.model_copy(update={"sim": cfg.sim, "tuned": None}) == cfg  # every other value is A8's
    a6 = parse_player("loki2:BRS:adaptive:tuned=A6")  # A6: Loki-1's frequency blend, one evidence vector
    changed = {"adaptive_model", "specific_model", "ramp_frequency_prior"}
    assert a6.model_dump(exclude={"tuned"} | changed) == a7.model_dump(exclude={"tuned"} | changed)
    assert a6.adaptive_model.blindness_forgetting is None and a6.specific_model.frequency_ranking == "range"
    a5 = parse_player("loki2:BRS:adaptive:tuned=A5")  # A5: the contest in every pre-flop hand up to six players
    assert a5.contest.preflop_card_blind == 0.0
    assert a5.model_dump(exclude={"tuned", "contest"}) == a6.model_dump(exclude={"tuned", "contest"})
    a1 = parse_player("loki2:BRS:adaptive:tuned=A1")  # A1 itself, as it was: two candidates, its best response
    assert a1.exploit.raise_equity == 0.418 and not a1.exploit.fold_equity and a1.exploit.card_blind
    assert a1.adaptive_model.candidates == ("observer", "specific") and a1.preflop_model == "auto"
    assert not a1.sim.card_blind_values
    assert parse_player("loki2:BRS:adaptive:tuned=BRS1").adaptive_model == cfg.adaptive_model
    # a named set's own model values win over the option's (as over any default)
    other = {"adaptive_model": {"floor": 0.05}}
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(TUNED_SETS, "X1", other)
        x = parse_player("loki2:BRS:adaptive:tuned=X1")
    assert x.adaptive_model.floor == 0.05 and x.adaptive_model.candidates == cfg.adaptive_model.candidates
    assert x.adaptive_model.believed_from == cfg.adaptive_model.believed_from
    hand = parse_player({"kind": "loki2", "features": "BRS", "opponent_model": "adaptive"})
    assert hand.adaptive_model == AMC() and hand.adaptive_model.believed_from == 0.5 != cfg.adaptive_model.believed_from
    with pytest.raises(Exception, match="prior"):
        AdaptiveModelConfig(candidates=("observer", "specific"), prior=(1.0,))


PLUGIN = '''
import numpy as np
from loki.modeler import Loki1Modeler, PlayoutPolicy
from loki.modeler.triple_model import ColumnLikelihood


class AlwaysRaises:
    """Believes the opponent raises (bets) with any holding: every action but a raise is a surprise."""

    name = "always-raises"

    def __init__(self):
        self.loki1 = Loki1Modeler()

    def reweight(self, model, event, bucket, context):
        if event.round == 0:
            return self.loki1.reweight(model, event, bucket, context)
        p = 0.9 if int(event.action) == 2 else 0.1
        model.trace.append((event.round, event.action, ColumnLikelihood(np.full(1326, p))))
        return None

    def playout_policy(self, model):
        f = np.zeros((4, 3, 3))
        f[:, :, 2] = 1.0
        return PlayoutPolicy(label="raises always", mix=(0.0, 0.0, 1.0), frequencies=f, believed=True)
'''


def _with_plugin(tmp_path, monkeypatch, module: str, features: str) -> dict:
    # the spec of an adaptive Loki whose candidates are the observer and PLUGIN's AlwaysRaises, importable as `module`
    (tmp_path / f"{module}.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, module, raising=False)
    return {
        "kind": "loki2",
        "features": features,
        "opponent_model": "adaptive",
        "adaptive_model": {"candidates": ["observer", f"{module}:AlwaysRaises"], "prior": [0.5, 0.5]},
    }


def test_a_plugin_model_takes_part_in_the_weighing_and_plays_in_the_simulator_as_itself(tmp_path, monkeypatch):
    spec = _with_plugin(tmp_path, monkeypatch, "plugin_adaptive", "BRS") | {"sim": {"play_outs": "auto", "trials": 40}}
    me, m = _session(spec, "maniac", hands=60)
    w = me.modeler.weights_of(m)
    assert set(w) == {"observer", "plugin_adaptive:AlwaysRaises"}
    assert w["plugin_adaptive:AlwaysRaises"] > 0.9, w  # a maniac raises: the plug-in explains it
    pol = me.modeler.playout_policy(m)
    # the Simulator plays the opponent by the plug-in's card-blind raising, in proportion to its weight
    assert pol.mix[2] == pytest.approx(w["plugin_adaptive:AlwaysRaises"], abs=1e-9) and pol.believed
    assert np.all(pol.frequencies[1:, :, 2] == 1.0)
    sims = [d for d in [me.last_postflop] if d is not None and d.kind == "simulator"]
    assert not sims or sims[0].spot.beliefs is not None  # auto play-outs turned believed


def test_explanations_show_the_weights():
    from loki.explain import ExplainedPlayer

    me = ExplainedPlayer(make_player("loki2:BR:adaptive", seed=1))
    play_session(GameConfig(n_players=2), [me, make_player("maniac", seed=2)], 40, seed=5)
    rws = [o.reweight for e in me.explanations for o in (e.opponents or []) if o.reweight is not None]
    adaptive = [r for r in rws if r.method == "adaptive"]
    # the candidates' weights and, beside them, the opponent's card-blindness (their average of it)
    assert adaptive and all(set(r.model_weights) == {"observer", "specific", "blind", "card-blind"} for r in adaptive)
    last_w = dict(adaptive[-1].model_weights)
    c = last_w.pop("card-blind")
    assert abs(sum(last_w.values()) - 1.0) < 1e-3 and last_w["blind"] - 1e-3 <= c <= 1.0
    from rich.console import Console

    from loki.explain.render import render_explanation

    last = next(
        e for e in reversed(me.explanations) if any(o.reweight and o.reweight.model_weights for o in e.opponents)
    )
    console = Console(record=True, width=200)
    console.print(render_explanation(last))
    text = console.export_text()
    assert "adaptive (observer" in text and "specific" in text


def test_mixture_kernel_equals_the_numpy_form():
    """The adaptive model's mixture of its candidates' tables (one kernel) gives the floats of its numpy form
    (``Σ π_k · w_k / Σ_live w_k``, numpy's pairwise sums, rescaled to a live maximum of 1, floored at 0.01, written
    at the live holdings only), on random tables, weights and live sets (fixed seed), a table with no live weight
    and an all-dead live set included."""
    from loki.assessment.weights import LOW_WEIGHT
    from loki.modeler.kernels import mixture_into

    rng = np.random.default_rng(11)
    for k in range(30):
        n_c = 1 + k % 4
        tabs = rng.random((n_c, 1326)) * 10.0 ** rng.integers(-3, 1, size=(n_c, 1))
        live = rng.random(1326) < (0.0 if k == 0 else 0.9)
        if k % 5 == 1:
            tabs[0, live] = 0.0  # a candidate with no live weight counts for nothing
        post = rng.random(n_c)
        post /= post.sum()
        old = rng.random(1326)
        mixed = np.zeros(1326)
        for w_k, t in zip(post, tabs, strict=True):
            s = float(t[live].sum())
            if s > 0.0:
                mixed += w_k * t / s
        top = float(mixed[live].max()) if live.any() else 0.0
        want = np.where(live, np.maximum(mixed / top, LOW_WEIGHT), old) if top > 0.0 else old
        got = old.copy()
        assert mixture_into(tabs, post, live, LOW_WEIGHT, got) == (top > 0.0)
        assert np.array_equal(got, want)


def test_predictive_probability_kernel():
    """A candidate's predictive probability of an action (one kernel): the denominator is numpy's own
    ``before[live].sum()`` bit for bit, the whole within 1e-14 (relative) of the numpy form
    ``np.dot(b, col[live]) / b.sum()`` (the numerator is a pairwise sum, BLAS's dot adds in another order), on random
    tables and live sets (fixed seed); a live set with no weight gives NaN."""
    from loki.modeler.kernels import np_sum, predictive_probability

    rng = np.random.default_rng(12)
    buf = np.empty(1326)
    for k in range(200):
        before = np.maximum(rng.random(1326) * 10.0 ** rng.integers(-3, 1), 0.01)
        col = rng.random(1326)
        live = rng.random(1326) < rng.uniform(0.3, 1.0)
        b = before[live]
        want = float(np.dot(b, col[live]) / b.sum())
        got = predictive_probability(before, col, live, buf, buf.copy())
        assert abs(got - want) <= 1e-14 * want
        assert np_sum(np.ascontiguousarray(b)) == b.sum()
        prods = np.ascontiguousarray(b * col[live])
        assert got == np.add.reduce(prods) / b.sum()  # the documented order, exactly
    assert np.isnan(predictive_probability(np.ones(1326), np.ones(1326), np.zeros(1326, bool), buf, buf.copy()))


def test_model_average_kernel_equals_the_numpy_form():
    """The adaptive model's step in one kernel (evidence, weights, average) against its numpy form on random tables
    (fixed seed): the evidence ``γ·E + log max(p, floor)`` and the softmax weights within 1e-12 (the kernel's
    ``exp``/``log`` are the C library's, numpy's its own SIMD ones), the averaged table exactly
    :func:`mixture_into`'s with those weights; a candidate with no live weight counts with the floor."""
    from loki.assessment.weights import LOW_WEIGHT
    from loki.modeler.kernels import mixture_into, model_average_into, softmax_into

    rng = np.random.default_rng(13)
    buf = np.empty(1326)
    for k in range(40):
        n_c = 1 + k % 4
        before = np.maximum(rng.random((n_c, 1326)), 0.01)
        cols = rng.random((n_c, 1326)) * rng.random((n_c, 1))
        after = np.maximum(before * cols, 0.01)
        live = rng.random(1326) < 0.85
        if k % 7 == 3:
            before[0, live] = 0.0  # no live weight: its p is NaN, counted as the floor
        evidence = rng.normal(size=n_c)
        log_prior = np.log(rng.dirichlet(np.ones(n_c)))
        g, floor = 0.995, 0.02
        with np.errstate(invalid="ignore"):
            p = np.array([np.dot(b[live], c[live]) / b[live].sum() for b, c in zip(before, cols, strict=True)])
        want_e = g * evidence + np.log(np.maximum(np.nan_to_num(p, nan=floor), floor))
        e = log_prior + want_e
        want_post = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
        post = np.empty(n_c)
        row = rng.random(1326)
        row2 = row.copy()
        got_e = evidence.copy()
        written = model_average_into(
            before, after, cols, live, g, floor, log_prior, got_e, post, LOW_WEIGHT, row, buf, buf.copy()
        )
        np.testing.assert_allclose(got_e, want_e, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(post, want_post, rtol=1e-12, atol=1e-15)
        assert written == mixture_into(after, post, live, LOW_WEIGHT, row2)
        assert np.array_equal(row, row2)
        s = np.empty(n_c)
        softmax_into(log_prior + got_e, s)
        assert np.array_equal(s, post)


def test_grouped_card_blind_evidence_equals_one_evidence_vector_without_forgetting():
    """The card-blind candidate kept apart as log-odds against the card-driven group (``blindness_forgetting``) is a
    re-parametrisation: with nothing forgotten (γ = γ_b = 1), every action's evidence counted (λ = 1) and no clip, a
    sequence of random actions (fixed seed, 1 to 3 card-driven candidates) gives the weights of one evidence vector
    (:func:`model_average_into`) within 1e-10, and the same averaged table within 1e-12."""
    from loki.assessment.weights import LOW_WEIGHT
    from loki.modeler.kernels import grouped_average_into, model_average_into

    rng = np.random.default_rng(29)
    buf = np.empty(1326)
    for k in range(12):
        n_c = 2 + k % 3
        blind = int(rng.integers(n_c))
        log_prior = np.log(rng.dirichlet(np.ones(n_c)))
        e_one, e_grouped = np.zeros(n_c), np.zeros(n_c)
        for _ in range(25):
            before = np.maximum(rng.random((n_c, 1326)), 0.01)
            cols = rng.random((n_c, 1326)) * rng.random((n_c, 1))
            cols[blind] = rng.random()  # the card-blind candidate: one probability for every holding
            after = np.maximum(before * cols, 0.01)
            live = rng.random(1326) < 0.85
            p1, p2 = np.empty(n_c), np.empty(n_c)
            row1, row2 = np.ones(1326), np.ones(1326)
            model_average_into(
                before, after, cols, live, 1.0, 0.02, log_prior, e_one, p1, LOW_WEIGHT, row1, buf, buf.copy()
            )
            grouped_average_into(
                before, after, cols, live, 1.0, 1.0, 1.0, 1.0, 1e9, 0.02, log_prior, e_grouped, p2, LOW_WEIGHT, row2,
                buf, buf.copy(), blind,
            )  # fmt: skip
            np.testing.assert_allclose(p2, p1, rtol=1e-10, atol=1e-13)
            np.testing.assert_allclose(row2, row1, rtol=1e-12, atol=0.0)


def test_grouped_card_blind_evidence_from_showdowns_only():
    """With ``blindness_actions = 0`` an action moves the card-blind log-odds only by their forgetting (γ_b·D) while
    the card-driven candidates' evidence moves as ever; the clip holds them in ``±blindness_bound``; the weights are
    ``σ(log(prior_b / Σ_d prior_d) + D)`` for the card-blind candidate, the rest shared by the card-driven evidence."""
    from loki.assessment.weights import LOW_WEIGHT
    from loki.modeler.kernels import grouped_average_into

    rng = np.random.default_rng(31)
    buf = np.empty(1326)
    log_prior = np.log(np.array([0.7, 0.15, 0.15]))
    ev = np.array([0.3, -0.2, 5.0])
    before = np.maximum(rng.random((3, 1326)), 0.01)
    cols = rng.random((3, 1326))
    cols[2] = 0.9
    live = np.ones(1326, bool)
    post = np.empty(3)
    grouped_average_into(
        before, before * cols, cols, live, 0.9, 0.5, 0.0, 0.0, 20.0, 0.02, log_prior, ev, post, LOW_WEIGHT,
        np.ones(1326), buf, buf.copy(), 2,
    )  # fmt: skip
    assert ev[2] == 2.5
    p = [float(np.dot(before[i], cols[i]) / before[i].sum()) for i in range(2)]
    np.testing.assert_allclose(ev[:2], [0.9 * 0.3 + np.log(p[0]), 0.9 * -0.2 + np.log(p[1])], rtol=1e-12)
    pb = 1.0 / (1.0 + np.exp(-(np.log(0.15 / 0.85) + 2.5)))
    within = np.exp(log_prior[:2] + ev[:2]) / np.exp(log_prior[:2] + ev[:2]).sum()
    np.testing.assert_allclose(post, [*(1.0 - pb) * within, pb], rtol=1e-12)
    ev = np.array([0.0, 0.0, -19.0])
    cols[2] = 0.001  # a surprising action for the card-blind candidate, counted fully: clipped at -20
    grouped_average_into(
        before, before * cols, cols, live, 1.0, 1.0, 1.0, 1.0, 20.0, 0.02, log_prior, ev, post, LOW_WEIGHT,
        np.ones(1326), buf, buf.copy(), 2,
    )  # fmt: skip
    assert ev[2] == -20.0


@pytest.mark.parametrize("lam, lam_for", [(1.0, 0.0), (0.25, 0.0), (0.5, 1.0), (0.25, 0.25)])
def test_card_blind_log_odds_weigh_an_action_by_the_side_it_favours(lam, lam_for):
    """``blindness_actions_for``: an action whose likelihood ratio favours the card-blind hypothesis moves its
    log-odds by ``lam_for`` times the log-ratio, one that favours the card-driven group by ``lam`` times it; computed
    by hand from the group's predictive probabilities (random tables, fixed seed; both signs met)."""
    from loki.assessment.weights import LOW_WEIGHT
    from loki.modeler.kernels import grouped_average_into

    rng = np.random.default_rng(37)
    buf = np.empty(1326)
    log_prior = np.log(np.array([0.7, 0.2, 0.1]))
    signs = set()
    for _ in range(40):
        ev = np.array([rng.normal(), rng.normal(), rng.normal()])
        before = np.maximum(rng.random((3, 1326)), 0.01)
        cols = rng.random((3, 1326)) * rng.random((3, 1))
        cols[2] = rng.random()
        live = rng.random(1326) < 0.9
        p = [max(float(np.dot(before[i][live], cols[i][live]) / before[i][live].sum()), 0.02) for i in range(3)]
        within = np.exp(log_prior[:2] + ev[:2]) / np.exp(log_prior[:2] + ev[:2]).sum()
        ratio = np.log(p[2]) - np.log(max(float(within @ p[:2]), 0.02))
        want = 0.8 * ev[2] + (lam_for if ratio > 0 else lam) * ratio
        signs.add(ratio > 0)
        grouped_average_into(
            before, before * cols, cols, live, 1.0, 0.8, lam, lam_for, 20.0, 0.02, log_prior, ev, np.empty(3),
            LOW_WEIGHT, np.ones(1326), buf, buf.copy(), 2,
        )  # fmt: skip
        assert ev[2] == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert signs == {True, False}


def test_blindness_actions_for_defaults_to_the_same_play():
    """Without ``blindness_actions_for`` the card-blind log-odds weigh every action by ``blindness_actions``: a
    session with the field unset and one with it equal to ``blindness_actions`` end with the same weights, bit for
    bit; a different value changes them."""
    import json

    model = {"candidates": ["observer", "specific", "blind"], "prior": [0.7, 0.15, 0.15]}
    model |= {"showdown_evidence": True, "preflop_blindness": "none", "blindness_forgetting": 1.0}
    base = {"features": "BR", "opponent_model": "adaptive"}
    w = []
    for extra in ({}, {"blindness_actions_for": 0.25}, {"blindness_actions_for": 0.0}):
        cfg = {**base, "adaptive_model": model | {"blindness_actions": 0.25} | extra}
        me, m = _session("loki2" + json.dumps(cfg), "equity", hands=40)
        w.append(me.modeler.weights_of(m))
    assert w[0] == w[1]
    assert w[0] != w[2]


def test_showdowns_weigh_in_the_card_blind_log_odds_by_blindness_showdowns():
    """``blindness_showdowns``: 1 is the unweighted log-likelihood ratio (the same weights as the field unset, bit for
    bit); against `maniac`, whose shown holdings the card-blind hypothesis predicts, the log-odds judged by showdowns
    only (``blindness_actions = 0``) end higher with each showdown counted twice (fixed seed)."""
    import json

    model = {"candidates": ["observer", "specific", "blind"], "prior": [0.7, 0.15, 0.15]}
    model |= {"showdown_evidence": True, "preflop_blindness": "none", "blindness_forgetting": 1.0}
    model |= {"blindness_actions": 0.0}
    base = {"features": "BR", "opponent_model": "adaptive"}
    w = []
    for extra in ({}, {"blindness_showdowns": 1.0}, {"blindness_showdowns": 2.0}):
        cfg = {**base, "adaptive_model": model | extra}
        me, m = _session("loki2" + json.dumps(cfg), "maniac", hands=40)
        w.append(me.modeler.weights_of(m))
    assert w[0] == w[1]
    assert 0.15 < w[0]["blind"] < w[2]["blind"], w


@pytest.mark.parametrize("opponent", ["maniac", "equity"])
def test_grouped_card_blind_evidence_plays_as_one_evidence_vector_without_forgetting(opponent):
    """The same re-parametrisation through a session, showdowns included (:meth:`AdaptiveModeler.learn`): Loki-2 B+R
    with the default's model and nothing forgotten, grouped or not, ends a 60-hand session with the same weights
    (within 1e-9)."""
    model = {"candidates": ["observer", "specific", "blind"], "prior": [0.7, 0.15, 0.15], "forgetting": 1.0}
    model |= {"showdown_evidence": True, "preflop_blindness": "none"}  # the default's (set A5)
    base = {"features": "BR", "opponent_model": "adaptive", "specific_model": {"prior": [0.7, 0.3, 0.0]}}
    one = {**base, "adaptive_model": model}
    grouped = {**base, "adaptive_model": model | {"blindness_forgetting": 1.0, "blindness_bound": 700.0}}
    w = []
    for cfg in (one, grouped):
        me, m = _session("loki2" + json.dumps(cfg), opponent, hands=60)
        w.append(me.modeler.weights_of(m))
    assert w[1] == pytest.approx(w[0], rel=1e-9, abs=1e-12)
    assert abs(w[0]["blind"] - 0.15) > 0.1  # the evidence moved the weights far from the prior


def test_grouped_card_blind_evidence_needs_the_card_blind_candidate():
    with pytest.raises(ValueError, match="blindness_forgetting needs the card-blind candidate"):
        AdaptiveModelConfig(candidates=("observer", "specific"), prior=(0.8, 0.2), blindness_forgetting=1.0)
    with pytest.raises(ValueError, match="blindness_forgetting needs the card-blind candidate"):
        AdaptiveModelConfig(candidates=("blind",), prior=(1.0,), blindness_forgetting=1.0)


@pytest.mark.parametrize(
    "field, value",
    [
        ("blindness_actions", 0.25),
        ("blindness_actions_for", 0.0),
        ("blindness_showdowns", 2.0),
        ("blindness_bound", 5.0),
    ],
)
def test_card_blind_log_odds_weights_need_blindness_forgetting(field: str, value: float) -> None:
    """The weights of the card-blind log-odds act only where those log-odds exist (``blindness_forgetting``): given
    without it they would be silently ignored, so a value away from the default is refused, naming the field; at the
    default (as a dumped configuration spells it) or with ``blindness_forgetting``, accepted."""
    base = {"candidates": ("observer", "specific", "blind"), "prior": (0.7, 0.15, 0.15)}
    with pytest.raises(ValueError, match=f"{field}.*only with blindness_forgetting"):
        AdaptiveModelConfig(**base, **{field: value})
    default = AdaptiveModelConfig.model_fields[field].default
    assert getattr(AdaptiveModelConfig(**base, **{field: default}), field) == default
    cfg = AdaptiveModelConfig(**base, blindness_forgetting=1.0, **{field: value})
    assert getattr(cfg, field) == value
    spec = {"features": "BRS", "opponent_model": "adaptive", "tuned": "A6", "adaptive_model": {field: value}}
    with pytest.raises(Exception, match="only with blindness_forgetting"):
        make_player("loki2" + json.dumps(spec))


@pytest.mark.parametrize("opponent", ["maniac", "loki2:BR"])
def test_playout_policy_mixture_equals_the_numpy_form(opponent):
    """The adaptive play-out policy's mixture of its candidates (weights ``π``, each candidate's (rules, frequency,
    card-blind) weights) is the floats of its numpy form ``Σ_k π_k · mix_k / Σ``, with the rules and frequencies of
    the heaviest candidate that has them, after a heads-up session (the weights then far from the prior)."""
    from loki.modeler.model import playout_policy_of

    me, m = _session(TWO, opponent, hands=60)
    ad = me.modeler
    o = ad._opponent(m, None)
    post = ad._post(o)
    pols = [playout_policy_of(k, c) for c, k in zip(o.cands, ad.modelers, strict=True)]
    mix = np.zeros(3)
    for w_k, p in zip(post, pols, strict=True):
        mix += w_k * np.asarray(p.mix, dtype=np.float64)
    mix /= mix.sum()
    got = ad.playout_policy(m)
    assert got.mix == (float(mix[0]), float(mix[1]), float(1.0 - mix[0] - mix[1]))
    heaviest = pols[int(np.argmax(post))]
    assert got.rules == next(p.rules for p in [heaviest, *pols] if p.rules is not None)
    assert abs(max(post) - 0.5) > 0.3  # the evidence decided


@pytest.mark.parametrize(("opponent", "believed"), [("maniac", True), ("loki2:BR", False)])
def test_asking_for_believed_play_outs_answers_what_the_policy_says(opponent, believed):
    """``believed_of`` (asked before a Simulator decision builds its beliefs) gives the ``believed`` of the modeler's
    play-out policy: the adaptive model's own cheap answer after a session in which the specific mixture (against a
    maniac) or the observer (against Loki-2 B+R) took the weight, the specific mixture's (always), and, for a modeler
    without ``asks_believed``, its policy's."""
    from loki.modeler import SpecificModeler, TripleModeler, believed_of
    from loki.triples import TripleConfig

    me, m = _session(TWO, opponent, hands=60)
    assert believed_of(me.modeler, m) is me.modeler.playout_policy(m).believed is believed
    assert believed_of(SpecificModeler(TripleConfig()), m) is True
    assert not hasattr(TripleModeler, "asks_believed") and believed_of(TripleModeler(TripleConfig()), m) is False


def _candidate_round_starts(me) -> list[np.ndarray]:
    # every opponent's candidates' round-start copies (the adaptive model's own tables)
    return [o.tables.round_start.copy() for o in me.modeler._opps.values()]


def test_round_start_copies_are_stored_only_where_a_candidate_reads_them():
    """The candidates of the default re-weight the current table after the flop (none reads Loki-1's stored copy):
    their copies are not stored at the flop, turn and river, and the play and the opponent's table are the same as
    with the copies stored; a plug-in candidate that does not say gets them (its re-weighting may read them)."""
    me, m = _session("loki2:BR:adaptive", "random", hands=40)
    assert all(np.all(rs == 1.0) for rs in _candidate_round_starts(me))  # never copied since the hand began
    stored = make_player("loki2:BR:adaptive", seed=1)
    stored.modeler._round_copy = True  # what a candidate that reads the copies would ask for
    a = play_session(GameConfig(n_players=2), [make_player("loki2:BR:adaptive", seed=1), make_player("random", seed=2)],
                     40, seed=3)  # fmt: skip
    b = play_session(GameConfig(n_players=2), [stored, make_player("random", seed=2)], 40, seed=3)
    assert a == b
    np.testing.assert_array_equal(stored.models[1].weights, m.weights)
    assert stored.modeler.weights_of(stored.models[1]) == me.modeler.weights_of(m)
    assert any(np.any(rs != 1.0) for rs in _candidate_round_starts(stored))  # the copies were stored


def test_a_plugin_candidate_that_does_not_say_gets_its_round_start_copies(tmp_path, monkeypatch):
    me, _ = _session(_with_plugin(tmp_path, monkeypatch, "plugin_adaptive_rs", "BR"), "maniac", hands=30)
    assert any(np.any(rs != 1.0) for rs in _candidate_round_starts(me))


def test_an_adaptive_re_weighting_that_writes_the_table_reports_no_collapse():
    """The average's live maximum is 1, so the adaptive model tells the store "not collapsed" itself (the store's own
    test of the table, which it skips then, agrees)."""
    from loki.cards import HOLDING_MASKS
    from loki.engine import Action, ActionTaken
    from loki.modeler.kernels import any_above
    from loki.modeler.model import COLLAPSE_WEIGHT, ModelingContext

    me, m = _session("loki2:BR:adaptive", "random", hands=10)
    ctx = ModelingContext(seat=0, hole=(0, 5), board=(12, 20, 33), game=GameConfig(n_players=2))
    ev = ActionTaken(seat=1, action=Action.RAISE, amount=2, round=1, pot=8, to_call=0, bets=0, n_active=2,
                     voluntary=True)  # fmt: skip
    out = me.modeler.reweight(m, ev, 0, ctx)
    assert out is False
    assert any_above(m.tables.weights, m.row, ctx.dead_mask(), HOLDING_MASKS, COLLAPSE_WEIGHT)


def test_a_showdown_of_an_opponent_that_never_acted_teaches_nothing():
    """With finite stacks an opponent all in from its blind reaches the showdown without acting: its candidates'
    tables are still the previous hand's, so the showdown adds no evidence (it moved the card-blind log-odds by half a
    unit on stale tables); a showdown of the same opponent after acting still does."""
    from loki.players.table import play_hand

    game = GameConfig(n_players=2)
    players = [make_player("loki2:BRS:adaptive", seed=1), make_player("calling", seed=2)]
    rng = np.random.default_rng(3)
    for i in range(4):
        play_hand(game, players, i % 2, rng)
    (opp,) = players[0].modeler._opps.values()
    before = opp.evidence.copy()
    st = play_hand(game, players, 0, rng, stacks=(1000, 10))  # the calling station all in from its big blind
    assert not any(type(e).__name__ == "ActionTaken" and e.seat == 1 for e in st.events)
    assert np.array_equal(opp.evidence, before)
    play_hand(game, players, 1, rng, stacks=(1000, 10))
    assert not np.array_equal(opp.evidence, before)


def test_an_unseen_opponents_card_blindness_is_zero_or_its_priors():
    """unseen_blindness: "zero" (the sets A5 to A8) gives an opponent not followed yet 0; "prior" gives what the
    modeler says of one it follows with no evidence yet (the card-blind candidate's prior weight, 0.15 at A8)."""
    from loki.modeler import OpponentModel
    from loki.players.registry import make_player

    spec = 'loki2{"features": "BRS", "opponent_model": "adaptive", "tuned": "A8", "adaptive_model": %s}'
    zero = make_player("loki2:BRS:adaptive").modeler
    prior = make_player(spec % '{"unseen_blindness": "prior"}').modeler
    unseen, followed = OpponentModel(), OpponentModel()
    assert zero.card_blindness(unseen) == 0.0
    assert prior.card_blindness(unseen) == pytest.approx(prior.weights_of(unseen)["blind"]) == pytest.approx(0.15)
    prior._opponent(followed, None)  # followed from now on, no evidence yet
    assert prior.card_blindness(followed) == pytest.approx(prior.card_blindness(unseen), abs=1e-15)
