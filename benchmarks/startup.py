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
import statistics
import sys
import tempfile
from pathlib import Path

from _trees import run_whole

from loki.errors import OutputPathError
from loki.io.files import atomic_write_text
from loki.io.outpath import check_output_path

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


def table(trees: list[Path], runs: dict[Path, list[dict[str, float]]]) -> str:
    """A markdown table: one row per phase, the median over the rounds of each tree (CPU s), and ``total``."""
    head = "| phase | " + " | ".join(f"`{t}`" for t in trees) + " |"
    lines = [head, "|---|" + "---:|" * len(trees)]
    for ph in (*PHASES, "total"):
        cells = [f"{statistics.median(r[ph] for r in runs[t]):.3f}" for t in trees]
        lines.append(f"| {ph} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", type=Path, help="a source tree (repeat for more; default: .)")
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="the tournament table (TOML)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", action="store_true", help="one untimed process per tree first")
    ap.add_argument("--json", type=Path, help="write every round's phases here")
    a = ap.parse_args(argv)
    if a.rounds < 1:
        ap.error("--rounds: at least 1")
    trees = [t.resolve() for t in (a.tree or [Path(".")])]
    for t in trees:
        if not (t / "src" / "loki").is_dir():
            ap.error(f"--tree {t}: no src/loki there (a loki source tree was expected)")
    if not a.config.is_file():
        ap.error(f"--config {a.config}: no such file (a tournament TOML was expected)")
    if a.json is not None:
        try:
            check_output_path(a.json, "--json")
        except OutputPathError as e:
            ap.error(str(e))
    if a.warmup:
        for t in trees:
            measure(t, a.config)
    runs: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for r in range(a.rounds):
        for t in trees if r % 2 == 0 else trees[::-1]:
            runs[t].append(measure(t, a.config))
            print(f"round {r + 1} {t}: {json.dumps({k: round(v, 3) for k, v in runs[t][-1].items()})}", flush=True)
    bytecode = "not written (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "written"
    print(f"\n{a.config.name}, {a.rounds} rounds, medians of CPU s; Python's bytecode {bytecode}\n")
    print(table(trees, runs))
    if a.json is not None:
        atomic_write_text(a.json, json.dumps({str(t): runs[t] for t in trees}, indent=1))


if __name__ == "__main__":
    main()
