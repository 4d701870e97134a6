"""``loki acpc`` (a Loki client for an ACPC dealer) and ``loki dealer`` (an ACPC dealer on loopback).

Seats are numbered from 1: ``dealer`` takes one ``--player`` and one ``--port`` per seat, seat 1
first, prints the ports on one line of stdout (seat order, for scripts) and one ``seat N (name):
port P`` line per seat on stderr.  ACPC's own ``MATCHSTATE`` positions stay 0-based on the wire.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import typer

from loki.cli._common import (
    acpc_seed_option,
    fail,
    hands_option,
    json_option,
    merge_alias,
    out_option,
    player_option,
    players_option,
    seed_option,
)
from loki.io.names import shown
from loki.io.netlines import MAX_TIMEOUT

__all__ = [
    "acpc",
    "dealer",
    "seat_name",
    "warm_players",
    "report_match",
    "exit_if_ended",
    "check_acpc_seed",
    "time_option",
]

_PLAYERS_HELP = "Players in the game (2-10): the bundled limit game when --game is not given. Default 2."
_GAME_HELP = "ACPC game definition file (default: the bundled limit game of --players)."


def _game(path: Path | None, n: int | None = None) -> Any:
    """``--game`` if given (its player count must agree with ``--players`` when both are given),
    else the bundled limit game for ``--players`` (default 2).

    Raises:
        ConfigError: an unreadable or unsupported game file (the message starts with ``--game``), or
            ``--players`` disagreeing with it.
    """
    from loki.errors import ConfigError, tagged
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
        ConfigError: an empty spec, one containing ``|``, or one not in printable ASCII (an ACPC log is ASCII).

    >>> seat_name("loki2:BR:LA")
    'loki2-BR-LA'
    """
    from loki.io.acpc_dealer import name_problem

    name = spec.strip().replace(":", "-")
    why = name_problem(name)
    if why:
        fail(f"--player {spec!r}: a player name or spec for an ACPC log: {why}")
    return name


def warm_players(specs: list[str], game: Any, quiet: bool = False) -> None:
    """Compile (or load) every numba kernel the loki players of ``specs`` need, with a message on
    stderr (:mod:`loki.players.warmup`), before any connection is made."""
    import time

    from loki.cli.warmup import cost_note
    from loki.players.warmup import cold_specs, mark_warm, warm_up

    for spec in dict.fromkeys(specs):
        if not quiet:
            first = f" ({cost_note([spec])})" if cold_specs([spec]) else ""
            typer.echo(
                f"warming up {spec}: compiling its numba kernels before connecting{first} ...", err=True, nl=False
            )
        t0 = time.perf_counter()
        rep = warm_up(spec, game.config)
        mark_warm(rep)
        if not quiet:
            typer.echo(
                f" done in {time.perf_counter() - t0:.1f} s ({rep.hands} practice hands, "
                f"{rep.compiled} kernel signatures loaded)",
                err=True,
            )


def time_option(default: float | None, flag: str, help: str) -> Any:
    """A seconds option (``--t-response``, ``--timeout``...): 0.001 .. :data:`~loki.io.netlines.MAX_TIMEOUT` (one
    week; click names the range in its error)."""
    return typer.Option(default, flag, min=0.001, max=MAX_TIMEOUT, help=f"{help} At most {MAX_TIMEOUT:g} s.")


T_RESPONSE_HELP = "Seconds a player may take for one action (ACPC --t_response)."
T_HAND_HELP = "Seconds a player may use over one hand, all its actions together (ACPC --t_hand)."
T_PER_HAND_HELP = (
    "Average seconds per hand a player may use over the match: a budget of T x hands (ACPC --t_per_hand; "
    "default: no match budget)."
)
MAX_INVALID_HELP = "Invalid actions (taken as calls) a player may send before the match ends (default: no limit)."


def check_acpc_seed(seed: int) -> None:
    """The ACPC dealer's seed is 32-bit: refuse others with one line."""
    if not 0 <= seed <= 0xFFFFFFFF:
        fail(f"--seed {seed}: the ACPC deal needs a seed in 0..4294967295")


