"""``loki lbr``: how much a local best response wins against a player (:mod:`loki.lbr`).

loki lbr loki2:BR --deals 1000 --workers 2 --out results/lbr-br
loki lbr loki2:BRS:adaptive --warmup 1000 --warmup-opponent equity --holdings 100

The player is frozen (its state after the warm-up, restored every hand: a fixed strategy) and plays the local best
response heads-up, each deal in both seats, with AIVAT.  The result is LBR's winnings in sb/hand with the 95 %
interval over deals: a lower bound on the player's exploitability.  Resumable like a tournament (``--resume``), on
local workers or a Dask cluster (``--scheduler``); Ctrl-C, SIGTERM and SIGHUP keep the finished blocks.
"""

from __future__ import annotations

import signal
from pathlib import Path

import typer

from loki.cli._common import echo_json, json_option, out_option, seed_option, signals_stop_the_run

__all__ = ["lbr"]


def lbr(
    player: str = typer.Argument(..., metavar="SPEC", help="The player measured (a spec, e.g. loki2:BR, equity)."),
    deals: int = typer.Option(
        500, "--deals", "-n", min=1, max=1_000_000, help="Deals; each is played twice, once in each seat."
    ),
    seed: int = seed_option(0, "Seed of the cards and the players (report on seeds 0 and 1; tune on >= 1000)."),
    warmup: int = typer.Option(
        0, "--warmup", min=0, max=100_000, help="Hands the player plays before it is frozen (0: as built)."
    ),
    warmup_opponent: str = typer.Option("equity", "--warmup-opponent", metavar="SPEC", help="Its warm-up opponent."),
    warmup_seed: int = typer.Option(0, "--warmup-seed", min=0, max=2**63 - 1, help="Seed of the warm-up."),
    preflop: str = typer.Option(
        "lbr",
        "--preflop",
        help="lbr (the look-ahead pre-flop too) or call (check/call pre-flop: the paper's cheap variant).",
    ),
    called_range: bool = typer.Option(
        True,
        "--called-range/--whole-range",
        help="A bet's showdown chance against the holdings that would call it (default) or the whole range.",
    ),
    holdings: int = typer.Option(
        0, "--holdings", min=0, max=1326, help="0: ask the player for every holding; K: sample K holdings (cheaper)."
    ),
    fold_samples: int = typer.Option(
        0,
        "--fold-samples",
        min=0,
        max=1326,
        help="0: the fold probability to our bet over every holding of the range; K: over K holdings drawn from it.",
    ),
    block_deals: int = typer.Option(10, "--block-deals", min=1, max=10_000, help="Deals per block (of work, resume)."),
    workers: int | None = typer.Option(
        None, "--workers", "-w", min=0, max=256, help="Local worker processes (default: all cores; 0 or 1: here)."
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help=r"Dask scheduler address (tcp://host:8786) (pip install 'loki-poker\[cluster]')."
    ),
    out: Path | None = out_option("Results folder (default results/lbr-<player>-<seed>/)."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted measurement in the results folder."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Discard a previous measurement in the results folder."),
    json_out: bool = json_option(),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Local best response (Lisý & Bowling 2017): a lower bound on a player's exploitability, in sb/hand.

    The player is frozen after --warmup hands and restored every hand; LBR knows its strategy (not its cards),
    follows its range by Bayes' rule and takes the action that is best if both only check or call afterwards.
    """
    import json
    import re

    from loki.cli._console import make_console
    from loki.cli.tournament import run_with_progress
    from loki.errors import LokiError, OutputPathError, tagged
    from loki.io.names import shown, shown_markup
    from loki.lbr.run import frozen_config, lbr_report, lbr_tournament

    if preflop not in ("lbr", "call"):
        raise typer.BadParameter(f"expected lbr or call, got {preflop!r}", param_hint="--preflop")
    try:
        sigma = frozen_config(player, warmup, warmup_opponent, warmup_seed)
    except LokiError as e:
        raise tagged("SPEC", e) from None
    cfg = lbr_tournament(
        sigma, deals, seed, block_deals=block_deals, preflop=preflop, called_range=called_range, holdings=holdings,
        fold_samples=fold_samples,
    )  # fmt: skip
    stem = re.sub(r"[^A-Za-z0-9_.=-]+", "-", sigma.player)[:60]
    folder = out if out is not None else Path("results") / f"lbr-{stem}-{seed}"
    console = make_console(stderr=json_out)

    def warm(client) -> None:
        from loki.cli.warmup import ensure_warm
        from loki.lbr.player import compile_kernels
        from loki.players.warmup import warm_specs

        ensure_warm([sigma.player], 2, quiet=quiet)
        compile_kernels()
        if client is not None:
            client.run(warm_specs, [sigma.player], cfg.game_config())
            client.run(compile_kernels)

    def finish(run):
        from loki.io.files import atomic_write_text
        from loki.tournament.results import strict_json, write_results

        rec = write_results(run, folder, plots=False)
        info = json.loads((folder / "run.json").read_text())
        report = lbr_report(rec.to_dict(), info, cfg)
        atomic_write_text(folder / "lbr.json", strict_json(report, "lbr.json"))
        return report

    try:
        with signals_stop_the_run():
            report = run_with_progress(
                cfg, folder, workers, scheduler, resume, overwrite, quiet or json_out, console, finish, warm
            )
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
    if json_out:
        echo_json(report)
        return
    v, c = report["lbr_sb_per_hand"], report["ci"]
    ci = f" ± {c:.3f}" if c is not None else ""
    console.print(
        f"LBR wins [bold]{v:+.3f}{ci}[/] sb/hand against {shown_markup(sigma.player, None)} (AIVAT, 95 %; plain "
        f"{report['plain_sb_per_hand']:+.3f}), {report['deals']} deals x 2 seats, seed {report['seed']}: a lower bound "
        "on its exploitability",
        highlight=False,
    )
    console.print(f"results in [bold]{shown_markup(folder, None)}[/]", highlight=False)
