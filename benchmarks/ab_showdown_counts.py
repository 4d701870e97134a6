"""CPU per call of the showdown counts (:func:`loki.assessment.potential.showdown_counts_kernel`), two source trees
alternating, with a check that both count the same integers.

Each round runs one fresh process per tree (``PYTHONPATH=<tree>/src``, base first, then new; the next round in the
same order, so a drift of the machine's speed falls on both): the kernel on ``--flops`` random flops and as many
random turns (hole cards and board from ``--seed``), once untimed (the numba cache loaded), then timed in process CPU.
The counts of every call are hashed; the script stops with an error where the two trees' hashes differ.

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_showdown_counts.py --base /path/to/old/tree --new . --rounds 5

Prints per tree and street the milliseconds per call of every round, their min and median, and new ÷ base (base time
over new time: above 1 is faster) by median.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from _trees import child_json

_CHILD = r"""
import hashlib, json, sys, time
import numpy as np
from loki.assessment.potential import showdown_counts_kernel
from loki.evaluator import kernel_tables

n, seed = int(sys.argv[1]), int(sys.argv[2])
tables = kernel_tables()
rng = np.random.default_rng(seed)
out = {}
for street, size in (("flop", 3), ("turn", 4)):
    cases = [rng.permutation(52)[: 2 + size] for _ in range(n)]
    args = [(int(c[0]), int(c[1]), np.array(c[2:], dtype=np.int64)) for c in cases]
    showdown_counts_kernel(*args[0], tables)  # the cache loaded, untimed
    digest = hashlib.sha256()
    t = time.process_time()
    for a in args:
        counts, k = showdown_counts_kernel(*a, tables)
        digest.update(counts.tobytes())
        digest.update(int(k).to_bytes(8, "little"))
    out[street] = {"ms": 1e3 * (time.process_time() - t) / n, "digest": digest.hexdigest()}
print(json.dumps(out))
"""


def one(tree: Path, n: int, seed: int) -> dict[str, dict[str, float | str]]:
    """The child's figures for ``tree``: per street ``{"ms": CPU ms per call, "digest": sha256 of the counts}``."""
    result: dict[str, dict[str, float | str]] = child_json(tree, _CHILD, n, seed)
    return result


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the reference tree (with src/)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--flops", type=int, default=200, help="random flops (and as many turns) per round")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args(argv)
    if a.flops < 1 or a.rounds < 1:
        raise SystemExit("--flops and --rounds must be at least 1")
    ms: dict[tuple[str, str], list[float]] = {}
    for r in range(a.rounds):
        digests = {}
        for name, tree in (("base", a.base), ("new", a.new)):
            res = one(tree, a.flops, a.seed)
            for street, d in res.items():
                ms.setdefault((name, street), []).append(float(d["ms"]))
                digests[(name, street)] = d["digest"]
        for street in ("flop", "turn"):
            if digests[("base", street)] != digests[("new", street)]:
                raise SystemExit(f"round {r + 1}: the two trees count differently on the {street}")
        print(f"round {r + 1}: " + ", ".join(f"{k[0]} {k[1]} {v[-1]:.3f} ms" for k, v in ms.items()), flush=True)
    print("the same counts in both trees (sha256 of every call's counts)")
    for street in ("flop", "turn"):
        b, n = ms[("base", street)], ms[("new", street)]
        print(
            f"{street}: base min {min(b):.3f} / median {statistics.median(b):.3f} ms, new min {min(n):.3f} / median "
            f"{statistics.median(n):.3f} ms, new/base {statistics.median(b) / statistics.median(n):.2f}x by median"
        )


if __name__ == "__main__":
    main()
