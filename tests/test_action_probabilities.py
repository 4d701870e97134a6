"""Players say with which probabilities they chose each action (the referee's input for variance reduction)."""

from __future__ import annotations

import numpy as np
import pytest

from loki.engine import GameConfig
from loki.players.base import Player
from loki.players.registry import make_player
from loki.players.table import play_session
from loki.selector import interval_probabilities, select_action
from loki.triples import ProbabilityTriple


def _random_triple(rng) -> ProbabilityTriple:
    x = rng.dirichlet([0.7, 0.7, 0.7])
    return ProbabilityTriple(*(x / x.sum()))


def test_interval_probabilities_are_the_conditional_frequencies_of_one_u_per_hand():
    """Draw u once per hand, play a sequence of triples with the selector's rule; the frequency of each action given
    the earlier actions matches :func:`interval_probabilities` (100,000 hands, 4 decisions, |diff| < 0.01)."""
    rng = np.random.default_rng(0)
    for _ in range(5):
        spots = [(_random_triple(rng), float(rng.choice([0.0, 10.0])), bool(rng.random() < 0.8)) for _ in range(4)]
        us = rng.random(100_000)
        seqs = [tuple(int(select_action(pt, u, tc, cr)) for pt, tc, cr in spots) for u in us]
        for k in range(1, 4):
            counts: dict = {}
            for sq in seqs:
                counts.setdefault(sq[:k], np.zeros(3))[sq[k]] += 1
            for prefix, c in counts.items():
                if c.sum() < 3000:
                    continue
                lo, hi = 0.0, 1.0
                for (pt, tc, cr), a in zip(spots, prefix):
                    _, spans = interval_probabilities(pt, lo, hi, tc, cr)
                    lo, hi = max(lo, spans[a][0]), min(hi, spans[a][1])
                want, _ = interval_probabilities(*((spots[k][0], lo, hi) + spots[k][1:]))
                assert np.allclose(c / c.sum(), want, atol=0.01), (prefix, c / c.sum(), want)


class _Recorder(Player):
    """Wraps a player and checks its action_probabilities after every act."""

    def __init__(self, inner, log):
        self.inner, self.name, self.log = inner, inner.name, log

    def begin_hand(self, *a):
        self.inner.begin_hand(*a)

    def observe(self, e):
        self.inner.observe(e)

    def reseat(self, m):
        self.inner.reseat(m)

    def act(self, view, legal):
        a = self.inner.act(view, legal)
        self.log.append((a, legal, self.inner.action_probabilities()))
        return a


@pytest.mark.parametrize("spec", ["loki1", "loki2:BR", "loki2:S:trials=30", "random", "maniac", "equity", "calling"])
def test_probabilities_are_distributions_over_the_legal_actions(spec):
    log: list = []
    players = [_Recorder(make_player(spec, seed=1), log)] + [make_player("loki1", seed=2 + i) for i in range(2)]
    play_session(GameConfig(n_players=3), players, n_hands=60, seed=4)
    assert log
    for a, legal, p in log:
        if spec.startswith("loki2:S") and p is None:
            continue  # a Simulator decision does not know its distribution (pre-flop ones do)
        assert p is not None and abs(sum(p) - 1.0) < 1e-9
        assert all(p[int(x)] == 0.0 for x in (0, 1, 2) if x not in [int(b) for b in legal])
        assert p[int(a)] > 0.0  # the action taken had a chance
        if spec in ("loki1", "calling", "equity"):
            assert max(p) == 1.0 or sorted(p)[0] == 0.0  # pure, but for the Bettor's check-raise coin
