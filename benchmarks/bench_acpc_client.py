"""CPU per dealer message of the ACPC client's own work (parsing, checking and rebuilding the hand), two trees alternating.

The messages: every line the dealer sends to one seat of a ``loki match`` of ``--bot`` against ``--opponent``
(``--hands`` hands, ``--seed``), captured once with the ``--new`` tree.  Each round replays them, in a fresh process
per tree (``PYTHONPATH=<tree>/src``), through :meth:`loki.io.acpc_client.AcpcClient.handle_line` of a client whose
player is ``calling`` (no socket, so only the client's own work is timed: the player decides nothing), ``--repeats``
passes after a warm-up pass, and reports the best pass in process CPU per line.  The trees alternate round by round.

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_acpc_client.py --base /path/to/old/tree --new . --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_CAPTURE = r"""
import json, sys
from loki.io import acpc_client
lines = {}
orig = acpc_client.AcpcClient.handle_line
def handle_line(self, line):
    lines.setdefault(id(self), []).append(line)
    return orig(self, line)
acpc_client.AcpcClient.handle_line = handle_line
from loki.cli import app
bot, opp, hands, seed, out, log = sys.argv[1:7]
sys.argv = ["loki", "match", "--player", opp, "--player", bot, "--hands", hands, "--seed", seed, "--out", log]
try:
    app()
except SystemExit as e:
    if e.code:
        raise
json.dump(next(iter(lines.values())), open(out, "w"))
"""

_REPLAY = r"""
import json, sys, time
from loki.io.acpc_client import AcpcClient
from loki.io.gamedef import bundled_gamedef
from loki.players.registry import make_player
lines = json.load(open(sys.argv[1]))
repeats = int(sys.argv[2])
best = None
for r in range(repeats + 1):
    c = AcpcClient(bundled_gamedef(2), make_player("calling", seed=1))
    t = time.process_time()
    for line in lines:
        c.handle_line(line)
    dt = time.process_time() - t
    if r and (best is None or dt < best):
        best = dt
print(json.dumps({"lines": len(lines), "us_per_line": 1e6 * best / len(lines)}))
"""


def _run(tree: Path, code: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    res = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"{tree}: failed:\n{res.stderr[-2000:]}")
    return res.stdout


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--bot", default="loki2:BRS:adaptive")
    ap.add_argument("--opponent", default="equity")
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    us: dict[str, list[float]] = {"base": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        lines = Path(tmp) / "lines.json"
        _run(a.new, _CAPTURE, a.bot, a.opponent, str(a.hands), str(a.seed), str(lines), str(Path(tmp) / "m.log"))
        for r in range(a.rounds):
            for name, tree in (("base", a.base), ("new", a.new)):
                x = json.loads(_run(tree, _REPLAY, str(lines), str(a.repeats)).strip().splitlines()[-1])
                us[name].append(x["us_per_line"])
                print(f"round {r + 1} {name}: {x['us_per_line']:.1f} us CPU per line ({x['lines']} lines)", flush=True)
    b, n = statistics.median(us["base"]), statistics.median(us["new"])
    print(
        f"ACPC client, {a.bot} against {a.opponent}, {a.hands} hands: us CPU per dealer line, base "
        f"{min(us['base']):.1f}/{b:.1f}/{max(us['base']):.1f}, new {min(us['new']):.1f}/{n:.1f}/{max(us['new']):.1f} "
        f"(min/median/max of {a.rounds}); base/new by median {b / n:.2f}x"
    )


if __name__ == "__main__":
    main()
