"""What a person gets from a command's defaults: ``loki explain`` shows a few hands, the opponents still in the hand,
and says why a logged action differs from the bot's; ``loki replay`` and ``loki explain`` re-decide each player with
its own bot when its name is a loki spec; a re-run into a finished folder says it reports a finished run;
``loki tune`` validates with as many deals as it searched, with a bar of its own, and writes no ``best.toml`` for
values that lost to the defaults; ``importances.png`` is promised only where it is written; the README's examples run
from a fresh clone, and a missing ``../shared`` file is explained alike by ``replay`` and ``explain``."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from loki.cli import app

ROOT = Path(__file__).resolve().parent.parent
LOKI = [sys.executable, "-c", "from loki.cli import app; app()"]


def _loki(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200")
    return subprocess.run(LOKI + args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def match_log(tmp_path_factory) -> Path:
    """A 12-hand match log of three loki specs (names loki1, calling, random, as loki match writes them)."""
    d = tmp_path_factory.mktemp("match")
    r = _loki(["match", "--player", "loki1", "--player", "calling", "--player", "random", "--hands", "12", "--seed",
               "4", "--out", "m.log"], d)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return d / "m.log"


# ------------------------------------------------------------------ loki explain


def test_explain_shows_a_few_hands_and_the_opponents_in_the_hand(match_log):
    """`loki explain match.log` printed 17,263 lines: every hand of the log, folded opponents listed."""
    r = _loki(["explain", str(match_log), "--who", "loki1", "--json"], match_log.parent)
    assert r.returncode == 0, r.stderr
    exps = [json.loads(x) for x in r.stdout.splitlines()]
    assert exps and {e["hand"] for e in exps} <= set(range(5)) and len({e["hand"] for e in exps}) <= 5
    assert "in the first 5 hands of m.log (--hands N for more)" in r.stderr
    r = _loki(["explain", str(match_log), "--who", "loki1"], match_log.parent)
    assert r.returncode == 0 and "in the first 5 hands" in r.stdout
    folded = [o for e in exps for o in e["opponents"] if not o["live"]]
    assert folded, "the log should have a decision after an opponent folded"
    assert "folded not shown" in r.stdout and not re.search(r"│\s*folded\s*│", r.stdout)
    r = _loki(["explain", str(match_log), "--who", "loki1", "--hands", "12", "--json"], match_log.parent)
    assert {json.loads(x)["hand"] for x in r.stdout.splitlines()} - set(range(5))  # --hands N gives more


def test_explain_says_why_a_logged_action_differs(match_log):
    """With the adaptive spec it said "→ bet (played: check)" without saying why they differ."""
    r = _loki(["explain", str(match_log), "--who", "random", "--hands", "12", "--json"], match_log.parent)
    assert r.returncode == 0, r.stderr
    exps = [json.loads(x) for x in r.stdout.splitlines()]
    differ = [e for e in exps if e["played"] and e["played"] != e["action"]]
    assert differ and all(e["played_why"] for e in differ)
    assert all(e["played_why"].startswith("random draws its action at random: ") for e in differ), differ[0]
    r = _loki(["explain", str(match_log), "--who", "random", "--hands", "12", "--player", "calling"], match_log.parent)
    assert "(played: " in r.stdout and "the log's player was random; calling stands in for it" in r.stdout


def test_the_reason_names_the_probability_of_the_logged_action():
    from loki.explain.records import DecisionExplanation
    from loki.explain.sources import played_why

    e = DecisionExplanation(hand=1, seat=1, player="x", kind="other", street=0, hole="AsKs", board="",
                            legal=["fold", "call", "raise"], action="raise", played="call", pot=15, to_call=5,
                            probabilities=(0.1, 0.3, 0.6))  # fmt: skip
    assert (
        played_why(e, "loki2:BRS", "loki2:BRS")
        == "loki2:BRS draws its action at random: call had probability 0.30 here"
    )
    assert "state differs" in played_why(e.model_copy(update={"probabilities": (0, 0, 1)}), "loki1", "loki1")
    assert played_why(e, "loki1", None) == "the log's player is not a loki bot; loki1 stands in for it"


# ------------------------------------------------------------------ loki replay


def test_replay_re_decides_each_player_with_its_logged_bot(match_log):
    """`loki replay` of a match log asked loki1 for every seat, not the bot that played."""
    from loki.tournament.replay import logged_spec

    r = _loki(["replay", str(match_log), "--json", "--out", "h.png"], match_log.parent)
    assert r.returncode == 0, r.stderr
    players = {p["name"]: p for p in json.loads(r.stdout.splitlines()[-1])["players"]}
    assert {n: p["bot"] for n, p in players.items()} == {"loki1": "loki1", "calling": "calling", "random": "random"}
    assert players["calling"]["agree_pct"] == 100.0  # a calling station re-decides its own actions
    r = _loki(["replay", str(match_log), "--json", "--player", "loki1", "--out", "h.png"], match_log.parent)
    assert {p["bot"] for p in json.loads(r.stdout.splitlines()[-1])["players"]} == {"loki1"}
    assert logged_spec("loki2-BRS-tuned=BRS3") == "loki2:BRS:tuned=BRS3" and logged_spec("p1") is None
    assert logged_spec("../best.toml") is None and logged_spec("a" * 200) is None


# ------------------------------------------------------------------ a re-run into a finished folder


def test_a_rerun_into_a_finished_tournament_says_it_reports_it(tmp_path):
    """A re-run into the same --out silently reprinted the results from the journal as if it had played."""
    args = ["tournament", "--deals", "2", "--quiet", "--no-plots", "--workers", "0", "--out", "t"]
    first = _loki(args, tmp_path)
    assert first.returncode == 0 and "holds this run, finished" not in first.stdout, first.stderr
    again = _loki(args, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "holds this run, finished: its results are reported again from its journal (nothing was played" in " ".join(
        again.stdout.split()
    )


def test_a_rerun_into_a_finished_league_says_it_reports_its_pairs(tmp_path):
    """A league run again into its folder reported every pair from its journal, saying nothing of it."""
    args = ["league", "--player", "calling", "--player", "random", "--deals", "2", "--no-plots", "-w", "0", "--quiet",
            "--out", "l"]  # fmt: skip
    first = _loki(args, tmp_path)
    assert first.returncode == 0 and "reported again" not in first.stderr + first.stdout, first.stderr
    again = _loki(args, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "1 of 1 pairs were finished in l: reported again from their journals (nothing played" in " ".join(
        again.stderr.split()
    )
    assert again.stdout == first.stdout  # the same cross table


# ------------------------------------------------------------------ loki tune

TINY = """name = "tiny"
deals = 2
seed = 1000
block_deals = 1
histories = false
[[players]]
type = "loki1"
label = "L1"
[[players]]
type = "loki2:B"
label = "B"
[[compare]]
enhanced = ["B"]
control = ["L1"]
"""


def test_tune_validates_with_its_own_deals_and_says_a_rerun_plays_nothing(tmp_path):
    """A 3-trial x 20-deal study spent 4 of its 4:05 minutes in a default validation of 4,000 deals behind a frozen
    bar: the validation now plays --deals deals per seed unless told otherwise."""
    (tmp_path / "tiny.toml").write_text(TINY)
    args = ["tune", "tiny.toml", "--trials", "1", "--deals", "3", "--block-deals", "1", "-w", "0", "--json", "--param",
            "bettor.make1", "--out", "s"]  # fmt: skip
    r = _loki(args, tmp_path)
    assert r.returncode == 0, r.stderr
    v = json.loads(r.stdout.splitlines()[-1])["validation"]
    assert v["deals_per_seed"] == 3 and v["tuned"]["deals"] == 3 * len(v["seeds"])
    again = _loki(args, tmp_path)
    assert again.returncode == 0 and "already has 1 trial (--trials 1): no trial is played" in again.stderr


def test_tune_writes_no_best_toml_for_values_that_lost_to_the_defaults(tmp_path, monkeypatch):
    """best.toml was written although "best" lost to the defaults (-0.057 +- 0.017)."""
    import loki.tune.study as study_mod
    from loki.tune import StudySpec, finish_study, run_study

    (tmp_path / "tiny.toml").write_text(TINY)
    spec = StudySpec(target=str(tmp_path / "tiny.toml"), label="B", params=("bettor.make1",), deals=1, block_deals=1,
                     sampler="random", pruner="none")  # fmt: skip
    study = run_study(spec, tmp_path / "s", 1)
    (tmp_path / "s" / "best.toml").write_text("# an earlier run's\n")
    calls = iter([-1.0, 0.0, 1.0, 0.0])  # tuned, then default: first worse, then better

    def fake(configs, executor=None, on_block=None, in_flight=4):
        n = 20 * len(configs)
        if on_block is not None:
            on_block(n, 0.0, 0.1)
        y = np.full(n, next(calls)) + np.linspace(-0.01, 0.01, n)
        return study_mod.Evaluation(float(y.mean()), 0.01, float(y.mean()), n, y)

    monkeypatch.setattr(study_mod, "evaluate", fake)
    seen: list[tuple[int, int]] = []
    record = finish_study(study, spec, tmp_path / "s", None, 20, None, progress=lambda d, t: seen.append((d, t)))
    assert record["verdict"] == "worse than the defaults" and "best.toml" not in record["files"]
    assert not (tmp_path / "s" / "best.toml").exists() and (tmp_path / "s" / "tune.json").exists()
    assert seen[0] == (0, 80) and seen[-1] == (80, 80)  # the validation's bar moves: both runs, 2 seeds x 20 deals
    record = finish_study(study, spec, tmp_path / "s", None, 20, None)  # tuned better: written
    assert record["verdict"] == "better than the defaults" and (tmp_path / "s" / "best.toml").exists()


def test_importances_png_is_promised_only_where_it_is_written(tmp_path):
    """README listed importances.png, which a short study does not write."""
    import optuna

    from loki.tune.study import IMPORTANCE_TRIALS, _plots

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for n, two in ((IMPORTANCE_TRIALS - 1, True), (IMPORTANCE_TRIALS + 4, False), (IMPORTANCE_TRIALS + 4, True)):
        s = optuna.create_study(direction="maximize", sampler=optuna.samplers.RandomSampler(seed=1))
        s.optimize(lambda t, two=two: t.suggest_float("a", 0, 1) + (t.suggest_float("b", 0, 1) if two else 0), n)
        out = tmp_path / f"{n}-{two}"
        out.mkdir()
        files = _plots(s, out)
        assert ("importances.png" in files) == (n >= IMPORTANCE_TRIALS and two) == (out / "importances.png").exists()
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"`importances.png` (once {IMPORTANCE_TRIALS} trials are complete and 2 fields or more are tuned)" in readme


# ------------------------------------------------------------------ the README from a fresh clone


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:sh|bash)\n(.*?)```", text, re.S)
    return [ln.split("#")[0].strip() for b in blocks for ln in b.splitlines() if ln.strip().startswith("loki ")]


def test_readme_examples_that_need_the_companion_folder_say_so(tmp_path, monkeypatch):
    text = (ROOT / "README.md").read_text()
    for block in re.findall(r"```(?:sh|bash)\n(.*?)```", text, re.S):
        lines = block.splitlines()
        for i, ln in enumerate(lines):
            if ln.startswith("loki ") and "../shared" in ln:
                context = " ".join(lines[max(0, i - 4) : i + 1])
                assert "companion folder" in context or "needs ../shared" in context, ln
    # a missing ../shared file: the same words from replay and explain, and what ../shared is (run from a
    # folder without ../shared, so the check always runs and nothing is written next to the project)
    monkeypatch.chdir(tmp_path)
    assert not (tmp_path / "../shared/acpc/3p.limit.h1000.r0.log").exists()
    for cmd in ("replay", "explain"):
        r = CliRunner().invoke(app, [cmd, "../shared/acpc/3p.limit.h1000.r0.log", "--player", "loki1"])
        assert r.exit_code == 2 and r.stderr.startswith(
            "error: FILE ../shared/acpc/3p.limit.h1000.r0.log: no such file"
        ), r.output
        assert "companion folder" in r.stderr


def test_readme_match_replay_and_explain_examples_run_from_a_fresh_clone(tmp_path):
    """README's `../shared/acpc` example failed from a fresh clone: its examples now make their own log first."""
    cmds = [c for c in _readme_commands() if c.startswith(("loki match --player loki1 --player loki2:BRS:adaptive",
                                                            "loki replay match.log", "loki explain match.log"))]  # fmt: skip
    assert len(cmds) >= 4, cmds
    for c in cmds:
        r = _loki(shlex.split(c)[1:], tmp_path)
        assert r.returncode == 0, (c, r.stderr[-2000:])
        assert "Traceback" not in r.stderr
