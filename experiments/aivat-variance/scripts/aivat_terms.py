"""How much of AIVAT's gain comes from its chance and from its action corrections (a diagnosis).

Plays ``--deals`` deals of a preset as the tournament runner does (``aivat_value_function.play``), then prints the
variance ratio AIVAT / plain of the first comparison with the chance corrections only, the action corrections only
and both (the shipped value function), and how many decisions reported a distribution and how many of those were
randomised (not one-hot: the only ones whose action correction is not 0).

    python experiments/aivat-variance/scripts/aivat_terms.py --preset fig3-BR --seed 2204 --deals 500

Use seeds >= 2000 (seeds 0 and 1 report results).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_value_function import play  # noqa: E402

from loki.aivat import EquityOracle, hand_corrections, shipped_value_function  # noqa: E402
from loki.tournament.config import load_preset  # noqa: E402
from loki.tournament.stats import _groups, per_deal_sb  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--deals", type=int, default=500)
    a = ap.parse_args()
    cfg = load_preset(a.preset).with_overrides(seed=a.seed, histories=False)
    n, sb = cfg.n_players, cfg.game_config().small_bet
    vf, oracle = shipped_value_function(), EquityOracle()
    data = list(play(cfg, a.deals))
    chips, chance, action = (np.zeros((len(data), n)) for _ in range(3))
    reported = randomised = 0
    for di, (_, hands) in enumerate(data):
        for st, probs, row, _ in hands:
            c = hand_corrections(st, probs, oracle, vf)
            reported += sum(p is not None for p in probs)
            randomised += sum(p is not None and max(p) < 1 - 1e-12 for p in probs)
            for s, q in enumerate(row):
                chips[di, q] += st.payoffs[s]
                chance[di, q] += c.chance[s]
                action[di, q] += c.action[s]

    def series(x: np.ndarray) -> np.ndarray:
        return _groups(cfg, per_deal_sb(x, n, sb))[2][0]

    vx = series(chips).var(ddof=1)
    print(f"{a.preset} seed {a.seed}, {len(data)} deals, {cfg.compare[0].name}:")
    for label, y in (
        ("chance only", chips + chance),
        ("action only", chips + action),
        ("both", chips + chance + action),
    ):
        print(f"  variance ratio, {label:<12} {series(y).var(ddof=1) / vx:.3f}")
    print(f"  decisions with a reported distribution: {reported}, randomised: {randomised}")


if __name__ == "__main__":
    main()
