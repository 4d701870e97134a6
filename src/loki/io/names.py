"""Names from outside (player names in logs and hand histories, labels and names in configs and options), made safe
for every output: terminals, error lines, CSV files, file names.  One rule, two uses:

- :func:`name_problem` / :func:`check_name`: a name loki is *given to use* (a tournament's name and its players'
  labels, a league's labels, a web player's name, a dealer's seat names) must be printable text of at most
  :data:`MAX_NAME_CHARS` characters, not blank and without spaces at its ends; anything else is refused, naming
  the input.
- :func:`shown`: a name loki only *reports* (the players of a log it replays or explains) is written with every
  character a terminal could act on as a Python escape (``\\x1b``, ``\\x07``, ``\\u202e``, ``\\n``) and cut to
  :data:`MAX_SHOWN_CHARS` characters, so an OSC window title, a clear-screen or a colour in a log never reaches the
  terminal.  :func:`loki.cli._common.error_line` passes every error message through it too.
- :func:`shown_markup`: the same, as rich markup: a name or a path printed by a rich console (a table, a title, a
  progress bar, a line with styles of its own) keeps its ``[`` and ``]`` as written, never taken for a tag (``x[/]``
  would end the command with a ``MarkupError``, ``[red]`` would vanish).

"Printable" is :meth:`str.isprintable`: no control characters (C0, C1: ``ESC``, ``BEL``, ``NUL``), no format
characters (the bidirectional overrides ``U+202E``...), no line or paragraph separators, no lone surrogates, no
unassigned code points; the space is the only printable white space.

>>> shown("\\x1b]0;PWNED\\x07\\x1b[2Jevil")
'\\\\x1b]0;PWNED\\\\x07\\\\x1b[2Jevil'
>>> shown("x" * 100)[-3:], len(shown("x" * 100))
('xx…', 65)
>>> print(shown_markup("out/x[/] [bold]\\x1b]0;PWNED\\x07", None))
out/x\\[/] \\[bold]\\x1b]0;PWNED\\x07
>>> name_problem("loki2:BR"), name_problem("a\\x00b"), name_problem(" x")
(None, 'not printable text (a control or format character)', 'spaces at its ends')
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["MAX_NAME_CHARS", "MAX_SHOWN_CHARS", "name_problem", "check_name", "shown", "shown_markup"]

#: A name or label loki is given to use, at most (characters).
MAX_NAME_CHARS = 100
#: A name from outside as shown by :func:`shown`, at most (characters; longer ones end with ``…``).
MAX_SHOWN_CHARS = 64


def name_problem(name: object, *, limit: int = MAX_NAME_CHARS, ascii_only: bool = False) -> str | None:
    """Why ``name`` cannot be used as a name or label (a short phrase), or None when it can.

    Args:
        name: the candidate.
        limit: most characters allowed.
        ascii_only: also require ASCII (an ACPC log is ASCII).
    """
    if not isinstance(name, str):
        return f"not text ({type(name).__name__})"
    if not name.strip():
        return "empty"
    if len(name) > limit:
        return f"longer than {limit} characters ({len(name):,})"
    if name != name.strip():
        return "spaces at its ends"
    if not name.isprintable():
        return "not printable text (a control or format character)"
    if ascii_only and not name.isascii():
        return "not printable ASCII"
    return None


def check_name(
    name: object,
    what: str,
    error: Callable[[str], Exception],
    *,
    limit: int = MAX_NAME_CHARS,
    ascii_only: bool = False,
) -> str:
    """``name`` if it can be used as a name (:func:`name_problem`).

    Raises:
        error: ``"<what> <shown name>: <problem>; expected printable text of 1 to <limit> characters"``.
    """
    why = name_problem(name, limit=limit, ascii_only=ascii_only)
    if why is None:
        assert isinstance(name, str)
        return name
    kind = "printable ASCII" if ascii_only else "printable text"
    quoted = shown(repr(name) if isinstance(name, str) else name)
    raise error(f"{what} {quoted}: {why}; expected {kind} of 1 to {limit} characters")


def _escape(c: str) -> str:
    return repr(c)[1:-1] if c != "'" else c


def shown(text: object, limit: int | None = MAX_SHOWN_CHARS) -> str:
    """``text`` safe to print: each character that is not printable written as its Python escape (``\\x1b``), the
    result cut to ``limit`` characters (``…`` marks a cut, so at most ``limit + 1``; None: no cut).  Printable text of
    at most ``limit`` characters comes back unchanged."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[: limit + 1]  # enough to know whether the escaped text is cut
    if not s.isprintable():
        s = "".join(c if c.isprintable() else _escape(c) for c in s)
    if limit is not None and len(s) > limit:
        return s[:limit] + "…"
    return s


def shown_markup(text: object, limit: int | None = MAX_SHOWN_CHARS) -> str:
    """``text`` safe to print (:func:`shown`) as rich markup: every ``[`` that could open a tag escaped too, so a rich
    console prints the text as written (``x[/]``, ``[bold]``, ``[x] = 'y'`` literally) inside markup of its own
    (``f"results in [bold]{shown_markup(folder, None)}[/]"``).

    Args:
        text: a name, a label or a path (anything: ``str()`` of it).
        limit: as :func:`shown` (None: no cut, e.g. a path that must be printed whole).
    """
    from rich.markup import escape

    return escape(shown(text, limit))
