"""``loki warmup``: compile every numba kernel loki's players need, once, after a fresh install."""

from __future__ import annotations

import typer

__all__ = ["warmup"]


def warmup(
    player: list[str] | None = typer.Option(
        None,
        "--player",
        metavar="SPEC",
        help="Warm up these player specs only (repeat; default: loki1, loki2:BR, loki2:BRS, loki2:S:fast, equity).",
    ),
    players: list[int] = typer.Option(
        [], "--players", min=2, max=10, help="Table sizes to practise at (repeat; default 2 and 3)."
    ),
) -> None:
    """Compile (or load from the disk cache) the numba kernels of loki's players, with a progress bar.

    The kernels are cached on disk (NUMBA_CACHE_DIR/<digest>, default ~/.cache/loki/numba/<digest>), so
    this is done once per install: a fresh install spends a minute or two here instead of in the first
    hands of a match.  loki acpc and loki match warm up their own players anyway.
    """
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from loki.cli._common import tagged
    from loki.engine import GameConfig
    from loki.errors import LokiError
    from loki.players.registry import parse_player
    from loki.warmup import DEFAULT_SPECS, kernel_signatures, warm_up

    specs = list(dict.fromkeys(player or DEFAULT_SPECS))
    for s in specs:
        try:
            parse_player(s)
        except (LokiError, ValueError) as e:
            raise tagged("--player", e) from None
    sizes = list(dict.fromkeys(players or [2, 3]))
    from loki import _jit  # for the cache folder only (this module defines no kernel)

    console = Console(stderr=True)
    console.print(f"numba kernels cache: {_jit.cache_dir()}", highlight=False)
    t0 = time.perf_counter()
    steps = [(s, n) for s in specs for n in sizes]
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("warming up", total=len(steps), note="")
        for k, (spec, n) in enumerate(steps):
            progress.update(task, description=f"{spec} ({n} players)", note="")
            warm_up(
                spec,
                GameConfig(n_players=n),
                progress=lambda r: progress.update(task, note=f"practice hand {r.hands}, {r.compiled} kernels"),
            )
            progress.update(task, completed=k + 1)
    sigs = kernel_signatures()
    typer.echo(
        f"warm: {sum(1 for v in sigs.values() if v)} kernels compiled or loaded "
        f"({sum(sigs.values())} signatures) in {time.perf_counter() - t0:.1f} s",
    )
