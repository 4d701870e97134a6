"""docs/EXPERIMENTS.md's tables of 2026-11-25 are what the committed results say (scripts/experiments_tables.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_tables_are_generated_from_the_committed_results():
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "experiments_tables.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
