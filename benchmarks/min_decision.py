"""The Simulator's CPU per decision on one source tree: the minimum over repeats (robust on a loaded machine).

    PYTHONPATH=TREE/src python benchmarks/min_decision.py TREE uniform|believed

Builds 12 random 5-player flop spots with ``TREE/benchmarks/bench_loki2.py`` (that tree's own API), warms the
kernels, then times 7 repeats of the 12 500-trial decisions (no cut-off) and prints the minimum and the median of the
per-decision means, in ms of process CPU time.  Run it alternately on two trees, several rounds.
"""

import importlib.util
import statistics
import sys
import time

tree, mode = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("bench_loki2", f"{tree}/benchmarks/bench_loki2.py")
assert spec is not None and spec.loader is not None, f"no benchmarks/bench_loki2.py in {tree}"
bl2 = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bl2)
import numpy as np  # noqa: E402

from loki.simulator import SimConfig, simulate  # noqa: E402
from loki.triples import board_values  # noqa: E402

cfg = SimConfig(trials=500, cutoff="none", play_outs=mode)
rng = np.random.default_rng(2026)
spots = [bl2.random_flop_spot(rng) for _ in range(12)]
if mode == "believed":
    spots = [bl2.believed(sp) for sp in spots]
for sp in spots:
    board_values(sp.board)
simulate(spots[0], cfg, seed=0)
per = []
for _ in range(7):
    t = time.process_time()
    for i, sp in enumerate(spots):
        simulate(sp, cfg, seed=i)
    per.append((time.process_time() - t) / len(spots) * 1e3)
print(f"{min(per):.3f} {statistics.median(per):.3f}")
