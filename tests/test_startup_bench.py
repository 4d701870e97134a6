"""``benchmarks/startup.py`` splits a ``loki tournament`` process's CPU into its phases, ``benchmarks/pool_start.py``
what a pool of workers costs before its workers play: both checked on this tree with a small table of built-in
players (the phases and the interpreter's start and end add up to the whole process; each worker takes one task and
every part of the pool's start-up measured)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = (
    'name = "startup"\ndeals = 1\nseed = 4\nhistories = false\n'
    '[[players]]\ntype = "loki1"\ncount = 2\n[[players]]\ntype = "calling"\ncount = 1\n'
)


def _one_round(tmp_path: Path, script: str, *args: str) -> tuple[dict[str, float], str]:
    # the script's one round on this tree, in a fresh interpreter: startup.py waits for every child of its process
    # (run_whole), and pool_start.py's pool would be served by a forkserver an earlier test of this process started;
    # returns the round's figures and the printed table
    cfg = tmp_path / "table.toml"
    cfg.write_text(TABLE)
    out = tmp_path / "rounds.json"
    argv = [sys.executable, str(ROOT / "benchmarks" / f"{script}.py"), "--tree", str(ROOT), "--config", str(cfg)]
    res = subprocess.run(
        [*argv, "--rounds", "1", "--json", str(out), *args], capture_output=True, text=True, timeout=600
    )
    assert res.returncode == 0, res.stderr[-2000:]
    (rounds,) = json.loads(out.read_text()).values()
    (run,) = rounds
    assert all(v >= 0 for v in run.values()), run
    return run, res.stdout


def test_the_phases_add_up_to_the_whole_process(benchmark_script, tmp_path):
    startup = benchmark_script("startup")
    run, table = _one_round(tmp_path, "startup")
    assert set(run) == {*startup.PHASES, "total"}
    parts = sum(run[p] for p in startup.PHASES)
    assert parts <= run["total"] + 1e-6 and parts >= 0.9 * run["total"], run  # only the freeze and a few lines besides
    assert all(f"| {p} |" in table for p in (*startup.PHASES, "total"))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="pool_start.py reads the server's CPU in /proc")
def test_a_pool_of_two_is_measured_part_by_part(benchmark_script, tmp_path):
    # two workers, one task each (the script refuses a round where a worker took both), every part measured
    pool_start = benchmark_script("pool_start")
    run, table = _one_round(tmp_path, "pool_start", "--workers", "2")
    assert set(run) == set(pool_start.PARTS)
    assert run["first block"] > 0 and run["a later block"] > 0, run
    assert all(f"| {p} |" in table for p in pool_start.PARTS)


@pytest.mark.parametrize("script", ["startup", "pool_start"])
def test_bad_arguments_are_named(benchmark_script, script, tmp_path, capsys):
    main = benchmark_script(script).main
    with pytest.raises(SystemExit):
        main(["--tree", str(tmp_path)])
    assert "no src/loki there" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--tree", str(ROOT), "--config", str(tmp_path / "none.toml")])
    assert "none.toml: no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--tree", str(ROOT), "--rounds", "0"])
    assert "--rounds: at least 1" in capsys.readouterr().err
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit):
        main(["--tree", str(ROOT), "--json", str(fifo)])
    assert "--json" in (err := capsys.readouterr().err) and "FIFO" in err.upper(), err


def test_a_pool_of_one_is_refused(benchmark_script, capsys):
    with pytest.raises(SystemExit):
        benchmark_script("pool_start").main(["--tree", str(ROOT), "--workers", "1"])
    assert "one worker is no pool" in capsys.readouterr().err
