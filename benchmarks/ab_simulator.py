"""A/B of the Simulator's CPU per decision between two source trees, alternating in one run.

Each round runs a fresh interpreter per tree (``PYTHONPATH=<tree>/src``), base first then new, and times
``--decisions`` 500-trial flop decisions of :mod:`bench_loki2` (random 5-player spots at a 10-player table, no
cut-off) with the uniform (paper's) and the believed play-out, in process CPU time; the ratios are base / new of
the per-round means, so both trees see the same mix of machine load.  A digest of every decision's EVs and
standard deviations checks that the two trees play the same::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_simulator.py --base /path/to/old/tree --new . --rounds 3

The trees' numba caches are warmed by a first untimed call of each (``bench_decisions`` does it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import hashlib, json, sys, statistics, importlib.util
spec = importlib.util.spec_from_file_location("bench_loki2", sys.argv[1])
bl2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bl2)
from loki.simulator import SimConfig
out = {}
for label, cfg in [
    ("uniform", SimConfig(trials=500, cutoff="none")),
    ("believed", SimConfig(trials=500, cutoff="none", play_outs="believed")),
]:
    ts, rs = bl2.bench_decisions(int(sys.argv[2]), cfg, 2026)
    digest = hashlib.sha1(
        repr([(r.ev_call.hex(), r.ev_raise.hex(), r.sd_call.hex(), r.sd_raise.hex(), str(r.action)) for r in rs]).encode()
    ).hexdigest()[:12]
    out[label] = {"mean_ms": 1e3 * sum(ts) / len(ts), "median_ms": 1e3 * statistics.median(ts), "digest": digest}
print(json.dumps(out))
"""


def run(tree: Path, decisions: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    # each tree's own spots builder (its API), falling back on this one's
    bench = tree / "benchmarks" / "bench_loki2.py"
    if not bench.is_file():
        bench = Path(__file__).with_name("bench_loki2.py")
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, str(bench), str(decisions)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="source tree of the baseline (has src/loki)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="source tree to test")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=30, help="timed decisions per variant per round")
    a = ap.parse_args(argv)
    rows = {"base": [], "new": []}
    for r in range(a.rounds):
        for name, tree in (("base", a.base), ("new", a.new)):
            rows[name].append(run(tree, a.decisions))
            print(f"round {r + 1} {name}: {json.dumps(rows[name][-1])}", flush=True)
    for label in ("uniform", "believed"):
        b = [x[label]["mean_ms"] for x in rows["base"]]
        n = [x[label]["mean_ms"] for x in rows["new"]]
        same = {x[label]["digest"] for x in rows["base"] + rows["new"]}
        ratios = [x / y for x, y in zip(b, n)]
        print(
            f"{label} play-out: base {statistics.mean(b):.2f} ms, new {statistics.mean(n):.2f} ms CPU per decision "
            f"(mean of {a.rounds} rounds x {a.decisions} decisions); base/new {statistics.mean(ratios):.2f}x "
            f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)}); results "
            f"{'identical' if len(same) == 1 else 'DIFFER'} ({hashlib.sha1(repr(sorted(same)).encode()).hexdigest()[:8]})"
        )


if __name__ == "__main__":
    main()
