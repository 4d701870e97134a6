"""What every worker of a tournament's pool needs before its first block, done once in the pool's forkserver.

A local pool (:func:`loki.tournament.runner.local_executor`) starts its workers with the ``forkserver`` method: one
clean server process is started, and every worker is a fork of it.  On Linux the server imports this module first
(``set_forkserver_preload``), so each worker begins with what it would otherwise do alone at the start of its first
block: importing the tournament's modules and those of the built-in player kinds, and ranking one hand (which makes
numba's target context ready, with scipy's linear algebra through numba's BLAS check, builds the evaluator's tables
and loads its ranking kernel).  The forks share those pages with the server until they write them.  The other kernels
are still loaded from numba's cache by each worker, as it first calls them.

Nothing here changes a block's play, nor which code a worker runs: the tables and the target context are the same
whoever builds them, a block builds its own players and seeds (:func:`loki.tournament.runner.play_block`), and the
player kinds are not looked up here (each worker still discovers them, entry points included).  The server is a fresh
``python -c`` process, and Python 3.11's forkserver does not give it the tournament's ``sys.path`` (its working folder
would come first): it starts with the tournament's ``sys.path`` as ``PYTHONPATH`` and none first of its own
(``PYTHONSAFEPATH``), and receives it whole in the environment (:data:`loki.tournament.runner.POOL_SYS_PATH`, with
the variables to put back); this module sets it, puts those variables back before anything is forked, and checks
that the ``loki`` found there is its own copy: if not, it imports nothing more, and the pool, which asks the server
which ``loki`` it holds, spawns its workers instead (each imports its own, as without this module).  If a step fails,
the server goes on and a worker does the step itself; why is kept in :data:`FAILED`.  Measured in BENCHMARKS.md ("A
pool's workers forked ready").

The server starts with Ctrl-C's SIGINT blocked (:func:`loki.tournament.runner.local_executor`), so that a Ctrl-C to
the terminal's process group while it imports leaves no traceback from it; at the end this module lets SIGINT in again
(ignored first: one pending is dropped), and the processes the server forks get it as usual.  Its import is its work:
the tests' doctest collection leaves it out (``conftest.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys

from loki.tournament.runner import POOL_SYS_PATH

#: Why the start-up was not done in this process (None: it was done, or the module was not imported).
FAILED: str | None = None


def _own_loki() -> str | None:
    """Set ``sys.path`` to the pool's process's and put back the environment variables changed for the server's start
    (the workers inherit the environment); None if the ``loki`` package found there is this module's, else why not
    (then nothing more is imported, and the pool, which checks the server's ``loki``, spawns its workers instead:
    :func:`loki.tournament.runner.local_executor`)."""
    raw = os.environ.pop(POOL_SYS_PATH, None)
    if raw is None:
        return f"no {POOL_SYS_PATH} in the environment: the pool's sys.path is not known"
    given = json.loads(raw)
    for name, value in given["restore"].items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    sys.path[:] = [str(p) for p in given["sys_path"]]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the loki package of this module
    mine = sys.modules.pop("loki")  # find_spec would answer from sys.modules
    try:
        spec = importlib.util.find_spec("loki")
    finally:
        sys.modules["loki"] = mine
    found = None if spec is None or spec.origin is None else os.path.dirname(os.path.abspath(spec.origin))
    if found is not None and os.path.realpath(found) == os.path.realpath(here):
        return None
    return f"the pool's sys.path finds loki at {found}, this server imported {here}"


def _start() -> None:
    from loki.evaluator import evaluate
    from loki.players.registry import builtin_kind_modules
    from loki.tournament.runner import play_block  # noqa: F401  (the blocks' code and everything it imports)

    for name in builtin_kind_modules():
        importlib.import_module(name)
    evaluate("AsKsQsJsTs")  # the first kernel call: numba's target context made ready, the evaluator's tables built


def _let_sigint_in() -> None:
    """SIGINT, blocked since the server's start, let in again: ignored first (a Ctrl-C pending since is dropped), then
    Python's handler back, which the forkserver saves for the processes it forks as it ignores SIGINT itself."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, old)


try:
    FAILED = _own_loki()
    if FAILED is None:
        _start()
except Exception as e:  # noqa: BLE001 - the server must live on: a worker then does the step itself
    FAILED = f"{type(e).__name__}: {e}"
finally:
    _let_sigint_in()
