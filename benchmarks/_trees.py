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
