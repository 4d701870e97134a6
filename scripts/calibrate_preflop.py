"""Measure the pre-flop participation (VPIP) of 10-handed Loki-1 self-play per tightness.

VPIP = fraction of (player, hand) in which the player voluntarily put chips in pre-flop (a call or a
raise; posting a blind and the big blind's free check do not count), counted by :mod:`loki.tournament.handstats`.
Only the pre-flop strategy decides it, so post-flop the players just check/call here (fast).  Used to calibrate
``loki.preflop.MAKE1_CALIBRATION`` (targets PAPP98 §6.1: tight 18 %, moderate 21 %, loose 24 %).

    python scripts/calibrate_preflop.py --hands 20000 [--shift-tight X --shift-moderate Y --shift-loose Z]
        [--model expert|adaptive] [--styles]
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from loki.engine import Action, GameConfig
from loki.modeler import Loki1Modeler
from loki.players.loki import STYLES, Loki1Config, LokiPlayer
from loki.players.table import play_hand
from loki.preflop import AdaptiveSettings, PreflopPolicy, PreflopThresholds
from loki.tournament.handstats import HandCounts, hand_counts


@dataclass
class CheckCall:
    """Post-flop part of the calibration players: always check/call (pre-flop alone decides VPIP)."""

    action: Action = Action.CALL

    def begin_hand(self) -> None:
        pass

    def decide(self, sit) -> CheckCall:
        return self


def measure_counts(
    config: Loki1Config, hands: int, seed: int, thresholds: PreflopThresholds | None = None, n_players: int = 10
) -> HandCounts:
    """The summed :class:`HandCounts` of ``hands`` hands of ``n_players``-handed self-play of ``config``'s pre-flop
    (its tightness, shift and pre-flop model), post-flop check/call."""
    cfg = GameConfig(n_players=n_players)
    specific = config.modelling == "specific"
    settings = AdaptiveSettings(realization=config.preflop_realization)
    players = [
        LokiPlayer(
            PreflopPolicy(config.tightness, config.preflop_shift, thresholds, config.preflop_model, settings, specific),
            CheckCall(),
            Loki1Modeler(specific),
        )
        for _ in range(n_players)
    ]
    rng = np.random.default_rng(seed)
    total = HandCounts()
    for h in range(hands):
        st = play_hand(cfg, players, h % n_players, rng)
        for c in hand_counts(st):
            total += c
    return total


def measure(config: Loki1Config, hands: int, seed: int, thresholds: PreflopThresholds | None = None) -> float:
    """VPIP (fraction) of 10-handed self-play (:func:`measure_counts`)."""
    return measure_counts(config, hands, seed, thresholds).vpip / (10 * hands)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shift-tight", type=float, default=None)
    ap.add_argument("--shift-moderate", type=float, default=None)
    ap.add_argument("--shift-loose", type=float, default=None)
    ap.add_argument("--styles", action="store_true", help="also measure the TC/TA/LC/LA style presets")
    ap.add_argument("--model", choices=("expert", "adaptive"), default="expert", help="the pre-flop model")
    a = ap.parse_args()
    cal = None
    if a.shift_tight is not None:
        cal = {"tight": a.shift_tight, "moderate": a.shift_moderate, "loose": a.shift_loose}
    th = PreflopThresholds.default(cal) if cal else None
    configs = {t: Loki1Config(tightness=t) for t in ("tight", "moderate", "loose")}
    if a.styles:
        configs.update({f"style {name}": cfg for name, cfg in STYLES.items()})
    for label, cfg in configs.items():
        c = measure_counts(cfg.model_copy(update={"preflop_model": a.model}), a.hands, a.seed, th)
        print(f"{label:9s} VPIP {c.vpip / c.hands:.4f} PFR {c.pfr / c.hands:.4f}", flush=True)


if __name__ == "__main__":
    main()
