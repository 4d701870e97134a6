"""Where ``rank_batch``'s time goes, for BENCHMARKS.md "Gap to the fastest C++ evaluators".

Run on an otherwise idle core if you can (figures are process CPU time, best of several)::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_evaluator_gap.py

Measures ``rank_batch(hands, out=int16 buffer)`` on 10 M uniformly random 7-card hands, on the first 10 M hands
of the sequential enumeration (a < b < ... < g, the order C++ benchmarks loop in) and on the same hands shuffled,
and the cost of one call on a 100-hand batch (the Python wrapper and numba's dispatch).  The C side is
``benchmarks/pheval_c_core.c`` (phevaluator's C core, timed from C).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from loki import evaluator as E


@numba.njit
def enumeration(n):
    """The first ``n`` 7-card hands in the order of seven nested loops ``a < b < ... < g`` (int8 rows)."""
    out = np.empty((n, 7), np.int8)
    k = 0
    for a in range(46):
        for b in range(a + 1, 47):
            for c in range(b + 1, 48):
                for d in range(c + 1, 49):
                    for e in range(d + 1, 50):
                        for f in range(e + 1, 51):
                            for g in range(f + 1, 52):
                                if k == n:
                                    return out
                                out[k, 0], out[k, 1], out[k, 2], out[k, 3] = a, b, c, d
                                out[k, 4], out[k, 5], out[k, 6] = e, f, g
                                k += 1
    return out[:k]


def best_cpu(fn, reps: int = 5) -> float:
    b = float("inf")
    for _ in range(reps):
        t = time.process_time()
        fn()
        b = min(b, time.process_time() - t)
    return b


def main() -> None:
    n = 10_000_000
    rng = np.random.default_rng(1)
    chunks = [np.argpartition(rng.random((1_000_000, 52)), 7, axis=1)[:, :7] for _ in range(n // 1_000_000)]
    rand = np.concatenate(chunks).astype(np.int8)
    seq = enumeration(n)
    shuffled = seq[rng.permutation(n)]
    out = np.empty(n, np.int16)
    E.rank_batch(rand[:1000], out=out[:1000])  # compile or load, build the tables
    for name, hands in (("random", rand), ("sequential enumeration", seq), ("the same, shuffled", shuffled)):
        t = best_cpu(lambda h=hands: E.rank_batch(h, out=out))
        print(f"{name}: {n / t / 1e6:.1f} M evals/s (CPU)")
    small, o = rand[:100].copy(), np.empty(100, np.int16)

    def calls() -> None:
        for _ in range(100_000):
            E.rank_batch(small, out=o)

    t = best_cpu(calls, 3)
    print(f"100-hand batches: {t / 100_000 * 1e6:.2f} us per call, {1e7 / t / 1e6:.1f} M evals/s (CPU)")


if __name__ == "__main__":
    main()
