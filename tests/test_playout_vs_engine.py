"""The Simulator's play-out and the rules engine play the same betting (one betting core).

Random hands (fixed seeds, several table sizes, unlimited stacks) are played on the engine up to a
post-flop decision; that decision becomes a :class:`~loki.simulator.SimSpot` (as the Simulator
policy builds it) and a state vector (:func:`~loki.simulator.spot_state`), and the play-out kernel
(:func:`loki.simulator.playout.playout`) plays it out with the actual cards and random hand values, so its
players fold, call and raise.  The kernel's trace (the state before each action and the action) is
then replayed on the engine: before every action both must agree on the player to act, the round,
the pot, the bets of this round, the bets/raises count and the legal actions; afterwards on the pots
and the payoffs (the engine in the ``"split"`` odd-chip mode the play-out uses), and the kernel's
result must be our payoff counted from the decision on.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from loki import betting as bt
from loki.cards import N_HOLDINGS
from loki.engine import FOLD, RAISE, Action, GameConfig, new_hand
from loki.evaluator import rank7
from loki.simulator import SimulatorPolicy, playout_policies, spot_state
from loki.simulator.playout import PlayoutSpot, StreetValues, new_scratch, playout
from loki.triples import TripleConfig

_MASK = {a: 1 << int(a) for a in Action}


def _to_decision(rng, n):
    """A hand on the engine at a random post-flop decision, or None if it ended before."""
    s = new_hand(GameConfig(n_players=n, odd_chip="split"), button=int(rng.integers(n)), rng=rng)
    while not s.is_terminal:
        if s.round > 0 and rng.random() < 0.4:
            return s
        legal = s.legal_actions()
        w = np.array([{FOLD: 0.08, RAISE: 0.3}.get(a, 0.62) for a in legal])
        s.apply(legal[int(rng.choice(len(legal), p=w / w.sum()))])
    return None


def _spot(s):
    """The SimSpot of the player to act, built by the Simulator policy itself (a minimal Situation)."""
    sit = SimpleNamespace(
        view=s.view(s.current_player),
        seat=s.current_player,
        weights_in_order=lambda order: np.ones((len(order), N_HOLDINGS)),
    )
    return SimulatorPolicy().sim_spot(sit)


@pytest.mark.parametrize("n", [2, 3, 6, 10])
def test_playout_and_engine_play_the_same_hands(n):
    rng = np.random.default_rng(4100 + n)
    params = TripleConfig().params()
    bet_sizes = np.array([10.0, 10.0, 20.0, 20.0])
    played = folds = raises = showdowns = splits = 0
    while played < 150:
        s = _to_decision(rng, n)
        if s is None:
            continue
        played += 1
        order = s.postflop_order
        m = len(order)
        spot = _spot(s)
        me = spot.me
        st0 = spot_state(spot)
        board = s.full_board
        ranks = np.array([rank7(*s.hole_cards(q), *board) for q in order], dtype=np.int64)
        hs1, pp, nn = rng.random((m, 4)), 0.3 * rng.random((m, 4)), 0.2 * rng.random((m, 4))
        u = rng.random(m)
        forced = int(rng.choice([bt.CALL_A, bt.RAISE_A]))
        always_call = bool(rng.random() < 0.2)
        scratch = new_scratch(m)
        trace = np.full((256, bt.SIZE + 1), -1, dtype=np.int64)
        values = StreetValues(hs1, pp, nn, np.full((m, 4), 0.5))
        pspot = PlayoutSpot(
            me, st0, bet_sizes, np.array(spot.hole, dtype=np.int64), np.array(spot.board, dtype=np.int64), always_call
        )
        value = playout(
            forced, pspot, values, u[:, None], ranks, playout_policies(None, m, False, params), scratch, trace
        )
        st, pots, win = scratch.st, scratch.pots, scratch.win

        total_before = s.total_committed
        steps = trace[trace[:, bt.SIZE] >= 0]
        assert len(steps) >= 1 and steps[0, bt.CUR] == me
        for row in steps:
            k, a = row[: bt.SIZE], Action(int(row[bt.SIZE]))
            assert order[k[bt.CUR]] == s.current_player
            assert k[bt.ROUND] == s.round and k[bt.POT] == s.pot and k[bt.BETS] == s.bets_this_round
            assert [int(k[bt.BET + i]) for i in range(m)] == [s.committed[q] for q in order]
            assert bt.legal_mask(k) == sum(_MASK[x] for x in s.legal_actions())
            assert a in s.legal_actions()
            folds += a is FOLD
            raises += a is RAISE
            s.apply(a)
        assert s.is_terminal and int(st[bt.CUR]) == -1
        assert s.went_to_showdown == (int(st[bt.STATUS]) == bt.SHOWDOWN)
        showdowns += s.went_to_showdown
        # the same pots and payoffs: the kernel's chips won minus the engine's chips put in
        kpots = [
            (int(pots[i, 0]), tuple(order[j] for j in range(m) if pots[i, 2] >> j & 1)) for i in range(len(s.pots))
        ]
        assert kpots == [(p.amount, tuple(sorted(p.winners, key=order.index))) for p in s.pots]
        splits += any(len(p.winners) > 1 for p in s.pots)
        assert [win[i] - s.total_committed[q] for i, q in enumerate(order)] == [s.payoffs[q] for q in order]
        seat = order[me]
        invest = s.total_committed[seat] - total_before[seat]
        won = any(seat in p.winners for p in s.pots)
        assert value == (win[me] - invest if won else -invest)
    # the sample exercises folds, raises, showdowns and split pots
    assert folds > 20 and raises > 20 and showdowns > 20 and splits > 0
