"""Loki-1 benchmarks.

1. Decision time of a Loki-1 player at a 10-player Loki-1 table, *including* the re-weighting of all
   its opponents' tables after every observed action: each decision is charged the time of the
   ``observe`` calls since the player's previous decision plus the ``act`` call.
2. Win rate of one Loki-1 against 9 reference players (uniform-random and always-call, alternating)
   over N hands, in small bets per hand with a 95% confidence interval over hands.

    NUMBA_CACHE_DIR=.numba_cache taskset -c 1 python benchmarks/bench_loki1.py --hands 5000
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time

import numpy as np

from loki.engine import GameConfig
from loki.players.base import Player
from loki.players.loki import build_loki1
from loki.players.simple import CallingStation, RandomPlayer
from loki.players.table import play_hand


class TimedLoki1(Player):
    """A Loki-1 player whose observe/act calls are timed (the player is wrapped, not subclassed)."""

    def __init__(self, seed: int = 0):
        self.inner = build_loki1(seed=seed)
        self.name = self.inner.name
        self.pending = 0.0
        self.times_pre: list[float] = []
        self.times_post: list[float] = []

    def begin_hand(self, seat, config, hole_cards, button):
        self.inner.begin_hand(seat, config, hole_cards, button)

    def reseat(self, mapping):
        self.inner.reseat(mapping)

    def observe(self, event):
        t = time.perf_counter()
        self.inner.observe(event)
        self.pending += time.perf_counter() - t

    def act(self, view, legal):
        t = time.perf_counter()
        a = self.inner.act(view, legal)
        (self.times_pre if view.round == 0 else self.times_post).append(self.pending + time.perf_counter() - t)
        self.pending = 0.0
        return a


def decision_times(hands: int, seed: int) -> dict:
    cfg = GameConfig(n_players=10)
    players = [TimedLoki1(seed=seed + i) for i in range(10)]
    rng = np.random.default_rng(seed)
    for h in range(20):  # warm-up (compilation, caches)
        play_hand(cfg, players, h % 10, rng)
    for p in players:
        p.times_pre.clear()
        p.times_post.clear()
    t0 = time.perf_counter()
    for h in range(hands):
        play_hand(cfg, players, h % 10, rng)
    wall = time.perf_counter() - t0
    pre = np.concatenate([p.times_pre for p in players]) * 1e3
    post = np.concatenate([p.times_post for p in players]) * 1e3
    allt = np.concatenate([pre, post])
    return dict(
        hands=hands,
        hands_per_s=hands / wall,
        n_pre=len(pre),
        n_post=len(post),
        median_all=np.median(allt),
        median_pre=np.median(pre),
        median_post=np.median(post),
        p90_post=np.percentile(post, 90),
    )


def win_rate(hands: int, seed: int) -> dict:
    cfg = GameConfig(n_players=10)
    loki = build_loki1(seed=seed)
    others = [RandomPlayer(seed + i) if i % 2 else CallingStation() for i in range(1, 10)]
    players = [loki] + others
    rng = np.random.default_rng(seed)
    res = np.empty(hands)
    for h in range(hands):
        st = play_hand(cfg, players, h % 10, rng)
        res[h] = st.payoffs_sb[0]
    m, se = res.mean(), res.std(ddof=1) / np.sqrt(hands)
    return dict(hands=hands, sb_per_hand=m, ci95=1.96 * se)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--timing-hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    cpu = subprocess.run(
        ["bash", "-c", "lscpu | grep 'Model name' | cut -d: -f2"], capture_output=True, text=True
    ).stdout.strip()
    print(f"machine: {cpu}, {platform.python_version()}")
    d = decision_times(a.timing_hands, a.seed)
    print("decision time (ms, incl. re-weighting of all opponents since the previous decision):")
    for k, v in d.items():
        print(f"  {k}: {v:.3f}" if isinstance(v, float) else f"  {k}: {v}")
    w = win_rate(a.hands, a.seed)
    print(
        f"Loki-1 vs 5 uniform-random + 4 always-call over {w['hands']} hands: {w['sb_per_hand']:+.3f} ± {w['ci95']:.3f} sb/hand (95% CI)"
    )


if __name__ == "__main__":
    main()