def report_match(r: Any, log: Path | None, as_json: bool, extra: dict | None = None) -> None:
    """Print a finished (or ended) match: the SCORE line and sb/hand ± 95 % per seat (or JSON);
    an early end is one ``error:`` line (exit code 2) naming the seat, the hand and the reason, and a log that could
    not be written another (exit code 2), after the chips of the hands played."""
    from loki.cli._common import echo_json

    if as_json:
        echo_json({**(extra or {}), **r.to_dict(), "log": None if log is None else str(log)})
    else:
        if r.complete:
            typer.echo(r.score_line)
        rates = r.sb_per_hand()
        names = [shown(n, 40) for n in r.names]
        width = max(len("player"), *(len(n) for n in names))
        typer.echo(f"{'seat':>4}  {'player':<{width}}  {'chips':>9}  {'sb/hand':>8}  {'± 95%':>7}")
        for i, (nm, (m, h)) in enumerate(zip(names, rates, strict=True)):
            ms = "-" if m != m else f"{m:+.3f}"
            hs = "-" if h is None else f"{h:.3f}"
            typer.echo(f"{i + 1:>4}  {nm:<{width}}  {r.score[i]:>+9g}  {ms:>8}  {hs:>7}")
        from loki.io.tableview import plural

        done = f"{r.hands_played} of {plural(r.n_hands, 'hand')}" if not r.complete else plural(r.hands_played, "hand")
        typer.echo(f"{done}, {r.seconds:.1f} s" + (f"; log: {shown(log, None)}" if log else ""))
    from loki.io.tableview import plural

    if r.warning_count:
        typer.echo(f"{plural(r.warning_count, 'warning')} (first: {shown(r.warnings[0], 200)})", err=True)
    exit_if_ended(r, log)


def exit_if_ended(r: Any, log: Path | None) -> None:
    """A match that ended early (its abort) or whose log failed: one ``error:`` line each on stderr, exit code 2;
    nothing for a complete match."""
    from loki.io.tableview import plural

    if r.abort is not None:
        typer.echo(
            f"error: match ended after {r.hands_played} of {plural(r.n_hands, 'hand')}: {r.abort.message}"
            + (f" (finished hands in {shown(log, None)})" if log and not r.log_error else ""),
            err=True,
        )
    if r.log_error is not None:
        typer.echo(
            f"error: match stopped after {r.hands_played} of {plural(r.n_hands, 'hand')}: {r.log_error} "
            "(the chips above are the hands played; the log holds those written before it failed)",
            err=True,
        )
    if r.abort is not None or r.log_error is not None:
        raise typer.Exit(2)


def acpc(
    host: str = typer.Argument(..., help="Dealer host (e.g. 127.0.0.1)."),
    port: int = typer.Argument(..., help="Dealer port for this seat."),
    game: Path | None = typer.Option(None, "--game", help=_GAME_HELP),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP),
    player: str = player_option(
        "loki2:BRS:adaptive", "The bot in this seat (default: the adaptive Loki; the paper's: loki2:BRS)."
    ),
    seed: int = seed_option(0, "Seed of the player (>= 0)."),
    timeout: float = time_option(
        600.0, "--timeout", "Seconds allowed for each message from the dealer, counted in total."
    ),
    warmup: bool = typer.Option(
        True, "--warmup/--no-warmup", help="Compile the player's numba kernels before connecting."
    ),
    json_out: bool = json_option(),
) -> None:
    """Play a match against an ACPC dealer (protocol 2.0.0).

    A match that ends badly (the dealer hangs up mid-hand, goes silent, floods) still reports its finished hands, then
    one error line (exit code 2); so does a match where no message could be understood.
    """
    from loki.cli._common import echo_json
    from loki.errors import LokiError, PeerError, tagged
    from loki.io.acpc_client import AcpcClient
    from loki.players.registry import make_player

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    _check_port(port, "PORT")
    g = _game(game, players)
    try:
        pl = make_player(player, seed=seed)
    except (LokiError, ValueError) as e:
        raise tagged("--player", e) from None
    if warmup:
        warm_players([player], g)
    client = AcpcClient(g, pl, host, port, timeout=timeout)
    t0 = time.perf_counter()
    ended: str | None = None  # why the match ended badly: the finished hands are still reported
    try:
        client.run()
    except (ConnectionError, PeerError) as e:
        if client.messages == 0:
            raise  # nothing was played (e.g. no connection): the error alone
        ended = str(e)
    client.seconds = time.perf_counter() - t0
    from loki.io.tableview import plural

    h = client.hands_played
    if not ended and h == 0 and client.error_count:
        ended = f"no hand could be played: {plural(client.error_count, 'protocol error')} (first: {client.errors[0]})"
    if json_out:
        echo_json({**client.to_dict(), "spec": player, "error": ended})
    else:
        typer.echo(
            f"{pl.name}: {plural(h, 'hand')}, {client.total:+g} chips "
            f"({client.total / g.config.small_bet / max(h, 1):+.3f} sb/hand), "
            f"{plural(client.error_count, 'protocol error')}"
        )
    if ended:
        typer.echo(f"error: {ended}", err=True)
        raise typer.Exit(2)


