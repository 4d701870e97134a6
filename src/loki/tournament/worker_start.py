"""What every worker of a tournament's pool needs before its first block, done once in the pool's forkserver.

A local pool (:func:`loki.tournament.runner.local_executor`) starts its workers with the ``forkserver`` method: one
clean server process is started, and every worker is a fork of it.  The server imports this module first
(``set_forkserver_preload``), so each worker begins with what it would otherwise do alone at the start of its first
block: importing the tournament's modules and those of the built-in player kinds, making numba's target context
ready (its typing and lowering registries, and scipy's linear algebra through numba's BLAS check) and building the
evaluator's tables.  The forks share those pages with the server until they write them.  The kernels themselves are
still loaded from numba's cache by each worker, as it first calls them.

Nothing here changes a block's play, nor what a worker finds: the tables and the target context are the same
whoever builds them, a block builds its own players and seeds (:func:`loki.tournament.runner.play_block`), and the
player kinds are not looked up here: each worker still discovers them (entry points included) on its own
``sys.path``, which the pool gives it from the tournament's process.  If a step fails the server goes on, and a
worker then does the step itself, as it would without this module; the failure is kept in :data:`FAILED`.
Measured in BENCHMARKS.md ("A pool's workers forked ready").

The server starts with Ctrl-C's SIGINT blocked, its workers let it in (:func:`loki.tournament.runner.local_executor`):
a Ctrl-C to the terminal's process group while it imports leaves no traceback from it.  Its import is its work: the
tests' doctest collection leaves it out (``conftest.py``).
"""

from __future__ import annotations

import importlib

#: The step that failed in this process, and why (None: every step was done, or the module was not imported).
FAILED: str | None = None


def _start() -> None:
    from loki.players.registry import builtin_kind_modules
    from loki.tournament.runner import play_block  # noqa: F401  (the blocks' code and everything it imports)

    for name in builtin_kind_modules():
        importlib.import_module(name)

    from loki.evaluator import evaluate

    evaluate("AsKsQsJsTs")  # the first kernel call: numba's target context made ready, the evaluator's tables built


try:
    _start()
except Exception as e:  # noqa: BLE001 - the server must live on: a worker then does the step itself
    FAILED = f"{type(e).__name__}: {e}"
