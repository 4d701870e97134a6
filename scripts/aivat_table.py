"""AIVAT benchmark table (BENCHMARKS.md) from results folders of ``loki tournament --estimator aivat``.

For the last comparison of each folder: the variance ratio AIVAT / plain, the deals needed for a ±0.01 sb/hand
95 % interval with each estimator ((1.96 · sd / 0.01)², ``sd``/``plain_sd`` per deal from ``summary.json``'s
``aivat`` section), and the estimator's CPU relative to the rest of the tournament's CPU (``run.json``).

    python scripts/aivat_table.py results/fig3-BR-s0 results/fig3-BRS-s0 ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--half-width", type=float, default=0.01, help="interval half-width, sb/hand (0.01)")
    args = ap.parse_args()
    h = args.half_width
    print(
        f"| run | seed | comparison | variance ratio | deals for ±{h:g} sb/hand, plain → AIVAT | fewer deals "
        "| estimator CPU / tournament CPU |"
    )
    print("|---|---:|---|---:|---:|---:|---:|")
    for f in args.folders:
        s = json.loads((f / "summary.json").read_text(encoding="utf-8"))
        r = json.loads((f / "run.json").read_text(encoding="utf-8"))
        if "aivat" not in s or not s["comparisons"]:
            continue
        c, a = s["comparisons"][-1], s["aivat"]["comparisons"][-1]
        dp = (1.96 * a["plain_sd"] / h) ** 2
        da = (1.96 * a["sd"] / h) ** 2
        print(
            f"| {s['name']} | {s['seed']} | {c['name']} | {a['variance_ratio']:.2f} | {dp:,.0f} → {da:,.0f} "
            f"| {dp / da:.1f}× | {100 * r['aivat_cpu_overhead']:.1f} % |"
        )


if __name__ == "__main__":
    main()
