"""``loki league``: a heads-up round robin among players, as a cross table (:mod:`loki.tournament.league`).

loki league --player equity --player random --player loki2:BRS:adaptive --deals 2500 --out results/league
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from loki.cli._common import echo_json, fail, json_option, out_option, seed_option, workers_option

__all__ = ["league", "league_table", "LEAGUE_MARKS"]

#: What only a league leaves in its folder (:func:`loki.io.outpath.check_output_folder`).
LEAGUE_MARKS = ("league.json", "pairs")


def league_table(title: str, labels: list[str], value: list[list[Any]], ci: list[list[Any]]) -> Any:
    """The cross table (a :class:`rich.table.Table`): cell (row, column) the row player's sb/hand against the column
    player ± its 95 % interval, and the row's mean; ``value``/``ci`` ``(n, n)`` lists (None on the diagonal).  The
    labels are printed as written (:func:`loki.io.names.shown_markup`).  Printed by
    :func:`loki.cli._console.make_console`'s console it folds a cell at a narrow width, never cuts it."""
    from rich.table import Table

    from loki.io.names import shown_markup

    t = Table(title=title)
    t.add_column("player")
    for lab in labels:
        t.add_column(shown_markup(lab, None), justify="right")
    t.add_column("mean", justify="right")
    n = len(labels)
    for i, lab in enumerate(labels):
        cells = []
        for j in range(n):
            v, c = value[i][j], ci[i][j]
            cells.append("" if v is None or i == j else f"{v:+.3f} ± {c:.3f}" if c is not None else f"{v:+.3f}")
        others = [value[i][j] for j in range(n) if j != i and value[i][j] is not None]
        t.add_row(shown_markup(lab, None), *cells, f"{sum(others) / len(others):+.3f}" if others else "")
    return t


def league(
    player: list[str] = typer.Option(..., "--player", help="A player spec (repeat: at least two)."),
    label: list[str] | None = typer.Option(None, "--label", help="Display names, one per --player (default: specs)."),
    deals: int = typer.Option(2500, "--deals", "-n", min=1, max=1_000_000, help="Deals per pair (each in both seats)."),
    seed: int = seed_option(0, "Seed of every pair's cards and players."),
    block_deals: int = typer.Option(
        25,
        "--block-deals",
        min=1,
        max=10_000,
        help="Deals per block; each block is played by fresh players, so opponent models learn within a block only "
        "(use long blocks to measure a player that adapts).",
    ),
    workers: int | None = workers_option(),
    out: Path | None = out_option("The league's folder (default results/league-<seed>)."),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="Play every pair again (discard an earlier league in --out); also write into a folder of other files.",
    ),
    plots: bool = typer.Option(True, "--plots/--no-plots", help="Write cross.png."),
    json_out: bool = json_option(),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress."),
) -> None:
    """Heads-up league: every pair plays a duplicate match (both seats, AIVAT); prints the cross table.

    Cell (row, column) is the row player's sb/hand against the column player, with its 95% interval.  An
    interrupted league resumes pair by pair.
    """
    from rich.console import Console

    from loki.cli._console import make_console
    from loki.cli.warmup import ensure_warm
    from loki.errors import ConfigError, LokiError, OutputPathError, tagged
    from loki.io.files import folder_lock
    from loki.io.names import check_name, shown, shown_markup
    from loki.io.outpath import check_output_folder
    from loki.players.registry import parse_player
    from loki.tournament.league import check_league_players, run_league, write_league

    try:
        check_league_players(len(player))
    except ConfigError as e:
        raise tagged("--player", e) from None
    labels = list(label) if label else list(player)
    if len(labels) != len(player):
        fail(f"--label given {len(labels)} times for {len(player)} players (one per --player)")
    if len(set(labels)) != len(labels):
        fail(f"--label: names must differ, got {labels}")
    for lab in labels:  # a label reaches the terminal, league.json and cross.png: printable and bounded
        check_name(lab, "--label" if label else "--player (its label)", ConfigError)
    for p in player:
        try:
            parse_player(p)
        except LokiError as e:
            raise tagged("--player", e) from None
    folder = out if out is not None else Path("results") / f"league-{seed}"
    check_output_folder(folder, "--out", marks=LEAGUE_MARKS, overwrite=overwrite)
    ensure_warm(list(player), 2, quiet=quiet)
    err = Console(stderr=True)

    def progress(k: int, total: int, name: str) -> None:
        if not quiet:
            err.print(f"pair {k + 1}/{total}: {shown_markup(name, None)}", highlight=False)

    try:
        with folder_lock(folder):
            res = run_league(
                player,
                labels,
                deals,
                seed,
                folder,
                workers=workers,
                progress=progress,
                block_deals=block_deals,
                overwrite=overwrite,
            )
            write_league(res, folder, plots=plots)
    except OutputPathError:
        raise
    except LokiError as e:
        raise tagged("league", e) from None
    if res.reused:  # a re-run into a league's folder: say what was not played
        err.print(
            f"{res.reused} of {len(res.pairs)} pairs were finished in {shown(folder, None)}: reported again from their "
            "journals (nothing played; --overwrite plays them again)",
            highlight=False,
            markup=False,
        )
    if json_out:
        echo_json(res.to_dict())
        return
    console = make_console()
    title = f"heads-up league, {deals} deals x 2 seats per pair, seed {seed}: row's sb/hand against column"
    console.print(league_table(title, labels, res.value, res.ci))
    console.print(f"pairs and league.json in [bold]{shown_markup(folder, None)}[/]", highlight=False)
