"""Files that are whole or absent, and folders one run at a time.

- :func:`atomic_write_text` / :func:`atomic_target`: a result file is written to a temporary file in
  the same folder, flushed and fsynced, then renamed over the target (``os.replace``), so a reader
  (or a crash, a full disk, Ctrl-C) never sees a half-written ``summary.json`` or a 0-byte
  ``run.json``: the target holds either the old content or the new one.  On any error the temporary
  file is removed and the error raised.  The rename never replaces anything but a regular file (the rule
  of :mod:`loki.io.outpath`): a device, FIFO, socket, symbolic link or folder at the target is refused,
  and the temporary file is a new file (created exclusively, never through a link).
- :func:`folder_lock`: an exclusive lock on ``<folder>/.loki.lock`` (``fcntl.flock``, released by the
  kernel when the process ends, however it ends: no stale locks), so two runs cannot write into one
  results folder.  A run that ends (normally or by an error it reports) removes the lock file while it
  still holds the lock; a run that takes the lock checks that the file it locked is still the one at
  the path (else it was removed under it, and it locks the new file), so removing the file never lets
  two runs in.  Only a killed run leaves the file behind, unlocked and harmless: the next run takes it.
  A killed run may also leave a temporary file of :func:`atomic_target` (``.<stem>.<pid>.<hex>.tmp<suffix>``):
  the next run that takes the lock removes those of processes no longer alive, in the folder and its
  subfolders (one level), so a resumed run's folder holds its results and nothing else.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.json", "{}\\n")
>>> (d / "a.json").read_text(), sorted(p.name for p in d.iterdir())
('{}\\n', ['a.json'])
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

from loki.errors import OutputPathError
from loki.io.limits import digits
from loki.io.outpath import LOCK_NAME, make_folder, not_a_file

__all__ = ["atomic_write_text", "atomic_target", "folder_lock", "remove_stale_temporaries", "LOCK_NAME"]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_target(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to ``path`` (same suffix, so that writers choosing a format by the
    suffix keep working); when the block ends without error, the temporary file is fsynced and renamed
    to ``path``; on an error it is removed and the error propagates.

    Raises:
        OutputPathError: something else than a regular file is at ``path`` (a device, FIFO, socket, symbolic link or
            folder: never replaced), before the block runs and again before the rename.
        OSError: the temporary file cannot be written, synced or renamed (full disk, read-only folder).
    """
    p = Path(path)
    _refuse_non_file(p)
    tmp = _new_temporary(p)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        _refuse_non_file(p)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(p.parent)


def _refuse_non_file(p: Path) -> None:
    kind = not_a_file(p)
    if kind is not None:
        raise OutputPathError(
            f"{p}: {kind} is there: loki writes only a new file or over a regular file (never over a device, FIFO, "
            "socket, symbolic link or folder)"
        )


#: The names :func:`_new_temporary` gives (what :func:`remove_stale_temporaries` may remove).
_TEMPORARY = re.compile(r"\.(?P<stem>.+)\.(?P<pid>[0-9]{1,10})\.[0-9a-f]{8}\.tmp(?P<suffix>\.[^.]*)?")


def _new_temporary(p: Path) -> Path:
    """A new, empty file next to ``p`` (``.<stem>.<pid>.<random>.tmp<suffix>``), created exclusively: never an
    existing file, never through a symbolic link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = p.with_name(f".{p.stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp{p.suffix}")
        try:
            os.close(os.open(tmp, flags, 0o666))
        except FileExistsError:  # pragma: no cover - 32 random bits taken: draw again
            continue
        return tmp


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (module docstring).

    Raises:
        OutputPathError: the file cannot be written (an ``OSError`` too; the message names the file; the old
            content, if any, is left untouched).
    """
    try:
        with atomic_target(path) as tmp, open(tmp, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
    except OutputPathError:
        raise
    except OSError as e:
        raise OutputPathError(f"{path}: cannot write it: {e.strerror or e}") from None


@contextlib.contextmanager
def folder_lock(folder: str | os.PathLike[str], what: str = "--out") -> Iterator[Path]:
    """Hold the exclusive lock of ``folder`` (created if needed) for the block.

    Args:
        folder: the results folder.
        what: how messages name it (the command-line option).

    Raises:
        OutputPathError: another process holds the lock (the message gives its pid when known), the folder or
            the lock file cannot be created, or a symbolic link is at the folder's path or the lock file's.
    """
    d = make_folder(folder, what)  # a real folder, never a symbolic link
    path = d / LOCK_NAME
    fd = _take_lock(path, d, what)
    try:
        remove_stale_temporaries(d)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield d
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # while the lock is held: a run waiting on this file sees it go and locks afresh
        os.close(fd)  # releases the lock


def _alive(pid: int) -> bool:
    """A process ``pid`` exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, OSError):  # another user's (PermissionError), or a pid no process can have
        return True
    return True


def remove_stale_temporaries(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove the temporary files of :func:`atomic_target` left in ``folder`` and its subfolders (one level deep)
    by processes that are no longer alive (a run killed while writing).

    Only regular files named exactly as :func:`atomic_target` names them are removed; a symbolic link, a folder,
    or the temporary file of a live process is left alone.

    Returns:
        the paths removed (sorted).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / ".a.999999999.0123abcd.tmp.json").write_text("")  # no such process
    >>> _ = (d / "b.json").write_text("")
    >>> [p.name for p in remove_stale_temporaries(d)], sorted(p.name for p in d.iterdir())
    (['.a.999999999.0123abcd.tmp.json'], ['b.json'])
    """
    root = Path(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    folders = [root] + [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
    for f in folders:
        try:
            names = list(os.scandir(f))
        except OSError:
            continue
        for e in names:
            m = _TEMPORARY.fullmatch(e.name)
            if m is None or not e.is_file(follow_symlinks=False) or _alive(int(m["pid"])):
                continue
            with contextlib.suppress(OSError):
                os.unlink(e.path)
                removed.append(Path(e.path))
    return sorted(removed)


def _not_regular(fd: int) -> bool:
    """The open descriptor ``fd`` is not a regular file."""
    import stat

    return not stat.S_ISREG(os.fstat(fd).st_mode)


def _take_lock(path: Path, d: Path, what: str) -> int:
    """An open descriptor of ``path`` holding its exclusive ``flock``, the file still being the one at ``path``."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        fcntl = None  # type: ignore[assignment]
    for _ in range(100):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as e:
            raise OutputPathError(f"{what} {d}: cannot create the folder's lock file: {e.strerror or e}") from None
        if _not_regular(fd):
            os.close(fd)
            raise OutputPathError(f"{what} {d}: its lock file {LOCK_NAME} is not a regular file: remove it")
        if fcntl is None:  # pragma: no cover
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            except OSError:
                pid = ""
            os.close(fd)
            who = f" (pid {pid})" if digits(pid) else ""
            raise OutputPathError(
                f"{what} {d}: another loki run{who} is writing into this folder; wait for it or choose another {what}"
            ) from None
        except OSError as e:
            os.close(fd)
            raise OutputPathError(f"{what} {d}: cannot lock the folder: {e.strerror or e}") from None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except OSError:  # removed by the run that held it, between our open and our lock
            same = False
        if same:
            return fd
        os.close(fd)  # the file we locked was removed: lock the one now at the path
    raise OutputPathError(f"{what} {d}: cannot lock the folder: its lock file keeps changing")  # pragma: no cover
