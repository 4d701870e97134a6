"""Measure the pre-flop participation (VPIP) of 10-handed Loki-1 self-play per tightness.

VPIP = fraction of (player, hand) in which the player voluntarily put chips in pre-flop (a call or a
raise; posting a blind and the big blind's free check do not count), counted by :mod:`loki.handstats`.
Only the pre-flop strategy decides it, so post-flop the players just check/call here (fast).  Used to calibrate
``loki.preflop.MAKE1_CALIBRATION`` (targets PAPP98 §6.1: tight 18 %, moderate 21 %, loose 24 %).

    python scripts/calibrate_preflop.py --hands 20000 [--shift-tight X --shift-moderate Y --shift-loose Z]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from loki.engine import Action, GameConfig
from loki.handstats import hand_counts
from loki.modeler import Loki1Modeler
from loki.players.loki import STYLES, Loki1Config, LokiPlayer
from loki.preflop import PreflopPolicy, PreflopThresholds
from loki.table import play_hand


@dataclass
class CheckCall:
    """Post-flop part of the calibration players: always check/call (pre-flop alone decides VPIP)."""

    action: Action = Action.CALL

    def begin_hand(self) -> None:
        pass

    def decide(self, sit) -> CheckCall:
        return self


def measure(config: Loki1Config, hands: int, seed: int, thresholds: PreflopThresholds | None = None) -> float:
    cfg = GameConfig(n_players=10)
    players = [
        LokiPlayer(
            PreflopPolicy(config.tightness, config.preflop_shift, thresholds),
            CheckCall(),
            Loki1Modeler(config.modelling == "specific"),
        )
        for _ in range(10)
    ]
    rng = np.random.default_rng(seed)
    count = 0
    for h in range(hands):
        st = play_hand(cfg, players, h % 10, rng)
        count += sum(c.vpip for c in hand_counts(st))
    return count / (10 * hands)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shift-tight", type=float, default=None)
    ap.add_argument("--shift-moderate", type=float, default=None)
    ap.add_argument("--shift-loose", type=float, default=None)
    ap.add_argument("--styles", action="store_true", help="also measure the TC/TA/LC/LA style presets")
    a = ap.parse_args()
    cal = None
    if a.shift_tight is not None:
        cal = {"tight": a.shift_tight, "moderate": a.shift_moderate, "loose": a.shift_loose}
    th = PreflopThresholds.default(cal) if cal else None
    for t in ("tight", "moderate", "loose"):
        print(f"{t:9s} VPIP {measure(Loki1Config(tightness=t), a.hands, a.seed, th):.4f}", flush=True)
    if a.styles:
        for name, cfg in STYLES.items():
            print(f"style {name} VPIP {measure(cfg, a.hands, a.seed, th):.4f}", flush=True)


if __name__ == "__main__":
    main()
