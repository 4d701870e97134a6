"""Line-oriented socket I/O for the ACPC dealer and client: bounded lines, absolute deadlines.

A peer on the network may send nothing, trickle one byte at a time, send a line of 512 MiB or
vanish.  :class:`LineReader` reads ``\\n``-terminated lines from a socket so that none of this can
hold a match forever or fill the memory:

- every read is given an absolute *deadline* (``time.monotonic()`` seconds): bytes that arrive
  slowly do not extend it, and :meth:`LineReader.readline` raises :class:`PeerTimeout` once it has
  passed, whatever arrived before;
- at most ``max_line`` bytes (the line end not counted) are buffered: a longer line raises
  :class:`LineTooLong` after reading at most ``max_line + 2`` bytes of it;
- a connection closed by the peer (or reset) raises :class:`PeerClosed`.

All three are :class:`~loki.errors.PeerError` (a :class:`~loki.errors.ProtocolError`), with a
one-line message naming the peer.  The raw socket is used (never ``socket.makefile``, whose file
object refuses every read after one timeout), so a reader stays usable after a timeout.

>>> a, b = socket.socketpair()
>>> b.sendall(b"MATCHSTATE:0:0::5d5c|\\r\\n# a comment\\r\\n")
>>> r = LineReader(a, "the dealer")
>>> r.readline(time.monotonic() + 1)
'MATCHSTATE:0:0::5d5c|'
>>> r.readline(time.monotonic() + 1)
'# a comment'
>>> try:
...     r.readline(time.monotonic() + 0.01)
... except PeerTimeout as e:
...     print(e)
the dealer: no complete line before the deadline
>>> a.close(); b.close()
"""

from __future__ import annotations

import math
import socket
import time

from loki.errors import ConfigError, PeerError

__all__ = [
    "MAX_LINE",
    "MAX_TIMEOUT",
    "CLIP",
    "LineReader",
    "PeerTimeout",
    "LineTooLong",
    "PeerClosed",
    "send_line",
    "clip",
    "check_timeout",
]

#: Longest line accepted, in bytes without the line end.  ACPC messages of limit games are far
#: shorter (a 10-player river state is about 150 bytes); the ACPC dealer's own bound is 4,096
#: characters (``MAX_LINE_LEN``, ``net.h``).
MAX_LINE = 4096

#: The longest timeout any network wait accepts, in seconds: one week.  ``socket.settimeout`` overflows
#: past about 9.2e9 s (``time_t`` nanoseconds), and nobody waits a week for a poker action; every
#: timeout option (``--t-connect``, ``--t-response``, ``--t-hand``, ``--t-per-hand``, ``loki acpc
#: --timeout``) is checked against it with :func:`check_timeout`, and the readers below never hand the
#: socket a longer wait.
MAX_TIMEOUT = 7 * 24 * 3600.0


def check_timeout(value: object, name: str, *, optional: bool = False) -> float | None:
    """``value`` as a number of seconds, checked: positive, finite and at most :data:`MAX_TIMEOUT`.

    Args:
        value: the timeout, seconds (int or float; None only with ``optional``).
        name: how the error names it (``"--t-connect"``, ``"t_response"``).
        optional: None is allowed (no limit) and returned as is.

    Raises:
        ConfigError: not a number, not positive, NaN, infinite or above the cap; the message names ``name``
            and the cap.

    >>> check_timeout(2, "--timeout")
    2.0
    >>> try:
    ...     check_timeout(1e10, "--t-connect")
    ... except ConfigError as e:
    ...     print(e)
    --t-connect 1e+10: expected a positive number of seconds, at most 604800 (one week, MAX_TIMEOUT)
    """
    if value is None and optional:
        return None
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or not 0 < value <= MAX_TIMEOUT:  # type: ignore[operator]  # NaN fails both comparisons
        shown = f"{value:g}" if ok else repr(value)  # type: ignore[str-format]
        label = f"{name} {shown}" if name.startswith("--") else f"{name} = {shown}"
        raise ConfigError(
            f"{label}: expected a positive number of seconds, at most {MAX_TIMEOUT:g} (one week, MAX_TIMEOUT)"
        )
    return float(value)  # type: ignore[arg-type]


