"""``loki warmup``: compile every numba kernel loki's players need, once, after a fresh install; and
:func:`ensure_warm`, the first-run compile every command that plays does up front."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

__all__ = ["warmup", "ensure_warm", "compiled_before", "cost_note"]

#: What the first-run message says it costs (CPU seconds measured on a 2-core Xeon, numba 0.68: Loki-1 ~16 s,
#: then Loki-2 B+R ~1 s, the Simulator ~11 s more; every default spec ~30 s).
FIRST_RUN_COST = "up to a minute"
#: What the message says when numba's disk cache already holds the kernels (a spec without its own marker, e.g.
#: ``loki1:TA`` after ``loki warmup`` marked ``loki1``): they are loaded, not compiled.
LOAD_COST = "a few seconds"

#: Kernel modules every Loki player runs; a spec with the Simulator (feature S) also runs ``simulator/playout.py``.
_CORE_KERNELS = ("evaluator/kernels.py", "assessment/strength.py", "modeler/kernels.py", "triples/rule_chain.py")


def _numba_subpath(py_file: Path) -> str:
    """The folder numba files ``py_file``'s cached kernels in, under the cache folder: the source folder's name and
    the SHA-1 of its absolute path (``numba.core.caching._CacheLocator.get_suitable_cache_subpath``)."""
    folder = os.path.dirname(os.path.abspath(py_file))
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def compiled_before(specs: Sequence[Any]) -> bool:
    """Whether numba's disk cache (:func:`loki._jit.cache_dir`) already holds compiled kernels of this loki source
    tree for every kernel module the players ``specs`` run: an index file (``*.nbi``) per module.  Then a cold spec
    (no marker: :func:`loki.players.warmup.cold_specs`) is only loaded, in :data:`LOAD_COST`, not compiled.

    Raises:
        PlayerSpecError: a spec the registry cannot read.
    """
    from loki import _jit
    from loki.players.registry import parse_player

    need = list(_CORE_KERNELS)
    if any("S" in (getattr(parse_player(s), "features", None) or ()) for s in specs):
        need.append("simulator/playout.py")
    base = Path(_jit.cache_dir())
    package = Path(_jit.__file__).resolve().parent
    for rel in need:
        f = package / rel
        if not any((base / _numba_subpath(f)).glob(f"{f.stem}.*.nbi")):
            return False
    return True


def cost_note(specs: Sequence[Any]) -> str:
    """What warming up ``specs`` (cold ones) costs, for the messages: loading in :data:`LOAD_COST` when numba's
    cache holds their kernels (:func:`compiled_before`), else the first run's :data:`FIRST_RUN_COST`."""
    if compiled_before(specs):
        return f"loading kernels compiled before: {LOAD_COST}"
    return f"first run of this loki build: {FIRST_RUN_COST}"


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
    otherwise, nothing with ``quiet``.  The message promises a first run's minute only when numba's disk cache does
    not hold the kernels yet (:func:`compiled_before`); otherwise it says they are loaded.  With a warm cache this
    prints nothing and costs a few ``stat`` calls.

    Raises:
        PlayerSpecError: a spec the registry cannot read.
    """
    import time

    from rich.console import Console

    from loki.engine import GameConfig
    from loki.io.names import shown, shown_markup
    from loki.players.warmup import cold_specs, warm_specs

    cold = cold_specs(specs)
    if not cold:
        return
    cfg = GameConfig(n_players=n_players)
    console = Console(stderr=True, highlight=False)
    if quiet:
        warm_specs(cold, cfg)
        return
    loaded = compiled_before(cold)  # numba's cache holds them: a load, not a first-run compile
    names = ", ".join(shown(s, None) for s in cold)
    if loaded:
        head = f"loading numba kernels for {names} (compiled before: {LOAD_COST}, once)"
    else:
        head = (
            f"compiling numba kernels for {names} (first run of this loki build: {FIRST_RUN_COST}, "
            "once; 'loki warmup' does it ahead of time)"
        )
    done = "loaded" if loaded else "compiled"
    t0 = time.perf_counter()
    if not console.is_terminal:
        typer.echo(head + " ...", err=True)
        reps = warm_specs(cold, cfg)
        typer.echo(
            f"{done} in {time.perf_counter() - t0:.1f} s ({sum(r.compiled for r in reps)} kernel signatures)",
            err=True,
        )
        return
    console.print(head, markup=False)
    with _progress(console, transient=True) as progress:
        task = progress.add_task("loading" if loaded else "compiling", total=len(cold), note="")
        for k, spec in enumerate(cold):
            progress.update(task, description=shown_markup(spec, None), note="")
            warm_specs(
                [spec],
                cfg,
                progress=lambda r: progress.update(task, note=f"practice hand {r.hands}, {r.compiled} kernels"),
            )
            progress.update(task, completed=k + 1)
    console.print(f"{done} in {time.perf_counter() - t0:.1f} s", markup=False)


def warmup(
    player: list[str] | None = typer.Option(
        None,
        "--player",
        metavar="SPEC",
        help="Warm up these player specs only (repeat; default: loki1, loki2:BR, loki2:BRS, loki2:BRS:adaptive, "
        "loki2:S:fast, equity).",
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
    from loki.io.names import shown_markup
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
    console.print(f"numba kernels cache: {shown_markup(_jit.cache_dir(), None)}", highlight=False)
    t0 = time.perf_counter()
    steps = [(s, n) for s in specs for n in sizes]
    with _progress(console) as progress:
        task = progress.add_task("warming up", total=len(steps), note="")
        for k, (spec, n) in enumerate(steps):
            progress.update(task, description=shown_markup(f"{spec} ({n} players)", None), note="")
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
