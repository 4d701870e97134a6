"""A prototype value function for AIVAT that knows which kind of player sits in each seat (an exploration).

``experiments/aivat-variance/scripts/aivat_floor.py`` shows where AIVAT's remaining variance comes from in Figure 3's fields: hardly from the
hole cards (the floor they set is below 0.1 of the plain variance) and mostly from the board, and the value functions
tried so far (``aivat_value_function.py``, ``aivat_binned.py``) are the same function for every seat.  At a node
where a Loki-2 seat and a Loki-1 seat are in the same spot they get the same correction, so the part of the
comparison that depends on which turn or river card comes (the enhanced player's edge is situational) is left in.

Here each live seat's value is ``v_p = pot · eq_p − committed_p + R[type_p][street][k][eq bin][HS bin]`` on the turn
and the river, where ``R`` is the mean of (final payoff − pot · eq + committed) at the starts of those streets for
players of that type (enhanced or control of the preset's first comparison), fitted on one seed and shrunk toward
the type-blind mean of its cell; pre-flop and on the flop it is the shipped linear function (so the expectation over
the flop stays exact).  The expectation over the next card (turn, river) is enumerated.  Every correction keeps
expectation zero whatever ``R`` is (fixed before the evaluation seed is played), so the estimate stays unbiased.

    python experiments/aivat-variance/scripts/aivat_typed.py --preset fig3-BRS --fit-seed 2301 --eval-seed 2302 --deals 400

Fit and evaluate on seeds >= 2000 (seeds 0 and 1 report results).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_binned import NE, NH, STREET, ebin, features, hbin, kbin, street_starts  # noqa: E402
from aivat_value_function import play  # noqa: E402

from loki.aivat import EquityOracle, PotEquityValue, hand_corrections, shipped_value_function  # noqa: E402
from loki.tournament.config import load_preset  # noqa: E402
from loki.tournament.stats import _groups, per_deal_sb  # noqa: E402

SHRINK = 20.0  # pseudo-count toward the type-blind cell mean


def enhanced_flags(cfg) -> list[bool]:
    """Per player index: whether it is of the first comparison's enhanced type."""
    enh = set(cfg.compare[0].enhanced)
    return [si.label in enh for si in cfg.seats]


def fit(cfg, data) -> tuple[np.ndarray, np.ndarray]:
    """``R[type, street, k bin, eq bin, HS bin]`` chips, the mean residual future net (shrunk toward the type-blind
    mean), and the type-blind table broadcast to the same shape."""
    flags = enhanced_flags(cfg)
    oracle = EquityOracle()
    shape = (2, 4, 3, NE, NH)
    tot, cnt = np.zeros(shape), np.zeros(shape)
    for _, hands in data:
        for st, _, row, _ in hands:
            n = st.n_players
            holes = tuple(st.hole_cards(i) for i in range(n))
            final = np.array(st.payoffs, float)
            for s, r in street_starts(st, 2):
                live = s.active
                k = s.num_active
                c = np.array(s.total_committed, float)
                eq, hs = features(live, s.board, holes, oracle)
                base = c.sum() * eq - c
                for p in range(n):
                    if live[p]:
                        idx = (int(flags[row[p]]), r, kbin(k), ebin(eq[p], r), hbin(hs[p]))
                        tot[idx] += final[p] - base[p]
                        cnt[idx] += 1
    blind = tot.sum(axis=0) / np.maximum(cnt.sum(axis=0), 1)
    return (tot + SHRINK * blind) / (cnt + SHRINK), np.broadcast_to(blind, tot.shape)


