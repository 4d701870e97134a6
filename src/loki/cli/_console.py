"""The rich console every ``loki`` command prints its tables with: never truncated when the output is a pipe.

rich sizes its output to the terminal; written to a pipe or a file it falls back to 80 columns and cuts wider
table cells with an ellipsis (``+2127…``, ``sb/ha…``), which loses numbers.  :func:`make_console` keeps rich's
width on a terminal and, elsewhere, takes the width from ``COLUMNS`` when it is set, else an unlimited width
(:data:`PIPE_WIDTH`), so that every cell is printed whole.  At any width a table printed by that console folds a
cell that does not fit onto the next line instead of cutting it with an ellipsis (:func:`folded`), so a narrow
terminal (``COLUMNS=80``) shows every character too.  :func:`rule` draws a separator at most :data:`RULE_WIDTH` wide
(a rule spans the whole width, which is unlimited on a pipe).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from loki.io.limits import digits

__all__ = ["make_console", "rule", "folded", "PIPE_WIDTH", "RULE_WIDTH"]

#: The width of a console that writes to a pipe or a file without ``COLUMNS``: wide enough for any table.
PIPE_WIDTH = 10_000
#: The widest separator :func:`rule` draws.
RULE_WIDTH = 100


def folded(table: Any) -> Any:
    """``table`` (a :class:`rich.table.Table`) with every column folding what does not fit onto the next line (rich's
    default cuts it with an ellipsis); returned for chaining."""
    for c in table.columns:
        c.overflow = "fold"
    return table


def make_console(stderr: bool = False, **kwargs: Any) -> Any:
    """A :class:`rich.console.Console` on stdout (or stderr) whose output is never cut to fit (module docstring):
    its ``print`` folds every table it is given (:func:`folded`).

    Args:
        stderr: write to stderr.
        kwargs: passed on to :class:`~rich.console.Console` (``highlight=False``...).
    """
    from rich.console import Console
    from rich.table import Table

    class Console(Console):  # type: ignore[no-redef]
        def print(self, *objects: Any, **kw: Any) -> None:
            for o in objects:
                if isinstance(o, Table):
                    folded(o)
            super().print(*objects, **kw)

    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError):
        tty = False
    if tty or "width" in kwargs:
        return Console(stderr=stderr, **kwargs)
    cols = os.environ.get("COLUMNS", "").strip()
    width = int(cols) if digits(cols) and int(cols) > 0 else PIPE_WIDTH
    return Console(stderr=stderr, width=width, **kwargs)


def rule(console: Any, title: str = "") -> None:
    """A horizontal rule across the console, at most :data:`RULE_WIDTH` characters wide, with ``title`` (rich markup)
    in its middle."""
    from rich.rule import Rule

    console.print(Rule(title), width=min(console.width, RULE_WIDTH))
