"""Figures written to files (PNG, PDF, SVG): matplotlib on its file-only backend, every text drawn as written.

A tournament's name, a player's label or a league's label is drawn as plain text.  Left to matplotlib, ``$...$`` in
one would be read as mathtext (TeX): ``$\\frac{$`` ended a finished tournament with a ``ParseSyntaxException`` in its
plots, ``x$a^b^c$`` with a ``ParseFatalException``, and a valid formula would be drawn as a formula.  Every plot of
loki is drawn inside :func:`figures`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["figures", "save_figure"]


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


def save_figure(fig: Any, path: str | Path, dpi: int = 110) -> Path:
    """Lay out ``fig``, write it to ``path`` whole or not at all (:func:`loki.io.files.atomic_target`: a temporary
    file renamed over it; a device, FIFO or symlink is refused there) in the format of its suffix (PNG when it has
    none), and close it, written or not.

    Args:
        fig: a matplotlib figure (made inside :func:`figures`).
        path: the file.
        dpi: dots per inch.

    Returns:
        the path written.

    Raises:
        OutputPathError: something other than a regular file is at ``path`` (never replaced).
        OSError: the file cannot be written (a full disk, a read-only folder); ``path`` is left as it was.
    """
    import matplotlib.pyplot as plt

    from loki.io.files import atomic_target

    p = Path(path)
    try:
        fig.tight_layout()
        with atomic_target(p) as tmp:
            fig.savefig(tmp, dpi=dpi, format=p.suffix.lstrip(".").lower() or "png")
    finally:
        plt.close(fig)
    return p
