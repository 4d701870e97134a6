"""Running a benchmark's child process against one source tree (``PYTHONPATH=<tree>/src``), for the scripts that
compare two trees round by round."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


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
