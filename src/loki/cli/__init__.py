"""The ``loki`` command line: one typer app, one module per command group.

=================  ====================================  ==========================================
command            module                                what it does
=================  ====================================  ==========================================
``tournament``     :mod:`loki.cli.tournament`            duplicate tournaments (AAAI-99 §6)
``acpc``           :mod:`loki.cli.acpc`                  play a match against an ACPC dealer
``dealer``         :mod:`loki.cli.acpc`                  deal an ACPC match on loopback
``match``          :mod:`loki.cli.match`                 a dealer and every seat in one command
``replay``         :mod:`loki.cli.replay`                replay a real log through Loki
``play``           :mod:`loki.cli.play`                  play at the terminal against Loki bots
``demo``           :mod:`loki.cli.play`                  self-play demo of the reference players
``explain``        :mod:`loki.cli.explain`               why Loki decided as it did (a log or a spot)
``web``            :mod:`loki.cli.web`                   play in the browser, with explanations
``ir-tables``      :mod:`loki.cli.tables`                regenerate the income-rate tables
``warmup``         :mod:`loki.cli.warmup`                compile the numba kernels once, after an install
``league``         :mod:`loki.cli.league`                a heads-up round robin as a cross table
``lbr``            :mod:`loki.cli.lbr`                   a local best response: a lower bound on exploitability
``version``        here (also ``loki --version``)        print the version
=================  ====================================  ==========================================

Shared options and the error style (``error: ...`` on stderr, exit code 2) are described in
:mod:`loki.cli._common`.  Importing this package, and ``loki --help``, import neither numba nor the
engine or the evaluator: every command imports what it needs when it runs.
"""

from __future__ import annotations

import os

# Every loki command does its linear algebra on vectors of at most 1,326 floats, which OpenBLAS never splits between
# threads; its threads (one per core, numpy's library and scipy's) only spin when they start, about 0.1 s of CPU each
# per process and per tournament worker.  One thread unless the user asked for more.  Set before numpy is imported:
# this package imports no numpy (see above), and worker processes inherit the environment.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer

from loki.cli import acpc as _acpc
from loki.cli import explain as _explain
from loki.cli import lbr as _lbr
from loki.cli import league as _league
from loki.cli import match as _match
from loki.cli import play as _play
from loki.cli import replay as _replay
from loki.cli import tables as _tables
from loki.cli import tournament as _tournament
from loki.cli import tune as _tune
from loki.cli import warmup as _warmup
from loki.cli import web as _web
from loki.cli._common import LokiGroup

__all__ = ["app", "main"]

app = typer.Typer(
    name="loki",
    cls=LokiGroup,
    help="Loki-2 limit Texas Hold'em: the program of Billings, Peña, Schaeffer and Szafron (AAAI-99) and its laboratory.",
    no_args_is_help=True,
    add_completion=False,
    # click's plain help: wrapped at the terminal's width (80 columns in a pipe) at word boundaries, never a word cut
    # with an ellipsis as typer's rich panels cut a long default, spec or path
    rich_markup_mode=None,
    context_settings={"max_content_width": 200},  # as wide as the terminal (COLUMNS), up to 200 columns
)


def _print_version(value: bool) -> None:
    if value:
        from loki import __version__

        typer.echo(__version__)
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the loki version and exit."
    ),
) -> None:
    """Loki-2 limit Texas Hold'em and its laboratory.

    Seats are numbered from 1.  Errors are one line 'error: ...' on stderr, exit code 2.
    """


@app.command("version")
def version() -> None:
    """Print the loki version."""
    from loki import __version__

    typer.echo(__version__)


app.command("tournament")(_tournament.tournament)
app.command("tune")(_tune.tune)
app.command("league")(_league.league)
app.command("lbr")(_lbr.lbr)
app.command("acpc")(_acpc.acpc)
app.command("dealer")(_acpc.dealer)
app.command("match")(_match.match)
app.command("replay")(_replay.replay)
app.command("play")(_play.play)
app.command("demo")(_play.demo)
app.command("ir-tables")(_tables.ir_tables)
app.command("explain")(_explain.explain)
app.command("web")(_web.web)
app.command("warmup")(_warmup.warmup)


def main() -> None:
    """Run the ``loki`` command line (the ``[project.scripts]`` entry point calls :data:`app`)."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
