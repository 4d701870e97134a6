"""What every ``loki`` command shares: the option vocabulary, the error style and the app's group class.

**Options.**  One name, one meaning everywhere (the factories below build them):

- ``--player SPEC`` — the player in a seat, as a registry spec (``loki1``, ``loki1:TA``,
  ``loki2:BR``, ``loki2:BRS:LA:trials=100``, ``random``, ``calling``); repeated where several seats
  are given (``dealer``, ``play``), once per seat, seat 1 first;
- ``--players N`` — the number of players at the table (2-10);
- ``--hands N`` — hands dealt (one hand = one deal played once), at most :data:`MAX_HANDS`;
- ``--deals N`` — ``tournament`` only: distinct deals, each replayed once per seating, so a
  tournament of ``D`` deals at ``n`` players plays ``D x n`` hands;
- ``--seed N`` — the master seed (0 to 2**64 - 1) of the cards and of the players;
- ``--out PATH`` — where the command writes its result: a file (``dealer``'s ACPC log, ``play``'s
  hand history, ``replay``'s histogram, ``ir-tables``' CSV) or a folder (``tournament``).

Seats are numbered from 1 in everything the commands read and print.

**Errors.**  Every :class:`loki.errors.LokiError` (and a lost connection) raised by a command, every
bad option and every output that cannot be written ends the command with one line
``error: <message>`` on stderr and exit code 2 (:class:`LokiGroup`); there is no traceback.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup

from loki.errors import ConfigError, LokiError
from loki.io.limits import digits

__all__ = [
    "dask_client",
    "Stopped",
    "signals_stop_the_run",
    "EXIT_ERROR",
    "LokiGroup",
    "error_line",
    "fail",
    "merge_alias",
    "player_option",
    "players_option",
    "seed_option",
    "hands_option",
    "out_option",
    "check_input_file",
    "json_option",
    "echo_json",
    "PLAYER_SPEC_HELP",
    "MAX_HANDS",
    "MAX_SEED",
    "MAX_ACPC_SEED",
    "MAX_WORKERS",
    "acpc_seed_option",
    "workers_option",
]

#: ``--hands`` at most (a command's hands, results and logs must fit in memory and on disk).
MAX_HANDS = 10_000_000
#: ``--seed`` at most: a 64-bit word (the tournament configuration's cap, :data:`loki.tournament.config.MAX_SEED`).
MAX_SEED = 2**64 - 1
#: ``--seed`` of an ACPC deal at most: the ACPC dealer's seed is a 32-bit word.
MAX_ACPC_SEED = 2**32 - 1
#: ``--workers`` at most (the tournament runner's cap, :data:`loki.tournament.runner.MAX_WORKERS`; not imported, so
#: that ``loki --help`` stays light; tests/test_hostile_inputs.py ties the two).
MAX_WORKERS = 256

#: Exit code of every error (bad option, bad input, unwritable output): click's usage-error code.
EXIT_ERROR = 2

PLAYER_SPEC_HELP = "a player spec: loki1, loki1:TA, loki2:BR, loki2:BRS:LA:trials=100, random, calling"

T = TypeVar("T")


#: The longest message an error line prints (characters; a longer one, e.g. echoing a 5,000-character argument, is
#: cut and marked ``…``).
MAX_ERROR_CHARS = 2000


def error_line(message: object) -> str:
    """``"error: <message>"`` on one line (line breaks of ``message`` become spaces), every other character a terminal
    could act on escaped (:func:`loki.io.names.shown`: a name from a log in a message never reaches the terminal raw),
    at most :data:`MAX_ERROR_CHARS` characters of it.

    >>> error_line("bad\\nthing"), error_line("no player \\x1b[2J")
    ('error: bad thing', 'error: no player \\\\x1b[2J')
    >>> len(error_line("host " + "a" * 5000))
    2008
    """
    from loki.io.names import shown

    return "error: " + shown(" ".join(str(message).split("\n")).strip(), limit=MAX_ERROR_CHARS)


def fail(message: str) -> NoReturn:
    """Stop the command with ``error: <message>`` and exit code 2.

    Raises:
        ConfigError: always (reported by :class:`LokiGroup`).
    """
    raise ConfigError(message)


def merge_alias(new: str, new_value: T | None, old: str, old_value: T | None) -> T | None:
    """The value of option ``new``, or of its deprecated spelling ``old`` (with a warning on stderr).

    Raises:
        ConfigError: both spellings were given.
    """
    if old_value is None or old_value == []:
        return new_value
    if new_value is not None and new_value != []:
        fail(f"{old} is the old spelling of {new}: give {new} only")
    typer.echo(f"warning: {old} is deprecated, use {new}", err=True)
    return old_value


# ------------------------------------------------------------------ option factories


def player_option(default: str | None = "loki1", help: str = "The player.") -> Any:
    """``--player SPEC`` for one seat (a typer option; ``default`` a spec or None)."""
    return typer.Option(default, "--player", metavar="SPEC", help=f"{help} SPEC is {PLAYER_SPEC_HELP}.")


def players_option(help: str = "The players, one per seat (repeat the option, seat 1 first).") -> Any:
    """``--player SPEC`` repeated, one per seat (a typer option collecting a list)."""
    return typer.Option(None, "--player", metavar="SPEC", help=f"{help} SPEC is {PLAYER_SPEC_HELP}.")


def seed_option(default: int | None = 0, help: str = "Seed of the cards and the players (>= 0).") -> Any:
    """``--seed N`` (0 to :data:`MAX_SEED`)."""
    return typer.Option(default, "--seed", "-s", min=0, max=MAX_SEED, help=help)


def acpc_seed_option(
    default: int = 0, help: str = "Seed of the deal: the ACPC dealer's cards for the same seed."
) -> Any:
    """``--seed N`` of an ACPC deal (0 to :data:`MAX_ACPC_SEED`, shown as the option's range)."""
    return typer.Option(default, "--seed", "-s", min=0, max=MAX_ACPC_SEED, help=help)


def workers_option(help: str = "Local worker processes (default: all cores; 0 or 1 = in this process).") -> Any:
    """``--workers N`` (0 to :data:`MAX_WORKERS`; None = all cores)."""
    return typer.Option(None, "--workers", "-w", min=0, max=MAX_WORKERS, help=help)


def hands_option(default: int | None, help: str = "Hands to deal.") -> Any:
    """``--hands N`` (1 to :data:`MAX_HANDS`)."""
    return typer.Option(default, "--hands", min=1, max=MAX_HANDS, help=help)


def _out_path(text: str) -> Path:
    # typer would turn an empty --out into Path("."), the current folder: an empty path (a script's unset variable)
    # is refused instead
    if not text.strip():
        raise typer.BadParameter("expected a path, got an empty string")
    if "\0" in text:
        raise typer.BadParameter("a path cannot hold a NUL character")
    return Path(text)


def check_input_file(path: Path, what: str = "FILE") -> Path:
    """``path`` if something is there to read (the reader refuses what is not a regular file); else one error that
    ``loki replay`` and ``loki explain`` word alike, with a hint when the path is in ``../shared``, the project's
    companion folder of reference material (not shipped with loki).

    Raises:
        HandHistoryError: nothing at ``path``.
    """
    from loki.errors import HandHistoryError

    if os.path.lexists(path):
        return path
    hint = ""
    if "shared" in Path(path).parts:
        hint = (
            " (../shared is the project's companion folder of reference material, next to a checkout of loki; it is not "
            "shipped with loki: see README, 'Playing for real')"
        )
    raise HandHistoryError(f"{what} {path}: no such file{hint}")


def out_option(help: str) -> Any:
    """``--out PATH``: the file or folder the command writes (an empty path is refused, not taken for ``.``)."""
    return typer.Option(None, "--out", "-o", metavar="PATH", help=help, parser=_out_path)


def json_option() -> Any:
    """``--json``: print the command's result as one JSON object on stdout (everything else goes to stderr)."""
    return typer.Option(
        False, "--json", help="Print the result as JSON on stdout (one object per line; messages go to stderr)."
    )


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one line of JSON on stdout (NaN and infinities become null).

    >>> echo_json({"a": 1, "b": float("nan")})
    {"a": 1, "b": null}
    """
    import json
    import math

    def clean(x: Any) -> Any:
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {str(k): clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        return x

    typer.echo(json.dumps(clean(obj)))


# ------------------------------------------------------------------ the error style


def _click_exceptions() -> Any:
    """The exception module of the click that typer runs on: recent typer carries its own copy
    (``typer._click``), older typer uses the ``click`` package."""
    try:
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - typer before it vendored click
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def _usage_message(e: Any, usage_error: type) -> str:
    msg = str(e.format_message())
    ctx = getattr(e, "ctx", None)
    if isinstance(e, usage_error) and ctx is not None:
        msg += f" (see '{ctx.command_path} --help')"
    return msg


def _drop_bad_terminal_size() -> None:
    """Forget ``COLUMNS`` or ``LINES`` when they are not a number in ASCII digits: rich reads them with ``int()`` after
    ``str.isdigit()``, which passes ``²``, and would fail with a traceback before any command runs."""
    for var in ("COLUMNS", "LINES"):
        v = os.environ.get(var)
        if v is not None and not digits(v.strip()):
            del os.environ[var]


class LokiGroup(TyperGroup):
    """The ``loki`` command group: runs a command and turns every error into one ``error: ...`` line
    on stderr with exit code 2 (click usage errors, :class:`~loki.errors.LokiError`,
    ``ConnectionError``); help, ``--version`` and ``typer.Exit`` keep their exit codes.  Its help lists each command
    with the first sentence of its help, wrapped, never cut short with "..."."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The command line as a process's entry point (``app()``, the ``loki`` script; a test's ``CliRunner`` calls
        :meth:`main` instead).  After a command in standalone mode, which then ends the process, every object left is
        frozen (:func:`gc.freeze`): the interpreter's shutdown no longer walks them in its last garbage collections,
        ~0.3 s of CPU in a process that loaded the compiled kernels (numba's typing objects and the tables, ~136,000
        objects; BENCHMARKS.md, "What a process costs around its deals").  The exit handlers, the flushing of the
        standard streams and the finalizers registered with :class:`weakref.finalize` still run; only cyclic garbage
        left at the end is not collected before the process's memory is returned.  An exit handler that lists objects
        (:func:`gc.get_objects` skips frozen ones) calls :func:`gc.unfreeze` first (``benchmarks/perf_kernels.py``)."""
        try:
            return self.main(*args, **kwargs)
        finally:
            if kwargs.get("standalone_mode", True):
                gc.freeze()

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        _drop_bad_terminal_size()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        cx = _click_exceptions()
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except cx.NoArgsIsHelpError as e:
            e.show()
            code = e.exit_code
        except cx.ClickException as e:
            typer.echo(error_line(_usage_message(e, cx.UsageError)), err=True)
            code = EXIT_ERROR if isinstance(e, cx.UsageError) else e.exit_code
        except (getattr(cx, "Abort", typer.Abort), typer.Abort):
            typer.echo("error: aborted", err=True)
            code = 1
        except (LokiError, ConnectionError) as e:
            typer.echo(error_line(e), err=True)
            code = EXIT_ERROR
        else:
            code = rv if isinstance(rv, int) else 0
        sys.exit(code)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread like Ctrl-C's KeyboardInterrupt (``signum`` says which)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def signals_stop_the_run() -> Iterator[None]:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does (workers end, the journal keeps the finished blocks;
    exit code 128 + the signal: 143, 129).  A second signal acts as if loki had not handled the first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    sigs = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    old = {s: signal.getsignal(s) for s in sigs}

    def stop(signum: int, frame: Any) -> None:
        for s in sigs:
            signal.signal(s, signal.SIG_DFL)
        raise Stopped(signum)

    for s in sigs:
        signal.signal(s, stop)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def dask_client(scheduler: str) -> Any:
    """A Dask ``distributed.Client`` connected to ``scheduler`` (``tcp://host:8786``), for ``--scheduler``.

    Exits with one ``error:`` line when Dask is not installed or the scheduler does not answer within 20 s.
    """
    try:
        from distributed import Client
    except ImportError:
        fail("--scheduler needs Dask: pip install 'loki-poker[cluster]'")
    try:
        return Client(scheduler, timeout="20s")
    except Exception as e:  # noqa: BLE001 - report any connection failure on one line
        fail(f"--scheduler {scheduler}: cannot connect to the Dask scheduler: {e}")
