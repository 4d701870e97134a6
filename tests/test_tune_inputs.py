"""``loki tune`` refuses bad input with one line ``error: ...`` naming the input and exit code 2, before any trial:
an unusable ``study.db`` in --out, seed options out of range or colliding with the search's seeds, and a player type
with nothing to tune."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.errors import ConfigError, OutputPathError

pytest.importorskip("optuna")


def _target(enhanced: tuple[str, str], control: tuple[str, str], deals: int = 2) -> str:
    """A tuning target: one seat of each ``(type, label)``, the first compared with the second."""
    (te, le), (tc, lc) = enhanced, control
    return (
        f'name = "t"\ndeals = {deals}\nblock_deals = 1\nhistories = false\n\n'
        f'[[players]]\ntype = "{te}"\nlabel = "{le}"\n\n[[players]]\ntype = "{tc}"\nlabel = "{lc}"\n\n'
        f'[[compare]]\nenhanced = ["{le}"]\ncontrol = ["{lc}"]\n'
    )


TUNABLE = _target(("loki2:B", "B"), ("loki1", "L1"))
NOTHING_TO_TUNE = _target(("random", "R"), ("calling", "C"), deals=4)

TINY_RUN = ("-w", "0", "-q", "--trials", "1", "--deals", "1", "--block-deals", "1")


def _tune(tmp_path: Path, toml: str, *args: str):
    target = tmp_path / "t.toml"
    target.write_text(toml)
    return CliRunner().invoke(app, ["tune", str(target), *TINY_RUN, *args])


def _refused(r, *needles: str) -> str:
    """The one ``error:`` line of a refused command (exit code 2, no traceback), holding every needle."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.stderr)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception  # not a crash
    assert "Traceback" not in r.output and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


# ------------------------------------------------------------------ M1: an unusable study.db in --out


@pytest.mark.parametrize("kind", ["garbage", "directory"])
def test_unusable_study_db_is_refused_naming_the_file(tmp_path, kind):
    out = tmp_path / "o_bad"
    out.mkdir()
    db = out / "study.db"
    if kind == "garbage":
        db.write_text("garbage\n")
    else:
        db.mkdir()
    r = _tune(tmp_path, TUNABLE, "--validate-deals", "0", "-o", str(out))
    line = _refused(r, f"--out {str(out)!r}", str(db), "is not a study loki can open", "use another --out")
    assert ("file is not a database" in line) if kind == "garbage" else ("it is a directory" in line)
    # the file is left as it was, and nothing else was written
    assert db.read_text() == "garbage\n" if kind == "garbage" else db.is_dir() and not any(db.iterdir())
    assert sorted(p.name for p in out.iterdir()) == ["study.db"]


def test_open_study_raises_output_path_error_for_a_damaged_file(tmp_path):
    from loki.tune import StudySpec, open_study

    (tmp_path / "study.db").write_bytes(b"\x00not sqlite at all" * 10)
    spec = StudySpec(target="x.toml", label="B", params=("make_width",))
    with pytest.raises(OutputPathError, match=r"study\.db is not a study loki can open and write"):
        open_study(tmp_path, spec)
    with pytest.raises(OutputPathError, match="file is not a database"):
        open_study(tmp_path, None)  # loading an existing study: the same error


# ------------------------------------------------------------------ M2: seed options, checked before any trial


def test_validation_seed_below_1000_is_refused_before_the_study(tmp_path):
    out = tmp_path / "o_vs"
    r = _tune(tmp_path, TUNABLE, "--validate-deals", "1", "--validate-seeds", "5", "-o", str(out))
    _refused(r, "--validate-seeds [5]", "below 1000")
    assert not out.exists()  # no study was made, no trial ran


