"""``loki tournament``: the command-line face of :mod:`loki.tournament`.

``--deals`` (not ``--hands``) counts the tournament's *deals*: a deal fixes every seat's cards and
the board, and is replayed once per seating, so ``--deals D`` at ``n`` players plays ``D x n``
hands.  ``--deals``, ``--block-deals`` and ``--seed`` have the caps of the configuration file
(:mod:`loki.tournament.config`), ``--workers`` at most :data:`MAX_WORKERS`.  ``--out`` is the results folder: a real folder (never a symbolic link), new, empty or holding an earlier
tournament (another folder that holds files needs ``--overwrite``); a lock file in it (``.loki.lock``) keeps a second
run out.
Ctrl-C, SIGTERM and SIGHUP stop a run the same way: the workers end, the journal keeps every finished
block (``--resume`` continues), exit code 130, 143, 129.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import typer

from loki.cli._common import MAX_WORKERS, dask_client, out_option, seed_option, signals_stop_the_run, workers_option

__all__ = ["tournament", "run_with_progress", "MAX_WORKERS", "TOURNAMENT_MARKS"]

#: What only a tournament leaves in its results folder (:func:`loki.io.outpath.check_output_folder`).
TOURNAMENT_MARKS = ("journal.jsonl", "run.json")


def tournament(
    preset: str = typer.Option(
        "quick",
        "--preset",
        "-p",
        help="Shipped experiment (--list describes each): quick; the paper's designs fig3-B, fig3-R, fig3-BR, fig3-S, "
        "fig3-BRS, fig4; the fitted sets in Figure 3's field fig3-B-B1, fig3-S-S2, fig3-BRS-BRS3.",
    ),
    config: Path | None = typer.Option(
        None, "--config", "-c", help="Your own TOML tournament file (overrides --preset)."
    ),
    deals: int | None = typer.Option(
        None,
        "--deals",
        "-n",
        min=1,
        help="Number of deals; each is replayed once per seating, so D deals at n players are D x n hands "
        "(default: as the config says).",
    ),
    seed: int | None = seed_option(None, "Seed of the cards and the players (default: as the config says)."),
    workers: int | None = workers_option(),
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Dask scheduler address (tcp://host:8786) to run the blocks on a cluster (pip install 'loki-poker[cluster]').",
    ),
    out: Path | None = out_option("Results folder (default results/<name>-<seed>/)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run in the results folder."),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="Discard a previous run in the results folder; also write into a folder of other files.",
    ),
    block_deals: int | None = typer.Option(
        None, "--block-deals", min=1, help="Deals per block (players are rebuilt every block; changes the results)."
    ),
    histories: bool | None = typer.Option(
        None, "--histories/--no-histories", help="Write PHH hand histories (default: as the config says)."
    ),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Write the PNG plots."),
    estimator: str | None = typer.Option(
        None,
        "--estimator",
        "-e",
        help="plain (mean payoffs per deal), aivat (also the AIVAT estimate, with its interval and the variance "
        "ratio; same play; the shipped fitted value function), aivat-pot-equity (AIVAT with plain pot-equity) or "
        "aivat-sim-evs (the Simulator's EVs as its decisions' action baselines). "
        "Default: as the config says (plain).",
    ),
    list_: bool = typer.Option(False, "--list", help="List the shipped presets and exit."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Duplicate tournament (AAAI-99 §6): every deal replayed once per seating; sb/hand with 95% CIs.

    With no options, runs the `quick` preset (8 x Loki-1 against 2 x Loki-2 B+R).
    `--estimator aivat` adds the AIVAT estimate (chance and action corrections, loki.aivat) next to the plain one.
    """
    from loki.cli._console import make_console
    from loki.errors import OutputPathError, TournamentConfigError
    from loki.io.names import shown, shown_markup
    from loki.tournament.config import list_presets, load_config, load_preset

    console = make_console()
    if list_:
        from rich.table import Table

        grid = Table.grid(padding=(0, 2))  # the name, then its description wrapped beside it (not under it)
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for name in list_presets():
            try:
                c = load_preset(name, check_players=False)
                said = f"{c.deals} deals" in c.description or f"{c.deals:,} deals" in c.description
                grid.add_row(name, c.description if said else f"{c.description} ({c.deals:,} deals)")
            except TournamentConfigError as e:  # pragma: no cover
                grid.add_row(name, f"(invalid: {e})")
        console.print(grid, highlight=False)
        return
    cfg = load_config(config) if config is not None else load_preset(preset)
    cfg = cfg.with_overrides(deals=deals, seed=seed, histories=histories, block_deals=block_deals, estimator=estimator)
    from loki.errors import tagged
    from loki.tournament.runner import check_histories

    try:  # before the results folder is made
        check_histories(cfg)
    except TournamentConfigError as e:
        raise tagged(str(config) if config is not None else f"--preset {preset}", e) from None
    folder = out if out is not None else Path("results") / f"{cfg.name}-{cfg.seed}"
    try:
        with signals_stop_the_run():
            from loki.tournament.results import write_results

            summary = run_with_progress(
                cfg, folder, workers, scheduler, resume, overwrite, quiet, console,
                finish=lambda run: write_results(run, folder, plots=plots),
            )  # fmt: skip
    except KeyboardInterrupt as e:
        signum = getattr(e, "signum", signal.SIGINT)
        typer.echo(
            f"error: interrupted ({signal.Signals(signum).name}): finished blocks are kept in "
            f"{shown(folder / 'journal.jsonl', None)}; run the same command with --resume",
            err=True,
        )
        raise typer.Exit(128 + signum) from None
    except OutputPathError:
        raise
    except OSError as e:
        raise OutputPathError(f"--out {folder}: cannot write the results: {e.strerror or e}") from None
    from loki.tournament.results import LEGEND, results_table

    for t in results_table(summary):
        console.print(t)
    rate = _run_rate(folder)
    console.print(
        f"results in [bold]{shown_markup(folder, None)}[/]" + (f" ({rate:,.2f} hands/s, as run.json)" if rate else ""),
        highlight=False,
    )
    for line in LEGEND:
        console.print(line, highlight=False, markup=False)


