"""CPU per decision of two player specs in one source tree, alternating rounds: heads-up and at a full table.

For each round and each spec (``--a``, default the default bot ``loki2:BRS:adaptive``; ``--b``, default the paper's
B+R+S ``loki2:BRS``) a fresh process plays, on loki's own table (:func:`loki.players.table.play_hand`, cards from one
seed, the seats fixed, the button moving):

* **heads-up**: ``--hands`` hands of the spec against ``--opponent`` (default ``equity``), after ``--warmup`` untimed
  hands of another seed;
* **full table**: ``--table-hands`` hands of fig3-BRS's field, 8 x ``loki1`` and 2 x the spec, after a few untimed
  hands;

and times in thread CPU every ``act``, ``observe``, ``begin_hand`` and ``end_hand`` call of the spec's seats: their
decisions and their opponent modelling, per decision.  The two specs alternate round by round (A B A B ...), so a
drift of the machine's speed falls on both; the ratio A/B of each round and their median are printed.

Then the same two settings with both specs timed **in one process**, so that both meet the same moments of the
machine (``--paired-rounds`` rounds each, default 2 x ``--rounds``; the ratio is the geometric mean of the rounds):

* **heads-up, paired**: A against the opponent and B against the opponent on two tables played hand by hand in turn,
  each on its own cards (the two seeds swapped every other round: with the same cards, the per-board work of the
  process's caches would be paid by whichever table met a board first);
* **full table, one seat each**: 8 x ``loki1``, A and B at one table, the two seats swapped every other round (the
  seats' cards differ, and with them the decisions; the per-board work the two share is paid by the one that meets
  it first, mostly the seat that observes first, so the two arrangements differ and their geometric mean is the
  figure).

Each in-process setting also prints how each spec's CPU per decision splits into deciding (its ``act`` calls) and
observing (``observe``, ``begin_hand`` and ``end_hand``: the opponent modelling between its decisions), medians of
the rounds.

On a shared machine these are the precise figures: at the full table the alternating processes' rounds ranged over
1.3-1.7 where the rounds of one seat arrangement in one process stayed within 2-3 % of each other.  With ``--base``
another source tree, each in-process round runs in the base tree and then in ``--tree``, and the two trees' ratios
are compared round by round::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_decision_cost.py --tree . --base ../base --rounds 0 \
        --paired-rounds 8 --hu-paired-rounds 4 --hands 600 --table-hands 400

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_decision_cost.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, sys, time
import numpy as np
from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_hand

spec, opp_spec, mode, hands, warmup, seed = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7])


class Timed:
    def __init__(self, inner):
        self.inner, self.name, self.cpu, self.decisions, self.deciding = inner, inner.name, 0.0, 0, 0.0

    def __getattr__(self, item):
        return getattr(self.inner, item)

    def _t(self, f, *a):
        t = time.thread_time()
        out = f(*a)
        self.cpu += time.thread_time() - t
        return out

    def begin_hand(self, *a):
        return self._t(self.inner.begin_hand, *a)

    def end_hand(self, view):
        return self._t(self.inner.end_hand, view)

    def observe(self, event):
        return self._t(self.inner.observe, event)

    def act(self, view, legal):
        self.decisions += 1
        t = time.thread_time()
        out = self._t(self.inner.act, view, legal)
        self.deciding += time.thread_time() - t
        return out


tables = []  # (game, players): played hand by hand in turn, each from its own generator of the same seed
if mode == "hu":
    timed = [Timed(make_player(spec, seed=1))]
    tables.append((GameConfig(n_players=2), [timed[0], make_player(opp_spec, seed=2)]))
elif mode in ("hu-pair", "hu-pair-swapped"):  # opp_spec "B,OPPONENT": A and B each heads-up against the opponent
    spec_b, opponent = opp_spec.split(",")
    timed = [Timed(make_player(spec, seed=1)), Timed(make_player(spec_b, seed=1))]
    tables += [(GameConfig(n_players=2), [t, make_player(opponent, seed=2)]) for t in timed]
elif mode in ("mixed", "mixed-swapped"):  # one seat of each spec (opp_spec: the other), the same machine moments
    timed = [Timed(make_player(spec, seed=10)), Timed(make_player(opp_spec, seed=11))]
    seats = [make_player("loki1", seed=i) for i in range(8)] + (timed if mode == "mixed" else timed[::-1])
    tables.append((GameConfig(n_players=10), seats))
else:
    timed = [Timed(make_player(spec, seed=10 + i)) for i in range(2)]
    tables.append((GameConfig(n_players=10), [make_player("loki1", seed=i) for i in range(8)] + timed))
for s, n in ((seed + 1, warmup), (seed, hands)):
    for t in timed:
        t.cpu, t.decisions, t.deciding = 0.0, 0, 0.0
    # each table its own cards (a board two tables shared would be valued once, by the one that met it first); with
    # two heads-up tables their seeds swap every other round
    shift = [0, 1] if mode == "hu-pair" else [1, 0] if mode == "hu-pair-swapped" else [0]
    rngs = [np.random.default_rng(s + 1000 * k) for k in shift]
    for h in range(n):
        for (game, players), rng in zip(tables, rngs):
            play_hand(game, players, h % game.n_players, rng)
print(json.dumps({"cpu": sum(t.cpu for t in timed), "decisions": sum(t.decisions for t in timed),
                  "per_seat": [t.cpu / max(t.decisions, 1) for t in timed],
                  "deciding": [t.deciding / max(t.decisions, 1) for t in timed]}))
"""


