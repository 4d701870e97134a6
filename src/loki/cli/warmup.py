"""``loki warmup``: compile every numba kernel loki's players need, once, after a fresh install; and
:func:`ensure_warm`, the first-run compile every command that plays does up front (issue 15, item 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

__all__ = ["warmup", "ensure_warm"]

#: What the first-run message says it costs (CPU seconds measured on a 2-core Xeon, numba 0.68: Loki-1 ~16 s,
#: then Loki-2 B+R ~1 s, the Simulator ~11 s more; every default spec ~30 s).
FIRST_RUN_COST = "up to a minute"


def _progress(console: Any, transient: bool = False) -> Any:
    """The compile progress bar (rich): what is compiling, a bar, done/total, a note, the time so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        console=console,
        transient=transient,
    )


def ensure_warm(specs: Sequence[Any], n_players: int = 2, quiet: bool = False) -> None:
    """Compile the numba kernels of the players ``specs`` now if they may not be compiled yet (a cold cache:
    :func:`loki.players.warmup.cold_specs`), with a message on stderr: a progress bar on a terminal, two plain lines
    otherwise, nothing with ``quiet``.  With a warm cache this prints nothing and costs a few ``stat`` calls.

    Raises:
        PlayerSpecError: a spec the registry cannot read.
    """
    import time

    from rich.console import Console

    from loki.engine import GameConfig
    from loki.players.warmup import cold_specs, warm_specs

    cold = cold_specs(specs)
    if not cold:
        return
    cfg = GameConfig(n_players=n_players)
    console = Console(stderr=True, highlight=False)
    if quiet:
        warm_specs(cold, cfg)
        return
    head = (
        f"compiling numba kernels for {', '.join(cold)} (first run of this loki build: {FIRST_RUN_COST}, "
        "once; 'loki warmup' does it ahead of time)"
    )
    t0 = time.perf_counter()
    if not console.is_terminal:
        typer.echo(head + " ...", err=True)
        reps = warm_specs(cold, cfg)
        typer.echo(
            f"compiled in {time.perf_counter() - t0:.1f} s ({sum(r.compiled for r in reps)} kernel signatures)",
            err=True,
        )
        return
    console.print(head, markup=False)
    with _progress(console, transient=True) as progress:
        task = progress.add_task("compiling", total=len(cold), note="")
        for k, spec in enumerate(cold):
            progress.update(task, description=spec, note="")
            warm_specs(
                [spec],
                cfg,
                progress=lambda r: progress.update(task, note=f"practice hand {r.hands}, {r.compiled} kernels"),
            )
            progress.update(task, completed=k + 1)
    console.print(f"compiled in {time.perf_counter() - t0:.1f} s", markup=False)


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
    this is done once per install: a fresh install spends a minute or so here instead of in the first
    hands of a match.  Without it, the first command that plays compiles its players' kernels up front, with
    a message; loki acpc and loki match warm up their own players anyway.
    """
    import time

    from rich.console import Console

    from loki.engine import GameConfig
    from loki.errors import LokiError, tagged
    from loki.players.registry import parse_player
    from loki.players.warmup import DEFAULT_SPECS, kernel_signatures, mark_warm, warm_up

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
    with _progress(console) as progress:
        task = progress.add_task("warming up", total=len(steps), note="")
        for k, (spec, n) in enumerate(steps):
            progress.update(task, description=f"{spec} ({n} players)", note="")
            rep = warm_up(
                spec,
                GameConfig(n_players=n),
                progress=lambda r: progress.update(task, note=f"practice hand {r.hands}, {r.compiled} kernels"),
            )
            mark_warm(rep)  # later commands then know this spec's kernels are compiled
            progress.update(task, completed=k + 1)
    sigs = kernel_signatures()
    typer.echo(
        f"warm: {sum(1 for v in sigs.values() if v)} kernels compiled or loaded "
        f"({sum(sigs.values())} signatures) in {time.perf_counter() - t0:.1f} s",
    )
