"""Warm up before play: compile (or load from numba's disk cache) every kernel a player needs.

numba compiles a kernel the first time it is called with a given signature; with a cold disk cache
(a fresh install, or after an edit to a kernel module, see :mod:`loki._jit`) the first post-flop
decision of ``loki2:BRS`` spends ~15-20 s compiling, which a dealer with a per-action time limit
of a few seconds does not forgive.  Even with a warm cache, loading the machine code takes a moment
on first use.  :func:`warm_up` does all of this before a match: it plays practice hands with a
*separate* player built from the same spec (the player that will play the match is not touched)
against a maniac and a calling station, until

- the practice player has decided on every street (pre-flop, flop, turn, river),
- at least ``min_hands`` hands were played, and
- no kernel was compiled (no new signature of any kernel of :data:`loki._jit.KERNEL_MODULES`)
  over the last ``quiet_hands`` hands,

or ``max_hands`` / ``max_seconds`` run out.  What the practice player needed is then compiled
and loaded, and the real player's first decision is as fast as the rest.  Module-level tables the
kernels read (the evaluator's, the income-rate tables) are built on the way.

``loki acpc``, ``loki match`` and ``loki warmup`` (a fresh install, with a progress bar) call it.

**Cold or warm**.  Every command that plays (``loki tournament``, ``play``, ``explain``,
``web``) first asks :func:`cold_specs` which of its players' kernels may still need compiling, and warms those
up front with a message (:func:`loki.cli.warmup.ensure_warm`), instead of compiling silently inside the first
timed decision.  The answer must be cheap, so it does not ask numba: a complete warm-up of a spec leaves a
small **marker file** (:func:`marker_path`) in loki's numba cache folder, ``<base>/<digest>/warm/`` (the
folder of :func:`loki._jit.cache_dir`, whose digest covers the numba version and every kernel source).  A spec
is warm when its marker exists; the check costs a spec parse and one ``stat``.  The marker's name also covers
what else numba's own cache depends on: the installed package folder (numba files a function's cache under a
hash of its source folder, so two source trees with equal kernels still compile separately) and the host CPU
(numba keeps machine code per CPU model).  A kernel edit gives a new digest folder, so every marker is gone
at once.  If numba's cache files are deleted but the markers are not, the kernels are compiled silently again:
delete the whole ``<digest>`` folder instead.  Specs of :data:`KERNEL_FREE_KINDS` are never cold.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "WarmupReport",
    "warm_up",
    "warm_up_all",
    "kernel_signatures",
    "DEFAULT_SPECS",
    "KERNEL_FREE_KINDS",
    "canonical_spec",
    "marker_path",
    "cold_specs",
    "mark_warm",
    "warm_specs",
]

#: What ``loki warmup`` compiles by default: every shipped player kind and every decision path
#: (Loki-1; Loki-2's Action Selector with triple re-weighting; the Simulator, full and fast play-outs; the adaptive
#: Loki's models, the default bot of ``loki acpc`` and ``loki web``; the equity reference player).
DEFAULT_SPECS = ("loki1", "loki2:BR", "loki2:BRS", "loki2:BRS:adaptive", "loki2:S:fast", "equity")

#: Player kinds that call no numba kernel: nothing to warm up for them.
KERNEL_FREE_KINDS = frozenset({"random", "calling", "maniac", "folding", "raising"})


@dataclass
class WarmupReport:
    """What :func:`warm_up` did for one spec.

    Attributes:
        spec: the player spec.
        n_players: players at the practice table.
        hands: practice hands played.
        streets: streets (0 pre-flop .. 3 river) on which the practice player decided.
        signatures_before, signatures_after: compiled kernel signatures before and after.
        seconds: wall time.
        complete: the stop rule was met (False: ``max_hands`` or ``max_seconds`` ran out first).
    """

    spec: str
    n_players: int
    hands: int = 0
    streets: set[int] = field(default_factory=set)
    signatures_before: int = 0
    signatures_after: int = 0
    seconds: float = 0.0
    complete: bool = False

    @property
    def compiled(self) -> int:
        """Kernel signatures compiled or loaded during the warm-up."""
        return self.signatures_after - self.signatures_before


def _kernel_module_names() -> list[str]:
    # reads the list only: this module defines no kernel, so it is not one of the digest's modules
    from loki import _jit

    return ["loki." + rel[: -len(".py")].replace("/", ".") for rel in _jit.KERNEL_MODULES]


def kernel_signatures(import_modules: bool = False) -> dict[str, int]:
    """``{"module.function": number of compiled signatures}`` of every numba kernel of loki.

    Args:
        import_modules: import every kernel module first (else only those already imported count).
    """
    out: dict[str, int] = {}
    seen: set[int] = set()
    for name in _kernel_module_names():
        mod = sys.modules.get(name)
        if mod is None and import_modules:
            mod = importlib.import_module(name)
        if mod is None:
            continue
        for attr, v in vars(mod).items():
            # a numba dispatcher (recognised by its attributes: this module compiles nothing itself, so it
            # stays out of loki._jit.KERNEL_MODULES and its digest)
            is_kernel = hasattr(v, "signatures") and hasattr(v, "py_func") and hasattr(v, "overloads")
            if is_kernel and id(v) not in seen and getattr(v.py_func, "__module__", None) == name:
                seen.add(id(v))
                out[f"{name}.{attr}"] = len(v.signatures)
    return out


class _Recorder:
    """Wraps a player: passes everything through, records the streets it decided on."""

    def __init__(self, player: Any):
        self.player = player
        self.streets: set[int] = set()
        self.name = getattr(player, "name", "player")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.player, name)

    def begin_hand(self, *a: Any) -> None:
        self.player.begin_hand(*a)

    def observe(self, event: Any) -> None:
        self.player.observe(event)

    def end_hand(self, view: Any) -> None:
        self.player.end_hand(view)

    def act(self, view: Any, legal: Any) -> Any:
        self.streets.add({0: 0, 3: 1, 4: 2, 5: 3}.get(len(view.board), 0))
        return self.player.act(view, legal)


def warm_up(
    spec: str,
    config: Any = None,
    *,
    seed: int = 0,
    min_hands: int = 6,
    quiet_hands: int = 4,
    max_hands: int = 400,
    max_seconds: float = 300.0,
    progress: Callable[[WarmupReport], None] | None = None,
) -> WarmupReport:
    """Play practice hands with a fresh ``spec`` player until every kernel it uses is compiled.

    Args:
        spec: a player spec (``loki2:BRS``; :func:`loki.players.registry.make_player`).
        config: the :class:`~loki.engine.GameConfig` of the match (default: 2 players).
        seed: seed of the practice cards and players (the warm-up does not touch any other player).
        min_hands, quiet_hands, max_hands, max_seconds: the stop rule (module docstring).
        progress: called with the report after every practice hand.

    Returns:
        The :class:`WarmupReport`.

    Raises:
        PlayerSpecError: a spec the registry cannot build.
    """
    import numpy as np

    from loki.engine import GameConfig
    from loki.players.registry import make_player
    from loki.players.table import play_hand

    cfg = config if config is not None else GameConfig(n_players=2)
    n = cfg.n_players
    t0 = time.perf_counter()
    rep = WarmupReport(spec, n)
    rep.signatures_before = rep.signatures_after = sum(kernel_signatures().values())
    me = _Recorder(make_player(spec, seed=seed, oracles=True))
    others = [
        [make_player("maniac" if (i + k) % 2 == 0 else "calling", seed=seed + i) for i in range(1, n)] for k in range(2)
    ]
    rng = np.random.default_rng([seed, 0x3A4])
    last_change = 0
    for h in range(max_hands):
        players = [me] + others[h % 2]
        play_hand(cfg, players, h % n, rng, oracles=True)
        rep.hands = h + 1
        now = sum(kernel_signatures().values())
        if now != rep.signatures_after:
            rep.signatures_after, last_change = now, h + 1
        rep.streets = set(me.streets)
        rep.seconds = time.perf_counter() - t0
        if progress is not None:
            progress(rep)
        if len(rep.streets) == 4 and rep.hands >= min_hands and rep.hands - last_change >= quiet_hands:
            rep.complete = True
            break
        if rep.seconds > max_seconds:
            break
    return rep


def warm_up_all(
    specs: Sequence[str], config: Any = None, progress: Callable[[WarmupReport], None] | None = None
) -> list[WarmupReport]:
    """:func:`warm_up` every distinct spec of ``specs`` (in order); returns their reports."""
    return [warm_up(s, config, progress=progress) for s in dict.fromkeys(specs)]


# ------------------------------------------------------------------ cold or warm (module docstring)


def canonical_spec(spec: Any) -> str:
    """The registry's own spelling of a spec (``loki.players.registry.spec_of``), so that equal players share
    one marker.

    Raises:
        PlayerSpecError: a spec the registry cannot read.
    """
    from loki.players.registry import parse_player, spec_of

    return spec_of(parse_player(spec))


def marker_path(spec: Any) -> Path:
    """The marker file that says ``spec``'s kernels were compiled for this kernel source, this installed
    package folder and this CPU (module docstring)."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]

    from loki import _jit

    key = canonical_spec(spec)
    cpu = os.environ.get("NUMBA_CPU_NAME") or llvm.get_host_cpu_name()
    tag = hashlib.sha256(f"{key}\n{Path(_jit.__file__).resolve().parent}\n{cpu}".encode()).hexdigest()[:16]
    readable = re.sub(r"[^A-Za-z0-9_.=-]+", "-", key)[:40]
    return Path(_jit.cache_dir()) / "warm" / f"{readable}-{tag}.json"


