"""Resource limits where files and text come in: sizes, line lengths and nesting depths, checked before parsing.

Every reader of an input file goes through this module, so that no input (``/dev/zero``, a file of one
endless line, arrays nested a million deep, a key of a hundred thousand dotted parts) can make loki read
without end, grow its memory without bound, or fail with a ``RecursionError``/``MemoryError`` traceback.
Each limit is named in the error it raises, with the file:

=========================  =========  ==================================================================
limit                      value      applies to
=========================  =========  ==================================================================
:data:`MAX_CONFIG_BYTES`   1 MiB      a tournament TOML file (``--config``), ``run.json`` read back
:data:`MAX_GAMEDEF_BYTES`  64 KiB     an ACPC game definition (``--game``)
:data:`MAX_LOG_BYTES`      64 MiB     an ACPC log or a PHH file (``loki replay``, ``loki explain``): read
                                      as a stream, line by line (ACPC) or hand by hand (PHH)
:data:`MAX_LINE_BYTES`     64 KiB     one line of an ACPC log
:data:`MAX_PHH_HAND_BYTES`  1 MiB     one hand (one ``[n]`` table) of a PHH file
:data:`MAX_LOG_HANDS`      100,000    hands read from one log or PHH file (``--hands N`` reads the first N)
:data:`MAX_NOTES`          1,000      warnings and skipped hands listed per file (the rest are counted)
:data:`MAX_REPLAY_PLAYERS` 1,000      distinct player names in one replay (each gets its own bot and models)
:data:`MAX_NESTING`        32         arrays and tables inside each other (TOML, PHH, JSON), and the
                                      parts of one dotted TOML key (``a.b.c``)
=========================  =========  ==================================================================

TOML is checked by a scan of the text before :mod:`tomllib` sees it (:func:`toml_shape`: tomllib recurses
into nested arrays and its memory grows with the square of a dotted key's parts), then the parsed value
once more (:func:`check_nesting`).  JSON nesting is bounded by the C parser's recursion guard (turned into
an error here) and by :func:`check_nesting` on the value.

>>> parse_toml("a = [[1], {b = 2}]", "x.toml", ValueError)
{'a': [[1], {'b': 2}]}
>>> parse_toml("a = " + "[" * 40 + "]" * 40, "x.toml", ValueError)
Traceback (most recent call last):
...
ValueError: x.toml line 1: arrays or tables nested 40 deep: the limit is 32
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from loki.errors import LokiError

__all__ = [
    "digits",
    "MAX_CONFIG_BYTES",
    "MAX_GAMEDEF_BYTES",
    "MAX_LOG_BYTES",
    "MAX_LINE_BYTES",
    "MAX_PHH_HAND_BYTES",
    "MAX_NESTING",
    "MAX_LOG_HANDS",
    "MAX_NOTES",
    "MAX_REPLAY_PLAYERS",
    "size_text",
    "read_capped",
    "open_input",
    "open_regular",
    "file_kind",
    "iter_lines",
    "toml_shape",
    "parse_toml",
    "check_nesting",
    "loads_json",
]

#: A tournament TOML file (and ``run.json``, read back for the journal's key), bytes.
MAX_CONFIG_BYTES = 1 << 20
#: An ACPC game definition file, bytes.
MAX_GAMEDEF_BYTES = 64 << 10
#: An ACPC log or a PHH hand-history file, bytes (read as a stream).
MAX_LOG_BYTES = 64 << 20
#: One line of an ACPC log, bytes (a 10-player ``STATE`` line is about 200).
MAX_LINE_BYTES = 64 << 10
#: One hand (one ``[n]`` table) of a PHH file, bytes (a 10-player hand is about 1 KiB).
MAX_PHH_HAND_BYTES = 1 << 20
#: Arrays/tables nested inside each other (TOML, PHH, JSON), and parts of one dotted TOML key.
MAX_NESTING = 32
#: Hands read from one ACPC log or PHH file (about 1 KiB of memory each); ``--hands N`` reads the first N.
MAX_LOG_HANDS = 100_000
#: Warnings and skipped hands listed per file (further ones are counted in one last entry).
MAX_NOTES = 1000
#: Distinct player names one replay of a log models (``loki replay``, ``loki explain``): each gets a bot of its own.
MAX_REPLAY_PLAYERS = 1000

ErrorType = Callable[[str], LokiError] | type[Exception]


def digits(text: str) -> bool:
    """``text`` is a non-empty run of ASCII digits ``0-9``: a number ``int()`` reads.  (``str.isdigit()`` also passes
    digits such as ``²``, which ``int()`` refuses.)

    >>> digits("42"), digits("²"), digits(""), digits("-1")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def size_text(n: int) -> str:
    """``n`` bytes for a message: ``"64 MiB"``, ``"64 KiB"``, ``"100 bytes"``.

    >>> size_text(1 << 20), size_text(65536), size_text(100)
    ('1 MiB', '64 KiB', '100 bytes')
    """
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


