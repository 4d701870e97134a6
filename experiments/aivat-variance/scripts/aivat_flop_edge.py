"""Can the flop-decided part of a Figure 3 comparison be predicted from the flop?  (a diagnosis)

``aivat_floor.py --split flop`` measures how much of the comparison's variance the hole cards and the flop decide, a
floor for every value function that does not know which kind of player holds a seat.  A value function that does
know it could lower that floor only as far as it predicts the enhanced player's edge from the state at the flop.
This script tries the simplest such predictor: per deal, over the ten seatings, the seats that see the flop by
equity bin (five bins of the exact equity among the live hands), the enhanced seats counted +1/2 each and the
control seats −1/8 each (the comparison's weights), alone and times the pot, plus the live count and the pot.  It is
fitted by least squares on a random half of the deals to the mean of the two plays' AIVAT comparisons of a committed
``--split flop`` run, and its covariance with each play's comparison is measured on the other half (200 random
halves, averaged), as a share of the plain variance: the part of the floor it explains out of sample.

    python experiments/aivat-variance/scripts/aivat_flop_edge.py --seed 2202 --floor experiments/aivat-variance/floor/fig3-BRS-flop-second-set.json

The seed and deals must be those of the floor run (its first play is replayed here to read the flop states).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_binned import street_starts  # noqa: E402
from aivat_value_function import play  # noqa: E402

from loki.aivat import EquityOracle  # noqa: E402
from loki.tournament.config import load_preset  # noqa: E402

BINS = 5


def flop_features(cfg, deals: int) -> np.ndarray:
    """``(deals, 2 * BINS + 3) float64``: per deal, the flop states' features described in the module docstring."""
    enhanced = set(cfg.compare[0].enhanced)
    flags = [si.label in enhanced for si in cfg.seats]
    oracle = EquityOracle()
    rows = []
    for _, hands in play(cfg, deals):
        f = np.zeros(2 * BINS + 3)
        f[-1] = 1.0
        for st, _, row, _ in hands:
            holes = tuple(st.hole_cards(i) for i in range(st.n_players))
            for s, _street in street_starts(st, 1):
                eq = oracle.equities(holes, s.active, s.board)
                pot = sum(s.total_committed)
                for seat in np.flatnonzero(s.active):
                    b = min(int(eq[seat] * BINS), BINS - 1)
                    w = 0.5 if flags[row[seat]] else -0.125
                    f[b] += w
                    f[BINS + b] += w * pot / 10
                f[2 * BINS] += s.num_active
                f[2 * BINS + 1] += pot / 10
                break  # the flop only
        rows.append(f)
    return np.array(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BRS")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--floor", required=True, help="the --out JSON of an aivat_floor.py --split flop run")
    a = ap.parse_args()
    rec = json.loads(Path(a.floor).read_text())
    if rec["split"] != "flop" or rec["seed"] != a.seed or rec["preset"] != a.preset:
        ap.error(f"{a.floor}: expected a --split flop run of {a.preset} on seed {a.seed}")
    series = next(iter(rec["comparisons"].values()))["series"]
    x1, x2, y1, y2 = (np.array(series[k]) for k in ("x1", "x2", "y1", "y2"))
    cfg = load_preset(a.preset).with_overrides(seed=a.seed, histories=False)
    F = flop_features(cfg, rec["deals"])
    vx = 0.5 * (x1.var(ddof=1) + x2.var(ddof=1))
    rng = np.random.default_rng(0)
    out = []
    for _ in range(200):
        idx = rng.permutation(len(F))
        fit, test = idx[: len(F) // 2], idx[len(F) // 2 :]
        beta = np.linalg.lstsq(F[fit], (y1[fit] + y2[fit]) / 2, rcond=None)[0]
        g = F[test] @ beta
        out.append([np.cov(g, y1[test])[0, 1] / vx, np.cov(g, y2[test])[0, 1] / vx, g.var(ddof=1) / vx])
    m = np.mean(out, axis=0)
    print(f"{a.preset} seed {a.seed}, {len(F)} deals ({a.floor}):")
    print(f"  flop-decided share of the plain variance (AIVAT estimate): {np.cov(y1, y2)[0, 1] / vx:.3f}")
    print(
        f"  explained out of sample by the flop features: Cov(g, Y1) {m[0]:.3f}, Cov(g, Y2) {m[1]:.3f} (Var(g) {m[2]:.3f})"
    )


if __name__ == "__main__":
    main()
