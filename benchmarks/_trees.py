"""Running a benchmark's child process against one source tree (``PYTHONPATH=<tree>/src``), for the scripts that
compare two trees round by round, and measuring a whole process tree's CPU (:func:`run_whole`)."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: ``python -c LOKI_CLI args...`` runs the ``loki`` command line of the tree on ``PYTHONPATH`` (not the installed
#: ``loki`` script, which may belong to another tree).
LOKI_CLI = "import sys\nfrom loki.cli import app\nsys.argv[0] = 'loki'\napp()\n"

_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
_subreaper: bool | None = None


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux ``prctl(PR_SET_CHILD_SUBREAPER)``), once:
    a process whose parent exits before it (a tournament's pool workers, which end when the tournament process is
    gone) is then re-parented to this process rather than to init, so :func:`run_whole` can wait for it and count its
    CPU.  False where the call is not available (not Linux) or fails."""
    global _subreaper
    if _subreaper is None:
        ok = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                ok = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                ok = False
        _subreaper = ok
    return _subreaper


@dataclass(frozen=True)
class WholeRun:
    """A finished process tree (:func:`run_whole`).

    Attributes:
        returncode: the command's exit code (negative: killed by that signal).
        cpu: user + system CPU seconds of the command's process and of every descendant waited for (by it, or, as
            orphans, by this process).
        peak_rss_mb: the largest peak resident set size among them, MiB (2^20 bytes).
        processes: descendants that outlived the command's process, reaped here (0 when none did); each one's CPU
            includes the descendants it waited for itself (a tournament's forkserver and its workers count as one).
        whole: whether descendants that outlive the command are counted (:func:`become_subreaper` succeeded).
        stderr: the tail of the command's standard error (at most 4,000 characters).
    """

    returncode: int
    cpu: float
    peak_rss_mb: float
    processes: int
    whole: bool
    stderr: str


def run_whole(argv: list[str], env: dict[str, str] | None = None, *, deadline: float = 300.0) -> WholeRun:
    """Run ``argv`` (standard output discarded) and measure the CPU of its whole process tree.

    ``os.wait4`` on the command's process counts it and the children it waited for; a child that outlives it (a
    tournament's pool workers end only once the tournament process is gone) is counted here: this process becomes the
    subreaper of its descendants (:func:`become_subreaper`), so the orphans are re-parented to it and, after the
    command ends, waited for until none is left.  Where that is not available, ``whole`` is False and only the
    command's own tree as it waited for it is counted.  This process must have no other child meanwhile (it would be
    waited for and counted too).

    Args:
        argv: the command and its arguments.
        env: its environment (None: this process's).
        deadline: seconds to wait for the orphans after the command ended (they should end at once).

    Raises:
        SystemExit: a descendant still running ``deadline`` seconds after the command ended (it is left running).
    """
    whole = become_subreaper()
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a chatty child cannot fill it and block
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        rss = usage.ru_maxrss
        n = 0
        if whole:
            end = time.monotonic() + deadline
            while True:
                try:
                    pid, _, ru = os.wait4(-1, os.WNOHANG)
                except ChildProcessError:
                    break  # no child left
                if pid == 0:  # children left, none finished yet
                    if time.monotonic() > end:
                        raise SystemExit(f"{argv[0]}: a descendant still runs {deadline:.0f} s after the command ended")
                    time.sleep(0.005)
                    continue
                cpu += ru.ru_utime + ru.ru_stime
                rss = max(rss, ru.ru_maxrss)
                n += 1
        err.seek(0)
        tail = err.read()[-4000:].decode(errors="replace")
    return WholeRun(proc.returncode, cpu, rss / 1024, n, whole, tail)


def child_json(tree: Path, code: str, *args: object) -> Any:
    """Run ``python -c code args...`` with ``tree``'s ``src`` first on the path and return the JSON of the last line
    it prints.

    Raises:
        SystemExit: the child failed (the tail of its stderr in the message) or printed no JSON last line.
    """
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    argv = [sys.executable, "-c", code, *map(str, args)]
    res = subprocess.run(argv, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"{tree}: the child failed:\n{res.stderr[-2000:]}")
    try:
        return json.loads(res.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise SystemExit(f"{tree}: the child printed no JSON last line:\n{res.stdout[-2000:]}") from None


def tree_arguments(ap: Any, default_config: Path) -> None:
    """The options of a script that measures source trees in alternating rounds: ``--tree`` (repeated; default
    ``.``), ``--config`` (a tournament TOML, default ``default_config``), ``--rounds``, ``--warmup`` (one untimed
    round first) and ``--json`` (every round's figures)."""
    ap.add_argument("--tree", action="append", type=Path, help="a source tree (repeat for more; default: .)")
    ap.add_argument("--config", type=Path, default=default_config, help="the tournament table (TOML)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", action="store_true", help="one untimed process per tree first")
    ap.add_argument("--json", type=Path, help="write every round's figures here")


def checked_trees(ap: Any, a: Any) -> list[Path]:
    """The trees of :func:`tree_arguments`' options ``a``, resolved, once every option is checked (``ap.error``
    names a bad one: no ``src/loki`` in a tree, no such config, rounds below 1, a ``--json`` path that is not a
    file to write, e.g. a FIFO)."""
    from loki.errors import OutputPathError
    from loki.io.outpath import check_output_path

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
    return trees


def alternate(trees: list[Path], rounds: int, warmup: bool, measure: Any) -> dict[Path, list[dict[str, float]]]:
    """``measure(tree)`` for every tree in every round, the trees' order reversed every other round (after one untimed
    call per tree with ``warmup``); each round's figures printed as they come.  Returns every tree's rounds."""
    if warmup:
        for t in trees:
            measure(t)
    runs: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for r in range(rounds):
        for t in trees if r % 2 == 0 else trees[::-1]:
            runs[t].append(measure(t))
            print(f"round {r + 1} {t}: {json.dumps({k: round(v, 3) for k, v in runs[t][-1].items()})}", flush=True)
    return runs


def median_table(trees: list[Path], runs: dict[Path, list[dict[str, float]]], rows: tuple[str, ...], head: str) -> str:
    """A markdown table: one row per name of ``rows`` (first column ``head``), the median over the rounds of each tree."""
    import statistics

    lines = [f"| {head} | " + " | ".join(f"`{t}`" for t in trees) + " |", "|---|" + "---:|" * len(trees)]
    for name in rows:
        cells = [f"{statistics.median(r[name] for r in runs[t]):.3f}" for t in trees]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_runs(path: Path | None, runs: dict[Path, list[dict[str, float]]]) -> None:
    """Every tree's rounds as JSON at ``path`` (atomically; nothing when ``path`` is None)."""
    if path is not None:
        from loki.io.files import atomic_write_text

        atomic_write_text(path, json.dumps({str(t): r for t, r in runs.items()}, indent=1))
