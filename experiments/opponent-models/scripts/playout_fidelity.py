"""How much the believed play-out's approximations cost: a slow exact path against the kernel's
values on the same sampled worlds, on decisions recorded from real games.

The believed play-out (``SimConfig(play_outs="believed")``) rates every simulated player's hand against the field
of the other players' weight tables.  On the decision street it is exact (HS_1, PPot1, NPot1 of every holding
against the field).  On later streets the kernel counts HS_1 against the field exactly on the sampled board, but
takes the potential from the outs heuristic (``ppot_outs``) and NPot = 0.  The fields do not follow the actions
taken inside the play-out (shared by both paths here; not measured).

This script records Simulator decisions from a 6-handed session (a Loki-2 B+R+S with opponent-specific models and
believed play-outs against Loki-1 and Loki-2 opponents), samples N worlds per decision (opponent holdings from the
weight tables, the rest of the board, the players' uniforms), and plays every world out twice (call, raise) with
the play-out's own action models, once with the kernel's later-street values and once with exact HS_1, PPot1 and
NPot1 against the field (``loki.assessment.assess``).  Reported: how often the two paths choose the same action
(the highest EV, EV(fold) = 0), and the EV differences in small bets.

    NUMBA_CACHE_DIR=.numba_cache python experiments/opponent-models/scripts/playout_fidelity.py --decisions 40 --worlds 150
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from loki import betting as bt
from loki.assessment import assess
from loki.assessment.outs import ppot_outs
from loki.cards import HOLDING_CARDS, HOLDING_INDEX, HOLDING_MASKS, cards_mask
from loki.engine import GameConfig
from loki.evaluator import kernel_tables
from loki.modeler.kernels import freq_triple
from loki.players.registry import make_player
from loki.players.table import play_session
from loki.simulator.driver import _believed_values, _mixed_row, _rank_rows, decide_from_evs, spot_state
from loki.triples import board_values
from loki.triples.rule_chain import TripleParams, bets_to_call_bucket, pt_kernel

BELIEVED = {"kind": "loki2", "features": "BRS", "opponent_model": "specific", "sim": {"play_outs": "believed"}}


def record_spots(n: int, seed: int) -> list:
    """SimSpots of the Simulator's decisions in a 6-handed session, until ``n`` are recorded."""
    me = make_player(BELIEVED, seed=seed)
    spots: list = []
    sim = me.postflop  # type: ignore[attr-defined]  # a LokiPlayer (BELIEVED), not any Player
    original = sim.sim_spot

    def keep(sit):
        sp = original(sit)
        spots.append(sp)
        return sp

    sim.sim_spot = keep
    others = ["loki1", "loki2:BR", "loki1:LA", "loki2:BR:TC", "loki1:TC"]
    players = [me] + [make_player(o, seed=seed + 1 + i) for i, o in enumerate(others)]
    hands = 0
    while len(spots) < n:
        play_session(GameConfig(n_players=6), players, 20, seed=seed + hands)
        hands += 20
    return spots[:n]


def _row(pa, p):
    return TripleParams(  # the 11 columns of a parameter row, as the kernel's _row_params reads them
        pa[p, 0], pa[p, 1], pa[p, 2], pa[p, 3], pa[p, 4] > 0.5, pa[p, 5], pa[p, 6], pa[p, 7], pa[p, 8], pa[p, 9], pa[p, 10]
    )  # fmt: skip


def play_world(spot, st0, forced, hs1, pp, nn, q, u, ranks):
    """One play-out of a world in Python, with the kernel's action models (see :func:`loki.simulator.playout.playout`)."""
    b = spot.beliefs
    m = len(spot.active)
    st = st0.copy()
    bet_sizes = np.asarray(spot.bet_sizes, dtype=np.float64)
    k_used = [0] * m
    first = True
    while st[bt.CUR] >= 0:
        p = int(st[bt.CUR])
        s = int(st[bt.ROUND])
        if first:
            a, first = forced, False
        else:
            n_opp = int(st[bt.N_IN]) - 1
            hs_n = hs1[p, s] ** n_opp if n_opp > 0 else 1.0
            e = hs_n + (1.0 - hs_n) * pp[p, s]
            eh = hs_n * (1.0 - nn[p, s]) + (1.0 - hs_n) * pp[p, s]
            to_call = float(st[bt.MAX_BET] - st[bt.BET + p])
            bs = bet_sizes[s]
            f, c, r = pt_kernel(
                e, eh, hs_n, pp[p, s], s, float(st[bt.POT]), to_call, bs, int(st[bt.BETS]),
                st[bt.VOLUNTARY + p] != 0, bool(bt.can_raise(st, p)), bet_sizes[s + 1] if s < 3 else 0.0,
                _row(b.params, p), False, False,
            )  # fmt: skip
            x = u[p, min(k_used[p], u.shape[1] - 1)]
            k_used[p] += 1
            if not (b.mix[p, 0] == 1.0 and b.mix[p, 1] == 0.0 and b.mix[p, 2] == 0.0):
                facing = to_call > 1e-9
                bucket = bets_to_call_bucket(to_call / bs)
                F = b.freqs[p, s, bucket]
                mf, mc, mr = freq_triple(q[p, s], F[0], F[2], facing, b.softness[p], b.rho[p])
                f = b.mix[p, 0] * f + b.mix[p, 1] * mf + b.mix[p, 2] * F[0]
                c = b.mix[p, 0] * c + b.mix[p, 1] * mc + b.mix[p, 2] * F[1]
            a = 0 if x < f else (1 if x < f + c else 2)
        a = int(bt.legalise(st, a))
        bt.apply_action(st, a)
    pots = np.zeros((bt.NMAX, 3), dtype=np.int64)
    shares = np.zeros((bt.NMAX, m))
    win = np.zeros(m)
    k = bt.award(st, ranks, pots, shares, win)
    invest = float(st[bt.TOTAL + spot.me] - st0[bt.TOTAL + spot.me])
    return (win[spot.me] - invest) if any((pots[j, 2] >> spot.me) & 1 for j in range(k)) else -invest


