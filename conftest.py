"""The test run's set-up: one worker per core (at most 8), a test file to a worker, where pytest-xdist is installed.

pytest-xdist comes with the ``test`` extra (``pip install -e ".[test]"``); without it (or with ``-p no:xdist``) the
same ``pytest -q`` runs every test in one process instead of stopping on an option it does not know, which a ``-n``
in ``addopts`` would do.  An explicit ``-n`` (``-n0``: one process), ``--maxprocesses`` or ``--dist`` on the command
line is kept.  ``loadfile`` keeps a module's fixtures (AIVAT's set-up, the ACPC game files) built once, in one worker.
"""

from __future__ import annotations

import pytest

#: modules the doctest collection (``--doctest-modules`` over ``src/loki``) does not import: the start-up a local
#: pool's forkserver imports (its import is the work; it has no doctest), not to be done in every test worker
collect_ignore = ["src/loki/tournament/worker_start.py"]

#: the most workers a run starts: each loads its own compiled kernels (~250 MB), and the suite's files, not its cores,
#: bound the gain beyond that
MAX_WORKERS = 8


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Before pytest-xdist reads its options (an initial conftest's hook runs before an installed plugin's of the same
    order): ``-n auto --maxprocesses 8 --dist loadfile`` unless the command line says otherwise; nothing in a worker
    (its options come from the controller) or without the plugin."""
    if not config.pluginmanager.has_plugin("xdist") or hasattr(config, "workerinput"):
        return
    opt = config.option
    if opt.numprocesses is not None:
        return
    opt.numprocesses = "auto"
    if not opt.maxprocesses:
        opt.maxprocesses = MAX_WORKERS
    if opt.dist == "no":
        opt.dist = "loadfile"
