"""CPU of the adaptive Loki's decisions against the paper's B+R+S, in the same games (issue 24).

Plays ``--deals`` duplicate deals of a 10-player table (8 × Loki-1, one ``loki2:BRS`` and one ``loki2:BRS:adaptive``,
every deal in every seating) and times, in process CPU, every call each of the two Loki-2 players gets from the
table: ``act`` (its decisions: the Simulator's play-outs, the adaptive model's averaged play-out policies) and
``observe`` (its opponent modelling: one re-weighting per candidate model for the adaptive one).  Both players sit
at the same tables in the same process, so the machine's load falls on both alike::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_adaptive.py --deals 20
"""

from __future__ import annotations

import argparse
import time

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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    from loki.engine import GameConfig

    game = GameConfig(n_players=10)
    players = [make_player("loki1", seed=i) for i in range(8)]
    paper = Timed(make_player("loki2:BRS", seed=8))
    adaptive = Timed(make_player("loki2:BRS:adaptive", seed=9))
    players += [paper, adaptive]
    seating = Seating(players)
    for d in range(a.deals):
        holes, board = deal_cards(a.seed, d, 10)
        for row in seatings(10):
            play_hand(game, seating.seat(row), BUTTON, None, hole_cards=holes, board=board)
    for p in (paper, adaptive):
        per = 1e3 * (p.act_s + p.observe_s) / max(1, p.decisions)
        print(
            f"{p.name:28} decisions {p.decisions:5d}  act {p.act_s:7.2f} s  observe {p.observe_s:6.2f} s  "
            f"{per:6.2f} ms CPU per decision (act + observe)"
        )
    r = (adaptive.act_s + adaptive.observe_s) / adaptive.decisions / ((paper.act_s + paper.observe_s) / paper.decisions)
    print(f"adaptive / paper, CPU per decision: {r:.2f}x")


if __name__ == "__main__":
    main()
