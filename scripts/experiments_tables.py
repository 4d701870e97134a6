"""The generated parts of the lab's documents, from the committed results under experiments/.

Results are filed by question: ``experiments/<study>/`` holds a study's plan, configurations, runs
(``summary.json``, ``run.json``, per-deal ``deals-aivat.csv.gz``, ``league.json``, ``tune.json``), scripts and its
``study.toml``: the question, its status, its current answer (``[[answer]]`` rows: what ships and the runs that
measure it) and its table definitions (``[tables.NAME]``: a ``kind`` below and its arguments, paths relative to
``experiments/``).  This script

- fills every ``<!-- table: NAME -->`` ... ``<!-- end table -->`` block of README.md, BENCHMARKS.md, docs/*.md and
  experiments/*/README.md with the table ``NAME`` of whichever study declares it (a name is declared once);
- fills every study README's ``<!-- current answer -->`` ... ``<!-- end current answer -->`` block from its
  ``study.toml`` (status, then one row per ``[[answer]]``, figures from the committed runs);
- writes docs/RESULTS.md: one row per question, the headline (first) answer of each study.

    python scripts/experiments_tables.py            # rewrite the blocks and docs/RESULTS.md
    python scripts/experiments_tables.py --check    # exit 1 when anything differs (tests/test_experiments_tables.py)
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
EXPERIMENTS = ROOT / "experiments"
RESULTS = ROOT / "docs" / "RESULTS.md"
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402
from paired_table import own_series  # noqa: E402
from paired_table import series as run_series  # noqa: E402
from paired_table import table as paired_table  # noqa: E402

from loki.stats import mean_ci  # noqa: E402


def _fmt(v: float | None, c: float | None) -> str:
    if v is None:
        return ""
    return f"{v:+.3f} ± {c:.3f}" if c is not None else f"{v:+.3f}"


def tuning(folders: Sequence[Path]) -> str:
    """One row per tuning study (``<folder>/<study>/tune.json``, ``loki tune``'s record) of each of ``folders``, in
    that order: trials, best values, the search's (optimistic) value and the validation."""
    rows = [
        "| study | trials (complete / pruned / failed) | best values | search value (optimistic) | validation: tuned | "
        "validation: default | tuned minus default (paired) |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for t in [f for folder in folders for f in sorted(folder.glob("*/tune.json"))]:
        r = json.loads(t.read_text())
        tr = r["trials"]
        best = ", ".join(f"{k} {v:.3g}" for k, v in r["best"]["params"].items())
        v = r.get("validation", {})
        rows.append(
            f"| {t.parent.name} | {tr.get('complete', 0)} / {tr.get('pruned', 0)} / {tr.get('fail', 0)} | {best} | "
            f"{_fmt(r['best']['search_value'], r['best']['search_ci'])} | "
            f"{_fmt(v.get('tuned', {}).get('value'), v.get('tuned', {}).get('ci'))} | "
            f"{_fmt(v.get('default', {}).get('value'), v.get('default', {}).get('ci'))} | "
            f"{_fmt(v.get('tuned_minus_default', {}).get('value'), v.get('tuned_minus_default', {}).get('ci'))} |"
        )
    return "\n".join(rows)


def runs_table(
    folder: Path | Sequence[Path],
    references: dict[str, str],
    labels: dict[str, str] | None = None,
    reference_folder: Path | Sequence[Path] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """:func:`paired_table.table` of the runs in ``folder`` (one or several; only the runs ``names`` when given), or
    "(not run)" when there is none."""
    folders = [folder] if isinstance(folder, Path) else list(folder)
    if not any(f.is_dir() for f in folders):
        return "(not run)"
    return paired_table(folders, references, labels, reference_folder, names)


def _cross(labels: list[str], value: list[list[float]], ci: list[list[float]]) -> list[str]:
    rows = ["| player | " + " | ".join(labels) + " | mean |", "|---|" + "---:|" * (len(labels) + 1)]
    for i, lab in enumerate(labels):
        cells = ["" if i == j else _fmt(value[i][j], ci[i][j]) for j in range(len(labels))]
        mean = sum(value[i][j] for j in range(len(labels)) if j != i) / (len(labels) - 1)
        rows.append(f"| {lab} | " + " | ".join(cells) + f" | {mean:+.3f} |")
    return rows


def league(folder: Path, prefix: str, pooled_only: bool = False) -> str:
    """One cross table per committed league (``<folder>/<prefix>-<seed>/league.json``) and, when several seeds share
    the same players, the seeds pooled (each cell the mean of the seeds' values, its interval from theirs as
    independent estimates: sqrt(sum ci^2) / n)."""
    files = sorted(folder.glob(f"{prefix}-*/league.json"))
    if not files:
        return "(not run)"
    out: list[str] = []
    runs = [json.loads(f.read_text()) for f in files]
    for d in [] if pooled_only and len(runs) > 1 else runs:
        out += [f"Seed {d['seed']}, {d['deals']:,} deals × 2 seats per pair:", ""]
        out += _cross(d["labels"], d["value"], d["ci"]) + [""]
    if len(runs) > 1 and all(d["labels"] == runs[0]["labels"] for d in runs):
        n, k = len(runs), len(runs[0]["labels"])
        value = [[sum(d["value"][i][j] for d in runs) / n if i != j else 0.0 for j in range(k)] for i in range(k)]
        ci = [[sum(d["ci"][i][j] ** 2 for d in runs) ** 0.5 / n if i != j else 0.0 for j in range(k)] for i in range(k)]
        out += [f"Seeds {', '.join(str(d['seed']) for d in runs)} pooled:", ""] + _cross(runs[0]["labels"], value, ci)
    return "\n".join(out).rstrip()


def _pair_series(league_dir: Path, labels: list[str], player: str, opponent: str) -> np.ndarray:
    """``(deals,) float64``: ``player``'s AIVAT sb/hand per deal (both seats) in its league match against
    ``opponent`` (the pair's committed ``deals-aivat.csv.gz``; a pair's comparison is its first player minus its
    second, twice a player's own result in a zero-sum match)."""
    i, k = labels.index(player), labels.index(opponent)
    y = run_series(league_dir / "pairs" / f"{min(i, k) + 1}-{max(i, k) + 1}") / 2.0
    return y if i < k else -y


def _paired_block(
    lead: str, runs: Sequence[tuple[object, np.ndarray, np.ndarray]], own: Sequence[np.ndarray | None] | None = None
) -> list[str]:
    """Rows of a paired table: for each ``(seed, player, reference)`` (``(deals,) float64`` series paired by deal)
    the row's first cells ``lead`` (``<seed>`` and ``<deals>`` replaced) then the reference's, the player's, (with
    ``own``, one series or None per seed) the player's own and their paired difference (mean ± 95 %), and with several
    seeds a last row pooling them (seed ``pooled``, the difference in bold)."""

    def row(seed: str, t: np.ndarray, r: np.ndarray, o: np.ndarray | None, bold: bool) -> str:
        d = _fmt(*mean_ci(t - r))
        mine = [] if own is None else ["" if o is None else _fmt(*mean_ci(o))]
        cells = [_fmt(*mean_ci(r)), _fmt(*mean_ci(t)), *mine, f"**{d}**" if bold else d]
        return lead.replace("<seed>", seed).replace("<deals>", str(len(t))) + " | ".join(cells) + " |"

    mine = list(own) if own is not None else [None] * len(runs)
    rows = [row(str(seed), t, r, o, False) for (seed, t, r), o in zip(runs, mine, strict=True)]
    if len(runs) > 1:
        pooled_own = None if any(o is None for o in mine) else np.concatenate([o for o in mine if o is not None])
        t_all, r_all = np.concatenate([x[1] for x in runs]), np.concatenate([x[2] for x in runs])
        rows.append(row("pooled", t_all, r_all, pooled_own, True))
    return rows


HEADS_UP_HEADER = [
    "| player | against | seed | reference sb/hand | player sb/hand | player minus reference (paired) |",
    "|---|---|---|---:|---:|---:|",
]


def _heads_up_rows(
    folder: Path, player: tuple[str, str], reference: tuple[str, str], opponents: list[str], seeds: list[int]
) -> list[str]:
    """The rows of :func:`heads_up_across` (none when no seed has both leagues)."""
    rows = []
    for opp in opponents:
        runs = []
        for seed in seeds:
            a, b = folder / f"{player[0]}-{seed}", folder / f"{reference[0]}-{seed}"
            if not ((a / "league.json").exists() and (b / "league.json").exists()):
                continue
            la, lb = (json.loads((x / "league.json").read_text())["labels"] for x in (a, b))
            runs.append((seed, _pair_series(a, la, player[1], opp), _pair_series(b, lb, reference[1], opp)))
        rows += _paired_block(f"| {player[1]} (reference {reference[1]}) | {opp} | <seed> | ", runs)
    return rows


def heads_up_paired(folder: Path, leagues: list[tuple[str, str, str]], opponents: list[str]) -> str:
    """For each ``(prefix, player, reference)``: the two players' results in the committed leagues
    ``<folder>/<prefix>-<seed>`` against each opponent, per seed and pooled, and the player's minus the reference's
    paired by deal (both played the same deals against the same opponent; AIVAT, 95 % interval)."""
    rows = []
    for prefix, player, ref in leagues:
        seeds = sorted(json.loads(f.read_text())["seed"] for f in folder.glob(f"{prefix}-*/league.json"))
        rows += _heads_up_rows(folder, (prefix, player), (prefix, ref), opponents, seeds)
    return "\n".join(HEADS_UP_HEADER + rows) if rows else "(not run)"


def panel_mean(folder: Path, prefix: str, player: str, reference: str, opponents: list[str]) -> str:
    """A validation panel's score in the committed leagues ``<folder>/<prefix>-<seed>``: per deal the mean over
    ``opponents`` of ``player``'s minus ``reference``'s result (paired by deal, AIVAT), then its mean ± 95 % interval
    per seed and pooled (what a study's PLAN.md rule reads)."""
    rows = ["| seed | deals | panel mean, player minus reference (paired) |", "|---|---:|---:|"]
    series = []
    for f in sorted(folder.glob(f"{prefix}-*/league.json")):
        d = json.loads(f.read_text())
        x = np.mean(
            [
                _pair_series(f.parent, d["labels"], player, o) - _pair_series(f.parent, d["labels"], reference, o)
                for o in opponents
            ],
            axis=0,
        )
        series.append(x)
        rows.append(f"| {d['seed']} | {x.shape[0]:,} | {_fmt(*mean_ci(x))} |")
    if len(series) > 1:
        x = np.concatenate(series)
        rows.append(f"| pooled | {x.shape[0]:,} | **{_fmt(*mean_ci(x))}** |")
    return "\n".join(rows)


def passive_exploration(path: Path) -> str:
    """The passive verdict's exploration (``exploration/summary.json`` of hu-adaptive-A4): per opponent and seed, the
    hand (from 0) of the opponent's first fold, bet or raise, of the showdown verdict and of the passive verdict at
    each threshold."""
    rows = json.loads(path.read_text())
    ns = sorted({int(n) for r in rows for n in r["passive_verdict_hand"]})
    out = [
        "| opponent | seed | hands | first fold, bet or raise | showdown verdict | "
        + " | ".join(f"passive verdict, {n} answers" for n in ns)
        + " |",
        "|---|---:|---:|---:|---:|" + "---:|" * len(ns),
    ]

    def cell(x: object) -> str:
        return "never" if x is None else str(x)

    for r in rows:
        v = r["passive_verdict_hand"]
        out.append(
            f"| {r['opponent']} | {r['seed']} | {r['hands']} | {cell(r['first_move_hand'])} | "
            f"{cell(r['showdown_verdict_hand'])} | " + " | ".join(cell(v[str(n)]) for n in ns) + " |"
        )
    return "\n".join(out)


def learning_cost(
    folder: Path, prefix: str, player: str, reference: str, opponent: str, ref_prefix: str | None = None
) -> str:
    """Where ``player`` loses against ``reference`` when both meet ``opponent`` in the committed leagues
    ``<folder>/<prefix>-<seed>`` (the reference's in ``<folder>/<ref_prefix>-<seed>`` when given: a league of the
    same seed, labels and opponents): their per-deal AIVAT results against it, paired by deal, split by the deal's
    place in its block of ``block_deals`` (a new block starts with fresh players, who learn their opponent again),
    with the mean ± 95 % interval and the number of deals whose two results differ at all."""
    rows = [
        "| seed | deals of each block | deals | player minus reference (paired) | deals that differ |",
        "|---|---|---:|---:|---:|",
    ]
    for f in sorted(folder.glob(f"{prefix}-*/league.json")):
        d = json.loads(f.read_text())
        labels, block = d["labels"], int(d["block_deals"])
        rf = f.parent if ref_prefix is None else folder / f"{ref_prefix}-{d['seed']}"
        rd = d if ref_prefix is None else json.loads((rf / "league.json").read_text())
        if (rd["deals"], rd["block_deals"]) != (d["deals"], block):  # the same deals in the same blocks, or no pairing
            raise ValueError(f"{rf} is not {f.parent}'s schedule: deals and blocks differ")
        rl = rd["labels"]
        diff = _pair_series(f.parent, labels, player, opponent) - _pair_series(rf, rl, reference, opponent)
        place = np.arange(diff.shape[0]) % block
        for lo, hi in ((0, 25), (25, 100), (100, block)):
            x = diff[(place >= lo) & (place < hi)]
            rows.append(
                f"| {d['seed']} | {lo + 1}–{hi} | {x.shape[0]:,} | {_fmt(*mean_ci(x))} | {int(np.count_nonzero(x))} |"
            )
    return "\n".join(rows)


def _run_series(folder: Path) -> np.ndarray:
    """``(deals,) float64`` AIVAT sb/hand per deal of a committed run: a tournament's last comparison, or the first
    player's result in a one-pair league (``league.json`` with ``pairs/1-2``)."""
    if (folder / "league.json").exists():
        d = json.loads((folder / "league.json").read_text())
        return _pair_series(folder, d["labels"], d["labels"][0], d["labels"][1])
    return run_series(folder)


def paired_runs(rows: list[tuple[str, str, Path, str, Path]], seeds: list[int]) -> str:
    """For each ``(label, run, run_folder, reference, reference_folder)``: the committed runs ``<run>-<seed>`` and
    ``<reference>-<seed>`` of each seed (tournaments or one-pair leagues, :func:`_run_series`), their AIVAT results
    (a tournament's enhanced minus control, a league pair's first player's own) and the run's minus the reference's
    paired by deal, per seed and pooled (95 % intervals); for a tournament also the run's enhanced side's own sb/hand
    (AAAI-99's Figure 3 measure), labelled."""
    out = [
        "| run | reference | seed | deals | reference: enhanced minus control | run: enhanced minus control | run: "
        "enhanced's own sb/hand (the paper's Figure 3 measure) | run minus reference (paired, enhanced minus control) |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    found = False
    for label, run, run_folder, ref, ref_folder in rows:
        runs, mine = [], []
        for seed in seeds:
            a, b = run_folder / f"{run}-{seed}", ref_folder / f"{ref}-{seed}"
            if not (a.is_dir() and b.is_dir()):
                continue
            x, r = _run_series(a), _run_series(b)
            k = min(len(x), len(r))
            runs.append((seed, x[:k], r[:k]))
            mine.append(None if (a / "league.json").exists() else own_series(a)[:k])
        out += _paired_block(f"| {label} | {ref} | <seed> | <deals> | ", runs, mine)
        found = found or bool(runs)
    return "\n".join(out) if found else "(not run)"


def heads_up_across(
    folder: Path, player: tuple[str, str], reference: tuple[str, str], opponents: list[str], seeds: list[int]
) -> str:
    """As :func:`heads_up_paired` for a player and a reference that played in two leagues of the same seeds
    (``(prefix, label)`` each): a league's pairs all play the same deals, whatever the other players, so the two
    leagues' matches against one opponent are paired by deal (the bots' matches with each other in both leagues are
    the same games: tests/test_league.py)."""
    rows = _heads_up_rows(folder, player, reference, opponents, seeds)
    return "\n".join(HEADS_UP_HEADER + rows) if rows else "(not run)"


def aivat_floor(folder: Path) -> str:
    """What the cards decide of AIVAT's variance (``experiments/aivat-variance/scripts/aivat_floor.py --out``): per preset and kind of second
    play (another board for the same hole cards; another turn and river, or river, after the same flop, or turn;
    other players' seeds on the same cards), the variance ratio and the share of the plain variance that both plays
    share, estimated from the AIVAT and from the plain results, their paired difference, and the checks of the
    pre-flop actions and the flop corrections, each share with its block-bootstrap interval."""
    files = sorted(folder.glob("*.json"))
    if not files:
        return "(not run)"

    def cell(d: dict) -> str:
        return f"{d['value']:.3f} [{d['low']:.3f}, {d['high']:.3f}]"

    rows = [
        "| preset | seed | deals | second play | variance ratio AIVAT / plain | shared, from AIVAT (share of the plain "
        "variance) | shared, from plain | plain minus AIVAT (paired) | plays with other pre-flop actions / a flop "
        "correction not cancelling | CPU s |",
        "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    what = {
        "holes": "another board (same hole cards)",
        "flop": "another turn and river (same hole cards and flop)",
        "turn": "another river (same hole cards, flop and turn)",
        "players": "other players' seeds (same cards)",
    }
    order = list(what)
    recs = sorted(
        (json.loads(f.read_text()) for f in files),
        key=lambda r: (r["preset"], order.index(r["split"]), r.get("second_set", False), r["seed"]),
    )
    for r in recs:
        second = what[r["split"]] + (", by a second set of the players" if r.get("second_set") else "")
        for c in r["comparisons"].values():
            rows.append(
                f"| {r['preset']} | {r['seed']} | {r['deals']} | {second} | {cell(c['ratio'])} | "
                f"{cell(c['shared_aivat'])} | {cell(c['shared_plain'])} | {cell(c['shared_plain_minus_aivat'])} | "
                f"{r['preflop_differs_plays']} / {r['flop_correction_nonzero_plays']} of {2 * r['deals']} | "
                f"{r['cpu_seconds']:.0f} |"
            )
    return "\n".join(rows)


def aivat_crn(folder: Path) -> str:
    """The common-random-numbers exploration (``experiments/aivat-variance/scripts/aivat_crn.py``): per preset and seed, the comparison's
    result, plain and AIVAT per-deal sd and variance ratio with the players' coins drawn as usual and drawn in common."""
    runs = sorted(p for p in folder.glob("*-*-*") if (p / "summary.json").exists())
    if not runs:
        return "(not run)"
    rows = [
        "| preset | seed | deals | players' coins | AIVAT sb/hand | plain sd | AIVAT sd | variance ratio |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for p in runs:
        d = json.loads((p / "summary.json").read_text())
        c = d["aivat"]["comparisons"][-1]
        mode = "in common (CRN)" if p.name.endswith("-crn") else "as usual"
        rows.append(
            f"| {p.name.rsplit('-', 2)[0]} | {d['seed']} | {d['deals']} | {mode} | {_fmt(c['sb_per_hand'], c['ci'])} | "
            f"{c['plain_sd']:.3f} | {c['sd']:.3f} | {c['variance_ratio']:.3f} |"
        )
    return "\n".join(rows)


def _bar_row(label: str, run_dir: Path, floor_file: Path, share_file: Path, minutes: float, half: float) -> str:
    """One row of :func:`bar_arithmetic`."""
    summ = json.loads((run_dir / "summary.json").read_text())
    run = json.loads((run_dir / "run.json").read_text())
    comp = summ["aivat"]["comparisons"][0]
    floor = next(iter(json.loads(floor_file.read_text())["comparisons"].values()))["shared_aivat"]
    share = float(np.median([json.loads(line)["simulator_share"] for line in share_file.read_text().splitlines()]))
    per_deal = summ["hands"] / summ["deals"]
    speed = run["hands_played_now"] / run["block_cpu_seconds"]
    plain_var = comp["plain_sd"] ** 2
    ratio = comp["variance_ratio"]
    lo, mid, hi = floor["low"], floor["value"], floor["high"]

    def deals(r: float) -> float:
        return (1.96 / half) ** 2 * plain_var * r

    def wall(r: float, g: float) -> str:
        m, sec = divmod(int(round(deals(r) * per_deal / (2 * g))), 60)
        return f"{m} min {sec:02d} s"

    def need(r: float) -> float:
        return deals(r) * per_deal / (2 * 60 * minutes)

    def sim_factor(r: float) -> str:
        # the Simulator's CPU a game may take at the needed speed, against what it takes (the rest unchanged)
        budget = 1 / need(r) - (1 - share) / speed
        if budget <= 0:
            return "not even free"
        f = (share / speed) / budget
        return "none" if f <= 1 else f"{f:.1f}×"

    return (
        f"| {label} (seed {summ['seed']}, {summ['deals']:,} deals) | {ratio:.3f} / {mid:.3f} [{lo:.3f}, {hi:.3f}] "
        f"| {deals(ratio):,.0f} / {deals(mid):,.0f} | {speed:.1f} ({100 * share:.0f} %) "
        f"| {wall(ratio, speed)} / {wall(mid, speed)} | {wall(mid, speed / (1 - share))} "
        f"| {need(ratio):.0f} / {need(mid):.0f} [{need(lo):.0f}, {need(hi):.0f}] "
        f"| {sim_factor(ratio)} / {sim_factor(mid)} |"
    )


def bar_arithmetic(rows: list[tuple[str, Path, Path, Path]], minutes: float = 2.0, half: float = 0.01) -> str:
    """What a ±``half`` sb/hand bar of a preset takes on 2 cores, from committed runs only: the preset's bar
    run (``summary.json``: the comparison's AIVAT and plain per-deal sd; ``run.json``: games per CPU second of its
    blocks, AIVAT included), its floor (``experiments/aivat-variance/scripts/aivat_floor.py --split flop``: the share of the plain variance
    the hole cards and the flop decide, with its interval) and the Simulator's share of a block's CPU
    (``experiments/aivat-variance/scripts/sim_share.py`` rounds, median).  Deals for the bar at a variance ratio ``ρ``:
    ``(1.96 · plain_sd · √ρ / half)²``; wall time ``deals · games per deal / (2 · games per CPU second)`` (play only:
    a run adds a few seconds of start-up); the speed a ``minutes`` bar needs: ``deals · games per deal / (2 · 60 ·
    minutes)``; with a free Simulator the speed is ``games per CPU second / (1 − share)`` (the same games), and the
    Simulator's speed-up a bar needs keeps the rest of the block's CPU per game as it is (``sim_share.py``'s ceiling).
    The floor's share was measured on its own seed (2202, 2205) and is applied to the bar run's plain variance."""
    out = [
        "| preset (bar run) | variance ratio now / at the floor [interval] | deals for ±0.01 now / at the floor "
        "| games per CPU second (Simulator's share) | wall on 2 cores now / at the floor | wall at the floor with a "
        "free Simulator | games per CPU second a 2-minute bar needs, now / at the floor [interval] | how much faster "
        "the Simulator must be for it, now / at the floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    out += [_bar_row(*spec, minutes, half) for spec in rows]
    return "\n".join(out)


def run_speed(rows: list[list[Any]]) -> str:
    """The speed of committed tournament runs, from their ``run.json``: for each ``[label, run prefix, seeds]`` row
    and seed, the games played, the CPU seconds of the blocks (AIVAT included), games per CPU second (one process =
    one core) and the wall time of the run (workers in parallel, on a shared machine: not a speed figure)."""
    out = [
        "| preset (run) | seed | games | CPU s of the blocks | games per CPU second | AIVAT overhead (CPU) | wall s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, prefix, seeds in rows:
        for s in seeds:
            r = json.loads((prefix.parent / f"{prefix.name}-{s}" / "run.json").read_text())
            cpu = float(r["block_cpu_seconds"])
            out.append(
                f"| {label} (`{prefix.name}`) | {s} | {r['hands_played_now']:,} | {cpu:.0f} | "
                f"{r['hands_played_now'] / cpu:.0f} | {100 * float(r.get('aivat_cpu_overhead', 0)):.0f} % | "
                f"{r['seconds']:.0f} |"
            )
    return "\n".join(out)


def _seeded(prefix: Path, seeds: Sequence[int]) -> list[Path]:
    """The committed runs ``<prefix>-<seed>`` of ``seeds`` that exist."""
    return [p for p in (Path(f"{prefix}-{s}") for s in seeds) if (p / "summary.json").exists()]


def _heads_up(source: str, seeds: Sequence[int]) -> tuple[float, float, int] | None:
    """A player's heads-up winnings (sb/hand, 95 % half-width, deals) from ``source``: ``"match:<prefix>"`` (the
    committed pair tournaments ``<prefix>-<seed>``, the player first: its own series, seeds pooled by deal) or
    ``"league:<prefix>:<player label>:<opponent label>"`` (the pooled cell of the leagues ``<prefix>-<seed>``); None
    when ``source`` is empty or nothing is committed."""
    if not source:
        return None
    kind, _, rest = source.partition(":")
    if kind == "match":
        runs = _seeded(EXPERIMENTS / rest, seeds)
        if not runs:
            return None
        x = np.concatenate([own_series(r) for r in runs])
        return (*_pm(x), len(x))
    prefix, player, opponent = rest.split(":")
    ds = [
        json.loads(f.read_text()) for f in (EXPERIMENTS / f"{prefix}-{s}" / "league.json" for s in seeds) if f.exists()
    ]
    if not ds:
        return None
    i, j = ds[0]["labels"].index(player), ds[0]["labels"].index(opponent)
    v = sum(d["value"][i][j] for d in ds) / len(ds)
    h = sum(d["ci"][i][j] ** 2 for d in ds) ** 0.5 / len(ds)
    return v, h, sum(d["deals"] for d in ds)


def lbr_rows(rows: list[list[Any]], seeds: Sequence[int] = (0, 1)) -> list[dict[str, Any]]:
    """The figures of :func:`lbr_table` (also read by experiments/exploitability/scripts/plot_tradeoff.py): per row
    ``label``, ``spec``, ``lbr`` (sb/hand, ci, deals) or None, ``method`` (``lbr.json``'s variant and warm-up),
    ``seeds`` measured, ``loki1`` and ``equity`` (:func:`_heads_up`)."""
    out = []
    for label, spec, prefix, vs_loki1, vs_equity in rows:
        runs = _seeded(prefix, seeds)
        lbr = None
        method = ""
        if runs:
            x = np.concatenate([own_series(r) for r in runs])
            lbr = (*_pm(x), len(x))
            rep = json.loads((runs[0] / "lbr.json").read_text())
            var = rep["variant"]
            parts = ["every holding" if not var["holdings"] else f"{var['holdings']} holdings"]
            if var["fold_samples"]:
                parts.append(f"fold of {var['fold_samples']}")
            if var["preflop"] != "lbr":
                parts.append(f"pre-flop {var['preflop']}")
            if not var["called_range"]:
                parts.append("WP against the whole range")
            if rep["warmup"]:
                parts.append(f"frozen after {rep['warmup']} hands vs {rep['warmup_opponent']}")
            method = ", ".join(parts)
        out.append(
            {
                "label": label,
                "spec": spec,
                "lbr": lbr,
                "method": method,
                "seeds": [int(r.name.rsplit("-", 1)[1]) for r in runs],
                "loki1": _heads_up(vs_loki1, seeds),
                "equity": _heads_up(vs_equity, seeds),
            }
        )
    return out


def lbr_table(rows: list[list[Any]], seeds: Sequence[int] = (0, 1)) -> str:
    """The exploitability table: for each ``[label, spec, LBR run prefix, against Loki-1, against equity]`` row (the
    two sources as :func:`_heads_up` reads them, "" when not measured) the local best response's sb/hand against the
    frozen player (its own series, seeds pooled by deal: a lower bound on the player's exploitability), how the
    player's probabilities were read, and what the player wins heads-up against Loki-1 and against ``equity``."""
    lines = [
        "| player | spec | LBR wins (sb/hand) | LBR method | seeds (deals) | wins against Loki-1 | wins against equity |",
        "|---|---|---:|---|---|---:|---:|",
    ]

    def cell(f: tuple[float, float, int] | None) -> str:
        return "(not run)" if f is None else _fmt(f[0], f[1])

    for r in lbr_rows(rows, seeds):
        lbr = r["lbr"]
        where = ", ".join(map(str, r["seeds"])) + (f" ({lbr[2]:,})" if lbr else "")
        lines.append(
            f"| {r['label']} | `{r['spec']}` | {cell(lbr)} | {r['method']} | {where} | {cell(r['loki1'])} "
            f"| {cell(r['equity'])} |"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ table kinds: what a study.toml may declare


def _hero_series(folder: Path) -> np.ndarray:
    """``(deals,) float64``: the player under test's (label "hero") AIVAT sb/hand per deal of a panel run
    (``deals-aivat.csv.gz``: chips per deal summed over its seatings)."""
    import csv
    import gzip

    from loki.tournament.config import config_from_dict

    s = json.loads((folder / "summary.json").read_text())
    n = int(s["n_players"])
    small_bet = float(config_from_dict(s["config"], str(folder)).game_config().small_bet)
    with gzip.open(folder / "deals-aivat.csv.gz", "rt", newline="") as f:
        rows = list(csv.reader(f))
    i = rows[0].index("hero")
    return np.array([float(r[i]) for r in rows[1:]]) / (n * small_bet)


def _against_cell(mean: float, reference_mean: float, paired: np.ndarray) -> str:
    """A cell of a table against a reference player: the share of the reference's sb/hand (where the reference wins
    more than 0.05) and the paired difference ``(n,) float64`` with its 95 % interval."""
    share = f"{mean / reference_mean:.2f} · " if reference_mean > 0.05 else ""
    return f"{share}{_fmt(*mean_ci(paired))}"


def panel(
    folder: Path,
    rows: list[list[str]],
    tables: list[list[str]],
    seeds: list[int],
    block: int | str,
    reference: str = "equity",
) -> str:
    """The exploitation panel as one cross table: for each row ``[label, row]`` (a player under test) and each column
    ``[label, table]``, the player's AIVAT sb/hand in its seat, seeds pooled by deal (runs
    ``<folder>/<table>--<row>--b<block>-<seed>``, or ``--<block>-<seed>`` where ``block`` is a name such as
    ``"long"`` or ``"long5"``; 95 % intervals), the
    best of each column in bold and a ``*`` on the cells whose interval reaches the best's figure; then, per table,
    each row's result as a share of ``reference``'s on the same deals and its difference from it paired by deal."""
    vals: dict[tuple[str, str], np.ndarray] = {}
    for _, row in rows:
        for _, table in tables:
            parts = []
            for seed in seeds:
                tag = block if isinstance(block, str) else f"b{block}"
                run = folder / f"{table}--{row}--{tag}-{seed}"
                if (run / "summary.json").exists():
                    parts.append(_hero_series(run))
            if len(parts) == len(seeds):
                vals[(row, table)] = np.concatenate(parts)
    if not vals:
        return "(not run)"
    head = "| player | " + " | ".join(label for label, _ in tables) + " |"
    out = [head, "|---|" + "---:|" * len(tables)]
    best: dict[str, tuple[float, float]] = {}
    for _, table in tables:
        found = [mean_ci(vals[(r, table)]) for _, r in rows if (r, table) in vals]
        if found:
            best[table] = max(found, key=lambda mc: mc[0])
    for label, row in rows:
        cells = []
        for _, table in tables:
            if (row, table) not in vals:
                cells.append("")
                continue
            m, h = mean_ci(vals[(row, table)])
            b = best[table]
            text = _fmt(m, h)
            if m == b[0]:
                text = f"**{text}**"
            elif m + h >= b[0]:
                text += " *"
            cells.append(text)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += [
        "",
        f"Against `{reference}` in the same seat, on the same deals (share of its sb/hand; difference paired by deal):",
        "",
    ]
    out += ["| player | " + " | ".join(label for label, _ in tables) + " |", "|---|" + "---:|" * len(tables)]
    for label, row in rows:
        if row == reference:
            continue
        cells = []
        for _, table in tables:
            if (row, table) not in vals or (reference, table) not in vals:
                cells.append("")
                continue
            x, r = vals[(row, table)], vals[(reference, table)]
            k = min(len(x), len(r))
            cells.append(_against_cell(float(x.mean()), float(r.mean()), x[:k] - r[:k]))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def _dealer_hands(run: Path) -> dict[tuple[int, int], float]:
    """Loki's seat's sb/hand per ``(seat, hand)`` of a committed ACPC dealer run
    (``experiments/exploitation/scripts/acpc_dealer.py``: ``hands.csv.gz`` in chips, the small bet in summary.json)."""
    import csv
    import gzip

    sb = float(json.loads((run / "summary.json").read_text())["small_bet_chips"])
    with gzip.open(run / "hands.csv.gz", "rt", newline="") as f:
        rows = list(csv.DictReader(f))
    return {(int(r["loki_seat"]), int(r["hand"])): float(r["chips"]) / sb for r in rows}


def acpc_dealer(
    folder: Path, rows: list[list[str]], tables: list[list[str]], seeds: list[int], reference: str = "equity"
) -> str:
    """Loki on the ACPC server's dealer against its example_player: for each row ``[label, row]`` and column
    ``[label, table]`` the sb/hand of Loki's seat (runs ``<folder>/<table>--<row>-<seed>``, seeds pooled, 95 %
    intervals over hands; the hands played), then each row against ``reference`` in the same seat on the same cards
    (share of its sb/hand; difference paired by seed, seat and hand)."""
    vals: dict[tuple[str, str], dict[tuple[int, int, int], float]] = {}
    for _, row in rows:
        for _, table in tables:
            runs = [folder / f"{table}--{row}-{seed}" for seed in seeds]
            if all((r / "summary.json").exists() for r in runs):
                vals[(row, table)] = {
                    (seed, *k): v for seed, r in zip(seeds, runs, strict=True) for k, v in _dealer_hands(r).items()
                }
    if not vals:
        return "(not run)"
    out = ["| player | " + " | ".join(label for label, _ in tables) + " |", "|---|" + "---:|" * len(tables)]
    for label, row in rows:
        cells = []
        for _, table in tables:
            v = vals.get((row, table))
            cells.append("" if v is None else f"{_fmt(*mean_ci(np.array(list(v.values()))))} ({len(v):,} hands)")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += [
        "",
        f"Against `{reference}` in the same seat, on the same cards (share of its sb/hand; difference paired by hand):",
        "",
        "| player | " + " | ".join(label for label, _ in tables) + " |",
        "|---|" + "---:|" * len(tables),
    ]
    for label, row in rows:
        if row == reference:
            continue
        cells = []
        for _, table in tables:
            x, r = vals.get((row, table)), vals.get((reference, table))
            if x is None or r is None:
                cells.append("")
                continue
            keys = sorted(set(x) & set(r))
            a, b = np.array([x[k] for k in keys]), np.array([r[k] for k in keys])
            cells.append(_against_cell(float(a.mean()), float(b.mean()), a - b))
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(out)


#: ``kind`` -> (the function, the arguments that are paths relative to experiments/ (a string or a list of them),
#: and for list-of-rows arguments the row positions that are such paths).
KINDS: dict[str, tuple[Callable[..., str], tuple[str, ...], dict[str, tuple[int, ...]]]] = {
    "paired": (runs_table, ("folder", "reference_folder"), {}),
    "tuning": (tuning, ("folders",), {}),
    "league": (league, ("folder",), {}),
    "heads_up_paired": (heads_up_paired, ("folder",), {}),
    "heads_up_across": (heads_up_across, ("folder",), {}),
    "paired_runs": (paired_runs, (), {"rows": (2, 4)}),
    "panel_mean": (panel_mean, ("folder",), {}),
    "passive_exploration": (passive_exploration, ("path",), {}),
    "learning_cost": (learning_cost, ("folder",), {}),
    "aivat_floor": (aivat_floor, ("folder",), {}),
    "aivat_crn": (aivat_crn, ("folder",), {}),
    "bar_arithmetic": (bar_arithmetic, (), {"rows": (1, 2, 3)}),
    "run_speed": (run_speed, (), {"rows": (1,)}),
    "lbr": (lbr_table, (), {"rows": (2,)}),
    "panel": (panel, ("folder",), {}),
    "acpc_dealer": (acpc_dealer, ("folder",), {}),
}


def _path(v: Any) -> Any:
    return [EXPERIMENTS / x for x in v] if isinstance(v, list) else EXPERIMENTS / v


def make_table(where: str, spec: dict) -> str:
    """The markdown of one declared table (``spec``: ``kind`` and its arguments, or ``parts``: several such specs
    whose tables are joined by a blank line).

    Raises:
        ValueError: an unknown kind or a missing argument (naming ``where``).
    """
    if "parts" in spec:
        return "\n\n".join(make_table(where, part) for part in spec["parts"])
    args = dict(spec)
    kind = args.pop("kind", None)
    if kind not in KINDS:
        raise ValueError(f"{where}: unknown table kind {kind!r} (one of {', '.join(KINDS)})")
    fn, paths, row_paths = KINDS[kind]
    for k in paths:
        if k in args:
            args[k] = _path(args[k])
    for k, cols in row_paths.items():
        args[k] = [[EXPERIMENTS / c if i in cols else c for i, c in enumerate(row)] for row in args[k]]
    try:
        return fn(**args)
    except TypeError as e:
        raise ValueError(f"{where}: {e}") from None


# ------------------------------------------------------------------ studies and their current answers


@dataclass
class Study:
    """One question's folder: ``experiments/<name>/study.toml`` read."""

    name: str
    order: int
    question: str
    status: str
    status_note: str
    answers: list[dict]
    tables: dict[str, dict] = field(default_factory=dict)


STATUSES = ("answered", "open", "closed")


def load_studies() -> list[Study]:
    """Every ``experiments/*/study.toml``, by its ``order`` (the row of docs/RESULTS.md), then by name.

    Raises:
        ValueError: a study without a question, with a status not in :data:`STATUSES`, or a table name declared by
            two studies.
    """
    studies: list[Study] = []
    owner: dict[str, str] = {}
    for f in sorted(EXPERIMENTS.glob("*/study.toml")):
        d = tomllib.loads(f.read_text())
        name = f.parent.name
        if not d.get("question") or d.get("status") not in STATUSES:
            raise ValueError(f'{f}: needs question = "..." and status = one of {", ".join(STATUSES)}')
        for t in d.get("tables", {}):
            if t in owner:
                raise ValueError(f"{f}: table {t!r} is already declared by experiments/{owner[t]}/study.toml")
            owner[t] = name
        studies.append(
            Study(
                name,
                int(d.get("order", 1000)),
                d["question"],
                d["status"],
                d.get("status_note", ""),
                d.get("answer", []),
                d.get("tables", {}),
            )
        )
    return sorted(studies, key=lambda s: (s.order, s.name))


def _pm(x: np.ndarray) -> tuple[float, float]:
    m, h = mean_ci(x)
    return float(m), float(h)


def _runs(prefix: str, seeds: Sequence[int]) -> list[Path]:
    runs = [EXPERIMENTS / f"{prefix}-{s}" for s in seeds]
    missing = [str(r.relative_to(ROOT)) for r in runs if not r.is_dir()]
    if missing:
        raise ValueError(f"answer run missing: {', '.join(missing)}")
    return runs


def goal_cell(a: dict, value: float, ci: float) -> str:
    """An answer's goal and whether it is met: ``goal`` (sb/hand) is met when the estimate reaches it, or with
    ``goal_by = "interval"`` when the whole 95 % interval is above it; else "missed" (and whether the interval still
    reaches it).  ``goal_text`` is shown as written when there is no numeric goal."""
    if "goal" not in a or np.isnan(value):
        return str(a.get("goal_text", ""))
    goal = float(a["goal"])
    if a.get("goal_by") == "interval":
        ok, what = value - ci > goal, f"interval above {goal:+.3f}"
    else:
        ok, what = value >= goal, f"≥ {goal:+.3f}"
    if ok:
        return f"{what}: met"
    return f"{what}: missed" + (" (the interval reaches it)" if value + ci >= goal else "")


@dataclass
class Figure:
    """An answer row's figures: the headline (its measure) and, for a tournament, the other measure."""

    value: float
    ci: float
    measure: str
    other: str = ""
    deals: int = 0


def answer_figure(a: dict) -> Figure:
    """The figure of one ``[[answer]]`` row from its committed runs.

    ``measure``: ``"own"`` (a tournament's enhanced type's own AIVAT sb/hand, the paper's measure, seeds pooled by
    deal; the comparison beside it), ``"comparison"`` (enhanced minus control; the own figure beside it),
    ``"paired"`` (``run`` minus ``reference``, paired by deal), ``"league"`` (the pooled cell ``player`` against
    ``opponent`` of the leagues ``run-<seed>``), ``"text"`` (``figure`` as written, from the tables named in
    ``source``), ``"lbr"`` (the local best response's own sb/hand in the runs ``run-<seed>`` of ``loki lbr``).

    Raises:
        ValueError: a run that is missing, an unknown measure.
    """
    m, seeds = a.get("measure", "own"), a.get("seeds", [0, 1])
    if m in ("own", "comparison"):
        runs = _runs(a["run"], seeds)
        own = np.concatenate([own_series(r) for r in runs])
        comp = np.concatenate([run_series(r) for r in runs])
        o, c = _pm(own), _pm(comp)
        if m == "own":
            return Figure(*o, "own sb/hand, the paper's measure", f"enhanced minus control {_fmt(*c)}", len(own))
        label = a.get("measure_label", "enhanced minus control")
        return Figure(*c, label, f"enhanced's own sb/hand {_fmt(*o)}", len(own))
    if m == "paired":
        x = np.concatenate([run_series(r) for r in _runs(a["run"], seeds)])
        y = np.concatenate([run_series(r) for r in _runs(a["reference"], seeds)])
        k = min(len(x), len(y))
        return Figure(*_pm(x[:k] - y[:k]), a.get("measure_label", "run minus reference, paired"), "", k)
    if m == "league":
        files = [EXPERIMENTS / f"{a['run']}-{s}" / "league.json" for s in seeds]
        ds = [json.loads(f.read_text()) for f in files]
        i, j = ds[0]["labels"].index(a["player_label"]), ds[0]["labels"].index(a["opponent"])
        v = sum(d["value"][i][j] for d in ds) / len(ds)
        h = sum(d["ci"][i][j] ** 2 for d in ds) ** 0.5 / len(ds)
        return Figure(v, h, f"sb/hand against {a['opponent']} (heads-up)", "", sum(d["deals"] for d in ds))
    if m == "lbr":
        runs = _runs(a["run"], seeds)
        x = np.concatenate([own_series(r) for r in runs])
        return Figure(*_pm(x), "LBR's sb/hand against it: a lower bound on its exploitability", "", len(x))
    if m == "text":
        return Figure(float("nan"), float("nan"), a.get("measure_label", ""), a["figure"])
    raise ValueError(f"unknown measure {m!r}")


def _cell(f: Figure) -> str:
    if f.measure and not np.isnan(f.value):
        return f"{_fmt(f.value, f.ci)} ({f.measure})"
    return f.other


def current_answer(study: Study) -> str:
    """The block a study README opens with: its status, then its ``[[answer]]`` rows with their figures."""
    rows = [
        f"**Question:** {study.question}",
        "",
        f"**Status:** {study.status}" + (f" — {study.status_note}" if study.status_note else ""),
        "",
        "| what | player (spec) | figure ± 95 % | also | goal | seeds (deals) | commit |",
        "|---|---|---|---|---|---|---|",
    ]
    for a in study.answers:
        f = answer_figure(a)
        goal = goal_cell(a, f.value, f.ci)
        paper = f"; paper: {a['paper']}" if a.get("paper") else ""
        also = (f.other if f.measure and not np.isnan(f.value) else "") + paper
        seeds = ", ".join(str(s) for s in a.get("seeds", [0, 1])) + (f" ({f.deals:,})" if f.deals else "")
        rows.append(
            f"| {a['what']} | {a['player']} (`{a['spec']}`) | {_cell(f) if not np.isnan(f.value) else f.other} "
            f"| {also.lstrip('; ')} | {goal} | {seeds} | {a.get('commit', '')} |"
        )
    return "\n".join(rows)


def results_page(studies: Sequence[Study]) -> str:
    """docs/RESULTS.md: one row per question, its headline answer (the study's first ``[[answer]]``)."""
    rows = [
        "# Results: one row per question",
        "",
        "<!-- generated by scripts/experiments_tables.py from experiments/*/study.toml and the committed runs; do not"
        " edit -->",
        "",
        "Each question is a study folder under `experiments/`; its README opens with the current answer (every row,",
        "with the runs behind it) and ends with its history.  Figures are AIVAT sb/hand with 95 % intervals, seeds",
        'pooled deal by deal; "own sb/hand" is what the enhanced program itself won (the measure AAAI-99 reports),',
        '"enhanced minus control" the paired comparison (1.25 times it in an 8 + 2 field).  How to run and add a',
        "study: [EXPERIMENTS.md](EXPERIMENTS.md).",
        "",
        "| question | status | what ships | figure ± 95 % | goal | seeds | study |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in studies:
        if not s.answers:
            rows.append(f"| {s.question} | {s.status} |  |  |  |  | [{s.name}](../experiments/{s.name}/README.md) |")
            continue
        a = s.answers[0]
        f = answer_figure(a)
        fig = _cell(f) if not np.isnan(f.value) else f.other
        goal = goal_cell(a, f.value, f.ci)
        seeds = ", ".join(str(x) for x in a.get("seeds", [0, 1]))
        rows.append(
            f"| {s.question} | {s.status} | {a['what']}: {a['player']} (`{a['spec']}`) | {fig} | {goal} | {seeds} "
            f"| [{s.name}](../experiments/{s.name}/README.md) |"
        )
    return "\n".join(rows) + "\n"


# ------------------------------------------------------------------ the documents

CURRENT = re.compile(r"(<!-- current answer -->\n)(.*?)(<!-- end current answer -->)", re.S)
TABLE = re.compile(r"(<!-- table: (\S+) -->\n)(.*?)(<!-- end table -->)", re.S)


def _current(m: re.Match[str], block: str) -> str:
    return m.group(1) + block + "\n" + m.group(3)


def documents() -> list[Path]:
    """The files whose blocks are generated: README.md, BENCHMARKS.md, docs/*.md (not RESULTS.md, written whole) and
    every study's README."""
    docs = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
    return [d for d in docs if d != RESULTS and d.exists()] + sorted(EXPERIMENTS.glob("*/README.md"))


def _study_plugins(study: str) -> None:
    """Make the plug-in modelers of a study's runs importable (``adaptive_model.candidates`` may name
    ``"module:name"`` in the study's ``scripts/`` folder, as its runs were played): the folder goes last on the path,
    so it shadows nothing of the project's."""
    folder = str(EXPERIMENTS / study / "scripts")
    if Path(folder).is_dir() and folder not in sys.path:
        sys.path.append(folder)


def regenerate() -> dict[Path, str]:
    """``{file: its generated text}`` for every document (see the module docstring).

    Raises:
        ValueError: a block naming a table no study declares.
    """
    studies = load_studies()
    specs = {name: (s, spec) for s in studies for name, spec in s.tables.items()}
    cache: dict[str, str] = {}

    def table(m: re.Match[str], doc: Path) -> str:  # fills one table block of ``doc``
        name = m.group(2)
        if name not in specs:
            raise ValueError(f"{doc.relative_to(ROOT)}: no study declares the table {name!r}")
        if name not in cache:
            s, spec = specs[name]
            _study_plugins(s.name)
            cache[name] = make_table(f"experiments/{s.name}/study.toml [tables.{name}]", spec)
        return m.group(1) + cache[name] + "\n" + m.group(4)

    out = {}
    by_name = {s.name: s for s in studies}
    for doc in documents():
        text = TABLE.sub(partial(table, doc=doc), doc.read_text())
        if doc.parent.parent == EXPERIMENTS and doc.parent.name in by_name:
            block = current_answer(by_name[doc.parent.name])
            text = CURRENT.sub(partial(_current, block=block), text)
        out[doc] = text
    out[RESULTS] = results_page(studies)
    return out


def main() -> int:
    check = "--check" in sys.argv
    differ = []
    for doc, text in regenerate().items():
        if not doc.exists() or doc.read_text() != text:
            differ.append(doc)
            if not check:
                doc.write_text(text)
    if check and differ:
        names = ", ".join(str(d.relative_to(ROOT)) for d in differ)
        print(f"{names}: differs from the committed results; run python scripts/experiments_tables.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
