"""Tuning studies: search the values the sources leave open, on Optuna, with honest validation.

A study tunes the configuration of **one player type** of a tournament (a preset such as ``fig3-B`` or a TOML file,
or a panel of them separated by commas, scored on all together: :func:`load_targets`):
each trial draws values for the type's tunable fields (:func:`loki.config.tunable`; ``loki tune --list-params SPEC``
lists them with their ranges and sources), plays the tournament with those values on the tuning seeds (≥ 1000,
AIVAT estimator) and scores the trial by the first comparison's AIVAT estimate (enhanced minus control, sb/hand,
paired by deal).  The blocks are reported as they finish, so a pruner can stop a trial that is clearly worse.

* **Seeds.**  A fixed panel (default: every trial plays the same deals, so trials are compared on common random
  numbers) or ``fresh`` seeds (trial ``k`` plays seed ``panel[0] + k``; avoids fitting the panel).  Tuning seeds are
  ≥ 1000; seeds 0 and 1 are for reporting (docs/EXPERIMENTS.md, experiments/).
* **Storage.**  A study is a SQLite file (``<out>/study.db``, Optuna's RDB storage): run the same command again to
  resume it; several processes may work on one study at once.  A trial left running by a process that died
  (SIGKILL included: same host and a dead pid, or no sign of life for :data:`GRACE` seconds) is marked failed and
  its parameters are queued again, so no trial is lost; completed and pruned trials count towards ``--trials`` once.
* **Outputs** (:func:`finish_study`): the best trial's configuration as a TOML player file with provenance
  (``best.toml``; ``--player best.toml`` plays it), a history plot and parameter importances (matplotlib), and a
  validation of the best values against the defaults on seeds the search never saw (``tune.json``): the search's
  best value is optimistic (the winner's curse; reference/tuning-and-adaptation.md), the validation is the number
  to report.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from loki.config import TunableParam, tunable_params
from loki.errors import ConfigError, LokiError, OutputPathError
from loki.io.files import atomic_write_text
from loki.io.outpath import make_folder, not_a_file
from loki.io.plots import figures, save_figure
from loki.stats import mean_ci
from loki.tournament.config import (
    MAX_SEED,
    TournamentConfig,
    config_from_dict,
    list_presets,
    load_config,
    load_preset,
)
from loki.tournament.runner import play_block
from loki.tournament.stats import comparison_series

__all__ = [
    "check_scored",
    "GRACE",
    "StudySpec",
    "Evaluation",
    "Pruned",
    "load_target",
    "load_targets",
    "base_player",
    "panel_player",
    "search_space",
    "tuning_space",
    "apply_values",
    "trial_config",
    "evaluate",
    "open_study",
    "parse_param",
    "param_text",
    "start_values",
    "queue_start",
    "recover_stale",
    "counted",
    "run_study",
    "finish_study",
    "validation_seeds",
    "checked_validation_seeds",
]

STUDY_NAME = "loki-tune"
#: Seconds without a sign of life (a finished block) after which a running trial of another host counts as dead.
GRACE = 900.0
#: Tuning seeds start here (seeds 0 and 1 are for reporting).
MIN_TUNING_SEED = 1000
#: Trial numbers a ``fresh_seeds`` study keeps room for: its trial ``k`` plays seed ``seeds[0] + k``, for ``k`` below
#: this (retried trials included), and its default validation seeds lie above (:func:`validation_seeds`).
FRESH_SEED_ROOM = 10**6
#: ``sampler_seed`` at most: Optuna's samplers seed a 32-bit generator (NumPy's ``RandomState``).
MAX_SAMPLER_SEED = 2**32 - 1


@dataclass(frozen=True)
class StudySpec:
    """What a study is: the same spec is required to resume it (kept in the study's storage).

    Attributes:
        target: the tournament, a preset name or a TOML path, as given.
        label: the player type whose configuration is tuned (default: the first comparison's first enhanced type).
        params: the tuned fields' dotted paths, each optionally with its own range ``PATH=LOW:HIGH``
            (:func:`search_space`).
        deals: deals per seed per trial.
        seeds: the tuning panel (each 1000..2**64-1).
        fresh_seeds: trial ``k`` plays the one seed ``seeds[0] + k`` instead of the panel (``seeds[0]`` must leave
            room for :data:`FRESH_SEED_ROOM` trials below 2**64).
        block_deals: deals per block (the pruner's step).
        sampler: ``"tpe"`` (Optuna's default, mixed spaces), ``"cmaes"`` (a handful of continuous parameters; needs the
            ``cmaes`` package) or ``"random"``; sampler_seed: its seed (0..2**32-1).
        pruner: ``"median"`` (stop a trial whose running AIVAT mean is below the median of the complete trials'
            values with 95 % confidence, after ``warmup`` of its deals and 8 complete trials:
            :func:`confidently_worse`) or ``"none"``.
        warmup: the share of a trial's deals played before the pruner may stop it.
        start_at_values: the first trial plays the target's own values of the tuned fields (queued once, when the
            study is created; fields without a value are sampled), so the search's ranking places them on the same
            panel as every candidate.

    Raises:
        ConfigError: a value out of range; the message names the ``loki tune`` option (``--seeds``, ``--sampler``,
            ...): a seed below 1000, above 2**64-1 or given twice (with ``fresh_seeds``: a first seed without room for
            :data:`FRESH_SEED_ROOM` trials), a sampler seed outside 0..2**32-1, an unknown sampler or pruner,
            ``block_deals`` outside 1..deals, ``warmup`` outside [0, 1].
    """

    target: str
    label: str
    params: tuple[str, ...]
    deals: int = 1000
    seeds: tuple[int, ...] = (1000,)
    fresh_seeds: bool = False
    block_deals: int = 25
    sampler: str = "tpe"
    sampler_seed: int = 0
    pruner: str = "median"
    warmup: float = 0.4
    start_at_values: bool = False

    def __post_init__(self) -> None:
        if not self.seeds or any(s < MIN_TUNING_SEED for s in self.seeds):
            raise ConfigError(f"--seeds {list(self.seeds)}: tuning seeds must be >= {MIN_TUNING_SEED} (0 and 1 report)")
        if len(set(self.seeds)) != len(self.seeds):
            raise ConfigError(f"--seeds {list(self.seeds)}: a seed given twice (the panel would count its deals twice)")
        if any(s > MAX_SEED for s in self.seeds):
            raise ConfigError(f"--seeds {list(self.seeds)}: tuning seeds must be <= {MAX_SEED} (2**64-1, loki's cap)")
        if self.fresh_seeds and self.seeds[0] + FRESH_SEED_ROOM - 1 > MAX_SEED:
            raise ConfigError(
                f"--seeds {list(self.seeds)}: with --fresh-seeds trial k plays seed {self.seeds[0]}+k, which must stay "
                f"<= {MAX_SEED} for {FRESH_SEED_ROOM} trials: expected a first seed <= {MAX_SEED - FRESH_SEED_ROOM + 1}"
            )
        if not 0 <= self.sampler_seed <= MAX_SAMPLER_SEED:
            raise ConfigError(f"--sampler-seed {self.sampler_seed}: expected 0..{MAX_SAMPLER_SEED} (a 32-bit seed)")
        if self.sampler not in ("tpe", "cmaes", "random"):
            raise ConfigError(f"--sampler {self.sampler!r}: expected tpe, cmaes or random")
        if self.pruner not in ("median", "none"):
            raise ConfigError(f"--pruner {self.pruner!r}: expected median or none")
        if not 1 <= self.block_deals <= self.deals:
            raise ConfigError(f"block_deals {self.block_deals}: expected 1..deals ({self.deals})")
        if not 0.0 <= self.warmup <= 1.0:
            raise ConfigError(f"warmup {self.warmup}: expected a share in [0, 1]")

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> StudySpec:
        d = json.loads(text)
        return cls(**{**d, "params": tuple(d["params"]), "seeds": tuple(d["seeds"])})

    def trial_seeds(self, number: int) -> tuple[int, ...]:
        """The seeds trial ``number`` plays."""
        return (self.seeds[0] + number,) if self.fresh_seeds else self.seeds


def load_target(target: str) -> TournamentConfig:
    """A preset by name, else a tournament TOML file.

    Raises:
        TournamentConfigError: neither a preset nor a readable, valid tournament file.
    """
    if target in list_presets():
        return load_preset(target)
    return load_config(target)


def load_targets(target: str) -> list[TournamentConfig]:
    """The fields of a study: ``target`` is one preset or TOML file, or several separated by commas (a panel of
    fields, e.g. heads-up matches against several opponents); each is loaded by :func:`load_target`.

    Raises:
        ConfigError: an empty name in the list, or the same field twice.
        TournamentConfigError: a field that does not load.
    """
    names = [t.strip() for t in target.split(",")]
    if any(not n for n in names):
        raise ConfigError(f"target {target!r}: expected presets or TOML files separated by commas, found an empty name")
    if len(set(names)) != len(names):
        raise ConfigError(f"target {target!r}: a field is named twice")
    return [load_target(n) for n in names]


def panel_player(cfgs: Sequence[TournamentConfig], label: str) -> Any:
    """The configuration of the player type ``label`` common to every field of a panel (:func:`base_player` of
    each).

    Raises:
        ConfigError: a field without that type, or fields whose players of that type differ.
    """
    bases = [base_player(c, label) for c in cfgs]
    dumps = {json.dumps(b.model_dump(mode="json"), sort_keys=True) for b in bases}
    if len(dumps) > 1:
        raise ConfigError(f"--label {label!r}: its players differ between the fields {[c.name for c in cfgs]}")
    return bases[0]


def check_scored(cfgs: Sequence[TournamentConfig], label: str) -> None:
    """Refuse a panel a study cannot score for the player type ``label``: a trial is scored by each field's first
    comparison (:func:`evaluate`: enhanced minus control), so every field needs a ``[[compare]]`` whose enhanced
    types include ``label`` (checked before any trial: a field without one failed after trial 0 had played).

    Raises:
        ConfigError: a field without a comparison, or whose first comparison does not count ``label`` as enhanced.
    """
    for c in cfgs:
        if not c.compare:
            raise ConfigError(
                f"{c.name}: no [[compare]] section; a study scores each trial by the field's first comparison "
                f"(enhanced minus control): add one with enhanced = [{label!r}]"
            )
        first = c.compare[0]
        if label not in first.enhanced:
            raise ConfigError(
                f"--label {label!r}: not an enhanced type of {c.name}'s first comparison ({first.name!r}: enhanced "
                f"{list(first.enhanced)}); a study raises that comparison, so it tunes one of its enhanced types"
            )


def base_player(cfg: TournamentConfig, label: str) -> Any:
    """The configuration (:class:`loki.players.registry.PlayerConfig`) of the player type ``label`` of ``cfg``.

    Raises:
        ConfigError: no such type, or entries of that type built from different configurations.
    """
    from loki.players.registry import parse_player

    entries = [e for e in cfg.players if e.label == label]
    if not entries:
        raise ConfigError(f"--label {label!r}: the tournament's player types are {list(cfg.labels)}")
    configs = {json.dumps(parse_player(e.player).model_dump(mode="json"), sort_keys=True) for e in entries}
    if len(configs) > 1:
        raise ConfigError(f"--label {label!r}: its players are built from different configurations")
    return parse_player(entries[0].player)


def parse_param(text: str) -> tuple[str, tuple[float, float] | None]:
    """A ``--param`` entry: a field's dotted path, optionally with its own search range ``PATH=LOW:HIGH``.

    Args:
        text: the entry as given (spaces around the parts are ignored).

    Returns:
        ``(path, None)`` or ``(path, (low, high))``.

    Raises:
        ConfigError: an empty path, or a range that is not two finite numbers ``LOW:HIGH`` with ``LOW < HIGH``.

    >>> parse_param("bettor.make1=0.6:0.9")
    ('bettor.make1', (0.6, 0.9))
    >>> parse_param("sim.trials")
    ('sim.trials', None)
    """
    path, sep, rng = (x.strip() for x in text.partition("="))
    if not path:
        raise ConfigError(f"--param {text!r}: expected a field's dotted path, optionally PATH=LOW:HIGH")
    if not sep:
        return path, None
    lo_s, colon, hi_s = rng.partition(":")
    try:
        lo, hi = float(lo_s), float(hi_s)
    except ValueError:
        lo = hi = math.nan
    if not colon or not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ConfigError(f"--param {text!r}: expected a range LOW:HIGH of two finite numbers with LOW < HIGH")
    return path, (lo, hi)


def param_text(text: str) -> str:
    """The canonical spelling of a ``--param`` entry, as a study's spec keeps it, so that ``bettor.make1 = 0.60:0.9``
    and ``bettor.make1=0.6:0.9`` name the same study (whole numbers without a decimal point, others as Python's
    shortest exact ``repr``).

    Raises:
        ConfigError: as :func:`parse_param`.

    >>> param_text(" bettor.check_raise_probability = 0.0:0.30 ")
    'bettor.check_raise_probability=0:0.3'
    """
    path, rng = parse_param(text)
    if rng is None:
        return path

    def num(x: float) -> str:
        return str(int(x)) if x.is_integer() else repr(x)

    return f"{path}={num(rng[0])}:{num(rng[1])}"


def _hard_bounds(config: Any, path: str) -> tuple[float, float, bool, bool]:
    """The bounds a field's own validation enforces (``ge``/``gt``, ``le``/``lt``): ``(low, high, low_open,
    high_open)``, ``±inf`` where it has none.  Rules across fields (e.g. ``make1 ≤ make2``) are not among them: a trial
    that breaks one is refused by the configuration and pruned as invalid."""
    node = config
    *parents, leaf = path.split(".")
    for k in parents:
        node = getattr(node, k)
    lo, hi, lo_open, hi_open = -math.inf, math.inf, False, False
    for m in type(node).model_fields[leaf].metadata:
        if getattr(m, "ge", None) is not None:
            lo, lo_open = float(m.ge), False
        if getattr(m, "gt", None) is not None:
            lo, lo_open = float(m.gt), True
        if getattr(m, "le", None) is not None:
            hi, hi_open = float(m.le), False
        if getattr(m, "lt", None) is not None:
            hi, hi_open = float(m.lt), True
    return lo, hi, lo_open, hi_open


def search_space(player: Any, params: Sequence[str] | None = None) -> list[TunableParam]:
    """The tunable fields of a player configuration that matter for it (its ``search_space()`` if it has one, else
    every :func:`~loki.config.tunable` field), restricted to ``params`` if given.

    An entry of ``params`` may give the field its own range, ``PATH=LOW:HIGH`` (:func:`parse_param`), in place of
    the one its metadata declares: a study may look beyond a declared range (e.g. where an earlier study's best
    value sat at its edge) as long as the field's validation accepts the range's ends.

    Raises:
        ConfigError: a name in ``params`` that is not a tunable field of the player (the message lists them), a field
            named twice, or a range its field refuses (outside its validation bounds, not positive on a log scale, not
            whole numbers for an integer field).
    """
    space = player.search_space() if hasattr(player, "search_space") else tunable_params(player)
    if params is None:
        return space
    known = {p.path: p for p in space}
    parsed = [(text, *parse_param(text)) for text in params]
    unknown = [text for text, path, _ in parsed if path not in known]
    if unknown:
        raise ConfigError(
            f"--param {unknown[0]!r}: not a tunable field of this player; expected one of {sorted(known)}"
        )
    paths = [path for _, path, _ in parsed]
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:
        raise ConfigError(f"--param {twice[0]!r}: named more than once")
    out = []
    for text, path, rng in parsed:
        p = known[path]
        if rng is not None:
            lo, hi = rng
            blo, bhi, lo_open, hi_open = _hard_bounds(player, path)
            if lo < blo or hi > bhi or (lo_open and lo <= blo) or (hi_open and hi >= bhi):
                left = f"{'(' if lo_open or blo == -math.inf else '['}{blo:g}"
                right = f"{bhi:g}{')' if hi_open or bhi == math.inf else ']'}"
                raise ConfigError(f"--param {text!r}: the field accepts values in {left}, {right}")
            if p.log and lo <= 0:
                raise ConfigError(f"--param {text!r}: a log-scale field needs LOW > 0")
            if p.integer and not (lo.is_integer() and hi.is_integer()):
                raise ConfigError(f"--param {text!r}: an integer field needs whole numbers")
            p = dataclasses.replace(p, low=lo, high=hi)
        out.append(p)
    return out


def tuning_space(player: Any, label: str, params: Sequence[str] | None = None) -> list[TunableParam]:
    """The search space of a study of the player type ``label`` (configuration ``player``): :func:`search_space`,
    refused when it is empty (a study over no field would run trials that tune nothing).

    Raises:
        ConfigError: the player has no tunable field (e.g. ``random``, ``calling``; the message names ``--label``),
            ``params`` is empty, or as :func:`search_space`.
    """
    if not search_space(player):
        kind = getattr(player, "kind", type(player).__name__)
        raise ConfigError(
            f"--label {label!r} ({kind}): no tunable fields; choose a player type that has some (loki tune "
            "--list-params SPEC lists a player's)"
        )
    space = search_space(player, params)
    if not space:
        raise ConfigError(f"--param: no field named for --label {label!r}; expected at least one (or none: all)")
    return space


def apply_values(player: Any, values: dict[str, Any]) -> Any:
    """``player`` with the fields at the dotted paths of ``values`` replaced (validated again).

    Raises:
        ConfigError, PlayerSpecError: a value or a combination the configuration refuses (e.g. make1 > make2).
    """
    from loki.players.registry import parse_player

    data = player.model_dump(mode="json")
    for path, v in values.items():
        node = data
        *parents, leaf = path.split(".")
        for k in parents:
            node = node[k]
        node[leaf] = v
    return parse_player(data)


def trial_config(
    cfg: TournamentConfig, label: str, player: Any, seed: int, deals: int, block_deals: int
) -> TournamentConfig:
    """``cfg`` with the players of type ``label`` built from ``player``, on ``seed`` and ``deals``, blocks of
    ``block_deals``, the AIVAT estimator and no hand histories."""
    d = cfg.to_dict()
    d.update(seed=seed, deals=deals, block_deals=block_deals, histories=False, estimator="aivat")
    for e in d["players"]:
        if e["label"] == label:
            e.pop("type", None)
            e["config"] = player.model_dump(mode="json")
    return config_from_dict(d, f"{cfg.name} (tuning)")


class Pruned(Exception):
    """Raised by :func:`evaluate` when ``on_block`` asks to stop."""


@dataclass
class Evaluation:
    """A configuration's score: the first comparison's AIVAT estimate over all deals of all seeds.

    Attributes:
        value: mean, sb/hand; ci: half-width of its 95 % interval (None with fewer than two deals).
        plain: the plain (uncorrected) mean, sb/hand; deals: deals played.
        series: ``(deals,) float64`` the per-deal AIVAT series (seed by seed, deal order), for paired comparisons.
    """

    value: float
    ci: float | None
    plain: float
    deals: int
    series: np.ndarray = field(repr=False)


def evaluate(
    configs: Sequence[TournamentConfig],
    executor: Executor | None = None,
    on_block: Callable[[int, float, float], bool] | None = None,
    in_flight: int = 4,
) -> Evaluation:
    """Play every block of every configuration (one per field and seed) and score them (:class:`Evaluation`).

    The blocks are played in turn across the configurations (the first block of each, then the second of each, ...):
    the running mean ``on_block`` sees mixes every field and seed from the first blocks on, as the final value does.

    Args:
        configs: tournaments with the AIVAT estimator (:func:`trial_config`), scored by their first comparison.
        executor: runs :func:`loki.tournament.play_block`; None plays in this process.
        on_block: called for each finished block, in the blocks' order (a block that finishes early waits for the
            ones before it), with the deals reported, the running AIVAT mean and its standard error (sb/hand; NaN
            before two deals); returning True stops: the pending blocks are cancelled and :class:`Pruned` is raised.
            The same blocks give the same calls whatever the executor.
        in_flight: blocks submitted ahead on an executor.

    Raises:
        Pruned: ``on_block`` asked to stop.
    """
    most = max((c.n_blocks for c in configs), default=0)
    jobs = [(i, b) for b in range(most) for i, c in enumerate(configs) if b < c.n_blocks]
    dicts = [c.to_dict() for c in configs]
    results: dict[tuple[int, int], dict] = {}
    done: list[np.ndarray] = []  # the reported blocks' per-deal AIVAT values, in the jobs' order
    reported = 0  # jobs[:reported] are in done

    def take(key: tuple[int, int], rec: dict) -> None:
        # blocks finish in any order on an executor; they are reported in the jobs' order, so that the running means
        # the pruner reads (and so what it stops) do not depend on which worker finished first
        nonlocal reported
        results[key] = rec
        if on_block is None:  # nothing reads the running means
            return
        while reported < len(jobs) and jobs[reported] in results:
            k = jobs[reported]
            r = results[k]
            done.append(comparison_series(configs[k[0]], r["chips"], r["aivat"]["chance"], r["aivat"]["action"])[0])
            reported += 1
            y = np.concatenate(done)
            se = float(np.std(y, ddof=1) / math.sqrt(y.size)) if y.size > 1 else math.nan
            if on_block(int(y.size), float(np.mean(y)), se):
                raise Pruned(f"stopped after {y.size} deals")

    if executor is None:
        for key in jobs:
            take(key, play_block(dicts[key[0]], key[1], False))
    else:
        todo = iter(jobs)
        pending: dict[Future, tuple[int, int]] = {}
        try:
            for key in todo:
                pending[executor.submit(play_block, dicts[key[0]], key[1], False)] = key
                if len(pending) >= in_flight:
                    break
            while pending:
                fin, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for f in fin:
                    take(pending.pop(f), f.result())
                for key in todo:
                    pending[executor.submit(play_block, dicts[key[0]], key[1], False)] = key
                    if len(pending) >= in_flight:
                        break
        finally:
            for f in pending:
                f.cancel()
    series, plain = [], []
    for i, c in enumerate(configs):
        recs = [results[(i, b)] for b in range(c.n_blocks)]
        chips = [row for r in recs for row in r["chips"]]
        chance = [row for r in recs for row in r["aivat"]["chance"]]
        action = [row for r in recs for row in r["aivat"]["action"]]
        series.append(comparison_series(c, chips, chance, action)[0])
        plain.append(comparison_series(c, chips)[0])
    y = np.concatenate(series)
    m, h = mean_ci(y)
    return Evaluation(float(m), None if math.isnan(h) else float(h), float(np.mean(np.concatenate(plain))), y.size, y)


# ------------------------------------------------------------------------------------------------ the study
#: Complete trials a study has before its pruner may stop a trial.
PRUNE_STARTUP_TRIALS = 8

#: The pruner's confidence: a trial stops when its running mean is this many standard errors below the median.
PRUNE_Z = 1.96


def confidently_worse(
    deals: int, mean: float, se: float, complete: Sequence[float], warmup_deals: int, maximize: bool = True
) -> bool:
    """The ``"median"`` pruner's rule: stop a trial once its running AIVAT mean is worse than the median of the complete
    trials' values with 95 % confidence (``mean + 1.96·se`` below the median when maximizing), after ``warmup_deals``
    of its deals and :data:`PRUNE_STARTUP_TRIALS` complete trials.

    Optuna's ``MedianPruner`` compares a trial's *best* intermediate value so far with the median at the current
    step; a running mean over a few noisy blocks reaches a high value early, so that rule stopped none of the 30
    trials of the fig3-BRS study (experiments/tuned-sets/tune/fig3-BRS).  This rule reads the current mean and its
    standard error, so noise keeps a trial alive and a clearly worse one stops.

    Args:
        deals: the deals played so far; mean, se: their AIVAT mean and standard error (sb/hand).
        complete: the objective values of the study's complete trials.
        warmup_deals: deals before the rule may stop a trial; maximize: the study's direction.

    >>> confidently_worse(300, 0.00, 0.02, [0.08] * 8, 240)  # 0.00 + 0.04 < 0.08
    True
    >>> confidently_worse(300, 0.05, 0.02, [0.08] * 8, 240)  # within noise of the median
    False
    >>> confidently_worse(200, 0.00, 0.02, [0.08] * 8, 240), confidently_worse(300, 0.00, 0.02, [0.08] * 7, 240)
    (False, False)
    """
    if deals < warmup_deals or len(complete) < PRUNE_STARTUP_TRIALS:
        return False
    if not math.isfinite(mean):
        return True
    if not math.isfinite(se):
        return False
    median = float(np.median(np.asarray(complete, dtype=np.float64)))
    return mean + PRUNE_Z * se < median if maximize else mean - PRUNE_Z * se > median


def _sampler(spec: StudySpec, offset: int = 0):
    """The study's sampler, seeded with ``sampler_seed + offset`` (modulo 2**32, the samplers' seed range): a resumed
    study passes the number of trials it already has, so that its sampler draws new points instead of repeating the
    first run's (a sampler's random start-up trials would otherwise come again, parameter for parameter)."""
    import optuna

    seed = (spec.sampler_seed + offset) % (MAX_SAMPLER_SEED + 1)
    if spec.sampler == "cmaes":
        try:
            import cmaes  # noqa: F401
        except ImportError:
            raise ConfigError("--sampler cmaes needs the cmaes package (pip install cmaes)") from None
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    if spec.sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    return optuna.samplers.TPESampler(seed=seed)


def _warmup_deals(spec: StudySpec, fields: int) -> int:
    """The deals of a trial before the pruner may stop it: ``warmup`` of a trial's deals, ``deals`` for each of its
    seeds (:meth:`StudySpec.trial_seeds`) and each of the ``fields`` of its panel."""
    return int(spec.warmup * spec.deals * len(spec.trial_seeds(0)) * fields)


def open_study(out: str | Path, spec: StudySpec | None):
    """Create or load the study kept in ``<out>/study.db``.

    Args:
        out: the study's folder (created).
        spec: the study to run; None to load an existing study as it is (its spec from the storage).

    Returns:
        ``(study, storage, spec)``.

    Raises:
        ConfigError: the folder cannot be created, holds a study with another spec (the message names the first
            difference), or no study when ``spec`` is None.
        OutputPathError: its ``study.db`` cannot be opened and written as a study (not an SQLite file, a directory,
            unreadable, read-only, or an Optuna storage of an incompatible version); the message names the file.
    """
    import optuna
    from sqlalchemy.exc import SQLAlchemyError

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out = make_folder(out, "--out")  # a real folder, never a symbolic link
    db = out / "study.db"
    if spec is None and not db.exists():
        raise ConfigError(f"--out {str(out)!r}: no study there (no study.db)")
    kind = not_a_file(db)
    if kind not in (None, "a folder"):  # a FIFO would hang SQLite, a link be written through (a folder: below)
        raise OutputPathError(
            f"--out {str(out)!r}: {db} is {kind}, not a study file; use another --out or move it away"
        )

    def unusable(e: BaseException) -> OutputPathError:
        reason = " ".join(str(getattr(e, "orig", None) or e).split()) or type(e).__name__
        if db.is_dir():
            reason += ": it is a directory"
        return OutputPathError(
            f"--out {str(out)!r}: {db} is not a study loki can open and write ({reason}); use another --out or move "
            "it away"
        )

    try:
        storage = optuna.storages.RDBStorage(f"sqlite:///{db}", engine_kwargs={"connect_args": {"timeout": 60}})
    except (SQLAlchemyError, OSError, RuntimeError) as e:  # RuntimeError: Optuna's tables of another version
        raise unusable(e) from None
    try:
        return _open_study(storage, spec, out)
    except (SQLAlchemyError, OSError) as e:
        raise unusable(e) from None


def _open_study(storage, spec: StudySpec | None, out: Path):
    """:func:`open_study` on an opened storage."""
    import optuna

    kept = None
    existing = 0
    try:
        old_study = optuna.load_study(study_name=STUDY_NAME, storage=storage)
        kept = old_study.user_attrs.get("spec")
        existing = len(old_study.get_trials(deepcopy=False))
    except KeyError:
        pass
    kept_spec = None
    if kept is not None:
        try:
            kept_spec = StudySpec.from_json(kept)
        except (ValueError, TypeError, KeyError, AttributeError) as e:  # ConfigError is a ValueError
            raise ConfigError(
                f"--out {str(out)!r}: the study there has a spec loki cannot read ({' '.join(str(e).split())}); use "
                "another --out"
            ) from None
    if spec is None:
        if kept_spec is None:
            raise ConfigError(f"--out {str(out)!r}: the study there has no spec (not written by loki tune)")
        spec = kept_spec
    elif kept_spec is not None and kept_spec != spec:
        old = asdict(kept_spec)
        diff = next(k for k, v in asdict(spec).items() if v != old.get(k))
        raise ConfigError(
            f"--out {str(out)!r} holds a study with another {diff} ({old.get(diff)!r}); use the same options or "
            "another --out"
        )
    study = optuna.create_study(
        study_name=STUDY_NAME,
        storage=storage,
        direction="maximize",
        sampler=_sampler(spec, existing),
        pruner=optuna.pruners.NopPruner(),  # the study's own rule decides in the objective (confidently_worse)
        load_if_exists=True,
    )
    if kept is None:
        study.set_user_attr("spec", spec.to_json())
    return study, storage, spec


def start_values(space: Sequence[TunableParam]) -> dict[str, Any]:
    """The target's own values of the tuned fields that have one, for ``--start-at-values``.

    Raises:
        ConfigError: a value outside its field's search range (Optuna would play it anyway, outside the space it
            searches; the message says how to give the field a range that holds it).
    """
    outside = [p for p in space if p.value is not None and not p.low <= p.value <= p.high]
    if outside:
        p = outside[0]
        raise ConfigError(
            f"--start-at-values: {p.path}'s value {p.value!r} lies outside its search range [{p.low:g}, {p.high:g}]; "
            f"give it a range that holds it (--param {p.path}=LOW:HIGH)"
        )
    return {p.path: p.value for p in space if p.value is not None}


def queue_start(study, values: dict[str, Any]) -> bool:
    """Queue the first trial at ``values``, the target's own values of the tuned fields (:func:`start_values`; those
    without a value are sampled); False, and nothing queued, when the study already has trials (a resumed study, or
    another process was first)."""
    if study.get_trials(deepcopy=False):
        return False
    study.enqueue_trial(values, user_attrs={"start": True})
    return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def recover_stale(study, storage, grace: float = GRACE, max_retry: int = 3) -> list[int]:
    """Mark the running trials of dead processes failed and queue every failed trial's parameters again (once each,
    up to ``max_retry`` times along a chain of retries); returns the numbers of the trials queued again.

    A running trial is dead when it was started on this host by a process that no longer exists (user attribute
    ``owner``: ``[host, pid]``, written at the objective's first line), or when it showed no sign of life (its start,
    then each finished block) for ``grace`` seconds: a process killed after Optuna created the trial and before the
    objective's first line left it without an owner, and only its age tells.  Trials
    whose values the configuration refused (user attribute ``invalid``) are not retried.
    """
    from optuna.exceptions import UpdateFinishedTrialError
    from optuna.trial import TrialState

    host = socket.gethostname()
    now = time.time()
    study_id = storage.get_study_id_from_name(study.study_name)
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        a = t.user_attrs
        owner = a.get("owner") or ([a["host"], a["pid"]] if "host" in a and "pid" in a else None)  # or as before
        same_host_dead = owner is not None and owner[0] == host and not _pid_alive(int(owner[1]))
        started = t.datetime_start.timestamp() if t.datetime_start is not None else now
        silent = now - float(a.get("alive", started)) > grace
        if same_host_dead or silent:
            try:
                storage.set_trial_state_values(
                    storage.get_trial_id_from_study_id_trial_number(study_id, t.number), TrialState.FAIL
                )
            except UpdateFinishedTrialError:
                continue  # another process finished or failed it meanwhile
    trials = study.get_trials(deepcopy=False)
    retried = {t.user_attrs.get("retry_of") for t in trials}
    queued = []
    for t in trials:
        if t.state != TrialState.FAIL or t.number in retried or "invalid" in t.user_attrs:
            continue
        depth = int(t.user_attrs.get("retry_depth", 0))
        if depth >= max_retry:
            continue
        study.enqueue_trial(t.params, user_attrs={"retry_of": t.number, "retry_depth": depth + 1})
        queued.append(t.number)
    return queued


def counted(study) -> int:
    """Trials that count towards the target: complete and pruned ones."""
    from optuna.trial import TrialState

    return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)))


def _suggest(trial, p: TunableParam) -> Any:
    if p.integer:
        return trial.suggest_int(p.path, int(p.low), int(p.high), log=p.log, step=int(p.step or 1))
    return trial.suggest_float(p.path, p.low, p.high, log=p.log, step=p.step)


def run_study(
    spec: StudySpec,
    out: str | Path,
    n_trials: int,
    executor: Executor | None = None,
    progress: Callable[[Any], None] | None = None,
) -> Any:
    """Run (or resume) the study in ``out`` until ``n_trials`` trials are complete or pruned; returns the study.

    Args:
        spec: the study.
        out: its folder (``study.db`` in it).
        n_trials: the target count of complete and pruned trials (a resumed study runs only what is missing).
        executor: plays the blocks (None: in this process).
        progress: called with the study after every trial.

    Raises:
        ConfigError: a bad spec, a target or label that does not exist, a label without tunable fields
            (:func:`tuning_space`), another study in ``out``.
        OutputPathError: ``out``'s ``study.db`` is not a study that can be opened (:func:`open_study`), or fails
            during the study (a database error: the message names the file; its trials are kept).
        TournamentConfigError: the target does not load.
        KeyboardInterrupt: Ctrl-C (or a stop signal raised as one) during a trial, once the trial is queued to be
            played again; Optuna logs nothing about it (no "Trial N failed" warning, no traceback).
    """
    import optuna
    from optuna.trial import TrialState

    cfgs = load_targets(spec.target)
    base = panel_player(cfgs, spec.label)
    space = tuning_space(base, spec.label, spec.params)
    start = start_values(space) if spec.start_at_values else None  # refused before a study folder is made
    study, storage, spec = open_study(out, spec)
    if start is not None:
        queue_start(study, start)
    warmup = _warmup_deals(spec, len(cfgs))

    def objective(trial) -> float:
        try:
            return play_trial(trial)
        except KeyboardInterrupt:
            # Ctrl-C, or SIGTERM/SIGHUP as loki.cli._common.Stopped: the caller reports the stop in one line, so
            # Optuna's log of the failed trial (a warning with the interrupt's traceback) is not printed before it
            optuna.logging.set_verbosity(optuna.logging.ERROR)
            raise

    def play_trial(trial) -> float:
        # who runs it, in one write: a process killed between two writes would leave a trial that only its age could
        # tell dead (CI met a kill between "host" and "pid" when they were two attributes)
        trial.set_user_attr("owner", [socket.gethostname(), os.getpid()])
        trial.set_user_attr("alive", time.time())
        values = {p.path: _suggest(trial, p) for p in space}
        try:
            player = apply_values(base, values)
        except (LokiError, ValueError) as e:
            trial.set_user_attr("invalid", str(e))
            raise optuna.TrialPruned(f"invalid values: {e}") from None
        configs = [
            trial_config(cfg, spec.label, player, s, spec.deals, spec.block_deals)
            for cfg in cfgs
            for s in spec.trial_seeds(trial.number)
        ]

        def on_block(deals: int, mean: float, se: float) -> bool:
            trial.report(mean, deals)
            trial.set_user_attr("alive", time.time())
            if spec.pruner == "none":
                return False
            complete = [t.value for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
            return confidently_worse(deals, mean, se, complete, warmup)

        try:
            ev = evaluate(configs, executor, on_block)
        except Pruned:
            raise optuna.TrialPruned() from None
        trial.set_user_attr("ci", ev.ci)
        trial.set_user_attr("plain", ev.plain)
        trial.set_user_attr("deals", ev.deals)
        return ev.value

    from optuna.exceptions import StorageInternalError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        while True:
            recover_stale(study, storage)
            if counted(study) >= n_trials:
                return study
            verbosity = optuna.logging.get_verbosity()
            try:
                study.optimize(objective, n_trials=1, catch=())
            except KeyboardInterrupt:
                recover_stale(study, storage)  # the interrupted trial is failed by Optuna: queue it again now
                raise
            finally:
                optuna.logging.set_verbosity(verbosity)
            if progress is not None:
                progress(study)
    except (
        SQLAlchemyError,
        StorageInternalError,
    ) as e:  # the study file failed under us (a lock held too long, a full disk)
        reason = " ".join(str(getattr(e, "orig", None) or e).split())[:300]
        raise OutputPathError(
            f"--out {str(out)!r}: {Path(out) / 'study.db'} failed during the study ({reason}); the trials it holds are "
            "kept: run the same command to continue"
        ) from None


# ------------------------------------------------------------------------------------------------ outputs
def _commit() -> str:
    import subprocess

    try:
        r = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            cwd=Path(__file__).resolve().parent,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return r.stdout.strip() or "unknown"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise ConfigError(f"cannot write {v!r} to TOML")


def _toml_table(name: str, d: dict[str, Any]) -> list[str]:
    lines = [f"[{name}]"]
    nested = []
    for k, v in d.items():
        if v is None:
            continue
        if isinstance(v, dict):
            nested.append((f"{name}.{k}", v))
        else:
            lines.append(f"{k} = {_toml_value(v)}")
    for n, sub in nested:
        lines += ["", *_toml_table(n, sub)]
    return lines


def player_toml(player: Any, provenance: dict[str, Any]) -> str:
    """A player file: ``[provenance]`` and the configuration as ``[player]`` (what ``--player FILE.toml`` reads, the
    same configuration: :func:`loki.players.registry.config_table`)."""
    from loki.players.registry import config_table

    data = {"kind": player.kind, **config_table(player)}
    return (
        "\n".join(
            [
                "# written by loki tune: the best trial of a study (see [provenance])",
                *_toml_table("provenance", provenance),
            ]
            + [""]
            + _toml_table("player", data)
        )
        + "\n"
    )


#: Complete trials before ``importances.png`` is drawn (with two or more tuned fields; fewer say nothing).
IMPORTANCE_TRIALS = 4


def _plots(study, out: Path) -> list[str]:
    from optuna.trial import TrialState

    with figures() as plt:
        files = []
        done = [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
        if done:
            fig, ax = plt.subplots(figsize=(7, 4))
            xs = [t.number for t in done]
            ys = [t.value for t in done]
            es = [t.user_attrs.get("ci") or 0.0 for t in done]
            ax.errorbar(xs, ys, yerr=es, fmt="o", ms=3, lw=0.8, label="trial (AIVAT, 95 % interval)")
            best = np.maximum.accumulate(ys)
            ax.step(xs, best, where="post", label="best so far")
            ax.axhline(0.0, color="grey", lw=0.5)
            ax.set_xlabel("trial")
            ax.set_ylabel("enhanced minus control (sb/hand)")
            ax.legend(fontsize=8)
            save_figure(fig, out / "history.png")
            files.append("history.png")
        if len(done) >= IMPORTANCE_TRIALS and len(study.best_trial.params) > 1:
            import optuna

            try:
                imp = optuna.importance.get_param_importances(
                    study, evaluator=optuna.importance.PedAnovaImportanceEvaluator()
                )
            except (ValueError, RuntimeError):
                imp = {}
            if imp:
                fig, ax = plt.subplots(figsize=(6, 0.4 * len(imp) + 1))
                names = list(imp)[::-1]
                ax.barh(names, [imp[n] for n in names])
                ax.set_xlabel("importance (PED-ANOVA)")
                save_figure(fig, out / "importances.png")
                files.append("importances.png")
        return files


def validation_seeds(spec: StudySpec, k: int = 2) -> tuple[int, ...]:
    """``k`` seeds ≥ 1000 that the search never played: above every seed of the panel (and of fresh trials,
    :data:`FRESH_SEED_ROOM`).  They may pass 2**64-1 (:func:`checked_validation_seeds` refuses them)."""
    top = max(spec.seeds) + (FRESH_SEED_ROOM if spec.fresh_seeds else 0)
    return tuple(range(top + 1, top + 1 + k))


def checked_validation_seeds(
    spec: StudySpec, seeds: Sequence[int] | None = None, numbers: Iterable[int] = (), default: bool = True
) -> tuple[int, ...]:
    """The seeds the best values of a study are validated on: ``seeds`` as given (``--validate-seeds``), else
    :func:`validation_seeds` (or none when not ``default``), checked; the same rules before the study starts
    (``loki tune`` checks its options before any trial) and after it (:func:`finish_study`).

    Args:
        spec: the study.
        seeds: the validation seeds given; None or empty for the default.
        numbers: the numbers of the trials the search played or will play (with ``fresh_seeds`` trial ``k`` plays
            ``seeds[0] + k``; before a study: ``range(trials)``).
        default: give the default seeds when ``seeds`` is empty (False: no validation, so none).

    Raises:
        ConfigError: a given seed below 1000, above 2**64-1 or played by the search (the message names
            ``--validate-seeds``); default seeds above 2**64-1 (it names ``--seeds``).

    >>> spec = StudySpec("t", "B", (), seeds=(1000, 1001))
    >>> checked_validation_seeds(spec), checked_validation_seeds(spec, (5000,))
    ((1002, 1003), (5000,))
    >>> checked_validation_seeds(spec, (1001,))
    Traceback (most recent call last):
    ...
    loki.errors.ConfigError: --validate-seeds [1001]: seed 1001 is a tuning seed (--seeds [1000, 1001]); expected seeds >= 1000 the search does not play
    """
    if not seeds:
        if not default:
            return ()
        out = validation_seeds(spec)
        if max(out) > MAX_SEED:
            raise ConfigError(
                f"--seeds {list(spec.seeds)}: the default validation seeds above them ({out[0]}, ...) pass {MAX_SEED} "
                "(2**64-1); give --validate-seeds or lower tuning seeds"
            )
        return out
    out = tuple(seeds)
    played = numbers if isinstance(numbers, range) else set(numbers)
    want = f"expected seeds >= {MIN_TUNING_SEED} the search does not play"
    for s in out:
        if s < MIN_TUNING_SEED:
            why = f"seed {s} is below {MIN_TUNING_SEED} (0 and 1 report)"
        elif s > MAX_SEED:
            why = f"seed {s} is above {MAX_SEED} (2**64-1, loki's cap)"
        elif s in spec.seeds and not spec.fresh_seeds:
            why = f"seed {s} is a tuning seed (--seeds {list(spec.seeds)})"
        elif spec.fresh_seeds and (s in spec.seeds or s - spec.seeds[0] in played):
            why = f"seed {s} is played by the search (--fresh-seeds: trial k plays seed {spec.seeds[0]}+k)"
        else:
            continue
        raise ConfigError(f"--validate-seeds {list(out)}: {why}; {want}")
    return out


def finish_study(
    study,
    spec: StudySpec,
    out: str | Path,
    executor: Executor | None = None,
    validate_deals: int = 1000,
    validate_seeds: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Write the study's outputs into ``out``: ``best.toml``, ``history.png`` (with ``importances.png`` when at least
    :data:`IMPORTANCE_TRIALS` trials are complete and two or more fields are tuned) and ``tune.json`` (the spec, trial
    counts, the best values with the search's estimate, and the validation of the best values and of the defaults on
    ``validate_seeds`` (default :func:`validation_seeds`) with their paired difference and its ``verdict``); returns
    the ``tune.json`` record.

    When the validation finds the best values worse than the defaults (the 95 % interval of tuned minus default below
    0), ``best.toml`` is not written (one an earlier run wrote is removed): ``record["verdict"]`` says so, and the
    values stay in ``tune.json``.

    Args:
        progress: called as ``progress(deals_done, deals_total)`` during the validation (first with 0 done), the
            best values' and the defaults' deals together.

    Raises:
        ConfigError: no complete trial yet; validation seeds refused by :func:`checked_validation_seeds`.
    """
    from optuna.trial import TrialState

    out = Path(out)
    complete = [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
    if not complete:
        raise ConfigError("the study has no complete trial yet")
    best = study.best_trial
    cfgs = load_targets(spec.target)
    base = panel_player(cfgs, spec.label)
    tuned = apply_values(base, best.params)
    numbers = [t.number for t in study.get_trials(deepcopy=False)]
    vseeds = checked_validation_seeds(spec, validate_seeds, numbers, default=validate_deals > 0)
    record: dict[str, Any] = {
        "spec": asdict(spec),
        "trials": {s.name.lower(): len(study.get_trials(deepcopy=False, states=(s,))) for s in TrialState},
        "best": {
            "trial": best.number,
            "params": best.params,
            "search_value": best.value,
            "search_ci": best.user_attrs.get("ci"),
            "note": "the search's value of its best trial is optimistic (winner's curse); the validation is the estimate",
        },
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "commit": _commit(),
    }
    record["verdict"] = "not validated"
    if validate_deals > 0:
        runs = {}
        total = 2 * len(cfgs) * len(vseeds) * validate_deals
        done = 0
        if progress is not None:
            progress(0, total)
        for name, player in (("tuned", tuned), ("default", base)):
            cs = [
                trial_config(cfg, spec.label, player, s, validate_deals, spec.block_deals)
                for cfg in cfgs
                for s in vseeds
            ]

            def step(n: int, mean: float, se: float, done: int = done) -> bool:
                if progress is not None:
                    progress(done + n, total)
                return False

            runs[name] = evaluate(cs, executor, on_block=step if progress is not None else None)
            done += runs[name].deals
        d = runs["tuned"].series - runs["default"].series
        m, h = mean_ci(d)
        record["validation"] = {
            "seeds": list(vseeds),
            "deals_per_seed": validate_deals,
            **{k: {"value": v.value, "ci": v.ci, "plain": v.plain, "deals": v.deals} for k, v in runs.items()},
            "tuned_minus_default": {"value": float(m), "ci": None if math.isnan(h) else float(h)},
        }
        record["verdict"] = (
            "no better than the defaults (the interval holds 0)"
            if math.isnan(h) or m - h <= 0 <= m + h
            else "better than the defaults"
            if m - h > 0
            else "worse than the defaults"
        )
    provenance = {
        "study": str(Path(out).resolve()),  # the study's folder, absolute: "--out ." would say nothing
        "target": spec.target,
        "label": spec.label,
        "sampler": spec.sampler,
        "seeds": list(spec.seeds),
        "fresh_seeds": spec.fresh_seeds,
        "deals": spec.deals,
        "objective": "AIVAT enhanced minus control, sb/hand",
        "search_value": best.value,
        "search_ci": best.user_attrs.get("ci"),
        "params": list(spec.params),
        "trials": record["trials"].get("complete", 0),
        "date": record["date"],
        "commit": record["commit"],
    }
    if "validation" in record:
        v = record["validation"]
        provenance.update(
            validation_seeds=list(vseeds),
            validation_value=v["tuned"]["value"],
            validation_ci=v["tuned"]["ci"],
            validation_default=v["default"]["value"],
        )
    provenance["verdict"] = record["verdict"]
    if record["verdict"] == "worse than the defaults":  # a best.toml that plays worse than the defaults: none
        (out / "best.toml").unlink(missing_ok=True)
        record["files"] = [*_plots(study, out), "tune.json"]
    else:
        atomic_write_text(out / "best.toml", player_toml(tuned, provenance))
        record["files"] = ["best.toml", *_plots(study, out), "tune.json"]
    atomic_write_text(out / "tune.json", json.dumps(record, indent=1, allow_nan=False) + "\n")
    return record