def compare(spot, worlds: int, rng) -> tuple[float, float, float, float]:
    """``(EV_call, EV_raise)`` of the kernel's values and of the exact values on the same ``worlds`` worlds."""
    m = len(spot.active)
    street = len(spot.board) - 2
    st0 = spot_state(spot)
    w = np.asarray(spot.weights, dtype=np.float64)
    rank_w = _rank_rows(w, spot.beliefs.deck)  # the ranges the frequency expert ranks in
    field_w, hs_now, q_now = _believed_values(spot, w, rank_w)
    _, pp_now, nn_now = board_values(spot.board)
    tables = kernel_tables()
    out = np.zeros((2, 2, worlds))
    for t in range(worlds):
        used = set(spot.hole) | set(spot.board)
        hole = np.zeros((m, 2), dtype=np.int64)
        hole[spot.me] = spot.hole
        for p in range(m):
            if p == spot.me or not spot.active[p]:
                continue
            ww = np.where((HOLDING_MASKS & np.uint64(cards_mask(sorted(used)))) == 0, w[p], 0.0)
            h = int(rng.choice(1326, p=ww / ww.sum()))
            hole[p] = HOLDING_CARDS[h]
            used |= {int(HOLDING_CARDS[h, 0]), int(HOLDING_CARDS[h, 1])}
        rest = [c for c in range(52) if c not in used]
        board = list(spot.board) + [int(c) for c in rng.choice(rest, 5 - len(spot.board), replace=False)]
        u = rng.random((m, 12))
        ranks = np.zeros(m, dtype=np.int64)
        for p in range(m):
            if spot.active[p]:
                ranks[p] = _rank(hole[p], board, tables)
        values = {}
        for exact in (False, True):
            hs1, pp, nn, q = np.zeros((m, 4)), np.zeros((m, 4)), np.zeros((m, 4)), np.full((m, 4), 0.5)
            for p in range(m):
                if not spot.active[p]:
                    continue
                h = int(HOLDING_INDEX[hole[p, 0], hole[p, 1]])
                hs1[p, street], pp[p, street], nn[p, street], q[p, street] = (
                    hs_now[p, h],
                    pp_now[h],
                    nn_now[h],
                    q_now[p, h],
                )
                for s in range(street + 1, 4):
                    bd = board[: s + 2]
                    a = assess(tuple(hole[p]), bd, field_w[p], n_opponents=1)
                    hs1[p, s] = a.hs
                    q[p, s] = (
                        assess(tuple(hole[p]), bd, rank_w[p], n_opponents=1).hs
                        if _mixed_row(spot.beliefs.mix[p])
                        else 0.5
                    )
                    if exact:
                        pp[p, s], nn[p, s] = a.ppot, a.npot
                    else:
                        pp[p, s] = ppot_outs(int(hole[p, 0]), int(hole[p, 1]), np.array(board), s + 2, tables)
            values[exact] = (hs1, pp, nn, q)
        for j, exact in enumerate((False, True)):
            hs1, pp, nn, q = values[exact]
            for i, forced in enumerate((bt.CALL_A, bt.RAISE_A)):
                out[j, i, t] = play_world(spot, st0, forced, hs1, pp, nn, q, u, ranks)
    means = out.mean(axis=2)
    return means[0, 0], means[0, 1], means[1, 0], means[1, 1]


def _rank(hole, board, tables):
    from loki.evaluator.kernels import rank7

    return int(rank7(int(hole[0]), int(hole[1]), *[int(c) for c in board], tables))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args()
    spots = [sp for sp in record_spots(a.decisions * 3, a.seed) if len(sp.board) < 5][: a.decisions]
    rng = np.random.default_rng(a.seed)
    agree = 0
    dc, dr = [], []
    for sp in spots:
        kc, kr, ec, er = compare(sp, a.worlds, rng)
        to_call = float(bt.to_call(spot_state(sp), sp.me))
        can = bool(bt.can_raise(spot_state(sp), sp.me))
        agree += decide_from_evs(kc, kr, to_call, can) == decide_from_evs(ec, er, to_call, can)
        sb = sp.bet_sizes[1]
        dc.append((kc - ec) / sb)
        dr.append((kr - er) / sb)
    n = len(spots)
    print(f"{n} recorded flop/turn decisions, {a.worlds} worlds each (seed {a.seed})")
    print(f"same action (kernel values vs exact values on the same worlds): {agree}/{n} = {100 * agree / n:.0f} %")
    for name, d in (("EV(call)", dc), ("EV(raise)", dr)):
        print(
            f"{name} kernel - exact: mean {statistics.mean(d):+.3f} sb, mean |diff| "
            f"{statistics.mean(abs(x) for x in d):.3f} sb, max |diff| {max(abs(x) for x in d):.3f} sb"
        )


if __name__ == "__main__":
    main()
