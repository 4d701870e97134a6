"""What a ``loki tournament`` process costs before its first deal, phase by phase, in CPU seconds, for one or more
source trees.

Each round runs one fresh process per tree (``PYTHONPATH=<tree>/src``, in turn, the trees' order alternating from
one round to the next); the process times its own phases with ``getrusage`` (user + system CPU) in the order a
tournament meets them:

- ``python's start``: the interpreter's own start-up, before the child's first line;
- ``numpy, numba``: importing them;
- ``command line``: ``loki.cli`` (typer, rich, pydantic and loki's command modules);
- ``tournament``: ``loki.tournament.config`` and ``loki.tournament.runner``;
- ``player kinds``: reading the table's TOML, which loads every player kind by its entry point and checks the players;
- ``numba's context``: numba's target context made ready (its typing and lowering registries, numpy's and, through
  its BLAS check, scipy's linear algebra), which the first call of any compiled kernel pays;
- ``first deal``: one deal of the table (the compiled kernels it calls loaded from numba's cache, tables built);
- ``a later deal``: one more deal with another seed: the steady state, the yardstick for the rest;
- ``shutdown``: the interpreter's end (the whole process as its parent measured it, less the CPU at the child's last
  line), ended as the tree's ``loki`` command ends it: where its command group freezes the objects left
  (``LokiGroup.__call__``, :func:`gc.freeze`), the child does too.

The table is ``benchmarks/tables/fig3-BRS-BRS3.toml`` unless ``--config`` names another; the trees must load it (an
old tree may need the entry points of its own player kinds on its path).  Kernels must already be in the numba cache
(``--warmup`` runs one process per tree first, untimed).  Python writes no bytecode when ``PYTHONDONTWRITEBYTECODE``
is set: every module is then compiled from source in every process, which this script reports::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/startup.py --tree . --tree /path/to/old/tree --rounds 5 --warmup
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from _trees import alternate, checked_trees, median_table, run_whole, tree_arguments, write_runs

HERE = Path(__file__).resolve().parent
DEFAULT_CONFIG = HERE / "tables" / "fig3-BRS-BRS3.toml"
PHASES = (
    "python's start",
    "numpy, numba",
    "command line",
    "tournament",
    "player kinds",
    "numba's context",
    "first deal",
    "a later deal",
    "shutdown",
)

# The child: its phases' CPU (getrusage of itself: user + system) as JSON in the file its second argument names.
CHILD = r"""
import json, resource, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
out = {}
t = cpu(); out["_start"] = t
import numpy, numba
out["numpy, numba"] = cpu() - t; t = cpu()
import loki.cli
out["command line"] = cpu() - t; t = cpu()
from loki.tournament.config import load_config
from loki.tournament.runner import play_block
out["tournament"] = cpu() - t; t = cpu()
cfg = load_config(sys.argv[1])
out["player kinds"] = cpu() - t; t = cpu()
from numba.core.registry import cpu_target
cpu_target.target_context.refresh()
out["numba's context"] = cpu() - t; t = cpu()
play_block(cfg.with_overrides(deals=1, block_deals=1), 0)
out["first deal"] = cpu() - t; t = cpu()
play_block(cfg.with_overrides(deals=1, block_deals=1, seed=cfg.seed + 1), 0)
out["a later deal"] = cpu() - t
try:
    from loki.cli._common import LokiGroup
except ImportError:  # an older tree's command line
    LokiGroup = object
if "__call__" in vars(LokiGroup):  # the tree's command line freezes what is left at its end
    import gc
    gc.freeze()
out["_end"] = cpu()
with open(sys.argv[2], "w") as f:
    f.write(json.dumps(out))
"""


def measure(tree: Path, config: Path) -> dict[str, float]:
    """One fresh process of ``tree``: CPU seconds per phase (:data:`PHASES`) and ``"total"``, the whole process.

    Raises:
        SystemExit: the process failed (the tail of its standard error in the message).
    """
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line sets it (the child imports numpy before it)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "phases.json"
        res = run_whole([sys.executable, "-c", CHILD, str(config), str(out)], env)
        if res.returncode != 0:
            raise SystemExit(f"{tree}: the start-up process failed ({res.returncode}):\n{res.stderr[-2000:]}")
        phases = json.loads(out.read_text())
    phases["python's start"] = phases.pop("_start")
    phases["shutdown"] = res.cpu - phases.pop("_end")
    phases["total"] = res.cpu
    if phases["shutdown"] < 0:  # pragma: no cover - clocks that disagree
        raise SystemExit(f"{tree}: the process's CPU ({res.cpu}) is below its own count at its last line")
    return phases


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tree_arguments(ap, DEFAULT_CONFIG)
    a = ap.parse_args(argv)
    trees = checked_trees(ap, a)
    runs = alternate(trees, a.rounds, a.warmup, lambda t: measure(t, a.config))
    bytecode = "not written (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "written"
    print(f"\n{a.config.name}, {a.rounds} rounds, medians of CPU s; Python's bytecode {bytecode}\n")
    print(median_table(trees, runs, (*PHASES, "total"), "phase"))
    write_runs(a.json, runs)


if __name__ == "__main__":
    main()
