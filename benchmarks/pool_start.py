"""What a tournament's pool of worker processes costs before its workers play, in CPU seconds, for one or more source
trees.

Each round runs one fresh process per tree (``PYTHONPATH=<tree>/src``, in turn, the trees' order alternating from one
round to the next).  The process makes the tree's local pool (``local_executor(workers)``, the one ``loki tournament``
and ``loki tune`` use) and gives each worker one task: two one-deal blocks of the table, each worker timing itself
with ``time.process_time`` (user + system CPU of its own process, from its fork on):

- ``worker before its task``: what the worker spent from its start to the task's first line (with the ``forkserver``
  method a worker is a fork of the pool's server; it unpickles its task and, without a preload, imports what the task
  needs);
- ``first block``: its first one-deal block (the player kinds, numba's target context, the evaluator's tables, the
  kernels loaded from numba's cache, then the deal);
- ``a later block``: the next one-deal block, the steady state;
- ``server``: the pool's forkserver's own CPU (``/proc``), which the workers are forked from (with a preload it does
  the workers' start-up once).

``start-up`` is ``server + Σ (before its task + first block − a later block)`` over the workers: the CPU a pool
spends that a process playing alone would not, for its ``workers`` workers.  The table is
``benchmarks/tables/fig3-BRS-BRS3.toml`` unless ``--config`` names another; kernels must already be in numba's cache
(``--warmup`` runs one process per tree first, untimed)::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/pool_start.py --tree . --tree /path/to/old/tree --workers 2 --rounds 5 --warmup
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _trees import alternate, checked_trees, median_table, tree_arguments, write_runs

HERE = Path(__file__).resolve().parent
DEFAULT_CONFIG = HERE / "tables" / "fig3-BRS-BRS3.toml"
PARTS = ("server", "worker before its task", "first block", "a later block", "start-up")

# The child: makes the tree's pool, one task per worker (worker_task, imported from this file by the workers, whose
# sys.path the pool gives them from the child), and writes the parts as JSON to the file its last argument names.
CHILD = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
import multiprocessing.forkserver as forkserver
from loki.tournament.config import load_config
from loki.tournament.runner import cut_lifeline, local_executor
from pool_start import worker_task
n = int(sys.argv[3])
cfg = load_config(sys.argv[2]).with_overrides(deals=2 * n, block_deals=1)
ex = local_executor(n)
futures = [ex.submit(worker_task, cfg, 2 * i) for i in range(n)]
workers = [f.result() for f in futures]
pid = forkserver._forkserver._forkserver_pid  # CPython's forkserver (the pool's context)
with open(f"/proc/{pid}/stat") as f:
    fields = f.read().rsplit(")", 1)[1].split()
server = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime, its own
ex.shutdown()
cut_lifeline(ex)
with open(sys.argv[4], "w") as f:
    f.write(json.dumps({"server": server, "workers": workers}))
"""


def worker_task(cfg, block: int) -> dict[str, float]:
    """In a pool's worker: its CPU before this task, then blocks ``block`` and ``block + 1`` of ``cfg`` timed
    (CPU seconds), and its process id."""
    t0 = time.process_time()  # user + system CPU of this process, all its threads
    from loki.tournament.runner import play_block

    play_block(cfg, block)
    t1 = time.process_time()
    play_block(cfg, block + 1)
    t2 = time.process_time()
    return {"worker before its task": t0, "first block": t1 - t0, "a later block": t2 - t1, "pid": os.getpid()}


def measure(tree: Path, config: Path, workers: int) -> dict[str, float]:
    """One fresh process of ``tree`` with a pool of ``workers``: CPU seconds per part (:data:`PARTS`; the workers'
    parts are their means, ``start-up`` their sum with the server's).

    Raises:
        SystemExit: the process failed (the tail of its standard error in the message), or a worker took two tasks.
    """
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line sets it
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "parts.json"
        argv = [sys.executable, "-c", CHILD, str(HERE), str(config), str(workers), str(out)]
        res = subprocess.run(argv, env=env, capture_output=True, text=True)
        if res.returncode != 0:
            raise SystemExit(f"{tree}: the pool's process failed ({res.returncode}):\n{res.stderr[-2000:]}")
        got = json.loads(out.read_text())
    ws = got["workers"]
    if len({w["pid"] for w in ws}) != len(ws):
        raise SystemExit(f"{tree}: a worker took two tasks: run again (each worker must take one)")
    parts = {"server": got["server"]}
    for k in ("worker before its task", "first block", "a later block"):
        parts[k] = statistics.fmean(w[k] for w in ws)
    parts["start-up"] = got["server"] + sum(
        w["worker before its task"] + w["first block"] - w["a later block"] for w in ws
    )
    return parts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tree_arguments(ap, DEFAULT_CONFIG)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    if not 2 <= a.workers <= 64:
        ap.error("--workers: 2 to 64 (one worker is no pool: the tournament then plays in its own process)")
    trees = checked_trees(ap, a)
    runs = alternate(trees, a.rounds, a.warmup, lambda t: measure(t, a.config, a.workers))
    print(f"\n{a.config.name}, {a.workers} workers, {a.rounds} rounds, medians of CPU s\n")
    print(median_table(trees, runs, PARTS, "part"))
    write_runs(a.json, runs)


if __name__ == "__main__":
    main()
