"""The one rule for output paths, checked *before* the work that produces them (a session, a match, a report).

loki writes a file only where nothing is, or where a regular file is: an existing folder, symbolic link, device,
FIFO or socket at an output path is refused, never replaced or written through (``--out /dev/full``, ``--out
s.csv`` where ``s.csv -> /proc/self/fd/1``).  The test looks at the path itself (``lstat``: a symbolic link is
refused whatever it points to), before the work (:func:`check_output_path`, :func:`check_output_folder`) and again
when the file is written (:func:`loki.io.files.atomic_target` before its rename, :func:`open_output` after its open,
on the descriptor).  A results folder (``tournament``, ``league``, ``tune``) is a real folder, never a symbolic link,
and a folder that holds other files than a loki run's is refused without ``--overwrite``.

Every problem is a :class:`~loki.errors.OutputPathError` (an ``OSError`` and, as before, a
``ValueError``) whose one-line message names the option, the path and what is wrong:

>>> check_output_path("/proc/nope/x.log", "--log")
Traceback (most recent call last):
...
loki.errors.OutputPathError: --log /proc/nope/x.log: folder /proc/nope does not exist
>>> check_output_path("/dev/null", "--out")
Traceback (most recent call last):
...
loki.errors.OutputPathError: --out /dev/null: a character device is there: loki writes only a new file or over a \
regular file (never over a device, FIFO, socket, symbolic link or folder)
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from loki.errors import OutputPathError
from loki.io.limits import file_kind

__all__ = [
    "LOCK_NAME",
    "check_output_path",
    "check_output_folder",
    "make_folder",
    "not_a_file",
    "open_output",
    "free_path",
    "user_data_dir",
]

#: The lock file of a results folder (:func:`loki.io.files.folder_lock`): only a loki run makes one.
LOCK_NAME = ".loki.lock"

_NEVER = (
    "loki writes only a new file or over a regular file (never over a device, FIFO, socket, symbolic link or folder)"
)


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What is at ``path`` when it is something loki must not write over (``"a symbolic link"``, ``"a folder"``,
    ``"a character device"``, ...); None when nothing is there or a regular file is.  The path itself is looked
    at (``lstat``): a symbolic link is reported as one, whatever it points to.

    >>> not_a_file("/dev/null"), not_a_file("/nonexistent/x")
    ('a character device', None)
    """
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):  # nothing there (or a path the system refuses: reported where it is used)
        return None
    return file_kind(mode)


def _refuse(p: Path, what: str, kind: str) -> OutputPathError:
    return OutputPathError(f"{what} {p}: {kind} is there: {_NEVER}")


def check_output_path(
    path: str | os.PathLike[str], what: str = "output", suffixes: Sequence[str] | None = None
) -> Path:
    """``path`` as a :class:`Path` if a file can be written there: nothing there or a regular file (not a folder,
    symbolic link, device, FIFO or socket), the folder exists and is writable, the suffix is one of ``suffixes``
    (lower case, with the dot; when given).  Nothing is created.

    Args:
        path: the file to be written.
        what: how the message names it (e.g. the option, ``"--out"``).
        suffixes: accepted suffixes (e.g. ``(".png", ".pdf", ".svg")``), or None for any.

    Raises:
        OutputPathError: one line naming ``what``, the path and what is wrong.
    """
    p = Path(path)
    if "\0" in str(p):
        raise OutputPathError(f"{what} {str(p)!r}: not a usable file name (a NUL character)")
    if suffixes is not None and p.suffix.lower() not in suffixes:
        raise OutputPathError(f"{what} {p}: expected a file ending in {', '.join(suffixes)}")
    kind = not_a_file(p)
    if kind == "a folder":
        raise OutputPathError(f"{what} {p}: is a directory, expected a file name")
    if kind is not None:
        raise _refuse(p, what, kind)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        if os.path.lexists(parent):
            raise OutputPathError(f"{what} {p}: {parent} is not a folder")
        raise OutputPathError(f"{what} {p}: folder {parent} does not exist")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputPathError(f"{what} {p}: file is not writable")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"{what} {p}: folder {parent} is not writable")
    return p