def test_validation_seeds_the_search_plays_are_refused_before_the_study(tmp_path):
    out = tmp_path / "o_vs"
    r = _tune(tmp_path, TUNABLE, "--seeds", "1000,1001", "--validate-seeds", "1002,1001", "-o", str(out))
    _refused(r, "--validate-seeds [1002, 1001]", "seed 1001 is a tuning seed")
    # fresh seeds: trial k plays seed first+k, so with 3 trials seed 1002 is played
    r = _tune(tmp_path, TUNABLE, "--trials", "3", "--fresh-seeds", "--validate-seeds", "1002", "-o", str(out))
    _refused(r, "--validate-seeds [1002]", "--fresh-seeds")
    r = _tune(tmp_path, TUNABLE, "--validate-seeds", str(2**64), "-o", str(out))
    _refused(r, f"--validate-seeds [{2**64}]", "above 18446744073709551615")
    assert not out.exists()


def test_tuning_seed_above_2_64_is_refused_before_the_first_trial(tmp_path):
    out = tmp_path / "o_sh"
    r = _tune(tmp_path, TUNABLE, "--validate-deals", "0", "--seeds", str(10**29), "-o", str(out))
    line = _refused(r, f"--seeds [{10**29}]", "<= 18446744073709551615")
    assert "'seed'" not in line  # the option, not the tournament's field
    assert not out.exists()
    # the top seed itself is fine for the search, but the default validation seeds above it are not
    r = _tune(tmp_path, TUNABLE, "--seeds", str(2**64 - 1), "-o", str(out))
    _refused(r, f"--seeds [{2**64 - 1}]", "default validation seeds", "--validate-seeds")
    # fresh seeds: trial k plays seed first+k, which must stay within 64 bits
    r = _tune(tmp_path, TUNABLE, "--fresh-seeds", "--validate-deals", "0", "--seeds", str(2**64 - 10), "-o", str(out))
    _refused(r, "--seeds", "--fresh-seeds")
    assert not out.exists()


def test_sampler_seed_above_32_bits_is_refused(tmp_path):
    out = tmp_path / "o_ss"
    r = _tune(tmp_path, TUNABLE, "--validate-deals", "0", "--sampler-seed", str(2**32), "-o", str(out))
    _refused(r, f"--sampler-seed {2**32}", "0..4294967295")
    assert not out.exists()


def test_finish_study_and_the_cli_share_the_validation_seed_rules():
    from loki.tune import StudySpec, checked_validation_seeds

    spec = StudySpec(target="x.toml", label="B", params=("make_width",), seeds=(1000,), fresh_seeds=True)
    assert checked_validation_seeds(spec) == (1000 + 10**6 + 1, 1000 + 10**6 + 2)
    assert checked_validation_seeds(spec, (1010,), range(5)) == (1010,)
    with pytest.raises(ConfigError, match=r"^--validate-seeds \[1010\]: seed 1010 is played by the search"):
        checked_validation_seeds(spec, (1010,), [3, 10])  # the trials a study played (finish_study)
    assert checked_validation_seeds(StudySpec("x", "B", (), seeds=(2**64 - 1,)), default=False) == ()


# ------------------------------------------------------------------ M3: a player type with nothing to tune


def test_label_without_tunable_fields_is_refused_before_any_trial(tmp_path):
    out = tmp_path / "o_empty"
    r = _tune(tmp_path, NOTHING_TO_TUNE, "--trials", "2", "--validate-deals", "0", "-o", str(out), "--json")
    line = _refused(r, "--label 'R' (random): no tunable fields", "--list-params")
    assert line.startswith("error: --label 'R'")  # named once, not "--label: --label ..."
    assert r.stdout == "" and not out.exists()
    # naming a field does not help: the type has none
    r = _tune(tmp_path, NOTHING_TO_TUNE, "--param", "x", "-o", str(out))
    _refused(r, "--label 'R' (random): no tunable fields")
    assert not out.exists()


def test_run_study_refuses_an_empty_search_space(tmp_path):
    from loki.tune import StudySpec, run_study

    (tmp_path / "t.toml").write_text(NOTHING_TO_TUNE)
    spec = StudySpec(target=str(tmp_path / "t.toml"), label="R", params=(), deals=1, block_deals=1)
    with pytest.raises(ConfigError, match=r"--label 'R' \(random\): no tunable fields"):
        run_study(spec, tmp_path / "s", 1)
    assert not (tmp_path / "s").exists()


