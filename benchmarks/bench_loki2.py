"""Benchmarks of Loki-2: Simulator decisions, obvious-move cut-offs, triple re-weighting.

Run on one core (other work shares the machine)::

    NUMBA_CACHE_DIR=.numba_cache taskset -c 1 /work/venv/bin/python benchmarks/bench_loki2.py

Spots: random flop decisions at a 10-player table with 4 live opponents (5 players in the hand),
our seat at a random position among them, a random earlier action (nobody bet / one bet to us),
opponent weight tables shaped like Loki-1 pre-flop tables (IR7 μ/σ ramp with a random μ).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import statistics
import time

import numpy as np

from loki.cards import HOLDING_MASKS, N_HOLDINGS, cards_mask
from loki.engine import Action
from loki.modeler import (
    DEFAULT_FREQUENCIES,
    OpponentModel,
    SpecificModelConfig,
    loki1_reweight,
    preflop_hand_values,
    triple_reweight,
)
from loki.simulator import PlayoutBeliefs, SimConfig, SimSpot, simulate
from loki.triples import TripleConfig, board_values, opponent_triples
from loki.triples.spot import BettingSpot


def believed(spot: SimSpot) -> SimSpot:
    """The same spot with beliefs for the believed play-out: every opponent played by the opponent-specific mixture
    with the prior weights, Table B.2 frequencies and the prior check-raise propensity."""
    m = len(spot.active)
    row = np.array([float(x) for x in TripleConfig().params()])
    cfg = SpecificModelConfig()
    mix = np.zeros((m, 3))
    mix[:, 0] = 1.0
    for i in range(m):
        if spot.active[i] and i != spot.me:
            mix[i] = cfg.prior
    freqs = np.zeros((m, 4, 3, 3))
    freqs[:, :, :, :] = DEFAULT_FREQUENCIES
    beliefs = PlayoutBeliefs(
        np.tile(row, (m, 1)), mix, freqs, np.full(m, cfg.check_raise_prior), np.full(m, cfg.softness),
        np.zeros(m, dtype=bool), np.zeros(m, dtype=bool), int(np.sum(spot.acted)),
    )  # fmt: skip
    return dataclasses.replace(spot, beliefs=beliefs)


def random_flop_spot(rng: np.random.Generator) -> SimSpot:
    m = 10
    cards = rng.choice(52, 5, replace=False)
    hole, board = tuple(int(c) for c in cards[:2]), tuple(int(c) for c in cards[2:])
    seats = np.sort(rng.choice(m, 5, replace=False))
    me_i = int(rng.integers(5))
    me = int(seats[me_i])
    active = np.zeros(m, bool)
    active[seats] = True
    values, sorted_values = preflop_hand_values()
    w = np.ones((m, N_HOLDINGS))
    for s in seats:
        if s == me:
            continue
        model = OpponentModel()
        f = float(rng.uniform(0.2, 0.7))
        loki1_reweight(model, values, Action.CALL, np.array([f, 1 - f - 0.1, 0.1]), sorted_values)
        w[s] = model.weights
    rb = np.zeros(m)
    acted = np.zeros(m, bool)
    vol = np.zeros(m, bool)
    bets = 0
    pot = 50.0 + 10.0 * int(rng.integers(0, 4))
    before = [int(s) for s in seats[:me_i]]
    if before and rng.random() < 0.6:  # someone before us bet, the others in between called
        b = before[int(rng.integers(len(before)))]
        bets = 1
        for s in before:
            acted[s] = True
            if s >= b:
                rb[s] = 10.0
                vol[s] = True
                pot += 10.0
    else:
        acted[before] = True
    return SimSpot((hole[0], hole[1]), board, me, active, rb, acted, vol, w, pot, bets, 4, (10.0, 10.0, 20.0, 20.0))


def bench_decisions(n: int, cfg: SimConfig, seed: int) -> tuple[list[float], list]:
    """CPU seconds (process time) of ``n`` decisions on random 5-player flop spots, and their results."""
    rng = np.random.default_rng(seed)
    spots = [random_flop_spot(rng) for _ in range(n)]
    if cfg.play_outs == "believed":
        spots = [believed(sp) for sp in spots]
    for sp in spots:  # per-board values are cached per board: warm them (a real player has them already)
        board_values(sp.board)
    simulate(spots[0], cfg, seed=0)  # JIT warm-up
    times, results = [], []
    for i, sp in enumerate(spots):
        t = time.process_time()
        results.append(simulate(sp, cfg, seed=i))
        times.append(time.process_time() - t)
    return times, results


def bench_reweight(n: int, seed: int) -> tuple[list[float], list[float]]:
    rng = np.random.default_rng(seed)
    warm, cold = [], []
    for i in range(n):
        cards = rng.choice(52, 5, replace=False)
        hole, board = [int(c) for c in cards[:2]], [int(c) for c in cards[2:]]
        spot = BettingSpot(street=1, pot=60.0, to_call=10.0, bet_size=10.0, bets_this_round=1, next_bet_size=20.0)
        live = (HOLDING_MASKS & np.uint64(cards_mask(hole + board))) == 0
        m = OpponentModel()
        t = time.perf_counter()
        triple_reweight(m, opponent_triples(board, spot, 3), Action.CALL, live)  # first action on a new board
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        triple_reweight(m, opponent_triples(board, spot, 3), Action.RAISE, live)  # board values cached
        warm.append(time.perf_counter() - t)
    return warm, cold


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timing", type=int, default=100, help="decisions timed per variant (no cut-off)")
    ap.add_argument("--decisions", type=int, default=1000, help="decisions per cut-off rule")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}")
    for label, cfg in [
        ("500 trials, PT play-out, no cut-off", SimConfig(trials=500, cutoff="none")),
        ("500 trials, always-call, no cut-off", SimConfig(trials=500, cutoff="none", always_call=True)),
        ("500 trials, believed play-out, no cut-off", SimConfig(trials=500, cutoff="none", play_outs="believed")),
    ]:
        ts, _ = bench_decisions(a.timing, cfg, a.seed)
        print(
            f"{label}: median {1e3 * statistics.median(ts):.1f} ms, mean {1e3 * statistics.mean(ts):.1f} ms "
            f"over {len(ts)} flop decisions"
        )
    for rule in ("paper", "paired"):
        for always in (False, True):
            cfg = SimConfig(trials=500, cutoff=rule, always_call=always)
            ts, rs = bench_decisions(a.decisions, cfg, a.seed + 1)
            frac = np.mean([r.cutoff for r in rs])
            mt = np.mean([r.trials for r in rs])
            print(
                f"cut-off {rule:6s} {'always-call' if always else 'PT play-out'}: {100 * frac:.1f}% of "
                f"{len(rs)} decisions cut off, mean trials {mt:.0f}, median {1e3 * statistics.median(ts):.1f} ms"
            )
    warm, cold = bench_reweight(500, a.seed)
    print(
        f"triple re-weighting of one table: median {1e3 * statistics.median(warm):.3f} ms (board values cached), "
        f"{1e3 * statistics.median(cold):.2f} ms on the first action on a new board (board values computed)"
    )


if __name__ == "__main__":
    main()
