"""CPU per call of an assessment kernel, two source trees alternating, with a check that both compute the same numbers.

``--kernel showdown``: the showdown counts (:func:`loki.assessment.potential.showdown_counts_kernel`) of random hole
cards on random flops and turns.  ``--kernel potential``: the own-hand assessment of a decision with the one-card
look-ahead (:func:`loki.assessment.assess_field`, one range; its HP table is Loki-1's potential of its own hand)
on random hole cards and boards against a random weight table per call (weights ``max(0.01, U(0, 1))`` scaled by 1,
10⁻³ or 7 per holding: floats whose sums round), every call a new hand.  ``--kernel potential-played``: the same
function on the inputs the decisions of ``--deals`` deals of ``--preset`` give it (one block, every deal once per
seating: each child plays it, the two trees play the same games, and records every call's arguments), replayed in
their order after the block with the potential's caches emptied (so they hit as often as in play), per street
(``--flops`` is not used).  Each round runs one fresh process per tree (``PYTHONPATH=<tree>/src``, base first, then
new; the next round in the same order, so a drift of the machine's speed falls on both): once untimed (the numba
cache loaded), then timed in process CPU.  The showdown counts are hashed and must be equal bit for bit; the
potentials' HP tables and HPTotals are compared to a relative 1e-11 (two trees may add the same weights in another
order), and the largest relative difference is printed; the script stops with an error where the trees differ.

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

import numpy as np
from _trees import child_json

_CHILD = r"""
import hashlib, json, sys, time
import numpy as np
import loki.assessment.hand as hand
from loki.assessment import assess_field
from loki.assessment.potential import showdown_counts_kernel
from loki.evaluator import kernel_tables

kernel, n, seed, preset, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
tables = kernel_tables()
rng = np.random.default_rng(seed)
played = {3: [], 4: []}
if kernel == "potential-played":
    import loki.modeler.situation as situation
    from loki.tournament import load_preset, play_block

    def record(hole, board, field, n_opponents, lookahead=1):
        if len(board) < 5 and lookahead == 1:
            played[len(board)].append((tuple(hole), tuple(board), [np.array(t) for t in field], n_opponents))
        return assess_field(hole, board, field, n_opponents, lookahead)

    situation.assess_field = record
    play_block(load_preset(preset).with_overrides(deals=deals, block_deals=deals, histories=False), 0)
for name in ("_potential_tables", "_hp1_counts", "_own_hp1_counts"):  # the potential's caches, where the tree has them: emptied
    if hasattr(hand, name):
        getattr(hand, name).cache_clear()
out = {}
for street, size in (("flop", 3), ("turn", 4)):
    cases = [rng.permutation(52)[: 2 + size] for _ in range(n)]
    if kernel == "potential-played":
        args, run = played[size], assess_field
    elif kernel == "showdown":
        args = [(int(c[0]), int(c[1]), np.array(c[2:], dtype=np.int64), tables) for c in cases]
        run = showdown_counts_kernel
    else:
        args = []
        for c in cases:
            w = np.maximum(0.01, rng.random(1326)) * rng.choice([1.0, 1e-3, 7.0], 1326)
            args.append(((int(c[0]), int(c[1])), tuple(int(x) for x in c[2:]), [w], 1))
        run = assess_field
    if kernel != "potential-played":
        run(*args[0])  # the numba cache loaded, untimed (a played block has loaded it)
    t = time.process_time()
    res = [run(*a) for a in args]
    ms = 1e3 * (time.process_time() - t) / len(args)
    if kernel == "showdown":
        digest = hashlib.sha256()
        for r in res:
            for part in r:
                digest.update(np.asarray(part).tobytes())
        out[street] = {"ms": ms, "digest": digest.hexdigest(), "calls": len(args)}
    else:
        values = [list(np.asarray(a.hp).ravel()) + list(np.asarray(a.hp_total)) for a in res]
        out[street] = {"ms": ms, "values": values, "calls": len(args)}
print(json.dumps(out))
"""


def one(tree: Path, kernel: str, n: int, seed: int, preset: str, deals: int) -> dict[str, dict[str, float | str]]:
    """The child's figures for ``tree``: per street ``{"ms": CPU ms per call, "calls": n}`` and the results: the showdown
    counts' ``"digest"`` (sha256), or the potentials' ``"values"`` (per call HP's nine floats and HPTotal's three)."""
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
    worst = 0.0
    for r in range(a.rounds):
        found = {}
        for name, tree in (("base", a.base), ("new", a.new)):
            res = one(tree, a.kernel, a.flops, a.seed, a.preset, a.deals)
            for street, d in res.items():
                ms.setdefault((name, street), []).append(float(d["ms"]))
                found[(name, street)] = d.get("digest", d.get("values"))
                calls[street] = d.get("calls")
        for street in ("flop", "turn"):
            base, new = found[("base", street)], found[("new", street)]
            if a.kernel == "showdown":
                same = base == new
            else:
                bv, nv = np.asarray(base, dtype=np.float64), np.asarray(new, dtype=np.float64)
                same = bv.shape == nv.shape and bool(np.allclose(nv, bv, rtol=1e-11, atol=0.0))
                if same and bv.size:
                    worst = max(worst, float(np.max(np.abs(nv - bv) / np.maximum(np.abs(bv), np.finfo(float).tiny))))
            if not same:
                raise SystemExit(f"round {r + 1}: the two trees differ on the {street}")
        print(f"round {r + 1}: " + ", ".join(f"{k[0]} {k[1]} {v[-1]:.3f} ms" for k, v in ms.items()), flush=True)
    if a.kernel == "showdown":
        print("the same results in both trees (sha256 of every call's results)")
    else:
        print(f"the same results in both trees to a relative {worst:.1e} at most (HP and HPTotal of every call)")
    for street in ("flop", "turn"):
        b, n = ms[("base", street)], ms[("new", street)]
        print(
            f"{street} ({calls[street]} calls): base min {min(b):.3f} / median {statistics.median(b):.3f} ms, new min {min(n):.3f} / median "
            f"{statistics.median(n):.3f} ms, new/base {statistics.median(b) / statistics.median(n):.2f}x by median"
        )


if __name__ == "__main__":
    main()
