"""Is the AIVAT estimate unbiased?  AIVAT − plain over many seeds, expected 0.

Plays ``--deals`` deals of a preset (or a ``--config`` file) on each of ``--seeds`` (evaluation seeds: the shipped
value function was fitted on seeds ≥ 2000) exactly as the tournament runner does
(:func:`aivat_value_function.play`), computes each deal's AIVAT correction of every comparison with the named
estimator (:func:`loki.aivat.named_estimator`, default ``aivat``: the shipped value function, the players' own
action values as baselines) and prints, per seed, the mean correction (sb/hand) with its standard error and z, then
the pooled mean with its 95 % interval and the χ² of the per-seed z's (20 seeds: 95 % of unbiased runs below 31.4)::

    python experiments/aivat-variance/scripts/aivat_unbiased.py --preset fig3-BR --seeds 1-20 --deals 40
    python experiments/aivat-variance/scripts/aivat_unbiased.py --config experiments/aivat-variance/configs/fig3-BRS-softmax.toml --seeds 1-20 --deals 20

Within a deal the corrections of the replays are summed, the deal is the unit (as in ``summary.json``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_value_function import play  # noqa: E402

from loki.aivat import EquityOracle, hand_corrections, named_estimator  # noqa: E402
from loki.tournament.config import load_config, load_preset  # noqa: E402
from loki.tournament.stats import _groups, per_deal_sb  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--config")
    ap.add_argument("--seeds", default="1-20", help="a range a-b (inclusive)")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--estimator", default="aivat")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.seeds.split("-"))
    est = named_estimator(a.estimator)
    zs, all_corr = [], []
    t0 = time.process_time()
    for seed in range(lo, hi + 1):
        base = load_config(a.config) if a.config else load_preset(a.preset)
        cfg = base.with_overrides(seed=seed, histories=False)
        n, sb = cfg.n_players, cfg.game_config().small_bet
        oracle = EquityOracle()
        corr = np.zeros((0, n))
        rows = []
        for _, hands in play(cfg, a.deals):
            c = np.zeros(n)
            for st, probs, row, values in hands:
                t = hand_corrections(st, probs, oracle, est.value, values if est.action_baselines else None).total
                for s, p in enumerate(row):
                    c[p] += t[s]
            rows.append(c)
        corr = np.array(rows)
        y = _groups(cfg, per_deal_sb(corr, n, sb))[2][0]  # the first comparison's per-deal correction, sb/hand
        m, se = float(np.mean(y)), float(np.std(y, ddof=1) / math.sqrt(len(y)))
        z = m / se if se > 0 else 0.0
        zs.append(z)
        all_corr.append(y)
        print(f"seed {seed}: mean correction {m:+.4f} sb/hand, se {se:.4f}, z {z:+.2f}", flush=True)
    y = np.concatenate(all_corr)
    m, se = float(np.mean(y)), float(np.std(y, ddof=1) / math.sqrt(len(y)))
    chi2 = float(np.sum(np.square(zs)))
    print(
        f"{a.config or a.preset}, estimator {a.estimator}, {len(zs)} seeds x {a.deals} deals: pooled mean correction "
        f"{m:+.4f} ± {1.96 * se:.4f} sb/hand (95 %), z {m / se:+.2f}; chi2 of the per-seed z's {chi2:.1f} on "
        f"{len(zs)} df; {time.process_time() - t0:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
