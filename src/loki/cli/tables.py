"""``loki ir-tables``: regenerate the income-rate tables IR2, IR4, IR7."""

from __future__ import annotations

import typer

from loki.cli._common import out_option, seed_option

__all__ = ["ir_tables"]


def ir_tables(
    samples: int = typer.Option(
        1_000_000,
        "--samples",
        min=100,
        help="Sampled deals per hand class (Papp: 1,000,000; at most 100,000,000, checked before any roll-out).",
    ),
    seed: int = seed_option(1999, "Master seed (each class derives its own; >= 0)."),
    out: str | None = out_option(
        "Output CSV (default: ./income_rates.csv, or income_rates-1.csv, ... if taken; never loki's shipped "
        "data, which --out may not name either)."
    ),
) -> None:
    """Regenerate the income-rate tables IR2, IR4, IR7 (PAPP98 equation 5.1; loki-algorithms.md §2.1).

    The tables loki ships (loki/data/income_rates.csv) are never overwritten: the new ones go to the
    current folder (or --out).
    """
    from pathlib import Path

    from rich.progress import Progress

    import loki
    from loki.assessment.income_rate import MAX_SAMPLES, rollout_tables, write_tables
    from loki.cli._common import fail
    from loki.errors import OutputPathError
    from loki.io.files import atomic_target
    from loki.io.outpath import check_output_path, free_path, make_folder

    if samples > MAX_SAMPLES:
        fail(f"--samples {samples}: at most {MAX_SAMPLES:,} deals per hand class (Papp used 1,000,000)")

    target = Path(out) if out is not None else free_path("income_rates.csv")
    shipped = (Path(loki.__file__).resolve().parent / "data").resolve()
    if target.resolve().parent == shipped or shipped in target.resolve().parents:
        raise OutputPathError(
            f"--out {target}: that is loki's shipped data folder ({shipped}); write the tables elsewhere "
            "(the shipped ones are the reference of every player)"
        )
    # before the (long) roll-outs: a new file or a regular one (never a device, FIFO or link), in a folder made here
    if not target.parent.exists():
        make_folder(target.parent, "--out")
    check_output_path(target, "--out")
    with Progress() as progress:
        task = progress.add_task("rolling out 169 classes x 3 tables", total=3 * 169)
        tables = rollout_tables(samples, seed, progress=lambda done, total: progress.update(task, completed=done))
    try:
        with atomic_target(target) as tmp:
            write_tables(tables, tmp, command=f"loki ir-tables --samples {samples} --seed {seed}")
    except OutputPathError as e:
        raise OutputPathError(f"--out {e}") from None
    except OSError as e:
        raise OutputPathError(f"--out {target}: cannot write it: {e.strerror or e}") from None
    from loki.io.names import shown

    typer.echo(f"wrote {shown(target, None)} (loki's shipped tables are unchanged)")
