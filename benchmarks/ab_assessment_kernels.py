"""CPU per call of an assessment kernel, two source trees alternating, with a check that both compute the same numbers.

``--kernel showdown``: the showdown counts (:func:`loki.assessment.potential.showdown_counts_kernel`) of random hole
cards on random flops and turns; ``--kernel potential``: Loki-1's one-card look-ahead of its own hand
(:func:`loki.assessment.potential.hp1_kernel_ranked`, the board's ranks of three further cards read from
:func:`loki.assessment.potential.triple_ranks`, built untimed) against a random weight table per call (weights
``max(0.01, U(0, 1))`` scaled by 1, 10⁻³ or 7 per holding: floats whose sums round, so that the order of their
additions shows in the hash).  Each round runs one fresh process per tree (``PYTHONPATH=<tree>/src``, base first,
then new; the next round in the same order, so a drift of the machine's speed falls on both): the kernel on
``--flops`` random flops and as many random turns (cards and weights from ``--seed``), once untimed (the numba cache
loaded), then timed in process CPU.  The results of every call are hashed (the counts, or the HP table's and
HPTotal's floats bit for bit); the script stops with an error where the two trees' hashes differ.
``--kernel potential-played``: the same kernel on the inputs Loki-1's decisions give it in ``--deals`` deals of
``--preset`` (one block, every deal once per seating: each child plays it, the two trees play the same games, and
records every call's arguments), timed after the block, per street (``--flops`` is not used).

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_assessment_kernels.py --base /path/to/old/tree --new . --rounds 5
    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_assessment_kernels.py --kernel potential --base <tree> --new .
    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_assessment_kernels.py --kernel potential-played --preset fig3-BR \\
        --deals 60 --base <tree> --new .

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
from loki.assessment.potential import hp1_kernel_ranked, showdown_counts_kernel, triple_ranks
from loki.evaluator import kernel_tables

kernel, n, seed, preset, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
tables = kernel_tables()
rng = np.random.default_rng(seed)
played = {3: [], 4: []}
if kernel == "potential-played":
    import loki.assessment.hand as hand
    from loki.tournament import load_preset, play_block

    def record(*a):
        played[len(a[2])].append((a[0], a[1], a[2].copy(), a[3].copy(), *a[4:]))
        return hp1_kernel_ranked(*a)

    hand.hp1_kernel_ranked = record
    play_block(load_preset(preset).with_overrides(deals=deals, block_deals=deals, histories=False), 0)
out = {}
for street, size in (("flop", 3), ("turn", 4)):
    cases = [rng.permutation(52)[: 2 + size] for _ in range(n)]
    if kernel == "potential-played":
        args, run = played[size], hp1_kernel_ranked
    elif kernel == "showdown":
        args = [(int(c[0]), int(c[1]), np.array(c[2:], dtype=np.int64), tables) for c in cases]
        run = showdown_counts_kernel
    else:
        args = []
        for c in cases:
            board = np.sort(c[2:]).astype(np.int64)
            w = np.maximum(0.01, rng.random(1326)) * rng.choice([1.0, 1e-3, 7.0], 1326)
            args.append((int(c[0]), int(c[1]), board, w, tables, *triple_ranks(tuple(int(x) for x in board))))
        run = hp1_kernel_ranked
    run(*args[0])  # the cache loaded, untimed
    digest = hashlib.sha256()
    t = time.process_time()
    for a in args:
        for part in run(*a):
            digest.update(np.asarray(part).tobytes())
    out[street] = {"ms": 1e3 * (time.process_time() - t) / len(args), "digest": digest.hexdigest(), "calls": len(args)}
print(json.dumps(out))
"""


def one(tree: Path, kernel: str, n: int, seed: int, preset: str, deals: int) -> dict[str, dict[str, float | str]]:
    """The child's figures for ``tree``: per street ``{"ms": CPU ms per call, "digest": sha256 of the results}``."""
    result: dict[str, dict[str, float | str]] = child_json(tree, _CHILD, kernel, n, seed, preset, deals)
    return result


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the reference tree (with src/)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--kernel", choices=("showdown", "potential", "potential-played"), default="showdown")
    ap.add_argument("--preset", default="fig3-BR", help="potential-played: the preset whose deals are played")
    ap.add_argument("--deals", type=int, default=60, help="potential-played: deals played (one block)")
    ap.add_argument("--flops", type=int, default=200, help="random flops (and as many turns) per round")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args(argv)
    if a.flops < 1 or a.rounds < 1:
        raise SystemExit("--flops and --rounds must be at least 1")
    ms: dict[tuple[str, str], list[float]] = {}
    calls: dict[str, object] = {}
    for r in range(a.rounds):
        digests = {}
        for name, tree in (("base", a.base), ("new", a.new)):
            res = one(tree, a.kernel, a.flops, a.seed, a.preset, a.deals)
            for street, d in res.items():
                ms.setdefault((name, street), []).append(float(d["ms"]))
                digests[(name, street)] = d["digest"]
                calls[street] = d.get("calls")
        for street in ("flop", "turn"):
            if digests[("base", street)] != digests[("new", street)]:
                raise SystemExit(f"round {r + 1}: the two trees differ on the {street}")
        print(f"round {r + 1}: " + ", ".join(f"{k[0]} {k[1]} {v[-1]:.3f} ms" for k, v in ms.items()), flush=True)
    print("the same results in both trees (sha256 of every call's results)")
    for street in ("flop", "turn"):
        b, n = ms[("base", street)], ms[("new", street)]
        print(
            f"{street} ({calls[street]} calls): base min {min(b):.3f} / median {statistics.median(b):.3f} ms, new min {min(n):.3f} / median "
            f"{statistics.median(n):.3f} ms, new/base {statistics.median(b) / statistics.median(n):.2f}x by median"
        )


if __name__ == "__main__":
    main()
