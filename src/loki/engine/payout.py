"""The end of a hand: hands shown, pots and payoffs, from a finished :mod:`loki.betting` state vector."""

from __future__ import annotations

import numpy as np

from loki import betting as bt
from loki.engine.events import PotAward
from loki.evaluator import rank7

__all__ = ["settle"]


def settle(
    st: np.ndarray, post: tuple[int, ...], hole: list[tuple[int, int]], board: list[int], showdown: bool
) -> tuple[tuple, list[int] | None, tuple[PotAward, ...], tuple]:
    """Show down (if ``showdown``) and award the pots of a finished hand (:func:`loki.betting.award`).

    Args:
        st: the finished state vector (``STATUS`` not ``BETTING``).
        post: seats from the button's left (pokerkit's player order: the order hands are shown in).
        hole: hole cards per seat; board: the 5 board cards (read only at a showdown).
        showdown: whether hands are compared.

    Returns:
        ``(shown, ranks, pots, payoffs)``: the :class:`~loki.engine.Showdown` hands ``(seat, cards,
        rank7)`` of the players in, in ``post`` order (``()`` without a showdown); the rank per seat
        (0 for folded seats; None without a showdown); one :class:`~loki.engine.PotAward` per pot;
        net chips per seat.  Shares and payoffs are ints unless the ``"split"`` rule gave a seat a
        fractional share (then that seat's values are floats, as the ACPC dealer's doubles).
    """
    n = len(post)
    ranks = np.zeros(n, dtype=np.int64)
    shown: tuple = ()
    rank_list = None
    if showdown:
        b0, b1, b2, b3, b4 = board[0], board[1], board[2], board[3], board[4]
        folded = st[bt.FOLDED : bt.FOLDED + n].tolist()
        rank_list = [0] * n
        hands = []
        for s in post:
            if not folded[s]:
                h = hole[s]
                r = int(rank7(h[0], h[1], b0, b1, b2, b3, b4))
                rank_list[s] = r
                hands.append((s, h, r))
        ranks[:] = rank_list
        shown = tuple(hands)
    pots = np.zeros((bt.NMAX, 3), dtype=np.int64)
    shares = np.zeros((bt.NMAX, n))
    win = np.zeros(n)
    k = bt.award(st, ranks, pots, shares, win)
    frac = set()  # seats with a fractional share (the "split" rule): their payoff is a float
    awards = []
    for i in range(k):
        amount, elig_mask, win_mask = pots[i].tolist()
        elig = tuple(s for s in post if elig_mask >> s & 1)
        winners = tuple(s for s in post if win_mask >> s & 1)
        sh: list[int | float] = []
        for s in winners:
            x = float(shares[i, s])
            if x.is_integer():
                sh.append(int(x))
            else:
                frac.add(s)
                sh.append(x)
        awards.append(PotAward(amount, elig, winners, tuple(sh)))
    total = st[bt.TOTAL : bt.TOTAL + n].tolist()
    won = win.tolist()
    payoffs = tuple((won[s] if s in frac else int(won[s])) - total[s] for s in range(n))
    return shown, rank_list, tuple(awards), payoffs
