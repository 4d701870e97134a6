"""The tuning lab: search-space metadata, a tiny study that is killed and resumes, its player file."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

from loki.config import tunable_params
from loki.errors import ConfigError
from loki.players.registry import make_player, parse_player

pytest.importorskip("optuna")

TINY = """name = "tiny"
deals = 2
seed = 1000
block_deals = 1
histories = false

[[players]]
type = "loki1"
label = "Loki-1"

[[players]]
type = "loki2:B"
label = "Loki-2 B"

[[compare]]
name = "B minus Loki-1"
enhanced = ["Loki-2 B"]
control = ["Loki-1"]
"""


def _loki(*args: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from loki.cli import app; app()", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        **kw,
    )


def test_list_params_shows_the_field_metadata(tmp_path):
    r = _loki("tune", "--list-params", "loki2:BRS", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    by = {x["param"]: x for x in rows}
    meta = {p.path: p for p in tunable_params(parse_player("loki2:BRS"))}
    assert by["bettor.make1"]["source"] == "PAPP98 papp/node76" and by["bettor.make1"]["value"] == 0.5
    assert by["sim.trials"]["log"] and by["sim.trials"]["integer"] and by["sim.trials"]["low"] == 50
    for name, row in by.items():  # the metadata as the fields declare it
        p = meta[name]
        assert (row["low"], row["high"], row["log"], row["source"]) == (p.low, p.high, p.log, p.source)
    # the Simulator's fields only for feature S; the opponent-specific model's only with it
    b = _loki("tune", "--list-params", "loki2:B", "--json", cwd=tmp_path)
    names = {json.loads(line)["param"] for line in b.stdout.splitlines()}
    assert "sim.trials" not in names and "make_width" in names and not any(n.startswith("specific") for n in names)
    # the best response to card-blind opponents' fields only where the player plays it (the adaptive option)
    assert not any(n.startswith("exploit.") for n in names)
    a = _loki("tune", "--list-params", "loki2:BRS:adaptive:tuned=A4", "--json", cwd=tmp_path)
    assert "exploit.raise_equity" in {json.loads(line)["param"] for line in a.stdout.splitlines()}


def test_unknown_param_and_seed_below_1000_are_refused(tmp_path):
    (tmp_path / "tiny.toml").write_text(TINY)
    r = _loki("tune", "tiny.toml", "--param", "bettor.nonsense", "--out", "s", cwd=tmp_path)
    assert r.returncode == 2 and "--param" in r.stderr and "bettor.make1" in r.stderr and "Traceback" not in r.stderr
    r = _loki("tune", "tiny.toml", "--seeds", "7", "--out", "s", cwd=tmp_path)
    assert r.returncode == 2 and ">= 1000" in r.stderr


def _study_states(db: Path) -> dict:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.load_study(study_name="loki-tune", storage=f"sqlite:///{db}")
    except Exception:  # noqa: BLE001 - not created yet
        return {}
    out: dict = {}
    for t in study.get_trials(deepcopy=False):
        out.setdefault(t.state.name, []).append(t)
    return out


def _kill_after_the_first_trial(args: list[str], cwd: Path, db: Path) -> bool:
    """Run ``loki tune args`` and SIGKILL it once a trial is complete in ``db``; whether it was killed (False: the
    study finished first)."""
    p = subprocess.Popen(
        [sys.executable, "-c", "from loki.cli import app; app()", *args], cwd=cwd, stderr=subprocess.PIPE
    )
    deadline = time.time() + 300
    killed = False
    while time.time() < deadline and p.poll() is None:
        if len(_study_states(db).get("COMPLETE", [])) >= 1:
            p.send_signal(signal.SIGKILL)
            killed = True
            break
        time.sleep(0.01)
    p.communicate(timeout=60)
    return killed


@pytest.mark.slow
def test_a_killed_study_resumes_with_no_trial_lost_or_counted_twice(tmp_path):
    (tmp_path / "tiny.toml").write_text(TINY)
    # 40 one-deal blocks a trial: long enough (about a second) for the poll below (each poll reads the SQLite study,
    # tens of milliseconds) to act after the first trial is complete and before the last one is (2 and then 20 deals
    # raced it on quiet machines); the kill lands inside the second trial or, rarely, between two trials.  A loaded
    # machine can still finish the study between two polls: the study is then started again, in a fresh folder, with
    # trials four times as long (at most twice)
    db = tmp_path / "study" / "study.db"
    for deals in (40, 160, 640):
        args = ["tune", "tiny.toml", "--trials", "3", "--deals", str(deals), "--block-deals", "1", "--workers", "1",
                "--quiet", "--param", "make_width", "--param", "bettor.make1", "--validate-deals", "2", "--out",
                "study"]  # fmt: skip
        if _kill_after_the_first_trial(args, tmp_path, db):
            break
        shutil.rmtree(tmp_path / "study")
    else:
        pytest.fail("the study finished before it could be killed, three times, the last with trials of 640 deals")
    st = _study_states(db)
    assert "COMPLETE" in st
    # the kill lands inside a trial (left running in the storage), between two trials (the trial seen running had
    # just finished), or after Optuna created the next trial and before its objective's first line (left running
    # without an owner: nothing drawn, nothing played): nothing may be lost or counted twice
    stale = st["RUNNING"][0] if st.get("RUNNING") else None
    assert len(st.get("RUNNING", [])) <= 1
    started = stale is not None and "owner" in stale.user_attrs
    r = _loki(*args, "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    st = _study_states(db)
    done = st.get("COMPLETE", []) + st.get("PRUNED", [])
    unstarted = [t for t in st.get("RUNNING", []) if "owner" not in t.user_attrs and not t.params]
    assert len(done) == 3 and len(st.get("RUNNING", [])) == len(unstarted)  # none lost, none counted twice
    record = json.loads(r.stdout.splitlines()[-1])
    assert record["trials"]["complete"] + record["trials"]["pruned"] == 3
    if unstarted:  # only its age tells it is dead: once the grace has passed it is failed and queued again
        from loki.tune import open_study, recover_stale

        (z,) = unstarted
        assert stale is not None and z.number == stale.number
        study, storage, _ = open_study(tmp_path / "study", None)
        assert recover_stale(study, storage) == [] and _study_states(db)["RUNNING"][0].number == z.number
        assert recover_stale(study, storage, grace=0.0) == [z.number]
        assert [t.number for t in _study_states(db)["FAIL"]] == [z.number]
    elif started:
        (failed,) = st["FAIL"]
        assert failed.number == stale.number and record["trials"]["fail"] == 1
        retries = [t for t in done if t.user_attrs.get("retry_of") == stale.number]
        assert len(retries) == 1
        # the retry replays the values the killed trial had drawn and draws the rest afresh: a kill before the first
        # draw leaves none, a kill between two draws leaves some (CI hit that once: make_width drawn, bettor.make1
        # not); test_a_dead_trial_is_retried_with_its_values fixes the whole-set case
        assert stale.params.items() <= retries[0].params.items()
    else:
        assert not st.get("FAIL") and record["trials"]["fail"] == 0
    # the player file it wrote loads as a player spec and plays
    best = tmp_path / "study" / "best.toml"
    text = best.read_text()
    assert "[provenance]" in text and "validation_value" in text and "commit" in text
    assert tomllib.loads(text)["provenance"]["study"] == str((tmp_path / "study").resolve())  # given as "study"
    cfg = parse_player(str(best))
    assert cfg.kind == "loki2" and cfg.make_width == pytest.approx(record["best"]["params"]["make_width"])
    from loki.engine import GameConfig
    from loki.players.table import play_session

    play_session(GameConfig(n_players=2), [make_player(str(best), seed=1), make_player("loki1", seed=2)], 5, seed=3)
    # the same folder with other options is another study: refused, not mixed
    r = _loki(*[a if a != str(deals) else str(deals + 1) for a in args], cwd=tmp_path)
    assert r.returncode == 2 and "another" in r.stderr


def test_invalid_values_are_pruned_not_played(tmp_path):
    from loki.tune import StudySpec, load_target, run_study

    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("bettor.make1", "bettor.make2"), deals=1,
        block_deals=1, sampler="random", sampler_seed=4, pruner="none",
    )  # fmt: skip
    assert load_target(spec.target).name == "tiny"
    study = run_study(spec, tmp_path / "s", 6)
    for t in study.get_trials():
        p = t.params
        assert (p["bettor.make1"] > p["bettor.make2"]) == ("invalid" in t.user_attrs)
        if "invalid" in t.user_attrs:
            assert t.state.name == "PRUNED" and not t.intermediate_values
    with pytest.raises(ConfigError, match="1000"):
        StudySpec(target="x", label="y", params=(), seeds=(5,))


def test_player_files_are_read_with_limits(tmp_path):
    from loki.errors import PlayerSpecError

    big = tmp_path / "big.toml"
    big.write_text("[player]\nkind = 'loki1'\n" + "#" * 70_000)
    with pytest.raises(PlayerSpecError, match="larger than"):
        parse_player(str(big))
    bad = tmp_path / "bad.toml"
    bad.write_text("[nothing]\n")
    with pytest.raises(PlayerSpecError, match=r"\[player\]"):
        parse_player(str(bad))


def test_a_resumed_study_draws_new_points(tmp_path):
    """The sampler of a resumed study is seeded past the trials it has: its start-up draws are not the first run's."""
    from loki.tune import StudySpec, run_study

    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("make_width",), deals=1, block_deals=1,
        sampler="tpe", sampler_seed=3, pruner="none",
    )  # fmt: skip
    run_study(spec, tmp_path / "s", 2)
    study = run_study(spec, tmp_path / "s", 4)  # a second run continues the study
    widths = [t.params["make_width"] for t in study.get_trials()]
    assert len(widths) == 4 and len(set(widths)) == 4


