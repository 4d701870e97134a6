"""Figures written to files (PNG, PDF, SVG): matplotlib on its file-only backend, every text drawn as written.

A tournament's name, a player's label or a league's label is drawn as plain text.  Left to matplotlib, ``$...$`` in
one would be read as mathtext (TeX): ``$\\frac{$`` ended a finished tournament with a ``ParseSyntaxException`` in its
plots, ``x$a^b^c$`` with a ``ParseFatalException``, and a valid formula would be drawn as a formula.  Every plot of
loki is drawn inside :func:`figures`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

__all__ = ["figures"]


@contextlib.contextmanager
def figures() -> Iterator[Any]:
    """``matplotlib.pyplot`` on the Agg backend (files only, no window), with mathtext off for every text made and
    drawn inside the block (``text.parse_math``: ``$`` is a dollar sign); matplotlib's settings are restored after it.

    >>> with figures() as plt:
    ...     fig, ax = plt.subplots()
    ...     _ = ax.set_title("$\\\\frac{$")  # drawn as written
    ...     fig.canvas.draw()
    ...     plt.close(fig)
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"text.parse_math": False}):
        yield plt
