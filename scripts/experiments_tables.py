"""Regenerate the tables of docs/EXPERIMENTS.md and README.md from the committed results under experiments/.

Each table of the document sits between ``<!-- table: NAME -->`` and ``<!-- end table -->``; this script recomputes
every one it knows from the committed ``summary.json``, ``run.json``, ``deals-aivat.csv.gz``, ``tune.json`` and
``league.json`` files and rewrites the block (``--check``: exit 1 when a block differs; a test runs it).

    python scripts/experiments_tables.py            # rewrite the blocks
    python scripts/experiments_tables.py --check
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
DOCS = (ROOT / "docs" / "EXPERIMENTS.md", ROOT / "README.md")
EXP = ROOT / "experiments" / "2026-11-25"
EXP2 = ROOT / "experiments" / "2026-11-26"
EXP3 = ROOT / "experiments" / "2026-11-27"
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402
from paired_table import series as run_series  # noqa: E402
from paired_table import table as paired  # noqa: E402

from loki.stats import mean_ci  # noqa: E402

LIMIT_LABELS = {
    "B-default": "Loki-2 B (the default generator)",
    "B-oracle": "B, oracle generator (cheat: equity against the true holdings)",
    "S-default": "Loki-2 S (the default Simulator)",
    "S-perfect": "S, perfect model (cheat: each opponent's true holding)",
    "S-mixed": "S, true holding mixed half and half with the table (cheat)",
    "S-nocutoff": "S, no cut-off",
    "S-trials2000": "S, 2,000 trials",
    "S-trials5000": "S, 5,000 trials",
}


FIGURE_LABELS = {
    "fig3-B-paper": "fig3-B with the paper's generator (loki2:B)",
    "fig3-B-tuned": "fig3-B: B with the tuned set B1 (the preset)",
    "fig3-R": "fig3-R",
    "fig3-BR": "fig3-BR",
    "fig3-S": "fig3-S with the paper's Simulator (loki2:S)",
    "fig3-BRS": "fig3-BRS with the paper's B+R+S",
    "fig4": "fig4 (all styles: B+R minus Loki-1)",
    "fig3-BRS-adaptive": "fig3-BRS, the adaptive B+R+S in place of the paper's",
    "fig4-adaptive": "fig4 (all styles), every B+R adaptive",
    "styles-B-default": "fig4's styles against the paper's B",
    "fig3-S-tuned": "fig3-S: S with the tuned set S1 (the preset until 2026-11-26)",
    "fig3-BRS-S1": "fig3-BRS: B+R+S with the tuned set S1 (the preset until 2026-11-26)",
    "val-fig3-BRS": "fig3-BRS (the paper's design), validation seeds",
    "val-fig3-BRS-B1": "fig3-BRS with B1, validation seeds",
    "val-fig3-BRS-S1": "fig3-BRS with S1, validation seeds",
    "styles-B-tuned": "fig4's styles against B1",
    "styles-S-default": "fig4's styles against the paper's S",
    "styles-S-tuned": "fig4's styles against S1",
}


MIXED_LABELS = {
    "three-maniac": "3-handed, with maniac: adaptive minus B+R+S",
    "three-equity": "3-handed, with equity: adaptive minus B+R+S",
    "three-calling": "3-handed, with calling: adaptive minus B+R+S",
    "six": "6-handed, with Loki-1, maniac, equity, calling: adaptive minus B+R+S",
}


def limits() -> str:
    return paired(EXP / "limits", {"S-default": "S-", "B-default": "B-"}, LIMIT_LABELS)


def _fmt(v: float | None, c: float | None) -> str:
    if v is None:
        return ""
    return f"{v:+.3f} ± {c:.3f}" if c is not None else f"{v:+.3f}"


def tuning() -> str:
    rows = [
        "| study | trials (complete / pruned / failed) | best values | search value (optimistic) | validation: tuned | "
        "validation: default | tuned minus default (paired) |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for t in sorted(ROOT.glob("experiments/*/tune/*/tune.json"), key=lambda t: (t.parent.parent.parent.name, t)):
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
    folder: Path, references: dict[str, str], labels: dict[str, str] | None = None, reference_folder: Path | None = None
) -> str:
    if not folder.is_dir():
        return "(not run)"
    return paired(folder, references, labels, reference_folder)


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


def _paired_block(lead: str, runs: Sequence[tuple[object, np.ndarray, np.ndarray]]) -> list[str]:
    """Rows of a paired table: for each ``(seed, player, reference)`` (``(deals,) float64`` series paired by deal)
    the row's first cells ``lead`` (``<seed>`` and ``<deals>`` replaced) then the reference's, the player's and their
    paired difference (mean ± 95 %), and with several seeds a last row pooling them (seed ``pooled``, the difference
    in bold)."""

    def row(seed: str, t: np.ndarray, r: np.ndarray, bold: bool) -> str:
        d = _fmt(*mean_ci(t - r))
        cells = [_fmt(*mean_ci(r)), _fmt(*mean_ci(t)), f"**{d}**" if bold else d]
        return lead.replace("<seed>", seed).replace("<deals>", str(len(t))) + " | ".join(cells) + " |"

    rows = [row(str(seed), t, r, False) for seed, t, r in runs]
    if len(runs) > 1:
        rows.append(row("pooled", np.concatenate([x[1] for x in runs]), np.concatenate([x[2] for x in runs]), True))
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


def paired_runs(rows_spec: list[tuple[str, str, Path, str, Path]], seeds: list[int]) -> str:
    """For each ``(label, run, run_folder, reference, reference_folder)``: the committed runs ``<run>-<seed>`` and
    ``<reference>-<seed>`` of each seed (tournaments or one-pair leagues, :func:`_run_series`), their AIVAT results
    and the run's minus the reference's paired by deal, per seed and pooled (95 % intervals)."""
    out = [
        "| run | reference | seed | deals | reference sb/hand | run sb/hand | run minus reference (paired) |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    found = False
    for label, run, run_folder, ref, ref_folder in rows_spec:
        runs = []
        for seed in seeds:
            a, b = run_folder / f"{run}-{seed}", ref_folder / f"{ref}-{seed}"
            if not (a.is_dir() and b.is_dir()):
                continue
            x, r = _run_series(a), _run_series(b)
            k = min(len(x), len(r))
            runs.append((seed, x[:k], r[:k]))
        out += _paired_block(f"| {label} | {ref} | <seed> | <deals> | ", runs)
        found = found or bool(runs)
    return "\n".join(out) if found else "(not run)"


S2_HU = [
    ("the paper's S with S1's softmax choice", "Psoft"),
    ("S1", "S1"),
    ("S1 with the argmax choice", "S1arg"),
    ("S1 without its bluff", "S2a"),
    ("S1 without its bluff and implied odds", "S2b"),
    ("S1 with one-sided ramps (nothing mixed above a threshold), no implied odds, no bluff", "S1sharp"),
    ("S2: S1 with the paper's form (symmetric ramps, no implied odds, no bluff)", "S2c"),
]
S2_FIG3S = [
    ("S1 without its bluff", "S2a"),
    ("S1 without its bluff and implied odds", "S2b"),
    ("S2: S1 with the paper's form", "S2c"),
]


def heads_up_across(
    folder: Path, player: tuple[str, str], reference: tuple[str, str], opponents: list[str], seeds: list[int]
) -> str:
    """As :func:`heads_up_paired` for a player and a reference that played in two leagues of the same seeds
    (``(prefix, label)`` each): a league's pairs all play the same deals, whatever the other players, so the two
    leagues' matches against one opponent are paired by deal (the bots' matches with each other in both leagues are
    the same games: tests/test_league.py)."""
    rows = _heads_up_rows(folder, player, reference, opponents, seeds)
    return "\n".join(HEADS_UP_HEADER + rows) if rows else "(not run)"


BOTS = ["random", "calling", "maniac", "equity"]

MIXED_LONG_LABELS = {
    f"three-{b}": f"3-handed, with {b}: adaptive (with the card-blind best response) minus B+R+S, 1,250-deal blocks"
    for b in ("maniac", "calling", "equity")
} | {
    "six": "6-handed, with Loki-1, maniac, equity, calling: adaptive (with the card-blind best response) minus B+R+S, "
    "1,250-deal blocks"
}


#: The six opponents of the hu-adaptive study's panel and of its sets' validations (issue 24), as the leagues label them.
HU_PANEL = ["equity", "calling", "random", "maniac", "loki1", "loki2:BRS"]

#: The opponents of the full heads-up league (issue 24) besides the bots.
LEAGUE_OPPONENTS = ["equity", "random", "calling", "maniac", "Loki-1", "B+R", "B+R+S", "B+R+S tuned BRS1",
                    "B+R+S specific, believed"]  # fmt: skip


def adaptive_set_fig3(name: str, previous: tuple[str, Path]) -> str:
    """fig3-BRS with the adaptive Loki of tuned set ``name`` (``tuned-adaptive/fig3-BRS-<name>-<seed>``), paired with
    the paper's B+R+S and with ``previous`` (``(run, folder)``: the adaptive Loki it replaced)."""
    rows = [
        (f"fig3-BRS, the adaptive Loki with {name}", f"fig3-BRS-{name}", EXP2 / "tuned-adaptive", ref, folder)
        for ref, folder in (("fig3-BRS", EXP / "figures"), previous)
    ]
    return paired_runs(rows, [0, 1])