def _child(tree: Path, spec: str, opponent: str, mode: str, hands: int, warmup: int, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    args = [sys.executable, "-c", _CHILD, spec, opponent, mode, str(hands), str(warmup), str(seed)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def one(tree: Path, spec: str, opponent: str, mode: str, hands: int, warmup: int, seed: int) -> float:
    """CPU seconds per decision of ``spec`` in one fresh process (``mode`` "hu" or "table")."""
    d = _child(tree, spec, opponent, mode, hands, warmup, seed)
    return d["cpu"] / max(d["decisions"], 1)


def paired(
    tree: Path, a: str, b: str, mode: str, hands: int, warmup: int, seed: int
) -> tuple[float, float, tuple[float, float]]:
    """CPU seconds per decision of ``a`` and ``b`` timed in one process: ``mode`` "hu-pair" (``b`` given as
    ``"B,OPPONENT"``), "mixed" (the full table, A in seat 8 and B in seat 9) or "mixed-swapped"; and of those, the
    seconds per decision each spent deciding (``act``; the rest is observing: the opponent modelling, the new hands)."""
    d = _child(tree, a, b, mode, hands, warmup, seed)
    x, y = d["per_seat"]
    dx, dy = d["deciding"]
    return x, y, (dx, dy)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--a", default="loki2:BRS:adaptive")
    ap.add_argument("--b", default="loki2:BRS")
    ap.add_argument("--opponent", default="equity")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--table-hands", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--paired-rounds", type=int, default=None, help="rounds with one seat each (default 2 x rounds)")
    ap.add_argument(
        "--hu-paired-rounds", type=int, default=None, help="heads-up paired rounds (default: paired-rounds)"
    )
    ap.add_argument(
        "--base", type=Path, default=None, help="a base tree: its in-process rounds interleaved with --tree's"
    )
    a = ap.parse_args(argv)
    report: dict[str, dict] = {}
    for mode, hands in (("hu", a.hands), ("table", a.table_hands)):
        rows = []
        for r in range(a.rounds):
            x = one(a.tree, a.a, a.opponent, mode, hands, a.warmup, a.seed)
            y = one(a.tree, a.b, a.opponent, mode, hands, a.warmup, a.seed)
            rows.append((x, y, x / y))
            print(
                f"{mode} round {r + 1}: {a.a} {1e3 * x:.2f} ms, {a.b} {1e3 * y:.2f} ms, ratio {x / y:.2f}", flush=True
            )
        if not rows:
            continue
        ratios = [q for _, _, q in rows]
        report[mode] = {
            "a_ms": [1e3 * x for x, _, _ in rows],
            "b_ms": [1e3 * y for _, y, _ in rows],
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        print(
            f"{mode}: CPU per decision {a.a} / {a.b} = {statistics.median(ratios):.2f} (median of {a.rounds} rounds, "
            f"{min(ratios):.2f}-{max(ratios):.2f})"
        )
    n_table = 2 * a.rounds if a.paired_rounds is None else a.paired_rounds
    n_hu = n_table if a.hu_paired_rounds is None else a.hu_paired_rounds
    trees = [a.tree] if a.base is None else [a.base, a.tree]  # with a base, each round runs in the base first
    settings = {  # key: (title, rounds, round -> (mode, b, hands))
        "table_one_seat_each": ("table, one seat each", n_table,
                                lambda r: ("mixed-swapped" if r % 2 else "mixed", a.b, a.table_hands)),
        "hu_paired": ("heads-up, paired", n_hu,
                      lambda r: ("hu-pair-swapped" if r % 2 else "hu-pair", f"{a.b},{a.opponent}", a.hands)),
    }  # fmt: skip
    paired_rows: dict[tuple[str, Path], list[tuple[float, float, float]]] = {
        (k, t): [] for k in settings for t in trees
    }
    deciding: dict[tuple[str, Path], list[tuple[float, float]]] = {(k, t): [] for k in settings for t in trees}
    for r in range(max(n_table, n_hu)):
        for key, (title, n, how) in settings.items():
            if r >= n:
                continue
            mode, b, hands = how(r)
            for t in trees:
                x, y, dec = paired(t, a.a, b, mode, hands, a.warmup, a.seed)
                paired_rows[key, t].append((x, y, x / y))
                deciding[key, t].append(dec)
                print(f"{title}, round {r + 1}, {t}: {a.a} {1e3 * x:.2f} ms, {a.b} {1e3 * y:.2f} ms, ratio {x / y:.3f}")
    for (key, t), got in paired_rows.items():
        if not got:
            continue
        title = settings[key][0]
        ratios = [q for _, _, q in got]
        geo = math.exp(statistics.fmean(math.log(q) for q in ratios))
        a_ms, b_ms = [1e3 * x for x, _, _ in got], [1e3 * y for _, y, _ in got]
        a_dec, b_dec = [1e3 * x for x, _ in deciding[key, t]], [1e3 * y for _, y in deciding[key, t]]
        entry = {
            "a_ms": a_ms,
            "b_ms": b_ms,
            "a_deciding_ms": a_dec,
            "b_deciding_ms": b_dec,
            "ratio_geometric_mean": geo,
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        if t == a.tree:
            report[key] = entry
        else:
            report[f"{key}_base"] = entry
        print(
            f"{title}, {t}: CPU per decision {a.a} / {a.b} = {geo:.3f} (geometric mean of {len(got)} rounds, "
            f"{min(ratios):.3f}-{max(ratios):.3f})"
        )
        for name, total, part in ((a.a, a_ms, a_dec), (a.b, b_ms, b_dec)):
            d_ms, t_ms = statistics.median(part), statistics.median(total)
            print(f"    {name}: deciding {d_ms:.3f} ms, observing {t_ms - d_ms:.3f} ms per decision (medians)")
    if a.base is not None:
        for key, (title, _, _) in settings.items():
            pairs = list(zip(paired_rows[key, a.base], paired_rows[key, a.tree], strict=True))
            if pairs:
                change = [new[2] / old[2] for old, new in pairs]
                lower = sum(q < 1.0 for q in change)
                print(
                    f"{title}: the tree's ratio over the base's, round by round: median {statistics.median(change):.3f}"
                    f" ({min(change):.3f}-{max(change):.3f}), lower in {lower} of {len(change)} rounds"
                )
    print(json.dumps({"a": a.a, "b": a.b, "opponent": a.opponent, **report}))


if __name__ == "__main__":
    main()
