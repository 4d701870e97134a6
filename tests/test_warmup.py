"""Warm before play: after :func:`loki.players.warmup.warm_up` a player of the same spec compiles no
kernel when it plays; ``loki warmup`` shows a progress bar and reports the cache."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from loki.cli import app
from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.players.warmup import warm_up

CHECK = """
import sys
import numpy as np
from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.players.warmup import kernel_signatures, warm_up

spec, n = sys.argv[1], int(sys.argv[2])
cfg = GameConfig(n_players=n)
assert not any(kernel_signatures().values())  # a fresh process: nothing loaded yet
rep = warm_up(spec, cfg, seed=5)
assert rep.complete and rep.streets == {0, 1, 2, 3} and rep.hands >= 6 and rep.compiled > 0, rep
before = kernel_signatures()
players = [make_player(spec, seed=11)] + [make_player(o, seed=2) for o in ("maniac", "calling")[: n - 1]]
rng = np.random.default_rng(7)
for h in range(15):
    play_hand(cfg, players, h % n, rng)
new = {k: v for k, v in kernel_signatures().items() if v != before.get(k)}
print("NEW", new)
"""


@pytest.mark.parametrize("spec, n", [("loki1", 3), ("loki2:BRS:trials=50", 2)])
def test_after_warm_up_playing_compiles_nothing(spec, n):
    """In a fresh process: once warmed up, 15 hands of a new player of the spec compile or load no kernel."""
    r = subprocess.run([sys.executable, "-c", CHECK, spec, str(n)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().splitlines()[-1] == "NEW {}", r.stdout


def test_warm_up_does_not_touch_other_players():
    """Warming up builds its own players: a player built before plays exactly as without the warm-up."""
    cfg = GameConfig(n_players=2)

    def session(warm: bool) -> list:
        players = [make_player("loki1", seed=3), make_player("random", seed=4)]
        if warm:
            warm_up("loki1", cfg)
        rng = np.random.default_rng(9)
        return [play_hand(cfg, players, h % 2, rng).history for h in range(20)]

    assert session(True) == session(False)


def test_warmup_command_reports_progress_and_the_cache():
    r = CliRunner().invoke(app, ["warmup", "--player", "loki1", "--players", "2"])
    assert r.exit_code == 0, r.output
    assert "numba kernels cache:" in r.stderr and "loki1 (2 players)" in r.stderr
    assert r.stdout.startswith("warm: ") and "kernels compiled or loaded" in r.stdout
    r = CliRunner().invoke(app, ["warmup", "--player", "nosuch"])
    assert r.exit_code == 2 and "error: --player: unknown player type 'nosuch'" in r.stderr


# ------------------------------------------------------------------ first-run compile


@pytest.fixture
def marker_dir(tmp_path, monkeypatch):
    """Markers in a temporary folder: loki._jit.cache_dir() points there (numba's own cache is untouched)."""
    from loki import _jit

    monkeypatch.setattr(_jit, "cache_dir", lambda: str(tmp_path))
    return tmp_path


def _fake_warm_up(calls):
    from loki.players import warmup

    def fake(spec, config=None, **kw):
        calls.append(spec)
        rep = warmup.WarmupReport(spec, 2, hands=6, streets={0, 1, 2, 3}, complete=True)
        if kw.get("progress"):
            kw["progress"](rep)
        return rep

    return fake


def test_a_spec_is_warm_once_its_marker_is_written(marker_dir):
    from loki.players.warmup import WarmupReport, cold_specs, mark_warm, marker_path

    assert cold_specs(["random", "calling", "maniac"]) == []  # no kernels to compile
    assert cold_specs(["loki1", {"kind": "loki1"}, "loki2:BR", "loki1"]) == ["loki1", "loki2:BR"]
    assert not mark_warm(WarmupReport("loki1", 2, complete=False))  # an unfinished warm-up marks nothing
    assert mark_warm(WarmupReport("loki1", 2, hands=6, complete=True))
    assert marker_path("loki1").parent == marker_dir / "warm" and marker_path("loki1").is_file()
    assert cold_specs(["loki1", "loki2:BR"]) == ["loki2:BR"]
    assert marker_path("loki2:BR") != marker_path("loki2:BRS") != marker_path("loki1")


def test_ensure_warm_says_so_once_and_is_silent_when_quiet(marker_dir, monkeypatch, capsys):
    from loki.cli.warmup import ensure_warm
    from loki.players import warmup

    calls: list = []
    monkeypatch.setattr(warmup, "warm_up", _fake_warm_up(calls))
    ensure_warm(["loki1", "random", "loki2:BR"], 3)
    out, err = capsys.readouterr()
    assert out == "" and calls == ["loki1", "loki2:BR"]
    lines = err.strip().splitlines()  # not a terminal: two plain lines
    assert len(lines) == 2 and lines[0].startswith("compiling numba kernels for loki1, loki2:BR (first run")
    assert "loki warmup" in lines[0] and lines[1].startswith("compiled in ")
    ensure_warm(["loki1", "loki2:BR"], 3)  # warm now: nothing printed, nothing compiled
    assert capsys.readouterr() == ("", "") and len(calls) == 2
    ensure_warm(["loki2:BRS"], 2, quiet=True)  # quiet: compiled and marked, nothing printed
    assert capsys.readouterr() == ("", "") and calls[-1] == "loki2:BRS"
    assert warmup.cold_specs(["loki2:BRS"]) == []


def test_the_tournament_prepares_before_the_first_block_and_not_on_a_finished_run(tmp_path):
    from loki.tournament.config import load_preset
    from loki.tournament.runner import run_tournament

    cfg = load_preset("quick").with_overrides(deals=1)
    cfg = cfg.with_overrides(block_deals=1)
    order: list = []
    run = run_tournament(cfg, workers=0, out=tmp_path, prepare=lambda: order.append("prepare"),
                         progress=lambda d, t: order.append(d))  # fmt: skip
    assert order[0] == "prepare" and order.count("prepare") == 1 and "prepare_seconds" in run.extra
    order.clear()
    again = run_tournament(cfg, workers=0, out=tmp_path, prepare=lambda: order.append("prepare"))
    assert order == [] and again.played_blocks == 0


@pytest.mark.slow
def test_first_run_compiles_up_front_with_a_message_then_never_again(tmp_path):
    """COLD CACHE: a fresh NUMBA_CACHE_DIR, so this compiles Loki-1's and Loki-2 B+R's kernels (about 20 s of
    CPU); the one cold-cache test."""
    import json
    import os

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "COLUMNS": "200"}

    def loki(*args):
        cmd = [sys.executable, "-c", "from loki.cli import app; app()", *args]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        return r

    common = ["tournament", "--preset", "quick", "--deals", "1", "--workers", "0", "--no-plots"]
    first = loki(*common, "--out", "t1")
    assert "compiling numba kernels for loki1, loki2:BR (first run" in first.stderr, first.stderr
    assert "compiled in" in first.stderr and "compiling" not in first.stdout
    info = json.loads((tmp_path / "t1" / "run.json").read_text())
    assert info["prepare_seconds"] > info["block_seconds"]  # the compile is outside the (only) block
    second = loki(*common, "--out", "t2")
    assert "compiling" not in second.stderr and "compiling" not in second.stdout, second.stderr
    # a cold marker (the kernels load from numba's cache): the message goes to stderr, stdout stays JSON
    (marker,) = (tmp_path / "numba").glob("*/warm/loki1-*.json")
    marker.unlink()
    # (it says they are loaded, not "first run ... up to a minute")
    r = loki("explain", "--hole", "AhKh", "--board", "Qh7h2c", "--betting", "cc/", "--player", "loki1", "--json")
    assert "loading numba kernels for loki1 (compiled before" in r.stderr and "first run" not in r.stderr
    assert all(isinstance(json.loads(x), dict) for x in r.stdout.splitlines())