class TypedValue:
    """``v_p = pot · eq_p − committed_p + R[type_p, ...]`` on the turn and river; the shipped function before."""

    name = "typed"

    def __init__(self, R: np.ndarray):
        self.R = R
        self.early = shipped_value_function()
        self.types: list[int] = []

    def __call__(self, committed, live, board, holes, oracle):
        """The values ``(n,) float64`` (chips) of the node (:meth:`loki.aivat.PotEquityValue.__call__`'s arguments),
        with the seats' types from :attr:`types` (set before each hand)."""
        r = STREET[len(board)]
        if r <= 1:
            return self.early(committed, live, board, holes, oracle)
        c = np.asarray(committed, float)
        lv = np.asarray(live, bool)
        k = int(lv.sum())
        eq, hs = features(live, board, holes, oracle)
        v = c.sum() * eq - c
        if k < 2:
            return v
        for p in np.flatnonzero(lv):
            v[p] += self.R[self.types[p], r, kbin(k), ebin(eq[p], r), hbin(hs[p])]
        return v

    def expected_after_reveal(self, committed, live, board, n_cards, holes, oracle):
        """``E_c[v(h·c)]`` over the ``n_cards`` cards revealed next, ``(n,) float64`` chips: the shipped function's
        exact expectation up to the flop, an enumeration of every turn and/or river after it (two cards at once when
        an all-in runs the board out)."""
        if STREET[len(board) + n_cards] <= 1:
            return self.early.expected_after_reveal(committed, live, board, n_cards, holes, oracle)
        dead = set(board) | {x for h in holes for x in h}
        rest = [x for x in range(52) if x not in dead]
        return np.mean(
            [self(committed, live, (*board, *cs), holes, oracle) for cs in itertools.combinations(rest, n_cards)],
            axis=0,
        )


def ratios(cfg, data, candidates) -> None:
    """Print, for each ``(label, value function)``, the variance ratio AIVAT / plain of the preset's first comparison
    over :func:`aivat_value_function.play`'s ``data``, its AIVAT and plain means (sb/hand) and the estimator's CPU."""
    n, sb = cfg.n_players, cfg.game_config().small_bet
    flags = enhanced_flags(cfg)
    chips = np.array([[sum(st.payoffs[s] for st, _, row, _ in hands for s, p in enumerate(row) if p == q)
                       for q in range(n)] for _, hands in data], dtype=float)  # fmt: skip
    x = per_deal_sb(chips, n, sb)
    gx = _groups(cfg, x)[2][0]
    for label, vf in candidates:
        oracle = EquityOracle()
        corr = np.zeros((len(data), n))
        t0 = time.process_time()
        for di, (_, hands) in enumerate(data):
            for st, probs, row, _ in hands:
                if hasattr(vf, "types"):
                    vf.types = [int(flags[row[s]]) for s in range(n)]
                c = hand_corrections(st, probs, oracle, vf).total
                for s, p in enumerate(row):
                    corr[di, p] += c[s]
        gy = _groups(cfg, x + per_deal_sb(corr, n, sb))[2][0]
        print(
            f"  {label:<22} variance ratio {np.var(gy, ddof=1) / np.var(gx, ddof=1):.3f}   mean {gy.mean():+.4f} "
            f"(plain {gx.mean():+.4f})   {time.process_time() - t0:.0f} s CPU"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BRS")
    ap.add_argument("--fit-seed", type=int, default=2301)
    ap.add_argument("--eval-seed", type=int, default=2302)
    ap.add_argument("--deals", type=int, default=400)
    a = ap.parse_args()
    if min(a.fit_seed, a.eval_seed) < 2000 or a.fit_seed == a.eval_seed:
        ap.error("fit and evaluate on two different seeds >= 2000")
    fcfg = load_preset(a.preset).with_overrides(seed=a.fit_seed, histories=False)
    R, blind = fit(fcfg, list(play(fcfg, a.deals)))
    ecfg = load_preset(a.preset).with_overrides(seed=a.eval_seed, histories=False)
    data = list(play(ecfg, a.deals))
    print(f"{a.preset}: fitted on seed {a.fit_seed}, evaluated on seed {a.eval_seed}, {a.deals} deals each")
    ratios(
        ecfg,
        data,
        [
            ("pot-equity", PotEquityValue()),
            ("shipped v1", shipped_value_function()),
            ("residual, type-blind", TypedValue(blind)),
            ("residual, typed", TypedValue(R)),
        ],
    )


if __name__ == "__main__":
    main()
