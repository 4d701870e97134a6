"""``loki acpc`` (a Loki client for an ACPC dealer) and ``loki dealer`` (an ACPC dealer on loopback).

Seats are numbered from 1: ``dealer`` takes one ``--player`` and one ``--port`` per seat, seat 1
first, prints the ports on one line of stdout (seat order, for scripts) and one ``seat N (name):
port P`` line per seat on stderr.  ACPC's own ``MATCHSTATE`` positions stay 0-based on the wire.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import typer

from loki.cli._common import fail, hands_option, merge_alias, out_option, player_option, players_option, seed_option

__all__ = ["acpc", "dealer", "seat_name"]

_PLAYERS_HELP = "Players in the game (2-10): the bundled limit game when --game is not given. Default 2."
_GAME_HELP = "ACPC game definition file (default: the bundled limit game of --players)."


def _game(path: Path | None, n: int | None = None) -> Any:
    """``--game`` if given (its player count must agree with ``--players`` when both are given),
    else the bundled limit game for ``--players`` (default 2).

    Raises:
        ConfigError: an unreadable or unsupported game file (the message starts with ``--game``), or
            ``--players`` disagreeing with it.
    """
    from loki.cli._common import tagged
    from loki.errors import ConfigError
    from loki.io.gamedef import bundled_gamedef, load_gamedef

    try:
        g = load_gamedef(path) if path else bundled_gamedef(n or 2)
    except ConfigError as e:
        raise tagged("--game", e) from None
    if path and n is not None and g.n_players != n:
        fail(f"--players {n} but --game {path} is a {g.n_players}-player game")
    return g


def _check_port(port: int, option: str) -> None:
    if not 0 <= port <= 65535:
        fail(f"{option} {port}: out of range (expected 0..65535)")


def seat_name(spec: str) -> str:
    """The name of a seat in an ACPC log for ``--player SPEC``: the spec with ``-`` for ``:`` (ACPC
    logs reserve ``:`` and ``|``).

    Raises:
        ConfigError: an empty spec or one containing ``|``.

    >>> seat_name("loki2:BR:LA")
    'loki2-BR-LA'
    """
    s = spec.strip()
    if not s or "|" in s:
        fail(f"--player {spec!r}: expected a non-empty player name or spec without '|'")
    return s.replace(":", "-")


def acpc(
    host: str = typer.Argument(..., help="Dealer host (e.g. 127.0.0.1)."),
    port: int = typer.Argument(..., help="Dealer port for this seat."),
    game: Path | None = typer.Option(None, "--game", help=_GAME_HELP),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP),
    player: str = player_option("loki1", "The bot in this seat."),
    seed: int = seed_option(0, "Seed of the player (>= 0)."),
    timeout: float = typer.Option(600.0, "--timeout", min=0.001, help="Seconds to wait for a dealer message (> 0)."),
) -> None:
    """Play a match against an ACPC dealer (protocol 2.0.0)."""
    from loki.cli._common import tagged
    from loki.errors import LokiError
    from loki.io.acpc_client import AcpcClient
    from loki.players.registry import make_player

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _check_port(port, "PORT")
    g = _game(game, players)
    try:
        pl = make_player(player, seed=seed)
    except (LokiError, ValueError) as e:
        raise tagged("--player", e) from None
    client = AcpcClient(g, pl, host, port, timeout=timeout)
    client.run()
    h = client.hands_played
    typer.echo(
        f"{pl.name}: {h} hands, {client.total:+g} chips "
        f"({client.total / g.config.small_bet / max(h, 1):+.3f} sb/hand), {len(client.errors)} protocol errors"
    )


def dealer(
    game: Path | None = typer.Option(None, "--game", help=_GAME_HELP),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP),
    hands: int = hands_option(1000, "Hands in the match."),
    seed: int = seed_option(0, "Seed of the deal (>= 0)."),
    player: list[str] | None = players_option(
        "The player in each seat, as named in the log and the SCORE line (repeat, one per seat, seat 1 "
        "first; ':' is written '-'; default p1, p2, ...)."
    ),
    names: list[str] | None = typer.Option(None, "--names", hidden=True, help="Deprecated: --player."),
    port: list[int] = typer.Option([], "--port", help="Ports (repeat, one per seat, seat 1 first; default: any free)."),
    out: Path | None = out_option("Write the ACPC log (STATE lines and SCORE) to this file."),
    log: Path | None = typer.Option(None, "--log", hidden=True, help="Deprecated: --out."),
    t_response: float = typer.Option(10.0, "--t-response", min=0.001, help="Seconds allowed per action."),
    t_connect: float = typer.Option(
        600.0, "--t-connect", min=0.001, help="Seconds to wait for the players to connect."
    ),
) -> None:
    """Deal an ACPC match on loopback: prints the ports (one per seat), then the SCORE line."""
    from loki.cli._common import tagged
    from loki.errors import ConfigError, OutputPathError
    from loki.io.acpc_dealer import AcpcDealer
    from loki.io.outpath import check_output_path

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    specs = merge_alias("--player", player, "--names", names) or []
    out = merge_alias("--out", out, "--log", log)
    for p in port:
        _check_port(p, "--port")
    g = _game(game, players)
    if specs and len(specs) != g.n_players:
        fail(f"--player given {len(specs)} times for a {g.n_players}-player game (one per seat)")
    if port and len(port) != g.n_players:
        fail(f"--port given {len(port)} times for a {g.n_players}-player game (one per seat)")
    if out is not None:
        check_output_path(out, "--out")
    seat_names = [seat_name(s) for s in specs] or None
    d = AcpcDealer(
        g, hands, seed, seat_names, ports=port or None, t_response=t_response, t_connect=t_connect, log_path=out
    )
    try:
        ports = d.listen()
    except ConfigError as e:
        raise tagged("--port", e) from None
    typer.echo(" ".join(map(str, ports)), nl=True)
    for i, (nm, p) in enumerate(zip(d.names, ports, strict=True)):
        typer.echo(f"seat {i + 1} ({nm}): port {p}", err=True)
    try:
        r = d.run()
    except OutputPathError:
        raise
    except OSError as e:
        raise OutputPathError(f"--out {out}: cannot write the log: {e}") from None
    typer.echo(r.score_line)
    if r.errors:
        typer.echo(f"{len(r.errors)} protocol errors (first: {r.errors[0]})", err=True)