def test_a_warm_numba_cache_is_not_announced_as_a_first_run(marker_dir, monkeypatch, capsys):
    """A spec without a marker whose kernels numba's disk cache already holds (``loki1:TA`` after
    ``loki warmup`` marked ``loki1``) is loaded in seconds: no "first run ... up to a minute"."""
    import hashlib
    import os
    from pathlib import Path

    from loki import _jit
    from loki.cli.warmup import compiled_before, ensure_warm
    from loki.players import warmup

    calls: list = []
    monkeypatch.setattr(warmup, "warm_up", _fake_warm_up(calls))
    assert not compiled_before(["loki1:TA"])  # an empty cache folder
    package = Path(_jit.__file__).resolve().parent
    for rel in ("evaluator/kernels.py", "assessment/strength.py", "modeler/kernels.py", "triples/rule_chain.py"):
        folder = os.path.dirname(str(package / rel))  # numba's own layout: <folder name>_<sha1 of its path>
        sub = marker_dir / f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
        sub.mkdir(exist_ok=True)
        (sub / f"{Path(rel).stem}.kernel-10.py311.nbi").write_bytes(b"")
    assert compiled_before(["loki1:TA"]) and not compiled_before(["loki2:BRS"])  # the Simulator's are not there
    ensure_warm(["loki1:TA"], 3)
    err = capsys.readouterr().err
    assert calls == ["loki1:TA"] and "first run" not in err and "up to a minute" not in err
    assert err.startswith("loading numba kernels for loki1:TA (compiled before: a few seconds") and "loaded in" in err
    ensure_warm(["loki2:BRS"], 2)
    assert "first run of this loki build: up to a minute" in capsys.readouterr().err