def test_a_param_can_be_searched_over_its_own_range(tmp_path):
    """``--param PATH=LOW:HIGH``: the study samples the field inside that range (here above the declared
    ``bettor.make1`` range 0.3..0.7, where the fig3-BRS study's best value sat at the edge), the spec keeps the range so
    a resume asks for the same study, and ranges the field refuses are refused before any game."""
    from loki.tune import StudySpec, parse_param, run_study, search_space

    assert parse_param(" bettor.make1 = 0.72:0.9 ") == ("bettor.make1", (0.72, 0.9))
    for bad in ("bettor.make1=0.9:0.7", "bettor.make1=0.7", "bettor.make1=a:b", "bettor.make1=nan:1", "=0:1"):
        with pytest.raises(ConfigError, match="--param"):
            parse_param(bad)
    player = parse_player("loki2:BRS")
    declared = {p.path: p for p in search_space(player, ["bettor.make1", "sim.trials"])}
    assert (declared["bettor.make1"].low, declared["bettor.make1"].high) == (0.3, 0.7)
    wide = {p.path: p for p in search_space(player, ["bettor.make1=0.72:0.9", "sim.trials=100:300"])}
    assert (wide["bettor.make1"].low, wide["bettor.make1"].high) == (0.72, 0.9)
    assert wide["bettor.make1"].source == declared["bettor.make1"].source  # only the range changes
    assert (wide["sim.trials"].low, wide["sim.trials"].high, wide["sim.trials"].integer) == (100, 300, True)
    for bad, why in (
        ("bettor.make1=0.5:1.2", r"\[0, 1\]"),  # BettorConfig: 0 <= make1 <= 1
        ("sim.temperature=0:1", r"\(0, inf\)"),  # a softmax temperature > 0
        ("sim.trials=100.5:300", "whole numbers"),
        ("bettor.make1=0.6:0.8", None),  # named twice below
    ):
        params = [bad, "bettor.make1"] if why is None else [bad]
        with pytest.raises(ConfigError, match=why or "more than once"):
            search_space(player, params)

    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("bettor.make1=0.72:0.8",), deals=1,
        block_deals=1, sampler="random", sampler_seed=1, pruner="none",
    )  # fmt: skip
    study = run_study(spec, tmp_path / "s", 3)
    drawn = [t.params["bettor.make1"] for t in study.get_trials()]
    assert len(drawn) == 3 and all(0.72 <= x <= 0.8 for x in drawn)
    with pytest.raises(ConfigError, match="params"):  # another range is another study
        run_study(StudySpec(**{**spec.__dict__, "params": ("bettor.make1=0.6:0.8",)}), tmp_path / "s", 4)
    r = _loki("tune", "tiny.toml", "--param", "bettor.make1=0.5:1.5", "--out", "t", cwd=tmp_path)
    assert r.returncode == 2 and "bettor.make1=0.5:1.5" in r.stderr and "Traceback" not in r.stderr


