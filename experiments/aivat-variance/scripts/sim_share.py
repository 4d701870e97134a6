"""The Simulator's share of a preset's tournament CPU, and what a faster Simulator could give at most.

Plays one warm-up deal, then ``--deals`` deals of the preset as one block (:func:`loki.tournament.play_block`, the
runner's loop, no hand histories) with :meth:`loki.simulator.policy.SimulatorPolicy.decide` (a Loki-2 post-flop
decision by the Simulator: its Python and its kernel) and :func:`loki.simulator.driver.sim_decision` (the kernel alone)
wrapped to sum their process CPU time.  Prints, per round: games per CPU second, the two shares, the games per CPU
second the block would reach if every Simulator decision were free (the same games: the ceiling of any speed-up of the
Simulator that keeps play identical), and how many times faster the Simulator's decisions would have to be for
``--target`` games per CPU second (null where even a free Simulator is too slow)::

    NUMBA_CACHE_DIR=.numba_cache python experiments/aivat-variance/scripts/sim_share.py --preset fig3-BRS --deals 60 --rounds 3

The wrappers add a ``time.process_time`` pair per call (~1 µs, a few hundred calls per block); the shares are read
on the same run, so they depend less on the machine's load than the speeds do.  The rounds run in one process after
one warm-up deal, so the first is the cold one (the board caches fill): read the medians.
"""

from __future__ import annotations

import argparse
import json
import time


def block(preset: str, deals: int, target: float) -> dict:
    """One warm-up deal and one timed block of ``deals`` deals; the figures of the module docstring as a dict."""
    import loki.simulator.driver as drv
    import loki.simulator.policy as pol
    from loki.tournament import load_preset, play_block

    cfg = load_preset(preset).with_overrides(deals=deals, block_deals=deals, histories=False)
    play_block(cfg.with_overrides(deals=1, block_deals=1), 0)
    acc = {"decide": 0.0, "kernel": 0.0, "calls": 0}
    decide, kernel = pol.SimulatorPolicy.decide, drv.sim_decision

    def timed_decide(self, *a, **k):
        t = time.process_time()
        try:
            return decide(self, *a, **k)
        finally:
            acc["decide"] += time.process_time() - t
            acc["calls"] += 1

    def timed_kernel(*a):
        t = time.process_time()
        try:
            return kernel(*a)
        finally:
            acc["kernel"] += time.process_time() - t

    pol.SimulatorPolicy.decide, drv.sim_decision = timed_decide, timed_kernel  # type: ignore[method-assign]
    try:
        t = time.process_time()
        res = play_block(cfg, 0)
        cpu = time.process_time() - t
    finally:
        pol.SimulatorPolicy.decide, drv.sim_decision = decide, kernel  # type: ignore[method-assign]
    games = res["hands"]
    rest = cpu - acc["decide"]
    budget = games / target - rest  # CPU seconds the Simulator may take at the target speed
    return {
        "games": games,
        "cpu": cpu,
        "games_per_cpu_s": games / cpu,
        "simulator_share": acc["decide"] / cpu,
        "kernel_share": acc["kernel"] / cpu,
        "decisions": acc["calls"],
        "free_simulator_games_per_cpu_s": games / rest,
        "simulator_speedup_needed": acc["decide"] / budget if budget > 0 else None,  # None: not even a free one
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="fig3-BRS")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--target", type=float, default=300.0, help="games per CPU second (the goal: 300)")
    a = ap.parse_args(argv)
    for r in range(a.rounds):
        out = block(a.preset, a.deals, a.target)
        shown = {k: None if v is None else round(v, 4) for k, v in out.items()}
        print(json.dumps({"preset": a.preset, "round": r + 1, **shown}), flush=True)


if __name__ == "__main__":
    main()
