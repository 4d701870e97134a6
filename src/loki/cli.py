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


@app.command("ir-tables")
def ir_tables(
    samples: int = typer.Option(
        1_000_000, "--samples", min=100, help="Sampled deals per hand class (Papp: 1,000,000)."
    ),
    seed: int = typer.Option(1999, "--seed", min=0, help="Master seed (each class derives its own)."),
    out: str = typer.Option(None, "--out", help="Output CSV (default: the shipped loki/data/income_rates.csv)."),
) -> None:
    """Regenerate the income-rate tables IR2, IR4, IR7 (PAPP98 Eq. 5.1; loki-algorithms.md §2.1)."""
    from rich.progress import Progress

    from loki.income_rate import check_output_path, generate

    try:
        check_output_path(out)  # before the (long) roll-outs
    except ValueError as e:
        typer.echo(f"error: --out: {e}", err=True)
        raise typer.Exit(2) from None
    try:
        with Progress() as progress:
            task = progress.add_task("rolling out 169 classes x 3 tables", total=3 * 169)
            path = generate(samples, seed, out, progress=lambda done, total: progress.update(task, completed=done))
    except (ValueError, OSError) as e:
        typer.echo(f"error: ir-tables: {e}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"wrote {path}")


@app.command()
def demo(
    hands: int = typer.Option(5, "--hands", min=1, help="Number of hands to play."),
    players: int = typer.Option(3, "--players", min=2, max=10, help="Players at the table (2-10)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deal and of the random players (>= 0)."),
) -> None:
    """Self-play demo of the reference players (random and calling station) on the rules engine."""
    import numpy as np
    from rich.console import Console
    from rich.table import Table

    from loki.cards import format_cards
    from loki.engine import GameConfig
    from loki.players import CallingStation, RandomPlayer
    from loki.table import play_hand

    console = Console()
    cfg = GameConfig(n_players=players)
    seats = [
        RandomPlayer(seed * 1000 + i, name=f"random-{i}") if i % 2 == 0 else CallingStation(name=f"caller-{i}")
        for i in range(players)
    ]
    rng = np.random.default_rng(seed)
    totals = [0] * players
    for h in range(hands):
        st = play_hand(cfg, seats, h % players, rng)
        cards = " ".join(f"{i}:{format_cards(st.hole_cards(i))}" for i in range(players))
        pay = " ".join(f"{x:+d}" for x in st.payoffs)
        console.print(
            f"[bold]hand {h + 1}[/] button {st.button}  [cyan]{st.history}[/]  "
            f"board {format_cards(st.board) or '-'}  holes {cards}  payoffs {pay}"
        )
        for i, x in enumerate(st.payoffs):
            totals[i] += x
    table = Table(title=f"{hands} hands, {players} players, seed {seed}")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("chips", justify="right")
    table.add_column("sb/hand", justify="right")
    for i, p in enumerate(seats):
        table.add_row(str(i), p.name, f"{totals[i]:+d}", f"{totals[i] / cfg.small_bet / hands:+.3f}")
    console.print(table)


from loki.tournament.command import tournament as _tournament  # noqa: E402

app.command("tournament")(_tournament)

from loki.io.cli import register as _register_io  # noqa: E402

_register_io(app)  # acpc, dealer, replay, play


if __name__ == "__main__":  # pragma: no cover
    app()
