"""``benchmarks/ceilings.py`` times a block with parts of the table made free by replaying a recording of them: the
replays must play the recorded games, and a recording that does not fit them is refused, not timed."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "ceilings.py"
TABLE = ROOT / "benchmarks" / "tables" / "fig3-BRS-BRS3.toml"


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT / "src"))


def _child(code: str, mode: str, recording: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, mode, str(recording), str(TABLE), "2", "loki1"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_every_mode_plays_the_recorded_games():
    """One round of the four modes on Figure 3's B+R+S table (8 Loki-1 seats, 2 Simulator players): the script ends
    cleanly only if every replay played the recording's games (it compares their digests), and reports every mode."""
    res = subprocess.run(
        [sys.executable, str(SCRIPT), "--tree", str(ROOT), "--config", str(TABLE), "--deals", "2", "--rounds", "1"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    out = res.stdout
    assert "recorded: 8 seats of kind 'loki1'" in out
    n_sims = int(out.split("seats of kind 'loki1', ")[1].split(" Simulator decisions")[0])
    assert n_sims > 0
    for mode in ("full", "free-seats", "free-simulator", "both"):
        assert f"| {mode} | " in out


def test_a_recording_that_does_not_fit_is_refused(tmp_path, benchmark_script):
    """A recording with one seat's last action removed runs out during the replay: the child stops with a message
    instead of timing other games; the untouched recording replays the same games (the same digest)."""
    code = benchmark_script("ceilings")._CHILD.format(dir=str(SCRIPT.parent))
    rec = tmp_path / "rec.pickle"
    first = _child(code, "record", rec)
    assert first.returncode == 0, first.stderr[-2000:]
    recorded = json.loads(first.stdout.strip().splitlines()[-1])
    again = _child(code, "free-seats", rec)
    assert again.returncode == 0, again.stderr[-2000:]
    assert json.loads(again.stdout.strip().splitlines()[-1])["digest"] == recorded["digest"]
    with open(rec, "rb") as f:
        seats, sims = pickle.load(f)
    name = sorted(seats)[0]
    seats[name] = seats[name][:-1]
    with open(rec, "wb") as f:
        pickle.dump((seats, sims), f)
    short = _child(code, "free-seats", rec)
    assert short.returncode != 0
    assert f"{name}: the replay ran out of recorded actions" in short.stderr
