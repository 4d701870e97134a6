"""``benchmarks/ab_process.py --paired`` runs the two trees of a round at the same time, each pinned to a CPU of its
own and the CPUs swapped each round, and counts each process's own CPU: checked with two stand-in trees whose
``loki`` command records the CPUs it may use and writes a summary (no tournament is played)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "ab_process.py"

#: A stand-in ``loki.cli``: ``app()`` burns a little CPU, writes the CPUs it may use and a summary into ``--out``.
_CLI = """
import json, os, sys
from pathlib import Path

def app():
    out = Path(sys.argv[sys.argv.index("--out") + 1])
    out.mkdir(parents=True, exist_ok=True)
    x = 0
    for i in range(300000):
        x += i * i
    (out / "cpus.json").write_text(json.dumps(sorted(os.sched_getaffinity(0))))
    (out / "summary.json").write_text(json.dumps({"hands": 7}))
    (out / "deals.csv").write_text("deal,chips\\n0,1\\n")
"""


@pytest.fixture()
def ab_process(benchmark_script):
    return benchmark_script("ab_process")


def _tree(root: Path) -> Path:
    (root / "src" / "loki").mkdir(parents=True)
    (root / "src" / "loki" / "__init__.py").write_text("")
    (root / "src" / "loki" / "cli.py").write_text(_CLI)
    return root


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2, reason="needs 2 CPUs")
def test_paired_rounds_pin_each_tree_to_its_own_cpu_and_swap_them(ab_process, tmp_path, capsys):
    base, new = _tree(tmp_path / "base"), _tree(tmp_path / "new")
    c0, c1 = sorted(os.sched_getaffinity(0))[:2]
    rows = ab_process.run_paired([(base, tmp_path / "o0", c0), (new, tmp_path / "o1", c1)], "quick", 2, False)
    assert [r["cpu_id"] for r in rows] == [c0, c1] and all(r["games"] == 7 and r["cpu"] > 0 for r in rows)
    assert json.loads((tmp_path / "o0" / "cpus.json").read_text()) == [c0]
    assert json.loads((tmp_path / "o1" / "cpus.json").read_text()) == [c1]
    ab_process.main(["--base", str(base), "--new", str(new), "--preset", "quick", "--rounds", "2", "--paired"])
    out = capsys.readouterr().out
    lines = [json.loads(line.split(": ", 1)[1]) for line in out.splitlines() if line.startswith("round")]
    assert [r["cpu_id"] for r in lines] == [c0, c1, c1, c0]  # swapped in the second round
    assert "paired" in out and "identical" in out


def test_paired_needs_one_worker(ab_process, tmp_path):
    with pytest.raises(SystemExit):
        ab_process.main(["--base", str(tmp_path), "--paired", "--workers", "2"])


def test_a_failing_tree_stops_the_paired_round_by_name(ab_process, tmp_path):
    base = _tree(tmp_path / "base")
    (base / "src" / "loki" / "cli.py").write_text("def app():\n    raise SystemExit('broken tree')\n")
    cpu = sorted(os.sched_getaffinity(0))[0]
    with pytest.raises(SystemExit, match="base.*failed"):
        ab_process.run_paired([(base, tmp_path / "o", cpu)], "quick", 2, False)
