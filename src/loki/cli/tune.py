"""``loki tune``: the command-line face of :mod:`loki.tune`.

    loki tune fig3-B --trials 100 --deals 1000 --out results/tune-b     # a study (resumable: run it again)
    loki tune --list-params loki2:B                                       # what can be tuned, with ranges and sources
    loki tune --list-sets                                                 # the shipped sets, one line each

The study is kept in ``<out>/study.db``; killing the command and running it again continues it, and several
commands (or one with ``--scheduler``) may work on one study.  When the target count of trials is reached the best
values are validated against the defaults on seeds the search never saw (as many deals per seed as ``--deals``,
unless ``--validate-deals`` says otherwise), and ``best.toml`` (not when the best values lost to the defaults),
``history.png``, ``importances.png`` (with 4 complete trials of 2 fields or more) and ``tune.json`` are written.
"""

from __future__ import annotations

import contextlib
import json
import signal
from pathlib import Path
from typing import Any

import typer

from loki.cli._common import (
    dask_client,
    echo_json,
    fail,
    json_option,
    out_option,
    signals_stop_the_run,
    workers_option,
)
from loki.io.names import shown, shown_markup

__all__ = ["tune", "TUNE_MARKS"]

#: What only a study leaves in its folder (:func:`loki.io.outpath.check_output_folder`).
TUNE_MARKS = ("study.db", "tune.json")


def _tagged(option: str, e: Exception) -> Exception:
    """``e`` with its message prefixed by ``option`` (:func:`loki.errors.tagged`), unless it already names an
    option (``--label 'X': ...``)."""
    from loki.errors import tagged

    return e if str(e).startswith("--") else tagged(option, e)


