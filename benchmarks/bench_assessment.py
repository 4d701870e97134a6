"""Benchmarks of the Hand Evaluator box: HS, all-holdings HS, PPot2, all-holdings PPot1.

Run on one core, after the numba cache is warm::

    export NUMBA_CACHE_DIR=/work/main/.numba_cache
    taskset -c 1 /work/venv/bin/python benchmarks/bench_assessment.py

It prints the median (and min / 90th percentile) wall time per call of each kernel and of
the validating Python wrappers.  Every function is called once before timing (JIT load /
compile excluded).  The range is a fixed random re-weighted table (every weight in
[0.01, 1], none zero, so no holding is skipped: the worst case).

The same cases run under pytest-benchmark with
``pytest benchmarks/bench_assessment.py --benchmark-only``.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from loki.assessment import assess, ehs_prime_all, hand_strength, hand_strength_all
from loki.assessment.potential import hp1_all_kernel, hp1_kernel, hp2_kernel, triple_ranks
from loki.assessment.strength import dead_array, hs_all_counts_kernel, hs_counts_kernel
from loki.cards import parse_cards
from loki.evaluator import kernel_tables

RNG = np.random.default_rng(2026)
W = np.maximum(0.01, RNG.random(1326))
HOLE = parse_cards("AdQc")
FLOP = np.array(parse_cards("3h4cJh"), dtype=np.int64)
TURN = np.array(parse_cards("3h4cJh9s"), dtype=np.int64)
RIVER = np.array(parse_cards("3h4cJh9s2d"), dtype=np.int64)
C0, C1 = HOLE
T = kernel_tables()  # the evaluator tables, every ranking kernel's last argument


def _dead(board):
    return dead_array(list(board))


_DEAD_FLOP, _DEAD_TURN, _DEAD_RIVER = _dead(FLOP), _dead(TURN), _dead(RIVER)

CASES = {
    # name: (callable, target in ms or None)
    "HS one holding, flop (kernel)": (lambda: hs_counts_kernel(C0, C1, FLOP, W, T), 0.05),
    "HS one holding, flop (hand_strength wrapper)": (lambda: hand_strength(HOLE, FLOP, W), None),
    "HS all holdings, river (kernel)": (lambda: hs_all_counts_kernel(RIVER, _DEAD_RIVER, W, T), 0.1),
    "HS all holdings, river (hand_strength_all wrapper)": (lambda: hand_strength_all(RIVER, W), None),
    "HS all holdings, flop (kernel)": (lambda: hs_all_counts_kernel(FLOP, _DEAD_FLOP, W, T), None),
    "PPot1/NPot1 one holding, flop (kernel, 48,645 cases)": (lambda: hp1_kernel(C0, C1, FLOP, W, T), None),
    "PPot1/NPot1 one holding, turn (kernel, 45,540 cases)": (lambda: hp1_kernel(C0, C1, TURN, W, T), None),
    "PPot2/NPot2 one holding, flop (kernel, 1,070,190 cases)": (lambda: hp2_kernel(C0, C1, FLOP, W, T), 15.0),
    "PPot1 all holdings, flop (kernel)": (
        lambda: hp1_all_kernel(FLOP, _DEAD_FLOP, W, T, *triple_ranks(tuple(sorted(FLOP.tolist())))),
        5.0,
    ),
    "PPot1 all holdings, turn (kernel)": (
        lambda: hp1_all_kernel(TURN, _DEAD_TURN, W, T, *triple_ranks(tuple(sorted(TURN.tolist())))),
        None,
    ),
    "EHS' all holdings, flop (ehs_prime_all wrapper)": (lambda: ehs_prime_all(FLOP, W), None),
    "assess(), flop, lookahead=1": (lambda: assess(HOLE, FLOP, W), None),
    "assess(), flop, lookahead=2": (lambda: assess(HOLE, FLOP, W, lookahead=2), None),
    "assess(), turn": (lambda: assess(HOLE, TURN, W), None),
}


def measure(fn, min_time: float = 1.0, min_reps: int = 20) -> list[float]:
    """Per-call wall times in seconds: batches sized to ~10 ms, run for at least ``min_time`` s."""
    fn()  # warm-up: JIT load/compile excluded
    t0 = time.perf_counter()
    fn()
    one = max(time.perf_counter() - t0, 1e-7)
    batch = max(1, int(0.01 / one))
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_reps or time.perf_counter() - start < min_time:
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - t0) / batch)
    return times


def main() -> int:
    print(f"{'case':58s} {'median ms':>10s} {'min ms':>9s} {'p90 ms':>9s}  target")
    ok = True
    for name, (fn, target) in CASES.items():
        t = sorted(measure(fn))
        med = statistics.median(t) * 1e3
        p90 = t[int(0.9 * (len(t) - 1))] * 1e3
        mark = ""
        if target is not None:
            met = med <= target
            ok &= met
            mark = f"<= {target:g} ms {'met' if met else 'MISSED'}"
        print(f"{name:58s} {med:10.4f} {t[0] * 1e3:9.4f} {p90:9.4f}  {mark}")
    return 0 if ok else 1


# pytest-benchmark entry points -------------------------------------------------------------
def _bench(benchmark, name):
    fn = CASES[name][0]
    fn()
    benchmark(fn)


def test_bench_hs_one_flop(benchmark):
    _bench(benchmark, "HS one holding, flop (kernel)")


def test_bench_hs_all_river(benchmark):
    _bench(benchmark, "HS all holdings, river (kernel)")


def test_bench_ppot2_one_flop(benchmark):
    _bench(benchmark, "PPot2/NPot2 one holding, flop (kernel, 1,070,190 cases)")


def test_bench_ppot1_all_flop(benchmark):
    _bench(benchmark, "PPot1 all holdings, flop (kernel)")


if __name__ == "__main__":
    sys.exit(main())
