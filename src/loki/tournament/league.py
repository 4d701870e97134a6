"""A heads-up league: every pair of players plays a duplicate match, reported as a cross table.

Each pair plays ``deals`` deals, every deal in both seats (the duplicate schedule of 2 players), with the AIVAT
estimator; cell ``(i, j)`` of the cross table is player ``i``'s winnings against player ``j`` in sb/hand with its
95 % interval (the deal is the unit of sampling), the way the ACPC reported its heads-up results.  The row mean is a
player's average over its opponents (each opponent weighing the same).  Every pair is a tournament of its own in
``<out>/pairs/<i>-<j>/`` (its ``summary.json``, ``run.json`` and journal: an interrupted league resumes pair by
pair), and the league is written as ``league.json`` and ``cross.png``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loki.errors import ConfigError
from loki.tournament.config import TournamentConfig, config_from_dict

__all__ = ["LeagueResult", "MAX_LEAGUE_PLAYERS", "check_league_players", "pair_config", "run_league", "write_league"]

#: Players in one league at most.  A league of ``n`` players plays ``n (n - 1) / 2`` pairs, each a duplicate match in
#: a folder of its own: 64 players are 2,016 pairs, where 3,000 would be 4.5 million.
MAX_LEAGUE_PLAYERS = 64


def check_league_players(n: int) -> None:
    """Refuse a league of ``n`` players: it needs at least two, at most :data:`MAX_LEAGUE_PLAYERS`.

    Raises:
        ConfigError: ``n`` out of that range (the message names the number of pairs it would play).
    """
    if n < 2:
        raise ConfigError(f"{n} player{'' if n == 1 else 's'}: a league needs at least two")
    if n > MAX_LEAGUE_PLAYERS:
        raise ConfigError(
            f"{n:,} players ({n * (n - 1) // 2:,} pairs): a league has at most {MAX_LEAGUE_PLAYERS} players "
            f"({MAX_LEAGUE_PLAYERS * (MAX_LEAGUE_PLAYERS - 1) // 2:,} pairs)"
        )


def pair_config(
    a: Any, b: Any, labels: tuple[str, str], deals: int, seed: int, block_deals: int = 25
) -> TournamentConfig:
    """The heads-up duplicate match of ``a`` against ``b`` (specs or configuration tables) as a tournament with the
    AIVAT estimator and no hand histories; its comparison is ``labels[0]`` minus ``labels[1]``."""

    def entry(p: Any, label: str) -> dict:
        return {"config": dict(p), "label": label} if isinstance(p, dict) else {"type": str(p), "label": label}

    return config_from_dict(
        {
            # a tournament's name names a folder: a label's '/' (a player file's path) becomes '-' (the pair's folder
            # is pairs/<i>-<j> anyway)
            "name": " vs ".join(lab.replace("/", "-").replace("\\", "-") for lab in labels),
            "deals": deals,
            "seed": seed,
            "block_deals": min(block_deals, deals),
            "histories": False,
            "estimator": "aivat",
            "players": [entry(a, labels[0]), entry(b, labels[1])],
            "compare": [{"name": f"{labels[0]} minus {labels[1]}", "enhanced": [labels[0]], "control": [labels[1]]}],
        },
        f"league pair {labels[0]} vs {labels[1]}",
    )


@dataclass
class LeagueResult:
    """A finished league.

    Attributes:
        labels: the players' names, in order.
        value, ci: ``value[i][j]`` player ``i``'s AIVAT sb/hand against ``j`` and the half-width of its 95 % interval
            (None on the diagonal); ``plain`` the plain estimate.
        deals, seed, block_deals: per pair.
        pairs: ``{"i-j": folder}``.
    """

    labels: list[str]
    value: list[list[float | None]]
    ci: list[list[float | None]]
    plain: list[list[float | None]]
    deals: int
    seed: int
    pairs: dict[str, str]
    block_deals: int = 25
    reused: int = 0  # pairs found finished in the folder and reported from their journals (nothing played)

    def row_mean(self, i: int) -> float:
        """Player ``i``'s mean winnings over its opponents (sb/hand)."""
        xs = [v for j, v in enumerate(self.value[i]) if j != i and v is not None]
        return sum(xs) / len(xs) if xs else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "labels": self.labels,
            "deals": self.deals,
            "seed": self.seed,
            "block_deals": self.block_deals,
            "value": self.value,
            "ci": self.ci,
            "plain": self.plain,
            "row_mean": [self.row_mean(i) for i in range(len(self.labels))],
            "pairs": self.pairs,
        }


