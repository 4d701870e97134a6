"""Print markdown tables of finished `loki tournament` results folders (for docs/EXPERIMENTS.md).

python scripts/experiments_table.py results/fig3-BR-0 results/fig4-0 ...

A folder of a run with `--estimator aivat` also gets the AIVAT estimate next to the plain one (sb/hand, its
95 % interval, the variance ratio AIVAT / plain and the deals each estimator needs for ±0.01 sb/hand).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def table(folder: Path) -> str:
    s = json.loads((folder / "summary.json").read_text())
    run = json.loads((folder / "run.json").read_text()) if (folder / "run.json").exists() else {}
    out = [
        f"**{s['name']}** — {s['deals']} deals × {s['n_players']} seatings = {s['hands']} games, seed {s['seed']}"
        + (f"; {run['seconds']:.0f} s wall ({run['hands_per_second']:.0f} games/s)" if run else "")
    ]
    out.append("")
    out.append("| player type | n | sb/hand | ±95% | VPIP | PFR | AF | WTSD | W$SD |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for t in s["types"]:
        out.append(
            f"| {t['type']} | {t['players']} | {t['sb_per_hand']:+.3f} | {t['ci']:.3f} | {100 * t['vpip']:.1f}% | "
            f"{100 * t['pfr']:.1f}% | {t['af']:.2f} | {100 * t['wtsd']:.1f}% | {100 * t['wsd']:.1f}% |"
        )
    av = s.get("aivat")
    out.append("")
    if av is None:
        out.append("| comparison (paired by deal) | sb/hand | ±95% |")
        out.append("|---|---:|---:|")
        for c in s["comparisons"]:
            out.append(f"| {c['name']} | {c['sb_per_hand']:+.3f} | {c['ci']:.3f} |")
        return "\n".join(out)
    out.append(
        "| type or comparison | plain sb/hand | ±95% | AIVAT sb/hand | ±95% | variance ratio | "
        "deals for ±0.01 (plain / AIVAT) |"
    )
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for p, a in zip(s["types"] + s["comparisons"], av["types"] + av["comparisons"]):
        name = p.get("type") or p.get("name")
        need = [deals_for(x, 0.01) for x in (a["plain_sd"], a["sd"])]
        out.append(
            f"| {name} | {p['sb_per_hand']:+.3f} | {p['ci']:.3f} | {a['sb_per_hand']:+.3f} | {a['ci']:.3f} | "
            f"{a['variance_ratio']:.3f} | {need[0]:,} / {need[1]:,} |"
        )
    return "\n".join(out)


def deals_for(sd: float, half_width: float, z: float = 1.96) -> int:
    """Deals for a 95 % interval of ``± half_width`` sb/hand at per-deal standard deviation ``sd``."""
    import math

    return math.ceil((z * sd / half_width) ** 2)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(table(Path(arg)))
        print()