def adaptive_set_hu(name: str, previous: tuple[str, str]) -> str:
    """The adaptive Loki of tuned set ``name`` in its league (``league/league-<name>-<seed>``): against the bots next
    to ``equity`` (from ``league-full``), and against every opponent next to ``previous`` (``(league prefix,
    label)``: the adaptive Loki it replaced), paired by deal."""
    refs = ((("league-full", "equity"), ["random", "calling", "maniac"]), (previous, LEAGUE_OPPONENTS))
    player = (f"league-{name}", f"B+R+S adaptive {name}")
    return "\n\n".join(heads_up_across(EXP2 / "league", player, ref, opps, [0, 1]) for ref, opps in refs)


def aivat_floor(folder: Path) -> str:
    """What the cards decide of AIVAT's variance (``benchmarks/aivat_floor.py --out``): per preset and kind of second
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
    """The common-random-numbers exploration (``benchmarks/aivat_crn.py``): per preset and seed, the comparison's
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


def brs_generalisation(name: str, before: str) -> str:
    """fig4's four Loki-1 styles against four B+R+S with the tuned set ``name``, paired by deal with the same field
    against the set ``before`` and against the paper's B+R+S (``generalisation/styles-BRS-<set>-<seed>``)."""
    return paired_runs(
        [
            (
                f"fig4's styles against B+R+S with {name}",
                f"styles-BRS-{name}",
                EXP2 / "generalisation",
                ref,
                EXP2 / "generalisation",
            )
            for ref in (f"styles-BRS-{before}", "styles-BRS-default")
        ],
        [0, 1],
    )


