"""A/B of whole ``loki tournament`` processes between two source trees: CPU per game and peak memory, alternating.

Each round runs the same ``loki tournament`` command once per tree (``PYTHONPATH=<tree>/src``), base first then new,
each in a fresh process, and reads the resource usage of its whole process tree when it ends
(:func:`_trees.run_whole`: user + system CPU of the process and of every worker process, the pool's workers included,
which end after it and are waited for here as orphans; and the peak resident set size of the largest of them), so the
figures are those of the whole run: start-up, kernel loading, the blocks, the results, in every process.  Games per
CPU second is the tournament's games (deals x seatings) over that CPU; the summaries of the two trees are compared
byte for byte (the same play)::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_process.py --base /path/to/old/tree --new . \\
        --preset fig3-BRS --deals 200 --rounds 3

``--preset`` takes a preset's name or a tournament TOML file; ``--workers`` is passed on (default 1: one process).
With more, every worker's start-up and play are in the figure (the workers outlive the tournament process by a moment
and are counted as they end; where this process cannot become their reaper, Linux's ``PR_SET_CHILD_SUBREAPER``, a
note says the figure is the tournament process's alone).
The ratio is new / base games per CPU second by the minimum and by the median CPU of the rounds; peak memory in MB
(2^20 bytes), min / median / max of the rounds.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from _trees import LOKI_CLI, become_subreaper, run_whole


def run(tree: Path, preset: str, deals: int, workers: int, out: Path, histories: bool) -> dict:
    """One ``loki tournament`` process of ``tree``: ``{"cpu": s, "rss_mb": MB, "games": n}``."""
    src = ["--config", preset] if preset.endswith(".toml") else ["--preset", preset]
    args = [
        sys.executable, "-c", LOKI_CLI, "tournament", *src, "--deals", str(deals), "--workers", str(workers),
        "--no-plots", "--quiet", "--overwrite", "--out", str(out), "--histories" if histories else "--no-histories",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    res = run_whole(args, env)
    if res.returncode != 0:
        raise SystemExit(f"{tree}: loki tournament failed ({res.returncode}):\n{res.stderr[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    return {"cpu": res.cpu, "rss_mb": res.peak_rss_mb, "games": int(summary["hands"]), "orphans": res.processes}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="source tree of the baseline (has src/loki)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="source tree to test")
    ap.add_argument("--preset", default="fig3-BRS", help="a preset's name or a tournament TOML file")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--histories", action="store_true", help="write the hand histories (the presets' default)")
    a = ap.parse_args(argv)
    if a.workers != 1 and not become_subreaper():
        print("note: the workers' CPU is not in the figures here (no PR_SET_CHILD_SUBREAPER)", file=sys.stderr)
    rows: dict[str, list[dict]] = {"base": [], "new": []}
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            outs = {}
            for name, tree in (("base", a.base), ("new", a.new)):
                outs[name] = Path(tmp) / f"{name}{r}"
                rows[name].append(run(tree, a.preset, a.deals, a.workers, outs[name], a.histories))
                print(f"round {r + 1} {name}: {json.dumps(rows[name][-1])}", flush=True)
            for f in ("summary.json", "deals.csv"):
                if (outs["base"] / f).exists() and not filecmp.cmp(outs["base"] / f, outs["new"] / f, shallow=False):
                    same = False
    games = rows["base"][0]["games"]
    cpu = {k: [x["cpu"] for x in v] for k, v in rows.items()}
    rss = {k: [x["rss_mb"] for x in v] for k, v in rows.items()}
    per_round = [b / n for b, n in zip(cpu["base"], cpu["new"])]
    print(
        f"{a.preset}, {a.deals} deals ({games} games), {a.workers} worker(s), {a.rounds} rounds, whole processes: "
        f"games per CPU second base {games / min(cpu['base']):.1f} (min CPU) / {games / statistics.median(cpu['base']):.1f}"
        f" (median), new {games / min(cpu['new']):.1f} / {games / statistics.median(cpu['new']):.1f}; new/base "
        f"{min(cpu['base']) / min(cpu['new']):.2f}x by min, {statistics.median(cpu['base']) / statistics.median(cpu['new']):.2f}x "
        f"by median (per round {', '.join(f'{x:.2f}' for x in per_round)}); peak RSS MB base "
        f"{min(rss['base']):.0f}/{statistics.median(rss['base']):.0f}/{max(rss['base']):.0f}, new "
        f"{min(rss['new']):.0f}/{statistics.median(rss['new']):.0f}/{max(rss['new']):.0f} (min/median/max); "
        f"summary.json and deals.csv {'identical' if same else 'DIFFER'}"
    )


if __name__ == "__main__":
    main()