def run_league(
    players: Sequence[Any],
    labels: Sequence[str],
    deals: int,
    seed: int,
    out: str | Path,
    *,
    workers: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    block_deals: int = 25,
    overwrite: bool = False,
) -> LeagueResult:
    """Play every pair (resuming pairs already in ``out``) and collect the cross table.

    Args:
        players: specs or configuration tables; labels: their distinct names.
        deals, seed: of every pair's match.
        block_deals: deals per block of a pair's match.  Every block is played by freshly built players
            (:func:`loki.tournament.play_block`), so an opponent model learns within a block only: a player that
            adapts to its opponent needs long blocks (e.g. half the match) to show what it learns, at the price of
            fewer blocks to spread over the workers.
        out: the league's folder.
        workers, executor: as :func:`loki.tournament.run_tournament`.
        progress: called as ``progress(pairs_done, pairs, name)`` before each pair.
        overwrite: play every pair again, discarding the pairs an earlier league left in ``out``.

    Raises:
        ConfigError: fewer than two players or more than :data:`MAX_LEAGUE_PLAYERS`, labels not distinct or not one
            per player.
    """
    from loki.tournament.results import write_results
    from loki.tournament.runner import run_tournament

    n = len(players)
    check_league_players(n)
    if len(labels) != n or len(set(labels)) != n:
        raise ConfigError(f"a league needs one distinct label per player, got {list(labels)}")
    out = Path(out)
    value: list[list[float | None]] = [[None] * n for _ in range(n)]
    ci: list[list[float | None]] = [[None] * n for _ in range(n)]
    plain: list[list[float | None]] = [[None] * n for _ in range(n)]
    pairs = {}
    reused = 0
    todo = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for k, (i, j) in enumerate(todo):
        cfg = pair_config(players[i], players[j], (labels[i], labels[j]), deals, seed, block_deals)
        folder = out / "pairs" / f"{i + 1}-{j + 1}"
        if progress is not None:
            progress(k, len(todo), cfg.name)
        # always through the pair's journal (checked, keyed): a finished pair is read back, not played again, and its
        # summary.json rewritten from it, so a damaged or edited summary never reaches the cross table
        run = run_tournament(cfg, workers=workers, executor=executor, out=folder, resume=True, overwrite=overwrite)
        reused += run.played_blocks == 0
        s = write_results(run, folder, plots=False).to_dict()
        types = {t["type"]: t for t in s["aivat"]["types"]}
        ptypes = {t["type"]: t for t in s["types"]}
        for a, b in ((i, j), (j, i)):
            value[a][b] = types[labels[a]]["sb_per_hand"]
            ci[a][b] = types[labels[a]]["ci"]
            plain[a][b] = ptypes[labels[a]]["sb_per_hand"]
        pairs[f"{i + 1}-{j + 1}"] = str(folder)
    return LeagueResult(list(labels), value, ci, plain, deals, seed, pairs, min(block_deals, deals), reused)


def write_league(result: LeagueResult, out: str | Path, plots: bool = True) -> None:
    """``league.json`` and (with ``plots``) ``cross.png``: the cross table as a heat map, each cell annotated."""
    from loki.io.files import atomic_write_text

    out = Path(out)
    atomic_write_text(out / "league.json", json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n")
    if not plots:
        return
    import numpy as np

    from loki.io.plots import figures, save_figure

    with figures() as plt:
        n = len(result.labels)
        m = np.array([[np.nan if v is None else v for v in row] for row in result.value])
        lim = float(np.nanmax(np.abs(m))) if np.isfinite(m).any() else 1.0
        fig, ax = plt.subplots(figsize=(1.1 * n + 3, 0.8 * n + 2))
        im = ax.imshow(m, cmap="RdYlGn", vmin=-lim, vmax=lim)
        for i in range(n):
            for j in range(n):
                if i != j and result.value[i][j] is not None:
                    c = result.ci[i][j]
                    ax.text(j, i, f"{m[i, j]:+.2f}\n±{c:.2f}" if c is not None else f"{m[i, j]:+.2f}", ha="center",
                            va="center", fontsize=7)  # fmt: skip
        ax.set_xticks(range(n), result.labels, rotation=45, ha="right", fontsize=8)
        ax.set_yticks(
            range(n), [f"{lab} ({result.row_mean(i):+.2f})" for i, lab in enumerate(result.labels)], fontsize=8
        )
        ax.set_title(f"heads-up league: row's sb/hand against column (AIVAT, 95 %), {result.deals} deals × 2 seats")
        fig.colorbar(im, ax=ax, label="sb/hand")
        save_figure(fig, out / "cross.png")