def test_a_range_is_kept_in_one_spelling_and_must_hold_the_start_values(tmp_path):
    """The spec keeps a ``--param`` range in one spelling (so a resume typed another way finds its study), and
    ``--start-at-values`` refuses a start value outside the searched range (Optuna would play it anyway) before any
    study folder is made, naming the field and the way out."""
    from loki.tune import StudySpec, param_text, run_study

    assert param_text("bettor.make1 = 0.60:0.9") == param_text("bettor.make1=0.6:0.90") == "bettor.make1=0.6:0.9"
    assert param_text("sim.trials=100:300.0") == "sim.trials=100:300" and param_text(" make_width ") == "make_width"
    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("bettor.make1=0.6:0.9",), deals=1,
        block_deals=1, sampler="random", pruner="none", start_at_values=True,
    )  # fmt: skip
    with pytest.raises(ConfigError, match=r"bettor.make1's value 0.5 lies outside its search range \[0.6, 0.9\]"):
        run_study(spec, tmp_path / "s", 1)
    assert not (tmp_path / "s").exists()
    r = _loki(
        "tune", "tiny.toml", "--param", "bettor.make1 = 0.60:0.9", "--start-at-values", "--out", "t", cwd=tmp_path
    )
    assert r.returncode == 2 and "--param bettor.make1=LOW:HIGH" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "t").exists()


