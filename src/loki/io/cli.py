"""CLI commands of the outside world: ``loki acpc``, ``loki dealer``, ``loki replay``, ``loki play``.

Registered on the main app by :func:`register` (called from :mod:`loki.cli`).
"""

from __future__ import annotations

import logging
from pathlib import Path

import typer

__all__ = ["register"]


def _fail(msg: str) -> None:
    """One ``error: ...`` line on stderr, exit code 2 (no traceback)."""
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(2)


def _game(path: Path | None, n: int | None = None):
    """``--game`` if given (its player count must agree with ``--players`` when both are given),
    else the bundled limit game for ``--players`` (default 2)."""
    from loki.io.gamedef import bundled_gamedef, load_gamedef

    try:
        g = load_gamedef(path) if path else bundled_gamedef(n or 2)
    except ValueError as e:
        _fail(f"--game: {e}")
    if path and n is not None and g.n_players != n:
        _fail(f"--players {n} but --game {path} is a {g.n_players}-player game")
    return g


def _check_port(port: int, option: str) -> None:
    if not 0 <= port <= 65535:
        _fail(f"{option} {port}: out of range (expected 0..65535)")


_PLAYERS_HELP = "Players in the game (2-10): the bundled limit game when --game is not given."


def acpc(
    host: str = typer.Argument(..., help="Dealer host (e.g. 127.0.0.1)."),
    port: int = typer.Argument(..., help="Dealer port for this seat."),
    game: Path | None = typer.Option(
        None, "--game", help="ACPC game definition (default: the bundled limit game of --players)."
    ),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP + " Default 2."),
    player: str = typer.Option("loki1", "--player", help="Player spec (loki1, loki1:TA, loki2:BR, random, calling)."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the player."),
    timeout: float = typer.Option(600.0, "--timeout", min=0.001, help="Seconds to wait for a dealer message (> 0)."),
) -> None:
    """Play a match against an ACPC dealer (protocol 2.0.0)."""
    from loki.io.acpc_client import AcpcClient
    from loki.players.registry import make_player

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _check_port(port, "PORT")
    g = _game(game, players)
    try:
        pl = make_player(player, seed=seed)
    except ValueError as e:
        _fail(f"--player: {e}")
    try:
        client = AcpcClient(g, pl, host, port, timeout=timeout)
    except ValueError as e:
        _fail(str(e))
    try:
        client.run()
    except ConnectionError as e:
        _fail(str(e))
    h = client.hands_played
    typer.echo(
        f"{pl.name}: {h} hands, {client.total:+g} chips "
        f"({client.total / g.config.small_bet / max(h, 1):+.3f} sb/hand), {len(client.errors)} protocol errors"
    )


def dealer(
    game: Path | None = typer.Option(
        None, "--game", help="ACPC game definition (default: the bundled limit game of --players)."
    ),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP + " Default 2."),
    hands: int = typer.Option(1000, "--hands", min=1, help="Hands in the match."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deal."),
    names: list[str] | None = typer.Option(None, "--names", help="Player names (repeat the option, one per seat)."),
    port: list[int] = typer.Option([], "--port", help="Ports (repeat, one per seat; default: chosen by the system)."),
    log: Path | None = typer.Option(None, "--log", help="Write the ACPC log (STATE lines and SCORE) here."),
    t_response: float = typer.Option(10.0, "--t-response", min=0.001, help="Seconds allowed per action."),
    t_connect: float = typer.Option(
        600.0, "--t-connect", min=0.001, help="Seconds to wait for the players to connect."
    ),
) -> None:
    """Deal an ACPC match on loopback: prints one port per seat, then the SCORE line."""
    from loki.io.acpc_dealer import AcpcDealer

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for p in port:
        _check_port(p, "--port")
    g = _game(game, players)
    try:
        d = AcpcDealer(
            g, hands, seed, names or None, ports=port or None, t_response=t_response, t_connect=t_connect, log_path=log
        )
    except ValueError as e:
        _fail(str(e))
    try:
        ports = d.listen()
    except ValueError as e:
        _fail(f"--port: {e}")
    typer.echo(" ".join(map(str, ports)), nl=True)
    try:
        r = d.run()
    except (ConnectionError, ValueError) as e:
        _fail(str(e))
    typer.echo(r.score_line)
    if r.errors:
        typer.echo(f"{len(r.errors)} protocol errors (first: {r.errors[0]})", err=True)


