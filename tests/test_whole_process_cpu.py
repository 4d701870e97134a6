"""``benchmarks/_trees.run_whole`` measures a whole process tree: the CPU of descendants that outlive the command (a
tournament's pool workers end only after the tournament process) is counted, as they end; a chatty child's stderr
cannot block it; a descendant that never ends is reported, not waited for forever.

Each case runs in a fresh interpreter: becoming a subreaper changes the process for good (the test process's own
children must not be re-parented to it or reaped by the measurement)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_CHILD_SUBREAPER is Linux's")

# burns ``s`` seconds of CPU
_BURN = "import sys, time\nt = time.process_time()\nwhile time.process_time() - t < {s}: pass\n"


def _measure(command_code: str, deadline: float = 60.0) -> dict:
    """``run_whole([python, -c, command_code])`` in a fresh interpreter, its result as a dict (or the error)."""
    harness = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(BENCH)!r})\n"
        "from dataclasses import asdict\n"
        "from _trees import run_whole\n"
        "try:\n"
        f"    r = asdict(run_whole([sys.executable, '-c', {command_code!r}], deadline={deadline}))\n"
        "except SystemExit as e:\n"
        "    r = {'error': str(e)}\n"
        "print(json.dumps(r))\n"
    )
    res = subprocess.run([sys.executable, "-c", harness], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_an_orphan_is_counted():
    """The command starts a child burning 0.4 s of CPU and exits at once, without waiting for it (as a tournament
    process leaves its pool's workers): the child's CPU is in the figure, one process reaped after the command."""
    burn = _BURN.format(s=0.4)
    r = _measure(f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {burn!r}])\n")
    assert r["whole"] is True
    assert r["returncode"] == 0
    assert r["processes"] == 1
    assert r["cpu"] >= 0.35, r  # the orphan's 0.4 s (a timer's tick of slack)
    assert r["peak_rss_mb"] > 1.0


def test_waited_children_and_exit_code_and_stderr():
    """A child the command waits for is counted through the command itself (none reaped after it); the exit code
    comes back; 200 kB on stderr (more than a pipe holds) does not block, and its tail is kept."""
    burn = _BURN.format(s=0.3)
    code = (
        "import subprocess, sys\n"
        f"subprocess.run([sys.executable, '-c', {burn!r}])\n"
        "sys.stderr.write('x' * 200_000 + 'THE END')\n"
        "sys.exit(3)\n"
    )
    r = _measure(code)
    assert r["returncode"] == 3
    assert r["processes"] == 0
    assert r["cpu"] >= 0.25, r
    assert r["stderr"].endswith("THE END") and len(r["stderr"]) == 4000


def test_a_descendant_that_does_not_end_is_reported():
    """An orphan still running when the deadline passes: a SystemExit that says so, not a wait without end (the
    orphan, a 3-second sleep, ends on its own later)."""
    code = "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3)'])\n"
    r = _measure(code, deadline=0.3)
    assert "still runs" in r.get("error", ""), r
