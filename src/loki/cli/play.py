"""``loki play`` (a person at the terminal against Loki bots) and ``loki demo`` (self-play of the
reference players).  Seats are numbered from 1; in ``play`` you are seat 1."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from loki.cli._common import fail, hands_option, merge_alias, out_option, players_option, seed_option

__all__ = ["play", "demo"]


def play(
    opponents: int | None = typer.Option(
        None, "--opponents", min=1, max=9, help="Number of bots at the table (1-9; default 5, or one per --player)."
    ),
    player: list[str] | None = players_option(
        "The bots, one per seat from seat 2 (repeat the option); a single --player seats that bot in every "
        "bot seat (default loki1)."
    ),
    opponent_type: str | None = typer.Option(None, "--opponent-type", hidden=True, help="Deprecated: --player."),
    hands: int = hands_option(20, "Hands to play (q quits earlier)."),
    seed: int = seed_option(0, "Seed of the deal and the bots (>= 0)."),
    out: Path | None = out_option(
        "Save the hand history (PHH) here (default: ./loki-session.phhs, or loki-session-1.phhs, -2, ... so that "
        "an earlier session is never overwritten)."
    ),
    phh: Path | None = typer.Option(None, "--phh", hidden=True, help="Deprecated: --out."),
    json_out: bool = typer.Option(
        False, "--json", help="Print the session's result as JSON on stdout (the table and prompts go to stderr)."
    ),
) -> None:
    """Play limit hold'em at the terminal against Loki bots (you are seat 1).  Type e at any prompt to see why
    the last bot decision was made (e N: seat N's last decision; it shows that bot's cards, a teaching aid)."""
    from loki.cli.human import play_human_session
    from loki.errors import LokiError, tagged
    from loki.io.outpath import check_output_path, free_path
    from loki.players.registry import make_player

    specs = merge_alias("--player", player, "--opponent-type", [opponent_type] if opponent_type else None) or ["loki1"]
    target = merge_alias("--out", out, "--phh", phh)
    if len(specs) > 1:
        if opponents is not None and opponents != len(specs):
            fail(f"--opponents {opponents} but --player given {len(specs)} times (one per bot)")
        if len(specs) > 9:
            fail(f"--player given {len(specs)} times: at most 9 bots")
        opponents = len(specs)
    elif opponents is None:
        opponents = 5
    for spec in dict.fromkeys(specs):
        try:
            make_player(spec, seed=seed)
        except (LokiError, ValueError) as e:
            raise tagged("--player", e) from None
    if target is not None:
        check_output_path(target, "--out")
    from loki.cli.warmup import ensure_warm

    ensure_warm(specs, opponents + 1)  # a first run compiles the bots' kernels now, not at their first decision
    console = None
    if hasattr(sys.stdin, "reconfigure"):  # a byte that is not UTF-8 is a bad action, not a UnicodeDecodeError
        sys.stdin.reconfigure(errors="replace")
    if json_out:  # stdout is the JSON result alone
        from loki.cli._console import make_console

        console = make_console(stderr=True, highlight=False)
    prompts = sys.stderr if json_out else sys.stdout

    def input_fn(prompt: str) -> str:
        if sys.stdin.isatty() and not json_out:
            return input(prompt)  # a terminal: line editing
        return _read_line(prompt, prompts)

    summary = play_human_session(
        opponents,
        hands,
        seed,
        specs[0] if len(specs) == 1 else specs,
        input_fn=input_fn,
        console=console,
        phh_path=target if target is not None else free_path("loki-session.phhs"),
        pause=True,
    )
    if json_out:
        from loki.cli._common import echo_json

        echo_json(summary.to_dict())


#: Characters of one typed line that ``loki play`` reads when its input is not a terminal (the rest is skipped).
MAX_INPUT_LINE = 1024


def _read_line(prompt: str, out) -> str:
    """A line of piped input, at most :data:`MAX_INPUT_LINE` characters read (the rest of a longer line is read and
    dropped in chunks, so memory stays bounded); ``EOFError`` at the end of the input, as :func:`input`."""
    out.write(prompt)
    out.flush()
    line = sys.stdin.readline(MAX_INPUT_LINE + 1)
    if not line:
        raise EOFError
    if not line.endswith("\n") and len(line) > MAX_INPUT_LINE:
        while (rest := sys.stdin.readline(1 << 16)) and not rest.endswith("\n"):
            pass
    return line.rstrip("\r\n")[:MAX_INPUT_LINE]


def demo(
    hands: int = hands_option(5, "Number of hands to play."),
    players: int = typer.Option(3, "--players", min=2, max=10, help="Players at the table (2-10)."),
    seed: int = seed_option(0, "Seed of the deal and of the random players (>= 0)."),
) -> None:
    """Self-play demo of the reference players (random and calling station) on the rules engine."""
    import numpy as np
    from rich.table import Table

    from loki.cards import format_cards
    from loki.cli._console import make_console
    from loki.engine import GameConfig
    from loki.players import CallingStation, RandomPlayer
    from loki.players.table import play_hand

    console = make_console()
    cfg = GameConfig(n_players=players)
    seats = [
        RandomPlayer(seed * 1000 + i, name=f"random-{i + 1}") if i % 2 == 0 else CallingStation(name=f"caller-{i + 1}")
        for i in range(players)
    ]
    rng = np.random.default_rng(seed)
    totals = [0] * players
    for h in range(hands):
        button = h % players
        st = play_hand(cfg, seats, button, rng)
        cards = " ".join(f"{i + 1}:{format_cards(st.hole_cards(i))}" for i in range(players))
        pay = " ".join(f"{x:+d}" for x in st.payoffs)
        console.print(
            f"[bold]hand {h + 1}[/] button seat {button + 1}  [cyan]{st.history}[/]  "
            f"board {format_cards(st.board) or '-'}  holes {cards}  payoffs {pay}"
        )
        for i, x in enumerate(st.payoffs):
            totals[i] += x
    from loki.io.tableview import plural

    table = Table(title=f"{plural(hands, 'hand')}, {plural(players, 'player')}, seed {seed}")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("chips", justify="right")
    table.add_column("sb/hand", justify="right")
    for i, p in enumerate(seats):
        table.add_row(str(i + 1), p.name, f"{totals[i]:+d}", f"{totals[i] / cfg.small_bet / hands:+.3f}")
    console.print(table)
