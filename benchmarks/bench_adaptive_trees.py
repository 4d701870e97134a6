"""The CPU per decision of specs in several trees, measured back to back: :func:`bench_adaptive.measure`
(fig3-BRS's table, 8 × Loki-1 and 2 × the spec; 20 deals of seed 7 after 3 untimed deals of seed 8) for each
``TREE:NUMBA_CACHE:SPEC`` in turn, each in a fresh process with ``PYTHONPATH=TREE/src``, round after round; prints
every measurement, then each run's ratio to the first round by round (the two ran within a minute of each other, so
under about the same load of a shared machine) with their median, and the min-of-rounds ratio.  Compares a spec with
the paper's B+R+S of the same tree, and either with an earlier commit's (a ``git worktree`` with its own numba cache)::

    python benchmarks/bench_adaptive_trees.py --rounds 5 .:.numba_cache:loki2:BRS .:.numba_cache:loki2:BRS:adaptive \\
        /tmp/base:/tmp/base_numba:loki2:BRS
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CODE = "import bench_adaptive as b\na, o, n = b.measure({spec!r}, {deals}, {seed}, {warmup})\nprint(a, o, n)"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="TREE:NUMBA_CACHE:SPEC (the first is the reference)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=3)
    a = ap.parse_args(argv)
    runs = []
    for r in a.runs:
        parts = r.split(":", 2)
        if len(parts) != 3 or not Path(parts[0], "src", "loki").is_dir():
            ap.error(f"{r!r}: expected TREE:NUMBA_CACHE:SPEC with a loki tree at TREE")
        runs.append((str(Path(parts[0]).resolve()), parts[1], parts[2]))
    per: list[list[float]] = [[] for _ in runs]
    for k in range(a.rounds):
        for i, (tree, cache, spec) in enumerate(runs):
            env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=f"{tree}/src{os.pathsep}{HERE}")
            code = CODE.format(spec=spec, deals=a.deals, seed=a.seed, warmup=a.warmup)
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, check=True
            ).stdout.split()
            act, obs, n = float(out[0]), float(out[1]), int(out[2])
            per[i].append((act + obs) / n)
            print(f"round {k} {spec} @ {tree}: act {act:.3f} s, observe {obs:.3f} s, {n} decisions, "
                  f"{1e3 * per[i][-1]:.3f} ms CPU per decision", flush=True)  # fmt: skip
    for i in range(1, len(runs)):
        ratios = sorted(x / y for x, y in zip(per[i], per[0], strict=True))
        print(
            f"{runs[i][2]} @ {runs[i][0]} / {runs[0][2]} @ {runs[0][0]}: round by round "
            f"{', '.join(f'{x:.2f}' for x in ratios)}, median {statistics.median(ratios):.2f}x; "
            f"min of rounds {min(per[i]) / min(per[0]):.2f}x"
        )
    for (tree, _, spec), v in zip(runs, per, strict=True):
        print(f"{spec} @ {tree}: ms CPU per decision min {1e3 * min(v):.3f}, median {1e3 * statistics.median(v):.3f}")


if __name__ == "__main__":
    main()
