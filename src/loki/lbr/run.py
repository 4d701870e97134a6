"""A local-best-response measurement as a duplicate match: ``loki lbr``.

The measured player σ, frozen (:mod:`loki.players.frozen`), plays the local best response (:mod:`loki.lbr.player`)
heads-up in a duplicate match: every deal twice, the two seats swapped, with the AIVAT estimator (chance
corrections at every card; action corrections at σ's randomised decisions: LBR's own are pure).  The match is a
tournament (:func:`loki.tournament.run_tournament`): blocks of deals on local worker processes or a Dask cluster
(the many holdings the oracle asks at every decision are the work, spread by blocks), a journal that makes an
interrupted measurement resume where it stopped, the same result for the same seed whatever the workers.

The value reported is LBR's winnings in sb/hand (a small bet is the pre-flop and flop bet; heads-up the blinds are
half and one small bet) with its 95 % interval, the deal being the unit of sampling: a lower bound on σ's
exploitability, up to that interval.  ``lbr.json`` in the results folder keeps it with the method (the variant, the
warm-up, how σ's probabilities were read) and the CPU it took.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from loki.errors import ConfigError
from loki.lbr.player import LBRConfig
from loki.players.frozen import FrozenConfig
from loki.players.registry import parse_player, spec_of
from loki.tournament.config import TournamentConfig, config_from_dict

__all__ = ["LBR_LABEL", "lbr_tournament", "run_lbr", "lbr_report"]

#: The label of the local best response in the match's summary.
LBR_LABEL = "LBR"


def frozen_config(player: Any, warmup: int = 0, warmup_opponent: str = "equity", warmup_seed: int = 0) -> FrozenConfig:
    """The measured player as a :class:`FrozenConfig` (a spec of a frozen player is taken as it is).

    Raises:
        ConfigError: a bad spec, or a frozen player's spec together with warm-up options.
    """
    cfg = parse_player(player)
    if isinstance(cfg, FrozenConfig):
        if warmup or warmup_seed:
            raise ConfigError(f"{spec_of(cfg)} is frozen already: give its warm-up in its own table")
        return cfg
    return FrozenConfig(player=spec_of(cfg), warmup=warmup, warmup_opponent=warmup_opponent, warmup_seed=warmup_seed)


def lbr_tournament(
    sigma: FrozenConfig,
    deals: int,
    seed: int,
    *,
    label: str | None = None,
    block_deals: int = 10,
    preflop: str = "lbr",
    called_range: bool = True,
    holdings: int = 0,
    fold_samples: int = 0,
) -> TournamentConfig:
    """The duplicate match of the local best response against ``sigma`` as a tournament (AIVAT, no hand histories);
    its comparison is LBR minus σ.

    Raises:
        TournamentConfigError, ConfigError: bad values.
    """
    lbr = LBRConfig(
        opponent=spec_of(sigma), preflop=preflop, called_range=called_range, holdings=holdings,  # type: ignore[arg-type]
        fold_samples=fold_samples,
    )  # fmt: skip
    name = label or sigma.player
    if name == LBR_LABEL:
        name = f"{name} (measured)"
    return config_from_dict(
        {
            "name": "lbr",
            "deals": deals,
            "seed": seed,
            "block_deals": min(block_deals, deals),
            "histories": False,
            "estimator": "aivat",
            "players": [
                {"config": lbr.model_dump(mode="json"), "label": LBR_LABEL},
                {"config": sigma.model_dump(mode="json"), "label": name},
            ],
            "compare": [{"name": f"{LBR_LABEL} minus {name}", "enhanced": [LBR_LABEL], "control": [name]}],
        },
        "lbr",
    )


def lbr_report(summary: dict, run_info: dict, config: TournamentConfig) -> dict:
    """``lbr.json``: LBR's winnings (AIVAT and plain, sb/hand, 95 % half-widths), the match's size and CPU, and the
    method, from a finished match's ``summary.json`` and ``run.json`` records."""
    types = {t["type"]: t for t in summary["aivat"]["types"]}
    plain = {t["type"]: t for t in summary["types"]}
    seats = config.seats
    lbr_cfg = seats[0].config or {}
    sigma_cfg = seats[1].config or {}
    return {
        "player": sigma_cfg.get("player"),
        "label": seats[1].label,
        "lbr_sb_per_hand": types[LBR_LABEL]["sb_per_hand"],
        "ci": types[LBR_LABEL]["ci"],
        "plain_sb_per_hand": plain[LBR_LABEL]["sb_per_hand"],
        "plain_ci": plain[LBR_LABEL]["ci"],
        "deals": config.deals,
        "hands": config.hands,
        "seed": config.seed,
        "warmup": sigma_cfg.get("warmup", 0),
        "warmup_opponent": sigma_cfg.get("warmup_opponent"),
        "variant": {k: lbr_cfg.get(k) for k in ("preflop", "called_range", "holdings", "fold_samples")},
        "block_cpu_seconds": run_info.get("block_cpu_seconds"),
        "seconds": run_info.get("seconds"),
    }


def run_lbr(
    config: TournamentConfig,
    out: str | Path,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
    prepare: Callable[[], None] | None = None,
) -> dict:
    """Play (or finish) the match of :func:`lbr_tournament` into ``out`` and write its results and ``lbr.json``;
    returns the ``lbr.json`` record.

    Raises:
        as :func:`loki.tournament.run_tournament` (ResumeError, JournalError, TournamentConfigError).
    """
    from loki.io.files import atomic_write_text
    from loki.tournament.results import strict_json, write_results
    from loki.tournament.runner import run_tournament

    run = run_tournament(
        config, workers=workers, executor=executor, out=out, resume=resume, overwrite=overwrite, progress=progress,
        prepare=prepare,
    )  # fmt: skip
    rec = write_results(run, out, plots=False)
    info = json.loads((Path(out) / "run.json").read_text())
    report = lbr_report(rec.to_dict(), info, config)
    atomic_write_text(Path(out) / "lbr.json", strict_json(report, "lbr.json"))
    return report