#: What messages call each kind of file that is not a regular file (:func:`file_kind`).
_NOT_FILES = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``st_mode``) is when it is not a regular file, for messages (``"a FIFO (named
    pipe)"``); None for a regular file.

    >>> file_kind(os.stat("/dev/null").st_mode), file_kind(stat.S_IFREG)
    ('a character device', None)
    """
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _NOT_FILES if test(mode)), "not a regular file")


def open_regular(path: str | os.PathLike[str]) -> IO[bytes]:
    """``path`` opened for reading in binary if it is a regular file (the one rule for opening an input): the open
    does not block (``O_NONBLOCK``: a FIFO with no writer, a tty), the opened file is checked on its descriptor
    (``fstat``), and only then is the descriptor made blocking again.  A FIFO, a device, a socket or a folder is
    refused at once, without a read.

    Raises:
        OSError: the file cannot be opened (``FileNotFoundError`` when nothing is there), or it is not a regular file
            (``errno.EINVAL``, ``strerror`` naming what it is: ``"it is a FIFO (named pipe), not a regular file"``).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:  # a socket cannot be opened (ENXIO): say what it is
        try:
            kind = file_kind(os.stat(path).st_mode)
        except OSError:
            kind = None
        if kind is None:
            raise
        raise OSError(errno.EINVAL, f"it is {kind}, not a regular file") from e
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise OSError(errno.EINVAL, f"it is {kind}, not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return open(fd, "rb")  # noqa: SIM115 - the caller closes it


def open_input(path: str | os.PathLike[str], what: str, error: ErrorType) -> IO[bytes]:
    """``path`` opened for reading in binary, if it is a regular file (:func:`open_regular`).

    Args:
        path: the file.
        what: what the file is, for messages, with its article (``"an ACPC log"``).
        error: the exception class to raise (a :class:`~loki.errors.LokiError` subclass).

    Raises:
        error: the file cannot be opened (missing, no permission) or is not a regular file (a folder, a FIFO, a
            device: refused at once, nothing read); the message names it.

    >>> open_input("/dev/zero", "a config file", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: /dev/zero: cannot read a config file: it is a character device, not a regular file
    """
    p = Path(path)
    try:
        return open_regular(p)
    except OSError as e:
        raise error(f"{p}: cannot read {what}: {_reason(e)}") from None
    except ValueError as e:  # a NUL in the path
        raise error(f"{str(p)!r}: cannot read {what}: not a usable file name ({e})") from None


def read_capped(path: str | os.PathLike[str], limit: int, what: str, error: ErrorType) -> bytes:
    """The bytes of ``path``, at most ``limit`` of them: never reads more than ``limit + 1`` bytes, and only from a
    regular file (:func:`open_input`: ``/dev/zero``, a FIFO, a folder are refused at once).

    Raises:
        error: the file cannot be read, is not a regular file, or holds more than ``limit`` bytes (the message
            names the file, ``what`` it is and the limit).
    """
    with open_input(path, what, error) as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise error(f"{path}: cannot read {what}: {_reason(e)}") from None
    if len(data) > limit:
        raise error(f"{path}: larger than {size_text(limit)}, the limit for {what}")
    return data


def iter_lines(
    f: IO[bytes],
    source: str,
    what: str,
    error: ErrorType,
    *,
    line_limit: int,
    total_limit: int,
    skip_long: bool = False,
) -> Iterator[tuple[int, bytes | int]]:
    """``(line number, line without its end)`` of an open binary file, read one line at a time (memory: one
    line of at most ``line_limit`` bytes).

    Args:
        skip_long: a line longer than ``line_limit`` is read past (in pieces) and given as its length in bytes
            (an ``int``) instead of raising.

    Raises:
        error: (without ``skip_long``) a line longer than ``line_limit`` bytes, more than ``total_limit``
            bytes in all, or a NUL byte (no text format loki reads has one: a binary file, ``/dev/zero``); the
            message names ``source``, the line and the limit.
    """
    total = 0
    i = 0
    while True:
        try:
            raw = f.readline(line_limit + 2)
            i += 1
            if not raw:
                return
            total += len(raw)
            long = len(raw) > line_limit + 1 and not raw.endswith(b"\n")  # longer than the limit
            if b"\0" in raw:  # no text format loki reads has a NUL byte: binary (or /dev/zero)
                if long:
                    raise error(
                        f"{source}:{i}: a line longer than {size_text(line_limit)} (the limit for a line of {what}) "
                        "with NUL bytes: not a text file (binary?)"
                    )
                raise error(f"{source}: not {what} (a NUL byte on line {i}: binary?)")
            body: bytes | int = raw.rstrip(b"\r\n")
            if long:
                if not skip_long:
                    raise error(
                        f"{source}:{i}: line longer than {size_text(line_limit)}, the limit for a line of {what}"
                    )
                length = len(raw)
                while raw and not raw.endswith(b"\n") and total <= total_limit:
                    raw = f.readline(line_limit + 2)
                    total += len(raw)
                    length += len(raw)
                body = length - (1 if raw.endswith(b"\n") else 0)
        except OSError as e:
            raise error(f"{source}: cannot read {what}: {_reason(e)}") from None
        if total > total_limit:
            raise error(f"{source}: larger than {size_text(total_limit)}, the limit for {what}")
        yield i, body


# ------------------------------------------------------------------------------------------ TOML


def _skip_string(text: str, i: int) -> int:
    """Index after the TOML string starting at ``text[i]`` (a quote); ``len(text)`` if it never closes."""
    q = text[i]
    n = len(text)
    if text.startswith(q * 3, i):  # multi-line: ends at the first unescaped triple quote
        j = i + 3
        while j < n:
            if q == '"' and text[j] == "\\":
                j += 2
                continue
            if text.startswith(q * 3, j):
                j += 3
                while j < n and text[j] == q:  # up to two more quotes belong to the string
                    j += 1
                return j
            j += 1
        return n
    j = i + 1
    while j < n and text[j] != "\n":
        c = text[j]
        if q == '"' and c == "\\":
            j += 2
            continue
        if c == q:
            return j + 1
        j += 1
    return j


def toml_shape(text: str) -> tuple[int, int, int]:
    """``(nesting, key_parts, line)``: the deepest arrays/inline tables nesting and the most parts of one
    dotted key (``a.b.c`` has 3, a table header's key included) in a TOML text, and the line of the
    first of them to pass :data:`MAX_NESTING` (0 when none does).  A scan of the text: strings and
    comments are skipped, nothing is built (linear time, constant memory).

    >>> toml_shape('a.b.c = [[1, {x = "[["}]]  # [[[')
    (3, 3, 0)
    """
    stack: list[str] = []  # "[" arrays, "{" inline tables
    key_mode = True  # reading a key (line start, header, after '{' or ',' in an inline table)
    parts = 1
    depth = most_parts = bad_line = 0
    line = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = _skip_string(text, i)
            line += text.count("\n", i, j)
            i = j
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            line += 1
            if not stack:
                key_mode, parts = True, 1
        elif key_mode:
            if c == ".":
                parts += 1
                most_parts = max(most_parts, parts)
                if parts > MAX_NESTING and not bad_line:
                    bad_line = line
            elif c == "=":
                key_mode, parts = False, 1
            elif c in "[]" and not stack:
                pass  # a table header [a.b] / [[a.b]]: its key's dots are counted above
            elif c == "}" and stack and stack[-1] == "{":  # an empty inline table
                stack.pop()
                key_mode = False
        else:
            if c in "[{":
                stack.append(c)
                depth = max(depth, len(stack))
                if len(stack) > MAX_NESTING and not bad_line:
                    bad_line = line
                if c == "{":
                    key_mode, parts = True, 1
            elif c in "]}":
                if stack:
                    stack.pop()
            elif c == "," and stack and stack[-1] == "{":
                key_mode, parts = True, 1
        i += 1
    return depth, max(most_parts, 1), bad_line


def _value_depth(value: Any) -> int:
    """Nesting depth of lists/tuples/dicts in ``value`` (0 for a scalar), computed without recursion."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        v, d = todo.pop()
        items: Any
        if isinstance(v, dict):
            items = v.values()
        elif isinstance(v, (list, tuple)):
            items = v
        else:
            continue
        d += 1
        deepest = max(deepest, d)
        if d > MAX_NESTING + 1:
            return d
        todo.extend((x, d) for x in items)
    return deepest


def check_nesting(value: Any, source: str, error: ErrorType, *, top: int = 1) -> None:
    """Refuse a parsed value whose arrays/tables nest deeper than :data:`MAX_NESTING` (``top`` levels
    of the value are the document itself: a TOML file's root table).

    Raises:
        error: too deep; the message names ``source`` and the limit.
    """
    d = _value_depth(value) - top
    if d > MAX_NESTING:
        raise error(f"{source}: arrays or tables nested more than {MAX_NESTING} deep (the limit)")


def parse_toml(
    text: str, source: str, error: ErrorType, *, parse_float: Callable[[str], Any] = float
) -> dict[str, Any]:
    """A TOML document, checked by :func:`toml_shape` before :func:`tomllib.loads` and by
    :func:`check_nesting` after.

    Args:
        text: the document.
        source: how messages name it (``"my.toml"``, ``"hands.phhs hand [3]"``).
        error: the exception class to raise.
        parse_float: as :func:`tomllib.loads` (pokerkit reads PHH numbers as ints or Decimals).

    Raises:
        error: malformed TOML (tomllib's message, with its line and column), an integer of more than 4300
            digits, arrays/tables nested deeper or a dotted key longer than :data:`MAX_NESTING`.
    """
    depth, parts, line = toml_shape(text)
    if depth > MAX_NESTING:
        raise error(f"{source} line {line}: arrays or tables nested {depth} deep: the limit is {MAX_NESTING}")
    if parts > MAX_NESTING:
        raise error(f"{source} line {line}: a dotted key of {parts} parts: the limit is {MAX_NESTING}")
    try:
        d = tomllib.loads(text, parse_float=parse_float)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{source}: malformed TOML: {e}") from None
    except (ValueError, ArithmeticError) as e:  # an integer beyond Python's 4300 digits, a Decimal overflow
        raise error(f"{source}: malformed TOML: {' '.join(str(e).split())[:200]}") from None
    except RecursionError:  # pragma: no cover - toml_shape refuses such nesting first
        raise error(f"{source}: arrays or tables nested too deep (the limit is {MAX_NESTING})") from None
    check_nesting(d, source, error)
    return d


# ------------------------------------------------------------------------------------------ JSON


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"{text} is out of the range of a float")
    return x


def loads_json(raw: bytes | str, source: str, error: ErrorType) -> Any:
    """Strict JSON: no ``NaN``/``Infinity`` (Python's ``json`` reads them by default), no number that
    overflows a float (``1e999``), nesting at most :data:`MAX_NESTING` deep.

    Raises:
        error: not UTF-8, not JSON, a non-finite number or too deep; the message names ``source``.

    >>> loads_json(b'{"a": [1, 2.5]}', "x", ValueError)
    {'a': [1, 2.5]}
    >>> loads_json(b'[NaN]', "x", ValueError)
    Traceback (most recent call last):
    ...
    ValueError: x: not strict JSON: NaN is not a JSON number
    """
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        v = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except UnicodeDecodeError:
        raise error(f"{source}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise error(f"{source}: not JSON: {e}") from None
    except ValueError as e:
        raise error(f"{source}: not strict JSON: {e}") from None
    except RecursionError:
        raise error(f"{source}: arrays or objects nested too deep (the limit is {MAX_NESTING})") from None
    check_nesting(v, source, error, top=0)
    return v
