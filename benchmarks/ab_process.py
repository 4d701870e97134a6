"""A/B of whole ``loki tournament`` processes between two source trees: CPU per game and peak memory, alternating.

Each round runs the same ``loki tournament`` command once per tree (``PYTHONPATH=<tree>/src``), base first then new,
each in a fresh process, and reads the process's resource usage when it ends (``os.wait4``: user + system CPU of the
process and of the worker processes it waited for, and the peak resident set size of the largest of them), so the
figures are those of the whole process: start-up, kernel loading, the blocks, the results.  Games per CPU second is
the tournament's games (deals x seatings) over that CPU; the summaries of the two trees are compared byte for byte
(the same play)::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/ab_process.py --base /path/to/old/tree --new . \\
        --preset fig3-BRS --deals 200 --rounds 3

``--preset`` takes a preset's name or a tournament TOML file; ``--workers`` is passed on.  Use 1 (the default): the
tournament then plays in one process, whose CPU and peak memory ``wait4`` reports whole.  With more, the worker
processes' CPU is counted only if the tournament reaps them before it exits, which its process pool does not (a
2-worker run reports the parent's CPU alone), so the figure is not the whole CPU.
The ratio is new / base games per CPU second by the minimum and by the median CPU of the rounds; peak memory in MB
(2^20 bytes), min / median / max of the rounds.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = "import sys\nfrom loki.cli import app\nsys.argv[0] = 'loki'\napp()\n"


def run(tree: Path, preset: str, deals: int, workers: int, out: Path, histories: bool) -> dict:
    """One ``loki tournament`` process of ``tree``: ``{"cpu": s, "rss_mb": MB, "games": n}``."""
    src = ["--config", preset] if preset.endswith(".toml") else ["--preset", preset]
    args = [
        sys.executable, "-c", _CHILD, "tournament", *src, "--deals", str(deals), "--workers", str(workers),
        "--no-plots", "--quiet", "--overwrite", "--out", str(out), "--histories" if histories else "--no-histories",
    ]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: loki tournament failed ({proc.returncode}):\n{err[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "games": int(summary["hands"])}


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
    if a.workers != 1:
        print("note: with --workers > 1 the workers' CPU is not in the figures (module docstring)", file=sys.stderr)
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
