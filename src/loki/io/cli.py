"""CLI commands of the outside world: ``loki acpc``, ``loki dealer``, ``loki replay``, ``loki play``.

Registered on the main app by :func:`register` (called from :mod:`loki.cli`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import List, Optional

import typer

__all__ = ["register"]


def _game(path: Optional[Path], n: int | None = None):
    from loki.io.gamedef import bundled_gamedef, load_gamedef

    try:
        return load_gamedef(path) if path else bundled_gamedef(n or 2)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--game") from None


def acpc(
    host: str = typer.Argument(..., help="Dealer host (e.g. 127.0.0.1)."),
    port: int = typer.Argument(..., help="Dealer port for this seat."),
    game: Optional[Path] = typer.Option(None, "--game", help="ACPC game definition (default: heads-up limit)."),
    player: str = typer.Option("loki1", "--player", help="Player spec (loki1, loki1:TA, loki2:BR, random, calling)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the player."),
    timeout: float = typer.Option(600.0, "--timeout", help="Seconds to wait for a dealer message."),
) -> None:
    """Play a match against an ACPC dealer (protocol 2.0.0)."""
    from loki.io.acpc_client import AcpcClient
    from loki.players.registry import make_player

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    g = _game(game)
    try:
        pl = make_player(player, seed=seed)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--player") from None
    client = AcpcClient(g, pl, host, port, timeout=timeout)
    try:
        client.run()
    except ConnectionError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    h = client.hands_played
    typer.echo(f"{pl.name}: {h} hands, {client.total:+g} chips "
               f"({client.total / g.config.small_bet / max(h, 1):+.3f} sb/hand), {len(client.errors)} protocol errors")


def dealer(
    game: Optional[Path] = typer.Option(None, "--game", help="ACPC game definition (default: heads-up limit)."),
    hands: int = typer.Option(1000, "--hands", min=1, help="Hands in the match."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal."),
    names: Optional[List[str]] = typer.Option(None, "--names", help="Player names (repeat the option, one per seat)."),
    port: List[int] = typer.Option([], "--port", help="Ports (repeat, one per seat; default: chosen by the system)."),
    log: Optional[Path] = typer.Option(None, "--log", help="Write the ACPC log (STATE lines and SCORE) here."),
    t_response: float = typer.Option(10.0, "--t-response", help="Seconds allowed per action."),
    t_connect: float = typer.Option(600.0, "--t-connect", help="Seconds to wait for the players to connect."),
) -> None:
    """Deal an ACPC match on loopback: prints one port per seat, then the SCORE line."""
    from loki.io.acpc_dealer import AcpcDealer

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    g = _game(game)
    try:
        d = AcpcDealer(g, hands, seed, names or None, ports=port or None, t_response=t_response,
                       t_connect=t_connect, log_path=log)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    ports = d.listen()
    typer.echo(" ".join(map(str, ports)), nl=True)
    try:
        r = d.run()
    except ConnectionError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    typer.echo(r.score_line)
    if r.errors:
        typer.echo(f"{len(r.errors)} protocol errors (first: {r.errors[0]})", err=True)


def replay(
    file: Path = typer.Argument(..., exists=True, help="ACPC log (STATE lines) or PHH file (.phh/.phhs)."),
    player: str = typer.Option("loki1", "--player", help="The bot that models and decides (registry spec)."),
    hands: Optional[int] = typer.Option(None, "--hands", min=1, help="Only the first N hands."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Histogram PNG (default: ./<FILE name>.percentiles.png in the current folder; the log's own folder may be read-only)."),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Replay a real log through the Opponent Modeler and Loki's decisions; report statistics,
    agreement with the logged actions and the model quality at showdowns."""
    from rich.console import Console

    from loki.replay import load_hands, plot_percentiles, render_report, replay_hands

    console = Console()
    try:
        recs = load_hands(file)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="FILE") from None
    if hands:
        recs = recs[:hands]
    try:
        report = replay_hands(recs, player, seed)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    render_report(report, console, title=file.name)
    out = plot or Path.cwd() / (file.name + ".percentiles.png")
    plot_percentiles(report, out)
    console.print(f"histogram written to {out}")


def play(
    opponents: int = typer.Option(5, "--opponents", min=1, max=9, help="Number of bots at the table."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal and the bots."),
    hands: int = typer.Option(20, "--hands", min=1, help="Hands to play (q quits earlier)."),
    opponent_type: str = typer.Option("loki1", "--opponent-type", help="Bot spec (loki1, loki1:LA, loki2:BR, ...)."),
    phh: Optional[Path] = typer.Option(Path("loki-session.phhs"), "--phh", help="Save the hand history (PHH) here."),
) -> None:
    """Play limit hold'em at the terminal against Loki bots."""
    from loki.players.human import play_human_session

    try:
        play_human_session(opponents, hands, seed, opponent_type, phh_path=phh)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


def register(app: typer.Typer) -> None:
    """Add the commands to ``app``."""
    app.command()(acpc)
    app.command()(dealer)
    app.command()(replay)
    app.command()(play)