def cold_specs(specs: Sequence[Any]) -> list[str]:
    """The distinct specs of ``specs`` (canonical, in order) whose kernels may not be compiled yet: no marker.

    Raises:
        PlayerSpecError: a spec the registry cannot read.
    """
    from loki.players.registry import parse_player

    out: list[str] = []
    for s in specs:
        key = canonical_spec(s)
        if key in out or str(parse_player(key).kind) in KERNEL_FREE_KINDS:
            continue
        if not marker_path(key).exists():
            out.append(key)
    return out


def mark_warm(report: WarmupReport) -> bool:
    """Write the marker of ``report.spec`` if its warm-up was complete; returns whether a marker was written
    (an unwritable cache folder writes none: the spec is then warmed up again by the next command)."""
    if not report.complete:
        return False
    path = marker_path(report.spec)
    info = {
        "spec": canonical_spec(report.spec),
        "hands": report.hands,
        "signatures": report.compiled,
        "seconds": round(report.seconds, 2),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(info) + "\n")
        os.replace(tmp, path)
    except OSError:
        return False
    return True


def warm_specs(
    specs: Sequence[Any], config: Any = None, progress: Callable[[WarmupReport], None] | None = None
) -> list[WarmupReport]:
    """:func:`warm_up` every cold spec of ``specs`` (:func:`cold_specs`) and mark the complete ones warm.

    Returns the reports: empty when every spec was warm already (then this costs a few ``stat`` calls).
    """
    reports = []
    for spec in cold_specs(specs):
        rep = warm_up(spec, config, progress=progress)
        mark_warm(rep)
        reports.append(rep)
    return reports