def test_a_study_can_start_at_the_targets_values(tmp_path):
    """``start_at_values``: the first trial plays the target's own values (queued once: a resumed study does not queue
    them again), the later ones are the sampler's; a study made without the option is not resumed with it."""
    from loki.tune import StudySpec, run_study

    (tmp_path / "tiny.toml").write_text(TINY)
    params = ("bettor.make1", "make_width")
    base = {p.path: p.value for p in tunable_params(make_player(parse_player("loki2:B")).config) if p.path in params}
    assert base == {"bettor.make1": 0.5, "make_width": 0.05}  # PAPP98's make1 and the paper design's ramp width
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=params, deals=1, block_deals=1,
        sampler="random", sampler_seed=2, pruner="none", start_at_values=True,
    )  # fmt: skip
    run_study(spec, tmp_path / "s", 2)
    study = run_study(spec, tmp_path / "s", 3)
    trials = study.get_trials()
    assert [t.params == base for t in trials] == [True, False, False]
    assert trials[0].user_attrs.get("start") is True
    with pytest.raises(ConfigError, match="start_at_values"):
        run_study(StudySpec(**{**spec.__dict__, "start_at_values": False}), tmp_path / "s", 4)


def test_a_dead_trial_is_retried_with_its_values(tmp_path):
    """The retry of a killed trial that had drawn its values replays them (the SIGKILL test cannot choose the moment
    of its kill): a trial left RUNNING by a process that no longer exists is failed and queued again, once."""
    import optuna
    from optuna.storages import RDBStorage

    from loki.tune import recover_stale

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = RDBStorage(f"sqlite:///{tmp_path / 'study.db'}")
    study = optuna.create_study(study_name="s", storage=storage, direction="maximize")
    dist = optuna.distributions.FloatDistribution(0.0, 1.0)
    trial = study.ask({"make_width": dist})
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    trial.set_user_attr("owner", [__import__("socket").gethostname(), dead.pid])  # a process that has exited
    assert recover_stale(study, storage) == [trial.number]
    assert recover_stale(study, storage) == []  # queued once, not twice
    retry = study.ask()
    assert retry.user_attrs["retry_of"] == trial.number
    assert retry.suggest_float("make_width", 0.0, 1.0) == trial.params["make_width"]
    # killed between two draws: the value it had not drawn is drawn afresh, inside its range
    assert 0.3 <= retry.suggest_float("bettor.make1", 0.3, 0.7) <= 0.7


HU_CALLING = """name = "tiny-hu"
deals = 2
seed = 1000
block_deals = 1
histories = false

[[players]]
type = "loki2:B"
label = "Loki-2 B"

[[players]]
type = "calling"
label = "calling"

[[compare]]
name = "B minus calling"
enhanced = ["Loki-2 B"]
control = ["calling"]
"""


