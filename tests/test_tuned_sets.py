"""The shipped tuned sets (``loki.players.tuned``): each is its study's best trial rounded to three
decimals, applies under the explicit fields, and plays reproducibly."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from loki.engine import GameConfig
from loki.errors import LokiError
from loki.players.registry import make_player, parse_player, spec_of
from loki.players.table import play_session
from loki.players.tuned import TUNED_SETS

ROOT = Path(__file__).resolve().parents[1]
STUDY_OF = {  # the study each set comes from (its folder under experiments/)
    "B1": "tuned-sets/tune/fig3-B",
    "S1": "tuned-sets/tune/fig3-S",
    "BRS1": "tuned-sets/tune/fig3-BRS",  # started at S2's values: its best.toml names S2 as its base (tuned = "S2")
    "BRS2": "tuned-sets/tune/fig3-BRS2",  # started at BRS1's values (tuned = "BRS1")
    "A1": "adaptive-loki/tune/hu-adaptive",  # the adaptive Loki's model and best response
}
# a set made from another by taking back or adding a part (S2: S1 with the paper's generator form; A2: A1 with fold
# equity in place of its lower raise threshold; A3: A2 with the card-blind verdict latched; A4: A3 with the passive
# verdict; A5: A4's model with the card-blind hypothesis and the contest valuation, its best response dropped; A6: A5
# with the pre-flop contest at four to six players only at card-blind tables; A7: A6 with fast frequencies, the
# frequency expert ranking among all the holdings and the card-blind log-odds judged apart; A8: A7 with the believed
# play-outs' opponents rated against a uniform range; BRS3:
# BRS2 with the pre-flop re-weighting by our own expert system)
DERIVED = {
    "S2": "S1",
    "A2": "A1",
    "A3": "A2",
    "A4": "A3",
    "A5": "A4",
    "A6": "A5",
    "A7": "A6",
    "A8": "A7",
    "BRS3": "BRS2",
}


def _flat(d: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def test_every_set_names_its_study():
    assert set(TUNED_SETS) == set(STUDY_OF) | set(DERIVED)
    assert set(DERIVED.values()) <= set(STUDY_OF) | set(DERIVED)


def test_a3_is_a2_with_the_latched_verdict():
    a2, a3 = parse_player("loki2:BRS:adaptive:tuned=A2"), parse_player("loki2:BRS:adaptive:tuned=A3")
    assert a3.exploit.hysteresis and not a2.exploit.hysteresis
    assert a3.model_copy(update={"exploit": a2.exploit, "tuned": "A2"}) == a2  # every other value is A2's


def test_a4_is_a3_with_the_passive_verdict():
    a3, a4 = parse_player("loki2:BRS:adaptive:tuned=A3"), parse_player("loki2:BRS:adaptive:tuned=A4")
    assert (a4.exploit.passive_answers, a3.exploit.passive_answers) == (4, 0)
    assert a4.model_copy(update={"exploit": a3.exploit, "tuned": "A3"}) == a3  # every other value is A3's


def test_brs3_is_brs2_with_the_preflop_strategy_reweighting():
    brs2, brs3 = parse_player("loki2:BRS:tuned=BRS2"), parse_player("loki2:BRS:tuned=BRS3")
    assert (brs2.preflop_reweighting, brs3.preflop_reweighting) == ("ramp", "strategy")
    assert brs3.model_copy(update={"preflop_reweighting": "ramp", "tuned": "BRS2"}) == brs2  # every other value


def test_s2_is_s1_with_the_papers_generator_form():
    s1, s2 = parse_player("loki2:S:tuned=S1"), parse_player("loki2:S:tuned=S2")
    paper = parse_player("loki2:S")
    assert s2.form == paper.form  # symmetric ramps, no implied odds, no bluff: the paper's form
    assert s1.form != paper.form
    assert s2.model_copy(update={"form": s1.form, "tuned": "S1"}) == s1  # every other value is S1's
    assert {k: v for k, v in _flat(TUNED_SETS["S1"]).items() if not k.startswith("form.")} == _flat(TUNED_SETS["S2"])


@pytest.mark.parametrize("name", sorted(STUDY_OF))
def test_a_set_is_its_studys_best_trial_rounded(name):
    best = tomllib.loads((ROOT / "experiments" / STUDY_OF[name] / "best.toml").read_text())
    found = {k: v for k, v in _flat(best["player"]).items() if k not in ("kind", "features")}
    if "tuned" in found:  # the study tuned a set's fields: the set's other values are the base's
        found = {**_flat(TUNED_SETS[str(found.pop("tuned"))]), **found}
    found = {k: v for k, v in found.items() if not k.startswith("exploit.")}  # not tuned
    shipped = {k: v for k, v in _flat(TUNED_SETS[name]).items() if not k.startswith("exploit.")}
    tuned = set(json.loads((ROOT / "experiments" / STUDY_OF[name] / "tune.json").read_text())["best"]["params"])
    if any(k.startswith("exploit.") for k in tuned):  # a study of the best response itself (A1): its tuned fields,
        found = {k: v for k, v in _flat(best["player"]).items() if k in tuned}  # not the target's spec options
        shipped = {
            k: v
            for k, v in _flat(TUNED_SETS[name]).items()
            if k not in ("exploit.card_blind", "exploit.fold_equity", "exploit.hysteresis", "exploit.passive_answers")
        }
    assert set(shipped) == set(found), (shipped, found)
    for k, v in found.items():
        if isinstance(v, float):
            assert shipped[k] == pytest.approx(round(v, 3), abs=1e-12), k
        else:
            assert shipped[k] == v, k


def test_the_set_applies_under_the_explicit_fields():
    plain = parse_player("loki2:B")
    b1 = parse_player("loki2:B:tuned=B1")
    assert (plain.bettor.make1, plain.bettor.make2) == (0.5, 0.85)  # the paper's thresholds stay the default
    assert (b1.bettor.make1, b1.bettor.make2, b1.form.bluff) == (0.349, 0.657, 0.170)
    mixed = parse_player({"kind": "loki2", "features": "B", "tuned": "B1", "bettor": {"make1": 0.45}})
    assert (mixed.bettor.make1, mixed.bettor.make2) == (0.45, 0.657)  # merged key by key
    s1 = parse_player("loki2:S:tuned=S1")
    assert (s1.sim.choice, s1.sim.temperature, s1.sim.trials) == ("softmax", 0.110, plain.sim.trials)
    assert parse_player(spec_of(b1)) == b1
    assert b1.exploit.card_blind and s1.exploit.card_blind and not plain.exploit.card_blind  # the card-blind guard


def test_an_unknown_set_is_refused_by_name():
    with pytest.raises(LokiError, match="B9"):
        parse_player("loki2:B:tuned=B9")


def test_a_tuned_player_plays_the_same_games_with_the_same_seeds():
    def session(spec: str) -> list[float]:
        players = [make_player(spec, seed=1), make_player("loki1", seed=2)]
        return list(play_session(GameConfig(n_players=2), players, 20, seed=5))

    tuned = session("loki2:S:tuned=S1:trials=40")
    assert tuned == session("loki2:S:tuned=S1:trials=40")
    assert tuned != session("loki2:S:trials=40")  # and the set changes play (fixed seeds: checked once, stable)


def test_the_adaptive_option_with_a_named_set_plays_that_set():
    """``loki2:BRS:adaptive:tuned=NAME`` of an adaptive set plays that set as it was (A8 is the option's): A1, A2 and
    A3 without the passive verdict, A1 and A2 without the latch, A1 without fold equity."""
    a1, a2, a3, a4 = (parse_player(f"loki2:BRS:adaptive:tuned={n}") for n in ("A1", "A2", "A3", "A4"))
    from loki.modeler.adaptive import AdaptiveModelConfig
    from loki.players.exploit import ExploitConfig

    for name, p in zip(("A1", "A2", "A3", "A4"), (a1, a2, a3, a4), strict=True):  # every value of the set, no other
        assert p.exploit == ExploitConfig(**TUNED_SETS[name]["exploit"]), name
        assert p.adaptive_model == AdaptiveModelConfig(**TUNED_SETS[name]["adaptive_model"]), name
    assert (a1.exploit.hysteresis, a1.exploit.fold_equity, a1.exploit.raise_equity) == (False, False, 0.418)
    assert (a2.exploit.hysteresis, a2.exploit.fold_equity, a2.exploit.raise_equity) == (False, True, 0.5)
    assert (a3.exploit.hysteresis, a3.exploit.fold_equity, a3.exploit.passive_answers) == (True, True, 0)
    assert (a4.exploit.hysteresis, a4.exploit.fold_equity, a4.exploit.passive_answers) == (True, True, 4)
    assert parse_player("loki2:BRS:adaptive").model_dump(exclude={"tuned"}) != a4.model_dump(exclude={"tuned"})
    for p in (a1, a2, a3, a4):  # the older sets play as they did: two candidates, Loki-1's pre-flop, no contest values
        assert p.adaptive_model.candidates == ("observer", "specific") and p.preflop_model == "auto"
        assert not p.sim.card_blind_values and p.exploit.card_blind


# ------------------------------------------------------------------ the sets as data


def test_each_set_is_a_file_with_its_parent_study_validation_and_status():
    """One file per set (loki/data/tuned/NAME.toml): its parent and successor are shipped sets, its study folder is
    committed, a superseded set names its current successor, and its values are its parent's with its changes."""
    from loki.players.tuned import SETS, merge_config

    assert set(SETS) == set(TUNED_SETS)
    current = {s.player: s.name for s in SETS.values() if s.status == "current"}
    assert current == {"loki2:B": "B1", "loki2:S": "S2", "loki2:BRS": "BRS3", "loki2:BRS:adaptive": "A8"}
    for s in SETS.values():
        assert (ROOT / s.study).is_dir(), s.study
        assert s.summary and s.validation and s.provenance
        if s.status == "superseded":
            assert SETS[s.superseded_by].status == "current" and SETS[s.superseded_by].player == s.player
        base = {k: v for k, v in (TUNED_SETS[s.parent] if s.parent else {}).items() if k not in s.drop}
        assert TUNED_SETS[s.name] == merge_config(base, s.changes)
        parse_player(f"{s.player}:tuned={s.name}")  # playable by name, superseded or not


def test_loki_tune_lists_the_sets_one_line_each():
    from typer.testing import CliRunner

    from loki.cli import app
    from loki.players.tuned import SETS

    r = CliRunner().invoke(app, ["tune", "--list-sets"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == len(SETS)
    for s in SETS.values():
        (line,) = [ln for ln in lines if ln.startswith(f"{s.name}: ")]
        assert ("current" if s.status == "current" else f"superseded by {s.superseded_by}") in line
        assert f"{s.player}:tuned={s.name}" in line and s.study in line


def test_players_and_presets_name_the_set_they_play():
    """A spec's title names its set, the adaptive option's implied one included; the paper's figure presets play the
    paper's design, the fitted sets play in presets of their own whose labels name them."""
    from loki.players.registry import title_of
    from loki.tournament.config import load_preset

    assert title_of("loki2:BRS:tuned=BRS3") == "loki2:BRS:tuned=BRS3 (fitted: BRS3)"
    assert title_of("loki2:BRS:tuned=BRS1") == "loki2:BRS:tuned=BRS1 (fitted: BRS1, superseded)"
    assert title_of("loki2:BRS:adaptive").endswith("(fitted: A8)")
    assert title_of("loki2:BRS:adaptive:trials=200:tuned=A5").endswith("(fitted: A5, superseded)")
    # a table asking for the adaptive model plays its hand-set values (500 trials, uniform play-outs), not a fitted set,
    # even with a fitted set's name: its title says only what it is
    for table in ({"features": "BRS", "opponent_model": "adaptive"},
                  {"features": "BRS", "opponent_model": "adaptive", "tuned": "A5"}):  # fmt: skip
        assert "fitted" not in title_of({"kind": "loki2", **table})
    option = parse_player("loki2:BRS:adaptive")
    assert title_of(option).endswith("(fitted: A8)")  # the option's own configuration, as a table
    assert title_of("loki2:BRS") == "loki2:BRS"
    for paper, fitted, name in (("fig3-B", "fig3-B-B1", "B1"), ("fig3-S", "fig3-S-S2", "S2"),
                                ("fig3-BRS", "fig3-BRS-BRS3", "BRS3")):  # fmt: skip
        p = load_preset(paper, check_players=False)
        assert all("tuned" not in s.spec for s in p.seats)
        f = load_preset(fitted, check_players=False)
        enhanced = [s for s in f.seats if s.spec.startswith("loki2")]
        assert enhanced and all(s.spec.endswith(f":tuned={name}") for s in enhanced)
        assert all(s.label.endswith(f"(fitted: {name})") for s in enhanced)
