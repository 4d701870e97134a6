"""``benchmarks/pool_start.py`` measures what a tournament's pool of workers costs before its workers play: checked on
this tree with a small table of built-in players (each worker takes one task; the start-up is the server's CPU and
the workers' first blocks beyond a later one)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "pool_start.py"
TABLE = (
    'name = "pool"\ndeals = 1\nseed = 4\nhistories = false\n'
    '[[players]]\ntype = "loki1"\ncount = 2\n[[players]]\ntype = "calling"\ncount = 1\n'
)


@pytest.fixture()
def pool_start(benchmark_script):
    return benchmark_script("pool_start")


def test_a_pool_of_two_is_measured_part_by_part(pool_start, tmp_path):
    # in a fresh interpreter, as the script runs its own children: a forkserver an earlier test of this process
    # started would serve the pool with its own preload
    cfg = tmp_path / "table.toml"
    cfg.write_text(TABLE)
    out = tmp_path / "rounds.json"
    args = ["--tree", str(ROOT), "--config", str(cfg), "--workers", "2", "--rounds", "1", "--json", str(out)]
    res = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    (rounds,) = json.loads(out.read_text()).values()
    (run,) = rounds
    assert set(run) == set(pool_start.PARTS)
    assert all(v >= 0 for v in run.values()), run
    per_worker = run["worker before its task"] + run["first block"] - run["a later block"]
    assert math.isclose(run["start-up"], run["server"] + 2 * per_worker, rel_tol=1e-9, abs_tol=1e-9), run
    assert all(f"| {p} |" in res.stdout for p in pool_start.PARTS)


def test_bad_arguments_are_named(pool_start, tmp_path, capsys):
    with pytest.raises(SystemExit):
        pool_start.main(["--tree", str(tmp_path)])
    assert "no src/loki there" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pool_start.main(["--tree", str(ROOT), "--workers", "1"])
    assert "one worker is no pool" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pool_start.main(["--tree", str(ROOT), "--config", str(tmp_path / "none.toml")])
    assert "none.toml: no such file" in capsys.readouterr().err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit):
        pool_start.main(["--tree", str(ROOT), "--json", str(fifo)])
    assert "--json" in (err := capsys.readouterr().err) and "FIFO" in err.upper(), err
