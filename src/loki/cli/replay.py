"""``loki replay``: a real hand history through the Opponent Modeler and Loki's decisions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from loki.cli._common import (
    check_input_file,
    hands_option,
    json_option,
    merge_alias,
    out_option,
    player_option,
    seed_option,
)

__all__ = ["replay"]


def replay(
    file: Path = typer.Argument(..., dir_okay=False, help="ACPC log (STATE lines) or PHH file (.phh/.phhs)."),
    player: str | None = player_option(
        None,
        "The bot that sits in every seat, models and decides (default: each player's own bot where its name is a loki "
        "spec, as loki match names seats, else loki1).",
    ),
    hands: int | None = hands_option(None, "Only the first N hands."),
    out: Path | None = out_option(
        "Histogram of the model quality, .png/.pdf/.svg (default: <FILE name>.percentiles.png in the current "
        "folder, never next to the log; in the user data folder (~/.local/share/loki/replay) when the current "
        "folder is read-only)."
    ),
    plot: Path | None = typer.Option(None, "--plot", hidden=True, help="Deprecated: --out."),
    seed: int = seed_option(0, "Seed of the bots (>= 0)."),
    json_out: bool = json_option(),
    estimator: str = typer.Option(
        "plain",
        "--estimator",
        "-e",
        help="plain, or aivat: also the players' winnings with AIVAT chance corrections (every hole card is in the "
        "log; the players' policies are not, so no action corrections), with 95% intervals and the variance ratio.",
    ),
) -> None:
    """Replay a real log through the Opponent Modeler and Loki's decisions; report statistics,
    agreement with the logged actions and the model quality at showdowns.

    Hands that do not replay (bad cards, illegal betting) are skipped and listed in the report.
    The histogram goes to --out, else to the current folder (a log's own folder may be shared or
    read-only: nothing is written there). The output path is checked before the replay starts.
    The log is read as a stream, at most 64 MiB (README, Operations).
    """
    import os

    from loki.cli._common import echo_json
    from loki.cli._console import make_console
    from loki.errors import HandHistoryError, LokiError, OutputPathError, tagged
    from loki.io.names import shown_markup
    from loki.io.outpath import check_output_path, user_data_dir
    from loki.players.registry import make_player
    from loki.tournament.replay import PLOT_SUFFIXES, load_log, plot_percentiles, render_report, replay_hands

    check_input_file(file)
    console = make_console(stderr=json_out)
    target = merge_alias("--out", out, "--plot", plot)
    if target is None:  # in the current folder, where a command's results go (never next to the log)
        target = Path(file.name + ".percentiles.png")
        here = Path.cwd()
        if not os.access(here, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
            target = user_data_dir("replay") / target.name
            target.parent.mkdir(parents=True, exist_ok=True)
    if estimator not in ("plain", "aivat"):
        from loki.errors import ConfigError

        raise tagged("--estimator", ConfigError(f"{estimator!r}: expected plain or aivat"))
    # before the (long) replay: a bad output path must not throw the report away
    check_output_path(target, "--out", PLOT_SUFFIXES)
    if player is not None:
        try:
            make_player(player, seed=seed)
        except (LokiError, ValueError) as e:
            raise tagged("--player", e) from None
    recs, skipped, warnings = load_log(file, max_hands=hands)
    report = replay_hands(recs, player, seed, skip_bad=True, estimator=estimator)
    report.skipped[:0] = skipped
    report.warnings.extend(warnings)
    if report.hands == 0:  # nothing to report: say why (the first hand left out), exit 2
        why = f" ({report.skipped[0][0]}: {report.skipped[0][1]})" if report.skipped else ""
        raise HandHistoryError(f"{file}: no hand could be replayed{why}")
    if not json_out:
        render_report(report, console, title=file.name)
        if report.hand_corrections is None:
            _plain_intervals(report, console)
    plot_error = None
    try:
        plot_percentiles(report, target)
    except (OSError, ValueError) as e:
        plot_error = OutputPathError(f"--out {target}: cannot write the histogram: {e}")
    if json_out:  # the report even when the plot failed (its error then follows)
        echo_json({"file": str(file), **report.to_dict(), "histogram": None if plot_error else str(target)})
    elif plot_error is None:
        console.print(f"histogram written to {shown_markup(target, None)}", highlight=False)
    if plot_error is not None:
        raise plot_error


def _plain_intervals(report: Any, console: Any) -> None:
    """Each player's sb/hand with its 95 % interval, the hand as the unit (``report.estimates()``), and the caveat:
    the hands of one log share players and a session, so they are not independent and the interval is a guide."""
    from rich.table import Table
    from rich.text import Text

    from loki.io.names import shown

    t = Table(title="winnings, sb/hand with 95% intervals (the hand as unit)")
    for col in ("player", "hands", "sb/hand", "± 95%"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for e in report.estimates():
        t.add_row(
            Text(shown(e["name"])),
            str(e["hands"]),
            f"{e['sb_per_hand']:+.3f}",
            "-" if e["ci"] is None else f"{e['ci']:.3f}",
        )
    console.print(t)
    console.print(
        "caveat: the hands of one log are correlated (the same players, adapting over one session), so read the "
        "interval as approximate; --estimator aivat narrows it with chance corrections",
        highlight=False,
    )
