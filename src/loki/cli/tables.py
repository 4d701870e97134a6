"""``loki ir-tables``: regenerate the income-rate tables IR2, IR4, IR7."""

from __future__ import annotations

import typer

from loki.cli._common import out_option, seed_option

__all__ = ["ir_tables"]


def ir_tables(
    samples: int = typer.Option(
        1_000_000, "--samples", min=100, help="Sampled deals per hand class (Papp: 1,000,000)."
    ),
    seed: int = seed_option(1999, "Master seed (each class derives its own; >= 0)."),
    out: str | None = out_option("Output CSV (default: the shipped loki/data/income_rates.csv)."),
) -> None:
    """Regenerate the income-rate tables IR2, IR4, IR7 (PAPP98 Eq. 5.1; loki-algorithms.md §2.1)."""
    from rich.progress import Progress

    from loki.errors import LokiError, OutputPathError
    from loki.income_rate import check_output_path, generate

    try:
        check_output_path(out)  # before the (long) roll-outs
    except (LokiError, ValueError, OSError) as e:
        raise OutputPathError(f"--out: {e}") from None
    try:
        with Progress() as progress:
            task = progress.add_task("rolling out 169 classes x 3 tables", total=3 * 169)
            path = generate(samples, seed, out, progress=lambda done, total: progress.update(task, completed=done))
    except (LokiError, ValueError, OSError) as e:
        raise OutputPathError(f"ir-tables: {e}") from None
    typer.echo(f"wrote {path}")