def test_a_panel_of_fields_is_scored_on_all_their_deals(tmp_path):
    """A target of several fields (comma-separated) scores a trial by the mean over every deal of every field: the
    trial's value is the deal-weighted mean of each field played alone with the same values."""
    from loki.tune import StudySpec, apply_values, evaluate, load_targets, panel_player, run_study, trial_config

    (tmp_path / "tiny.toml").write_text(TINY)
    (tmp_path / "hu.toml").write_text(HU_CALLING)
    target = f"{tmp_path / 'tiny.toml'},{tmp_path / 'hu.toml'}"
    spec = StudySpec(
        target=target, label="Loki-2 B", params=("make_width",), deals=2, block_deals=1, sampler="random",
        sampler_seed=1, pruner="none",
    )  # fmt: skip
    study = run_study(spec, tmp_path / "s", 1)
    (trial,) = study.get_trials()
    cfgs = load_targets(target)
    player = apply_values(panel_player(cfgs, "Loki-2 B"), trial.params)
    alone = [evaluate([trial_config(c, "Loki-2 B", player, 1000, 2, 1)]) for c in cfgs]
    assert [a.deals for a in alone] == [2, 2] and trial.user_attrs["deals"] == 4
    assert alone[0].value != alone[1].value  # two different fields, so the mean below tests the weighting
    assert trial.value == pytest.approx((alone[0].value + alone[1].value) / 2, abs=1e-12)
    # fields whose players of the tuned type differ, an empty name, a field twice: refused with the reason
    (tmp_path / "other.toml").write_text(HU_CALLING.replace('type = "loki2:B"', 'type = "loki2:BR"'))
    with pytest.raises(ConfigError, match="differ between the fields"):
        panel_player(load_targets(f"{tmp_path / 'tiny.toml'},{tmp_path / 'other.toml'}"), "Loki-2 B")
    with pytest.raises(ConfigError, match="empty name"):
        load_targets(f"{tmp_path / 'tiny.toml'},")
    with pytest.raises(ConfigError, match="twice"):
        load_targets(f"{tmp_path / 'tiny.toml'},{tmp_path / 'tiny.toml'}")


def _config_of(text: str, tmp_path: Path):
    """A tournament configuration from TOML text (written to ``tmp_path``, read by the study's loader)."""
    from loki.tune import load_targets

    p = tmp_path / "t.toml"
    p.write_text(text)
    (cfg,) = load_targets(str(p))
    return cfg


def test_evaluate_reports_the_running_mean_and_its_standard_error(tmp_path):
    """Block by block the objective sees the deals so far, their AIVAT mean and its standard error: at the last block
    the evaluation's own mean and ``sd / sqrt(n)`` of its series; a True answer stops the trial (Pruned)."""
    import numpy as np

    from loki.tune import Pruned, evaluate, panel_player, trial_config

    cfg = _config_of(HU_CALLING, tmp_path)
    player = panel_player([cfg], "Loki-2 B")
    calls = []
    ev = evaluate([trial_config(cfg, "Loki-2 B", player, 1000, 6, 2)], None, lambda *a: calls.append(a) or False)
    assert [c[0] for c in calls] == [2, 4, 6]
    _, mean, se = calls[-1]
    assert mean == pytest.approx(ev.value, abs=1e-12)
    assert se == pytest.approx(float(np.std(ev.series, ddof=1)) / np.sqrt(ev.deals), rel=1e-12)
    with pytest.raises(Pruned):
        evaluate([trial_config(cfg, "Loki-2 B", player, 1000, 6, 2)], None, lambda *a: True)


