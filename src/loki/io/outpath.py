"""Checks of output paths *before* the work that produces them (a session, a match, a report).

Every problem is a :class:`~loki.errors.OutputPathError` (an ``OSError`` and, as before, a
``ValueError``) whose one-line message names the option, the path and what is wrong:

>>> check_output_path("/proc/nope/x.log", "--log")
Traceback (most recent call last):
...
loki.errors.OutputPathError: --log /proc/nope/x.log: folder /proc/nope does not exist
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from loki.errors import OutputPathError

__all__ = ["check_output_path", "free_path", "user_data_dir"]


def check_output_path(
    path: str | os.PathLike[str], what: str = "output", suffixes: Sequence[str] | None = None
) -> Path:
    """``path`` as a :class:`Path` if a file can be written there: not a directory, the folder exists
    and is writable, the suffix is one of ``suffixes`` (lower case, with the dot; when given).
    Nothing is created.

    Args:
        path: the file to be written.
        what: how the message names it (e.g. the option, ``"--out"``).
        suffixes: accepted suffixes (e.g. ``(".png", ".pdf", ".svg")``), or None for any.

    Raises:
        OutputPathError: one line naming ``what``, the path and what is wrong.
    """
    p = Path(path)
    if suffixes is not None and p.suffix.lower() not in suffixes:
        raise OutputPathError(f"{what} {p}: expected a file ending in {', '.join(suffixes)}")
    if p.is_dir():
        raise OutputPathError(f"{what} {p}: is a directory, expected a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OutputPathError(f"{what} {p}: folder {parent} does not exist")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{what} {p}: file is not writable")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"{what} {p}: folder {parent} is not writable")
    return p


def free_path(path: str | os.PathLike[str]) -> Path:
    """``path`` if nothing is there, else the first free ``<stem>-1<suffix>``, ``<stem>-2<suffix>``, ...
    (so an earlier file is never overwritten)."""
    p = Path(path)
    if not p.exists():
        return p
    i = 1
    while True:
        q = p.with_name(f"{p.stem}-{i}{p.suffix}")
        if not q.exists():
            return q
        i += 1


def user_data_dir(*parts: str) -> Path:
    """loki's per-user data folder (not created): ``$XDG_DATA_HOME/loki`` or ``~/.local/share/loki`` on
    Linux and other POSIX systems, ``~/Library/Application Support/loki`` on macOS, ``%LOCALAPPDATA%\\loki``
    on Windows; ``parts`` are joined below it."""
    import sys

    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base.joinpath("loki", *parts)
