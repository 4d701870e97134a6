"""Print markdown tables of finished `loki tournament` results folders (for docs/EXPERIMENTS.md).

python scripts/experiments_table.py results/fig3-BR-0 results/fig4-0 ...
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
    out.append("")
    out.append("| comparison (paired by deal) | sb/hand | ±95% |")
    out.append("|---|---:|---:|")
    for c in s["comparisons"]:
        out.append(f"| {c['name']} | {c['sb_per_hand']:+.3f} | {c['ci']:.3f} |")
    return "\n".join(out)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(table(Path(arg)))
        print()