def dealer(
    game: Path | None = typer.Option(None, "--game", help=_GAME_HELP),
    players: int | None = typer.Option(None, "--players", min=2, max=10, help=_PLAYERS_HELP),
    hands: int = hands_option(1000, "Hands in the match."),
    seed: int = acpc_seed_option(),
    player: list[str] | None = players_option(
        "The player in each seat, as named in the log and the SCORE line (repeat, one per seat, seat 1 "
        "first; ':' is written '-'; default p1, p2, ...)."
    ),
    names: list[str] | None = typer.Option(None, "--names", hidden=True, help="Deprecated: --player."),
    port: list[int] = typer.Option([], "--port", help="Ports (repeat, one per seat, seat 1 first; default: any free)."),
    out: Path | None = out_option("Write the ACPC log (STATE lines and SCORE) to this file."),
    log: Path | None = typer.Option(None, "--log", hidden=True, help="Deprecated: --out."),
    t_response: float = time_option(10.0, "--t-response", T_RESPONSE_HELP),
    t_hand: float = time_option(60.0, "--t-hand", T_HAND_HELP),
    t_per_hand: float | None = time_option(None, "--t-per-hand", T_PER_HAND_HELP),
    t_connect: float = time_option(600.0, "--t-connect", "Seconds to wait for the players to connect."),
    max_invalid: int | None = typer.Option(None, "--max-invalid", min=0, help=MAX_INVALID_HELP),
    json_out: bool = json_option(),
) -> None:
    """Deal an ACPC match on loopback: prints the ports (one per seat), then SCORE and sb/hand per seat.

    A player that times out, disconnects or floods ends the match (exit code 2, the seat and the hand named).
    """
    from loki.cli._common import echo_json
    from loki.errors import ConfigError, tagged
    from loki.io.acpc_dealer import AcpcDealer
    from loki.io.outpath import check_output_path

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    specs = merge_alias("--player", player, "--names", names) or []
    out = merge_alias("--out", out, "--log", log)
    for p in port:
        _check_port(p, "--port")
    check_acpc_seed(seed)
    g = _game(game, players)
    if specs and len(specs) != g.n_players:
        fail(f"--player given {len(specs)} times for a {g.n_players}-player game (one per seat)")
    if port and len(port) != g.n_players:
        fail(f"--port given {len(port)} times for a {g.n_players}-player game (one per seat)")
    if out is not None:
        check_output_path(out, "--out")
    seat_names = [seat_name(s) for s in specs] or None
    d = AcpcDealer(
        g,
        hands,
        seed,
        seat_names,
        ports=port or None,
        t_response=t_response,
        t_hand=t_hand,
        t_per_hand=t_per_hand,
        t_connect=t_connect,
        max_invalid=max_invalid,
        log_path=out,
    )
    try:
        ports = d.listen()
    except ConfigError as e:
        raise tagged("--port", e) from None
    if json_out:
        echo_json({"ports": ports, "names": d.names})
    else:
        typer.echo(" ".join(map(str, ports)), nl=True)
    for i, (nm, p) in enumerate(zip(d.names, ports, strict=True)):
        typer.echo(f"seat {i + 1} ({nm}): port {p}", err=True)
    r = d.run()
    report_match(r, out, json_out, {"game": str(g.source), "seed": seed})
