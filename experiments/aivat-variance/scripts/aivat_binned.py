"""A prototype value function for AIVAT fitted on separate seeds: expected future contributions by street,
live players, equity and hand strength (an exploration; the one shipped is built by aivat_value_function.py).

v_p = (pot + F) · eq_p − committed_p − F_p for each live p, where F_p is p's expected future contribution
(chips, a table fitted on training seeds by the street the node belongs to, k live players, p's equity bin
and p's hand strength against a random holding, HS_1 bin) and F = Σ F_p.  On the flop the table has no hand
features (F_p = G(k) / k) so that the expectation over the 4,960+ flops stays the martingale identity; on the
turn and river the expectation over the next card is enumerated.

    python experiments/aivat-variance/scripts/aivat_binned.py --preset fig3-BR --fit-seed 101 --eval-seed 102 --deals 300
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_value_function import evaluate, play  # noqa: E402

from loki.aivat import EquityOracle, PotEquityValue  # noqa: E402
from loki.assessment.strength import hand_strength_all  # noqa: E402
from loki.cards import HOLDING_INDEX  # noqa: E402
from loki.engine import new_hand  # noqa: E402
from loki.tournament.config import load_preset  # noqa: E402

STREET = {0: 0, 3: 1, 4: 2, 5: 3}
NH = 8  # HS bins
NE = 5  # equity bins
NO = 4  # bins of the strongest other live hand's HS


def kbin(k):
    return min(k, 4) - 2


def ebin(eq, street):
    if street == 3:
        return 0 if eq < 1e-9 else (4 if eq > 1 - 1e-9 else 2)
    return min(int(eq * NE), NE - 1)


def hbin(hs):
    return min(int(hs * NH), NH - 1)


def obin(hs, live, p):
    others = [hs[q] for q in range(len(hs)) if live[q] and q != p]
    return min(int(max(others) * NO), NO - 1)


_ONES = np.ones(1326)


def features(live, board, holes, oracle):
    eq = oracle.equities(holes, live, board)
    hs_all = hand_strength_all(list(board), _ONES, fill=0.5)
    hs = np.array([hs_all[HOLDING_INDEX[h[0], h[1]]] for h in holes])
    return eq, hs


class BinnedValue:
    name = "binned"

    def __init__(self, F, G, scale=1.0, F2=None):
        self.F = F  # (4, 3, NE, NH) chips, streets 2, 3 used
        self.G = G  # (11,) flop growth by k
        self.scale = scale
        self.F2 = F2  # (4, 3, NE, NH, NO) with the opponent feature, or None

    def __call__(self, committed, live, board, holes, oracle):
        c = np.asarray(committed, float)
        lv = np.asarray(live, bool)
        k = int(lv.sum())
        r = STREET[len(board)]
        eq = oracle.equities(holes, live, board)
        if k < 2:
            return c.sum() * eq - c
        if r <= 1:
            g = self.G[k] * self.scale if r == 1 else 0.0
            return np.where(lv, (c.sum() + g) * eq, 0.0) - c - np.where(lv, g / k, 0.0)
        _, hs = features(live, board, holes, oracle)
        f = np.zeros(len(c))
        for p in np.flatnonzero(lv):
            if self.F2 is not None:
                f[p] = self.F2[r, kbin(k), ebin(eq[p], r), hbin(hs[p]), obin(hs, lv, p)] * self.scale
            else:
                f[p] = self.F[r, kbin(k), ebin(eq[p], r), hbin(hs[p])] * self.scale
        return np.where(lv, (c.sum() + f.sum()) * eq, 0.0) - c - f

    def expected_after_reveal(self, committed, live, board, n_cards, holes, oracle):
        target = STREET[len(board) + n_cards]
        if target <= 1:
            c = np.asarray(committed, float)
            lv = np.asarray(live, bool)
            k = int(lv.sum())
            g = self.G[k] * self.scale if k > 1 else 0.0
            eq = oracle.equities(holes, live, board)
            return np.where(lv, (c.sum() + g) * eq, 0.0) - c - np.where(lv, g / max(k, 1), 0.0)
        assert n_cards == 1
        dead = set(board) | {x for h in holes for x in h}
        vals = [self(committed, live, (*board, x), holes, oracle) for x in range(52) if x not in dead]
        return np.mean(vals, axis=0)


def street_starts(st, first: int = 1):
    """Yield ``(state, street)`` at the start of each street from ``first`` (1 flop, 2 turn, 3 river) that a finished
    hand ``st`` reached with its hand still going, replayed on the engine from its history."""
    n = st.n_players
    holes = [st.hole_cards(i) for i in range(n)]
    s = new_hand(st.config, st.button, hole_cards=holes, board=list(st.full_board), record_events=False)
    acts = [a for a in st.history if a != "/"]
    seen = 0
    for i in range(len(acts) + 1):
        if not s.is_terminal and s.round != seen:
            seen = s.round
            if seen >= first:
                yield s, seen
        if i < len(acts):
            s.apply(acts[i])


def fit(data):
    """F[r, kb, eb, hb] = mean future contribution; G[k] = mean future pot growth at flop starts."""
    oracle = EquityOracle()
    tot = np.zeros((4, 3, NE, NH))
    cnt = np.zeros((4, 3, NE, NH))
    tot2 = np.zeros((4, 3, NE, NH, NO))
    cnt2 = np.zeros((4, 3, NE, NH, NO))
    gt = np.zeros(11)
    gc = np.zeros(11)
    for _, hands in data:
        for st, *_ in hands:
            n = st.n_players
            holes = tuple(st.hole_cards(i) for i in range(n))
            final = np.array(st.total_committed, float)
            for s, seen in street_starts(st, 1):
                live = s.active
                k = s.num_active
                cur = np.array(s.total_committed, float)
                if seen == 1:
                    gt[k] += (final - cur).sum()
                    gc[k] += 1
                else:
                    eq, hs = features(live, s.board, holes, oracle)
                    for p in range(n):
                        if live[p]:
                            idx = (seen, kbin(k), ebin(eq[p], seen), hbin(hs[p]))
                            tot[idx] += final[p] - cur[p]
                            cnt[idx] += 1
                            idx2 = (*idx, obin(hs, live, p))
                            tot2[idx2] += final[p] - cur[p]
                            cnt2[idx2] += 1
    # shrink thin cells toward the (street, k, equity-bin) mean
    F = np.zeros_like(tot)
    for r in (2, 3):
        for kb in range(3):
            for eb in range(NE):
                m = tot[r, kb, eb].sum() / max(cnt[r, kb, eb].sum(), 1)
                for hb in range(NH):
                    w = cnt[r, kb, eb, hb]
                    F[r, kb, eb, hb] = (tot[r, kb, eb, hb] + 20 * m) / (w + 20)
    F2 = np.zeros_like(tot2)
    for idx in np.ndindex(*tot.shape):
        for ob in range(NO):
            F2[(*idx, ob)] = (tot2[(*idx, ob)] + 20 * F[idx]) / (cnt2[(*idx, ob)] + 20)
    G = np.where(gc > 0, gt / np.maximum(gc, 1), 0.0)
    return F, G, cnt, F2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--fit-preset", default=None)
    ap.add_argument("--fit-seed", type=int, default=101)
    ap.add_argument("--eval-seed", type=int, default=102)
    ap.add_argument("--deals", type=int, default=300)
    args = ap.parse_args()
    assert args.fit_seed != 0 and args.eval_seed != 0
    fcfg = load_preset(args.fit_preset or args.preset).with_overrides(seed=args.fit_seed, histories=False)
    F, G, cnt, F2 = fit(list(play(fcfg, args.deals)))
    np.set_printoptions(precision=1, suppress=True, linewidth=150)
    print("G (flop, by k):", G[:6])
    for r in (2, 3):
        print("street", r, "k=2 F[eq bin][hs bin]:\n", F[r, 0], "\n counts", cnt[r, 0].sum(axis=1))
    ecfg = load_preset(args.preset).with_overrides(seed=args.eval_seed, histories=False)
    data = list(play(ecfg, args.deals))
    g_lin = np.zeros((4, 11))
    g_lin[1] = G
    evaluate(ecfg, data, [("pot-equity", PotEquityValue()), ("flop-growth", PotEquityValue(g_lin)),
                          ("binned", BinnedValue(F, G)), ("binned+opp", BinnedValue(F, G, F2=F2))])  # fmt: skip


if __name__ == "__main__":
    main()