def _run_rate(folder: Path) -> float | None:
    """The hands per second ``run.json`` records for this run (None when it has none)."""
    import json

    try:
        v = json.loads((folder / "run.json").read_text()).get("hands_per_second")
    except (OSError, ValueError, AttributeError):
        return None
    return float(v) if isinstance(v, (int, float)) else None


def run_with_progress(
    cfg: Any,
    folder: Path,
    workers: int | None,
    scheduler: str | None,
    resume: bool,
    overwrite: bool,
    quiet: bool,
    console: Any,
    finish: Any,
    warm: Any = None,
) -> Any:
    """Play ``cfg`` into ``folder`` with a progress bar, then ``finish(run)`` (writes the results: ``write_results``),
    the folder locked throughout; returns what ``finish`` returns.

    ``warm``: before the first block, ``warm(client)`` (the Dask client or None) instead of compiling the seats'
    players' kernels (a command whose players need another warm-up).

    Raises:
        OutputPathError: ``folder`` is a symbolic link, a file, or a folder of other files than a tournament's
            without ``overwrite`` (:func:`loki.io.outpath.check_output_folder`), before anything else.
    """
    from loki.io.names import shown, shown_markup
    from loki.io.outpath import check_output_folder

    # a real folder: new, empty, an earlier run's, or --overwrite (never a symbolic link, never a folder of other files)
    check_output_folder(folder, "--out", marks=TOURNAMENT_MARKS, overwrite=overwrite)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from loki.tournament.runner import run_tournament

    class Rate(ProgressColumn):
        # hands played by this run over the time since its first block started: what run.json records
        # (hands_played_now / seconds), not rich's speed, which counts a resumed run's journal as played now
        def render(self, task: Any) -> Text:
            if task.fields.get("final") is not None:  # the run's own figure once it is over: run.json's
                return Text(f"{task.fields['final']:,.2f} hands/s", style="cyan")
            played = task.completed - task.fields.get("resumed_at", 0)
            el = task.elapsed
            sp = played / el if el and played > 0 else None
            return Text("-- hands/s" if sp is None else f"{sp:,.1f} hands/s", style="cyan")

    client = dask_client(scheduler) if scheduler else None
    executor = client.get_executor() if client is not None else None
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        Rate(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=False,
    )
    task = None

    def report(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            progress.start()
            task = progress.add_task(shown_markup(cfg.name, None), total=total, completed=done, resumed_at=done)
        else:
            progress.update(task, completed=done)

    from loki.io.files import folder_lock

    def prepare() -> None:
        # the players' kernels compiled here, once, before any block is dispatched (not in a timed block);
        # local workers then load them from the disk cache, Dask workers warm up (or load) before their first block
        from loki.cli.warmup import ensure_warm
        from loki.players.warmup import warm_specs

        if warm is not None:
            warm(client)
            return
        specs = [si.player for si in cfg.seats]
        ensure_warm(specs, cfg.n_players, quiet=quiet)
        if client is not None:
            client.run(warm_specs, specs, cfg.game_config())

    with folder_lock(folder):  # one run at a time per folder
        try:
            # the bar starts with the first report, after prepare() (rich shows one live display at a time)
            run = run_tournament(
                cfg,
                workers=workers,
                executor=executor,
                out=folder,
                resume=resume,
                overwrite=overwrite,
                progress=report,
                prepare=prepare,
            )
            if task is not None:
                from loki.tournament.results import played_now

                progress.update(task, final=played_now(run)[1])
        finally:
            if task is not None:  # started by the first report (stopping one never started prints a blank line)
                progress.stop()
            if client is not None:
                client.close()
        if scheduler:
            run.extra["scheduler"] = scheduler
        if run.played_blocks == 0 and run.blocks:  # a re-run into a finished run's folder: nothing was played
            console.print(
                f"{shown(folder, None)} holds this run, finished: its results are reported again from its journal "
                "(nothing was played; --overwrite plays it again)",
                highlight=False,
                markup=False,
            )
        return finish(run)
