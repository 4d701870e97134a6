"""Markdown tables of committed `loki tournament` runs, each variant paired with a reference run on the same deals.

    python scripts/paired_table.py experiments/limits-of-B-and-S/runs --reference S-default=S- --reference B-default=B-

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
import tomllib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from loki.stats import mean_ci  # noqa: E402
from loki.tournament.config import config_from_dict  # noqa: E402
from loki.tournament.stats import _groups, comparison_series, per_deal_sb  # noqa: E402

MOVED: dict[str, str] = tomllib.loads((ROOT / "experiments" / "moved.toml").read_text())["moved"]


def relocated(path: str) -> str:
    """``path`` (a player file a committed record names, relative to the repository) where it is now: a path under a
    dated folder of experiments/ mapped through experiments/moved.toml (the longest old prefix), else unchanged."""
    for old in sorted(MOVED, key=len, reverse=True):
        if path == old or path.startswith(old + "/"):
            return MOVED[old] + path[len(old) :]
    return path


def _chips(folder: Path) -> tuple[dict, list[list[float]]]:
    """A committed run's summary (its player files relocated) and its per-deal AIVAT chips ``(D, n)``
    (``deals-aivat.csv`` or ``.csv.gz``)."""
    s = json.loads((folder / "summary.json").read_text())
    for p in s["config"].get("players", []):
        if isinstance(p.get("type"), str) and p["type"].startswith("experiments/"):
            p["type"] = str(ROOT / relocated(p["type"]))
    path = folder / "deals-aivat.csv"
    opener = open if path.exists() else gzip.open
    with opener(path if path.exists() else folder / "deals-aivat.csv.gz", "rt", newline="") as f:
        rows = list(csv.reader(f))[1:]
    return s, [[float(x) for x in r[1:]] for r in rows]


def series(folder: Path) -> np.ndarray:
    """The last comparison's per-deal AIVAT series (sb/hand) of a committed run (fig4: all styles)."""
    s, chips = _chips(folder)
    return comparison_series(config_from_dict(s["config"], str(folder)), chips)[-1]


def own_series(folder: Path) -> np.ndarray:
    """``(deals,) float64``: the per-deal AIVAT sb/hand of the last comparison's enhanced side, its own winnings (the
    mean of its types, each the mean of its players): the measure AAAI-99 reports for Figure 3 ("B won +0.025
    sb/hand").  In an 8 + 2 field that sums to zero the comparison (enhanced minus control) is exactly 1.25 times it."""
    s, chips = _chips(folder)
    cfg = config_from_dict(s["config"], str(folder))
    x = per_deal_sb(chips, cfg.n_players, cfg.game_config().small_bet)
    types = dict(zip(cfg.labels, _groups(cfg, x)[1], strict=True))
    return np.mean([types[t] for t in s["comparisons"][-1]["enhanced"]], axis=0)


def _fmt(m: float, h: float | None) -> str:
    return f"{m:+.3f} ± {h:.3f}" if h is not None and not math.isnan(h) else f"{m:+.3f}"


def table(
    folder: Path | Sequence[Path],
    references: dict[str, str],
    label_of: dict[str, str] | None = None,
    reference_folder: Path | Sequence[Path] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The markdown table of every run in ``folder`` (see the module docstring).

    Args:
        folder: holds the run folders ``<name>-<seed>`` (or several folders, read in order).
        references: ``{reference name: prefix}``: a run whose name starts with ``prefix`` is paired with the
            reference run of its seed.
        label_of: display names of the runs (default: the comparison's enhanced type).
        reference_folder: where a reference run not in ``folder`` is found (runs of another table; one or several).
        names: only the runs of these names (without the seed), when given.
    """
    folders = [folder] if isinstance(folder, Path) else list(folder)
    refs = (
        []
        if reference_folder is None
        else [reference_folder]
        if isinstance(reference_folder, Path)
        else list(reference_folder)
    )
    runs = sorted(
        (
            p
            for f in folders
            for p in f.iterdir()
            if (p / "summary.json").exists()
            and ((p / "deals-aivat.csv").exists() or (p / "deals-aivat.csv.gz").exists())
            and (names is None or p.name.rpartition("-")[0] in names)
        ),
        key=lambda p: p.name,
    )
    out = [
        "| run | seed | deals | enhanced minus control, plain | enhanced minus control, AIVAT | enhanced's own sb/hand, "
        "AIVAT (the paper's Figure 3 measure) | paired minus reference (AIVAT, enhanced minus control) | VPIP | AF | "
        "WTSD |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    pooled: dict[str, list[np.ndarray]] = {}
    own: dict[str, list[np.ndarray]] = {}
    mine: dict[str, list[np.ndarray]] = {}
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
        y = own_series(run)
        mine.setdefault(name, []).append(y)
        places = [*folders, *refs] if ref is not None else []
        ref_run = next((f / f"{ref}-{seed}" for f in places if (f / f"{ref}-{seed}").exists()), None)
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
            f"{_fmt(acomp['sb_per_hand'], acomp['ci'])} | {_fmt(*mean_ci(y))} | {paired} | {100 * t['vpip']:.1f} % | "
            f"{t['af']:.2f} | {100 * t['wtsd']:.1f} % |"
        )
    for name, xs in sorted(own.items()):
        if len(xs) > 1:
            m, h = mean_ci(np.concatenate(xs))
            ds = pooled.get(name, [])
            paired = _fmt(*mean_ci(np.concatenate(ds))) if len(ds) > 1 else ""
            label = (label_of or {}).get(name, name)
            mo = _fmt(*mean_ci(np.concatenate(mine[name])))
            out.append(
                f"| {label} | seeds pooled | {sum(len(x) for x in xs)} |  | {_fmt(m, h)} | {mo} | {paired} |  |  |  |"
            )
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
