"""The generated tables (study READMEs, README.md, docs) and docs/RESULTS.md are what the committed results under
experiments/ say (scripts/experiments_tables.py)."""

from __future__ import annotations

import re
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


def test_results_are_filed_by_question_not_by_date():
    """Every folder of experiments/ is a study (a question, never a date) with a study.toml and a README that opens
    with its generated current answer."""
    exp = ROOT / "experiments"
    studies = [p for p in exp.iterdir() if p.is_dir()]
    assert studies
    for p in studies:
        assert not re.fullmatch(r"\d{4}-\d\d-\d\d.*", p.name), f"{p.name}: a dated folder"
        assert (p / "study.toml").is_file(), f"{p.name}: no study.toml"
        readme = (p / "README.md").read_text()
        assert readme.split("\n")[2] == "<!-- current answer -->", f"{p.name}: README does not open with its answer"
        assert "## History" in readme, f"{p.name}: README without its history"
