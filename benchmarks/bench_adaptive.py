"""CPU of the adaptive Loki's decisions against the paper's B+R+S on the same deals.

For each spec (default ``loki2:BRS`` and ``loki2:BRS:adaptive``) a fresh process plays fig3-BRS's table (8 × Loki-1
and 2 × the spec) on ``--deals`` duplicate deals, every deal in every seating, after ``--warmup`` untimed deals of
another seed (numba kernels loaded, board caches in their steady state), and times in process CPU every call the two
Loki-2 players get: ``act`` (their decisions: the Simulator's play-outs) and ``observe`` (their opponent modelling:
one re-weighting per candidate model for the adaptive one).  Each spec runs in its own process because the
Simulator's board cache is process-wide: in one process the second player to reach a board would find it built by
the first (an earlier version of this benchmark sat both at one table and measured that, not the models).  The
processes run one after the other, ``--rounds`` times alternating; the minimum of the rounds is reported, and the
ratio of each round's two specs (run back to back, so under about the same load of a shared machine) with their
median::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_adaptive.py --deals 10 --rounds 2
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.tournament.schedule import BUTTON, Seating, deal_cards, seatings


class Timed:
    """A player whose ``act`` and ``observe`` calls are timed (process CPU)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.act_s = self.observe_s = 0.0
        self.decisions = 0

    def __getattr__(self, item):
        return getattr(self.inner, item)

    def begin_hand(self, *a):
        self.inner.begin_hand(*a)

    def end_hand(self, view):
        self.inner.end_hand(view)

    def observe(self, event):
        t = time.process_time()
        self.inner.observe(event)
        self.observe_s += time.process_time() - t

    def act(self, view, legal):
        t = time.process_time()
        a = self.inner.act(view, legal)
        self.act_s += time.process_time() - t
        self.decisions += 1
        return a


def measure(spec: str, deals: int, seed: int, warmup: int) -> tuple[float, float, int]:
    """(act CPU s, observe CPU s, decisions) of the two ``spec`` players over ``deals`` deals (after the warm-up)."""
    from loki.engine import GameConfig

    game = GameConfig(n_players=10)
    timed = [Timed(make_player(spec, seed=8)), Timed(make_player(spec, seed=9))]
    seating = Seating([make_player("loki1", seed=i) for i in range(8)] + timed)
    for s, n in ((seed + 1, warmup), (seed, deals)):
        for p in timed:
            p.act_s = p.observe_s = 0.0
            p.decisions = 0
        for d in range(n):
            holes, board = deal_cards(s, d, 10)
            for row in seatings(10):
                play_hand(game, seating.seat(row), BUTTON, None, hole_cards=holes, board=board)
    return sum(p.act_s for p in timed), sum(p.observe_s for p in timed), sum(p.decisions for p in timed)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=2, help="deals of seed + 1 played first, untimed")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--spec", action="append", help="the specs (default loki2:BRS and loki2:BRS:adaptive)")
    a = ap.parse_args(argv)
    specs = a.spec or ["loki2:BRS", "loki2:BRS:adaptive"]
    best: dict[str, tuple[float, float, int]] = {}
    rounds: list[dict[str, float]] = []  # CPU per decision of each spec, round by round (the specs alternate)
    for _ in range(a.rounds):
        rounds.append({})
        for spec in specs:
            with ProcessPoolExecutor(max_workers=1) as ex:  # a fresh process: its own board cache
                act, obs, n = ex.submit(measure, spec, a.deals, a.seed, a.warmup).result()
            rounds[-1][spec] = (act + obs) / max(1, n)
            if spec not in best or act + obs < sum(best[spec][:2]):
                best[spec] = (act, obs, n)
    per = {}
    for spec, (act, obs, n) in best.items():
        per[spec] = (act + obs) / max(1, n)
        print(
            f"{spec:28} decisions {n:5d}  act {act:7.2f} s  observe {obs:6.2f} s  "
            f"{1e3 * per[spec]:7.2f} ms CPU per decision (act + observe; min of {a.rounds} rounds)"
        )
    base = per[specs[0]]
    for spec in specs[1:]:
        paired = sorted(r[spec] / r[specs[0]] for r in rounds)
        median = statistics.median(paired)
        print(
            f"{spec} / {specs[0]}, CPU per decision: {per[spec] / base:.2f}x (min of the rounds); "
            f"round by round {', '.join(f'{x:.2f}' for x in paired)} (median {median:.2f}x)"
        )


if __name__ == "__main__":
    main()
