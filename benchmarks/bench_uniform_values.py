"""CPU per board of the uniform board potentials (every holding's PPot1/NPot1 against a uniform range), two source
trees alternating.

For each round and each tree (``--base``, ``--new``; ``PYTHONPATH=<tree>/src``) a fresh process times, in process CPU,
:func:`loki.assessment.potential_all.hp1_all_uniform_kernel` on ``--boards`` random boards of each kind (seed
``--seed``: flops drawn until each suit pattern has its count, and turns), the board's three-card ranks computed
before the clock starts, after one untimed call.  The kinds: rainbow flops (one suit missing from the board, no
symmetry between suits), two-tone flops (two missing suits, interchangeable) and monotone flops (three), and turns.
The two trees alternate (A B A B ...), so a drift of the machine's speed falls on both; the ratio base/new of each
kind and round is printed, then per kind the medians, and over the flops as dealt (rainbow 39.8 %, two-tone 55.1 %,
monotone 5.2 %) the ratio of the weighted median times.

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_uniform_values.py --base /path/to/old/tree --new . --rounds 3
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from _trees import child_json

_CHILD = r"""
import json, sys, time
import numpy as np
from loki.assessment.potential import dead_array
from loki.assessment.potential_all import board_triple_ranks, hp1_all_uniform_kernel
from loki.evaluator import kernel_tables

n, seed = int(sys.argv[1]), int(sys.argv[2])
tabs = kernel_tables()
rng = np.random.default_rng(seed)
kinds = {"rainbow flop": [], "two-tone flop": [], "monotone flop": [], "turn": []}
names = {3: "rainbow flop", 2: "two-tone flop", 1: "monotone flop"}
while min(len(kinds[k]) for k in names.values()) < n:
    b = np.sort(rng.choice(52, 3, replace=False)).astype(np.int64)
    k = names[len({int(c) & 3 for c in b})]
    if len(kinds[k]) < n:
        kinds[k].append(b)
kinds["turn"] = [np.sort(rng.choice(52, 4, replace=False)).astype(np.int64) for _ in range(n)]
out = {}
for name, boards in kinds.items():
    pre = [(b, dead_array([int(c) for c in b]), *board_triple_ranks(b, tabs)) for b in boards]
    hp1_all_uniform_kernel(pre[0][0], pre[0][1], tabs, pre[0][2], pre[0][3])
    t = time.process_time()
    for b, d, r3, pos in pre:
        hp1_all_uniform_kernel(b, d, tabs, r3, pos)
    out[name] = (time.process_time() - t) / len(pre)
print(json.dumps(out))
"""

#: the share of each flop kind among the 22,100 flops (rainbow 13^3 * 4 * 3 * 2 / 6, two-tone, monotone 4 * C(13, 3))
FLOP_SHARES = {"rainbow flop": 8788 / 22100, "two-tone flop": 12168 / 22100, "monotone flop": 1144 / 22100}


def one(tree: Path, boards: int, seed: int) -> dict[str, float]:
    """Seconds of CPU per board of each kind in one fresh process of ``tree``."""
    result: dict[str, float] = child_json(tree, _CHILD, boards, seed)
    return result


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--boards", type=int, default=200, help="boards of each kind")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    if a.boards < 1 or a.rounds < 1:
        ap.error("--boards and --rounds must be at least 1")
    times: dict[str, tuple[list[float], list[float]]] = {}
    for r in range(a.rounds):
        base, new = one(a.base, a.boards, a.seed), one(a.new, a.boards, a.seed)
        for k in base:
            times.setdefault(k, ([], []))
            times[k][0].append(base[k])
            times[k][1].append(new[k])
            print(f"round {r + 1} {k:14s} base {1e3 * base[k]:.3f} ms, new {1e3 * new[k]:.3f} ms, "
                  f"base/new {base[k] / new[k]:.2f}", flush=True)  # fmt: skip
    med = {k: (statistics.median(b), statistics.median(n)) for k, (b, n) in times.items()}
    report = {k: {"base_ms": 1e3 * b, "new_ms": 1e3 * n, "ratio": b / n} for k, (b, n) in med.items()}
    flop_base = sum(share * med[k][0] for k, share in FLOP_SHARES.items())
    flop_new = sum(share * med[k][1] for k, share in FLOP_SHARES.items())
    report["flops as dealt"] = {"base_ms": 1e3 * flop_base, "new_ms": 1e3 * flop_new, "ratio": flop_base / flop_new}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
