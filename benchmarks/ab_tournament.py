"""A/B of a preset's tournament CPU per game between two source trees, alternating in one run.

Each round runs a fresh interpreter per tree (``PYTHONPATH=<tree>/src``), base first then new: it plays one
warm-up deal (numba kernels loaded from the cache, tables built), then ``--deals`` deals of the preset as one
block (:func:`loki.tournament.play_block`, every deal replayed once per seating) and reports the block's process
CPU time, games (hands) per CPU second and a digest of the block's chip results, so that the two trees are seen to
play the same.  With ``--histories`` the block also writes its hand histories (the runner's PHH text)::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_tournament.py --base /path/to/old/tree --new . \\
        --preset fig3-BR --deals 100 --rounds 3

``--new-preset`` (a preset or a TOML file) gives the new side another configuration: with ``--base`` and ``--new``
the same tree, it times two configurations of one tree (their digests then differ, as their games do)::

    python benchmarks/ab_tournament.py --base . --new . --preset fig3-BRS \\
        --new-preset experiments/simulator-cost/runs/fig3-BRS-BRS3-T100.toml --seed 0 --deals 60 --rounds 5

The ratio is base / new CPU per round (both trees see the same mix of machine load); the figure that counts
is games per second per core, i.e. per CPU second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import hashlib, json, sys, time
from loki.tournament import load_preset, play_block
from loki.tournament.config import load_config
preset, deals, hist, est, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4], sys.argv[5]
cfg = (load_config(preset) if preset.endswith(".toml") else load_preset(preset)).with_overrides(deals=deals, histories=hist, block_deals=deals, estimator=est)
if seed != "-":
    cfg = cfg.with_overrides(seed=int(seed))
play_block(cfg.with_overrides(deals=1, block_deals=1), 0)
t = time.process_time()
res = play_block(cfg, 0)
cpu = time.process_time() - t
digest = hashlib.sha1(json.dumps([res["chips"], res["counters"]]).encode()).hexdigest()[:12]
est_cpu = res["aivat"]["seconds"] if "aivat" in res else 0.0
print(json.dumps({"cpu": cpu, "games": res["hands"], "games_per_cpu_s": res["hands"] / cpu, "digest": digest,
                  "estimator_cpu": est_cpu}))
"""


def run(
    tree: Path, preset: str, deals: int, histories: bool, estimator: str = "plain", seed: int | None = None
) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            _CHILD,
            preset,
            str(deals),
            "1" if histories else "0",
            estimator,
            "-" if seed is None else str(seed),
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="source tree of the baseline (has src/loki)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="source tree to test")
    ap.add_argument("--preset", default="fig3-BR", help="a preset's name or a tournament TOML file")
    ap.add_argument(
        "--new-preset",
        default=None,
        help="the new side's preset or TOML file (default: --preset); with --base and --new the same tree, this times "
        "two configurations of one tree (their results then differ)",
    )
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=None, help="the deals' seed for both sides (default: each config's)")
    ap.add_argument("--histories", action="store_true", help="write the hand histories too")
    ap.add_argument("--estimator", default="plain", help="plain or aivat (each tree's own AIVAT estimator)")
    a = ap.parse_args(argv)
    if a.new_preset and a.seed is None:
        print("note: without --seed each side plays its own config's seed (other deals)", file=sys.stderr)
    rows: dict[str, list[dict]] = {"base": [], "new": []}
    for r in range(a.rounds):
        for name, tree in (("base", a.base), ("new", a.new)):
            preset = a.new_preset if name == "new" and a.new_preset else a.preset
            rows[name].append(run(tree, preset, a.deals, a.histories, a.estimator, a.seed))
            print(f"round {r + 1} {name}: {json.dumps(rows[name][-1])}", flush=True)
    b = [x["games_per_cpu_s"] for x in rows["base"]]
    n = [x["games_per_cpu_s"] for x in rows["new"]]
    ratios = [y / x for x, y in zip(b, n)]
    same = {x["digest"] for x in rows["base"] + rows["new"]}
    cpu_b = [x["cpu"] for x in rows["base"]]
    cpu_n = [x["cpu"] for x in rows["new"]]
    g_b, g_n = rows["base"][0]["games"], rows["new"][0]["games"]  # differ when --new-preset seats another table size
    print(
        f"{a.preset}{' against ' + a.new_preset if a.new_preset else ''}, {a.deals} deals, histories {'on' if a.histories else 'off'}, estimator {a.estimator}: "
        f"games per CPU second base min-CPU {g_b / min(cpu_b):.1f} / median {g_b / statistics.median(cpu_b):.1f}, "
        f"new min-CPU {g_n / min(cpu_n):.1f} / median {g_n / statistics.median(cpu_n):.1f} ({a.rounds} rounds); "
        f"new/base by min CPU {g_n / min(cpu_n) / (g_b / min(cpu_b)):.2f}x, "
        f"by median {g_n / statistics.median(cpu_n) / (g_b / statistics.median(cpu_b)):.2f}x "
        f"(per round: {', '.join(f'{x:.2f}' for x in ratios)}); results {'identical' if len(same) == 1 else 'DIFFER'}"
    )
    if a.estimator != "plain":
        for name in ("base", "new"):
            share = [x["estimator_cpu"] / x["cpu"] for x in rows[name]]
            print(f"  {name}: estimator CPU share median {statistics.median(share):.1%}")


if __name__ == "__main__":
    main()