def _ints(text: str, option: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        fail(f"{option} {text!r}: expected comma-separated integers")
    if not out:
        fail(f"{option}: expected at least one seed")
    return out


def tune(
    target: str | None = typer.Argument(
        None,
        help="A preset (fig3-B, fig3-S, ...) or a tournament TOML file; several separated by commas make a panel "
        "of fields scored together (the mean over all their deals).",
    ),
    label: str | None = typer.Option(
        None, "--label", help="The player type to tune (default: the first comparison's first enhanced type)."
    ),
    param: list[str] | None = typer.Option(
        None,
        "--param",
        help="A field to tune (repeat; default: every field that matters for the player); PATH=LOW:HIGH searches it "
        "over its own range instead of the declared one.",
    ),
    trials: int = typer.Option(100, "--trials", min=1, max=100_000, help="Complete or pruned trials to reach."),
    deals: int = typer.Option(1000, "--deals", "-n", min=1, max=1_000_000, help="Deals per tuning seed per trial."),
    seeds: str = typer.Option("1000", "--seeds", help="Tuning seeds (>= 1000), comma-separated: the panel."),
    fresh: bool = typer.Option(False, "--fresh-seeds", help="Trial k plays seed <first>+k instead of the panel."),
    block_deals: int = typer.Option(25, "--block-deals", min=1, help="Deals per block (the pruner's step)."),
    sampler: str = typer.Option("tpe", "--sampler", help="tpe, cmaes or random."),
    sampler_seed: int = typer.Option(0, "--sampler-seed", min=0, help="Seed of the sampler."),
    pruner: str = typer.Option("median", "--pruner", help="median or none."),
    start_at_values: bool = typer.Option(
        False, "--start-at-values", help="The first trial plays the target's own values of the tuned fields."
    ),
    workers: int | None = workers_option("Local worker processes (default: all cores)."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address (tcp://host:8786)."),
    out: Path | None = out_option("The study's folder (default results/tune-<target>)."),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="Start the study again (discard an earlier study in --out); also write into a folder of other files.",
    ),
    validate_deals: int | None = typer.Option(
        None,
        "--validate-deals",
        min=0,
        max=1_000_000,
        help="Deals per validation seed (default: --deals; 0: no validation).",
    ),
    validate_seeds: str | None = typer.Option(
        None, "--validate-seeds", help="Validation seeds (default: two seeds >= 1000 above the panel)."
    ),
    list_params: str | None = typer.Option(
        None, "--list-params", help="List the tunable fields of a player spec (e.g. loki2:B) and exit."
    ),
    list_sets: bool = typer.Option(
        False, "--list-sets", help="List the shipped tuned sets (tuned=NAME), one line each, and exit."
    ),
    json_out: bool = json_option(),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Tune the values the sources leave open (Optuna): AIVAT enhanced-minus-control on tuning seeds >= 1000.

    A study is resumable (its SQLite file in --out); the best values are validated on unseen seeds next to the
    defaults, and written as a player file (--player best.toml plays it).
    """
    # Every option is checked here, before the players warm up or a trial runs (error: ..., exit code 2): the
    # target and --label (a player type with tunable fields), --param, every seed option (StudySpec and
    # checked_validation_seeds: the rules finish_study applies after the study), then in _run the study file in --out.
    from loki.errors import LokiError

    if list_sets:
        _list_sets(json_out)
        return
    if list_params is not None:
        _list(list_params, json_out)
        return
    if target is None:
        fail("give a target (a preset or a tournament TOML file), or --list-params SPEC")
    from loki.tune import (
        StudySpec,
        check_scored,
        checked_validation_seeds,
        load_targets,
        panel_player,
        param_text,
        start_values,
        tuning_space,
    )

    try:
        cfgs = load_targets(target)
    except LokiError as e:
        raise _tagged("TARGET", e) from None
    cfg = cfgs[0]
    lab = label or (cfg.compare[0].enhanced[0] if cfg.compare else None)
    if lab is None:
        fail(f"{target}: no [[compare]] section; a study scores each trial by the field's first comparison: add one")
    try:
        player = panel_player(cfgs, lab)
        space = tuning_space(player, lab, param or None)  # refuses a player type without tunable fields
        if start_at_values:
            start_values(space)  # before the study's folder is made
    except LokiError as e:
        raise _tagged("--param" if param else "--label", e) from None
    try:  # before the study's folder is made: a field a trial cannot be scored on failed after trial 0 had played
        check_scored(cfgs, lab)
    except LokiError as e:
        raise _tagged("TARGET", e) from None
    spec = StudySpec(
        target=target,
        label=lab,
        params=tuple(param_text(x) for x in param) if param else tuple(p.path for p in space),
        deals=deals,
        seeds=_ints(seeds, "--seeds"),
        fresh_seeds=fresh,
        block_deals=min(block_deals, deals),
        sampler=sampler,
        sampler_seed=sampler_seed,
        pruner=pruner,
        start_at_values=start_at_values,
    )
    folder = out if out is not None else Path("results") / f"tune-{Path(target.split(',')[0]).stem}"
    from loki.io.outpath import check_output_folder

    check_output_folder(folder, "--out", marks=TUNE_MARKS, overwrite=overwrite)
    vseeds = _ints(validate_seeds, "--validate-seeds") if validate_seeds else None
    # the rules finish_study applies after the study, on the trials this run asks for (fresh seeds: seed first+k)
    if validate_deals is None:  # the validation's cost follows the search's: the same deals per seed
        validate_deals = deals
    checked_validation_seeds(spec, vseeds, range(trials), default=validate_deals > 0)
    try:
        with signals_stop_the_run():
            record = _run(spec, folder, trials, workers, scheduler, validate_deals, vseeds, quiet, overwrite)
    except KeyboardInterrupt as e:
        signum = getattr(e, "signum", signal.SIGINT)
        typer.echo(
            f"error: interrupted ({signal.Signals(signum).name}): the study is kept in "
            f"{shown(folder / 'study.db', None)}; run the "
            "same command to continue it",
            err=True,
        )
        raise typer.Exit(128 + signum) from None
    if json_out:
        echo_json(record)
    else:
        _print(record, folder)
    if record.get("verdict") == "worse than the defaults":
        d = record["validation"]["tuned_minus_default"]
        typer.echo(
            f"warning: the best trial's values lost to the defaults on the validation seeds (tuned minus default "
            f"{d['value']:+.4f} ± {d['ci']:.4f} sb/hand): no best.toml is written (the values are in tune.json); keep "
            "the defaults, or search longer",
            err=True,
        )


def _list(spec: str, json_out: bool) -> None:
    from rich.table import Table

    from loki.cli._console import make_console
    from loki.errors import LokiError
    from loki.players.registry import parse_player
    from loki.tune import search_space

    try:
        space = search_space(parse_player(spec))
    except LokiError as e:
        raise _tagged("--list-params", e) from None
    if json_out:
        for p in space:
            echo_json(
                {"param": p.path, "low": p.low, "high": p.high, "log": p.log, "integer": p.integer, "value": p.value,
                 "default": p.default, "source": p.source}
            )  # fmt: skip
        return
    t = Table(title=f"tunable fields of {shown_markup(spec, None)}")
    # the names whole (--param needs them): the source column wraps instead
    t.add_column("param", no_wrap=True, min_width=max((len(p.path) for p in space), default=5))
    for c in ("range", "scale", "value", "source"):
        t.add_column(c)
    for p in space:
        rng = f"{int(p.low)}..{int(p.high)}" if p.integer else f"{p.low:g}..{p.high:g}"
        t.add_row(p.path, rng, "log" if p.log else "linear", repr(p.value), p.source)
    make_console().print(t)


def _list_sets(json_out: bool) -> None:
    """One line per shipped set (``loki/data/tuned``): name, status, the spec it is for, its parent and what it
    changes, and its study; ``--json``: one JSON object per set with its validation and values."""
    from loki.players.tuned import SETS, TUNED_SETS

    if json_out:
        for s in SETS.values():
            echo_json(
                {"name": s.name, "status": s.status, "superseded_by": s.superseded_by or None, "player": s.player,
                 "parent": s.parent or None, "summary": s.summary, "study": s.study, "validation": s.validation,
                 "changes": s.changes, "values": TUNED_SETS[s.name]}
            )  # fmt: skip
        return
    for s in sorted(SETS.values(), key=lambda s: (s.status != "current", s.player, s.name)):
        status = "current" if s.status == "current" else f"superseded by {s.superseded_by}"
        typer.echo(f"{s.name}: {status}; {s.player}:tuned={s.name}; {s.summary} ({s.study})")


def _run(
    spec, folder: Path, trials: int, workers, scheduler, validate_deals, vseeds, quiet, overwrite: bool = False
) -> dict[str, Any]:
    """Run the study in ``folder`` (holding its lock) and write its outputs; returns the ``tune.json`` record.
    ``overwrite`` discards the study file an earlier run left there first.

    Raises:
        OutputPathError: the folder is locked by another run, or its ``study.db`` cannot be opened (before the
            players warm up).
        ConfigError: the folder holds a study with another spec (before the players warm up).
    """
    from loki.io.files import folder_lock
    from loki.tune import checked_validation_seeds, counted, open_study

    with folder_lock(folder):
        if overwrite:
            for name in TUNE_MARKS + ("study.db-journal", "study.db-wal", "study.db-shm"):
                with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                    (folder / name).unlink()
        # the study file first: one that cannot be opened, or holds another study, is refused before the players
        # warm up and the workers start (run_study opens it again)
        study, _, _ = open_study(folder, spec)
        if spec.fresh_seeds:  # a resumed study's trials go on from its last number: their seeds too
            numbers = range(len(study.get_trials(deepcopy=False)) + trials)
            checked_validation_seeds(spec, vseeds, numbers, default=validate_deals > 0)
        if counted(study) >= trials:  # a re-run: nothing to play, say so (the outputs are written again)
            from loki.io.tableview import plural

            typer.echo(
                f"note: the study in {shown(folder, None)} already has {plural(counted(study), 'trial')} "
                f"(--trials {trials}): no trial is played; its best values are validated and its outputs written "
                "again (--trials N for more, --overwrite to start again)",
                err=True,
            )
        return _run_locked(spec, folder, trials, workers, scheduler, validate_deals, vseeds, quiet)


def _run_locked(spec, folder: Path, trials: int, workers, scheduler, validate_deals, vseeds, quiet) -> dict[str, Any]:
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from loki.cli.warmup import ensure_warm
    from loki.players.warmup import warm_specs
    from loki.tournament.runner import local_executor, owned_pool
    from loki.tune import counted, finish_study, load_targets, run_study

    cfgs = load_targets(spec.target)
    for cfg in cfgs:
        ensure_warm([si.player for si in cfg.seats], cfg.n_players, quiet=quiet)
    client = dask_client(scheduler) if scheduler else None
    own = None
    if client is not None:
        for cfg in cfgs:
            client.run(warm_specs, [si.player for si in cfg.seats], cfg.game_config())
        executor = client.get_executor()
    else:
        executor = own = local_executor(workers if workers is not None else (os.cpu_count() or 1))
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[best]}"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
    )

    def best_text(study) -> str:
        try:
            b = study.best_trial
        except ValueError:
            return "best: none yet"
        ci = b.user_attrs.get("ci")
        return f"best {b.value:+.4f}" + (f" ± {ci:.4f}" if ci is not None else "") + f" sb/hand (trial {b.number})"

    with owned_pool(own), progress:
        task = progress.add_task(
            shown_markup(f"tune {spec.target} [{spec.label}], trials", None), total=trials, best=""
        )

        def report(study) -> None:
            progress.update(task, completed=min(trials, counted(study)), best=best_text(study))

        study = run_study(spec, folder, trials, executor, report)
        report(study)
        checking = None

        def validating(done: int, total: int) -> None:  # the validation's own bar, in deals
            nonlocal checking
            if checking is None:
                checking = progress.add_task(
                    f"validating the best values and the defaults ({total:,} deals)", total=total, best=""
                )
            progress.update(checking, completed=done)

        return finish_study(study, spec, folder, executor, validate_deals, vseeds, progress=validating)


def _print(record: dict[str, Any], folder: Path) -> None:
    from loki.cli._console import make_console

    c = make_console()
    b = record["best"]
    c.print(f"[bold]best trial {b['trial']}[/]: " + shown_markup(json.dumps(b["params"]), None), highlight=False)
    ci = b["search_ci"]
    c.print(
        f"search: {b['search_value']:+.4f}" + (f" ± {ci:.4f}" if ci is not None else "") + " sb/hand (optimistic)",
        highlight=False,
    )
    v = record.get("validation")
    if v:
        for k in ("tuned", "default"):
            r = v[k]
            h = f" ± {r['ci']:.4f}" if r["ci"] is not None else ""
            c.print(f"validation {k:7}: {r['value']:+.4f}{h} sb/hand (seeds {v['seeds']})", highlight=False)
        d = v["tuned_minus_default"]
        h = f" ± {d['ci']:.4f}" if d["ci"] is not None else ""
        c.print(
            f"tuned minus default: {d['value']:+.4f}{h} sb/hand (paired by deal): {record['verdict']}", highlight=False
        )
    c.print(
        f"study and outputs in [bold]{shown_markup(folder, None)}[/]: {', '.join(record['files'])}", highlight=False
    )
