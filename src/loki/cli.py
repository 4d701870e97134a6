"""The ``loki`` command line."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="loki",
    help="Loki-2 limit Texas Hold'em: the program of Billings, Peña, Schaeffer and Szafron (AAAI-99) and its laboratory.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main() -> None:
    """Loki-2 limit Texas Hold'em and its laboratory."""


@app.command()
def version() -> None:
    """Print the loki version."""
    from loki import __version__

    typer.echo(__version__)


if __name__ == "__main__":  # pragma: no cover
    app()
