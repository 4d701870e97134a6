"""``loki replay``: a real hand history through the Opponent Modeler and Loki's decisions."""

from __future__ import annotations

from pathlib import Path

import typer

from loki.cli._common import hands_option, merge_alias, out_option, player_option, seed_option

__all__ = ["replay"]


def replay(
    file: Path = typer.Argument(
        ..., exists=True, dir_okay=False, help="ACPC log (STATE lines) or PHH file (.phh/.phhs)."
    ),
    player: str = player_option("loki1", "The bot that sits in every seat, models and decides."),
    hands: int | None = hands_option(None, "Only the first N hands."),
    out: Path | None = out_option(
        "Histogram of the model quality, .png/.pdf/.svg (default: ./<FILE name>.percentiles.png in the current "
        "folder; the log's own folder may be read-only)."
    ),
    plot: Path | None = typer.Option(None, "--plot", hidden=True, help="Deprecated: --out."),
    seed: int = seed_option(0, "Seed of the bots (>= 0)."),
    estimator: str = typer.Option(
        "plain",
        "--estimator",
        "-e",
        help="plain, or aivat: also the players' winnings with AIVAT chance corrections (every hole card is in the "
        "log; the players' policies are not, so no action corrections), with 95% intervals and the variance ratio.",
    ),
) -> None:
    """Replay a real log through the Opponent Modeler and Loki's decisions; report statistics,
    agreement with the logged actions and the model quality at showdowns.  Hands that do not
    replay (bad cards, illegal betting) are skipped and listed in the report."""
    from rich.console import Console

    from loki.cli._common import tagged
    from loki.errors import LokiError, OutputPathError
    from loki.io.outpath import check_output_path
    from loki.players.registry import make_player
    from loki.replay import PLOT_SUFFIXES, load_log, plot_percentiles, render_report, replay_hands

    console = Console()
    if estimator not in ("plain", "aivat"):
        from loki.errors import ConfigError

        raise tagged("--estimator", ConfigError(f"{estimator!r}: expected plain or aivat"))
    target = merge_alias("--out", out, "--plot", plot) or Path.cwd() / (file.name + ".percentiles.png")
    # before the (long) replay: a bad output path must not throw the report away
    check_output_path(target, "--out", PLOT_SUFFIXES)
    try:
        make_player(player, seed=seed)
    except (LokiError, ValueError) as e:
        raise tagged("--player", e) from None
    recs, skipped, warnings = load_log(file)
    if hands:
        recs = recs[:hands]
    report = replay_hands(recs, player, seed, skip_bad=True, estimator=estimator)
    report.skipped[:0] = skipped
    report.warnings.extend(warnings)
    render_report(report, console, title=file.name)
    try:
        plot_percentiles(report, target)
    except (OSError, ValueError) as e:
        raise OutputPathError(f"--out {target}: cannot write the histogram: {e}") from None
    console.print(f"histogram written to {target}")