def _wait(left: float) -> float | None:
    """A socket timeout for ``left`` seconds (None: block), never above :data:`MAX_TIMEOUT`."""
    return None if math.isinf(left) else min(left, MAX_TIMEOUT)


class PeerTimeout(PeerError):
    """No complete line before the deadline."""


class LineTooLong(PeerError):
    """A line longer than the reader's ``max_line``."""


class PeerClosed(PeerError):
    """The peer closed (or reset) the connection."""


class LineReader:
    """Reads ``\\n``-terminated lines from ``sock`` within deadlines (module docstring).

    Args:
        sock: a connected stream socket (its timeout is changed by every read).
        peer: how messages name the peer (``"seat 2 (p2)"``, ``"the dealer at 127.0.0.1:9001"``).
        max_line: the longest line accepted, in bytes, the line end not counted.
    """

    def __init__(self, sock: socket.socket, peer: str, max_line: int = MAX_LINE):
        self.sock = sock
        self.peer = peer
        self.max_line = max_line
        self.buf = bytearray()
        self.bytes_read = 0

    def readline(self, deadline: float) -> str:
        """The next line, decoded as ASCII (bad bytes replaced), without ``\\r\\n``.

        Args:
            deadline: ``time.monotonic()`` by which the whole line must have arrived
                (``math.inf``: wait as long as it takes).

        Raises:
            PeerTimeout: no complete line by the deadline (the bytes read so far are kept).
            LineTooLong: the line exceeds ``max_line`` bytes.
            PeerClosed: the peer closed or reset the connection.
        """
        while True:
            i = self.buf.find(b"\n")
            if i >= 0:
                raw = bytes(self.buf[:i])
                del self.buf[: i + 1]
                if len(raw.rstrip(b"\r")) > self.max_line:
                    raise LineTooLong(f"{self.peer}: sent a line longer than {self.max_line} bytes")
                return raw.decode("ascii", "replace").rstrip("\r")
            if len(self.buf) > self.max_line + 1:
                raise LineTooLong(f"{self.peer}: sent a line longer than {self.max_line} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise PeerTimeout(f"{self.peer}: no complete line before the deadline")
            try:
                self.sock.settimeout(_wait(left))
                chunk = self.sock.recv(min(65536, self.max_line + 2 - len(self.buf)))
            except TimeoutError:
                continue  # the loop reports the timeout
            except OSError as e:
                raise PeerClosed(f"{self.peer}: connection lost ({e.strerror or e})") from None
            if not chunk:
                raise PeerClosed(f"{self.peer}: closed the connection")
            self.bytes_read += len(chunk)
            self.buf += chunk


def send_line(sock: socket.socket, text: str, deadline: float, peer: str) -> None:
    """Send ``text + "\\r\\n"`` by ``deadline`` (``time.monotonic()``).

    Raises:
        PeerTimeout: the peer does not read (its buffers stay full) until the deadline.
        PeerClosed: the connection is closed or reset.
    """
    data = (text + "\r\n").encode("ascii", "replace")
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            raise PeerTimeout(f"{peer}: does not read its messages (sending blocked)")
        try:
            sock.settimeout(_wait(left))
            n = sock.send(view)
        except TimeoutError:
            continue
        except OSError as e:
            raise PeerClosed(f"{peer}: connection lost ({e.strerror or e})") from None
        view = view[n:]


#: Characters of a peer's line quoted in logs and errors (:func:`clip`).
CLIP = 200


def clip(text: str, limit: int = CLIP) -> str:
    """``repr(text)`` cut to ``limit`` characters, with the full length, for logs and errors
    (a dealer may send an enormous garbage line).

    >>> clip("x" * 1000, 5)
    "'xxxxx'... (1000 chars)"
    """
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} chars)"
