"""``benchmarks/startup.py`` splits a ``loki tournament`` process's CPU into its phases: checked on this tree with a
small table of built-in players (the phases and the interpreter's start and end add up to the whole process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "startup.py"
TABLE = (
    'name = "startup"\ndeals = 1\nseed = 4\nhistories = false\n'
    '[[players]]\ntype = "random"\ncount = 2\n[[players]]\ntype = "calling"\ncount = 1\n'
)


@pytest.fixture()
def startup(benchmark_script):
    return benchmark_script("startup")


def test_the_phases_add_up_to_the_whole_process(startup, tmp_path):
    # in a fresh interpreter: the script waits for every child of its process (run_whole), and a test worker may hold
    # others (a tournament's forkserver from an earlier test)
    cfg = tmp_path / "table.toml"
    cfg.write_text(TABLE)
    out = tmp_path / "rounds.json"
    args = ["--tree", str(ROOT), "--config", str(cfg), "--rounds", "1", "--json", str(out)]
    res = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    (rounds,) = json.loads(out.read_text()).values()
    (run,) = rounds
    assert set(run) == {*startup.PHASES, "total"}
    assert all(v >= 0 for v in run.values()), run
    parts = sum(run[p] for p in startup.PHASES)
    assert parts <= run["total"] + 1e-6 and parts >= 0.9 * run["total"], run  # only the freeze and a few lines besides
    table = res.stdout
    assert all(f"| {p} |" in table for p in (*startup.PHASES, "total"))


def test_bad_arguments_are_named(startup, tmp_path, capsys):
    with pytest.raises(SystemExit):
        startup.main(["--tree", str(tmp_path)])
    assert "no src/loki there" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        startup.main(["--tree", str(ROOT), "--config", str(tmp_path / "none.toml")])
    assert "none.toml: no such file" in capsys.readouterr().err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit):
        startup.main(["--tree", str(ROOT), "--json", str(fifo)])
    assert "--json" in (err := capsys.readouterr().err) and "FIFO" in err.upper(), err