def replay(
    file: Path = typer.Argument(..., exists=True, help="ACPC log (STATE lines) or PHH file (.phh/.phhs)."),
    player: str = typer.Option("loki1", "--player", help="The bot that models and decides (registry spec)."),
    hands: int | None = typer.Option(None, "--hands", min=1, help="Only the first N hands."),
    plot: Path | None = typer.Option(
        None,
        "--plot",
        help="Histogram .png/.pdf/.svg (default: ./<FILE name>.percentiles.png in the current folder; the log's own folder may be read-only).",
    ),
    seed: int = typer.Option(0, "--seed", min=0),
) -> None:
    """Replay a real log through the Opponent Modeler and Loki's decisions; report statistics,
    agreement with the logged actions and the model quality at showdowns.  Hands that do not
    replay (bad cards, illegal betting) are skipped and listed in the report."""
    from rich.console import Console

    from loki.io.outpath import check_output_path
    from loki.players.registry import make_player
    from loki.replay import PLOT_SUFFIXES, load_log, plot_percentiles, render_report, replay_hands

    console = Console()
    out = plot or Path.cwd() / (file.name + ".percentiles.png")
    try:  # before the (long) replay: a bad output path must not throw the report away
        check_output_path(out, "--plot", PLOT_SUFFIXES)
    except ValueError as e:
        _fail(str(e))
    try:
        make_player(player, seed=seed)
    except ValueError as e:
        _fail(f"--player: {e}")
    try:
        recs, skipped, warnings = load_log(file)
    except ValueError as e:
        _fail(str(e))
    if hands:
        recs = recs[:hands]
    try:
        report = replay_hands(recs, player, seed, skip_bad=True)
    except ValueError as e:
        _fail(str(e))
    report.skipped[:0] = skipped
    report.warnings.extend(warnings)
    render_report(report, console, title=file.name)
    try:
        plot_percentiles(report, out)
    except (OSError, ValueError) as e:
        _fail(f"--plot {out}: cannot write the histogram: {e}")
    console.print(f"histogram written to {out}")


def play(
    opponents: int = typer.Option(5, "--opponents", min=1, max=9, help="Number of bots at the table."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the deal and the bots."),
    hands: int = typer.Option(20, "--hands", min=1, help="Hands to play (q quits earlier)."),
    opponent_type: str = typer.Option("loki1", "--opponent-type", help="Bot spec (loki1, loki1:LA, loki2:BR, ...)."),
    phh: Path | None = typer.Option(
        None,
        "--phh",
        help="Save the hand history (PHH) here (default: ./loki-session.phhs, or loki-session-1.phhs, -2, ... so that an earlier session is never overwritten).",
    ),
) -> None:
    """Play limit hold'em at the terminal against Loki bots."""
    from loki.io.outpath import free_path
    from loki.players.human import play_human_session
    from loki.players.registry import make_player

    try:
        make_player(opponent_type, seed=seed)
    except ValueError as e:
        _fail(f"--opponent-type: {e}")
    try:
        play_human_session(opponents, hands, seed, opponent_type, phh_path=phh or free_path("loki-session.phhs"))
    except ValueError as e:
        _fail(str(e))


def register(app: typer.Typer) -> None:
    """Add the commands to ``app``."""
    app.command()(acpc)
    app.command()(dealer)
    app.command()(replay)
    app.command()(play)
