"""Figure 3 / Figure 4 tables over several seeds, by both estimators (docs/EXPERIMENTS.md).

Each argument is a results folder of ``loki tournament ... --estimator aivat`` (``summary.json``, ``deals.csv``,
``deals-aivat.csv``).  For every comparison of the summary, one row per folder (its seed) and, for a preset given
with several seeds, a pooled row: the per-deal differences of all the folders together (the deal stays the unit of
sampling; seeds are independent deals), plain and AIVAT, each with its 95 % Student-t interval.  A bold value's
interval excludes zero.

    python scripts/figure_table.py results/fig3-B-s0 results/fig3-B-s1 results/fig3-R-s0 ... [--types]

``--types`` adds the control and enhanced types' own sb/hand (the paper's bars) and the enhanced type's model
quality, for comparisons of one type against one type.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

from loki.stats import mean_ci


def _per_deal(folder: Path, summary: dict, fname: str) -> dict[str, np.ndarray]:
    """Per player type, the per-deal sb/hand (mean over the type's players) from ``fname``."""
    n = summary["n_players"]
    sb = (summary.get("config") or {}).get("game", {}).get("small_bet", 10)
    names = {p["name"]: p["type"] for p in summary["players"]}
    with open(folder / fname, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out: dict[str, list[list[float]]] = defaultdict(list)
    for t in {p["type"] for p in summary["players"]}:
        cols = [nm for nm, ty in names.items() if ty == t]
        out[t] = [[float(r[c]) for c in cols] for r in rows]
    return {t: np.asarray(v).mean(axis=1) / (n * sb) for t, v in out.items()}


def _fmt(m: float, h: float) -> str:
    s = f"{m:+.3f} ± {h:.3f}"
    return f"**{s}**" if abs(m) > h else s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--types", action="store_true", help="also the enhanced types' own sb/hand and model quality")
    args = ap.parse_args()
    pooled: dict[str, dict[str, list[np.ndarray]]] = defaultdict(lambda: defaultdict(list))
    order: list[str] = []
    print(
        "| run | seed | comparison | plain sb/hand | AIVAT sb/hand | variance ratio |"
        + (
            " control type sb/hand | enhanced type sb/hand | its median showdown pct. / log-lik. / collapse % |"
            if args.types
            else ""
        )
    )
    print("|---|---:|---|---:|---:|---:|" + ("---:|---:|---|" if args.types else ""))
    for folder in args.folders:
        s = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        plain = _per_deal(folder, s, "deals.csv")
        aiv = _per_deal(folder, s, "deals-aivat.csv") if (folder / "deals-aivat.csv").exists() else None
        mq = {q["type"]: q for q in s.get("model_quality", [])}
        types = {t["type"]: t for t in s["types"]}
        for c in s["comparisons"]:
            d = np.mean([plain[t] for t in c["enhanced"]], axis=0) - np.mean([plain[t] for t in c["control"]], axis=0)
            m, h = mean_ci(d)
            cells = [s["name"], str(s["seed"]), c["name"], _fmt(m, h)]
            key = f"{s['name']}|{c['name']}"
            if key not in order:
                order.append(key)
            pooled[key]["plain"].append(d)
            if aiv is not None:
                da = np.mean([aiv[t] for t in c["enhanced"]], axis=0) - np.mean([aiv[t] for t in c["control"]], axis=0)
                ma, ha = mean_ci(da)
                vr = float(da.var(ddof=1) / d.var(ddof=1))
                cells += [_fmt(ma, ha), f"{vr:.2f}"]
                pooled[key]["aivat"].append(da)
            else:
                cells += ["-", "-"]
            if args.types and (len(c["enhanced"]) > 1 or len(c["control"]) > 1):
                cells += ["(several)", "(several)", "-"]
            elif args.types:
                e = c["enhanced"][0]
                t, tc = types[e], types[c["control"][0]]
                q = mq.get(e)
                qs = "-"
                if q and q["median_percentile"] is not None:
                    cr = q["collapse_rate"]
                    qs = f"{q['median_percentile']:.1f} / {q['loglik_per_action']:.2f} / " + (
                        "-" if cr is None else f"{100 * cr:.2f}"
                    )
                cells += [_fmt(tc["sb_per_hand"], tc["ci"]), _fmt(t["sb_per_hand"], t["ci"]), qs]
            print("| " + " | ".join(cells) + " |")
    for key in order:
        p = pooled[key]
        if len(p["plain"]) < 2:
            continue
        d = np.concatenate(p["plain"])
        m, h = mean_ci(d)
        cells = [key.split("|")[0], "pooled", key.split("|")[1], _fmt(m, h)]
        if len(p["aivat"]) == len(p["plain"]):
            da = np.concatenate(p["aivat"])
            ma, ha = mean_ci(da)
            cells += [_fmt(ma, ha), f"{float(da.var(ddof=1) / d.var(ddof=1)):.2f}"]
        else:
            cells += ["-", "-"]
        if args.types:
            cells += ["", "", ""]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
