"""``loki match``: a dealer and every seat in one command (ACPC's ``play_match.pl``), then the SCORE
line and sb/hand per seat with 95 % intervals.

Seats are numbered from 1, in ``--player`` order; the player in seat ``i`` plays in position
``(i - 1 - hand) mod n`` of hand ``hand`` (the ACPC dealer's rotation).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from loki.cli._common import acpc_seed_option, fail, hands_option, json_option, out_option, players_option
from loki.cli.acpc import time_option

__all__ = ["match", "DEFAULT_OPPONENT"]

#: The seat ``loki match`` adds when only one ``--player`` is given (the same bot as ``loki acpc``'s default): the
#: adaptive Loki.
DEFAULT_OPPONENT = "loki2:BRS:adaptive"


def match(
    player: list[str] | None = players_option(
        "The player in each seat (repeat, seat 1 first): a loki spec, or an external ACPC bot "
        "as cmd:<command line>, started with the dealer's host and the seat's port as its last two "
        "arguments ({host} and {port} in the command are replaced instead).  With one, seat 2 is the default "
        "bot, the adaptive Loki (loki2:BRS:adaptive)."
    ),
    game: Path | None = typer.Option(
        None, "--game", help="ACPC game definition file (default: the bundled limit game for the number of seats)."
    ),
    hands: int = hands_option(1000, "Hands in the match."),
    seed: int = acpc_seed_option(0, "Seed of the deal (the ACPC dealer's cards); loki seat i plays with seed*100+i."),
    out: Path | None = out_option(
        "Write the ACPC log here (default: ./loki-match.log, or loki-match-1.log, ... so that no log is overwritten)."
    ),
    t_response: float = time_option(10.0, "--t-response", "Seconds per action (ACPC --t_response)."),
    t_hand: float = time_option(60.0, "--t-hand", "Seconds per hand, all actions together (ACPC --t_hand)."),
    t_per_hand: float | None = time_option(
        None, "--t-per-hand", "Average seconds per hand over the match (ACPC --t_per_hand; default: none)."
    ),
    t_connect: float = time_option(60.0, "--t-connect", "Seconds for every seat to connect."),
    max_invalid: int | None = typer.Option(
        None, "--max-invalid", min=0, help="Invalid actions (taken as calls) a seat may send before the match ends."
    ),
    warmup: bool = typer.Option(
        True, "--warmup/--no-warmup", help="Compile the loki seats' numba kernels before the dealer starts."
    ),
    json_out: bool = json_option(),
) -> None:
    """Play an ACPC match on loopback: a dealer and every seat, then the SCORE line and sb/hand ± 95%.

    A seat that times out, disconnects or floods ends the match (exit code 2, the seat and the hand named); so
    does an external bot whose process exits before the match begins (its exit code named).  Ctrl-C, SIGTERM and
    SIGHUP stop the match and every external bot's process group (exit code 130, 143, 129).
    """
    import logging

    from loki.cli._common import echo_json
    from loki.cli.acpc import check_acpc_seed, exit_if_ended, report_match, warm_players
    from loki.errors import LokiError, tagged
    from loki.io.acpc_match import SeatSpec, parse_seat, player_seed, run_match
    from loki.io.gamedef import bundled_gamedef, load_gamedef
    from loki.io.outpath import check_output_path, free_path
    from loki.players.registry import make_player

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    specs = list(player or [])
    if not specs:
        fail("--player: give the seats (one --player per seat; with one, the other is the default bot)")
    added = len(specs) == 1
    if added:  # heads-up against the default bot, the adaptive Loki
        specs.append(DEFAULT_OPPONENT)
    check_acpc_seed(seed)
    seats: list[SeatSpec] = []
    for text in specs:
        try:
            seats.append(parse_seat(text))
        except LokiError as e:
            raise tagged("--player", e) from None
    try:
        g = load_gamedef(game) if game else bundled_gamedef(len(seats))
    except LokiError as e:
        raise tagged("--game", e) from None
    if g.n_players != len(seats):
        given = "once (seat 2 is then the default bot)" if added else f"{len(seats)} times"
        fail(f"--player given {given} for the {g.n_players}-player game {game} (one per seat)")
    if added:
        typer.echo(f"seat 2: the default bot, {DEFAULT_OPPONENT}", err=True)
    log_path = check_output_path(out, "--out") if out is not None else free_path("loki-match.log")
    players: list[Any] = []
    for i, s in enumerate(seats):
        if s.external:
            players.append(None)
            continue
        try:
            players.append(make_player(s.spec, seed=player_seed(seed, i + 1)))
        except (LokiError, ValueError) as e:
            raise tagged("--player", e) from None

    def listening(ports: list[int]) -> None:
        for i, (s, p) in enumerate(zip(seats, ports, strict=True)):
            typer.echo(f"seat {i + 1} ({s.spec}): port {p}", err=True)

    import signal

    from loki.cli._common import Stopped, signals_stop_the_run

    try:
        # SIGTERM/SIGHUP unwind like Ctrl-C, so that run_match stops the external bots and their process groups
        with signals_stop_the_run():
            if warmup:
                warm_players([s.spec for s in seats if not s.external], g)
            r = run_match(
                g,
                seats,
                hands,
                seed,
                log_path=log_path,
                t_response=t_response,
                t_hand=t_hand,
                t_per_hand=t_per_hand,
                t_connect=t_connect,
                max_invalid=max_invalid,
                players=players,
                on_listen=listening,
            )
    except KeyboardInterrupt as e:  # Ctrl-C (SIGINT), or SIGTERM/SIGHUP as Stopped: one error line, 128 + signal
        signum = e.signum if isinstance(e, Stopped) else int(signal.SIGINT)
        typer.echo(f"error: interrupted ({signal.Signals(signum).name}): the match was stopped", err=True)
        raise typer.Exit(128 + signum) from None

    if json_out:
        extra = {"game": str(g.source), "seed": seed, "log": str(log_path)}
        echo_json({**extra, **r.to_dict()})
        exit_if_ended(r.dealer, log_path)
        return
    report_match(r.dealer, log_path, False)