def test_the_pruner_stops_only_a_confidently_worse_trial():
    """The ``median`` pruner's rule (:func:`confidently_worse`): a trial stops when its running mean plus 1.96
    standard errors is below the median of the complete trials' values, not before the warm-up's deals nor before 8
    complete trials; noise within the interval keeps it alive; minimizing mirrors it; a NaN mean stops it.  Optuna's
    MedianPruner, which the study used before, compares a trial's best running mean so far, which an early noisy
    block keeps high: replayed on the committed fig3-BRS study (30 trials, 24 blocks each) it stops none."""
    import numpy as np
    import optuna

    from loki.tune import confidently_worse

    done = [0.02, 0.05, 0.06, 0.07, 0.09, 0.10, 0.11, 0.12]  # median 0.08
    assert confidently_worse(300, 0.03, 0.02, done, 240)  # 0.03 + 0.039 < 0.08
    assert not confidently_worse(300, 0.05, 0.02, done, 240)  # 0.089 >= 0.08: within noise
    assert not confidently_worse(239, -1.0, 0.01, done, 240)  # warm-up
    assert not confidently_worse(300, -1.0, 0.01, done[:7], 240)  # too few complete trials
    assert not confidently_worse(300, -1.0, float("nan"), done, 240)  # no standard error yet
    assert confidently_worse(300, float("nan"), 0.02, done, 240)
    assert confidently_worse(300, 0.13, 0.02, done, 240, maximize=False)  # 0.13 - 0.039 > 0.08
    assert not confidently_worse(300, 0.10, 0.02, done, 240, maximize=False)

    db = Path(__file__).resolve().parents[1] / "experiments/tuned-sets/tune/fig3-BRS/study.db"
    if not db.exists():
        pytest.skip(f"{db} is not in this checkout")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trials = sorted(optuna.load_study(study_name=None, storage=f"sqlite:///{db}").trials, key=lambda t: t.number)
    replay = optuna.create_study(direction="maximize")
    pruner = optuna.pruners.MedianPruner(n_startup_trials=8, n_warmup_steps=240)  # the study's (600 deals, 0.4)
    stopped = 0
    for t in trials:
        steps = sorted(t.intermediate_values)
        for k in range(1, len(steps) + 1):
            part = {s: t.intermediate_values[s] for s in steps[:k]}
            if pruner.prune(
                replay,
                optuna.trial.create_trial(state=optuna.trial.TrialState.PRUNED, intermediate_values=part, value=None),
            ):
                stopped += 1
                break
        replay.add_trial(t)
    values = [t.value for t in trials]
    assert len(trials) == 30 and stopped == 0
    low = optuna.trial.create_trial(state=optuna.trial.TrialState.PRUNED, intermediate_values={600: -1.0}, value=None)
    assert pruner.prune(replay, low)  # the replay can stop a trial: one whose every running mean is low
    assert min(values) < np.median(values) - 0.1  # yet some trials ended far below the median


@pytest.mark.parametrize("pruner", ["median", "none"])
def test_a_study_prunes_a_trial_confidently_below_its_complete_trials(tmp_path, pruner):
    """End to end: a study whose 8 complete trials scored far above anything the tiny field can give stops its next
    trial at its first block (after a warm-up of 0) with the ``median`` pruner, and plays it to the end without one."""
    import optuna

    from loki.tune import StudySpec, open_study, run_study

    (tmp_path / "tiny.toml").write_text(
        TINY.replace("deals = 2", "deals = 6").replace("block_deals = 1", "block_deals = 2")
    )
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("make_width",), deals=6, block_deals=2,
        sampler="random", sampler_seed=1, pruner=pruner, warmup=0.0,
    )  # fmt: skip
    study, _, _ = open_study(tmp_path / "s", spec)
    for _ in range(8):
        study.add_trial(optuna.trial.create_trial(value=100.0))
    study = run_study(spec, tmp_path / "s", 9)
    last = max(study.get_trials(), key=lambda t: t.number)
    if pruner == "median":
        assert last.state.name == "PRUNED" and sorted(last.intermediate_values) == [2]
    else:
        assert last.state.name == "COMPLETE" and sorted(last.intermediate_values) == [2, 4, 6]


def test_a_trial_left_before_its_objective_began_is_recovered_by_its_age(tmp_path):
    """A process killed after Optuna created a trial and before the objective's first line leaves it running with no
    owner (host and pid): it is not failed while younger than the grace (a live process would be about to label it),
    and once silent for the grace since its start it is failed and queued again (it had no values)."""
    from loki.tune import StudySpec, open_study, recover_stale

    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(
        target=str(tmp_path / "tiny.toml"), label="Loki-2 B", params=("make_width",), deals=2, block_deals=1
    )
    study, storage, _ = open_study(tmp_path / "s", spec)
    t = study.ask()  # what study.optimize does before the objective runs
    assert recover_stale(study, storage) == []
    assert study.get_trials()[0].state.name == "RUNNING"
    assert recover_stale(study, storage, grace=0.0) == [t.number]
    states = sorted(x.state.name for x in study.get_trials())
    assert states == ["FAIL", "WAITING"]  # failed, and queued again