def brs_figures(name: str, before: list[str]) -> str:
    """fig3-BRS with the set ``name`` on seeds 0 and 1 (``figures/fig3-BRS-<set>-<seed>``), paired by deal with the
    committed runs of the sets ``before`` (of 2026-11-26), then S1's and the paper's B+R+S's (of 2026-11-25)."""
    refs = [(f"fig3-BRS-{b}", EXP2 / "figures") for b in before] + [
        ("fig3-BRS-S1", EXP / "figures"),
        ("fig3-BRS", EXP / "figures"),
    ]
    return paired_runs(
        [(f"fig3-BRS with {name}", f"fig3-BRS-{name}", EXP2 / "figures", ref, folder) for ref, folder in refs], [0, 1]
    )


def brs_hu_guard(name: str, before: str) -> str:
    """The tuned set ``name``'s heads-up league against the reference bots (card-blind guard, 1,250-deal blocks),
    paired by deal with the set ``before``'s league and with the paper's B+R+S's (in S1's league) of the same seeds."""
    return "\n\n".join(
        heads_up_across(EXP2 / "generalisation", (f"hu-guard-BRS-{name}", f"B+R+S tuned {name}"), ref, BOTS, [0, 1])
        for ref in ((f"hu-guard-BRS-{before}", f"B+R+S tuned {before}"), ("hu-guard-BRS-S1", "Loki-2 B+R+S"))
    )


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