def test_a_seed_given_twice_is_refused():
    """``--seeds 1000,1000`` counted seed 1000's deals twice in every trial."""
    from loki.tune.study import StudySpec

    with pytest.raises(ConfigError, match="given twice"):
        StudySpec("t", "B", (), seeds=(1000, 1001, 1000))


def test_a_resumed_fresh_seed_study_checks_the_seeds_its_new_trials_play(tmp_path):
    """Resumed, a --fresh-seeds study's next trial is number 1 (seed 1001): a validation seed 1001 is refused before
    it runs (the first check counted this run's trials from 0)."""
    import optuna

    out = tmp_path / "o_fresh"
    r = _tune(tmp_path, TUNABLE, "--fresh-seeds", "--validate-deals", "0", "-o", str(out))
    assert r.exit_code == 0, r.output
    r = _tune(tmp_path, TUNABLE, "--fresh-seeds", "--validate-deals", "1", "--validate-seeds", "1001", "-o", str(out))
    _refused(r, "--validate-seeds [1001]", "--fresh-seeds")
    study = optuna.load_study(study_name="loki-tune", storage=f"sqlite:///{out / 'study.db'}")
    assert len(study.get_trials(deepcopy=False)) == 1  # nothing more was played


def test_a_study_file_failing_mid_study_is_one_error(tmp_path, monkeypatch):
    """A database error during the study (a lock held past its 60 s, a full disk) ended in a traceback."""
    from optuna.exceptions import StorageInternalError

    import loki.tune.study as study

    calls = {"n": 0}
    recover = study.recover_stale

    def flaky(st, storage):
        calls["n"] += 1
        if calls["n"] == 2:  # after the first trial
            raise StorageInternalError("(sqlite3.OperationalError) database is locked")
        return recover(st, storage)

    monkeypatch.setattr(study, "recover_stale", flaky)
    out = tmp_path / "o_locked"
    r = _tune(tmp_path, TUNABLE, "--trials", "3", "--validate-deals", "0", "-o", str(out))
    line = _refused(r, "study.db failed during the study", "database is locked")
    assert "run the same command to continue" in line


@pytest.mark.parametrize("stop", ["KeyboardInterrupt", "Stopped"])
def test_a_stopped_trial_is_not_logged_by_optuna(tmp_path, monkeypatch, stop):
    """Ctrl-C or SIGTERM during `loki tune` printed Optuna's "Trial 0 failed" warning with the interrupt's traceback
    before loki's own `error: interrupted ...` line.  The trial is queued again and nothing is logged."""
    import logging
    import signal

    import optuna

    import loki.tune.study as study
    from loki.cli._common import Stopped
    from loki.tune import StudySpec, run_study

    def interrupted(*a, **k):
        raise KeyboardInterrupt() if stop == "KeyboardInterrupt" else Stopped(signal.SIGTERM)

    monkeypatch.setattr(study, "evaluate", interrupted)
    (tmp_path / "t.toml").write_text(TUNABLE)
    spec = StudySpec(target=str(tmp_path / "t.toml"), label="B", params=("make_width",), deals=1, block_deals=1)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    optuna_log = logging.getLogger("optuna")
    optuna_log.addHandler(handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_study(spec, tmp_path / "s", 1)
    finally:
        optuna_log.removeHandler(handler)
    assert optuna.logging.get_verbosity() == optuna.logging.WARNING  # Optuna's warnings are not left silenced
    assert not [r for r in records if r.levelno >= logging.WARNING or r.exc_info], [r.getMessage() for r in records]
    trials = study.open_study(tmp_path / "s", spec)[0].get_trials(deepcopy=False)
    assert [t.state.name for t in trials] == ["FAIL", "WAITING"]  # the stopped trial, queued again
