"""Regenerate the tables of docs/EXPERIMENTS.md from the committed results under experiments/.

Each table of the document sits between ``<!-- table: NAME -->`` and ``<!-- end table -->``; this script recomputes
every one it knows from the committed ``summary.json``, ``run.json``, ``deals-aivat.csv.gz``, ``tune.json`` and
``league.json`` files and rewrites the block (``--check``: exit 1 when a block differs; a test runs it).

    python scripts/experiments_tables.py            # rewrite the blocks
    python scripts/experiments_tables.py --check
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
DOC = ROOT / "docs" / "EXPERIMENTS.md"
EXP = ROOT / "experiments" / "2026-11-25"

from paired_table import table as paired  # noqa: E402

LIMIT_LABELS = {
    "B-default": "Loki-2 B (the default generator)",
    "B-oracle": "B, oracle generator (cheat: equity against the true holdings)",
    "S-default": "Loki-2 S (the default Simulator)",
    "S-perfect": "S, perfect model (cheat: each opponent's true holding)",
    "S-mixed": "S, true holding mixed half and half with the table (cheat)",
    "S-nocutoff": "S, no cut-off",
    "S-trials2000": "S, 2,000 trials",
    "S-trials5000": "S, 5,000 trials",
}


def limits() -> str:
    return paired(EXP / "limits", {"S-default": "S-", "B-default": "B-"}, LIMIT_LABELS)


def _fmt(v: float | None, c: float | None) -> str:
    if v is None:
        return ""
    return f"{v:+.3f} ± {c:.3f}" if c is not None else f"{v:+.3f}"


def tuning() -> str:
    rows = [
        "| study | trials (complete / pruned / failed) | best values | search value (optimistic) | validation: tuned | "
        "validation: default | tuned minus default (paired) |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for t in sorted((EXP / "tune").glob("*/tune.json")):
        r = json.loads(t.read_text())
        tr = r["trials"]
        best = ", ".join(f"{k} {v:.3g}" for k, v in r["best"]["params"].items())
        v = r.get("validation", {})
        rows.append(
            f"| {t.parent.name} | {tr.get('complete', 0)} / {tr.get('pruned', 0)} / {tr.get('fail', 0)} | {best} | "
            f"{_fmt(r['best']['search_value'], r['best']['search_ci'])} | "
            f"{_fmt(v.get('tuned', {}).get('value'), v.get('tuned', {}).get('ci'))} | "
            f"{_fmt(v.get('default', {}).get('value'), v.get('default', {}).get('ci'))} | "
            f"{_fmt(v.get('tuned_minus_default', {}).get('value'), v.get('tuned_minus_default', {}).get('ci'))} |"
        )
    return "\n".join(rows)


def runs_table(folder: Path, references: dict[str, str], labels: dict[str, str] | None = None) -> str:
    if not folder.is_dir():
        return "(not run)"
    return paired(folder, references, labels)


def league() -> str:
    f = EXP / "league" / "league.json"
    if not f.exists():
        return "(not run)"
    d = json.loads(f.read_text())
    labels = d["labels"]
    head = "| player | " + " | ".join(labels) + " | mean |"
    rows = [head, "|---|" + "---:|" * (len(labels) + 1)]
    for i, lab in enumerate(labels):
        cells = ["" if i == j else _fmt(d["value"][i][j], d["ci"][i][j]) for j in range(len(labels))]
        rows.append(f"| {lab} | " + " | ".join(cells) + f" | {d['row_mean'][i]:+.3f} |")
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {
    "limits": limits,
    "tuning": tuning,
    "figures": lambda: runs_table(EXP / "figures", {"fig3-B-paper": "fig3-B-tuned"}),
    "adaptive": lambda: runs_table(
        EXP / "adaptive-runs",
        {"fig3-BRS": "fig3-BRS-adaptive", "fig4": "fig4-adaptive"},
    ),
    "mixed": lambda: runs_table(EXP / "mixed", {}),
    "league": league,
}


def main() -> int:
    text = DOC.read_text()
    new = text
    for name, make in TABLES.items():
        pat = re.compile(rf"(<!-- table: {name} -->\n)(.*?)(<!-- end table -->)", re.S)
        if pat.search(new):
            body = make()
            new = pat.sub(lambda m, b=body: m.group(1) + b + "\n" + m.group(3), new)
    if "--check" in sys.argv:
        if new != text:
            print("docs/EXPERIMENTS.md: a table differs from the committed results; run scripts/experiments_tables.py")
            return 1
        return 0
    DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