def check_output_folder(
    path: str | os.PathLike[str], what: str = "--out", *, marks: Iterable[str] = (), overwrite: bool = False
) -> Path:
    """``path`` as a :class:`Path` if a command may write its results folder there: nothing there, or a real
    folder (not a symbolic link to one) that is empty, holds a run of the same command (one of the names
    ``marks``, or loki's lock file), or ``overwrite`` is set.  Nothing is created.

    Args:
        path: the results folder.
        what: how the message names it (the option).
        marks: names of files or folders that only this command's runs leave in their folder (``journal.jsonl``).
        overwrite: write into a folder that holds other files (the command's ``--overwrite``).

    Raises:
        OutputPathError: a symbolic link, something else than a folder, or a folder of other files without
            ``overwrite``; one line naming ``what`` and the path.
    """
    p = Path(path)
    if "\0" in str(p):
        raise OutputPathError(f"{what} {str(p)!r}: not a usable folder path (a NUL character)")
    kind = not_a_file(p)
    if kind == "a symbolic link":
        raise OutputPathError(
            f"{what} {p}: a symbolic link is there: a results folder must be a real folder (loki does not follow a "
            "link it would write through); pass the folder it points to, or another --out"
        )
    if kind == "a folder":
        if overwrite:
            return p
        try:
            with os.scandir(p) as it:
                names = [e.name for e in it]
        except OSError as e:
            raise OutputPathError(f"{what} {p}: cannot read the folder: {e.strerror or e}") from None
        own = set(marks) | {LOCK_NAME}
        if names and not own.intersection(names):
            shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
            raise OutputPathError(
                f"{what} {p}: a folder of other files ({shown}), not the results of an earlier run of this command: "
                "choose a new or empty folder, or pass --overwrite to write into it"
            )
        return p
    if kind is not None:
        raise OutputPathError(f"{what} {p}: {kind} is there: expected a results folder (a new or empty folder)")
    if p.exists():  # a regular file
        raise OutputPathError(f"{what} {p}: a file is there: expected a results folder (a new or empty folder)")
    return p


def make_folder(path: str | os.PathLike[str], what: str = "--out") -> Path:
    """Create the folder ``path`` (and its parents) if needed, and check that it is a real folder: never a symbolic
    link, however it got there.

    Raises:
        OutputPathError: it cannot be created, or a symbolic link or something else than a folder is there.
    """
    d = Path(path)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass  # a file or a link to one: named below
    except OSError as e:
        raise OutputPathError(f"{what} {d}: cannot create the folder: {e.strerror or e}") from None
    except ValueError as e:  # a NUL in the path
        raise OutputPathError(f"{what} {str(d)!r}: not a usable folder path ({e})") from None
    kind = not_a_file(d)
    if kind != "a folder":
        raise OutputPathError(f"{what} {d}: {kind or 'a file'} is there: expected a folder ({_NEVER})")
    return d


def open_output(
    path: str | os.PathLike[str], what: str, *, append: bool = False, encoding: str = "utf-8", errors: str = "strict"
) -> IO[str]:
    """``path`` opened for writing text (created if needed; truncated unless ``append``) if it is, or becomes, a
    regular file: a symbolic link is not followed (``O_NOFOLLOW``), a FIFO does not block the open
    (``O_NONBLOCK``), and the opened file is checked on its descriptor (``fstat``) before anything is written.

    Raises:
        OutputPathError: something else than a regular file is there, or it cannot be opened; one line naming
            ``what`` and the path.
    """
    p = Path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags | (os.O_APPEND if append else 0), 0o666)
    except OSError as e:
        kind = not_a_file(p)
        if kind is not None and e.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.EMLINK):
            raise _refuse(p, what, kind) from None
        raise OutputPathError(f"{what} {p}: cannot write it: {e.strerror or e}") from None
    except ValueError as e:
        raise OutputPathError(f"{what} {str(p)!r}: not a usable file name ({e})") from None
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise _refuse(p, what, kind)
        os.set_blocking(fd, True)
        if not append:
            os.ftruncate(fd, 0)
        return open(fd, "a" if append else "w", encoding=encoding, errors=errors, newline="")  # noqa: SIM115
    except OutputPathError:
        os.close(fd)
        raise
    except OSError as e:
        os.close(fd)
        raise OutputPathError(f"{what} {p}: cannot write it: {e.strerror or e}") from None


def free_path(path: str | os.PathLike[str]) -> Path:
    """``path`` if nothing is there, else the first free ``<stem>-1<suffix>``, ``<stem>-2<suffix>``, ...
    (so an earlier file is never overwritten; a dangling symbolic link counts as taken)."""
    p = Path(path)
    if not os.path.lexists(p):
        return p
    i = 1
    while True:
        q = p.with_name(f"{p.stem}-{i}{p.suffix}")
        if not os.path.lexists(q):
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
