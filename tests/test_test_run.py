"""The README's test command: one worker per core, a test file to a worker, where pytest-xdist is installed
(``conftest.py``); every test in one process where it is not, instead of an error on an option it does not know."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SMALL = "tests/test_cards.py"  # a quick file of the suite's own


def _max_workers() -> int:
    # the cap the project's conftest.py sets (read from it, not repeated here)
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return int(module.MAX_WORKERS)


def _pytest(*args: str) -> subprocess.CompletedProcess:
    # a pytest run of the project from its root, outside this run's worker (its variables removed)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k not in ("COLUMNS", "LINES")}
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, SMALL]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_without_xdist_the_suite_runs_in_one_process():
    res = _pytest("-p", "no:xdist", "-q")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert " passed" in res.stdout and "workers" not in res.stdout


def test_with_xdist_the_run_is_spread_a_file_to_a_worker():
    pytest.importorskip("xdist")
    res = _pytest("-v")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "LoadFileScheduling" in res.stdout
    n_cpu = os.cpu_count() or 1
    assert f"{min(n_cpu, _max_workers())} workers [" in res.stdout


def test_an_explicit_n0_is_kept():
    pytest.importorskip("xdist")
    res = _pytest("-n0", "-v")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "workers [" not in res.stdout and "Scheduling" not in res.stdout