@pytest.mark.parametrize("field", ["sim.temperature", "bettor.make1", "make_width"])
def test_a_player_file_over_a_tuned_set_reads_back_a_value_equal_to_the_class_default(tmp_path, field):
    """A trial over ``tuned=BRS3`` whose value is the class default (BRS3 changes it): the player file keeps it (left
    out as a default, the set's value came back when the file was read)."""
    from operator import attrgetter

    from loki.players.loki import Loki2Config
    from loki.tune.study import apply_values, player_toml

    default = attrgetter(field)(Loki2Config())
    base = parse_player("loki2:BRS:tuned=BRS3")
    assert attrgetter(field)(base) != default  # BRS3 changes it
    trial = apply_values(base, {field: default})
    path = tmp_path / "best.toml"
    path.write_text(player_toml(trial, {"study": "x"}))
    assert parse_player(str(path)) == trial


def test_a_panels_trial_is_warmed_up_over_every_field_and_played_field_by_field_in_turn(monkeypatch):
    """The pruner waits for ``warmup`` of all the deals a trial plays (every field of the panel, every seed), and the
    blocks go round the fields and seeds, so that the running mean the pruner reads mixes them from the first
    blocks (before, a three-field panel could be stopped after 13 % of its deals, all of the first field)."""
    import loki.tune.study as study
    from loki.tune import StudySpec

    spec = StudySpec(target="fig3-B,fig3-BR,fig3-S", label="x", params=("make_width",), deals=1000, seeds=(1000, 1001))
    assert study._warmup_deals(spec, 3) == 2400  # 0.4 of 3 fields x 2 seeds x 1000 deals
    fresh = StudySpec(target="fig3-B", label="x", params=("make_width",), deals=1000, seeds=(1000,), fresh_seeds=True)
    assert study._warmup_deals(fresh, 2) == 800

    class Cfg:  # a configuration of n blocks (what evaluate reads of one)
        def __init__(self, name, n):
            self.name, self.n_blocks = name, n

        def to_dict(self):
            return {"name": self.name}

    order = []
    rec = {"chips": [], "aivat": {"chance": [], "action": []}}
    monkeypatch.setattr(study, "play_block", lambda cfg, b, _h: order.append((cfg["name"], b)) or rec)
    monkeypatch.setattr(study, "comparison_series", lambda *a: (np.zeros(1),))
    study.evaluate([Cfg("a", 3), Cfg("b", 2), Cfg("c", 3)], None, None)
    assert order == [("a", 0), ("b", 0), ("c", 0), ("a", 1), ("b", 1), ("c", 1), ("a", 2), ("c", 2)]


def test_the_pruner_reads_the_blocks_in_their_order_whatever_finishes_first(monkeypatch):
    """On an executor blocks finish in any order; the running means handed to the pruner are those of the blocks in
    their order, the same as playing them one by one (they followed the order of a set of futures: a study with
    two or more workers could prune differently from one run to the next)."""
    from concurrent.futures import Executor, Future

    import loki.tune.study as study

    class Cfg:
        def __init__(self, name, n):
            self.name, self.n_blocks = name, n

        def to_dict(self):
            return {"name": self.name}

    def block(cfg, b, _h):
        return {"chips": [cfg["name"], b], "aivat": {"chance": [], "action": []}}

    class Done(Executor):  # every block finished at once: the order they are taken in is the evaluator's
        def submit(self, fn, *args, **kwargs):
            f: Future = Future()
            f.set_result(fn(*args, **kwargs))
            return f

    monkeypatch.setattr(study, "play_block", block)
    # a block's series: one deal worth its block number plus a tenth per configuration, so the means tell the order
    monkeypatch.setattr(
        study, "comparison_series", lambda c, chips, *a: (np.array([chips[1] + 0.1 * "abc".index(chips[0])]),)
    )
    configs = [Cfg("a", 4), Cfg("b", 3), Cfg("c", 4)]

    def reported(executor) -> list:
        calls: list = []
        study.evaluate(configs, executor, lambda n, m, se: calls.append((n, round(m, 9))) and False, in_flight=4)
        return calls

    serial = reported(None)
    calls = reported(Done())
    assert calls == serial and len(serial) == 11
