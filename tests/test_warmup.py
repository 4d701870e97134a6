"""Warm before play (issue 14): after :func:`loki.warmup.warm_up` a player of the same spec compiles no
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
from loki.table import play_hand
from loki.warmup import warm_up

CHECK = """
import sys
import numpy as np
from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.table import play_hand
from loki.warmup import kernel_signatures, warm_up

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
