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

``--paired`` (with ``--workers 1``) runs the two trees of a round at the same time, each pinned to a CPU of its own,
the CPUs swapped from one round to the next: on a shared machine whose speed drifts by tens of per cent from one
minute to the next, both trees of a round then run at the same speed, and the per-round ratios are what to read
(their median is printed).  It needs two CPUs this process may use.  ``--warmup`` plays a few deals in each tree
first, untimed, so that the first round does not load or compile the kernels the later rounds find cached.
"""

from __future__ import annotations

import argparse
import filecmp
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _trees import LOKI_CLI, become_subreaper, run_whole


def _command(tree: Path, preset: str, deals: int, workers: int, out: Path, histories: bool):
    # the loki tournament command of a tree and its environment
    src = ["--config", preset] if preset.endswith(".toml") else ["--preset", preset]
    args = [
        sys.executable, "-c", LOKI_CLI, "tournament", *src, "--deals", str(deals), "--workers", str(workers),
        "--no-plots", "--quiet", "--overwrite", "--out", str(out), "--histories" if histories else "--no-histories",
    ]  # fmt: skip
    return args, dict(os.environ, PYTHONPATH=str(tree / "src"))


def run(tree: Path, preset: str, deals: int, workers: int, out: Path, histories: bool) -> dict:
    """One ``loki tournament`` process of ``tree``: ``{"cpu": s, "rss_mb": MB, "games": n}``."""
    args, env = _command(tree, preset, deals, workers, out, histories)
    res = run_whole(args, env)
    if res.returncode != 0:
        raise SystemExit(f"{tree}: loki tournament failed ({res.returncode}):\n{res.stderr[-2000:]}")
    summary = json.loads((out / "summary.json").read_text())
    return {"cpu": res.cpu, "rss_mb": res.peak_rss_mb, "games": int(summary["hands"]), "orphans": res.processes}


def run_paired(runs: list[tuple[Path, Path, int]], preset: str, deals: int, histories: bool) -> list[dict]:
    """The ``loki tournament`` processes of ``runs`` ``(tree, out, cpu)`` at the same time, one worker each, each
    pinned to its CPU; per run ``{"cpu": s, "rss_mb": MB, "games": n, "cpu_id": cpu}`` (its process and the children
    it waited for, ``os.wait4``).

    Raises:
        SystemExit: a command failed (the tail of its stderr in the message).
    """
    procs = []
    for tree, out, cpu in runs:
        args, env = _command(tree, preset, deals, 1, out, histories)
        err = tempfile.TemporaryFile()
        pin = functools.partial(os.sched_setaffinity, 0, {cpu})  # in the child, before the command starts
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=pin)
        procs.append((proc, err))
    rows = []
    for (tree, out, cpu), (proc, err) in zip(runs, procs, strict=True):
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        tail = err.read()[-2000:].decode(errors="replace")
        err.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{tree}: loki tournament failed ({os.waitstatus_to_exitcode(status)}):\n{tail}")
        summary = json.loads((out / "summary.json").read_text())
        cpu_s = usage.ru_utime + usage.ru_stime
        rows.append({"cpu": cpu_s, "rss_mb": usage.ru_maxrss / 1024, "games": int(summary["hands"]), "cpu_id": cpu})
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="source tree of the baseline (has src/loki)")
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent, help="source tree to test")
    ap.add_argument("--preset", default="fig3-BRS", help="a preset's name or a tournament TOML file")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--histories", action="store_true", help="write the hand histories (the presets' default)")
    ap.add_argument("--paired", action="store_true", help="both trees of a round at once, one CPU each, swapped")
    ap.add_argument("--warmup", action="store_true", help="a few untimed deals in each tree first")
    a = ap.parse_args(argv)
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if a.paired and (a.workers != 1 or len(cpus) < 2):
        ap.error(f"--paired needs --workers 1 and two CPUs (workers {a.workers}, CPUs {len(cpus)})")
    if a.workers != 1 and not become_subreaper():
        print("note: the workers' CPU is not in the figures here (no PR_SET_CHILD_SUBREAPER)", file=sys.stderr)
    rows: dict[str, list[dict]] = {"base": [], "new": []}
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        if a.warmup:
            for name, tree in (("base", a.base), ("new", a.new)):
                run(tree, a.preset, 4, 1, Path(tmp) / f"warmup-{name}", a.histories)
        for r in range(a.rounds):
            outs = {name: Path(tmp) / f"{name}{r}" for name in ("base", "new")}
            if a.paired:
                c0, c1 = (cpus[0], cpus[1]) if r % 2 == 0 else (cpus[1], cpus[0])
                both = run_paired(
                    [(a.base, outs["base"], c0), (a.new, outs["new"], c1)], a.preset, a.deals, a.histories
                )
                for name, row in zip(("base", "new"), both, strict=True):
                    rows[name].append(row)
                    print(f"round {r + 1} {name}: {json.dumps(row)}", flush=True)
            else:
                for name, tree in (("base", a.base), ("new", a.new)):
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
        f"by median (per round {', '.join(f'{x:.2f}' for x in per_round)}; their median "
        f"{statistics.median(per_round):.2f}x{', paired' if a.paired else ''}); peak RSS MB base "
        f"{min(rss['base']):.0f}/{statistics.median(rss['base']):.0f}/{max(rss['base']):.0f}, new "
        f"{min(rss['new']):.0f}/{statistics.median(rss['new']):.0f}/{max(rss['new']):.0f} (min/median/max); "
        f"summary.json and deals.csv {'identical' if same else 'DIFFER'}"
    )


if __name__ == "__main__":
    main()
