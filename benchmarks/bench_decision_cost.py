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

* **one seat each** (``--paired-rounds``, default 2 x ``--rounds``): the full table with one seat of each spec
  (8 x ``loki1``, A and B), both timed in the same process, so that both meet the same moments of the machine; the
  two seats are swapped every other round (the seats' cards differ, and with them the decisions), and the ratio is
  the geometric mean over the rounds.  On a shared machine this is the precise figure: the alternating processes'
  rounds ranged over 1.3-1.7 where the seat-paired rounds of one arrangement stayed within 2 % of each other.

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
        self.inner, self.name, self.cpu, self.decisions = inner, inner.name, 0.0, 0

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
        return self._t(self.inner.act, view, legal)


if mode == "hu":
    game = GameConfig(n_players=2)
    timed = [Timed(make_player(spec, seed=1))]
    players = [timed[0], make_player(opp_spec, seed=2)]
elif mode in ("mixed", "mixed-swapped"):  # one seat of each spec (opp_spec: the other), the same machine moments
    game = GameConfig(n_players=10)
    timed = [Timed(make_player(spec, seed=10)), Timed(make_player(opp_spec, seed=11))]
    players = [make_player("loki1", seed=i) for i in range(8)] + (timed if mode == "mixed" else timed[::-1])
else:
    game = GameConfig(n_players=10)
    timed = [Timed(make_player(spec, seed=10 + i)) for i in range(2)]
    players = [make_player("loki1", seed=i) for i in range(8)] + timed
for s, n in ((seed + 1, warmup), (seed, hands)):
    for t in timed:
        t.cpu, t.decisions = 0.0, 0
    rng = np.random.default_rng(s)
    for h in range(n):
        play_hand(game, players, h % game.n_players, rng)
print(json.dumps({"cpu": sum(t.cpu for t in timed), "decisions": sum(t.decisions for t in timed),
                  "per_seat": [t.cpu / max(t.decisions, 1) for t in timed]}))
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


def paired(tree: Path, a: str, b: str, swapped: bool, hands: int, warmup: int, seed: int) -> tuple[float, float]:
    """CPU seconds per decision of ``a`` and ``b``, one seat each at the full table in one process (seats 8 and 9,
    or 9 and 8 when ``swapped``)."""
    d = _child(tree, a, b, "mixed-swapped" if swapped else "mixed", hands, warmup, seed)
    x, y = d["per_seat"]
    return x, y


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
    rows = []
    for r in range(2 * a.rounds if a.paired_rounds is None else a.paired_rounds):
        x, y = paired(a.tree, a.a, a.b, r % 2 == 1, a.table_hands, a.warmup, a.seed)
        rows.append((x, y, x / y))
        print(f"one seat each, round {r + 1}: {a.a} {1e3 * x:.2f} ms, {a.b} {1e3 * y:.2f} ms, ratio {x / y:.3f}")
    if rows:
        ratios = [q for _, _, q in rows]
        geo = math.exp(statistics.fmean(math.log(q) for q in ratios))
        report["table_one_seat_each"] = {
            "a_ms": [1e3 * x for x, _, _ in rows],
            "b_ms": [1e3 * y for _, y, _ in rows],
            "ratio_geometric_mean": geo,
            "ratio_min": min(ratios),
            "ratio_max": max(ratios),
        }
        print(
            f"table, one seat each: CPU per decision {a.a} / {a.b} = {geo:.3f} (geometric mean of {len(rows)} "
            f"rounds, {min(ratios):.3f}-{max(ratios):.3f})"
        )
    print(json.dumps({"a": a.a, "b": a.b, "opponent": a.opponent, **report}))


if __name__ == "__main__":
    main()
