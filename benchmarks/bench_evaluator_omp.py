"""loki's evaluator against OMPEval (C++) on the same 20 M random 7-card hands, alternating rounds, CPU time.

OMPEval (github.com/zekyll/OMPEval) is fetched and built beside the project, never committed: build
``benchmarks/ompeval_driver.cpp`` against it (the command is in its header), then::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_evaluator_omp.py --driver /path/to/ompeval_driver --rounds 7

The hands: ``--hands`` (default 20,000,000) uniformly random 7-card hands from ``numpy.random.default_rng(--seed)``
(each row the first 7 of a random permutation of the deck, as ``bench_evaluator_gap.py`` draws them), written once
as a file of ``uint8`` card indices (OMPEval's card order is loki's: ``4 * rank + suit``, rank 0 the deuce).  Each
round runs, in fresh processes, the OMPEval driver (each hand built from its seven cards, its 16-bit rank stored in
an array: OMPEval's "Rand1" with a store) and loki's ``rank_batch(hands, out=int16 array)`` (``--tree`` on the
``PYTHONPATH``), each timing its pass over the hands in process CPU after a warm-up pass; the ratio of the round
is OMPEval's CPU over loki's (> 1: loki is faster).  Both sides' ranks are checked to order every pair of 200,000
sampled hands the same way (the two evaluators' rank numbers differ, their order must not).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

_LOKI = r"""
import sys, time
import numpy as np
from loki import evaluator as E
hands = np.fromfile(sys.argv[1], dtype=np.uint8).reshape(-1, 7)
out = np.empty(hands.shape[0], np.int16)
E.rank_batch(hands, out=out)  # warm-up: the kernel loaded, the tables built, the pages touched
t = time.process_time()
E.rank_batch(hands, out=out)
print(time.process_time() - t)
out.tofile(sys.argv[2])
"""


def random_hands(n: int, seed: int) -> np.ndarray:
    """``(n, 7) uint8``: each row the first 7 cards of a random permutation of the deck."""
    rng = np.random.default_rng(seed)
    chunk = 1_000_000
    parts = [
        np.argpartition(rng.random((min(chunk, n - i), 52)), 7, axis=1)[:, :7].astype(np.uint8)
        for i in range(0, n, chunk)
    ]
    return np.ascontiguousarray(np.concatenate(parts))


def same_order(a: np.ndarray, b: np.ndarray, seed: int) -> bool:
    """Whether ranks ``a`` and ``b`` of the same hands order 1,000,000 random pairs of 200,000 sampled hands alike."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(a.size, min(a.size, 200_000), replace=False)
    x, y = a[idx].astype(np.int64), b[idx].astype(np.int64)
    i, j = rng.integers(0, idx.size, (2, 1_000_000))
    return bool(np.array_equal(np.sign(x[i] - x[j]), np.sign(y[i] - y[j])))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", type=Path, required=True, help="the built ompeval_driver")
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent, help="loki source tree")
    ap.add_argument("--hands", type=int, default=20_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=str(a.tree / "src"))
    ratios, loki_s, omp_s = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.u8"
        random_hands(a.hands, a.seed).tofile(path)
        for r in range(a.rounds):
            omp_out, loki_out = Path(tmp) / "omp.u16", Path(tmp) / "loki.i16"
            res = subprocess.run([str(a.driver), str(path), "2", str(omp_out)], capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit(f"ompeval_driver failed: {res.stderr}")
            o = float(res.stdout.split()[-1])  # the second pass (the first touched the pages)
            res = subprocess.run(
                [sys.executable, "-c", _LOKI, str(path), str(loki_out)], env=env, capture_output=True, text=True
            )
            if res.returncode != 0:
                raise SystemExit(f"loki failed: {res.stderr[-2000:]}")
            x = float(res.stdout.split()[-1])
            if r == 0 and not same_order(np.fromfile(loki_out, np.int16), np.fromfile(omp_out, np.uint16), a.seed):
                raise SystemExit("loki and OMPEval order the hands differently")
            omp_s.append(o)
            loki_s.append(x)
            ratios.append(o / x)
            print(
                f"round {r + 1}: OMPEval {a.hands / o / 1e6:.0f} M/s, loki {a.hands / x / 1e6:.0f} M/s, "
                f"loki/OMPEval {o / x:.2f}x",
                flush=True,
            )
    print(
        f"{a.hands:,} random 7-card hands, {a.rounds} alternating rounds, CPU: OMPEval "
        f"{a.hands / statistics.median(omp_s) / 1e6:.0f} M/s, loki {a.hands / statistics.median(loki_s) / 1e6:.0f} M/s "
        f"(medians); loki/OMPEval min {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x, max "
        f"{max(ratios):.2f}x"
    )


if __name__ == "__main__":
    main()
