"""Markdown tables of committed `loki tournament` runs, each variant paired with a reference run on the same deals.

    python scripts/paired_table.py experiments/2026-11-25/limits --reference S-default=S- --reference B-default=B-

A run is a folder ``<name>-<seed>`` holding ``summary.json``, ``run.json`` and ``deals-aivat.csv`` or
``deals-aivat.csv.gz`` (the per-deal AIVAT chips the tournament writes with ``--estimator aivat``; committed
compressed).  For each run the table gives its last comparison (fig4: all styles; enhanced minus
control, plain and AIVAT, sb/hand ± 95 %) and, when a reference run of the same seed exists, the difference of the
two comparisons paired by deal on the deals both played (AIVAT), with its 95 % interval; the last rows pool the seeds
(the deals of both seeds together, each deal weighing the same).  Used for docs/EXPERIMENTS.md, whose tables are
regenerated from the committed files with ``--write``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from loki.stats import mean_ci  # noqa: E402
from loki.tournament.config import config_from_dict  # noqa: E402
from loki.tournament.stats import comparison_series  # noqa: E402


def series(folder: Path) -> np.ndarray:
    """The last comparison's per-deal AIVAT series (sb/hand) of a committed run (fig4: all styles)."""
    s = json.loads((folder / "summary.json").read_text())
    cfg = config_from_dict(s["config"], str(folder))
    path = folder / "deals-aivat.csv"
    opener = open if path.exists() else gzip.open
    with opener(path if path.exists() else folder / "deals-aivat.csv.gz", "rt", newline="") as f:
        rows = list(csv.reader(f))[1:]
    chips = [[float(x) for x in r[1:]] for r in rows]
    return comparison_series(cfg, chips)[-1]


def _fmt(m: float, h: float | None) -> str:
    return f"{m:+.3f} ± {h:.3f}" if h is not None and not math.isnan(h) else f"{m:+.3f}"


def table(
    folder: Path,
    references: dict[str, str],
    label_of: dict[str, str] | None = None,
    reference_folder: Path | None = None,
) -> str:
    """The markdown table of every run in ``folder`` (see the module docstring).

    Args:
        folder: holds the run folders ``<name>-<seed>``.
        references: ``{reference name: prefix}``: a run whose name starts with ``prefix`` is paired with the
            reference run of its seed.
        label_of: display names of the runs (default: the comparison's enhanced type).
        reference_folder: where a reference run not in ``folder`` is found (runs of another table).
    """
    runs = sorted(
        p
        for p in folder.iterdir()
        if (p / "summary.json").exists() and ((p / "deals-aivat.csv").exists() or (p / "deals-aivat.csv.gz").exists())
    )
    out = [
        "| run | seed | deals | plain sb/hand | AIVAT sb/hand | paired minus reference (AIVAT) | VPIP | AF | WTSD |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    pooled: dict[str, list[np.ndarray]] = {}
    own: dict[str, list[np.ndarray]] = {}
    for run in runs:
        name, _, seed = run.name.rpartition("-")
        s = json.loads((run / "summary.json").read_text())
        comp, acomp = s["comparisons"][-1], s["aivat"]["comparisons"][-1]
        enh = comp["enhanced"][0]
        t = next(x for x in s["types"] if x["type"] == enh)
        ref = next((r for r, pre in references.items() if name.startswith(pre) and name != r), None)
        paired = ""
        x = series(run)
        own.setdefault(name, []).append(x)
        places = (folder, reference_folder) if ref is not None else ()
        ref_run = next((f / f"{ref}-{seed}" for f in places if f is not None and (f / f"{ref}-{seed}").exists()), None)
        if ref_run is not None:
            a, b = x, series(ref_run)
            k = min(len(a), len(b))
            d = a[:k] - b[:k]
            m, h = mean_ci(d)
            paired = _fmt(m, h)
            pooled.setdefault(name, []).append(d)
        label = (label_of or {}).get(name, enh)
        out.append(
            f"| {label} | {seed} | {s['deals']} | {_fmt(comp['sb_per_hand'], comp['ci'])} | "
            f"{_fmt(acomp['sb_per_hand'], acomp['ci'])} | {paired} | {100 * t['vpip']:.1f} % | {t['af']:.2f} | "
            f"{100 * t['wtsd']:.1f} % |"
        )
    for name, xs in sorted(own.items()):
        if len(xs) > 1:
            m, h = mean_ci(np.concatenate(xs))
            ds = pooled.get(name, [])
            paired = _fmt(*mean_ci(np.concatenate(ds))) if len(ds) > 1 else ""
            label = (label_of or {}).get(name, name)
            out.append(f"| {label} | seeds pooled | {sum(len(x) for x in xs)} |  | {_fmt(m, h)} | {paired} |  |  |  |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--reference", action="append", default=[], help="NAME=PREFIX (repeat)")
    a = ap.parse_args()
    refs = dict(r.split("=", 1) for r in a.reference)
    print(table(a.folder, refs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