def bar_arithmetic(rows_spec: list[tuple[str, Path, Path, Path]], minutes: float = 2.0, half: float = 0.01) -> str:
    """What a ±``half`` sb/hand bar of a preset takes on 2 cores (issue 25), from committed runs only: the preset's bar
    run (``summary.json``: the comparison's AIVAT and plain per-deal sd; ``run.json``: games per CPU second of its
    blocks, AIVAT included), its floor (``benchmarks/aivat_floor.py --split flop``: the share of the plain variance
    the hole cards and the flop decide, with its interval) and the Simulator's share of a block's CPU
    (``benchmarks/sim_share.py`` rounds, median).  Deals for the bar at a variance ratio ``ρ``:
    ``(1.96 · plain_sd · √ρ / half)²``; wall time ``deals · games per deal / (2 · games per CPU second)`` (play only:
    a run adds a few seconds of start-up); the speed a ``minutes`` bar needs: ``deals · games per deal / (2 · 60 ·
    minutes)``; with a free Simulator the speed is ``games per CPU second / (1 − share)`` (the same games), and the
    Simulator's speed-up a bar needs keeps the rest of the block's CPU per game as it is (``sim_share.py``'s ceiling).
    The floor's share was measured on its own seed (2202, 2205) and is applied to the bar run's plain variance."""
    rows = [
        "| preset (bar run) | variance ratio now / at the floor [interval] | deals for ±0.01 now / at the floor "
        "| games per CPU second (Simulator's share) | wall on 2 cores now / at the floor | wall at the floor with a "
        "free Simulator | games per CPU second a 2-minute bar needs, now / at the floor [interval] | how much faster "
        "the Simulator must be for it, now / at the floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows += [_bar_row(*spec, minutes, half) for spec in rows_spec]
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {
    "limits": limits,
    "tuning": tuning,
    "figures": lambda: runs_table(
        EXP / "figures",
        {"fig3-B-paper": "fig3-B-tuned", "fig3-S": "fig3-S-tuned", "fig3-BRS": "fig3-BRS-S1"},
        FIGURE_LABELS,
    ),
    "validation": lambda: runs_table(EXP / "validation", {"val-fig3-BRS": "val-fig3-BRS-"}, FIGURE_LABELS),
    "generalisation": lambda: runs_table(
        EXP / "generalisation",
        {"styles-B-default": "styles-B-tuned", "styles-S-default": "styles-S-tuned"},
        FIGURE_LABELS,
    ),
    "generalisation-league": lambda: league(EXP / "generalisation", "hu-B"),
    "generalisation-league-S": lambda: league(EXP / "generalisation", "hu-S"),
    "adaptive": lambda: runs_table(
        EXP / "adaptive-runs",
        {"fig3-BRS": "fig3-BRS-adaptive", "fig4": "fig4-adaptive"},
        FIGURE_LABELS,
        reference_folder=EXP / "figures",
    ),
    "mixed": lambda: runs_table(EXP / "mixed", {}, MIXED_LABELS),
    "league": lambda: league(EXP / "league", "league"),
    "league-pooled": lambda: league(EXP / "league", "league", pooled_only=True),
    "generalisation-hu-bots": lambda: heads_up_paired(
        EXP / "generalisation", [("hu-B", "B tuned B1", "Loki-2 B"), ("hu-S", "S tuned S1", "Loki-2 S")], BOTS
    ),
    "generalisation-hu-styles": lambda: heads_up_paired(
        EXP2 / "generalisation",
        [("hu-styles-B", "B tuned B1", "Loki-2 B"), ("hu-styles-S", "S tuned S1", "Loki-2 S")],
        ["Loki-1", "Loki-1 TA", "Loki-1 LC", "Loki-1 LA"],
    ),
    "generalisation-hu-guard": lambda: heads_up_paired(
        EXP2 / "generalisation",
        [("hu-guard-B", "B tuned B1", "Loki-2 B"), ("hu-guard-S", "S tuned S1", "Loki-2 S")],
        BOTS,
    ),
    "s2-choice-hu": lambda: paired_runs(
        [(lab, n, EXP2 / "s2" / "hu", "P", EXP2 / "s2" / "hu") for lab, n in S2_HU], [1100, 1101]
    ),
    "s2-choice-fig3-S": lambda: paired_runs(
        [(lab, n, EXP2 / "s2" / "fig3-S", "S1", EXP2 / "s2" / "fig3-S") for lab, n in S2_FIG3S], [1001, 1002]
    ),
    "s2-validation": lambda: paired_runs(
        [
            ("fig3-BRS with S2", "val-fig3-BRS-S2", EXP2 / "validation", ref, EXP / "validation")
            for ref in ("val-fig3-BRS", "val-fig3-BRS-S1")
        ],
        [1001, 1002],
    ),
    "s2-figures": lambda: paired_runs(
        [
            ("fig3-S with S2", "fig3-S-S2", EXP2 / "figures", "fig3-S", EXP / "figures"),
            ("fig3-S with S2", "fig3-S-S2", EXP2 / "figures", "fig3-S-tuned", EXP / "figures"),
            ("fig3-BRS with S2", "fig3-BRS-S2", EXP2 / "figures", "fig3-BRS", EXP / "figures"),
            ("fig3-BRS with S2", "fig3-BRS-S2", EXP2 / "figures", "fig3-BRS-S1", EXP / "figures"),
            (
                "fig4's styles against S2",
                "styles-S-S2",
                EXP2 / "generalisation",
                "styles-S-default",
                EXP / "generalisation",
            ),
            (
                "fig4's styles against S2",
                "styles-S-S2",
                EXP2 / "generalisation",
                "styles-S-tuned",
                EXP / "generalisation",
            ),
        ],
        [0, 1],
    ),
    "s2-equity-fresh": lambda: heads_up_paired(
        EXP2 / "generalisation",
        [("hu-equity-fresh", "S tuned S2", "Loki-2 S"), ("hu-equity-fresh", "S tuned S1", "Loki-2 S")],
        ["equity"],
    ),
    "brs-s1-hu-guard": lambda: heads_up_paired(
        EXP2 / "generalisation", [("hu-guard-BRS-S1", "B+R+S tuned S1", "Loki-2 B+R+S")], BOTS
    ),
    "brs-s2-generalisation": lambda: paired_runs(
        [
            (
                "fig4's styles against B+R+S with S2",
                "styles-BRS-S2",
                EXP2 / "generalisation",
                "styles-BRS-default",
                EXP2 / "generalisation",
            )
        ],
        [0, 1],
    ),
    "brs-s2-hu-guard": lambda: heads_up_across(
        EXP2 / "generalisation",
        ("hu-guard-BRS-S2", "B+R+S tuned S2"),
        ("hu-guard-BRS-S1", "Loki-2 B+R+S"),
        BOTS,
        [0, 1],
    ),
    "s2-hu-guard": lambda: heads_up_paired(EXP2 / "generalisation", [("hu-guard-S2", "S tuned S2", "Loki-2 S")], BOTS),
    "s2-hu-styles": lambda: heads_up_paired(
        EXP2 / "generalisation",
        [("hu-styles-S2", "S tuned S2", "Loki-2 S")],
        ["Loki-1", "Loki-1 TA", "Loki-1 LC", "Loki-1 LA"],
    ),
    "mixed-long": lambda: runs_table(EXP2 / "mixed", {}, MIXED_LONG_LABELS),
    "league-long": lambda: league(EXP2 / "league", "league-long"),
    "league-long-pooled": lambda: league(EXP2 / "league", "league-long", pooled_only=True),
    "league-full-pooled": lambda: league(EXP2 / "league", "league-full", pooled_only=True),
    "league-full-vs-equity": lambda: heads_up_paired(
        EXP2 / "league",
        [("league-full", "B+R+S adaptive", "equity"), ("league-full", "B+R+S adaptive", "B+R+S specific, believed")],
        ["Loki-1", "B+R", "B+R+S", "B+R+S tuned BRS1", "random", "calling", "maniac"],
    ),
    "league-A1-pooled": lambda: league(EXP2 / "league", "league-A1", pooled_only=True),
    "a1-fig3": lambda: adaptive_set_fig3("A1", ("fig3-BRS-adaptive-t100", EXP2 / "adaptive-t100")),
    "a1-hu": lambda: adaptive_set_hu("A1", ("league-full", "B+R+S adaptive")),
    "a2-validation": lambda: heads_up_paired(
        EXP2 / "tune" / "hu-adaptive-A2",
        [("val", "A2", "A1")],
        HU_PANEL,
    ),
    "a3-validation": lambda: heads_up_paired(
        EXP2 / "tune" / "hu-adaptive-A3",
        [("val", "A3", "A2")],
        HU_PANEL,
    ),
    "a3-validation-panel": lambda: panel_mean(
        EXP2 / "tune" / "hu-adaptive-A3",
        "val",
        "A3",
        "A2",
        HU_PANEL,
    ),
    "a2-validation-panel": lambda: panel_mean(
        EXP2 / "tune" / "hu-adaptive-A2",
        "val",
        "A2",
        "A1",
        HU_PANEL,
    ),
    "a4-exploration": lambda: passive_exploration(EXP2 / "tune" / "hu-adaptive-A4" / "exploration" / "summary.json"),
    "a4-validation": lambda: heads_up_paired(
        EXP2 / "tune" / "hu-adaptive-A4",
        [("val", "A4", "A3")],
        HU_PANEL,
    ),
    "a4-validation-panel": lambda: panel_mean(
        EXP2 / "tune" / "hu-adaptive-A4",
        "val",
        "A4",
        "A3",
        HU_PANEL,
    ),
    "league-A4-pooled": lambda: league(EXP2 / "league", "league-A4", pooled_only=True),
    "a4-fig3": lambda: adaptive_set_fig3("A4", ("fig3-BRS-A3", EXP2 / "tuned-adaptive")),
    "a4-hu": lambda: adaptive_set_hu("A4", ("league-A3", "B+R+S adaptive A3")),
    "a4-fig4": lambda: paired_runs(
        [
            (
                "fig4 (all styles), every B+R adaptive with A4",
                "fig4-A4",
                EXP2 / "tuned-adaptive",
                "fig4",
                EXP / "figures",
            )
        ],
        [0, 1],
    ),
    "mixed-A4": lambda: paired_runs(
        [
            (f"{MIXED_LONG_LABELS[n].split(':')[0]}: adaptive A4 minus B+R+S", n, EXP2 / "mixed-A4", n, EXP2 / "mixed")
            for n in ("three-calling", "three-equity", "three-maniac", "six")
        ],
        [0, 1],
    ),
    "mixed-A4-t500": lambda: paired_runs(
        [
            (
                f"{MIXED_LONG_LABELS[n].split(':')[0]}: adaptive A4 with 500 trials minus B+R+S, paired with {what}",
                f"{n}-t500",
                EXP2 / "mixed-A4",
                n,
                folder,
            )
            for n in ("three-equity", "six")
            for what, folder in (("A4 at 100 trials", EXP2 / "mixed-A4"), ("the hand-set one", EXP2 / "mixed"))
        ],
        [0, 1],
    ),
    "a4-calling-learning": lambda: learning_cost(
        EXP2 / "league", "league-A4", "B+R+S adaptive A4", "equity", "calling", "league-full"
    ),
    "league-A2-pooled": lambda: league(EXP2 / "league", "league-A2", pooled_only=True),
    "league-A3-pooled": lambda: league(EXP2 / "league", "league-A3", pooled_only=True),
    "a3-fig3": lambda: adaptive_set_fig3("A3", ("fig3-BRS-A2", EXP2 / "tuned-adaptive")),
    "a3-hu": lambda: adaptive_set_hu("A3", ("league-A2", "B+R+S adaptive A2")),
    "a3-calling-learning": lambda: "\n\n".join(
        learning_cost(EXP2 / "league", p, f"B+R+S adaptive {n}", "equity", "calling", "league-full")
        for p, n in (("league-A2", "A2"), ("league-A3", "A3"))
    ),
    "a2-fig3": lambda: adaptive_set_fig3("A2", ("fig3-BRS-A1", EXP2 / "tuned-adaptive")),
    "a2-hu": lambda: adaptive_set_hu("A2", ("league-A1", "B+R+S adaptive A1")),
    "league-long-vs-equity": lambda: heads_up_paired(
        EXP2 / "league", [("league-long", "B+R+S adaptive", "equity")], ["random", "calling", "maniac"]
    ),
    "adaptive-t100-fig3": lambda: paired_runs(
        [
            (
                "fig3-BRS, the adaptive B+R+S at 100 trials",
                "fig3-BRS-adaptive-t100",
                EXP2 / "adaptive-t100",
                ref,
                folder,
            )
            for ref, folder in (("fig3-BRS", EXP / "figures"), ("fig3-BRS-adaptive", EXP / "adaptive-runs"))
        ],
        [0, 1],
    ),
    "adaptive-t100-hu": lambda: "\n\n".join(
        heads_up_across(EXP2 / "league", ("league-t100", "B+R+S adaptive (100 trials)"), ref, opponents, [0, 1])
        for ref, opponents in (
            (("league-long", "equity"), ["random", "calling", "maniac"]),
            (("league-long", "B+R+S adaptive"), ["equity", "random", "calling", "maniac"]),
        )
    ),
    "adaptive-calling-learning": lambda: learning_cost(
        EXP2 / "league", "league-t100", "B+R+S adaptive (100 trials)", "equity", "calling"
    ),
    "league-t100-pooled": lambda: league(EXP2 / "league", "league-t100", pooled_only=True),
    "brs1-figures": lambda: paired_runs(
        [
            ("fig3-BRS with BRS1", "fig3-BRS-BRS1", EXP2 / "figures", "fig3-BRS-S2", EXP2 / "figures"),
            ("fig3-BRS with BRS1", "fig3-BRS-BRS1", EXP2 / "figures", "fig3-BRS", EXP / "figures"),
        ],
        [0, 1],
    ),
    "brs1-generalisation": lambda: brs_generalisation("BRS1", "S2"),
    "brs1-hu-guard": lambda: brs_hu_guard("BRS1", "S2"),
    "aivat-floor": lambda: aivat_floor(EXP2 / "aivat-floor"),
    "brs2-figures": lambda: brs_figures("BRS2", ["BRS1", "S2"]),
    "brs2-generalisation": lambda: brs_generalisation("BRS2", "BRS1"),
    "brs2-hu-guard": lambda: brs_hu_guard("BRS2", "BRS1"),
    "brs3-validation": lambda: paired_runs(
        [
            (
                "fig3-BRS with BRS3",
                "fig3-BRS-BRS3",
                EXP2 / "preflop-strategy" / "validation",
                "fig3-BRS-BRS2",
                EXP2 / "preflop-strategy" / "validation",
            )
        ],
        [1062, 1063, 1064, 1065],
    ),
    "brs3-figures": lambda: brs_figures("BRS3", ["BRS2", "BRS1", "S2"]),
    "brs3-generalisation": lambda: brs_generalisation("BRS3", "BRS2"),
    "aivat-crn": lambda: aivat_crn(EXP2 / "aivat-floor" / "crn"),
    "sim-cost-s2": lambda: paired_runs(
        [
            ("S2, the paired cut-off", "fig3-S-S2-paired", EXP2 / "sim-cost", "fig3-S-S2", EXP2 / "sim-cost"),
        ],
        [1062, 1063, 1064, 1065],
    ),
    "sim-cost-s2-bar": lambda: paired_runs(
        [("fig3-S, S2 with the paired cut-off", "fig3-S-paired-bar", EXP2 / "bar", "fig3-S-bar", EXP2 / "bar")],
        [2401],
    ),
    "sim-cost-bar": lambda: paired_runs(
        [("fig3-BRS, BRS3 with the paired cut-off", "fig3-BRS-paired-bar", EXP2 / "bar", "fig3-BRS-bar", EXP2 / "bar")],
        [2402],
    ),
    "sim-cost": lambda: paired_runs(
        [
            (
                label,
                f"fig3-BRS-BRS3-{name}",
                EXP2 / "sim-cost",
                "fig3-BRS-BRS3",
                EXP2 / "preflop-strategy" / "validation",
            )
            for label, name in (
                ("BRS3, the paired cut-off", "paired"),
                ("BRS3, 200 trials", "T200"),
                ("BRS3, 100 trials", "T100"),
            )
        ],
        [1062, 1063, 1064, 1065],
    ),
    "bar-arithmetic": lambda: bar_arithmetic(
        [
            (
                "fig3-S",
                EXP2 / "bar" / "fig3-S-bar-2401",
                EXP2 / "aivat-floor" / "fig3-S-flop.json",
                EXP3 / "bar-arithmetic" / "sim-share-fig3-S.jsonl",
            ),
            (
                "fig3-BRS",
                EXP2 / "bar" / "fig3-BRS-bar-2402",
                EXP2 / "aivat-floor" / "fig3-BRS-flop.json",
                EXP3 / "bar-arithmetic" / "sim-share-fig3-BRS.jsonl",
            ),
        ]
    ),
}


def main() -> int:
    differ = []
    for doc in DOCS:
        text = doc.read_text()
        new = text
        for name, make in TABLES.items():
            pat = re.compile(rf"(<!-- table: {name} -->\n)(.*?)(<!-- end table -->)", re.S)
            if pat.search(new):
                body = make()

                def filled(m: re.Match[str], body: str = body) -> str:
                    return m.group(1) + body + "\n" + m.group(3)

                new = pat.sub(filled, new)
        if new != text:
            differ.append(doc)
            if "--check" not in sys.argv:
                doc.write_text(new)
    if "--check" in sys.argv and differ:
        names = ", ".join(str(d.relative_to(ROOT)) for d in differ)
        print(f"{names}: a table differs from the committed results; run scripts/experiments_tables.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
